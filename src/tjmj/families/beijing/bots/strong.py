"""The ``strong`` bot in Beijing (docs/rules/BEIJING.md B1–B8): every choice by expected points.

The Tianjin strong bot (:mod:`tjmj.families.tianjin.bots.strong`) weighs fan; Beijing pays a value
(B5) that multiplies (version B: 门清 ×2, 自摸 ×2, 无混儿 ×2 …) or adds up (version A), a discard win that
the discarder pays double (B) or alone (A, 包三家), and a claim that costs 门清 and, under version B,
every discard win.  So this bot puts one figure on each choice: the points it expects from the hand
it keeps, less the points it expects to pay for the tile it lets go.

**Offence**, the expected points of a 13-tile hand with ``R`` own draws left (``wall_left / 4``):

* ready: every winning kind ``k`` is scored (:class:`~tjmj.families.beijing.score.BeijingScorer`)
  as a self-draw (``3 × value``, the three payers) and, when the hand may win on a discard (not
  after a claim under ``claimed_self_draw_only``), as a discard win (``4 × value`` in B: the
  discarder pays ×2; ``3 × value`` in A); per round the hand wins by its own draw with chance
  ``Σ live(k) / live`` and on the others' three discards with ``DISCARD_RATE ×`` that; the
  chance to win within ``R`` rounds, while each round another player ends the hand with the
  hazard ``h``, times the mean payment;
* not ready (shanten ``s``): the chance to make ``s`` steps (each draw improves with the share of
  live tiles that lower the shanten, ukeire) and then win (``READY_WIDTH`` live winning tiles)
  within ``R`` rounds, by a small dynamic programme, times the value the hand can still reach:
  门清 ×2 while no claim is made, 庄 ×2, 七对子 ×2 on that route, 无混儿 ×2 without a wild,
  清一色 / 混一色 when every tile is of one suit.

**Defence**: an opponent is ready with a chance read from its number of discards (measured on
self-play, ``READY_B`` / ``READY_A``), can win on a discard unless it claimed (B3) or declared
混儿悠, and waits on a kind with a chance by kind (middle, 2/8, terminal, honour) and by how many
copies are visible (``DANGER_B`` / ``DANGER_A``); a tile it discarded itself is much safer, one
discarded after its last discard is safe (it passed it, or it cannot win on it), and a wild
completes every ready hand (B2).  Dealing in costs the opponent's usual discard win (×2 when it
is the dealer) and the hand's own prospects.

Decisions: a discard maximises ``(1 − p_deal_in) · offence − p_deal_in · payment`` (so a poor
hand late in the wall folds to safe tiles); a chi, pon or discard kong is taken only when the
hand after it (and its best discard) is worth more than the hand without it; a discard win is
taken unless waiting for the self-draw is worth ``WAIT_RATIO`` times more (it locks discard wins,
过手); 混儿悠 is declared when its expected value (the next draw with 无混儿, if nobody wins first,
else paying double) beats the win now; 混杠 (a flat 40) unless the win now is worth more; 烧庄
(B6): a non-dealer follows the dealer's first discard when the others before it did.
Deterministic (the rng is never used); a decision takes a few milliseconds.
"""

from __future__ import annotations

from typing import Any

from ....bots.common import (
    _KIND,
    _discard_key,
    _merge,
    _suit_table,
    _top,
    discard_shanten,
    pairs_shanten,
    shanten13,
    shanten_fast,
)
from ....game import Action
from ....hand import used_table
from ....meld import Meld, MeldType
from ....outlook import win_chance
from ....tiles import TILES
from ..elements import WinContext
from ..rules import BeijingRules
from .baseline import BeijingView, after_claim

__all__ = ["strong_choose", "win_chance", "READY_B", "READY_A", "DANGER_B", "DANGER_A"]

# ---- the model's constants --------------------------------------------------------------------

