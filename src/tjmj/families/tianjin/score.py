"""The hand scorer (R5): is a hand complete, does it win, for how many fan, and why.

Fast path by pattern removal: the winning tile's group (捉伍儿 456m, 混儿吊 pair or meld) and
the 龙 are taken out first, then the rest is checked with the per-suit wild tables of
:mod:`tjmj._tables`.  Every way an element can arise is one such removal (see
``docs/scoring.md``), so the maximum over them is the maximum over all arrangements (R5.2).
:mod:`tjmj.families.tianjin.reference` enumerates arrangements one by one and is the tests' ground truth.

>>> r = score("1p1p1p2p3p456p789p66z", "5m", "1p")
>>> r.fan, r.name
(28, '双混儿捉伍儿本混儿龙')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import NamedTuple

from ... import _tables as T
from ...hand import InvalidHand
from ...meld import Meld, MeldType, melds_of
from ...tiles import TILES, Tile, format_tiles, parse_tiles, wild_kinds
from .arrange import build_arrangement
from .elements import (
    Arrangement,
    Element,
    Flag,
    combination_name,
    elements_of,
)
from .rules import CLASSIC, TianjinRules

__all__ = ["score", "ScoreResult", "HandInput", "prepare", "evaluate"]

_ONE = T.ONE
_NUM = T.NUM
_HON = T.HON
_DRAGON = T.DRAGON
_DRAGON_NO5 = T.DRAGON_NO5
_need = T.wilds_needed

L, Z, H, B, S, G, SB, TH = (int(f) for f in Flag)


TileLike = int | str
TilesLike = str | Iterable[int]
MeldsLike = str | Iterable[Meld | str | dict]


def _tiles(x: TilesLike, what: str) -> list[Tile]:
    if isinstance(x, str):
        return parse_tiles(x)
    out = list(x)
    if _ONLY_TILE.issuperset(map(type, out)):  # the checks in C: usually they are Tiles already
        return out  # type: ignore[return-value]  # every item is a Tile: checked just above, in C
    if out and _INTS.issuperset(map(type, out)) and min(out) >= 0 and max(out) < 34:
        return list(map(TILES.__getitem__, out))  # plain kinds 0..33
    # anything else, one by one: Tile() names what is wrong (each an object: compiled, an int loop
    # variable would turn True into 1)
    items: list[object] = out  # type: ignore[assignment]
    return [t if type(t) is Tile else Tile(t) for t in items]


_ONLY_TILE = frozenset((Tile,))
_INTS = frozenset((int, Tile))  # not bool: True is no tile


def _tile(x: TileLike, what: str) -> Tile:
    if type(x) is Tile:
        return x
    if type(x) is int and 0 <= x < 34:
        return TILES[x]
    if isinstance(x, str):
        ts = parse_tiles(x)
        if len(ts) != 1:
            raise InvalidHand(f"{what} must be exactly one tile, got {x!r} ({len(ts)} tiles)")
        return ts[0]
    return Tile(x)


class HandInput(NamedTuple):
    """A validated hand: 13-tile-equivalent concealed tiles, the drawn tile, melds, indicator.

    A named tuple: one is made per scored hand, and tuples are the cheapest immutable records.
    """

    concealed: tuple[Tile, ...]
    draw: Tile
    melds: tuple[Meld, ...]
    indicator: Tile
    wilds: tuple[Tile, ...]
    kong_draw: bool = False
    tianhu: bool = False
    rules: TianjinRules = CLASSIC
    counts: tuple[int, ...] = ()  # the concealed tiles and the draw, per kind (filled by prepare)
    packed: int = 0  # the same, 3 bits per kind 0..33 in one int (filled by prepare; 0: not known)

    @property
    def gold_kongs(self) -> int:
        return sum(1 for m in self.melds if m.type is MeldType.CONCEALED_KONG and m.tile in self.wilds)

    def describe(self) -> str:
        ms = " ".join(str(m) for m in self.melds)
        return f"{format_tiles(sorted(self.concealed))} + {self.draw}" + (f" {ms}" if ms else "")


def prepare(
    hand: TilesLike,
    draw: TileLike | None,
    indicator: TileLike,
    melds: MeldsLike = (),
    *,
    kong_draw: bool = False,
    tianhu: bool = False,
    rules: TianjinRules = CLASSIC,
    indicator_visible: bool = True,
    expect_concealed: int | None = None,
) -> HandInput:
    """Parse and check a hand; every error names the tile or count at fault.

    ``draw`` may be None to check a 13-tile hand before its draw (waits, shanten).
    ``indicator_visible`` (default True) counts the face-up indicator as one of the four
    copies of its kind (R3); pass False in the rare case that it was drawn.
    """
    tiles = _tiles(hand, "hand")
    d = _tile(draw, "draw") if draw is not None else None
    ind = _tile(indicator, "indicator")
    ms = melds_of(melds) if melds else ()
    if len(ms) > 4:
        raise InvalidHand(f"a hand has at most 4 melds, got {len(ms)}")
    want = 13 - 3 * len(ms) if expect_concealed is None else expect_concealed
    if len(tiles) != want:
        raise InvalidHand(
            f"hand has {len(tiles)} concealed tiles; with {len(ms)} meld(s) it must have {want} before the draw"
        )
    wilds = wild_kinds(ind, rules.wild_kinds)
    c = [0] * 34
    packed = 0  # all 34 kinds, 3 bits each: one addition per tile instead of packing the counts later
    for t in tiles:
        c[t] += 1
        packed += _ONE34[t]
    if d is not None:
        c[d] += 1
        packed += _ONE34[d]
    own = tuple(c)
    for m in ms:
        if m.type is MeldType.CHI:
            raise InvalidHand(f"meld {m} is a chi: there is no chi in Tianjin mahjong (R4)")
        if m.tile in wilds and m.type is not MeldType.CONCEALED_KONG:
            raise InvalidHand(
                f"meld {m} is a {m.type.value} of the wild kind {m.tile} ({m.tile.chinese}); wilds cannot be ponged (R2)"
            )
        c[m.tile] += m.size
    if indicator_visible:
        c[ind] += 1
    if max(c) > 4:
        k = next(k for k, n in enumerate(c) if n > 4)
        extra = " (the face-up indicator counts as one)" if indicator_visible and k == ind else ""
        raise InvalidHand(f"{c[k]} copies of {Tile(k)} ({Tile(k).chinese}) in hand, draw and melds{extra}; only 4 exist")
    if kong_draw and not any(m.type.is_kong for m in ms):
        raise InvalidHand("kong_draw (杠开) needs a kong among the melds: a replacement draw follows a kong (R4)")
    # tuple.__new__: the named tuple without its Python-level __new__ (once per scored hand)
    return tuple.__new__(HandInput, (tuple(tiles), d, tuple(ms), ind, wilds, bool(kong_draw), bool(tianhu), rules, own,
                                     packed))


# --------------------------------------------------------------------------------------
# The fast evaluation.  A "struct" records which removal gave the best fan, so that the
# arrangement can be rebuilt on demand (it is not needed to know the fan).
# --------------------------------------------------------------------------------------


def _remove(nk: list[int], kind: int) -> bool:
    s = kind // 9
    p = kind - 9 * s
    if (nk[s] >> (3 * p)) & 7:
        nk[s] -= _ONE[p]
        return True
    return False


def evaluate(
    nk: Sequence[int],
    w: int,
    win: int,
    ww: bool,
    m: int,
    wild_suit: int,
    su: bool,
    kong_draw: bool,
    suben_nk: Sequence[int] | None = None,
) -> tuple[int, int, tuple] | None:
    """Best (fan, flags, struct) of a complete hand, or None if it is not complete.

    ``nk``: the four packed suits of the concealed non-wild tiles (winning tile included if it
    is not wild); ``w``: concealed wild tiles (winning tile included if wild); ``win``: winning
    kind, ``ww``: whether it is wild; ``m``: concealed melds needed (4 − exposed melds);
    ``wild_suit``: the wilds' suit (0..2) or -1 for honour wilds; ``su``: no wild anywhere;
    ``suben_nk``: the packed suits with wilds counted as their own kinds when 素本 may apply.
    """
    k0, k1, k2, k3 = nk
    a, ad = _NUM[k0]  # wilds_needed(..., True) inlined: every scored hand starts here
    b, bd = _NUM[k1]
    c, cd = _NUM[k2]
    z, zd = _HON[k3]
    if a + b + c + z + min(2, ad, bd, cd, zd) > w:
        return None
    mult = (2 if su else 1) * (2 if kong_draw else 1)
    extra = (S if su else 0) | (G if kong_draw else 0)
    win5 = win == 4 or ww  # may play the 5m of 捉伍儿
    # every removal that works adds (fan, flags, struct); the first of the best wins ties
    found: list[tuple[int, int, tuple]] = [(1, 0, ("plain",))]
    consider = found.append

    # after the winning tile: the rest as a list and the wilds left
    rest = [k0, k1, k2, k3]
    if ww:
        w_rest = w - 1
    else:  # the winning tile is in the hand: take one (inlined _remove)
        ws = win // 9
        rest[ws] -= _ONE[win - 9 * ws]
        w_rest = w

    # 捉伍儿 group (winning tile as 5m of 4m5m6m, 4m/6m real first)
    zw_keys = None
    if win5:
        zk = rest[0]
        zwn = w_rest
        for p in (3, 5):
            if (zk >> (3 * p)) & 7:
                zk -= _ONE[p]
            else:
                zwn -= 1
        if zwn >= 0:
            zw_keys = (zk, zwn)
            if _need(zk, rest[1], rest[2], rest[3], True) <= zwn:
                consider((3, Z, ("zhuowu", -1)))
    # 混儿吊 single (pair: winning tile + a wild) and double (meld: winning tile + two wilds)
    if w_rest >= 1:
        # the rest's need without and with the pair (wilds_needed inlined: one pass for both)
        a, ad = _NUM[rest[0]]
        b, bd = _NUM[rest[1]]
        c, cd = _NUM[rest[2]]
        z, zd = _HON[rest[3]]
        melds_only = a + b + c + z
        if melds_only <= w_rest - 1:
            consider((2, H, ("hd1", -1)))
        if w_rest >= 2 and m >= 1 and melds_only + min(2, ad, bd, cd, zd) <= w_rest - 2:
            consider((6 if win5 else 2, H | (Z if win5 else 0), ("hd2", -1)))

    if m >= 3:
        for d in (0, 1, 2):
            # every variant below takes the dragon out of a subset of these tiles, so a suit
            # that lacks more kinds than there are wilds cannot hold one at all
            dk, miss = _DRAGON[nk[d]]
            if miss > w:
                continue
            benhun = B if d == wild_suit else 0
            bmul = 2 if benhun else 1
            # 龙 anywhere, the winning tile anywhere
            keys = [k0, k1, k2, k3]
            keys[d] = dk
            if _need(keys[0], keys[1], keys[2], keys[3], True) <= w - miss:
                if d == 0 and win == 4 and not ww:
                    consider((7 * bmul, L | Z | benhun, ("long", d, "zw_in")))
                else:
                    consider((4 * bmul, L | benhun, ("long", d, "plain")))
            # 捉伍儿 inside a 万 dragon with a wild winning tile playing the 5m
            if d == 0 and ww:
                dk, miss = _DRAGON_NO5[k0]
                if miss <= w - 1 and _need(dk, k1, k2, k3, True) <= w - 1 - miss:
                    consider((7 * bmul, L | Z | benhun, ("long", d, "zw_in_wild")))
            # 捉伍儿 outside the dragon (dragon + 456m + pair: no exposed meld)
            if zw_keys is not None and m == 4:
                keys = [zw_keys[0], rest[1], rest[2], rest[3]]
                dk, miss = _DRAGON[keys[d]]
                if miss <= zw_keys[1]:
                    keys[d] = dk
                    if _need(keys[0], keys[1], keys[2], keys[3], True) <= zw_keys[1] - miss:
                        consider((7 * bmul, L | Z | benhun, ("long", d, "zw_out")))
            # 混儿吊 outside the dragon
            if w_rest >= 1:
                keys = list(rest)
                dk, miss = _DRAGON[keys[d]]
                keys[d] = dk
                left = w_rest - miss
                if left >= 1 and _need(keys[0], keys[1], keys[2], keys[3], False) <= left - 1:
                    consider((8 * bmul, L | H | benhun, ("long", d, "hd1")))
                if left >= 2 and m == 4 and _need(keys[0], keys[1], keys[2], keys[3], True) <= left - 2:
                    if win5:
                        consider((14 * bmul, L | Z | H | benhun, ("long", d, "hd2")))
                    else:
                        consider((8 * bmul, L | H | benhun, ("long", d, "hd2")))
        # 素本: the wilds are one of each wild kind and play themselves inside a 本混儿龙
        if suben_nk is not None and 0 <= wild_suit <= 2:
            d = wild_suit
            dk, miss = _DRAGON[suben_nk[d]]
            if miss == 0:
                keys = list(suben_nk)
                keys[d] = dk
                if _need(keys[0], keys[1], keys[2], keys[3], True) == 0:
                    zw = d == 0 and win == 4
                    consider((28 if zw else 16, L | B | SB | (Z if zw else 0), ("suben", d, "zw_in" if zw else "plain")))
            if win == 4 and not ww and m == 4:
                keys = list(suben_nk)
                if _remove(keys, 4) and _remove(keys, 3) and _remove(keys, 5):
                    dk, miss = _DRAGON[keys[d]]
                    keys[d] = dk
                    if miss == 0 and _need(keys[0], keys[1], keys[2], keys[3], True) == 0:
                        consider((28, L | B | SB | Z, ("suben", d, "zw_out")))
    if len(found) == 1:
        return mult, extra, found[0][2]
    best = found[0]
    for f in found:
        if f[0] > best[0] or (f[0] == best[0] and f[1] > best[1]):
            best = f
    return best[0] * mult, best[1] | extra, best[2]


def is_double_hundiao(struct: tuple) -> bool:
    """Whether an evaluation struct is a 双混儿吊 (winning tile + two wilds as a meld)."""
    return struct[0] == "hd2" or (len(struct) > 2 and struct[2] == "hd2")


# all 27 bits of a packed suit: masks stay positive, and & on positive ints is CPython's quick case
_FULL = (1 << 27) - 1
_ONE34 = tuple(1 << (3 * k) for k in range(34))  # kind k's unit in prepare's packed counts
_NO_MASK = (_FULL, _FULL, _FULL, _FULL)


def _pack(c: Sequence[int], m: Sequence[int] = _NO_MASK) -> list[int]:
    """The four packed suits of a 34-entry count list, each ANDed with its mask (to drop the
    wild kinds); unrolled, since this is on every hot path."""
    return [
        (c[0] | c[1] << 3 | c[2] << 6 | c[3] << 9 | c[4] << 12 | c[5] << 15 | c[6] << 18 | c[7] << 21
         | c[8] << 24) & m[0],
        (c[9] | c[10] << 3 | c[11] << 6 | c[12] << 9 | c[13] << 12 | c[14] << 15 | c[15] << 18 | c[16] << 21
         | c[17] << 24) & m[1],
        (c[18] | c[19] << 3 | c[20] << 6 | c[21] << 9 | c[22] << 12 | c[23] << 15 | c[24] << 18 | c[25] << 21
         | c[26] << 24) & m[2],
        (c[27] | c[28] << 3 | c[29] << 6 | c[30] << 9 | c[31] << 12 | c[32] << 15 | c[33] << 18) & m[3],
    ]


class _Core(NamedTuple):
    """The evaluation inputs derived from a HandInput (see :func:`evaluate`)."""

    nk: list[int]
    w: int
    win: int
    ww: bool
    m: int
    wild_suit: int
    su: bool
    suben_nk: list[int] | None


def counts_of_hand(h: HandInput) -> tuple[int, ...]:
    """The concealed tiles and the draw, per kind."""
    c = h.counts
    if not c:  # a HandInput made by hand rather than by prepare()
        lst = [0] * 34
        for t in h.concealed:
            lst[t] += 1
        lst[h.draw] += 1
        c = tuple(lst)
    return c


def core_of(h: HandInput, win: Tile | None = None, kong_draw: bool | None = None) -> _Core:
    """The inputs of :func:`evaluate` for a prepared hand (``win``: another winning tile)."""
    return tuple.__new__(_Core, _core(h, win))


def _core(h: HandInput, win: Tile | None = None) -> tuple:
    """:func:`core_of` as a plain tuple, for the scorer's own hot path."""
    c = h.counts or counts_of_hand(h)
    if win is None:
        win = h.draw
    wilds = h.wilds
    masks = _WILD_MASKS.get(wilds) or _wild_masks(wilds)  # four suit masks, then the wilds' suit
    ws = masks[4]
    w = 0
    for k in wilds:
        w += c[k]
    p = h.packed
    # the suits as slices of prepare's packed counts (valid there: at most 4 of a kind)
    nk = [p & masks[0], (p >> 27) & masks[1], (p >> 54) & masks[2], (p >> 81) & masks[3]] if p else _pack(c, masks)
    gold = h.gold_kongs if h.melds else 0
    suben_nk = None
    if ws >= 0 and gold == 0 and h.rules.suben and all(c[k] == 1 for k in wilds):
        suben_nk = [p & _FULL, (p >> 27) & _FULL, (p >> 54) & _FULL, p >> 81] if p else _pack(c)
    return (nk, w, win, win in wilds, 4 - len(h.melds), ws, w == 0 and gold == 0, suben_nk)


