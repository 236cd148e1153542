"""Rule options (R2–R9): presets, overrides, errors naming the option."""

import dataclasses

import pytest

from tjmj import CLASSIC, YIYOU, Rules, RulesError
from tjmj.rules import FAMILIES, PRESETS, BeijingRules


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
    with pytest.raises(RulesError, match="unknown rule preset 'shanghai'; presets are classic, yiyou, beijing"):
        Rules.preset("shanghai")


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_option_is_described(family):
    cls = FAMILIES[family]
    names = {f.name for f in dataclasses.fields(cls)} - {"name"}
    assert names == set(cls.describe())
    for _allowed, section, meaning in cls.describe().values():
        assert section[0] == {"tianjin": "R", "beijing": "B", "mcr": "M"}[family] and meaning


def test_beijing_presets_follow_the_two_versions_of_seed_004():
    b, a = Rules.preset("beijing"), Rules.preset("beijing_a")
    assert isinstance(b, BeijingRules) and b.family == a.family == "beijing"
    # B2, B3, B5, B6: version B has one wild kind, one claim per hand, multiplying 番, 混儿悠, 上楼
    assert (b.wilds, b.max_claims, b.claimed_self_draw_only, b.hunyou, b.scoring, b.upstairs) == (
        True, 1, True, True, "multiply", True)
    # version A: no wilds, free claims, additive fan, 包三家, 互包 at three melds, 烧庄 doubling and following a wind
    assert (a.wilds, a.max_claims, a.claimed_self_draw_only, a.hunyou, a.scoring, a.discard_pays) == (
        False, 0, False, False, "add", "discarder")
    assert (a.mutual_liability, a.shaozhuang_doubling, a.shaozhuang_follow_wind, a.upstairs) == (3, True, True, False)
    assert b.reserve_stacks == a.reserve_stacks == 7  # B1
    with pytest.raises(RulesError, match="unknown rule option 'min_fan' for beijing rules"):
        Rules.preset("beijing", min_fan=2)  # a Tianjin option is no Beijing option


def test_rules_carry_their_family_through_dicts():
    for preset in PRESETS:
        r = Rules.preset(preset)
        d = r.to_dict()
        assert d["family"] == r.family and d["preset"] == preset and Rules.from_dict(d) is r
    custom = Rules.preset("beijing", cap=64)
    assert custom.name == "beijing+custom" and Rules.from_dict(custom.to_dict()) == custom
    # a record made before families existed has no "family": its presets are Tianjin's
    old = {k: v for k, v in CLASSIC.to_dict().items() if k != "family"}
    assert Rules.from_dict(old) is CLASSIC
    assert Rules.from_dict({"family": "beijing"}) is Rules.preset("beijing")
    with pytest.raises(RulesError, match="preset 'classic' is of the tianjin family, not beijing"):
        Rules.from_dict({"family": "beijing", "preset": "classic"})
    with pytest.raises(RulesError, match="unknown rule family 'shanghai'"):
        Rules.from_dict({"family": "shanghai"})
