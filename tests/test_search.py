"""The engine's copies for search (issue 15): :meth:`Match.clone`, an exact and independent copy, and
:meth:`Match.determinize`, a copy in which what one seat cannot see is dealt again at random."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tjmj
from tjmj.game import PASS, Action, Match
from tjmj.rules import Rules
from tjmj.tiles import Tile

from .test_beijing_rules import match as beijing_match
from .test_beijing_rules import rules as beijing_rules
from .test_beijing_rules import wall as beijing_wall

PRESETS = ("classic", "yiyou", "beijing", "beijing_a", "mcr")


def pick(m: Match, rng: random.Random) -> Action:
    """A random legal action that claims, kongs and wins often, so that windows and settlements come up."""
    acts = m.legal_actions(m.to_act)
    bold = [a for a in acts if a.type in ("win", "pon", "kong", "chi", "ankong", "added_kong", "hungang")]
    if bold and rng.random() < 0.5:
        return rng.choice(bold)
    plain = [a for a in acts if a.type == "discard" and a.tile not in m.wilds]
    if plain and rng.random() < 0.9:
        return rng.choice(plain)
    return rng.choice(acts)


def advance(preset: str, seed: int, steps: int, hands: int = 2) -> Match:
    m = Match(Rules.preset(preset, match_hands=hands), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if m.is_over:
            break
        m.apply(m.to_act, pick(m, rng))
    return m


def until(preset: str, want: Any, seeds: range = range(200), hands: int = 2) -> Match:
    """The first state of random play (over seeds) where ``want(m)`` holds."""
    for seed in seeds:
        m = Match(Rules.preset(preset, match_hands=hands), seed)
        rng = random.Random(seed)
        while not m.is_over:
            if want(m):
                return m
            m.apply(m.to_act, pick(m, rng))
    raise AssertionError(f"no state found in {preset}")


def hidden(m: Match, seat: int) -> Counter[Tile]:
    """The tiles ``seat`` cannot see: the other seats' concealed tiles and the wall not yet drawn."""
    w = m.wall
    return Counter([w.tiles[i] for i, taken in enumerate(w.taken) if not taken]
                   + [t for s, x in enumerate(m.seats) if s != seat for t in x.hand])


def public(m: Match) -> list[tuple[Any, ...]]:
    """What every seat shows: melds, discards and claimed discards, hand sizes, drawn count."""
    return [(list(x.melds), list(x.discards), list(x.claimed), len(x.hand), x.drew, list(x.kongs)) for x in m.seats]


# ---- clone ----------------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 220),
       play_seed=st.integers(0, 1000))
def test_a_clone_plays_on_exactly_like_the_original(preset: str, seed: int, steps: int, play_seed: int) -> None:
    """The same actions applied to a clone and to the original give the same legal actions, the same
    events and the same scores from there on, to the end of the match (hands after the current one
    included: the clone has the match's rng too)."""
    m = advance(preset, seed, steps)
    c = m.clone()
    start = len(m.events)
    assert c.events == [] and c.scores == m.scores and c.to_act == m.to_act
    assert c.observation(c.to_act) == m.observation(m.to_act)
    rng = random.Random(play_seed)
    while not m.is_over:
        seat = m.to_act
        assert c.to_act == seat and c.legal_actions(seat) == m.legal_actions(seat)
        a = pick(m, rng)
        assert c.apply(seat, a) == m.apply(seat, a)
    assert c.is_over and c.events == m.events[start:] and c.scores == m.scores


@pytest.mark.parametrize("preset", PRESETS)
def test_a_clone_is_independent_of_the_original(preset: str) -> None:
    """Playing a clone to the end of the match, and changing its lists by hand, leaves the original
    as it was: observations, legal actions, the wall, the scores and the events."""
    for seed in range(4):
        m = advance(preset, seed, 30 + 7 * seed)
        seat = m.to_act
        before = ([m.observation(s) for s in range(4)], m.full_view(), m.legal_actions(seat), list(m.scores),
                  list(m.wall.taken), list(m.wall.tiles), len(m.events), [list(x.hand) for x in m.seats])
        c = m.clone()
        rng = random.Random(seed)
        while not c.is_over:
            c.apply(c.to_act, pick(c, rng))
        d = m.clone()
        for x in d.seats:
            x.hand.clear()
            x.counts[0] = 9
            x.discards.append(Tile(0))
            x.melds.clear()
        d.wall.taken[:] = [True] * len(d.wall.taken)
        d.scores[0] += 100
        after = ([m.observation(s) for s in range(4)], m.full_view(), m.legal_actions(seat), list(m.scores),
                 list(m.wall.taken), list(m.wall.tiles), len(m.events), [list(x.hand) for x in m.seats])
        assert after == before


