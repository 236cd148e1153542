"""The room and table runtime of the web server: seats, sockets, bots, timers, storage, resume.

The engine (:class:`tjmj.game.Match`) is the only authority: a room holds one match, and every
decision goes through :meth:`Match.apply`, whether a person's (over a WebSocket), a bot's, or the
baseline bot's on a time-out or for a person away.  Everything here runs on the server's event
loop; the engine is called synchronously, so no two changes to a room interleave.  The database
is never called on the loop: every store call runs in the lobby's thread pool (:meth:`Lobby.db`),
and while a finished hand is being stored the room takes no decisions (``saving``).  One asyncio
task per room (:meth:`Room._run`) drives the bots, the turn timer and the grace period.

Players and seats: ``player`` is the place in the room in order of arrival (the host is player
0); ``seat`` (0–3 = East, South, West, North) is drawn at random when the match starts (R3),
``match.seating[seat] = player``.  Each person holds a secret token; the store keeps only its
SHA-256 hash, so a restarted server accepts the old tokens, and a seat is never handed to a name.

Storage: the events of each finished hand (``start_kyoku`` … ``end_kyoku``, the first call with
``start_game``, the last one with ``end_game``) are stored with one ``append_events`` call before
anyone is told the result.  If the database fails, the hand is kept in memory and the store is
retried (backing off up to 10 s) until it succeeds; only then is the result shown.  A match is
owned by one server process at a time (a lease in the database, renewed every few seconds; every
write is fenced by it): a process that lost the lease stops the room instead of writing.

Resume: :meth:`Lobby.resume_all` claims every unfinished match that someone had connected to and
whose lease is free, and rebuilds it by replaying the actions its events imply (as
:func:`tjmj.record.replay` does), up to the last stored hand; the hand in play is void (never
stored, nobody's score changed by it) and is dealt again from a fresh wall (``start_kyoku.resume``,
docs/records.md), never the interrupted one.
Waiting rooms that someone had connected to are stored too and come back the same way.

Security (docs/security.md): tokens only in the first WebSocket message, one live socket per seat,
rate limits per seat, per socket and per address, rooms nobody connects to expire.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import orjson

from ..bots import BOT_NAMES, Bot, make_bot
from ..families.tianjin.elements import ELEMENT_BY_CODE
from ..game import Action, IllegalAction, Match, visible_event
from ..meld import Meld
from ..record import ReplayError as ResumeError
from ..record import rebuild
from ..rules import BeijingRules, McrRules, Rules, TianjinRules
from ..tiles import TILE_TEXT, Tile
from ..wall import SEATS
from .errors import PLAYER_ID_RE, DatabaseLost, LeaseLost

if TYPE_CHECKING:
    from ..bots.expert import ExpertBot

__all__ = [
    "HINT_SEARCH_MS",
    "LEVELS",
    "Bucket",
    "Buckets",
    "Connection",
    "Limits",
    "Lobby",
    "LobbyError",
    "MatchFactory",
    "Player",
    "ResumeError",
    "Room",
    "StoreLike",
    "beijing_payments_detail",
    "beijing_win_detail",
    "frames",
    "hint",
    "hint_available",
    "mcr_payments_detail",
    "mcr_win_detail",
    "payment_formula",
    "rebuild",
    "room_bot",
    "settlement_message",
    "tianjin_payments_detail",
    "token_hash",
    "win_arrangement",
]

log = logging.getLogger("tjmj.web")
# the bots a room may seat: those of BOT_NAMES, which decide from the observation, and ``expert``,
# which searches on a copy of the room's match in a worker thread (Room._search), off the event loop
ROOM_BOTS: tuple[str, ...] = (*BOT_NAMES, "expert")
# the lobby's bot levels and the bot each seats: said here only (the lobby's select lists them, as
# tests/test_web.py checks; rooms report the level of their bot).  ``bots`` in the API takes a level
# or a bot name of ROOM_BOTS (``random`` is offered by the API only)
LEVELS: dict[str, str] = {"easy": "greedy", "normal": "baseline", "hard": "strong", "expert": "expert"}
LEVEL_OF: dict[str, str] = {bot: level for level, bot in LEVELS.items()}
# the time the expert search behind a hint may take (ms): shorter than a bot seat's 200 ms, since a
# person is waiting for it; Lobby(hint_search_ms=None) gives hints without the search part
HINT_SEARCH_MS = 100.0

T = TypeVar("T")
# (rules, seed, names by player) -> the match a room plays; the default is Match(rules, seed, names)
MatchFactory = Callable[[Rules, int, list[str]], Match]

MAX_ACTION_LEN = 40
MAX_MESSAGE_CHARS = 2000
MAX_NAME_LEN = 20
BURST = 20  # messages a seat (or a spectator's socket) may send at once ...
RATE = 10.0  # ... refilled at this many per second
MAX_LIMITED = 200  # messages refused in a row before the socket is closed
ERROR_BURST = 50  # messages a seat (or a spectator's socket) may get an error for at once ...
ERROR_RATE = 0.5  # ... refilled at this many per second; beyond, the socket is closed (1008)
OUTBOX = 2000  # queued messages to one slow client before it is dropped
MAX_ROOMS = 500
ROOM_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
WINDS = ("E", "S", "W", "N")
WINDS_CN = ("东", "南", "西", "北")
CLOSE_REPLACED = 4409  # the seat was opened by a newer socket
SAVE_BACKOFF_MAX = 10.0


@dataclass(frozen=True)
class Limits:
    """Every limit the server enforces, in one place (docs/security.md gives the reasons).

    Rates are token buckets: ``*_burst`` at once, then ``*_rate`` per second.
    """

    ws_burst: int = BURST  # messages per seat, and per spectator socket
    ws_rate: float = RATE
    error_burst: int = ERROR_BURST  # messages answered with an error, per seat and per spectator socket
    error_rate: float = ERROR_RATE
    address_ws_burst: int = 60  # messages of all the sockets of one address together
    address_ws_rate: float = 30.0
    post_burst: int = 10  # POSTs (create, join, start) per address
    post_rate: float = 0.5
    get_burst: int = 120  # API GETs per address
    get_rate: float = 20.0
    max_rooms: int = MAX_ROOMS
    unseen_per_address: int = 5  # rooms one address created that nobody has connected to yet
    unseen_ttl: float = 120.0  # seconds before such a room expires
    waiting_ttl: float = 3600.0  # a waiting room with nobody connected is forgotten after this
    finished_ttl: float = 600.0  # a finished room with nobody connected is forgotten after this
    finished_kept: int = 100  # finished rooms with nobody connected kept at most (the least recently used go)
    sockets_per_address: int = 32
    max_sockets: int = 5000
    auth_timeout: float = 10.0  # seconds for a socket's first message (hello)
    grace: float = 15.0  # a person away is played by the bot after this (or their turn timer)
    db_timeout: float = 5.0  # a database call slower than this answers 503 / tells the table
    health_every: float = 1.5  # seconds /healthz reuses its check of the database, however often asked
    health_timeout: float = 2.0  # a database check (SELECT 1) slower than this says the database is down
    lease_renew: float = 10.0  # seconds between lease renewals (the store's lease is longer)
    adopt_every: float = 60.0  # seconds between looks for matches another process left behind
    lobby_listed: int = 50  # rooms per list of GET /api/lobby (open, live), newest first
    lobby_rebuild: float = 0.5  # seconds GET /api/lobby reuses its lists, however many pages poll


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
    def events(self, match_id: Any) -> list[dict[str, Any]]: ...
    def claim_matches(self) -> list[dict[str, Any]]: ...
    def claim_rooms(self) -> list[dict[str, Any]]: ...
    def save_room(self, code: str, data: dict[str, Any]) -> Any: ...
    def delete_room(self, code: str) -> Any: ...
    def renew(self) -> tuple[set[int], set[str]]: ...
    def release_all(self) -> Any: ...


class LobbyError(Exception):
    """A refused request: ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


def room_bot(value: Any) -> str:
    """The bot a room seats for ``bots``: a level of :data:`LEVELS` (``hard`` → ``strong``) or a bot
    name of :data:`ROOM_BOTS` as it is; anything else is a 400 that names the value."""
    if isinstance(value, str):
        if value in LEVELS:
            return LEVELS[value]
        if value in ROOM_BOTS:
            return value
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    raise LobbyError(400, f"'bots' must be a level ({', '.join(LEVELS)}) or a bot ({', '.join(ROOM_BOTS)}), "
                          f"not {shown}")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def player_id(value: Any) -> str | None:
    """A person's player id from a request (docs/web.md): None when absent (anonymous); anything
    but 16 to 32 of ``A-Z a-z 0-9 _ -`` is a 400."""
    if value is None:
        return None
    if not isinstance(value, str) or not PLAYER_ID_RE.match(value):
        raise LobbyError(400, "'player_id' must be 16 to 32 of the characters A-Z a-z 0-9 _ -")
    return value


def checked_player_id(value: Any) -> str | None:
    """A stored player id read back (a resumed room): kept if well formed, else dropped (anonymous)."""
    return value if isinstance(value, str) and PLAYER_ID_RE.match(value) else None


def clean_name(name: Any, default: str = "Player") -> str:
    """A display name: a string, control characters dropped, trimmed, at most 20 characters."""
    if name is None:
        return default
    if not isinstance(name, str):
        raise LobbyError(400, "'name' must be a string")
    text = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME_LEN]
    return text or default


class Bucket:
    """A token bucket: ``burst`` at once, refilled at ``rate`` per second."""

    __slots__ = ("burst", "rate", "tokens", "stamp", "limited")

    def __init__(self, burst: int, rate: float) -> None:
        self.burst = burst
        self.rate = rate
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.limited = 0  # refusals in a row

    def allow(self, cost: float = 1.0) -> bool:
        now = time.monotonic()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= cost:
            self.tokens -= cost
            self.limited = 0
            return True
        self.limited += 1
        return False

    def wait(self) -> float:
        """Seconds until one more is allowed."""
        return max(0.0, (1 - self.tokens) / self.rate) if self.rate > 0 else 60.0


class Buckets:
    """One bucket per key (a client address), the least recently used forgotten beyond ``size``."""

    def __init__(self, burst: int, rate: float, size: int = 10000) -> None:
        self.burst, self.rate, self.size = burst, rate, size
        self.items: OrderedDict[str, Bucket] = OrderedDict()

    def get(self, key: str) -> Bucket:
        b = self.items.get(key)
        if b is None:
            b = self.items[key] = Bucket(self.burst, self.rate)
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        else:
            self.items.move_to_end(key)
        return b

    def allow(self, key: str) -> bool:
        return self.get(key).allow()


# ---- events and observations per viewer ---------------------------------------------------


def _meld_tiles(melds: Sequence[str]) -> list[list[int]]:
    """The kinds of the tiles of each meld text (a chi is three kinds, a kong four)."""
    return [[int(t) for t in Meld.parse(text).tiles] for text in melds]


def _visible_counts(m: Match, obs: dict[str, Any]) -> list[int]:
    """Copies of each kind the seat of ``obs`` sees: its hand, every meld and every discard.  A
    claimed tile lies in a meld and in its discarder's list too; the claims of the hand (public
    events) say which tile that was, so it is counted once."""
    visible = [0] * 34
    for t in obs["hand"]:
        visible[Tile.parse(t)] += 1
    for st in obs["seats"]:
        for t in st["discards"]:
            visible[Tile.parse(t)] += 1
        for tiles in _meld_tiles(st["melds"]):
            for k in tiles:
                visible[k] += 1
    for ev in reversed(m.events):
        if ev["type"] == "start_kyoku":
            break
        if ev["type"] in ("pon", "chi", "daiminkan"):
            visible[Tile.parse(ev["pai"])] -= 1
    return visible


