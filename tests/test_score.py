"""The fast scorer on the worked cases of RULES.md (R5.4, R10), options (R5.2, R5.5) and bad input."""

import random

import pytest

from tjmj import Flag, InvalidHand, Rules, RulesError, TileError, score
from tjmj.families.tianjin.elements import ARRANGEMENT_ELEMENTS, combination_name, fan_of
from tjmj.families.tianjin.samples import random_complete_hand
from tjmj.families.tianjin.score import Scorer
from tjmj.tiles import counts_of

from .cases import ALL, R5_4, case_id


def rescore(arr) -> tuple[int, int]:
    """The arrangement's fan by the element classes alone (independent of the fast path)."""
    flags = 0
    for e in ARRANGEMENT_ELEMENTS:
        if e.is_condition_met(arr):
            flags |= e.flag
    return fan_of(flags), flags


def check_arrangement(r) -> None:
    arr = r.arrangement
    h = r.hand
    concealed = sorted(t for g in arr.groups if not g.exposed for t in g.tiles)
    assert concealed == sorted(list(h.concealed) + [h.draw])
    assert sum(g.is_meld for g in arr.groups) == 4 and sum(not g.is_meld for g in arr.groups) == 1
    for g in arr.groups:
        for t, p, w in zip(g.tiles, g.plays, g.wild):
            assert w == (t in h.wilds)
            assert w or t == p  # only wilds play another kind
        if g.kind == "sequence":
            assert g.plays[0] < 27 and g.plays[0] // 9 == g.plays[2] // 9
            assert list(g.plays) == [g.plays[0], g.plays[0] + 1, g.plays[0] + 2]
        elif g.kind in ("pair", "triplet"):
            assert len(set(g.plays)) == 1
    assert sum(g.winning is not None for g in arr.groups) == 1
    assert rescore(arr) == (r.fan, int(r.flags)), (str(arr), r.codes)


@pytest.mark.parametrize("row", ALL, ids=case_id)
def test_worked_cases(row):
    section, name, hand, draw, ind, melds, kong_draw, fan, win = row
    r = score(hand, draw, ind, melds, kong_draw=kong_draw)
    assert r.complete
    assert (r.fan, r.win) == (fan, win), (section, r.name, r.codes)
    if win and name not in ("混儿吊",):
        assert r.name == name
    check_arrangement(r)


def test_r5_4_explanations():
    dead = score(*R5_4[0][2:6])
    assert dead.name == "提溜" and "死提溜" in dead.reason and not dead.win
    # a drawn wild pairing a non-wild single is not 混儿吊 (R5.1)
    r = score("123m456p789s111s9s", "4p", "4p")
    assert not r.flags & Flag.HUNDIAO and r.fan == 1
    # 条 dragon with 1p wilds: not 本混儿 (R5.4)
    r = score("1p1p2p13s456s789s66z", "5m", "1p")
    assert r.codes == ["HUNDIAO", "ZHUOWU", "LONG"]


def test_double_hundiao_name_r5_3():
    # three melds + a pair + two wilds: any draw makes a meld with the two wilds (双混儿吊)
    r = score("123m456p789s11z1p2p", "7z", "1p")
    assert r.flags == Flag.HUNDIAO and r.fan == 2
    # a pair is the winning tile + a wild (单混儿吊): plain 混儿吊
    assert score("123m678p999p234s4p", "7z", "4p").name == "混儿吊"


def test_incomplete():
    r = score("123m456p789s1357z", "2z", "9m")
    assert not r.complete and not r.win and r.fan == 0 and "not complete" in r.reason
    assert r.arrangement is None


def test_min_fan_option_r5_2():
    args = ("123m678p999p3s4p22z", "2s", "4p")
    assert not score(*args).win
    assert score(*args, rules=Rules.preset("classic", min_fan=1)).win
    r = score("123m456p789s111s4p", "9s", "4p", rules=Rules.preset("classic", min_fan=4))
    assert not r.win and "below min_fan 4" in r.reason


def test_hundiao_alone_option_r5_2():
    off = Rules.preset("classic", hundiao_alone_wins=False)
    r = score("123m678p999p234s4p", "7z", "4p", rules=off)
    assert r.complete and r.fan == 2 and not r.win and "混儿吊 alone" in r.reason
    # 混儿吊 with another element still wins
    assert score("5m6m6m123s46s89s234p", "3z", "5m", rules=off).win


