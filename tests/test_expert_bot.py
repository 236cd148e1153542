"""The ``expert`` bot (issue 15): search on determinized copies of the match (docs/bots.md).

Legal in every family, deterministic for a seed with a fixed number of rollouts, within its time
budget on average, blind to the hidden tiles (it sees them only through ``determinize``), ``strong``
when it is not bound to a match, and better than three baselines in a fixed duplicate tournament by
an interval that says so.  (Against ``strong`` its edge, if any, is below what a test can afford to
resolve: docs/bots.md has the figures.)
"""

from __future__ import annotations

import random
import statistics
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tjmj.bots import BOT_NAMES, BOTS, Bot, make_bot
from tjmj.bots.expert import (
    MIN_ROUNDS,
    Z_DROP,
    ExpertBot,
    Search,
    _rollout_plain,
    _SelfBot,
    decision_shanten,
    hundiao_discard_shanten,
    hundiao_shanten,
    play_out,
    rollout_action,
)
from tjmj.bots.strong import StrongBot
from tjmj.game import PASS, WIN, Action, Match
from tjmj.hand import shanten_counts
from tjmj.record import replay
from tjmj.rules import Rules
from tjmj.simulate import play_with
from tjmj.tournament import tournament

PRESETS = ("classic", "yiyou", "beijing", "beijing_a", "mcr")


class Checked(ExpertBot):
    """The expert, checking that every answer is one of the legal actions."""

    def choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        a = super().choose(obs, legal, rng)
        assert a in legal, (a, legal)
        return a


def eager(**kw: Any) -> Checked:
    """An expert that leaves strong's choice on any gain, so that its own choices are played often."""
    return Checked(**{"rollouts": 2, "z": 0.0, "min_rounds": 1, "max_shanten": None, **kw})


def play(preset: str, seed: int, players: list[Any], hands: int = 2) -> Match:
    r = Rules.preset(preset, match_hands=hands)
    return play_with(Match(r, seed, names=[p.name for p in players]), players, seed)


def test_registered_but_not_among_the_observation_bots() -> None:
    bot = make_bot("expert")
    assert isinstance(bot, ExpertBot) and isinstance(bot, Bot) and bot.name == "expert"
    assert bot.budget_ms == 200 and bot.rollouts is None
    assert "expert" in BOTS and "expert" not in BOT_NAMES  # it needs bind(match, seat): not every driver has one
    with pytest.raises(ValueError):
        ExpertBot(budget_ms=0)
    with pytest.raises(ValueError):
        ExpertBot(rollouts=0)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_rollout_policy_plays_whole_matches_legally(preset: str) -> None:
    m = Match(Rules.preset(preset, match_hands=3), 4)
    while not m.is_over:
        s = m.to_act
        legal = m.legal_actions(s)
        a = rollout_action(m, s, legal)
        assert a in legal
        m.apply(s, a)
    assert sum(m.scores) == 0 and replay(m.events).ok
    c = Match(Rules.preset(preset, match_hands=3), 5)
    seat = c.to_act
    before = c.scores[seat]
    delta = play_out(c, seat)  # to the end of the hand, and no further
    assert c.hand_number == 1 and not c.is_over and delta == c.scores[seat] - before


@pytest.mark.parametrize("preset", PRESETS)
def test_legal_in_every_family(preset: str) -> None:
    """Two experts that act on their search (any gain) beside strong and baseline: every answer legal,
    the match zero-sum and replayable, the search run and its choices played."""
    experts = [eager(), eager()]
    players: list[Any] = [experts[0], make_bot("strong"), experts[1], make_bot("baseline")]
    m = play(preset, 7, players)
    assert m.is_over and sum(m.scores) == 0 and replay(m.events).ok
    assert sum(e.searched for e in experts) > 10 and sum(e.changed for e in experts) > 0
    assert all(len(e.decision_times) > 0 for e in experts)


@pytest.mark.parametrize("preset", ["classic", "beijing", "mcr"])
def test_deterministic_for_a_seed_with_fixed_rollouts(preset: str) -> None:
    def run() -> Match:
        return play(preset, 11, [eager(rollouts=3), make_bot("strong"), eager(rollouts=3), make_bot("strong")], 1)

    a, b = run(), run()
    assert a.events == b.events and a.scores == b.scores


