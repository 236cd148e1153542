"""The MCR calculator against its reference, PyMahjongGB (docs/rules/MCR.md M3): fan by fan, on
100,000 random winning hands of every shape per run (four seeded chunks), on hands one tile off
a win (both must say "not a win"), and on every hand tests/test_mcr_score.py states.

Fans are matched by their English names (PyMahjongGB's, which :mod:`tjmj.families.mcr.fans`
uses; its Chinese names for the waits are 独听・边张 etc. where the rule book says 边张).  Zero
disagreements are required; where the rule book reads otherwise than PyMahjongGB the case is in
tests/test_mcr_score.py with the book's text (docs/scoring-mcr.md lists them).

PyMahjongGB is a test dependency (the dev extra: ``pymahjonggb==1.4.0``); without it this module
is skipped.
"""

from __future__ import annotations

import ast
import random
import time
from collections import Counter
from pathlib import Path

import pytest

MahjongGB = pytest.importorskip(
    "MahjongGB", reason="pymahjonggb is not installed (pip install pymahjonggb==1.4.0, the dev extra): "
                        "the differential check against it cannot run")

from tjmj.families.mcr.fans import FAN_BY_CODE, FANS  # noqa: E402
from tjmj.families.mcr.reference import Hand, pymahjonggb_args, random_hand  # noqa: E402
from tjmj.families.mcr.score import McrMeld, McrResult, McrSituation, score_mcr  # noqa: E402
from tjmj.tiles import TILES, Tile, format_tiles, parse_tiles  # noqa: E402

calculator = MahjongGB.MahjongFanCalculator

CHUNKS = 4
PER_CHUNK = 25_000  # 100,000 winning hands per run
NEAR_MISSES = 2_500  # per chunk


def reference(hand: Hand) -> dict[str, int] | None:
    """PyMahjongGB's fans by English name (花牌 included), or None for "not a win"."""
    try:
        got = calculator(**pymahjonggb_args(*hand))
    except TypeError as e:
        if "NOT_WIN" in str(e):
            return None
        raise
    return {en: count for _, count, _, en in got}


def ours(result: McrResult) -> dict[str, int] | None:
    if not result.complete:
        return None
    return {e.english: e.count for e in result.fans}


def describe(hand: Hand) -> str:
    concealed, win, melds, sit = hand
    ms = " ".join(f"{m.type}:{m.tile}" for m in melds)
    return f"{format_tiles(concealed)} + {win} [{ms}] {sit}"


def compare(hands: list[Hand]) -> tuple[int, list[str], Counter]:
    """(agreements, the first disagreements described, how often each fan was seen)."""
    agreed = 0
    bad: list[str] = []
    seen: Counter = Counter()
    for hand in hands:
        r = score_mcr(*hand, min_fan=0)
        mine = ours(r)
        ref = reference(hand)
        if mine is not None:
            codes = {e.code for e in r.fans}
            seen.update(codes)
            total = sum(e.fan * e.count for e in r.fans if e.code != "flower_tiles")
            assert total == r.fan
            # the exclusions hold in every answer: no fan beside one that excludes it (不计)
            for code in codes:
                assert not codes.intersection(FAN_BY_CODE[code].excludes), (describe(hand), code)
        if mine == ref:
            agreed += 1
        elif len(bad) < 10:
            bad.append(f"{describe(hand)}\n    ours {mine}\n    ref  {ref}")
    return agreed, bad, seen


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_winning_hands(chunk: int) -> None:
    rng = random.Random(f"mcr-vs-pymahjonggb-{chunk}")
    hands = [random_hand(rng) for _ in range(PER_CHUNK)]
    t0 = time.perf_counter()
    agreed, bad, seen = compare(hands)
    elapsed = time.perf_counter() - t0
    shapes = Counter(score_mcr(*h).shape for h in hands[:2000])
    print(f"\nchunk {chunk}: {agreed}/{len(hands)} agree with PyMahjongGB ({elapsed:.1f} s); "
          f"shapes of the first 2000: {dict(shapes)}")
    assert agreed == len(hands), f"{len(hands) - agreed} disagreements, e.g.\n" + "\n".join(bad)
    missing = [f.code for f in FANS if f.code not in seen]
    assert not missing, f"the generator never produced {missing}"


def _near_miss(rng: random.Random, hand: Hand) -> Hand:
    """The hand with one concealed tile swapped for another kind (a fifth copy avoided)."""
    concealed, win, melds, sit = hand
    counts = Counter(int(t) for t in concealed) + Counter([int(win)])
    for m in melds:
        k = int(m.tile)
        for t in ((k, k + 1, k + 2) if m.type == "chi" else (k,) * (3 if m.type == "pon" else 4)):
            counts[t] += 1
    while True:
        new = rng.randrange(34)
        if counts[new] < 4:
            break
    tiles = list(concealed)
    tiles[rng.randrange(len(tiles))] = TILES[new]
    return sorted(tiles), win, melds, sit


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_one_tile_off(chunk: int) -> None:
    """Mostly not a win; both calculators must say so (and agree when it still is one)."""
    rng = random.Random(f"mcr-near-miss-{chunk}")
    hands = [_near_miss(rng, random_hand(rng)) for _ in range(NEAR_MISSES)]
    agreed, bad, _ = compare(hands)
    wins = sum(1 for h in hands if score_mcr(*h).complete)
    print(f"\nchunk {chunk}: {agreed}/{len(hands)} near misses agree ({wins} still complete)")
    assert agreed == len(hands), "\n".join(bad)


