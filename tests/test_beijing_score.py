"""The Beijing scorer (tjmj.families.beijing.score) on docs/rules/BEIJING.md: the B8 worked cases,
every B5 element shown and just missed in each column where it exists, 七对子 / 豪华七对子, 捉五魁's
wait rule, 本混儿龙, B3's claimed-hand rule, version A's halving, the cap, the flat hands, B6's
payments and bad input.  Every case is also checked against the reference enumerator."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from tjmj.families.beijing.elements import (
    ADD,
    ELEMENTS,
    MULTIPLY,
    BeijingArrangement,
    Situation,
    WinContext,
    met_flags,
    resolve,
    value_of,
)
from tjmj.families.beijing.reference import reference_other_wait, reference_score
from tjmj.families.beijing.rules import BEIJING, BEIJING_A, BeijingRules
from tjmj.families.beijing.score import (
    BeijingHand,
    BeijingResult,
    BeijingScorer,
    InvalidBeijingHand,
    prepare_beijing,
    score_beijing,
    score_input,
)
from tjmj.hand import InvalidHand
from tjmj.meld import Meld, MeldType
from tjmj.rules import CLASSIC, RulesError
from tjmj.tiles import Tile, TileError, counts_of, parse_tiles

B = BEIJING
A = BEIJING_A
AW: BeijingRules = BEIJING_A.replace(wilds=True)  # type: ignore[assignment]  # version A's fan with a wild


def hand_of(hand: str, win: str, melds: str = "", ind: str | None = "1z", rules: BeijingRules = B,
            **ctx: bool) -> BeijingHand:
    return prepare_beijing(hand, win, melds=melds, indicator=ind, rules=rules, context=WinContext(**ctx))


def check(h: BeijingHand) -> BeijingResult:
    """Score a hand, and check the fast path against the reference: completeness, value, elements,
    the win, the fast evaluation, and the arrangement re-scored by the element classes alone."""
    r = score_input(h)
    ref = reference_score(h)
    assert r.complete == (ref is not None), h.describe()
    if ref is not None:
        assert (r.value, r.flags) == (ref[0], ref[1]), (h.describe(), r.codes, ref[2] and str(ref[2]))
    scorer = BeijingScorer(h.indicator, h.rules)
    assert h.draw is not None
    ev = scorer.evaluate(h.counts, h.draw, h.melds, h.context)
    assert ev == ((r.win, r.value) if r.complete else None)
    if r.complete and r.struct != ("declared",):
        arr = r.arrangement
        assert arr is not None
        sit = Situation(h.context, h.rules, h.wild, h.draw == 4 and h.wild != 4 and reference_other_wait(h))
        flags = resolve(met_flags(arr, sit), h.rules.scoring)
        assert (value_of(flags, h.rules.scoring, h.rules.cap), flags) == (r.value, r.flags), str(arr)
        check_arrangement(h, arr)
    return r


def check_arrangement(h: BeijingHand, arr: BeijingArrangement) -> None:
    """A B4 arrangement: every tile used once in a group of the right form, wilds where the wild
    tiles are (only they play another kind; a claimed wild plays itself), one winning tile."""
    assert h.draw is not None
    concealed = [g for g in arr.groups if not g.exposed]
    assert sorted(t for g in concealed for t in g.tiles) == sorted([*h.concealed, h.draw])
    exposed = [g for g in arr.groups if g.exposed]
    assert [(g.kind, g.tiles) for g in exposed] == [(m.type.value, m.tiles) for m in h.melds]
    if arr.shape == "pairs":
        assert len(concealed) == 7 and not exposed and all(g.kind == "pair" for g in concealed)
    else:
        assert sum(g.kind == "pair" for g in arr.groups) == 1 and len(arr.groups) == 5
    for g in arr.groups:
        assert len(g.tiles) == len(g.plays) == len(g.wild)
        for t, p, w in zip(g.tiles, g.plays, g.wild):
            assert w == (t == h.wild)
            assert w or t == p
            assert not g.exposed or t == p
        if g.kind in ("sequence", "chi"):
            assert g.plays[0] < 27 and g.plays[0] % 9 <= 6 and list(g.plays) == [g.plays[0] + i for i in range(3)]
        else:
            assert len(set(g.plays)) == 1 and len(g.plays) == {"pair": 2, "triplet": 3, "pon": 3}.get(g.kind, 4)
    holders = [g for g in arr.groups if g.winning is not None]
    assert len(holders) == 1 and not holders[0].exposed
    g = holders[0]
    assert g.winning is not None and g.tiles[g.winning] == h.draw and (h.draw == h.wild or g.plays[g.winning] == h.draw)


def sc(hand: str, win: str, melds: str = "", ind: str | None = "1z", rules: BeijingRules = B,
       **ctx: bool) -> BeijingResult:
    return check(hand_of(hand, win, melds, ind, rules, **ctx))


# --------------------------------------------------------------------------------------------
# B8: the worked cases (preset beijing, non-dealer, no claims, 混坯 1z so the wild is 2z)
# --------------------------------------------------------------------------------------------


def test_b8_dragon_self_draw() -> None:
    r = sc("123m456m789m123p5s", "5s")
    assert r.win and r.value == 16
    assert r.codes == ["LONG", "MENQING", "ZIMO", "WUHUN"]
    assert r.payments() == {"each": 16}


def test_b8_seven_pairs_on_a_discard() -> None:
    r = sc("11m22m33p44p55s66s7z", "7z", self_drawn=False)
    assert r.win and r.value == 8
    assert r.codes == ["QIDUI", "MENQING", "WUHUN", "DIANPAO"]  # 点炮 listed, not in the value
    assert r.payments() == {"discarder": 16, "others": 8}


def test_b8_zhuowukui_dragon() -> None:
    r = sc("123m46m789m123p55s", "5m")
    assert r.value == 32
    assert r.codes == ["LONG", "ZHUOWUKUI", "MENQING", "ZIMO", "WUHUN"]
    assert r.name == "一条龙、捉五魁、门清、自摸、无混儿"
    g = r.arrangement.winning_group  # type: ignore[union-attr]
    assert g is not None and [str(t) for t in g.plays] == ["4m", "5m", "6m"] and g.winning == 1


def test_b8_one_suit_not_zhuowukui() -> None:
    r = sc("111m222m333m444m5m", "5m")
    assert r.value == 32
    assert r.codes == ["QINGYISE", "MENQING", "ZIMO", "WUHUN"]
    # the reason B8 gives: the hand also waits on 2m, 3m, 4m and 6m
    from tjmj.families.beijing.waits import waits

    assert [str(w.tile) for w in waits("111m222m333m444m5m", indicator="1z") if w.tile != 28] == \
        ["2m", "3m", "4m", "5m", "6m"]


# --------------------------------------------------------------------------------------------
# B5: every element shown and just missed, in each column where it exists
# --------------------------------------------------------------------------------------------


class Case(NamedTuple):
    element: str
    shows: bool  # the element is listed (True) or just missed (False)
    rules: BeijingRules
    hand: str
    win: str
    melds: str
    ind: str | None
    ctx: dict[str, bool]
    value: int
    codes: list[str]


def case(element: str, shows: bool, rules: BeijingRules, hand: str, win: str, value: int, codes: str,
         melds: str = "", ind: str | None = "1z", **ctx: bool) -> Case:
    return Case(element, shows, rules, hand, win, melds, ind, ctx, value, codes.split())


DRAGON = "123m456m789m123p5s"  # B8's first hand: 一条龙 in 万, waiting on 5s
CASES = [
    # 庄胡 (B only)
    case("DEALER", True, B, DRAGON, "5s", 32, "LONG DEALER MENQING ZIMO WUHUN", dealer=True),
    case("DEALER", False, B, DRAGON, "5s", 16, "LONG MENQING ZIMO WUHUN"),
    # 门清: a concealed kong keeps it; an added kong began as a pon (B5)
    case("MENQING", True, B, "234m567p789s5s", "5s", 8, "MENQING ZIMO WUHUN", melds="(6666z)"),
    case("MENQING", False, B, "234m567p789s5s", "5s", 4, "ZIMO WUHUN", melds="[6666z+]"),
    case("MENQING", True, A, DRAGON, "5s", 3, "LONG MENQING"),
    case("MENQING", False, A, "123m456m789m5s", "5s", 2, "LONG", melds="[111p]"),  # 3 halved, rounded up
    # 自摸 (B only), 点炮 (B only, listed)
    case("ZIMO", True, B, DRAGON, "5s", 16, "LONG MENQING ZIMO WUHUN"),
    case("ZIMO", False, B, DRAGON, "5s", 8, "LONG MENQING WUHUN DIANPAO", self_drawn=False),
    case("DIANPAO", True, B, "11m22m33p44p55s66s7z", "7z", 8, "QIDUI MENQING WUHUN DIANPAO", self_drawn=False),
    case("DIANPAO", False, B, DRAGON, "5s", 16, "LONG MENQING ZIMO WUHUN", self_drawn=False, rob_kong=True),
    # 无混儿 (B only): a wild playing 1p, a claimed wild, or 混儿悠
    case("WUHUN", True, B, DRAGON, "5s", 16, "LONG MENQING ZIMO WUHUN"),
    case("WUHUN", False, B, "123m456m789m23p2z5s", "5s", 8, "LONG MENQING ZIMO"),
    case("WUHUN", False, B, "111m222m333m9m", "9m", 4, "HUNYISE ZIMO", melds="[222z]"),
    case("WUHUN", True, B, "123m456m789m123p2z", "7z", 16, "LONG MENQING ZIMO WUHUN", hunyou=True),
    # 捉五魁
    case("ZHUOWUKUI", True, B, "46m123p456p789p11s", "5m", 32, "LONG ZHUOWUKUI MENQING ZIMO WUHUN"),
    case("ZHUOWUKUI", True, B, "5m11p22p33p44s66s77s", "5m", 32, "QIDUI ZHUOWUKUI MENQING ZIMO WUHUN"),
    case("ZHUOWUKUI", False, B, "4666m123p456p789p", "5m", 16, "LONG MENQING ZIMO WUHUN"),  # also waits on 4m
    case("ZHUOWUKUI", False, B, "46m123p456p789p11s", "5m", 8, "LONG MENQING ZIMO", ind="3m"),  # wild 4m
    case("ZHUOWUKUI", False, B, "46m123p456p789p11s", "5m", 8, "LONG MENQING ZIMO", ind="5m"),  # wild 6m
    case("ZHUOWUKUI", False, B, "46m123p456p789p11s", "5m", 8, "LONG MENQING ZIMO", ind="4m"),  # wild 5m
    case("ZHUOWUKUI", False, B, "11m22p33p44s66s77s2z", "5m", 8, "QIDUI MENQING ZIMO"),  # 5m pairs a wild
    case("ZHUOWUKUI", True, A, "46m123p456p789p11s", "5m", 5, "LONG ZHUOWUKUI MENQING"),
    case("ZHUOWUKUI", False, A, "4666m123p456p789p", "5m", 3, "LONG MENQING"),
    # 海底捞月: self-drawn on the last tile; a discard after it is not
    case("HAIDI", True, B, DRAGON, "5s", 64, "LONG HAIDI MENQING ZIMO WUHUN", last_tile=True),
    case("HAIDI", False, B, DRAGON, "5s", 8, "LONG MENQING WUHUN DIANPAO", last_tile=True, self_drawn=False),
    case("HAIDI", True, A, DRAGON, "5s", 5, "LONG HAIDI MENQING", last_tile=True),
    case("HAIDI", False, A, DRAGON, "5s", 3, "LONG MENQING", last_tile=True, self_drawn=False),
    # 一条龙: concealed sequences only (a chi is no part of it)
    case("LONG", True, B, DRAGON, "5s", 16, "LONG MENQING ZIMO WUHUN"),
    case("LONG", False, B, "456m789m123p5s", "5s", 4, "ZIMO WUHUN", melds="[123m]"),
    case("LONG", True, A, DRAGON, "5s", 3, "LONG MENQING"),
    case("LONG", False, A, "456m789m123p5s", "5s", 1, "", melds="[123m]"),
    # 本混儿龙 (B only): the wild 5m is the dragon's only wild and plays itself
    case("BENHUNLONG", True, B, "123456789m123p5s", "5s", 16, "BENHUNLONG MENQING ZIMO", ind="4m"),
    case("BENHUNLONG", False, B, "123456789m12p5m5s", "5s", 8, "LONG MENQING ZIMO", ind="4m"),  # two wilds
    case("BENHUNLONG", False, B, "123456789p345m5s", "5s", 8, "LONG MENQING ZIMO", ind="4m"),  # dragon in 饼
    # 七对子 and 豪华七对子 (豪华 instead of 七对子)
    case("QIDUI", True, B, "11m22m33p44p55s66s7z", "7z", 16, "QIDUI MENQING ZIMO WUHUN"),
    case("QIDUI", False, B, "1111m22m33p44p55s6s", "6s", 32, "HAOHUA MENQING ZIMO WUHUN"),
    case("QIDUI", True, A, "11m22m33p44p55s66s7z", "7z", 4, "QIDUI MENQING"),
    case("QIDUI", False, A, "1111m22m33p44p55s6s", "6s", 8, "HAOHUA MENQING"),
    case("HAOHUA", True, B, "1111m22m33p44p55s6s", "6s", 32, "HAOHUA MENQING ZIMO WUHUN"),
    case("HAOHUA", True, B, "111m2z22m33p44p55s6s", "6s", 16, "HAOHUA MENQING ZIMO"),  # 111m + a wild
    case("HAOHUA", True, B, "11m22m33p44p55s2z2z7z", "7z", 16, "HAOHUA MENQING ZIMO"),  # a spare wild pair
    case("HAOHUA", False, B, "11m22m33p44p55s66s7z", "7z", 16, "QIDUI MENQING ZIMO WUHUN"),
    case("HAOHUA", True, A, "1111m22m33p44p55s6s", "6s", 8, "HAOHUA MENQING"),
    case("HAOHUA", False, A, "11m22m33p44p55s66s7z", "7z", 4, "QIDUI MENQING"),
    # 杠上开花 (and 自摸)
    case("GANGKAI", True, B, "234m567p789s5s", "5s", 16, "GANGKAI MENQING ZIMO WUHUN", melds="(6666z)",
         kong_draw=True),
    case("GANGKAI", False, B, "234m567p789s5s", "5s", 8, "MENQING ZIMO WUHUN", melds="(6666z)"),
    case("GANGKAI", True, A, "234m567p789s5s", "5s", 5, "GANGKAI MENQING", melds="(6666z)", kong_draw=True),
    case("GANGKAI", False, A, "234m567p789s5s", "5s", 1, "MENQING", melds="(6666z)"),
    # 清一色: judged on the tiles as they play (a 2z wild playing 3m keeps it)
    case("QINGYISE", True, B, "111m222m333m444m5m", "5m", 32, "QINGYISE MENQING ZIMO WUHUN"),
    case("QINGYISE", True, B, "111m222m33m2z456m9m", "9m", 16, "QINGYISE MENQING ZIMO"),
    case("QINGYISE", False, B, "111m222m333m456m5z", "5z", 16, "HUNYISE MENQING ZIMO WUHUN"),
    case("QINGYISE", True, A, "111m222m333m444m5m", "5m", 8, "QINGYISE DUIDUI MENQING"),
    case("QINGYISE", False, A, "111m222m333m456m5z", "5z", 1, "MENQING"),
    # 混一色 and 字一色 (B only)
    case("HUNYISE", True, B, "111m222m333m456m5z", "5z", 16, "HUNYISE MENQING ZIMO WUHUN"),
    case("HUNYISE", False, B, "111m222p333m456m5z", "5z", 8, "MENQING ZIMO WUHUN"),
    case("ZIYISE", True, B, "111z333z444z555z6z", "6z", 64, "ZIYISE MENQING ZIMO WUHUN", ind="1m"),
    case("ZIYISE", False, B, "111z333z444z555z9m", "9m", 16, "HUNYISE MENQING ZIMO WUHUN", ind="1m"),
    # 对对和 and 大钓 (A only; 大钓 counts a concealed kong as one of its four melds)
    case("DUIDUI", True, A, "111m333p555s777z9m", "9m", 2, "DUIDUI MENQING"),
    case("DUIDUI", False, A, "123m333p555s777z9m", "9m", 1, "MENQING"),
    case("DADIAO", True, A, "5s", "5s", 4, "DUIDUI DADIAO MENQING", melds="(1111m)(3333p)(7777z)(9999s)"),
    case("DADIAO", True, A, "5s", "5s", 2, "DUIDUI DADIAO", melds="[111m][333p][777z][999s]"),  # 4 halved
    case("DADIAO", False, A, "999s5s", "5s", 2, "DUIDUI MENQING", melds="(1111m)(3333p)(7777z)"),
    # flat hands: that one code, 40, whatever else the hand holds
    case("HUNGANG", True, B, "222z123m456p789s5s", "2z", 40, "HUNGANG", hungang=True),
    case("HUNGANG", True, B, "222z1m3m5m7m5p7p1s3s5s9s", "2z", 40, "HUNGANG", hungang=True),  # not a shape at all
    case("HUNGANG", False, B, "222z123m456p789s5s", "2z", 4, "MENQING ZIMO"),
    case("HUNGANG", True, AW, "222z123m456p789s5s", "2z", 40, "HUNGANG", hungang=True),
    case("HUNGANG", False, AW, "222z123m456p789s5s", "2z", 1, "MENQING"),
    case("TIANHE", True, B, DRAGON, "5s", 40, "TIANHE", dealer=True, tianhe=True),
    case("TIANHE", False, B, DRAGON, "5s", 32, "LONG DEALER MENQING ZIMO WUHUN", dealer=True),
    case("DIHE", True, B, DRAGON, "5s", 40, "DIHE", dihe=True),
    case("DIHE", False, B, DRAGON, "5s", 16, "LONG MENQING ZIMO WUHUN"),
]


@pytest.mark.parametrize("c", CASES, ids=[f"{c.element}-{'shows' if c.shows else 'misses'}-{c.rules.name}-{c.hand}"
                                          for c in CASES])
def test_element_case(c: Case) -> None:
    """B5: the exact value and element list; the element is listed exactly when the case says."""
    r = sc(c.hand, c.win, c.melds, c.ind, c.rules, **c.ctx)
    assert r.complete and r.win
    assert (r.value, r.codes) == (c.value, c.codes), r.arrangement and str(r.arrangement)
    assert (c.element in r.codes) == c.shows


def test_every_element_is_shown_and_missed_in_each_column() -> None:
    """The table above covers every B5 element, shown and just missed, in each column it exists in
    (the A column of 混杠 needs wilds: a custom ``add`` rule set)."""
    have = {(c.element, c.shows, c.rules.scoring) for c in CASES}
    for e in ELEMENTS:
        for col in e.columns:
            assert (e.code, True, col) in have, (e.code, col, "shows")
            assert (e.code, False, col) in have, (e.code, col, "misses")


def test_element_values_per_column() -> None:
    """B5's table, column by column."""
    texts = {e.code: (e.value_text(MULTIPLY), e.value_text(ADD)) for e in ELEMENTS}
    assert texts["LONG"] == ("×2", "+3")
    assert texts["HAIDI"] == ("×4", "+2")
    assert texts["HAOHUA"] == ("×4", "+8")
    assert texts["QINGYISE"] == ("×4", "+6")
    assert texts["GANGKAI"] == ("×2", "+5")
    assert texts["ZIYISE"] == ("×8", "–")
    assert texts["DUIDUI"] == ("–", "+2")
    assert texts["DADIAO"] == ("–", "+2")
    assert texts["BENHUNLONG"] == ("×4", "–")
    assert texts["TIANHE"] == ("40 flat", "–")
    assert texts["DIANPAO"] == ("×2 on the discarder's payment", "–")
    for e in ELEMENTS:
        assert e.chinese and e.english and e.code.isupper()


