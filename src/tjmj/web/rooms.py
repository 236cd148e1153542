"""The room and table runtime of the web server: seats, sockets, bots, timers, storage, resume.

The engine (:class:`tjmj.game.Match`) is the only authority: a room holds one match, and every
decision goes through :meth:`Match.apply`, whether a person's (over a WebSocket), a bot's, or the
baseline bot's on a time-out or for a disconnected person.  Everything here runs on the server's
event loop; the engine and the store are called synchronously, so no two changes to a room
interleave.  One asyncio task per room (:meth:`Room._run`) drives the bots and the turn timer.

Players and seats: ``player`` is the place in the room in order of arrival (the host is player
0); ``seat`` (0–3 = East, South, West, North) is drawn at random when the match starts (R3),
``match.seating[seat] = player``.

Storage: the events of each finished hand (``start_kyoku`` … ``end_kyoku``, the first call with
``start_game``, the last one with ``end_game``) are stored with one ``append_events`` call
before anyone is told the result.  If storing fails, the match is rebuilt from the events already
stored, so the hand is played again from its deal (the deal follows from the seed).

Resume: :meth:`Lobby.resume_all` rebuilds every unfinished stored match by replaying the actions
its events imply (as :func:`tjmj.record.replay` does), up to the last stored hand; the next hand
starts from its deal.  Tokens are not stored, so people are played by the baseline bot until
they take their seats back by joining the room again with the same name (docs/web.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from ..bots import BOT_NAMES, Bot, make_bot
from ..elements import ELEMENT_BY_CODE
from ..game import Action, IllegalAction, Match
from ..meld import Meld, MeldType
from ..rules import Rules
from ..tiles import TILE_TEXT, Tile
from ..wall import SEATS

__all__ = [
    "Connection",
    "Lobby",
    "LobbyError",
    "Player",
    "ResumeError",
    "Room",
    "StoreLike",
    "filter_event",
    "frames",
    "hint",
    "rebuild",
]

log = logging.getLogger("tjmj.web")

MAX_ACTION_LEN = 40
MAX_MESSAGE_CHARS = 2000
MAX_NAME_LEN = 20
BURST = 20  # messages a connection may send at once ...
RATE = 10.0  # ... refilled at this many per second
MAX_LIMITED = 200  # messages refused in a row before the connection is closed
OUTBOX = 2000  # queued messages to one slow client before it is dropped
MAX_ROOMS = 500
ROOM_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
STORE_RETRIES = 3
WINDS = ("E", "S", "W", "N")
WINDS_CN = ("东", "南", "西", "北")


class StoreLike(Protocol):
    """What the rooms need of :class:`tjmj.web.store.Store`."""

    def create_match(self, room: str, rules_dict: dict[str, Any], seed: int, players: list[dict[str, Any]]) -> Any: ...
    def append_events(self, match_id: Any, events: list[dict[str, Any]]) -> Any: ...
    def finish_match(self, match_id: Any, scores: list[int]) -> Any: ...
    def abandon_match(self, match_id: Any) -> Any: ...
    def events(self, match_id: Any) -> list[dict[str, Any]]: ...
    def unfinished_matches(self) -> list[dict[str, Any]]: ...


class LobbyError(Exception):
    """A refused request: ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class ResumeError(ValueError):
    """Stored events that the engine does not reproduce."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: Any, default: str = "Player") -> str:
    """A display name: a string, control characters dropped, trimmed, at most 20 characters."""
    if name is None:
        return default
    if not isinstance(name, str):
        raise LobbyError(400, "'name' must be a string")
    text = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME_LEN]
    return text or default


# ---- events and observations per viewer ---------------------------------------------------


def filter_event(ev: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """An event as ``seat`` may see it (None: a spectator): others' draws and dealt hands hidden."""
    t = ev.get("type")
    if t == "tsumo" and ev.get("actor") != seat:
        return {**ev, "pai": None}
    if t == "start_kyoku":
        out = {k: v for k, v in ev.items() if k != "wall"}
        out["tehais"] = [h if s == seat else None for s, h in enumerate(ev["tehais"])]
        out["hand_sizes"] = [len(h) for h in ev["tehais"]]
        return out
    return ev


def names_by_player(start: dict[str, Any]) -> list[str]:
    """``start_game`` lists names by seat; :class:`Match` takes them by player (``seating[seat]``)."""
    names, seating = start["names"], start["seating"]
    out = [f"player{i}" for i in range(SEATS)]
    for s, p in enumerate(seating):
        out[p] = names[s]
    return out


