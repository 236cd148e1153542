"""Rule families on one engine, registered by name (as python-chess registers its variants).

A family is a rule set: its rules type and presets (:mod:`tjmj.rules`), its :class:`tjmj.game.Match`
subclass (the pre-hand choices, the wall and its wild, the claims a discard allows, scoring a win,
the payments, the next dealer), and its calculator.  ``get("beijing")`` gives the family;
``Match(rules)`` plays the family of ``rules``.  docs/architecture.md says how to add one.

>>> get("tianjin").chinese
'天津麻将'
>>> [f.name for f in all_families()]
['tianjin', 'beijing', 'mcr']
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules import FAMILIES, PRESETS, Rules, RulesError

if TYPE_CHECKING:
    from ..game import Match

__all__ = ["Family", "all_families", "find_family", "get", "match_type"]


@dataclass(frozen=True)
class Family:
    """One rule family: names, rules section prefix, and where its parts live (imported lazily:
    the calculator's start-up does not pay for the engine, nor Tianjin for Beijing)."""

    name: str
    chinese: str
    english: str
    rules_page: str  # docs/rules/… (the project's copy of the spec)
    section: str  # the section prefix cited in code and tests (R, B, M)
    match_module: str
    match_class: str

    @property
    def rules_type(self) -> type[Rules]:
        return FAMILIES[self.name]

    @property
    def presets(self) -> list[str]:
        return [n for n, r in PRESETS.items() if r.family == self.name]

    @property
    def default_rules(self) -> Rules:
        return Rules.preset(self.rules_type.default_preset)

    @property
    def match_type(self) -> type[Match]:
        cls: type[Match] = getattr(importlib.import_module(self.match_module), self.match_class)
        return cls


_REGISTRY: dict[str, Family] = {}


def register(family: Family) -> Family:
    _REGISTRY[family.name] = family
    return family


register(Family("tianjin", "天津麻将", "Tianjin mahjong", "docs/rules/RULES.md", "R",
                "tjmj.families.tianjin.game", "TianjinMatch"))
register(Family("beijing", "北京麻将", "Beijing mahjong", "docs/rules/BEIJING.md", "B",
                "tjmj.families.beijing.game", "BeijingMatch"))
register(Family("mcr", "国标麻将", "Chinese Official mahjong (MCR)", "docs/rules/MCR.md", "M",
                "tjmj.families.mcr.game", "McrMatch"))


def get(name: str) -> Family:
    """The family named ``name`` (``tianjin``, ``beijing``, ``mcr``)."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise RulesError(f"unknown rule family {name!r}; families are {', '.join(_REGISTRY)}") from None


def find_family(preset: str) -> Family:
    """The family of a preset name (``yiyou`` → Tianjin), as ``find_variant`` in python-chess."""
    try:
        return get(PRESETS[preset].family)
    except KeyError:
        raise RulesError(f"unknown rule preset {preset!r}; presets are {', '.join(PRESETS)}") from None


def all_families() -> list[Family]:
    return list(_REGISTRY.values())


_MATCH_TYPES: dict[str, type[Match]] = {}


def match_type(name: str) -> type[Match]:
    """The :class:`Match` subclass of family ``name`` (cached: ``Match(rules)`` asks every time)."""
    cls = _MATCH_TYPES.get(name)
    if cls is None:
        cls = _MATCH_TYPES[name] = get(name).match_type
    return cls