# --------------------------------------------------------------------------------------------
# 七对子 with wilds; 本混儿龙; 捉五魁's wait rule
# --------------------------------------------------------------------------------------------


def test_seven_pairs_with_wilds() -> None:
    """B4: a wild pairs with anything in 七对子; two wilds pair with each other."""
    r = sc("11m22m33p44p55s6s7z2z", "7z")  # the wild pairs the lone 6s
    assert r.codes == ["QIDUI", "MENQING", "ZIMO"] and r.value == 8
    pair = next(g for g in r.arrangement.groups if any(g.wild))  # type: ignore[union-attr]
    assert [str(t) for t in pair.plays] == ["6s", "6s"] and [str(t) for t in pair.tiles] == ["6s", "2z"]
    # four wilds: two pairs of lone tiles, and a drawn wild pairs a third
    r = sc("11m22m33p4p5s6s7z2z2z2z", "2z")
    assert r.codes == ["QIDUI", "MENQING", "ZIMO"]
    # a spare pair of wilds plays a kind already paired: a kind played four times, 豪华 (B5 note)
    r = sc("11m22m33p44p5s6s2z2z2z", "2z")
    assert r.codes == ["HAOHUA", "MENQING", "ZIMO"]


def test_seven_pairs_must_be_concealed() -> None:
    """B4: a declared concealed kong is a meld: the other tiles cannot make seven pairs."""
    r = sc("22m33p44p55s6s7z", "6s", melds="(1111m)")
    assert not r.complete and not r.win and r.value == 0 and "not complete" in r.reason


