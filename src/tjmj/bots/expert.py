"""The expert bot: decides by search — sampled worlds played to the end of the hand (docs/bots.md).

At each decision that has a choice, the bot

1. takes the ``strong`` bot's choice as its default and picks the candidates: every win, kong, claim
   and pass, the default, and the few discards the fast policy ranks best (:data:`DISCARDS`);
2. plays rounds: each round samples one **world** — :meth:`tjmj.game.Match.determinize` of the real
   match for its seat (the tiles it cannot see dealt again at random: the other hands and the wall,
   every visible discard, meld, flower and indicator kept) — and, from that same world, applies each
   candidate and plays the hand to its end with a fast **rollout policy** (:func:`rollout_action`,
   every seat: a win when legal, the discard of lowest shanten — in Tianjin, with wilds, nearest a
   混儿吊 ready hand, a hand the rules let win — kongs and claims that keep the hand as close to
   ready), recording the seat's score change at the hand's end (the ``end_kyoku`` deltas:
   fan or value, 坐庄/拉庄 stakes, kong points, 铲, 烧庄, penalties, dealing in — every payment);
3. returns the candidate with the best mean, but leaves the default only when the paired difference
   (the same worlds) is clearly positive: ``mean > Z · standard error`` over at least
   ``MIN_ROUNDS`` rounds.  Racing: from ``MIN_ROUNDS`` rounds on, a candidate below the default by
   ``Z_DROP`` standard errors is played no more; when none is left but the default, the decision is made.

Rounds go on until ``budget_ms`` (default 200 ms; measured with :func:`time.perf_counter`) would be
spent (at least one round) — plus, with ``bank`` > 0, up to that many budgets of the time earlier
decisions left unused, so that the mean decision stays within the budget and the hard ones get more —
or at most ``rollouts`` rounds when that is given: then the bot is deterministic for a seed (its
randomness comes only from the ``rng`` the driver passes).  The bot sees hidden state only through
``determinize``: it never reads another hand or the wall.

It needs the real match, given by ``bind(match, seat)`` (:func:`tjmj.simulate.play_with` calls it);
without it (a driver that only calls ``choose``) it plays as ``strong``, as it does
the pre-hand 坐庄/拉庄 choices.  ``decision_times`` holds the seconds of each decision.  Python's
cyclic garbage collector is paused while a decision searches (the copies hold no reference cycles:
they are freed as they go), so that a full collection does not stop a round past the budget.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .. import families
from .._mypyc import mypyc_attr
from ..game import _DISCARD, Action, Match
from ..rules import Rules
from ..tiles import TILE_TEXT
from .belief import hand_weights
from .common import (  # discard_shanten: the wilds are left out of kinds, no wild kind passed
    _discard_key,
    _discard_shanten,
    _merge,
    _suit_table,
    _top_unpaired,
    discard_shanten,
    discard_used,
    shanten13,
    shanten_fast,
)
from .strong import StrongBot

if TYPE_CHECKING:
    from . import Bot

__all__ = ["ExpertBot", "Search", "rollout_action", "play_out", "decision_shanten", "DISCARDS", "Z", "MIN_ROUNDS",
           "Z_DROP", "BANK", "MAX_SHANTEN", "OWN", "OWN_POLICIES", "WORLDS", "WORLD_KINDS"]

DISCARDS = 3  # discards searched besides the default: the best by the rollout policy's ranking
Z = 2.0  # leave the default only when the paired mean gain exceeds Z standard errors ...
MIN_ROUNDS = 8  # ... over at least this many rounds (worlds)
BANK = 0.0  # a decision may spend up to this many budgets left unused by earlier ones, besides its own
# (0 by default: compiled, with bank=2, the expert played more worlds and did no better, docs/bots.md)
Z_DROP = 3.0  # racing: a candidate below the default by this many standard errors is played no more
MAX_SHANTEN: int | None = None  # search only decisions that leave the hand this far from ready (None: all)
OWN = "rollout"  # who plays the searching seat's own later decisions in a rollout: "rollout" (the fast
# policy, as every other seat) or a bot that plays from its observation, options and all ("strong", as
# in reality; "strong(revive=0)", three times as fast: tjmj.bots.make_bot)
WORLDS = "uniform"  # how the unseen tiles are dealt in the sampled worlds: "uniform", or by the beliefs
# about the other hands ("belief": tjmj.bots.belief, fitted to strong's play)
WORLD_KINDS = ("uniform", "belief")
OWN_POLICIES = ("rollout", "strong")  # the two measured in docs/bots.md; any bot of BOT_NAMES is taken
_MAX_STEPS = 2_000  # a rollout of one hand takes under 200 steps: a stuck one fails loudly

_WINS = ("win", "hungang")
_KONGS = ("ankong", "added_kong")


# ---- the rollout policy ---------------------------------------------------------------------------


def _hand(m: Match, seat: int) -> tuple[list[int], int, int]:
    """The seat's concealed tiles per kind without the wilds, its wilds, the melds it still needs."""
    st = m.seats[seat]
    nonwild = list(st.counts)
    w = 0
    for k in m.wilds:
        w += nonwild[k]
        nonwild[k] = 0
    return nonwild, w, 4 - len(st.melds)


