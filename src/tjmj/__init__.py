"""tianjin-mahjong: the reference implementation of Tianjin mahjong (天津麻将), and Beijing mahjong
on the same engine.

The core vocabulary: :class:`Tile`, :class:`Meld`, :class:`Rules`, the engine :class:`Match` and its
:class:`Action`, and the Tianjin scorer :func:`score` with its :class:`ScoreResult`.  Section numbers
(R1…, B1…) refer to docs/rules/RULES.md and docs/rules/BEIJING.md; the families are in
:mod:`tjmj.families`.
"""

from typing import TYPE_CHECKING, Any

from .elements import ELEMENTS, Arrangement, Element, Flag, Group
from .meld import Meld, MeldType, parse_melds
from .rules import CLASSIC, PRESETS, YIYOU, Rules, RulesError
from .score import InvalidHand, ScoreResult, is_complete, score
from .tiles import Tile, TileError, format_tiles, parse_tiles, wild_kinds

if TYPE_CHECKING:
    from .game import Action, Match

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # the engine is imported on first use: the calculator's batch start-up does not pay for it
    if name in ("Match", "Action"):
        from . import game

        return getattr(game, name)
    raise AttributeError(f"module 'tjmj' has no attribute {name!r}")


__all__ = [
    "Action",
    "Arrangement",
    "CLASSIC",
    "ELEMENTS",
    "Element",
    "Flag",
    "Group",
    "InvalidHand",
    "Match",
    "Meld",
    "MeldType",
    "PRESETS",
    "Rules",
    "RulesError",
    "ScoreResult",
    "Tile",
    "TileError",
    "YIYOU",
    "format_tiles",
    "is_complete",
    "parse_melds",
    "parse_tiles",
    "score",
    "wild_kinds",
]