@pytest.mark.serial
def test_the_time_budget_on_average() -> None:
    """With ``budget_ms=50`` the mean decision takes at most 60 ms (rounds stop when the next would
    overrun; decisions without a choice take none)."""
    bot = ExpertBot(budget_ms=50, max_shanten=None)  # (every decision searched: the budget is what is checked)
    m = play("classic", 5, [bot, make_bot("strong"), make_bot("strong"), make_bot("strong")], 2)
    times = bot.decision_times
    assert m.is_over and bot.searched > 10 and len(times) > bot.searched
    assert statistics.mean(times) <= 0.050 * 1.2, statistics.mean(times)


@pytest.mark.serial
def test_the_bank_moves_time_to_the_searched_decisions() -> None:
    """With a bank the searched decisions may spend what quick ones left (the mean stays within the
    budget, no decision beyond the budget and the bank by more than a round); with ``bank=0`` the
    credit is never spent, so the decisions keep to the budget alone."""
    budget = 0.040
    for bank in (2.0, 0.0):
        bot = ExpertBot(budget_ms=budget * 1000, bank=bank, max_shanten=None)
        m = play("classic", 6, [bot, make_bot("strong"), make_bot("strong"), make_bot("strong")], 2)
        times = bot.decision_times
        assert m.is_over and bot.searched > 10 and -budget <= bot.credit <= bank * budget
        assert statistics.mean(times) <= budget * 1.2, (bank, statistics.mean(times))
        limit = budget * (1 + bank)
        assert max(times) <= limit + 0.060, (bank, max(times))  # (the last round may run past, as without a bank)
        if bank:
            assert any(t > budget * 1.25 for t in times), "the bank was never spent"
        else:
            # One round may run past the budget (about 10 ms here, a quarter of it, and more on a
            # loaded machine), so "beyond the budget" is judged at twice it: a spent credit would
            # take decisions up to three budgets.
            over = sum(1 for t in times if t > budget * 2)
            assert over <= len(times) // 20, over


def test_racing_drops_only_candidates_clearly_below_the_default() -> None:
    """Racing (``Z_DROP``): a candidate the search stops playing is, by the rounds it was played in,
    below the default by ``Z_DROP`` standard errors; it never stops before ``min_rounds`` rounds; and
    some candidates are dropped in a match (the rounds left go to the others)."""
    searches: list[Search] = []

    class Recording(ExpertBot):
        def _evaluate(self, m: Match, seat: int, cands: list[Action], rng: random.Random, t0: float) -> Search:
            found = super()._evaluate(m, seat, cands, rng, t0)
            searches.append(found)
            return found

    bot = Recording(rollouts=24, max_shanten=None)
    play("classic", 9, [bot, make_bot("strong"), make_bot("strong"), make_bot("strong")], 1)
    dropped = 0
    for f in searches:
        for i in range(1, len(f.candidates)):
            if f.counts[i] < f.rounds:
                dropped += 1
                assert f.counts[i] >= MIN_ROUNDS and f.clearly_worse(i, Z_DROP), (f.counts, f.gain(i))
    assert dropped > 0
    searches.clear()
    play("classic", 9, [Recording(rollouts=24, race=False, max_shanten=None), make_bot("strong"), make_bot("strong"), make_bot("strong")], 1)
    assert searches and all(f.counts == [f.rounds] * len(f.candidates) for f in searches)  # race=False: all played
    unit = Search([WIN, PASS, PASS])
    for _ in range(MIN_ROUNDS):
        unit.add([0, 1, 2], [5, -5, 6])
    assert unit.clearly_worse(1, Z_DROP) and not unit.clearly_worse(2, Z_DROP) and unit.pick() == 2


def test_without_a_match_it_plays_as_strong() -> None:
    """A driver that only calls ``choose`` (no ``bind``), or a bot bound to another match: strong's choice."""
    for preset in ("classic", "beijing", "mcr"):
        m = Match(Rules.preset(preset, match_hands=1), 3)
        rng = random.Random(3)
        other = Match(Rules.preset(preset, match_hands=1), 4)
        for _ in range(40):
            s = m.to_act
            obs, legal = m.observation(s), m.legal_actions(s)
            strong = StrongBot()
            strong.set_rules(m.rules)
            want = strong.choose(obs, legal, random.Random(0))
            unbound = ExpertBot(rollouts=3, z=0.0, min_rounds=1)
            unbound.set_rules(m.rules)
            assert unbound.choose(obs, legal, random.Random(0)) == want
            elsewhere = ExpertBot(rollouts=3, z=0.0, min_rounds=1)
            elsewhere.bind(other, s)
            assert elsewhere.choose(obs, legal, random.Random(0)) == want and elsewhere.searched == 0
            m.apply(s, rng.choice(legal))
            if m.is_over:
                break