DISCARD_RATE = 0.45  # per other player's discard, the chance it is a given live tile, relative to uniform
READY_WIDTH = 5.0  # live winning tiles of a typical ready hand (for hands not ready yet)
WAIT_RATIO = 1.25  # a discard win is passed only when waiting for the self-draw is worth this much more
OPP_WIN_RATE = 0.10  # per round, the chance a ready opponent wins by its own draw (and as much on discards)
HUNYOU_MIN_WALL = 6  # 混儿悠 only with at least this many normal draws left (the next one must come)
ADDED_KONG_RISK = 0.3  # an added kong only when the expected cost of its being robbed is below this
FOLLOW_CHANCE = (1.0, 0.25, 0.06)  # 烧庄: chance the rest follow, with 0, 1, 2 non-dealers still to discard
# the usual share of live tiles that improve a hand, by shanten (measured on baseline self-play): the
# rate of the steps after the first, which the hand's own ukeire does not tell
LATER_STEPS_B = (0.0, 0.20, 0.31, 0.46, 0.60, 0.72, 0.80)
LATER_STEPS_A = (0.0, 0.14, 0.25, 0.42, 0.60, 0.70, 0.80)
# 七对子: with j pairs still to make a hand holds 2j + 1 lone tiles, about 2 live copies each
LATER_PAIRS = (0.0, 0.06, 0.10, 0.14, 0.18, 0.22, 0.26)
PAIRS_WIDTH = 2.5  # live winning tiles of a ready 七对子 (one lone tile's copies)
# a claim must make the hand worth this many times the hand without it: under claimed_self_draw_only
# (B) a claim also ends every discard win and uses the one claim, which the model undervalues (it
# made the bot lose about 0.4 points a hand against baselines at 1.0, and nearly never pays)
CLAIM_MARGIN = 2.0
CLAIM_MARGIN_OPEN = 1.3  # … where a claimed hand still wins on discards (A)
STEP_BACK = 0.45  # a discard that takes the hand a step further from ready keeps this share of its value
HAZARD_RAMP_B = 0.025  # the others' chance to end the hand grows by this much each round (B) …
HAZARD_RAMP_A = 0.02  # … (A); measured on baseline self-play

# P(an opponent is ready) by its number of discards (0…16, more = the last), without / with melds:
# measured on 4 × baseline self-play (60 matches of 20 hands each preset)
READY_B = (
    (0.0, 0.005, 0.012, 0.041, 0.08, 0.127, 0.187, 0.236, 0.30, 0.34, 0.46, 0.52, 0.53, 0.55, 0.57, 0.58, 0.6),
    (0.0, 0.0, 0.064, 0.10, 0.18, 0.23, 0.34, 0.385, 0.485, 0.51, 0.58, 0.62, 0.68, 0.72, 0.75, 0.78, 0.78),
)
READY_A = (
    (0.0, 0.001, 0.002, 0.007, 0.019, 0.03, 0.057, 0.092, 0.108, 0.142, 0.22, 0.279, 0.359, 0.435, 0.45, 0.47, 0.5),
    (0.0, 0.0, 0.012, 0.029, 0.061, 0.1, 0.154, 0.23, 0.304, 0.368, 0.433, 0.511, 0.569, 0.6, 0.637, 0.693, 0.73),
)
# P(a ready opponent that may win on a discard wins on this kind), by class and copies visible (1, 2, 3+)
DANGER_B = {"mid": (0.16, 0.10, 0.05), "28": (0.12, 0.05, 0.01), "term": (0.08, 0.04, 0.02),
            "honour": (0.015, 0.003, 0.001)}
DANGER_A = {"mid": (0.09, 0.053, 0.029), "28": (0.083, 0.026, 0.011), "term": (0.037, 0.023, 0.009),
            "honour": (0.018, 0.002, 0.001)}
OWN_DISCARD = 0.05  # the factor for a kind the opponent discarded itself
DANGER_SCALE = 1.0  # all of the above, scaled (a tuning knob)
DEAL_IN_VALUE_B = 2.8  # an opponent's usual discard-win value (B): the discarder pays 2 × this
DEAL_IN_VALUE_A = 1.3  # … (A): the discarder pays 3 × this
SELF_DRAW_VALUE_B = 5.0  # an opponent's usual self-drawn value (B), what a robbed added kong costs × 3


def _class(k: int) -> str:
    if k >= 27:
        return "honour"
    n = k % 9
    return "term" if n in (0, 8) else "28" if n in (1, 7) else "mid"


_CLASS = tuple(_class(k) for k in range(34))


def _r(x: float) -> float:
    return round(x, 3)


