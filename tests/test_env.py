"""The reinforcement-learning environments (tjmj.env, docs/env.md): PettingZoo's and Gymnasium's own
checks for every family, the fast observation encoder against the observation dict it stands for,
the action codec, rewards, seeds."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test

import tjmj.families.beijing.env
import tjmj.families.mcr.env
import tjmj.families.tianjin.env
from tjmj.env import ACTION_SIZE, aec_env, gym_env, parallel_env, raw_env
from tjmj.env.codec import ACTIONS, Encoder, action_index, action_mask, decode_action, encode_observation, fields
from tjmj.game import Action, IllegalAction, Match
from tjmj.rules import Rules

FAMILY_MODULES = [tjmj.families.tianjin.env, tjmj.families.beijing.env, tjmj.families.mcr.env]
PRESETS = ["classic", "yiyou", "beijing", "beijing_a", "mcr"]


@pytest.mark.parametrize("mod", FAMILY_MODULES, ids=lambda m: m.__name__.rsplit(".", 2)[1])
def test_pettingzoo_api_seed_and_max_cycles_tests_pass(mod):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checks' advice on Dict observations, not failures
        api_test(mod.env(hands=2), num_cycles=400)
        seed_test(mod.env, num_cycles=60)
        max_cycles_test(mod)
        parallel_api_test(mod.parallel_env(hands=1), num_cycles=300)


@pytest.mark.parametrize("preset", ["classic", "beijing", "mcr"])
def test_the_single_agent_wrapper_passes_gymnasiums_check_env(preset):
    env = gym_env(preset, hands=1, opponents="random")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)


def _random_states(preset: str, seed: int, limit: int = 400):
    """Every state of a random match (cut at ``limit`` decisions), with the match itself."""
    m = Match(Rules.preset(preset), seed=seed)
    rng = random.Random(seed)
    enc = Encoder(m)
    for _ in range(limit):
        yield m, enc
        if m.is_over:
            return
        s = m.to_act
        m.apply(s, rng.choice(m.legal_actions(s)))


def _assert_same_vector(m: Match, enc: Encoder, seat: int, where: str) -> None:
    """The encoder's vector of ``seat`` is the reference's; else the fields that differ."""
    fast, ref = enc.encode(seat), encode_observation(m.observation(seat))
    if not np.array_equal(fast, ref):
        diff = {k: (fields(fast)[k], fields(ref)[k]) for k in fields(ref)
                if not np.array_equal(fields(fast)[k], fields(ref)[k])}
        raise AssertionError(f"{where} seat {seat} phase {m.phase}: {diff}")


@settings(max_examples=12, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2**32))
def test_the_fast_encoder_shows_exactly_what_the_observation_shows(preset, seed):
    """The vector built from the engine's state equals the reference built from ``observation()``
    (the engine's one visibility decision) for every seat at every state: it can show no more."""
    checked = 0
    for m, enc in _random_states(preset, seed):
        for seat in range(4):
            _assert_same_vector(m, enc, seat, f"{preset} seed {seed}")
            checked += 1
    assert checked > 40


@settings(max_examples=12, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2**32))
def test_a_seat_observed_now_and_then_still_sees_exactly_its_observation(preset, seed):
    """The encoder keeps each seat's hand and pond between its observations, brought up to date
    from the events in between: a seat left unobserved for many decisions (as the envs leave every
    seat but the one to act) still gets exactly the reference vector."""
    pick = random.Random(seed ^ 0x5EED)
    checked = 0
    for m, enc in _random_states(preset, seed, limit=600):
        for seat in range(4):
            if seat != m.to_act and pick.random() < 0.85:
                continue
            _assert_same_vector(m, enc, seat, f"{preset} seed {seed}")
            checked += 1
    assert checked > 40


@settings(max_examples=12, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2**32))
def test_an_encoder_called_only_every_few_decisions_still_shows_exactly_the_observation(preset, seed):
    """Between two calls of the single-agent env the other three seats play, so the encoder meets
    several events at once (a pon and the claimer's discard, a kong and its replacement draw …);
    claims are taken 70% of the time so that such runs are common.  Every seat's vector is still
    exactly the reference's."""
    m = Match(Rules.preset(preset).replace(match_hands=3), seed=seed)
    enc = Encoder(m)
    rng = random.Random(seed)
    checked, gap = 0, 0
    while not m.is_over:
        s = m.to_act
        legal = m.legal_actions(s)
        melds = [a for a in legal if a.type in ("pon", "chi", "kong", "ankong", "added_kong")]
        m.apply(s, rng.choice(melds) if melds and rng.random() < 0.7 else rng.choice(legal))
        gap += 1
        if gap >= rng.choice((2, 3, 5, 8)) and not m.is_over:
            gap = 0
            for seat in range(4):
                _assert_same_vector(m, enc, seat, f"{preset} seed {seed}")
                checked += 1
    assert checked > 40


