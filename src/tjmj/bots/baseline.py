"""The baseline bot: plays sensibly from its observation, by shanten, in every family.

The play is the family's (``tjmj.families.<name>.bots.baseline_choose``, see :mod:`tjmj.bots` for the
protocol); this class holds what a driver and the registry see: its name, its option
(``sit_threshold``) and the rules a driver gives it.  :func:`family_of` reads the family of an
observation, for this bot and the others.
"""

from __future__ import annotations

import random
from typing import Any

from .. import families
from ..family import Family
from ..game import Action
from ..rules import Rules

__all__ = ["BaselineBot", "SIT_THRESHOLD", "family_of"]

# a sit doubles every payment the dealer makes or receives (Tianjin R7, R8): see BaselineBot
SIT_THRESHOLD = -20


def family_of(obs: dict[str, Any]) -> Family:
    """The family whose match an observation is of: its ``family`` field (every observation of
    :meth:`tjmj.game.Match.observation` has one); for one without it (made by hand, or by an older
    driver), the first family whose bots recognise it by a field of its own
    (``recognises(obs)``), else the default family."""
    name = obs.get("family")
    if name is not None:
        return families.get(name)
    for fam in families.all_families():
        if fam.bots.recognises(obs):
            return fam
    return families.default()


class BaselineBot:
    """A sensible, deterministic player (it never uses its rng): its family's ``baseline_choose``
    (Tianjin: :mod:`tjmj.families.tianjin.bots.baseline`, R2–R9; Beijing:
    :mod:`tjmj.families.beijing.bots.baseline`, B1–B8; MCR: :mod:`tjmj.families.mcr.bots.baseline`,
    M1–M4), by the rules the driver gave (``set_rules``) or, without them, those the family infers.

    ``sit_threshold`` (default −20): where a family has a sit (Tianjin's 坐庄, R7), the bot sits when
    its own score is at least this.
    """

    name = "baseline"
    uses_observation = True

    def __init__(self, sit_threshold: int = SIT_THRESHOLD) -> None:
        self.sit_threshold = sit_threshold
        self.rules: Rules | None = None

    def set_rules(self, rules: Rules) -> None:
        """The rules of the match about to be played (drivers call it; without it the bot infers them)."""
        self.rules = rules

    def __repr__(self) -> str:
        return f"BaselineBot(sit_threshold={self.sit_threshold})"

    def choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        action: Action = family_of(obs).bots.baseline_choose(obs, legal, self)
        return action
