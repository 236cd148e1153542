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
from typing import Any

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
        # one dict update instead of a frozen dataclass's seven object.__setattr__ calls
        self.__dict__.update(complete=complete, win=win, fan=fan, fans=fans, shape=shape, flowers=flowers,
                             arrangement=arrangement)

    @property
    def groups(self) -> tuple[McrGroup, ...]:
        got = self.__dict__.get("_groups")
        if got is None:
            got = self.arrangement() if self.arrangement is not None else ()
            object.__setattr__(self, "_groups", got)
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

_Fans = tuple[tuple[int, int], ...]
_TRAIT_MEMO: dict[int, tuple[_Fans, _Fans, _Fans]] = {}


def _traits(mask: int) -> tuple[_Fans, _Fans, _Fans]:
    """(suit fans, tile-trait fans, number-range fans) of a hand whose kinds OR to ``mask``:
    无字 缺一门 混一色 清一色 五门齐 / 断幺 推不倒 绿一色 字一色 清幺九 混幺九 / 全小 小于五 全大
    大于五 全中."""
    got = _TRAIT_MEMO.get(mask)
    if got is not None:
        return got
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
    trait: list[tuple[int, int]] = []
    if not mask & _B_TERM_HONOR:
        trait.append((ALL_SIMPLES, 1))
    if not mask & _B_NOT_REVERSIBLE:
        trait.append((REVERSIBLE_TILES, 1))
    if not mask & _B_NOT_GREEN:
        trait.append((ALL_GREEN, 1))
    if mask & _B_TERM_HONOR:
        if not mask & _B_SUITED:
            trait.append((ALL_HONORS, 1))
        elif not mask & _B_NOT_TERMINAL:
            trait.append((ALL_TERMINALS, 1))
        elif not mask & _B_SIMPLE:
            trait.append((ALL_TERMINALS_AND_HONORS, 1))
    rng: list[tuple[int, int]] = []
    if not honors:
        ranks = mask >> _B_RANK0  # bit r: number r + 1
        if not ranks & ~0b1111:
            rng.append((LOWER_FOUR if ranks & 0b1000 else LOWER_TILES, 1))
        elif not ranks & ~0b111100000:
            rng.append((UPPER_FOUR if ranks & 0b100000 else UPPER_TILES, 1))
        elif not ranks & ~0b111000:
            rng.append((MIDDLE_TILES, 1))
    got = (tuple(suit), tuple(trait), tuple(rng))
    _TRAIT_MEMO[mask] = got
    return got


# the six 组合龙 (147 258 369 of different suits), in PyMahjongGB's order
_KNITTED: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(base + r for base, start in ((0, m), (18, s), (9, p)) for r in range(start, 9, 3)))
    for m, s, p in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)))
_KNITTED_SETS = tuple(frozenset(s) for s in _KNITTED)
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
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


def _read_melds(melds: Sequence[McrMeld], counts: list[int]) -> tuple[list[_Fixed], int, int]:
    """The fixed melds as pack codes (:mod:`.shapes`); adds their tiles to ``counts``.  Returns
    (fixed melds, number of kongs, number of claimed melds)."""
    fixed: list[_Fixed] = []
    kongs = claimed_melds = 0
    for m in melds:
        if not isinstance(m, McrMeld):
            raise InvalidMcrHand(f"a meld must be an McrMeld, got {m!r}")
        k = _kind(m.tile, "a meld's tile")
        typ = m.type
        offer = m.offer
        if not isinstance(offer, int) or isinstance(offer, bool) or not 0 <= offer <= 3:
            raise InvalidMcrHand(f"a meld's offer must be 0..3, got {offer!r}")
        if typ == "chi":
            if k >= 27 or k % 9 > 6:
                raise InvalidMcrHand(f"a chi is named by its lowest tile, 1..7 of a suit; got {TILE_TEXT[k]}")
            if m.claimed is not None:
                c = _kind(m.claimed, "a chi's claimed tile")
                if not k <= c <= k + 2:
                    raise InvalidMcrHand(f"a chi from {TILE_TEXT[k]} cannot have claimed {TILE_TEXT[c]}")
            counts[k] += 1
            counts[k + 1] += 1
            counts[k + 2] += 1
            fixed.append((34 + k, False, False))
            claimed_melds += 1
        elif typ == "pon" or typ == "kong" or typ == "added_kong" or typ == "ankong":
            if m.claimed is not None and _kind(m.claimed, "a meld's claimed tile") != k:
                raise InvalidMcrHand(f"a {typ} of {TILE_TEXT[k]} cannot have claimed {TILE_TEXT[m.claimed]}")
            if typ == "pon":
                counts[k] += 3
                fixed.append((k, False, False))
                claimed_melds += 1
            else:
                counts[k] += 4
                kongs += 1
                concealed = typ == "ankong"
                fixed.append((k, True, concealed))
                if not concealed:
                    claimed_melds += 1
        else:
            raise InvalidMcrHand(f"unknown meld type {typ!r} (one of {', '.join(MELD_TYPES)})")
    return fixed, kongs, claimed_melds


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


