"""The terminal table's lines as a person reads them (issue 34): who sat (坐庄) and pulled (拉庄) all
hand long, the last moves of this hand only, "You discard" rather than "You discards".

The whole-match and claim tests are in tests/test_tui.py; these drive the same app and its pure
render functions (src/tjmj/tui/render.py).
"""

from __future__ import annotations

from typing import Any

from tjmj.game import Action, Match
from tjmj.rules import Rules
from tjmj.tui.render import seat_block

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

