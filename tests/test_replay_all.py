"""Every record self-play writes replays exactly (R3–R9 determinism), across presets, options and bots."""

import pytest

from tjmj.record import read_records, replay
from tjmj.rules import Rules
from tjmj.simulate import simulate

VARIANTS = {
    "classic": Rules.preset("classic"),
    "yiyou": Rules.preset("yiyou"),
    "flip-pot-penalty": Rules.preset("classic", wild_method="flip", settlement="pot", pot_stake=30,
                                     wild_discard_penalty=1, max_pull=2),
    "forced-3wilds-min1": Rules.preset("yiyou", forced_sit=True, wild_kinds=3, min_fan=1, seating="dafeng"),
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_self_play_records_replay(tmp_path, name):
    out = tmp_path / "records.jsonl"
    summary = simulate(hands=60, seed=11, rules=VARIANTS[name], bots="baseline,random,greedy,baseline", out=out,
                       hands_per_match=20)
    matches = list(read_records(out))
    assert len(matches) == summary.matches == 3
    for events in matches:
        result = replay(events)
        assert result.ok, result.divergence