@pytest.mark.parametrize("preset", ["classic", "beijing", "mcr"])
def test_it_sees_hidden_tiles_only_through_determinize(preset: str) -> None:
    """Bound to the real match or to a copy with the hidden tiles dealt otherwise (the same observation),
    the bot decides alike for the same rng; the real match is left as it was."""
    m = Match(Rules.preset(preset, match_hands=1), 8)
    rng = random.Random(8)
    compared = 0
    while not m.is_over and compared < 6:
        s = m.to_act
        legal = m.legal_actions(s)
        if m.phase in ("turn", "claim") and len(legal) > 2:
            other = m.determinize(s, random.Random(compared + 100))
            answers = []
            before = (m.full_view(), len(m.events), list(m.wall.tiles))
            for world in (m, other):
                bot = ExpertBot(rollouts=4, z=0.0, min_rounds=1, max_shanten=None)
                bot.set_rules(m.rules)
                bot.bind(world, s)
                answers.append((bot.choose(world.observation(s), world.legal_actions(s), random.Random(5)),
                                bot.searched))
            assert answers[0] == answers[1]
            assert (m.full_view(), len(m.events), list(m.wall.tiles)) == before
            compared += answers[0][1]
        m.apply(s, rng.choice(legal))
    assert compared >= 3


@pytest.mark.parametrize("preset", ["classic", "mcr"])
def test_max_shanten_searches_only_decisions_near_ready(preset: str) -> None:
    """``max_shanten=0``: a decision whose default leaves the hand not ready is strong's, unsearched;
    the ready ones are searched (and the search may change them); ``analyse`` follows the same rule."""
    seen: list[tuple[int, bool, bool]] = []  # (shanten, searched, answered strong's choice)

    class Spy(Checked):
        def _choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random, t0: float) -> Action:
            before = self.searched
            a = super()._choose(obs, legal, rng, t0)
            m = self._bound(obs, legal)
            if m is not None and len(legal) > 1:
                default = self.strong.choose(obs, legal, rng)  # (deterministic: strong's choice again)
                if default.type not in ("win", "hungang"):
                    sh = decision_shanten(m, self.seat, legal, default)
                    seen.append((sh, self.searched > before, a == default))
                    probe = ExpertBot(rollouts=2, max_shanten=0)
                    probe.set_rules(m.rules)
                    if sh > 0:
                        assert probe.analyse(m, self.seat, random.Random(0)) is None
            return a

    bots: list[Any] = [Spy(rollouts=2, z=0.0, min_rounds=1, max_shanten=0)]
    play(preset, 12, bots + [make_bot("strong") for _ in range(3)], 3)
    far = [x for x in seen if x[0] > 0]
    near = [x for x in seen if x[0] <= 0]
    assert far and all(not searched and same for _, searched, same in far), far
    assert near and any(searched for _, searched, _ in near)


def test_own_strong_plays_the_searching_seat_as_strong() -> None:
    """``own="strong"``: in a rollout the searching seat's decisions are strong's (from its
    observation of the copy), the other seats' the fast policy's; the option is checked."""
    for bad in ("nope", "expert", "cmd:true", "strong(nope=1)"):  # only a bot that plays from its observation
        with pytest.raises(ValueError):
            ExpertBot(own=bad)
    assert ExpertBot(own="strong(revive=0)")._own_bot.revive == 0.0
    m = Match(Rules.preset("classic", match_hands=1), 6)
    strong = StrongBot()
    strong.set_rules(m.rules)
    while m.phase not in ("turn", "claim"):  # (坐庄/拉庄 first)
        m.apply(m.to_act, m.legal_actions(m.to_act)[0])
    policy = _SelfBot(m.to_act, strong)
    checked = 0
    for _ in range(300):
        if m.is_over or m.phase not in ("turn", "claim", "rob"):
            break
        s = m.to_act
        legal = m.legal_actions(s)
        a = policy(m, s, legal)
        if s == policy.seat and len(legal) > 1:
            assert a == StrongBot().choose(m.observation(s), legal, random.Random(1))
            checked += 1
        else:
            assert a == rollout_action(m, s, legal)
        m.apply(s, a)
    assert checked > 3
    bot = Checked(rollouts=2, own="strong", z=0.0, min_rounds=1)
    play("classic", 3, [bot] + [make_bot("strong") for _ in range(3)], 1)
    assert bot.searched > 0


