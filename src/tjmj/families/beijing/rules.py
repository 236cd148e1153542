"""Beijing mahjong's rule options (B1–B7 of docs/rules/BEIJING.md) and its two presets.

``beijing`` follows version B of seed 004 (one wild kind, one claim per hand, multiplying 番,
混儿悠, 上楼; the default) and ``beijing_a`` version A (no wilds, free chi and pon, additive fan,
包三家 on a discard, 互包, 烧庄 that doubles).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from ...rules import Choices, Rules, register_presets

__all__ = ["BeijingRules", "BEIJING", "BEIJING_A", "CHOICES", "FLAT_VALUE"]

FLAT_VALUE = 40  # 混杠, 天和, 地和 (B2, B5)

CHOICES: Choices = {
    "wilds": ((True, False), "B2", "one wild kind, the successor of the 混坯 (false: no wilds, version A)"),
    "reserve_stacks": ((0, 30), "B1", "stacks kept back at the tail for replacement draws, plus one per kong after the first"),
    "max_claims": ((0, 8), "B3", "chi and pon a player may make in one hand (0: no limit; kongs do not count)"),
    "claimed_self_draw_only": ((True, False), "B3", "after a chi, pon or discard kong a player wins only by self-draw"),
    "hunyou": ((True, False), "B3", "混儿悠: a self-draw win with a wild may be turned into a wait on any tile"),
    "scoring": (("multiply", "add"), "B5", "番 multiply (version B) or fan add up (version A)"),
    "cap": ((0, 1_000_000), "B5", "the most a hand is worth (0: no cap)"),
    "discard_pays": (("all", "discarder"), "B6", "a discard win: everyone pays, the discarder ×2 (B), or the discarder pays 3 shares (A)"),
    "mutual_liability": ((0, 4), "B6", "互包: after this many melds claimed from one player, the two pay for each other (0: off)"),
    "shaozhuang_units": ((0, 1000), "B6", "烧庄: units the dealer owes each other player (0: off)"),
    "shaozhuang_doubling": ((True, False), "B6", "烧庄 doubles with each further round of four equal discards"),
    "shaozhuang_follow_wind": ((True, False), "B6", "after a wind as the dealer's first discard, whoever holds it must follow"),
    "upstairs": ((True, False), "B6", "上楼: after a drawn hand every payment doubles until North's dealership ends"),
    "base": ((1, 1_000_000), "B6", "one unit: each payer pays value × base"),
    "match_rounds": ((1, 64), "B7", "match length in rounds (圈) when match_hands is not set"),
    "match_hands": ((None, 1, 100_000), "B7", "match length in hands instead of rounds (null: use rounds)"),
}


@dataclass(frozen=True)
class BeijingRules(Rules):
    """Beijing's frozen rule options (北京麻将); the defaults are the preset ``beijing``."""

    family: ClassVar[str] = "beijing"
    default_preset: ClassVar[str] = "beijing"
    choices: ClassVar[Choices] = CHOICES

    wilds: bool = True
    reserve_stacks: int = 7
    max_claims: int = 1
    claimed_self_draw_only: bool = True
    hunyou: bool = True
    scoring: str = "multiply"
    cap: int = 0
    discard_pays: str = "all"
    mutual_liability: int = 0
    shaozhuang_units: int = 10
    shaozhuang_doubling: bool = False
    shaozhuang_follow_wind: bool = False
    upstairs: bool = True
    base: int = 1
    match_rounds: int = 4
    match_hands: int | None = None
    name: str = "beijing"


BEIJING: BeijingRules = BeijingRules()
BEIJING_A: BeijingRules = dataclasses.replace(
    BEIJING,
    name="beijing_a",
    wilds=False,
    max_claims=0,
    claimed_self_draw_only=False,
    hunyou=False,
    scoring="add",
    discard_pays="discarder",
    mutual_liability=3,
    shaozhuang_doubling=True,
    shaozhuang_follow_wind=True,
    upstairs=False,
)

register_presets(BeijingRules, BEIJING, BEIJING_A)  # in the registry's order: tjmj.families imports the families in turn
