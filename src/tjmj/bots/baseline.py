"""The baseline bot: plays sensibly from its observation, by shanten with wilds (R2, R4–R7).

Shanten is :func:`tjmj.hand.shanten_counts` (wilds play whatever is missing), computed here
incrementally: the memoised per-suit tables of :mod:`tjmj.hand` are merged once for the three
suits a discard does not touch, and the answers for every discard from one suit are memoised
by (that suit, the merged rest), which recur from turn to turn.  Tests check the figures
against ``shanten_counts``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..game import Action
from ..hand import used_table  # the per-suit "most real tiles used" tables, memoised
from ..rules import Rules
from ..tiles import TILE_TEXT

__all__ = ["BaselineBot", "shanten_fast", "SIT_THRESHOLD"]

_KIND = {text: k for k, text in enumerate(TILE_TEXT)}
# a sit doubles every payment the dealer makes or receives (R7, R8); see BaselineBot
SIT_THRESHOLD = -20

Table = tuple[tuple[int, int], ...]


def _suit_table(nonwild: Sequence[int], s: int) -> Table:
    lo = 9 * s
    return used_table(tuple(nonwild[lo : lo + 9 if s < 3 else 34]), s == 3)


@lru_cache(maxsize=1 << 13)  # few distinct suit shapes recur across turns: ~0.6 kB an entry, ~5 MB full
def _merge(a: Table, b: Table, m: int) -> Table:
    """Max-plus merge of two "at most m melds, at most one pair" tables (rows 0..m).

    The tables are monotone in m and in the pair column, so splitting the m melds exactly
    (ma + mb = m) is enough.
    """
    out = []
    for t in range(m + 1):
        b0 = b1 = 0
        for ma in range(t + 1):
            x0, x1 = a[ma]
            y0, y1 = b[t - ma]
            v = x0 + y0
            if v > b0:
                b0 = v
            v = x0 + y1 if x0 + y1 > x1 + y0 else x1 + y0
            if v > b1:
                b1 = v
        out.append((b0, b1))
    return tuple(out)


def _top(a: Table, b: Table, m: int) -> int:
    """The most real tiles used with exactly the top row (m melds, at most one pair)."""
    best = 0
    for ma in range(m + 1):
        x0, x1 = a[ma]
        y0, y1 = b[m - ma]
        v = x0 + y1 if x0 + y1 > x1 + y0 else x1 + y0
        if v > best:
            best = v
    return best


def _top_unpaired(a: Table, b: Table, m: int) -> int:
    """As :func:`_top` with no pair: the most real tiles used in exactly ``m`` melds and nothing else."""
    return max(a[ma][0] + b[m - ma][0] for ma in range(m + 1))


def shanten_fast(nonwild: Sequence[int], w: int, m: int) -> int:
    """Same value as :func:`tjmj.hand.shanten_counts` (−1 complete, 0 ready), by table merges."""
    t = [_suit_table(nonwild, s) for s in range(4)]
    return 3 * m + 1 - w - _top(_merge(t[0], t[1], m), _merge(t[2], t[3], m), m)


def _discard_shanten(nonwild: list[int], w: int, m: int, kinds: Sequence[int]) -> dict[int, int]:
    """Shanten after discarding one non-wild tile of each kind in ``kinds``."""
    base = 3 * m + 1 - w
    return {k: base - u for k, u in discard_used(nonwild, m, kinds).items()}


def discard_used(nonwild: list[int], m: int, kinds: Sequence[int], paired: bool = True) -> dict[int, int]:
    """For each kind in ``kinds``: the most real tiles used in ``m`` melds and at most one pair
    (``paired=False``: no pair) after discarding one non-wild tile of it.  The other three suits are
    merged once per suit; the answers for one suit are memoised by (that suit, the merged rest)."""
    t = [_suit_table(nonwild, s) for s in range(4)]
    out: dict[int, int] = {}
    done: set[int] = set()
    for k in kinds:
        s = k // 9
        if s in done:
            continue
        done.add(s)
        rest = [t[i] for i in range(4) if i != s]
        lo = 9 * s
        used = _after_discards(tuple(nonwild[lo : lo + 9 if s < 3 else 34]), _merge(_merge(rest[0], rest[1], m),
                                                                                   rest[2], m), m, paired)
        for j in kinds:
            if j // 9 == s:
                out[j] = used[j - lo]
    return out


@lru_cache(maxsize=1 << 13)  # the same suit against the same other suits recurs from turn to turn: ~3 MB full
def _after_discards(suit: tuple[int, ...], others: Table, m: int, paired: bool = True) -> tuple[int, ...]:
    """For each position of ``suit`` that holds a tile: the most real tiles used after discarding one
    (``paired``: at most one pair; else none)."""
    honors = len(suit) == 7
    lst = list(suit)
    out = [0] * len(suit)
    for i, c in enumerate(suit):
        if not c:
            continue
        lst[i] = c - 1
        a = used_table(tuple(lst), honors)
        out[i] = _top(a, others, m) if paired else _top_unpaired(a, others, m)
        lst[i] = c
    return tuple(out)


def _isolated(nonwild: Sequence[int], k: int) -> bool:
    """No other copy and (for a suited tile) no neighbour within two in the hand: it helps no meld."""
    if nonwild[k] > 1:
        return False
    if k >= 27:
        return True
    n = k % 9
    lo, hi = k - min(n, 2), k + min(8 - n, 2)
    return not any(nonwild[j] for j in range(lo, hi + 1) if j != k)


def _discard_key(nonwild: Sequence[int], k: int) -> tuple[int, int, int]:
    # among equal shanten: isolated tiles first, honours before terminals before the rest, then kind order
    rank = 0 if k >= 27 else 1 if k % 9 in (0, 8) else 2
    return (0 if _isolated(nonwild, k) else 1, rank, k)


def kong_shanten(nonwild: list[int], w: int, m: int, a: Action, sh: dict[int, int]) -> int:
    """Shanten after the kong ``a`` (its replacement draw not yet made); ``sh``: shanten per discard."""
    assert a.tile is not None  # a kong always names its tile
    k = int(a.tile)
    if a.type == "ankong":
        # 4 tiles become a meld; the 10-tile-equivalent hand is compared as before a draw
        nonwild[k] -= 4
        after = shanten_fast(nonwild, w, m - 1)
        nonwild[k] += 4
        return after
    # an added kong removes one tile, melds unchanged: like discarding that tile
    return sh[k] if k in sh else shanten_fast(nonwild, w, m)


class BaselineBot:
    """A sensible, deterministic player (it never uses its rng).  In a Beijing match it plays by
    :func:`tjmj.bots.beijing.baseline_choose` (B1–B8), in an MCR match by
    :func:`tjmj.bots.mcr.baseline_choose` (M1–M4); in Tianjin its rules, in order:

    * **sit (坐庄, R7)**: sit when its own score is at least ``sit_threshold`` (default −20).  The deal
      happens after the choice, so the hand cannot be judged; a sit doubles every payment to and
      from the dealer (R8), and a dealer already well behind does not double its risk.
    * **pull (拉庄, R7)**: one pull when the dealer did not sit, else none (against a sitting dealer a
      pull would make each payment ×4).
    * **win**: always, when legal (R4: the win is optional, the bot never waits for more fan).
    * **gold kong (金杠, R2/R6)**: always: it earns ``gold_kong_points`` (8 in classic) from each
      other player, more than most wins.
    * **concealed / added kong (R4, R6)**: when the hand after the kong is no further from ready than
      after the best discard (kong points are free, R6; the replacement draw comes on top).
    * **discard**: the tile whose discard leaves the lowest shanten with wilds; ties: isolated tiles
      first, honours before terminals (1/9) before the rest, then the lowest kind.  It never discards
      a wild (that makes it 小相公, R2: no more wins this hand) unless every tile in its hand is wild.
    * **claims (R4)**: a discard kong when the hand after it is no further from ready than now; else a
      pon when the hand after the pon and its best discard is no further from ready; else pass.
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
        if "prevalent_wind" in obs or "family" in obs:  # an MCR observation (圈风, M1, is MCR's own)
            from .mcr import baseline_choose as mcr_choose
            from .mcr import is_mcr, rules_for

            if is_mcr(obs):
                return mcr_choose(obs, legal, rules_for(self.rules))
        if "upstairs" in obs or "family" in obs:  # a Beijing observation (B6 上楼 is Beijing's own)
            from .beijing import baseline_choose, is_beijing, rules_from_obs

            if is_beijing(obs):
                return baseline_choose(obs, legal, rules_from_obs(obs, self.rules))
        phase = obs.get("phase")
        if phase == "sit":
            want = 1 if obs["scores"][obs["seat"]] >= self.sit_threshold else 0
            return _pick(legal, "sit", want)
        if phase == "pull":
            return _pick(legal, "pull", 0 if obs["sit"] else 1)
        if phase == "turn":
            return self._turn(obs, legal)
        if phase == "claim":
            return self._claim(obs, legal)
        return legal[0]

    # ---- helpers ---------------------------------------------------------------------

    @staticmethod
    def _hand(obs: dict[str, Any]) -> tuple[list[int], int, int, frozenset[int]]:
        """Non-wild counts, wild count, melds still needed, the wild kinds."""
        wilds = frozenset(_KIND[t] for t in obs["wilds"])
        nonwild = [0] * 34
        w = 0
        for t in obs["hand"]:
            k = _KIND[t]
            if k in wilds:
                w += 1
            else:
                nonwild[k] += 1
        m = 4 - len(obs["seats"][obs["seat"]]["melds"])
        return nonwild, w, m, wilds

    def _turn(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        discards: list[Action] = []
        kongs: list[Action] = []
        for a in legal:
            if a.type == "win":
                return a
            if a.type == "discard":
                discards.append(a)
            elif a.type in ("ankong", "added_kong"):
                kongs.append(a)
        nonwild, w, m, wilds = self._hand(obs)
        for a in kongs:
            if a.type == "ankong" and a.tile in wilds:
                return a  # 金杠
        candidates = [int(a.tile) for a in discards if a.tile not in wilds]  # type: ignore[arg-type]  # a discard always names its tile
        if not candidates:  # every tile is wild: a wild discard is forced
            return discards[0] if discards else legal[0]
        sh = _discard_shanten(nonwild, w, m, candidates)
        low = min(sh.values())
        best = min((k for k in candidates if sh[k] == low), key=lambda k: _discard_key(nonwild, k))
        for a in kongs:
            after = kong_shanten(nonwild, w, m, a, sh)
            if after <= sh[best]:
                return a
        return next(a for a in discards if a.tile == best)

    def _claim(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        by_type = {a.type: a for a in legal}
        tile = next((a.tile for a in legal if a.tile is not None), None)
        if tile is None:
            return by_type.get("pass", legal[0])
        k = int(tile)
        nonwild, w, m, _ = self._hand(obs)
        now = shanten_fast(nonwild, w, m)
        if "kong" in by_type:
            nonwild[k] -= 3
            after = shanten_fast(nonwild, w, m - 1)
            nonwild[k] += 3
            if after <= now:
                return by_type["kong"]
        if "pon" in by_type:
            nonwild[k] -= 2
            kinds = [j for j in range(34) if nonwild[j]]
            # after the pon the claimer must discard: judge the best discard (wilds kept)
            after = min(_discard_shanten(nonwild, w, m - 1, kinds).values()) if kinds else now + 1
            nonwild[k] += 2
            if after <= now:
                return by_type["pon"]
        return by_type.get("pass", legal[-1])


def _pick(legal: list[Action], kind: str, count: int) -> Action:
    """The ``kind`` action with ``count`` if legal, else the closest legal count."""
    options = [a for a in legal if a.type == kind]
    if not options:
        return legal[0]
    return min(options, key=lambda a: (abs(a.count - count), a.count))