# what the rollouts ask of a match's family (its part ``bots``): (the rules asked about, 七对 is a
# winning shape, the aim at 混儿吊, chi and pon are limited), for the last rules asked about: the
# copies of one search share one rules object and ask thousands of times (one tuple, swapped whole)
_TRAITS: list[tuple[Rules | None, bool, bool, bool]] = [(None, False, False, False)]


def _traits(m: Match) -> tuple[Rules | None, bool, bool, bool]:
    got = _TRAITS[0]
    if got[0] is not m.rules:
        bots = families.get(m.family).bots
        r = m.rules
        got = (r, bool(bots.SEVEN_PAIRS), bool(bots.hundiao_rollouts(r)), bool(bots.claims_limited(r)))
        _TRAITS[0] = got
    return got


def _pairs_ok(m: Match, seat: int) -> bool:
    """七对 is a winning shape of the family (Beijing B4, MCR M3; not Tianjin); only with no meld."""
    return _traits(m)[1] and not m.seats[seat].melds


def ranked_discards(m: Match, seat: int, legal: Sequence[Action]) -> list[tuple[int, Action]]:
    """The legal discards of ``seat`` best first by the rollout policy (lowest shanten, then the
    baseline's tie-break; Tianjin: :func:`rollout_action`'s order), each with its shanten; wilds
    last (a wild is thrown only when forced)."""
    nonwild, w, need = _hand(m, seat)
    wilds = m.wilds
    plain = [a for a in legal if a.type == "discard" and a.tile not in wilds]
    kinds = [int(a.tile) for a in plain]  # type: ignore[arg-type]  # a discard names its tile
    out: list[tuple[int, Action]] = []
    if kinds:
        sh = discard_shanten(nonwild, w, need, _pairs_ok(m, seat), kinds)
        if w and _fan_aware(m):  # (rollout_action's order: nearest a 混儿吊 ready hand first)
            hd = hundiao_discard_shanten(nonwild, w, need, kinds)
            order = sorted(kinds, key=lambda k: (hd[k], sh[k], _discard_key(nonwild, k)))
        else:
            order = sorted(kinds, key=lambda k: (sh[k], _discard_key(nonwild, k)))
        by_kind = {int(a.tile): a for a in plain}  # type: ignore[arg-type]
        out = [(sh[k], by_kind[k]) for k in order]
    out += [(99, a) for a in legal if a.type == "discard" and a.tile in wilds]
    return out


# the rollout policy's discards, memoised: the rollouts of one world (one per candidate) mostly
# differ in one seat's hand, so the other seats meet the same hands again and again
_MEMO: dict[tuple[Any, ...], tuple[int, int]] = {}
_MEMO_SIZE = 1 << 13  # entries (about 4 MB at most, each of the two memos), then it starts again