def test_su_and_gangkai_r5_1():
    r = score("123m678p3s4s22z", "2s", "7z", "[9999p]", kong_draw=True)
    assert r.codes == ["GANGKAI", "SU"] and r.fan == 4 and r.name == "没混儿杠开"
    # a gold kong (concealed kong of a wild kind) holds wilds: not 没混儿
    r = score("123m678p3s4s22z", "2s", "6z", "(7777z)")
    assert r.complete and r.fan == 1 and not r.flags & Flag.SU


def test_suben_r5_1():
    # 本混儿龙 in 饼 whose only wilds are one 4p and one 5p playing themselves
    hand, draw, ind = "123456789p11z22s", "2s", "4p"
    classic = score(hand, draw, ind)
    assert classic.codes == ["BENHUN", "LONG"] and classic.fan == 8
    yiyou = score(hand, draw, ind, rules=Rules.preset("yiyou"))
    assert yiyou.codes == ["BENHUN", "SUBEN", "LONG"] and yiyou.fan == 16 and yiyou.name == "素本龙"
    check_arrangement(yiyou)
    # 素本伍龙: 万 dragon, wilds 4m 5m, the winning 5m plays itself
    r = score("12346789m111z22s", "5m", "4m", rules=Rules.preset("yiyou"))
    assert r.fan == 28 and r.name == "素本伍龙"
    # two copies of a wild kind: not 素本
    assert score("123456789p1z4p22s", "1z", "4p", rules=Rules.preset("yiyou")).fan == 8


def test_tianhu_r5_5():
    hand, draw = "123m456p789s111s9s", "4p"  # 死提溜 shape
    flat = score(hand, draw, "4p", tianhu=True)
    assert flat.win and flat.fan == 4 and flat.codes == ["TIANHU"] and flat.name == "天胡"
    best = score(hand, draw, "4p", tianhu=True, rules=Rules.preset("yiyou"))
    # best_x4: any tile may be the winning tile; a wild then pairs 9s... best is 混儿吊 (2) × 4
    assert best.win and best.fan == 4 * 2 and "TIANHU" in best.codes
    assert not score("123m456p789s1357z", "2z", "9m", tianhu=True).win


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        (dict(hand="123m456p789s111s", draw="9s", indicator="4p"), "12 concealed tiles"),
        (dict(hand="1111m456p789s111s", draw="1m", indicator="4p"), "5 copies of 1m"),
        (dict(hand="111m456p789s11s1z2z", draw="1m", indicator="1m"), "indicator counts as one"),
        (dict(hand="123m456p789s1s", draw="1s", indicator="4p", melds="[444p]"), "wild kind 4p"),
        (dict(hand="123m456p789s1s", draw="1s", indicator="4p", melds="[5555p]"), "wilds cannot be ponged"),
        (dict(hand="123m456p789s11x", draw="1s", indicator="4p"), "invalid character 'x'"),
        (dict(hand="123m456p789s111s", draw="9s9s", indicator="4p"), "draw must be exactly one tile"),
        (dict(hand="123m456p789s111s2z", draw="9s", indicator="4p", kong_draw=True), "kong_draw"),
    ],
)
def test_bad_input_is_named(kwargs, fragment):
    with pytest.raises(TileError, match=fragment):
        score(**kwargs)


def test_bad_input_exceptions_are_value_errors():
    assert issubclass(InvalidHand, ValueError) and issubclass(RulesError, ValueError)


