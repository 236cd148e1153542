"""Beijing's scoring elements (番种, docs/rules/BEIJING.md B5), one small class each, and what they
are judged on: one explicit arrangement (:class:`BeijingArrangement`) and the situation of the win
(:class:`Situation`, holding the :class:`WinContext`).

Each element is written once: its code, Chinese and English names, its value in each column of
B5 (version B, ``scoring: multiply``: ×n or a flat 40; version A, ``scoring: add``: +fan) and
``is_condition_met(arrangement, situation)``, in the style of the ``mahjong`` library's yaku.  The
slow reference (:mod:`.reference`) scores every arrangement with these checks alone; the fast
scorer (:mod:`.score`) reaches the same answer by pattern removal and is tested against it.

Shapes and suits are judged on the tiles *as they play* (a wild counts as the kind it stands
for); only 无混儿 and 本混儿龙 look at which tiles are wilds (B5).

>>> [e.code for e in elements_of(bit_of("LONG") | bit_of("ZIMO"), "multiply")]
['LONG', 'ZIMO']
>>> value_of(bit_of("LONG") | bit_of("ZIMO"), "multiply", 0)
4
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, fields
from functools import cache
from typing import ClassVar, NamedTuple

from ...hand import Group
from ...tiles import TILE_TEXT, Tile, TileError
from .rules import FLAT_VALUE, BeijingRules

__all__ = [
    "WinContext",
    "Situation",
    "BeijingArrangement",
    "BeijingElement",
    "ELEMENTS",
    "ELEMENT_BY_CODE",
    "MULTIPLY",
    "ADD",
    "bit_of",
    "elements_of",
    "value_of",
    "resolve",
    "name_of",
    "Group",
]

MULTIPLY = "multiply"  # version B's column (preset ``beijing``)
ADD = "add"  # version A's column (preset ``beijing_a``)
BOTH = frozenset((MULTIPLY, ADD))
ONLY_B = frozenset((MULTIPLY,))
ONLY_A = frozenset((ADD,))

STANDARD = "standard"  # four melds and a pair (B4)
PAIRS = "pairs"  # 七对子 (B4)
_CONCEALED_KINDS = ("pair", "sequence", "triplet")
_CLAIMED_KINDS = ("chi", "pon", "kong", "added_kong")  # an added kong began as a pon


@dataclass(frozen=True)
class WinContext:
    """The situation of one win (B3, B5), apart from the tiles.

    ``self_drawn``: the winner drew the winning tile (False: won on a discard, 点炮); ``dealer``:
    the winner is the dealer (庄胡); ``last_tile``: the winning tile is the last one a normal draw may
    take (海底, B1); ``kong_draw``: it is a replacement draw after the winner's kong (杠上开花);
    ``rob_kong``: it was robbed from another player's kong (抢杠: ``self_drawn`` is False, and the
    win scores as self-drawn, B3); ``hunyou``: the automatic win of a succeeded 混儿悠 draw (无混儿
    is added, B3); ``hungang``: a declared 混杠 (four wilds, B2); ``tianhe`` / ``dihe``: 天和 / 地和
    (B5).
    """

    self_drawn: bool = True
    dealer: bool = False
    last_tile: bool = False
    kong_draw: bool = False
    rob_kong: bool = False
    hunyou: bool = False
    hungang: bool = False
    tianhe: bool = False
    dihe: bool = False

    @property
    def scores_self_drawn(self) -> bool:
        """自摸 for scoring: drawn by the winner, or robbed from a kong (B3, B5)."""
        return self.self_drawn or self.rob_kong

    def to_dict(self) -> dict[str, bool]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> WinContext:
        """Read ``{"self_drawn": false, "dealer": true}`` (missing keys take their defaults)."""
        if not isinstance(data, dict):
            raise TileError(f"the win context must be an object of flags, got {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise TileError(f"unknown win context flag(s) {sorted(unknown)}; flags are {', '.join(sorted(known))}")
        bad = [k for k, v in data.items() if not isinstance(v, bool)]
        if bad:
            raise TileError(f"win context flag(s) {sorted(bad)} must be true or false")
        return cls(**data)


class Situation(NamedTuple):
    """What an element may look at besides the arrangement.

    ``other_wait``: the 13 tiles before the win also completed on a kind other than 5m and the
    wild kind (捉五魁 needs it False, B5); only asked when the winning tile is a non-wild 5m.
    """

    context: WinContext
    rules: BeijingRules
    wild: Tile | None
    other_wait: bool = False


class BeijingArrangement(NamedTuple):
    """Every tile of a winning hand in one group, every wild given the kind it plays (B4).

    ``groups``: the concealed groups, then the exposed melds (a claimed wild plays its own kind
    there, B2); each is a :class:`tjmj.hand.Group` (kind ``pair``, ``sequence``, ``triplet``
    or a meld type: ``chi``, ``pon``, ``kong``, ``added_kong``, ``ankong``), and exactly one holds
    the winning tile (``Group.winning``).  ``shape``: ``standard`` (four melds and a pair) or
    ``pairs`` (七对子).  ``wild``: the wild kind (None without wilds).
    """

    groups: tuple[Group, ...]
    winning_tile: Tile
    wild: Tile | None
    shape: str = STANDARD

    @property
    def winning_group(self) -> Group | None:
        for g in self.groups:
            if g.winning is not None:
                return g
        return None

    def wild_tiles(self) -> int:
        """Wild tiles in the whole hand, exposed melds included."""
        return sum(sum(g.wild) for g in self.groups)

    def plays(self) -> list[Tile]:
        """Every tile as it plays."""
        return [p for g in self.groups for p in g.plays]

    def __str__(self) -> str:
        return "  ".join(str(g) for g in self.groups)

    def to_dict(self) -> dict[str, object]:
        return {
            "shape": self.shape,
            "wild": TILE_TEXT[self.wild] if self.wild is not None else None,
            "groups": [g.to_dict() for g in self.groups],
        }


class BeijingElement:
    """One element of B5.

    ``columns``: where it exists (``multiply`` = version B, ``add`` = version A); ``multiplier``:
    its ×n in version B (None: not in the value); ``fan``: its +fan in version A; ``flat``: a flat
    value that replaces every other element (混杠, 天和, 地和); ``replaces``: codes it stands
    instead of; ``rank``: its bit in the element set, also the tie-break between arrangements of
    equal value (the larger set wins, so a rarer element has a higher bit).
    """

    code: ClassVar[str]
    chinese: ClassVar[str]
    english: ClassVar[str]
    rank: ClassVar[int]
    columns: ClassVar[frozenset[str]] = BOTH
    multiplier: ClassVar[int | None] = None
    fan: ClassVar[int | None] = None
    flat: ClassVar[int | None] = None
    replaces: ClassVar[tuple[str, ...]] = ()
    section: ClassVar[str] = "B5"

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        raise NotImplementedError

    @classmethod
    def value_text(cls, scoring: str) -> str:
        """The element's value in one column, as B5 writes it."""
        if scoring not in cls.columns:
            return "–"
        if cls.flat is not None:
            return f"{cls.flat} flat"
        if scoring == MULTIPLY:
            return f"×{cls.multiplier}" if cls.multiplier is not None else "listed"
        return f"+{cls.fan}" if cls.fan is not None else "listed"

    @classmethod
    def value_text_zh(cls, scoring: str) -> str:
        """The same in Chinese (the web table's settlement in Chinese)."""
        text = cls.value_text(scoring)
        if text.endswith(" flat"):
            return f"固定 {text[:-5]}"
        return _ZH_VALUE.get(text, text)

    @classmethod
    def to_dict(cls, scoring: str) -> dict[str, str]:
        return {"code": cls.code, "chinese": cls.chinese, "english": cls.english, "value": cls.value_text(scoring),
                "value_zh": cls.value_text_zh(scoring)}


