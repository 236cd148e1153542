"""The MCR scorer's tables (:mod:`.score`): every fan's id by name, the fans a fan strikes out, the
per-kind trait bits and the suit, tile-trait and number-range fans of a hand's traits (memoised on
the traits), the 组合龙 and 十三幺 tiles, 九莲宝灯's other fans.  Shared by :mod:`.score_hand` and
:mod:`.score_judge`; the fan ids are importable from :mod:`.score` too.
"""

from __future__ import annotations

from operator import itemgetter

from . import shapes as S
from .fans import EXCLUDES, FAN_BY_CODE, RANK

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