SHARED = {"walls", "dafeng", "resumes"}  # never changed in play: the copy may share them


@pytest.mark.skipif(bool(tjmj.compiled()), reason="compiled classes keep no __dict__ to compare")
@pytest.mark.parametrize("preset", PRESETS)
def test_a_clone_copies_every_attribute(preset: str) -> None:
    """Every attribute of the match and every slot of its seats is in the clone, equal, and every list
    or dict that play changes is the clone's own: a family that adds state without copying it in its
    ``_copy_state`` (or its seat's ``_copy_to``) fails here."""
    for steps in (0, 25, 60):
        m = advance(preset, 2, steps)
        c = m.clone(events=True)
        mine, theirs = vars(m), vars(c)
        assert mine.keys() == theirs.keys()
        for k, v in mine.items():
            w = theirs[k]
            if k == "rng":
                assert w.getstate() == v.getstate() and w is not v
            elif k == "seats":
                for a, b in zip(v, w, strict=True):
                    assert type(a) is type(b) and a is not b
                    for slot in (x for cls in type(a).__mro__ for x in getattr(cls, "__slots__", ())):
                        assert getattr(a, slot) == getattr(b, slot), slot
                        if isinstance(getattr(a, slot), list):
                            assert getattr(a, slot) is not getattr(b, slot), slot
            elif k != "_legal":
                assert w == v, k
                if isinstance(v, list | dict) and k not in SHARED:
                    assert w is not v, k
        if m._has_hand():
            assert c.wall == m.wall and c.wall is not m.wall and c.wall.taken is not m.wall.taken


def test_a_clone_with_its_events_keeps_the_record_and_the_revealed_hands() -> None:
    m = until("classic", lambda m: m.hand_number == 1 and m.phase == "turn")
    c = m.clone(events=True)
    assert c.events == m.events and c.events is not m.events
    assert c.revealed_hands() == m.revealed_hands()
    assert m.clone()._ended is None  # without the events, only the hands that end in the copy are revealed


def test_a_clone_before_the_first_deal() -> None:
    """Tianjin's 坐庄/拉庄 come before the first wall is built: the clone has no hand either, and plays on alike."""
    m = Match(Rules.preset("classic", match_hands=1), 5)
    assert m.phase == "sit"
    c = m.clone()
    d = m.determinize(m.to_act, random.Random(1))
    assert c.observation(0) == m.observation(0) == d.observation(0)
    start = len(m.events)
    for x in (m, c):
        while not x.is_over:
            x.apply(x.to_act, x.legal_actions(x.to_act)[-1])
    assert c.scores == m.scores and c.events == m.events[start:]


# ---- determinize ----------------------------------------------------------------------------------


def decisions(preset: str, n: int) -> Iterator[tuple[int, Match]]:
    """Matches of random play stopped at a decision (a turn, a claim or a rob window), by seed."""
    for seed in range(n):
        m = advance(preset, seed, 15 + 11 * seed)
        if not m.is_over and m.phase in ("turn", "claim", "rob"):
            yield seed, m


def play_to_the_end(d: Match, seed: int) -> None:
    """Random legal play to the end of the match; the points still sum to zero."""
    rng = random.Random(seed)
    while not d.is_over:
        d.apply(d.to_act, pick(d, rng))
    assert sum(d.scores) == 0


def check_determinized(m: Match, seat: int, d: Match) -> None:
    """Everything ``seat`` sees is kept, the unseen tiles are the same multiset, hands keep their sizes."""
    assert d.observation(seat) == m.observation(seat)
    assert public(d) == public(m)
    assert d.seats[seat].hand == m.seats[seat].hand
    assert hidden(d, seat) == hidden(m, seat)
    assert d.wall.taken == m.wall.taken
    for x in d.seats:
        assert x.counts == [x.hand.count(Tile(k)) for k in range(34)]
        assert x.fours == sum(1 for n in x.counts if n == 4)
        assert all(t < 34 for t in x.hand)  # never a flower in a hand (MCR, M1)
    if m.family == "tianjin":
        assert d.wall.indicator_index == m.wall.indicator_index and d.indicator == m.indicator


