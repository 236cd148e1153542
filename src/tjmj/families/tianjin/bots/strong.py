"""The ``strong`` bot in Tianjin: it plays by expected fan, not by distance to ready alone (R2, R4–R8).

The baseline (:mod:`tjmj.families.tianjin.bots.baseline`) counts a hand "ready" even when its only
completions are 提溜 (fan 1 with wilds: no win under ``min_fan`` 2).  This bot values a 13-tile hand by what its
draws are worth:

* **ready hands** (shanten 0): the expected fan of one draw, ``Σ live(k) / live · fan(k)`` over the
  kinds ``k`` whose draw wins (:meth:`tjmj.families.tianjin.score.Scorer.evaluate` + ``can_win``).  A 混儿吊 waits on
  every tile, so it scores about its fan; a dead ready hand (only 提溜 completions) scores nothing;
* **dead ready hands** (ready only as 提溜, no legal win): ``−0.8`` plus ``REVIVE`` × the share of
  live tiles whose draw, with the best discard after it, makes the hand ready for a legal win (the
  search's findings, issue 15: choosing among dead ready hands by shape alone was strong's costliest
  habit);
* **other hands**: ``−shanten`` plus the share of live tiles that lower the shanten (ukeire);
* **shape terms** on top: 4m/5m/6m kept while holding wilds (捉伍儿), 1–9 straights in progress
  (龙; ×2 in the wilds' suit, 本混儿龙), and late in the hand (short wall) a small cost for discarding
  a kind nobody has shown yet (少打生张: it may feed a pon or a kong).

The rules it plays by are in :func:`strong_choose`; ``docs/bots.md`` has them with measured figures.
Everything is deterministic (the rng is never used); a decision takes a few milliseconds.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ....bots.common import (
    _KIND,
    _discard_key,
    _discard_shanten,
    _merge,
    _pick,
    _suit_table,
    _top,
    kong_shanten,
    shanten_fast,
)
from ....bots.strong import REVIVE  # the default of StrongBot's option ``revive``, which only Tianjin reads
from ....game import Action
from ....hand import used_table
from ..rules import CLASSIC, TianjinRules
from ..score import Scorer

if TYPE_CHECKING:
    from ....bots.strong import StrongBot

__all__ = ["strong_choose", "SIT_MIN_SCORE", "SHORT_WALL", "REVIVE"]

SIT_MIN_SCORE = -30  # 坐庄 / 拉庄 only at or above this score (a sit doubles the dealer's risk, R7/R8)
SHORT_WALL = 16  # live wall tiles at or below which the bot always wins and avoids fresh tiles
KONG_HOLD_WALL = 40  # with more live tiles than this, a kong one tile from ready waits (有杠不急开)
DECLINE_WALL = 60  # a fan-2 win may be declined only with at least this many live tiles left
DECLINE_RATIO = 1.6  # ... and only when the hand kept is worth this many times the win now

# the weights of the value of a 13-tile hand (in fan per draw for ready hands)
DEAD_READY = -0.8  # a ready hand whose completions all score below min_fan (提溜)
READY_BASE = -0.6  # a ready hand: this plus its expected fan per draw
UKEIRE = 0.15  # × the share of live tiles that improve a not-ready hand
FIVE_BONUS = 0.06  # each of 4m/5m/6m kept while holding a wild (捉伍儿)
LONG_BONUS = 0.05  # per distinct number beyond four in one suit (龙 in progress); ×2 in the wilds' suit
FRESH_COST = 0.08  # discarding a kind with at most one copy visible, when the wall is short


@lru_cache(maxsize=64)
def _scorer(indicator: str, n_wilds: int) -> Scorer:
    rules = CLASSIC if n_wilds == CLASSIC.wild_kinds else CLASSIC.replace(wild_kinds=n_wilds)
    assert isinstance(rules, TianjinRules)
    return Scorer(indicator, rules)


@lru_cache(maxsize=1 << 13)  # ~0.6 kB an entry: ~5 MB full (docs/architecture.md, memos)
def _winning_kinds(sc: Scorer, full13: tuple[int, ...], n_melds: int, gold: int) -> tuple[tuple[int, int], ...]:
    """(kind, fan) for each kind whose draw wins this 13-tile concealed hand with a legal fan (R5),
    live or not: remembered, since the same hands come back from decision to decision (the ready
    hands valued, and the hands ``revive`` judges)."""
    full = list(full13)
    out = []
    for k in range(34):
        full[k] += 1
        if sc.is_complete(full):
            r = sc.evaluate(full, k, n_melds, gold)
            if r is not None and sc.can_win(r[0], r[1]):
                out.append((k, r[0]))
        full[k] -= 1
    return tuple(out)


def _meld_kind_and_size(text: str) -> tuple[int, int, bool]:
    """``[777m]`` → (kind of 7m, 3, claimed); ``(1111z)`` a concealed kong; ``[7777m+]`` added."""
    body = text.strip("[]()+")
    digits = body[:-1]
    return _KIND[digits[0] + body[-1]], len(digits), text.startswith("[")


class _Ctx:
    """What one decision needs: counts, wilds, live tiles, the scorer."""

    __slots__ = (
        "full",
        "nonwild",
        "w",
        "m",
        "wilds",
        "live",
        "total_live",
        "scorer",
        "n_melds",
        "gold",
        "visible",
        "wall_left",
        "can_win",
        "wild_suit",
        "judged",
        "revive_weight",
    )

    def __init__(self, obs: dict[str, Any], revive: float = REVIVE) -> None:
        self.revive_weight = revive
        self.wilds = tuple(_KIND[t] for t in obs["wilds"])
        full = [0] * 34
        for t in obs["hand"]:
            full[_KIND[t]] += 1
        self.full = full
        self.nonwild = list(full)
        self.w = 0
        for k in self.wilds:
            self.w += full[k]
            self.nonwild[k] = 0
        me = obs["seats"][obs["seat"]]
        self.n_melds = len(me["melds"])
        self.m = 4 - self.n_melds
        self.can_win = not me.get("xiaoxianggong", False)
        visible = list(full)
        self.gold = 0
        for seat in obs["seats"]:
            for text in seat["melds"]:
                k, n, claimed = _meld_kind_and_size(text)
                visible[k] += n - (1 if claimed else 0)  # a claimed tile is also in its discarder's river
                if not claimed and seat is me and k in self.wilds:
                    self.gold += 1
            for t in seat["discards"]:
                visible[_KIND[t]] += 1
        ind = obs.get("indicator")
        if ind is not None:
            visible[_KIND[ind]] += 1
        self.visible = visible
        self.live = [max(0, 4 - v) for v in visible]
        self.total_live = sum(self.live) or 1
        self.scorer = _scorer(ind, len(self.wilds)) if ind is not None else None
        self.wall_left = obs.get("wall_left", 100)
        w0 = self.wilds[0]
        self.wild_suit = w0 // 9 if w0 < 27 else -1
        self.judged: dict[tuple[int, ...], bool] = {}  # see revive

    # ---- values ------------------------------------------------------------------------

    def win_ev(self, full13: list[int], n_melds: int) -> float:
        """Expected fan of one draw for a 13-tile concealed hand (0 if it cannot win)."""
        sc = self.scorer
        if sc is None or not self.can_win:
            return 0.0
        live = self.live
        ev = sum(live[k] * fan for k, fan in _winning_kinds(sc, tuple(full13), n_melds, self.gold))
        return ev / self.total_live

    def can_win_ready(self, full13: list[int], n_melds: int) -> bool:
        """Whether some live draw wins this 13-tile concealed hand with a legal fan (``win_ev > 0``)."""
        sc = self.scorer
        if sc is None or not self.can_win:
            return False
        live = self.live
        return any(live[k] for k, _ in _winning_kinds(sc, tuple(full13), n_melds, self.gold))

    def revive(self, nonwild: list[int], w: int, m: int) -> float:
        """For a dead ready hand (ready only for 提溜, below ``min_fan``: R5): the share of live tiles
        whose draw, with the best discard after it (never a wild), leaves a ready hand that can win.
        The search (benchmarks/search_findings.py) found ``strong`` choosing among dead ready hands
        by shape alone its most costly habit; this counts the draws that bring one back to life."""
        live = self.live
        wilds = self.wilds
        full = [0] * 34
        for k in wilds:
            full[k] = self.full[k]
        seen = self.judged  # 13-tile hands already judged this decision (candidates share most of them)
        good = 0
        for k in range(34):
            n = live[k]
            if not n:
                continue
            wild = k in wilds
            if wild:
                w += 1
                full[k] += 1
            else:
                nonwild[k] += 1
            found = False
            # (throwing the drawn tile back leaves the same dead hand)
            kinds = [j for j in range(34) if nonwild[j] and j != k]
            sh = _discard_shanten(nonwild, w, m, kinds) if kinds else {}
            for j in kinds:
                if sh[j] > 0:
                    continue
                nonwild[j] -= 1
                for i in range(34):
                    if i not in wilds:
                        full[i] = nonwild[i]
                key = tuple(full)
                got = seen.get(key)
                if got is None:
                    got = seen[key] = self.can_win_ready(full, 4 - m)
                nonwild[j] += 1
                if got:
                    found = True
                    break
            if wild:
                w -= 1
                full[k] -= 1
            else:
                nonwild[k] -= 1
            if found:
                good += n
        return good / self.total_live

    def ukeire(self, nonwild: list[int], w: int, m: int, s: int) -> float:
        """Share of live tiles whose draw lowers the shanten ``s`` of this 13-tile hand.

        Suit by suit: the other three suits' table is merged once, then each draw in the suit
        is one :func:`_top` of its new table against it (the suit tables are memoised).
        """
        live = self.live
        wilds = self.wilds
        u = sum(live[k] for k in wilds)  # a wild always helps
        tables = [_suit_table(nonwild, x) for x in range(4)]
        need = 3 * m + 1 - w - s  # real tiles used must exceed this for the shanten to drop
        for x in range(4):
            lo, hi = 9 * x, (9 * x + 9 if x < 3 else 34)
            if not any(live[k] for k in range(lo, hi) if k not in wilds):
                continue
            a, b, c = (tables[i] for i in range(4) if i != x)
            others = _merge(_merge(a, b, m), c, m)
            suit = nonwild[lo:hi]
            for k in range(lo, hi):
                n = live[k]
                if not n or k in wilds:
                    continue
                suit[k - lo] += 1
                if _top(used_table(tuple(suit), x == 3), others, m) > need:
                    u += n
                suit[k - lo] -= 1
        return u / self.total_live

    def shape(self, nonwild: list[int], w: int) -> float:
        b = 0.0
        if w:
            b += FIVE_BONUS * ((nonwild[3] > 0) + (nonwild[4] > 0) + (nonwild[5] > 0))
        for s in range(3):
            d = sum(1 for i in range(9 * s, 9 * s + 9) if nonwild[i])
            if d > 4:
                b += LONG_BONUS * (d - 4) * (2 if s == self.wild_suit else 1)
        return b

    def value(self, nonwild: list[int], w: int, m: int, s: int | None = None) -> float:
        """The value of a 13-tile hand (concealed ``nonwild`` + ``w`` wilds, ``m`` melds still needed)."""
        if s is None:
            s = shanten_fast(nonwild, w, m)
        if s <= 0:
            full = list(nonwild)
            for k in self.wilds:  # the bot never discards or melds a wild: the wilds are the hand's own
                full[k] = self.full[k]
            ev = self.win_ev(full, 4 - m)
            if ev > 0:
                v = READY_BASE + ev
            elif self.revive_weight:
                v = DEAD_READY + self.revive_weight * self.revive(nonwild, w, m)
            else:
                v = DEAD_READY
        else:
            v = -s + UKEIRE * self.ukeire(nonwild, w, m, s)
        return v + self.shape(nonwild, w)


# ---- the decisions -------------------------------------------------------------------------------


def strong_choose(obs: dict[str, Any], legal: list[Action], bot: StrongBot) -> Action:
    """The ``strong`` bot's choice in a Tianjin match; ``bot``: its option ``revive`` and its record of
    hand results (:meth:`~tjmj.bots.strong.StrongBot.track`).  Its rules, in order:

    * **sit (坐庄, R7)**: sit when its score is at least ``SIT_MIN_SCORE`` (−30) and the mean of its
      last 12 hand results is not below −2 (a sit doubles the dealer's payments both ways: worth it
      for a player who wins more than it pays).
    * **pull (拉庄, R7)**: one pull when the dealer did not sit and the same two conditions hold; none
      against a sitting dealer (×4).
    * **win**: always when the wall is short (≤ ``SHORT_WALL`` live tiles) or the fan is above 2.  A
      fan-2 win may be declined only with ≥ ``DECLINE_WALL`` live tiles and a kept hand whose value is
      ≥ ``DECLINE_RATIO`` × 2 + ``READY_BASE`` (2.6: a 混儿吊 whose draws mostly win bigger).  Measured:
      it almost never triggers.
    * **gold kong (金杠)**: always (8 points from each player in classic, R6).
    * **concealed / added kong**: when the hand after it is no further from ready than after the best
      discard.  有杠不急开: with a long wall and the hand one tile from ready, it waits until the hand
      is ready and then declares, so the replacement draw may win (杠开 ×2); otherwise it takes the
      kong points (R6) at once.
    * **discard**: the discard that leaves the 13-tile hand of highest value (module docstring):
      expected fan per draw when ready, the share of draws that revive it when ready only as 提溜,
      −shanten + ukeire otherwise, plus the 捉伍儿/龙 shape terms,
      minus a cost for fresh tiles late in the hand.  Never a wild (小相公) unless all tiles are wild.
    * **claims (R4)**: a discard kong when the hand after it is no further from ready; a pon only when
      the best hand after the pon and its discard is worth at least the hand without it.
    """
    phase = obs.get("phase")
    if phase in ("sit", "pull"):
        bot.track(obs)
        ok = _confident(obs, bot)
        if phase == "sit":
            return _pick(legal, "sit", 1 if ok else 0)
        return _pick(legal, "pull", 1 if ok and not obs["sit"] else 0)
    if phase == "turn":
        return _turn(obs, legal, bot.revive)
    if phase == "claim":
        return _claim(obs, legal, bot.revive)
    return legal[0]


# ---- 坐庄 / 拉庄 ----------------------------------------------------------------------------------


def _confident(obs: dict[str, Any], bot: StrongBot) -> bool:
    if obs["scores"][obs["seat"]] < SIT_MIN_SCORE:
        return False
    r = bot.results
    return not r or sum(r) / len(r) >= -2


# ---- a turn ----------------------------------------------------------------------------------------


def _turn(obs: dict[str, Any], legal: list[Action], revive: float) -> Action:
    discards: list[Action] = []
    kongs: list[Action] = []
    win: Action | None = None
    for a in legal:
        if a.type == "win":
            win = a
        elif a.type == "discard":
            discards.append(a)
        elif a.type in ("ankong", "added_kong"):
            kongs.append(a)
    ctx = _Ctx(obs, revive)
    for a in kongs:
        if a.type == "ankong" and a.tile in ctx.wilds:
            return a  # 金杠
    if win is not None and not _may_decline(obs, ctx):
        return win
    nonwild, w, m = ctx.nonwild, ctx.w, ctx.m
    candidates = [int(a.tile) for a in discards if a.tile not in ctx.wilds]  # type: ignore[arg-type]  # a discard always names its tile
    if not candidates:  # every tile is wild: a wild discard is forced
        return win or (discards[0] if discards else legal[0])
    best, best_v, sh = _best_discard(ctx, nonwild, w, m, candidates)
    if win is not None and best_v < DECLINE_RATIO * 2 + READY_BASE:
        return win
    for a in kongs:
        after = kong_shanten(nonwild, w, m, a, sh)
        if after > sh[best]:
            continue
        # 有杠不急开: one from ready with a long wall: hold the kong until the hand is ready
        if after == 1 and ctx.wall_left > KONG_HOLD_WALL:
            continue
        return a
    return next(a for a in discards if a.tile == best)


def _may_decline(obs: dict[str, Any], ctx: _Ctx) -> bool:
    """Whether a legal win is small enough, and the wall long enough, to consider waiting."""
    if ctx.wall_left < DECLINE_WALL or ctx.scorer is None or obs.get("drawn") is None:
        return False
    win = _KIND[obs["drawn"]]
    r = ctx.scorer.evaluate(ctx.full, win, ctx.n_melds, ctx.gold, False)
    return r is not None and r[0] <= 2


def _best_discard(
    ctx: _Ctx, nonwild: list[int], w: int, m: int, candidates: list[int]
) -> tuple[int, float, dict[int, int]]:
    sh = _discard_shanten(nonwild, w, m, candidates)
    low = min(sh.values())
    late = ctx.wall_left <= SHORT_WALL
    best, best_v, best_key = -1, float("-inf"), None
    for k in candidates:
        s = sh[k]
        if s > low + (1 if low == 0 else 0):
            continue
        nonwild[k] -= 1
        v = ctx.value(nonwild, w, m, s)
        nonwild[k] += 1
        if late and ctx.visible[k] <= 1:
            v -= FRESH_COST
        key = (-v, _discard_key(nonwild, k))
        if best_key is None or key < best_key:
            best, best_v, best_key = k, v, key
    return best, best_v, sh


# ---- claims ----------------------------------------------------------------------------------------


def _claim(obs: dict[str, Any], legal: list[Action], revive: float) -> Action:
    by_type = {a.type: a for a in legal}
    tile = next((a.tile for a in legal if a.tile is not None), None)
    if tile is None:
        return by_type.get("pass", legal[0])
    k = int(tile)
    ctx = _Ctx(obs, revive)
    nonwild, w, m = ctx.nonwild, ctx.w, ctx.m
    now_s = shanten_fast(nonwild, w, m)
    if "kong" in by_type:
        nonwild[k] -= 3
        after = shanten_fast(nonwild, w, m - 1)
        nonwild[k] += 3
        if after <= now_s:
            return by_type["kong"]
    if "pon" in by_type:
        now_v = ctx.value(nonwild, w, m, now_s)
        nonwild[k] -= 2
        kinds = [j for j in range(34) if nonwild[j]]
        if kinds:
            _, after_v, _ = _best_discard(ctx, nonwild, w, m - 1, kinds)
        else:
            after_v = float("-inf")
        nonwild[k] += 2
        if after_v >= now_v:
            return by_type["pon"]
    return by_type.get("pass", legal[-1])
