"""What the browser pages show of Chinese Official mahjong (MCR): the ``webpage`` part (the protocol is in
:mod:`tjmj.web.app`).

The settlement's win is drawn by this package's ``static/win.js`` (served at
``/static/families/mcr/win.js``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["CAPS", "STRINGS"]

# the family's name and its preset (the lobby's description and the short name)
STRINGS: dict[str, tuple[str, str]] = {
    "family_mcr": ("国标麻将", "Chinese Official (MCR)"),
    "preset_mcr": ("国标：8 番起和、花牌、每局换庄", "mcr (the Chinese Official rules: 8 fan to win, flowers)"),
    "preset_name_mcr": ("国标", "mcr"),
}

# 圈风 and 门风, and the flowers laid aside (M1); no wilds, so no indicator box
CAPS: dict[str, Any] = {"winds": True, "flowers": True}