def test_benhunlong_counts_as_no_wild() -> None:
    """B5 本混儿龙 ×4 stands instead of 一条龙 ×2 and 无混儿 ×2: the same value as the wild-free dragon
    ("按照无混儿计算"), and neither 一条龙 nor 无混儿 is listed beside it."""
    ben = sc("123456789m123p5s", "5s", ind="4m")  # the wild 5m plays itself
    plain = sc("123456789m123p5s", "5s", ind="1z")  # no wild at all
    assert ben.value == plain.value == 16
    assert "LONG" not in ben.codes and "WUHUN" not in ben.codes
    assert plain.codes[:1] == ["LONG"] and "WUHUN" in plain.codes
    # the wild drawn as the winning tile, playing its own 5m: still 本混儿龙
    assert sc("12346789m123p55s", "5m", ind="4m").codes == ["BENHUNLONG", "MENQING", "ZIMO"]
    # with a pon beside it (and no 门清)
    assert sc("123456789m5s", "5s", melds="[111p]", ind="4m").codes == ["BENHUNLONG", "ZIMO"]
    # version A has no 本混儿龙: with a wild (custom rules) the same hand is a plain 一条龙
    assert sc("123456789m123p5s", "5s", ind="4m", rules=AW).codes == ["LONG", "MENQING"]


