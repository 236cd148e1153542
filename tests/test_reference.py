"""The exhaustive reference scorer (tjmj.families.tianjin.reference) on the worked cases of RULES.md (R5.4, R10),
and hypothesis properties: the fast scorer (tjmj.families.tianjin.score) agrees with it on completeness, fan and
flags (R5.1, R5.2) for random, dragon, 捉伍儿, terminal, 素本 and 1/3-wild-kind hands."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from tjmj.families.tianjin.elements import ARRANGEMENT_ELEMENTS, Arrangement, Flag, fan_of
from tjmj.families.tianjin.reference import reference_score
from tjmj.families.tianjin.score import HandInput, prepare, score_input
from tjmj.meld import Meld, MeldType
from tjmj.rules import Rules, TianjinRules
from tjmj.tiles import Tile, wild_kinds

from .cases import ALL, case_id

CLASSIC = TianjinRules()
YIYOU = Rules.preset("yiyou")
WK1 = Rules.preset("classic", wild_kinds=1)
WK3 = Rules.preset("classic", wild_kinds=3)
YIYOU3 = Rules.preset("yiyou", wild_kinds=3)


# the share of each property's examples a run draws: 0.4 keeps CI within its 15 minutes (these
# two files were a fifth of the suite's time); TJMJ_PROPERTY_SHARE=1 runs every example
PROPERTY_SHARE = float(os.environ.get("TJMJ_PROPERTY_SHARE", "0.4"))


def props(n: int) -> settings:
    """Hypothesis settings for one property: ``n`` examples at full strength (``PROPERTY_SHARE`` of
    them drawn), no per-example deadline."""
    return settings(
        max_examples=max(50, round(n * PROPERTY_SHARE)), deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
    )


# --------------------------------------------------------------------------------------------
# checks shared by the worked cases and the properties
# --------------------------------------------------------------------------------------------


def rescore(arr: Arrangement) -> tuple[int, int]:
    """The arrangement's (fan, flags) by the element classes alone (R5.1, R5.2)."""
    flags = 0
    for e in ARRANGEMENT_ELEMENTS:
        if e.is_condition_met(arr):
            flags |= int(e.flag)
    return fan_of(flags), flags


def check_arrangement(h: HandInput, arr: Arrangement) -> None:
    """An arrangement of R5.1: every tile used once, right shapes, one winning tile, 4 melds + 1 pair."""
    concealed = sorted(t for g in arr.groups if not g.exposed for t in g.tiles)
    assert concealed == sorted([*h.concealed, h.draw])
    exposed = [g for g in arr.groups if g.exposed]
    assert [(g.kind, g.tiles[0], len(g.tiles)) for g in exposed] == [(m.type.value, m.tile, m.size) for m in h.melds]
    assert sum(g.is_meld for g in arr.groups) == 4 and sum(not g.is_meld for g in arr.groups) == 1
    for g in arr.groups:
        assert len(g.tiles) == len(g.plays) == len(g.wild)
        for t, p, w in zip(g.tiles, g.plays, g.wild, strict=True):
            assert w == (t in h.wilds)
            assert w or t == p  # only wilds play another kind (R2)
        if g.kind == "sequence":
            assert g.plays[0] < 27 and g.plays[0] // 9 == g.plays[2] // 9
            assert list(g.plays) == [g.plays[0], g.plays[0] + 1, g.plays[0] + 2]
        elif g.kind == "pair":
            assert len(g.plays) == 2 and g.plays[0] == g.plays[1]
        elif g.kind == "triplet":
            assert len(g.plays) == 3 and len(set(g.plays)) == 1
        else:
            assert not any(t != p for t, p in zip(g.tiles, g.plays, strict=True))  # no wild stands in a meld
            assert g.winning is None
    holders = [g for g in arr.groups if g.winning is not None]
    assert len(holders) == 1
    g = holders[0]
    assert g.tiles[g.winning] == h.draw
    if h.draw not in h.wilds:
        assert g.plays[g.winning] == h.draw
    if arr.dragon is not None:
        assert len(set(arr.dragon)) == 3 and all(arr.groups[i].kind == "sequence" for i in arr.dragon)


def check_agreement(h: HandInput) -> None:
    """The fast path and the reference agree on complete/incomplete, fan and flags."""
    ref = reference_score(h)
    fast = score_input(h)
    got = (fast.complete, fast.fan, int(fast.flags)) if fast.complete else (False,)
    want = (True, ref[0], ref[1]) if ref is not None else (False,)
    detail = (
        f"hand={h.describe()} indicator={h.indicator} wilds={[str(t) for t in h.wilds]} "
        f"kong_draw={h.kong_draw} rules={h.rules.name}: fast={got} {Flag(got[2]) if len(got) > 1 else ''} "
        f"reference={want} {Flag(want[2]) if len(want) > 1 else ''} {ref[2] if ref else ''}"
    )
    assert got == want, detail
    if ref is not None:
        check_arrangement(h, ref[2])
        assert rescore(ref[2]) == (ref[0], ref[1]), detail