class _Hand:
    """What every arrangement of one hand shares.  Kinds are ours, except the ``c``-prefixed
    fields and the scoring of arrangements, which use PyMahjongGB's order (:data:`shapes.CPP`)."""

    __slots__ = ("standing", "full", "every", "win", "cwin", "fixed", "cfixed_chows", "cfixed_pungs",
                 "melded_kongs", "concealed_kongs", "fixed_traits", "kongs", "claimed_melds", "self_drawn",
                 "flag_fans", "base", "seat", "prevalent", "traits", "hog", "unique_wait", "most")

    standing: list[int]  # the concealed tiles before the win, per kind
    full: list[int]  # and the winning tile
    every: list[int]  # and the fixed melds' tiles (a kong's four)
    win: int
    cwin: int  # the winning tile in CPP order
    fixed: list[_Fixed]
    cfixed_chows: tuple[int, ...]  # the fixed chows' lowest tiles, CPP order
    cfixed_pungs: tuple[int, ...]  # the fixed pungs and kongs, CPP order
    melded_kongs: int
    concealed_kongs: int
    fixed_traits: tuple[int, int, int, int, int]  # shapes.group_traits of the fixed melds
    kongs: int
    claimed_melds: int  # fixed melds other than concealed kongs
    self_drawn: bool
    flag_fans: dict[int, int]  # 和绝张 妙手回春 海底捞月 杠上开花 抢杠和 自摸, corrected
    base: dict[int, int] | None  # fans every four-melds arrangement has (_standard_base)
    seat: int
    prevalent: int
    traits: tuple[_Fans, _Fans, _Fans]
    hog: int  # 四归一
    unique_wait: bool | None
    most: int  # the most copies of one kind among the concealed tiles and the winning tile


