"""Exposed melds (R4, B3) and their bracket notation.

``[345m]`` chi (吃, a sequence: Beijing and MCR, never Tianjin), ``[777m]`` pon (碰), ``[7777m]``
discard kong (明杠/大明杠), ``[7777m+]`` added kong (加杠), ``(7777m)`` concealed kong (暗杠).  A chi
is named by its lowest tile.  A concealed kong of a wild kind is a gold kong (金杠, R2); whether a
kind is wild depends on the hand's indicator, so it is judged at scoring time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from .tiles import Tile, TileError, parse_tiles

__all__ = ["Meld", "MeldType", "parse_melds", "melds_of"]


class MeldType(StrEnum):
    """The exposed meld kinds; the values are the batch-interface names."""

    CHI = "chi"  # 吃: a sequence, named by its lowest tile
    PON = "pon"  # 碰
    KONG = "kong"  # 明杠 from a discard
    ADDED_KONG = "added_kong"  # 加杠 onto one's own pon
    CONCEALED_KONG = "ankong"  # 暗杠 (金杠 when the kind is wild)

    @property
    def size(self) -> int:
        return 3 if self is MeldType.PON or self is MeldType.CHI else 4

    @property
    def is_kong(self) -> bool:
        return self is not MeldType.PON and self is not MeldType.CHI

    @property
    def claimed(self) -> bool:
        """Made with another player's discard (all but the concealed kong)."""
        return self is not MeldType.CONCEALED_KONG

    @property
    def chinese(self) -> str:
        return {"chi": "吃", "pon": "碰", "kong": "明杠", "added_kong": "加杠", "ankong": "暗杠"}[self.value]


@dataclass(frozen=True, slots=True)
class Meld:
    """One exposed meld: ``Meld(MeldType.PON, Tile.parse("7m"))``."""

    type: MeldType
    tile: Tile

    def __post_init__(self) -> None:
        if self.type is MeldType.CHI and (self.tile.suit == "z" or self.tile.number > 7):
            raise TileError(f"a chi is a sequence named by its lowest tile, 1 to 7 of a suit: not {self.tile}")

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The meld's tiles: three kinds for a chi, one kind three or four times otherwise."""
        if self.type is MeldType.CHI:
            return (self.tile, Tile(self.tile + 1), Tile(self.tile + 2))
        return (self.tile,) * self.size

    @classmethod
    def parse(cls, text: str) -> Meld:
        """Parse ``[345m]``, ``[777m]``, ``[7777m]``, ``[7777m+]`` or ``(7777m)``."""
        s = text.strip()
        if len(s) < 2 or (s[0], s[-1]) not in (("[", "]"), ("(", ")")):
            raise TileError(
                f"meld {text!r} must be written [345m] (chi), [777m] (pon), [7777m] (kong), [7777m+] (added kong) "
                "or (7777m) (concealed kong)"
            )
        inner = s[1:-1]
        added = inner.endswith("+")
        if added:
            if s[0] == "(":
                raise TileError(f"meld {text!r}: a concealed kong cannot be an added kong ('+')")
            inner = inner[:-1]
        try:
            tiles = parse_tiles(inner)
        except TileError as e:
            raise TileError(f"meld {text!r}: {e}") from None
        if len(tiles) == 3 and s[0] == "[" and not added and len(set(tiles)) == 3:
            low = min(tiles)
            if sorted(tiles) == [low, low + 1, low + 2] and low.suit != "z" and tiles[0].suit == tiles[2].suit:
                return cls(MeldType.CHI, low)
            raise TileError(f"meld {text!r}: three different tiles make a chi only as a sequence of one suit, "
                            "like [345m]")
        if not tiles or any(t != tiles[0] for t in tiles):
            raise TileError(f"meld {text!r} must hold one kind of tile, or be a sequence like [345m] (a chi)")
        n = len(tiles)
        if s[0] == "(":
            if n != 4:
                raise TileError(f"meld {text!r}: a concealed kong has 4 tiles, found {n}")
            return cls(MeldType.CONCEALED_KONG, tiles[0])
        if n == 3 and not added:
            return cls(MeldType.PON, tiles[0])
        if n == 4:
            return cls(MeldType.ADDED_KONG if added else MeldType.KONG, tiles[0])
        raise TileError(f"meld {text!r}: a pon has 3 tiles and a kong 4, found {n}")

    @classmethod
    def from_dict(cls, data: object) -> Meld:
        """Build from the batch form ``{"type": "pon", "tile": "7z"}``."""
        if not isinstance(data, dict):
            raise TileError(f"meld must be an object like {{\"type\": \"pon\", \"tile\": \"7z\"}}, got {data!r}")
        unknown = set(data) - {"type", "tile"}
        if unknown:
            raise TileError(f"meld has unknown key(s) {sorted(unknown)}; expected 'type' and 'tile'")
        value = data.get("type")
        try:
            if not isinstance(value, str):  # None (no key) or not text: no meld type either
                raise ValueError(value)
            mtype = MeldType(value)
        except ValueError:
            raise TileError(
                f"meld type {value!r} is not one of chi, pon, kong, added_kong, ankong"
            ) from None
        tile = data.get("tile")
        if not isinstance(tile, str):
            raise TileError(f"meld tile must be a string like '7z', got {tile!r}")
        return cls(mtype, Tile.parse(tile))

    def to_dict(self) -> dict[str, str]:
        return {"type": self.type.value, "tile": str(self.tile)}

    @property
    def size(self) -> int:
        return self.type.size

    def __str__(self) -> str:
        if self.type is MeldType.CHI:
            n = self.tile.number
            return f"[{n}{n + 1}{n + 2}{self.tile.suit}]"
        body = f"{self.tile.number}" * self.size + self.tile.suit
        if self.type is MeldType.CONCEALED_KONG:
            return f"({body})"
        return f"[{body}{'+' if self.type is MeldType.ADDED_KONG else ''}]"


_MELD_RE = re.compile(r"\[[^\]]*\]|\([^)]*\)")


def parse_melds(text: str) -> list[Meld]:
    """Parse several melds written one after another, e.g. ``"[777m](1111z)"``."""
    out: list[Meld] = []
    pos = 0
    for m in _MELD_RE.finditer(text):
        gap = text[pos : m.start()]
        if gap.strip(" ,"):
            raise TileError(f"unexpected text {gap.strip()!r} at position {pos} between melds in {text!r}")
        out.append(Meld.parse(m.group()))
        pos = m.end()
    if text[pos:].strip(" ,"):
        raise TileError(f"unexpected text {text[pos:].strip()!r} at position {pos} in melds {text!r}")
    return out


def melds_of(x: object) -> list[Meld]:
    """Melds from any accepted form: bracket text, one Meld, or a sequence of Melds, bracket
    strings or batch dicts (``{"type": "pon", "tile": "7z"}``); anything else is a TileError."""
    if isinstance(x, str):
        return parse_melds(x)
    if isinstance(x, Meld):
        return [x]
    if isinstance(x, dict) or not hasattr(x, "__iter__"):
        raise TileError(f"melds must be text like '[777m](1111z)' or a sequence of melds, got {x!r}")
    out = []
    for m in x:
        if isinstance(m, Meld):
            out.append(m)
        elif isinstance(m, str):
            out.append(Meld.parse(m))
        else:
            out.append(Meld.from_dict(m))
    return out