# --------------------------------------------------------------------------------------------
# R5.4 and R10: the worked cases
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("row", ALL, ids=[case_id(r) for r in ALL])
def test_worked_cases(row: tuple) -> None:
    """Each row of RULES.md R5.4 and R10 (the section is the first part of the id): the stated fan."""
    section, name, hand, draw, indicator, melds, kong_draw, fan, _win = row
    h = prepare(hand, draw, indicator, melds, kong_draw=kong_draw)
    ref = reference_score(h)
    assert ref is not None, f"{section} {name}: not complete"
    assert ref[0] == fan, f"{section} {name}: reference fan {ref[0]} ({Flag(ref[1])}), {ref[2]}"
    check_arrangement(h, ref[2])
    assert rescore(ref[2]) == (ref[0], ref[1])


def test_worked_case_count() -> None:
    assert len([r for r in ALL if r[0] == "R5.4"]) == 9  # 8 rows, the 龙 row with two draws
    assert len([r for r in ALL if r[0] == "R10"]) == 21


@pytest.mark.parametrize(
    ("hand", "draw", "indicator", "melds", "complete"),
    [
        ("123m456p789s11s22z", "3z", "7z", "", False),  # 3z + 22z is no pair and no meld
        ("1357m2468p13579s", "9s", "7z", "", False),
        ("123m456p789s2z", "2z", "7z", "[111s]", True),
        ("123m456p789s1z", "2z", "1z", "[111s]", True),  # 1z2z are wild: a wild pair
    ],
)
def test_completeness(hand: str, draw: str, indicator: str, melds: str, complete: bool) -> None:
    """R5: complete means 4 melds + 1 pair; otherwise there is no arrangement at all."""
    h = prepare(hand, draw, indicator, melds)
    assert (reference_score(h) is not None) == complete
    check_agreement(h)


def test_gold_kong_and_suben_cases() -> None:
    """R2 金杠 is an exposed group of wilds (no 没混儿); R5.1 素本 with one of each wild kind playing itself."""
    h = prepare("123456789p2z", "2z", "3m", "(4444m)")  # gold kong of 4m (wilds 3m, 4m)
    ref = reference_score(h)
    assert ref is not None and ref[1] == Flag.LONG and ref[0] == 4
    check_agreement(h)
    h = prepare("123456789p1122z", "2z", "4p", "", rules=YIYOU)
    ref = reference_score(h)  # 4p 5p each once, playing themselves in the 饼 dragon: 素本龙 16
    assert ref is not None and ref[0] == 16 and ref[1] == Flag.LONG | Flag.BENHUN | Flag.SUBEN
    check_agreement(h)
    h = prepare("12346789m99p222z", "5m", "4m", "", rules=YIYOU)  # 素本伍龙 (R5.1): 28
    ref = reference_score(h)
    assert ref is not None and ref[0] == 28
    check_agreement(h)


# --------------------------------------------------------------------------------------------
# hypothesis strategies
# --------------------------------------------------------------------------------------------

_SEQ_STARTS = [s * 9 + p for s in range(3) for p in range(7)]


def _take(avail: list[int], kinds: tuple[int, ...]) -> bool:
    need = Counter(kinds)
    if any(avail[k] < n for k, n in need.items()):
        return False
    for k in kinds:
        avail[k] -= 1
    return True


def _meld_candidates(avail: list[int], avoid: set[int]) -> list[tuple[int, ...]]:
    out = [(k, k, k) for k in range(34) if avail[k] >= 3 and k not in avoid]
    out += [(s, s + 1, s + 2) for s in _SEQ_STARTS if all(avail[s + i] and s + i not in avoid for i in range(3))]
    return out


@st.composite
def _exposed_meld(draw: st.DrawFn, avail: list[int], wilds: tuple[Tile, ...]) -> Meld | None:
    """A pon / discard kong / added kong of a non-wild kind, or a concealed kong (金杠 if wild, R2)."""
    mtype = draw(st.sampled_from([t for t in MeldType if t is not MeldType.CHI]))  # no chi in Tianjin (R4)
    if mtype is MeldType.CONCEALED_KONG:
        kinds = [k for k in range(34) if avail[k] >= 4]
    else:
        kinds = [k for k in range(34) if avail[k] >= mtype.size and k not in wilds]
    if not kinds:
        return None
    k = draw(st.sampled_from(kinds))
    avail[k] -= mtype.size
    return Meld(mtype, Tile(k))