def test_vector_tables_batch_is_each_tables_observation_and_mask():
    """``VectorTables`` joins the tables' vectors and marks their masks into one batch: each row is
    that table's reference vector and mask; hand rewards add up to each match's final scores."""
    from tjmj.env.vector import VectorTables

    for preset in ("classic", "beijing", "mcr"):
        tables = VectorTables(preset, n=3, hands=2)
        obs, mask, seat = tables.reset(seed=7)
        rng = np.random.default_rng(7)
        totals = np.zeros((3, 4))
        finished = 0
        for _ in range(400):
            for i, m in enumerate(tables.matches):
                assert seat[i] == m.to_act
                assert np.array_equal(obs[i], encode_observation(m.observation(m.to_act)))
                assert np.array_equal(mask[i], action_mask(m.legal_actions(m.to_act)))
            acts = (rng.random(mask.shape) * mask).argmax(1)
            before = list(tables.matches)
            obs, mask, seat, rewards, done = tables.step(acts)
            totals += rewards
            for i in np.flatnonzero(done):
                assert list(totals[i]) == before[i].scores
                totals[i] = 0
                finished += 1
        assert tables.illegal == 0
        assert finished > 0, preset


def test_another_seats_hidden_tiles_never_change_a_seats_vector():
    """Two deals that differ only in other seats' concealed tiles give seat 0 the same vector."""
    m = Match(Rules.preset("mcr"), seed=5)
    rng = random.Random(1)
    while m.phase != "turn" or m.to_act != 0:
        s = m.to_act
        m.apply(s, rng.choice(m.legal_actions(s)))
    enc = Encoder(m)
    before, before1 = enc.encode(0), enc.encode(1)
    a, b = m.seats[1], m.seats[2]
    ta, tb = a.hand[0], next(t for t in b.hand if t != a.hand[0])
    a.remove(ta), b.remove(tb), a.add(tb), b.add(ta)  # swap one tile between two other hands
    assert np.array_equal(Encoder(m).encode(0), before)
    assert not np.array_equal(Encoder(m).encode(1), before1)  # seat 1 sees its own hand change


def test_every_action_has_one_index_that_decodes_back():
    assert ACTION_SIZE == len(ACTIONS) == len(set(ACTIONS))
    seen: set[str] = set()
    for preset in PRESETS:
        for m, _ in _random_states(preset, 3, limit=2000):
            if m.is_over:
                break
            legal = m.legal_actions(m.to_act)
            indices = [action_index(a) for a in legal]
            assert len(set(indices)) == len(indices), legal  # two legal actions never share an index
            for a, i in zip(legal, indices, strict=True):
                assert decode_action(i, legal) == a
                seen.add(a.type)
    assert {"discard", "pon", "chi", "win", "pass", "sit", "pull"} <= seen
    assert decode_action(ACTION_SIZE, [Action("pass")]) is None
    assert decode_action(-1, [Action("pass")]) is None


def _masked_random_episode(env, seed: int) -> tuple[dict[str, float], list[dict]]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() >= 1 and mask.dtype == np.int8
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return totals, env.unwrapped.match.events


@pytest.mark.parametrize("preset", PRESETS)
def test_hand_rewards_add_up_to_the_final_scores_and_a_seed_repeats_the_match(preset):
    env = aec_env(preset, hands=3, raw_obs=False)
    totals, events = _masked_random_episode(env, seed=11)
    final = events[-1]
    assert final["type"] == "end_game"
    assert [totals[f"seat_{s}"] for s in range(4)] == [float(x) for x in final["scores"]]
    assert sum(totals.values()) == 0  # zero-sum
    again = aec_env(preset, hands=3, raw_obs=False)
    assert _masked_random_episode(again, seed=11)[1] == events
    other = aec_env(preset, hands=3, raw_obs=False)
    assert _masked_random_episode(other, seed=12)[1] != events
    per_match = aec_env(preset, hands=3, reward="match", raw_obs=False)
    totals_m, events_m = _masked_random_episode(per_match, seed=11)
    assert events_m == events and totals_m == totals