def test_zhuowukui_wait_rule() -> None:
    """B5: the 13 tiles before the 5m won on no other kind; drawing a wild does not count."""
    from tjmj.families.beijing.waits import waits

    ws = waits("46m123p456p789p11s", indicator="1z")
    assert [str(w.tile) for w in ws] == ["5m", "2z"]  # 5m, and the wild
    assert "ZHUOWUKUI" in ws[0].codes and "ZHUOWUKUI" not in ws[1].codes
    # 4666m: 5m makes 456m + 66m, but 4m also wins (44m + 666m): not 捉五魁
    assert "4m" in [str(w.tile) for w in waits("4666m123p456p789p", indicator="1z")]
    # another wait by 七对子 counts too: 4m makes 44 66 77 88 99 99m 33z
    r = sc("46677889999m33z", "5m")
    assert r.codes == ["HUNYISE", "MENQING", "ZIMO", "WUHUN"] and r.value == 16
    assert "4m" in [str(w.tile) for w in waits("46677889999m33z", indicator="1z")]
    # the other kind only counts if a copy may still arrive: here the hand holds all four 3m, and a
    # fifth 3m (which would make 333m 345m 6m…) cannot come
    h = hand_of("3333m46m123p456p9p", "5m", ind="1z")
    assert not reference_other_wait(h)


