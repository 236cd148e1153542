"""The ``baseline`` bot in Tianjin (docs/rules/RULES.md R2–R9): by shanten with wilds, in order:

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

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....bots.common import _KIND, _discard_key, _discard_shanten, _pick, kong_shanten, shanten_fast
from ....game import Action

if TYPE_CHECKING:
    from ....bots.baseline import BaselineBot

__all__ = ["baseline_choose"]


def baseline_choose(obs: dict[str, Any], legal: list[Action], bot: BaselineBot) -> Action:
    """The ``baseline`` bot's choice in a Tianjin match (the module docstring); ``bot``: its
    ``sit_threshold``."""
    phase = obs.get("phase")
    if phase == "sit":
        want = 1 if obs["scores"][obs["seat"]] >= bot.sit_threshold else 0
        return _pick(legal, "sit", want)
    if phase == "pull":
        return _pick(legal, "pull", 0 if obs["sit"] else 1)
    if phase == "turn":
        return _turn(obs, legal)
    if phase == "claim":
        return _claim(obs, legal)
    return legal[0]


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


def _turn(obs: dict[str, Any], legal: list[Action]) -> Action:
    discards: list[Action] = []
    kongs: list[Action] = []
    for a in legal:
        if a.type == "win":
            return a
        if a.type == "discard":
            discards.append(a)
        elif a.type in ("ankong", "added_kong"):
            kongs.append(a)
    nonwild, w, m, wilds = _hand(obs)
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


def _claim(obs: dict[str, Any], legal: list[Action]) -> Action:
    by_type = {a.type: a for a in legal}
    tile = next((a.tile for a in legal if a.tile is not None), None)
    if tile is None:
        return by_type.get("pass", legal[0])
    k = int(tile)
    nonwild, w, m, _ = _hand(obs)
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
