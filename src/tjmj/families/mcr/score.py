"""The Chinese Official (国标麻将, MCR) fan calculator: docs/rules/MCR.md M3, docs/scoring-mcr.md.

``score_mcr(concealed, win_tile, melds, situation)`` finds every legal arrangement of a winning
hand — four melds and a pair (with the claimed and concealed-kong melds as given), 七对, 十三幺,
全不靠/七星不靠, 组合龙 with one more meld and a pair, 九莲宝灯 — counts the 81 fans of
:mod:`.fans` (and the MIL supplement's 明暗杠) in each, applies the rule book's exclusion
principles (不重复, 不拆移, 不得相同, 套算一次) and keeps the best (就高不就低).
Flowers are listed (花牌) but not in ``fan``, the total the 8-fan minimum (M2) is judged on.

The answer agrees fan by fan with PyMahjongGB (the ChineseOfficialMahjongHelper calculator) —
the reference M3 names; where the rule book leaves a choice open this code takes PyMahjongGB's,
and docs/scoring-mcr.md lists each such decision.  Shapes and combination tables come from
:mod:`.shapes`, memoised on per-suit counts.

>>> from tjmj.tiles import parse_tiles, Tile
>>> r = score_mcr(parse_tiles("123m456m789m123p5s"), Tile.parse("5s"), situation=McrSituation(self_drawn=True))
>>> r.fan, [(e.chinese, e.fan) for e in r.fans]
(24, [('清龙', 16), ('不求人', 4), ('平和', 2), ('喜相逢', 1), ('单钓将', 1)])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from operator import itemgetter
from typing import Any, cast

from ..._mypyc import mypyc_attr
from ...tiles import TILE_TEXT, TILES, Tile
from . import shapes as S
from .fans import EXCLUDES, FAN_BY_CODE, FANS, RANK, VALUES

__all__ = [
    "McrMeld",
    "McrSituation",
    "FanEntry",
    "McrGroup",
    "McrResult",
    "InvalidMcrHand",
    "score_mcr",
    "score_mcr_many",
    "is_complete_mcr",
    "MELD_TYPES",
]

MELD_TYPES = ("chi", "pon", "kong", "added_kong", "ankong")


class InvalidMcrHand(ValueError):
    """An impossible hand or win (wrong tile count, a fifth copy, a bad meld); the one-line
    message names what is wrong."""


@mypyc_attr(native_class=False)  # its instance __dict__ caches what is derived from it
@dataclass(frozen=True)
class McrMeld:
    """A fixed (declared) meld: ``chi`` (``tile`` its lowest tile, ``claimed`` the tile taken),
    ``pon``, ``kong`` (from a discard), ``added_kong`` (onto one's own pon), ``ankong``
    (concealed).  ``offer``: where the claimed tile came from, 1 the previous seat, 2 opposite,
    3 the next (PyMahjongGB's ``offer``); it does not change the fan."""

    type: str
    tile: Tile
    claimed: Tile | None = None
    offer: int = 0


@mypyc_attr(native_class=False)  # its instance __dict__ caches what is derived from it
@dataclass(frozen=True)
class McrSituation:
    """How the hand won.  ``fourth_tile``: 和绝张 (the other three of the kind are face up);
    ``about_kong``: 杠上开花 when self-drawn, 抢杠和 otherwise; ``wall_last``: 妙手回春 when
    self-drawn, 海底捞月 otherwise; winds 0..3 = E S W N; ``flowers`` 0..8."""

    self_drawn: bool = False
    fourth_tile: bool = False
    about_kong: bool = False
    wall_last: bool = False
    seat_wind: int = 0
    prevalent_wind: int = 0
    flowers: int = 0


@dataclass(frozen=True)
class FanEntry:
    """One fan of a result: ``fan`` is its value each time, ``count`` how many times it counts."""

    code: str
    chinese: str
    english: str
    fan: int
    count: int

    @property
    def total(self) -> int:
        return self.fan * self.count


@dataclass(frozen=True)
class McrGroup:
    """One group of the winning arrangement: ``kind`` is ``chow``, ``pung``, ``kong``, ``pair``,
    ``knitted`` (the nine tiles of a 组合龙) or ``single``; ``concealed`` False for a claimed meld
    and for the pung a discard completed (it counts as exposed)."""

    kind: str
    tiles: tuple[Tile, ...]
    concealed: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "tiles": [TILE_TEXT[t] for t in self.tiles], "concealed": self.concealed}


@mypyc_attr(native_class=False)  # its instance __dict__ caches what is derived from it
@dataclass(frozen=True, init=False)
class McrResult:
    """The best scoring of a hand.  ``fan`` is the total without flowers (the 8-fan minimum is
    judged on it); ``fans`` lists each fan once with its count, 花牌 last when there are flowers;
    ``win`` is ``complete and fan >= min_fan``; ``groups`` (built when first read) is the winning
    arrangement, ``shape`` its kind: ``standard``, ``seven_pairs``, ``thirteen_orphans``,
    ``knitted`` (全不靠/七星不靠), ``knitted_straight`` (组合龙 + a meld + a pair) or
    ``nine_gates``."""

    complete: bool
    win: bool
    fan: int
    fans: tuple[FanEntry, ...] = ()
    shape: str = ""
    flowers: int = 0
    arrangement: Callable[[], tuple[McrGroup, ...]] | None = field(default=None, repr=False, compare=False)

    def __init__(self, complete: bool, win: bool, fan: int, fans: tuple[FanEntry, ...] = (), shape: str = "",
                 flowers: int = 0, arrangement: Callable[[], tuple[McrGroup, ...]] | None = None) -> None:
        # straight into the instance's dict, not a frozen dataclass's seven object.__setattr__ calls
        d = self.__dict__
        d["complete"] = complete
        d["win"] = win
        d["fan"] = fan
        d["fans"] = fans
        d["shape"] = shape
        d["flowers"] = flowers
        d["arrangement"] = arrangement

    @property
    def groups(self) -> tuple[McrGroup, ...]:
        d = self.__dict__
        got = d.get("_groups")
        if got is None:
            arrangement = d["arrangement"]
            got = d["_groups"] = arrangement() if arrangement is not None else ()
        return got  # type: ignore[no-any-return]

    @property
    def total(self) -> int:
        """``fan`` plus the flowers."""
        return self.fan + self.flowers

    @property
    def names(self) -> str:
        """The fans in Chinese, ``、``-separated (``×n`` for a fan counted n times)."""
        return "、".join(e.chinese if e.count == 1 else f"{e.chinese}×{e.count}" for e in self.fans)

    def to_dict(self) -> dict[str, Any]:
        return {
            "complete": self.complete,
            "win": self.win,
            "fan": self.fan,
            "flowers": self.flowers,
            "total": self.total,
            "fans": [{"code": e.code, "name": e.chinese, "en": e.english, "fan": e.fan, "count": e.count}
                     for e in self.fans],
            "arrangement": {"shape": self.shape, "groups": [g.to_dict() for g in self.groups]},
        }


_DEFAULT_SITUATION = McrSituation()
_INCOMPLETE = McrResult(False, False, 0)

_id = {c: f.id for c, f in FAN_BY_CODE.items()}
BIG_FOUR_WINDS = _id["big_four_winds"]
NINE_GATES = _id["nine_gates"]
FOUR_KONGS = _id["four_kongs"]
SEVEN_SHIFTED_PAIRS = _id["seven_shifted_pairs"]
THIRTEEN_ORPHANS = _id["thirteen_orphans"]
ALL_TERMINALS = _id["all_terminals"]
LITTLE_FOUR_WINDS = _id["little_four_winds"]
LITTLE_THREE_DRAGONS = _id["little_three_dragons"]
ALL_HONORS = _id["all_honors"]
FOUR_CONCEALED_PUNGS = _id["four_concealed_pungs"]
PURE_TERMINAL_CHOWS = _id["pure_terminal_chows"]
THREE_KONGS = _id["three_kongs"]
ALL_TERMINALS_AND_HONORS = _id["all_terminals_and_honors"]
SEVEN_PAIRS = _id["seven_pairs"]
GREATER_HONORS = _id["greater_honors_and_knitted_tiles"]
ALL_EVEN_PUNGS = _id["all_even_pungs"]
FULL_FLUSH = _id["full_flush"]
PURE_TRIPLE_CHOW = _id["pure_triple_chow"]
UPPER_TILES = _id["upper_tiles"]
MIDDLE_TILES = _id["middle_tiles"]
LOWER_TILES = _id["lower_tiles"]
PURE_STRAIGHT = _id["pure_straight"]
THREE_SUITED_TERMINAL_CHOWS = _id["three_suited_terminal_chows"]
ALL_FIVE = _id["all_five"]
TRIPLE_PUNG = _id["triple_pung"]
THREE_CONCEALED_PUNGS = _id["three_concealed_pungs"]
LESSER_HONORS = _id["lesser_honors_and_knitted_tiles"]
KNITTED_STRAIGHT = _id["knitted_straight"]
UPPER_FOUR = _id["upper_four"]
LOWER_FOUR = _id["lower_four"]
BIG_THREE_WINDS = _id["big_three_winds"]
REVERSIBLE_TILES = _id["reversible_tiles"]
CHICKEN_HAND = _id["chicken_hand"]
LAST_TILE_DRAW = _id["last_tile_draw"]
LAST_TILE_CLAIM = _id["last_tile_claim"]
OUT_WITH_REPLACEMENT_TILE = _id["out_with_replacement_tile"]
ROBBING_THE_KONG = _id["robbing_the_kong"]
ALL_PUNGS = _id["all_pungs"]
HALF_FLUSH = _id["half_flush"]
ALL_TYPES = _id["all_types"]
MELDED_HAND = _id["melded_hand"]
TWO_CONCEALED_KONGS = _id["two_concealed_kongs"]
TWO_DRAGONS_PUNGS = _id["two_dragons_pungs"]
OUTSIDE_HAND = _id["outside_hand"]
FULLY_CONCEALED_HAND = _id["fully_concealed_hand"]
TWO_MELDED_KONGS = _id["two_melded_kongs"]
LAST_TILE = _id["last_tile"]
DRAGON_PUNG = _id["dragon_pung"]
PREVALENT_WIND = _id["prevalent_wind"]
SEAT_WIND = _id["seat_wind"]
CONCEALED_HAND = _id["concealed_hand"]
ALL_CHOWS = _id["all_chows"]
TILE_HOG = _id["tile_hog"]
TWO_CONCEALED_PUNGS = _id["two_concealed_pungs"]
CONCEALED_KONG = _id["concealed_kong"]
ALL_SIMPLES = _id["all_simples"]
SHORT_STRAIGHT = _id["short_straight"]
PUNG_OF_TERMINALS_OR_HONORS = _id["pung_of_terminals_or_honors"]
MELDED_KONG = _id["melded_kong"]
ONE_VOIDED_SUIT = _id["one_voided_suit"]
NO_HONORS = _id["no_honors"]
EDGE_WAIT = _id["edge_wait"]
CLOSED_WAIT = _id["closed_wait"]
SINGLE_WAIT = _id["single_wait"]
SELF_DRAWN = _id["self_drawn"]
FLOWER_TILES = _id["flower_tiles"]
CONCEALED_KONG_AND_MELDED_KONG = _id["concealed_kong_and_melded_kong"]
ALL_GREEN = _id["all_green"]

_CONCEALED_PUNG_FAN = (0, 0, TWO_CONCEALED_PUNGS, THREE_CONCEALED_PUNGS, FOUR_CONCEALED_PUNGS)
_KONG_FAN = {(1, 0): MELDED_KONG, (1, 1): CONCEALED_KONG, (2, 0): TWO_MELDED_KONGS,
             (2, 1): CONCEALED_KONG_AND_MELDED_KONG, (2, 2): TWO_CONCEALED_KONGS}
# fans that strike others out
_EXCLUDERS = frozenset(i for i, e in enumerate(EXCLUDES) if e)
_RANK_OF = RANK.__getitem__
# fans whose pungs are the fan itself: no 幺九刻 at all beside them
_NO_TERMINAL_PUNGS = (BIG_FOUR_WINDS, ALL_TERMINALS, LITTLE_FOUR_WINDS, ALL_HONORS, ALL_TERMINALS_AND_HONORS)
_CPP_OF = S.CPP.__getitem__
_CHOW_FANS = S.chow_fans
_TWO_CHOW_FANS = S.TWO_CHOW_FANS
_HAND_DIVISIONS = S.hand_divisions
_PUNG_FANS = S.pung_fans
_CPP_ORDER: tuple[int, ...] = tuple(sorted(range(34), key=_CPP_OF))

# --- per-kind traits (one bit each; a hand's traits are the OR over its kinds) -------------------
_B_TERM_HONOR = 1 << 0  # a 1, a 9 or an honour (not 断幺)
_B_NOT_REVERSIBLE = 1 << 1
_B_NOT_GREEN = 1 << 2
_B_SUITED = 1 << 3  # not 字一色
_B_NOT_TERMINAL = 1 << 4  # an honour or 2..8 (not 清幺九)
_B_SIMPLE = 1 << 5  # 2..8 of a suit (not 混幺九)
_B_SUIT = (1 << 6, 1 << 7, 1 << 8, 1 << 9)  # m p s z present
_B_WIND = 1 << 10
_B_DRAGON = 1 << 11
_B_RANK0 = 12  # bit 12 + r: a suited tile of number r + 1
_REVERSIBLE = frozenset((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33))  # 1234589p 245689s 白
_GREEN = frozenset((19, 20, 21, 23, 25, 32))  # 23468s 发


def _kind_bits(k: int) -> int:
    bits = _B_SUIT[k // 9] if k < 27 else _B_SUIT[3]
    if k not in _REVERSIBLE:
        bits |= _B_NOT_REVERSIBLE
    if k not in _GREEN:
        bits |= _B_NOT_GREEN
    if k >= 27:
        return bits | _B_TERM_HONOR | _B_NOT_TERMINAL | (_B_WIND if k <= 30 else _B_DRAGON)
    r = k % 9
    bits |= _B_SUITED | (1 << (_B_RANK0 + r))
    return bits | (_B_TERM_HONOR if r in (0, 8) else _B_NOT_TERMINAL | _B_SIMPLE)


_KIND_BITS: tuple[int, ...] = tuple(_kind_bits(k) for k in range(34))
# and 34 more, which a negative kind (-34..-1) reads
_NOT_A_KIND = 1 << 30
_KIND_BITS_CHECKED = _KIND_BITS + (_NOT_A_KIND,) * 34

_Fans = tuple[tuple[int, int], ...]
_KIND_MASK = (1 << _B_RANK0) - 1  # the bits the suit and tile-trait fans read
_RANGE_MASK = ~_KIND_MASK | _B_SUIT[3]  # the bits the number-range fans read
# the two halves of a hand's trait mask -> their fans (a few hundred keys each)
_KIND_MEMO: dict[int, _Fans] = {}
_RANGE_MEMO: dict[int, _Fans] = {}


def _traits(mask: int) -> _Fans:
    """The suit fans, tile-trait fans and number-range fans of a hand whose kinds OR to
    ``mask``: 无字 缺一门 混一色 清一色 五门齐 / 断幺 推不倒 绿一色 字一色 清幺九 混幺九 / 全小 小于五
    全大 大于五 全中."""
    kind = _KIND_MEMO.get(mask & _KIND_MASK)
    if kind is None:
        kind = _KIND_MEMO[mask & _KIND_MASK] = _kind_fans(mask & _KIND_MASK)
    rng = _RANGE_MEMO.get(mask & _RANGE_MASK)
    if rng is None:
        rng = _RANGE_MEMO[mask & _RANGE_MASK] = _range_fans(mask & _RANGE_MASK)
    return kind + rng if rng else kind


def _kind_fans(mask: int) -> _Fans:
    suit: list[tuple[int, int]] = []
    honors = bool(mask & _B_SUIT[3])
    missing = sum(1 for b in _B_SUIT[:3] if not mask & b)
    if missing == 2:
        suit.append((HALF_FLUSH if honors else FULL_FLUSH, 1))
    else:
        if not honors:
            suit.append((NO_HONORS, 1))
        if missing:
            suit.append((ONE_VOIDED_SUIT, missing))  # 3 for 字一色, which strikes it out
    if missing == 0 and honors and mask & _B_WIND and mask & _B_DRAGON:
        suit.append((ALL_TYPES, 1))
    if not mask & _B_TERM_HONOR:
        suit.append((ALL_SIMPLES, 1))
    if not mask & _B_NOT_REVERSIBLE:
        suit.append((REVERSIBLE_TILES, 1))
    if not mask & _B_NOT_GREEN:
        suit.append((ALL_GREEN, 1))
    if mask & _B_TERM_HONOR:
        if not mask & _B_SUITED:
            suit.append((ALL_HONORS, 1))
        elif not mask & _B_NOT_TERMINAL:
            suit.append((ALL_TERMINALS, 1))
        elif not mask & _B_SIMPLE:
            suit.append((ALL_TERMINALS_AND_HONORS, 1))
    return tuple(suit)


def _range_fans(mask: int) -> _Fans:
    if mask & _B_SUIT[3]:
        return ()
    ranks = mask >> _B_RANK0  # bit r: number r + 1
    if not ranks & ~0b1111:
        return ((LOWER_FOUR if ranks & 0b1000 else LOWER_TILES, 1),)
    if not ranks & ~0b111100000:
        return ((UPPER_FOUR if ranks & 0b100000 else UPPER_TILES, 1),)
    if not ranks & ~0b111000:
        return ((MIDDLE_TILES, 1),)
    return ()


# the six 组合龙 (147 258 369 of different suits), in PyMahjongGB's order
_KNITTED: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(base + r for base, start in ((0, m), (18, s), (9, p)) for r in range(start, 9, 3)))
    for m, s, p in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)))