@pytest.mark.parametrize("preset", PRESETS)
def test_determinize_keeps_what_the_seat_sees(preset: str) -> None:
    """At random moments of random play: the searching seat's observation of the copy is the same,
    and so are every meld, discard and its own hand; the unseen tiles are dealt again; the copy plays
    on legally to the end of the match."""
    changed = 0
    for seed, m in decisions(preset, 12):
        seat = m.to_act
        views = set()
        for k in range(4):
            d = m.determinize(seat, random.Random(k))
            check_determinized(m, seat, d)
            others = tuple(tuple(sorted(x.hand)) for s, x in enumerate(d.seats) if s != seat)
            views.add(others)
            changed += others != tuple(tuple(sorted(x.hand)) for s, x in enumerate(m.seats) if s != seat)
        assert len(views) > 1  # different rng, different deals
        play_to_the_end(d, seed)
    assert changed > 20


@pytest.mark.parametrize("preset", PRESETS)
def test_determinize_keeping_the_hands_deals_only_the_wall(preset: str) -> None:
    """``keep_hands=True`` (an oracle for measurements): every hand and the draw stay as they are, the
    wall's unseen tiles are dealt again among the same places, and the copy plays on to the end."""
    moved = 0
    for seed, m in decisions(preset, 8):
        seat = m.to_act
        d = m.determinize(seat, random.Random(seed), keep_hands=True)
        check_determinized(m, seat, d)
        assert [x.hand for x in d.seats] == [x.hand for x in m.seats] and d.last_draw == m.last_draw
        assert d.legal_actions(seat) == m.legal_actions(seat)
        unseen = [i for i, taken in enumerate(m.wall.taken) if not taken]
        assert sorted(d.wall.tiles[i] for i in unseen) == sorted(m.wall.tiles[i] for i in unseen)
        moved += [d.wall.tiles[i] for i in unseen] != [m.wall.tiles[i] for i in unseen]
        play_to_the_end(d, seed)
    assert moved >= 4


@pytest.mark.parametrize("preset", PRESETS)
def test_determinize_depends_only_on_what_the_seat_sees(preset: str) -> None:
    """Two matches that look the same to a seat (one a determinized copy of the other) give the same
    copy for the same rng: nothing hidden leaks into it."""
    for seed in range(5):
        m = advance(preset, seed, 20 + 9 * seed)
        if m.is_over:
            continue
        seat = m.to_act
        other = m.determinize(seat, random.Random(99))
        a, b = m.determinize(seat, random.Random(7)), other.determinize(seat, random.Random(7))
        assert a.full_view() == b.full_view()
        if m.phase in ("turn", "claim", "rob"):
            assert a.wall.tiles == b.wall.tiles
        rng = random.Random(seed)
        while not a.is_over:
            act = pick(a, rng)
            assert a.apply(a.to_act, act) == b.apply(b.to_act, act)


@pytest.mark.parametrize("preset", ["classic", "beijing", "mcr"])
def test_determinize_in_a_claim_window(preset: str) -> None:
    """In a claim window the seat asked stays asked with the same options; the other seats' options
    come from their new hands, those asked before it having passed."""
    m = until(preset, lambda m: m.phase == "claim" and (m.family == "tianjin" or m.window.order.index(m.to_act) > 0))
    seat = m.to_act
    for k in range(6):
        d = m.determinize(seat, random.Random(k))
        check_determinized(m, seat, d)
        w = d.window
        assert w is not None and d.to_act == seat and d.legal_actions(seat) == m.legal_actions(seat)
        assert w.options[seat] == m.window.options[seat]  # type: ignore[union-attr]
        assert all(w.answers[s] == PASS for s in w.order[:w.order.index(seat)])
        assert not w.decided()
        rng = random.Random(k)
        while not d.is_over:
            d.apply(d.to_act, pick(d, rng))


def test_determinize_in_a_rob_window() -> None:
    """A concealed kong that a 一条龙 hand may rob (Beijing B3): the robber's determinized copy keeps its
    [win, pass] and the kong's declarer's hidden draw is forgotten."""
    dragon = "123m456m78m1s1s1p2p3p"  # waits on 9m with 一条龙
    m = beijing_match(beijing_rules(), beijing_wall(0, {0: "9m9m9m9m", 1: dragon}))
    m.apply(0, "ankong 9m")
    assert m.phase == "rob" and m.to_act == 1
    d = m.determinize(1, random.Random(3))
    check_determinized(m, 1, d)
    assert d.phase == "rob" and d.legal_actions(1) == m.legal_actions(1) and d.last_draw is None
    for a in ("win", "pass"):
        e = d.clone()
        e.apply(1, a)


