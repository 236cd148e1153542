"""Per-suit tables behind the fast scorer (memoised on first use).

A suit's non-wild tiles are packed into one int, 3 bits per kind (``count << 3*position``):
9 positions for 万/饼/条, 7 for 字.  For each packed suit the tables give the fewest wilds
that complete it into melds (``n0``) and the extra for holding the pair there (``d``), so a
whole hand's completeness is four lookups and a few additions (see :func:`wilds_needed`).

The answers for every suit of at most 14 tiles ship precomputed in ``suit_tables.bin`` (one
byte per suit, indexed by its counts in base 5; :func:`write_stored` writes it and a
test recomputes it all), so a fresh process — a ``tjmj score --batch`` run, a bot — does not
pay for the search behind each new suit.  :func:`_min_wilds` is that search; it still answers
any suit the file lacks.
"""

from __future__ import annotations

import mmap
import os
import sys
from collections.abc import Sequence
from functools import cache
from itertools import product

__all__ = ["NUM", "HON", "DRAGON", "DRAGON_NO5", "wilds_needed", "pack", "unpack"]

ONE = tuple(1 << (3 * i) for i in range(9))


def pack(c: Sequence[int]) -> list[int]:
    """The four packed suits (万, 饼, 条, 字) of a 34-entry count list.  The scorers keep their own
    unrolled copy on their hot paths; this one is for the rest (building an arrangement)."""
    return [sum(n << (3 * i) for i, n in enumerate(c[lo:lo + size])) for lo, size in ((0, 9), (9, 9), (18, 9), (27, 7))]


def unpack(key: int, n: int) -> tuple[int, ...]:
    return tuple((key >> (3 * i)) & 7 for i in range(n))


@cache
def _min_wilds(c: tuple[int, ...], pair: bool, honors: bool) -> int:
    """Fewest wilds to turn counts ``c`` into melds (plus one pair if ``pair``)."""
    n = len(c)
    i = 0
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        return 2 if pair else 0
    x = c[i]
    lst = list(c)
    best = 99
    # a triplet holding 1..3 copies of the lowest kind, wilds filling the rest
    for k in range(1, min(x, 3) + 1):
        lst[i] = x - k
        best = min(best, 3 - k + _min_wilds(tuple(lst), pair, honors))
    if pair:
        for k in range(1, min(x, 2) + 1):
            lst[i] = x - k
            best = min(best, 2 - k + _min_wilds(tuple(lst), False, honors))
    lst[i] = x - 1
    if not honors:
        # sequences holding the lowest kind: i,i+1,i+2 / i,i+1 (+wild) / i,i+2 (+wild)
        if i + 1 < n and c[i + 1]:
            lst[i + 1] -= 1
            best = min(best, 1 + _min_wilds(tuple(lst), pair, honors))
            if i + 2 < n and c[i + 2]:
                lst[i + 2] -= 1
                best = min(best, _min_wilds(tuple(lst), pair, honors))
                lst[i + 2] += 1
            lst[i + 1] += 1
        if i + 2 < n and c[i + 2]:
            lst[i + 2] -= 1
            best = min(best, 1 + _min_wilds(tuple(lst), pair, honors))
    return best


# --------------------------------------------------------------------------------------
# The shipped table: for each suit, byte n0 * 4 + d + 1 at offset + sum(count[p] * 5**p);
# 255 where a suit holds more than 14 tiles (it cannot occur in a hand).
# --------------------------------------------------------------------------------------

STORED_PATH = os.path.join(os.path.dirname(__file__), "suit_tables.bin")  # os.path: pathlib costs 5 ms to import
_OFFSET = {9: 0, 7: 5**9}  # number suits first, then honours
_SIZE = 5**9 + 5**7
_POW5 = tuple(5**p for p in range(9))
_stored: bytes | mmap.mmap | None = None


def build_stored() -> bytes:
    """Every suit's (n0, d) by :func:`_min_wilds` (a few seconds): the shipped file's content."""
    out = bytearray(b"\xff" * _SIZE)
    for positions in (9, 7):
        honors = positions == 7
        base = _OFFSET[positions]
        for rev in product(range(5), repeat=positions):
            if sum(rev) > 14:
                continue
            c = rev[::-1]
            n0 = _min_wilds(c, False, honors)
            n1 = _min_wilds(c, True, honors)
            out[base + sum(n * _POW5[p] for p, n in enumerate(c))] = n0 * 4 + n1 - n0 + 1
    _min_wilds.cache_clear()
    return bytes(out)