def _prepare(concealed: Sequence[Tile], win_tile: Tile, melds: Sequence[McrMeld],
             situation: McrSituation) -> _Hand:
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
    win = win_tile if win_tile.__class__ is Tile else _kind(win_tile, "the winning tile")
    standing = [0] * 34
    kb = _KIND_BITS
    mask = kb[win]
    try:
        for t in concealed:
            standing[t] += 1
            mask |= kb[t]
        if concealed and min(concealed) < 0:
            raise IndexError
    except (IndexError, TypeError):
        for t in concealed:
            _kind(t, "a concealed tile")
        raise
    full = standing.copy()
    full[win] += 1
    h = _Hand()
    cpp = S.CPP
    if n_melds:
        every = full.copy()
        fixed, kongs, claimed_melds = _read_melds(melds, every)
        cchows = []
        cpungs = []
        melded_kongs = concealed_kongs = 0
        for code, is_kong, conc in fixed:
            if code >= 34:
                cchows.append(cpp[code - 34])
            else:
                cpungs.append(cpp[code])
                if is_kong:
                    if conc:
                        concealed_kongs += 1
                    else:
                        melded_kongs += 1
        for code, _, _ in fixed:
            mask |= kb[code] if code < 34 else kb[code - 34] | kb[code - 33] | kb[code - 32]
        h.cfixed_chows = tuple(cchows)
        h.cfixed_pungs = tuple(cpungs)
        h.fixed_traits = S.group_traits(cchows, cpungs, -1)
        h.melded_kongs = melded_kongs
        h.concealed_kongs = concealed_kongs
    else:
        every = full
        fixed, kongs, claimed_melds = _NO_FIXED, 0, 0
        h.cfixed_chows = h.cfixed_pungs = ()
        h.melded_kongs = h.concealed_kongs = 0
    mx = max(every)
    if mx > 4:
        k = every.index(mx)
        raise InvalidMcrHand(f"{every[k]} copies of {TILE_TEXT[k]} (at most 4)")
    h.most = max(full) if n_melds else mx
    if situation is not _DEFAULT_SITUATION:
        try:
            sw = situation.seat_wind
            pw = situation.prevalent_wind
            fl = situation.flowers
            ok = (sw.__class__ is int and pw.__class__ is int and fl.__class__ is int
                  and 0 <= sw <= 3 and 0 <= pw <= 3 and 0 <= fl <= 8)
        except AttributeError:
            ok = False
        if not ok:
            _check_situation(situation)
    h.standing = standing
    h.full = full
    h.every = every
    h.win = win
    h.cwin = cpp[win]
    h.fixed = fixed
    h.kongs = kongs
    h.claimed_melds = claimed_melds
    self_drawn = situation.self_drawn
    h.self_drawn = self_drawn
    h.seat = situation.seat_wind
    h.prevalent = situation.prevalent_wind
    h.unique_wait = None
    # the table's flags, corrected as PyMahjongGB corrects what cannot be so
    flags: dict[int, int] = {}
    if situation is not _DEFAULT_SITUATION:
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
    elif every[win] - full[win] == 3:
        flags[LAST_TILE] = 1
    h.flag_fans = flags
    traits = _TRAIT_MEMO.get(mask)
    h.traits = traits if traits is not None else _traits(mask)
    h.hog = every.count(4) - kongs
    h.base = None
    return h


def _standard_base(h: _Hand) -> dict[int, int]:
    """The fans every four-melds-and-a-pair arrangement of the hand has: the win's flags, the
    suits and kinds, 四归一, and 不求人 / 门前清 / 全求人."""
    base = h.flag_fans.copy()
    for part in h.traits:
        for f, n in part:
            base[f] = n
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


_STRUCK: dict[frozenset[int], tuple[int, ...]] = {}


def _struck(present: frozenset[int]) -> tuple[int, ...]:
    """The fans the exclusions strike out of ``present``: highest fan first, a fan still counted
    strikes out its ``excludes`` (one struck out strikes nothing)."""
    left = set(present)
    for i in sorted(present, key=_RANK_OF):
        if i in _EXCLUDERS and i in left:
            left.difference_update(EXCLUDES[i])
    out = tuple(i for i in present if i not in left)
    _STRUCK[present] = out
    return out


def _finish(fans: dict[int, int]) -> None:
    """Apply the exclusions (memoised on the set of fans)."""
    key = frozenset(fans)
    struck = _STRUCK.get(key)
    if struck is None:
        struck = _struck(key)
    for j in struck:
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
        if sum(sw) % 3 == 2 and S.suit_decomps(b, sw):
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
            if sc.count(0) >= 27 and sum(n >> 1 for n in sc) == 6:
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
    _, pair, concealed_chows, concealed_pung_kinds, outside, five, even, terminal_pungs, dragons = div
    concealed_pungs = len(concealed_pung_kinds)
    if h.fixed:
        chows = concealed_chows + h.cfixed_chows
        pungs = concealed_pung_kinds + h.cfixed_pungs
        fo, ff, fe, ft, fd = h.fixed_traits
        outside += fo
        five += ff
        even += fe
        terminal_pungs += ft
        dragons += fd
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
        if dragons:
            fans[DRAGON_PUNG] = dragons
        if n_pungs >= 2:
            if n_pungs == 4:
                fans[ALL_PUNGS] = 1
            for f, n in _PUNG_FANS(pungs):
                fans[f] = fans.get(f, 0) + n
    if n_chows >= 2:
        if n_chows == 4 and pair < 27 and pair % 9 == 4 and _terminal_chows(chows, pair, fans):
            pass
        else:
            for f, n in _CHOW_FANS(chows):
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
    if outside == 5:
        fans[OUTSIDE_HAND] = 1
    elif five == 5:
        fans[ALL_FIVE] = 1
    elif even == 5:
        fans[ALL_EVEN_PUNGS] = 1
    # 边张, 嵌张, 单钓将: only when the hand waited on the one tile
    wait = 4 if pair == win else 0
    for c in concealed_chows:
        if win == c + 1:
            wait |= 2
        elif win == c or win == c + 2:
            wait |= 1
    if wait and MELDED_HAND not in fans and FOUR_KONGS not in fans and _unique_wait(h):
        fans[EDGE_WAIT if wait & 1 else CLOSED_WAIT if wait & 2 else SINGLE_WAIT] = 1
    _finish(fans)
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