_KNITTED_SETS = tuple(frozenset(s) for s in _KNITTED)
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_ORPHAN_COUNTS = itemgetter(*_ORPHANS)  # counts -> the tuple of the orphans' counts
_KNITTED_COUNTS = tuple(itemgetter(*seq) for seq in _KNITTED)
_ODD = (1).__and__  # a count's parity, mapped in C
# 九莲宝灯's other fans by the winning tile's number (the MIL supplement's reading, PyMahjongGB's table)
_NINE_GATES_EXTRA: tuple[_Fans, ...] = (
    ((PURE_STRAIGHT, 1), (TILE_HOG, 1)),
    ((TWO_CONCEALED_PUNGS, 1), (SHORT_STRAIGHT, 1), (PUNG_OF_TERMINALS_OR_HONORS, 1)),
    ((SHORT_STRAIGHT, 1),),
    ((SHORT_STRAIGHT, 1),),
    ((TWO_CONCEALED_PUNGS, 1), (PUNG_OF_TERMINALS_OR_HONORS, 1)),
    ((SHORT_STRAIGHT, 1),),
    ((SHORT_STRAIGHT, 1),),
    ((TWO_CONCEALED_PUNGS, 1), (SHORT_STRAIGHT, 1), (PUNG_OF_TERMINALS_OR_HONORS, 1)),
    ((PURE_STRAIGHT, 1), (TILE_HOG, 1)),
)

