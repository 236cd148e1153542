"""Ranked play (排位; docs/web.md, "Ranked play"): a queue per family and match length, the
matchmaker, and what leaving a ranked match costs.

A signed-in player asks to play ranked (``POST /api/ranked``); the page then asks every second
(``GET /api/ranked``) how many wait with them, and whether a table was made.  Each ask may make one:
the process it reaches takes four waiting players whose ratings are close
(:meth:`~tjmj.web.store_ranked.RankedMixin.ranked_claim`: the window widens the longer the longest
of them has waited, :func:`window`), makes a room of its own for them, with the ``hard`` level's bot
for anyone who leaves, and hands each their seat's token through the queue's row, which only that
account's session reads.  The queue is in the database, so it is one queue whichever process answers.

A ranked match is a room with ``ranked`` set: its match's settings carry it, and the store rates
the match when it finishes (:mod:`tjmj.web.store_ratings`).  Leaving it (the table's "Leave" button,
or being away longer than the grace period when it ends) hands the seat to the bot for good and
counts as last place.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import families
from ..rules import FAMILIES, Rules
from ..wall import SEATS
from .accounts import session_of
from .inputs import LobbyError, account_player_id

if TYPE_CHECKING:
    from .lobby import Lobby
    from .room import Room

__all__ = ["RANKED_BOT", "RANKED_HANDS", "finish", "ranked_routes", "window"]

log = logging.getLogger("tjmj.web")

RANKED_HANDS = (4, 8, 16)  # the lengths one can queue for: few, so that the queues stay full
RANKED_BOT = "strong"  # the ``hard`` level plays the seat of anyone who leaves
RANKED_TIMER = 30.0  # seconds a decision (a ranked table cannot wait for someone who stopped playing)
WINDOW_BASE = 100.0  # rating points four players may span at once ...
WINDOW_GROWTH = 10.0  # ... and this many more for every second the longest-waiting of them has waited


def window(waited_s: float) -> float:
    """How far apart (in displayed rating points) four players may be to share a ranked table,
    when the longest-waiting of them has waited ``waited_s`` seconds: close at first, anyone
    after a minute or two, so that nobody waits for ever when few are online."""
    return WINDOW_BASE + WINDOW_GROWTH * max(0.0, waited_s)


def _rating(lb: Lobby, player_id: str, family: str) -> float:
    """The player's displayed rating in ``family`` (the starting one if they have none)."""
    from ..ratings import DEFAULT

    row = lb.store.rating(player_id, family)  # type: ignore[attr-defined]
    return float(row["rating"]) if row else float(DEFAULT.display)


def _choice(data: dict[str, Any]) -> tuple[str, int]:
    family = data.get("family")
    names = sorted(FAMILIES)
    if family not in names:
        raise LobbyError(400, f"'family' must be one of {', '.join(names)}")
    hands = data.get("match_hands")
    if hands not in RANKED_HANDS or isinstance(hands, bool):
        raise LobbyError(400, f"'match_hands' must be one of {', '.join(map(str, RANKED_HANDS))} for ranked play")
    return str(family), int(hands)


async def seat_four(lb: Lobby, group: list[dict[str, Any]], family: str, hands: int) -> str:
    """A room for four claimed players, started, each seated by their own name and id; the
    queue's rows get their tokens.  Anything that fails puts them back to waiting."""
    ids = [int(r["account_id"]) for r in group]
    room: Room | None = None
    try:
        rules = Rules.preset(families.get(family).default_preset, match_hands=hands)
        first = group[0]
        room, token = lb.create(first["name"], rules, bots=RANKED_BOT, timer_s=lb.timer or RANKED_TIMER,
                                player_id=first["player_id"])
        room.ranked = True
        tokens = {ids[0]: (0, token)}
        for r in group[1:]:
            _, player, tok = await lb.join(room.id, r["name"], r["player_id"])
            tokens[int(r["account_id"])] = (player, tok)
        await room.begin()
        await lb.db_answer(lb.store.ranked_seated, room.id, tokens)  # type: ignore[attr-defined]
        return room.id
    except Exception:
        log.exception("a ranked table for %s could not be made", ids)
        if room is not None and room.status in ("waiting", "starting"):
            lb.rooms.pop(room.id, None)
        await lb.quietly(lb.store.ranked_release, ids, what="ranked: putting four back")  # type: ignore[attr-defined]
        raise LobbyError(503, "a ranked table could not be made; you are still in the queue") from None


