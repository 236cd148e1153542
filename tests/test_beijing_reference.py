"""Hypothesis properties of the Beijing scorer (docs/rules/BEIJING.md B3–B5): the fast path
(tjmj.families.beijing.score) agrees with the exhaustive reference (…beijing.reference) on
completeness, the win, the value and the element set, for hands built from random groups with 0–4
wilds, chi/pon/kong melds (claimed wilds too), both presets, custom rule sets and random win
contexts, and for fully random hands; ``waits`` and 混儿悠 readiness agree with brute force over
all 34 kinds."""

from __future__ import annotations

from collections import Counter
from typing import cast

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from tests.test_reference import PROPERTY_SHARE
from tjmj.families.beijing.elements import WinContext
from tjmj.families.beijing.reference import reference_complete
from tjmj.families.beijing.rules import BEIJING, BEIJING_A, BeijingRules
from tjmj.families.beijing.score import (
    BeijingHand,
    InvalidBeijingHand,
    prepare_beijing,
    score_beijing,
    scorer_for,
)
from tjmj.families.beijing.waits import waits
from tjmj.meld import Meld, MeldType
from tjmj.tiles import TILES, counts_of, successor

from .test_beijing_score import check

RULESETS: tuple[BeijingRules, ...] = (
    BEIJING,
    BEIJING_A,
    cast(BeijingRules, BEIJING.replace(cap=32)),
    cast(BeijingRules, BEIJING_A.replace(wilds=True)),  # version A's fan (对对和, 大钓) with a wild
    cast(BeijingRules, BEIJING.replace(max_claims=0, claimed_self_draw_only=False)),
)
_SEQ_STARTS = [s * 9 + p for s in range(3) for p in range(7)]