def action_for(m: Match, nxt: dict[str, Any]) -> Action:
    """The action a stored event implies for the seat the engine waits on (cf. tjmj.record.replay)."""
    seat, phase, t = m.to_act, m.phase, nxt.get("type")
    if phase in ("sit", "pull"):
        if t != "start_kyoku":
            raise ResumeError(f"the engine waits for a {phase} choice, the events have {t}")
        if phase == "sit":
            return Action("sit", None, 1 if nxt["sit"] else 0)
        return Action("pull", None, int(nxt["pulls"][seat]))
    if phase == "claim":
        if t in ("pon", "daiminkan") and nxt.get("actor") == seat:
            return Action("pon" if t == "pon" else "kong", Tile.parse(nxt["pai"]))
        return Action("pass")
    if nxt.get("actor") != seat:
        raise ResumeError(f"it is seat {seat}'s turn, the events have {t} by {nxt.get('actor')}")
    if t == "dahai":
        return Action("discard", Tile.parse(nxt["pai"]))
    if t == "ankan":
        return Action("ankong", Tile.parse(nxt["consumed"][0]))
    if t == "kakan":
        return Action("added_kong", Tile.parse(nxt["pai"]))
    if t == "hora":
        return Action("win")
    raise ResumeError(f"it is seat {seat}'s turn, the events have {t}")


def rebuild(events: Sequence[dict[str, Any]],
            on_step: Callable[[Match, Action | None, list[dict[str, Any]]], None] | None = None) -> Match:
    """The match the stored events describe, driven by the actions they imply; every event the
    engine emits must equal the stored one.  ``on_step(match, action, new_events)`` after each step
    (first with ``action`` None for the opening events)."""
    if not events or events[0].get("type") != "start_game":
        raise ResumeError("the events do not open with start_game")
    start = events[0]
    try:
        m = Match(Rules.from_dict(start["rules"]), seed=start["seed"], names=names_by_player(start))
    except (KeyError, TypeError, ValueError) as e:
        raise ResumeError(f"cannot start the match: {e}") from None
    i = len(m.events)
    if list(events[:i]) != m.events:
        raise ResumeError("the engine's opening events differ from the stored ones")
    if on_step:
        on_step(m, None, list(m.events))
    while i < len(events) and not m.is_over:
        try:
            action = action_for(m, events[i])
            new = m.apply(m.to_act, action)
        except (IllegalAction, KeyError, TypeError, ValueError, IndexError) as e:
            raise ResumeError(f"event {i}: {e}") from None
        if list(events[i : i + len(new)]) != new:
            raise ResumeError(f"event {i}: the engine's events differ from the stored ones")
        i += len(new)
        if on_step:
            on_step(m, action, new)
    if i != len(events):
        raise ResumeError(f"{len(events) - i} stored events after the end of the match")
    return m


def _meld_tiles(melds: Sequence[str]) -> list[tuple[int, int, bool]]:
    """(kind, size, claimed from a discard) of each meld text."""
    out = []
    for text in melds:
        md = Meld.parse(text)
        out.append((int(md.tile), md.size, md.type is not MeldType.CONCEALED_KONG))
    return out


def hint(m: Match, seat: int) -> list[dict[str, Any]]:
    """For each discard the seat may make now, ranked by :mod:`tjmj.advise`: shanten, live improving
    tiles and, when ready, what the 13 tiles left wait on, with fan and live copies.

    ``live`` counts copies not visible to this seat: its hand, every meld, every discard and the indicator.
    Each entry also has ``rank`` (1 = best), ``improving`` (live tiles that lower the shanten),
    ``improving_tiles`` and, when ready, ``ev`` (Σ live × fan over the winning draws).
    """
    from ..advise import advise  # the waits tables are only needed when someone asks

    obs = m.observation(seat)
    hand = [Tile.parse(t) for t in obs["hand"]]
    own_melds = obs["seats"][seat]["melds"]
    visible = [0] * 34
    for t in hand:
        visible[t] += 1
    for st in obs["seats"]:
        for t in st["discards"]:
            visible[Tile.parse(t)] += 1
        for kind, size, claimed in _meld_tiles(st["melds"]):
            visible[kind] += size - (1 if claimed else 0)  # a claimed tile is also in a discard list
    visible[Tile.parse(obs["indicator"])] += 1
    # what the advisor does not count itself: all but the seat's hand, own melds and the indicator
    seen_counts = list(visible)
    for t in hand:
        seen_counts[t] -= 1
    for kind, size, _ in _meld_tiles(own_melds):
        seen_counts[kind] -= size
    seen_counts[Tile.parse(obs["indicator"])] -= 1
    seen = [Tile(k) for k, n in enumerate(seen_counts) for _ in range(max(0, n))]
    drawn = obs.get("drawn")
    rest = list(hand)
    draw = Tile.parse(drawn) if drawn and Tile.parse(drawn) in rest else rest[-1]  # after a pon: any tile
    rest.remove(draw)
    xxg = bool(obs["seats"][seat].get("xiaoxianggong"))
    a = advise(rest, draw, obs["indicator"], own_melds, seen=seen, rules=m.rules, xiaoxianggong=xxg)
    by_tile = {o.tile: o for o in a.discards}
    wilds = set(obs["wilds"])
    out = []
    candidates = sorted({a.tile for a in m.legal_actions(seat) if a.type == "discard" and a.tile is not None})
    for k in candidates:
        o = by_tile[k]
        entries = [
            {
                "tile": TILE_TEXT[x.tile],
                "fan": x.fan,
                "name": x.name,
                "win": x.win,
                "elements": x.codes,
                "live": max(0, 4 - visible[x.tile]),
                **({"reason": x.reason} if x.reason else {}),
            }
            for x in o.waits
        ]
        entry: dict[str, Any] = {
            "tile": TILE_TEXT[k], "wild": TILE_TEXT[k] in wilds, "shanten": o.shanten, "hundiao": o.hundiao,
            "waits": entries, "rank": o.rank, "improving": o.improving_count,
            "improving_tiles": [{"tile": TILE_TEXT[t], "live": n} for t, n in o.improving],
        }
        if o.ready:
            entry["ev"] = o.ev
        out.append(entry)
    out.sort(key=lambda e: e["rank"])
    return out


