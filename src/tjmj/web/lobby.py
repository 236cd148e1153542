"""Every room of the web server (:class:`Lobby`), the store, and the settings the rooms share.

Resume: :meth:`Lobby.resume_all` claims every unfinished match that someone had connected to and
whose lease is free, and rebuilds it by replaying the actions its events imply (as
:func:`tjmj.record.replay` does), up to the last stored hand; the hand in play is void (never
stored, nobody's score changed by it) and is dealt again from a fresh wall (``start_kyoku.resume``,
docs/records.md), never the interrupted one.
Waiting rooms that someone had connected to are stored too and come back the same way.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

from ..bots import Bot, make_bot
from ..deal import salt_of
from ..game import Match
from ..record import ReplayError as ResumeError
from ..record import rebuild
from ..rules import Rules
from ..wall import SEATS
from .errors import DatabaseLost
from .hints import HINT_SEARCH_MS
from .inputs import BOT_SPEEDS, ROOM_BOTS, LobbyError, checked_player_id, clean_name, room_bot
from .limits import CLOSE_TRY_AGAIN, Buckets, Limits
from .room import Room

__all__ = [
    "Lobby",
    "MatchFactory",
    "ROOM_ALPHABET",
    "StoreLike",
]

log = logging.getLogger("tjmj.web")

T = TypeVar("T")
# (rules, seed, names by player) -> the match a room plays; the default is Match(rules, seed, names)
MatchFactory = Callable[[Rules, int, list[str]], Match]
ROOM_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


class StoreLike(Protocol):
    """What the rooms need of :class:`tjmj.web.store.Store`."""

    def create_match(self, room: str, rules_dict: dict[str, Any], seed: int, players: list[dict[str, Any]],
                     *, settings: dict[str, Any] | None = None, seen: bool = False,
                     replaces_room: str | None = None) -> Any: ...
    def append_events(self, match_id: Any, events: list[dict[str, Any]], *, at: int | None = None) -> Any: ...
    def finish_match(self, match_id: Any, scores: list[int]) -> Any: ...
    def abandon_match(self, match_id: Any) -> Any: ...
    def discard_match(self, match_id: Any) -> Any: ...
    def mark_seen(self, match_id: Any) -> Any: ...
    def mark_left(self, match_id: Any, seat: int) -> Any: ...
    def events(self, match_id: Any) -> list[dict[str, Any]]: ...
    def claim_matches(self) -> list[dict[str, Any]]: ...
    def claim_rooms(self) -> list[dict[str, Any]]: ...
    def save_room(self, code: str, data: dict[str, Any]) -> Any: ...
    def delete_room(self, code: str) -> Any: ...
    def renew(self) -> tuple[set[int], set[str]]: ...
    def release_all(self) -> Any: ...


class Lobby:
    """Every room of the server, the store, and the settings shared by the rooms."""

    def __init__(self, store: StoreLike, *, bot_delay: float = 0.4, timer: float | None = None,
                 next_delay: float = 8.0, max_rooms: int | None = None,
                 rate_limit: tuple[int, float] | None = None, limits: Limits | None = None,
                 match_factory: MatchFactory | None = None, bot_factory: Callable[[str], Bot] | None = None,
                 hint_search_ms: float | None = HINT_SEARCH_MS) -> None:
        lim = limits or Limits()
        if rate_limit is not None:  # the per-address bucket stays above the per-seat one
            burst, rate = rate_limit
            lim = Limits(**{**lim.__dict__, "ws_burst": burst, "ws_rate": rate,
                            "address_ws_burst": max(lim.address_ws_burst, 3 * burst),
                            "address_ws_rate": max(lim.address_ws_rate, 3 * rate)})
        if max_rooms is not None:
            lim = Limits(**{**lim.__dict__, "max_rooms": max_rooms})
        self.limits = lim
        self.store = store
        # how a room makes its match and its bots: tests script walls and bots with these
        self.match_factory: MatchFactory = match_factory or _new_match
        self.bot_factory: Callable[[str], Bot] = bot_factory or make_bot
        self.bot_delay = max(0.0, bot_delay)
        self.hint_search_ms = hint_search_ms if hint_search_ms and hint_search_ms > 0 else None
        self.timer = timer
        self.next_delay = next_delay
        self.rooms: dict[str, Room] = {}
        self.clustered = False  # one of several processes (tjmj.web.cluster): a room lost to another is let go
        self.broken: str | None = None  # the database was lost: no play until a restart
        self.post_buckets = Buckets(lim.post_burst, lim.post_rate)
        self.get_buckets = Buckets(lim.get_burst, lim.get_rate)
        self.ws_buckets = Buckets(lim.address_ws_burst, lim.address_ws_rate)
        self.sockets: dict[str, int] = {}  # open WebSockets per client address
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="tjmj-db")
        # the health check's own thread: never queued behind calls stuck on a frozen database
        self._health_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tjmj-health")
        self._health: tuple[float, str | None] | None = None  # (loop time, the last check's answer)
        self._health_job: tuple[float, concurrent.futures.Future[Any]] | None = None  # (its start, the check)

    @property
    def rate_limit(self) -> tuple[int, float]:
        return self.limits.ws_burst, self.limits.ws_rate

    # ---- the database, off the event loop -----------------------------------------------

    async def db_call(self, fn: Callable[..., T], *args: Any, on_slow: Callable[[], None] | None = None,
                      **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` in the database thread pool, awaited to the end (a write is never
        abandoned half way: retrying one that is still running could store it twice).
        ``on_slow()`` is called once if it takes longer than ``limits.db_timeout``."""
        loop = asyncio.get_running_loop()
        fut = loop.run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))
        if on_slow is None:
            return await fut
        try:
            return await asyncio.wait_for(asyncio.shield(fut), self.limits.db_timeout)
        except TimeoutError:
            on_slow()
            return await fut

    async def db_read(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A read for an HTTP answer: a database slower than ``limits.db_timeout`` answers 503."""
        return await self.db_answer(fn, *args, **kwargs)

    async def db_answer(self, fn: Callable[..., T], *args: Any, late: Callable[[T], None] | None = None,
                        **kwargs: Any) -> T:
        """A call an HTTP request waits for: answered within ``limits.db_timeout`` whatever the
        database does (a frozen server never answers, and the pool's threads may all be stuck on
        it; the store's own deadlines free them only later), else 503.

        A call still queued then is dropped; one already running goes on in its thread, and if it
        succeeds after all, ``late(result)`` (on the event loop) repairs what the refused request
        left: a match nobody will play, a room stored with a player who was told no."""
        loop = asyncio.get_running_loop()
        job = self._pool.submit(functools.partial(fn, *args, **kwargs))
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(job)), self.limits.db_timeout)
        except TimeoutError:
            if not job.cancel():  # running: see how it ends

                def ended(f: concurrent.futures.Future[T]) -> None:
                    if late is not None and not f.cancelled() and f.exception() is None:
                        with contextlib.suppress(RuntimeError):  # the server has stopped meanwhile
                            loop.call_soon_threadsafe(late, f.result())

                job.add_done_callback(ended)
            raise LobbyError(503, "the database is not answering; try again shortly", retry_after=5) from None

    async def quietly(self, fn: Callable[..., Any], *args: Any, what: str) -> None:
        """A background write that may fail without stopping anything (logged)."""
        try:
            await self.db_call(fn, *args)
        except DatabaseLost as e:
            self.database_lost(str(e))
        except Exception as e:
            log.warning("%s failed: %s", what, e)

    def refuse_if_lost(self, e: BaseException) -> None:
        if isinstance(e, DatabaseLost):
            self.database_lost(str(e))
            raise LobbyError(503, str(e)) from None

    def database_lost(self, message: str) -> None:
        """The database file is gone (or replaced, or unwritable): stop every table, refuse new ones."""
        if self.broken is not None:
            return
        self.broken = message
        log.critical("%s: play is stopped; restore the database and restart the server", message)
        for room in self.rooms.values():
            if room.status in ("playing", "waiting", "starting"):
                room.stop_with(f"{message}. Play is stopped: nothing more can be saved", "database_lost")

    async def database_down(self) -> str | None:
        """Why the database cannot take writes now, or None when it can: ``store.ping()`` (a
        ``SELECT 1``, and a SQLite file's check), answered within ``limits.health_timeout`` and
        reused for ``limits.health_every`` seconds, so that a flood of health checks costs the
        database one query at a time."""
        if self.broken is not None:
            return self.broken
        ping = getattr(self.store, "ping", None)
        if ping is None:  # a store without the check (tests): what the tables last saw
            return None
        lim = self.limits
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self._health is not None and now - self._health[0] < lim.health_every:
            return self._health[1]
        if self._health_job is None or self._health_job[1].done():
            self._health_job = (now, self._health_pool.submit(ping))
        started, job = self._health_job
        answer: str | None = None
        try:
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(job)), max(0.0, started + lim.health_timeout - now))
        except TimeoutError:
            answer = f"the database has not answered for {now - started:.1f} s"
        except Exception as e:
            text = str(getattr(e, "orig", None) or e).strip()
            answer = (text.splitlines()[0] if text else type(e).__name__)[:300]
        self._health = (loop.time(), answer)
        return answer

    def check_open(self) -> None:
        if self.broken is not None:
            raise LobbyError(503, f"{self.broken}; play is stopped until the server is restarted")

    # ---- rooms --------------------------------------------------------------------------

    def _new_id(self) -> str:
        while True:
            rid = "".join(secrets.choice(ROOM_ALPHABET) for _ in range(6))
            if rid not in self.rooms:
                return rid

    def get(self, room_id: Any) -> Room:
        room = self.rooms.get(room_id.upper() if isinstance(room_id, str) else "")
        if room is None:
            text = room_id[:20] if isinstance(room_id, str) else room_id
            raise LobbyError(404, f"no room {text!r}")
        return room

    def create(self, name: str, rules: Rules, *, bots: str = "baseline", timer_s: float | None = None,
               seed: int | None = None, address: str = "", player_id: str | None = None) -> tuple[Room, str]:
        self.check_open()
        bots = room_bot(bots)  # a level or a bot name; the room keeps the bot's name
        lim = self.limits
        unseen = [r for r in self.rooms.values() if not r.seen and r.status in ("waiting", "playing")]
        if address and sum(1 for r in unseen if r.address == address) >= lim.unseen_per_address:
            raise LobbyError(429, f"you have {lim.unseen_per_address} rooms nobody has connected to yet; "
                                  "open one of them or wait a little", retry_after=lim.unseen_ttl / 4)
        if len(self.rooms) >= lim.max_rooms:
            self.cleanup(force=True)
        if len(self.rooms) >= lim.max_rooms and unseen:  # real players first: drop the oldest unconnected room
            oldest = min(unseen, key=lambda r: r.created)
            self.expire(oldest)
        if len(self.rooms) >= lim.max_rooms:
            raise LobbyError(503, "too many rooms; try again later", retry_after=30)
        room = Room(self, self._new_id(), rules, bots=bots, timer_s=timer_s, seed=seed, address=address)
        token = secrets.token_urlsafe(24)
        room.players.append(room.new_player(name, token=token))
        room.players[-1].player_id = player_id
        self.rooms[room.id] = room
        return room, token

    async def join(self, room_id: str, name: str, player_id: str | None = None) -> tuple[Room, int, str]:
        self.check_open()
        room = self.get(room_id)
        if room.status != "waiting":
            raise LobbyError(409, "the match has started; you can watch it")
        if len(room.players) >= SEATS:
            raise LobbyError(409, "the room is full")
        token = secrets.token_urlsafe(24)
        room.players.append(room.new_player(name, token=token))
        room.players[-1].player_id = player_id
        if room.seen:
            try:
                await room.save_waiting(answer=True)
            except Exception as e:
                if room.status == "waiting" and room.players and room.players[-1].owns(token):
                    room.players.pop()
                self.refuse_if_lost(e)
                log.warning("room %s: storing the join failed: %s", room.id, e)
                raise LobbyError(503, "the room could not be saved; try again") from None
        room.broadcast_info()
        return room, len(room.players) - 1, token

    async def start(self, room_id: str, token: Any) -> Room:
        self.check_open()
        room = self.get(room_id)
        if not isinstance(token, str) or not room.players or not room.players[0].owns(token):
            raise LobbyError(403, "only the host can start the match")
        await room.begin()
        return room

    def expire(self, room: Room) -> None:
        """Forget a room nobody connected to; a started one's match (no events: nobody played) goes too."""
        self.rooms.pop(room.id, None)
        room.status = "expired"
        if room.task is not None:
            room.task.cancel()
        if room.match_id is not None:
            asyncio.ensure_future(self.quietly(self.store.discard_match, room.match_id,
                                               what=f"room {room.id}: discarding an unconnected match"))

    # ---- start-up, leases, shutdown -----------------------------------------------------

    async def resume_all(self) -> list[str]:
        """Claim and rebuild every unfinished match (and waiting room) that is free; the ids resumed."""
        resumed = []
        for rec in await self.db_call(self.store.claim_matches):
            try:
                room = await self._resume(rec)
            except Exception as e:
                log.warning("match %s (room %s) cannot be resumed: %s; marked abandoned", rec.get("id"),
                            rec.get("room"), e)
                await self.quietly(self.store.abandon_match, rec["id"], what=f"abandoning match {rec.get('id')}")
                continue
            resumed.append(room.id)
        for rec in await self.db_call(self.store.claim_rooms):
            try:
                waiting = self._restore_waiting(rec)
            except Exception as e:
                log.warning("waiting room %s cannot be restored: %s; deleted", rec.get("code"), e)
                await self.quietly(self.store.delete_room, rec.get("code"), what="deleting a broken room")
                continue
            if waiting is not None:
                resumed.append(waiting.id)
        return resumed

    async def _resume(self, rec: dict[str, Any]) -> Room:
        # the hand in play is dealt again from a fresh wall: its interrupted deal (the tiles and draws
        # someone saw before the restart) must not come back.  The store's fence, raised on every
        # taking of the match, counts the restarts: a second restart of the same hand deals anew too
        resume = rec.get("fence")
        if not isinstance(resume, int) or isinstance(resume, bool) or resume < 1:
            raise ResumeError(f"the store gave no fence for the match ({resume!r})")
        events = await self.db_call(self.store.events, rec["id"])
        m = rebuild(events, resume=resume) if events else self._first_hand(rec, resume)
        if m.is_over:
            await self.db_call(self.store.finish_match, rec["id"], list(m.scores))
            raise ResumeError("the match is over (finished now)")
        rid = str(rec.get("room") or "")
        if not rid or rid in self.rooms:
            rid = self._new_id()
        settings = rec.get("settings") or {}
        bots = settings.get("bots")
        room = Room(self, rid, m.rules, seed=m.seed, bots=bots if bots in ROOM_BOTS else "baseline",
                    timer_s=_timer(settings.get("timer_s")))
        if settings.get("bot_speed") in BOT_SPEEDS:
            room.bot_speed = settings["bot_speed"]
        room.private = settings.get("private") is True
        room.ranked = settings.get("ranked") is True
        room.deal_salt = salt_of(settings)  # the commitment shown before the first deal still holds
        by_seat: dict[int, dict[str, Any]] = {}
        for i, sp in enumerate(rec.get("players") or []):  # stored by seat, each with its "seat"
            if isinstance(sp, dict):
                seat = sp.get("seat")
                by_seat[seat if isinstance(seat, int) else i] = sp
        players = []
        for player in range(SEATS):
            seat = m.seating.index(player)
            sp = by_seat.get(seat, {})
            bot = sp.get("bot") if sp.get("kind") == "bot" else None
            if bot is not None and bot not in ROOM_BOTS:
                bot = "baseline"
            th = sp.get("token_hash") if bot is None else None
            if bot is None and not (isinstance(th, str) and len(th) == 64):
                # stored before tokens were: nobody could ever take this seat back (and no name may)
                raise ResumeError(f"seat {seat} ({m.names[player]!r}) has no stored token")
            p = room.new_player(m.names[player], bot=bot)
            p.token_hash = th
            if bot is None:
                p.player_id = checked_player_id(sp.get("player_id"))
                p.away_since = time.time()
            players.append(p)
        room.players = players
        if not settings.get("bots"):
            kinds = {p.bot for p in players if p.bot}
            room.bot_kind = kinds.pop() if len(kinds) == 1 else "baseline"
        room.match = m
        room.match_id = rec["id"]
        room.status = "playing"
        room.seen = True
        room.stored_upto = len(events)  # 0 when nothing is stored: start_game goes with the first hand
        room.shown = len(m.events)
        room.resumed = True
        # above every version the match had in an earlier process (fewer than 2**32 actions each):
        # an action sent against the state before the restart is stale, never taken for a new one
        room.version = resume << 32
        self.rooms[rid] = room
        return room

    def _restore_waiting(self, rec: dict[str, Any]) -> Room | None:
        code, data = rec["code"], rec["data"]
        if code in self.rooms:  # a match of the same room was resumed: this row is stale
            asyncio.ensure_future(self.quietly(self.store.delete_room, code, what=f"deleting stale room {code}"))
            return None
        rules = Rules.from_dict(data["rules"])
        bots = data.get("bots") if data.get("bots") in ROOM_BOTS else "baseline"
        room = Room(self, code, rules, bots=bots, timer_s=_timer(data.get("timer_s")), seed=int(data["seed"]))
        if data.get("bot_speed") in BOT_SPEEDS:
            room.bot_speed = data["bot_speed"]
        room.private = data.get("private") is True
        room.ranked = data.get("ranked") is True
        room.deal_salt = salt_of(data) or room.deal_salt
        for sp in data.get("players") or []:
            th = sp.get("token_hash")
            if not (isinstance(th, str) and len(th) == 64):
                raise ResumeError("a player without a stored token")
            p = room.new_player(clean_name(sp.get("name")))
            p.token_hash = th
            p.player_id = checked_player_id(sp.get("player_id"))
            room.players.append(p)
        if not room.players or len(room.players) > SEATS:
            raise ResumeError(f"{len(room.players)} players")
        room.seen = room.stored_room = True
        room.created = float(data.get("created") or time.time())
        room.resumed = True
        self.rooms[code] = room
        return room

    @staticmethod
    def _first_hand(rec: dict[str, Any], resume: int) -> Match:
        """A match stored before its first hand ended (no events yet): from its rules, seed and
        players, its first hand dealt from a fresh wall (``resume``, as :func:`rebuild`)."""
        rules = Rules.from_dict(rec["rules"])
        seating = Match(rules, seed=rec["seed"]).seating  # the seating follows from the seed (R3)
        by_seat = {p["seat"]: p["name"] for p in rec.get("players") or [] if isinstance(p, dict)}
        names = [f"player{i}" for i in range(SEATS)]
        for s, p in enumerate(seating):
            names[p] = str(by_seat.get(s, names[p]))
        return Match(rules, seed=rec["seed"], names=names, resumes={0: resume})

    def start_drivers(self) -> None:
        for room in self.rooms.values():
            if room.status == "playing":
                room.start_driver()

    async def renew(self) -> None:
        """Extend this process's leases; a room whose match another process took stops."""
        try:
            matches, codes = await self.db_call(self.store.renew)
        except DatabaseLost as e:
            self.database_lost(str(e))
            return
        except Exception as e:
            log.warning("renewing the leases failed: %s", e)
            return
        for room in list(self.rooms.values()):
            if room.status == "playing" and room.match_id is not None and room.match_id not in matches:
                self.moved(room, "this match is now played by another server (this one's lease ended)")
            elif room.status == "waiting" and room.stored_room and room.id not in codes:
                self.moved(room, "this room is now kept by another server")

    def moved(self, room: Room, message: str) -> None:
        """Another process took ``room`` (its lease here ended, found by renewing or by a refused
        save): the room stops here, and in a cluster its pages are sent to reconnect, through the
        same address, to the new owner."""
        room.stop_with(message, "moved")
        if self.clustered:
            self.rooms.pop(room.id, None)
            for conn in room.connections():
                conn.close(CLOSE_TRY_AGAIN)

    async def adopt(self) -> list[str]:
        """Resume matches another process left behind (its lease ended); started at once."""
        if self.broken is not None:
            return []
        try:
            ids = await self.resume_all()
        except Exception as e:
            log.warning("looking for matches to resume failed: %s", e)
            return []
        for rid in ids:
            room = self.rooms.get(rid)
            if room is not None and room.status == "playing":
                room.start_driver()
        if ids:
            log.info("took over %d match(es) whose server stopped: rooms %s", len(ids), ", ".join(ids))
        return ids

    def cleanup(self, force: bool = False) -> None:
        """Forget rooms nobody needs: unconnected ones after ``unseen_ttl`` (never resumed), finished
        ones ``finished_ttl`` after the last person left (and beyond the ``finished_kept`` most
        recently used), idle waiting ones after ``waiting_ttl``.  A finished room lets go of its
        bots and caches at once: only its last messages are kept, for a person who comes back."""
        now = time.time()
        lim = self.limits
        finished: list[Room] = []
        for rid, room in list(self.rooms.items()):
            if room.status in ("over", "error"):
                room.shed()
            if room.connections():
                continue
            idle = now - room.touched
            if not room.seen and room.status in ("waiting", "playing"):
                if now - room.created > lim.unseen_ttl:
                    self.expire(room)
                continue
            done = room.status in ("over", "error") and (force or idle > lim.finished_ttl)
            stale = room.status == "waiting" and (idle > lim.waiting_ttl or (force and idle > 60))
            if done or stale:
                del self.rooms[rid]
                if stale and room.stored_room:
                    asyncio.ensure_future(self.quietly(self.store.delete_room, rid, what=f"deleting room {rid}"))
            elif room.status in ("over", "error"):
                finished.append(room)
        # a busy server finishes many matches within finished_ttl: their records are stored (history,
        # replays), so beyond a few hundred the least recently used ones go
        finished.sort(key=lambda r: r.touched)
        for room in finished[: max(0, len(finished) - lim.finished_kept)]:
            del self.rooms[room.id]

    async def shutdown(self) -> None:
        for room in list(self.rooms.values()):
            await room.stop()
        if self.broken is None:
            try:  # a restarted server resumes at once instead of waiting for the leases to end
                await asyncio.wait_for(self.db_call(self.store.release_all), self.limits.db_timeout)
            except Exception as e:
                log.warning("releasing the leases failed: %s", e)
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._health_pool.shutdown(wait=False, cancel_futures=True)


def _new_match(rules: Rules, seed: int, names: list[str]) -> Match:
    """A room's match: the family of ``rules`` (:mod:`tjmj.families`), dealt from ``seed``."""
    return Match(rules, seed=seed, names=names)


def _timer(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 else None