# --- input --------------------------------------------------------------------------------------


def _kind(t: object, what: str) -> int:
    if t.__class__ is Tile:
        return t  # type: ignore[return-value]
    if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < 34:
        raise InvalidMcrHand(f"{what} must be a tile kind 0..33, got {t!r}")
    return t


# a fixed meld as scored: (pack code, is a kong, concealed (an ankong))
_Fixed = tuple[int, bool, bool]
# what a fixed meld adds to a hand (_read_meld, kept on an McrMeld as ``_mcr``): its _Fixed, its
# lowest kind and how many of each of its kinds (a chow: 1 of three), its CPP code (a chow's lowest
# kind), kind (0 a chow, 1 a pon, 2 a melded kong, 3 a concealed kong), trait bits (_KIND_BITS) and
# packed group traits (shapes.pack_traits)
_MeldInfo = tuple[_Fixed, int, int, int, int, int, int]


def _read_meld(m: McrMeld) -> _MeldInfo:
    """Checks the meld (raises :class:`InvalidMcrHand`) and keeps what _prepare reads of it on the
    object (a frozen McrMeld's fields never change), for the next hand."""
    typ, tile, claimed, offer = m.type, m.tile, m.claimed, m.offer
    if (typ.__class__ is str and tile.__class__ is Tile and offer.__class__ is int
            and (claimed is None or claimed.__class__ is Tile)):
        # and the same for every meld of these fields (valid ones only: a few thousand at most)
        key = (typ, tile, claimed, offer)
        info = _MELDS.get(key)
        if info is None:
            info = _MELDS[key] = _meld_info(m)
    else:
        info = _meld_info(m)
    if m.__class__ is McrMeld:
        m.__dict__["_mcr"] = info
    return info


_MELDS: dict[tuple[str, Tile, Tile | None, int], _MeldInfo] = {}


def _meld_info(m: McrMeld) -> _MeldInfo:
    k = _kind(m.tile, "a meld's tile")
    typ = m.type
    offer = m.offer
    if not isinstance(offer, int) or isinstance(offer, bool) or not 0 <= offer <= 3:
        raise InvalidMcrHand(f"a meld's offer must be 0..3, got {offer!r}")
    kb = _KIND_BITS
    if typ == "chi":
        if k >= 27 or k % 9 > 6:
            raise InvalidMcrHand(f"a chi is named by its lowest tile, 1..7 of a suit; got {TILE_TEXT[k]}")
        if m.claimed is not None:
            c = _kind(m.claimed, "a chi's claimed tile")
            if not k <= c <= k + 2:
                raise InvalidMcrHand(f"a chi from {TILE_TEXT[k]} cannot have claimed {TILE_TEXT[c]}")
        ck = S.CPP[k]
        return (34 + k, False, False), k, 1, ck, 0, kb[k] | kb[k + 1] | kb[k + 2], S.CHOW_TRAITS[ck]
    if typ == "pon" or typ == "kong" or typ == "added_kong" or typ == "ankong":
        if m.claimed is not None and _kind(m.claimed, "a meld's claimed tile") != k:
            raise InvalidMcrHand(f"a {typ} of {TILE_TEXT[k]} cannot have claimed {TILE_TEXT[m.claimed]}")
        ck = S.CPP[k]
        if typ == "pon":
            return (k, False, False), k, 3, ck, 1, kb[k], S.PUNG_TRAITS[ck]
        concealed = typ == "ankong"
        return (k, True, concealed), k, 4, ck, 3 if concealed else 2, kb[k], S.PUNG_TRAITS[ck]
    raise InvalidMcrHand(f"unknown meld type {typ!r} (one of {', '.join(MELD_TYPES)})")


