"""MCR's rule options (M1–M4 of docs/rules/MCR.md) and its preset ``mcr``.

The 2006 rule book (the "Green Book"): 144 tiles with the flowers, 16 hands with the dealer
passing after every hand, a win needs 8 fan not counting flowers, and the settlement 8 + fan.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...rules import Choices, Rules, register_presets

__all__ = ["McrRules", "MCR", "CHOICES", "BASIC_PAYMENT"]

BASIC_PAYMENT = 8  # M4: every other player pays 8 (the discarder of a discard win 8 + fan)

CHOICES: Choices = {
    "flowers": ((True, False), "M1", "the 8 flowers (春夏秋冬梅兰竹菊, 1 fan each): 144 tiles (false: 136)"),
    "min_fan": ((0, 88), "M2", "fewest fan a hand needs to win, not counting flowers"),
    "base": ((1, 1_000_000), "M4", "one unit: every payment (8, and 8 + fan) is multiplied by it"),
    "match_rounds": ((1, 64), "M1", "match length in rounds (圈, 4 hands each) when match_hands is not set"),
    "match_hands": ((None, 1, 100_000), "M1", "match length in hands (16: four rounds; null: use rounds)"),
}


@dataclass(frozen=True)
class McrRules(Rules):
    """MCR's frozen rule options (国标麻将); the defaults are the preset ``mcr``."""

    family: ClassVar[str] = "mcr"
    default_preset: ClassVar[str] = "mcr"
    choices: ClassVar[Choices] = CHOICES

    flowers: bool = True
    min_fan: int = 8
    base: int = 1
    match_rounds: int = 4
    match_hands: int | None = 16
    name: str = "mcr"


MCR: McrRules = McrRules()

register_presets(McrRules, MCR)  # in the registry's order: tjmj.families imports the families in turn