_ZH_VALUE = {"not halved": "不减半", "×2 on the discarder's payment": "点炮者付 ×2", "listed": "只列出", "–": "–"}


# --------------------------------------------------------------------------------------------
# The situation: who won, how
# --------------------------------------------------------------------------------------------


class Dealer(BeijingElement):
    code, chinese, english, rank, columns, multiplier = "DEALER", "庄胡", "dealer wins", 1, ONLY_B, 2

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        return sit.context.dealer


class Menqing(BeijingElement):
    """门清: no chi, pon or discard kong (an added kong began as a pon); concealed kongs allowed.

    Version A has no fan for it: an open hand is worth half instead (B5), so there it is listed
    with the text below and no value of its own.
    """

    code, chinese, english, rank, multiplier = "MENQING", "门清", "concealed hand", 2, 2

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        return not any(g.kind in _CLAIMED_KINDS for g in arr.groups)

    @classmethod
    def value_text(cls, scoring: str) -> str:
        return "×2" if scoring == MULTIPLY else "not halved"


class Zimo(BeijingElement):
    code, chinese, english, rank, columns, multiplier = "ZIMO", "自摸", "self-drawn", 3, ONLY_B, 2

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        # replacement draws and 抢杠 included (B3, B5)
        return sit.context.scores_self_drawn


