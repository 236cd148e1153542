"""Rebuild the explicit best arrangement behind a fast-path score (each group, what each wild plays).

Only the scorer's answer needs this, once per hand, so it is plain code: the removal the fast
path recorded is redone with real tiles, and the rest is split by a small search that the
per-suit wild tables keep from backtracking.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ... import _tables as T
from ...hand import Group
from ...meld import Meld
from ...tiles import TILES, Tile
from .elements import Arrangement

if TYPE_CHECKING:
    from .score import ScoreResult

_Slot = tuple[Tile, Tile, bool]  # physical tile, kind it plays, is wild


class _Pool:
    """The hand's tiles still to place: real counts (and packed suits) and the wild tiles."""

    def __init__(
        self, counts: Sequence[int], wilds: tuple[Tile, ...], wilds_are_real: bool = False,
        packed: list[int] | None = None,
    ) -> None:
        """``packed``: the real tiles' packed suits when the caller has them (the scorer does)."""
        self.wildset = wilds  # at most three kinds: `in` on the tuple is as quick as on a set
        self.wilds_are_real = wilds_are_real
        if wilds_are_real:  # 素本: the wild tiles play themselves, as real tiles
            self.real = list(counts)
            self.wild: list[Tile] = []
            self.packed = T.pack(counts)
        else:
            real = list(counts)
            self.wild = []
            for k in wilds:  # in wild-kind order, so the arrangement does not depend on the input order
                if real[k]:
                    self.wild += [TILES[k]] * real[k]
                    real[k] = 0
            self.real = real
            # the real tiles as packed suits, kept in step with ``real``
            self.packed = list(packed) if packed is not None else T.pack(real)

    def take_real(self, kind: int) -> _Slot | None:
        if self.real[kind]:
            self.real[kind] -= 1
            self.packed[kind // 9] -= T.ONE[kind % 9]
            return (TILES[kind], TILES[kind], kind in self.wildset)
        return None

    def take_wild(self, kind: int, physical: int | None = None) -> _Slot:
        if physical is not None:
            self.wild.remove(TILES[physical])
            return (TILES[physical], TILES[kind], True)
        # prefer a wild of the very kind it plays, so it reads as playing itself
        pick = TILES[kind] if kind in self.wild else self.wild[-1]
        self.wild.remove(pick)
        return (pick, TILES[kind], True)

    def take(self, kind: int) -> _Slot:
        return self.take_real(kind) or self.take_wild(kind)

    def take_winning(self, win: Tile, plays: int) -> _Slot:
        if win in self.wildset and not self.wilds_are_real:
            return self.take_wild(plays, win)
        slot = self.take_real(win)
        assert slot is not None and win == plays
        return slot


def _group(kind: str, slots: list[_Slot], win_index: int | None = None) -> Group:
    tiles, plays, wild = zip(*slots)
    return Group(kind, tiles, plays, wild, win_index)


# (packed key, suit, holds the pair) -> the suit's groups: a finished Group where no slot is
# wild (shared: groups are immutable), else (kind, tiles with None in wild slots, plays, mask,
# wild slot indices) to fill with the pool's wild tiles.
_SuitEntry = Group | tuple[str, tuple[Tile | None, ...], tuple[Tile, ...], tuple[bool, ...], tuple[int, ...]]
_SUIT_GROUPS: dict[int, tuple[tuple[_SuitEntry, ...], bool]] = {}  # keyed key << 3 | suit << 1 | pair: an int hashes fastest


def _suit_groups(s: int, key: int, pair: bool) -> tuple[tuple[_SuitEntry, ...], bool]:
    base = 9 * s
    table = T.DECOMP_HON if s == 3 else T.DECOMP_NUM
    out = []
    for g in table[key, pair]:
        e = _ENTRIES.get((base, g))
        if e is None:
            e = _ENTRIES[base, g] = _entry(base, *g)
        out.append(e)
    v = _SUIT_GROUPS[key << 3 | s << 1 | pair] = (tuple(out), all(type(e) is Group for e in out))
    return v


# (suit base, (kind, positions, mask)) -> its entry: the same few hundred groups recur in every suit
_ENTRIES: dict[tuple[int, T.SuitGroup], _SuitEntry] = {}


def _entry(base: int, kind: str, positions: tuple[int, ...], mask: tuple[bool, ...]) -> _SuitEntry:
    plays = tuple(TILES[base + p] for p in positions)
    if not any(mask):
        return Group(kind, plays, plays, mask)
    tiles = tuple(None if w else t for t, w in zip(plays, mask))
    return (kind, tiles, plays, mask, tuple(i for i, w in enumerate(mask) if w))


def _split(pool: _Pool, pair: bool) -> list[Group]:
    """Split the pool into melds (+ a pair) — it is known to be feasible.

    Each suit takes its memoised fewest-wild decomposition; the pair goes to the suit where it
    costs least (or is two wilds), exactly as :func:`tjmj._tables.wilds_needed` counts.
    """
    keys = pool.packed
    pair_suit = -1
    if pair:
        num = T.NUM
        best = 2  # a pair of two wilds
        d = num[keys[0]][1]
        if d < best:
            best, pair_suit = d, 0
        d = num[keys[1]][1]
        if d < best:
            best, pair_suit = d, 1
        d = num[keys[2]][1]
        if d < best:
            best, pair_suit = d, 2
        if T.HON[keys[3]][1] < best:
            pair_suit = 3
    if pool.wilds_are_real:
        groups = _split_suben(pool, pair_suit)
    else:
        groups = []
        wild = pool.wild
        new = tuple.__new__  # a Group without its Python-level __new__: this is the hot loop
        for s in range(4):
            key = keys[s]
            if not key:
                continue
            v = _SUIT_GROUPS.get(key << 3 | s << 1 | (s == pair_suit)) or _suit_groups(s, key, s == pair_suit)
            entries, plain = v
            if plain:  # no wild slot: the shared groups as they are
                groups += entries  # type: ignore[arg-type]  # plain: every entry is a Group
                continue
            for e in entries:
                if type(e) is Group:
                    groups.append(e)
                    continue
                kind, tiles, plays, mask, slots = e
                filled = list(tiles)
                for i in slots:  # type: ignore[union-attr]  # e is the wild-slot tuple: Groups went above
                    k = plays[i]
                    # prefer a wild of the very kind it plays, so it reads as playing itself
                    pick = k if k in wild else wild[-1]
                    wild.remove(pick)
                    filled[i] = pick
                groups.append(new(Group, (kind, tuple(filled), plays, mask, None)))
    pool.packed = [0, 0, 0, 0]  # every real tile is now placed
    if pair and pair_suit < 0:
        first = pool.wild[0]
        groups.append(_group("pair", [pool.take_wild(first), pool.take_wild(first)]))
    # wilds left over group among themselves, each playing the first one's kind
    while pool.wild:
        first = pool.wild[0]
        groups.append(_group("triplet", [pool.take_wild(first) for _ in range(3)]))
    return groups


def _split_suben(pool: _Pool, pair_suit: int) -> list[Group]:
    """素本's split: no wild stands in, but real tiles of the wild kinds are marked wild."""
    groups: list[Group] = []
    wildset = pool.wildset
    for s in range(4):
        key = pool.packed[s]
        if not key:
            continue
        base = 9 * s
        table = T.DECOMP_HON if s == 3 else T.DECOMP_NUM
        for kind, positions, mask in table[key, s == pair_suit]:
            assert not any(mask)  # 素本 is only tried when the hand is complete without a stand-in
            tiles = tuple(TILES[base + p] for p in positions)
            groups.append(Group(kind, tiles, tiles, tuple(t in wildset for t in tiles)))
    return groups


def _dragon(pool: _Pool, suit: int, win: Tile | None = None, win_at5_wild: bool = False) -> list[Group]:
    # the winning wild playing the 5 is taken first, so no other slot can use it up
    five = pool.take_wild(suit * 9 + 4, win) if win_at5_wild else None
    out = []
    for start in (0, 3, 6):
        slots = []
        win_index = None
        for p in range(start, start + 3):
            if five is not None and p == 4:
                slots.append(five)
                win_index = 1
            else:
                slots.append(pool.take(suit * 9 + p))
        out.append(_group("sequence", slots, win_index))
    return out


def _mark_winning(groups: list[Group], win: Tile, win_wild: bool) -> list[Group]:
    """Mark the first slot holding the winning tile (as a wild or not, as it is)."""
    for gi, g in enumerate(groups):
        tiles = g[1]
        if win in tiles:
            wild = g[3]
            for j, t in enumerate(tiles):
                if t == win and wild[j] == win_wild:
                    groups[gi] = tuple.__new__(Group, (g[0], tiles, g[2], wild, j))  # _replace, without its cost
                    return groups
    raise AssertionError("winning tile not found in the arrangement")


def _win_group(pool: _Pool, v: str, win: Tile, win_wild: bool) -> Group:
    """The group the winning tile was removed with (捉伍儿's 456m, 混儿吊's pair or meld)."""
    if v in ("zhuowu", "zw_out"):
        s5 = pool.take_winning(win, 4)  # first, so no filler wild is the winning tile
        s4 = pool.take(3)
        s6 = pool.take(5)
        return _group("sequence", [s4, s5, s6], 1)
    if v == "hd1":
        return _group("pair", [pool.take_winning(win, win), pool.take_wild(win)], 0)
    if v == "hd2":
        if win == 4 or win_wild:
            s5 = pool.take_winning(win, 4)
            return _group("sequence", [pool.take_wild(3), s5, pool.take_wild(5)], 1)
        first = pool.take_winning(win, win)
        return _group("triplet", [first, pool.take_wild(win), pool.take_wild(win)], 0)
    raise AssertionError(v)


# (meld, is wild) -> its group; melds repeat across hands and groups are immutable
_MELD_GROUPS: dict[tuple[object, bool], Group] = {}


def _meld_group(m: Meld, wild: bool) -> Group:
    g = _MELD_GROUPS.get((m, wild))
    if g is None:
        n = m.size
        if len(_MELD_GROUPS) > 4096:  # bounded: melds built by hand need not be the usual few
            _MELD_GROUPS.clear()
        g = _MELD_GROUPS[m, wild] = Group(m.type.value, (m.tile,) * n, (m.tile,) * n, (wild,) * n)
    return g


def build_arrangement(result: ScoreResult, counts: Sequence[int]) -> Arrangement:
    """The best arrangement of a complete ``result``, whose hand's concealed tiles and draw are ``counts``."""
    h = result.hand
    win = result.tianhu_win if result.tianhu_win is not None else h.draw
    wilds = h.wilds
    win_wild = win in wilds
    struct = result.struct
    kind = struct[0]
    suben = kind == "suben"
    pool = _Pool(counts, wilds, wilds_are_real=suben, packed=result.packed)
    dragon: tuple[int, int, int] | None = None

    if kind == "plain":
        groups = _mark_winning(_split(pool, True), win, win_wild and not suben)
    elif kind in ("zhuowu", "hd1", "hd2"):
        groups = [_win_group(pool, kind, win, win_wild)]
        groups += _split(pool, kind != "hd1")
    else:  # long / suben
        d, variant = struct[1], struct[2]
        groups = []
        if variant in ("zw_out", "hd1", "hd2"):
            groups.append(_win_group(pool, variant, win, win_wild))
        start = len(groups)
        groups += _dragon(pool, d, win, win_at5_wild=variant == "zw_in_wild")
        dragon = (start, start + 1, start + 2)
        groups += _split(pool, variant != "hd1")
        if variant == "zw_in":  # the winning tile is the dragon's 5m
            g = groups[start + 1]
            groups[start + 1] = tuple.__new__(Group, (g[0], g[1], g[2], g[3], g[2].index(TILES[4])))
        elif variant == "plain":
            groups = _mark_winning(groups, win, win_wild)
    exposed_wild = 0
    for m in h.melds:
        wild = m.tile in wilds
        groups.append(_meld_group(m, wild))
        if wild:
            exposed_wild += m.size
    return tuple.__new__(  # the named tuple without its Python-level __new__ (once per scored hand)
        Arrangement, (tuple(groups), win, wilds, dragon, h.kong_draw, h.tianhu, h.rules.suben, exposed_wild)
    )