def hint(m: Match, seat: int) -> list[dict[str, Any]]:
    """For each discard the seat may make now, ranked by the family's advisor (:mod:`tjmj.families.tianjin.advise`,
    :mod:`tjmj.families.beijing.advise`): shanten, live improving tiles and, when ready, what the 13
    tiles left wait on, with fan (Tianjin) or value (Beijing) and live copies.

    ``live`` counts copies not visible to this seat: its hand, every meld, every discard and the
    indicator (Beijing's 混坯 while it lies face up).  Each entry also has ``rank`` (1 = best: by the
    expected value of a legal win, docs/advise.md), ``improving`` (live tiles that lower the shanten),
    ``improving_tiles``, ``win_chance`` and ``expected`` (the chance of a legal win within the draws
    the wall leaves, and that times its fan or points), ``legal_shanten``, ``dead`` (ready, no live
    legal win: 死提溜), ``any_tile`` (wins on any tile: 混儿吊 / 混儿悠), ``summary`` and
    ``summary_zh`` (one line each) and, when ready, ``ev`` (Σ live × fan, or × value, over the
    winning draws).
    """
    rules = m.rules
    if isinstance(rules, BeijingRules):
        return _beijing_hint(m, seat, rules)
    if isinstance(rules, McrRules):
        return _mcr_hint(m, seat, rules) or []
    if not isinstance(rules, TianjinRules):
        return []
    from ..families.tianjin.advise import advise  # the waits tables are only needed when someone asks

    obs = m.observation(seat)
    hand = [Tile.parse(t) for t in obs["hand"]]
    own_melds = obs["seats"][seat]["melds"]
    visible = _visible_counts(m, obs)
    visible[Tile.parse(obs["indicator"])] += 1
    # what the advisor does not count itself: all but the seat's hand, own melds and the indicator
    seen_counts = list(visible)
    for t in hand:
        seen_counts[t] -= 1
    for tiles in _meld_tiles(own_melds):
        for k in tiles:
            seen_counts[k] -= 1
    seen_counts[Tile.parse(obs["indicator"])] -= 1
    seen = [Tile(k) for k, n in enumerate(seen_counts) for _ in range(max(0, n))]
    rest, draw = _split_draw(obs, hand)
    xxg = bool(obs["seats"][seat].get("xiaoxianggong"))
    a = advise(rest, draw, obs["indicator"], own_melds, seen=seen, rules=rules, xiaoxianggong=xxg,
               wall_left=obs.get("wall_left"))
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
            **_hint_outlook(o),
        }
        if o.ready:
            entry["ev"] = o.ev
        out.append(entry)
    out.sort(key=lambda e: e["rank"])
    return out


def _hint_outlook(o: Any) -> dict[str, Any]:
    """The advisor's figures of one option for a hint entry (either family's ``Option``)."""
    d: dict[str, Any] = {
        "win_chance": round(o.win_chance, 3), "expected": round(o.expected, 2), "legal_shanten": o.legal_shanten,
        "dead": o.dead, "any_tile": o.any_tile, "summary": o.summary, "summary_zh": o.summary_zh,
    }
    if o.legal_improving is not None:
        d["legal_improving"] = o.legal_improving
    return d


def _split_draw(obs: dict[str, Any], hand: list[Tile]) -> tuple[list[Tile], Tile]:
    """The 14 tiles of a turn as the hand before the draw and the draw (after a claim, or the
    dealer's first turn, any tile stands for the draw: the discards are judged the same)."""
    drawn = obs.get("drawn")
    rest = list(hand)
    draw = Tile.parse(drawn) if drawn and Tile.parse(drawn) in rest else rest[-1]
    rest.remove(draw)
    return rest, draw


def _beijing_hint(m: Match, seat: int, rules: BeijingRules) -> list[dict[str, Any]]:
    """Beijing's hint (B2–B5), by :func:`tjmj.families.beijing.advise.advise`: as Tianjin's, with
    ``value`` where Tianjin gives ``fan`` (``expected`` in points), each wait's value won on a discard
    (``discard``), and ``hunyou`` on a discard that may also be made as 混儿悠 (B3)."""
    try:
        from ..families.beijing.advise import advise
    except ImportError:  # the advisor is not there: no hint rather than a made-up one
        return []
    obs = m.observation(seat)
    hand = [Tile.parse(t) for t in obs["hand"]]
    own_melds = obs["seats"][seat]["melds"]
    indicator = obs.get("indicator")
    visible = _visible_counts(m, obs)
    # the 混坯 lies face up until the first replacement draw takes it (B2): after any kong it is a
    # tile like another (in a hand, or discarded and counted there)
    face_up = indicator is not None and not any(
        len(tiles) == 4 for st in obs["seats"] for tiles in _meld_tiles(st["melds"]))
    seen_counts = list(visible)
    for t in hand:
        seen_counts[t] -= 1
    for tiles in _meld_tiles(own_melds):
        for k in tiles:
            seen_counts[k] -= 1
    seen = [Tile(k) for k, n in enumerate(seen_counts) for _ in range(max(0, n))]
    rest, draw = _split_draw(obs, hand)
    a = advise(rest, draw, indicator, own_melds, seen=seen, rules=rules, dealer=seat == m.dealer,
               indicator_visible=face_up, wall_left=obs.get("wall_left"))
    by_tile = {o.tile: o for o in a.discards}
    legal = m.legal_actions(seat)
    hunyou = {x.tile for x in legal if x.type == "hunyou"}
    wilds = set(obs["wilds"])
    out = []
    for k in sorted({x.tile for x in legal if x.type == "discard" and x.tile is not None}):
        o = by_tile[k]
        waits = [
            {
                "tile": TILE_TEXT[w.tile],
                "value": w.value,
                "name": w.name,
                "win": w.win,
                "elements": w.codes,
                "live": w.live,
                "discard": {"value": w.discard.value, "win": w.discard.win},
                **({"reason": w.reason} if w.reason else {}),
            }
            for w in o.waits
        ]
        entry: dict[str, Any] = {
            "tile": TILE_TEXT[k], "wild": TILE_TEXT[k] in wilds, "shanten": o.shanten, "hunyou": k in hunyou,
            "waits": waits, "rank": o.rank, "improving": o.improving_count,
            "improving_tiles": [{"tile": TILE_TEXT[t], "live": n} for t, n in o.improving],
            **_hint_outlook(o),
        }
        if o.ready:
            entry["ev"] = o.ev
        out.append(entry)
    out.sort(key=lambda e: e["rank"])
    return out


def hint_search_bot(budget_ms: float) -> ExpertBot:
    """The searching bot behind a hint's search part: a fresh :class:`tjmj.bots.expert.ExpertBot` per
    search (two searches of one seat may overlap in the worker threads, and a bot holds its match)."""
    from ..bots.expert import ExpertBot  # the search is only needed when someone asks

    return ExpertBot(budget_ms=budget_ms)


def hint_available(rules: Rules) -> bool:
    """Whether the family of ``rules`` has an advisor the hint can use (MCR's waits module may be
    missing from an installation: then the table says hints are not available, rather than guess)."""
    if isinstance(rules, TianjinRules):
        return True
    try:
        if isinstance(rules, BeijingRules):
            from ..families.beijing import advise  # noqa: F401
        elif isinstance(rules, McrRules):
            from ..families.mcr import waits  # noqa: F401
        else:
            return False
    except ImportError:
        return False
    return True


_MCR_WINDS = ("E", "S", "W", "N")


def _mcr_hint(m: Match, seat: int, rules: McrRules) -> list[dict[str, Any]] | None:
    """MCR's hint (M2, M3), by :func:`tjmj.families.mcr.waits.mcr_waits`: for each legal discard,
    the shanten of the tiles left (over every shape of M3), the live tiles that lower it and, when
    ready, each winning tile with its fan self-drawn (``fan``, ``name``, ``fans``) and on a discard
    (``discard``), and ``win``: whether it reaches ``min_fan`` (8) not counting flowers.  Ranked by
    the live winning tiles times their fan, then the shanten and the improving tiles.  None when
    the waits module is missing."""
    inputs = _mcr_hint_inputs(m, seat, rules)
    return None if inputs is None else _mcr_hint_compute(inputs)


def _mcr_hint_inputs(m: Match, seat: int, rules: McrRules) -> dict[str, Any] | None:
    """What :func:`_mcr_hint_compute` needs, copied from the match (it may then run in another
    thread while the match goes on); None when the waits module is missing."""
    try:
        from ..families.mcr import waits  # noqa: F401
        from ..families.mcr.score import McrMeld
    except ImportError:
        return None
    obs = m.observation(seat)
    hand = [Tile.parse(t) for t in obs["hand"]]
    st = m.seats[seat]
    info = list(getattr(st, "meld_info", [])) or [(None, 0)] * len(st.melds)
    melds = [McrMeld(type=x.type.value, tile=x.tile, claimed=c, offer=o) for x, (c, o) in zip(st.melds, info)]
    winds = obs.get("seat_winds") or list(_MCR_WINDS)
    seat_wind = _MCR_WINDS.index(winds[seat]) if winds[seat] in _MCR_WINDS else 0
    prevalent = obs.get("prevalent_wind")
    prevalent_wind = _MCR_WINDS.index(prevalent) if prevalent in _MCR_WINDS else 0
    legal = m.legal_actions(seat)
    return {"hand": hand, "melds": melds, "seat_wind": seat_wind, "prevalent_wind": prevalent_wind,
            "visible": _visible_counts(m, obs), "min_fan": rules.min_fan,
            "discards": sorted({x.tile for x in legal if x.type == "discard" and x.tile is not None})}


def _mcr_hint_compute(inputs: dict[str, Any]) -> list[dict[str, Any]]:
    """The hint of :func:`_mcr_hint` from its inputs (a pure function of them)."""
    from ..families.mcr.waits import mcr_waits, shanten_mcr

    hand, melds, visible, min_fan = inputs["hand"], inputs["melds"], inputs["visible"], inputs["min_fan"]
    seat_wind, prevalent_wind = inputs["seat_wind"], inputs["prevalent_wind"]
    out: list[dict[str, Any]] = []
    for k in inputs["discards"]:
        rest = list(hand)
        rest.remove(k)
        ws = mcr_waits(rest, melds, seat_wind=seat_wind, prevalent_wind=prevalent_wind, min_fan=min_fan)
        counts = [0] * 34
        for t in rest:
            counts[t] += 1
        improving = []
        for d in range(34):
            live = max(0, 4 - visible[d])  # the discard stays seen: in the pond instead of the hand
            if not live or counts[d] >= 4:
                continue
            counts[d] += 1
            if shanten_mcr(counts, len(melds)) < ws.shanten:
                improving.append((d, live))
            counts[d] -= 1
        waits: list[dict[str, Any]] = []
        for w in ws.waits:
            drawn, claimed = w.self_drawn, w.discard
            waits.append({
                "tile": TILE_TEXT[w.tile],
                "fan": drawn.fan,
                "name": drawn.names,
                "win": drawn.win,
                "fans": [{"code": f.code, "name": f.chinese, "en": f.english, "fan": f.fan, "count": f.count}
                         for f in drawn.fans],
                "live": max(0, 4 - visible[w.tile]),
                "discard": {"fan": claimed.fan, "win": claimed.win},
            })
        winning = [w for w in waits if w["win"] or w["discard"]["win"]]
        ev = sum(w["live"] * w["fan"] for w in winning)
        n_live = sum(w["live"] for w in winning)
        best = max((w["fan"] for w in winning), default=0)
        if winning:
            kinds = f"{len(winning)} winning tile{'s' if len(winning) > 1 else ''}"
            summary = f"ready: {kinds}, {n_live} live, up to {best} fan"
            summary_zh = f"听牌：{len(winning)} 种和张，剩 {n_live} 张，最多 {best} 番"
        elif waits:
            summary = f"ready, but no wait reaches {min_fan} fan"
            summary_zh = f"听牌，但不够 {min_fan} 番起和"
        else:
            n_imp = sum(n for _, n in improving)
            summary = f"{ws.shanten} from ready, {n_imp} tiles improve"
            summary_zh = f"{ws.shanten} 向听，{n_imp} 张进张"
        out.append({
            "tile": TILE_TEXT[k], "wild": False, "shanten": ws.shanten, "waits": waits,
            "improving": sum(n for _, n in improving),
            "improving_tiles": [{"tile": TILE_TEXT[t], "live": n} for t, n in improving],
            "ev": ev, "summary": summary, "summary_zh": summary_zh,
        })
    # a live win first (by live tiles × fan), then nearer to ready, then more tiles that improve
    order = sorted(out, key=lambda e: (-(e["ev"] > 0), -e["ev"], e["shanten"], -e["improving"], e["tile"]))
    for rank, e in enumerate(order, 1):
        e["rank"] = rank
    return order