_WILD_MASKS: dict[tuple[Tile, ...], tuple[int, int, int, int, int]] = {}


def _wild_masks(wilds: tuple[Tile, ...]) -> tuple[int, int, int, int, int]:
    """Per suit, the mask clearing the wild kinds' counts; then the wilds' suit (-1: honours)."""
    masks = [_FULL, _FULL, _FULL, _FULL]
    for k in wilds:
        masks[k // 9] &= ~(7 << (3 * (k % 9)))  # stays positive: & with a positive full mask
    v = _WILD_MASKS[wilds] = (masks[0], masks[1], masks[2], masks[3], (wilds[0] // 9 if wilds[0] < 27 else -1))
    return v


class ScoreResult:
    """The scorer's answer for one hand.

    ``complete``: the 14 tiles form 4 melds + a pair; ``win``: the hand may be declared (fan ≥
    ``min_fan`` etc., R5.2); ``fan``: the best fan over all arrangements (0 if incomplete);
    ``flags``: the elements present (:class:`Flag` bits); ``reason``: why a hand does not win
    ('' if it does); ``arrangement``: the best arrangement, built on first access.
    """

    __slots__ = ("complete", "win", "fan", "flags", "reason", "hand", "struct", "tianhu_win", "packed", "_arrangement")

    def __init__(self, complete: bool, win: bool, fan: int, flags: int, reason: str, hand: HandInput,
                 struct: tuple = (), tianhu_win: Tile | None = None, packed: list[int] | None = None) -> None:
        self.complete, self.win, self.fan, self.flags, self.reason = complete, win, fan, flags, reason
        self.hand, self.struct, self.tianhu_win = hand, struct, tianhu_win
        self.packed = packed  # the non-wild concealed tiles as packed suits, if known (saves a repack)
        self._arrangement: Arrangement | None | bool = False  # False: not built yet

    def __repr__(self) -> str:
        return f"ScoreResult(complete={self.complete}, win={self.win}, fan={self.fan}, name={self.name!r})"

    @property
    def elements(self) -> tuple[type[Element], ...]:
        return elements_of(self.flags)

    @property
    def codes(self) -> list[str]:
        return list(_codes(self.flags))

    @property
    def double_hundiao(self) -> bool:
        """双混儿吊: the winning tile and two wilds make a meld (R5.1)."""
        return bool(self.flags & H) and is_double_hundiao(self.struct)

    @property
    def name(self) -> str:
        if not self.complete:
            return ""
        f = self.flags  # double_hundiao inlined: callers read the name of every scored hand
        return combination_name(f, bool(f & H) and is_double_hundiao(self.struct))

    @property
    def arrangement(self) -> Arrangement | None:
        a = self._arrangement
        if a is False:
            a = self._arrangement = build_arrangement(self, counts_of_hand(self.hand)) if self.complete else None
        return a  # type: ignore[return-value]

    def to_dict(self, arrangement: bool = True) -> dict[str, object]:
        d: dict[str, object] = {
            "complete": self.complete,
            "win": self.win,
            "fan": self.fan,
            "elements": self.codes,
            "name": self.name,
        }
        if self.reason:
            d["reason"] = self.reason
        if arrangement:
            a = self.arrangement
            d["arrangement"] = a.to_dict() if a is not None else None
        return d


@cache
def _codes(flags: int) -> tuple[str, ...]:
    return tuple(e.code for e in elements_of(flags))


def _judge(h: HandInput, fan: int, flags: int) -> tuple[bool, str]:
    r = h.rules
    if flags & TH:
        return True, ""
    if fan < r.min_fan:
        if fan == 1:
            return False, f"死提溜: a plain complete hand (fan 1) cannot win under min_fan {r.min_fan} (R5.2)"
        return False, f"fan < min_fan: fan {fan} is below min_fan {r.min_fan} (R5.2)"
    if not r.hundiao_alone_wins and flags == H:
        return False, "混儿吊 alone: cannot win under hundiao_alone_wins=false (R5.2)"
    return True, ""


def score_input(h: HandInput) -> ScoreResult:
    """Score a prepared hand."""
    if h.tianhu:
        return _score_tianhu(h)
    nk, w, win, ww, m, wild_suit, su, suben_nk = _core(h)
    res = evaluate(nk, w, win, ww, m, wild_suit, su, h.kong_draw, suben_nk)
    if res is None:
        return ScoreResult(False, False, 0, 0, "not complete: the 14 tiles do not form 4 melds and a pair (R5)", h)
    fan, flags, struct = res
    wins, reason = _judge(h, fan, flags)
    return ScoreResult(True, wins, fan, flags, reason, h, struct, None, nk)


def _score_tianhu(h: HandInput) -> ScoreResult:
    """R5.5: any complete shape wins; flat 4 fan, or 4 × the best fan over any winning tile."""
    base = core_of(h, kong_draw=False)
    if evaluate(base.nk, base.w, base.win, base.ww, base.m, base.wild_suit, base.su, False, base.suben_nk) is None:
        return ScoreResult(False, False, 0, 0, "not complete: 天胡 needs a complete hand (R5.5)", h)
    if h.rules.tianhu == "flat":
        best = evaluate(base.nk, base.w, base.win, base.ww, base.m, base.wild_suit, base.su, False, base.suben_nk)
        assert best is not None
        return ScoreResult(True, True, 4, TH, "", h, best[2], h.draw)
    top: tuple[int, int, tuple, Tile] | None = None
    for t in sorted(set(h.concealed) | {h.draw}):
        c = core_of(h, win=t)
        res = evaluate(c.nk, c.w, c.win, c.ww, c.m, c.wild_suit, c.su, False, c.suben_nk)
        if res is not None and (top is None or (res[0], res[1]) > (top[0], top[1])):
            top = (res[0], res[1], res[2], t)
    assert top is not None
    fan, flags, struct, t = top
    return ScoreResult(True, True, 4 * fan, flags | TH, "", h, struct, t)


def score(
    hand: TilesLike,
    draw: TileLike,
    indicator: TileLike,
    melds: MeldsLike = (),
    *,
    kong_draw: bool = False,
    tianhu: bool = False,
    rules: TianjinRules = CLASSIC,
    indicator_visible: bool = True,
) -> ScoreResult:
    """Score a self-drawn hand (R5).

    ``hand``: the 13-tile-equivalent concealed tiles before the draw (MPSZ text or kinds);
    ``draw``: the winning tile; ``indicator``: the face-up wild indicator; ``melds``: exposed
    melds (``"[777m](1111z)"`` or :class:`Meld` objects); ``kong_draw``: the draw was a kong
    replacement (杠开); ``tianhu``: 天胡 (R5.5; ``draw`` is then the dealer's 14th tile).
    """
    h = prepare(hand, draw, indicator, melds, kong_draw=kong_draw, tianhu=tianhu, rules=rules,
                indicator_visible=indicator_visible)
    return score_input(h)


def is_complete(hand: TilesLike, draw: TileLike, indicator: TileLike, melds: MeldsLike = (),
                rules: TianjinRules = CLASSIC) -> bool:
    """Do the 14 tiles form 4 melds and a pair, wilds standing in (R5)?"""
    h = prepare(hand, draw, indicator, melds, rules=rules)
    c = core_of(h)
    return _need(c.nk[0], c.nk[1], c.nk[2], c.nk[3], True) <= c.w


# Completeness on 34-count lists (bots, the engine): a suit's counts as a tuple -> its wild
# needs, the wild kinds' counts ignored.  Building the tuple from explicit indices and one
# exact-dict lookup is the cheapest way in Python; the dicts are shared between Scorers with
# the same wild kinds in a suit (34 indicators at most) and grow on first sight of a suit.
_NumTable = dict[tuple[int, ...], tuple[int, int]]  # (n0, d)
_HonTable = dict[tuple[int, ...], tuple[int, int, int]]  # (least need, n0, d)
_TUPLE_TABLES: dict[tuple[int, int], dict] = {}
_HON_VALUES: dict[tuple[int, ...], tuple[int, ...]] = {}
# entries in all the tables together (~0.15 kB each: ~5 MB), then they are all emptied in place (the
# Scorers hold them) and fill again: the suit shapes of play are many, and they grew without end
TUPLE_TABLES_CAP = 1 << 15
_tuple_entries = 0


def _tuple_table(suit: int, mask: int) -> dict:
    key = (suit, mask)
    t = _TUPLE_TABLES.get(key)
    if t is None:
        t = _TUPLE_TABLES[key] = {}
    return t


def _fill(table: dict, key: tuple[int, ...], suit: int, mask: int) -> tuple[int, ...]:
    """The table entry for a suit not seen yet."""
    packed = 0
    for i, n in enumerate(key):
        packed |= n << (3 * i)
    if suit == 3:
        n0, d = _HON[packed & mask]
        v: tuple[int, ...] = (n0 + (d if d < 0 else 0), n0, d)  # honours also hold the least need
        v = _HON_VALUES.setdefault(v, v)  # shared: fewer objects for the look-ups to touch
    else:
        v = _NUM[packed & mask]
    global _tuple_entries
    if _tuple_entries >= TUPLE_TABLES_CAP:
        for t in _TUPLE_TABLES.values():
            t.clear()
        _tuple_entries = 0
    table[key] = v
    _tuple_entries += 1
    return v


def _completeness_check(wilds: tuple[Tile, ...], masks: Sequence[int]) -> Callable[[Sequence[int]], bool]:
    """``is_complete(counts)`` for one set of wild kinds (see :meth:`Scorer.is_complete`)."""
    tm, tp, ts, tz = (_tuple_table(s, masks[s]) for s in range(4))
    mm, mp, msu, mz = masks[0], masks[1], masks[2], masks[3]
    wa = wilds[0]
    wb = wilds[1] if len(wilds) > 1 else -1
    wc = wilds[2] if len(wilds) > 2 else -1

    def is_complete(c: Sequence[int]) -> bool:
        """4 melds + a pair with wilds standing in (the melds already exposed are implied).

        Suit by suit, honours first, stopping as soon as the wilds the suits need so far
        exceed those held: random hands are mostly rejected after one look-up.
        """
        w = c[wa] + (c[wb] if wb >= 0 else 0) + (c[wc] if wc >= 0 else 0)
        if not w and 1 in c[27:34]:  # no wild for a lone honour (if the wilds are honours, w counts them)
            return False
        key: tuple[int, ...] = (c[27], c[28], c[29], c[30], c[31], c[32], c[33])
        try:
            low, z0, zd = tz[key]
        except KeyError:
            low, z0, zd = _fill(tz, key, 3, mz)
        if low > w:  # a suit needs at least min(n0, n0 + d) wilds, wherever the pair is
            return False
        key = (c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8])
        try:
            a0, ad = tm[key]
        except KeyError:
            a0, ad = _fill(tm, key, 0, mm)
        low += a0 + (ad if ad < 0 else 0)
        if low > w:
            return False
        key = (c[9], c[10], c[11], c[12], c[13], c[14], c[15], c[16], c[17])
        try:
            b0, bd = tp[key]
        except KeyError:
            b0, bd = _fill(tp, key, 1, mp)
        low += b0 + (bd if bd < 0 else 0)
        if low > w:
            return False
        key = (c[18], c[19], c[20], c[21], c[22], c[23], c[24], c[25], c[26])
        try:
            c0, cd = ts[key]
        except KeyError:
            c0, cd = _fill(ts, key, 2, msu)
        d = zd if zd < ad else ad
        if bd < d:
            d = bd
        if cd < d:
            d = cd
        return z0 + a0 + b0 + c0 + (d if d < 2 else 2) <= w

    return is_complete


class Scorer:
    """The scorer bound to one indicator and rule set, on 34-entry count lists (for bots).

    ``counts`` holds the 14 concealed tiles (the winning tile included).  Nothing is checked
    here: the caller (engine, bot) owns a legal hand.  :func:`score` is the checked form.
    ``scorer.is_complete(counts)``: 4 melds + a pair with wilds standing in (the exposed
    melds are implied), the cheap test bots and the engine make first.
    """

    __slots__ = ("wilds", "wild_suit", "rules", "_suben", "_wa", "_wb", "_wc", "_masks", "is_complete")

    def __init__(self, indicator: TileLike, rules: TianjinRules = CLASSIC) -> None:
        ind = _tile(indicator, "indicator")
        self.wilds = wild_kinds(ind, rules.wild_kinds)
        self.wild_suit = self.wilds[0] // 9 if self.wilds[0] < 27 else -1
        self.rules = rules
        self._suben = rules.suben and self.wild_suit >= 0
        ws = list(self.wilds) + [self.wilds[0]] * (3 - len(self.wilds))
        self._wa, self._wb, self._wc = ws  # repeated kinds are harmless: zeroed twice
        masks = [_FULL, _FULL, _FULL, _FULL]  # clear the wild kinds' counts from the packed suits
        for k in self.wilds:
            masks[k // 9] &= ~(7 << (3 * (k % 9)))
        self._masks = tuple(masks)
        # a closure over this Scorer's wild kinds and tables, not a method: called for every
        # candidate discard, it saves the attribute look-ups a method would make on each call
        self.is_complete = _completeness_check(self.wilds, masks)

    def _keys(self, c: Sequence[int]) -> tuple[list[int], int]:
        wa, wb, wc = self._wa, self._wb, self._wc
        w = c[wa] + (c[wb] if wb != wa else 0) + (c[wc] if wc != wa and wc != wb else 0)
        nk = _pack(c, self._masks)
        return nk, w

    def evaluate(
        self, counts: Sequence[int], win: int, melds: int = 0, gold_kongs: int = 0, kong_draw: bool = False
    ) -> tuple[int, int] | None:
        """(fan, flags) of the best arrangement, or None if incomplete; no min_fan judgement."""
        nk, w = self._keys(counts)
        suben_nk = None
        if self._suben and not gold_kongs:
            wa, wb, wc = self._wa, self._wb, self._wc
            if counts[wa] == 1 and counts[wb] == 1 and counts[wc] == 1:
                suben_nk = _pack(counts)
        res = evaluate(nk, w, win, win in self.wilds, 4 - melds, self.wild_suit, w == 0 and not gold_kongs,
                       kong_draw, suben_nk)
        return None if res is None else (res[0], res[1])

    def can_win(self, fan: int, flags: int) -> bool:
        """R5.2: fan ≥ min_fan and, under ``hundiao_alone_wins=false``, not 混儿吊 alone."""
        return fan >= self.rules.min_fan and (self.rules.hundiao_alone_wins or flags != H)
