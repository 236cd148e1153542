"""MCR at the terminal table (part ``termview``; the contract is :mod:`tjmj.tui.render`'s docstring):
the seat winds move with the deal and the prevalent wind changes every four hands (M1), and a win
is its fans added up (M3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .rules import McrRules

if TYPE_CHECKING:
    from rich.text import Text

    from ...rules import Rules

__all__ = ["PREVALENT_WIND", "CONFIRM_WILD_DISCARD", "rules_brief", "win_how", "win_lines", "stake_line"]

PREVALENT_WIND = True  # the info line shows the prevalent wind (圈风, M1) in place of the round
CONFIRM_WILD_DISCARD = False  # no wilds


def rules_brief(rules: Rules) -> dict[str, Any]:
    """The flowers and the minimum fan (M1, M2)."""
    assert isinstance(rules, McrRules)
    return {"flowers": rules.flowers, "min_fan": rules.min_fan}


def win_how(win: dict[str, Any], names: Sequence[str]) -> str | None:
    """The shared wording (self-drawn, on a discard, robbing a kong)."""
    return None


def win_lines(t: Text, win: dict[str, Any]) -> None:
    """Each fan (×count when it counts more than once), then the sum (M3)."""
    for f in win.get("fans") or []:
        count = f" ×{f['count']}" if f.get("count", 1) > 1 else ""
        t.append(f"  {f['chinese']} {f['english']}: {f['fan']} fan{count}\n")
    t.append(f"  {win.get('formula_en') or ''}  ({win.get('formula') or ''})\n", "bold")


def stake_line(msg: dict[str, Any]) -> str | None:
    """Nothing: MCR has no stakes beyond the fan."""
    return None