@st.composite
def complete_hands(draw: st.DrawFn, mode: str = "random", rules: tuple[Rules, ...] = (CLASSIC,)) -> HandInput:
    """A complete hand built from groups, then up to 8 tiles turned into wilds (R2 copy limits kept).

    ``mode``: ``random`` groups; ``dragon`` (a 1-9 straight of a suit); ``zhuowu`` (a 4m5m6m,
    drawn on its 5m or a wild); ``terminal`` (a 1 or 9 at a sequence end or a pair, two of the
    group's tiles wild); ``suben`` (a straight in the wilds' suit holding one of each wild kind).
    """
    r = draw(st.sampled_from(rules))
    indicator = draw(st.integers(0, 26 if mode == "suben" else 33))  # 素本 needs number-suit wilds
    wilds = wild_kinds(indicator, r.wild_kinds)
    avail = [4] * 34
    avail[indicator] -= 1  # the face-up indicator is one of the four copies
    avoid: set[int] = set(wilds) if mode == "suben" else set()

    groups: list[tuple[int, ...]] = []
    forced_wild: list[tuple[int, int]] = []  # (group index, slot) made wild whatever happens
    pair_done = False
    if mode in ("dragon", "suben"):
        suit = indicator // 9 if mode == "suben" else draw(st.integers(0, 2))
        for p in (0, 3, 6):
            seq = (suit * 9 + p, suit * 9 + p + 1, suit * 9 + p + 2)
            assert _take(avail, seq)
            groups.append(seq)
    elif mode == "zhuowu":
        assert _take(avail, (3, 4, 5))
        groups.append((3, 4, 5))
    elif mode == "terminal":
        suit = draw(st.integers(0, 2))
        low = draw(st.booleans())
        t = suit * 9 + (0 if low else 8)
        shape = draw(st.sampled_from(["seq", "pair"]))
        if shape == "seq":
            seq = (t, t + 1, t + 2) if low else (t - 2, t - 1, t)
            if _take(avail, seq):
                groups.append(seq)
                slots = draw(st.sampled_from([(0, 1), (0, 2), (1, 2)]))
                forced_wild += [(0, s) for s in slots]
        elif _take(avail, (t, t)):
            groups.append((t, t))
            forced_wild += [(0, 0), (0, 1)]
            pair_done = True

    melds: list[Meld] = []
    if draw(st.integers(0, 3)) == 0:
        m = draw(_exposed_meld(avail, wilds))
        if m is not None:
            melds.append(m)
    n_melds = sum(len(g) == 3 for g in groups)
    while n_melds < 4 - len(melds):
        cands = _meld_candidates(avail, avoid)
        if not cands:
            break
        g = draw(st.sampled_from(cands))
        assert _take(avail, g)
        groups.append(g)
        n_melds += 1
    if not pair_done:
        kinds = [k for k in range(34) if avail[k] >= 2 and k not in avoid]
        if kinds:
            k = draw(st.sampled_from(kinds))
            avail[k] -= 2
            groups.append((k, k))
    tiles = [t for g in groups for t in g]
    positions = [i for i, g in enumerate(groups) for _ in g]
    offset = [sum(len(g) for g in groups[:gi]) for gi in range(len(groups))]

    def to_wild(i: int) -> bool:
        free = [k for k in wilds if avail[k] > 0]
        if tiles[i] in wilds or not free:
            return False
        k = draw(st.sampled_from(free))
        avail[tiles[i]] += 1
        avail[k] -= 1
        tiles[i] = k
        return True

    for gs in forced_wild:
        to_wild(offset[gs[0]] + gs[1])
    n_wild = draw(st.sampled_from([0, 0, 1])) if mode == "suben" else draw(st.integers(0, 8))
    for _ in range(n_wild):
        nonwild = [i for i, t in enumerate(tiles) if t not in wilds]
        if not nonwild:
            break
        to_wild(draw(st.sampled_from(nonwild)))

    # the winning tile: any tile, or (to make elements arise) a wild, a 5m, a tile of the forced groups
    bias = draw(st.sampled_from(["any", "wild", "five", "forced"]))
    n_forced = 3 if mode in ("dragon", "suben") else 1 if mode in ("zhuowu", "terminal") else 0
    cands = {
        "any": list(range(len(tiles))),
        "wild": [i for i, t in enumerate(tiles) if t in wilds],
        "five": [i for i, t in enumerate(tiles) if t == 4],
        "forced": [i for i in range(len(tiles)) if positions[i] < n_forced],
    }[bias] or list(range(len(tiles)))
    win = tiles.pop(draw(st.sampled_from(cands)))
    expected = 13 - 3 * len(melds)
    if len(tiles) != expected:  # a group could not be placed (copies used up): try another example
        reject()
    kong = any(m.type.is_kong for m in melds)
    kong_draw = kong and draw(st.booleans())
    return prepare(tiles, win, indicator, melds, kong_draw=kong_draw, rules=r)