# a situation as _prepare reads it (_situation_info, kept on an McrSituation as ``_mcr``):
# self-drawn, seat wind, prevalent wind, and the flags' fans when no flag needs the hand to be
# judged (no 和绝张, 杠上开花/抢杠和, 妙手回春/海底捞月), else None
_SituationInfo = tuple[bool, int, int, dict[int, int] | None]


_SELF_DRAWN_ONLY = {SELF_DRAWN: 1}  # never changed: _prepare copies them
_NO_FLAGS: dict[int, int] = {}


def _situation_info(s: McrSituation) -> _SituationInfo:
    """Checks the situation (raises :class:`InvalidMcrHand`) and keeps what _prepare reads of it
    on the object (a frozen McrSituation's fields never change), for the next hand."""
    try:
        sw = s.seat_wind
        pw = s.prevalent_wind
        fl = s.flowers
        ok = (sw.__class__ is int and pw.__class__ is int and fl.__class__ is int
              and 0 <= sw <= 3 and 0 <= pw <= 3 and 0 <= fl <= 8)
    except AttributeError:
        ok = False
    if not ok:
        _check_situation(s)
    plain = None
    if not (s.fourth_tile or s.about_kong or s.wall_last):
        plain = _SELF_DRAWN_ONLY if s.self_drawn else _NO_FLAGS
    info: _SituationInfo = (s.self_drawn, s.seat_wind, s.prevalent_wind, plain)
    if s.__class__ is McrSituation:
        s.__dict__["_mcr"] = info
    return info


def _check_situation(s: McrSituation) -> None:
    if not isinstance(s, McrSituation):
        raise InvalidMcrHand(f"situation must be an McrSituation, got {s!r}")
    for name in ("seat_wind", "prevalent_wind"):
        w = getattr(s, name)
        if not isinstance(w, int) or isinstance(w, bool) or not 0 <= w <= 3:
            raise InvalidMcrHand(f"{name} must be 0..3 (E S W N), got {w!r}")
    if not isinstance(s.flowers, int) or isinstance(s.flowers, bool) or not 0 <= s.flowers <= 8:
        raise InvalidMcrHand(f"flowers must be 0..8, got {s.flowers!r}")


_NO_FIXED: list[_Fixed] = []  # the fixed melds of a hand without any (never changed)
_AT_MOST_4 = bytes(range(5))


class _Hand:
    """What every arrangement of one hand shares.  Kinds are ours, except the ``c``-prefixed
    fields and the scoring of arrangements, which use PyMahjongGB's order (:data:`shapes.CPP`)."""

    __slots__ = ("standing", "full", "every", "win", "cwin", "fixed", "cfixed_chows", "cfixed_pungs",
                 "melded_kongs", "concealed_kongs", "fixed_traits", "kongs", "claimed_melds", "self_drawn",
                 "flag_fans", "base", "seat", "prevalent", "traits", "hog", "unique_wait", "fb")

    standing: bytearray  # the concealed tiles before the win, per kind
    full: bytearray  # and the winning tile
    fb: bytes  # full as bytes
    every: bytearray  # and the fixed melds' tiles (a kong's four)
    win: int
    cwin: int  # the winning tile in CPP order
    fixed: list[_Fixed]
    cfixed_chows: tuple[int, ...]  # the fixed chows' lowest tiles, CPP order
    cfixed_pungs: tuple[int, ...]  # the fixed pungs and kongs, CPP order
    melded_kongs: int
    concealed_kongs: int
    fixed_traits: int  # the fixed melds' traits, packed (shapes.pack_traits)
    kongs: int
    claimed_melds: int  # fixed melds other than concealed kongs
    self_drawn: bool
    flag_fans: dict[int, int]  # 和绝张 妙手回春 海底捞月 杠上开花 抢杠和 自摸, corrected
    base: dict[int, int] | None  # fans every four-melds arrangement has (_standard_base)
    seat: int
    prevalent: int
    traits: _Fans  # the suit, tile-trait and number-range fans
    hog: int  # 四归一
    unique_wait: bool | None


def _prepare(concealed: Sequence[Tile], win_tile: object, melds: Sequence[McrMeld],
             situation: object) -> _Hand:
    # win_tile and situation are checked here, declared object: compiled (mypyc), a declared Tile or
    # McrSituation would be a TypeError before any check
    if melds.__class__ is not tuple and melds.__class__ is not list:
        melds = tuple(melds)
    n_melds = len(melds)
    if n_melds > 4:
        raise InvalidMcrHand(f"at most 4 melds, got {n_melds}")
    try:
        n = len(concealed)
    except TypeError:
        raise InvalidMcrHand(f"concealed must be a sequence of tiles, got {concealed!r}") from None
    if n != 13 - 3 * n_melds:
        raise InvalidMcrHand(f"with {n_melds} meld(s) the hand holds {13 - 3 * n_melds} concealed tiles "
                             f"before the winning tile, got {n}")
    win = win_tile if type(win_tile) is Tile else _kind(win_tile, "the winning tile")
    standing = bytearray(34)
    kb = _KIND_BITS_CHECKED
    mask = kb[win]
    try:
        for t in concealed:
            standing[t] += 1
            mask |= kb[t]
        if mask >= _NOT_A_KIND:  # a negative tile counted at the end of ``standing``
            raise IndexError
    except (IndexError, TypeError):  # (compiled: a plain int is a TypeError, no Tile)
        items: Sequence[object] = concealed  # each checked as an object: compiled, a Tile loop would raise TypeError
        for x in items:
            _kind(x, "a concealed tile")
        raise
    full = standing.copy()
    full[win] += 1
    fb = bytes(full)
    h = _Hand()
    if n_melds:
        every = full.copy()
        fixed = []
        cchows = []
        cpungs = []
        kongs = claimed_melds = melded_kongs = concealed_kongs = fixed_traits = 0
        for m in melds:
            if m.__class__ is not McrMeld and not isinstance(m, McrMeld):
                raise InvalidMcrHand(f"a meld must be an McrMeld, got {m!r}")
            got = m.__dict__.get("_mcr") if m.__class__ is McrMeld else None
            f, k, copies, ck, what, bits, traits = got if got is not None else _read_meld(m)
            fixed.append(f)
            if copies == 1:  # a chi
                every[k] += 1
                every[k + 1] += 1
                every[k + 2] += 1
                cchows.append(ck)
                claimed_melds += 1
            else:
                every[k] += copies
                cpungs.append(ck)
                if what == 3:
                    concealed_kongs += 1
                else:
                    claimed_melds += 1
                    if what == 2:
                        melded_kongs += 1
            mask |= bits
            fixed_traits += traits
        kongs = melded_kongs + concealed_kongs
        h.cfixed_chows = tuple(cchows)
        h.cfixed_pungs = tuple(cpungs)
        h.fixed_traits = fixed_traits
        h.melded_kongs = melded_kongs
        h.concealed_kongs = concealed_kongs
        eb = bytes(every)
    else:
        every = full
        eb = fb
        fixed, kongs, claimed_melds = _NO_FIXED, 0, 0
        h.cfixed_chows = h.cfixed_pungs = ()
        h.melded_kongs = h.concealed_kongs = 0
    if eb.translate(None, _AT_MOST_4):  # a count other than 0..4
        k = next(k for k in range(34) if every[k] > 4)
        raise InvalidMcrHand(f"{every[k]} copies of {TILE_TEXT[k]} (at most 4)")
    if not isinstance(situation, McrSituation):
        raise InvalidMcrHand(f"situation must be an McrSituation, got {situation!r}")
    info = situation.__dict__.get("_mcr") if situation.__class__ is McrSituation else None
    if info is None:
        info = _situation_info(situation)
    self_drawn, seat, prevalent, plain = info
    h.standing = standing
    h.full = full
    h.fb = fb
    h.every = every
    h.win = win
    h.cwin = S.CPP[win]
    h.fixed = fixed
    h.kongs = kongs
    h.claimed_melds = claimed_melds
    h.self_drawn = self_drawn
    h.seat = seat
    h.prevalent = prevalent
    h.unique_wait = None
    # the table's flags, corrected as PyMahjongGB corrects what cannot be so
    flags: dict[int, int]
    if plain is not None:
        flags = plain.copy()
        if n_melds and every[win] - full[win] == 3:
            flags[LAST_TILE] = 1  # three face up in the melds: the winning tile is the last one
    else:
        flags = {}
        in_fixed = every[win] - full[win]
        fourth = situation.fourth_tile and full[win] == 1  # 和绝张: not when holding one already
        if in_fixed == 3:
            fourth = True  # three face up in the melds: the winning tile is the last one
        about = situation.about_kong
        if about and ((self_drawn and not kongs) or (not self_drawn and (in_fixed or full[win] != 1))):
            about = False  # 杠上开花 needs a kong; 抢杠和 a tile nobody else holds
        if fourth:
            flags[LAST_TILE] = 1
        if situation.wall_last:
            flags[LAST_TILE_DRAW if self_drawn else LAST_TILE_CLAIM] = 1
        if about:
            flags[OUT_WITH_REPLACEMENT_TILE if self_drawn else ROBBING_THE_KONG] = 1
        if self_drawn:
            flags[SELF_DRAWN] = 1
    h.flag_fans = flags
    h.traits = _traits(mask)
    h.hog = eb.count(4) - kongs
    h.base = None
    return h


