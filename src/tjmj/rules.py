"""Rule options of every family: one frozen object per rule set, presets, checked overrides.

Each rule family (Tianjin R2–R9, Beijing B1–B7, see :mod:`tjmj.families`) has its own frozen
dataclass of options, a subclass of :class:`Rules`; a preset is one of its instances.  A preset's
name finds its family: ``Rules.preset("yiyou")`` is Tianjin's, ``Rules.preset("beijing")``
Beijing's, ``Rules.preset("mcr")`` MCR's (python-chess finds a variant by name the same way).

>>> Rules.preset("yiyou").suben
True
>>> Rules.preset("classic", min_fan=1).min_fan
1
>>> Rules.preset("beijing_a").family
'beijing'

Every option the family's rules page names is a field; an unknown option or an invalid value
raises :class:`RulesError` naming it.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

__all__ = ["Rules", "RulesError", "PRESETS", "FAMILIES", "register_presets", "family_of_preset"]


class RulesError(ValueError):
    """An unknown option, preset or family, or an invalid option value."""


Choices = dict[str, tuple[Any, str, str]]  # option -> (allowed values or (min, max), section, meaning)

PRESETS: dict[str, Rules] = {}  # every preset of every family, by name
FAMILIES: dict[str, type[Rules]] = {}  # family name -> its rules class


class Rules:
    """The base of every family's rule options (a frozen dataclass in each family).

    Common to all: ``base`` (one unit), ``match_rounds``, ``match_hands``, and ``name`` (the preset it
    started from, ``+custom`` once changed).  ``family`` and ``choices`` are class attributes.
    """

    family: ClassVar[str] = ""
    default_preset: ClassVar[str] = ""
    choices: ClassVar[Choices] = {}
    name: str
    base: int
    match_rounds: int
    match_hands: int | None

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if f.name != "name":
                _check(self.choices, f.name, getattr(self, f.name))

    @classmethod
    def preset(cls, name: str | None = None, **overrides: Any) -> Rules:
        """A preset of any family (``classic``, ``yiyou``, ``beijing``, ``beijing_a``) with single
        options overridden; with no name, the default preset of this class's family (Tianjin's on
        :class:`Rules` itself)."""
        registry = _registry()  # every family's presets are registered
        if name is None:
            name = cls.default_preset or registry.default().default_preset
        try:
            base = PRESETS[name]
        except (KeyError, TypeError):
            raise RulesError(f"unknown rule preset {name!r}; presets are {', '.join(PRESETS)}") from None
        return base.replace(**overrides) if overrides else base

    def replace(self, **overrides: Any) -> Rules:
        """A copy with the given options changed (each one checked)."""
        choices = self.choices
        for key, value in overrides.items():
            if key not in choices:
                raise RulesError(f"unknown rule option {key!r} for {self.family} rules; options are "
                                 f"{', '.join(choices)}")
            _check(choices, key, value)
        changed = {k: v for k, v in overrides.items() if getattr(self, k) != v}
        if not changed:
            return self
        preset = self.name.split("+")[0]
        new = dataclasses.replace(self, **changed)  # type: ignore[type-var]  # each family's rules are a dataclass
        # back to the plain preset if every option now matches it
        if new.to_dict() == PRESETS[preset].to_dict():
            return PRESETS[preset]
        return dataclasses.replace(new, name=f"{preset}+custom")  # type: ignore[no-any-return,type-var]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """``{"family": "beijing", "preset": "beijing_a", "cap": 64}``: ``preset`` defaults to the
        family's default (``classic`` without a family: records made before families were)."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of option: value, got {data!r}")
        data = dict(data)
        family = data.pop("family", None)
        registry = _registry()
        if family is not None and family not in FAMILIES:
            raise RulesError(f"unknown rule family {family!r}; families are {', '.join(FAMILIES)}")
        preset = data.pop("preset", (FAMILIES[family] if family else registry.default().rules_type).default_preset)
        rules = cls.preset(preset, **data)
        if family is not None and rules.family != family:
            raise RulesError(f"preset {preset!r} is of the {rules.family} family, not {family}")
        return rules

    def to_dict(self) -> dict[str, Any]:
        """Every option, plus ``preset`` (the preset it started from) and ``family``; ``from_dict``
        reads it back."""
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "name"}  # type: ignore[arg-type]
        d["preset"] = self.name.split("+")[0]
        d["family"] = self.family
        return d

    @classmethod
    def describe(cls) -> Choices:
        """Every option with its allowed values, rules section and meaning (on :class:`Rules`
        itself: Tianjin's, the first family)."""
        return dict(cls.choices or _registry().default().rules_type.choices)


def register_presets(rules_type: type[Rules], *presets: Rules) -> None:
    """Make a family's presets known to :meth:`Rules.preset` (each family module calls this)."""
    FAMILIES[rules_type.family] = rules_type
    for r in presets:
        PRESETS[r.name] = r


def family_of_preset(name: str) -> str:
    """The family of a preset name (``yiyou`` → ``tianjin``)."""
    _registry()
    try:
        return PRESETS[name].family
    except KeyError:
        raise RulesError(f"unknown rule preset {name!r}; presets are {', '.join(PRESETS)}") from None


def _js(value: Any) -> str:
    """JSON spelling in messages (true, "flat"), as typed in the batch and ``--set``."""
    import json  # only for error messages: not on every start-up

    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _check(choices: Choices, key: str, value: Any) -> None:
    allowed, section, _ = choices[key]
    if isinstance(allowed[0], bool | str):
        if value not in allowed or type(value) is not type(allowed[0]):
            raise RulesError(f"rule option {key} ({section}) must be one of {_js(list(allowed))}, got {_js(value)}")
        return
    if allowed[0] is None:
        if value is None:
            return
        allowed = allowed[1:]
    ok = isinstance(value, int) and not isinstance(value, bool)
    if ok and len(allowed) == 2:
        ok = allowed[0] <= value <= allowed[1]
    elif ok:
        ok = value in allowed
    if not ok:
        rng = f"an integer {allowed[0]}..{allowed[1]}" if len(allowed) == 2 else f"one of {_js(list(allowed))}"
        raise RulesError(f"rule option {key} ({section}) must be {rng}, got {_js(value)}")


def _registry() -> Any:
    """The family registry (:mod:`tjmj.families`), imported on first need: the families' rules modules
    import this one, so it cannot import them at its top."""
    from . import families

    return families


def __getattr__(name: str) -> Any:
    """A family's rules type or preset by its old name here (``tjmj.rules.CLASSIC``,
    ``tjmj.rules.McrRules``): looked up in every registered family's ``rules`` module."""
    if name.startswith("__"):
        raise AttributeError(name)
    for fam in _registry().all_families():
        mod = fam.part("rules")
        if hasattr(mod, name):
            return getattr(mod, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
