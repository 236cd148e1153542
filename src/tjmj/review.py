"""The review of a match (复盘): every decision of one seat compared with the best choice a search finds.

:func:`review` replays a stored match (:func:`tjmj.record.rebuild`: the record's own actions, every
event checked against the engine) and stops at each decision of the seat reviewed: a discard, a
kong, a win taken or passed on its turn, a claim or a pass in a claim or rob window (吃/碰/杠/和), and
Tianjin's 坐庄/拉庄 before a hand (R7).  A decision with one legal action is not a decision.

Each decision is judged by search (the ``expert`` bot's: :mod:`tjmj.bots.expert`): sampled worlds —
the tiles the seat could not see dealt again at random (:meth:`tjmj.game.Match.determinize`) — and
from each world every candidate is played to the hand's end by the fast rollout policy, the seat's
score change recorded (every payment of the family's settlement: R8, B6, M4).  The candidates are
the action chosen, ``strong``'s choice, every action but a discard, and the discards the rollout
policy ranks best.  The figures are paired (the same worlds for every candidate), so a difference
is measured against the same luck; the chosen action is the reference:

* ``best`` is the candidate with the largest mean gain over the chosen one, **if** that gain
  exceeds ``Z`` (3) standard errors after at least ``MIN_ROUNDS`` (12) worlds; otherwise the choice
  stands (``best == chosen``): noise alone never makes a mistake;
* ``loss`` (≥ 0) is that gain, in expected points of the hand (the family's own points);
* ``mistake`` is ``best != chosen``; ``agreement`` is the share of decisions without one.

坐庄/拉庄 come before the deal: their worlds are fresh deals of the hand (nothing is hidden yet), the
other seats' choices and the seat's own later ones made by ``strong``.

Where the family has an advisor (:func:`tjmj.web.hints.hint`: shanten, improving tiles, waits and the
chance of a legal win, computed exactly for the position) a discard's ``why`` quotes its figures for
the chosen and the best discard, and a discard mistake is ``efficiency`` when the best discard is
also better in those figures (closer to ready, or as close with more improving tiles), else
``defence`` (the shape is as good: the search found the chosen tile costs more, by dealing in or by
what it gives away).  The other kinds: ``claims`` (chi, pon and passing them), ``kongs``, ``wins``
(a win taken or passed), ``sit_pull`` (坐庄/拉庄).

The search runs within a time ``budget`` for the whole review (spread evenly over the decisions),
or a fixed number of worlds per decision (``rounds``: then the review is the same for a seed on
every machine).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import families
from .bots.expert import ExpertBot, Search, play_out, rollout_action
from .bots.strong import StrongBot
from .game import Action, Match
from .record import rebuild, record_family

__all__ = ["Decision", "Review", "review", "action_zh", "KINDS", "KIND_NAMES", "DEFAULT_BUDGET"]

DEFAULT_BUDGET = 40.0  # seconds for a whole review (a 16-hand match: under a minute on one core)
SIT_PULL_ROUNDS = 8  # at least this many fresh deals for a 坐庄/拉庄 choice (a whole hand's noise)
# a candidate beats the choice when its paired gain exceeds Z standard errors over at least MIN_ROUNDS
# worlds: stricter than the expert's 2 (a review tests four or five candidates at every one of
# hundreds of decisions; at 2, about one decision in ten of a strong player's was a "mistake" by
# chance alone)
Z = 3.0
MIN_ROUNDS = 12
KINDS = ("efficiency", "defence", "claims", "kongs", "wins", "sit_pull")
KIND_NAMES = {"efficiency": ("efficiency", "牌效"), "defence": ("defence", "防守"), "claims": ("claims", "吃碰"),
              "kongs": ("kongs", "杠"), "wins": ("wins", "和牌"), "sit_pull": ("坐庄/拉庄", "坐庄/拉庄")}
_WINS = ("win", "hungang")
_KONGS = ("ankong", "added_kong", "kong")


@dataclass
class Decision:
    """One decision of the seat reviewed (see the module docstring for each figure)."""

    hand: int  # 1-based
    turn: int  # the seat's decisions in the hand so far, this one included (1-based)
    event: int  # the index in the match's events of the first event the chosen action made
    phase: str  # turn, claim, rob, sit or pull
    kind: str  # one of KINDS
    chosen: str
    best: str
    loss: float
    mistake: bool
    why: str
    why_zh: str
    rounds: int
    candidates: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "turn": self.turn, "event": self.event, "phase": self.phase, "kind": self.kind,
                "chosen": self.chosen, "best": self.best, "loss": round(self.loss, 3), "mistake": self.mistake,
                "why": self.why, "why_zh": self.why_zh, "rounds": self.rounds, "candidates": self.candidates}


@dataclass
class Review:
    """A whole match's review of one seat."""

    seat: int
    name: str
    family: str
    decisions: list[Decision]
    seconds: float

    @property
    def agreement(self) -> float:
        return sum(not d.mistake for d in self.decisions) / len(self.decisions) if self.decisions else 1.0

    @property
    def loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    def by_kind(self) -> dict[str, dict[str, Any]]:
        """Per kind: decisions, mistakes and the points they lost."""
        out: dict[str, dict[str, Any]] = {}
        for k in KINDS:
            ds = [d for d in self.decisions if d.kind == k]
            if ds:
                out[k] = {"decisions": len(ds), "mistakes": sum(d.mistake for d in ds),
                          "loss": round(sum(d.loss for d in ds), 3)}
        return out

    def hands(self) -> list[dict[str, Any]]:
        """Per hand: decisions, agreement, mistakes, the points lost, and the match's loss so far (the curve)."""
        out: list[dict[str, Any]] = []
        total = 0.0
        for h in sorted({d.hand for d in self.decisions}):
            ds = [d for d in self.decisions if d.hand == h]
            lost = sum(d.loss for d in ds)
            total += lost
            out.append({"hand": h, "decisions": len(ds), "mistakes": sum(d.mistake for d in ds),
                        "agreement": round(sum(not d.mistake for d in ds) / len(ds), 3),
                        "loss": round(lost, 3), "cumulative_loss": round(total, 3)})
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "family": self.family,
                "agreement": round(self.agreement, 3), "loss": round(self.loss, 3),
                "mistakes": sum(d.mistake for d in self.decisions), "by_kind": self.by_kind(),
                "hands": self.hands(), "curve": [h["cumulative_loss"] for h in self.hands()],
                "seconds": round(self.seconds, 1), "decisions": [d.to_dict() for d in self.decisions]}


