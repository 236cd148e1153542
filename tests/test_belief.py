"""Beliefs about the other hands (:mod:`tjmj.bots.belief`, issue 15): read from what the searching
seat sees only, one weight per (other seat, kind), and the expert's ``worlds="belief"`` built on them."""

from __future__ import annotations

import math
import random

import pytest

from tjmj.bots import make_bot
from tjmj.bots.belief import COEFFICIENTS, FEATURES, features, hand_weights
from tjmj.bots.expert import WORLD_KINDS, ExpertBot
from tjmj.game import Match
from tjmj.record import replay
from tjmj.rules import Rules
from tjmj.simulate import play_with

from .test_search import check_determinized, decisions, play_to_the_end

PRESETS = ("classic", "yiyou", "beijing", "beijing_a", "mcr")


def test_every_family_has_its_coefficients() -> None:
    for preset in PRESETS:
        coef = COEFFICIENTS[Rules.preset(preset).family]
        assert len(coef) == len(FEATURES) and all(math.isfinite(c) for c in coef)


def test_features_read_the_pond_the_melds_and_the_copies_out() -> None:
    at = FEATURES.index
    # 5m, the seat threw 5m early and 4m, has a chi in manzu; one 5m is out
    f = features(4, [4, 3, 30, 31, 32, 33], [0], False, 1)
    assert f[at("discarded")] == 1 and f[at("discarded_next")] == 1 and f[at("discarded_two_away")] == 0
    assert f[at("discarded_late")] == 0 and f[at("discarded_recent")] == 0
    assert f[at("meld_suit")] == 1 and f[at("one_out")] == 1 and f[at("honour")] == 0
    assert f[at("suit_share")] == pytest.approx(2 / 7)
    # 中 (5z), two out, no discard of it, a seat with two melds: an honour nobody can pon any more
    g = features(31, [0, 1], [9, 18], True, 2)
    assert g[at("honour")] == 1 and g[at("honour_two_out")] == 1 and g[at("honour_early")] == 1
    assert g[at("honour_melds")] == 1 and g[at("wild")] == 1 and g[at("two_out")] == 1
    assert g[at("discarded")] == 0 and g[at("terminal")] == 0
    # 1p at the edge: only 2p and 3p are its neighbours
    h = features(9, [10, 11], [], False, 0)
    assert h[at("terminal")] == 1 and h[at("discarded_next")] == 1 and h[at("discarded_two_away")] == 1


@pytest.mark.parametrize("preset", PRESETS)
def test_hand_weights_come_from_what_the_seat_sees(preset: str) -> None:
    """The weights are the same in a copy whose hidden tiles are dealt otherwise; the seat's own row is
    all 1; a kind the seat has seen in full keeps weight 1 (nothing of it to deal)."""
    for seed, m in decisions(preset, 8):
        seat = m.to_act
        w = hand_weights(m, seat)
        assert w == hand_weights(m.determinize(seat, random.Random(seed)), seat)
        assert w[seat] == [1.0] * 34
        unseen = m.unseen_counts(seat)
        for o in range(4):
            assert all(x > 0 for x in w[o])
            assert all(w[o][k] == 1.0 for k in range(34) if not unseen[k])
        d = m.determinize(seat, random.Random(seed), weights=w)
        check_determinized(m, seat, d)
        play_to_the_end(d, seed)


def test_the_weights_follow_the_coefficients() -> None:
    """A weight is exp(coefficients · features): all-zero coefficients give the uniform deal."""
    m = next(m for _, m in decisions("classic", 10) if m.phase == "turn")
    seat = m.to_act
    flat = hand_weights(m, seat, [0.0] * len(FEATURES))
    assert all(x == 1.0 for row in flat for x in row)
    honour_only = [0.0] * len(FEATURES)
    honour_only[FEATURES.index("honour")] = math.log(3.0)
    w = hand_weights(m, seat, honour_only)
    unseen = m.unseen_counts(seat)
    other = (seat + 1) % 4
    for k in range(34):
        if unseen[k]:
            assert w[other][k] == pytest.approx(3.0 if k >= 27 else 1.0)


def test_expert_with_belief_worlds() -> None:
    """``worlds="belief"``: legal, zero-sum and replayable, deterministic for a seed; a bad value is
    one error."""
    assert WORLD_KINDS == ("uniform", "belief")
    with pytest.raises(ValueError, match="worlds must be"):
        ExpertBot(worlds="oracle")
    assert make_bot("expert(worlds=belief)").worlds == "belief"  # type: ignore[attr-defined]

    def run(preset: str) -> Match:
        players = [ExpertBot(rollouts=3, z=0.0, min_rounds=1, worlds="belief"), make_bot("strong"),
                   ExpertBot(rollouts=3, z=0.0, min_rounds=1, worlds="belief"), make_bot("strong")]
        return play_with(Match(Rules.preset(preset, match_hands=1), 5), players, 5)

    for preset in ("classic", "beijing", "mcr"):
        a, b = run(preset), run(preset)
        assert a.is_over and sum(a.scores) == 0 and replay(a.events).ok
        assert a.events == b.events
