"""Exposed melds (R4) and their bracket notation.

``[777m]`` pon (碰), ``[7777m]`` discard kong (明杠/大明杠), ``[7777m+]`` added kong (加杠),
``(7777m)`` concealed kong (暗杠).  A concealed kong of a wild kind is a gold kong (金杠, R2);
whether a kind is wild depends on the hand's indicator, so it is judged at scoring time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from .tiles import Tile, TileError, parse_tiles

__all__ = ["Meld", "MeldType", "parse_melds", "melds_of"]


class MeldType(StrEnum):
    """The four exposed meld kinds; the values are the batch-interface names."""

    PON = "pon"  # 碰
    KONG = "kong"  # 明杠 from a discard
    ADDED_KONG = "added_kong"  # 加杠 onto one's own pon
    CONCEALED_KONG = "ankong"  # 暗杠 (金杠 when the kind is wild)

    @property
    def size(self) -> int:
        return 3 if self is MeldType.PON else 4

    @property
    def is_kong(self) -> bool:
        return self is not MeldType.PON

    @property
    def chinese(self) -> str:
        return {"pon": "碰", "kong": "明杠", "added_kong": "加杠", "ankong": "暗杠"}[self.value]


@dataclass(frozen=True, slots=True)
class Meld:
    """One exposed meld: ``Meld(MeldType.PON, Tile.parse("7m"))``."""

    type: MeldType
    tile: Tile

    @classmethod
    def parse(cls, text: str) -> Meld:
        """Parse ``[777m]``, ``[7777m]``, ``[7777m+]`` or ``(7777m)``."""
        s = text.strip()
        if len(s) < 2 or (s[0], s[-1]) not in (("[", "]"), ("(", ")")):
            raise TileError(
                f"meld {text!r} must be written [777m] (pon), [7777m] (kong), [7777m+] (added kong) or (7777m) (concealed kong)"
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
        if not tiles or any(t != tiles[0] for t in tiles):
            raise TileError(f"meld {text!r} must hold one kind of tile (no chi in Tianjin mahjong, R4)")
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
                f"meld type {value!r} is not one of pon, kong, added_kong, ankong"
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