def frames(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One frame per step of a stored match: the events of that step and the whole state after it."""
    out: list[dict[str, Any]] = []

    def step(m: Match, action: Action | None, new: list[dict[str, Any]]) -> None:
        if new:
            out.append({"events": named(new, m.rules.family), "state": m.full_view()})

    rebuild(events, step)
    return out


def named(events: list[dict[str, Any]], family: str) -> list[dict[str, Any]]:
    """Events as the pages show them: a win also carries its elements' names (``elements_detail``:
    code, Chinese, English; written once, in the element classes), so a log line or a replay reads in
    either language.  The record itself keeps the codes only."""
    if not any(e.get("type") == "hora" for e in events):
        return events
    if family == "mcr":
        return [{**e, "elements_detail": _mcr_fan_names(e)} if e.get("type") == "hora" else e for e in events]
    if family == "beijing":
        from ..families.beijing.elements import ELEMENT_BY_CODE as BEIJING_ELEMENTS

        table: Any = BEIJING_ELEMENTS
    else:
        table = ELEMENT_BY_CODE
    out = []
    for e in events:
        if e.get("type") == "hora" and isinstance(e.get("elements"), list):
            detail = []
            for c in e["elements"]:
                el = table.get(c)
                detail.append({"code": c, "chinese": el.chinese if el else c, "english": el.english if el else c})
            e = {**e, "elements_detail": detail}
        out.append(e)
    return out


def _mcr_fan_names(hora: dict[str, Any]) -> list[dict[str, Any]]:
    """An MCR win's fans by name (M3), from its ``fans`` (code, Chinese name, value, count; or its
    ``elements`` codes): code, Chinese, English, a fan counted n times marked ``×n``."""
    from ..families.mcr.fans import FAN_BY_CODE

    fans = hora.get("fans")
    if not isinstance(fans, list):
        fans = [{"code": c, "count": 1} for c in hora.get("elements") or []]
    out = []
    for f in fans:
        fan = FAN_BY_CODE.get(f.get("code", ""))
        zh = fan.chinese if fan is not None else f.get("name") or f.get("code", "")
        en = fan.english if fan is not None else f.get("code", "")
        times = f"×{f['count']}" if f.get("count", 1) > 1 else ""
        out.append({"code": f.get("code"), "chinese": zh + times, "english": en + (f" {times}" if times else "")})
    return out


def mcr_win_detail(hora: dict[str, Any], rules: McrRules) -> dict[str, Any]:
    """An MCR win as the settlement explains it (M3, M4): each fan with its Chinese and English
    names, its value and how many times it counts (花牌, the flowers, last: not part of ``fan``,
    which the 8-fan minimum is judged on), and the sum: ``formula`` / ``formula_en``, e.g.
    ``24番 + 花牌 2 = 26`` / ``24 fan + 2 flowers = 26``."""
    from ..families.mcr.fans import FAN_BY_CODE

    fans = []
    for f in hora.get("fans") or []:
        fan = FAN_BY_CODE.get(f["code"])
        fans.append({"code": f["code"], "chinese": f.get("name") or (fan.chinese if fan else f["code"]),
                     "english": fan.english if fan is not None else f["code"], "fan": f["fan"],
                     "count": f["count"], "total": f["fan"] * f["count"], "flower": f["code"] == "flower_tiles"})
    fan, flowers, total = hora["fan"], hora.get("flowers", 0), hora.get("total", hora["fan"])
    if flowers:
        formula = f"{fan}番 + 花牌 {flowers} = {total}"
        formula_en = f"{fan} fan + {flowers} flower{'s' if flowers > 1 else ''} = {total}"
    else:
        formula, formula_en = f"{fan}番", f"{fan} fan"
    counted = sum(f["total"] for f in fans if not f["flower"])
    if counted != fan:  # the engine is the authority: its sum, whatever the list says
        log.warning("MCR fan %s listed as %s (%s)", fan, counted, hora.get("fans"))
    target = hora.get("target")
    return {
        "seat": hora["actor"],
        "tile": hora["pai"],
        "hand": hora["hand"],
        "melds": hora["melds"],
        "fan": fan,
        "flowers": flowers,
        "total": total,
        "min_fan": rules.min_fan,
        "name": hora["name"],
        "fans": fans,
        "formula": formula,
        "formula_en": formula_en,
        "self_drawn": bool(hora.get("self_drawn")),
        "rob_kong": bool(hora.get("rob_kong")),
        "about_kong": bool(hora.get("about_kong")),
        "wall_last": bool(hora.get("wall_last")),
        "fourth_tile": bool(hora.get("fourth_tile")),
        "from": target if not hora.get("self_drawn") and target != hora["actor"] else None,
    }


def mcr_payments_detail(hora: dict[str, Any] | None, payments: Sequence[dict[str, Any]],
                        rules: McrRules) -> list[dict[str, Any]]:
    """Each payment of an MCR hand with how it is reached (M4): the discarder of a discard win (or
    the robbed kong's declarer) pays 8 + the total, each other player 8; a self-drawn win, 8 + the
    total each; all times ``base``.  ``terms`` are the summands (``[8, 24]`` or ``[8]``),
    ``formula`` / ``formula_en`` the sum: ``8 + 24 = 32``, ``8``, ``(8 + 24) × 2 = 64``.  A payment
    the rule does not explain gets its amount alone (and a warning in the log)."""
    from ..families.mcr.rules import BASIC_PAYMENT

    base = rules.base
    out = []
    for pay in payments:
        d = dict(pay)
        terms: list[int] = []
        if hora is not None and pay["reason"] == "win":
            source = None if hora.get("self_drawn") else hora.get("target")
            total = hora.get("total", hora["fan"])
            terms = [BASIC_PAYMENT, total] if source is None or pay["payer"] == source else [BASIC_PAYMENT]
        amount = sum(terms) * base
        if not terms or amount != pay["amount"]:
            if terms:
                log.warning("MCR payment %s not explained by %s × %s", pay, terms, base)
            terms = []
            formula = str(pay["amount"])
        else:
            text = " + ".join(map(str, terms))
            formula = text if len(terms) == 1 else f"{text} = {sum(terms)}"
            if base != 1:
                formula = (f"({text})" if len(terms) > 1 else text) + f" × {base} = {amount}"
        d["terms"], d["base"] = terms, base
        d["formula"] = d["formula_en"] = formula
        out.append(d)
    return out


def mcr_arrangement(hora: dict[str, Any], rules: McrRules) -> dict[str, Any] | None:
    """The winning arrangement of an MCR win, re-scored from its ``hora`` event (M3):
    ``shape`` (``standard``, ``seven_pairs``, ``thirteen_orphans``, ``knitted``,
    ``knitted_straight``, ``nine_gates``) and ``groups`` (``kind``: ``chow``, ``pung``, ``kong``,
    ``pair``, ``knitted``, ``single``; ``tiles``; ``concealed``; ``winning``: the winning tile's
    index in the group that holds it, else null), and ``winning_group``.  None when re-scoring does
    not give the engine's fan (logged: the engine is the authority)."""
    try:
        from ..families.mcr.score import McrMeld, McrSituation, score_mcr

        melds = []
        for text, c in zip(hora["melds"], hora.get("claims") or [{}] * len(hora["melds"]), strict=True):
            mt = Meld.parse(text)
            claimed = Tile.parse(c["claimed"]) if c.get("claimed") else None
            melds.append(McrMeld(type=mt.type.value, tile=mt.tile, claimed=claimed, offer=int(c.get("offer") or 0)))
        sit = McrSituation(self_drawn=bool(hora["self_drawn"]), fourth_tile=bool(hora.get("fourth_tile")),
                           about_kong=bool(hora.get("about_kong")), wall_last=bool(hora.get("wall_last")),
                           seat_wind=int(hora.get("seat_wind") or 0), prevalent_wind=int(hora.get("prevalent_wind") or 0),
                           flowers=int(hora.get("flowers") or 0))
        res = score_mcr([Tile.parse(x) for x in hora["hand"]], Tile.parse(hora["pai"]), melds, sit,
                        min_fan=rules.min_fan)
        if not res.win or res.fan != hora["fan"] or [f.code for f in res.fans] != list(hora["elements"]):
            log.warning("re-scoring the MCR win %s does not give the engine's result", hora)
            return None
        groups = [g.to_dict() for g in res.groups]
    except (ValueError, KeyError, TypeError) as e:  # InvalidMcrHand and TileError are ValueErrors
        log.warning("the MCR win %s cannot be re-scored: %s", hora, e)
        return None
    # the winning tile is in a group the hand made, not in a declared meld: the melds' groups are
    # matched first, then the first other group holding the tile is the winning one
    fixed = [sorted(TILE_TEXT[t] for t in Meld.parse(x).tiles) for x in hora["melds"]]
    winning_group = None
    for i, g in enumerate(groups):
        g["winning"] = None
        if g["kind"] == "kong" and g["concealed"]:
            g["kind"] = "ankong"  # 暗杠, as the other families name a concealed kong
        key = sorted(g["tiles"])
        if key in fixed and (not g["concealed"] or len(key) == 4):  # a claimed meld, or a concealed kong
            fixed.remove(key)
            continue
        if winning_group is None and hora["pai"] in g["tiles"]:
            winning_group = i
            g["winning"] = g["tiles"].index(hora["pai"])
    return {"shape": res.shape, "groups": groups, "winning_group": winning_group}


def elements_detail(codes: Sequence[str], rules: Rules | None = None) -> list[dict[str, Any]]:
    """Tianjin's elements of a win with their names and fan (R5); 天胡's value as these rules have
    it (R5.5: 4 fan flat, or ×4 the best fan), not both readings."""
    out = []
    for c in codes:
        e = ELEMENT_BY_CODE.get(c)
        d = e.to_dict() if e is not None else {"code": c, "chinese": c, "english": c, "value": ""}
        if c == "TIANHU" and rules is not None:
            best = getattr(rules, "tianhu", "flat") == "best_x4"
            d["value"], d["value_zh"] = ("×4", "×4") if best else ("4 fan", "4番")
        out.append(d)
    return out


def _short(english: str) -> str:
    """An element's English name without its gloss: "dragon (1-9 straight)" → "dragon"."""
    return english.split(" (")[0]


def tianjin_fan_formula(codes: Sequence[str], fan: int, rules: Rules | None = None) -> tuple[str, str]:
    """How a Tianjin win's fan is made (R5.2), Chinese and English, from the scorer's elements:
    the core values added, times 2 per doubling element, e.g. ``(捉伍儿3 + 龙4) × 没混儿2 = 14`` and
    ``(catching the five 3 + dragon 4) × no wilds 2 = 14``; 天胡 (R5.5) 4 flat or ×4.  The scorer's
    ``fan`` is the authority: a formula that does not come to it is replaced by the fan alone."""
    known = [ELEMENT_BY_CODE[c] for c in codes if c in ELEMENT_BY_CODE]
    tianhu = "TIANHU" in codes
    best_x4 = getattr(rules, "tianhu", "flat") == "best_x4"
    if tianhu and not best_x4:  # R5.5 flat: 4 fan whatever the shape
        return "天胡4 = 4" if fan == 4 else f"{fan}", "heavenly hand 4 = 4" if fan == 4 else f"{fan}"
    cores = [e for e in known if e.core]
    doubles = [e for e in known if e.double]
    core = sum(e.core for e in cores) or 1
    zh_terms = [f"{e.chinese}{e.core}" for e in cores] or ["提溜1"]
    en_terms = [f"{_short(e.english)} {e.core}" for e in cores] or ["basic win 1"]
    zh, en = " + ".join(zh_terms), " + ".join(en_terms)
    if len(cores) > 1 and (doubles or tianhu):  # the sum first, then the doublings
        zh, en = f"({zh})", f"({en})"
    zh = " × ".join([zh, *(f"{e.chinese}2" for e in doubles)] + (["天胡4"] if tianhu else []))
    en = " × ".join([en, *(f"{_short(e.english)} 2" for e in doubles)] + (["heavenly hand 4"] if tianhu else []))
    total = core * 2 ** len(doubles) * (4 if tianhu else 1)
    if total != fan or len(known) != len(codes):
        log.warning("Tianjin fan %s explained as %s (%s)", fan, total, list(codes))
        return str(fan), str(fan)
    return f"{zh} = {fan}", f"{en} = {fan}"


def beijing_win_detail(hora: dict[str, Any], rules: BeijingRules) -> dict[str, Any]:
    """A Beijing win as the settlement explains it (B5): each element with its names, its value in
    the rules' column (``×n`` in version B, ``+n`` in version A, a flat 40) and whether it counts in
    the value, and the sum or product that makes the value: ``formula`` (Chinese names) and
    ``formula_en``, e.g. ``一条龙 ×2 · 门清 ×2 · 自摸 ×2 · 无混儿 ×2 = 16``; version A halves an open
    hand (``halved``), ``cap`` bounds the value (``capped``)."""
    from ..families.beijing.elements import ELEMENT_BY_CODE as BEIJING_ELEMENTS
    from ..families.beijing.elements import MULTIPLY

    scoring = rules.scoring
    codes = list(hora["elements"])
    elements: list[dict[str, Any]] = []
    zh: list[str] = []
    en: list[str] = []
    flat: tuple[int, str, str] | None = None
    product, total = 1, 0
    for code in codes:
        e = BEIJING_ELEMENTS.get(code)
        if e is None:  # an element this server does not know: listed, not explained
            elements.append({"code": code, "chinese": code, "english": code, "value": "", "counts": False})
            continue
        d: dict[str, Any] = {**e.to_dict(scoring), "counts": False}
        if e.flat is not None:
            d["counts"] = True
            flat = (e.flat, e.chinese, e.english)
        elif scoring == MULTIPLY and e.multiplier is not None:
            d.update(counts=True, times=e.multiplier)
            product *= e.multiplier
            zh.append(f"{e.chinese} ×{e.multiplier}")
            en.append(f"{e.english} ×{e.multiplier}")
        elif scoring != MULTIPLY and e.fan is not None:
            d.update(counts=True, plus=e.fan)
            total += e.fan
            zh.append(f"{e.chinese} +{e.fan}")
            en.append(f"{e.english} +{e.fan}")
        elements.append(d)
    halved = False
    if flat is not None:
        raw = value = flat[0]
        formula, formula_en = f"{flat[1]}（固定）= {raw}", f"{flat[2]} (flat) = {raw}"
    else:
        if scoring == MULTIPLY:
            raw = product
            zh, en = zh or ["推倒胡 1"], en or ["basic win 1"]
        else:
            raw = total or 1
            zh, en = zh or ["推倒胡 +1"], en or ["basic win +1"]
        formula, formula_en = " · ".join(zh) + f" = {raw}", " · ".join(en) + f" = {raw}"
        value = raw
        if scoring != MULTIPLY and "MENQING" not in codes:  # "破了门清后的点数就为原基准点数的1/2" (B5)
            halved = True
            value = (raw + 1) // 2
            formula += f"；未门清，减半（进一）→ {value}"
            formula_en += f"; not concealed: half, rounded up → {value}"
    capped = rules.cap > 0 and value > rules.cap
    if capped:
        value = rules.cap
        formula += f"；封顶 {value}"
        formula_en += f"; capped at {value}"
    if value != hora["value"]:  # the engine is the authority: say its value, whatever the sum says
        log.warning("Beijing value %s explained as %s (%s)", hora["value"], value, codes)
        formula, formula_en = f"{hora['name']} = {hora['value']}", f"{hora['name']} = {hora['value']}"
    target = hora.get("target")
    return {
        "seat": hora["actor"],
        "tile": hora["pai"],
        "hand": hora["hand"],
        "melds": hora["melds"],
        "value": hora["value"],
        "name": hora["name"],
        "scoring": scoring,
        "elements": elements,
        "formula": formula,
        "formula_en": formula_en,
        "halved": halved,
        "capped": capped,
        "self_drawn": bool(hora.get("self_drawn")),
        "rob_kong": bool(hora.get("rob_kong")),
        "kong_draw": bool(hora.get("kong_draw")),
        "last_tile": bool(hora.get("last_tile")),
        "hunyou": bool(hora.get("hunyou")),
        "hungang": "HUNGANG" in codes,
        "from": target if not hora.get("self_drawn") and target != hora["actor"] else None,
    }


def beijing_payments_detail(hora: dict[str, Any] | None, kyoku: dict[str, Any], hand_events: Sequence[dict[str, Any]],
                            payments: Sequence[dict[str, Any]], rules: BeijingRules) -> list[dict[str, Any]]:
    """Each payment of a Beijing hand with why it is that amount (B6): ``why`` lists factors whose
    product is the amount — ``value`` (the hand's), ``dianpao`` ×2 (点炮, version B), ``discarder``
    ×3 (包三家, version A), ``rob_kong`` ×3 (抢杠: the kong's declarer pays all three shares),
    ``mutual`` (互包: the tied player pays every share), ``hunyou`` ×2 (a 混儿悠 cut short),
    ``shaozhuang`` (烧庄 units) and ``shaozhuang_rounds`` (its doubling), ``base``, ``upstairs`` ×2
    (上楼).  A payment the factors do not explain gets an empty ``why`` (and a warning in the log)."""
    tail: list[dict[str, Any]] = []
    if rules.base != 1:
        tail.append({"key": "base", "times": rules.base})
    if kyoku.get("upstairs"):
        tail.append({"key": "upstairs", "times": 2})
    hunyou: set[int] = set()
    taken: dict[tuple[int, int], int] = {}
    liable: dict[int, int] = {}
    rounds = 0
    for ev in hand_events:
        t = ev["type"]
        if t == "dahai" and ev.get("hunyou"):
            hunyou.add(ev["actor"])
        elif t in ("chi", "pon", "daiminkan"):
            key = (ev["actor"], ev["target"])
            taken[key] = taken.get(key, 0) + 1
            if rules.mutual_liability and taken[key] >= rules.mutual_liability:
                liable[ev["actor"]], liable[ev["target"]] = ev["target"], ev["actor"]
        elif t == "shaozhuang":
            rounds = max(rounds, int(ev.get("rounds") or 0))
    expected: dict[int, list[dict[str, Any]]] = {}
    if hora is not None:
        winner = hora["actor"]
        source = None if hora.get("self_drawn") else hora.get("target")
        owed: dict[int, tuple[int, list[dict[str, Any]]]] = {p: (1, []) for p in range(SEATS) if p != winner}
        if hora.get("rob_kong") and source is not None:
            owed = {source: (3, [{"key": "rob_kong", "times": 3}])}
        elif source is not None and rules.discard_pays == "discarder":
            owed = {source: (3, [{"key": "discarder", "times": 3}])}
        elif source is not None:
            owed[source] = (2, [{"key": "dianpao", "times": 2}])
        partner = liable.get(winner)
        if partner is not None:
            shares = sum(n for n, _ in owed.values())
            owed = {partner: (shares, [{"key": "mutual", "times": shares}])}
        for p, (_, why) in owed.items():
            if p in hunyou:
                why = [*why, {"key": "hunyou", "times": 2}]
            expected[p] = [{"key": "value", "times": hora["value"]}, *why, *tail]
    out = []
    for pay in payments:
        d = dict(pay)
        if pay["reason"] == "win":
            why = expected.get(pay["payer"], [])
        elif pay["reason"] == "shaozhuang":
            why = [{"key": "shaozhuang", "times": rules.shaozhuang_units}]
            if rounds > 1:
                why.append({"key": "shaozhuang_rounds", "times": 2 ** (rounds - 1)})
            why += tail
        else:
            why = []
        product = 1
        for f in why:
            product *= f["times"]
        if not why or product != pay["amount"]:
            if why:
                log.warning("Beijing payment %s not explained by %s", pay, why)
            why = []
        d["why"] = why
        d["formula"], d["formula_en"] = payment_formula(why, pay["amount"])
        out.append(d)
    return out


# How each factor of a payment's ``why`` reads in its formula, (Chinese, English): Tianjin's (R6–R8)
# and Beijing's (B6).  ``fan`` reads "2番" / "2 fan"; the others name then number, "坐庄2" / "sit 2".
FACTOR_NAMES: dict[str, tuple[str, str]] = {
    "fan": ("番", "fan"),
    "kong": ("明杠", "discard kong"),
    "added_kong": ("加杠", "added kong"),
    "ankong": ("暗杠", "concealed kong"),
    "gold_kong": ("金杠", "gold kong"),
    "chan": ("铲", "chan"),
    "penalty": ("打混罚", "wild discard"),
    "sit": ("坐庄", "sit"),
    "pull": ("拉庄", "pull"),
    "base": ("底分", "base"),
    "value": ("点数", "value"),
    "dianpao": ("点炮", "dealt in"),
    "discarder": ("包三家", "discarder pays all"),
    "rob_kong": ("抢杠包三家", "robbed kong pays all"),
    "mutual": ("互包", "tied"),
    "hunyou": ("混儿悠被截", "混儿悠 cut short"),
    "shaozhuang": ("烧庄", "烧庄"),
    "shaozhuang_rounds": ("连烧", "烧庄 again"),
    "upstairs": ("上楼", "upstairs"),
}


def payment_formula(why: Sequence[dict[str, Any]], amount: int) -> tuple[str, str]:
    """A payment's factors as a product, Chinese and English: ``2番 × 坐庄2 × 拉庄2 = 8``; when the
    product is more than the amount, the pot (锅牌, R8) held less: ``…= 8；锅里只剩5 → 5``.  No
    factors: the amount alone."""
    if not why:
        return str(amount), str(amount)
    zh, en = [], []
    product = 1
    for f in why:
        n = f["times"]
        product *= n
        name_zh, name_en = FACTOR_NAMES.get(f["key"], (f["key"], f["key"]))
        if f["key"] == "fan":
            zh.append(f"{n}番")
            en.append(f"{n} fan")
        else:
            zh.append(f"{name_zh}{n}")
            en.append(f"{name_en} {n}")
    formula, formula_en = " × ".join(zh) + f" = {product}", " × ".join(en) + f" = {product}"
    if product != amount:
        formula += f"；锅里只剩{amount} → {amount}"
        formula_en += f"; only {amount} left in the pot → {amount}"
    return formula, formula_en


_KONG_POINTS = {"kong": 1, "added_kong": 1, "ankong": 2}  # R6 (金杠: the rules' gold_kong_points)
_POT_ORDER = ("win", "kong", "chan", "penalty")  # R8: the order a pot (锅牌) pays in


def tianjin_payments_detail(hora: dict[str, Any] | None, kyoku: dict[str, Any], hand_events: Sequence[dict[str, Any]],
                            payments: Sequence[dict[str, Any]], rules: TianjinRules,
                            hands: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each payment of a Tianjin hand with why it is that amount (R6–R8), as the engine computes it:
    ``why`` lists factors whose product is the amount — the units (``fan``: the hand's fan for a
    win; ``kong`` 明杠 1, ``added_kong`` 加杠 1, ``ankong`` 暗杠 2, ``gold_kong`` 金杠
    ``gold_kong_points``; ``chan`` 铲 ``chan_units``; ``penalty`` 打混罚 ``wild_discard_penalty``),
    ``base`` (底, when not 1), ``sit`` ×2 (坐庄: the dealer sat and is the payer or the payee) and
    one ``pull`` ×2 per pull (拉庄) of the non-dealer of a payment between the dealer and them.
    Under ``settlement: pot`` a payer pays at most what is left of their stake: a payment so cut
    has ``capped: true`` and ``full`` (the product).  ``formula``/``formula_en`` write it out
    (:func:`payment_formula`).  ``hands``: :meth:`Match.revealed_hands` (the kongs, in the order the
    engine pays them).  A payment the factors do not explain gets an empty ``why`` (and a warning
    in the log)."""
    dealer, sit, pulls = kyoku["dealer"], bool(kyoku["sit"]), kyoku["pulls"]
    wilds = set(kyoku["wilds"])
    tail = [{"key": "base", "times": rules.base}] if rules.base != 1 else []
    expected: list[tuple[str, int, int, list[dict[str, Any]]]] = []

    def add(reason: str, payer: int, payee: int, key: str, units: int) -> None:
        why = [{"key": key, "times": units}, *tail]
        if dealer in (payer, payee):  # R8: the multiplier between the dealer and another seat
            other = payee if payer == dealer else payer
            if sit:
                why.append({"key": "sit", "times": 2})
            why += [{"key": "pull", "times": 2} for _ in range(pulls[other])]
        if units:  # R8: a payment of 0 is not listed
            expected.append((reason, payer, payee, why))

    def each_other(payee: int, key: str, units: int, reason: str) -> None:
        for p in range(SEATS):
            if p != payee:
                add(reason, p, payee, key, units)

    if hora is not None:
        each_other(hora["actor"], "fan", hora["fan"], "win")
    if hora is not None or rules.kong_pay_on_draw:
        for s, h in enumerate(hands):
            for text in h["melds"]:
                m = Meld.parse(text)
                if m.type.is_kong:
                    gold = m.type.value == "ankong" and TILE_TEXT[m.tile] in wilds
                    key = "gold_kong" if gold else m.type.value
                    each_other(s, key, rules.gold_kong_points if gold else _KONG_POINTS[key], "kong")
    if any(e["type"] == "chan" for e in hand_events):
        for p in range(SEATS):
            if p != dealer:
                add("chan", dealer, p, "chan", rules.chan_units)
    for e in hand_events:
        if e["type"] == "dahai" and e.get("wild"):  # 小相公 (R2): the discarder pays each other seat
            for p in range(SEATS):
                if p != e["actor"]:
                    add("penalty", e["actor"], p, "penalty", rules.wild_discard_penalty)
    pot = rules.settlement == "pot"
    if pot:  # a stable sort, as the engine's: within a reason, the order made
        expected.sort(key=lambda x: _POT_ORDER.index(x[0]))
    out = []
    i = 0
    for pay in payments:
        d = dict(pay)
        why: list[dict[str, Any]] = []
        paid = (pay["reason"], pay["payer"], pay["payee"])
        while i < len(expected):
            reason, payer, payee, factors = expected[i]
            i += 1
            if (reason, payer, payee) == paid:
                why = factors
                break
            if not pot:  # only a pot leaves payments out (a stake used up pays 0)
                break
        product = 1
        for f in why:
            product *= f["times"]
        if not why or not (product == pay["amount"] or (pot and product > pay["amount"])):
            log.warning("Tianjin payment %s not explained by %s", pay, why)
            why = []
        elif product != pay["amount"]:
            d["capped"], d["full"] = True, product
        d["why"] = why
        d["formula"], d["formula_en"] = payment_formula(why, pay["amount"])
        out.append(d)
    return out


def win_arrangement(hora: dict[str, Any], kyoku: dict[str, Any], hand_events: Sequence[dict[str, Any]],
                    rules: Rules) -> dict[str, Any] | None:
    """The win's best arrangement, re-scored from its ``hora`` event under the hand's rules, in the
    form of ``tjmj score --batch``: ``groups`` (each ``kind``, ``tiles``, ``plays`` — the kind each
    tile plays, a wild the kind it stands for —, ``wild``, and ``winning``: the winning tile's index
    in that group, or null) and ``winning_group`` (the index of the group holding the winning
    tile); Tianjin adds ``dragon`` (the 龙's three groups), Beijing ``shape`` and ``wild``.  None for
    a win without an arrangement (混杠), or when re-scoring does not give the engine's result
    (logged: the engine is the authority)."""
    try:
        if isinstance(rules, BeijingRules):
            from ..families.beijing.elements import WinContext
            from ..families.beijing.score import score_beijing

            codes = hora["elements"]
            ctx = WinContext(self_drawn=hora["self_drawn"], dealer=hora["actor"] == kyoku["dealer"],
                             last_tile=hora["last_tile"], kong_draw=hora["kong_draw"], rob_kong=hora["rob_kong"],
                             hunyou=hora["hunyou"], hungang="HUNGANG" in codes, tianhe="TIANHE" in codes,
                             dihe="DIHE" in codes)
            # the 混坯 lies face up until the first replacement draw takes it (B2)
            replaced = any(e["type"] == "tsumo" and e.get("replacement") for e in hand_events)
            b = score_beijing("".join(hora["hand"]), hora["pai"], melds=list(hora["melds"]),
                              indicator=kyoku.get("dora_marker"), rules=rules, context=ctx,
                              indicator_visible=not replaced)
            same = b.win and b.value == hora["value"] and b.codes == codes
            a: Any = b.arrangement
        elif isinstance(rules, TianjinRules):
            from ..families.tianjin.score import score

            t = score("".join(hora["hand"]), hora["pai"], kyoku["dora_marker"], hora["melds"],
                      kong_draw=hora["kong_draw"], tianhu=hora["tianhu"], rules=rules)
            same = t.win and t.fan == hora["fan"] and t.codes == hora["elements"]
            a = t.arrangement
        else:
            return None
    except (ValueError, KeyError, TypeError) as e:  # TileError is a ValueError
        log.warning("the win %s cannot be re-scored: %s", hora, e)
        return None
    if not same:
        log.warning("re-scoring the win %s does not give the engine's result", hora)
        return None
    if a is None:
        return None
    d: dict[str, Any] = a.to_dict()
    d["winning_group"] = next((i for i, g in enumerate(a.groups) if g.winning is not None), None)
    return d


# ---- connections ---------------------------------------------------------------------------


class Connection:
    """One WebSocket: an outbox drained by its own task (a slow client never blocks a room).

    ``bucket`` limits what it sends: a seat's bucket is the seat's (shared by every socket that
    ever holds it), a spectator's its own; ``address_bucket`` is shared by every socket of the
    client's address."""

    def __init__(self, ws: Any, player: int | None, *, bucket: Bucket | None = None,
                 address: str = "", address_bucket: Bucket | None = None, burst: int = BURST,
                 rate: float = RATE, error_burst: int = ERROR_BURST, error_rate: float = ERROR_RATE) -> None:
        self.ws = ws
        self.player = player  # None: a spectator
        self.address = address
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=OUTBOX)
        self.bucket = bucket if bucket is not None else Bucket(burst, rate)
        self.address_bucket = address_bucket
        # the messages it may get an error for: a seat's is the seat's (a new socket starts no fresh budget)
        self.errors = Bucket(error_burst, error_rate)
        self.errors_sent = 0  # error messages queued to it (Room.handle tells which answer its messages)
        self.closed = False
        self.overflow = False
        self.close_code = 1000

    def send(self, msg: dict[str, Any]) -> None:
        if self.closed:
            return
        if msg.get("type") == "error":
            self.errors_sent += 1
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:
            self.closed = self.overflow = True
            self.close_code = 1013
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.close_code = code
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    @property
    def limited(self) -> int:
        return self.bucket.limited

    def allow(self) -> bool:
        if self.address_bucket is not None and not self.address_bucket.allow():
            self.bucket.limited += 1
            return False
        return self.bucket.allow()

    async def writer(self) -> None:
        """Send the outbox in order until :meth:`close`; a slow client (full outbox) is closed."""
        while True:
            msg = await self.queue.get()
            if msg is None:
                break
            await self.ws.send_text(orjson.dumps(msg).decode())
        with contextlib.suppress(Exception):
            await self.ws.close(code=self.close_code)


def error(message: str, code: str = "bad_request") -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


# ---- rooms ---------------------------------------------------------------------------------


@dataclass
class Player:
    """A place in a room: a person (``bot`` None, a secret token) or a bot."""

    name: str
    bot: str | None = None
    token_hash: str | None = None
    player_id: str | None = None  # the id the person's browser made (statistics); None: anonymous
    conn: Connection | None = None  # the one live socket of this seat
    bucket: Bucket = field(default_factory=lambda: Bucket(BURST, RATE))
    errors: Bucket = field(default_factory=lambda: Bucket(ERROR_BURST, ERROR_RATE))
    away_since: float | None = None  # time.time() when the person's socket went away (None: here)
    timeouts: int = 0

    @property
    def connected(self) -> bool:
        return self.conn is not None

    def owns(self, token: str) -> bool:
        return self.token_hash is not None and hmac.compare_digest(self.token_hash, token_hash(token))

    def stored(self, seat: int) -> dict[str, Any]:
        """The player as the store keeps it: a person with the hash of their token (never the token)."""
        d: dict[str, Any] = {"seat": seat, "name": self.name, "kind": "bot" if self.bot else "human",
                             "bot": self.bot}
        if self.bot is None:
            d["token_hash"] = self.token_hash
            if self.player_id is not None:
                d["player_id"] = self.player_id
        return d


# how long bots wait before they act, as a factor on the server's bot delay (the host's choice)
BOT_SPEEDS = {"slow": 2.5, "normal": 1.0, "fast": 0.25}


class Room:
    """One table: the players, the match, the sockets, and the task that drives bots and timers."""

    def __init__(self, lobby: Lobby, room_id: str, rules: Rules, *, bots: str = "baseline",
                 timer_s: float | None = None, seed: int | None = None, address: str = "") -> None:
        self.lobby = lobby
        self.id = room_id
        self.rules = rules
        self.bot_kind = bots
        self.timer_s = timer_s
        self.bot_speed = "normal"  # the host's choice: how long bots wait before they act
        self.private = False  # the host's choice: kept out of the lobby's lists (joined or watched by code only)
        # 62 bits: the seed determines every hand and the wall, so it must not be guessable from the
        # public dice (a 31-bit seed could be searched); the store keeps seeds as signed 64-bit
        self.seed = secrets.randbelow(2**62) if seed is None else seed
        self.address = address  # who created it (the per-address cap on unseen rooms)
        self.players: list[Player] = []
        self.spectators: set[Connection] = set()
        self.match: Match | None = None
        self.match_id: Any = None
        self.status = "waiting"  # waiting, playing, over, error
        self.seen = False  # a person has connected with a token (until then the room may expire)
        self.stored_room = False  # the waiting room is in the store
        self.stored_upto = 0  # events of the match already in the store
        self.shown = 0  # events of the match already sent to the clients
        self._states: dict[int | None, dict[str, Any]] = {}  # the last state each player (None: spectators) got
        self.saving = False  # a finished hand is being stored: no decisions meanwhile
        # bumped by every change of the match: one seat decides at a time (claim windows ask in
        # turn), so a version names one decision, and an action must name the one it answers
        self.version = 0
        self.deadline: float | None = None  # time.time() by which the seat to act must act
        self.pause_until: float | None = None  # after a hand: until everyone is ready or this time
        self.ready: set[int] = set()
        self.last_settlement: dict[str, Any] | None = None
        self.notice: str | None = None  # why the room stopped, or that storage is being retried
        self.resumed = False
        self.rng = random.Random(self.seed ^ 0x5EED)
        self._bots: dict[str, Bot] = {}
        self._hints: dict[int, tuple[int, list[dict[str, Any]]]] = {}  # seat -> (version, hint)
        self._hint_waiting: dict[tuple[int, int], list[Connection]] = {}  # (seat, version) -> who asked
        # the expert search of a hint: seat -> (version, its part, or None when it failed), and who waits
        self._searches: dict[int, tuple[int, dict[str, Any] | None]] = {}
        self._search_waiting: dict[tuple[int, int], list[Connection]] = {}
        self._wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.background: set[asyncio.Task[Any]] = set()
        self.created = time.time()
        self.touched = self.created

    def new_player(self, name: str, bot: str | None = None, token: str | None = None) -> Player:
        lim = self.lobby.limits
        return Player(name=name, bot=bot, token_hash=token_hash(token) if token else None,
                      bucket=Bucket(lim.ws_burst, lim.ws_rate), errors=Bucket(lim.error_burst, lim.error_rate))

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
        return [p.conn for p in self.players if p.conn is not None] + list(self.spectators)

    def find_token(self, token: str) -> int | None:
        for i, p in enumerate(self.players):
            if p.owns(token):
                return i
        return None

    def settings(self) -> dict[str, Any]:
        """What the store keeps of the room besides the match: restored after a restart."""
        return {"bots": self.bot_kind, "timer_s": self.timer_s, "bot_speed": self.bot_speed, "private": self.private}

    def waiting_data(self) -> dict[str, Any]:
        """A waiting room as the store keeps it (token hashes, never tokens)."""
        return {"rules": self.rules.to_dict(), "seed": self.seed, "created": self.created, **self.settings(),
                "players": [{"name": p.name, "token_hash": p.token_hash, "player_id": p.player_id}
                            for p in self.players]}

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
                {"player": i, "name": p.name, "bot": p.bot, "connected": p.connected, "seat": self.seat_of(i)}
                for i, p in enumerate(self.players)
            ],
            "rules": self.rules.to_dict(),
            "bots": self.bot_kind,
            "level": LEVEL_OF.get(self.bot_kind),  # the lobby's level of that bot (None: random)
            "timer_s": self.timer_s,
            "bot_speed": self.bot_speed,
            "private": self.private,
            "match_id": self.match_id,
            "hand_number": self.match.hand_number if self.match else 0,
            "scores": list(self.match.scores) if self.match else None,
            "spectators": len(self.spectators),
            "notice": self.notice,
        }

    def state_for(self, player: int | None) -> dict[str, Any]:
        m = self.match
        assert m is not None
        seat = self.seat_of(player)
        obs = m.observation(seat)  # the engine decides what a seat (None: a spectator) may see
        if self.saving or self.status != "playing":
            obs["legal_actions"] = []  # nothing can be decided until the hand is stored
        to_act = obs["to_act"]  # in a claim window, the engine shows who is asked to that seat alone
        seated = [self.player_at(s) for s in range(SEATS)]
        msg: dict[str, Any] = {
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
            "to_act": to_act,
            "legal": obs["legal_actions"],
            "deadline": int(self.deadline * 1000) if self.deadline else None,
            "timer_s": self.timer_s,
            "bot_speed": self.bot_speed,
            "paused": self.pause_until is not None,
            "saving": self.saving,
            "notice": self.notice,
            "ready": sorted(s for s in range(SEATS) if m.seating[s] in self.ready),
            "rules": self._rules_brief(),
        }
        if seat is not None and "win" in obs["legal_actions"]:
            # what the win would score tells this seat's hand: only in this seat's own state
            preview = m.win_preview(seat)
            if preview is not None:  # the elements' names too, so the button reads in either language
                shown = {"type": "hora", "elements": preview.get("elements") or [], "fans": preview.get("fans")}
                preview = {**preview, "elements_detail": named([shown], self.rules.family)[0]["elements_detail"]}
            msg["win_preview"] = preview
        return msg

    def _rules_brief(self) -> dict[str, Any]:
        """What the table needs of the rules: the family and preset, the match length, and the
        options the interface shows (Tianjin: the pulls; Beijing: the scoring column, 混儿悠, 上楼;
        MCR: the flowers and the fewest fan to win)."""
        r = self.rules
        out: dict[str, Any] = {"family": r.family, "preset": r.name.split("+")[0], "custom": "+" in r.name,
                               "match_hands": r.match_hands, "match_rounds": r.match_rounds,
                               "max_pull": getattr(r, "max_pull", 0)}
        if isinstance(r, BeijingRules):
            out.update(scoring=r.scoring, wilds=r.wilds, hunyou=r.hunyou, upstairs=r.upstairs,
                       max_claims=r.max_claims, claimed_self_draw_only=r.claimed_self_draw_only,
                       discard_pays=r.discard_pays)
        elif isinstance(r, McrRules):
            out.update(flowers=r.flowers, min_fan=r.min_fan)
        out["hints"] = hint_available(r)
        out["hint_search_ms"] = self.lobby.hint_search_ms  # a hint's search part follows it (None: none)
        return out

    def broadcast(self, make: Callable[[int | None], dict[str, Any] | None]) -> None:
        for p_index, p in enumerate(self.players):
            if p.conn is not None:
                msg = make(p_index)
                if msg is not None:
                    p.conn.send(msg)
        for c in list(self.spectators):
            msg = make(None)
            if msg is not None:
                c.send(msg)

    def broadcast_info(self) -> None:
        self.broadcast(self.info)

    def broadcast_state(self) -> None:
        """Send everyone the state now; while a hand is being stored nothing new is shown (the state
        after the hand would tell its result)."""
        if self.match is None or self.saving:
            return

        def make(player: int | None) -> dict[str, Any]:
            msg = self.state_for(player)
            self._states[player] = msg
            return msg

        self.broadcast(make)

    def send_full(self, conn: Connection) -> None:
        """What a (re)connecting client needs: the room, the state, and a settlement on show."""
        conn.send(self.info(conn.player))
        if self.match is not None:
            m = self.match
            seat = self.seat_of(conn.player)
            upto = self.shown  # while a hand is being stored its end is not shown yet
            start = max((i for i, e in enumerate(m.events[:upto]) if e["type"] == "start_kyoku"), default=0)
            # never start_game (before the first deal it is all there is): its seed deals every hand
            so_far = [e for e in m.events_for(seat, start)[: upto - start] if e["type"] != "start_game"]
            conn.send({"type": "events", "replay": True, "events": named(so_far, self.rules.family)})
            state = self._states.get(conn.player) if self.saving else None
            conn.send(state if state is not None else self.state_for(conn.player))
            if self.last_settlement is not None and (self.pause_until is not None or self.status == "over"):
                conn.send(self.last_settlement)

    # ---- sockets -------------------------------------------------------------------------

    def attach(self, conn: Connection) -> None:
        """A socket joins: a seat's new socket replaces the old one (one live socket per seat)."""
        if conn.player is None:
            self.spectators.add(conn)
        else:
            p = self.players[conn.player]
            old = p.conn
            if old is not None:
                old.send(error("this seat was opened in another window or tab; this one is closed", "replaced"))
                old.close(CLOSE_REPLACED)
            p.conn = conn
            conn.bucket = p.bucket
            conn.errors = p.errors
            p.away_since = None
            p.timeouts = 0
            if not self.seen:
                self.seen = True
                self._remember_seen()
        self.touched = time.time()
        self.send_full(conn)
        self._refresh_deadline(reset=False)
        self.broadcast_info()
        self.broadcast_state()  # presence at once (the `connected` flags)
        self.poke()

    def detach(self, conn: Connection) -> None:
        conn.close()
        if conn.player is None:
            self.spectators.discard(conn)
        else:
            p = self.players[conn.player]
            if p.conn is not conn:  # already replaced by a newer socket
                return
            p.conn = None
            p.away_since = time.time()
        self.touched = time.time()
        self._refresh_deadline(reset=False)
        self.broadcast_info()
        self.broadcast_state()
        self.poke()

    def handle(self, conn: Connection, raw: str | None) -> None:
        """One message from a client; anything wrong gets an error message and changes nothing."""
        if conn.closed:
            return
        if not conn.allow():
            conn.send(error("rate limit: too many messages, slow down", "rate_limited"))
            if conn.limited >= MAX_LIMITED:
                conn.close(1008)
            return
        self.touched = time.time()
        problem = None
        msg: Any = None
        if raw is None:
            problem = "messages are JSON text, not binary"
        elif len(raw) > MAX_MESSAGE_CHARS:
            problem = f"message too long ({len(raw)} characters; at most {MAX_MESSAGE_CHARS})"
        else:
            try:
                msg = orjson.loads(raw)
            except orjson.JSONDecodeError:
                problem = "malformed JSON"
            else:
                if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                    problem = "a message is a JSON object with a string field 'type'"
        if problem is not None:
            conn.send(error(problem))
            self._refused(conn)
            return
        before = conn.errors_sent
        try:
            self._dispatch(conn, msg)
        except Exception:  # a bug must cost one message, not the connection or the room
            log.exception("room %s: message %r failed", self.id, str(msg["type"])[:20])
            conn.send(error("internal error: the message was not handled", "internal"))
        if conn.errors_sent > before:
            self._refused(conn)

    def _refused(self, conn: Connection) -> None:
        """A message answered with an error (of any kind) spends the error budget of its seat (or
        spectator socket): a client that keeps sending bad messages, even within the rate limit, is
        closed instead of being answered (and perhaps logged) forever."""
        if not conn.errors.allow():
            conn.send(error("too many refused messages; this connection is closed", "too_many_errors"))
            conn.close(1008)

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
            self._on_next(conn)
        elif t == "speed":
            self._on_speed(conn, msg)
        elif t == "private":
            self._on_private(conn, msg)
        elif t == "hello":
            conn.send(error("already connected: hello is only the first message", "bad_request"))
        else:
            conn.send(error(f"unknown message type {t[:20]!r}; types are action, hint, next, speed, private, sync, "
                            "ping"))

    def _on_next(self, conn: Connection) -> None:
        if conn.player is None:
            conn.send(error("spectators do not take part in the pause", "forbidden"))
        elif self.pause_until is None:
            what = "the match is over" if self.status == "over" else "no hand has just ended"
            conn.send(error(f"there is no pause to end: {what}", "not_paused"))
        else:
            self.ready.add(conn.player)
            self.broadcast_state()
            self.poke()

    def _on_action(self, conn: Connection, msg: dict[str, Any]) -> None:
        if conn.player is None:
            conn.send(error("spectators cannot act", "forbidden"))
            return
        text = msg.get("action")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_ACTION_LEN:
            conn.send(error(f"'action' must be a string of at most {MAX_ACTION_LEN} characters, e.g. \"discard 5m\""))
            return
        version = msg.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            conn.send(error("'version' must be the version of the state the action answers (an integer)"))
            return
        m = self.match
        if m is None or self.status != "playing":
            conn.send(error(f"the match is not in progress ({self.status})", "not_playing"))
            return
        if self.saving:
            conn.send(error("the hand is being saved; wait for the settlement", "saving"))
            return
        seat = self.seat_of(conn.player)
        if "seat" in msg:
            said = msg["seat"]
            if not isinstance(said, int) or isinstance(said, bool):  # true == 1 in Python: not a seat
                conn.send(error("'seat' must be an integer (0-3), or left out"))
                return
            if said != seat:
                conn.send(error(f"you play seat {seat} only", "forbidden"))
                return
        if version != self.version:  # a double tap, or a click that arrives after the table moved on
            conn.send(error(f"the action answers state {version}, and the table has moved on to state "
                            f"{self.version}: nothing was done", "stale"))
            return
        if m.to_act != seat:
            who = f"seat {m.to_act} decides" if m.window is None else "a discard is being claimed"  # not who
            conn.send(error(f"it is not your turn: {who} ({m.phase})", "not_your_turn"))
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

    def _on_speed(self, conn: Connection, msg: dict[str, Any]) -> None:
        """The host sets how fast the bots play: ``slow``, ``normal`` or ``fast`` (a factor on the
        server's bot delay); anyone else is refused."""
        speed = msg.get("speed")
        if conn.player != 0:
            conn.send(error("only the host sets the bots' speed", "forbidden"))
            return
        if not isinstance(speed, str) or speed not in BOT_SPEEDS:
            conn.send(error(f"'speed' must be one of {', '.join(BOT_SPEEDS)}", "bad_request"))
            return
        if speed != self.bot_speed:
            self.bot_speed = speed
            self.broadcast_state()

    def _on_private(self, conn: Connection, msg: dict[str, Any]) -> None:
        """The host keeps the waiting room out of the lobby's lists (``value`` true) or lists it;
        stored with the room, so it stays so after a restart.  Only before the match starts: a
        playing match's stored settings are not rewritten."""
        value = msg.get("value")
        if conn.player != 0:
            conn.send(error("only the host chooses whether the room is private", "forbidden"))
            return
        if not isinstance(value, bool):
            conn.send(error("'value' must be true or false", "bad_request"))
            return
        if self.status != "waiting":
            conn.send(error("a room is made private or public before its match starts", "forbidden"))
            return
        if value != self.private:
            self.private = value
            self.spawn(self._store_private(), "save-private")
            self.broadcast_info()

    async def _store_private(self) -> None:
        try:
            await self.save_waiting()
        except Exception as e:  # kept in memory all the same; the next join stores it again
            log.warning("room %s: storing the private flag failed: %s", self.id, e)

    def _on_hint(self, conn: Connection) -> None:
        m = self.match
        seat = self.seat_of(conn.player)
        if m is None or seat is None or self.status != "playing":
            conn.send(error("hints are for a seat in a match in progress", "forbidden"))
            return
        if m.to_act != seat or m.phase != "turn" or self.saving:
            conn.send(error("hints are given on your turn, before a discard", "not_your_turn"))
            return
        self._advisor_hint(conn, m, seat)
        self._search_hint(conn, m, seat)  # after: the advisor's part is sent at once, the search's later

    def _advisor_hint(self, conn: Connection, m: Match, seat: int) -> None:
        """The advisor's part of a hint (``hint``): every discard ranked, with what it waits on."""
        if not hint_available(self.rules):  # the family has no advisor here: say so, guess nothing
            conn.send({"type": "hint", "version": self.version, "discards": [], "available": False})
            return
        cached = self._hints.get(seat)
        if isinstance(self.rules, McrRules) and (cached is None or cached[0] != self.version):
            self._mcr_hint_later(conn, m, seat)
            return
        if cached is None or cached[0] != self.version:  # one computation per state, however often asked
            try:
                cached = (self.version, hint(m, seat))
            except Exception:  # an advisor's bug costs the hint, never the table
                log.exception("room %s: the hint for seat %d failed", self.id, seat)
                conn.send({"type": "hint", "version": self.version, "discards": [], "available": False})
                return
            self._hints[seat] = cached
        conn.send({"type": "hint", "version": self.version, "discards": cached[1], "available": True})

    def _mcr_hint_later(self, conn: Connection, m: Match, seat: int) -> None:
        """MCR's hint takes up to a second on a far hand (the shanten of every shape after every
        discard and draw): its inputs are copied here, it is computed in a worker thread, and the
        answer (with the version it is for) is sent when ready; the table goes on meanwhile.  One
        computation per seat and version, however often asked."""
        version = self.version
        waiting = self._hint_waiting.setdefault((seat, version), [])
        waiting.append(conn)
        if len(waiting) > 1:
            return
        try:
            inputs = _mcr_hint_inputs(m, seat, self.rules)  # type: ignore[arg-type]
        except Exception:
            log.exception("room %s: the hint for seat %d failed", self.id, seat)
            inputs = None

        async def compute() -> None:
            discards: list[dict[str, Any]] | None = None
            if inputs is not None:
                try:
                    discards = await asyncio.get_running_loop().run_in_executor(None, _mcr_hint_compute, inputs)
                except Exception:  # an advisor's bug costs the hint, never the table
                    log.exception("room %s: the hint for seat %d failed", self.id, seat)
            if discards is not None:
                self._hints[seat] = (version, discards)
            msg = {"type": "hint", "version": version, "discards": discards or [], "available": discards is not None}
            for c in self._hint_waiting.pop((seat, version), []):
                c.send(msg)

        self.spawn(compute(), "hint")

    def _search_hint(self, conn: Connection, m: Match, seat: int) -> None:
        """The search's part of a hint (``hint_search``): the expert bot's pick for this decision with
        the lobby's ``hint_search_ms`` budget, sent when ready.  It searches in a worker thread on a
        copy of the match (:meth:`Match.clone`, made here), bound to the asking seat, so it sees only
        what that seat sees (it deals the rest again: :meth:`Match.determinize`).  Dropped if the table
        moved on meanwhile (the page asks again for the new state); one search per seat and version,
        however often asked; a failure costs only this part (``search``: null)."""
        budget = self.lobby.hint_search_ms
        if budget is None:
            return
        version = self.version
        cached = self._searches.get(seat)
        if cached is not None and cached[0] == version:
            conn.send({"type": "hint_search", "version": version, "search": cached[1]})
            return
        waiting = self._search_waiting.setdefault((seat, version), [])
        waiting.append(conn)
        if len(waiting) > 1:
            return  # already searching this state
        try:
            copy = m.clone()
            bot = hint_search_bot(budget)
            bot.set_rules(self.rules)
            bot.bind(copy, seat)
            # its own rng, not the room's: the bots play the same whether or not someone asks for hints
            rng = random.Random(secrets.randbits(64))
            job: tuple[Any, ...] | None = (bot.choose, copy.observation(seat), list(copy.legal_actions(seat)), rng)
        except Exception:
            log.exception("room %s: the hint's search for seat %d failed", self.id, seat)
            job = None

        async def compute() -> None:
            part: dict[str, Any] | None = None
            action: Action | None = None
            t0 = time.perf_counter()
            if job is not None:
                try:
                    action = await asyncio.get_running_loop().run_in_executor(None, *job)
                except Exception:  # the search's bug costs the search's part, never the hint or the table
                    log.exception("room %s: the hint's search for seat %d failed", self.id, seat)
            waiting = self._search_waiting.pop((seat, version), [])
            if self.match is not m or self.version != version:
                return  # the table moved on: this answer is for a state gone (never sent nor kept)
            if action is not None:
                if action in m.legal_actions(seat):
                    part = {"action": str(action), "budget_ms": budget,
                            "ms": round((time.perf_counter() - t0) * 1000),
                            "searched": bot.searched > 0, "rounds": bot.last_rounds if bot.searched else 0,
                            "changed": bot.changed > 0}
                else:
                    log.error("room %s: the hint's search chose %r, not legal", self.id, action)
            self._searches[seat] = (version, part)
            msg = {"type": "hint_search", "version": version, "search": part}
            for c in waiting:
                c.send(msg)

        self.spawn(compute(), "hint-search")

    # ---- changing the match ---------------------------------------------------------------

    def poke(self) -> None:
        self._wake.set()

    def spawn(self, coro: Awaitable[Any], name: str) -> None:
        """A background task of this room, kept until it ends (cancelled when the room stops)."""
        task = asyncio.ensure_future(coro)
        task.set_name(f"room-{self.id}-{name}")
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def shed(self) -> None:
        """The match is over (or stopped): drop what only play needs (bots with their search trees
        and memos, hints, the last states sent), keeping what a returning person is shown."""
        if self.task is not None and not self.task.done():
            return  # the driver may still use them
        self._bots.clear()
        self._hints.clear()
        self._searches.clear()
        self._hint_waiting.clear()
        self._search_waiting.clear()
        self._states.clear()

    def _bot(self, name: str, seat: int | None = None) -> Bot:
        """The room's bot ``name``: one for the room, but one per seat (``seat``) for a bot that
        searches the match, which it is bound to (it has ``bind``: the ``expert``)."""
        bot = self._bots.get(name)
        if bot is None:
            bot = self._bots[name] = self._new_bot(name)
        if seat is None or not hasattr(bot, "bind"):
            return bot
        key = f"{name}@{seat}"
        own = self._bots.get(key)
        if own is None:
            own = self._bots[key] = self._new_bot(name)
        return own

    def _new_bot(self, name: str) -> Bot:
        bot = self.lobby.bot_factory(name)
        set_rules = getattr(bot, "set_rules", None)  # the rules are public: bots play by them (B3 options …)
        if set_rules is not None:
            set_rules(self.rules)
        return bot

    async def _search(self, seat: int, name: str) -> None:
        """A searching bot's decision (``expert``): it runs in a worker thread on a copy of the match
        (:meth:`Match.clone`, made here, so the thread shares nothing with the table), while the event
        loop goes on serving every room.  If the table moved on meanwhile (a reload, a stop) the answer
        is dropped and the driver asks again; a failure or an action that is not legal is replaced by
        the baseline bot's, as in :meth:`_auto`."""
        m = self.match
        assert m is not None
        bot = self._bot(name, seat)
        version = self.version
        copy = m.clone()
        bot.bind(copy, seat)  # type: ignore[attr-defined]
        obs = copy.observation(seat)
        legal = copy.legal_actions(seat)
        rng = random.Random(self.rng.getrandbits(64))
        try:
            action: Action | None = await asyncio.get_running_loop().run_in_executor(
                None, bot.choose, obs, list(legal), rng)
        except Exception:
            log.exception("room %s: bot %s failed on seat %d (%s); the baseline bot decides", self.id, name, seat,
                          m.phase)
            action = None
        if self.match is not m or self.version != version or self.status != "playing" or self.saving:
            return  # the table changed while the bot thought: the driver decides again
        if action is None or action not in m.legal_actions(seat):
            if action is not None:
                log.error("room %s: bot %s chose %r, not legal; the baseline bot decides", self.id, name, action)
            self._auto(seat, "baseline")
            return
        self._apply(seat, action)

    def _auto(self, seat: int, bot_name: str) -> Action:
        """The bot's decision for ``seat`` (a bot seat, a time-out, or a person away).  A bot that
        fails, or answers with an action that is not legal, is replaced for this decision by the
        baseline bot (and the failure logged): one bot's bug must not stop the table."""
        m = self.match
        assert m is not None
        legal = m.legal_actions(seat)
        for name in dict.fromkeys((bot_name, "baseline")):
            bot = self._bot(name)
            try:
                obs = m.observation(seat) if getattr(bot, "uses_observation", True) else {}
                action = bot.choose(obs, list(legal), self.rng)
            except Exception:
                log.exception("room %s: bot %s failed on seat %d (%s); the baseline bot decides", self.id, name,
                              seat, m.phase)
                continue
            if action in legal:
                self._apply(seat, action)
                return action
            log.error("room %s: bot %s chose %r, not legal; the baseline bot decides", self.id, name, action)
        self._apply(seat, legal[-1])  # even the baseline failed: pass (a window) or a discard
        return legal[-1]

    def _tell_timed_out(self, seat: int, action: Action) -> None:
        """The person whose timer ran out hears it, with what the bot chose for them (their own
        decision: they may see it), so a missed turn is never a surprise."""
        conn = self.player_at(seat).conn
        if conn is not None:
            conn.send({"type": "timed_out", "seat": seat, "action": str(action)})

    def _apply(self, seat: int, action: Action) -> None:
        """Apply a legal action and tell everyone; a hand that ended is stored first (:meth:`_save`)."""
        m = self.match
        assert m is not None and not self.saving
        start = len(m.events)
        m.apply(seat, action)
        self.version += 1
        new = m.events[start:]
        ends = [i for i in range(start, len(m.events)) if m.events[i]["type"] in ("end_kyoku", "end_game")]
        if ends:
            self.saving = True
            self.deadline = None
            self.spawn(self._save(start, ends[-1] + 1), "save")
            return
        self.shown = len(m.events)
        self._refresh_deadline(reset=True)
        self.broadcast(lambda p: {"type": "events",
                                  "events": named([visible_event(e, self.seat_of(p)) for e in new], self.rules.family)})
        self.broadcast_state()
        self.poke()

    async def _save(self, shown: int, upto: int) -> None:
        """Store the events up to ``upto`` (a finished hand), then show them from ``shown`` on.

        A failing database is retried, backing off, until it works: the hand is kept, nobody sees
        its result before it is stored, and nobody can act meanwhile.  A lost lease or a lost
        database file stops the room instead."""
        m = self.match
        assert m is not None
        lb = self.lobby
        events = m.events[self.stored_upto : upto]
        delay, told = 0.5, False

        def slow() -> None:
            nonlocal told
            if not told:
                told = True
                self.notice = "the database is slow; the hand is saved as soon as it answers"
                self.broadcast(lambda p: error(self.notice or "", "store_slow"))

        while True:
            try:
                await lb.db_call(lb.store.append_events, self.match_id, events, at=self.stored_upto, on_slow=slow)
                break
            except LeaseLost as e:
                self.stop_with(f"this match is now played by another server: {e}", "moved")
                return
            except DatabaseLost as e:
                lb.database_lost(str(e))
                return
            except Exception as e:
                if not transient(e):  # a refusal that retrying cannot mend (a bug, a conflicting record)
                    log.exception("room %s: storing hand %d of match %s failed", self.id, m.hand_number,
                                  self.match_id)
                    self.stop_with("the hand could not be saved (internal error); the match stops here "
                                   "and resumes from the last saved hand after a restart", "internal")
                    return
                log.warning("room %s: storing hand %d of match %s failed (%s); retrying in %.1f s", self.id,
                            m.hand_number, self.match_id, e, delay)
                if not told:
                    told = True
                    self.notice = ("the database is unavailable: the hand is kept and saved when it is back; "
                                   "play goes on then")
                    self.broadcast(lambda p: error(self.notice or "", "store_failed"))
                await asyncio.sleep(delay)
                delay = min(delay * 2, SAVE_BACKOFF_MAX)
                if self.status != "playing" or self.match is not m:
                    return
        hand_events = events
        self.stored_upto = upto
        self.saving = False
        self.notice = None
        if m.is_over:  # the record is complete (end_game stored); if this fails, the next start-up finishes it
            self.spawn(lb.quietly(lb.store.finish_match, self.match_id, list(m.scores),
                                  what=f"room {self.id}: finishing match {self.match_id}"), "finish")
        settlement = self._settlement(hand_events)
        self.last_settlement = settlement
        if m.is_over:
            self.status = "over"
            self.pause_until = None
        elif lb.next_delay > 0:
            self.pause_until = time.time() + lb.next_delay
            self.ready = set()
        new = m.events[shown:]
        self.shown = len(m.events)
        self._refresh_deadline(reset=True)
        self.broadcast(lambda p: {"type": "events",
                                  "events": named([visible_event(e, self.seat_of(p)) for e in new], self.rules.family)})
        self.broadcast_state()
        self.broadcast(lambda p: settlement)
        if self.status == "over":
            self.broadcast_info()
        self.poke()

    def stop_with(self, message: str, code: str) -> None:
        """Stop the room for good (a lost lease, a lost database, a bug): everyone is told why."""
        log.error("room %s (match %s) stopped: %s", self.id, self.match_id, message)
        self.status = "error"
        self.saving = False
        self.notice = message
        self.deadline = None
        self.pause_until = None
        self.broadcast(lambda p: error(message, code))
        self.broadcast_info()
        self.broadcast_state()
        self.poke()

    def _settlement(self, hand_events: list[dict[str, Any]]) -> dict[str, Any]:
        """The settlement message of the hand just stored (:func:`settlement_message`, which the
        terminal table shares)."""
        m = self.match
        assert m is not None
        names = [self.player_at(s).name for s in range(SEATS)]
        return settlement_message(m, self.rules, hand_events, names, next_delay=self.lobby.next_delay,
                                  where=f"room {self.id}")

    def grace_for(self, p: Player) -> float:
        """How long a person away keeps their seat before the bot plays it: their turn timer, or
        the server's grace period when the room has none."""
        return self.timer_s if self.timer_s else self.lobby.limits.grace

    def _refresh_deadline(self, reset: bool) -> None:
        m = self.match
        if m is None or self.status != "playing" or self.pause_until is not None or self.saving:
            self.deadline = None
            return
        if m.to_act < 0:
            self.deadline = None
            return
        p = self.player_at(m.to_act)
        if p.bot is not None:
            self.deadline = None
        elif not p.connected:
            if p.away_since is None:
                p.away_since = time.time()
            end = p.away_since + self.grace_for(p)  # then the bot plays for them until they are back
            self.deadline = end if end > time.time() else None
        elif not self.timer_s:
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
        """Bots act (after ``bot_delay``); a person away is played by the baseline bot once their
        grace period is over, a person who does not act by the turn timer too (that decision only);
        with no person connected, or while a hand is being stored, it waits."""
        try:
            while self.status == "playing" and self.match is not None:
                m = self.match
                now = time.time()
                if self.saving or not self.humans_connected():
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
                if p.bot is None and not p.connected and self.deadline is not None and now < self.deadline:
                    await self._wait(self.deadline - now)  # the grace period of a person away
                    continue
                if p.bot is not None or not p.connected:
                    version = self.version
                    await asyncio.sleep(self.lobby.bot_delay * BOT_SPEEDS[self.bot_speed])
                    if (self.version != version or self.status != "playing" or self.pause_until is not None
                            or self.saving or (p.bot is None and p.connected)):
                        continue
                    name = p.bot or "baseline"
                    if hasattr(self._bot(name, seat), "bind"):
                        await self._search(seat, name)
                    else:
                        self._auto(seat, name)
                    continue
                if self.deadline is None:
                    await self._wait(None)
                    continue
                if now < self.deadline:
                    await self._wait(self.deadline - now)
                    continue
                p.timeouts += 1
                chosen = self._auto(seat, "baseline")  # R4's note: a player who runs out of time is played for
                self._tell_timed_out(seat, chosen)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: the driver failed", self.id)
            self.stop_with("internal error: the match stops here", "internal")

    async def stop(self) -> None:
        for c in self.connections():
            c.close(1001)
        tasks = [t for t in (self.task, *self.background) if t is not None and not t.done()]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    # ---- storage of the room itself ------------------------------------------------------

    def _remember_seen(self) -> None:
        """The first person connected: the room is kept from now on (stored, resumed after a restart)."""
        lb = self.lobby
        if self.match_id is not None:
            self.spawn(lb.quietly(lb.store.mark_seen, self.match_id, what=f"room {self.id}: mark seen"), "seen")
        elif self.status == "waiting":
            self.spawn(self.save_waiting(), "save-room")

    async def save_waiting(self, answer: bool = False) -> None:
        """Store the waiting room (after its first connection, and after each join).  ``answer``:
        an HTTP request waits for it (:meth:`Lobby.db_answer`: 503 in bounded time; a write that
        lands after all is overwritten with the room as it is then)."""
        if self.status != "waiting" or not self.seen:
            return
        lb = self.lobby
        if answer:
            await lb.db_answer(lb.store.save_room, self.id, self.waiting_data(), late=lambda _: self._store_again())
        else:
            await lb.db_call(lb.store.save_room, self.id, self.waiting_data())
        self.stored_room = True

    def _store_again(self) -> None:
        if self.status == "waiting" and self.lobby.rooms.get(self.id) is self:
            self.spawn(self._store_private(), "save-room")

    # ---- starting --------------------------------------------------------------------------

    async def begin(self) -> None:
        """Start the match: bots fill the empty places; the match is created in the store."""
        if self.status != "waiting":
            raise LobbyError(409, f"the match has already started ({self.status})")
        self.status = "starting"  # nobody joins or starts it twice while the store answers
        added = 0
        while len(self.players) < SEATS:
            self.players.append(self.new_player(f"Bot {len(self.players)}", bot=self.bot_kind))
            added += 1
        m = self.lobby.match_factory(self.rules, self.seed, [p.name for p in self.players])
        self.seed = m.seed  # a test's match factory may choose the seed (and so the seating, R3)
        stored = [self.players[m.seating[s]].stored(s) for s in range(SEATS)]
        lb = self.lobby

        def late(match_id: Any) -> None:
            """The match was stored after the request was answered 503: nobody plays it (and the
            waiting room it replaced in the store is stored again)."""
            self.spawn(lb.quietly(lb.store.discard_match, match_id, what=f"room {self.id}: discarding match "
                                  f"{match_id}, stored after its request gave up"), "discard-late")
            self._store_again()

        try:
            self.match_id = await lb.db_answer(
                lb.store.create_match, self.id, self.rules.to_dict(), self.seed, stored, settings=self.settings(),
                seen=self.seen, replaces_room=self.id if self.stored_room else None, late=late)
        except Exception as e:
            del self.players[len(self.players) - added :]
            self.status = "waiting"
            if isinstance(e, LobbyError):  # no answer in time
                raise
            lb.refuse_if_lost(e)
            log.warning("room %s: create_match failed: %s", self.id, e)
            raise LobbyError(503, "the match could not be stored; try again") from None
        self.stored_room = False
        self.match = m
        self.status = "playing"
        self.stored_upto = 0
        self.shown = len(m.events)
        self.version += 1
        now = time.time()
        for p in self.players:
            if p.bot is None and not p.connected:
                p.away_since = now
        self._refresh_deadline(reset=True)
        self.broadcast_info()
        # a family without pre-hand choices (Beijing) has dealt already: the deal as each may see it
        # (never start_game: its seed deals every hand)
        deal = next((i for i, e in enumerate(m.events) if e["type"] == "start_kyoku"), None)
        if deal is not None:
            self.broadcast(lambda p: {"type": "events", "events": m.events_for(self.seat_of(p), deal)})
        self.broadcast_state()
        self.start_driver()


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
                room.stop_with("this match is now played by another server (this one's lease ended)", "moved")
            elif room.status == "waiting" and room.stored_room and room.id not in codes:
                room.stop_with("this room is now kept by another server", "moved")

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


