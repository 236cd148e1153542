"""Checking the MCR calculator against its reference (M3): random winning hands of every shape,
and the arguments PyMahjongGB's ``MahjongFanCalculator`` takes for one of them.

PyMahjongGB is a test and benchmark dependency only; this module never imports it, it only
writes the arguments: tiles as ``W1``–``W9`` (characters, our m), ``B1``–``B9`` (dots, p),
``T1``–``T9`` (bamboo, s), ``F1``–``F4`` (东南西北), ``J1``–``J3`` (中发白 — the same order as our
``5z 6z 7z``); packs as ``("CHI", middle tile, which tile was claimed 1..3)``,
``("PENG", tile, offer 1..3)``, ``("GANG", tile, offer)`` with offer 0 for a concealed kong (an
added kong is a claimed kong to it).  Its fan names are the Chinese names of :mod:`.fans`.

:func:`random_hand` draws a winning hand from a mix of shapes and tile palettes chosen so that
rare fans appear often enough to be checked: seven pairs, 十三幺, 全不靠/七星不靠, 组合龙, 九莲宝灯,
pure and half flushes, many honours, terminals, kongs, and random flags, winds and flowers.
"""

from __future__ import annotations

import random
from typing import Any

from ...tiles import TILES, Tile
from .score import McrMeld, McrSituation

__all__ = ["random_hand", "pymahjonggb_args", "pymahjonggb_tile", "Hand"]

Hand = tuple[list[Tile], Tile, list[McrMeld], McrSituation]

_PMG_SUIT = ("W", "B", "T")  # our m, p, s
_PMG_HONOR = ("F1", "F2", "F3", "F4", "J1", "J2", "J3")


def pymahjonggb_tile(k: int) -> str:
    """Our kind as PyMahjongGB's tile code."""
    return _PMG_HONOR[k - 27] if k >= 27 else f"{_PMG_SUIT[k // 9]}{k % 9 + 1}"


def pymahjonggb_args(concealed: list[Tile], win: Tile, melds: list[McrMeld], sit: McrSituation) -> dict[str, Any]:
    """Keyword arguments of ``MahjongGB.MahjongFanCalculator`` for this hand (``verbose=True``)."""
    packs = []
    for m in melds:
        if m.type == "chi":
            offer = (m.claimed - m.tile + 1) if m.claimed is not None else 1
            packs.append(("CHI", pymahjonggb_tile(m.tile + 1), offer))
        elif m.type == "pon":
            packs.append(("PENG", pymahjonggb_tile(m.tile), m.offer or 1))
        elif m.type == "ankong":
            packs.append(("GANG", pymahjonggb_tile(m.tile), 0))
        else:
            packs.append(("GANG", pymahjonggb_tile(m.tile), m.offer or 1))
    return {
        "pack": tuple(packs),
        "hand": tuple(pymahjonggb_tile(t) for t in concealed),
        "winTile": pymahjonggb_tile(win),
        "flowerCount": sit.flowers,
        "isSelfDrawn": sit.self_drawn,
        "is4thTile": sit.fourth_tile,
        "isAboutKong": sit.about_kong,
        "isWallLast": sit.wall_last,
        "seatWind": sit.seat_wind,
        "prevalentWind": sit.prevalent_wind,
        "verbose": True,
    }


# --- the generator ----------------------------------------------------------------------------

_SUITED = tuple(range(27))
_HONORS = tuple(range(27, 34))
_PALETTES: dict[str, tuple[int, ...]] = {
    "any": tuple(range(34)),
    "suited": _SUITED,
    "simples": tuple(k for k in _SUITED if k % 9 not in (0, 8)),
    "terminals": tuple(k for k in _SUITED if k % 9 in (0, 8)) + _HONORS,
    "green": (19, 20, 21, 23, 25, 32),
    "reversible": (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33),
    "low": tuple(k for k in _SUITED if k % 9 <= 3),
    "high": tuple(k for k in _SUITED if k % 9 >= 5),
    "middle": tuple(k for k in _SUITED if 3 <= k % 9 <= 5),
    "even": tuple(k for k in _SUITED if k % 9 in (1, 3, 5, 7)),
    "fives": tuple(k for k in _SUITED if 2 <= k % 9 <= 6),
}
_PALETTE_WEIGHTS = {"any": 30, "suited": 10, "simples": 6, "terminals": 6, "green": 3, "reversible": 3,
                    "low": 3, "high": 3, "middle": 2, "even": 2, "fives": 2, "flush": 12, "half": 12,
                    "honors": 6}


