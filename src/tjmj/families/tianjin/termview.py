"""Tianjin mahjong at the terminal table (part ``termview``; the contract is :mod:`tjmj.tui.render`'s
docstring): every win is self-drawn (R5), the fan is the elements' sum doubled (R5.2), the dealer
may sit (坐庄, R7), and a discarded wild makes one 小相公 (R2), so the table asks first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.text import Text

    from ...rules import Rules

__all__ = ["PREVALENT_WIND", "CONFIRM_WILD_DISCARD", "rules_brief", "win_how", "win_lines", "stake_line"]

PREVALENT_WIND = False  # the info line shows the round (东圈 …), as every seat keeps its wind
CONFIRM_WILD_DISCARD = True  # R2: a discarded wild makes you 小相公 for the hand


def rules_brief(rules: Rules) -> dict[str, Any]:
    """Nothing beyond the shared fields (``max_pull`` is one of them)."""
    return {}


def win_how(win: dict[str, Any], names: Sequence[str]) -> str | None:
    """Every Tianjin win is self-drawn (R5), on a kong's replacement draw or not."""
    return "self-drawn 自摸" + (" on a kong draw 杠开" if win.get("kong_draw") else "")


def win_lines(t: Text, win: dict[str, Any]) -> None:
    """Each element and its value, the fan and the hand's name, then the sum and the doublings (R5.2)."""
    for e in win.get("elements") or []:
        t.append(f"  {e['chinese']} {e['english']}: {e['value']}\n")
    t.append(f"  {win['fan']} fan: {win.get('name') or ''}\n", "bold")
    if win.get("formula_en"):  # the sum and the doublings (R5.2), as Beijing and MCR show theirs
        t.append(f"  {win['formula_en']}  ({win.get('formula') or ''})\n", "bold")


def stake_line(msg: dict[str, Any]) -> str | None:
    """坐庄 (R7), when the dealer sat."""
    return "坐庄: the dealer sat (payments with the dealer ×2)\n" if msg.get("sit") else None