def test_combination_names_r5_3():
    F = Flag
    table = {
        "杠开混儿吊": F.GANGKAI | F.HUNDIAO,
        "没混儿杠开": F.GANGKAI | F.SU,
        "杠开捉伍儿": F.GANGKAI | F.ZHUOWU,
        "没混儿伍儿": F.SU | F.ZHUOWU,
        "捉伍儿龙": F.LONG | F.ZHUOWU,
        "本混儿龙": F.LONG | F.BENHUN,
        "混儿吊龙": F.LONG | F.HUNDIAO,
        "没混儿龙": F.LONG | F.SU,
        "杠开龙": F.LONG | F.GANGKAI,
        "杠开素捉伍儿": F.GANGKAI | F.SU | F.ZHUOWU,
        "没混儿捉伍儿龙": F.LONG | F.ZHUOWU | F.SU,
        "捉伍儿本混儿龙": F.LONG | F.ZHUOWU | F.BENHUN,
        "杠开捉伍儿龙": F.LONG | F.ZHUOWU | F.GANGKAI,
        "混儿吊本混儿龙": F.LONG | F.HUNDIAO | F.BENHUN,
        "杠开混儿吊龙": F.LONG | F.HUNDIAO | F.GANGKAI,
        "杠开本混儿龙": F.LONG | F.BENHUN | F.GANGKAI,
        "杠开素龙": F.LONG | F.SU | F.GANGKAI,
        "杠开素捉伍儿龙": F.LONG | F.ZHUOWU | F.SU | F.GANGKAI,
        "杠开混儿吊本混儿龙": F.LONG | F.HUNDIAO | F.BENHUN | F.GANGKAI,
    }
    for name, flags in table.items():
        assert combination_name(flags) == name
    double = {
        "双混儿伍儿": (F.HUNDIAO | F.ZHUOWU, 6),
        "杠开双混儿捉伍儿": (F.GANGKAI | F.HUNDIAO | F.ZHUOWU, 12),
        "双混儿捉伍儿龙": (F.LONG | F.ZHUOWU | F.HUNDIAO, 14),
        "双混儿捉伍儿本混儿龙": (F.LONG | F.ZHUOWU | F.HUNDIAO | F.BENHUN, 28),
    }
    for name, (flags, fan) in double.items():
        assert combination_name(flags, double_hundiao=True) == name and fan_of(flags) == fan
    # R5.3's values
    assert fan_of(F.LONG | F.HUNDIAO | F.BENHUN | F.GANGKAI) == 32
    assert fan_of(F.LONG | F.ZHUOWU | F.SU | F.GANGKAI) == 28


def test_scorer_matches_score_on_random_complete_hands():
    rng = random.Random(7)
    for _ in range(1500):
        h = random_complete_hand(rng, max_melds=2)
        r = score(h.concealed, h.draw, h.indicator, h.melds, kong_draw=h.kong_draw)
        sc = Scorer(h.indicator)
        gold = sum(1 for m in h.melds if m.type.value == "ankong" and m.tile in sc.wilds)
        counts = counts_of(list(h.concealed) + [h.draw])
        assert sc.is_complete(counts) == r.complete
        got = sc.evaluate(counts, h.draw, len(h.melds), gold, h.kong_draw)
        assert got == ((r.fan, int(r.flags)) if r.complete else None)
        if r.complete:
            assert sc.can_win(*got) == r.win
            check_arrangement(r)


def test_hundiao_dragon_with_an_exposed_meld_r5_1():
    # dragon (3 melds) + 混儿吊 pair + one pon: 11 concealed tiles
    r = score("123456789s4p", "1z", "4p", "[777z]")
    assert r.fan == 8 and r.name == "混儿吊龙"
    check_arrangement(r)


def test_scorer_is_complete_on_random_and_near_complete_hands():
    """The early-exit completeness check agrees with the full evaluation (R5)."""
    from tjmj.families.tianjin.samples import random_hand

    rng = random.Random(9)
    for i in range(3000):
        wk = rng.choice((1, 2, 2, 3))  # the check is built per set of wild kinds (R2)
        h = random_hand(rng) if i % 2 else random_complete_hand(rng, max_melds=0, wild_kind_count=wk)
        counts = counts_of(list(h.concealed) + [h.draw])
        if i % 4 == 0:  # swap one tile: near-complete hands exercise every early exit
            k = rng.choice([k for k in range(34) if counts[k]])
            j = rng.choice([j for j in range(34) if counts[j] < 3 and j != h.indicator])
            counts[k] -= 1
            counts[j] += 1
        sc = Scorer(h.indicator, Rules.preset("classic", wild_kinds=wk))
        win = h.draw if counts[h.draw] else next(k for k in range(34) if counts[k])
        assert sc.is_complete(counts) == (sc.evaluate(counts, win) is not None)


@pytest.mark.parametrize("bad", [34, -1, True, 2.0])
def test_hand_as_kinds_names_a_bad_kind(bad):
    """Kinds 0..33 are read directly; anything else is named, and nothing is scored."""
    with pytest.raises(TileError, match="tile kind must be an int 0..33, got " + repr(bad).replace(".", r"\.")):
        score([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, bad], 5, 4)
    assert score([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 5, 4).complete