def _stated_cases() -> list[tuple]:
    """Every ``check(...)`` of tests/test_mcr_score.py (its arguments are literals), its M5 cases
    and its per-fan cases."""
    from tests import test_mcr_score as T

    tree = ast.parse(Path(T.__file__).read_text(encoding="utf-8"))
    cases = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check":
            try:
                cases.append(tuple(ast.literal_eval(a) for a in node.args))
            except ValueError:
                continue  # check(*case): the parametrised ones, added below
    cases += [(c, w, (), {"self_drawn": True}, n, f) for c, w, n, f in T.M5]
    cases += [c[1:] for c in T.FAN_CASES]
    return cases


def test_stated_cases_are_pymahjonggbs() -> None:
    from tests.test_mcr_score import melds_of

    cases = _stated_cases()
    assert len(cases) > 120
    for concealed, win, melds, situation, _names, fan in cases:
        hand: Hand = (parse_tiles(concealed), Tile.parse(win), melds_of(melds), McrSituation(**situation))
        ref = reference(hand)
        assert ref is not None, describe(hand)
        assert ours(score_mcr(*hand, min_fan=0)) == ref, describe(hand)
        by_english = {f.english: f for f in FANS}
        assert sum(by_english[en].value * n for en, n in ref.items() if en != "Flower Tiles") == fan


def test_english_names_and_values_are_pymahjonggbs() -> None:
    """Every fan PyMahjongGB names in the random hands is ours, with the same value."""
    rng = random.Random("mcr-names")
    values: dict[str, int] = {}
    for _ in range(3000):
        hand = random_hand(rng)
        for v, _, _, en in calculator(**pymahjonggb_args(*hand)):
            values[en] = v
    ours_by_english = {f.english: f.value for f in FANS}
    for en, v in values.items():
        assert ours_by_english[en] == v, en


def test_speed_report() -> None:
    """Not a pass/fail speed test: prints hands per second of score_mcr and of PyMahjongGB's C++ on
    the same random winning hands (arguments prepared outside the timed loop)."""
    rng = random.Random("mcr-speed")
    hands = [random_hand(rng) for _ in range(5000)]
    args = [pymahjonggb_args(*h) for h in hands]
    best_ours = best_ref = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for h in hands:
            score_mcr(*h)
        best_ours = min(best_ours, time.perf_counter() - t)
        t = time.perf_counter()
        for a in args:
            calculator(**a)
        best_ref = min(best_ref, time.perf_counter() - t)
    print(f"\nscore_mcr {len(hands) / best_ours:,.0f} hands/s, PyMahjongGB {len(hands) / best_ref:,.0f} hands/s "
          f"(ratio {best_ref / best_ours:.2f})")


def test_meld_adapter() -> None:
    """The argument adapter: chi by its middle tile and which tile was claimed, kongs concealed or not."""
    melds = [McrMeld("chi", Tile.parse("1m"), Tile.parse("3m"), 1), McrMeld("pon", Tile.parse("5z"), None, 2),
             McrMeld("ankong", Tile.parse("6z"), None, 0), McrMeld("added_kong", Tile.parse("9s"), None, 3)]
    a = pymahjonggb_args(parse_tiles("7z"), Tile.parse("7z"), melds, McrSituation())
    assert a["pack"] == (("CHI", "W2", 3), ("PENG", "J1", 2), ("GANG", "J2", 0), ("GANG", "T9", 3))
    assert a["hand"] == ("J3",) and a["winTile"] == "J3"


def _suit_counts(n: int, left: int) -> list[list[int]]:
    """Every list of ``n`` counts 0..4 with sum ``left``."""
    if n == 0:
        return [[]] if left == 0 else []
    return [[c, *rest] for c in range(min(4, left) + 1) for rest in _suit_counts(n - 1, left - c)]


def test_every_concealed_one_suit_hand() -> None:
    """Every concealed winning hand of characters alone (15,349 of them; the suits are alike), on
    each of its kinds as the winning tile, won on a discard and self-drawn."""
    from tjmj.families.mcr.score import is_complete_mcr

    checked = agreed = complete = 0
    bad: list[str] = []
    situations = (McrSituation(), McrSituation(self_drawn=True))
    for counts in _suit_counts(9, 14):
        counts34 = counts + [0] * 25
        if not is_complete_mcr(counts34, 0):
            continue
        complete += 1
        for w, c in enumerate(counts):
            if not c:
                continue
            concealed = [TILES[k] for k in range(9) for _ in range(counts[k] - (k == w))]
            for sit in situations:
                hand: Hand = (concealed, TILES[w], [], sit)
                checked += 1
                if ours(score_mcr(*hand, min_fan=0)) == reference(hand):
                    agreed += 1
                elif len(bad) < 10:
                    bad.append(describe(hand))
    print(f"\n{complete} one-suit hands, {agreed}/{checked} scorings agree with PyMahjongGB")
    assert complete == 15349
    assert agreed == checked, "\n".join(bad)
