"""The strong bot: plays for value, each family its own way (``strong_choose`` of the family's bots).

Tianjin (:mod:`tjmj.families.tianjin.bots.strong`, R2–R8): by expected fan; Beijing
(:mod:`tjmj.families.beijing.bots.strong`, B1–B8): by expected points; MCR
(:mod:`tjmj.families.mcr.bots.strong`, M1–M4): for a legal win of 8 fan, by expected points.
``docs/bots.md`` has the rules of each with measured figures.  This class holds what a driver and
the registry see: its name, its option (``revive``), the rules a driver gives it and the record of
its hand results that a family may read (:meth:`StrongBot.track`).
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from ..game import Action
from ..rules import Rules
from .baseline import family_of

__all__ = ["StrongBot", "REVIVE"]

# the default weight of a dead ready hand's revival (Tianjin: the share of live tiles whose draw, and
# the best discard after it, makes a hand ready only for 提溜 ready for a legal win)
REVIVE = 0.5


class StrongBot:
    """A deterministic player (it never uses its rng): its family's ``strong_choose``.

    ``revive``: the weight of a dead ready hand's revival in Tianjin (0: every dead ready hand is
    worth the same, as before the search's findings; tests/test_families.py replays records made then).
    """

    name = "strong"
    uses_observation = True

    def __init__(self, revive: float = REVIVE) -> None:
        self.results: deque[int] = deque(maxlen=12)
        self.last_score: int | None = None
        self.last_hand: int | None = None
        self.rules: Rules | None = None
        self.revive = revive

    def __repr__(self) -> str:
        return "StrongBot()" if self.revive == REVIVE else f"StrongBot(revive={self.revive})"

    def set_rules(self, rules: Rules) -> None:
        """The rules of the match about to be played (drivers call it; without it the bot infers them)."""
        self.rules = rules

    def choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        action: Action = family_of(obs).bots.strong_choose(obs, legal, self)
        return action

    def track(self, obs: dict[str, Any]) -> None:
        """Record the score change since the last hand this bot saw (its hand results, the last 12 in
        ``results``): a family calls it where its choice reads them (Tianjin's 坐庄 / 拉庄)."""
        score = obs["scores"][obs["seat"]]
        hand = obs.get("hand_number")
        if self.last_hand is not None and hand is not None and hand != self.last_hand:
            if hand < self.last_hand:  # a new match
                self.results.clear()
            elif self.last_score is not None:
                self.results.append(score - self.last_score)
        self.last_score, self.last_hand = score, hand
