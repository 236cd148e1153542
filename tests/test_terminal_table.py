"""The terminal table's lines as a person reads them (issue 34): who sat (坐庄) and pulled (拉庄) all
hand long, the last moves of this hand only, "You discard" rather than "You discards".

The whole-match and claim tests are in tests/test_tui.py; these drive the same app and its pure
render functions (src/tjmj/tui/render.py).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from tests.test_tui import PlanBot
from tjmj.game import Action, Match
from tjmj.rules import Rules
from tjmj.tui import render
from tjmj.tui.app import SettlementScreen, TableApp, screen_text
from tjmj.tui.render import event_line, seat_block
from tjmj.tui.source import LocalTable

NAMES = ["You", "Bot 1", "Bot 2", "Bot 3"]


def _state(m: Match, seat: int) -> dict[str, Any]:
    obs = m.observation(seat)
    return {"obs": obs, "names": NAMES, "you": seat, "to_act": obs["to_act"], "rules": {"family": "tianjin"}}


def _sat_and_pulled() -> tuple[Match, list[dict[str, Any]]]:
    """A classic hand where the dealer sits, the next seat pulls twice and the others pull nothing;
    the states seen by seat 0 after each decision."""
    m = Match(Rules.preset("classic", max_pull=2), seed=11, names=NAMES)
    states = [_state(m, 0)]
    assert m.phase == "sit"
    m.apply(m.dealer, Action.parse("sit 1"))
    states.append(_state(m, 0))
    puller = (m.dealer + 1) % 4
    while m.phase == "pull":
        m.apply(m.actor, Action.parse("pull 2" if m.actor == puller else "pull 0"))
        states.append(_state(m, 0))
    assert m.phase == "turn"
    return m, states


def test_the_seat_line_shows_who_sat_and_pulled_during_the_hand() -> None:
    m, states = _sat_and_pulled()
    during = states[-1]  # the hand is dealt: R7's stakes hold for the whole hand
    dealer, puller = m.dealer, (m.dealer + 1) % 4
    assert "坐庄 sat" in seat_block(during, dealer, None).plain
    assert "拉庄×2 pulled" in seat_block(during, puller, None).plain
    for s in range(4):
        if s not in (dealer, puller):
            line = seat_block(during, s, None).plain
            assert "坐庄" not in line and "拉庄" not in line, line
    # before the dealer decides nothing is shown; after it, the pull prompt shows the sit
    assert "坐庄" not in seat_block(states[0], dealer, None).plain
    assert "坐庄 sat" in seat_block(states[1], dealer, None).plain


def test_the_sit_and_the_pulls_are_logged() -> None:
    m, states = _sat_and_pulled()
    lines = [line for a, b in zip(states, states[1:]) for line in render.stake_lines(a, b)]
    dealer, puller = m.dealer, (m.dealer + 1) % 4
    who = {s: "You" if s == 0 else NAMES[s] for s in range(4)}
    sits = "sit" if dealer == 0 else "sits"
    pulls = "pull" if puller == 0 else "pulls"
    assert lines == [f"{who[dealer]} {sits} (坐庄)", f"{who[puller]} {pulls} ×2 (拉庄)"]


def test_your_own_moves_read_you_discard() -> None:
    ev = {"type": "dahai", "actor": 0, "pai": "8s"}
    assert event_line(ev, NAMES, ascii=True, you=0) == "You discard 8s"
    assert event_line(ev, NAMES, ascii=True, you=1) == "You discards 8s"  # another seat named "You"
    assert event_line({**ev, "actor": 2}, NAMES, ascii=True, you=0) == "Bot 2 discards 8s"
    assert event_line({"type": "pon", "actor": 0, "pai": "1m"}, NAMES, ascii=True, you=0) == "You pon 1m"
    assert event_line({"type": "hora", "actor": 0}, NAMES, you=0) == "You win!"
    assert event_line({"type": "hora", "actor": 3}, NAMES, you=0) == "Bot 3 wins!"


def test_the_pull_prompt_shows_no_moves_of_the_last_hand(tmp_path: Path) -> None:
    """After the first hand's settlement, the next hand's 拉庄 question comes with an empty log:
    the last hand's moves are in its settlement, not under the new question."""
    rules = Rules.preset("classic", match_hands=2)
    source = LocalTable(rules, seed=7, bot_delay=0, record=str(tmp_path / "r.jsonl"),
                        bot_factory=lambda name: PlanBot())
    assert source.match.dealer != source.seat  # seed 7: you are asked to pull, not to sit

    async def go() -> tuple[str, list[str]]:
        app = TableApp(source, ascii=True)
        async with app.run_test(size=(100, 30)) as pilot:
            deadline = time.monotonic() + 40
            settled = False
            while time.monotonic() < deadline:
                await pilot.pause()
                st = app.state or {}
                legal = st.get("legal") or []
                if isinstance(app.screen, SettlementScreen):
                    settled = True
                    await pilot.press("enter")
                elif settled and "pull 0" in legal:
                    return screen_text(app), list(app.log_lines)
                elif "win" in legal:
                    await pilot.press("w")
                elif any(a.startswith("discard ") for a in legal):
                    await pilot.press("enter")
                    if app._confirm_wild:
                        await pilot.press("enter")
                elif legal:
                    await pilot.press("space")
                else:
                    await asyncio.sleep(0.005)
        raise AssertionError("no second hand's pull question in time")

    screen, log = asyncio.run(go())
    assert source.match.hand_number == 1
    assert "Pull (拉庄)" in screen
    assert not any("discard" in line or "win" in line or "drawn hand" in line for line in log), log
    assert " discards " not in screen and "wins!" not in screen and "drawn hand" not in screen, screen

