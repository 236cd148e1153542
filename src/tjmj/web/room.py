"""One table of the web server (:class:`Room`): seats, sockets, bots, timers, storage.

The engine (:class:`tjmj.game.Match`) is the only authority: a room holds one match, and every
decision goes through :meth:`Match.apply`, whether a person's (over a WebSocket), a bot's, or the
baseline bot's on a time-out or for a person away.  All of it runs on the server's event loop
(the engine synchronously: no two changes to a room interleave); every store call runs in the
lobby's thread pool (:meth:`Lobby.db`), and while a finished hand is stored the room takes no
decisions (``saving``).  One task per room (:meth:`Room._run`) drives bots, timer and grace.

Storage: a finished hand's events are stored (retried until it succeeds) before anyone is told.
A match is owned by one server process at a time (a lease in the database, renewed every few
seconds; every write is fenced by it): a process that lost the lease stops the room instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import orjson

from .. import families
from ..bots import Bot
from ..deal import commitment, deal_settings, new_salt
from ..game import Action, IllegalAction, Match, visible_event
from ..rules import Rules
from ..wall import SEATS
from . import ranked
from .connection import Connection, Player, error
from .errors import DatabaseLost, LeaseLost, transient
from .hints import hint_available
from .inputs import BOT_SPEEDS, LEVEL_OF, LobbyError, is_account_id, token_hash
from .limits import CLOSE_REPLACED, MAX_ACTION_LEN, MAX_LIMITED, MAX_MESSAGE_CHARS, SAVE_BACKOFF_MAX, Bucket
from .room_hints import HintsMixin
from .settlement import WINDS, WINDS_CN, named, settlement_message

if TYPE_CHECKING:
    from .lobby import Lobby

__all__ = ["Room"]

log = logging.getLogger("tjmj.web")
# background writes Room.stop lets finish: the room's own record, and a finished match marked so
STORING_TASKS = ("-seen", "-save-room", "-finish")


class Room(HintsMixin):
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
        self.ranked = False  # made by the ranked queue: rated when it ends; leaving counts last (tjmj.web.ranked)
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
        self.deal_salt: str | None = new_salt()  # the commitment to the seed shown before the first deal (tjmj.deal)
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
        return {"bots": self.bot_kind, "timer_s": self.timer_s, "bot_speed": self.bot_speed, "private": self.private,
                "ranked": self.ranked, **deal_settings(self.seed, self.deal_salt)}

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
            "players": [{"player": i, "name": p.name, "bot": p.bot, "connected": p.connected, "seat": self.seat_of(i),
                         "guest": p.bot is None and not is_account_id(p.player_id)}  # not signed in
                        for i, p in enumerate(self.players)],
            "rules": self.rules.to_dict(),
            "bots": self.bot_kind,
            "level": LEVEL_OF.get(self.bot_kind),  # the lobby's level of that bot (None: random)
            "timer_s": self.timer_s,
            "bot_speed": self.bot_speed,
            "private": self.private,
            "ranked": self.ranked,
            "deal_commitment": commitment(self.seed, self.deal_salt) if self.deal_salt else None,
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
        MCR: the flowers and the fewest fan to win: the family's webview ``rules_brief``)."""
        r = self.rules
        out: dict[str, Any] = {"family": r.family, "preset": r.name.split("+")[0], "custom": "+" in r.name,
                               "match_hands": r.match_hands, "match_rounds": r.match_rounds,
                               "max_pull": getattr(r, "max_pull", 0)}
        out.update(families.get(r.family).webview.rules_brief(r))
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
        """Send everyone the state now; not while a hand is stored (it would tell the hand's result)."""
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
        elif t == "leave":
            self._on_leave(conn)
        elif t == "hello":
            conn.send(error("already connected: hello is only the first message", "bad_request"))
        else:
            conn.send(error(f"unknown message type {t[:20]!r}; types are action, hint, next, speed, private, leave, "
                            "sync, ping"))

    def _on_leave(self, conn: Connection) -> None:
        """A person leaves a ranked match (中途退出): the bot plays their seat to the end and it
        counts as last place (stored at once); their socket is closed, and a return only watches."""
        if conn.player is None or not self.ranked or self.status != "playing" or self.match is None:
            conn.send(error("leaving is for a seat of a ranked match in progress; close the page to step away",
                            "forbidden"))
            return
        p, seat = self.players[conn.player], self.seat_of(conn.player)
        p.left, p.bot = True, ranked.RANKED_BOT
        lb = self.lobby
        self.spawn(lb.quietly(lb.store.mark_left, self.match_id, seat, what=f"room {self.id}: seat {seat} left"),
                   "left")
        conn.send(error("you left this ranked match: it counts as last place, and a bot plays your seat", "left"))
        self.detach(conn)

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
        """The host sets the bots' speed: ``slow``, ``normal``, ``fast`` (a factor on the bot delay)."""
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
                lb.moved(self, f"this match is now played by another server: {e}")
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
            self.spawn(ranked.finish(self, list(m.scores)), "finish")  # rated when ranked
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
        """The settlement message of the hand just stored (:func:`settlement_message`: the terminal's too)."""
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
        # the room's own record still being written (seen, saved) may finish: a restart keeps the room
        storing = [t for t in self.background if not t.done() and t.get_name().endswith(STORING_TASKS)]
        if storing:
            await asyncio.wait(storing, timeout=self.lobby.limits.db_timeout)
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