def props(n: int) -> settings:
    """``n`` examples at full strength, of which ``PROPERTY_SHARE`` are drawn (tests/test_reference.py)."""
    return settings(max_examples=max(50, round(n * PROPERTY_SHARE)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _take(avail: list[int], kinds: tuple[int, ...]) -> bool:
    need = Counter(kinds)
    if any(avail[k] < n for k, n in need.items()):
        return False
    for k in kinds:
        avail[k] -= 1
    return True


@st.composite
def _melds(draw: st.DrawFn, rules: BeijingRules, avail: list[int], n: int, allowed: set[int],
           no_chi: bool) -> list[Meld]:
    """Up to ``n`` exposed melds within the copies left; wild kinds may be claimed (B2)."""
    out: list[Meld] = []
    claims = 0
    for _ in range(n):
        types = [MeldType.CONCEALED_KONG, MeldType.KONG]
        if not rules.max_claims or claims < rules.max_claims:
            types += [MeldType.PON, MeldType.ADDED_KONG] + ([] if no_chi else [MeldType.CHI])
        t = draw(st.sampled_from(types))
        if t is MeldType.CHI:
            starts = [s for s in _SEQ_STARTS if all(avail[s + i] and s + i in allowed for i in range(3))]
            if not starts:
                continue
            s = draw(st.sampled_from(starts))
            _take(avail, (s, s + 1, s + 2))
            out.append(Meld(t, TILES[s]))
        else:
            kinds = [k for k in range(34) if avail[k] >= t.size and k in allowed]
            if not kinds:
                continue
            k = draw(st.sampled_from(kinds))
            avail[k] -= t.size
            out.append(Meld(t, TILES[k]))
        claims += t in (MeldType.CHI, MeldType.PON, MeldType.ADDED_KONG)
    return out


@st.composite
def _context(draw: st.DrawFn, rules: BeijingRules, wild: int | None, tiles: list[int], win: int,
             melds: list[Meld]) -> WinContext:
    """A random win context that can happen (B3, B5)."""
    self_drawn = draw(st.booleans())
    rob_kong = not self_drawn and draw(st.booleans())
    last_tile = draw(st.sampled_from([False, False, True]))
    kong_draw = self_drawn and not last_tile and any(m.type.is_kong for m in melds) and draw(st.booleans())
    dealer = draw(st.booleans())
    hunyou = hungang = tianhe = dihe = False
    if self_drawn and wild is not None and rules.hunyou and draw(st.sampled_from([False, False, True])):
        hunyou = scorer_for(TILES[_indicator_of(wild)], rules).hunyou_ready(counts_of(tiles), len(melds))
    if self_drawn and wild is not None and [*tiles, win].count(wild) == 4:
        hungang = draw(st.booleans())
    if self_drawn and not melds and not kong_draw and not hungang and draw(st.sampled_from([False] * 5 + [True])):
        tianhe, dihe = dealer, not dealer
    return WinContext(self_drawn, dealer, last_tile, kong_draw, rob_kong, hunyou, hungang, tianhe, dihe)


def _indicator_of(wild: int) -> int:
    return next(k for k in range(34) if successor(k) == wild)


@st.composite
def complete_hands(draw: st.DrawFn, mode: str = "random") -> BeijingHand:
    """A complete hand from random groups, then 0–4 of its concealed tiles turned into wilds.

    ``mode``: ``random`` groups; ``dragon`` (123 456 789 of a suit); ``zhuowu`` (a 4m5m6m, won on its
    5m more often than not); ``pairs`` (seven pairs, a kind twice now and then); ``triplets`` (no
    sequence: 对对和); ``suit`` (one suit, honours or not: 清一色 / 混一色 / 字一色)."""
    rules = draw(st.sampled_from(RULESETS))
    indicator = draw(st.integers(0, 33)) if rules.wilds else None
    wild = int(successor(indicator)) if indicator is not None else None
    avail = [4] * 34
    if indicator is not None:
        avail[indicator] -= 1  # the face-up 混坯 is one of the four copies
    allowed = set(range(34))
    if mode == "suit":
        choice = draw(st.sampled_from(["m", "p", "s", "mz", "pz", "sz", "z"]))
        allowed = {k for k in range(34) if "mpsz"[k // 9] in choice}
    if mode == "pairs":
        n_melds = 0
    else:
        n_melds = draw(st.sampled_from([0, 0, 0, 1, 1, 2, 3, 4] if mode != "dragon" else [0, 0, 1]))
    melds = draw(_melds(rules, avail, n_melds, allowed, mode == "triplets"))
    groups: list[tuple[int, ...]] = []
    if mode == "dragon":
        suit = draw(st.integers(0, 2))
        for p in (0, 3, 6):
            if not _take(avail, (suit * 9 + p, suit * 9 + p + 1, suit * 9 + p + 2)):
                reject()
            groups.append((suit * 9 + p, suit * 9 + p + 1, suit * 9 + p + 2))
    elif mode == "zhuowu":
        if not _take(avail, (3, 4, 5)):
            reject()
        groups.append((3, 4, 5))
    if mode == "pairs":
        for _ in range(7):
            kinds = [k for k in range(34) if avail[k] >= 2]
            k = draw(st.sampled_from(kinds))
            avail[k] -= 2
            groups.append((k, k))
    else:
        while len(groups) < 4 - len(melds):
            cands = [(k, k, k) for k in range(34) if avail[k] >= 3 and k in allowed]
            if mode != "triplets":
                cands += [(s, s + 1, s + 2) for s in _SEQ_STARTS
                          if all(avail[s + i] and s + i in allowed for i in range(3))]
            if not cands:
                reject()
            g = draw(st.sampled_from(cands))
            _take(avail, g)
            groups.append(g)
        kinds = [k for k in range(34) if avail[k] >= 2 and k in allowed]
        if not kinds:
            reject()
        k = draw(st.sampled_from(kinds))
        avail[k] -= 2
        groups.append((k, k))
    tiles = [t for g in groups for t in g]
    n_forced = {"dragon": 9, "zhuowu": 3}.get(mode, 0)
    if wild is not None:
        for _ in range(draw(st.integers(0, 4))):
            spots = [i for i, t in enumerate(tiles) if t != wild]
            if avail[wild] <= 0 or not spots:
                break
            i = draw(st.sampled_from(spots))
            avail[tiles[i]] += 1
            avail[wild] -= 1
            tiles[i] = wild
    bias = draw(st.sampled_from(["any", "wild", "five", "forced"]))
    spots = {
        "any": list(range(len(tiles))),
        "wild": [i for i, t in enumerate(tiles) if t == wild],
        "five": [i for i, t in enumerate(tiles) if t == 4],
        "forced": list(range(n_forced)),
    }[bias] or list(range(len(tiles)))
    win = tiles.pop(draw(st.sampled_from(spots)))
    ctx = draw(_context(rules, wild, tiles, win, melds))
    try:
        return prepare_beijing(tiles, win, melds=melds, indicator=indicator, rules=rules, context=ctx)
    except InvalidBeijingHand:  # a rare context the generator cannot rule out (e.g. 混杠 with 天和)
        reject()


@st.composite
def random_hands(draw: st.DrawFn) -> BeijingHand:
    """Random tiles within the copy limits (mostly incomplete), 0–2 melds, often a wild or two."""
    rules = draw(st.sampled_from(RULESETS))
    indicator = draw(st.integers(0, 33)) if rules.wilds else None
    wild = int(successor(indicator)) if indicator is not None else None
    avail = [4] * 34
    if indicator is not None:
        avail[indicator] -= 1
    melds = draw(_melds(rules, avail, draw(st.sampled_from([0, 0, 1, 2])), set(range(34)), False))
    tiles: list[int] = []
    for _ in range(14 - 3 * len(melds)):
        wants_wild = wild is not None and avail[wild] > 0 and draw(st.sampled_from([False] * 5 + [True]))
        k = wild if wants_wild else draw(st.sampled_from([k for k in range(34) if avail[k] > 0]))
        assert k is not None
        avail[k] -= 1
        tiles.append(k)
    win = tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    self_drawn = draw(st.booleans())
    ctx = WinContext(self_drawn=self_drawn, dealer=draw(st.booleans()), rob_kong=not self_drawn and draw(st.booleans()))
    return prepare_beijing(tiles, win, melds=melds, indicator=indicator, rules=rules, context=ctx)


def agree(h: BeijingHand) -> None:
    check(h)  # fast == reference (value, elements, win), evaluate, and the arrangement re-scored
    assert h.draw is not None
    if not h.context.hungang:
        scorer = scorer_for(h.indicator, h.rules)
        fast = scorer.is_complete(h.counts, len(h.melds))
        assert fast == reference_complete(list(h.counts), h.wild, len(h.melds)), h.describe()
        r = scorer.score(h.counts, h.draw, h.melds, h.context)
        assert r.complete == fast


@props(700)
@given(complete_hands("random"))
def test_random_groups(h: BeijingHand) -> None:
    agree(h)


@props(300)
@given(complete_hands("dragon"))
def test_dragons(h: BeijingHand) -> None:
    """一条龙, 本混儿龙 (B5) with wilds in and out of the dragon."""
    agree(h)


@props(300)
@given(complete_hands("zhuowu"))
def test_zhuowukui(h: BeijingHand) -> None:
    """捉五魁 (B5): the winning 5m, wild 4m/5m/6m, the 13 tiles' other waits."""
    agree(h)


@props(300)
@given(complete_hands("pairs"))
def test_seven_pairs(h: BeijingHand) -> None:
    """七对子 / 豪华七对子 (B4, B5) with wilds, and the standard shape where both fit."""
    agree(h)


@props(250)
@given(complete_hands("triplets"))
def test_triplets(h: BeijingHand) -> None:
    """对对和 and 大钓 (version A's column, also with a wild)."""
    agree(h)


@props(250)
@given(complete_hands("suit"))
def test_one_suit(h: BeijingHand) -> None:
    """清一色 / 混一色 / 字一色 as the tiles play (B5 note)."""
    agree(h)


@props(1500)
@given(random_hands())
def test_random_tiles(h: BeijingHand) -> None:
    agree(h)


@props(250)
@given(complete_hands("random"), st.booleans())
def test_waits_match_brute_force(h: BeijingHand, discard: bool) -> None:
    """``waits`` lists exactly the kinds whose arrival completes the 13 tiles (and a copy of which
    is unseen), each with the value and elements the scorer gives that win."""
    ctx = WinContext(self_drawn=not discard, dealer=h.context.dealer)
    got = {int(w.tile): w for w in waits(h.concealed, h.melds, h.indicator, h.rules, ctx)}
    expected = {}
    for k in range(34):
        try:
            r = score_beijing(h.concealed, k, melds=h.melds, indicator=h.indicator, rules=h.rules, context=ctx)
        except InvalidBeijingHand:
            continue  # every copy is already seen
        if r.complete:
            expected[k] = r
    assert set(got) == set(expected)
    for k, r in expected.items():
        w = got[k]
        assert (w.value, w.flags, w.win, w.reason) == (r.value, r.flags, r.win, r.reason)
        assert w.codes == r.codes and w.name == r.name and 1 <= w.live <= 4


@st.composite
def hunyou_hands(draw: st.DrawFn) -> tuple[BeijingRules, int, list[int], list[Meld]]:
    """13 tiles: four melds (or six pairs) and a lone wild, then now and then one tile swapped for a
    random kind, so that ready and not-ready hands both come up."""
    rules = draw(st.sampled_from([r for r in RULESETS if r.wilds]))
    indicator = draw(st.integers(0, 33))
    wild = int(successor(indicator))
    avail = [4] * 34
    avail[indicator] -= 1
    avail[wild] -= 1
    tiles = [wild]
    melds: list[Meld] = []
    if draw(st.booleans()):
        for _ in range(6):
            k = draw(st.sampled_from([k for k in range(34) if avail[k] >= 2]))
            avail[k] -= 2
            tiles += [k, k]
    else:
        melds = draw(_melds(rules, avail, draw(st.integers(0, 2)), set(range(34)), False))
        while len(tiles) < 13 - 3 * len(melds):
            cands = [(k, k, k) for k in range(34) if avail[k] >= 3]
            cands += [(s, s + 1, s + 2) for s in _SEQ_STARTS if all(avail[s + i] for i in range(3))]
            g = draw(st.sampled_from(cands))
            _take(avail, g)
            tiles += g
    if draw(st.booleans()):
        i = draw(st.integers(0, len(tiles) - 1))
        k = draw(st.sampled_from([k for k in range(34) if avail[k] > 0]))
        avail[tiles[i]] += 1
        avail[k] -= 1
        tiles[i] = k
    return rules, indicator, tiles, melds


@props(500)
@given(hunyou_hands())
def test_hunyou_ready_is_winning_on_every_draw(case: tuple[BeijingRules, int, list[int], list[Meld]]) -> None:
    """B3 混儿悠: ``hunyou_ready`` (13 tiles less one wild are four melds or six pairs) is exactly
    "the 13 tiles complete on every one of the 34 kinds" (docs/scoring-beijing.md gives the proof)."""
    rules, indicator, tiles, melds = case
    c13 = counts_of(tiles)
    scorer = scorer_for(TILES[indicator], rules)
    n = len(melds)
    brute = all(reference_complete([x + (k == j) for j, x in enumerate(c13)], scorer.wild, n) for k in range(34))
    assert scorer.hunyou_ready(c13, n) == brute, (tiles, melds)
