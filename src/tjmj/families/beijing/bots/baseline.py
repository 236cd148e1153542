"""Beijing play for the bots (docs/rules/BEIJING.md B1–B8): what a seat's observation says, shanten
with the one wild kind over both shapes (four melds and a pair, 七对子), and the ``baseline`` policy.

A bot learns the family from the observation (its ``family`` field) and the Beijing options from
the driver (``set_rules``, called by :func:`tjmj.simulate.play_with`) or, without one, from the
observation: a wild shown means the preset ``beijing``, none ``beijing_a`` (:func:`rules_from_obs`).

Shanten (−1 complete, 0 ready) is the fewest exchanges that make the 13 tiles ready, every wild
playing whatever is missing (B2: a wild stands for any kind, its own included), over the
standard shape (:func:`tjmj.bots.common.shanten_fast`, the same tables as Tianjin's) and, with
no melds, 七对子 (B4: a concealed four counts as two pairs; each lone tile needs one wild):
:func:`tjmj.bots.common.shanten13`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ....bots.common import (
    _KIND,
    _discard_key,
    _discard_shanten,
    claim_removes,
    discard_shanten,
    pairs_shanten,
    shanten13,
    shanten_fast,
)
from ....game import Action
from ....meld import Meld, MeldType
from ....rules import Rules, RulesError
from ....tiles import TILES
from ..elements import WinContext
from ..rules import BEIJING, BEIJING_A, BeijingRules
from ..score import BeijingScorer, scorer_for

__all__ = [
    "BeijingView",
    "baseline_choose",
    "rules_from_obs",
    "pairs_shanten",
    "shanten13",
    "is_beijing",
]

WIN_TYPES = ("win", "hungang")  # a turn action that ends the hand in one's favour (B2, B3)


def is_beijing(obs: dict[str, Any]) -> bool:
    """Whether an observation is of a Beijing match: its ``upstairs`` field (上楼, B6) is Beijing's own
    and is there in every phase (a ``family`` field, where a driver adds one, decides first)."""
    fam = obs.get("family")
    if fam is not None:
        return fam == "beijing"
    return "upstairs" in obs


_RULES_CACHE: dict[str, BeijingRules] = {}


def rules_from_obs(obs: dict[str, Any], bound: Rules | None = None) -> BeijingRules:
    """The Beijing options a bot plays by: those the driver gave (``bound``), else the observation's
    ``rules`` where a driver adds it, else the preset the observation suggests: ``beijing`` when the
    hand has a wild kind (B2), ``beijing_a`` when it has none."""
    if isinstance(bound, BeijingRules):
        return bound
    r = obs.get("rules")
    if isinstance(r, dict):
        key = repr(sorted(r.items()))
        got = _RULES_CACHE.get(key)
        if got is None:
            try:
                parsed = Rules.from_dict(r)
            except (RulesError, TypeError, ValueError):
                parsed = None
            got = parsed if isinstance(parsed, BeijingRules) else (BEIJING if obs.get("wilds") else BEIJING_A)
            _RULES_CACHE[key] = got
        return got
    return BEIJING if obs.get("wilds") else BEIJING_A


@lru_cache(maxsize=256)
def _meld(text: str) -> Meld:
    return Meld.parse(text)


# ---- the observation, as the bots read it ----------------------------------------------------


class BeijingView:
    """One Beijing decision as a bot sees it: its tiles (per kind, the wild apart), melds, what every
    seat has shown, the live copies of each kind, the wall, and a scorer for its wins (B5)."""

    __slots__ = ("obs", "rules", "seat", "wild", "full", "nonwild", "w", "melds", "n_melds", "m", "claimed",
                 "claims", "visible", "live", "total_live", "wall_left", "dealer", "indicator", "_scorer",
                 "may_claim", "pairs_ok")

    def __init__(self, obs: dict[str, Any], rules: BeijingRules) -> None:
        self.obs = obs
        self.rules = rules
        self.seat = seat = obs["seat"]
        wilds = obs.get("wilds") or ()
        self.wild = _KIND[wilds[0]] if wilds else -1
        full = [0] * 34
        for t in obs["hand"]:
            full[_KIND[t]] += 1
        self.full = full
        nonwild = list(full)
        self.w = 0
        if self.wild >= 0:
            self.w = full[self.wild]
            nonwild[self.wild] = 0
        self.nonwild = nonwild
        seats = obs["seats"]
        me = seats[seat]
        self.melds = [_meld(t) for t in me["melds"]]
        self.n_melds = len(self.melds)
        self.m = 4 - self.n_melds
        self.claimed = any(x.type is not MeldType.CONCEALED_KONG for x in self.melds)
        self.claims = me.get("claims", 0)
        self.may_claim = rules.max_claims == 0 or self.claims < rules.max_claims
        self.pairs_ok = self.n_melds == 0
        visible = list(full)
        for st in seats:
            for text in st["melds"]:
                ml = _meld(text)
                for t in ml.tiles:
                    visible[t] += 1
                if ml.type in (MeldType.PON, MeldType.KONG, MeldType.ADDED_KONG):
                    visible[ml.tile] -= 1  # the claimed tile is also in its discarder's river
            for t in st["discards"]:
                visible[_KIND[t]] += 1
        ind = obs.get("indicator")
        self.indicator = _KIND[ind] if ind is not None else None
        if self.indicator is not None:
            visible[self.indicator] += 1
        self.visible = visible
        self.live = [4 - v if v < 4 else 0 for v in visible]
        self.total_live = sum(self.live) or 1
        self.wall_left = obs.get("wall_left", 60)
        self.dealer = obs.get("dealer") == seat
        self._scorer: BeijingScorer | None = None

    @property
    def scorer(self) -> BeijingScorer:
        if self._scorer is None:
            self._scorer = scorer_for(TILES[self.indicator] if self.indicator is not None else None, self.rules)
        return self._scorer

    def shanten(self) -> int:
        return shanten13(self.nonwild, self.w, self.m, self.pairs_ok)

    def context(self, self_drawn: bool) -> WinContext:
        return _context(self_drawn, self.dealer)


@lru_cache(maxsize=8)
def _context(self_drawn: bool, dealer: bool) -> WinContext:
    return WinContext(self_drawn=self_drawn, dealer=dealer)


# ---- claims: the hand after a chi, pon or kong -----------------------------------------------------


def after_claim(v: BeijingView, a: Action, tile: int) -> tuple[list[int], int] | None:
    """(non-wild counts, wilds) of the concealed hand after the claim ``a``; None if a tile it
    needs is missing (a chi through a wild: never offered, B2)."""
    nonwild = list(v.nonwild)
    w = v.w
    for k in claim_removes(a, tile):
        if k == v.wild:
            if not w:
                return None
            w -= 1
        elif nonwild[k]:
            nonwild[k] -= 1
        else:
            return None
    return nonwild, w


def _best_after(nonwild: list[int], w: int, m: int) -> int:
    """The lowest shanten after the best discard of a 14-tile-equivalent hand (no 七对子: a claim ends it)."""
    kinds = [k for k in range(34) if nonwild[k]]
    if not kinds:
        return shanten_fast(nonwild, max(0, w - 1), m)
    return min(_discard_shanten(nonwild, w, m, kinds).values())


# ---- the baseline policy -----------------------------------------------------------------------


def baseline_choose(obs: dict[str, Any], legal: list[Action], rules: BeijingRules) -> Action:
    """The ``baseline`` bot in Beijing (docs/bots.md, "Beijing baseline"): wins (and 混杠) whenever
    legal, discards to the lowest shanten over both shapes, declares a kong and claims when that costs
    no distance (while claims are limited, B3, only when it gets closer)."""
    phase = obs.get("phase")
    if phase == "turn":
        return _baseline_turn(obs, legal, rules)
    if phase in ("claim", "rob"):
        return _baseline_claim(obs, legal, rules)
    return legal[0]


def _baseline_turn(obs: dict[str, Any], legal: list[Action], rules: BeijingRules) -> Action:
    discards: list[Action] = []
    kongs: list[Action] = []
    for a in legal:
        t = a.type
        if t == "hungang" or t == "win":
            return a  # 混杠 first (it is listed first): a flat 40 (B2)
        if t == "discard":
            discards.append(a)
        elif t == "ankong" or t == "added_kong":
            kongs.append(a)
    v = BeijingView(obs, rules)
    wild = v.wild
    candidates = [int(a.tile) for a in discards if a.tile != wild]  # type: ignore[arg-type]  # a discard names its tile
    if not candidates:  # only wilds left: one must go
        return discards[0] if discards else legal[0]
    sh = discard_shanten(v.nonwild, v.w, v.m, v.pairs_ok, candidates, wild)
    low = min(sh.values())
    best = min((k for k in candidates if sh[k] == low), key=lambda k: _discard_key(v.nonwild, k))
    for a in kongs:
        assert a.tile is not None
        k = int(a.tile)
        if a.type == "ankong":
            if k == wild:
                continue  # four wilds: 混杠 is better, and was not legal only after a claim
            v.nonwild[k] -= 4
            after = shanten_fast(v.nonwild, v.w, v.m - 1)
            v.nonwild[k] += 4
        else:
            after = sh[k] if k in sh else shanten_fast(v.nonwild, v.w, v.m)
        if after <= sh[best]:
            return a
    return next(a for a in discards if a.tile == best)


def _baseline_claim(obs: dict[str, Any], legal: list[Action], rules: BeijingRules) -> Action:
    """Win when it can; a kong, pon or chi when the hand after it (and its best discard) is no further
    from ready, and, while chi and pon are limited (B3 ``max_claims``), only when it gets closer."""
    pass_ = None
    claims: list[Action] = []
    for a in legal:
        if a.type == "win":
            return a
        if a.type == "pass":
            pass_ = a
        else:
            claims.append(a)
    fallback = pass_ if pass_ is not None else legal[-1]
    window = obs.get("window")
    if not claims or window is None:
        return fallback
    tile = _KIND[window["tile"]]
    v = BeijingView(obs, rules)
    now = v.shanten()
    limited = rules.max_claims != 0
    best: tuple[int, int, Action] | None = None
    for a in claims:
        got = after_claim(v, a, tile)
        if got is None:
            continue
        nonwild, w = got
        if a.type == "kong":
            after = shanten_fast(nonwild, w, v.m - 1)
            if after <= now and (best is None or (after, 0) < best[:2]):
                best = (after, 0, a)
            continue
        after = _best_after(nonwild, w, v.m - 1)
        if after < now or (after == now and not limited):
            rank = 1 if a.type == "pon" else 2
            if best is None or (after, rank) < best[:2]:
                best = (after, rank, a)
    return best[2] if best is not None else fallback
