"""Ratings (等级分) per rule family from the placements of four-player matches.

A player's skill in one family is a :class:`Rating`: a Gaussian belief ``mu`` ± ``sigma`` kept by
openskill's Plackett-Luce model (Weng & Lin, "A Bayesian Approximation Method for Online Ranking",
JMLR 2011), the multi-player generalisation of the Bradley-Terry model behind Elo.  It was chosen
because a mahjong match is one ranking of four players (1st to 4th by final score), not a series of
duels: Plackett-Luce rates a whole placement in one update, handles ties (equal final scores share
a place), and needs no tuning; openskill is a small, maintained, MIT-licensed implementation
(TrueSkill, the other candidate, is patent-encumbered).

What a player sees is :attr:`Rating.display`, a conservative number: ``mu - 3 sigma`` (openskill's
*ordinal*; the true skill is above it with 99.9 % confidence) on a familiar scale,
``1500 + 40 × (mu - 3 sigma)``.  A newcomer (``mu`` 25, ``sigma`` 25/3) shows 1500; winning raises
``mu``, every rated match lowers ``sigma``, so the number also rises as the system becomes sure of a
player.  One unit of ``mu`` is 40 points; the model's ``beta`` (25/6), the spread of one match's
performance, is about 167 points.

:func:`rate` rates one finished match: ranks from the final scores, seats that left the match (a
ranked match abandoned by its player, see ``left``) placed last whatever their score, and seats with
a fixed rating (the bots, ``fixed``) left unchanged: their ratings were measured once
(``benchmarks/bot_ratings.py``), are shipped with the package (``bot_ratings.json``) and are read
with :func:`bot_rating`, so that a newcomer sees where they stand against each bot level (段位).

>>> before = [DEFAULT] * 4
>>> after = rate(before, [30, 10, -10, -30])
>>> after[0].mu > 25 > after[3].mu
True
>>> DEFAULT.display
1500
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from openskill.models import PlackettLuce

__all__ = ["BASE", "DEFAULT", "SCALE", "SEATS", "Rating", "bot_rating", "bot_ratings", "rate"]

SEATS = 4
BASE = 1500  # the display of a newcomer
SCALE = 40  # display points per unit of mu
_MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
BOT_RATINGS_FILE = "bot_ratings.json"  # in the package, written by benchmarks/bot_ratings.py


@dataclass(frozen=True)
class Rating:
    """One player's rating (等级分) in one family: skill ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu) and math.isfinite(self.sigma)) or self.sigma <= 0:
            raise ValueError(f"a rating is a finite mu and a positive sigma, got {self.mu!r}, {self.sigma!r}")

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the skill the player has with 99.9 % confidence."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        """The number shown: ``1500 + 40 × (mu - 3 sigma)``, rounded (1500 for a newcomer)."""
        return round(BASE + SCALE * self.ordinal)


DEFAULT = Rating(_MODEL.mu, _MODEL.sigma)


def ranks(scores: Sequence[int], left: frozenset[int] = frozenset()) -> list[int]:
    """Each seat's place, 1 the best: by final score among the seats that stayed (equal scores share
    a place), then every seat in ``left``, tied among themselves.

    >>> ranks([10, 30, 10, -50])
    [2, 1, 2, 4]
    >>> ranks([40, 0, -10, -30], left=frozenset({0}))
    [4, 1, 2, 3]
    """
    stayed = [s for s in range(len(scores)) if s not in left]
    out = []
    for seat, score in enumerate(scores):
        if seat in left:
            out.append(len(stayed) + 1)
        else:
            out.append(1 + sum(1 for s in stayed if scores[s] > score))
    return out


def rate(before: Sequence[Rating], scores: Sequence[int], left: frozenset[int] = frozenset(),
         fixed: frozenset[int] = frozenset()) -> list[Rating]:
    """The four seats' ratings after one match, seat by seat: ``before`` their ratings, ``scores``
    the final scores; seats in ``left`` left the match and rank last; seats in ``fixed`` (bots with a
    fixed rating) keep theirs but still count as opponents."""
    if len(before) != SEATS or len(scores) != SEATS:
        raise ValueError(f"a match has {SEATS} seats: {len(before)} ratings and {len(scores)} scores given")
    for seats in (left, fixed):
        if any(not 0 <= s < SEATS for s in seats):
            raise ValueError(f"seats are 0 to {SEATS - 1}, got {sorted(seats)}")
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = _MODEL.rate(teams, ranks=[float(r) for r in ranks(scores, left)])
    return [before[s] if s in fixed else Rating(after[s][0].mu, after[s][0].sigma) for s in range(SEATS)]


@functools.cache
def bot_ratings() -> dict[str, Any]:
    """The shipped measurement (``bot_ratings.json``): ``{"families": {family: {"matches", "seed",
    "match_hands", "bots": {bot: {"level", "mu", "sigma", "rating", ...}}}}}``; an empty
    ``families`` when it is missing."""
    try:
        text = resources.files("tjmj").joinpath(BOT_RATINGS_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {"families": {}}
    data: dict[str, Any] = json.loads(text)
    return data


def bot_rating(family: str, bot: str) -> Rating | None:
    """The fixed rating of a bot in a family, by its name (``strong``) or the lobby's level
    (``hard``); None for a bot that was not measured (``random``, an outside bot)."""
    for name, entry in bot_ratings().get("families", {}).get(family, {}).get("bots", {}).items():
        if bot in (name, entry.get("level")):
            return Rating(float(entry["mu"]), float(entry["sigma"]))
    return None