def _palette(rng: random.Random) -> tuple[int, ...]:
    name = rng.choices(list(_PALETTE_WEIGHTS), weights=list(_PALETTE_WEIGHTS.values()))[0]
    if name == "flush":
        s = rng.randrange(3) * 9
        return tuple(range(s, s + 9))
    if name == "half":
        s = rng.randrange(3) * 9
        return tuple(range(s, s + 9)) + _HONORS
    if name == "honors":
        return _HONORS + tuple(rng.sample(_SUITED, 6))
    return _PALETTES[name]


def _random_meld(rng: random.Random, palette: tuple[int, ...], counts: list[int],
                 chow_share: float) -> tuple[str, int] | None:
    """A chow ('c', lowest kind) or pung ('p', kind) from the palette that still fits."""
    for _ in range(12):
        k = rng.choice(palette)
        if rng.random() < chow_share and k < 27:
            lo = k - rng.randrange(3)
            if lo // 9 != k // 9 or lo % 9 > 6 or lo < 0:
                continue
            if all(counts[lo + i] < 4 for i in range(3)):
                for i in range(3):
                    counts[lo + i] += 1
                return ("c", lo)
        elif counts[k] <= 1:
            counts[k] += 3
            return ("p", k)
    return None


def _situation(rng: random.Random, n_concealed: int) -> McrSituation:
    return McrSituation(
        self_drawn=rng.random() < 0.45,
        fourth_tile=rng.random() < 0.12,
        about_kong=rng.random() < 0.08,
        wall_last=rng.random() < 0.06,
        seat_wind=rng.randrange(4),
        prevalent_wind=rng.randrange(4),
        flowers=rng.choice((0, 0, 0, 1, 2, 3, 8)),
    )


def _standard(rng: random.Random) -> Hand | None:
    palette = _palette(rng)
    counts = [0] * 34
    chow_share = rng.choice((0.0, 0.3, 0.6, 0.9, 1.0))
    melds = []
    for _ in range(4):
        m = _random_meld(rng, palette, counts, chow_share)
        if m is None:
            return None
        melds.append(m)
    pair_choices = [k for k in palette if counts[k] <= 2]
    if not pair_choices:
        return None
    return _deal(rng, melds, rng.choice(pair_choices))


def _deal(rng: random.Random, melds: list[tuple[str, int]], pair: int, kong_share: float = 0.4,
          plain: bool = False) -> Hand | None:
    """Some of the melds claimed (or concealed kongs), the rest and the pair concealed, one tile
    of them the winning tile; None if a kind would have five copies."""
    counts = [0] * 34
    counts[pair] += 2
    for typ, k in melds:
        for t in ((k, k + 1, k + 2) if typ == "c" else (k, k, k)):
            counts[t] += 1
    if max(counts) > 4:
        return None
    rng.shuffle(melds)
    n_fixed = rng.choices((0, 1, 2, 3, 4), weights=(40, 20, 15, 12, 13))[0] if not plain else rng.choice((2, 3))
    fixed: list[McrMeld] = []
    concealed: list[int] = [pair, pair]
    for i, (typ, k) in enumerate(melds):
        if i < n_fixed:
            if typ == "c":
                fixed.append(McrMeld("chi", TILES[k], TILES[k + rng.randrange(3)], 1))
            else:
                kind = "pon"
                if counts[k] < 4 and rng.random() < kong_share:
                    kind = rng.choice(("kong", "added_kong", "ankong", "ankong"))
                    counts[k] += 1
                fixed.append(McrMeld(kind, TILES[k], None if kind == "ankong" else TILES[k],
                                     0 if kind == "ankong" else rng.randrange(1, 4)))
        else:
            concealed += [k, k + 1, k + 2] if typ == "c" else [k, k, k]
    rng.shuffle(concealed)
    win = concealed.pop()
    sit = _situation(rng, len(concealed)) if not plain else McrSituation(seat_wind=rng.randrange(4),
                                                                        prevalent_wind=rng.randrange(4))
    return [TILES[t] for t in sorted(concealed)], TILES[win], fixed, sit


def _any_meld(rng: random.Random) -> tuple[str, int]:
    if rng.random() < 0.5:
        return ("c", rng.randrange(3) * 9 + rng.randrange(7))
    return ("p", rng.randrange(34))


def _any_pair(rng: random.Random) -> int:
    return rng.randrange(34)