def test_zhuowukui_in_seven_pairs_with_three_fives() -> None:
    """A 5m pairing one of two other 5m (the four 5m being two pairs): 豪华七对子 and 捉五魁 — unless
    the 13 tiles also won elsewhere (here 4s or 6s: 555m 123p 123p 444s 66s)."""
    r = sc("555m11p33p55p77s99s", "5m")
    assert r.codes == ["HAOHUA", "ZHUOWUKUI", "MENQING", "ZIMO", "WUHUN"] and r.value == 64
    r = sc("555m11p22p33p44s66s", "5m")
    assert r.codes == ["HAOHUA", "MENQING", "ZIMO", "WUHUN"] and r.value == 32


# --------------------------------------------------------------------------------------------
# B3: claimed hands win only by self-draw; version A halving; cap
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("melds", ["[111p]", "[123p]", "[1111p]", "[1111p+]"])
def test_claimed_hand_wins_only_self_drawn(melds: str) -> None:
    """B3 claimed_self_draw_only: after a chi, pon, discard kong or added kong, no win on a discard."""
    r = sc("123m456m789m5s", "5s", melds=melds, self_drawn=False)
    assert r.complete and not r.win and "B3" in r.reason and r.value > 0
    with pytest.raises(ValueError, match="does not win"):
        r.payments()
    assert sc("123m456m789m5s", "5s", melds=melds).win  # self-drawn
    assert sc("123m456m789m5s", "5s", melds=melds, self_drawn=False, rob_kong=True).win  # robbing a kong
    assert sc("123m456m789m5s", "5s", melds=melds, self_drawn=False, rules=A).win  # version A: free
    free = B.replace(claimed_self_draw_only=False)
    assert sc("123m456m789m5s", "5s", melds=melds, self_drawn=False, rules=free).win  # type: ignore[arg-type]


def test_concealed_kong_hand_wins_on_a_discard() -> None:
    r = sc("123m456m789m5s", "5s", melds="(1111p)", self_drawn=False)
    assert r.win and "MENQING" in r.codes