def test_beijing_indicator_stays_in_the_wall_where_it_lies() -> None:
    """The 混坯 (B2) is face up in the wall until it is drawn: it stays at its place; without wilds
    (beijing_a) the tile there is unseen and may move."""
    m = advance("beijing", 3, 12)
    w = m.wall
    assert m.indicator is not None and not w.taken[w.indicator_index]
    for k in range(10):
        d = m.determinize(m.to_act, random.Random(k))
        assert d.wall.tiles[w.indicator_index] == w.tiles[w.indicator_index] == d.indicator
    a = advance("beijing_a", 3, 12)
    assert a.indicator is None
    i = a.wall.indicator_index
    assert len({a.determinize(a.to_act, random.Random(k)).wall.tiles[i] for k in range(10)}) > 1


def test_mcr_flowers_stay_in_the_wall() -> None:
    """MCR's flowers are laid aside as soon as they come (M1): in a determinized copy no flower is in a
    hand, and the unseen flowers are among the wall's places."""
    seen_moved = False
    for seed in range(6):
        m = advance("mcr", seed, 25 + 13 * seed)
        if m.is_over:
            continue
        seat = m.to_act
        w = m.wall
        flowers = sorted(w.tiles[i] for i, taken in enumerate(w.taken) if not taken and w.tiles[i] >= 34)
        for k in range(5):
            d = m.determinize(seat, random.Random(k))
            dw = d.wall
            assert all(t < 34 for x in d.seats for t in x.hand)
            assert sorted(dw.tiles[i] for i, taken in enumerate(dw.taken) if not taken and dw.tiles[i] >= 34) == flowers
            assert [x.flower_tiles for x in d.seats] == [x.flower_tiles for x in m.seats]  # type: ignore[attr-defined]
            seen_moved |= [i for i, t in enumerate(dw.tiles) if t >= 34] != [i for i, t in enumerate(w.tiles) if t >= 34]
    assert seen_moved


def test_a_hunyou_hand_is_kept() -> None:
    """Beijing's 混儿悠 (B3) is declared in the open and its 13 tiles must win on any draw: a determinized
    copy keeps that seat's concealed tiles (the engine wins its next draw for it), and plays on."""

    def declare(m: Match) -> bool:
        for a in m.legal_actions(m.to_act):
            if a.type == "hunyou":
                m.apply(m.to_act, a)
                return True
        return False

    for seed in range(300):
        m = Match(Rules.preset("beijing", match_hands=1), seed)
        rng = random.Random(seed)
        while not m.is_over and not declare(m):
            m.apply(m.to_act, pick(m, rng))
        if m.is_over or m.phase not in ("turn", "claim"):
            continue
        who = next(s for s, x in enumerate(m.seats) if x.hunyou)  # type: ignore[attr-defined]
        if m.to_act == who:
            continue
        for k in range(5):
            d = m.determinize(m.to_act, random.Random(k))
            check_determinized(m, m.to_act, d)
            assert d.seats[who].hand == m.seats[who].hand
            while not d.is_over:
                d.apply(d.to_act, pick(d, random.Random(k)))
        return
    raise AssertionError("no 混儿悠 found")


@pytest.mark.parametrize("preset", PRESETS)
def test_determinize_for_a_seat_that_waits(preset: str) -> None:
    """On another seat's turn: that seat's drawn tile is one of its new tiles, the copy plays on; in a
    window only the seat asked can be determinized for (the others' answers are hidden)."""
    done = 0
    for seed in range(8):
        m = advance(preset, seed, 20 + 9 * seed)
        if m.is_over or m.phase != "turn":
            continue
        for seat in range(4):
            if seat == m.to_act:
                continue
            d = m.determinize(seat, random.Random(seed))
            check_determinized(m, seat, d)
            if m.last_draw is not None:
                assert d.last_draw in d.seats[m.to_act].hand
            rng = random.Random(seed)
            while not d.is_over:
                d.apply(d.to_act, pick(d, rng))
            done += 1
    assert done >= 6
    w = until(preset, lambda m: m.phase == "claim")
    waiting = next(s for s in range(4) if s != w.to_act)
    with pytest.raises(ValueError, match="only the seat asked"):
        w.determinize(waiting, random.Random(0))


