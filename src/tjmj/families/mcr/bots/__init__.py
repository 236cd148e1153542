"""MCR's bot play (docs/rules/MCR.md M1–M4): the part ``bots`` of the family (the protocol is in
:mod:`tjmj.bots`).

* :mod:`~tjmj.families.mcr.bots.baseline`: what a seat's observation says (:class:`McrView`), shanten
  over every shape of M3, and the ``baseline`` bot;
* :mod:`~tjmj.families.mcr.bots.strong`: the ``strong`` bot, for a legal win of 8 fan.

The rules a bot plays by are those the driver gave it (``set_rules``), else the preset ``mcr``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....game import Action
from ....rules import Rules
from . import baseline as _baseline
from . import strong as _strong
from .baseline import McrView, is_mcr, rules_for

if TYPE_CHECKING:
    from ....bots.baseline import BaselineBot
    from ....bots.strong import StrongBot

__all__ = ["baseline_choose", "strong_choose", "recognises", "SEVEN_PAIRS", "hundiao_rollouts", "claims_limited",
           "FREE_WILD_DISCARD", "BELIEF", "McrView", "is_mcr", "rules_for"]

SEVEN_PAIRS = True  # 七对 is a winning shape (M3)
FREE_WILD_DISCARD = False  # no wilds (M1)

#: The belief model's coefficients (:data:`tjmj.bots.belief.FEATURES`), as ``benchmarks/belief_fit.py``
#: printed them (2026-12-02: mcr 300 hands; seed 1000, every sixth turn).
BELIEF: tuple[float, ...] = (
    -1.034, -0.126, 0.068, 0.000, 0.026, -0.002, 0.105, 0.160, 0.036, -0.023, -0.199, -0.044, 0.319, -0.566, -1.289,
    0.052, 0.063, 0.688, -0.258)


def baseline_choose(obs: dict[str, Any], legal: list[Action], bot: BaselineBot) -> Action:
    """The ``baseline`` bot's choice, by the rules the driver gave ``bot`` (else the preset ``mcr``)."""
    return _baseline.baseline_choose(obs, legal, rules_for(bot.rules))


def strong_choose(obs: dict[str, Any], legal: list[Action], bot: StrongBot) -> Action:
    """The ``strong`` bot's choice, by the rules the driver gave ``bot`` (else the preset ``mcr``)."""
    return _strong.strong_choose(obs, legal, rules_for(bot.rules))


def recognises(obs: dict[str, Any]) -> bool:
    """An observation without a ``family`` field is MCR's when it has ``prevalent_wind`` (圈风, M1): no
    other family's has it, and MCR's has it in every phase."""
    return "prevalent_wind" in obs


def hundiao_rollouts(rules: Rules) -> bool:
    """No wilds in MCR: the ``expert`` bot's rollouts aim at no 混儿吊."""
    return False


def claims_limited(rules: Rules) -> bool:
    """Whether chi and pon are limited in a hand (no: M2)."""
    return False