@st.composite
def random_hands(draw: st.DrawFn, rules: tuple[Rules, ...] = (CLASSIC,)) -> HandInput:
    """Fully random tiles (mostly incomplete), with the R2 copy limits and sometimes one exposed meld."""
    r = draw(st.sampled_from(rules))
    indicator = draw(st.integers(0, 33))
    wilds = wild_kinds(indicator, r.wild_kinds)
    avail = [4] * 34
    avail[indicator] -= 1
    melds: list[Meld] = []
    if draw(st.integers(0, 4)) == 0:
        m = draw(_exposed_meld(avail, wilds))
        if m is not None:
            melds.append(m)
    tiles: list[int] = []
    for _ in range(14 - 3 * len(melds)):
        k = draw(st.sampled_from([k for k in range(34) if avail[k]]))
        avail[k] -= 1
        tiles.append(k)
    win = tiles.pop()
    kong_draw = any(m.type.is_kong for m in melds) and draw(st.booleans())
    return prepare(tiles, win, indicator, melds, kong_draw=kong_draw, rules=r)


# --------------------------------------------------------------------------------------------
# the properties: fast path == reference (R5.1, R5.2)
# --------------------------------------------------------------------------------------------


@props(1200)
@given(complete_hands("random"))
def test_agrees_random_groups(h: HandInput) -> None:
    """(a) random complete hands, 0-8 wilds, some with an exposed meld and 杠开."""
    check_agreement(h)


@props(700)
@given(complete_hands("dragon"))
def test_agrees_near_dragon(h: HandInput) -> None:
    """(b) a 1-9 straight with some tiles wild: 龙, 混儿吊 outside the dragon, 本混儿."""
    check_agreement(h)


@props(600)
@given(complete_hands("zhuowu"))
def test_agrees_zhuowu(h: HandInput) -> None:
    """(b) 4m/6m with a 5m or wild draw: 捉伍儿, 双混儿伍儿."""
    check_agreement(h)


@props(600)
@given(complete_hands("terminal"))
def test_agrees_terminal_wilds(h: HandInput) -> None:
    """(c) a 1 or a 9 at the end of a sequence or in a pair, two of the group's tiles wild."""
    check_agreement(h)


@props(1000)
@given(random_hands((CLASSIC, WK1, WK3)))
def test_agrees_random_tiles(h: HandInput) -> None:
    """(d) fully random 14 tiles: completeness (R5) and, when complete, fan and flags."""
    check_agreement(h)


@props(500)
@given(complete_hands("suben", rules=(YIYOU, YIYOU3)))
def test_agrees_suben(h: HandInput) -> None:
    """(e) yiyou (素本 on): one tile of each wild kind inside a straight of the wilds' suit."""
    check_agreement(h)


@props(800)
@given(
    st.one_of(
        complete_hands("random", rules=(WK1, WK3)),
        complete_hands("dragon", rules=(WK1, WK3)),
        complete_hands("zhuowu", rules=(WK1, WK3)),
        complete_hands("terminal", rules=(WK1, WK3)),
    )
)
def test_agrees_one_and_three_wild_kinds(h: HandInput) -> None:
    """(f) the option wild_kinds (R2) = 1 and 3."""
    check_agreement(h)


@props(300)
@given(st.one_of(complete_hands("random"), complete_hands("dragon"), complete_hands("zhuowu")))
def test_reference_arrangement_rescores(h: HandInput) -> None:
    """The reference's best arrangement, scored again by the element classes, gives its reported fan."""
    ref = reference_score(h)
    assert ref is not None  # built from groups, so complete (R5)
    fan, flags, arr = ref
    check_arrangement(h, arr)
    assert rescore(arr) == (fan, flags)
    assert fan == fan_of(flags)


def _wild_count(h: HandInput) -> int:
    return sum(t in h.wilds for t in (*h.concealed, h.draw))


@props(300)
@given(
    st.one_of(
        complete_hands("random", rules=(CLASSIC, WK3)),
        complete_hands("dragon", rules=(CLASSIC, YIYOU)),
        complete_hands("zhuowu", rules=(CLASSIC, YIYOU)),
        complete_hands("terminal"),
        complete_hands("suben", rules=(YIYOU, YIYOU3)),
    ).filter(lambda h: _wild_count(h) <= 4)
)
def test_reference_reductions_are_exact(h: HandInput) -> None:
    """The reductions of tjmj.families.tianjin.reference (steps 2-4 of its docstring) change no answer (R5.2)."""
    fast, full = reference_score(h), reference_score(h, full=True)
    assert (fast and fast[:2]) == (full and full[:2]), h.describe()
