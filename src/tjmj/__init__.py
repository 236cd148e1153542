"""tianjin-mahjong: the reference implementation of Tianjin mahjong (天津麻将).

The core vocabulary: :class:`Tile`, :class:`Meld`, :class:`Rules`, and the scorer
:func:`score` with its :class:`ScoreResult`.  Section numbers (R1…) refer to docs/rules/RULES.md.
"""

from .elements import ELEMENTS, Arrangement, Element, Flag, Group
from .meld import Meld, MeldType, parse_melds
from .rules import CLASSIC, PRESETS, YIYOU, Rules, RulesError
from .score import InvalidHand, ScoreResult, is_complete, score
from .tiles import Tile, TileError, format_tiles, parse_tiles, wild_kinds

__version__ = "0.1.0"

__all__ = [
    "Arrangement",
    "CLASSIC",
    "ELEMENTS",
    "Element",
    "Flag",
    "Group",
    "InvalidHand",
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
