"""Waits and shanten with wilds (R5): brute force over draws, and the `mahjong` library on wild-free hands."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tjmj import score
from tjmj.families.tianjin.samples import random_complete_hand, random_hand
from tjmj.families.tianjin.waits import shanten, waits
from tjmj.hand import InvalidHand, shanten_counts
from tjmj.tiles import Tile, counts_of, format_tiles


def test_hundiao_waits_on_everything_r5_1():
    w = waits("123m678p999p234s4p", "4p")
    assert w.ready and w.hundiao and w.shanten == 0
    assert len(w.winning) == 34 - 0  # every kind can still be drawn
    assert all("HUNDIAO" in x.codes for x in w.winning)


def test_waits_match_scoring_each_draw():
    hand, ind = "1234679m999p4p22z", "4p"
    w = waits(hand, ind)
    got = {str(x.tile): (x.fan, x.name) for x in w.complete}
    assert got == {"5m": (7, "捉伍儿龙"), "8m": (4, "龙"), "4p": (7, "捉伍儿龙"), "5p": (7, "捉伍儿龙")}
    assert not w.hundiao


def test_kong_replacement_fan():
    w = waits("123m678p3s4p22z", "4p", "[9999p]")
    by = {str(x.tile): x for x in w.complete}
    assert by["2s"].fan == 1 and not by["2s"].win  # 死提溜 on a normal draw
    assert by["2s"].kong_fan == 2  # 杠开 on a replacement draw (R5.4)


def test_live_counts_exclude_visible_copies():
    w = waits("1p1p1p2p3p456p789p66z", "1p")
    kinds = {str(x.tile) for x in w.complete}
    assert "1p" not in kinds  # three in hand + the face-up indicator
    assert {x.live for x in w.complete if str(x.tile) == "6z"} == {2}


def test_waits_agree_with_score_on_random_hands():
    rng = random.Random(3)
    for _ in range(150):
        h = random_complete_hand(rng)
        w = waits(h.concealed, h.indicator, h.melds)
        got = {int(x.tile): (x.fan, x.win) for x in w.complete}
        expect = {}
        for k in range(34):
            try:
                r = score(h.concealed, Tile(k), h.indicator, h.melds)
            except InvalidHand:  # no copy left to draw
                continue
            if r.complete:
                expect[k] = (r.fan, r.win)
        assert got == expect
        assert w.shanten == 0 and int(h.draw) in got


def test_shanten_examples():
    assert shanten("123m456p789s1122z", "5z") == 0
    assert shanten("123m456p789s111z2z", "5z", draw="2z") == -1
    assert shanten("123m456p789s111z2z", "5z", draw="3z") == 0
    # two wilds (5z 6z): they fill two gaps
    assert shanten("13m46p789s111z2z56z", "5z") == 0
    assert shanten("13m46p79s1122z3z56z", "5z") == 1  # 79s, 22z, 3z still need two tiles


def _brute_shanten(nonwild: list[int], w: int, m: int, depth: int) -> int:
    """Fewest wild-joker additions completing the hand (tiles may be dropped) − 1, searched directly."""
    from tjmj._tables import wilds_needed

    # complete after dropping some tiles and adding J jokers: J = total needed − kept
    best = 99
    kinds = [k for k in range(34) if nonwild[k]]

    def rec(i: int, c: list[int], dropped: int) -> None:
        nonlocal best
        if dropped > depth:
            return
        if i == len(kinds):
            keys = [0, 0, 0, 0]
            for k in range(34):
                keys[k // 9] += c[k] << (3 * (k % 9))
            need = wilds_needed(*keys, True)
            kept = sum(c) + w
            total = 3 * m + 2
            if need <= w + (total - kept) and kept <= total:
                best = min(best, total - kept)
            return
        k = kinds[i]
        for drop in range(nonwild[k] + 1):
            c[k] = nonwild[k] - drop
            rec(i + 1, c, dropped + drop)
        c[k] = nonwild[k]

    rec(0, list(nonwild), 0)
    return best - 1


@settings(max_examples=120, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 4))
def test_shanten_matches_brute_force(rnd, n_wild):
    """Shanten = fewest tiles to add (dropping others) for completeness, minus one; checked by search."""
    h = random_hand(rnd, size=14)
    tiles = list(h.concealed)[: 13 - n_wild]  # the rest of the 13 are wilds
    c = counts_of(tiles)
    got = shanten_counts(c, n_wild, 4)
    assert got == _brute_shanten(c, n_wild, 4, depth=13), format_tiles(sorted(tiles))


def test_shanten_agrees_with_mahjong_library_without_wilds():
    """On wild-free hands our regular-hand shanten equals `mahjong`'s (chiitoitsu/kokushi off)."""
    mj = pytest.importorskip("mahjong.shanten")
    calc = mj.Shanten()
    rng = random.Random(11)
    for _ in range(400):
        wall = [k for k in range(34) for _ in range(4)]
        rng.shuffle(wall)
        tiles = wall[:13]
        c = counts_of(tiles)
        ours = shanten_counts(c, 0, 4)
        theirs = calc.calculate_shanten(c, use_chiitoitsu=False, use_kokushi=False)
        assert ours == theirs, format_tiles(sorted(tiles))
