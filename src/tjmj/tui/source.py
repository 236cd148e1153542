"""Where the terminal table's messages come from: a match played here against bots (:class:`LocalTable`)
or a seat at a running ``tjmj serve`` (:class:`RemoteTable`).

Both speak the web table's protocol (docs/web.md): they hand the app ``state`` messages shaped as
``Room.state_for`` sends them (``obs`` is ``Match.observation(seat)``: the engine alone decides what
the seat sees), ``events``, ``settlement`` (built by :func:`tjmj.web.settlement.settlement_message`, the
web room's own code), ``hint``, ``error`` and ``timed_out``, and take actions in the engine's text
form.  The app never sees another seat's hand while a hand is in play.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .. import families
from ..bots import Bot, make_bot
from ..game import Action, IllegalAction, Match, visible_event
from ..record import read_records, write_record
from ..rules import Rules
from ..simulate import _bot_rng
from ..wall import SEATS
from ..web.hints import hint, hint_available
from ..web.settlement import WINDS, WINDS_CN, named, settlement_message

__all__ = ["TableSource", "LocalTable", "RemoteTable", "ConnectError", "Joined", "join_remote", "rules_brief",
           "MatchFactory"]

log = logging.getLogger("tjmj.tui")

Listener = Callable[[dict[str, Any]], None]
MatchFactory = Callable[[Rules, int, list[str]], Match]


class ConnectError(Exception):
    """``--connect`` failed: the message is one line for the person (no traceback)."""


def rules_brief(rules: Rules) -> dict[str, Any]:
    """What the table shows of the rules, as ``state["rules"]`` (``Room._rules_brief``)."""
    out: dict[str, Any] = {"family": rules.family, "preset": rules.name.split("+")[0], "custom": "+" in rules.name,
                           "match_hands": rules.match_hands, "match_rounds": rules.match_rounds,
                           "max_pull": getattr(rules, "max_pull", 0)}
    out.update(families.get(rules.family).termview.rules_brief(rules))  # the family's own options
    out["hints"] = hint_available(rules)
    return out


class TableSource:
    """The table the app shows.  ``listener`` receives every message; :meth:`run` drives or
    receives until the match is over or the source is closed."""

    record_path: str | None = None
    description = ""

    def __init__(self) -> None:
        self.listener: Listener = lambda msg: None

    def emit(self, msg: dict[str, Any]) -> None:
        self.listener(msg)

    async def run(self) -> None:
        raise NotImplementedError

    async def act(self, action: str, version: int) -> None:
        """The person's ``action``, answering the state of ``version`` (the one on show when they
        chose it): one for an older state is refused (``stale``), never applied to a later decision."""
        raise NotImplementedError

    async def request_hint(self) -> None:
        raise NotImplementedError

    async def next_hand(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        """Stop (the app is quitting)."""


class LocalTable(TableSource):
    """A match played in this process: the person is player 0 (their seat is drawn by the match,
    R3), bots play the three others and see only their observations (as ``tjmj simulate``).

    After each hand the whole record so far (``Match.events``, docs/records.md) is written to
    ``record`` (after any matches the file already held), so a crash loses at most the hand in
    play.  ``match_factory(rules, seed, names)`` is the test hook the web room has too (a scripted
    wall).  ``bot_delay`` seconds pass before each bot action, so a person can follow the play."""

    def __init__(self, rules: Rules, *, bots: Sequence[str] = ("baseline",) * 3, seed: int = 0, name: str = "You",
                 record: str | None = None, bot_delay: float = 0.3, match_factory: MatchFactory | None = None,
                 bot_factory: Callable[[str], Bot] = make_bot) -> None:
        super().__init__()
        if len(bots) != SEATS - 1:
            raise ValueError("three bots, one per other player")
        self.rules = rules
        names = [name] + [f"Bot {i}" for i in range(1, SEATS)]
        self.match = (match_factory or (lambda r, s, n: Match(r, seed=s, names=n)))(rules, seed, names)
        m = self.match
        self.seat = m.seating.index(0)
        self.names = [names[m.seating[s]] for s in range(SEATS)]
        self.bot_kinds = [None if m.seating[s] == 0 else bots[m.seating[s] - 1] for s in range(SEATS)]
        self.bots: dict[int, Bot] = {}
        self.rngs = {s: _bot_rng(seed, m.seating[s]) for s in range(SEATS)}
        for s, kind in enumerate(self.bot_kinds):
            if kind is not None:
                bot = self.bots[s] = bot_factory(kind)
                set_rules = getattr(bot, "set_rules", None)  # the rules are public: bots play by them
                if set_rules is not None:
                    set_rules(rules)
        self.bot_delay = bot_delay
        self.record_path = record
        self._prior: list[dict[str, Any]] = []
        if record is not None and os.path.exists(record) and os.path.getsize(record) > 0:
            self._prior = [ev for match in read_records(record) for ev in match]  # RecordError: bad file
        self.version = 0
        self.paused = False  # a settlement on show: the next hand waits for the person
        self.closed = False
        self.settlement: dict[str, Any] | None = None
        self._hand_start = 0
        self._wake = asyncio.Event()
        self.description = f"{rules.family} · {rules.name}"

    # ---- what the seat sees ----------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        m = self.match
        obs = m.observation(self.seat)  # the engine decides what this seat may see
        if self.paused or m.is_over:
            obs["legal_actions"] = []
        msg: dict[str, Any] = {
            "type": "state", "room": None, "status": "over" if m.is_over else "playing", "version": self.version,
            "you": self.seat, "obs": obs, "names": list(self.names), "bots": list(self.bot_kinds),
            "connected": [k is None for k in self.bot_kinds], "winds": list(WINDS), "winds_cn": list(WINDS_CN),
            "to_act": obs["to_act"], "legal": obs["legal_actions"], "paused": self.paused,
            "rules": rules_brief(self.rules),
        }
        if "win" in obs["legal_actions"]:
            preview = m.win_preview(self.seat)
            if preview is not None:  # the elements' names, as the web state gives them
                shown = {"type": "hora", "elements": preview.get("elements") or [], "fans": preview.get("fans")}
                preview = {**preview, "elements_detail": named([shown], self.rules.family)[0]["elements_detail"]}
            msg["win_preview"] = preview
        return msg

    def _send_state(self) -> None:
        self.emit(self.state())

    # ---- driving ---------------------------------------------------------------------------

    async def run(self) -> None:
        m = self.match
        self._send_state()  # first: the log lines of the events name the seats
        self.emit({"type": "events", "replay": True, "events": named(
            [visible_event(e, self.seat) for e in m.events], self.rules.family)})
        while not m.is_over and not self.closed:
            if self.paused or m.to_act == self.seat:
                self._wake.clear()
                await self._wake.wait()
                continue
            await asyncio.sleep(self.bot_delay)
            if self.closed:
                return
            seat = m.to_act
            self._apply(seat, self._bot_action(seat))

    def _bot_action(self, seat: int) -> Action:
        """The bot's decision; a bot that fails or answers with an illegal action is replaced by
        the baseline bot for that decision (as the web room does: one bug must not stop a table)."""
        m = self.match
        legal = m.legal_actions(seat)
        bot = self.bots[seat]
        try:
            obs = m.observation(seat) if getattr(bot, "uses_observation", True) else {}
            action = bot.choose(obs, list(legal), self.rngs[seat])
            if action in legal:
                return action
            log.error("bot %s chose %r, not legal", self.bot_kinds[seat], action)
        except Exception:
            log.exception("bot %s failed", self.bot_kinds[seat])
        fallback = make_bot("baseline")
        set_rules = getattr(fallback, "set_rules", None)
        if set_rules is not None:
            set_rules(self.rules)
        action = fallback.choose(m.observation(seat), list(legal), self.rngs[seat])
        return action if action in legal else legal[-1]

    def _apply(self, seat: int, action: Action) -> None:
        m = self.match
        start = len(m.events)
        m.apply(seat, action)
        self.version += 1
        new = m.events[start:]
        self.emit({"type": "events", "events": named([visible_event(e, self.seat) for e in new], self.rules.family)})
        ends = [i for i in range(start, len(m.events)) if m.events[i]["type"] == "end_kyoku"]
        if ends:
            end = ends[-1] + 1
            hand_events = m.events[self._hand_start:end]
            self._hand_start = end
            self.save_record()
            self.settlement = settlement_message(m, self.rules, hand_events, list(self.names), next_delay=None,
                                                 where="tjmj play")
            self.paused = not m.is_over
            self._send_state()
            self.emit(self.settlement)
        else:
            self._send_state()
        self._wake.set()

    def save_record(self) -> None:
        """Write the record so far (the file's earlier matches first), atomically."""
        if self.record_path is not None:
            write_record([*self._prior, *self.match.events], self.record_path)

    # ---- the person's messages -------------------------------------------------------------

    async def act(self, action: str, version: int) -> None:
        m = self.match
        if version != self.version:
            self.emit({"type": "error", "code": "stale", "message": "the table moved on before that key: nothing was done"})
            return
        if self.paused:
            self.emit({"type": "error", "code": "not_playing", "message": "the hand is over: Enter for the next"})
            return
        if m.is_over or m.to_act != self.seat:
            self.emit({"type": "error", "code": "not_your_turn", "message": "it is not your decision now"})
            return
        try:
            a = Action.parse(action)
        except IllegalAction as e:
            self.emit({"type": "error", "code": "bad_request", "message": str(e)})
            return
        if a not in m.legal_actions(self.seat):
            legal = ", ".join(str(x) for x in m.legal_actions(self.seat))
            self.emit({"type": "error", "code": "illegal", "message": f"{action!r} is not legal now; legal: {legal}"})
            return
        self._apply(self.seat, a)

    async def request_hint(self) -> None:
        m = self.match
        version = self.version
        legal = m.legal_actions(self.seat) if not self.paused and not m.is_over else []
        if not hint_available(self.rules):
            self.emit({"type": "hint", "version": version, "discards": [], "available": False})
            return
        if m.to_act != self.seat or not any(a.type == "discard" for a in legal):
            self.emit({"type": "error", "code": "not_your_turn", "message": "hints are for your turn, before a discard"})
            return
        # the match waits for this seat, so nothing changes while the advisor thinks (MCR: up to a second)
        try:
            discards = await asyncio.to_thread(hint, m, self.seat)
        except Exception:
            log.exception("the hint failed")
            self.emit({"type": "hint", "version": version, "discards": [], "available": False})
            return
        self.emit({"type": "hint", "version": version, "discards": discards, "available": True})

    async def next_hand(self) -> None:
        if self.paused:
            self.paused = False
            self.settlement = None
            self._send_state()
            self._wake.set()

    async def close(self) -> None:
        self.closed = True
        self._wake.set()


# ---- a seat at a running server ----------------------------------------------------------------


@dataclass
class Joined:
    """The answer of the join (or quick-room) request: where the WebSocket is and the seat's token."""

    base: str  # http://host:port
    room: str
    token: str
    player: int


def _post(url: str, body: dict[str, Any], origin: str, timeout: float = 10.0) -> dict[str, Any]:
    data = json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="POST",
                                 headers={"Content-Type": "application/json", "Origin": origin})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:  # noqa: S310 - http(s) only, checked by the caller
            out = json.loads(r.read().decode())
    except urllib.error.HTTPError as e:
        try:
            message = json.loads(e.read().decode()).get("error") or e.reason
        except (ValueError, AttributeError):
            message = e.reason
        raise ConnectError(f"{url}: {message} (HTTP {e.code})") from None
    except (urllib.error.URLError, OSError, TimeoutError) as e:
        reason = getattr(e, "reason", None) or e
        raise ConnectError(f"cannot reach {url}: {reason}") from None
    except ValueError:
        raise ConnectError(f"{url}: the answer is not JSON: is this a tjmj server?") from None
    if not isinstance(out, dict) or "token" not in out or "room" not in out:
        raise ConnectError(f"{url}: unexpected answer: is this a tjmj server?")
    return out