@dataclass
class _Spot:
    """A decision found in the replay: the match before it, the legal actions, what was chosen."""

    match: Match
    legal: list[Action]
    chosen: Action
    event: int
    turn: int


def _spots(events: Sequence[dict[str, Any]], seat: int) -> list[_Spot]:
    """Every decision of ``seat`` in the recorded match, in order (a ReplayError if it does not replay)."""
    spots: list[_Spot] = []
    pending: list[Any] = []  # the match before a decision of the seat, its legal actions, the event index
    count = [0, -1]  # the events so far, the hand of the last decision
    turns = [0]

    def on_step(m: Match, action: Action | None, new: list[dict[str, Any]]) -> None:
        if pending:
            before, legal, at = pending.pop()
            assert action is not None
            hand = before.hand_number
            if hand != count[1]:
                count[1] = hand
                turns[0] = 0
            turns[0] += 1
            spots.append(_Spot(before, legal, action, at, turns[0]))
        count[0] += len(new)
        if not m.is_over and m.to_act == seat and m.phase in ("turn", "claim", "rob", "sit", "pull"):
            legal = m.legal_actions(seat)
            if len(legal) > 1:
                pending.append((m.clone(events=True), legal, count[0]))  # (the advisor reads the hand's claims)

    rebuild(events, on_step)
    return spots


def _kind(spot: _Spot, best: Action) -> str:
    phase = spot.match.phase
    if phase in ("sit", "pull"):
        return "sit_pull"
    types = {spot.chosen.type, best.type}
    if types & set(_WINS):
        return "wins"
    if types & set(_KONGS):
        return "kongs"
    if phase in ("claim", "rob"):
        return "claims"
    return "efficiency"  # a discard: refined by the advisor's figures (_explain)


def _candidates(spot: _Spot, strong: StrongBot, rng: random.Random, advised: Action | None) -> list[Action]:
    """The chosen action first (the reference), ``strong``'s choice, the advisor's best discard,
    every action but a discard, and the discards the rollout policy ranks best (the expert's own
    candidates)."""
    m = spot.match
    seat = m.to_act
    out = [spot.chosen]
    if advised is not None and advised not in out and advised in spot.legal:
        out.append(advised)
    try:
        default = strong.choose(m.observation(seat), spot.legal, rng)
    except Exception:  # noqa: BLE001 - a bot's failure costs a candidate, never the review
        default = spot.chosen
    if default not in out:
        out.append(default)
    for a in ExpertBot(rollouts=1)._candidates(m, seat, spot.legal, default):
        if a not in out:
            out.append(a)
    return out


def _sit_pull_policy(strong: StrongBot, rng: random.Random) -> Callable[[Match, int, Sequence[Action]], Action]:
    def policy(m: Match, seat: int, legal: Sequence[Action]) -> Action:
        if m.phase in ("sit", "pull"):
            return strong.choose(m.observation(seat), list(legal), rng) if len(legal) > 1 else legal[0]
        return rollout_action(m, seat, legal)

    return policy