def test_beats_three_baselines_in_a_fixed_tournament(monkeypatch: pytest.MonkeyPatch) -> None:
    """A duplicate tournament (classic, 120 hands, every deal played from every seat) with a small
    search (2 rounds a decision): the 95% interval of the expert's points per hand lies above 0 (here
    0.77 to 4.02; docs/bots.md has the 200-hand run).  The tournament reports its decision times."""
    monkeypatch.setitem(BOTS, "expert", lambda: ExpertBot(rollouts=2, min_rounds=2))
    r = tournament(["expert", "baseline", "baseline", "baseline"], hands=120, seed=1, workers=1, match_hands=4)
    d = r.to_dict()["results"]["expert"]
    assert d["ci95"][0] > 0, d
    ms = d["decision_ms"]
    assert ms["decisions"] > 1000 and 0 < ms["mean"] <= ms["p99"] <= ms["max"]
    assert "decision_ms" not in r.to_dict()["results"]["baseline"]


@st.composite
def _wild_hands(draw: st.DrawFn) -> tuple[list[int], int, int]:
    """A 13-tile-equivalent Tianjin hand holding wilds: non-wild counts, wilds (1–4), melds to make."""
    m = draw(st.integers(1, 4))
    w = draw(st.integers(1, 4))
    n = 3 * m + 1 - w
    nonwild = [0] * 34
    kinds = draw(st.lists(st.integers(0, 33), min_size=n, max_size=n))
    for k in kinds:
        if nonwild[k] < 4:
            nonwild[k] += 1
    assume(sum(nonwild) == n)
    return nonwild, w, m


@settings(max_examples=300, deadline=None)
@given(_wild_hands())
def test_hundiao_shanten_is_zero_exactly_when_every_draw_completes(hand: tuple[list[int], int, int]) -> None:
    """R5.1: a hand ready as 混儿吊 (a wild kept as the single) wins on any draw, and a hand that
    completes on every draw is one; the count is never below the plain shanten (it is stricter)."""
    nonwild, w, m = hand
    hd = hundiao_shanten(nonwild, w, m)
    every = shanten_counts(nonwild, w + 1, m) == -1  # a drawn wild
    for k in range(34):
        if nonwild[k] < 4:
            nonwild[k] += 1
            every = every and shanten_counts(nonwild, w, m) == -1
            nonwild[k] -= 1
    assert (hd == 0) == every
    assert hd >= shanten_counts(nonwild, w, m)
    kinds = [k for k in range(34) if nonwild[k]]
    if kinds:  # a discard from a 14-tile hand: the same count as the 13 tiles left
        nonwild[kinds[0]] += 1
        assert hundiao_discard_shanten(nonwild, w, m, kinds)[kinds[0]] == hd


def test_tianjin_rollouts_aim_at_a_win_the_rules_allow() -> None:
    """The rollout policy in one seat against three of the plain one (no aim at 混儿吊, R5.2),
    duplicate over the four seats: it must win points by an interval that excludes zero (measured
    +1.35 ± 0.20 a hand over 3,200 hands; here 640 hands, about 2 s)."""
    per_deal = []
    for seed in range(20):
        total = 0
        for seat in range(4):
            m = Match(Rules.preset("classic", match_hands=8), 500 + seed)
            while not m.is_over:
                s = m.to_act
                policy = rollout_action if s == seat else _rollout_plain
                m.apply(s, policy(m, s, m.legal_actions(s)))
            total += m.scores[seat]
        per_deal.append(total / 32)
    mean = statistics.mean(per_deal)
    half = 2.09 * statistics.stdev(per_deal) / len(per_deal) ** 0.5  # Student's t, 19 degrees
    assert mean - half > 0, (mean, half)