def settlement_message(m: Match, rules: Rules, hand_events: list[dict[str, Any]], names: list[str], *,
                       next_delay: float | None = None, where: str = "match") -> dict[str, Any]:
    """The settlement of one finished hand (``hand_events``: its ``start_kyoku`` … ``end_kyoku``) as
    the web table's ``settlement`` message (docs/web.md): the win explained element by element (or
    fan by fan), every payment with its formula, every hand face up (``Match.revealed_hands``), the
    scores and, once the match is over, the standings.  ``m`` is the match just after that hand
    (the engine keeps its hands); ``names`` by seat; ``next_delay`` the pause before the next hand.
    The web room and the terminal table (``tjmj play``) both show this."""
    if isinstance(rules, BeijingRules):
        return _beijing_settlement(m, hand_events, rules, names, next_delay, where)
    if isinstance(rules, McrRules):
        return _mcr_settlement(m, hand_events, rules, names, next_delay, where)
    kyoku = next(e for e in hand_events if e["type"] == "start_kyoku")
    end = next(e for e in hand_events if e["type"] == "end_kyoku")
    hora = next((e for e in hand_events if e["type"] == "hora"), None)
    chan = next((e for e in hand_events if e["type"] == "chan"), None)
    hands = _revealed(m, kyoku, where)
    payments = (tianjin_payments_detail(hora, kyoku, hand_events, end["payments"], rules, hands or [])
                if isinstance(rules, TianjinRules) else end["payments"])
    msg: dict[str, Any] = {
        "type": "settlement",
        "family": rules.family,
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
        "hands": hands,
        "payments": payments,
        "deltas": end["deltas"],
        "scores": end["scores"],
        "over": m.is_over,
        "next_in": next_delay if not m.is_over else None,
    }
    if hora:
        formula, formula_en = tianjin_fan_formula(hora["elements"], hora["fan"], rules)
        msg["win"] = {
            "seat": hora["actor"],
            "tile": hora["pai"],
            "hand": hora["hand"],
            "melds": hora["melds"],
            "fan": hora["fan"],
            "name": hora["name"],
            "formula": formula,
            "formula_en": formula_en,
            "elements": elements_detail(hora["elements"], rules),
            "kong_draw": hora["kong_draw"],
            "tianhu": hora["tianhu"],
            "arrangement": win_arrangement(hora, kyoku, hand_events, rules),
        }
    _standings(m, msg, names)
    return msg