class _Model:
    """One decision's figures: the bot's view, the opponents, the wall."""

    def __init__(self, v: BeijingView) -> None:
        self.v = v
        r = v.rules
        self.r = r
        self.multiply = r.scoring == "multiply"
        obs = v.obs
        seats = obs["seats"]
        me = v.seat
        ready_table = READY_B if r.wilds else READY_A
        self.danger_table = DANGER_B if r.wilds else DANGER_A
        self.opp: list[tuple[int, float, bool, set[int], set[int]]] = []  # seat, P(ready), can win on a discard,
        # kinds it discarded, kinds discarded since its last discard
        hazard = 0.0
        n = len(seats)
        for j in range(n):
            if j == me:
                continue
            st = seats[j]
            melds = st["melds"]
            nd = len(st["discards"])
            p = ready_table[1 if melds else 0][min(nd, 16)]
            claimed = any(not t.startswith("(") for t in melds)
            can_ron = not st.get("hunyou", False) and not (r.claimed_self_draw_only and claimed)
            own = {_KIND[t] for t in st["discards"]}
            passed: set[int] = set()
            x = (j + 1) % n
            while x != me:  # the seats after j and before me discarded after j's last discard
                d = seats[x]["discards"]
                if d:
                    passed.add(_KIND[d[-1]])
                x = (x + 1) % n
            claimable = obs.get("claimable")
            if claimable is not None and obs.get("phase") == "claim":
                passed.add(_KIND[claimable])
            self.opp.append((j, p, can_ron, own, passed))
            hazard += p * (OPP_WIN_RATE + (OPP_WIN_RATE if can_ron else 0.0))
        self.hazard = _r(min(0.7, hazard))
        self.rounds = max(0, (v.wall_left + 3) // 4)
        self.later = LATER_STEPS_B if r.wilds else LATER_STEPS_A
        self.ramp = HAZARD_RAMP_B if r.wilds else HAZARD_RAMP_A
        self.L = v.total_live
        dealer = obs.get("dealer")
        if self.multiply:
            self.pay_in = {j: 2 * DEAL_IN_VALUE_B * (2 if j == dealer else 1) for j, *_ in self.opp}
        else:
            self.pay_in = {j: 3 * DEAL_IN_VALUE_A for j, *_ in self.opp}
        self.ctx_self = WinContext(self_drawn=True, dealer=v.dealer)
        self.ctx_disc = WinContext(self_drawn=False, dealer=v.dealer)

    # ---- defence ---------------------------------------------------------------------------

    def danger(self, k: int) -> tuple[float, float]:
        """(the chance that discarding ``k`` deals in, the expected payment for it)."""
        v = self.v
        p_total = 0.0
        pay = 0.0
        vis = v.visible[k]
        vi = 0 if vis <= 1 else 1 if vis == 2 else 2
        for j, p_ready, can_ron, own, passed in self.opp:
            if not can_ron or not p_ready or k in passed:
                continue
            if k == v.wild:
                d = 1.0  # a discarded wild completes every ready hand (B2)
            else:
                d = self.danger_table[_CLASS[k]][vi]
                if k in own:
                    d *= OWN_DISCARD
            pj = p_ready * d * DANGER_SCALE
            p_total += pj
            pay += pj * self.pay_in[j]
        return min(p_total, 0.95), pay

    def rob_risk(self, k: int) -> float:
        """The expected cost of an added kong of ``k`` being robbed (B3: the declarer pays all three shares)."""
        v = self.v
        vis = v.visible[k]
        vi = 0 if vis <= 1 else 1 if vis == 2 else 2
        risk = 0.0
        for _j, p_ready, _can_ron, own, passed in self.opp:
            if k in passed:
                continue
            d = self.danger_table[_CLASS[k]][vi] * (OWN_DISCARD if k in own else 1.0)
            risk += p_ready * d * 3 * (SELF_DRAW_VALUE_B if self.multiply else DEAL_IN_VALUE_A)
        return risk

    # ---- offence ---------------------------------------------------------------------------

    def ukeire(self, nonwild: list[int], w: int, m: int, s: int) -> int:
        """Live tiles whose draw lowers the standard-shape shanten ``s`` of this 13-tile hand.

        Suit by suit, as the Tianjin strong bot: the other three suits' table is merged once, then
        each draw in the suit is one look-up of its new table against it."""
        v = self.v
        live = v.live
        wild = v.wild
        u = live[wild] if wild >= 0 else 0  # a wild always helps
        tables = [_suit_table(nonwild, x) for x in range(4)]
        need = 3 * m + 1 - w - s
        for x in range(4):
            lo, hi = 9 * x, (9 * x + 9 if x < 3 else 34)
            if not any(live[k] for k in range(lo, hi) if k != wild):
                continue
            a, b, c = (tables[i] for i in range(4) if i != x)
            others = _merge(_merge(a, b, m), c, m)
            suit = nonwild[lo:hi]
            for k in range(lo, hi):
                n = live[k]
                if not n or k == wild:
                    continue
                suit[k - lo] += 1
                if _top(used_table(tuple(suit), x == 3), others, m) > need:
                    u += n
                suit[k - lo] -= 1
        return u

    def pairs_ukeire(self, nonwild: list[int], w: int) -> int:
        """Live tiles that pair a lone tile of a 七对子 hand (a wild pairs any)."""
        live = self.v.live
        wild = self.v.wild
        u = live[wild] if wild >= 0 else 0
        for k in range(34):
            if nonwild[k] & 1 and k != wild:
                u += live[k]
        return u

    def value_estimate(self, nonwild: list[int], w: int, melds: list[Meld], pairs_route: bool, claimed: bool) -> float:
        """The payment a win of this (not yet ready) hand may bring (see the module docstring)."""
        v = self.v
        suits = 0
        for k in range(34):
            if nonwild[k]:
                suits |= 1 << (k // 9)
        wild_in_melds = False
        for ml in melds:
            suits |= 1 << (ml.tile // 9)
            if v.wild >= 0 and v.wild in ml.tiles:
                wild_in_melds = True
        flush = 0
        if suits in (1, 2, 4):
            flush = 2  # 清一色
        elif suits in (9, 10, 12):
            flush = 1  # 混一色
        ron_ok = not (claimed and self.r.claimed_self_draw_only)
        if self.multiply:
            mult = 1.0
            if not claimed:
                mult *= 2  # 门清
            if v.dealer:
                mult *= 2
            if pairs_route:
                mult *= 2  # 七对子
            if w == 0 and not wild_in_melds and v.wild >= 0:
                mult *= 1.6  # 无混儿, unless a wild must be kept later
            elif v.wild < 0:
                mult *= 2  # no wilds at all: every win is 无混儿 (wilds: false)
            if flush == 2:
                mult *= 2.8
            elif flush == 1:
                mult *= 1.5
            share_self = 1.0 / (1.0 + 3 * DISCARD_RATE) if ron_ok else 1.0
            return mult * (share_self * 6 + (1 - share_self) * 4)  # self-drawn: 3 × 2V; on a discard: 4V
        fan = 1.0
        if pairs_route:
            fan = 4.0
        if flush == 2:
            fan = fan + 6 * 0.7 if fan > 1 else 6 * 0.7
        if claimed:
            fan = (fan + 1) / 2
        return 3 * fan

    def ready_ev(self, full13: list[int], melds: list[Meld], claimed: bool) -> float:
        """Expected points of a ready 13-tile hand (its exact waits, scored)."""
        v = self.v
        sc = v.scorer
        live = v.live
        n_melds = len(melds)
        ron_ok = not (claimed and self.r.claimed_self_draw_only) and not v.obs.get("passed_win", False)
        p_self = pay_self = p_disc = pay_disc = 0.0
        disc_mult = 4 if self.multiply and self.r.discard_pays == "all" else 3
        for k in range(34):
            n = live[k]
            if not n:
                continue
            full13[k] += 1
            if sc.is_complete(full13, n_melds):
                ev = sc.evaluate(full13, k, melds, self.ctx_self)
                if ev is not None and ev[0]:
                    p_self += n
                    pay_self += n * 3 * ev[1]
                if ron_ok:
                    ed = sc.evaluate(full13, k, melds, self.ctx_disc)
                    if ed is not None and ed[0]:
                        p_disc += n
                        pay_disc += n * disc_mult * ed[1]
            full13[k] -= 1
        if not p_self and not p_disc:
            return 0.0
        L = self.L
        q = (p_self + 3 * DISCARD_RATE * p_disc) / L
        mean_pay = (pay_self + 3 * DISCARD_RATE * pay_disc) / (p_self + 3 * DISCARD_RATE * p_disc)
        if q > 0.95:
            q = 0.95
        return win_chance(0, 0.0, _r(q), self.rounds, self.hazard, (), self.ramp) * mean_pay

    def hand_ev(self, nonwild: list[int], w: int, melds: list[Meld], s: int | None = None) -> float:
        """Expected points of a 13-tile hand: concealed ``nonwild`` and ``w`` wilds, ``melds``; the
        better of its two routes (four melds and a pair; 七对子) when it is not ready."""
        v = self.v
        m = 4 - len(melds)
        pairs_ok = not melds
        claimed = any(ml.type is not MeldType.CONCEALED_KONG for ml in melds)
        s_std = shanten_fast(nonwild, w, m)
        s_pairs = pairs_shanten(nonwild, w) if pairs_ok else 99
        s = min(s_std, s_pairs)
        if s <= 0:
            full = list(nonwild)
            if v.wild >= 0:
                full[v.wild] = w
            return self.ready_ev(full, melds, claimed)
        L = self.L
        ron = 1 + (3 * DISCARD_RATE if not (claimed and self.r.claimed_self_draw_only) else 0.0)
        best = 0.0
        if s_std <= s + 1:
            u = self.ukeire(nonwild, w, m, s_std)
            q_win = min(0.95, READY_WIDTH / L * ron)
            chance = win_chance(min(s_std, 6), _r(min(0.95, u / L)), _r(q_win), self.rounds, self.hazard, self.later, self.ramp)
            if chance > 1e-6:
                best = chance * self.value_estimate(nonwild, w, melds, False, claimed)
        if s_pairs <= s + 1:
            u = self.pairs_ukeire(nonwild, w)
            q_win = min(0.95, PAIRS_WIDTH / L * ron)
            chance = win_chance(min(s_pairs, 6), _r(min(0.95, u / L)), _r(q_win), self.rounds, self.hazard,
                                LATER_PAIRS, self.ramp)
            if chance > 1e-6:
                best = max(best, chance * self.value_estimate(nonwild, w, melds, True, claimed))
        return best

    # ---- the best discard --------------------------------------------------------------------

    def best_discard(self, nonwild: list[int], w: int, melds: list[Meld], candidates: list[int],
                     bonus: dict[int, float] | None = None) -> tuple[int, float]:
        """The discard of highest ``(1 − p) · offence − p · payment`` (+ ``bonus``), and that figure.

        The offence is valued for the discards that keep the lowest shanten (and, from a ready
        hand, those one step back, to change a poor wait): comparing hands of different shanten by
        their ukeire misleads (a far hand with many loose tiles has many "improving" draws).  A
        discard that goes further back is valued as the best kept hand × ``STEP_BACK`` per step:
        it is there to fold (a safe tile when the deal-in cost outweighs the hand)."""
        v = self.v
        wild = v.wild
        m = 4 - len(melds)
        pairs_ok = not melds
        sh = discard_shanten(nonwild, w, m, pairs_ok, candidates, wild)
        low = min(sh.values())
        top = low + 1 if low == 0 else low
        offence: dict[int, float] = {}
        for k in candidates:
            s = sh[k]
            if s > top:
                continue
            if k == wild:
                offence[k] = self.hand_ev(nonwild, w - 1, melds, s)
            else:
                nonwild[k] -= 1
                offence[k] = self.hand_ev(nonwild, w, melds, s)
                nonwild[k] += 1
        kept = max(offence.values())
        best, best_v, best_key = candidates[0], float("-inf"), None
        for k in candidates:
            s = sh[k]
            ev = offence[k] if k in offence else kept * STEP_BACK ** (s - low)
            p, pay = self.danger(k)
            val = (1 - p) * ev - pay
            if bonus:
                val += bonus.get(k, 0.0)
            key = (-val, s, _discard_key(nonwild, k) if k != wild else (2, 3, k))
            if best_key is None or key < best_key:
                best, best_v, best_key = k, val, key
        return best, best_v


# ---- the decisions -------------------------------------------------------------------------------


def strong_choose(obs: dict[str, Any], legal: list[Action], rules: BeijingRules) -> Action:
    """The ``strong`` bot's choice in a Beijing match (see the module docstring)."""
    phase = obs.get("phase")
    if phase == "turn":
        return _turn(obs, legal, rules)
    if phase == "claim":
        return _claim(obs, legal, rules)
    for a in legal:  # the rob window (抢杠): robbing scores as self-drawn, the declarer pays all (B3)
        if a.type == "win":
            return a
    return next((a for a in legal if a.type == "pass"), legal[0])


def _shaozhuang_bonus(obs: dict[str, Any], rules: BeijingRules) -> dict[int, float]:
    """烧庄 (B6): as a non-dealer's first discard, the dealer's first discard kind, when every
    non-dealer before it followed; worth the units each non-dealer gets if the rest follow too."""
    if not rules.shaozhuang_units:
        return {}
    seats = obs["seats"]
    me, dealer = obs["seat"], obs["dealer"]
    if me == dealer or seats[me]["discards"] or any(st["melds"] for st in seats):
        return {}
    d = seats[dealer]["discards"]
    if len(d) != 1:
        return {}
    kind = d[0]
    x = (dealer + 1) % 4
    while x != me:
        if seats[x]["discards"] != [kind]:
            return {}
        x = (x + 1) % 4
    left = (dealer - me) % 4 - 1  # non-dealers still to discard after me
    return {_KIND[kind]: rules.shaozhuang_units * 0.9 * FOLLOW_CHANCE[left]}


def _turn(obs: dict[str, Any], legal: list[Action], rules: BeijingRules) -> Action:
    win = hungang = None
    discards: list[Action] = []
    kongs: list[Action] = []
    hunyou: list[Action] = []
    for a in legal:
        t = a.type
        if t == "win":
            win = a
        elif t == "hungang":
            hungang = a
        elif t == "discard":
            discards.append(a)
        elif t == "hunyou":
            hunyou.append(a)
        else:
            kongs.append(a)
    v = BeijingView(obs, rules)
    model = _Model(v)
    now_value = 0
    if win is not None:
        drawn = obs.get("drawn")
        k = _KIND[drawn] if drawn is not None else next(i for i in range(34) if v.full[i])
        ev = v.scorer.evaluate(v.full, k, v.melds, WinContext(self_drawn=True, dealer=v.dealer))
        now_value = ev[1] if ev is not None else 1
        if drawn is None and not v.melds:
            now_value = max(now_value, 40)  # the dealer's dealt 14: 天和, a flat 40 (B5)
    if hungang is not None and now_value <= 40:
        return hungang  # a flat 40 (B2)
    if win is not None:
        if hunyou:
            declare = _hunyou(model, hunyou, now_value)
            if declare is not None:
                return declare
        return win
    wild = v.wild
    candidates = [int(a.tile) for a in discards]  # type: ignore[arg-type]  # a discard names its tile
    plain = [k for k in candidates if k != wild]
    if plain and len(plain) < len(candidates) and v.w and not _wild_discard_ok(model):
        candidates = plain  # keep the wild while anybody may be ready: it completes every ready hand
    best, _ = model.best_discard(v.nonwild, v.w, list(v.melds), candidates, _follow_bonus(obs, rules, candidates))
    for a in kongs:
        assert a.tile is not None
        k = int(a.tile)
        if a.type == "ankong":
            if k == wild:
                continue
            if v.pairs_ok and pairs_shanten(v.nonwild, v.w) <= shanten_fast(v.nonwild, v.w, v.m):
                continue  # four of a kind are two pairs of a 豪华七对子: keep them
            v.nonwild[k] -= 4
            after = shanten_fast(v.nonwild, v.w, v.m - 1)
            v.nonwild[k] += 4
            if after <= shanten13(*_without(v, best), v.m, v.pairs_ok):
                return a
        else:  # an added kong: like discarding that tile, but it may be robbed (B3)
            after = shanten13(*_without(v, k), v.m, False)
            if after <= shanten13(*_without(v, best), v.m, False) and model.rob_risk(k) < ADDED_KONG_RISK:
                return a
    return next(a for a in discards if a.tile == best)


def _without(v: BeijingView, k: int) -> tuple[list[int], int]:
    nonwild = list(v.nonwild)
    if k == v.wild:
        return nonwild, v.w - 1
    nonwild[k] -= 1
    return nonwild, v.w


def _wild_discard_ok(model: _Model) -> bool:
    """A wild may be thrown while no opponent that can win on a discard is likely ready."""
    return sum(p for _j, p, can_ron, _o, _q in model.opp if can_ron) < 0.05


def _follow_bonus(obs: dict[str, Any], rules: BeijingRules, candidates: list[int]) -> dict[int, float]:
    bonus = _shaozhuang_bonus(obs, rules)
    return {k: b for k, b in bonus.items() if k in candidates}


def _hunyou(model: _Model, options: list[Action], now_value: int) -> Action | None:
    """The best 混儿悠 discard, if its expected value beats winning now (B3)."""
    v = model.v
    if v.wall_left < HUNYOU_MIN_WALL:
        return None
    sc = v.scorer
    ctx = WinContext(self_drawn=True, dealer=v.dealer, hunyou=True)
    live, L = v.live, v.total_live
    n_melds = len(v.melds)
    win_now = 3 * now_value
    best, best_v = None, float(win_now)
    for a in options:
        assert a.tile is not None
        d = int(a.tile)
        full = list(v.full)
        full[d] -= 1
        total = 0.0
        for k in range(34):
            n = live[k]
            if not n:
                continue
            full[k] += 1
            ev = sc.evaluate(full, k, v.melds, ctx) if sc.is_complete(full, n_melds) else None
            full[k] -= 1
            if ev is not None:
                total += n * 3 * ev[1]
        gain = total / L
        p_in, pay = model.danger(d)
        p_fail = min(0.95, p_in + model.hazard)
        loss = 2 * (DEAL_IN_VALUE_B * 2 if model.multiply else DEAL_IN_VALUE_A * 3)
        value = (1 - p_fail) * gain - p_fail * loss - 2 * pay
        if value > best_v:
            best, best_v = a, value
    return best


def _claim(obs: dict[str, Any], legal: list[Action], rules: BeijingRules) -> Action:
    pass_ = next((a for a in legal if a.type == "pass"), legal[-1])
    win = next((a for a in legal if a.type == "win"), None)
    claims = [a for a in legal if a.type in ("chi", "pon", "kong")]
    window = obs.get("window")
    if window is None:
        return win or pass_
    tile = _KIND[window["tile"]]
    v = BeijingView(obs, rules)
    model = _Model(v)
    if win is not None:
        return win if _take_discard_win(model, v, tile) else pass_
    if not claims:
        return pass_
    keep = model.hand_ev(v.nonwild, v.w, list(v.melds))
    best, best_v = pass_, keep * (CLAIM_MARGIN if rules.claimed_self_draw_only else CLAIM_MARGIN_OPEN)
    for a in claims:
        got = after_claim(v, a, tile)
        if got is None:
            continue
        nonwild, w = got
        if a.type == "kong":
            melds = [*v.melds, Meld(MeldType.KONG, TILES[tile])]
            value = model.hand_ev(nonwild, w, melds)  # the replacement draw: as good as the next draw
        else:
            assert a.tile is not None
            meld = Meld(MeldType.PON, TILES[tile]) if a.type == "pon" else Meld(MeldType.CHI, a.tile)
            melds = [*v.melds, meld]
            kinds = [k for k in range(34) if nonwild[k]] + ([v.wild] if w else [])
            if not kinds:
                continue
            _, value = model.best_discard(nonwild, w, melds, kinds)
        if value > best_v:
            best, best_v = a, value
    return best


def _take_discard_win(model: _Model, v: BeijingView, tile: int) -> bool:
    """Take the win on this discard unless waiting for a self-draw is worth ``WAIT_RATIO`` times more
    (passing locks discard wins until one's next discard, 过手, B3); under 包三家 (A) a discard win pays
    as much as a self-draw: always take it."""
    if not model.multiply or model.r.discard_pays != "all":
        return True
    full = list(v.full)
    full[tile] += 1
    ev = v.scorer.evaluate(full, tile, v.melds, model.ctx_disc)
    if ev is None or not ev[0]:
        return True
    take = 4 * ev[1]
    full[tile] -= 1
    # waiting: self-draw only until the next discard; valued as a claimed (self-drawn only) ready hand
    wait = _self_draw_ev(model, full)
    return wait < WAIT_RATIO * take


def _self_draw_ev(model: _Model, full13: list[int]) -> float:
    v = model.v
    sc = v.scorer
    live = v.live
    p = pay = 0.0
    n_melds = len(v.melds)
    for k in range(34):
        n = live[k]
        if not n:
            continue
        full13[k] += 1
        if sc.is_complete(full13, n_melds):
            ev = sc.evaluate(full13, k, v.melds, model.ctx_self)
            if ev is not None and ev[0]:
                p += n
                pay += n * 3 * ev[1]
        full13[k] -= 1
    if not p:
        return 0.0
    q = min(0.95, p / model.L)
    return win_chance(0, 0.0, _r(q), model.rounds, model.hazard, (), model.ramp) * pay / p
