"""The hints of a table (:class:`HintsMixin`, mixed into :class:`tjmj.web.room.Room`): the advisor's
ranking of every discard, at once or off the loop, and the expert search's pick, sent when ready.

A hint is computed once per seat and state (``Room.version``), however often asked, and a
failure costs the hint, never the table.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from .. import families
from ..game import Action, Match
from ..rules import Rules
from .connection import Connection, error
from .hints import hint, hint_available, hint_search_bot

if TYPE_CHECKING:
    from .lobby import Lobby

__all__ = ["HintsMixin"]

log = logging.getLogger("tjmj.web")


class HintsMixin:
    """Hints for :class:`~tjmj.web.room.Room` (提示): the state it reads is the room's own."""

    lobby: Lobby
    id: str
    rules: Rules
    match: Match | None
    status: str
    saving: bool
    version: int
    _hints: dict[int, tuple[int, list[dict[str, Any]]]]
    _hint_waiting: dict[tuple[int, int], list[Connection]]
    _searches: dict[int, tuple[int, dict[str, Any] | None]]
    _search_waiting: dict[tuple[int, int], list[Connection]]

    if TYPE_CHECKING:  # the room's own (tjmj.web.room.Room)
        def seat_of(self, player: int | None) -> int | None: ...

        def spawn(self, coro: Awaitable[Any], name: str) -> None: ...

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
        view = families.get(self.rules.family).webview
        if view.HINT_OFF_THREAD and (cached is None or cached[0] != self.version):
            self._hint_later(conn, m, seat, view)
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

    def _hint_later(self, conn: Connection, m: Match, seat: int, view: Any) -> None:
        """A hint computed off the loop (the family's ``HINT_OFF_THREAD``: MCR's takes up to a
        second on a far hand, the shanten of every shape after every discard and draw): its inputs
        are copied here (``view.hint_inputs``), it is computed in a worker thread
        (``view.hint_compute``), and the answer (with the version it is for) is sent when ready; the
        table goes on meanwhile.  One computation per seat and version, however often asked."""
        version = self.version
        waiting = self._hint_waiting.setdefault((seat, version), [])
        waiting.append(conn)
        if len(waiting) > 1:
            return
        try:
            inputs = view.hint_inputs(m, seat)
        except Exception:
            log.exception("room %s: the hint for seat %d failed", self.id, seat)
            inputs = None

        async def compute() -> None:
            discards: list[dict[str, Any]] | None = None
            if inputs is not None:
                try:
                    discards = await asyncio.get_running_loop().run_in_executor(None, view.hint_compute, inputs)
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