class Dianpao(BeijingElement):
    """点炮: won on a discard; listed, not in the value: it doubles the discarder's payment (B6)."""

    code, chinese, english, rank, columns = "DIANPAO", "点炮", "won on a discard", 0, ONLY_B

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        return not sit.context.scores_self_drawn

    @classmethod
    def value_text(cls, scoring: str) -> str:
        return "×2 on the discarder's payment" if scoring == MULTIPLY else "–"


class Wuhun(BeijingElement):
    code, chinese, english, rank, columns, multiplier = "WUHUN", "无混儿", "no wild", 6, ONLY_B, 2

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        # the 14 tiles, melds included, hold no wild tile; or a succeeded 混儿悠 (B3)
        return sit.context.hunyou or arr.wild_tiles() == 0


class Haidi(BeijingElement):
    code, chinese, english, rank, multiplier, fan = "HAIDI", "海底捞月", "last tile self-drawn", 5, 4, 2

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        # self-drawn by the winner: a discard or a robbed kong after the last draw is not 海底
        return sit.context.last_tile and sit.context.self_drawn


class Gangkai(BeijingElement):
    code, chinese, english, rank, multiplier, fan = "GANGKAI", "杠上开花", "win on a kong replacement", 4, 2, 5

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        return sit.context.kong_draw


# --------------------------------------------------------------------------------------------
# The shape
# --------------------------------------------------------------------------------------------


def _dragon_suit(arr: BeijingArrangement) -> int | None:
    """The suit of three concealed sequences 123 456 789 (一条龙), or None."""
    if arr.shape != STANDARD:
        return None
    starts = {g.plays[0] for g in arr.groups if g.kind == "sequence"}
    for s in range(3):
        if {9 * s, 9 * s + 3, 9 * s + 6} <= starts:
            return s
    return None


class Long(BeijingElement):
    code, chinese, english, rank, multiplier, fan = "LONG", "一条龙", "pure straight 1-9", 12, 2, 3

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        # concealed sequences only: a chi is no part of the dragon (B5); wilds may stand in
        return _dragon_suit(arr) is not None


class Benhunlong(BeijingElement):
    """本混儿龙: 一条龙 in the wild's suit whose only wild tile plays its own kind (counts as no wild)."""

    code, chinese, english, rank, columns, multiplier = "BENHUNLONG", "本混儿龙", "own-wild straight", 13, ONLY_B, 4
    replaces = ("LONG", "WUHUN")

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        wild = sit.wild
        if wild is None or wild >= 27 or _dragon_suit(arr) != wild // 9:
            return False
        wilds = [(t, p) for g in arr.groups for t, p, w in zip(g.tiles, g.plays, g.wild) if w]
        return len(wilds) == 1 and wilds[0][0] == wilds[0][1]


