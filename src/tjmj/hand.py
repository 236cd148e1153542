"""What every family's hand analysis shares: the groups of an arrangement, the error for an
impossible hand, and shanten (tiles from ready) on 34-entry counts with wilds.

Each family builds on these (Tianjin in :mod:`tjmj.families.tianjin`, Beijing in
:mod:`tjmj.families.beijing`, MCR in :mod:`tjmj.families.mcr`, the bots in :mod:`tjmj.bots`); none
imports another family's package for them.

>>> from tjmj.tiles import counts_of, parse_tiles
>>> shanten_counts(counts_of(parse_tiles("123m456p789s1122z")), 0, 4)
0
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from .tiles import TILE_TEXT, Tile, TileError

__all__ = ["Group", "InvalidHand", "shanten_counts", "used_table"]


class InvalidHand(TileError):
    """An impossible hand: wrong tile count, a fifth copy, a pon of a wild kind, …"""


_TEXT_OF = TILE_TEXT.__getitem__


class Group(NamedTuple):
    """One group of an arrangement.

    ``kind`` is ``pair``, ``sequence``, ``triplet`` (concealed) or an exposed meld type
    (``pon``, ``kong``, ``added_kong``, ``ankong``).  ``tiles`` are the physical tiles,
    ``plays`` the kind each one plays, ``wild`` which of them are wild tiles, and ``winning``
    the index of the winning tile in this group (None if it is elsewhere).  A named tuple:
    an arrangement is rebuilt for every scored hand, and tuples are cheap to make.
    """

    kind: str
    tiles: tuple[Tile, ...]
    plays: tuple[Tile, ...]
    wild: tuple[bool, ...]
    winning: int | None = None

    @property
    def exposed(self) -> bool:
        return self.kind not in ("pair", "sequence", "triplet")

    @property
    def is_meld(self) -> bool:
        return self.kind != "pair"

    def __str__(self) -> str:
        parts = []
        for i, (t, p, w) in enumerate(zip(self.tiles, self.plays, self.wild, strict=True)):
            s = str(t) if not w else (f"{t}={p}" if t != p else f"{t}*")
            if i == self.winning:
                s = f"<{s}>"
            parts.append(s)
        text = " ".join(parts)
        return f"[{text}]" if self.exposed else f"({text})" if self.kind == "ankong" else text

    def to_dict(self) -> dict[str, object]:
        # map() over the bound __getitem__: a quarter of the time of list comprehensions
        # here, and every batch answer line holds five of these
        return {
            "kind": self.kind,
            "tiles": list(map(_TEXT_OF, self.tiles)),
            "plays": list(map(_TEXT_OF, self.plays)),
            "wild": list(self.wild),
            "winning": self.winning,
        }


# --------------------------------------------------------------------------------------
# Shanten with wilds.  For each suit: the most real tiles that fit in at most m melds and
# p pairs (each group holding at least one real tile; wilds fill the rest).  Then
# J = 3·M + 2 − wilds − (real tiles used) new tiles are needed, and shanten = J − 1.
# --------------------------------------------------------------------------------------

_NEG = -99


@lru_cache(maxsize=1 << 14)  # suit shapes: ~0.5 kB an entry, ~8.5 MB full (it grew without end)
def used_table(c: tuple[int, ...], honors: bool) -> tuple[tuple[int, int], ...]:
    """table[m] = (best with no pair, best with one pair), m = 0..4 melds at most."""
    n = len(c)
    i = 0
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        return tuple((0, 0) for _ in range(5))
    lst = list(c)
    lst[i] -= 1
    best = [list(row) for row in used_table(tuple(lst), honors)]  # the lowest tile left unused
    lst[i] += 1

    def fold(sub: tuple[tuple[int, int], ...], gain: int, melds: int, pairs: int) -> None:
        for m in range(melds, 5):
            for p in range(pairs, 2):
                v = sub[m - melds][p - pairs] + gain
                if v > best[m][p]:
                    best[m][p] = v

    x = c[i]
    for k in range(1, min(x, 3) + 1):
        lst[i] = x - k
        fold(used_table(tuple(lst), honors), k, 1, 0)
    for k in range(1, min(x, 2) + 1):
        lst[i] = x - k
        fold(used_table(tuple(lst), honors), k, 0, 1)
    lst[i] = x - 1
    if not honors:
        if i + 1 < n and c[i + 1]:
            lst[i + 1] -= 1
            fold(used_table(tuple(lst), honors), 2, 1, 0)
            if i + 2 < n and c[i + 2]:
                lst[i + 2] -= 1
                fold(used_table(tuple(lst), honors), 3, 1, 0)
                lst[i + 2] += 1
            lst[i + 1] += 1
        if i + 2 < n and c[i + 2]:
            lst[i + 2] -= 1
            fold(used_table(tuple(lst), honors), 2, 1, 0)
    return tuple((a, b) for a, b in best)


def shanten_counts(nonwild: list[int], w: int, m: int) -> int:
    """Shanten from non-wild counts (34), the wild count and the concealed melds needed."""
    tables = [
        used_table(tuple(nonwild[0:9]), False),
        used_table(tuple(nonwild[9:18]), False),
        used_table(tuple(nonwild[18:27]), False),
        used_table(tuple(nonwild[27:34]), True),
    ]
    # max-plus combination over suits: acc[m][p] = most real tiles used
    acc = [[0, 0] for _ in range(m + 1)]
    for t in tables:
        nxt = [[_NEG, _NEG] for _ in range(m + 1)]
        for ma in range(m + 1):
            for pa in range(2):
                a = acc[ma][pa]
                if a < 0:
                    continue
                for mb in range(m + 1 - ma):
                    for pb in range(2 - pa):
                        v = a + t[mb][pb]
                        if v > nxt[ma + mb][pa + pb]:
                            nxt[ma + mb][pa + pb] = v
        acc = nxt
    used = max(max(row) for row in acc)
    return 3 * m + 2 - w - used - 1