def test_vector_tables_replace_an_illegal_action_by_the_default_and_count_it():
    """An index outside the space or not legal now is counted and replaced by the default action
    (pass, the drawn tile, no 坐庄/拉庄); a legal one is played as given."""
    from tjmj.env.vector import VectorTables

    tables = VectorTables("classic", n=2, hands=1)
    obs, mask, seat = tables.reset(seed=3)
    illegal_now = [int(np.flatnonzero(mask[i] == 0)[0]) for i in range(2)]
    before = [m.full_view() for m in tables.matches]
    obs, mask, seat, _, _ = tables.step(np.array([ACTION_SIZE + 5, illegal_now[1]]))
    assert tables.illegal == 2
    assert all(m.full_view() != v for m, v in zip(tables.matches, before))  # each match moved on
    obs, mask, seat, _, _ = tables.step(np.array([int(np.flatnonzero(mask[i])[0]) for i in range(2)]))
    assert tables.illegal == 2


def test_illegal_actions_raise_or_are_replaced_as_asked():
    env = raw_env("classic", hands=1, illegal="raise")
    env.reset(seed=3)
    obs, *_ = env.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.match.full_view()
    with pytest.raises(ValueError, match="not legal"):
        env.step(bad)
    assert env.match.full_view() == before  # nothing changed
    env = raw_env("classic", hands=1)
    env.reset(seed=3)
    agent = env.agent_selection
    env.step(bad)  # the default instead: the dealer does not sit (坐庄, R7)
    assert env.infos[agent].get("illegal") is True and env.match.full_view() != before
    with pytest.raises(ValueError, match="reward"):
        raw_env("classic", reward="points")


def test_the_raw_observation_dict_rides_in_info_and_the_mask_matches_it():
    env = raw_env("beijing", hands=1)
    env.reset(seed=4)
    for _ in range(60):
        agent = env.agent_selection
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            break
        raw = info["obs"]
        legal = [Action.parse(t) for t in raw["legal_actions"]]
        assert sorted(np.flatnonzero(obs["action_mask"])) == sorted(action_index(a) for a in legal)
        assert np.array_equal(obs["observation"], encode_observation(raw))
        assert raw["seat"] == int(agent.split("_")[1])
        env.step(action_index(legal[0]))


def test_the_gym_wrapper_plays_whole_matches_against_bots():
    env = gym_env("mcr", hands=2, opponents=["baseline", "random", "greedy"], seat=None)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=9)
    seat = env.seat
    total, done, steps = 0.0, False, 0
    while not done:
        obs, r, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += r
        steps += 1
    assert steps > 5 and total == env.match.scores[seat]
    with pytest.raises(ValueError, match="opponents"):
        gym_env("mcr", opponents=["baseline"])
    with pytest.raises(Exception, match="nosuch"):
        gym_env("mcr", opponents="nosuch")
    with pytest.raises(IllegalAction):
        Action.parse("nosuch")


def test_the_parallel_env_applies_only_the_deciding_seats_action():
    env = parallel_env("mcr", hands=1)
    obs, _ = env.reset(seed=2)
    deciding = [a for a in env.agents if obs[a]["action_mask"].any()]
    assert len(deciding) == 1
    m = env.match
    n = len(m.events)
    others = {a: 0 for a in env.agents if a not in deciding}  # ignored
    act = int(np.flatnonzero(obs[deciding[0]]["action_mask"])[0])
    env.step({**others, deciding[0]: act})
    dahai = [e for e in m.events[n:] if e["type"] == "dahai"]
    assert [(e["actor"], e["pai"]) for e in dahai] == [(int(deciding[0][-1]), str(ACTIONS[act].tile))]


def test_the_docstring_examples_run():
    import doctest

    import tjmj.env.vector

    assert doctest.testmod(tjmj.env.vector).attempted > 0
    assert doctest.testmod(tjmj.env.vector).failed == 0


def test_the_observation_table_in_the_docs_matches_the_layout():
    """docs/env.md lists every field with its positions: the layout and the page agree."""
    import re
    from pathlib import Path

    from tjmj.env.codec import OFFSETS

    page = (Path(__file__).resolve().parent.parent / "docs" / "env.md").read_text()
    rows = re.findall(r"^\| ((?:`\w+`(?:, )?)+) \| (\d+)(?:–(\d+))? \|", page, re.M)
    listed: dict[str, tuple[int, int]] = {}
    for names, a, b in rows:
        listed[" ".join(re.findall(r"`(\w+)`", names))] = (int(a), int(b or a))
    covered = []
    for names, (a, b) in listed.items():
        if names.split()[0] not in OFFSETS:
            continue  # the action table
        first, last = names.split()[0], names.split()[-1]
        assert (OFFSETS[first][0], OFFSETS[last][1] - 1) == (a, b), names
        covered += names.split()
    assert sorted(covered) == sorted(OFFSETS)
