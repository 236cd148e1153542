"""The ``strong`` bot in MCR (docs/rules/MCR.md M1–M4): it plays for a *legal* win, one of 8 fan.

The baseline (:mod:`tjmj.families.mcr.bots.baseline`) counts a hand ready whatever its fan; most of
its ready hands with one to three claimed melds cannot win (measured: 8–15 % of their waits reach 8
fan), and it wins mostly by claiming a fourth meld (全求人).  This bot puts one figure on each choice:
the points a hand is expected to bring, less what the tile let go is expected to cost.

**A ready hand** is valued exactly: every tile that completes it is scored by
:func:`~tjmj.families.mcr.score.score_mcr` (memoised) self-drawn and on a discard, with the table's
和绝张; only waits of at least ``min_fan`` count (M2).  Per round the hand wins by its own draw with
chance ``Σ live / unseen`` over the legal self-drawn waits and on the others' three discards with
``DISCARD_RATE ×`` that over the legal discard waits; the chance to win within the rounds left,
while another player ends the hand first — a hazard read from their discards and melds, growing by
``HAZARD_RAMP`` each round — times the mean payment (M4: a self-draw 3 × (8 + fan), a discard win
8 + fan + 16, flowers added).  A ready hand without a legal wait keeps ``DEAD_READY`` of its value
one step back (it may change its wait).

The hazard's growth is the constant that matters most: the baselines end nine hands in ten, most
of them fast (全求人), and a bot that waits for the big patterns is overtaken.  Measured against
three baselines (2,000 hands, seed 11): a growth of 0.01 a round scored +5.3 points a hand, 0.03
+6.5, 0.045 +8.3, 0.08 +10.0, 0.12 +9.2.

**A hand not ready** (shanten ``s`` over every shape): the chance to make ``s`` steps and win in
time (the share of live tiles that lower the shanten, then measured rates) times the chance its win
reaches 8 fan times the payment.  That chance comes from the **routes** the hand can still take,
each a fan pattern and its distance (the exchanges to a ready hand of that pattern):

* 七对 (24), 十三幺 (88), 全不靠 (12), 组合龙 (12): the shapes' own shanten;
* 清龙 16, 花龙 8, 三色三同顺 8, 三色三步高 6, 一色三步高 16, 一色三同顺 24, 三色三节高 8: the
  three chows (pungs) of each instance are required, the rest one meld and a pair (the claimed melds
  fitted first);
* 清一色 24, 混一色 6: the shanten of the tiles of one suit (and the honours);
* 碰碰和 6 (pungs only), 五门齐 6 (one group of each suit, a wind and a dragon);
* the hand as it is (no pattern: concealed hands measured legal 55 % of the time, 门前清/不求人
  included) and, with claimed melds, 全求人 (four claimed melds and a single wait: 6 fan, legal
  85 % of the time).

A route's fan, plus the fans the hand already holds (箭刻, 圈风刻, 门风刻 pungs; 门前清 while
concealed), gives the chance it reaches 8 (``P8``); a route further than the hand's shanten counts
``ROUTE_DECAY`` per extra step.  The routes are independent chances (``1 − Π(1 − p)``).

**Defence**: an opponent holds a legal ready hand with a chance read from its discards and melds
(measured on baseline self-play: ``READY``), and waits on a kind with a chance by kind class and
copies face up (``DANGER``); a kind discarded after its last discard (it passed it) is safe against
it.  Dealing in costs ``DEAL_IN_COST`` beyond what the hand costs anyway.

Decisions: a win whenever ``win`` is legal; a discard of highest ``(1 − p_in) · value − p_in · cost``
(the value of discards further than one step beyond the least shanten is the best kept hand's ×
``STEP_BACK`` a step: they are there to fold); a chi, pon or kong only when the hand after it (and
its best discard) is worth ``CLAIM_MARGIN`` times the hand without it — a claim that ends 门前清 or
leaves no route to 8 fan is passed (measured: 1.0 scored −1.1 points a hand against 1.15, 1.4 +0.8,
higher no more); a concealed or added kong when the hand after it is worth at least the best discard
(a four kept as two pairs of 七对 is worth more).  Deterministic (the rng is never used); a decision
takes a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations
from typing import Any

from ....bots.common import _KIND, _discard_key, _merge, _suit_table, _top, shanten_fast
from ....game import Action
from ....hand import used_table
from ....outlook import win_chance
from ....tiles import TILES
from ..rules import McrRules
from ..score import McrMeld, is_complete_mcr
from .baseline import (
    KNITTED,
    ORPHANS,
    McrView,
    _honors_knitted,
    _knitted_straight,
    _orphans,
    _pairs,
    after_claim,
    claim_meld,
    discard_shanten,
    mcr_shanten,
)

__all__ = ["strong_choose", "READY", "DANGER", "ROUTES"]

# ---- the model's constants ------------------------------------------------------------------------

DISCARD_RATE = 0.45  # per other player's discard, the chance it is a given live tile, relative to uniform
READY_WIDTH = 4.0  # live legal winning tiles of a typical ready hand (for hands not ready yet)
OPP_WIN_RATE = 0.25  # per round, the chance a legally ready opponent wins
HAZARD_RAMP = 0.08  # the others' chance to end the hand grows by this much each round (tuned: module docstring)
# the usual share of live tiles that improve a hand, by shanten (the steps after the first)
LATER_STEPS = (0.0, 0.16, 0.27, 0.42, 0.58, 0.70, 0.80)
ROUTE_DECAY = 0.3  # a route one exchange further than the hand's shanten keeps this share of its chance
P_PLAIN_CONCEALED = 0.55  # a concealed ready hand's waits reaching 8 fan (measured, baseline self-play)
P_PLAIN_CLAIMED = 0.12  # … with one to three claimed melds
P_MELDED = 0.85  # … with four claimed melds (全求人 and what comes with it)
# 全求人 as a route, by claimed melds: the chance the hand gets its other melds by claims
MELDED_ROUTE = (0.0, 0.15, 0.3, 0.5, 1.0)
# P(a win of this many sure fan reaches 8): the small fans (一般高, 缺一门, 边嵌单钓, 自摸 …) add some
P8 = (0.1, 0.12, 0.15, 0.2, 0.28, 0.38, 0.5, 0.7, 1.0)
CLAIM_MARGIN = 1.4  # a claim must make the hand worth this many times the hand without it (tuned)
STEP_BACK = 0.45  # a discard that takes the hand a further step from ready keeps this share of its value
DEAL_IN_COST = 16.0  # what dealing in costs beyond what the hand costs anyway (8 + fan against 8)
DEAD_READY = 0.4  # a ready hand with no legal wait: this share of its value one step back
BASIC = 8  # M4

# P(an opponent holds a legal ready hand) by its number of discards (0…18, more = the last), without /
# with melds: measured on 4 × baseline self-play (25 matches of 16 hands)
READY = (
    (0.0, 0.0, 0.0, 0.002, 0.008, 0.016, 0.026, 0.036, 0.04, 0.06, 0.10, 0.146, 0.196, 0.248, 0.28, 0.29,
     0.29, 0.29, 0.29),
    (0.0, 0.0, 0.002, 0.003, 0.004, 0.009, 0.024, 0.036, 0.061, 0.076, 0.099, 0.13, 0.156, 0.183, 0.23, 0.259,
     0.308, 0.327, 0.446),
)
# P(a legally ready opponent wins on this kind), by class and copies face up (0, 1, 2, 3), measured as READY
DANGER = {"mid": (0.076, 0.069, 0.028, 0.007), "28": (0.06, 0.067, 0.036, 0.014),
          "term": (0.027, 0.025, 0.006, 0.014), "honour": (0.016, 0.004, 0.003, 0.001)}
OWN_DISCARD = 0.5  # the factor for a kind the opponent discarded itself (MCR has no furiten: only less likely)


def _class(k: int) -> str:
    if k >= 27:
        return "honour"
    n = k % 9
    return "term" if n in (0, 8) else "28" if n in (1, 7) else "mid"


_CLASS = tuple(_class(k) for k in range(34))
DRAGONS = (31, 32, 33)


# ---- the routes -----------------------------------------------------------------------------------

# a template route: three groups ("c": a chow from its lowest tile, "p": a pung) that must be there
_Group = tuple[str, int]


class Route:
    """A fan pattern of three fixed groups (chows or pungs) and its value."""

    __slots__ = ("name", "fan", "groups", "need")

    def __init__(self, name: str, fan: int, groups: tuple[_Group, ...]) -> None:
        self.name = name
        self.fan = fan
        self.groups = groups
        need: dict[int, int] = {}
        for t, k in groups:
            for j in ((k, k + 1, k + 2) if t == "c" else (k, k, k)):
                need[j] = need.get(j, 0) + 1
        self.need = tuple(need.items())


def _routes() -> tuple[Route, ...]:
    out: list[Route] = []
    for s in range(3):
        out.append(Route("pure_straight", 16, (("c", 9 * s), ("c", 9 * s + 3), ("c", 9 * s + 6))))
    for a, b, c in permutations(range(3)):
        out.append(Route("mixed_straight", 8, (("c", 9 * a), ("c", 9 * b + 3), ("c", 9 * c + 6))))
    for n in range(7):
        out.append(Route("mixed_triple_chow", 8, (("c", n), ("c", 9 + n), ("c", 18 + n))))
    for n in range(5):
        for a, b, c in permutations(range(3)):
            out.append(Route("mixed_shifted_chows", 6, (("c", 9 * a + n), ("c", 9 * b + n + 1), ("c", 9 * c + n + 2))))
    for s in range(3):
        for step in (1, 2):
            for n in range(7 - 2 * step):
                out.append(Route("pure_shifted_chows", 16,
                                 (("c", 9 * s + n), ("c", 9 * s + n + step), ("c", 9 * s + n + 2 * step))))
        for n in range(7):
            out.append(Route("pure_triple_chow", 24, (("c", 9 * s + n),) * 3))
    for n in range(7):
        for a, b, c in permutations(range(3)):
            out.append(Route("mixed_shifted_pungs", 8, (("p", 9 * a + n), ("p", 9 * b + n + 1), ("p", 9 * c + n + 2))))
    return tuple(out)


ROUTES = _routes()


def _fixed_groups(melds: Sequence[McrMeld]) -> list[_Group]:
    return [("c", int(m.tile)) if m.type == "chi" else ("p", int(m.tile)) for m in melds]


_FAMILIES: dict[str, list[int]] = {}
for _i, _r in enumerate(ROUTES):
    _FAMILIES.setdefault(_r.name, []).append(_i)
FAMILIES: tuple[tuple[str, int, tuple[int, ...]], ...] = tuple(
    (name, ROUTES[ids[0]].fan, tuple(ids)) for name, ids in _FAMILIES.items())


class _Templates:
    """The route instances as they stand beside some claimed melds: per instance the tiles still
    needed (the melds that fit it held), how many melds fall outside it (None: more than one, it
    cannot be made), and per kind the instances that need it."""

    __slots__ = ("need", "total", "free", "by_kind")

    def __init__(self, fixed: tuple[_Group, ...]) -> None:
        self.need: list[tuple[tuple[int, int], ...]] = []
        self.total: list[int] = []
        self.free: list[int | None] = []
        by_kind: list[list[tuple[int, int]]] = [[] for _ in range(34)]
        for i, rt in enumerate(ROUTES):
            groups = list(rt.groups)
            free = 0
            for g in fixed:
                if g in groups:
                    groups.remove(g)
                else:
                    free += 1
            acc: dict[int, int] = {}
            for t, k in groups:
                for j in ((k, k + 1, k + 2) if t == "c" else (k, k, k)):
                    acc[j] = acc.get(j, 0) + 1
            need = tuple(acc.items())
            self.need.append(need)
            self.total.append(sum(acc.values()))
            self.free.append(free if free <= 1 else None)
            if free <= 1:
                for k, n in need:
                    by_kind[k].append((i, n))
        self.by_kind = tuple(tuple(x) for x in by_kind)


@lru_cache(maxsize=32)  # ~90 kB an entry (one per set of fixed melds): ~3 MB full
def _templates(fixed: tuple[_Group, ...]) -> _Templates:
    return _Templates(fixed)


def template_distance(c: list[int], fixed: list[_Group], route: Route) -> int | None:
    """Exchanges to a ready hand holding the route's three groups (the claimed melds that fit them
    count as held; one that does not is the fourth meld); None when the melds rule it out."""
    tp = _templates(tuple(fixed))
    i = ROUTES.index(route)
    free = tp.free[i]
    if free is None:
        return None
    return _with_rest(c, tp.need[i], free)


def _with_rest(c: list[int], need: tuple[tuple[int, int], ...], free: int) -> int:
    """The missing tiles of ``need`` plus the shanten of the rest as one meld (or none) and a pair."""
    missing = 0
    taken = []
    for k, n in need:
        h = c[k] if c[k] < n else n
        missing += n - h
        if h:
            taken.append((k, h))
            c[k] -= h
    d = missing + shanten_fast(c, 0, 1 - free)
    for k, h in taken:
        c[k] += h
    return d


@lru_cache(maxsize=1 << 12)  # ~1 kB an entry: ~4 MB full
def route_distances(c13: tuple[int, ...], melds: tuple[McrMeld, ...], s: int) -> tuple[tuple[str, int, int], ...]:
    """(route, its own fan, distance) of every route of the module docstring within ``s + 2`` of
    the hand (``s`` its shanten): the least distance over each pattern's instances."""
    c = list(c13)
    n_melds = len(melds)
    m = 4 - n_melds
    fixed = _fixed_groups(melds)
    bound = s + 3
    out: list[tuple[str, int, int]] = []

    def put(name: str, fan: int, d: int | None) -> None:
        if d is not None and d < bound:
            out.append((name, fan, d))

    if n_melds == 0:
        put("seven_pairs", 24, _pairs(c))
        put("thirteen_orphans", 88, _orphans(c))
        put("honors_and_knitted", 12, _honors_knitted(c))
    if n_melds <= 1:
        put("knitted_straight", 12, _knitted_straight(c, n_melds, bound))
    for x in range(3):
        lo = 9 * x
        if all(lo <= ml.tile < lo + 9 for ml in melds):
            off = sum(c[k] for k in range(34) if not lo <= k < lo + 9)
            if off < bound:
                put("full_flush", 24, shanten_fast([c[k] if lo <= k < lo + 9 else 0 for k in range(34)], 0, m))
        if all(lo <= ml.tile < lo + 9 or ml.tile >= 27 for ml in melds):
            off = sum(c[k] for k in range(27) if not lo <= k < lo + 9)
            if off < bound:
                put("half_flush", 6, shanten_fast([c[k] if lo <= k < lo + 9 or k >= 27 else 0 for k in range(34)], 0, m))
    put("all_pungs", 6, pungs_distance(c, fixed, m))
    put("all_types", 6, five_types_distance(c, fixed))
    tp = _templates(tuple(fixed))
    held = [0] * len(ROUTES)
    by_kind = tp.by_kind
    for k in range(34):
        ck = c[k]
        if ck:
            for i, n in by_kind[k]:
                held[i] += ck if ck < n else n
    total, free = tp.total, tp.free
    for name, fan, ids in FAMILIES:
        cands = []
        for i in ids:
            missing = total[i] - held[i]
            if missing - 1 < bound and free[i] is not None:
                cands.append((missing, i))
        if not cands:
            continue
        cands.sort()
        best = bound
        for missing, i in cands:
            if missing - 1 >= best:
                break
            d = _with_rest(c, tp.need[i], free[i])  # type: ignore[arg-type]  # None was left out
            if d < best:
                best = d
        put(name, fan, best)
    return tuple(out)


