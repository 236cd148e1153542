"""Rule options (R2–R9): one frozen object, two presets, checked overrides.

>>> Rules.preset("yiyou").suben
True
>>> Rules.preset("classic", min_fan=1).min_fan
1

Every option RULES.md names is a field here; an unknown option or an invalid value raises
:class:`RulesError` naming it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

__all__ = ["Rules", "RulesError", "PRESETS", "CLASSIC", "YIYOU"]


class RulesError(ValueError):
    """An unknown option, preset or an invalid option value."""


# name -> (allowed values or a (min, max) int range, section, description)
_CHOICES: dict[str, tuple[Any, str, str]] = {
    "wild_kinds": ((1, 2, 3), "R2", "number of wild kinds: the indicator's kind and the next 0, 1 or 2"),
    "wild_discard_penalty": ((0, 1000), "R2", "units a wild discarder (小相公) pays each other player"),
    "seating": (("random", "dafeng"), "R3", "seat winds at random, or simulated 打风 with four wind tiles"),
    "wild_method": (("dice", "flip"), "R3", "打混儿 (dice from the tail) or 翻混儿 (the 跳牌 leftover)"),
    "last_tiles_no_claim": ((0, 136), "R4", "with this many head tiles or fewer left, no pon or discard kong (0: no limit)"),
    "min_fan": ((1, 1000), "R5.2", "smallest fan that may win (2: 死提溜 cannot win)"),
    "hundiao_alone_wins": ((True, False), "R5.2", "whether a hand whose only element is 混儿吊 may win"),
    "suben": ((True, False), "R5.1", "score 素本 (×2 on 本混儿龙 with one of each wild kind playing itself)"),
    "tianhu": (("flat", "best_x4"), "R5.5", "天胡: 4 fan flat, or 4 × the best fan of the 14 tiles"),
    "kong_pay_on_draw": ((True, False), "R6", "kong points are paid in a drawn hand too"),
    "gold_kong_points": ((0, 1000), "R6", "points for a 金杠 from each other player"),
    "forced_sit": ((True, False), "R7", "死坐庄: the dealer always sits"),
    "max_pull": ((0, 10), "R7", "how many times a non-dealer may 拉庄"),
    "chan_units": ((0, 1000), "R7", "units the dealer pays each non-dealer for a 铲"),
    "base": ((1, 1_000_000), "R8", "底: one unit = fan × base"),
    "settlement": (("open", "pot"), "R8", "散牌 (no limit) or 锅牌 (a stake per pot)"),
    "pot_stake": ((1, 1_000_000), "R8", "each player's stake per pot of four rounds (锅牌)"),
    "match_rounds": ((1, 64), "R9", "match length in rounds (圈) when match_hands is not set"),
    "match_hands": ((None, 1, 100_000), "R9", "match length in hands instead of rounds (null: use rounds)"),
}


@dataclass(frozen=True)
class Rules:
    """The frozen rule options; defaults are the preset ``classic`` (seed 003 + seed 000)."""

    wild_kinds: int = 2
    wild_discard_penalty: int = 0
    seating: str = "random"
    wild_method: str = "dice"
    last_tiles_no_claim: int = 0
    min_fan: int = 2
    hundiao_alone_wins: bool = True
    suben: bool = False
    tianhu: str = "flat"
    kong_pay_on_draw: bool = True
    gold_kong_points: int = 8
    forced_sit: bool = False
    max_pull: int = 1
    chan_units: int = 1
    base: int = 1
    settlement: str = "open"
    pot_stake: int = 20
    match_rounds: int = 4
    match_hands: int | None = None
    name: str = "classic"

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            if f.name != "name":
                _check(f.name, getattr(self, f.name))

    @classmethod
    def preset(cls, name: str = "classic", **overrides: Any) -> Rules:
        """A preset (``classic`` or ``yiyou``) with single options overridden."""
        try:
            base = PRESETS[name]
        except KeyError:
            raise RulesError(f"unknown rule preset {name!r}; presets are {', '.join(PRESETS)}") from None
        return base.replace(**overrides) if overrides else base

    def replace(self, **overrides: Any) -> Rules:
        """A copy with the given options changed (each one checked)."""
        for key, value in overrides.items():
            if key not in _CHOICES:
                raise RulesError(f"unknown rule option {key!r}; options are {', '.join(_CHOICES)}")
            _check(key, value)
        changed = {k: v for k, v in overrides.items() if getattr(self, k) != v}
        if not changed:
            return self
        preset = self.name.split("+")[0]
        new = dataclasses.replace(self, **changed)
        # back to the plain preset if every option now matches it
        if new.to_dict() == PRESETS[preset].to_dict():
            return PRESETS[preset]
        return dataclasses.replace(new, name=f"{preset}+custom")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """``{"preset": "yiyou", "min_fan": 1}``; ``preset`` defaults to ``classic``."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of option: value, got {data!r}")
        data = dict(data)
        return cls.preset(data.pop("preset", "classic"), **data)

    def to_dict(self) -> dict[str, Any]:
        """Every option, plus ``preset``: the preset it started from (``from_dict`` reads it back)."""
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "name"}
        d["preset"] = self.name.split("+")[0]
        return d

    @staticmethod
    def describe() -> dict[str, tuple[Any, str, str]]:
        """Every option with its allowed values, RULES.md section and meaning."""
        return dict(_CHOICES)


def _js(value: Any) -> str:
    """JSON spelling in messages (true, "flat"), as typed in the batch and ``--set``."""
    import json  # only for error messages: not on every start-up

    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _check(key: str, value: Any) -> None:
    allowed, section, _ = _CHOICES[key]
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


CLASSIC = Rules()
# seed 001, the online game: see RULES.md R4, R5.1, R5.5, R6, R7.
YIYOU = dataclasses.replace(
    CLASSIC,
    name="yiyou",
    last_tiles_no_claim=4,
    suben=True,
    tianhu="best_x4",
    gold_kong_points=4,
    max_pull=2,
    chan_units=2,
)
PRESETS: dict[str, Rules] = {"classic": CLASSIC, "yiyou": YIYOU}