def stored() -> bytes | mmap.mmap:
    """The shipped table, mapped on first use (b"" if the file is missing or damaged).

    Mapped rather than read: a run touches only the pages of the suits it meets, and the
    2 MB are never copied (git and the wheel store the file compressed, to about 40 kB).
    """
    global _stored
    if _stored is None:
        data: bytes | mmap.mmap = b""
        try:
            with open(STORED_PATH, "rb") as f:
                if os.fstat(f.fileno()).st_size == _SIZE:
                    data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):
            data = b""
        _stored = data
    return _stored


def _chunk_index(j: int) -> tuple[int, ...]:
    """For 9 bits of a packed suit (positions 3j..3j+2): their part of the base-5 index, or a
    large negative number if a count is over 4 (no such suit is stored)."""
    out = []
    for bits in range(512):
        counts = (bits & 7, (bits >> 3) & 7, bits >> 6)
        bad = any(n > 4 for n in counts)
        out.append(-(1 << 40) if bad else sum(n * _POW5[3 * j + q] for q, n in enumerate(counts)))
    return tuple(out)


_CHUNK0, _CHUNK1, _CHUNK2 = (_chunk_index(j) for j in range(3))


def _stored_packed(key: int, positions: int) -> tuple[int, int] | None:
    """(n0, d) of a packed suit from the shipped table, or None where it has no answer."""
    table = _stored if _stored is not None else stored()
    i = _CHUNK0[key & 511] + _CHUNK1[(key >> 9) & 511] + _CHUNK2[(key >> 18) & 511]
    if not table or i < 0 or key >> 27:
        return None
    v = table[_OFFSET[positions] + i]
    return None if v == 255 else _ENTRY_OF_BYTE[v]


# one shared (n0, d) tuple per stored byte: the tables then hold a few dozen value objects
# instead of one per suit, which keeps the memory they touch (and the cache misses) small
_ENTRY_OF_BYTE = tuple((v >> 2, (v & 3) - 1) for v in range(256))


# The most entries each memo below holds before it empties itself and fills again.  A server
# scores hand after hand for days: without a cap these grew ~1.5 kB a hand (issue 35, item 7).
# Emptied in place, not replaced: the scorers keep module-level aliases to these dicts.
TABLE_CAP = 1 << 15
# _min_wilds answers only suits the shipped file lacks; its memo is emptied at this size
MIN_WILDS_CAP = 1 << 14


def _make_room(table: dict) -> None:  # type: ignore[type-arg]
    """Empty a memo that has reached :data:`TABLE_CAP` entries (called on a miss only, so a hit
    costs nothing extra; a plain function, not a base class, as mypyc compiles these tables)."""
    if len(table) >= TABLE_CAP:
        table.clear()


class _NeedTable(dict[int, tuple[int, int]]):
    """packed suit -> (wilds for melds only, extra wilds if the pair is here)."""

    def __init__(self, positions: int) -> None:
        super().__init__()
        self.positions = positions
        self.honors = positions == 7

    def __missing__(self, key: int) -> tuple[int, int]:
        _make_room(self)
        v = _stored_packed(key, self.positions)
        if v is not None:
            self[key] = v
            return v
        c = unpack(key, self.positions)
        # the answer depends only on the shape: honours in any order, a suit shifted down
        # (sequences cannot wrap), so equal shapes share one computation
        if self.honors:
            norm = tuple(sorted(c, reverse=True))
        else:
            i = 0
            while i < 8 and c[i] == 0:
                i += 1
            norm = c[i:] + (0,) * i
        if norm != c:
            packed = 0
            for j, n in enumerate(norm):
                packed |= n << (3 * j)
            v = self[packed]
            _make_room(self)  # the line above may have filled it
            self[key] = v
            return v
        if _min_wilds.cache_info().currsize >= MIN_WILDS_CAP:
            _min_wilds.cache_clear()
        n0 = _min_wilds(c, False, self.honors)
        n1 = _min_wilds(c, True, self.honors)
        v = _ENTRY_OF_BYTE[n0 * 4 + n1 - n0 + 1] if n0 < 64 else (n0, n1 - n0)
        self[key] = v
        return v


class _DragonTable(dict[int, tuple[int, int]]):
    """packed number suit -> (packed suit after taking 1..9 real-first, wilds that filled gaps).

    Taking a real tile before a wild is never worse: the wild could play that tile anyway.
    With ``skip5`` the 5 is left out (the winning wild plays it, 捉伍儿 inside a 万 dragon).
    """

    def __init__(self, skip5: bool) -> None:
        super().__init__()
        self.skip5 = skip5

    def __missing__(self, key: int) -> tuple[int, int]:
        # one bit at the bottom of each position holding a tile; subtracting it takes one tile
        # from every such position at once (no borrow: those positions hold at least one)
        _make_room(self)
        present = (key | key >> 1 | key >> 2) & _LOW_BITS
        if self.skip5:
            present &= ~ONE[4]
        v = self[key] = (key - present, (8 if self.skip5 else 9) - present.bit_count())
        return v