def _standard_base(h: _Hand) -> dict[int, int]:
    """The fans every four-melds-and-a-pair arrangement of the hand has: the win's flags, the
    suits and kinds, 四归一, and 不求人 / 门前清 / 全求人."""
    base = h.flag_fans.copy()
    base.update(h.traits)
    if h.hog > 0:
        base[TILE_HOG] = h.hog
    claimed = h.claimed_melds
    if claimed == 0:
        base[FULLY_CONCEALED_HAND if h.self_drawn else CONCEALED_HAND] = 1
    elif claimed == 4 and not h.self_drawn:
        base[MELDED_HAND] = 1
    h.base = base
    return base


# --- scoring ------------------------------------------------------------------------------------


# the excluders present (a frozenset) -> every fan they strike out
_STRIKES: dict[frozenset[int], tuple[int, ...]] = {}


def _strikes(excluders: frozenset[int]) -> tuple[int, ...]:
    """The fans these excluders strike out: highest fan first, a fan still counted strikes out
    its ``excludes``, one struck out strikes nothing.  Whether an excluder is struck out depends
    only on the other excluders, so the fans struck out of a hand are its fans among these."""
    left = set(excluders)
    out: set[int] = set()
    for i in sorted(excluders, key=_RANK_OF):
        if i in left:
            out.update(EXCLUDES[i])
            left.difference_update(EXCLUDES[i])
    got = _STRIKES[excluders] = tuple(sorted(out))
    return got


def _finish(fans: dict[int, int]) -> None:
    """Apply the exclusions (memoised on the excluders present: a few hundred sets)."""
    excluders = _EXCLUDERS.intersection(fans)
    if excluders:
        strikes = _STRIKES.get(excluders)
        if strikes is None:
            strikes = _strikes(excluders)
        for j in strikes:
            if j in fans:
                del fans[j]


def _winds_and_terminal_pungs(fans: dict[int, int], wind_pungs: Iterable[int], seat: int, prevalent: int,
                              raw: int) -> None:
    """圈风刻 and 门风刻, then the 幺九刻 left: a pung already counted as a bigger fan (三风刻's
    three, a 圈风/门风 pung) is not counted again (不重复); beside 大四喜, 小四喜, 清幺九, 字一色
    and 混幺九 there are none."""
    if BIG_FOUR_WINDS in fans:
        return  # 大四喜 不计圈风刻、门风刻
    claimed = 0
    three_winds = BIG_THREE_WINDS in fans
    if three_winds:
        claimed = 3
    for k in wind_pungs:
        w = k - 27
        hit = False
        if w == prevalent:
            fans[PREVALENT_WIND] = 1
            hit = True
        if w == seat:
            fans[SEAT_WIND] = 1
            hit = True
        if hit and not three_winds:
            claimed += 1
    if raw > claimed:
        for f in _NO_TERMINAL_PUNGS:
            if f in fans:
                return
        fans[PUNG_OF_TERMINALS_OR_HONORS] = raw - claimed


def _unique_wait(h: _Hand) -> bool:
    """Whether the hand before the win waited on one tile only (by shape, a tile all four of
    which are in the hand included; 七对 waits too when nothing is fixed) — 边张/嵌张/单钓将 need
    it.  The hand is complete with the winning tile, so only the winning tile's suit and, when
    the pair lies elsewhere, the pair's suit can hold other waits."""
    w = h.unique_wait
    if w is None:
        win = h.win
        s = win // 9 if win < 27 else 3
        b = 9 * s
        e = b + 9 if s < 3 else 34
        sw = tuple(h.standing[b:e])
        waits = set(S.suit_waits(b, sw))
        if sum(sw) % 3 == 2 and S.suit_complete(sw, s == 3):
            full = h.full
            for p in range(4):
                if p != s:
                    bp = 9 * p
                    fp = tuple(full[bp:bp + 9]) if p < 3 else tuple(full[27:34])
                    if sum(fp) % 3 == 2:
                        waits.update(S.suit_waits(bp, fp))
                        break
        if not h.fixed and len(waits) == 1:
            sc = h.standing
            if sc.count(0) >= 27 and sum(sc[k] >> 1 for k in range(34)) == 6:
                for k in range(34):
                    if sc[k] & 1:
                        waits.add(k)
        w = len(waits) == 1
        h.unique_wait = w
    return w