def test_version_a_halving() -> None:
    """B5: version A's sum, halved and rounded up when the hand is not 门清; 1 when nothing applies."""
    closed = sc("46m123p456p789p11s", "5m", rules=A)
    assert closed.value == 5 and not closed.halved
    opened = sc("46m456p789p11s", "5m", melds="[123p]", rules=A)  # the chi breaks the dragon, too
    assert opened.value == 1 and opened.codes == ["ZHUOWUKUI"] and opened.halved  # 2 halved
    opened = sc("46m123p456p11s", "5m", melds="[7777z]", rules=A, kong_draw=True)  # 2 + 5, halved: 4
    assert opened.value == 4 and opened.codes == ["ZHUOWUKUI", "GANGKAI"] and opened.to_dict()["halved"] is True
    assert sc("123m456p789s5s", "5s", melds="[777z]", rules=A).value == 1  # nothing: 1, halved: 1


def test_cap() -> None:
    """B5 option cap: the most a hand is worth, flat hands included."""
    capped: BeijingRules = B.replace(cap=16)  # type: ignore[assignment]
    assert sc("123m46m789m123p55s", "5m", rules=capped).value == 16
    assert sc("123m46m789m123p55s", "5m", rules=capped).codes == ["LONG", "ZHUOWUKUI", "MENQING", "ZIMO", "WUHUN"]
    assert sc("11m22m33p44p55s66s7z", "7z", rules=capped, self_drawn=False).value == 8  # under the cap
    assert sc("222z123m456p789s5s", "2z", rules=capped, hungang=True).value == 16
    assert sc("46m123p456p789p11s", "5m", rules=A.replace(cap=4)).value == 4  # type: ignore[arg-type]


def test_cap_ties_list_the_larger_element_set() -> None:
    """Under a cap arrangements tie; both implementations list the larger element set (by rank)."""
    capped: BeijingRules = B.replace(cap=2)  # type: ignore[assignment]
    r = sc("123m46m789m123p55s", "5m", rules=capped)
    assert r.value == 2 and "ZHUOWUKUI" in r.codes and "LONG" in r.codes


# --------------------------------------------------------------------------------------------
# Flat hands, 混儿悠
# --------------------------------------------------------------------------------------------


def test_flat_hands_ignore_every_other_element() -> None:
    r = sc(DRAGON, "5s", dealer=True, tianhe=True, last_tile=True)
    assert r.value == 40 and r.codes == ["TIANHE"] and r.name == "天和" and r.payments() == {"each": 40}
    r = sc("222z1m3m5m7m5p7p1s3s5s9s", "2z", hungang=True)
    assert r.complete and r.win and r.arrangement is None and r.to_dict()["arrangement"] is None
    # 天和 needs a complete hand
    r = sc("123m456m789m123p5s", "6s", dealer=True, tianhe=True)
    assert not r.complete and not r.win
    # version A has no 天和/地和: the flag leaves the hand's own value
    assert sc(DRAGON, "5s", rules=A, dealer=True, tianhe=True).codes == ["LONG", "MENQING"]


def test_hunyou() -> None:
    """B3 混儿悠: 13 tiles that are four melds and one lone wild win on any draw, with 无混儿 added."""
    scorer = BeijingScorer("1z", B)
    thirteen = counts_of(parse_tiles("123m456m789m123p2z"))
    assert scorer.hunyou_ready(thirteen, 0)
    assert all(scorer.is_complete([n + (k == x) for k, n in enumerate(thirteen)], 0) for x in range(34))
    assert scorer.hunyou_ready(counts_of(parse_tiles("123m456m789m12p2z2z")), 0)  # 12p + a wild, and a lone wild
    assert not scorer.hunyou_ready(counts_of(parse_tiles("123m456m789m1p5p2z2z")), 0)  # 1p 5p: no meld…
    assert scorer.hunyou_ready(counts_of(parse_tiles("11m22m33p44p55s66s2z")), 0)  # …six pairs + a lone wild
    assert scorer.hunyou_ready(counts_of(parse_tiles("123m456m2z")), 2)
    assert not BeijingScorer("1z", A).hunyou_ready(thirteen, 0)  # no wild


# --------------------------------------------------------------------------------------------
# B6 payments
# --------------------------------------------------------------------------------------------


def test_payments() -> None:
    self_drawn = sc(DRAGON, "5s")
    assert self_drawn.payments() == {"each": 16}
    assert self_drawn.payments(base=5) == {"each": 80}
    assert self_drawn.payments(upstairs=True) == {"each": 32}  # 上楼 doubles every payment
    discard = sc(DRAGON, "5s", self_drawn=False)
    assert discard.payments() == {"discarder": 16, "others": 8}
    assert discard.payments(base=2, upstairs=True) == {"discarder": 64, "others": 32}
    robbed = sc(DRAGON, "5s", self_drawn=False, rob_kong=True)
    assert robbed.payments() == {"kong_declarer": 48}  # all three shares of a self-draw worth 16
    a_discard = sc(DRAGON, "5s", self_drawn=False, rules=A)
    assert a_discard.payments() == {"discarder": 9, "others": 0}  # 包三家
    assert sc(DRAGON, "5s", rules=A).payments() == {"each": 3}
    with pytest.raises(RulesError, match="upstairs"):
        a_discard.payments(upstairs=True)  # version A has no 上楼
    with pytest.raises(ValueError, match="base"):
        discard.payments(base=0)
    based = B.replace(base=10)
    assert sc(DRAGON, "5s", rules=based).payments() == {"each": 160}  # type: ignore[arg-type]


