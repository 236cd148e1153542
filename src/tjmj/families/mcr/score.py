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

This module holds the results and the calculator; the rest is in modules of one concern each,
whose public names are importable from here too: :mod:`.score_hand` (the meld and situation
types, their checks, the prepared hand), :mod:`.score_judge` (the fans of each arrangement) and
:mod:`.score_tables` (the fan ids and the per-kind tables).

>>> from tjmj.tiles import parse_tiles, Tile
>>> r = score_mcr(parse_tiles("123m456m789m123p5s"), Tile.parse("5s"), situation=McrSituation(self_drawn=True))
>>> r.fan, [(e.chinese, e.fan) for e in r.fans]
(24, [('清龙', 16), ('不求人', 4), ('平和', 2), ('喜相逢', 1), ('单钓将', 1)])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any, cast

from ..._mypyc import mypyc_attr
from ...tiles import TILE_TEXT, TILES, Tile
from . import shapes as S
from .fans import EXCLUDES, FAN_BY_CODE, FANS, RANK, VALUES  # noqa: F401
from .score_hand import (  # noqa: F401
    MELD_TYPES,
    InvalidMcrHand,
    McrMeld,
    McrSituation,
    _Hand,
    _prepare,
)
from .score_judge import (
    _division_key,
    _score_knitted_straight,
    _score_nine_gates,
    _score_special,
    _score_standard,
)
from .score_tables import (  # noqa: F401
    _HAND_DIVISIONS,
    _KNITTED,
    _KNITTED_COUNTS,
    _KNITTED_SETS,
    _ODD,
    _ORPHAN_COUNTS,
    _ORPHANS,
    ALL_CHOWS,
    ALL_EVEN_PUNGS,
    ALL_FIVE,
    ALL_GREEN,
    ALL_HONORS,
    ALL_PUNGS,
    ALL_SIMPLES,
    ALL_TERMINALS,
    ALL_TERMINALS_AND_HONORS,
    ALL_TYPES,
    BIG_FOUR_WINDS,
    BIG_THREE_WINDS,
    CHICKEN_HAND,
    CLOSED_WAIT,
    CONCEALED_HAND,
    CONCEALED_KONG,
    CONCEALED_KONG_AND_MELDED_KONG,
    DRAGON_PUNG,
    EDGE_WAIT,
    FLOWER_TILES,
    FOUR_CONCEALED_PUNGS,
    FOUR_KONGS,
    FULL_FLUSH,
    FULLY_CONCEALED_HAND,
    GREATER_HONORS,
    HALF_FLUSH,
    KNITTED_STRAIGHT,
    LAST_TILE,
    LAST_TILE_CLAIM,
    LAST_TILE_DRAW,
    LESSER_HONORS,
    LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    LOWER_FOUR,
    LOWER_TILES,
    MELDED_HAND,
    MELDED_KONG,
    MIDDLE_TILES,
    NINE_GATES,
    NO_HONORS,
    ONE_VOIDED_SUIT,
    OUT_WITH_REPLACEMENT_TILE,
    OUTSIDE_HAND,
    PREVALENT_WIND,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_STRAIGHT,
    PURE_TERMINAL_CHOWS,
    PURE_TRIPLE_CHOW,
    REVERSIBLE_TILES,
    ROBBING_THE_KONG,
    SEAT_WIND,
    SELF_DRAWN,
    SEVEN_PAIRS,
    SEVEN_SHIFTED_PAIRS,
    SHORT_STRAIGHT,
    SINGLE_WAIT,
    THIRTEEN_ORPHANS,
    THREE_CONCEALED_PUNGS,
    THREE_KONGS,
    THREE_SUITED_TERMINAL_CHOWS,
    TILE_HOG,
    TRIPLE_PUNG,
    TWO_CONCEALED_KONGS,
    TWO_CONCEALED_PUNGS,
    TWO_DRAGONS_PUNGS,
    TWO_MELDED_KONGS,
    UPPER_FOUR,
    UPPER_TILES,
)

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