def _knitted_unique_wait(rest: list[int], win: int) -> bool:
    """PyMahjongGB's 独听 test for a concealed 组合龙 hand: the wait of the five tiles outside the
    组合龙 less the winning tile (when the winning tile is not among them, its count wraps to
    65535 as in the C++ and the search runs on that table)."""
    table = rest.copy()
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
    if max(full) < 2:
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
    if 1 not in full and 3 not in full:
        kinds = [k for k in range(34) if full[k]]
        if (len(kinds) == 7 and kinds[0] < 27 and kinds[6] - kinds[0] == 6 and kinds[0] // 9 == kinds[6] // 9
                and max(full) == 2):
            fans = {SEVEN_SHIFTED_PAIRS: 1}
            if full[kinds[0]] and kinds[0] % 9 == 1:  # 2..8: 断幺 too
                fans[ALL_SIMPLES] = 1
        else:
            fans = {SEVEN_PAIRS: 1}
            for part in h.traits:
                for f, n in part:
                    fans[f] = n
            if h.hog > 0:
                fans[TILE_HOG] = h.hog
        fans.update(h.flag_fans)
        _finish(fans)
        return sum(VALUES[i] * n for i, n in fans.items()), fans, "seven_pairs"
    if max(full) == 1:
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


def _division_key(division: S.Summary) -> tuple[int, ...]:
    """Where PyMahjongGB finds an arrangement (packs in its tile order): ordered by its packs, a
    pung before the chow starting on the same tile."""
    return tuple(sorted(2 * c if c < 34 else 2 * c - 67 for c in division[0]))


# --- results ------------------------------------------------------------------------------------


def _make_entry(i: int, n: int) -> FanEntry:
    f = FANS[i]
    return FanEntry(f.code, f.chinese, f.english, f.value, n)


# every entry with a count below 9, made once: results share them
_ENTRY: list[list[FanEntry]] = [[_make_entry(i, n) for n in range(9)] for i in range(len(FANS))]


_ENTRIES: dict[tuple[tuple[int, int], ...], tuple[FanEntry, ...]] = {}


def _entries(fans: dict[int, int], flowers: int) -> tuple[FanEntry, ...]:
    key = tuple(sorted(fans.items()))
    if flowers:
        key += ((FLOWER_TILES, flowers),)
    got = _ENTRIES.get(key)
    if got is None:
        if len(_ENTRIES) > 200_000:
            _ENTRIES.clear()
        got = _ENTRIES[key] = tuple(_ENTRY[i][n] if n < 9 else _make_entry(i, n) for i, n in key)
    return got


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


def _standard_groups(h: _Hand, packs: tuple[int, ...], pair: int) -> tuple[McrGroup, ...]:
    """The groups of an arrangement (packs and pair in PyMahjongGB's order)."""
    cpp = S.CPP
    out = [_pack_group(code, is_kong, concealed) for code, is_kong, concealed in h.fixed]
    win = h.cwin
    # the pung a discard completed counts as exposed (unless the tile can be read into a chow)
    opened = (not h.self_drawn and win in packs
              and not any(c >= 34 and c - 34 <= win <= c - 32 for c in packs))
    ours = sorted((cpp[c], c == win) if c < 34 else (34 + cpp[c - 34], False) for c in packs)
    for code, is_win in ours:
        out.append(_pack_group(code, False, not (opened and is_win)))
    out.append(_group("pair", (cpp[pair],) * 2))
    return tuple(out)


