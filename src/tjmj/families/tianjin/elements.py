"""Fan elements (R5.1), one small class each, and the arrangement they are judged on.

Each element has a code, a Chinese and an English name, its value (a core value or ×2) and an
``is_condition_met(arrangement)`` check on one explicit arrangement.  The slow reference
enumerator (:mod:`tjmj.families.tianjin.reference`) scores every arrangement with these checks; the fast scorer
(:mod:`tjmj.families.tianjin.score`) reaches the same answer by pattern removal and is tested against it.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntFlag
from functools import cache
from typing import NamedTuple

from ...hand import Group
from ...tiles import Tile

__all__ = [
    "Flag",
    "Arrangement",
    "Element",
    "ELEMENTS",
    "ELEMENT_BY_CODE",
    "fan_of",
    "combination_name",
]


class Flag(IntFlag):
    """Bit set of elements; the bit order is also the tie-break order between equal fans."""

    LONG = 1
    ZHUOWU = 2
    HUNDIAO = 4
    BENHUN = 8
    SU = 16
    GANGKAI = 32
    SUBEN = 64
    TIANHU = 128


class Arrangement(NamedTuple):
    """Every tile of a hand in one group, every wild given the kind it plays (R5.1).

    ``dragon`` holds the indices of the three groups claimed as the 龙 (or None);
    ``winning_tile`` is the physical winning tile.
    """

    groups: tuple[Group, ...]
    winning_tile: Tile
    wild_kinds: tuple[Tile, ...]
    dragon: tuple[int, int, int] | None = None
    kong_draw: bool = False
    tianhu: bool = False
    suben_rule: bool = False
    exposed_wild_tiles: int = 0

    @property
    def winning_group(self) -> Group | None:
        for g in self.groups:
            if g.winning is not None:
                return g
        return None

    @property
    def winning_group_index(self) -> int | None:
        for i, g in enumerate(self.groups):
            if g.winning is not None:
                return i
        return None

    def wild_count(self) -> int:
        return sum(sum(g.wild) for g in self.groups)

    def __str__(self) -> str:
        return "  ".join(str(g) for g in self.groups)

    def to_dict(self) -> dict[str, object]:
        return {
            "groups": [g.to_dict() for g in self.groups],
            "dragon": list(self.dragon) if self.dragon else None,
        }


class Element:
    """A fan element: ``code``, ``chinese``, ``english``, ``core`` (added core value) or ``double``."""

    flag: Flag
    code: str
    chinese: str
    english: str
    core: int = 0
    double: bool = False
    section: str = "R5.1"

    @classmethod
    def is_condition_met(cls, arr: Arrangement) -> bool:
        raise NotImplementedError

    @classmethod
    def value_text(cls) -> str:
        return f"core {cls.core}" if cls.core else "×2"

    @classmethod
    def value_text_zh(cls) -> str:
        """The value in Chinese (核心分, the guide's word), for the pages' Chinese settlement."""
        return f"核心分 {cls.core}" if cls.core else "×2"

    @classmethod
    def to_dict(cls) -> dict[str, object]:
        return {"code": cls.code, "chinese": cls.chinese, "english": cls.english, "value": cls.value_text(),
                "value_zh": cls.value_text_zh()}


def _dragon_groups(arr: Arrangement) -> list[Group] | None:
    if arr.dragon is None:
        return None
    gs = [arr.groups[i] for i in arr.dragon]
    if any(g.kind != "sequence" for g in gs):
        return None
    starts = sorted(g.plays[0] for g in gs)
    if any(g.plays[0] // 9 != starts[0] // 9 or starts[0] >= 27 for g in gs):
        return None
    if [s % 9 for s in starts] != [0, 3, 6]:
        return None
    return gs


class Long(Element):
    flag, code, chinese, english, core = Flag.LONG, "LONG", "龙", "dragon (1-9 straight)", 4

    @classmethod
    def is_condition_met(cls, arr: Arrangement) -> bool:
        # three concealed sequences 123, 456, 789 of one suit, wilds allowed
        return _dragon_groups(arr) is not None


class Zhuowu(Element):
    flag, code, chinese, english, core = Flag.ZHUOWU, "ZHUOWU", "捉伍儿", "catching the five", 3

    @classmethod
    def is_condition_met(cls, arr: Arrangement) -> bool:
        g = arr.winning_group
        if g is None or g.kind != "sequence" or g.winning is None:
            return False
        win = g.tiles[g.winning]
        if not (win == 4 or win in arr.wild_kinds):  # 5m or a wild (only 万 counts)
            return False
        return tuple(g.plays) == (3, 4, 5) and g.plays[g.winning] == 4


class Hundiao(Element):
    flag, code, chinese, english, double = Flag.HUNDIAO, "HUNDIAO", "混儿吊", "wild wait", True

    @classmethod
    def is_condition_met(cls, arr: Arrangement) -> bool:
        i = arr.winning_group_index
        if i is None:
            return False
        g = arr.groups[i]
        if g.kind not in ("pair", "sequence", "triplet"):
            return False
        others = [w for j, w in enumerate(g.wild) if j != g.winning]
        if not all(others):  # the partner(s) of the winning tile must be wilds from the hand
            return False
        # with a dragon the 混儿吊 group may not be one of its sequences
        return not (arr.dragon is not None and Long.is_condition_met(arr) and i in arr.dragon)

    @staticmethod
    def is_double(arr: Arrangement) -> bool:
        g = arr.winning_group
        return g is not None and g.kind != "pair"


class Benhun(Element):
    flag, code, chinese, english, double = Flag.BENHUN, "BENHUN", "本混儿", "own-wild dragon", True

    @classmethod
    def is_condition_met(cls, arr: Arrangement) -> bool:
        gs = _dragon_groups(arr)
        if gs is None:
            return False
        suit = gs[0].plays[0] // 9
        return all(k < 27 and k // 9 == suit for k in arr.wild_kinds)


class Su(Element):
    flag, code, chinese, english, double = Flag.SU, "SU", "没混儿", "no wilds", True

    @classmethod
    def is_condition_met(cls, arr: Arrangement) -> bool:
        return arr.wild_count() == 0 and arr.exposed_wild_tiles == 0


class Gangkai(Element):
    flag, code, chinese, english, double = Flag.GANGKAI, "GANGKAI", "杠开", "win on a kong replacement", True

    @classmethod
    def is_condition_met(cls, arr: Arrangement) -> bool:
        return arr.kong_draw


class Suben(Element):
    flag, code, chinese, english, double = Flag.SUBEN, "SUBEN", "素本", "pure own-wild dragon", True

    @classmethod
    def is_condition_met(cls, arr: Arrangement) -> bool:
        if not arr.suben_rule or not Benhun.is_condition_met(arr) or arr.exposed_wild_tiles:
            return False
        assert arr.dragon is not None
        wild_tiles: list[Tile] = []
        for i, g in enumerate(arr.groups):
            for t, p, w in zip(g.tiles, g.plays, g.wild, strict=True):
                if w:
                    if i not in arr.dragon or t != p:
                        return False  # every wild inside the dragon, playing its own kind
                    wild_tiles.append(t)
        return sorted(wild_tiles) == sorted(arr.wild_kinds)


class Tianhu(Element):
    flag, code, chinese, english, section = Flag.TIANHU, "TIANHU", "天胡", "heavenly hand", "R5.5"

    @classmethod
    def is_condition_met(cls, arr: Arrangement) -> bool:
        return arr.tianhu

    @classmethod
    def value_text(cls) -> str:
        return "4 fan (flat) or ×4 (best_x4)"


# Display order of elements in lists.
ELEMENTS: tuple[type[Element], ...] = (Gangkai, Hundiao, Su, Zhuowu, Benhun, Suben, Long, Tianhu)
ELEMENT_BY_CODE = {e.code: e for e in ELEMENTS}
ELEMENT_BY_FLAG = {e.flag: e for e in ELEMENTS}
ARRANGEMENT_ELEMENTS = (Long, Zhuowu, Hundiao, Benhun, Su, Gangkai, Suben)


def fan_of(flags: int) -> int:
    """R5.2: core (7, 4, 3 or 1) × 2 per doubling element present (天胡 excluded)."""
    core = (4 if flags & Flag.LONG else 0) + (3 if flags & Flag.ZHUOWU else 0) or 1
    n = bin(flags & (Flag.HUNDIAO | Flag.BENHUN | Flag.SU | Flag.GANGKAI | Flag.SUBEN)).count("1")
    return core << n


_ELEMENT_BITS = tuple((int(e.flag), e) for e in ELEMENTS)


@cache
def elements_of(flags: int) -> tuple[type[Element], ...]:
    f = int(flags)  # plain int ops: IntFlag's operators are slow on hot paths
    return tuple(e for bit, e in _ELEMENT_BITS if f & bit)


_L, _Z, _H, _B, _S, _G, _SB, _TH = (int(f) for f in Flag)


@cache
def combination_name(flags: int, double_hundiao: bool = False) -> str:
    """The display name of R5.3, e.g. 双混儿捉伍儿本混儿龙.

    Built in one fixed order (杠开, 混儿吊/素, 捉伍儿, 本混儿, 龙); R5.3 itself writes one name
    in another order (杠开本混儿捉伍儿龙): see docs/rules-notes.md.
    """
    f = int(flags)  # plain int bit tests: IntFlag's operators are slow
    tianhu = "天胡" if f & _TH else ""
    f &= ~_TH
    if f == 0:
        return tianhu or "提溜"
    if f == _G | _S:
        return tianhu + "没混儿杠开"
    parts: list[str] = []
    gk, su, hd, zw, ln = f & _G, f & _S, f & _H, f & _Z, f & _L
    if gk:
        parts.append("杠开")
    if su:
        parts.append("素" if gk else "没混儿")
    if hd:
        if double_hundiao and zw:
            parts.append("双混儿")
        elif double_hundiao and f == _H:
            parts.append("双混儿吊")
        else:
            parts.append("混儿吊")
    if f & _SB:
        parts.append("素本伍" if zw else "素本")
    else:
        if zw:
            parts.append("伍儿" if (hd or su) and not ln and not gk else "捉伍儿")
        if f & _B:
            parts.append("本混儿")
    if ln:
        parts.append("龙")
    return tianhu + "".join(parts)


def names_of(codes: Sequence[str]) -> list[str]:
    return [ELEMENT_BY_CODE[c].chinese for c in codes]