def test_to_dict() -> None:
    d = sc("123m46m789m123p55s", "5m").to_dict()
    assert d["value"] == 32 and d["win"] is True and d["payments"] == {"each": 32}
    assert d["elements"][0] == {"code": "LONG", "chinese": "一条龙", "english": "pure straight 1-9",  # type: ignore[index]
                                "value": "×2", "value_zh": "×2"}
    arr = d["arrangement"]
    assert arr["shape"] == "standard" and arr["wild"] == "2z" and len(arr["groups"]) == 5  # type: ignore[index]
    win_groups = [g for g in arr["groups"] if g["winning"] is not None]  # type: ignore[index]
    assert win_groups == [{"kind": "sequence", "tiles": ["4m", "5m", "6m"], "plays": ["4m", "5m", "6m"],
                           "wild": [False, False, False], "winning": 1}]
    assert "arrangement" not in sc(DRAGON, "5s").to_dict(arrangement=False)
    d = sc("123m5p", "9s", rules=A, melds="[111p][222p][333p]").to_dict()  # incomplete
    assert d["complete"] is False and d["elements"] == [] and d["arrangement"] is None and "payments" not in d


def test_wild_stands_in_a_meld_and_claimed_wild_plays_itself() -> None:
    """B2: a concealed wild plays any kind; a claimed wild only its own kind in its meld."""
    r = sc("123m456m78m123p5s2z", "5s", melds="", ind="1z")  # 2z plays 9m: the dragon stands
    assert "LONG" in r.codes and "WUHUN" not in r.codes
    r = sc("456m789m123p5s", "5s", melds="[2z2z2z]", ind="1z")  # a pon of the wild kind
    pon = r.arrangement.groups[-1]  # type: ignore[union-attr]
    assert pon.kind == "pon" and all(pon.wild) and [str(t) for t in pon.plays] == ["2z"] * 3


def test_fast_scorer_on_counts() -> None:
    scorer = BeijingScorer("1z", B)
    c = counts_of(parse_tiles("123m46m789m123p55s5m"))
    assert scorer.is_complete(c, 0)
    assert scorer.evaluate(c, 4) == (True, 32)
    assert scorer.evaluate(c, 4, context=WinContext(self_drawn=False)) == (True, 16)
    r = scorer.score(c, 4)
    assert r.value == 32 and r.codes == ["LONG", "ZHUOWUKUI", "MENQING", "ZIMO", "WUHUN"]
    c[4] -= 1
    c[5] += 1  # 6m instead: not complete
    assert not scorer.is_complete(c, 0) and scorer.evaluate(c, 5) is None
    pon = (Meld(MeldType.PON, Tile.parse("1p")),)
    c = counts_of(parse_tiles("123m456m789m5s5s"))
    assert scorer.evaluate(c, 22, pon, WinContext(self_drawn=False)) == (False, 4)  # 一条龙 × 无混儿


# --------------------------------------------------------------------------------------------
# Bad input: a clear error (a TileError) naming what is wrong
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"hand": "123m456m789m123p", "draw": "5s"}, "12 concealed tiles"),
        ({"hand": "123m456m789m123p5s", "draw": "5s", "melds": "[111z]"}, "with 1 meld"),
        ({"hand": "1111m456m789m12p5s", "draw": "1m"}, "5 copies of 1m"),
        ({"hand": "111z456m789m123p5s", "draw": "1z"}, "the face-up 混坯 counts as one"),
        ({"hand": "123m456m789m5s", "draw": "5s", "melds": "[1111z]", "indicator": "1z"}, "5 copies of 1z"),
        ({"hand": "456m789m5s", "draw": "5s", "melds": "[123m][111p]"}, "2 chi/pon"),
        ({"hand": "456m789m5s", "draw": "5s", "melds": "[123m][1111p+]"}, "added kong began as a pon"),
        ({"hand": "123m456m789m123p5s", "draw": "5s", "indicator": None}, "混坯"),
        ({"hand": "123m456m789m123p5s", "draw": "5s6s"}, "exactly one tile"),
        ({"hand": "123m456m789m123p5x", "draw": "5s"}, "invalid character"),
        ({"hand": "123m456m789m123p5s", "draw": "5s", "context": {"self_drawn": True, "rob_kong": True}}, "rob_kong"),
        ({"hand": "123m456m789m123p5s", "draw": "5s", "context": {"kong_draw": True}}, "needs a kong"),
        ({"hand": "123m456m789m5s", "draw": "5s", "melds": "(1111p)",
          "context": {"kong_draw": True, "self_drawn": False}}, "self-draw"),
        ({"hand": "123m456m789m5s", "draw": "5s", "melds": "(1111p)",
          "context": {"kong_draw": True, "last_tile": True}}, "not a normal draw"),
        ({"hand": "123m456m789m123p5s", "draw": "5s", "context": {"hungang": True}}, "all four wilds"),
        ({"hand": "123m456m789m123p5s", "draw": "5s", "rules": A, "context": {"hungang": True}}, "needs wilds"),
        ({"hand": "123m456m789m123p5s", "draw": "5s", "context": {"tianhe": True}}, "dealer must be true"),
        ({"hand": "123m456m789m123p5s", "draw": "5s", "context": {"dihe": True, "dealer": True}}, "dealer must be"),
        ({"hand": "123m456m789m5s", "draw": "5s", "melds": "(1111p)", "context": {"dihe": True}}, "no melds"),
        ({"hand": "123m456m789m123p5s", "draw": "5s", "context": {"tianhe": True, "dihe": True, "dealer": True}},
         "one flat hand"),
        ({"hand": "123m456m789m123p5s", "draw": "5s", "context": {"hunyou": True}}, "lone wild"),
        ({"hand": "123m456m789m123p2z", "draw": "5s", "context": {"hunyou": True, "self_drawn": False}},
         "self_drawn must be true"),
        ({"hand": "123m456m789m123p5s", "draw": "5s", "rules": A, "context": {"hunyou": True}}, "off in these"),
        ({"hand": "123m456m789m123p5s", "draw": "5s", "context": {"dealr": True}}, "unknown win context"),
        ({"hand": "123m456m789m123p5s", "draw": "5s", "context": {"dealer": 1}}, "true or false"),
        ({"hand": "5s", "draw": "5s", "melds": "[111m][222m][333m][444m][555m]"}, "at most 4 melds"),
        ({"hand": 7, "draw": "5s"}, "sequence of tile kinds"),
        ({"hand": "123m456m789m123p5s", "draw": 34}, "0..33"),
    ],
)
def test_bad_input(kwargs: dict[str, Any], match: str) -> None:
    kw = dict(kwargs)
    hand, draw = kw.pop("hand"), kw.pop("draw")
    kw.setdefault("indicator", "1z")
    with pytest.raises(TileError, match=match):
        score_beijing(hand, draw, **kw)