def _pattern(rng: random.Random) -> Hand | None:
    """A hand built around one of the rarer combinations (双龙会, 四同顺, 清幺九, winds, …)."""
    suits = [0, 9, 18]
    rng.shuffle(suits)
    a, b, c = suits
    r = rng.randrange(7)
    melds: list[tuple[str, int]]
    name = rng.choice(("three_suited_terminal", "pure_terminal", "all_terminals", "winds", "dragons",
                       "quadruple", "four_shifted_pungs", "four_shifted_chows", "triple_chow", "straight",
                       "mixed_straight", "mixed_triple", "mixed_shifted", "triple_pung", "all_five",
                       "all_even", "kongs", "outside", "plain", "plain"))
    pair = _any_pair(rng)
    if name == "three_suited_terminal":
        melds, pair = [("c", a), ("c", a + 6), ("c", b), ("c", b + 6)], c + 4
    elif name == "pure_terminal":
        melds, pair = [("c", a), ("c", a), ("c", a + 6), ("c", a + 6)], a + 4
    elif name == "all_terminals":
        kinds = rng.sample([s + x for s in (0, 9, 18) for x in (0, 8)], 5)
        melds, pair = [("p", k) for k in kinds[:4]], kinds[4]
    elif name == "winds":
        winds = rng.sample(range(27, 31), 4)
        n = rng.choice((3, 4))
        melds = [("p", k) for k in winds[:n]] + [_any_meld(rng) for _ in range(4 - n)]
        if n == 3 and rng.random() < 0.6:
            pair = winds[3]
    elif name == "dragons":
        dragons = rng.sample(range(31, 34), 3)
        n = rng.choice((2, 3))
        melds = [("p", k) for k in dragons[:n]] + [_any_meld(rng) for _ in range(4 - n)]
        if n == 2 and rng.random() < 0.6:
            pair = dragons[2]
    elif name == "quadruple":
        melds = [("c", a + r)] * rng.choice((3, 4))
        melds += [_any_meld(rng) for _ in range(4 - len(melds))]
    elif name == "four_shifted_pungs":
        r = rng.randrange(6)
        n = rng.choice((3, 4))
        melds = [("p", a + r + i) for i in range(n)] + [_any_meld(rng) for _ in range(4 - n)]
    elif name == "four_shifted_chows":
        step = rng.choice((1, 2))
        start = rng.randrange(7 - 3 * step) if step == 2 else rng.randrange(4)
        n = rng.choice((3, 4))
        melds = [("c", a + start + i * step) for i in range(n)] + [_any_meld(rng) for _ in range(4 - n)]
    elif name == "triple_chow":
        melds = [("c", a + r)] * 3 + [_any_meld(rng)]
    elif name == "straight":
        melds = [("c", a), ("c", a + 3), ("c", a + 6), _any_meld(rng)]
    elif name == "mixed_straight":
        melds = [("c", a), ("c", b + 3), ("c", c + 6), _any_meld(rng)]
    elif name == "mixed_triple":
        melds = [("c", a + r), ("c", b + r), ("c", c + r), _any_meld(rng)]
    elif name == "mixed_shifted":
        r = rng.randrange(7)
        typ = rng.choice(("c", "p"))
        if typ == "c":
            r = min(r, 4)
        melds = [(typ, a + r), (typ, b + r + 1), (typ, c + r + 2), _any_meld(rng)]
    elif name == "triple_pung":
        r = rng.randrange(9)
        melds = [("p", a + r), ("p", b + r), ("p", c + r), _any_meld(rng)]
    elif name == "all_five":
        melds = [rng.choice((("c", s + 2), ("c", s + 3), ("c", s + 4), ("p", s + 4)))
                 for s in rng.choices((0, 9, 18), k=4)]
        pair = rng.choice((4, 13, 22))
    elif name == "all_even":
        evens = [s + x for s in (0, 9, 18) for x in (1, 3, 5, 7)]
        kinds = rng.sample(evens, 5)
        melds, pair = [("p", k) for k in kinds[:4]], kinds[4]
    elif name == "plain":  # few fans: claimed melds, a discard, mixed suits (无番和 now and then)
        melds = [("c", a + rng.randrange(1, 6)), ("c", b + rng.randrange(1, 6)), ("p", c + rng.randrange(1, 8)),
                 ("c", c + rng.randrange(7))]
        return _deal(rng, melds, rng.randrange(27, 34), kong_share=0.0, plain=True)
    elif name == "kongs":
        kinds = rng.sample(range(34), 5)
        melds, pair = [("p", k) for k in kinds[:4]], kinds[4]
        return _deal(rng, melds, pair, kong_share=0.9)
    else:  # outside: every group with a 1, a 9 or an honour
        melds = [rng.choice((("c", s), ("c", s + 6), ("p", s), ("p", s + 8), ("p", rng.randrange(27, 34))))
                 for s in rng.choices((0, 9, 18), k=4)]
        pair = rng.choice((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))
    return _deal(rng, melds, pair)