def _special_groups(shape: str, full: list[int]) -> tuple[McrGroup, ...]:
    if shape == "seven_pairs":
        return tuple(_group("pair", (k, k)) for k in range(34) for _ in range(full[k] // 2))
    if shape == "thirteen_orphans":
        pair = next(k for k in _ORPHANS if full[k] == 2)
        return (_group("pair", (pair, pair)),) + tuple(_group("single", (k,)) for k in _ORPHANS if k != pair)
    if shape == "nine_gates":
        base = max(range(34), key=full.__getitem__) // 9 * 9
        return (_group("nine_gates", tuple(k for k in range(base, base + 9) for _ in range(full[k]))),)
    return tuple(_group("single", (k,)) for k in range(34) if full[k])


# --- the calculator -----------------------------------------------------------------------------


def score_mcr(concealed: Sequence[Tile], win_tile: Tile, melds: Sequence[McrMeld] = (),
              situation: McrSituation = _DEFAULT_SITUATION, *, min_fan: int = 8) -> McrResult:
    """Score a hand winning on ``win_tile``: ``concealed`` holds the 13 − 3·len(melds) concealed
    tiles before it (a concealed kong is one of ``melds``).  Raises :class:`InvalidMcrHand` (a
    ``ValueError``) for an impossible hand; a hand of no winning shape scores ``complete=False``."""
    h = _prepare(concealed, win_tile, melds, situation)
    flowers = situation.flowers
    best: dict[int, int] | None = None
    best_total = 0
    shape = ""
    arrangement: Callable[[], tuple[McrGroup, ...]] | None = None
    n_fixed = len(h.fixed)
    full = h.full
    if n_fixed == 0:
        most = h.most
        if most == 1 or (1 not in full and 3 not in full) or (most == 2 and full[0] and full[8] and full[33]):
            sp = _score_special(h)
            if sp is not None:
                best_total, best, shape = sp
                arrangement = partial(_special_groups, shape, full)
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
            arrangement = partial(_special_groups, shape, full)
    if best is None or SEVEN_PAIRS in best:
        seven_pairs = best is not None
        divisions = _HAND_DIVISIONS(h.full)
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
            arrangement = partial(_standard_groups, h, chosen[0], chosen[1])
    if best is None:
        return _INCOMPLETE if not flowers else McrResult(False, False, 0, flowers=flowers)
    return McrResult(True, best_total >= min_fan, best_total, _entries(best, flowers), shape, flowers, arrangement)


def _knitted_groups(h: _Hand, seq: tuple[int, ...], pack: int, pair: int) -> tuple[McrGroup, ...]:
    pg = _pack_group(*h.fixed[0]) if h.fixed else _pack_group(pack)
    return (_group("knitted", seq), pg, _group("pair", (pair, pair)))


def score_mcr_many(hands: Iterable[tuple[Sequence[Tile], Tile, Sequence[McrMeld], McrSituation]], *,
                   min_fan: int = 8) -> list[McrResult]:
    """:func:`score_mcr` over many ``(concealed, win_tile, melds, situation)`` hands."""
    return [score_mcr(c, w, m, s, min_fan=min_fan) for c, w, m, s in hands]


def is_complete_mcr(counts34: Sequence[int], n_melds: int) -> bool:
    """Whether the concealed tiles (``counts34``, the winning tile included: 14 − 3·n_melds of
    them) with ``n_melds`` fixed melds form an MCR winning shape, fan not considered."""
    if sum(counts34) != 14 - 3 * n_melds:
        return False
    if S.is_complete_counts(list(counts34)):
        return True
    if n_melds == 0:
        if all(n % 2 == 0 for n in counts34):
            return True
        if max(counts34) == 1:
            suited = [k for k in range(27) if counts34[k]]
            if 7 <= len(suited) <= 9 and any(s.issuperset(suited) for s in _KNITTED_SETS):
                return True
        elif all(counts34[k] for k in _ORPHANS) and sum(counts34[k] for k in _ORPHANS) == 14:
            return True
    if n_melds <= 1:
        for seq in _KNITTED:
            if all(counts34[t] for t in seq):
                rest = list(counts34)
                for t in seq:
                    rest[t] -= 1
                return S.is_complete_counts(rest)
    return False