def _search_sit_pull(spot: _Spot, cands: list[Action], rng: random.Random, deadline: float | None,
                     rounds: int | None, strong: StrongBot) -> Search:
    """坐庄/拉庄 before the deal: each world is a fresh deal of the hand (the wall is not dealt yet,
    so nothing hidden is used), the rest of the hand played out; the chosen action is candidate 0."""
    m = spot.match
    seat = m.to_act
    found = Search(cands)
    policy = _sit_pull_policy(strong, rng)
    want = max(rounds or 0, SIT_PULL_ROUNDS)
    while True:
        world = m.clone()
        world.rng = random.Random(rng.getrandbits(64))
        world.walls = []
        world.resumes = {}
        values = []
        for a in cands:
            c = world.clone()  # (the world's rng state too: every candidate is dealt the same hand)
            before = c.scores[seat]
            c.apply(seat, a)
            if not c.is_over:
                play_out(c, seat, policy)
            values.append(c.scores[seat] - before)
        found.add(list(range(len(cands))), values)
        if rounds is not None and found.rounds >= want:
            break
        if rounds is None and found.rounds >= SIT_PULL_ROUNDS and (deadline is None or time.perf_counter() > deadline):
            break
    return found


def _search(spot: _Spot, cands: list[Action], rng: random.Random, budget: float, rounds: int | None) -> Search:
    bot = ExpertBot(budget_ms=max(1.0, budget * 1000.0), rollouts=rounds)
    bot.credit = 0.0
    return bot._evaluate(spot.match, spot.match.to_act, cands, rng, time.perf_counter())


def _advice(m: Match, seat: int) -> dict[str, dict[str, Any]]:
    """The advisor's figures of every discard, by tile (empty where the family has none)."""
    from .web.hints import hint, hint_available

    if not hint_available(m.rules):
        return {}
    try:
        return {e["tile"]: e for e in hint(m, seat)}
    except Exception:  # noqa: BLE001 - an advisor's failure costs the explanation, never the review
        return {}


def _shape(e: dict[str, Any]) -> tuple[int, int]:
    return (e.get("shanten", 99), -int(e.get("improving", 0)))


_ZH = {"discard": "打", "chi": "吃", "pon": "碰", "kong": "杠", "ankong": "暗杠", "added_kong": "补杠", "win": "和",
       "hungang": "混杠", "hunyou": "混儿悠", "pass": "过", "pull": "拉庄"}


def action_zh(a: Action) -> str:
    """An action in Chinese (打5m, 碰7z, 过, 坐庄 / 不坐庄, 拉庄 2)."""
    if a.type == "sit":
        return "坐庄" if a.count else "不坐庄"
    text = str(a).split()
    word = _ZH.get(text[0], text[0])
    return word + (" " if a.type == "pull" else "") + text[1] if len(text) > 1 else word


def _legal_shanten(e: dict[str, Any]) -> int:
    """Steps from a ready hand that can win (Tianjin's legal shanten; the plain one elsewhere)."""
    v = e.get("legal_shanten", e.get("shanten", 99))
    return int(v) if v is not None else 99


def _judge(found: Search, adv: dict[str, dict[str, Any]]) -> tuple[int, bool]:
    """The index of the best candidate (0: the choice stands) and whether the advisor's exact figures
    decided it: a discard that leaves the hand further from a ready hand that can win than the
    advisor's best discard is a mistake when the search finds it worth less than that one, however
    little (a dangerous tile kept back may be worth the step); otherwise the search's verdict
    (:meth:`Search.pick`, with this module's stricter ``Z``)."""
    best_i = found.pick(Z, MIN_ROUNDS)
    cands = found.candidates
    chosen = cands[0]
    if best_i or chosen.type != "discard" or not adv:
        return best_i, False
    mine = adv.get(str(chosen).split()[1])
    top = min(adv.values(), key=lambda e: e.get("rank", 99))
    if mine is None or _legal_shanten(mine) <= _legal_shanten(top):
        return best_i, False
    j = next((i for i, a in enumerate(cands) if a.type == "discard" and str(a).split()[1] == top["tile"]), None)
    if j is None:
        return best_i, False
    gain, _se = found.gain(j)
    if not found.counts[j] or gain <= 0:  # the search does not find the further hand costs anything
        return best_i, False
    return j, True


