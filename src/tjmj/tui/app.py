"""The terminal table (``tjmj play``): a Textual app that draws the web protocol's messages.

The app holds no game logic: it renders the last ``state`` message (docs/web.md, ``Room.state_for``'s
shape) of its :class:`~tjmj.tui.source.TableSource` and sends actions in the engine's text form; the
source (a match here, or a seat at ``tjmj serve``) decides what is legal and what this seat sees.

Screen, top to bottom: the info line (game, hand, round, tiles left, indicator and wilds or the
prevalent wind), the four seats (the three others in play order after you, then you: wind, name,
dealer, score, melds, flowers, the pond with claimed tiles marked), the line saying whose decision
it is (a claim window shows the tile on offer and its discarder), the last moves, your hand (sorted,
the drawn tile apart, wilds marked, the selected tile reversed), the keys for the legal actions, and
the help line.  The hint panel opens on the right; the settlement, choices and the quit question
are modal screens.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any, ClassVar

from rich.console import Console
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from .render import (
    action_choices,
    action_label,
    action_text,
    event_line,
    hand_line,
    hand_order,
    hint_text,
    info_line,
    seat_block,
    settlement_text,
    stake_lines,
    termview,
    window_line,
)
from .source import TableSource

__all__ = ["TableApp", "screen_text"]

HELP = "←→ Enter discard · w win · p pon · k kong · c chi · ␣ pass · ? hints · q quit"


def screen_text(app: App[Any]) -> str:
    """The screen as plain text (what ``export_screenshot`` draws, without styles): for tests and
    the docs.  Uses Textual's compositor as ``App.export_screenshot`` does."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, record=True,
                      color_system=None, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text(styles=False)


class _Panel(VerticalScroll):
    can_focus = False  # the arrows and Enter belong to the hand


class ChoiceScreen(ModalScreen[str | None]):
    """Choose one of several actions of a kind (two kongs, three chis, pull levels): arrows and
    Enter, or the digit; Escape goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "back")]
    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    ChoiceScreen > Vertical { width: 50; height: auto; max-height: 90%; border: round $accent; background: $panel; }
    ChoiceScreen OptionList { height: auto; max-height: 14; }
    """

    def __init__(self, title: str, actions: list[str], ascii: bool) -> None:
        super().__init__()
        self.title_text = title
        self.actions = actions
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text + " (digit or ↑↓ Enter; Esc back)", "bold"))
            yield OptionList(*[Option(f"{i + 1}. {action_text(a, self.ascii)}", id=str(i))
                               for i, a in enumerate(self.actions)])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.actions[event.option_index])

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character.isdigit():
            i = int(event.character) - 1
            if 0 <= i < len(self.actions):
                event.stop()
                self.dismiss(self.actions[i])

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question (quitting a match in play)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("y", "answer(True)", "yes"), Binding("n", "answer(False)", "no"),
                                             Binding("escape", "answer(False)", "no")]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Static { width: 44; height: auto; border: round $warning; background: $panel; padding: 0 1; }
    """

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        yield Static(Text(f"{self.question}\n\ny yes · n no", "bold"))

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class SettlementScreen(ModalScreen[None]):
    """The settlement of a hand, explained as the web table does; Enter for the next hand (or to
    leave, after the last)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "close", "next"), Binding("q", "quit_table", "quit")]
    DEFAULT_CSS = """
    SettlementScreen { align: center middle; }
    SettlementScreen > Vertical { width: 100%; max-width: 120; height: 100%; border: round $success; background: $panel; }
    SettlementScreen VerticalScroll { height: 1fr; padding: 0 1; }
    SettlementScreen #next { height: 1; background: $success-darken-2; padding: 0 1; }
    """

    def __init__(self, msg: dict[str, Any], ascii: bool, you: int | None) -> None:
        super().__init__()
        self.msg = msg
        self.ascii = ascii
        self.you = you

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll():
                yield Static(settlement_text(self.msg, self.ascii, self.you), id="settlement")
            over = self.msg.get("over")
            yield Static("Enter to leave (the record is saved) · ↑↓ scroll" if over
                         else "Enter for the next hand · ↑↓ scroll · q quit", id="next")

    def action_close(self) -> None:
        self.dismiss(None)

    def action_quit_table(self) -> None:
        self.app.action_quit_table()  # type: ignore[attr-defined]


