"""Rebuild the explicit best arrangement behind a fast-path score (each group, what each wild plays).

Only the scorer's answer needs this, once per hand, so it is plain code: the removal the fast
path recorded is redone with real tiles, and the rest is split by a small search that the
per-suit wild tables keep from backtracking.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _tables as T
from .elements import Arrangement, Group
from .tiles import TILES, Tile

if TYPE_CHECKING:
    from .score import ScoreResult

_Slot = tuple[Tile, Tile, bool]  # physical tile, kind it plays, is wild


class _Pool:
    def __init__(self, tiles: list[Tile], wilds: tuple[Tile, ...], wilds_are_real: bool = False) -> None:
        self.wildset = set(wilds)
        self.real = [0] * 34
        self.wild: list[Tile] = []
        self.wilds_are_real = wilds_are_real
        self.packed = [0, 0, 0, 0]  # the real tiles as packed suits, kept in step with ``real``
        for t in tiles:
            if t in self.wildset and not wilds_are_real:
                self.wild.append(t)
            else:
                self.real[t] += 1
                self.packed[t // 9] += T.ONE[t % 9]

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
        pick = kind if kind in self.wild else self.wild[-1]
        self.wild.remove(pick)
        return (TILES[pick], TILES[kind], True)

    def take(self, kind: int) -> _Slot:
        return self.take_real(kind) or self.take_wild(kind)

    def take_winning(self, win: Tile, plays: int) -> _Slot:
        if win in self.wildset and not self.wilds_are_real:
            return self.take_wild(plays, win)
        slot = self.take_real(win)
        assert slot is not None and win == plays
        return slot

    def feasible(self, pair: bool) -> bool:
        k = self.packed
        return T.wilds_needed(k[0], k[1], k[2], k[3], pair) <= len(self.wild)


def _group(kind: str, slots: list[_Slot], win_index: int | None = None) -> Group:
    tiles, plays, wild = zip(*slots)
    return Group(kind, tiles, plays, wild, win_index)


def _split(pool: _Pool, pair: bool) -> list[Group]:
    """Split the pool into melds (+ a pair) — it is known to be feasible.

    Each suit takes its memoised fewest-wild decomposition; the pair goes to the suit where it
    costs least (or is two wilds), exactly as :func:`tjmj._tables.wilds_needed` counts.
    """
    keys = pool.packed
    entries = [T.NUM[keys[0]], T.NUM[keys[1]], T.NUM[keys[2]], T.HON[keys[3]]]
    pair_suit = -1
    if pair:
        best = 2  # a pair of two wilds
        for s, (_, d) in enumerate(entries):
            if d < best:
                best, pair_suit = d, s
    groups: list[Group] = []
    tables = (T.DECOMP_NUM, T.DECOMP_NUM, T.DECOMP_NUM, T.DECOMP_HON)
    real, wild, wildset = pool.real, pool.wild, pool.wildset
    for s in range(4):
        if not keys[s]:
            continue
        base = 9 * s
        for kind, positions, mask in tables[s][keys[s], s == pair_suit]:
            tiles, plays = [], []
            for p, w in zip(positions, mask):
                k = base + p
                if w:  # prefer a wild of the very kind it plays, so it reads as playing itself
                    pick = k if k in wild else wild[-1]
                    wild.remove(pick)
                    tiles.append(TILES[pick])
                else:
                    real[k] -= 1
                    tiles.append(TILES[k])
                plays.append(TILES[k])
            if pool.wilds_are_real:  # 素本: real slots of wild kinds are wild tiles playing themselves
                mask = tuple(w or t in wildset for t, w in zip(tiles, mask))
            groups.append(Group(kind, tuple(tiles), tuple(plays), mask))
    pool.packed = [0, 0, 0, 0]  # every real tile is now placed
    if pair and pair_suit < 0:
        kind = pool.wild[0]
        groups.append(_group("pair", [pool.take_wild(kind), pool.take_wild(kind)]))
    # wilds left over group among themselves, each playing the first one's kind
    while pool.wild:
        kind = pool.wild[0]
        groups.append(_group("triplet", [pool.take_wild(kind) for _ in range(3)]))
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


def _mark_winning(groups: list[Group], win: Tile, win_wild: bool, prefer: list[int] | None = None) -> list[Group]:
    order = prefer if prefer is not None else list(range(len(groups)))
    for gi in order:
        g = groups[gi]
        for j, (t, is_w) in enumerate(zip(g.tiles, g.wild, strict=True)):
            if t == win and is_w == win_wild:
                groups[gi] = Group(g.kind, g.tiles, g.plays, g.wild, j)
                return groups
    raise AssertionError("winning tile not found in the arrangement")


def build_arrangement(result: ScoreResult) -> Arrangement:
    h = result.hand
    win = result.tianhu_win if result.tianhu_win is not None else h.draw
    wilds = h.wilds
    win_wild = win in wilds
    tiles = list(h.concealed) + [h.draw]
    struct = result.struct
    kind = struct[0]
    suben = kind == "suben"
    pool = _Pool(tiles, wilds, wilds_are_real=suben)
    groups: list[Group] = []
    dragon: tuple[int, int, int] | None = None
    variant = struct[2] if len(struct) > 2 else kind
    d = struct[1] if len(struct) > 1 else -1

    def win_group(v: str) -> Group:
        if v in ("zhuowu", "zw_out"):
            s5 = pool.take_winning(win, 4)  # first, so no filler wild is the winning tile
            s4 = pool.take(3)
            s6 = pool.take(5)
            return _group("sequence", [s4, s5, s6], 1)
        if v == "hd1":
            plays = win
            return _group("pair", [pool.take_winning(win, plays), pool.take_wild(plays)], 0)
        if v == "hd2":
            if win == 4 or win_wild:
                s5 = pool.take_winning(win, 4)
                return _group("sequence", [pool.take_wild(3), s5, pool.take_wild(5)], 1)
            s = pool.take_winning(win, win)
            return _group("triplet", [s, pool.take_wild(win), pool.take_wild(win)], 0)
        raise AssertionError(v)

    if kind in ("zhuowu", "hd1", "hd2"):
        groups.append(win_group(kind))
        groups.extend(_split(pool, kind != "hd1"))
    elif kind == "plain":
        groups.extend(_split(pool, True))
        groups = _mark_winning(groups, win, win_wild and not suben)
    else:  # long / suben
        if variant in ("zw_out", "hd1", "hd2"):
            groups.append(win_group(variant))
        dragon_groups = _dragon(pool, d, win, win_at5_wild=variant == "zw_in_wild")
        start = len(groups)
        groups.extend(dragon_groups)
        dragon = (start, start + 1, start + 2)
        groups.extend(_split(pool, variant != "hd1"))
        if variant in ("plain", "zw_in"):
            prefer = [start + 1] if variant == "zw_in" else None
            if prefer is not None:
                g = groups[start + 1]
                j = g.plays.index(TILES[4])
                groups[start + 1] = Group(g.kind, g.tiles, g.plays, g.wild, j)
            else:
                groups = _mark_winning(groups, win, win_wild)
    for m in h.melds:
        wild = m.tile in wilds
        groups.append(Group(m.type.value, (m.tile,) * m.size, (m.tile,) * m.size, (wild,) * m.size))
    return Arrangement(
        tuple(groups),
        win,
        wilds,
        dragon,
        kong_draw=h.kong_draw,
        tianhu=h.tianhu,
        suben_rule=h.rules.suben,
        exposed_wild_tiles=sum(m.size for m in h.melds if m.tile in wilds),
    )