def decision_shanten(m: Match, seat: int, legal: Sequence[Action], default: Action) -> int:
    """How far from ready ``seat``'s decision leaves its hand (0: ready): on a turn, after the
    default's discard (the best discard's, when the default is a kong); in a claim or rob window,
    the hand as it stands.  ``ExpertBot(max_shanten=…)`` searches only decisions at most this far."""
    nonwild, w, need = _hand(m, seat)
    pairs = _pairs_ok(m, seat)
    if m.phase != "turn":
        return shanten13(nonwild, w, need, pairs)
    wilds = m.wilds
    kinds = [int(a.tile) for a in legal if a.type == "discard" and a.tile not in wilds]  # type: ignore[arg-type]
    if not kinds:
        return 0  # (only wilds to throw: the search decides among them)
    sh = discard_shanten(nonwild, w, need, pairs, kinds)
    if default.type == "discard" and default.tile is not None and int(default.tile) in sh:
        return sh[int(default.tile)]
    return min(sh.values())


def _best_discard(m: Match, seat: int, legal: Sequence[Action]) -> tuple[int, Action] | None:
    """The first of :func:`ranked_discards` (its shanten and action), without ranking the rest."""
    wilds = m.wilds
    kinds = [int(a.tile) for a in legal if a.type == "discard" and a.tile not in wilds]  # type: ignore[arg-type]
    if not kinds:
        forced = next((a for a in legal if a.type == "discard"), None)
        return None if forced is None else (99, forced)
    st = m.seats[seat]
    pairs = _pairs_ok(m, seat)
    key = (tuple(st.counts), wilds, len(st.melds), pairs, len(kinds))  # len(kinds): Beijing's forced discard
    got = _MEMO.get(key)
    if got is None:
        nonwild, w, need = _hand(m, seat)
        sh = discard_shanten(nonwild, w, need, pairs, kinds)
        low = min(sh.values())
        best = -1
        tie: tuple[int, int, int] | None = None
        for k in kinds:
            if sh[k] == low:
                kk = _discard_key(nonwild, k)
                if tie is None or kk < tie:
                    best, tie = k, kk
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = got = (low, best)
    return got[0], _DISCARD[got[1]]


def hundiao_discard_shanten(nonwild: list[int], w: int, m: int, kinds: Sequence[int]) -> dict[int, int]:
    """Tianjin: for each discard kind, the exchanges still needed after it to a 混儿吊 ready hand
    (R5.1: a wild kept as the single, the other 12 tiles four melds, wilds playing what is missing),
    0 = ready to win on any draw; ``w`` >= 1 wilds in hand, ``m`` melds still to make."""
    base = 3 * m - (w - 1)
    return {k: base - u for k, u in discard_used(nonwild, m, kinds, paired=False).items()}


def _fan_aware(m: Match) -> bool:
    """Whether the rollouts aim at a legal win by 混儿吊 (the family's ``hundiao_rollouts``): in
    Tianjin under ``min_fan`` 2 a plain ready hand with wilds (死提溜) cannot win, and the commonest
    legal win with a wild is 混儿吊 (R5.1, R5.2)."""
    return _traits(m)[2]


_MEMO_FAN: dict[tuple[Any, ...], tuple[int, int]] = {}  # as _MEMO, for the Tianjin aim at 混儿吊


def _best_discard_fan(m: Match, seat: int, legal: Sequence[Action]) -> tuple[int, Action] | None:
    """Tianjin with wilds in hand: the discard nearest a 混儿吊 ready hand, then the lowest shanten,
    then the baseline's tie-break; its (plain) shanten and action."""
    st = m.seats[seat]
    wilds = m.wilds
    w = sum(st.counts[k] for k in wilds)
    if not w:
        return _best_discard(m, seat, legal)
    kinds = [int(a.tile) for a in legal if a.type == "discard" and a.tile not in wilds]  # type: ignore[arg-type]
    if not kinds:
        return _best_discard(m, seat, legal)
    key = (tuple(st.counts), wilds, len(st.melds), len(kinds))
    got = _MEMO_FAN.get(key)
    if got is None:
        nonwild, w, need = _hand(m, seat)
        hd = hundiao_discard_shanten(nonwild, w, need, kinds)
        low = min(hd.values())
        near = [k for k in kinds if hd[k] == low]
        sh = _discard_shanten(nonwild, w, need, near)  # (only the nearest are ranked further)
        best = min(near, key=lambda k: (sh[k], _discard_key(nonwild, k)))
        if len(_MEMO_FAN) >= _MEMO_SIZE:
            _MEMO_FAN.clear()
        _MEMO_FAN[key] = got = (sh[best], best)
    return got[0], _DISCARD[got[1]]


