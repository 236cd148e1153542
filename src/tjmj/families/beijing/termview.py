"""Beijing mahjong at the terminal table (part ``termview``; the contract is :mod:`tjmj.tui.render`'s
docstring): the value is 1 times the elements' multipliers (B5), and 上楼 doubles the payments (B6)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .rules import BeijingRules

if TYPE_CHECKING:
    from rich.text import Text

    from ...rules import Rules

__all__ = ["PREVALENT_WIND", "CONFIRM_WILD_DISCARD", "rules_brief", "win_how", "win_lines", "stake_line"]

PREVALENT_WIND = False  # the info line shows the round (东圈 …), as every seat keeps its wind
CONFIRM_WILD_DISCARD = False  # a wild may be discarded freely (B2)


def rules_brief(rules: Rules) -> dict[str, Any]:
    """The scoring version, the wild, 混儿悠 and 上楼 options (B2, B3, B5, B6)."""
    assert isinstance(rules, BeijingRules)
    return {"scoring": rules.scoring, "wilds": rules.wilds, "hunyou": rules.hunyou, "upstairs": rules.upstairs}


def win_how(win: dict[str, Any], names: Sequence[str]) -> str | None:
    """The shared wording (self-drawn, on a discard, robbing a kong)."""
    return None


def win_lines(t: Text, win: dict[str, Any]) -> None:
    """Each element and its value, then the value and how it is made (B5)."""
    for e in win.get("elements") or []:
        t.append(f"  {e['chinese']} {e['english']}: {e['value']}\n")
    t.append(f"  value {win['value']}: {win.get('formula_en') or ''}  ({win.get('formula') or ''})\n", "bold")


def stake_line(msg: dict[str, Any]) -> str | None:
    """上楼 (B6), when the payments are doubled."""
    return "上楼: payments ×2\n" if msg.get("upstairs") else None