def _revealed(m: Match, kyoku: dict[str, Any], where: str) -> list[dict[str, Any]] | None:
    """Every seat's hand in the hand that just ended, face up (the engine says they are public
    now).  The settlement is built after the engine has moved on to the next hand (or ended the
    match), so the hand is named; while it is stored nothing else can end."""
    try:
        return m.revealed_hands(kyoku["hand"])
    except ValueError as e:  # not expected: the engine keeps the last hand that ended
        log.error("%s: the hands of hand %s cannot be shown: %s", where, kyoku["hand"], e)
        return None


def _standings(m: Match, msg: dict[str, Any], names: list[str]) -> None:
    if m.is_over:
        order = sorted(range(SEATS), key=lambda s: -m.scores[s])
        msg["standings"] = [{"rank": r + 1, "seat": s, "name": names[s], "score": m.scores[s]}
                            for r, s in enumerate(order)]


def _beijing_settlement(m: Match, hand_events: list[dict[str, Any]], rules: BeijingRules,
                        names: list[str], next_delay: float | None, where: str) -> dict[str, Any]:
    """A Beijing hand's settlement (B5, B6): the win explained (:func:`beijing_win_detail`) and
    every payment with its factors (:func:`beijing_payments_detail`); no 坐庄, 拉庄 or 铲."""
    kyoku = next(e for e in hand_events if e["type"] == "start_kyoku")
    end = next(e for e in hand_events if e["type"] == "end_kyoku")
    hora = next((e for e in hand_events if e["type"] == "hora"), None)
    rounds = max((int(e.get("rounds") or 0) for e in hand_events if e["type"] == "shaozhuang"), default=0)
    win = None
    if hora:
        win = beijing_win_detail(hora, rules)
        win["arrangement"] = win_arrangement(hora, kyoku, hand_events, rules)
    msg: dict[str, Any] = {
        "type": "settlement",
        "family": rules.family,
        "preset": rules.name.split("+")[0],
        "hand": kyoku["hand"],
        "round": kyoku["round"],
        "dealer": kyoku["dealer"],
        "indicator": kyoku.get("dora_marker"),
        "wilds": kyoku.get("wilds") or [],
        "upstairs": bool(kyoku.get("upstairs")),
        "upstairs_next": bool(getattr(m, "upstairs", False)) and not m.is_over,
        "shaozhuang": rounds,
        "names": names,
        "winner": hora["actor"] if hora else -1,
        "win": win,
        "hands": _revealed(m, kyoku, where),
        "payments": beijing_payments_detail(hora, kyoku, hand_events, end["payments"], rules),
        "deltas": end["deltas"],
        "scores": end["scores"],
        "over": m.is_over,
        "next_in": next_delay if not m.is_over else None,
    }
    _standings(m, msg, names)
    return msg


