"""tianjin-mahjong: the reference implementation of Tianjin mahjong (天津麻将), and Beijing mahjong
on the same engine.

The core vocabulary: :class:`Tile`, :class:`Meld`, :class:`Rules`, the engine :class:`Match` and its
:class:`Action`, and the first family's (Tianjin's) scorer :func:`score` with its :class:`ScoreResult`
and elements (looked up in the registry's default family, :mod:`tjmj.families.tianjin.score`: each
family's scorer lives in its package; ``CLASSIC`` and the other presets come from :mod:`tjmj.rules`).  Section numbers
(R1…, B1…, M1…) refer to docs/rules/RULES.md, BEIJING.md and MCR.md; the families are in
:mod:`tjmj.families`, what they share in :mod:`tjmj.hand` and :mod:`tjmj.outlook`.
"""

from typing import TYPE_CHECKING, Any

from .hand import Group, InvalidHand
from .meld import Meld, MeldType, parse_melds
from .rules import PRESETS, Rules, RulesError
from .tiles import Tile, TileError, format_tiles, parse_tiles, wild_kinds

if TYPE_CHECKING:
    from .game import Action, Match

__version__ = "0.1.0"

# the engine's hot modules: ``python -m tjmj.build_compiled`` compiles them with mypyc (optional;
# the pure-Python modules are the reference and give the same results).  :data:`COMPILED_MODULES` is
# these and each built-in family's own (its ``Family.compiled``), in the registry's order.
_COMPILED_CORE = ("tiles", "meld", "action", "wall", "game")
_COMPILED_CLIENTS = ("bots.random_bot", "bots.common", "bots.baseline", "bots.expert", "simulate")


def _compiled_modules() -> tuple[str, ...]:
    from .families import all_families

    own = [f"{fam.package.removeprefix(__name__ + '.')}.{m}" for fam in all_families()
           if fam.package.startswith(f"{__name__}.families.") for m in fam.compiled]
    return (*_COMPILED_CORE, *own, *_COMPILED_CLIENTS)


def compiled() -> list[str]:
    """The modules of :data:`COMPILED_MODULES` that run compiled (``tjmj.game``, ...): those loaded
    from an extension module, not a ``.py`` file (imports them).  Empty: pure Python."""
    import importlib
    from importlib.machinery import EXTENSION_SUFFIXES

    out = []
    for name in _compiled_modules():
        mod = importlib.import_module(f"{__name__}.{name}")
        if (getattr(mod, "__file__", None) or "").endswith(tuple(EXTENSION_SUFFIXES)):
            out.append(mod.__name__)
    return out


# names exported from the default family's parts (the package's first scorer), by part
_DEFAULT_FAMILY_NAMES = {"ELEMENTS": "elements", "Arrangement": "elements", "Element": "elements", "Flag": "elements",
                         "ScoreResult": "score", "is_complete": "score", "score": "score"}


def __getattr__(name: str) -> Any:
    # the engine is imported on first use: the calculator's batch start-up does not pay for it
    if name == "COMPILED_MODULES":
        return _compiled_modules()
    if name in ("Match", "Action"):
        from . import game

        return getattr(game, name)
    if name in _DEFAULT_FAMILY_NAMES:
        from .families import default

        return getattr(default().part(_DEFAULT_FAMILY_NAMES[name]), name)
    if name.isupper() and not name.startswith("_"):  # a preset's constant: tjmj.rules has them all
        from . import rules

        return getattr(rules, name)
    raise AttributeError(f"module 'tjmj' has no attribute {name!r}")


__all__ = [
    "Action",
    "Arrangement",
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
    "compiled",
    "format_tiles",
    "is_complete",
    "parse_melds",
    "parse_tiles",
    "score",
    "wild_kinds",
]