def hundiao_shanten(nonwild: Sequence[int], w: int, m: int) -> int:
    """Tianjin: the exchanges a 13-tile hand still needs to a 混儿吊 ready hand (``w`` >= 1)."""
    t = [_suit_table(nonwild, s) for s in range(4)]
    return 3 * m - (w - 1) - _top_unpaired(_merge(t[0], t[1], m), _merge(t[2], t[3], m), m)


def rollout_action(m: Match, seat: int, legal: Sequence[Action]) -> Action:
    """The fast policy every seat follows in a rollout, read from the match itself (the copy's seat
    counts, no observation built): a win (or 混杠) whenever legal; on a turn the discard of lowest
    shanten (ties: the baseline's), never a wild unless forced, a kong when the hand after it is no
    further from ready; in a window a kong, pon or chi when the hand after it (and its best discard)
    is no further from ready — under Beijing's claim limit only when it gets closer.

    Tianjin under ``min_fan`` 2 (:func:`_fan_aware`), a seat holding wilds aims at a hand that can
    win: its discard is the one nearest a 混儿吊 ready hand (:func:`hundiao_discard_shanten`; then
    the lowest shanten), and it pons only when that brings it nearer (or as near, with two melds or
    more still to make).  Without it the rollouts' seats got stuck in 死提溜 hands that cannot win
    (R5.2): in one seat against three of the plain policy it scored +1.35 points a hand."""
    if len(legal) > 1 and _fan_aware(m) and not any(a.type in _WINS for a in legal):
        if m.phase == "turn":
            if not any(a.type in _KONGS for a in legal):  # (a kong: the plain policy's rule)
                found = _best_discard_fan(m, seat, legal)
                if found is not None:
                    return found[1]
        elif m.window is not None:
            nonwild, w, need = _hand(m, seat)
            if w:
                tile = int(m.window.tile)
                pon = next((a for a in legal if a.type == "pon"), None)
                pass_ = next((a for a in legal if a.type == "pass"), None)
                if pon is not None and pass_ is not None and not any(a.type == "kong" for a in legal) \
                        and tile not in m.wilds:
                    now = hundiao_shanten(nonwild, w, need)
                    nonwild[tile] -= 2
                    kinds = [k for k in range(34) if nonwild[k]]
                    after = min(hundiao_discard_shanten(nonwild, w, need - 1, kinds).values()) if kinds else now
                    return pon if after < now or (after == now and need > 1) else pass_
    return _rollout_plain(m, seat, legal)


def _rollout_plain(m: Match, seat: int, legal: Sequence[Action]) -> Action:
    """:func:`rollout_action` without Tianjin's aim at a legal win."""
    if len(legal) == 1:
        return legal[0]
    for a in legal:
        if a.type in _WINS:
            return a
    if m.phase == "turn":
        found = _best_discard(m, seat, legal)
        if found is None:
            return legal[0]
        best_sh, best = found
        for a in legal:
            if a.type in _KONGS:
                assert a.tile is not None
                k = int(a.tile)
                if k in m.wilds:
                    return a  # 金杠 (Tianjin R2): always
                nonwild, w, need = _hand(m, seat)
                if a.type == "ankong":
                    nonwild[k] -= 4
                    after = shanten_fast(nonwild, w, need - 1)
                else:
                    nonwild[k] -= 1
                    after = shanten_fast(nonwild, w, need)
                if after <= best_sh:
                    return a
        return best
    return _rollout_claim(m, seat, legal)