def test_errors_are_invalid_hands_and_rules_must_be_beijing() -> None:
    with pytest.raises(InvalidHand):
        score_beijing("123m", "5s", indicator="1z")
    assert issubclass(InvalidBeijingHand, InvalidHand) and issubclass(InvalidBeijingHand, TileError)
    with pytest.raises(RulesError, match="Beijing rules"):
        score_beijing(DRAGON, "5s", indicator="1z", rules=CLASSIC)  # type: ignore[arg-type]


def test_inputs_in_other_forms() -> None:
    """Kinds instead of text, Meld objects or batch dicts, the context as a dict, no indicator in A."""
    kinds = [int(t) for t in parse_tiles("123m456m789m5s")]
    r = score_beijing(kinds, 22, melds=[{"type": "pon", "tile": "1p"}], indicator=27, context={"self_drawn": True})
    assert r.win and r.codes == ["LONG", "ZIMO", "WUHUN"]
    r = score_beijing("123m456m789m5s", "5s", melds=[Meld(MeldType.CHI, Tile.parse("1p"))], rules=A)
    assert r.codes == ["LONG"]  # version A: the 混坯 is not needed (and ignored if given)
    assert score_beijing(DRAGON, "5s", rules=A, indicator="5s").value == 3
    # a drawn 混坯: no longer face up, so a fourth copy in hand is fine
    with pytest.raises(InvalidBeijingHand, match="the face-up 混坯 counts as one"):
        score_beijing("1111z22m33m44p55p6s", "6s", indicator="1z")
    r = score_beijing("1111z22m33m44p55p6s", "6s", indicator="1z", indicator_visible=False)
    assert r.codes == ["HAOHUA", "MENQING", "ZIMO", "WUHUN"]


def test_concealed_kong_of_the_wilds() -> None:
    """rules-notes (Beijing 2): four wilds declared as a concealed kong are a meld, not 混杠; they play
    their own kind and the hand is not 无混儿."""
    r = sc("123m456p789s5s", "5s", melds="(2222z)")
    assert r.codes == ["MENQING", "ZIMO"] and r.value == 4
    kong = r.arrangement.groups[-1]  # type: ignore[union-attr]
    assert kong.kind == "ankong" and all(kong.wild) and [str(t) for t in kong.plays] == ["2z"] * 4
    with pytest.raises(InvalidBeijingHand, match="all four wilds"):
        score_beijing("123m456p789s5s", "5s", melds="(2222z)", indicator="1z", context={"hungang": True})


def test_win_context_round_trip() -> None:
    ctx = WinContext(self_drawn=False, rob_kong=True, dealer=True)
    assert WinContext.from_dict(ctx.to_dict()) == ctx
    assert ctx.scores_self_drawn and not WinContext(self_drawn=False).scores_self_drawn
    with pytest.raises(TileError, match="object of flags"):
        WinContext.from_dict([("dealer", True)])


def test_waits_context() -> None:
    from tjmj.families.beijing.waits import waits

    # a claimed hand waiting for a discard: the waits complete but do not win (B3)
    ws = waits("123m456m789m5s", "[111p]", "1z", B, WinContext(self_drawn=False))
    assert [str(w.tile) for w in ws] == ["5s", "2z"]
    assert not any(w.win for w in ws) and all("B3" in w.reason for w in ws)
    assert ws[0].to_dict()["reason"] == ws[0].reason and ws[0].live == 3
    with pytest.raises(InvalidBeijingHand, match="not waited for"):
        waits("123m456m789m5s", "[111p]", "1z", B, WinContext(hungang=True))


def test_every_element_value_has_a_chinese_text():
    """The web table's settlement in Chinese shows each element's value in Chinese (no English words)."""
    import re

    from tjmj.families.beijing.elements import ELEMENTS

    for e in ELEMENTS:
        for scoring in ("multiply", "add"):
            d = e.to_dict(scoring)
            assert d["value_zh"] and not re.search("[a-z]{2,}", d["value_zh"]), (e.code, scoring, d)