class TableApp(App[dict[str, Any]]):
    """The table.  ``source`` supplies the messages; ``ascii`` draws tiles as MPSZ text.  The result
    (``app.return_value``) is ``{"scores", "names", "over", "record", "error"}``."""

    TITLE = "tjmj play"
    CSS = """
    Screen { layout: vertical; }
    #info { height: 1; background: $boost; padding: 0 1; }
    #table { height: 1fr; padding: 0 1; }
    #table > Static { height: auto; margin-bottom: 0; }
    #you { height: auto; padding: 0 1; border-top: solid $primary; }
    #status { height: 1; padding: 0 1; }
    #log { height: 1; padding: 0 1; color: $text-muted; }
    #hand { height: auto; padding: 0 1; }
    #actions { height: auto; padding: 0 1; }
    #keys { height: 1; background: $boost; padding: 0 1; color: $text-muted; }
    #hint { display: none; dock: right; width: 44; height: 100%; border-left: solid $accent; padding: 0 1;
            background: $panel; }
    #hint.shown { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "←", show=False, priority=True),
        Binding("right", "move(1)", "→", show=False, priority=True),
        Binding("home", "move(-99)", show=False, priority=True),
        Binding("end", "move(99)", show=False, priority=True),
        Binding("q", "quit_table", "quit"),
        Binding("question_mark,t", "hint", "hints"),
        Binding("escape", "close_hint", show=False),
    ]

    def __init__(self, source: TableSource, *, ascii: bool = False) -> None:
        super().__init__()
        self.source = source
        self.ascii = ascii
        self.state: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.cursor = 0
        self.log_lines: list[str] = []
        self.last_discarder: int | None = None
        self.settlement: dict[str, Any] | None = None
        self.settlements: list[dict[str, Any]] = []
        self.hint: dict[str, Any] | None = None
        self.error: str | None = None
        self.record_saved: str | None = None
        self._confirm_wild: str | None = None
        self._choosing = False
        self._task: asyncio.Task[None] | None = None
        self._table_ready = False  # composed: the widgets can be updated
        source.listener = self.receive

    # ---- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="info")
        with _Panel(id="table"):
            for i in range(3):
                yield Static(id=f"seat{i}")
        yield Static(id="you")
        yield Static(id="status")
        yield Static(id="log")
        yield Static(id="hand")
        yield Static(id="actions")
        yield Static(HELP, id="keys")
        with _Panel(id="hint"):
            yield Static(id="hint-text")

    def on_mount(self) -> None:
        self._table_ready = True
        self.query_one("#info", Static).update(f"tjmj play · {self.source.description} · connecting…")
        self._task = asyncio.get_running_loop().create_task(self._run_source())

    async def _run_source(self) -> None:
        try:
            await self.source.run()
        except Exception as e:  # a bug in the source: say so rather than hang
            self.error = f"the table stopped: {e}"
            self.exit(self._result(), return_code=1)

    # ---- messages from the table --------------------------------------------------------------

    def receive(self, msg: dict[str, Any]) -> None:
        """One message of the web protocol (docs/web.md), from either source."""
        kind = msg.get("type")
        if kind == "state":
            obs = msg.get("obs") or {}
            if obs.get("drawn") and any(a.startswith("discard ") for a in msg.get("legal") or []):
                self.cursor = len(obs.get("hand") or []) - 1  # a new draw: start on it (shown last)
            prev = self.state
            if prev is not None and (prev.get("obs") or {}).get("hand_number") != obs.get("hand_number"):
                self.log_lines = []  # a new hand: the last one's moves belong to its settlement
            self.state = msg
            self._add_moves(stake_lines(prev, msg))
            self._confirm_wild = None
            self._maybe_close_settlement()
            self.redraw()
        elif kind == "room":
            self.room = msg
            if self.state is None:
                players = ", ".join(p.get("name", "?") for p in msg.get("players") or [])
                self.query_one("#status", Static).update(
                    Text(f"Room {msg.get('room')}: {msg.get('status')} · players: {players}", "bold"))
                if msg.get("status") == "waiting":
                    self.query_one("#log", Static).update("Waiting for the host to start the match…")
        elif kind == "events":
            names = (self.state or {}).get("names") or [f"seat {s}" for s in range(4)]
            for ev in msg.get("events") or []:
                if ev.get("type") == "dahai":
                    self.last_discarder = ev.get("actor")
                elif ev.get("type") == "start_kyoku":
                    self.last_discarder = None
                line = event_line(ev, names, self.ascii, (self.state or {}).get("you"))
                if line:
                    self.log_lines = [*self.log_lines[-3:], line]
            self._add_moves([])
        elif kind == "settlement":
            self.settlement = msg
            self.settlements.append(msg)
            self._close_hint()
            you = (self.state or {}).get("you")
            self.push_screen(SettlementScreen(msg, self.ascii, you), self._settlement_closed)
        elif kind == "hint":
            self.hint = msg
            panel = self.query_one("#hint", _Panel)
            self.query_one("#hint-text", Static).update(hint_text(msg, self.ascii))
            panel.add_class("shown")
        elif kind in ("error", "timed_out"):
            text = msg.get("message") or (f"time ran out: the bot chose {msg.get('action')}"
                                          if kind == "timed_out" else msg.get("code", "error"))
            self.notify(str(text), severity="error" if kind == "error" else "warning", timeout=4)
            if msg.get("code") in ("bad_token", "no_room", "replaced"):
                self.error = str(text)
                self.exit(self._result(), return_code=1)
        elif kind == "record":
            self.record_saved = msg.get("path")
        elif kind == "closed" and (self.state is None or self.state.get("status") != "over"):
            self.error = str(msg.get("message") or "the connection closed")
            self.exit(self._result(), return_code=1)

    def _add_moves(self, lines: list[str]) -> None:
        """Add lines to the last moves (three are shown) and show them."""
        self.log_lines = [*self.log_lines, *lines][-4:]
        if self._table_ready:
            self.query_one("#log", Static).update(" · ".join(self.log_lines[-3:]))

    def _maybe_close_settlement(self) -> None:
        """A remote table goes on by itself after its pause: a new hand closes the settlement."""
        st = self.state
        if st is None or self.settlement is None or st.get("paused") or st.get("status") != "playing":
            return
        if st["obs"].get("hand_number", 0) > self.settlement["hand"] and isinstance(self.screen, SettlementScreen):
            self.screen.dismiss(None)

    def _settlement_closed(self, _: None) -> None:
        msg = self.settlement
        if msg is not None and msg.get("over"):
            self.exit(self._result())
            return
        self.settlement = None
        asyncio.get_running_loop().create_task(self.source.next_hand())

    def _result(self) -> dict[str, Any]:
        st = self.state or {}
        obs = st.get("obs") or {}
        return {"scores": obs.get("scores"), "names": st.get("names"), "over": st.get("status") == "over",
                "record": self.record_saved or self.source.record_path, "error": self.error,
                "hands": len(self.settlements)}

    # ---- drawing ------------------------------------------------------------------------------

    @property
    def legal(self) -> list[str]:
        return list((self.state or {}).get("legal") or [])

    def legal_discards(self) -> set[str]:
        return {a.split()[1] for a in self.legal if a.startswith("discard ")}

    def redraw(self) -> None:
        st = self.state
        if st is None or not self._table_ready:
            return
        obs = st["obs"]
        you = st.get("you")
        self.query_one("#info", Static).update(info_line(st, self.ascii))
        seats = list(range(4))
        order = [(you + i) % 4 for i in (1, 2, 3)] if you is not None else seats[:3]
        if obs.get("seats"):
            for i, s in enumerate(order):
                self.query_one(f"#seat{i}", Static).update(seat_block(st, s, self.last_discarder, self.ascii))
            me = you if you is not None else 3
            self.query_one("#you", Static).update(seat_block(st, me, self.last_discarder, self.ascii))
        else:  # 坐庄/拉庄 before the deal: no tiles yet
            for i, s in enumerate(order):
                self.query_one(f"#seat{i}", Static).update(seat_block(st, s, None, self.ascii))
            self.query_one("#you", Static).update(
                seat_block(st, you, None, self.ascii) if you is not None else "")
        self.query_one("#status", Static).update(window_line(st, self.ascii))
        tiles = hand_order(obs)
        if tiles:
            self.cursor = max(0, min(self.cursor, len(tiles) - 1))
            self.query_one("#hand", Static).update(hand_line(obs, self.cursor if self.legal_discards() else None,
                                                             self.legal_discards(), self.ascii))
        else:
            self.query_one("#hand", Static).update("")
        self._draw_actions()

    def _draw_actions(self) -> None:
        st = self.state or {}
        choices = action_choices(self.legal)
        parts = []
        if "enter" in choices:
            tiles = hand_order(st.get("obs") or {})
            sel = tiles[self.cursor] if 0 <= self.cursor < len(tiles) else None
            if sel:
                from .glyphs import tile_text
                parts.append(f"[⏎] discard {tile_text(sel, self.ascii).rstrip()}")
        for key, actions in choices.items():
            if key != "enter":
                parts.append(action_label(key, actions, st.get("win_preview")))
        if self._confirm_wild:
            parts.insert(0, f"{self._confirm_wild} is a wild (小相公 if you discard it): Enter again to discard")
        self.query_one("#actions", Static).update(Text("  ".join(parts), "bold" if parts else ""))

    # ---- keys ---------------------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        tiles = hand_order((self.state or {}).get("obs") or {})
        if not tiles:
            return
        self.cursor = max(0, min(len(tiles) - 1, self.cursor + step))
        self._confirm_wild = None
        self.redraw()

    def _send(self, action: str, version: int | None = None) -> None:
        """Send ``action`` for the state on show (or ``version``, the state a choice was opened on)."""
        self._confirm_wild = None
        if version is None:
            version = int((self.state or {}).get("version") or 0)
        asyncio.get_running_loop().create_task(self.source.act(action, version))

    def _choose(self, key: str, actions: list[str]) -> None:
        version = int((self.state or {}).get("version") or 0)  # the choice answers the state it was offered in
        if len(actions) == 1:
            self._send(actions[0], version)
            return

        def picked(action: str | None) -> None:
            self._choosing = False
            if action is not None:
                self._send(action, version)

        self._choosing = True
        self.push_screen(ChoiceScreen(f"Which {actions[0].split()[0]}?", actions, self.ascii), picked)

    def on_key(self, event: events.Key) -> None:
        if self.screen is not self.screen_stack[0] or self.state is None:
            return
        choices = action_choices(self.legal)
        key = event.key
        if key == "enter":
            event.stop()
            self._discard_selected()
            return
        if key in ("space", "n") and "space" in choices:
            event.stop()
            self._choose("space", choices["space"])
            return
        if key == "h" and "h" in choices:  # 混儿悠 with the selected tile, if it may be
            event.stop()
            tiles = hand_order(self.state["obs"])
            sel = tiles[self.cursor] if 0 <= self.cursor < len(tiles) else None
            mine = [a for a in choices["h"] if a == f"hunyou {sel}"]
            self._choose("h", mine or choices["h"])
            return
        if key in choices and key not in ("enter", "space"):
            event.stop()
            self._choose(key, choices[key])
            return
        if event.character and event.character.isdigit():  # a sit/pull level directly
            for a in self.legal:
                if a.split()[0] in ("sit", "pull") and a.split()[1] == event.character:
                    event.stop()
                    self._send(a)
                    return

    def _discard_selected(self) -> None:
        st = self.state or {}
        obs = st.get("obs") or {}
        tiles = hand_order(obs)
        legal = self.legal_discards()
        if not legal:
            if self.legal:
                self.notify("not a discard now: see the keys below", timeout=2)
            return
        if not 0 <= self.cursor < len(tiles):
            return
        tile = tiles[self.cursor]
        if tile not in legal:
            self.notify(f"{tile} may not be discarded now", severity="warning", timeout=2)
            return
        view = termview((st.get("rules") or {}).get("family", ""))
        wild = tile in (obs.get("wilds") or []) and view is not None and view.CONFIRM_WILD_DISCARD
        if wild and self._confirm_wild != tile:  # R2: a discarded wild makes you 小相公: ask first
            self._confirm_wild = tile
            self._draw_actions()
            return
        self._send(f"discard {tile}")

    def action_hint(self) -> None:
        panel = self.query_one("#hint", _Panel)
        if panel.has_class("shown"):
            panel.remove_class("shown")
            return
        self.query_one("#hint-text", Static).update(Text("Hints: thinking…", "bold"))
        panel.add_class("shown")
        asyncio.get_running_loop().create_task(self.source.request_hint())

    def _close_hint(self) -> None:
        if self._table_ready:
            self.query_one("#hint", _Panel).remove_class("shown")

    def action_close_hint(self) -> None:
        self._close_hint()

    def action_quit_table(self) -> None:
        if self.state is not None and self.state.get("status") == "over":
            self.exit(self._result())
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.exit(self._result())

        self.push_screen(ConfirmScreen("Quit the match? The hands played so far are saved."), answer)

    async def on_unmount(self) -> None:
        await self.source.close()
        if self._task is not None and not self._task.done():
            self._task.cancel()