def _score_standard(h: _Hand, div: S.Summary) -> tuple[int, dict[int, int]]:
    """The fans of one arrangement as four melds (``h``'s fixed ones and the division's) and a
    pair, all in PyMahjongGB's tile order."""
    base = h.base
    fans = (base if base is not None else _standard_base(h)).copy()
    win = h.cwin
    concealed_chows, concealed_pung_kinds, pair, traits = div
    concealed_pungs = len(concealed_pung_kinds)
    if h.fixed:
        chows = concealed_chows + h.cfixed_chows
        pungs = concealed_pung_kinds + h.cfixed_pungs
        traits += h.fixed_traits
        if len(chows) > 2:
            chows = tuple(sorted(chows))
        if len(pungs) > 2:
            pungs = tuple(sorted(pungs))
    else:
        chows = concealed_chows
        pungs = concealed_pung_kinds
    n_pungs = len(pungs)
    n_chows = 4 - n_pungs
    if n_pungs:
        if concealed_pungs and not h.self_drawn and win in concealed_pung_kinds:
            # a discard completing a concealed pung makes it exposed, unless the winning tile can
            # be read as part of a concealed chow of this arrangement
            for c in concealed_chows:
                if c <= win <= c + 2:
                    break
            else:
                concealed_pungs -= 1
        kongs = h.kongs
        concealed_kongs = h.concealed_kongs
        if kongs:
            if kongs == 3:
                fans[THREE_KONGS] = 1
            elif kongs == 4:
                fans[FOUR_KONGS] = 1
            else:
                fans[_KONG_FAN[kongs, concealed_kongs]] = 1
        hidden = concealed_kongs + concealed_pungs
        if hidden >= 2:
            fans[_CONCEALED_PUNG_FAN[hidden]] = 1
        dragons = traits >> 16
        if dragons:
            fans[DRAGON_PUNG] = dragons
        if n_pungs >= 2:
            if n_pungs == 4:
                fans[ALL_PUNGS] = 1
            for f, n in _PUNG_FANS(pungs):
                fans[f] = fans.get(f, 0) + n
    if n_chows >= 2:
        # 一色双龙会 / 三色双龙会 take the four chows whole (_terminal_chows adds the fan)
        whole = n_chows == 4 and pair < 27 and pair % 9 == 4 and _terminal_chows(chows, pair, fans)
        if not whole:
            for f, n in _CHOW_FANS(chows) if n_chows > 2 else _TWO_CHOW_FANS[chows[0]][chows[1]]:
                fans[f] = fans.get(f, 0) + n
    # the pair: 平和, 小三元, 小四喜
    if n_chows == 4:
        if pair < 27:
            fans[ALL_CHOWS] = 1
    elif TWO_DRAGONS_PUNGS in fans:
        if pair >= 31:
            fans[LITTLE_THREE_DRAGONS] = 1
            del fans[TWO_DRAGONS_PUNGS]
    elif BIG_THREE_WINDS in fans and 27 <= pair <= 30:
        fans[LITTLE_FOUR_WINDS] = 1
        del fans[BIG_THREE_WINDS]
    # every group: 全带幺, 全带五, 全双刻
    if traits & 0xF == 5:
        fans[OUTSIDE_HAND] = 1
    elif traits >> 4 & 0xF == 5:
        fans[ALL_FIVE] = 1
    elif traits >> 8 & 0xF == 5:
        fans[ALL_EVEN_PUNGS] = 1
    # 边张, 嵌张, 单钓将: only when the hand waited on the one tile
    wait = 4 if pair == win else 0
    for c in concealed_chows:
        if win == c + 1:
            wait |= 2
        elif win == c:
            # 7 of 789 is 边张; the low end of another chow is not a unique wait: the tile three
            # up completes the hand too
            wait |= 1 if c % 9 == 6 else 8
        elif win == c + 2:
            wait |= 1 if c % 9 == 0 else 8  # 3 of 123, or else the tile three down completes it too
    if 0 < wait < 8 and MELDED_HAND not in fans and FOUR_KONGS not in fans and _unique_wait(h):
        fans[EDGE_WAIT if wait & 1 else CLOSED_WAIT if wait & 2 else SINGLE_WAIT] = 1
    _finish(fans)
    terminal_pungs = traits >> 12 & 0xF
    if terminal_pungs:
        _winds_and_terminal_pungs(fans, [k for k in pungs if 27 <= k <= 30], h.seat, h.prevalent,
                                  terminal_pungs)
    if not fans:
        fans[CHICKEN_HAND] = 1
    total = 0
    for i, n in fans.items():
        total += VALUES[i] * n
    return total, fans