def _mcr_settlement(m: Match, hand_events: list[dict[str, Any]], rules: McrRules,
                    names: list[str], next_delay: float | None, where: str) -> dict[str, Any]:
    """An MCR hand's settlement (M3, M4): the winds of the hand, every seat's flowers, the win
    explained fan by fan (:func:`mcr_win_detail`) with its arrangement (:func:`mcr_arrangement`),
    and every payment with its sum (:func:`mcr_payments_detail`)."""
    kyoku = next(e for e in hand_events if e["type"] == "start_kyoku")
    end = next(e for e in hand_events if e["type"] == "end_kyoku")
    hora = next((e for e in hand_events if e["type"] == "hora"), None)
    flowers: list[list[str]] = [[] for _ in range(SEATS)]
    for e in hand_events:
        if e["type"] == "flower":
            flowers[e["actor"]].append(e["pai"])
    hands = _revealed(m, kyoku, where)
    if hands is not None:
        hands = [{**h, "flowers": flowers[s]} for s, h in enumerate(hands)]
    win = None
    if hora:
        win = mcr_win_detail(hora, rules)
        win["arrangement"] = mcr_arrangement(hora, rules)
    dealer = kyoku["dealer"]
    msg: dict[str, Any] = {
        "type": "settlement",
        "family": rules.family,
        "preset": rules.name.split("+")[0],
        "hand": kyoku["hand"],
        "round": kyoku["round"],
        "dealer": dealer,
        "prevalent_wind": _MCR_WINDS[int(kyoku.get("prevalent_wind") or 0) % SEATS],
        "seat_winds": [_MCR_WINDS[(s - dealer) % SEATS] for s in range(SEATS)],
        "flowers": flowers,
        "names": names,
        "winner": hora["actor"] if hora else -1,
        "win": win,
        "hands": hands,
        "payments": mcr_payments_detail(hora, end["payments"], rules),
        "deltas": end["deltas"],
        "scores": end["scores"],
        "over": m.is_over,
        "next_in": next_delay if not m.is_over else None,
    }
    _standings(m, msg, names)
    return msg


def _new_match(rules: Rules, seed: int, names: list[str]) -> Match:
    """A room's match: the family of ``rules`` (:mod:`tjmj.families`), dealt from ``seed``."""
    return Match(rules, seed=seed, names=names)


def transient(e: BaseException) -> bool:
    """A database failure that may pass (the server down, a timeout, a lock): worth retrying."""
    if isinstance(e, OSError | TimeoutError):
        return True
    try:
        from sqlalchemy import exc
    except ImportError:  # pragma: no cover
        return False
    return isinstance(e, exc.OperationalError | exc.InterfaceError | exc.DisconnectionError | exc.TimeoutError)


def _timer(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 else None
