"""Beijing's bot play (docs/rules/BEIJING.md B1–B8): the part ``bots`` of the family (the protocol is
in :mod:`tjmj.bots`).

* :mod:`~tjmj.families.beijing.bots.baseline`: what a seat's observation says (:class:`BeijingView`,
  the options a bot plays by: :func:`rules_from_obs`) and the ``baseline`` bot, by shanten over both
  shapes;
* :mod:`~tjmj.families.beijing.bots.strong`: the ``strong`` bot, by expected points.

The rules a bot plays by are those the driver gave it (``set_rules``), else those the observation
suggests (:func:`~tjmj.families.beijing.bots.baseline.rules_from_obs`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....game import Action
from ....rules import Rules
from . import baseline as _baseline
from . import strong as _strong
from .baseline import BeijingView, is_beijing, rules_from_obs

if TYPE_CHECKING:
    from ....bots.baseline import BaselineBot
    from ....bots.strong import StrongBot

__all__ = ["baseline_choose", "strong_choose", "recognises", "SEVEN_PAIRS", "hundiao_rollouts", "claims_limited",
           "FREE_WILD_DISCARD", "BELIEF", "BeijingView", "is_beijing", "rules_from_obs"]

SEVEN_PAIRS = True  # 七对子 is a winning shape (B4)
FREE_WILD_DISCARD = True  # a wild may be discarded without penalty (B2)

#: The belief model's coefficients (:data:`tjmj.bots.belief.FEATURES`), as ``benchmarks/belief_fit.py``
#: printed them (2026-12-02: beijing 500 hands; seed 1000, every sixth turn).
BELIEF: tuple[float, ...] = (
    -1.198, -0.384, -0.203, 0.145, -0.378, 0.004, 0.105, 0.139, -0.092, -0.186, -0.646, 0.195, 0.133, -1.200, 0.210,
    -0.581, 0.800, 1.132, -0.388)


def baseline_choose(obs: dict[str, Any], legal: list[Action], bot: BaselineBot) -> Action:
    """The ``baseline`` bot's choice, by the rules the driver gave ``bot`` or the observation suggests."""
    return _baseline.baseline_choose(obs, legal, rules_from_obs(obs, bot.rules))


def strong_choose(obs: dict[str, Any], legal: list[Action], bot: StrongBot) -> Action:
    """The ``strong`` bot's choice, by the rules the driver gave ``bot`` or the observation suggests."""
    return _strong.strong_choose(obs, legal, rules_from_obs(obs, bot.rules))


def recognises(obs: dict[str, Any]) -> bool:
    """An observation without a ``family`` field is Beijing's when it has ``upstairs`` (上楼, B6): no
    other family's has it, and Beijing's has it in every phase."""
    return "upstairs" in obs


def hundiao_rollouts(rules: Rules) -> bool:
    """The ``expert`` bot's rollouts aim at no 混儿吊 here: any ready hand may win (B5 has no minimum)."""
    return False


def claims_limited(rules: Rules) -> bool:
    """Whether chi and pon are limited in a hand (B3 ``max_claims``: one in version B, none in A)."""
    return bool(getattr(rules, "max_claims", 0))