def snapshot(m: Match) -> dict[str, Any]:
    """Everything about the match now, every hand included (for the replay of a stored match)."""
    d: dict[str, Any] = {
        "phase": m.phase, "to_act": m.to_act, "dealer": m.dealer, "hand_number": m.hand_number, "round": m.round,
        "scores": list(m.scores), "sit": m.sit, "pulls": list(m.pulls),
    }
    if hasattr(m, "seats"):
        d.update(
            indicator=TILE_TEXT[m.indicator],
            wilds=[TILE_TEXT[k] for k in m.wilds],
            wall_left=m.wall.live_count,
            dice=m.wall.dice.to_dict(),
            drawn=TILE_TEXT[m.last_draw] if m.last_draw is not None and m.phase == "turn" else None,
            seats=[
                {
                    "hand": [TILE_TEXT[t] for t in sorted(st.hand)],
                    "melds": [str(md) for md in st.melds],
                    "discards": [TILE_TEXT[t] for t in st.discards],
                    "xiaoxianggong": st.xiaoxianggong,
                }
                for st in m.seats
            ],
        )
    return d


def frames(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One frame per step of a stored match: the events of that step and the whole state after it."""
    out: list[dict[str, Any]] = []

    def step(m: Match, action: Action | None, new: list[dict[str, Any]]) -> None:
        if new:
            out.append({"events": new, "state": snapshot(m)})

    rebuild(events, step)
    return out


def elements_detail(codes: Sequence[str]) -> list[dict[str, Any]]:
    out = []
    for c in codes:
        e = ELEMENT_BY_CODE.get(c)
        out.append(e.to_dict() if e is not None else {"code": c, "chinese": c, "english": c, "value": ""})
    return out


# ---- connections ---------------------------------------------------------------------------


class Connection:
    """One WebSocket: an outbox drained by its own task (a slow client never blocks a room) and a
    token bucket for what it sends (:data:`BURST` at once, :data:`RATE` per second after)."""

    def __init__(self, ws: Any, player: int | None, *, burst: int = BURST, rate: float = RATE) -> None:
        self.ws = ws
        self.player = player  # None: a spectator
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=OUTBOX)
        self.burst = burst
        self.rate = rate
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.limited = 0
        self.closed = False
        self.overflow = False

    def send(self, msg: dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:
            self.closed = self.overflow = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.limited = 0
            return True
        self.limited += 1
        return False

    async def writer(self) -> None:
        """Send the outbox in order until :meth:`close`; a slow client (full outbox) is closed."""
        while True:
            msg = await self.queue.get()
            if msg is None:
                break
            await self.ws.send_text(orjson.dumps(msg).decode())
        with contextlib.suppress(Exception):
            await self.ws.close(code=1013 if self.overflow else 1000)


def error(message: str, code: str = "bad_request") -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


# ---- rooms ---------------------------------------------------------------------------------


@dataclass
class Player:
    """A place in a room: a person (``bot`` None, a secret token) or a bot."""

    name: str
    bot: str | None = None
    token_hash: str | None = None
    conns: set[Connection] = field(default_factory=set)
    claimable: bool = False  # a person's seat of a resumed match, not yet taken back
    timeouts: int = 0

    @property
    def connected(self) -> bool:
        return bool(self.conns)

    def owns(self, token: str) -> bool:
        return self.token_hash is not None and hmac.compare_digest(self.token_hash, token_hash(token))

    def stored(self, seat: int) -> dict[str, Any]:
        """The player as the store keeps it (no token: a resumed seat is claimed back by name)."""
        return {"seat": seat, "name": self.name, "kind": "bot" if self.bot else "human", "bot": self.bot}


class Room:
    """One table: the players, the match, the sockets, and the task that drives bots and timers."""

    def __init__(self, lobby: Lobby, room_id: str, rules: Rules, *, bots: str = "baseline",
                 timer_s: float | None = None, seed: int | None = None) -> None:
        self.lobby = lobby
        self.id = room_id
        self.rules = rules
        self.bot_kind = bots
        self.timer_s = timer_s
        self.seed = secrets.randbelow(2**31) if seed is None else seed
        self.players: list[Player] = []
        self.spectators: set[Connection] = set()
        self.match: Match | None = None
        self.match_id: Any = None
        self.status = "waiting"  # waiting, playing, over, error
        self.stored_upto = 0  # events of the match already in the store
        self.store_failures = 0
        self.version = 0  # bumped by every change of the match
        self.deadline: float | None = None  # time.time() by which the person to act must act
        self.pause_until: float | None = None  # after a hand: until everyone is ready or this time
        self.ready: set[int] = set()
        self.last_settlement: dict[str, Any] | None = None
        self.resumed = False
        self.rng = random.Random(self.seed ^ 0x5EED)
        self._bots: dict[str, Bot] = {}
        self._wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.touched = time.time()

    # ---- who is where --------------------------------------------------------------------

    def seat_of(self, player: int | None) -> int | None:
        if player is None or self.match is None:
            return None
        return self.match.seating.index(player)

    def player_at(self, seat: int) -> Player:
        assert self.match is not None
        return self.players[self.match.seating[seat]]

    def humans_connected(self) -> bool:
        return any(p.bot is None and p.connected for p in self.players)

    def connections(self) -> list[Connection]:
        return [c for p in self.players for c in p.conns] + list(self.spectators)

    def find_token(self, token: str) -> int | None:
        for i, p in enumerate(self.players):
            if p.owns(token):
                return i
        return None

    # ---- messages ------------------------------------------------------------------------

    def info(self, player: int | None = None) -> dict[str, Any]:
        """The room as everyone may see it (no tokens)."""
        return {
            "type": "room",
            "room": self.id,
            "status": self.status,
            "host": 0,
            "you": player,
            "seat": self.seat_of(player),
            "players": [
                {"player": i, "name": p.name, "bot": p.bot, "connected": p.connected, "seat": self.seat_of(i),
                 "claimable": p.claimable}
                for i, p in enumerate(self.players)
            ],
            "rules": self.rules.to_dict(),
            "bots": self.bot_kind,
            "timer_s": self.timer_s,
            "match_id": self.match_id,
            "hand_number": self.match.hand_number if self.match else 0,
            "scores": list(self.match.scores) if self.match else None,
            "spectators": len(self.spectators),
        }

    def state_for(self, player: int | None) -> dict[str, Any]:
        m = self.match
        assert m is not None
        seat = self.seat_of(player)
        if seat is not None:
            obs = m.observation(seat)
        else:  # a spectator: public information only
            obs = m.observation(0)
            obs.pop("hand", None)
            obs.pop("drawn", None)
            obs["seat"] = None
            obs["legal_actions"] = []
        seated = [self.player_at(s) for s in range(SEATS)]
        return {
            "type": "state",
            "room": self.id,
            "match_id": self.match_id,
            "status": self.status,
            "version": self.version,
            "you": seat,
            "obs": obs,
            "names": [p.name for p in seated],
            "bots": [p.bot for p in seated],
            "connected": [p.bot is None and p.connected for p in seated],
            "winds": list(WINDS),
            "winds_cn": list(WINDS_CN),
            "to_act": m.to_act,
            "legal": obs["legal_actions"],
            "deadline": int(self.deadline * 1000) if self.deadline else None,
            "timer_s": self.timer_s,
            "paused": self.pause_until is not None,
            "ready": sorted(s for s in range(SEATS) if m.seating[s] in self.ready),
            "rules": {"preset": self.rules.name.split("+")[0], "match_hands": self.rules.match_hands,
                      "match_rounds": self.rules.match_rounds, "max_pull": self.rules.max_pull},
        }

    def broadcast(self, make: Callable[[int | None], dict[str, Any] | None]) -> None:
        for p_index, p in enumerate(self.players):
            for c in list(p.conns):
                msg = make(p_index)
                if msg is not None:
                    c.send(msg)
        for c in list(self.spectators):
            msg = make(None)
            if msg is not None:
                c.send(msg)

    def broadcast_info(self) -> None:
        self.broadcast(self.info)

    def broadcast_state(self) -> None:
        if self.match is not None:
            self.broadcast(self.state_for)

    def send_full(self, conn: Connection) -> None:
        """What a (re)connecting client needs: the room, the state, and a settlement on show."""
        conn.send(self.info(conn.player))
        if self.match is not None:
            m = self.match
            seat = self.seat_of(conn.player)
            start = max((i for i, e in enumerate(m.events) if e["type"] == "start_kyoku"), default=0)
            conn.send({"type": "events", "replay": True, "events": [filter_event(e, seat) for e in m.events[start:]]})
            conn.send(self.state_for(conn.player))
            if self.last_settlement is not None and (self.pause_until is not None or self.status == "over"):
                conn.send(self.last_settlement)

    # ---- sockets -------------------------------------------------------------------------

    def attach(self, conn: Connection) -> None:
        if conn.player is None:
            self.spectators.add(conn)
        else:
            p = self.players[conn.player]
            p.conns.add(conn)
            p.claimable = False
            p.timeouts = 0
        self.touched = time.time()
        self.send_full(conn)
        self._refresh_deadline(reset=False)
        self.broadcast_info()
        self.poke()

    def detach(self, conn: Connection) -> None:
        conn.close()
        if conn.player is None:
            self.spectators.discard(conn)
        else:
            self.players[conn.player].conns.discard(conn)
        self.touched = time.time()
        self._refresh_deadline(reset=False)
        self.broadcast_info()
        self.poke()

    def handle(self, conn: Connection, raw: str | None) -> None:
        """One message from a client; anything wrong gets an error message and changes nothing."""
        if not conn.allow():
            conn.send(error("rate limit: too many messages, slow down", "rate_limited"))
            if conn.limited >= MAX_LIMITED:
                conn.close()
            return
        self.touched = time.time()
        if raw is None:
            conn.send(error("messages are JSON text, not binary"))
            return
        if len(raw) > MAX_MESSAGE_CHARS:
            conn.send(error(f"message too long ({len(raw)} characters; at most {MAX_MESSAGE_CHARS})"))
            return
        try:
            msg = orjson.loads(raw)
        except orjson.JSONDecodeError:
            conn.send(error("malformed JSON"))
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            conn.send(error("a message is a JSON object with a string field 'type'"))
            return
        try:
            self._dispatch(conn, msg)
        except Exception:  # a bug must cost one message, not the connection or the room
            log.exception("room %s: message %r failed", self.id, msg.get("type"))
            conn.send(error("internal error: the message was not handled", "internal"))

    def _dispatch(self, conn: Connection, msg: dict[str, Any]) -> None:
        t = msg["type"]
        if t == "ping":
            conn.send({"type": "pong"})
        elif t == "sync":
            self.send_full(conn)
        elif t == "action":
            self._on_action(conn, msg)
        elif t == "hint":
            self._on_hint(conn)
        elif t == "next":
            if conn.player is not None and self.pause_until is not None:
                self.ready.add(conn.player)
                self.broadcast_state()
                self.poke()
        else:
            conn.send(error(f"unknown message type {t[:20]!r}; types are action, hint, next, sync, ping"))

    def _on_action(self, conn: Connection, msg: dict[str, Any]) -> None:
        if conn.player is None:
            conn.send(error("spectators cannot act", "forbidden"))
            return
        text = msg.get("action")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_ACTION_LEN:
            conn.send(error(f"'action' must be a string of at most {MAX_ACTION_LEN} characters, e.g. \"discard 5m\""))
            return
        m = self.match
        if m is None or self.status != "playing":
            conn.send(error(f"the match is not in progress ({self.status})", "not_playing"))
            return
        seat = self.seat_of(conn.player)
        if "seat" in msg and msg["seat"] != seat:
            conn.send(error(f"you play seat {seat} only", "forbidden"))
            return
        if m.to_act != seat:
            conn.send(error(f"it is not your turn: seat {m.to_act} decides ({m.phase})", "not_your_turn"))
            return
        try:
            action = Action.parse(text)
            legal = m.legal_actions(seat)
            pending = getattr(m, "pending", None)
            if action.type in ("pon", "kong") and action.tile is None and pending is not None:
                action = Action(action.type, pending[1])
            if action not in legal:
                raise IllegalAction(f"{text.strip()!r} is not legal now; legal: {', '.join(map(str, legal))}")
        except IllegalAction as e:
            conn.send(error(str(e), "illegal"))
            return
        self.players[conn.player].timeouts = 0
        self._apply(seat, action)

    def _on_hint(self, conn: Connection) -> None:
        m = self.match
        seat = self.seat_of(conn.player)
        if m is None or seat is None or self.status != "playing":
            conn.send(error("hints are for a seat in a match in progress", "forbidden"))
            return
        if m.to_act != seat or m.phase != "turn":
            conn.send(error("hints are given on your turn, before a discard", "not_your_turn"))
            return
        conn.send({"type": "hint", "version": self.version, "discards": hint(m, seat)})

    # ---- changing the match ---------------------------------------------------------------

    def poke(self) -> None:
        self._wake.set()

    def _bot(self, name: str) -> Bot:
        if name not in self._bots:
            self._bots[name] = make_bot(name)
        return self._bots[name]

    def _auto(self, seat: int, bot_name: str) -> None:
        """The bot's decision for ``seat`` (a bot seat, a time-out, or a person away)."""
        m = self.match
        assert m is not None
        bot = self._bot(bot_name)
        legal = m.legal_actions(seat)
        obs = m.observation(seat) if getattr(bot, "uses_observation", True) else {}
        self._apply(seat, bot.choose(obs, legal, self.rng))

    def _apply(self, seat: int, action: Action) -> None:
        """Apply a legal action; store finished hands; then tell everyone."""
        m = self.match
        assert m is not None
        start = len(m.events)
        m.apply(seat, action)
        self.version += 1
        new = m.events[start:]
        ends = [i for i in range(start, len(m.events)) if m.events[i]["type"] in ("end_kyoku", "end_game")]
        settlement = None
        if ends:
            upto = ends[-1] + 1
            try:
                self.lobby.store.append_events(self.match_id, m.events[self.stored_upto : upto])
            except Exception:
                log.exception("room %s: storing hand %d of match %s failed", self.id, m.hand_number, self.match_id)
                self._store_failed()
                return
            self.store_failures = 0
            hand_events = m.events[self.stored_upto : upto]
            self.stored_upto = upto
            if m.is_over:
                try:  # the record is complete; if this fails, the next start-up finishes the match
                    self.lobby.store.finish_match(self.match_id, list(m.scores))
                except Exception:
                    log.exception("room %s: finishing match %s failed", self.id, self.match_id)
            settlement = self._settlement(hand_events)
            self.last_settlement = settlement
            if m.is_over:
                self.status = "over"
                self.pause_until = None
            elif self.lobby.next_delay > 0:
                self.pause_until = time.time() + self.lobby.next_delay
                self.ready = set()
        self._refresh_deadline(reset=True)
        self.broadcast(lambda p: {"type": "events", "events": [filter_event(e, self.seat_of(p)) for e in new]})
        self.broadcast_state()
        if settlement is not None:
            self.broadcast(lambda p: settlement)
            if self.status == "over":
                self.broadcast_info()
        self.poke()

    def _store_failed(self) -> None:
        """Rewind to the last stored hand: the hand is played again from its deal."""
        assert self.match is not None
        self.store_failures += 1
        try:  # start_game is stored with the first hand: until then, rebuild from it alone
            self.match = rebuild(self.match.events[: max(self.stored_upto, 1)])
        except Exception:
            log.exception("room %s: cannot rewind", self.id)
            self.store_failures = STORE_RETRIES
        self.version += 1
        self.pause_until = None
        if self.store_failures >= STORE_RETRIES:
            self.status = "error"
            self.deadline = None
            self.broadcast(lambda p: error("the hand could not be saved; the match stops here and can be resumed "
                                           "after the server restarts", "store_failed"))
        else:
            self.broadcast(lambda p: error("the hand could not be saved; it is played again from its deal",
                                           "store_failed"))
            self._refresh_deadline(reset=True)
        self.broadcast_state()
        self.broadcast_info()
        self.poke()

    def _settlement(self, hand_events: list[dict[str, Any]]) -> dict[str, Any]:
        m = self.match
        assert m is not None
        kyoku = next(e for e in hand_events if e["type"] == "start_kyoku")
        end = next(e for e in hand_events if e["type"] == "end_kyoku")
        hora = next((e for e in hand_events if e["type"] == "hora"), None)
        chan = next((e for e in hand_events if e["type"] == "chan"), None)
        names = [self.player_at(s).name for s in range(SEATS)]
        msg: dict[str, Any] = {
            "type": "settlement",
            "hand": kyoku["hand"],
            "round": kyoku["round"],
            "dealer": kyoku["dealer"],
            "sit": kyoku["sit"],
            "pulls": kyoku["pulls"],
            "indicator": kyoku["dora_marker"],
            "wilds": kyoku["wilds"],
            "names": names,
            "winner": hora["actor"] if hora else -1,
            "win": None,
            "chan": chan["pai"] if chan else None,
            "payments": end["payments"],
            "deltas": end["deltas"],
            "scores": end["scores"],
            "over": m.is_over,
            "next_in": self.lobby.next_delay if not m.is_over else None,
        }
        if hora:
            msg["win"] = {
                "seat": hora["actor"],
                "tile": hora["pai"],
                "hand": hora["hand"],
                "melds": hora["melds"],
                "fan": hora["fan"],
                "name": hora["name"],
                "elements": elements_detail(hora["elements"]),
                "kong_draw": hora["kong_draw"],
                "tianhu": hora["tianhu"],
            }
        if m.is_over:
            order = sorted(range(SEATS), key=lambda s: -m.scores[s])
            msg["standings"] = [{"rank": r + 1, "seat": s, "name": names[s], "score": m.scores[s]}
                                for r, s in enumerate(order)]
        return msg

    def _refresh_deadline(self, reset: bool) -> None:
        m = self.match
        if not self.timer_s or m is None or self.status != "playing" or self.pause_until is not None:
            self.deadline = None
            return
        p = self.player_at(m.to_act)
        if p.bot is not None or not p.connected:
            self.deadline = None
        elif reset or self.deadline is None:
            self.deadline = time.time() + self.timer_s

    # ---- the driver ----------------------------------------------------------------------

    def start_driver(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run(), name=f"room-{self.id}")

    async def _wait(self, timeout: float | None) -> None:
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout)

    async def _run(self) -> None:
        """Bots act (after ``bot_delay``), a person away is played by the baseline bot, a person who
        does not act by the deadline too (that decision only); with no person connected, it waits."""
        try:
            while self.status == "playing" and self.match is not None:
                m = self.match
                now = time.time()
                if not self.humans_connected():
                    await self._wait(None)
                    continue
                if self.pause_until is not None:
                    waiting = [i for i, p in enumerate(self.players) if p.bot is None and p.connected]
                    if now < self.pause_until and not all(i in self.ready for i in waiting):
                        await self._wait(self.pause_until - now)
                        continue
                    self.pause_until = None
                    self.ready = set()
                    self._refresh_deadline(reset=True)
                    self.broadcast_state()
                    continue
                seat = m.to_act
                p = self.player_at(seat)
                if p.bot is not None or not p.connected:
                    version = self.version
                    await asyncio.sleep(self.lobby.bot_delay)
                    if (self.version != version or self.status != "playing" or self.pause_until is not None
                            or (p.bot is None and p.connected)):
                        continue
                    self._auto(seat, p.bot or "baseline")
                    continue
                if self.deadline is None:
                    await self._wait(None)
                    continue
                if now < self.deadline:
                    await self._wait(self.deadline - now)
                    continue
                p.timeouts += 1
                self._auto(seat, "baseline")  # R4's note: a player who runs out of time is played for
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: the driver failed", self.id)
            self.status = "error"
            self.broadcast(lambda p: error("internal error: the match stops here", "internal"))
            self.broadcast_info()

    async def stop(self) -> None:
        for c in self.connections():
            c.close()
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    # ---- starting --------------------------------------------------------------------------

    def begin(self) -> None:
        """Start the match: bots fill the empty places; the match is created in the store."""
        while len(self.players) < SEATS:
            self.players.append(Player(name=f"Bot {len(self.players)}", bot=self.bot_kind))
        m = Match(self.rules, seed=self.seed, names=[p.name for p in self.players])
        stored = [self.players[m.seating[s]].stored(s) for s in range(SEATS)]
        try:
            self.match_id = self.lobby.store.create_match(self.id, self.rules.to_dict(), self.seed, stored)
        except Exception:
            log.exception("room %s: create_match failed", self.id)
            raise LobbyError(503, "the match could not be stored; try again") from None
        self.match = m
        self.status = "playing"
        self.stored_upto = 0
        self.version += 1
        self._refresh_deadline(reset=True)
        self.broadcast_info()
        self.broadcast_state()
        self.start_driver()


