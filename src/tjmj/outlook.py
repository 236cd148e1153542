"""The outlook of a hand in the draws left, as every family's advisor models it (docs/advise.md "How
options are ranked"): the tiles left in the wall, the player's draws, the chance that another player
ends the hand first, the chance to win through a chain of improving draws and the value expected, and
the one-line summaries of an option in English and Chinese.

The family's advisor (:mod:`tjmj.families.tianjin.advise`, :mod:`tjmj.families.beijing.advise`) sets
its own rates and values.  The chain of draws is :func:`win_chance`, which the Beijing and MCR
``strong`` bots read too.

>>> estimate_wall_left(121), draws_left(68)
(68, 17)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .tiles import Tile

__all__ = ["Summarised", "draws_left", "estimate_wall_left", "hazard_now", "win_chance"]

OTHER_HANDS = 3 * 13  # tiles in the other players' concealed hands, about
KEPT_BACK = 14  # tiles kept back from normal draws at the tail (replacement draws: R3 dice reserve, B1's 7 stacks)
START_WALL = 68  # tiles for normal draws at the start of a hand (estimate_wall_left of 121 unseen)


def estimate_wall_left(unseen: int) -> int:
    """Tiles left for normal draws when the caller does not know: the unseen tiles less the other
    three hands (13 each) and the 14 kept back at the tail.  With nothing seen but one's own hand and
    the indicator (121 unseen) that is 68, the start of a hand."""
    return max(0, unseen - OTHER_HANDS - KEPT_BACK)


def draws_left(wall_left: int) -> int:
    """The player's own draws (rounds of play) left with ``wall_left`` tiles for normal draws: one in
    four, rounded up (the Beijing strong bot's ``rounds``)."""
    return max(0, (wall_left + 3) // 4)


@lru_cache(maxsize=1 << 13)  # ~0.3 kB an entry: ~2 MB full
def win_chance(steps: int, q_first: float, q_win: float, rounds: int, hazard: float,
               later: tuple[float, ...] = (), ramp: float = 0.0) -> float:
    """The chance to make ``steps`` improvements and then win (``q_win`` per round) within ``rounds``
    rounds, the hand surviving each round with ``1 − hazard``: the first improvement comes with
    chance ``q_first`` per round, a later one with ``j`` steps still to go with ``later[j]`` (the
    usual ukeire at that shanten: a hand's first step is the widest); the hazard grows by ``ramp``
    a round."""
    dist = [0.0] * (steps + 1)
    dist[steps] = 1.0
    rates = [later[j] if j < len(later) else q_first for j in range(steps + 1)]
    rates[steps] = q_first
    won = 0.0
    for t in range(rounds):
        h = hazard + ramp * t
        keep = 1.0 - (h if h < 0.8 else 0.8)
        new = [0.0] * (steps + 1)
        p0 = dist[0]
        if p0:
            won += p0 * q_win
            new[0] += p0 * (1.0 - q_win)
        for j in range(1, steps + 1):
            p = dist[j]
            if p:
                q = rates[j]
                new[j - 1] += p * q
                new[j] += p * (1.0 - q)
        dist = [x * keep for x in new]
        if sum(dist) < 1e-4:
            break
    return won


def _chain(steps: int, q_first: float, q_win: float, rounds: int, later: tuple[float, ...] = (),
           hazard: float = 0.0, ramp: float = 0.0) -> float:
    """The chance to make ``steps`` improvements (the first with chance ``q_first`` a round, a later one
    with ``j`` steps to go ``later[j]``) and then win (``q_win`` a round) within ``rounds`` rounds, the
    hand going on after each round with 1 − (``hazard`` + ``ramp`` × rounds since now):
    :func:`win_chance`.  Rates are rounded to 4 places (its cache)."""
    if rounds <= 0 or q_win <= 0:
        return 0.0
    return win_chance(steps, round(min(1.0, q_first), 4), round(min(1.0, q_win), 4), rounds, round(hazard, 3),
                      later, ramp)


def hazard_now(wall_left: int, ramp: float) -> float:
    """The chance that another player ends the hand in the coming round: ``ramp`` × the rounds played
    so far, counted from a wall of :data:`START_WALL` tiles (measured: it grows about linearly)."""
    return ramp * max(0, START_WALL - wall_left) / 4


def _routes_chance(routes: Sequence[tuple[int, float, float]], unseen: int, rounds: int, hazard: float,
                   ramp: float) -> tuple[float, float]:
    """(chance, expected value) of a hand one useful draw from a legal ready hand: ``routes`` holds, per
    useful kind, (its live copies, the per-round win chance of the best ready hand it allows, that
    hand's mean value of a win).  The first step comes with the chance of all useful copies; which
    kind it was decides the wait."""
    u = sum(n for n, _, _ in routes)
    if not u or not unseen:
        return 0.0, 0.0
    a = u / unseen
    p = e = 0.0
    for n, q, v in routes:
        c = _chain(1, a, q, rounds, (), hazard, ramp) * n / u
        p += c
        e += c * v
    return p, e


def _pct(p: float) -> str:
    if p <= 0:
        return "0%"
    if p < 0.01:
        return "<1%"
    return f"{min(100, round(100 * p))}%"


def _num(x: float) -> str:
    if x <= 0:
        return "0"
    if x < 0.1:
        return "<0.1"
    return f"{x:.1f}" if x < 10 else f"{x:.0f}"


def _tile_list(tiles: Sequence[Tile], most: int = 6) -> str:
    """``5m 8m 4p``, at most ``most`` kinds then ``+N``."""
    text = " ".join(str(t) for t in tiles[:most])
    return text + (f" +{len(tiles) - most}" if len(tiles) > most else "")


def _outlook_text(p: float, e: float, unit: str, unit_zh: str) -> tuple[str, str]:
    """``~41% to win, ~4.2 fan expected`` and ``和牌约41%，期望约4.2番``."""
    if p <= 0:
        return "no win in the draws left", "剩余摸牌内和不了"
    x = _num(e)
    ex, ez = (x, x) if x.startswith("<") else (f"~{x}", f"约{x}")
    if p < 0.01:
        return f"<1% to win, {ex} {unit} expected", f"和牌<1%，期望{ez}{unit_zh}"
    return f"~{_pct(p)} to win, {ex} {unit} expected", f"和牌约{_pct(p)}，期望{ez}{unit_zh}"


class Summarised:
    """An option with a one-line summary in English and Chinese (made by ``_summaries``), e.g.
    ``ready: 5m 8m (6 live), ~41% to win, ~4.2 fan expected`` / ``听5m 8m（6张活牌），和牌约41%，期望约4.2番``."""

    __slots__ = ()

    def _summaries(self) -> tuple[str, str]:
        raise NotImplementedError

    @property
    def summary(self) -> str:
        return self._summaries()[0]

    @property
    def summary_zh(self) -> str:
        return self._summaries()[1]
