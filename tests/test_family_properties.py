"""Properties of the engine that hold in every rule family (issue 10, item 6), over many random hands.

For every preset of every family (and a few custom option sets): every tile is accounted for at
every decision, every hand's payments are zero-sum with no payment of 0, every record replays
with every win re-scored (tjmj.record.replay), illegal actions raise and change nothing, and what a
seat or a spectator is shown never holds another seat's concealed tiles or draws.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tjmj.game import Action, IllegalAction, Match
from tjmj.record import replay
from tjmj.rules import PRESETS, Rules
from tjmj.tiles import TILE_TEXT, Tile

CASES = {
    **{name: PRESETS[name] for name in PRESETS},
    "beijing-cap-reserve5": Rules.preset("beijing", cap=64, reserve_stacks=5, max_claims=2),
    "beijing_a-no-liability": Rules.preset("beijing_a", mutual_liability=0, shaozhuang_follow_wind=False),
    "beijing-no-hunyou-upstairs": Rules.preset("beijing", hunyou=False, upstairs=False, claimed_self_draw_only=False),
    "mcr-no-flowers-min-fan-4": Rules.preset("mcr", flowers=False, min_fan=4, base=2),
}
IDS = sorted(CASES)


def choose(m: Match, rng: random.Random) -> Action:
    """A policy that makes every kind of decision happen: wins and 混杠 when offered (mostly),
    claims often, 混儿悠 sometimes, else a random legal action."""
    legal = m.legal_actions(m.to_act)
    by = {a.type: a for a in legal}
    for t, p in (("win", 0.9), ("hungang", 0.9), ("hunyou", 0.5), ("chi", 0.5), ("pon", 0.6), ("kong", 0.7),
                 ("ankong", 0.7), ("added_kong", 0.7)):
        if t in by and rng.random() < p:
            return rng.choice([a for a in legal if a.type == t])
    discards = [a for a in legal if a.type == "discard"]
    if discards and rng.random() < 0.9:
        return min(discards, key=lambda a: (usefulness(m, a.tile), rng.random()))
    return rng.choice(legal)


def usefulness(m: Match, tile: Tile | None) -> int:
    """How much a tile helps the hand of the seat to act (pairs, neighbours; wilds most): the policy
    throws away the least useful, so that hands get won and every kind of win is checked."""
    assert tile is not None
    if tile in m.wilds:
        return 100
    counts = m.seats[m.to_act].counts
    score = 4 * (counts[tile] - 1)
    if tile < 27:
        for d in (-2, -1, 1, 2):
            k = tile + d
            if 0 <= k < 27 and k // 9 == tile // 9 and counts[k]:
                score += 3 - abs(d)
    return score


def tile_count(m: Match) -> Counter[int]:
    """Every tile in play: hands, melds, discards not claimed, the wall, a Tianjin indicator, MCR's
    flowers laid aside (kinds 34..41, M1)."""
    c: Counter[int] = Counter()
    claimed: Counter[int] = Counter()
    start = max(i for i, e in enumerate(m.events) if e["type"] == "start_kyoku")
    for e in m.events[start:]:
        if e["type"] in ("pon", "chi", "daiminkan"):
            claimed[int(Tile.parse(e["pai"]))] += 1
    for st in m.seats:
        c.update(int(t) for t in st.hand)
        for md in st.melds:
            c.update(int(t) for t in md.tiles)
        c.update(int(t) for t in st.discards)
    c.subtract(claimed)
    for st in m.seats:
        c.update(int(f) for f in getattr(st, "flower_tiles", ()))
    w = m.wall
    c.update(int(w.tiles[i]) for i in range(len(w.tiles)) if not w.taken[i])
    if m.family == "tianjin":
        c[int(w.indicator)] += 1  # face up, out of the wall (R3)
    return c


def play(rules: Rules, seed: int, hands: int = 4) -> tuple[Match, list[str]]:
    m = Match(rules.replace(match_hands=hands), seed)
    rng = random.Random(seed)
    problems: list[str] = []
    while not m.is_over:
        if m.phase in ("turn", "claim", "rob"):
            c = tile_count(m)
            if any(c[k] != 4 for k in range(34)):
                problems.append(f"tiles not conserved at event {len(m.events)}: "
                                f"{ {TILE_TEXT[k]: c[k] for k in range(34) if c[k] != 4} }")
            flowers = 1 if getattr(rules, "flowers", False) else 0
            if any(c[k] != flowers for k in range(34, 42)) or any(t >= 34 for st in m.seats for t in st.hand):
                problems.append(f"flowers not conserved (or one in a hand) at event {len(m.events)}")
        m.apply(m.to_act, choose(m, rng))
    return m, problems


@pytest.mark.parametrize("name", IDS)
def test_tiles_payments_and_records(name):
    rules = CASES[name]
    kinds: Counter[str] = Counter()
    for seed in range(12):
        m, problems = play(rules, seed)
        assert not problems, problems[:3]
        for e in m.events:
            kinds[e["type"]] += 1
            if e["type"] == "end_kyoku":
                assert sum(e["deltas"]) == 0 and all(p["amount"] > 0 for p in e["payments"]), e
        assert sum(m.scores) == 0
        res = replay(m.events)
        assert res.ok, res.summary()
    assert kinds["hora"] >= 3, kinds  # the policy wins hands: the checks saw wins, not only draws
    if rules.family == "beijing":
        assert kinds["chi"] + kinds["pon"] > 0 and kinds["tsumo"] > 0
    if rules.family == "mcr":  # flowers laid aside (M1), claims of every kind (M2)
        assert (kinds["flower"] > 0) is rules.flowers and kinds["chi"] > 0 and kinds["pon"] > 0, kinds


def snapshot(m: Match) -> tuple:
    return (len(m.events), m.to_act, m.phase, tuple(m.scores), tuple(len(st.hand) for st in m.seats)
            if hasattr(m, "seats") else ())


@pytest.mark.parametrize("name", IDS)
def test_illegal_actions_raise_and_change_nothing(name):
    rules = CASES[name]
    rng = random.Random(7)
    m = Match(rules.replace(match_hands=2), 7)
    tried = 0
    while not m.is_over and tried < 400:
        seat = m.to_act
        legal = m.legal_actions(seat)
        candidates: list[tuple[int, str | Action]] = [
            ((seat + 1) % 4, legal[0]),  # out of turn
            (seat, "fly 1"),
            (seat, Action("chi", Tile.parse("8m"))),
            (seat, Action("pon", Tile.parse("1z"))),
            (seat, Action("hunyou", Tile.parse("5m"))),
            (seat, "hungang"),
            (seat, Action("discard", Tile.parse(rng.choice(TILE_TEXT)))),
            (seat, Action("sit", None, 5)),
        ]
        for s, a in candidates:
            if isinstance(a, Action) and a in legal and s == seat:
                continue
            if a == "hungang" and Action("hungang") in legal and s == seat:
                continue
            before = snapshot(m)
            with pytest.raises(IllegalAction):
                m.apply(s, a)
            assert snapshot(m) == before, (s, a)
            tried += 1
        m.apply(seat, choose(m, rng))


@pytest.mark.parametrize("name", IDS)
def test_what_a_seat_or_a_spectator_sees(name):
    rules = CASES[name]
    rng = random.Random(3)
    m = Match(rules.replace(match_hands=2), 3)
    while not m.is_over:
        if m.phase in ("turn", "claim", "rob"):
            for seat in (None, 0, 1, 2, 3):
                obs = m.observation(seat)
                if seat is None:
                    assert "hand" not in obs and "drawn" not in obs and obs["legal_actions"] == []
                else:
                    assert sorted(obs["hand"]) == sorted(TILE_TEXT[t] for t in m.seats[seat].hand)
                for s, st in enumerate(obs["seats"]):
                    assert "hand" not in st and st["hand_size"] == len(m.seats[s].hand)
                assert "wall" not in str(obs).lower().replace("wall_left", "")
        m.apply(m.to_act, choose(m, rng))
    for seat in (None, 0, 1, 2, 3):
        for e in m.events_for(seat):
            if e["type"] == "tsumo":
                assert (e["pai"] is not None) == (e["actor"] == seat), e
            if e["type"] == "start_kyoku":
                assert "wall" not in e
                assert [h is not None for h in e["tehais"]] == [s == seat for s in range(4)]
