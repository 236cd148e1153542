"""The lobby's lists: open rooms waiting for players and live tables to watch (``GET /api/lobby``).

Built from the lobby's rooms in memory, never from the database, and at most every
``Limits.lobby_rebuild`` seconds however many clients ask: a crowd of lobby pages polling costs a
dictionary lookup each, not a walk over every room.  When a rebuilt listing differs from the last
one the ``version`` goes up; the JSON body and its ETag are kept per version, so a page that already
has it is answered ``304 Not Modified`` with no body (docs/web.md, docs/security.md).

What is listed (docs/web.md "Tables to browse"): a room that is not private and that a person has
connected to; under ``open`` while it waits with its host connected and a place free, under ``live``
while it is played with a person connected (or away for less than :data:`AWAY_LISTED` seconds: a
table nobody plays waits, so there is nothing to watch).  Names, the game and the scores only: no
token, token hash or player id.
"""

from __future__ import annotations

import functools
import secrets
import time
from typing import TYPE_CHECKING, Any

import orjson

from ..rules import PRESETS, Rules
from ..wall import SEATS
from .inputs import clean_name

if TYPE_CHECKING:
    from .lobby import Lobby
    from .room import Room

__all__ = ["AWAY_LISTED", "LobbyListing"]

# how many rooms per list and how often they are looked at: Limits.lobby_listed, Limits.lobby_rebuild
AWAY_LISTED = 60.0  # a table whose people all left stays listed this long (a reload, a blip)


@functools.lru_cache(maxsize=256)
def _custom(rules: Rules) -> bool:
    """Whether some option differs from the preset's, the match length aside (the list shows it)."""
    if "+" not in rules.name:
        return False
    length = ("match_hands", "match_rounds")
    mine = {k: v for k, v in rules.to_dict().items() if k not in length}
    return mine != {k: v for k, v in PRESETS[rules.name.split("+")[0]].to_dict().items() if k not in length}


def _game(room: Room) -> dict[str, Any]:
    r = room.rules
    return {"family": r.family, "preset": r.name.split("+")[0], "custom": _custom(r),
            "match_hands": r.match_hands, "match_rounds": r.match_rounds}


def _open_entry(room: Room) -> dict[str, Any]:
    return {"room": room.id, **_game(room), "bots": room.bot_kind, "timer_s": room.timer_s,
            "host": clean_name(room.players[0].name), "players": [clean_name(p.name) for p in room.players],
            "created": int(room.created)}


def _live_entry(room: Room) -> dict[str, Any]:
    m = room.match
    assert m is not None
    seats = [room.player_at(s) for s in range(SEATS)]
    return {"room": room.id, **_game(room), "hand": m.hand_number + 1, "round": m.round + 1,
            "seats": [{"name": clean_name(p.name), "bot": p.bot is not None, "score": m.scores[s]}
                      for s, p in enumerate(seats)],
            "spectators": len(room.spectators), "created": int(room.created)}


def _is_open(room: Room) -> bool:
    return (room.status == "waiting" and room.seen and 0 < len(room.players) < SEATS
            and room.players[0].bot is None and room.players[0].connected)


def _is_live(room: Room, now: float) -> bool:
    if room.status != "playing" or not room.seen or room.match is None or room.match.is_over:
        return False
    return any(p.bot is None and (p.connected or (p.away_since is not None and now - p.away_since < AWAY_LISTED))
               for p in room.players)


class LobbyListing:
    """The lists of one lobby, rebuilt at most every ``Limits.lobby_rebuild`` seconds, with a
    version that changes only when what they show changes."""

    def __init__(self) -> None:
        self.version = 0
        self.tag = secrets.token_hex(4)  # per process: a restarted server's version 1 is a new ETag
        self._lists: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None
        self._body = b""
        self._built_at = -1e9

    @staticmethod
    def lists(lobby: Lobby, now: float | None = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(open, live), each newest first and at most ``Limits.lobby_listed`` long."""
        now = time.time() if now is None else now
        most = lobby.limits.lobby_listed
        rooms = sorted((r for r in lobby.rooms.values() if not getattr(r, "private", False)),
                       key=lambda r: r.created, reverse=True)
        opened: list[dict[str, Any]] = []
        live: list[dict[str, Any]] = []
        for room in rooms:
            if len(opened) < most and _is_open(room):
                opened.append(_open_entry(room))
            elif len(live) < most and _is_live(room, now):
                live.append(_live_entry(room))
            if len(opened) >= most and len(live) >= most:
                break
        return opened, live

    def current(self, lobby: Lobby, peers: list[tuple[list[Any], list[Any]]] | None = None) -> tuple[int, bytes]:
        """The version and the JSON body (without ``now``) of the listing, rebuilt if it is stale.
        ``peers``: the other processes' (open, live) lists of a cluster, merged in (newest first)."""
        clock = time.monotonic()
        if clock - self._built_at >= lobby.limits.lobby_rebuild:
            self._built_at = clock
            lists = self.lists(lobby)
            if peers:
                most = lobby.limits.lobby_listed
                merged = ([*lists[0]], [*lists[1]])
                for opened, live in peers:
                    merged[0].extend(e for e in opened if isinstance(e, dict))
                    merged[1].extend(e for e in live if isinstance(e, dict))
                lists = tuple(sorted(x, key=lambda e: (-int(e.get("created") or 0), str(e.get("room"))))[:most]
                              for x in merged)  # type: ignore[assignment]
            if lists != self._lists:
                self._lists = lists
                self.version += 1
                self._body = orjson.dumps({"version": self.version, "open": lists[0], "live": lists[1]})
        return self.version, self._body

    def etag(self) -> str:
        return f'W/"{self.tag}-{self.version}"'