def _explain(spot: _Spot, found: Search, best_i: int, kind: str, rounds: int,
             adv: dict[str, dict[str, Any]], exact: bool) -> tuple[str, str, str]:
    """The decision's one-line reason in English and Chinese, and its kind refined."""
    cands = found.candidates
    chosen, best = cands[0], cands[best_i]
    worlds = f"{rounds} worlds"
    if best_i == 0:
        means = sorted(((found.mean(i), i) for i in range(len(cands)) if found.counts[i]), reverse=True)
        runner = next((cands[i] for _, i in means if i != 0), None)
        tail = f"; next best {runner}" if runner is not None else ""
        return (f"no clearly better choice ({len(cands)} candidates, {worlds}: {found.mean(0):+.2f} points){tail}",
                f"没有明显更好的选择（{len(cands)} 个候选，{rounds} 次模拟：{found.mean(0):+.2f} 分）"
                + (f"；其次是{action_zh(runner)}" if runner is not None else ""), kind)
    gain, se = found.gain(best_i)
    if exact:
        en = f"{best} keeps the hand closer to a ready hand that can win (search: {gain:+.2f} ± {se:.2f} points, {worlds})"
        zh = f"{action_zh(best)}离能和的听牌更近（模拟：{gain:+.2f} ± {se:.2f} 分，{rounds} 次）"
    else:
        en = f"{best} is better by {gain:.2f} ± {se:.2f} points ({worlds})"
        zh = f"{action_zh(best)}更好，平均多 {gain:.2f} ± {se:.2f} 分（{rounds} 次模拟）"
    if chosen.type == "discard" and best.type == "discard":
        a, b = adv.get(str(chosen).split()[1]), adv.get(str(best).split()[1])
        if a is not None and b is not None:
            kind = "efficiency" if exact or _shape(b) < _shape(a) else "defence"
            en += f": after {b['tile']}, {b['summary']}; after {a['tile']}, {a['summary']}"
            zh += f"：打{b['tile']}，{b['summary_zh']}；打{a['tile']}，{a['summary_zh']}"
            if kind == "defence":
                en += " (as good a shape: the cost is in what the tile gives away)"
                zh += "（牌型不差：损失在于这张牌的危险）"
    return en, zh, kind


def review(events: Sequence[dict[str, Any]], seat: int, *, budget: float = DEFAULT_BUDGET,
           rounds: int | None = None, seed: int = 0,
           progress: Callable[[int, int], None] | None = None) -> Review:
    """Review ``seat``'s decisions in one stored match (``events``: its record, ``start_game`` to
    ``end_game`` or as far as it goes).  ``budget``: seconds for the whole review, spread over the
    decisions; ``rounds``: instead, this many worlds a decision (deterministic for ``seed``);
    ``progress(done, total)`` after each decision.  A :class:`tjmj.record.ReplayError` if the
    record does not replay; a ValueError for a seat outside 0–3."""
    if not 0 <= seat <= 3:
        raise ValueError(f"a seat is 0 to 3, not {seat}")
    if rounds is not None and rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {rounds}")
    if budget <= 0:
        raise ValueError(f"the budget must be positive, not {budget}")
    t0 = time.perf_counter()
    spots = _spots(events, seat)
    start = events[0]
    family = families.get(record_family(start))
    names = start.get("names")  # by seat (the record's actor), as start_game lists them
    name = str(names[seat]) if isinstance(names, list) and seat < len(names) else ""
    strong = StrongBot()
    rng = random.Random(seed)
    out: list[Decision] = []
    if progress:
        progress(0, len(spots))
    for n, spot in enumerate(spots):
        strong.set_rules(spot.match.rules)
        left = budget - (time.perf_counter() - t0)
        share = max(0.005, left / (len(spots) - n))
        m = spot.match
        adv = _advice(m, m.to_act) if m.phase == "turn" and spot.chosen.type == "discard" else {}
        top = min(adv.values(), key=lambda e: e.get("rank", 99)) if adv else None
        advised = Action.parse(f"discard {top['tile']}") if top is not None else None
        cands = _candidates(spot, strong, rng, advised)
        r = random.Random(rng.getrandbits(64))
        if m.phase in ("sit", "pull"):
            found = _search_sit_pull(spot, cands, r, None if rounds else time.perf_counter() + share, rounds, strong)
        else:
            found = _search(spot, cands, r, share, rounds)
        best_i, exact = _judge(found, adv)
        kind = _kind(spot, cands[best_i])
        why, why_zh, kind = _explain(spot, found, best_i, kind, found.rounds, adv, exact)
        loss = found.gain(best_i)[0] if best_i else 0.0
        out.append(Decision(
            hand=spot.match.hand_number + 1, turn=spot.turn, event=spot.event, phase=spot.match.phase, kind=kind,
            chosen=str(spot.chosen), best=str(cands[best_i]), loss=max(0.0, loss), mistake=best_i != 0,
            why=why, why_zh=why_zh, rounds=found.rounds,
            candidates=[{"action": str(a), "mean": round(found.mean(i), 3), "worlds": found.counts[i]}
                        for i, a in enumerate(cands)]))
        if progress:
            progress(n + 1, len(spots))
    return Review(seat=seat, name=name, family=family.name, decisions=out, seconds=time.perf_counter() - t0)
