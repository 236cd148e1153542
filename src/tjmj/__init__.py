"""tianjin-mahjong: the reference implementation of Tianjin mahjong (天津麻将), and Beijing mahjong
on the same engine.

The core vocabulary: :class:`Tile`, :class:`Meld`, :class:`Rules`, the engine :class:`Match` and its
:class:`Action`, and the Tianjin scorer :func:`score` with its :class:`ScoreResult` (exported from
:mod:`tjmj.families.tianjin.score`: each family's scorer lives in its package).  Section numbers
(R1…, B1…, M1…) refer to docs/rules/RULES.md, BEIJING.md and MCR.md; the families are in
:mod:`tjmj.families`, what they share in :mod:`tjmj.hand` and :mod:`tjmj.outlook`.
"""

from typing import TYPE_CHECKING, Any

from .families.tianjin.elements import ELEMENTS, Arrangement, Element, Flag
from .families.tianjin.score import ScoreResult, is_complete, score
from .hand import Group, InvalidHand
from .meld import Meld, MeldType, parse_melds
from .rules import CLASSIC, PRESETS, YIYOU, Rules, RulesError
from .tiles import Tile, TileError, format_tiles, parse_tiles, wild_kinds

if TYPE_CHECKING:
    from .game import Action, Match

__version__ = "0.1.0"

# the engine's hot modules: ``python -m tjmj.build_compiled`` compiles them with mypyc (optional;
# the pure-Python modules are the reference and give the same results)
COMPILED_MODULES = (
    "tiles",
    "meld",
    "wall",
    "game",
    "families.tianjin.game",
    "families.beijing.game",
    "families.mcr.game",
    "families.tianjin.score",
    "families.beijing.score",
    "families.mcr.score",
    "families.mcr.shapes",
    "bots.random_bot",
    "bots.common",
    "bots.baseline",
    "families.tianjin.bots.baseline",
    "families.beijing.bots.baseline",
    "bots.expert",
    "simulate",
)


def compiled() -> list[str]:
    """The modules of :data:`COMPILED_MODULES` that run compiled (``tjmj.game``, ...): those loaded
    from an extension module, not a ``.py`` file (imports them).  Empty: pure Python."""
    import importlib
    from importlib.machinery import EXTENSION_SUFFIXES

    out = []
    for name in COMPILED_MODULES:
        mod = importlib.import_module(f"{__name__}.{name}")
        if (getattr(mod, "__file__", None) or "").endswith(tuple(EXTENSION_SUFFIXES)):
            out.append(mod.__name__)
    return out


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
    "COMPILED_MODULES",
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
    "compiled",
    "format_tiles",
    "is_complete",
    "parse_melds",
    "parse_tiles",
    "score",
    "wild_kinds",
]