def _rollout_claim(m: Match, seat: int, legal: Sequence[Action]) -> Action:
    w_ = m.window
    pass_ = next((a for a in legal if a.type == "pass"), legal[-1])
    if w_ is None:
        return pass_
    tile = int(w_.tile)
    if tile in m.wilds:
        return pass_  # a discarded wild (Beijing): the policy makes no meld of wilds
    nonwild, w, need = _hand(m, seat)
    now = shanten_fast(nonwild, w, need)
    limited = _traits(m)[3]  # (Beijing's max_claims, B3)
    best: tuple[int, int, Action] | None = None
    for a in legal:
        t = a.type
        if t == "kong":
            nonwild[tile] -= 3
            after = shanten_fast(nonwild, w, need - 1)
            nonwild[tile] += 3
            if after <= now and (best is None or (after, 0) < best[:2]):
                best = (after, 0, a)
        elif t == "pon" or t == "chi":
            if t == "pon":
                used = [tile, tile]
            else:
                assert a.tile is not None
                used = [k for k in range(int(a.tile), int(a.tile) + 3) if k != tile]
            if any(not nonwild[k] for k in used):
                continue  # a wild would be needed: the policy keeps its wilds
            for k in used:
                nonwild[k] -= 1
            kinds = [k for k in range(34) if nonwild[k]]
            after = min(_discard_shanten(nonwild, w, need - 1, kinds).values()) if kinds else now + 1
            for k in used:
                nonwild[k] += 1
            if after < now or (after == now and not limited):
                rank = 1 if t == "pon" else 2
                if best is None or (after, rank) < best[:2]:
                    best = (after, rank, a)
    return best[2] if best is not None else pass_


class _SelfBot:
    """A rollout policy: ``seat``'s own decisions by ``bot`` (``strong``: from its observation of the
    copy, as it plays in reality), every other seat's by :func:`rollout_action`; a decision with one
    legal action costs nothing."""

    __slots__ = ("seat", "bot", "rng")

    def __init__(self, seat: int, bot: Bot) -> None:
        self.seat = seat
        self.bot = bot
        self.rng = random.Random(0)  # (strong never uses it; a random bot's play stays reproducible)

    def __call__(self, m: Match, seat: int, legal: Sequence[Action]) -> Action:
        if seat != self.seat or len(legal) == 1:
            return rollout_action(m, seat, legal)
        return self.bot.choose(m.observation(seat), list(legal), self.rng)


def _own_bot(spec: str) -> Bot:
    """The bot for ``own``: one that plays from its observation (``strong``, ``strong(revive=0)``,
    ``baseline``), not ``expert`` (a search inside a search) nor an outside program."""
    from . import BOT_NAMES, make_bot  # the package imports this module lazily: no cycle at import time

    base = spec.partition("(")[0].strip()
    if base not in BOT_NAMES:
        raise ValueError(f"own must be rollout or one of {', '.join(BOT_NAMES)} (with options if any), got {spec!r}")
    return make_bot(spec)


def play_out(m: Match, seat: int, policy: Callable[[Match, int, Sequence[Action]], Action] = rollout_action) -> int:
    """Play ``m`` (a copy: it is changed) to the end of its current hand with ``policy`` for every
    seat; the score change of ``seat`` from now to then (every payment of the settlement)."""
    start = m.scores[seat]
    hand = m.hand_number
    steps = 0
    while not m.is_over and m.hand_number == hand:
        s = m.to_act
        m.apply(s, policy(m, s, m.legal_actions(s)))
        steps += 1
        if steps > _MAX_STEPS:
            raise RuntimeError("a rollout did not end its hand")
    return m.scores[seat] - start