class Zhuowukui(BeijingElement):
    """捉五魁: the winning tile is a non-wild 5m in the middle of 4m5m6m whose 4m and 6m are
    non-wild, or pairs a non-wild 5m in 七对子; and the 13 tiles before it won on no other kind
    (a wild aside)."""

    code, chinese, english, rank, multiplier, fan = "ZHUOWUKUI", "捉五魁", "catching the five", 16, 2, 2

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        g = arr.winning_group
        if g is None or g.winning is None or sit.other_wait:
            return False
        i = g.winning
        if g.tiles[i] != 4 or g.wild[i]:
            return False
        if g.kind == "sequence":
            return g.plays == (3, 4, 5) and i == 1 and not g.wild[0] and not g.wild[2]
        if g.kind == "pair" and arr.shape == PAIRS:
            return g.tiles == (4, 4) and not any(g.wild)
        return False


class Qidui(BeijingElement):
    code, chinese, english, rank, multiplier, fan = "QIDUI", "七对子", "seven pairs", 14, 2, 4

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        return arr.shape == PAIRS


class Haohua(BeijingElement):
    """豪华七对子: 七对子 in which one kind is played four times (two of its pairs)."""

    code, chinese, english, rank, multiplier, fan = "HAOHUA", "豪华七对子", "luxury seven pairs", 15, 4, 8
    replaces = ("QIDUI",)

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        if arr.shape != PAIRS:
            return False
        kinds = Counter(g.plays[0] for g in arr.groups)
        return max(kinds.values()) >= 2


class Duidui(BeijingElement):
    code, chinese, english, rank, columns, fan = "DUIDUI", "对对和", "all triplets", 8, ONLY_A, 2

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        if arr.shape != STANDARD:
            return False
        return all(len(set(g.plays)) == 1 for g in arr.groups)


class Dadiao(BeijingElement):
    """大钓 (全求人): four exposed melds (a concealed kong counts as one), won on the single."""

    code, chinese, english, rank, columns, fan = "DADIAO", "大钓", "four melds, single wait", 7, ONLY_A, 2

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        g = arr.winning_group
        exposed = sum(1 for x in arr.groups if x.kind not in _CONCEALED_KINDS)
        return exposed == 4 and g is not None and g.kind == "pair"


# --------------------------------------------------------------------------------------------
# The suits, as the tiles play
# --------------------------------------------------------------------------------------------