async def finish(room: Room, scores: list[int]) -> None:
    """Store a finished match as finished (which rates it, when ranked).  A ranked seat that the
    bot was playing at the end because its person had been away longer than the grace period
    counts as left first (last place), like one who pressed "Leave"."""
    lb = room.lobby
    if room.ranked and room.match is not None:
        for seat in range(SEATS):
            p = room.player_at(seat)
            away = p.bot is None and not p.connected and p.away_since is not None
            if away and not p.left and time.time() - p.away_since >= room.grace_for(p):  # type: ignore[operator]
                p.left = True
                await lb.quietly(lb.store.mark_left, room.match_id, seat,
                                 what=f"room {room.id}: seat {seat} left")
    await lb.quietly(lb.store.finish_match, room.match_id, scores,
                     what=f"room {room.id}: finishing match {room.match_id}")


def ranked_routes(lobby: Callable[[], Lobby], api: Callable[..., Any],
                  body: Callable[[Request], Awaitable[dict[str, Any]]]) -> list[Route]:
    """``/api/ranked``: join (POST), ask (GET), leave (POST ``/api/ranked/leave``)."""

    async def me(request: HTTPConnection) -> dict[str, Any]:
        who = await session_of(lobby(), request)
        if who is None:
            raise LobbyError(401, "sign in to play ranked")
        return who

    async def state(lb: Lobby, who: dict[str, Any], match: bool) -> dict[str, Any]:
        row = await lb.db_answer(lb.store.ranked_entry, who["id"])  # type: ignore[attr-defined]
        if row is None:
            return {"state": "idle"}
        if match and row["room"] is None:
            group = await lb.db_answer(lb.store.ranked_claim, row["family"], row["hands"],  # type: ignore[attr-defined]
                                       window)
            if group is not None:
                await seat_four(lb, group, row["family"], row["hands"])
                row = await lb.db_answer(lb.store.ranked_entry, who["id"])  # type: ignore[attr-defined]
                if row is None:
                    return {"state": "idle"}
        out: dict[str, Any] = {"family": row["family"], "match_hands": row["hands"], "rating": row["rating"]}
        if row["room"]:
            return {**out, "state": "matched", "room": row["room"], "token": row["token"],
                    "player": row["player"]}
        return {**out, "state": "seating" if row["room"] == "" else "waiting", "waiting": row["waiting"],
                "waited_s": round(row["waited_s"], 1), "window": round(window(row["waited_s"]))}

    async def join(request: Request) -> Response:
        who = await me(request)
        family, hands = _choice(await body(request))
        lb = lobby()
        pid = account_player_id(who["id"])
        rating = await lb.db_answer(_rating, lb, pid, family)
        try:
            await lb.db_answer(lb.store.ranked_join, who["id"], pid, who["name"], family, hands,  # type: ignore[attr-defined]
                               rating)
        except ValueError as e:
            raise LobbyError(409, str(e)) from None
        return JSONResponse(await state(lb, who, match=True))

    async def ask(request: Request) -> Response:
        who = await me(request)
        return JSONResponse(await state(lobby(), who, match=True))

    async def leave(request: Request) -> Response:
        who = await me(request)
        await body(request)
        lb = lobby()
        if not await lb.db_answer(lb.store.ranked_leave, who["id"]):  # type: ignore[attr-defined]
            row = await lb.db_answer(lb.store.ranked_entry, who["id"], False)  # type: ignore[attr-defined]
            if row is not None and row["room"] == "":
                raise LobbyError(409, "a table is being made for you this moment; it cannot be left now")
        return JSONResponse({"state": "idle"})

    return [
        Route("/api/ranked", api(ask), methods=["GET"]),
        Route("/api/ranked", api(join, post=True), methods=["POST"]),
        Route("/api/ranked/leave", api(leave, post=True), methods=["POST"]),
    ]
