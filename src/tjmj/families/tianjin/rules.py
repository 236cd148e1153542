"""Tianjin mahjong's rule options (R2–R9 of docs/rules/RULES.md) and its presets.

``classic`` (seed 003 + seed 000, real-table play, the default) and ``yiyou`` (seed 001's online game).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from ...rules import Choices, Rules, register_presets

__all__ = ["TianjinRules", "CLASSIC", "YIYOU", "CHOICES"]

CHOICES: Choices = {
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
class TianjinRules(Rules):
    """Tianjin's frozen rule options (天津麻将); the defaults are the preset ``classic``."""

    family: ClassVar[str] = "tianjin"
    default_preset: ClassVar[str] = "classic"
    choices: ClassVar[Choices] = CHOICES

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


CLASSIC: TianjinRules = TianjinRules()
# seed 001, the online game: see RULES.md R4, R5.1, R5.5, R6, R7.
YIYOU: TianjinRules = dataclasses.replace(
    CLASSIC,
    name="yiyou",
    last_tiles_no_claim=4,
    suben=True,
    tianhu="best_x4",
    gold_kong_points=4,
    max_pull=2,
    chan_units=2,
)

register_presets(TianjinRules, CLASSIC, YIYOU)  # in the registry's order: tjmj.families imports the families in turn