# ---- the bot --------------------------------------------------------------------------------------


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: tests and scripts subclass it
class ExpertBot:
    """Search: sampled worlds (:meth:`tjmj.game.Match.determinize`) played to the end of the hand with
    a fast policy, for each candidate action; the best mean score change, leaving ``strong``'s choice
    only on clear evidence (module docstring).

    ``budget_ms``: the time per decision on average (rounds go on while they fit); ``bank``: how much
    of the time earlier decisions left unused (a quick one, or a search whose alternatives all fell
    behind) a decision may add to its budget, in budgets (0: each decision within ``budget_ms``);
    ``rollouts``: at most this many rounds instead (deterministic for a seed); ``discards``, ``z``,
    ``min_rounds``: the search's width and its caution; ``race=False``: every candidate is played in
    every round (no racing: an estimate that an early stop does not bias, for measurements);
    ``max_shanten``: search only the decisions whose default leaves the hand at most this far from
    ready (:func:`decision_shanten`; ``None``: all), play ``strong`` at the others; ``own``: who plays
    the searching seat's later decisions in a rollout, ``"rollout"`` (the fast policy, as every seat)
    or a bot that plays from its observation, by its registry name with options if any (``"strong"``,
    as it plays in reality, about ten times slower; ``"strong(revive=0)"``, a third of the fast rate:
    :func:`tjmj.bots.make_bot`); ``worlds``: how the unseen tiles are dealt, ``"uniform"`` or by the
    beliefs about the other hands (``"belief"``: :func:`tjmj.bots.belief.hand_weights`).  Every
    family: the family's own
    stakes are in the scores the rollouts return."""

    name = "expert"
    uses_observation = True

    def __init__(self, budget_ms: float = 200.0, rollouts: int | None = None, *, discards: int = DISCARDS,
                 z: float = Z, min_rounds: int = MIN_ROUNDS, bank: float = BANK, race: bool = True,
                 own: str = OWN, max_shanten: int | None = MAX_SHANTEN, worlds: str = WORLDS) -> None:
        if budget_ms <= 0:
            raise ValueError(f"budget_ms must be positive, got {budget_ms}")
        if bank < 0:
            raise ValueError(f"bank must be at least 0, got {bank}")
        if rollouts is not None and rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, got {rollouts}")
        if worlds not in WORLD_KINDS:
            raise ValueError(f"worlds must be {' or '.join(WORLD_KINDS)}, got {worlds!r}")
        self._own_bot: Bot | None = None if own == "rollout" else _own_bot(own)
        self.budget_ms = budget_ms
        self.rollouts = rollouts
        self.discards = discards
        self.z = z
        self.min_rounds = min_rounds
        self.bank = bank
        self.race = race
        self.own = own
        self.max_shanten = max_shanten
        self.worlds = worlds
        self.credit = 0.0  # seconds: the time earlier decisions left unused, at most bank budgets
        self.match: Match | None = None
        self.seat = -1
        self.rules: Rules | None = None
        self.strong = StrongBot()
        self.decision_times: list[float] = []  # seconds, one per decision
        self.searched = 0  # decisions that ran rounds
        self.changed = 0  # ... whose answer differs from strong's
        self.last_rounds = 0  # the rounds (worlds) of the last searched decision
        self.rounds_played = 0  # ... and of every searched decision (rounds_played / searched: the mean)

    def __repr__(self) -> str:
        return f"ExpertBot(budget_ms={self.budget_ms}, rollouts={self.rollouts})"

    def bind(self, match: Match, seat: int) -> None:
        """The real match and this bot's seat (drivers call it before the match): the search copies it."""
        self.match = match
        self.seat = seat

    def set_rules(self, rules: Rules) -> None:
        self.rules = rules
        self.strong.set_rules(rules)
        own_rules = getattr(self._own_bot, "set_rules", None)
        if own_rules is not None:
            own_rules(rules)

    def choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        t0 = time.perf_counter()
        try:
            return self._choose(obs, legal, rng, t0)
        finally:
            spent = time.perf_counter() - t0
            self.decision_times.append(spent)
            budget = self.budget_ms / 1000.0
            # what this decision left unused (or overran) moves the credit: the mean stays within budget
            self.credit = max(-budget, min(self.bank * budget, self.credit + budget - spent))

    def _bound(self, obs: dict[str, Any], legal: list[Action]) -> Match | None:
        """The bound match, if this decision is its seat's decision in it now (the same phase, scores,
        hand and legal actions: a bot bound to another match plays as strong)."""
        m = self.match
        seat = self.seat
        if m is None or m.is_over or obs.get("seat") != seat or m.to_act != seat:
            return None
        if m.phase not in ("turn", "claim", "rob") or m.phase != obs.get("phase"):
            return None  # (坐庄/拉庄: nothing to search, and no hand dealt yet)
        if m.hand_number != obs.get("hand_number") or m.scores != obs.get("scores"):
            return None
        if m.legal_actions(seat) != legal or obs.get("hand") != [TILE_TEXT[t] for t in sorted(m.seats[seat].hand)]:
            return None
        return m

    def _choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random, t0: float) -> Action:
        if len(legal) == 1:
            return legal[0]
        default = self.strong.choose(obs, legal, rng)  # (strong never uses its rng)
        m = self._bound(obs, legal)
        if m is None or default.type in _WINS or not self._searches(m, self.seat, legal, default):
            return default
        cands = self._candidates(m, self.seat, legal, default)
        if len(cands) == 1:
            return default
        best = self._search(m, cands, random.Random(rng.getrandbits(64)), t0)
        self.searched += 1
        if best != default:
            self.changed += 1
        return best

    def _searches(self, m: Match, seat: int, legal: list[Action], default: Action) -> bool:
        """Whether the decision is one the bot searches: with ``max_shanten`` set, only where the
        default leaves the hand at most that far from ready (:func:`decision_shanten`)."""
        return self.max_shanten is None or decision_shanten(m, seat, legal, default) <= self.max_shanten

    def _candidates(self, m: Match, seat: int, legal: list[Action], default: Action) -> list[Action]:
        """The default first, every action but a discard, and the best few discards."""
        out = [default]
        for a in legal:
            if a.type != "discard" and a not in out:
                out.append(a)
        if m.phase == "turn":
            for _, a in ranked_discards(m, seat, legal)[: self.discards]:
                if a not in out:
                    out.append(a)
        return out

    def _search(self, m: Match, cands: list[Action], rng: random.Random, t0: float) -> Action:
        # the copies make no reference cycles (reference counting frees them): the cyclic collector
        # waits until the decision is made, instead of stopping a round for a full collection
        paused = gc.isenabled()
        gc.disable()
        try:
            return self._rounds(m, cands, rng, t0)
        finally:
            if paused:
                gc.enable()

    def _rounds(self, m: Match, cands: list[Action], rng: random.Random, t0: float) -> Action:
        found = self._evaluate(m, self.seat, cands, rng, t0)
        self.last_rounds = found.rounds
        self.rounds_played += found.rounds
        return cands[found.pick(self.z, self.min_rounds)]

    def _evaluate(self, m: Match, seat: int, cands: list[Action], rng: random.Random, t0: float) -> Search:
        n = len(cands)
        found = Search(cands)
        alive = list(range(n))  # the candidates still played: the default (0) always
        deadline = t0 + self.budget_ms / 1000.0 + max(0.0, self.credit)
        longest = 0.0  # the longest round so far: the next may take as long
        values = [0] * n
        policy: Callable[[Match, int, Sequence[Action]], Action] = (
            _SelfBot(seat, self._own_bot) if self._own_bot is not None else rollout_action)
        # the beliefs read what the seat sees, the same for every world of the decision
        weights = hand_weights(m, seat) if self.worlds == "belief" else None
        while True:
            r0 = time.perf_counter()
            world = m.determinize(seat, rng, weights=weights)
            for i in alive:
                c = world.clone()
                before = c.scores[seat]
                hand = c.hand_number
                c.apply(seat, cands[i])
                if not c.is_over and c.hand_number == hand:  # (a win ends the hand at once)
                    play_out(c, seat, policy)
                values[i] = c.scores[seat] - before
            found.add(alive, values)
            if self.race and found.rounds >= self.min_rounds and len(alive) > 1:
                # racing: a candidate clearly worse than the default is played no more, so the rounds
                # left go to the comparisons still open; with none open the decision is made
                alive = [i for i in alive if i == 0 or not found.clearly_worse(i, Z_DROP)]
                if len(alive) == 1:
                    break
            if self.rollouts is not None:
                if found.rounds >= self.rollouts:
                    break
            else:
                now = time.perf_counter()
                longest = max(longest, now - r0)
                if now + longest > deadline:  # the next round could overrun the budget
                    break
        return found

    def analyse(self, m: Match, seat: int, rng: random.Random) -> Search | None:
        """The search of ``seat``'s decision in ``m`` now, with its figures (``None`` when there is
        nothing to search: one legal action, 坐庄/拉庄, a win ``strong`` takes, one candidate).  The
        ``search_findings`` benchmark reads it; :meth:`choose` is this plus :meth:`Search.pick`."""
        if m.is_over or m.to_act != seat or m.phase not in ("turn", "claim", "rob"):
            return None
        legal = m.legal_actions(seat)
        if len(legal) == 1:
            return None
        default = self.strong.choose(m.observation(seat), legal, rng)
        if default.type in _WINS:
            return None
        if not self._searches(m, seat, legal, default):
            return None
        cands = self._candidates(m, seat, legal, default)
        if len(cands) == 1:
            return None
        return self._evaluate(m, seat, cands, random.Random(rng.getrandbits(64)), time.perf_counter())


