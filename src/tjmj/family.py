"""A rule family (麻将玩法) as one plugin: the object every client asks instead of naming a family.

A family is a package with the same shape as every other (``tjmj/families/<name>/`` for the three
built in; any importable package for one defined elsewhere, e.g. the test tree's): its rules and
presets, its :class:`tjmj.game.Match` subclass, scorer, waits, advisor, bots and what the tables
show.  Its ``__init__`` makes one :class:`Family` (``FAMILY = Family(...)``) and the registry
(:mod:`tjmj.families`, python-chess's ``find_variant``) finds it by name.

The parts are modules of the package with fixed names, imported on first use (the calculator's
start-up does not pay for the engine, nor one family for another):

========================  =============  =====================================================
accessor                  module         what clients ask of it (the contract: the docstring of)
========================  =============  =====================================================
(registration)            ``rules``      its ``Rules`` subclass and presets (``register_presets``)
``match_type``            ``game``       ``MATCH``: the family's ``Match`` subclass (tjmj.game)
``calculator``            ``calculator`` batch lines and the score / waits / advise commands
                                         (tjmj.jsonlines, tjmj.cli.common)
``webview``               ``webview``    the web table's settlement message and hints
                                         (tjmj.web.settlement, tjmj.web.hints)
``webpage``               ``webpage``    what the pages show: strings in both languages, the
                                         table's ``CAPS``; ``static/win.js`` (tjmj.web.app)
``termview``              ``termview``   the terminal table's lines (tjmj.tui.render)
``bots``                  ``bots``       its bots' play, by name (tjmj.bots)
``records``               ``records``    record fields, re-scoring a ``hora``, the move list,
                                         simulate/stats/tournament figures (tjmj.record,
                                         tjmj.simulate, tjmj.stats, tjmj.tournament)
``env``                   ``env``        the RL environment's family features (tjmj.env.codec)
``guide``                 ``guide``        ``GUIDE``: the player's guide (tjmj.guide)
========================  =============  =====================================================

Each part's contract is the docstring of the module of the client that calls it (named in
docs/architecture.md, "Add a family").  A family may reuse another's module for a part: ``parts``
maps a part's name to the module that plays it (``{"calculator": "tjmj.families.tianjin.calculator"}``).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Match
    from .rules import Rules

__all__ = ["Family"]


class Family:
    """One rule family: its names, where its rules page is, and its parts (see the module docstring).

    ``name`` is the registry key and the ``family`` of its rules and records; ``chinese`` and
    ``english`` are its full names (``天津麻将``, ``Tianjin mahjong``), ``short`` the English one a
    narrow column shows (``Tianjin``, ``MCR``); ``section`` the prefix its rules are cited by (R, B,
    M); ``rules_page`` the project's copy of its rules; ``package`` the importable package of its parts;
    ``compiled`` its hot modules that ``python -m tjmj.build_compiled`` compiles (built-in families only).
    """

    def __init__(self, name: str, chinese: str, english: str, *, short: str, package: str, section: str,
                 rules_page: str, parts: Mapping[str, str] | None = None, compiled: tuple[str, ...] = ()) -> None:
        self.name = name
        self.chinese = chinese
        self.english = english
        self.short = short
        self.package = package
        self.section = section
        self.rules_page = rules_page
        self.part_modules = dict(parts or {})  # part -> module, where not <package>.<part>
        self.compiled = compiled  # its hot modules (under package) that the compiled build compiles
        self._parts: dict[str, ModuleType] = {}

    def __repr__(self) -> str:
        return f"<Family {self.name}: {self.english}>"

    def part(self, concern: str) -> Any:
        """The module ``<package>.<concern>``, or the one ``parts`` names for it (imported once, on first use)."""
        mod = self._parts.get(concern)
        if mod is None:
            where = self.part_modules.get(concern, f"{self.package}.{concern}")
            mod = self._parts[concern] = importlib.import_module(where)
        return mod

    # -- rules ---------------------------------------------------------------------------------

    @property
    def rules_type(self) -> type[Rules]:
        from .rules import FAMILIES

        return FAMILIES[self.name]

    @property
    def presets(self) -> list[str]:
        """Its presets' names, in the order they were registered (the default first)."""
        from .rules import PRESETS

        return [n for n, r in PRESETS.items() if r.family == self.name]

    @property
    def default_preset(self) -> str:
        return self.rules_type.default_preset

    @property
    def default_rules(self) -> Rules:
        from .rules import Rules

        return Rules.preset(self.default_preset)

    # -- parts ---------------------------------------------------------------------------------

    @property
    def match_type(self) -> type[Match]:
        cls: type[Match] = self.part("game").MATCH
        return cls

    @property
    def calculator(self) -> Any:
        return self.part("calculator")

    @property
    def webview(self) -> Any:
        return self.part("webview")

    @property
    def webpage(self) -> Any:
        return self.part("webpage")

    @property
    def termview(self) -> Any:
        return self.part("termview")

    @property
    def bots(self) -> Any:
        return self.part("bots")

    @property
    def records(self) -> Any:
        return self.part("records")

    @property
    def env(self) -> Any:
        return self.part("env")

    @property
    def guide(self) -> Any:
        return self.part("guide")

    def names(self) -> dict[str, str]:
        """``{"zh": 天津麻将, "en": Tianjin mahjong, "short": Tianjin}``: what a page or table shows."""
        return {"zh": self.chinese, "en": self.english, "short": self.short}
