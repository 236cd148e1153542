"""Tiles as text for the terminal: Unicode mahjong glyphs (the U+1F000 block) or plain MPSZ.

Every tile takes two terminal cells in both modes, so a hand or a pond lines up whatever the font:
a glyph is padded with spaces to two cells by its measured width (Rich's ``cell_len``, told the
terminal's own width by :mod:`tjmj.tui.cellwidth` before the screen opens) — by Unicode most glyphs
of the block are one cell wide (a space follows them) and 🀄 (U+1F004, emoji presentation) two.  The MPSZ convention of the engine: ``1z``–``4z`` the winds
东南西北, ``5z`` 中, ``6z`` 发, ``7z`` 白; MCR's flowers ``1f``–``8f`` are 春夏秋冬梅兰竹菊 (M1).

>>> glyph("5z"), glyph("1m"), glyph("1f")
('🀄', '🀇 ', '🀦 ')
>>> tile_text("5z", ascii=True)
'5z'
>>> meld_text("[777m]", ascii=True), meld_text("[345p]", ascii=False)
('[777m]', '[🀛 🀜 🀝 ]')
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.cells import cell_len

__all__ = ["GLYPHS", "BACK", "glyph", "tile_text", "tiles_text", "meld_text", "is_glyph", "BLOCK"]

BLOCK = range(0x1F000, 0x1F030)  # the Mahjong Tiles block: never on screen in --ascii mode


def _glyphs() -> dict[str, str]:
    out: dict[str, str] = {}
    for n in range(1, 10):
        out[f"{n}m"] = chr(0x1F007 + n - 1)  # 🀇 … 🀏 characters (万)
        out[f"{n}s"] = chr(0x1F010 + n - 1)  # 🀐 … 🀘 bamboos (条)
        out[f"{n}p"] = chr(0x1F019 + n - 1)  # 🀙 … 🀡 circles (饼)
    for n, code in enumerate((0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F004, 0x1F005, 0x1F006), start=1):
        out[f"{n}z"] = chr(code)  # 东南西北 then 中 (red dragon) 发 (green) 白 (white)
    # 春夏秋冬 are U+1F026–1F029, 梅兰竹菊 U+1F022–1F025 in Unicode; the engine counts 春 first (M1)
    for n, code in enumerate((0x1F026, 0x1F027, 0x1F028, 0x1F029, 0x1F022, 0x1F023, 0x1F024, 0x1F025), start=1):
        out[f"{n}f"] = chr(code)
    return out


GLYPHS: dict[str, str] = _glyphs()
BACK = chr(0x1F02B)  # a tile's back


def glyph(tile: str) -> str:
    """The glyph of an MPSZ tile, padded to two cells by its measured width; unknown text is
    returned as is."""
    g = GLYPHS.get(tile)
    if g is None:
        return tile
    return g + " " * max(0, 2 - cell_len(g))


def tile_text(tile: str, ascii: bool = False) -> str:
    """One tile, two cells: its glyph, or its MPSZ text with ``ascii``."""
    return tile if ascii else glyph(tile)


def tiles_text(tiles: Iterable[str], ascii: bool = False, sep: str = "") -> str:
    """Several tiles (glyphs side by side; MPSZ text separated by a space)."""
    if ascii:
        return " ".join(tiles)
    return sep.join(glyph(t) for t in tiles)


_MELD = re.compile(r"^([\[(])(\d+)([mpsz])(\+?)([\])])$")


def meld_text(meld: str, ascii: bool = False) -> str:
    """A meld as the engine writes it (``[777m]`` pon, ``[345p]`` chi, ``[1111z]`` kong, ``[5555s+]``
    added kong, ``(2222m)`` concealed kong): unchanged with ``ascii``, else its tiles as glyphs in the
    same brackets (``+`` kept)."""
    if ascii:
        return meld
    m = _MELD.match(meld)
    if m is None:
        return meld
    opening, numbers, suit, plus, closing = m.groups()
    return opening + "".join(glyph(f"{n}{suit}") for n in numbers) + plus + closing


def is_glyph(ch: str) -> bool:
    """Whether ``ch`` is in the Mahjong Tiles block (the --ascii tests look for these)."""
    return len(ch) == 1 and ord(ch) in BLOCK