def pungs_distance(c: Sequence[int], fixed: list[_Group], m: int) -> int | None:
    """碰碰和: exchanges to a ready hand of pungs only (None with a claimed chow)."""
    if any(t == "c" for t, _ in fixed):
        return None
    trip = pair = single = 0
    for n in c:
        if n >= 3:
            trip += 1
            if n == 4:
                single += 1
        elif n == 2:
            pair += 1
        elif n == 1:
            single += 1
    t = trip if trip < m else m
    pair += trip - t
    slots = m + 1 - t
    p = pair if pair < slots else slots
    slots -= p
    used = 3 * t + 2 * p + (single if single < slots else slots)
    return 3 * m + 1 - used


def _category(k: int) -> int:
    return k // 9 if k < 27 else 3 if k < 31 else 4


def five_types_distance(c: Sequence[int], fixed: list[_Group]) -> int | None:
    """五门齐: one group of each suit, a wind and a dragon (four melds and the pair)."""
    taken = [False] * 5
    for _t, k in fixed:
        cat = _category(k)
        if taken[cat]:
            return None
        taken[cat] = True
    meld_cost = [0] * 5
    pair_cost = [0] * 5
    for cat in range(5):
        if taken[cat]:
            continue
        if cat < 3:
            lo = 9 * cat
            best = 0
            most = 0
            for k in range(lo, lo + 9):
                n = c[k]
                if n > most:
                    most = n
                if k <= lo + 6:
                    h = (c[k] > 0) + (c[k + 1] > 0) + (c[k + 2] > 0)
                    if h > best:
                        best = h
            best = max(best, min(most, 3))
        else:
            ks = range(27, 31) if cat == 3 else DRAGONS
            most = max(c[k] for k in ks)
            best = min(most, 3)
        meld_cost[cat] = 3 - best
        pair_cost[cat] = 2 - min(most, 2)
    free = [cat for cat in range(5) if not taken[cat]]
    total = sum(meld_cost[cat] for cat in free)
    best_total = min(total - meld_cost[p] + pair_cost[p] for p in free)
    return best_total - 1