# ---- unseen counts and weighted deals -------------------------------------------------------------


def unseen_of(m: Match, seat: int) -> list[int]:
    """What ``seat`` has not seen, by kind, as :func:`hidden` counts it (the flowers left out), less
    the tiles face up: Beijing's 混坯 in the wall, a kong shown in a rob window, a hand the engine
    keeps as it is (Beijing's 混儿悠)."""
    counts = [0] * 34
    for t, n in hidden(m, seat).items():
        if t < 34:
            counts[t] += n
    for i in m._visible_wall_positions():
        if not m.wall.taken[i]:
            counts[m.wall.tiles[i]] -= 1
    w = m.window
    if w is not None and w.kind == "rob" and w.source != seat:
        counts[w.tile] -= 4 if w.kong is not None and w.kong.name == "CONCEALED_KONG" else 1
    for s, x in enumerate(m.seats):
        if s != seat and getattr(x, "hunyou", False):
            for t in x.hand:
                counts[t] -= 1
    return counts


@pytest.mark.parametrize("preset", PRESETS)
def test_unseen_counts_are_what_the_seat_has_not_seen(preset: str) -> None:
    """``unseen_counts`` is the multiset the copies deal again, and the same in any copy of the match
    that looks the same to the seat (it tells nothing of where the tiles are)."""
    for seed, m in decisions(preset, 10):
        seat = m.to_act
        got = m.unseen_counts(seat)
        assert got == unseen_of(m, seat)
        assert sum(got) == sum(len(x.hand) for s, x in enumerate(m.seats) if s != seat) + sum(
            1 for i, taken in enumerate(m.wall.taken) if not taken and m.wall.tiles[i] < 34
            and i not in m._visible_wall_positions())
        assert m.determinize(seat, random.Random(seed)).unseen_counts(seat) == got
    first = Match(Rules.preset(preset))
    if first.phase not in ("turn", "claim", "rob"):  # (Tianjin's 坐庄/拉庄 come first)
        assert first.unseen_counts(0) == [0] * 34  # no hand in play yet


def uniform_weights() -> list[list[float]]:
    return [[1.0] * 34 for _ in range(4)]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_weighted_deal_keeps_what_the_seat_sees(preset: str) -> None:
    """With weights the copy is still one the seat cannot tell from the match: the same checks as a
    uniform one, the same copy from two matches that look alike, and it plays on to the end."""
    for seed, m in decisions(preset, 8):
        seat = m.to_act
        weights = [[0.2 + (k * 7 + s) % 5 for k in range(34)] for s in range(4)]
        d = m.determinize(seat, random.Random(seed), weights=weights)
        check_determinized(m, seat, d)
        other = m.determinize(seat, random.Random(seed + 50))
        e = other.determinize(seat, random.Random(seed), weights=weights)
        assert e.full_view() == d.full_view() and e.wall.tiles == d.wall.tiles
        play_to_the_end(d, seed)


def test_weights_steer_the_deal() -> None:
    """A seat is dealt a kind in proportion to its weight: never with weight 0, far more often with a
    large one than in a uniform deal; the other seats and the wall share what is left."""
    m = next(m for _, m in decisions("classic", 10) if m.phase == "turn")
    seat = m.to_act
    unseen = m.unseen_counts(seat)
    k = max(range(34), key=lambda x: unseen[x])  # a kind with several unseen copies
    other = (seat + 1) % 4
    heavy, none_, plain = uniform_weights(), uniform_weights(), uniform_weights()
    heavy[other][k] = 40.0
    none_[other][k] = 0.0
    held = {"heavy": 0, "none": 0, "plain": 0}
    for i in range(200):
        for name, w in (("heavy", heavy), ("none", none_), ("plain", plain)):
            d = m.determinize(seat, random.Random(i), weights=w)
            check_determinized(m, seat, d) if i < 3 else None
            held[name] += d.seats[other].counts[k]
    assert held["none"] == 0
    size, total = len(m.seats[other].hand), sum(unseen)
    expected = 200 * unseen[k] * size / total  # the uniform deal's mean count
    assert 0.6 * expected < held["plain"] < 1.5 * expected
    assert held["heavy"] > 2 * held["plain"] and held["heavy"] > 150 * min(unseen[k], size) / 4
    with pytest.raises(ValueError, match="every weight is 0"):
        m.determinize(seat, random.Random(0), weights=[[0.0] * 34 for _ in range(4)])
