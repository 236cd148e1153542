"""What the bots of every family share: shanten with wilds by per-suit table merges, the discard
tie-break, and the choices of a count (坐庄 / 拉庄).

Shanten (−1 complete, 0 ready) is :func:`tjmj.hand.shanten_counts` (wilds play whatever is
missing), computed here incrementally: the memoised per-suit tables of :mod:`tjmj.hand` are merged
once for the three suits a discard does not touch, and the answers for every discard from one suit
are memoised by (that suit, the merged rest), which recur from turn to turn.  Tests check the
figures against ``shanten_counts``.  :func:`shanten13` and :func:`discard_shanten` add 七对子 with
one wild kind (a concealed four counts as two pairs; each lone tile needs one wild): the shape of
the families that have it, and what the ``expert`` bot's rollouts read.

A family's bots (``tjmj.families.<name>.bots``) import these; no family imports another's.

>>> pairs_shanten([2, 2, 2, 2, 2, 2, 1] + [0] * 27, 0)
0
>>> pairs_shanten([2, 2, 2, 2, 2, 1, 1] + [0] * 27, 1)
0
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ..game import Action
from ..hand import used_table  # the per-suit "most real tiles used" tables, memoised
from ..tiles import TILE_TEXT

__all__ = ["shanten_fast", "discard_used", "kong_shanten", "pairs_shanten", "shanten13", "discard_shanten",
           "claim_removes"]

_KIND = {text: k for k, text in enumerate(TILE_TEXT)}
Table = tuple[tuple[int, int], ...]


def _suit_table(nonwild: Sequence[int], s: int) -> Table:
    lo = 9 * s
    return used_table(tuple(nonwild[lo : lo + 9 if s < 3 else 34]), s == 3)


@lru_cache(maxsize=1 << 13)  # few distinct suit shapes recur across turns: ~0.6 kB an entry, ~5 MB full
def _merge(a: Table, b: Table, m: int) -> Table:
    """Max-plus merge of two "at most m melds, at most one pair" tables (rows 0..m).

    The tables are monotone in m and in the pair column, so splitting the m melds exactly
    (ma + mb = m) is enough.
    """
    out = []
    for t in range(m + 1):
        b0 = b1 = 0
        for ma in range(t + 1):
            x0, x1 = a[ma]
            y0, y1 = b[t - ma]
            v = x0 + y0
            if v > b0:
                b0 = v
            v = x0 + y1 if x0 + y1 > x1 + y0 else x1 + y0
            if v > b1:
                b1 = v
        out.append((b0, b1))
    return tuple(out)


def _top(a: Table, b: Table, m: int) -> int:
    """The most real tiles used with exactly the top row (m melds, at most one pair)."""
    best = 0
    for ma in range(m + 1):
        x0, x1 = a[ma]
        y0, y1 = b[m - ma]
        v = x0 + y1 if x0 + y1 > x1 + y0 else x1 + y0
        if v > best:
            best = v
    return best


def _top_unpaired(a: Table, b: Table, m: int) -> int:
    """As :func:`_top` with no pair: the most real tiles used in exactly ``m`` melds and nothing else."""
    return max(a[ma][0] + b[m - ma][0] for ma in range(m + 1))


def shanten_fast(nonwild: Sequence[int], w: int, m: int) -> int:
    """Same value as :func:`tjmj.hand.shanten_counts` (−1 complete, 0 ready), by table merges."""
    t = [_suit_table(nonwild, s) for s in range(4)]
    return 3 * m + 1 - w - _top(_merge(t[0], t[1], m), _merge(t[2], t[3], m), m)


def _discard_shanten(nonwild: list[int], w: int, m: int, kinds: Sequence[int]) -> dict[int, int]:
    """Shanten after discarding one non-wild tile of each kind in ``kinds``."""
    base = 3 * m + 1 - w
    return {k: base - u for k, u in discard_used(nonwild, m, kinds).items()}


def discard_used(nonwild: list[int], m: int, kinds: Sequence[int], paired: bool = True) -> dict[int, int]:
    """For each kind in ``kinds``: the most real tiles used in ``m`` melds and at most one pair
    (``paired=False``: no pair) after discarding one non-wild tile of it.  The other three suits are
    merged once per suit; the answers for one suit are memoised by (that suit, the merged rest)."""
    t = [_suit_table(nonwild, s) for s in range(4)]
    out: dict[int, int] = {}
    done: set[int] = set()
    for k in kinds:
        s = k // 9
        if s in done:
            continue
        done.add(s)
        rest = [t[i] for i in range(4) if i != s]
        lo = 9 * s
        used = _after_discards(tuple(nonwild[lo : lo + 9 if s < 3 else 34]), _merge(_merge(rest[0], rest[1], m),
                                                                                   rest[2], m), m, paired)
        for j in kinds:
            if j // 9 == s:
                out[j] = used[j - lo]
    return out


@lru_cache(maxsize=1 << 13)  # the same suit against the same other suits recurs from turn to turn: ~3 MB full
def _after_discards(suit: tuple[int, ...], others: Table, m: int, paired: bool = True) -> tuple[int, ...]:
    """For each position of ``suit`` that holds a tile: the most real tiles used after discarding one
    (``paired``: at most one pair; else none)."""
    honors = len(suit) == 7
    lst = list(suit)
    out = [0] * len(suit)
    for i, c in enumerate(suit):
        if not c:
            continue
        lst[i] = c - 1
        a = used_table(tuple(lst), honors)
        out[i] = _top(a, others, m) if paired else _top_unpaired(a, others, m)
        lst[i] = c
    return tuple(out)


def _isolated(nonwild: Sequence[int], k: int) -> bool:
    """No other copy and (for a suited tile) no neighbour within two in the hand: it helps no meld."""
    if nonwild[k] > 1:
        return False
    if k >= 27:
        return True
    n = k % 9
    lo, hi = k - min(n, 2), k + min(8 - n, 2)
    return not any(nonwild[j] for j in range(lo, hi + 1) if j != k)


def _discard_key(nonwild: Sequence[int], k: int) -> tuple[int, int, int]:
    # among equal shanten: isolated tiles first, honours before terminals before the rest, then kind order
    rank = 0 if k >= 27 else 1 if k % 9 in (0, 8) else 2
    return (0 if _isolated(nonwild, k) else 1, rank, k)


def kong_shanten(nonwild: list[int], w: int, m: int, a: Action, sh: dict[int, int]) -> int:
    """Shanten after the kong ``a`` (its replacement draw not yet made); ``sh``: shanten per discard."""
    assert a.tile is not None  # a kong always names its tile
    k = int(a.tile)
    if a.type == "ankong":
        # 4 tiles become a meld; the 10-tile-equivalent hand is compared as before a draw
        nonwild[k] -= 4
        after = shanten_fast(nonwild, w, m - 1)
        nonwild[k] += 4
        return after
    # an added kong removes one tile, melds unchanged: like discarding that tile
    return sh[k] if k in sh else shanten_fast(nonwild, w, m)


# ---- 七对子 with one wild kind, and the standard shape ----------------------------------------


def pairs_shanten(nonwild: Sequence[int], w: int) -> int:
    """七对子 shanten of a concealed hand (B4): 6 − the pairs it can make, a wild pairing a lone tile
    first, then two wilds a pair (a four counts as two pairs: 豪华七对子)."""
    p = s = 0
    for c in nonwild:
        if c:
            p += c >> 1
            s += c & 1
    u = w if w < s else s
    p += u + ((w - u) >> 1)
    return 6 - (p if p < 7 else 7)


def shanten13(nonwild: list[int], w: int, m: int, pairs: bool) -> int:
    """Shanten of a hand (``m`` melds still to make, ``pairs``: 七对子 is still possible)."""
    s = shanten_fast(nonwild, w, m)
    if pairs and s > 0:
        p = pairs_shanten(nonwild, w)
        if p < s:
            return p
    return s


def discard_shanten(nonwild: list[int], w: int, m: int, pairs: bool, kinds: Sequence[int],
                    wild: int = -1) -> dict[int, int]:
    """Shanten after discarding one tile of each kind in ``kinds`` (the wild kind: one wild)."""
    plain = [k for k in kinds if k != wild]
    out = _discard_shanten(nonwild, w, m, plain) if plain else {}
    if wild in kinds and w:
        out[wild] = shanten_fast(nonwild, w - 1, m)
    if pairs:
        for k in kinds:
            if k == wild:
                p = pairs_shanten(nonwild, w - 1)
            else:
                nonwild[k] -= 1
                p = pairs_shanten(nonwild, w)
                nonwild[k] += 1
            if p < out[k]:
                out[k] = p
    return out


def claim_removes(a: Action, tile: int) -> list[int]:
    """The concealed tiles a claim of ``tile`` uses (Beijing B3, MCR M2): two for a pon, three for a kong, the other two
    of the sequence for a chi."""
    if a.type == "pon":
        return [tile, tile]
    if a.type == "kong":
        return [tile, tile, tile]
    assert a.tile is not None
    low = int(a.tile)
    return [k for k in range(low, low + 3) if k != tile]


def _pick(legal: list[Action], kind: str, count: int) -> Action:
    """The ``kind`` action with ``count`` if legal, else the closest legal count."""
    options = [a for a in legal if a.type == kind]
    if not options:
        return legal[0]
    return min(options, key=lambda a: (abs(a.count - count), a.count))