# ---- one decision's figures ------------------------------------------------------------------------


class _Model:
    """The bot's view and the table: live tiles, rounds left, the others' hazard, who may be ready."""

    def __init__(self, v: McrView) -> None:
        self.v = v
        obs = v.obs
        seats = obs["seats"]
        me = v.seat
        self.L = v.total_live
        self.rounds = max(0, (v.wall_left + 3) // 4)
        self.opp: list[tuple[float, set[int], set[int]]] = []  # P(ready), kinds it discarded, kinds it passed
        hazard = 0.0
        n = len(seats)
        for j in range(n):
            if j == me:
                continue
            st = seats[j]
            nd = len(st["discards"])
            p = READY[1 if st["melds"] else 0][min(nd, 18)]
            own = {_KIND[t] for t in st["discards"]}
            passed: set[int] = set()
            x = (j + 1) % n
            while x != me:  # discarded after j's last discard: j passed it (a bot wins when it can)
                d = seats[x]["discards"]
                if d:
                    passed.add(_KIND[d[-1]])
                x = (x + 1) % n
            w = obs.get("window")
            if w is not None and obs.get("phase") == "claim" and w.get("from") != j:
                passed.add(_KIND[w["tile"]])
            self.opp.append((p, own, passed))
            hazard += p * OPP_WIN_RATE
        self.hazard = round(min(0.6, hazard), 3)
        self.flowers = v.flowers
        # honour pungs that score: 箭刻 (each dragon), 门风刻 and 圈风刻 (the same wind counts twice)
        self.honour_fan = [0] * 34
        for k in DRAGONS:
            self.honour_fan[k] = 2
        self.honour_fan[27 + v.seat_wind] += 2
        self.honour_fan[27 + v.prevalent] += 2

    # ---- defence -------------------------------------------------------------------------------

    def danger(self, k: int) -> float:
        """The chance that discarding ``k`` deals in."""
        vis = self.v.table[k]  # copies face up (as measured; the bot's own copies are not counted)
        vi = vis if vis < 3 else 3
        d0 = DANGER[_CLASS[k]][vi]
        p = 0.0
        for p_ready, own, passed in self.opp:
            if not p_ready or k in passed:
                continue
            p += p_ready * d0 * (OWN_DISCARD if k in own else 1.0)
        return p if p < 0.9 else 0.9

    # ---- offence: a ready hand ---------------------------------------------------------------------

    def ready_stats(self, c13: list[int], melds: tuple[McrMeld, ...]) -> tuple[float, float]:
        """(the chance per round that a ready hand wins legally, its mean payment): its own draw over
        the legal self-drawn waits, the others' three discards over the legal discard waits."""
        v = self.v
        live = v.live
        n_melds = len(melds)
        minf = v.min_fan
        p_self = pay_self = p_disc = pay_disc = 0.0
        fl = self.flowers
        held = _meld_tiles(melds)
        for k in _waits(tuple(c13), n_melds):
            n = live[k]
            room = 4 - c13[k] - held[k]  # a hypothetical draw may have taken the last copies
            if n > room:
                n = room
            if n <= 0:
                continue
            fs = v.fan(c13, k, melds, True)
            if fs >= minf:
                p_self += n
                pay_self += n * 3 * (BASIC + fs + fl)
            fd = v.fan(c13, k, melds, False)
            if fd >= minf:
                p_disc += n
                pay_disc += n * (3 * BASIC + fd + fl)
        if not p_self and not p_disc:
            return 0.0, 0.0
        w_disc = 3 * DISCARD_RATE * p_disc
        q = (p_self + w_disc) / self.L
        return (q if q < 0.95 else 0.95), (pay_self + 3 * DISCARD_RATE * pay_disc) / (p_self + w_disc)

    def ready_value(self, c13: list[int], melds: tuple[McrMeld, ...]) -> float:
        """Expected points of a ready hand: its legal waits, scored (module docstring)."""
        q, pay = self.ready_stats(c13, melds)
        if not q:
            return 0.0
        return win_chance(0, 0.0, round(q, 3), self.rounds, self.hazard, (), HAZARD_RAMP) * pay

    # ---- offence: a hand not ready -------------------------------------------------------------------

    def sure_fan(self, c: Sequence[int], melds: Sequence[McrMeld], concealed: bool) -> float:
        """Fans the hand holds already or nearly: honour pungs (a pair counts a quarter), 门前清."""
        f = 2.0 if concealed else 0.0
        hf = self.honour_fan
        for k in range(27, 34):
            if hf[k]:
                n = c[k]
                if n >= 3:
                    f += hf[k]
                elif n == 2:
                    f += hf[k] * 0.25
        for ml in melds:
            if ml.type != "chi" and ml.tile >= 27:
                f += hf[ml.tile]
        return f

    def legal_chance(self, c: list[int], melds: tuple[McrMeld, ...], s: int) -> tuple[float, float]:
        """(the chance a win of this hand reaches 8 fan, its mean fan), from its routes."""
        claimed = sum(1 for ml in melds if ml.type != "ankong")
        concealed = claimed == 0
        sure = self.sure_fan(c, melds, concealed)
        fail = 1.0
        fan_w = 0.0
        p_w = 0.0

        def add(p: float, fan: float) -> None:
            nonlocal fail, fan_w, p_w
            fail *= 1.0 - p
            fan_w += p * fan
            p_w += p

        # the hand as it is
        if concealed:
            add(P_PLAIN_CONCEALED, 10.0 + sure)
        else:
            add(P_PLAIN_CLAIMED, 8.0 + sure)
            if MELDED_ROUTE[claimed]:
                add(P_MELDED * MELDED_ROUTE[claimed], 9.0 + sure)
        for name, fan, d in route_distances(tuple(c), melds, s):
            extra = d - s
            total = fan + sure - (2 if name == "seven_pairs" else 0)  # 七对 excludes 门前清
            p8 = P8[int(total)] if total < 8 else 1.0
            add(p8 * (ROUTE_DECAY ** extra if extra > 0 else 1.0), max(8.0, total))
        p = 1.0 - fail
        return p, (fan_w / p_w if p_w else 8.0)

    def improving(self, c: list[int], n_melds: int, s: int) -> list[int]:
        """The live kinds whose draw lowers the shanten ``s`` (every shape) of this hand: the standard
        shape by the suit tables (as the other strong bots), the special shapes by their own counts."""
        live = self.v.live
        m = 4 - n_melds
        helps = [False] * 34
        if shanten_fast(c, 0, m) == s:
            tables = [_suit_table(c, x) for x in range(4)]
            need = 3 * m + 1 - s
            for x in range(4):
                lo, hi = 9 * x, (9 * x + 9 if x < 3 else 34)
                if not any(live[k] for k in range(lo, hi)):
                    continue
                a, b, cc = (tables[i] for i in range(4) if i != x)
                others = _merge(_merge(a, b, m), cc, m)
                suit = c[lo:hi]
                for k in range(lo, hi):
                    if not live[k]:
                        continue
                    suit[k - lo] += 1
                    if _top(used_table(tuple(suit), x == 3), others, m) > need:
                        helps[k] = True
                    suit[k - lo] -= 1
        if n_melds == 0:
            if _pairs(c) == s:
                for k in range(34):
                    if c[k] & 1:
                        helps[k] = True
            if _orphans(c) == s:
                pair = any(c[k] >= 2 for k in ORPHANS)
                for k in ORPHANS:
                    if not c[k] or not pair:
                        helps[k] = True
            if _honors_knitted(c) == s:
                for k in range(27, 34):
                    if not c[k]:
                        helps[k] = True
                for seq in KNITTED:
                    for k in seq:
                        if not c[k]:
                            helps[k] = True
        if n_melds <= 1 and _knitted_straight(c, n_melds, s + 1) == s:
            for seq in KNITTED:
                for k in seq:
                    if not c[k]:
                        helps[k] = True
        return [k for k in range(34) if helps[k] and live[k]]

    def hand_value(self, c: list[int], melds: tuple[McrMeld, ...], s: int | None = None) -> float:
        """Expected points of a 13-tile-equivalent hand (concealed counts ``c`` beside ``melds``):
        exact when ready (a ready hand without a legal wait keeps ``DEAD_READY`` of what it would be
        worth one step back), else by its routes."""
        n_melds = len(melds)
        if s is None:
            s = mcr_shanten(c, n_melds)
        if s <= 0:
            exact = self.ready_value(c, melds)
            fallback = DEAD_READY * self.route_value(c, melds, 1, LATER_STEPS[1] * self.L)
            return exact if exact > fallback else fallback
        kinds = self.improving(c, n_melds, s)
        live = self.v.live
        return self.route_value(c, melds, s, sum(live[k] for k in kinds))

    def route_value(self, c: list[int], melds: tuple[McrMeld, ...], s: int, u: float) -> float:
        """Expected points of a hand ``s`` exchanges from ready with ``u`` live improving tiles: the
        chance to get ready and win in time × the chance its routes reach 8 fan × the payment."""
        p_legal, fan = self.legal_chance(c, melds, s)
        if p_legal <= 0.0:
            return 0.0
        L = self.L
        q_win = min(0.95, READY_WIDTH / L * (1 + 3 * DISCARD_RATE))
        chance = win_chance(min(s, 6), round(min(0.95, u / L), 3), round(q_win, 3), self.rounds, self.hazard,
                            LATER_STEPS, HAZARD_RAMP)
        pay = 3 * BASIC + fan + self.flowers + 2
        return chance * p_legal * pay

    # ---- the best discard ---------------------------------------------------------------------------

    def best_discard(self, c: list[int], melds: tuple[McrMeld, ...], candidates: list[int]) -> tuple[int, float]:
        """The discard of highest ``(1 − p_in) · value − p_in · DEAL_IN_COST``, and that figure."""
        n_melds = len(melds)
        sh = discard_shanten(c, n_melds, candidates)
        low = min(sh.values())
        offence: dict[int, float] = {}
        for k in candidates:
            s = sh[k]
            if s > low + 1:
                continue
            c[k] -= 1
            offence[k] = self.hand_value(c, melds, s)
            c[k] += 1
        kept = max(offence.values()) if offence else 0.0
        best, best_v, best_key = candidates[0], float("-inf"), None
        for k in candidates:
            ev = offence[k] if k in offence else kept * STEP_BACK ** (sh[k] - low)
            p = self.danger(k)
            val = (1 - p) * ev - p * DEAL_IN_COST
            key = (-val, sh[k], _discard_key(c, k))
            if best_key is None or key < best_key:
                best, best_v, best_key = k, val, key
        return best, best_v


@lru_cache(maxsize=1 << 12)  # ~0.5 kB an entry: ~2 MB full
def _waits(c13: tuple[int, ...], n_melds: int) -> tuple[int, ...]:
    """The kinds that complete a 13-tile-equivalent hand (any shape, fan not considered)."""
    c = list(c13)
    out = []
    for k in range(34):
        if c[k] >= 4:
            continue
        c[k] += 1
        if is_complete_mcr(c, n_melds):
            out.append(k)
        c[k] -= 1
    return tuple(out)


@lru_cache(maxsize=1024)
def _meld_tiles(melds: tuple[McrMeld, ...]) -> tuple[int, ...]:
    """Copies of each kind in the melds."""
    out = [0] * 34
    for ml in melds:
        k = int(ml.tile)
        if ml.type == "chi":
            out[k] += 1
            out[k + 1] += 1
            out[k + 2] += 1
        else:
            out[k] += 3 if ml.type == "pon" else 4
    return tuple(out)


# ---- the decisions ----------------------------------------------------------------------------------


def strong_choose(obs: dict[str, Any], legal: list[Action], rules: McrRules) -> Action:
    """The ``strong`` bot's choice in an MCR match (see the module docstring)."""
    for a in legal:
        if a.type == "win":
            return a  # the engine offers only legal wins (M2): a win now beats any hand kept
    phase = obs.get("phase")
    if phase == "turn":
        return _turn(obs, legal, rules)
    return _claim(obs, legal, rules)


def _turn(obs: dict[str, Any], legal: list[Action], rules: McrRules) -> Action:
    discards: list[Action] = []
    kongs: list[Action] = []
    for a in legal:
        if a.type == "discard":
            discards.append(a)
        elif a.type in ("ankong", "added_kong"):
            kongs.append(a)
    if not discards:
        return legal[0]
    v = McrView(obs, rules)
    model = _Model(v)
    c = v.counts
    melds = v.mcr_melds
    candidates = [int(a.tile) for a in discards]  # type: ignore[arg-type]  # a discard names its tile
    best, best_v = model.best_discard(c, melds, candidates)
    for a in kongs:
        assert a.tile is not None
        k = int(a.tile)
        if a.type == "ankong":
            c[k] -= 4
            after_melds = (*melds, McrMeld(type="ankong", tile=TILES[k]))
            value = model.hand_value(c, after_melds)
            c[k] += 4
        else:  # an added kong: the tile joins its pon; it may be robbed
            c[k] -= 1
            after_melds = tuple(McrMeld(type="added_kong", tile=ml.tile) if ml.type == "pon" and ml.tile == k
                                else ml for ml in melds)
            value = model.hand_value(c, after_melds) - model.danger(k) * (DEAL_IN_COST + 8)
            c[k] += 1
        if value >= best_v:
            return a
    return next(a for a in discards if a.tile == best)


def _claim(obs: dict[str, Any], legal: list[Action], rules: McrRules) -> Action:
    pass_ = next((a for a in legal if a.type == "pass"), legal[-1])
    claims = [a for a in legal if a.type in ("chi", "pon", "kong")]
    window = obs.get("window")
    if not claims or window is None:
        return pass_
    tile = _KIND[window["tile"]]
    v = McrView(obs, rules)
    model = _Model(v)
    keep = model.hand_value(v.counts, v.mcr_melds)
    best, best_v = pass_, keep * CLAIM_MARGIN
    for a in claims:
        c = after_claim(v.counts, a, tile)
        if c is None:
            continue
        melds = (*v.mcr_melds, claim_meld(a, tile))
        if a.type == "kong":
            value = model.hand_value(c, melds)  # the replacement draw: as good as the next draw
        else:
            kinds = [k for k in range(34) if c[k]]
            if not kinds:
                continue
            _, value = model.best_discard(c, melds, kinds)
        if value > best_v:
            best, best_v = a, value
    return best