def _terminal_chows(chows: Sequence[int], pair: int, fans: dict[int, int]) -> bool:
    """一色双龙会 / 三色双龙会 (four chows, a pair of 5): True when one of them is the chow fan."""
    ps = pair // 9
    suits = set()
    for c in chows:
        if c % 9 not in (0, 6):
            return False
        suits.add(c // 9)
    if sorted(c % 9 for c in chows) != [0, 0, 6, 6]:
        return False
    if ps not in suits:
        if len(suits) == 2 and all({c % 9 for c in chows if c // 9 == s} == {0, 6} for s in suits):
            fans[THREE_SUITED_TERMINAL_CHOWS] = 1
            return True
        return False
    if suits == {ps}:
        fans[PURE_TERMINAL_CHOWS] = 1
        return True
    return False


# --- 组合龙 with a meld and a pair ---------------------------------------------------------------


def _pack_waits(table: list[int], waits: set[int]) -> None:
    """PyMahjongGB's two-tile wait (the first shape found in its tile order)."""
    for k in _CPP_ORDER:
        n = table[k]
        if n < 1:
            continue
        if n > 1:
            waits.add(k)
            return
        if k < 27:
            r = k % 9 + 1
            if r > 1 and table[k - 1]:
                if r < 9:
                    waits.add(k + 1)
                if r > 2:
                    waits.add(k - 2)
                return
            if r > 2 and table[k - 2]:
                waits.add(k - 1)
                return


def _regular_waits(table: list[int], n: int, prev: tuple[int, ...], waits: set[int]) -> None:
    """PyMahjongGB's wait search, step by step (counts are 16-bit as there)."""
    if n == 1:
        for k in _CPP_ORDER:
            if table[k] == 1:
                waits.add(k)
                break
        return
    if n == 4:
        for k in _CPP_ORDER:
            if table[k] < 2:
                continue
            table[k] -= 2
            _pack_waits(table, waits)
            table[k] += 2
    for k in _CPP_ORDER:
        if table[k] < 1:
            continue
        c = S.CPP[k]
        if table[k] > 2:
            e = (c, c, c)
            if e > prev:
                table[k] -= 3
                _regular_waits(table, n - 3, e, waits)
                table[k] += 3
        if k < 27 and k % 9 < 7 and table[k + 1] and table[k + 2]:
            e = (c, c + 1, c + 2)
            if e >= prev:
                table[k] -= 1
                table[k + 1] -= 1
                table[k + 2] -= 1
                _regular_waits(table, n - 3, e, waits)
                table[k] += 1
                table[k + 1] += 1
                table[k + 2] += 1


def _knitted_unique_wait(rest: Sequence[int], win: int) -> bool:
    """PyMahjongGB's 独听 test for a concealed 组合龙 hand: the wait of the five tiles outside the
    组合龙 less the winning tile (when the winning tile is not among them, its count wraps to
    65535 as in the C++ and the search runs on that table)."""
    table = list(rest)
    table[win] = (table[win] - 1) & 0xFFFF
    waits: set[int] = set()
    _regular_waits(table, 4, (-1,), waits)
    return len(waits) == 1


def _score_knitted_straight(h: _Hand) -> tuple[int, dict[int, int], tuple[int, ...], int, int] | None:
    """组合龙 with one more meld (claimed or concealed) and a pair."""
    if len(h.fixed) > 1:
        return None
    full = h.full
    for seq in _KNITTED:
        for t in seq:
            if not full[t]:
                break
        else:
            break
    else:
        return None
    if 2 not in h.fb and 3 not in h.fb and 4 not in h.fb:
        return None
    rest = full.copy()
    for t in seq:
        rest[t] -= 1
    if h.fixed:
        pack, is_kong, concealed = h.fixed[0]
        melded = not concealed
        pair = -1
        for k in range(34):
            if rest[k]:
                pair = k
                break
        if rest[pair] != 2:
            return None
    else:
        d = S.hand_decomps(rest)
        if len(d) != 1:
            return None
        (pack,), pair = d[0]
        is_kong = melded = False
    every = h.every
    fans: dict[int, int] = {KNITTED_STRAIGHT: 1}
    winds: list[int] = []
    raw_terminal = 0
    if pack >= 34:
        if pair < 27:
            fans[ALL_CHOWS] = 1
        if every[pair] == 4:
            fans[TILE_HOG] = 1
    elif pack >= 27:
        if pack <= 30:
            raw_terminal = 1
            winds.append(pack)
            if pair >= 31:
                fans[ALL_TYPES] = 1
        else:
            fans[DRAGON_PUNG] = 1
            if 27 <= pair <= 30:
                fans[ALL_TYPES] = 1
    else:
        if pack % 9 in (0, 8):
            raw_terminal = 1
        if pair < 27:
            fans[NO_HONORS] = 1
        if not is_kong and every[pack] == 4:
            fans[TILE_HOG] = 1
    fans.update(h.flag_fans)
    if melded:
        if is_kong:
            fans[MELDED_KONG] = 1
    else:
        if is_kong:
            fans[CONCEALED_KONG] = 1
        fans[FULLY_CONCEALED_HAND if h.self_drawn else CONCEALED_HAND] = 1
    win = h.win
    if not h.fixed:
        # the MIL supplement: a wait that is also a 边张/嵌张/单钓将 of the meld and pair counts
        if _knitted_unique_wait(rest, win):
            wait = 0
            if pack >= 34:
                c = pack - 34
                if win == c + 1:
                    wait |= 2
                elif win == c or win == c + 2:
                    wait |= 1
            if pair == win:
                wait |= 4
            if wait:
                fans[EDGE_WAIT if wait & 1 else CLOSED_WAIT if wait & 2 else SINGLE_WAIT] = 1
    elif win not in seq or full[win] == 3:
        fans[SINGLE_WAIT] = 1  # with a claimed meld the pair's tile was the only wait
    _finish(fans)
    if raw_terminal:
        _winds_and_terminal_pungs(fans, winds, h.seat, h.prevalent, raw_terminal)
    total = 0
    for i, n in fans.items():
        total += VALUES[i] * n
    return total, fans, seq, pack, pair


# --- 七对, 十三幺, 全不靠, 九莲宝灯 ----------------------------------------------------------------


def _score_special(h: _Hand) -> tuple[int, dict[int, int], str] | None:
    """The concealed special shapes, in PyMahjongGB's order: 七对/连七对, 全不靠/七星不靠, 十三幺
    (then, after 组合龙, 九莲宝灯: :func:`_score_nine_gates`)."""
    full = h.full
    fans: dict[int, int]
    fb = h.fb
    if 1 not in fb and 3 not in fb:
        kinds = [k for k in range(34) if full[k]]
        if (len(kinds) == 7 and kinds[0] < 27 and kinds[6] - kinds[0] == 6 and kinds[0] // 9 == kinds[6] // 9
                and 4 not in fb):
            fans = {SEVEN_SHIFTED_PAIRS: 1}
            if full[kinds[0]] and kinds[0] % 9 == 1:  # 2..8: 断幺 too
                fans[ALL_SIMPLES] = 1
        else:
            fans = {SEVEN_PAIRS: 1}
            fans.update(h.traits)
            if h.hog > 0:
                fans[TILE_HOG] = h.hog
        fans.update(h.flag_fans)
        _finish(fans)
        return sum(VALUES[i] * n for i, n in fans.items()), fans, "seven_pairs"
    if 2 not in fb and 3 not in fb and 4 not in fb:
        suited = [k for k in range(27) if full[k]]
        if 7 <= len(suited) <= 9 and any(s.issuperset(suited) for s in _KNITTED_SETS):
            if len(suited) == 7:
                fans = {GREATER_HONORS: 1}
            else:
                fans = {LESSER_HONORS: 1}
                if len(suited) == 9:
                    fans[KNITTED_STRAIGHT] = 1
            fans.update(h.flag_fans)
            _finish(fans)
            return sum(VALUES[i] * n for i, n in fans.items()), fans, "knitted"
        return None
    for k in _ORPHANS:
        if not full[k]:
            return None
    if sum(full[k] for k in _ORPHANS) == 14:
        fans = {THIRTEEN_ORPHANS: 1}
        fans.update(h.flag_fans)
        _finish(fans)
        return sum(VALUES[i] * n for i, n in fans.items()), fans, "thirteen_orphans"
    return None


def _score_nine_gates(h: _Hand) -> tuple[int, dict[int, int]] | None:
    """九莲宝灯: 1112345678999 of a suit concealed, winning on a tile of that suit; its other fans
    are fixed by the winning tile's number (:data:`_NINE_GATES_EXTRA`)."""
    win = h.win
    if win >= 27:
        return None
    base = win - win % 9
    sc = h.standing
    if sc[base] != 3 or sc[base + 8] != 3:
        return None
    for r in range(1, 8):
        if sc[base + r] != 1:
            return None
    fans = {NINE_GATES: 1}
    fans.update(_NINE_GATES_EXTRA[win % 9])
    fans.update(h.flag_fans)
    _finish(fans)
    return sum(VALUES[i] * n for i, n in fans.items()), fans


def _division_key(division: S.Summary) -> list[int]:
    """Where PyMahjongGB finds an arrangement (packs in its tile order): ordered by its packs, a
    pung before the chow starting on the same tile."""
    return sorted([2 * c + 1 for c in division[0]] + [2 * k for k in division[1]])


# --- results ------------------------------------------------------------------------------------


def _make_entry(i: int, n: int) -> FanEntry:
    f = FANS[i]
    return FanEntry(f.code, f.chinese, f.english, f.value, n)


# every entry with a count below 9, made once: results share them
_ENTRY: list[list[FanEntry]] = [[_make_entry(i, n) for n in range(9)] for i in range(len(FANS))]


def _entries(fans: dict[int, int], flowers: int) -> tuple[FanEntry, ...]:
    """The result's entries, in the table's order (花牌 last), from the shared ones."""
    entry = _ENTRY
    try:
        out = [entry[i][fans[i]] for i in sorted(fans)]
    except IndexError:  # a count of 9 or more: never in a real hand
        out = [entry[i][n] if n < 9 else _make_entry(i, n) for i, n in sorted(fans.items())]
    if flowers:
        out.append(entry[FLOWER_TILES][flowers])
    return tuple(out)


@cache
def _group(kind: str, tiles: tuple[int, ...], concealed: bool = True) -> McrGroup:
    return McrGroup(kind, tuple(TILES[t] for t in tiles), concealed)


@cache
def _pack_group(code: int, is_kong: bool = False, concealed: bool = True) -> McrGroup:
    """A pack code (ours) as a group."""
    if code >= 34:
        k = code - 34
        return _group("chow", (k, k + 1, k + 2), concealed)
    return _group("kong" if is_kong else "pung", (code,) * (4 if is_kong else 3), concealed)


# the groups of a standard arrangement, per kind (ours): concealed pungs, exposed pungs, concealed
# chows (from their lowest kind), pairs
_PUNG_GROUP = tuple(_pack_group(k) for k in range(34))
_OPEN_PUNG_GROUP = tuple(_pack_group(k, False, False) for k in range(34))
_CHOW_GROUP = {k: _pack_group(34 + k) for k in range(27) if k % 9 < 7}
_PAIR_GROUP = tuple(_group("pair", (k, k)) for k in range(34))


def _standard_groups(h: _Hand, chows: tuple[int, ...], pungs: tuple[int, ...], pair: int) -> tuple[McrGroup, ...]:
    """The groups of an arrangement (chows, pungs and pair in PyMahjongGB's order): the fixed
    melds, then the concealed pungs and chows in our tile order, then the pair."""
    cpp = S.CPP.__getitem__
    out = [_pack_group(*f) for f in h.fixed] if h.fixed else []
    if pungs:
        out += map(_PUNG_GROUP.__getitem__, sorted(map(cpp, pungs)))
        win = h.cwin
        # the pung a discard completed counts as exposed (unless the tile can be read into a chow)
        if not h.self_drawn and win in pungs and not any(c <= win <= c + 2 for c in chows):
            i = out.index(_PUNG_GROUP[h.win])
            out[i] = _OPEN_PUNG_GROUP[h.win]
    if chows:
        out += map(_CHOW_GROUP.__getitem__, sorted(map(cpp, chows)))
    out.append(_PAIR_GROUP[cpp(pair)])
    return tuple(out)


_SINGLE_GROUP = tuple(_group("single", (k,)) for k in range(34))


def _special_groups(shape: str, tiles: list[int]) -> tuple[McrGroup, ...]:
    """The groups of a special shape from its 14 tiles, sorted."""
    if shape == "seven_pairs":
        return tuple(map(_PAIR_GROUP.__getitem__, tiles[::2]))
    if shape == "thirteen_orphans":
        pair = next(k for k in _ORPHANS if tiles.count(k) == 2)
        return (_PAIR_GROUP[pair],) + tuple(_SINGLE_GROUP[k] for k in _ORPHANS if k != pair)
    if shape == "nine_gates":
        return (_group("nine_gates", tuple(tiles)),)
    return tuple(map(_SINGLE_GROUP.__getitem__, tiles))


# --- the calculator -----------------------------------------------------------------------------


def score_mcr(concealed: Sequence[Tile], win_tile: Tile | object, melds: Sequence[McrMeld] = (),
              situation: McrSituation | object = _DEFAULT_SITUATION, *, min_fan: int = 8) -> McrResult:
    """Score a hand winning on ``win_tile``: ``concealed`` holds the 13 − 3·len(melds) concealed
    tiles before it (a concealed kong is one of ``melds``).  Raises :class:`InvalidMcrHand` (a
    ``ValueError``) for an impossible hand; a hand of no winning shape scores ``complete=False``."""
    h = _prepare(concealed, win_tile, melds, situation)  # checks win_tile and situation (object: see there)
    flowers = cast(McrSituation, situation).flowers
    best: dict[int, int] | None = None
    best_total = 0
    shape = ""
    arrangement: Callable[[], tuple[McrGroup, ...]] | None = None
    n_fixed = len(h.fixed)
    full = h.full
    if n_fixed == 0:
        fb = h.fb
        # 七对 (no 1 or 3 copies), 全不靠 (one copy of each), 十三幺 (at most two, 1m 9m 白 among them)
        if (1 not in fb and 3 not in fb) or (3 not in fb and 4 not in fb and (2 not in fb or (full[0] and full[8] and full[33]))):
            sp = _score_special(h)
            if sp is not None:
                best_total, best, shape = sp
                arrangement = partial(_special_groups, shape, sorted([*concealed, h.win]))
    if (best is None and n_fixed <= 1
            and ((full[0] and full[3] and full[6]) or (full[1] and full[4] and full[7])
                 or (full[2] and full[5] and full[8]))):
        ks = _score_knitted_straight(h)
        if ks is not None:
            best_total, best, seq, pack, pair = ks
            shape = "knitted_straight"
            arrangement = partial(_knitted_groups, h, seq, pack, pair)
    if best is None and n_fixed == 0 and h.win < 27 and h.standing[h.win - h.win % 9] == 3:
        ng = _score_nine_gates(h)
        if ng is not None:
            best_total, best = ng
            shape = "nine_gates"
            arrangement = partial(_special_groups, shape, sorted([*concealed, h.win]))
    if best is None or SEVEN_PAIRS in best:
        seven_pairs = best is not None
        divisions = _HAND_DIVISIONS(h.fb)
        if len(divisions) > 1:
            divisions.sort(key=_division_key)
        chosen = None
        for div in divisions:
            total, fans = _score_standard(h, div)
            # PyMahjongGB keeps the first best arrangement, but on a tie it prefers one with
            # 一色三同顺 or 三同刻, and any arrangement as four melds to 七对
            if (best is None or total > best_total
                    or (total == best_total and (seven_pairs or PURE_TRIPLE_CHOW in fans or TRIPLE_PUNG in fans))):
                best, best_total = fans, total
                chosen = div
        if chosen is not None:
            shape = "standard"
            arrangement = partial(_standard_groups, h, chosen[0], chosen[1], chosen[2])
    if best is None:
        return _INCOMPLETE if not flowers else McrResult(False, False, 0, flowers=flowers)
    return McrResult(True, best_total >= min_fan, best_total, _entries(best, flowers), shape, flowers, arrangement)


def _knitted_groups(h: _Hand, seq: tuple[int, ...], pack: int, pair: int) -> tuple[McrGroup, ...]:
    pg = _pack_group(*h.fixed[0]) if h.fixed else _pack_group(pack)
    return (_group("knitted", seq), pg, _PAIR_GROUP[pair])


def score_mcr_many(hands: Iterable[tuple[Sequence[Tile], Tile, Sequence[McrMeld], McrSituation]], *,
                   min_fan: int = 8) -> list[McrResult]:
    """:func:`score_mcr` over many ``(concealed, win_tile, melds, situation)`` hands."""
    return [score_mcr(c, w, m, s, min_fan=min_fan) for c, w, m, s in hands]


def is_complete_mcr(counts34: Sequence[int], n_melds: int) -> bool:
    """Whether the concealed tiles (``counts34``, the winning tile included: 14 − 3·n_melds of
    them) with ``n_melds`` fixed melds form an MCR winning shape, fan not considered."""
    if sum(counts34) != 14 - 3 * n_melds:
        return False
    if S.is_complete_counts(counts34 if isinstance(counts34, (list, tuple)) else list(counts34)):
        return True
    if n_melds == 0:
        if not any(map(_ODD, counts34)):  # seven pairs (a pair of pairs is four of a kind)
            return True
        if max(counts34) == 1:
            suited = [k for k in range(27) if counts34[k]]
            if 7 <= len(suited) <= 9 and any(s.issuperset(suited) for s in _KNITTED_SETS):
                return True
        elif 0 not in _ORPHAN_COUNTS(counts34) and sum(_ORPHAN_COUNTS(counts34)) == 14:
            return True
    # a knitted straight holds each number 1..9 in some suit: most hands lack one, and the first
    # numbers rule them out before the six straights are looked at
    if n_melds <= 1 and all(counts34[n] or counts34[n + 9] or counts34[n + 18] for n in range(9)):
        for seq, get in zip(_KNITTED, _KNITTED_COUNTS, strict=True):
            if 0 not in get(counts34):
                rest = list(counts34)
                for t in seq:
                    rest[t] -= 1
                return S.is_complete_counts(rest)
    return False
