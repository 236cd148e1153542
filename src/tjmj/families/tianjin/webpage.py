"""What the browser pages show of Tianjin mahjong: the ``webpage`` part (the protocol is in :mod:`tjmj.web.app`).

The settlement's win is drawn by this package's ``static/win.js`` (served at
``/static/families/tianjin/win.js``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["CAPS", "STRINGS"]

# the family's name, its presets (the lobby's description and the short name) and what its win.js says
STRINGS: dict[str, tuple[str, str]] = {
    "family_tianjin": ("天津麻将", "Tianjin mahjong"),
    "preset_classic": ("经典", "classic"),
    "preset_yiyou": ("一游（网游规则）", "yiyou (the online game's rules)"),
    "preset_name_classic": ("经典", "classic"),
    "preset_name_yiyou": ("一游", "yiyou"),
    "fan_how_tianjin": ("番数：核心分相加，每个翻倍项再 ×2（R5.2）",
                        "The fan: the core values add up, then ×2 for each doubling element (R5.2)"),
}

# discarding a wild makes one 小相公 (R2), so the table asks first; the indicator box's labels
CAPS: dict[str, Any] = {"wildCostsWin": True, "indicatorLabels": ["indicator", "wilds"]}
