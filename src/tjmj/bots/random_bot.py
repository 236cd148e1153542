"""Random bots: uniform over the legal actions (fuzzing), and the same but winning when it can."""

from __future__ import annotations

import random
from typing import Any

from ..game import Action
from ..wall import randbelow

__all__ = ["RandomBot", "GreedyRandomBot"]


class RandomBot:
    """A uniformly random legal action: sit/pull, discards (wilds too: 小相公, R2), claims, kongs, win;
    in Beijing also chi, 混儿悠 and 混杠 (B2, B3).  It reads only ``legal``, so it plays every family.

    ``win_when_possible=True`` always declares a legal win (R4: declaring is optional), so that
    hands end in wins rather than mostly in 荒牌: a self-drawn win, a win on a discard or a robbed
    kong, and 混杠 (Beijing B2; it comes first in a turn's legal actions); everything else stays uniform.  Neither variant
    reads the observation (``uses_observation = False``).
    """

    uses_observation = False

    def __init__(self, win_when_possible: bool = False) -> None:
        self.win_when_possible = win_when_possible
        self.name = "greedy" if win_when_possible else "random"

    def choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if self.win_when_possible:
            for a in legal:
                t = a.type
                if t == "discard":
                    break  # a turn lists its wins before its discards (docs/bot-protocol.md): none here
                if t == "win" or t == "hungang":  # 混杠 (Beijing B2) is a win too
                    return a
        # rng.choice draws one random number per call: the sequence stays reproducible per seed
        if type(rng) is random.Random and legal:
            return legal[randbelow(rng, len(legal))]  # rng.choice(legal), the same draw
        return rng.choice(legal)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(win_when_possible={self.win_when_possible})"


class GreedyRandomBot(RandomBot):
    """:class:`RandomBot` with ``win_when_possible=True`` (registry name ``greedy``)."""

    def __init__(self) -> None:
        super().__init__(win_when_possible=True)