def join_remote(url: str, name: str, *, preset: str | None = None, hands: int | None = None,
                bots: str | None = None) -> Joined:
    """Take a seat: ``http://HOST:PORT/table/ROOM`` joins that room (``POST /api/rooms/ROOM/join``),
    a bare ``http://HOST:PORT`` creates a quick room against three bots (``POST /api/quick``, with
    ``preset``, ``hands`` and ``bots`` when given).  Raises :class:`ConnectError` with one line."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConnectError(f"--connect {url}: give the server's address, http://HOST:PORT or "
                           "http://HOST:PORT/table/ROOM")
    base = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    path = parts.path.rstrip("/")
    segments = [s for s in path.split("/") if s]
    if len(segments) == 2 and segments[0] == "table":
        room = segments[1]
        out = _post(f"{base}/api/rooms/{room}/join", {"name": name}, base)
    elif not segments:
        body: dict[str, Any] = {"name": name}
        if preset is not None:
            body["preset"] = preset
        if hands is not None:
            body["match_hands"] = hands
        if bots is not None:
            body["bots"] = bots
        out = _post(f"{base}/api/quick", body, base)
    else:
        raise ConnectError(f"--connect {url}: expected http://HOST:PORT/table/ROOM or http://HOST:PORT")
    return Joined(base=base, room=str(out["room"]), token=str(out["token"]), player=int(out.get("player") or 0))


class RemoteTable(TableSource):
    """A seat at a ``tjmj serve`` room through the browser's WebSocket protocol (docs/web.md): the
    server sends what this seat may see; actions go back as text.  When the match is over the
    stored record is downloaded (``GET /api/matches/ID/record``) to ``record``."""

    def __init__(self, joined: Joined, *, record: str | None = None) -> None:
        super().__init__()
        self.joined = joined
        self.record_path = record
        self.match_id: Any = None
        self.ws: Any = None
        self.closed = False
        self.description = f"room {joined.room} at {joined.base}"

    async def run(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

        j = self.joined
        ws_url = ("wss" if j.base.startswith("https") else "ws") + j.base[j.base.index(":"):] + f"/ws/{j.room}"
        try:
            async with connect(ws_url, origin=j.base, open_timeout=10) as ws:  # type: ignore[arg-type]
                self.ws = ws
                await ws.send(json.dumps({"type": "hello", "token": j.token}))
                async for raw in ws:
                    try:
                        msg = json.loads(raw)
                    except ValueError:
                        continue
                    if not isinstance(msg, dict):
                        continue
                    if msg.get("type") in ("room", "state") and msg.get("match_id") is not None:
                        self.match_id = msg["match_id"]
                    self.emit(msg)
                    if msg.get("type") == "settlement" and msg.get("over"):
                        await self._save_record()
            reason = "the server closed the connection"
        except ConnectionClosed as e:
            reason = f"the connection closed ({e.rcvd.code if e.rcvd else 'no code'})"
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as e:
            reason = f"cannot connect to {ws_url}: {e}"
        finally:
            self.ws = None
        if not self.closed:
            self.emit({"type": "closed", "message": reason})

    async def _send(self, msg: dict[str, Any]) -> None:
        if self.ws is None:
            self.emit({"type": "error", "code": "not_connected", "message": "not connected"})
            return
        with contextlib.suppress(Exception):
            await self.ws.send(json.dumps(msg))

    async def act(self, action: str, version: int) -> None:
        await self._send({"type": "action", "action": action, "version": version})

    async def request_hint(self) -> None:
        await self._send({"type": "hint"})

    async def next_hand(self) -> None:
        await self._send({"type": "next"})

    async def close(self) -> None:
        self.closed = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()

    async def _save_record(self) -> None:
        """The finished match's record from the server (it stores it first; retried briefly)."""
        if self.record_path is None or self.match_id is None:
            return
        url = f"{self.joined.base}/api/matches/{self.match_id}/record"

        def fetch() -> bytes:
            with urllib.request.urlopen(url, timeout=10) as r:  # noqa: S310
                return bytes(r.read())

        for _ in range(20):
            try:
                data = await asyncio.to_thread(fetch)
            except (urllib.error.URLError, OSError):
                await asyncio.sleep(0.25)  # 409 while the server finishes storing it
                continue
            events = [json.loads(line) for line in data.decode().splitlines() if line.strip()]
            await asyncio.to_thread(write_record, events, self.record_path)
            self.emit({"type": "record", "path": self.record_path})
            return
        self.emit({"type": "error", "code": "record", "message": f"the record could not be downloaded from {url}"})
