"""Tianjin's bot play (docs/rules/RULES.md R2–R9): the part ``bots`` of the family (the protocol is
in :mod:`tjmj.bots`).

* :mod:`~tjmj.families.tianjin.bots.baseline`: the ``baseline`` bot, by shanten with wilds;
* :mod:`~tjmj.families.tianjin.bots.strong`: the ``strong`` bot, by expected fan.
"""

from __future__ import annotations

from typing import Any

from ....rules import Rules
from .baseline import baseline_choose
from .strong import strong_choose

__all__ = ["baseline_choose", "strong_choose", "recognises", "SEVEN_PAIRS", "hundiao_rollouts", "claims_limited",
           "FREE_WILD_DISCARD", "BELIEF"]

SEVEN_PAIRS = False  # no 七对 shape in Tianjin (R5): shanten is the standard shape's
FREE_WILD_DISCARD = False  # a wild discarded makes 小相公 (R2): no more wins this hand

#: The belief model's coefficients (:data:`tjmj.bots.belief.FEATURES`), as ``benchmarks/belief_fit.py``
#: printed them (2026-12-02: classic 800 hands; seed 1000, every sixth turn).
BELIEF: tuple[float, ...] = (
    -0.567, -0.360, -0.191, 0.285, -0.570, 0.026, 0.159, 0.185, -0.118, -0.025, -0.195, 0.355, 0.321, -3.281, -0.453,
    0.111, 0.258, 0.473, -0.244)


def recognises(obs: dict[str, Any]) -> bool:
    """A Tianjin observation has no field of its own: without a ``family`` field it is the default's."""
    return False


def hundiao_rollouts(rules: Rules) -> bool:
    """Whether the ``expert`` bot's rollouts aim a seat holding wilds at a 混儿吊 ready hand: under
    ``min_fan`` 2 a plain ready hand with wilds (死提溜) cannot win, and the commonest legal win with a
    wild is 混儿吊 (R5.1, R5.2), when it wins alone (``hundiao_alone_wins``)."""
    return getattr(rules, "min_fan", 1) >= 2 and getattr(rules, "hundiao_alone_wins", False)


def claims_limited(rules: Rules) -> bool:
    """Whether chi and pon are limited in a hand (no: R4)."""
    return False
