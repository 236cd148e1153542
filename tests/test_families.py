"""The family seam (issue 10): the registry, Match(rules) per family, and Tianjin unchanged by it.

``tests/data/tianjin_before_families.jsonl`` holds eight three-hand matches (one per option set:
flip, 打风, pots, three wild kinds, penalties, …) that the engine recorded before the seam existed,
with greedy, baseline, random and strong bots.  They must replay event for event, and the same bots
must make the same records today.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tjmj import families
from tjmj.bots import make_bot
from tjmj.bots.strong import StrongBot
from tjmj.game import Match
from tjmj.record import read_records, replay
from tjmj.rules import PRESETS, Rules, RulesError

OLD = Path(__file__).with_name("data") / "tianjin_before_families.jsonl"


def test_the_registry_finds_families_by_name_and_preset():
    assert [f.name for f in families.all_families()] == ["tianjin", "beijing", "mcr"]
    tj = families.get("tianjin")
    assert tj.chinese == "天津麻将" and tj.section == "R" and tj.presets == ["classic", "yiyou"]
    assert families.find_family("beijing_a").name == "beijing" and families.get("beijing").presets == [
        "beijing", "beijing_a"]
    assert families.find_family("yiyou") is tj and tj.default_rules is Rules.preset("classic")
    with pytest.raises(RulesError, match="unknown rule family 'shanghai'"):
        families.get("shanghai")
    with pytest.raises(RulesError, match="unknown rule preset 'shanghai'"):
        families.find_family("shanghai")


@pytest.mark.parametrize("preset", [p for p in PRESETS if PRESETS[p].family == "tianjin"])
def test_match_is_the_family_subclass(preset):
    m = Match(Rules.preset(preset), seed=1)
    assert type(m) is families.match_type("tianjin") and m.family == "tianjin"
    assert m.events[0]["rules"]["family"] == "tianjin"


def test_records_made_before_the_seam_replay_event_for_event():
    matches = list(read_records(OLD))
    assert len(matches) == 8 and all("family" not in m[0]["rules"] for m in matches)
    for events in matches:
        res = replay(events)
        assert res.ok, res.summary()


def test_the_same_bots_make_the_same_records_as_before():
    """The old file was made by tests/data's recipe: bots greedy, baseline, random, strong by seat,
    seed 100 + i, rng seed i; today's engine must decide and record exactly the same."""
    for i, old in enumerate(read_records(OLD)):
        rules = Rules.from_dict(old[0]["rules"])
        m = Match(rules, seed=old[0]["seed"])
        # strong as it was then: revive (its dead ready hands valued by the draws that revive them)
        # came later and changes its decisions, not the engine's
        bots = [make_bot("greedy"), make_bot("baseline"), make_bot("random"), StrongBot(revive=0)]
        rng = random.Random(i)
        while not m.is_over:
            s = m.to_act
            m.apply(s, bots[s].choose(m.observation(s), m.legal_actions(s), rng))
        new = [dict(e) for e in m.events]
        new[0] = {**new[0], "rules": {k: v for k, v in new[0]["rules"].items() if k != "family"}}
        assert new == old, f"match {i} differs"