def _seven_pairs(rng: random.Random) -> Hand | None:
    if rng.random() < 0.15:  # 连七对
        s = rng.randrange(3) * 9 + rng.randrange(3)
        kinds = list(range(s, s + 7))
    else:
        palette = _palette(rng)
        kinds = []
        for _ in range(7):
            k = rng.choice(palette)
            if kinds.count(k) >= 2:
                return None
            kinds.append(k)
    tiles = [k for k in kinds for _ in range(2)]
    rng.shuffle(tiles)
    win = tiles.pop()
    return [TILES[t] for t in sorted(tiles)], TILES[win], [], _situation(rng, 13)


_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _thirteen_orphans(rng: random.Random) -> Hand:
    tiles = list(_ORPHANS) + [rng.choice(_ORPHANS)]
    rng.shuffle(tiles)
    win = tiles.pop()
    return [TILES[t] for t in sorted(tiles)], TILES[win], [], _situation(rng, 13)


def _knitted_seq(rng: random.Random) -> list[int]:
    starts = [0, 1, 2]
    rng.shuffle(starts)
    return [suit * 9 + r for suit, start in enumerate(starts) for r in range(start, 9, 3)]


def _honors_and_knitted(rng: random.Random) -> Hand:
    seq = _knitted_seq(rng)
    n_suited = rng.choice((7, 7, 8, 9))
    tiles = rng.sample(seq, n_suited) + rng.sample(_HONORS, 14 - n_suited)
    rng.shuffle(tiles)
    win = tiles.pop()
    return [TILES[t] for t in sorted(tiles)], TILES[win], [], _situation(rng, 13)


def _knitted_straight(rng: random.Random) -> Hand | None:
    seq = _knitted_seq(rng)
    counts = [0] * 34
    for k in seq:
        counts[k] += 1
    palette = _palette(rng)
    m = _random_meld(rng, palette, counts, rng.choice((0.0, 0.5, 1.0)))
    if m is None:
        return None
    pair_choices = [k for k in palette if counts[k] <= 2]
    if not pair_choices:
        return None
    pair = rng.choice(pair_choices)
    typ, k = m
    tiles = list(seq) + [pair, pair]
    fixed: list[McrMeld] = []
    if rng.random() < 0.4:
        if typ == "c":
            fixed.append(McrMeld("chi", TILES[k], TILES[k + rng.randrange(3)], 1))
        else:
            kind = rng.choice(("pon", "kong", "ankong")) if counts[k] + 2 <= 4 else "pon"
            fixed.append(McrMeld(kind, TILES[k], None, 0 if kind == "ankong" else rng.randrange(1, 4)))
    else:
        tiles += [k, k + 1, k + 2] if typ == "c" else [k, k, k]
    if max(tiles.count(t) for t in set(tiles)) > 4:
        return None
    rng.shuffle(tiles)
    win = tiles.pop()
    return [TILES[t] for t in sorted(tiles)], TILES[win], fixed, _situation(rng, len(tiles))


def _nine_gates(rng: random.Random) -> Hand:
    s = rng.randrange(3) * 9
    tiles = [s, s, s] + [s + r for r in range(1, 8)] + [s + 8] * 3
    win = s + rng.randrange(9)
    return [TILES[t] for t in tiles], TILES[win], [], _situation(rng, 13)


_SHAPES = (("standard", 55), ("pattern", 15), ("seven_pairs", 10), ("thirteen_orphans", 3), ("knitted", 5),
           ("knitted_straight", 9), ("nine_gates", 3))


def random_hand(rng: random.Random) -> Hand:
    """One random winning hand (its shape drawn as :data:`_SHAPES` weighs them): concealed tiles
    before the win, the winning tile, the fixed melds and the situation."""
    names = [n for n, _ in _SHAPES]
    weights = [w for _, w in _SHAPES]
    while True:
        shape = rng.choices(names, weights=weights)[0]
        if shape == "standard":
            got = _standard(rng)
        elif shape == "pattern":
            got = _pattern(rng)
        elif shape == "seven_pairs":
            got = _seven_pairs(rng)
        elif shape == "thirteen_orphans":
            got = _thirteen_orphans(rng)
        elif shape == "knitted":
            got = _honors_and_knitted(rng)
        elif shape == "knitted_straight":
            got = _knitted_straight(rng)
        else:
            got = _nine_gates(rng)
        if got is not None:
            return got
