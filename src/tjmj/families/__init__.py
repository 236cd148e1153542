"""The registry of rule families (python-chess registers its variants the same way, ``find_variant``).

A family is a package of one shape (:mod:`tjmj.family` lists its parts) whose ``__init__`` makes
``FAMILY``, a :class:`~tjmj.family.Family`.  The three built in are registered when this package is
imported; one defined elsewhere (a plugin, the test tree's fourth family) calls :func:`register`, or
is named in the environment variable ``TJMJ_FAMILIES`` (importable packages, comma-separated, each
with its ``FAMILY``), which every process of the project (``tjmj serve``, ``tjmj play``, bots) reads.
``get("beijing")`` gives a family, ``find_family("yiyou")`` the family of a preset, ``default()`` the
first registered (what a client uses when no rules are given).  docs/architecture.md says how to
add one.

>>> get("tianjin").chinese
'天津麻将'
>>> [f.name for f in all_families()]
['tianjin', 'beijing', 'mcr']
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING

from ..family import Family
from ..rules import PRESETS, RulesError

if TYPE_CHECKING:
    from ..game import Match

__all__ = ["BUILT_IN", "Family", "all_families", "default", "find_family", "get", "match_type", "register",
           "unregister"]

BUILT_IN = ("tianjin", "beijing", "mcr")  # packages under tjmj/families/, in the order menus list them

_REGISTRY: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Make ``family`` known by its name (its package's rules module registers its presets on import;
    registered again after :func:`unregister`, its presets are found among the module's values)."""
    from ..rules import FAMILIES, Rules, register_presets

    module = importlib.import_module(f"{family.package}.rules")
    if family.name not in FAMILIES:
        presets = [v for v in vars(module).values() if isinstance(v, Rules) and v.family == family.name]
        if presets:
            register_presets(type(presets[0]), *presets)
    _REGISTRY[family.name] = family
    return family


def unregister(name: str) -> None:
    """Forget a family registered by :func:`register` and its presets (a test's family, at its end)."""
    from ..rules import FAMILIES

    _REGISTRY.pop(name, None)
    _MATCH_TYPES.pop(name, None)
    FAMILIES.pop(name, None)
    for preset in [p for p, r in PRESETS.items() if r.family == name]:
        del PRESETS[preset]


def get(name: str) -> Family:
    """The family named ``name``."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise RulesError(f"unknown rule family {name!r}; families are {', '.join(_REGISTRY)}") from None


def find_family(preset: str) -> Family:
    """The family of a preset name (``yiyou`` → Tianjin), as ``find_variant`` in python-chess."""
    try:
        return get(PRESETS[preset].family)
    except (KeyError, TypeError):
        raise RulesError(f"unknown rule preset {preset!r}; presets are {', '.join(PRESETS)}") from None


def all_families() -> list[Family]:
    return list(_REGISTRY.values())


def default() -> Family:
    """The first registered family: the one a client plays when it is given no rules."""
    return next(iter(_REGISTRY.values()))


_MATCH_TYPES: dict[str, type[Match]] = {}


def match_type(name: str) -> type[Match]:
    """The :class:`Match` subclass of family ``name`` (cached: ``Match(rules)`` asks every time)."""
    cls = _MATCH_TYPES.get(name)
    if cls is None:
        cls = _MATCH_TYPES[name] = get(name).match_type
    return cls


def _load_plugins(spec: str) -> None:
    """Register the packages named in ``TJMJ_FAMILIES``; one that cannot be loaded is named on stderr
    and skipped (a command still runs with the families it has)."""
    for package in filter(None, (p.strip() for p in spec.split(","))):
        try:
            family = importlib.import_module(package).FAMILY
            if not isinstance(family, Family):
                raise TypeError(f"its FAMILY is a {type(family).__name__}, not a tjmj.family.Family")
            register(family)
        except Exception as e:  # noqa: BLE001  (whatever a broken plugin raises: say it in one line)
            print(f"TJMJ_FAMILIES: family package {package!r} not loaded: {e}", file=sys.stderr)


for _name in BUILT_IN:
    register(importlib.import_module(f"{__name__}.{_name}").FAMILY)
_load_plugins(os.environ.get("TJMJ_FAMILIES", ""))
