"""Tiles and their text forms (docs/rules/RULES.md R1).

A tile kind is an int 0..33 in the order m (万), p (饼/筒), s (条), z (字); ``Tile`` is an
``int`` subclass so it indexes count arrays directly and compares fast.  Text forms:

* MPSZ: digits then a suit letter, ``123m456p789s1234567z``.  Dragons in the Chinese order
  ``5z`` 中, ``6z`` 发, ``7z`` 白 (the wild successor order, R2).
* Chinese names: 一万 … 九万, 一饼/一筒 …, 一条/一索 …, 东 南 西 北 中 发 白 (and common variants).

Flowers (MCR M1: 春夏秋冬 梅兰竹菊, written ``1f``–``8f``) are not among the 34 kinds: a
:class:`Flower` is a ``Tile`` subclass valued 34..41 that only the MCR wall and engine hold (it is
laid aside at once, so it never enters a 34-entry count array), and only ``parse_tiles(...,
flowers=True)``, :meth:`Flower.parse` and :func:`format_tiles` read or write its text.

Parse errors name the offending character and its position; nothing is guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Final

from ._mypyc import mypyc_attr

__all__ = [
    "Tile",
    "TileError",
    "parse_tiles",
    "format_tiles",
    "counts_of",
    "wild_kinds",
    "successor",
    "NUM_KINDS",
    "NUM_FLOWERS",
    "Flower",
    "FLOWERS",
    "FLOWER_TEXT",
    "is_flower",
    "TILES",
    "TILE_TEXT",
    "SUITS",
]

NUM_KINDS: Final = 34
NUM_FLOWERS = 8  # MCR M1: 1f–8f, kinds 34..41 (outside the 34 kinds of every count array)
SUITS = "mpsz"
_SUIT_CHINESE = ("万", "饼", "条")
_NUMERALS = "一二三四五六七八九"
_HONOR_CHINESE = ("东", "南", "西", "北", "中", "发", "白")
_HONOR_ENGLISH = ("East", "South", "West", "North", "Red", "Green", "White")
_SUIT_ENGLISH = ("characters", "dots", "bamboo")


class TileError(ValueError):
    """Bad tile text or an impossible tile set; the message names what is wrong."""


@mypyc_attr(native_class=False)  # an int subclass: mypyc compiles only classes deriving from object
class Tile(int):
    """One tile kind, 0..33 (``Tile.parse("5m") == 4``).

    The value is the kind index of R1: 0..8 = 1m..9m, 9..17 = 1p..9p, 18..26 = 1s..9s,
    27..33 = 东南西北中发白 (1z..7z).
    """

    __slots__ = ()

    def __new__(cls, kind: object) -> Tile:  # object: compiled, an int parameter would turn True into 1
        if not isinstance(kind, int) or isinstance(kind, bool) or not 0 <= kind < NUM_KINDS:
            raise TileError(f"tile kind must be an int 0..33, got {kind!r}")
        return _TILES[kind]

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse exactly one tile (``"5m"``, ``"五万"``, ``"中"``)."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise TileError(f"expected exactly one tile in {text!r}, found {len(tiles)}")
        return tiles[0]

    @property
    def suit(self) -> str:
        """``'m'``, ``'p'``, ``'s'`` or ``'z'``."""
        return SUITS[self // 9]

    @property
    def suit_index(self) -> int:
        return self // 9

    @property
    def number(self) -> int:
        """1..9 for suited tiles, 1..7 for honours (the MPSZ digit)."""
        return self % 9 + 1

    @property
    def is_honor(self) -> bool:
        return self >= 27

    @property
    def is_flower(self) -> bool:
        """A flower (MCR M1), never one of the 34 kinds."""
        return False

    @property
    def chinese(self) -> str:
        if self >= 27:
            return _HONOR_CHINESE[self - 27]
        return _NUMERALS[self % 9] + _SUIT_CHINESE[self // 9]

    @property
    def english(self) -> str:
        if self >= 27:
            return _HONOR_ENGLISH[self - 27]
        return f"{self % 9 + 1} {_SUIT_ENGLISH[self // 9]}"

    def __str__(self) -> str:
        return TILE_TEXT[self]

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


_TILES: list[Tile] = [int.__new__(Tile, k) for k in range(NUM_KINDS)]
TILES: Final[tuple[Tile, ...]] = tuple(_TILES)  # TILES[k] is Tile(k) without the argument check
TILE_TEXT: Final[tuple[str, ...]] = tuple(f"{k % 9 + 1}{SUITS[k // 9]}" for k in range(NUM_KINDS))

_FLOWER_CHINESE = ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊")
_FLOWER_ENGLISH = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum")


@mypyc_attr(native_class=False)
class Flower(Tile):
    """One of the eight flowers of MCR (M1), ``1f``–``8f`` = 春夏秋冬梅兰竹菊, valued 34..41.

    A ``Tile`` subclass so that a wall may hold it, but outside the 34 kinds: ``TILE_TEXT`` and the
    count arrays do not know it (indexing them with one fails loudly); the MCR engine lays a flower
    aside as soon as it is dealt or drawn.

    >>> Flower.parse("3f"), Flower.parse("3f").chinese
    (Flower.parse('3f'), '秋')
    """

    __slots__ = ()

    def __new__(cls, kind: int) -> Flower:
        if not isinstance(kind, int) or isinstance(kind, bool) or not NUM_KINDS <= kind < NUM_KINDS + NUM_FLOWERS:
            raise TileError(f"a flower is an int {NUM_KINDS}..{NUM_KINDS + NUM_FLOWERS - 1}, got {kind!r}")
        return FLOWERS[kind - NUM_KINDS]

    @classmethod
    def parse(cls, text: str) -> Flower:  # type: ignore[override]
        """``"1f"``…``"8f"`` or the Chinese name (``"梅"``)."""
        t = text.strip() if isinstance(text, str) else text
        if t in _FLOWER_BY_TEXT:
            return _FLOWER_BY_TEXT[t]
        raise TileError(f"expected one flower (1f-8f, 春夏秋冬梅兰竹菊), got {text!r}")

    @property
    def suit(self) -> str:
        return "f"

    @property
    def suit_index(self) -> int:
        return 4

    @property
    def number(self) -> int:
        return self - NUM_KINDS + 1

    @property
    def is_honor(self) -> bool:
        return False

    @property
    def is_flower(self) -> bool:
        return True

    @property
    def chinese(self) -> str:
        return _FLOWER_CHINESE[self - NUM_KINDS]

    @property
    def english(self) -> str:
        return _FLOWER_ENGLISH[self - NUM_KINDS]

    def __str__(self) -> str:
        return FLOWER_TEXT[self - NUM_KINDS]

    def __repr__(self) -> str:
        return f"Flower.parse({str(self)!r})"


FLOWERS: tuple[Flower, ...] = tuple(int.__new__(Flower, NUM_KINDS + i) for i in range(NUM_FLOWERS))
FLOWER_TEXT: tuple[str, ...] = tuple(f"{i + 1}f" for i in range(NUM_FLOWERS))
_FLOWER_BY_TEXT = {FLOWER_TEXT[i]: f for i, f in enumerate(FLOWERS)} | dict(zip(_FLOWER_CHINESE, FLOWERS, strict=True))


def is_flower(t: int) -> bool:
    """Whether ``t`` (a tile or a flower, as a wall holds them) is a flower (MCR M1)."""
    return t >= NUM_KINDS

# Chinese names: each maps to (suit index or None for honours, value)
_CN_NUMBER = {c: i for i, c in enumerate(_NUMERALS)} | {"伍": 4, "幺": 0}
_CN_SUIT = {
    "万": 0, "萬": 0, "饼": 1, "餅": 1, "筒": 1, "条": 2, "條": 2, "索": 2, "束": 2,
}
_CN_HONOR = {
    "东": 27, "東": 27, "南": 28, "西": 29, "北": 30,
    "中": 31, "发": 32, "發": 32, "白": 33,
}
# Two-character honour spellings that must be read as one tile.
_CN_HONOR_LONG = {"红中": 31, "紅中": 31, "发财": 32, "發財": 32, "白板": 33}
_SEPARATORS = " \t,，、;"
_PLAIN_MPSZ = re.compile(r"(?:[1-9]+[mps]|[1-7]+z)+")
_MPSZ_GROUP = re.compile(r"([1-9]+)([mpsz])")
_SUIT_BASE = {"m": -1, "p": 8, "s": 17, "z": 26}  # + digit = kind
# suit letter -> (digit character -> tile); only for text _PLAIN_MPSZ has already accepted
_DIGIT_TILE = {
    suit: {str(d): _TILES[base + d] for d in range(1, 8 if suit == "z" else 10)}.__getitem__
    for suit, base in _SUIT_BASE.items()
}


def parse_tiles(text: str, *, flowers: bool = False) -> list[Tile]:
    """Parse MPSZ and/or Chinese tile names into a list of tiles, in text order.

    ``flowers``: also read flowers, ``1f``–``8f`` (MCR M1, :class:`Flower`); without it an ``f`` is
    an invalid character, as in every hand.

    >>> [str(t) for t in parse_tiles("12m 5z 一万")]
    ['1m', '2m', '5z', '1m']
    >>> [str(t) for t in parse_tiles("1m2f", flowers=True)]
    ['1m', '2f']
    """
    if not isinstance(text, str):
        raise TileError(f"tile text must be a string, got {type(text).__name__}")
    if _PLAIN_MPSZ.fullmatch(text):  # the common case, read without the checks below
        out: list[Tile] = []
        for group, suit in _MPSZ_GROUP.findall(text):
            out += map(_DIGIT_TILE[suit], group)  # digit characters -> tiles, in C
        return out
    out = []
    digits: list[tuple[int, int]] = []  # (digit, position) waiting for a suit letter
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if "0" <= ch <= "9":
            if ch == "0":
                raise TileError(f"invalid digit '0' at position {i} in {text!r} (no red fives; tiles are 1-9)")
            digits.append((int(ch), i))
            i += 1
            continue
        if ch in "mpsz":
            if not digits:
                raise TileError(f"suit letter '{ch}' at position {i} in {text!r} has no digits before it")
            base = "mpsz".index(ch) * 9
            for d, pos in digits:
                if ch == "z" and d > 7:
                    raise TileError(f"invalid honour '{d}z' at position {pos} in {text!r} (honours are 1z-7z)")
                out.append(_TILES[base + d - 1])
            digits.clear()
            i += 1
            continue
        if ch == "f" and flowers:
            if not digits:
                raise TileError(f"flower letter 'f' at position {i} in {text!r} has no digits before it")
            for d, pos in digits:
                if d > NUM_FLOWERS:
                    raise TileError(f"invalid flower '{d}f' at position {pos} in {text!r} (flowers are 1f-8f)")
                out.append(FLOWERS[d - 1])
            digits.clear()
            i += 1
            continue
        known = ch in _SEPARATORS or ch in _CN_HONOR or ch in _CN_NUMBER or text[i : i + 2] in _CN_HONOR_LONG
        if not known:
            raise TileError(f"invalid character {ch!r} at position {i} in {text!r}")
        if digits:
            pos = digits[-1][1]
            raise TileError(f"digits at position {digits[0][1]}-{pos} in {text!r} have no suit letter (m, p, s or z)")
        if ch in _SEPARATORS:
            i += 1
            continue
        two = text[i : i + 2]
        if two in _CN_HONOR_LONG:
            out.append(_TILES[_CN_HONOR_LONG[two]])
            i += 2
            continue
        if ch in _CN_HONOR:
            out.append(_TILES[_CN_HONOR[ch]])
            i += 1
            continue
        if ch in _CN_NUMBER:
            nxt = text[i + 1] if i + 1 < n else ""
            if nxt not in _CN_SUIT:
                what = f"'{nxt}'" if nxt else "end of text"
                raise TileError(
                    f"Chinese numeral '{ch}' at position {i} in {text!r} must be followed by a suit (万/饼/筒/条), found {what}"
                )
            out.append(_TILES[_CN_SUIT[nxt] * 9 + _CN_NUMBER[ch]])
            i += 2
            continue
        raise TileError(f"invalid character {ch!r} at position {i} in {text!r}")
    if digits:
        raise TileError(f"digits at position {digits[0][1]}-{digits[-1][1]} in {text!r} have no suit letter (m, p, s or z)")
    return out


def format_tiles(tiles: Iterable[int], *, sort: bool = False) -> str:
    """Compact MPSZ text: consecutive tiles of one suit share the suit letter (flowers: ``f``, MCR M1)."""
    seq = sorted(tiles) if sort else list(tiles)
    parts: list[str] = []
    run_suit = None
    for t in seq:
        suit = SUITS[t // 9] if t < NUM_KINDS else "f"
        if suit != run_suit and run_suit is not None:
            parts.append(run_suit)
        parts.append(str(t % 9 + 1 if t < NUM_KINDS else t - NUM_KINDS + 1))
        run_suit = suit
    if run_suit is not None:
        parts.append(run_suit)
    return "".join(parts)


def counts_of(tiles: Iterable[int]) -> list[int]:
    """A 34-entry count list."""
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c


def successor(kind: int) -> Tile:
    """The next kind in the wild order of R2: 9→1 in a suit, 北→东, 白→中."""
    if kind < 27:
        return _TILES[kind - kind % 9 + (kind % 9 + 1) % 9]
    if kind < 31:
        return _TILES[27 + (kind - 27 + 1) % 4]
    return _TILES[31 + (kind - 31 + 1) % 3]


@cache
def wild_kinds(indicator: int, count: int = 2) -> tuple[Tile, ...]:
    """The wild kinds for an indicator (R2): the indicator's kind and the next ``count - 1``."""
    if count not in (1, 2, 3):
        raise TileError(f"wild kind count must be 1, 2 or 3, got {count!r}")
    kinds = [Tile(indicator)]
    while len(kinds) < count:
        kinds.append(successor(kinds[-1]))
    return tuple(kinds)


def check_counts(tiles: Sequence[int], what: str = "hand") -> None:
    """Raise if any kind appears more than four times."""
    c = counts_of(tiles)
    for k, n in enumerate(c):
        if n > 4:
            raise TileError(f"{what} has {n} copies of {Tile(k)} ({Tile(k).chinese}); only 4 exist")