_LOW_BITS = sum(ONE)  # bit 0 of each of the 9 positions


NUM = _NeedTable(9)
HON = _NeedTable(7)
DRAGON = _DragonTable(False)
DRAGON_NO5 = _DragonTable(True)


def wilds_needed(k0: int, k1: int, k2: int, k3: int, pair: bool) -> int:
    """Fewest wilds completing the four packed suits into melds (+ one pair if ``pair``).

    Wilds left over after that always group among themselves: the tile total fixes their
    number to a multiple of three (plus two when the pair is theirs).
    """
    a, ad = NUM[k0]
    b, bd = NUM[k1]
    c, cd = NUM[k2]
    z, zd = HON[k3]
    if pair:
        return a + b + c + z + min(2, ad, bd, cd, zd)
    return a + b + c + z


# One group of a suit's decomposition: (kind, positions played, which slots are wilds).
SuitGroup = tuple[str, tuple[int, ...], tuple[bool, ...]]


def decompose(key: int, pair: bool, positions: int) -> tuple[SuitGroup, ...]:
    """The groups of one packed suit reaching its fewest wilds (the arrangement behind the count).

    Takes the lowest kind present into each possible group in turn and keeps the first whose
    rest still reaches the minimum (:data:`NUM`/:data:`HON` give it), so it never backtracks;
    memoised through :data:`DECOMP_NUM`/:data:`DECOMP_HON`.
    """
    honors = positions == 7
    need = HON if honors else NUM
    decomp = DECOMP_HON if honors else DECOMP_NUM
    n0, d = need[key]
    target = n0 + d if pair else n0
    if not key:
        return (("pair", (0, 0), (True, True)),) if pair else ()
    i = ((key & -key).bit_length() - 1) // 3  # the lowest position present
    x = (key >> (3 * i)) & 7
    one = ONE[i]
    # the options in a fixed order, each tried as soon as it is formed (the first usually fits)
    for k in range(min(x, 3), 0, -1):
        rest = key - k * one
        r0, rd = need[rest]
        if 3 - k + (r0 + rd if pair else r0) == target:
            return (("triplet", (i, i, i), (False,) * k + (True,) * (3 - k)),) + decomp[rest, pair]
    if pair:
        for k in range(min(x, 2), 0, -1):
            rest = key - k * one
            if 2 - k + need[rest][0] == target:
                return (("pair", (i, i), (False,) * k + (True,) * (2 - k)),) + decomp[rest, False]
    if not honors:
        has1 = i + 1 < positions and (key >> (3 * i + 3)) & 7
        has2 = i + 2 < positions and (key >> (3 * i + 6)) & 7
        options: list[tuple[SuitGroup, int, int]] = []
        if has1 and has2:
            options.append((("sequence", (i, i + 1, i + 2), (False, False, False)), key - one - ONE[i + 1] - ONE[i + 2], 0))
        if has1:
            seq = (i, i + 1, i + 2) if i + 2 < positions else (i - 1, i, i + 1)
            mask = (False, False, True) if i + 2 < positions else (True, False, False)
            options.append((("sequence", seq, mask), key - one - ONE[i + 1], 1))
        if has2:
            options.append((("sequence", (i, i + 1, i + 2), (False, True, False)), key - one - ONE[i + 2], 1))
        for group, rest, cost in options:
            r0, rd = need[rest]
            if cost + (r0 + rd if pair else r0) == target:
                return (group,) + decomp[rest, pair]
    raise AssertionError("no decomposition reaches the minimum")  # pragma: no cover


class _DecompTable(dict[tuple[int, bool], tuple[SuitGroup, ...]]):
    """(packed suit, holds the pair) -> :func:`decompose` of it."""

    def __init__(self, positions: int) -> None:
        super().__init__()
        self.positions = positions

    def __missing__(self, key: tuple[int, bool]) -> tuple[SuitGroup, ...]:
        v = decompose(key[0], key[1], self.positions)
        _make_room(self)  # after: decompose fills this table too, on the way down
        self[key] = v
        return v


DECOMP_NUM = _DecompTable(9)
DECOMP_HON = _DecompTable(7)


def write_stored() -> None:
    """Rewrite the shipped table (after changing the search): ``python -c "import
    tjmj._tables as T; T.write_stored()"``; a test checks the file against the search."""
    data = build_stored()
    with open(STORED_PATH, "wb") as f:
        f.write(data)
    print(f"wrote {STORED_PATH} ({len(data)} entries)", file=sys.stderr)