class Lobby:
    """Every room of the server, the store, and the settings shared by the rooms."""

    def __init__(self, store: StoreLike, *, bot_delay: float = 0.4, timer: float | None = None,
                 next_delay: float = 8.0, max_rooms: int = MAX_ROOMS,
                 rate_limit: tuple[int, float] = (BURST, RATE)) -> None:
        self.store = store
        self.rate_limit = rate_limit
        self.bot_delay = max(0.0, bot_delay)
        self.timer = timer
        self.next_delay = next_delay
        self.max_rooms = max_rooms
        self.rooms: dict[str, Room] = {}

    def _new_id(self) -> str:
        while True:
            rid = "".join(secrets.choice(ROOM_ALPHABET) for _ in range(6))
            if rid not in self.rooms:
                return rid

    def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id.upper() if isinstance(room_id, str) else "")
        if room is None:
            raise LobbyError(404, f"no room {room_id!r}")
        return room

    def create(self, name: str, rules: Rules, *, bots: str = "baseline", timer_s: float | None = None,
               seed: int | None = None) -> tuple[Room, str]:
        if len(self.rooms) >= self.max_rooms:
            self.cleanup(force=True)
            if len(self.rooms) >= self.max_rooms:
                raise LobbyError(503, "too many rooms; try again later")
        if bots not in BOT_NAMES:
            raise LobbyError(400, f"'bots' must be one of {', '.join(BOT_NAMES)}")
        room = Room(self, self._new_id(), rules, bots=bots, timer_s=timer_s, seed=seed)
        token = secrets.token_urlsafe(24)
        room.players.append(Player(name=name, token_hash=token_hash(token)))
        self.rooms[room.id] = room
        return room, token

    def join(self, room_id: str, name: str) -> tuple[Room, int, str]:
        room = self.get(room_id)
        token = secrets.token_urlsafe(24)
        if room.status == "waiting":
            if len(room.players) >= SEATS:
                raise LobbyError(409, "the room is full")
            room.players.append(Player(name=name, token_hash=token_hash(token)))
            room.broadcast_info()
            return room, len(room.players) - 1, token
        if room.status == "playing":
            for i, p in enumerate(room.players):
                if p.claimable and p.bot is None and p.name == name:
                    p.token_hash = token_hash(token)
                    p.claimable = False
                    room.broadcast_info()
                    return room, i, token
        raise LobbyError(409, "the match has started; you can watch it")

    def start(self, room_id: str, token: Any) -> Room:
        room = self.get(room_id)
        if not isinstance(token, str) or not room.players or not room.players[0].owns(token):
            raise LobbyError(403, "only the host can start the match")
        if room.status != "waiting":
            raise LobbyError(409, f"the match has already started ({room.status})")
        room.begin()
        return room

    def resume_all(self) -> list[str]:
        """Rebuild the rooms of every unfinished stored match (after a restart); the ids resumed."""
        resumed = []
        for rec in self.store.unfinished_matches():
            try:
                room = self._resume(rec)
            except Exception as e:
                log.warning("match %s (room %s) cannot be resumed: %s; marked abandoned", rec.get("id"),
                            rec.get("room"), e)
                with contextlib.suppress(Exception):
                    self.store.abandon_match(rec["id"])
                continue
            resumed.append(room.id)
        return resumed

    def _resume(self, rec: dict[str, Any]) -> Room:
        events = self.store.events(rec["id"])
        m = rebuild(events) if events else self._first_hand(rec)
        if m.is_over:
            self.store.finish_match(rec["id"], list(m.scores))
            raise ResumeError("the match is over")
        rid = str(rec.get("room") or self._new_id())
        if rid in self.rooms:
            rid = self._new_id()
        room = Room(self, rid, m.rules, seed=m.seed)
        stored = list(rec.get("players") or [])
        by_seat: dict[int, dict[str, Any]] = {}
        for i, sp in enumerate(stored):  # stored by seat, each with its "seat"
            if isinstance(sp, dict):
                seat = sp.get("seat")
                by_seat[seat if isinstance(seat, int) else i] = sp
        players = []
        for player in range(SEATS):
            seat = m.seating.index(player)
            sp = by_seat.get(seat, {})
            bot = sp.get("bot") if sp.get("kind") == "bot" else None
            if bot is not None and bot not in BOT_NAMES:
                bot = "baseline"
            players.append(Player(name=m.names[player], bot=bot, claimable=bot is None))
        room.players = players
        kinds = {p.bot for p in players if p.bot}
        room.bot_kind = kinds.pop() if len(kinds) == 1 else "baseline"
        room.timer_s = self.timer
        room.match = m
        room.match_id = rec["id"]
        room.status = "playing"
        room.stored_upto = len(events)  # 0 when nothing is stored: start_game goes with the first hand
        room.resumed = True
        room.version = 1
        self.rooms[rid] = room
        return room

    @staticmethod
    def _first_hand(rec: dict[str, Any]) -> Match:
        """A match stored before its first hand ended (no events yet): from its rules, seed and players."""
        rules = Rules.from_dict(rec["rules"])
        seating = Match(rules, seed=rec["seed"]).seating  # the seating follows from the seed (R3)
        by_seat = {p["seat"]: p["name"] for p in rec.get("players") or [] if isinstance(p, dict)}
        names = [f"player{i}" for i in range(SEATS)]
        for s, p in enumerate(seating):
            names[p] = str(by_seat.get(s, names[p]))
        return Match(rules, seed=rec["seed"], names=names)

    def start_drivers(self) -> None:
        for room in self.rooms.values():
            if room.status == "playing":
                room.start_driver()

    def cleanup(self, force: bool = False) -> None:
        """Forget finished rooms nobody watches (10 minutes after), and empty waiting rooms (an hour)."""
        now = time.time()
        for rid, room in list(self.rooms.items()):
            idle = now - room.touched
            if room.connections():
                continue
            done = room.status in ("over", "error") and (force or idle > 600)
            stale = room.status == "waiting" and (idle > 3600 or (force and idle > 60))
            if done or stale:
                del self.rooms[rid]

    async def shutdown(self) -> None:
        for room in list(self.rooms.values()):
            await room.stop()