class Search:
    """One decision's search: the candidates (the default, ``strong``'s choice, first), the rounds
    played, and per candidate the rounds it was played in (a clearly worse one stops early), the sum
    of its score changes, and the sum and squared sum of its paired difference with the default over
    the same worlds."""

    __slots__ = ("candidates", "counts", "sums", "diff_sums", "diff_sq")

    def __init__(self, candidates: list[Action]) -> None:
        n = len(candidates)
        self.candidates = candidates
        self.counts = [0] * n
        self.sums = [0.0] * n
        self.diff_sums = [0.0] * n
        self.diff_sq = [0.0] * n

    def add(self, played: list[int], values: list[int]) -> None:
        """One round (world): ``values[i]`` for each candidate ``i`` in ``played`` (0 among them)."""
        v0 = values[0]
        for i in played:
            v = values[i]
            d = v - v0
            self.counts[i] += 1
            self.sums[i] += v
            self.diff_sums[i] += d
            self.diff_sq[i] += d * d

    @property
    def rounds(self) -> int:
        """The rounds (worlds) played: the default is played in every one."""
        return self.counts[0]

    def mean(self, i: int) -> float:
        """Candidate ``i``'s mean score change."""
        return self.sums[i] / self.counts[i] if self.counts[i] else 0.0

    def gain(self, i: int) -> tuple[float, float]:
        """Candidate ``i``'s mean gain over the default and its standard error (paired worlds)."""
        n = self.counts[i]
        if not n:
            return 0.0, 0.0
        gain = self.diff_sums[i] / n
        var = max(0.0, self.diff_sq[i] / n - gain * gain) * n / (n - 1) if n > 1 else 0.0
        return gain, math.sqrt(var / n)

    def clearly_worse(self, i: int, z: float) -> bool:
        """Whether candidate ``i``'s gain is below zero by ``z`` standard errors (or it has never
        differed from the default): racing stops playing it."""
        gain, se = self.gain(i)
        return gain + z * se <= 0.0

    def pick(self, z: float = Z, min_rounds: int = MIN_ROUNDS) -> int:
        """The index to play: the best gain that exceeds ``z`` standard errors, after at least
        ``min_rounds`` rounds; else 0, the default."""
        if self.rounds < min_rounds:
            return 0
        best, best_gain = 0, 0.0
        for i in range(1, len(self.candidates)):
            gain, se = self.gain(i)
            if gain > best_gain and gain > z * se:
                best, best_gain = i, gain
        return best