def _suits(arr: BeijingArrangement) -> tuple[set[int], bool]:
    plays = arr.plays()
    return {p // 9 for p in plays if p < 27}, any(p >= 27 for p in plays)


class Qingyise(BeijingElement):
    code, chinese, english, rank, multiplier, fan = "QINGYISE", "清一色", "one suit", 10, 4, 6

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        suits, honours = _suits(arr)
        return len(suits) == 1 and not honours


class Hunyise(BeijingElement):
    code, chinese, english, rank, columns, multiplier = "HUNYISE", "混一色", "one suit and honours", 9, ONLY_B, 2

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        suits, honours = _suits(arr)
        return len(suits) == 1 and honours


class Ziyise(BeijingElement):
    code, chinese, english, rank, columns, multiplier = "ZIYISE", "字一色", "all honours", 11, ONLY_B, 8

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        suits, honours = _suits(arr)
        return not suits and honours


# --------------------------------------------------------------------------------------------
# Flat hands: declared, their element list is that one code (B5)
# --------------------------------------------------------------------------------------------


class Hungang(BeijingElement):
    """混杠: all four wilds in the concealed hand, declared: a flat 40 whatever the hand (B2).  It
    exists wherever there are wilds (version A has none; a custom ``add`` rule set with wilds
    scores it too)."""

    code, chinese, english, rank, flat = "HUNGANG", "混杠", "four wilds", 17, FLAT_VALUE

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        return sit.context.hungang


class Tianhe(BeijingElement):
    code, chinese, english, rank, columns, flat = "TIANHE", "天和", "heavenly hand", 18, ONLY_B, FLAT_VALUE

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        return sit.context.tianhe


class Dihe(BeijingElement):
    code, chinese, english, rank, columns, flat = "DIHE", "地和", "earthly hand", 19, ONLY_B, FLAT_VALUE

    @classmethod
    def is_condition_met(cls, arr: BeijingArrangement, sit: Situation) -> bool:
        return sit.context.dihe


# Display order (B8 lists the shape first, then 门清, 自摸, 无混儿; 点炮 last).
ELEMENTS: tuple[type[BeijingElement], ...] = (
    Hungang, Tianhe, Dihe,
    Haohua, Qidui, Benhunlong, Long, Zhuowukui, Qingyise, Hunyise, Ziyise, Duidui, Dadiao, Haidi, Gangkai,
    Dealer, Menqing, Zimo, Wuhun, Dianpao,
)  # fmt: skip
ELEMENT_BY_CODE: dict[str, type[BeijingElement]] = {e.code: e for e in ELEMENTS}
assert len({e.rank for e in ELEMENTS}) == len(ELEMENTS)


def bit_of(code: str) -> int:
    """The element's bit in an element set (``flags``)."""
    return 1 << ELEMENT_BY_CODE[code].rank


_COLUMN_MASK = {col: sum(1 << e.rank for e in ELEMENTS if col in e.columns) for col in (MULTIPLY, ADD)}
_FLAT_MASK = sum(1 << e.rank for e in ELEMENTS if e.flat is not None)
_MENQING = bit_of("MENQING")


@cache
def resolve(flags: int, scoring: str) -> int:
    """The element set that is listed, from the set of conditions met: only this column's
    elements, one flat element alone, and an element that stands instead of others without them."""
    flags &= _COLUMN_MASK[scoring]
    if flags & _FLAT_MASK:
        return flags & _FLAT_MASK & -(flags & _FLAT_MASK)  # the first flat one (they exclude each other)
    for e in ELEMENTS:
        if e.replaces and flags >> e.rank & 1:
            for code in e.replaces:
                flags &= ~bit_of(code)
    return flags


@cache
def elements_of(flags: int, scoring: str = MULTIPLY) -> tuple[type[BeijingElement], ...]:
    """The elements of a (resolved) set, in display order."""
    return tuple(e for e in ELEMENTS if flags >> e.rank & 1 and scoring in e.columns)


@cache
def value_of(flags: int, scoring: str, cap: int = 0) -> int:
    """The value of a resolved element set (B5): version B the product of the multipliers (1 base),
    version A the sum of the fan (1 when none) halved, rounded up, when not 门清; a flat element is
    its flat value; ``cap`` > 0 bounds the result."""
    es = elements_of(flags, scoring)
    flat = [e.flat for e in es if e.flat is not None]
    if flat:
        v = flat[0]
    elif scoring == MULTIPLY:
        v = 1
        for e in es:
            if e.multiplier is not None:
                v *= e.multiplier
    else:
        v = sum(e.fan for e in es if e.fan is not None) or 1
        if not flags & _MENQING:
            v = (v + 1) // 2  # "破了门清后的点数就为原基准点数的1/2"
    return min(v, cap) if cap > 0 else v


@cache
def name_of(flags: int, scoring: str = MULTIPLY) -> str:
    """The Chinese names joined (``一条龙、门清、自摸、无混儿``); 推倒胡 when no element is listed."""
    es = elements_of(flags, scoring)
    return "、".join(e.chinese for e in es) if es else "推倒胡"


def met_flags(arr: BeijingArrangement, sit: Situation) -> int:
    """Every element whose condition the arrangement meets (before :func:`resolve`)."""
    flags = 0
    for e in ELEMENTS:
        if e.is_condition_met(arr, sit):
            flags |= 1 << e.rank
    return flags
