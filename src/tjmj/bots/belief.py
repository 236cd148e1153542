"""What the other seats probably hold (读牌, reading the other hands): weights for the worlds the
``expert`` bot samples (:meth:`tjmj.game.Match.determinize`).

A uniform deal of the unseen tiles puts every tile in every hand alike; real players do not: they
throw the honours nobody can pair any more, keep the wilds, and seldom hold the kinds they have
thrown (or those next to them). For each other seat and each kind it has not seen, the searching seat
reads a few facts of the table (:data:`FEATURES`, all public: that seat's discards and melds, the
wilds, how many copies are out) and weighs the kind by ``exp(sum(coefficient × feature))``: how much
likelier a copy of it is to be in that hand than in the wall.

The coefficients are a logistic model, per family (its ``BELIEF``: :data:`COEFFICIENTS`), fitted to
``strong``'s self-play (``benchmarks/belief_fit.py``, which prints them and how much better than a
uniform deal they predict the true hands on other deals). They describe `strong`'s play: against other players the
worlds are only as right as the players are alike.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence

from .. import families
from ..game import Match
from ..rules import RulesError
from ..wall import SEATS

__all__ = ["FEATURES", "COEFFICIENTS", "features", "hand_weights"]

#: The facts read for one (other seat, kind): names as ``benchmarks/belief_fit.py`` prints them.
FEATURES: tuple[str, ...] = (
    "discarded",  # the seat has thrown this kind
    "discarded_next",  # ... a tile one step away in the suit
    "discarded_two_away",  # ... two steps away
    "wild",  # the kind is a wild (Tianjin's 混儿, Beijing's 混)
    "honour",  # a wind or dragon
    "terminal",  # a 1 or 9
    "two_or_eight",
    "three_or_seven",
    "one_out",  # copies of the kind out on the table (discards, melds, the indicator): 1
    "two_out",
    "three_out",
    "honour_early",  # an honour, the seat has thrown at most 4 tiles
    "honour_late",  # an honour, the seat has thrown 10 or more
    "honour_two_out",  # an honour of which two or more copies are out: no pon left in it
    "honour_melds",  # an honour, the seat's melds (0, 1/2, 1 for two or more)
    "meld_suit",  # the seat has a meld in the kind's suit
    "suit_share",  # the share of the seat's discards in the kind's suit
    "discarded_late",  # the seat threw this kind in the second half of its discards
    "discarded_recent",  # ... in its last three
)

class _Coefficients(Mapping[str, tuple[float, ...]]):
    """Coefficients of :data:`FEATURES` per family name: each family's ``BELIEF`` (its part ``bots``),
    as ``benchmarks/belief_fit.py`` printed them."""

    def __getitem__(self, family: str) -> tuple[float, ...]:
        try:
            fam = families.get(family)
        except RulesError:
            raise KeyError(family) from None
        coef: tuple[float, ...] = fam.bots.BELIEF
        return coef

    def __iter__(self) -> Iterator[str]:
        return iter([f.name for f in families.all_families()])

    def __len__(self) -> int:
        return len(families.all_families())


COEFFICIENTS: Mapping[str, tuple[float, ...]] = _Coefficients()


def features(kind: int, discards: Sequence[int], meld_kinds: Sequence[int], wild: bool, out: int) -> list[float]:
    """The values of :data:`FEATURES` for one kind and one other seat: ``discards`` (its pond, the
    claimed ones too), ``meld_kinds`` (a kind of each of its melds), whether the kind is a wild, and
    ``out``: its copies the searching seat sees outside its own hand."""
    f = [0.0] * len(FEATURES)
    thrown = [0] * 34
    for t in discards:
        if t < 34:
            thrown[t] += 1
    n = len(discards)
    if thrown[kind]:
        f[0] = 1.0
        if kind in discards[n // 2:]:
            f[17] = 1.0
        if kind in discards[-3:]:
            f[18] = 1.0
    if kind < 27:
        suit, rank = divmod(kind, 9)
        rank += 1
        f[1] = 1.0 if any(thrown[kind + d] for d in (-1, 1) if 1 <= rank + d <= 9) else 0.0
        f[2] = 1.0 if any(thrown[kind + d] for d in (-2, 2) if 1 <= rank + d <= 9) else 0.0
        f[5] = 1.0 if rank in (1, 9) else 0.0
        f[6] = 1.0 if rank in (2, 8) else 0.0
        f[7] = 1.0 if rank in (3, 7) else 0.0
        f[15] = 1.0 if any(k < 27 and k // 9 == suit for k in meld_kinds) else 0.0
        f[16] = sum(1 for t in discards if t < 27 and t // 9 == suit) / (n + 1)
    else:
        f[4] = 1.0
        f[11] = 1.0 if n <= 4 else 0.0
        f[12] = 1.0 if n >= 10 else 0.0
        f[13] = 1.0 if out >= 2 else 0.0
        f[14] = min(len(meld_kinds), 2) / 2
    f[3] = 1.0 if wild else 0.0
    if out >= 1:
        f[7 + min(out, 3)] = 1.0
    return f


def seat_features(m: Match, seat: int, other: int, unseen: Sequence[int]) -> list[list[float] | None]:
    """:func:`features` of every kind for ``other`` as ``seat`` sees ``m`` (``None``: a kind with no
    unseen copy); ``unseen`` is :meth:`Match.unseen_counts` for ``seat``."""
    st = m.seats[other]
    discards = [int(t) for t in st.discards]
    melds = [int(x.tile) for x in st.melds]
    own = m.seats[seat].counts
    return [features(k, discards, melds, k in m.wilds, 4 - unseen[k] - own[k]) if unseen[k] else None
            for k in range(34)]


def hand_weights(m: Match, seat: int, coefficients: Sequence[float] | None = None) -> list[list[float]]:
    """For each seat (``seat``'s own row all 1) and kind, how much likelier a copy is to be in that
    hand than in the wall, from what ``seat`` sees: the ``weights`` of :meth:`Match.determinize`.
    ``coefficients``: the family's (:data:`COEFFICIENTS`) unless given."""
    coef = COEFFICIENTS[m.rules.family] if coefficients is None else coefficients
    unseen = m.unseen_counts(seat)
    out = [[1.0] * 34 for _ in range(SEATS)]
    for o in range(SEATS):
        if o == seat:
            continue
        row = out[o]
        for k, f in enumerate(seat_features(m, seat, o, unseen)):
            if f is not None:
                row[k] = math.exp(sum(c * x for c, x in zip(coef, f, strict=True)))
    return out
