"""Rule options (R2–R9): presets, overrides, errors naming the option."""

import dataclasses

import pytest

from tjmj import CLASSIC, YIYOU, Rules, RulesError


def test_classic_defaults():
    r = Rules.preset("classic")
    assert r is CLASSIC
    assert (r.wild_kinds, r.min_fan, r.suben, r.tianhu, r.gold_kong_points) == (2, 2, False, "flat", 8)
    assert (r.max_pull, r.chan_units, r.last_tiles_no_claim, r.wild_method) == (1, 1, 0, "dice")


def test_yiyou_preset_follows_seed_001():
    assert (YIYOU.suben, YIYOU.tianhu, YIYOU.gold_kong_points) == (True, "best_x4", 4)
    assert (YIYOU.max_pull, YIYOU.chan_units, YIYOU.last_tiles_no_claim) == (2, 2, 4)


def test_overrides_and_frozen():
    r = Rules.preset("yiyou", min_fan=1, wild_kinds=3)
    assert r.min_fan == 1 and r.wild_kinds == 3 and r.suben
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.min_fan = 2  # type: ignore[misc]
    assert Rules.from_dict({"preset": "yiyou", "min_fan": 1}) == r.replace(wild_kinds=2)
    assert Rules.from_dict(r.to_dict()) == r
    assert r.name == "yiyou+custom"
    assert r.replace(min_fan=2, wild_kinds=2) is YIYOU  # back to the plain preset
    assert Rules.preset("classic").replace() is CLASSIC


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"min_fann": 1}, "unknown rule option 'min_fann'"),
        ({"wild_kinds": 4}, "wild_kinds"),
        ({"tianhu": "double"}, "tianhu"),
        ({"suben": 1}, "suben"),
        ({"max_pull": -1}, "max_pull"),
        ({"min_fan": True}, "min_fan"),
    ],
)
def test_bad_options_are_named(overrides, fragment):
    with pytest.raises(RulesError, match=fragment):
        Rules.preset("classic", **overrides)


def test_unknown_preset():
    with pytest.raises(RulesError, match="unknown rule preset 'beijing'"):
        Rules.preset("beijing")


def test_every_option_is_described():
    names = {f.name for f in dataclasses.fields(Rules)} - {"name"}
    assert names == set(Rules.describe())
