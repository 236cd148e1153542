"""What the browser pages show of Beijing mahjong: the ``webpage`` part (the protocol is in :mod:`tjmj.web.app`).

The settlement's win is drawn by this package's ``static/win.js`` (served at
``/static/families/beijing/win.js``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["CAPS", "STRINGS"]

# the family's name and its presets (the lobby's description and the short name)
STRINGS: dict[str, tuple[str, str]] = {
    "family_beijing": ("北京麻将", "Beijing mahjong"),
    "preset_beijing": ("北京 B：一个混儿、番数相乘、混儿悠、上楼",
                       "beijing, version B: one wild, the values multiply, hunyou, going upstairs"),
    "preset_beijing_a": ("北京 A：无混儿、番数相加、包三家、互包",
                         "beijing_a, version A: no wild, the fan add up, the discarder pays for all"),
    "preset_name_beijing": ("北京 B", "beijing (B)"),
    "preset_name_beijing_a": ("北京 A", "beijing_a (A)"),
}

# the indicator box is 混坯 and 混儿; the tiles before 荒牌 and the reserve (B1); the 上楼 and 烧庄
# marks (B6); the 过手 lock (B4)
CAPS: dict[str, Any] = {"indicatorLabels": ["indicator_bj", "wild_bj"], "reserve": True, "upstairsMarks": True,
                        "passedWin": True}
