"""Properties of the MCR engine (docs/rules/MCR.md M1–M4) over many random hands.

The family-wide properties (tiles and flowers conserved, zero-sum, every record replays, illegal
actions change nothing, what a seat sees) are in tests/test_family_properties.py; here are MCR's
own: no flower ever in a hand and every seat's flowers public, the quick shape filter never hides a
win from the calculator, every win reaches 8 fan without flowers and pays as M4 says, 和绝张
agrees with a count made from the public events, and the deal and the winds go round as M1 says.
"""

from __future__ import annotations

import random
from itertools import permutations

import pytest

from tjmj.families.mcr.game import McrMatch
from tjmj.families.mcr.score import McrSituation, is_complete_mcr, score_mcr
from tjmj.game import Match
from tjmj.rules import Rules
from tjmj.tiles import TILES, Tile

from .test_family_properties import choose

CASES = {
    "mcr": Rules.preset("mcr"),
    "mcr-no-flowers-base-3": Rules.preset("mcr", flowers=False, base=3),
    "mcr-min-fan-2": Rules.preset("mcr", min_fan=2),
}


def played(rules: Rules, seed: int, hands: int = 4, check=None) -> McrMatch:
    m = Match(rules.replace(match_hands=hands), seed)
    assert isinstance(m, McrMatch)
    rng = random.Random(seed)
    while not m.is_over:
        if check is not None:
            check(m)
        m.apply(m.to_act, choose(m, rng))
    return m


def hands_of(m: Match) -> list[list[dict]]:
    """The events of each hand, start_kyoku to end_kyoku."""
    out: list[list[dict]] = []
    for e in m.events:
        if e["type"] == "start_kyoku":
            out.append([])
        if out and e["type"] != "end_game":
            out[-1].append(e)
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_flowers_never_in_a_hand_and_always_public(name):
    rules = CASES[name]

    def check(m: McrMatch) -> None:
        if m.phase not in ("turn", "claim", "rob"):
            return
        start = max(i for i, e in enumerate(m.events) if e["type"] == "start_kyoku")
        laid = [[e["pai"] for e in m.events[start:] if e["type"] == "flower" and e["actor"] == s] for s in range(4)]
        obs = m.observation(None)
        assert [s["flowers"] for s in obs["seats"]] == laid
        assert all(t < 34 for st in m.seats for t in st.hand)
        assert all(len(st.counts) == 34 for st in m.seats)

    for seed in range(6):
        m = played(rules, seed, check=check)
        flowers = sum(e["type"] == "flower" for e in m.events)
        assert (flowers > 0) is rules.flowers  # type: ignore[attr-defined]
        for hand in hands_of(m):
            for i, e in enumerate(hand):
                if e["type"] == "flower":  # laid aside, then replaced from the tail (or the wall is empty)
                    nxt = hand[i + 1]
                    assert (nxt["type"] == "tsumo" and nxt["actor"] == e["actor"] and nxt["replacement"]) or \
                        nxt["type"] == "ryukyoku", (e, nxt)


@pytest.mark.parametrize("name", sorted(CASES))
def test_win_is_offered_exactly_when_the_calculator_says_so(name):
    """On every turn the quick shape filter (is_complete_mcr) hides no win: ``win`` is legal exactly
    when the calculator, asked directly, finds a win of min_fan (M2)."""
    rules = CASES[name]
    seen = {"offered": 0, "turns": 0}

    def check(m: McrMatch) -> None:
        if m.phase != "turn" or m.after_claim:
            return
        seat = m.to_act
        offered = any(a.type == "win" for a in m.legal_actions(seat))
        res = m._self_drawn_win(seat)[0]
        assert offered is res.win, (m.seats[seat].hand, res)
        seen["turns"] += 1
        seen["offered"] += offered

    for seed in range(4):
        played(rules, seed, check=check)
    assert seen["turns"] > 500 and seen["offered"] > 0, seen


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_win_reaches_min_fan_and_pays_as_m4(name):
    rules = CASES[name]
    wins = 0
    for seed in range(8):
        m = played(rules, seed)
        base = m.rules.base
        for hand in hands_of(m):
            kinds = [e["type"] for e in hand]
            end = hand[-1]
            assert end["type"] == "end_kyoku" and sum(end["deltas"]) == 0
            if "ryukyoku" in kinds:
                assert end["payments"] == []
                continue
            (h,) = [e for e in hand if e["type"] == "hora"]
            wins += 1
            flowers = sum(1 for e in hand if e["type"] == "flower" and e["actor"] == h["actor"])
            assert h["fan"] >= m.rules.min_fan and h["flowers"] == flowers and h["total"] == h["fan"] + flowers
            assert sum(f["fan"] * f["count"] for f in h["fans"]) == h["total"]  # 花牌 listed last
            winner, total = h["actor"], h["total"]
            got = sorted((p["payer"], p["amount"]) for p in end["payments"])
            if h["self_drawn"]:
                want = [(p, (8 + total) * base) for p in range(4) if p != winner]
            else:
                want = [(p, (8 + total if p == h["target"] else 8) * base) for p in range(4) if p != winner]
            assert got == want and all(p["payee"] == winner and p["reason"] == "win" for p in end["payments"])
    assert wins >= 3


def _public_copies(hand: list[dict], hora: dict) -> int:
    """Copies of the winning kind face up before the win, counted from the events alone."""
    kind = hora["pai"]
    n = 0
    last_kakan = None
    for e in hand:
        t = e["type"]
        if t == "dahai" and e["pai"] == kind:
            n += 1  # in the pond; a claimed one is counted here and not in its meld
        elif t in ("chi", "pon", "daiminkan"):
            n += e["consumed"].count(kind)
        elif t == "kakan" and e["pai"] == kind:
            n += 1
            last_kakan = e
    if hora["rob_kong"] and last_kakan is not None:
        n -= 1  # the robbed tile never joined the meld
    if not hora["self_drawn"] and not hora["rob_kong"]:
        n -= 1  # the winning discard itself
    return n


def test_fourth_tile_agrees_with_the_public_events():
    wins = 0
    for name in sorted(CASES):
        for seed in range(8):
            m = played(CASES[name], seed)
            for hand in hands_of(m):
                for h in (e for e in hand if e["type"] == "hora"):
                    wins += 1
                    assert h["fourth_tile"] is (_public_copies(hand, h) == 3), h
    assert wins > 10


def test_the_deal_and_the_winds_go_round_over_a_match():
    """M1: 16 hands, dealer h % 4, prevalent wind h // 4, whoever wins; the winner's seat wind."""
    m = played(Rules.preset("mcr", min_fan=2), 11, hands=16)
    starts = [e for e in m.events if e["type"] == "start_kyoku"]
    assert [(e["hand"], e["dealer"], e["prevalent_wind"]) for e in starts] == [(h, h % 4, h // 4) for h in range(16)]
    dealer = 0
    for e in m.events:
        if e["type"] == "start_kyoku":
            dealer, pw = e["dealer"], e["prevalent_wind"]
        if e["type"] == "hora":
            assert e["seat_wind"] == (e["actor"] - dealer) % 4 and e["prevalent_wind"] == pw
    assert sum(e["type"] == "hora" for e in m.events) >= 3 and m.events[-1]["type"] == "end_game"


# ---- the quick filter against the calculator ------------------------------------------------


def _random_standard(rng: random.Random, n_sets: int) -> list[int]:
    while True:
        c = [0] * 34
        for _ in range(n_sets):
            if rng.random() < 0.5:
                s, k = rng.randrange(3), rng.randrange(7)
                for d in range(3):
                    c[s * 9 + k + d] += 1
            else:
                c[rng.randrange(34)] += 3
        c[rng.randrange(34)] += 2
        if max(c) <= 4:
            return c


def _situation() -> McrSituation:
    return McrSituation(self_drawn=True, fourth_tile=False, about_kong=False, wall_last=False, seat_wind=0,
                        prevalent_wind=0, flowers=0)


def _complete(c: list[int]) -> bool:
    tiles = [TILES[k] for k in range(34) for _ in range(c[k])]
    win = tiles.pop()
    return score_mcr(tiles, win, [], _situation(), min_fan=0).complete


def test_the_quick_filter_keeps_every_winning_shape():
    """The shape filter the engine uses before the calculator (score.is_complete_mcr) keeps all of
    M3's shapes: four melds and a pair, 七对, 十三幺, 全不靠 and 七星不靠, 组合龙 with a meld and a
    pair; and whatever the calculator finds complete."""
    rng = random.Random(5)
    shapes = []
    for _ in range(300):
        shapes.append(_random_standard(rng, 4))
    for _ in range(100):  # 七对
        c = [0] * 34
        for k in rng.sample(range(34), 7):
            c[k] = 2
        shapes.append(c)
    orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
    c = [0] * 34
    for k in orphans:
        c[k] = 1
    c[rng.choice(orphans)] += 1
    shapes.append(c)
    for perm in permutations(range(3)):
        knitted = [s * 9 + p + d for s, p in enumerate(perm) for d in (0, 3, 6)]
        for _ in range(10):  # 全不靠 / 七星不靠: 14 of the 9 knitted and 7 honours
            c = [0] * 34
            for k in rng.sample(knitted + list(range(27, 34)), 14):
                c[k] = 1
            shapes.append(c)
            rest = _random_standard(rng, 1)  # 组合龙 + a meld + a pair
            for k in knitted:
                rest[k] += 1
            if max(rest) <= 4:
                shapes.append(rest)
    for c in shapes:
        assert sum(c) == 14 and is_complete_mcr(c, 0), c
        assert _complete(c), [str(Tile(k)) for k in range(34) for _ in range(c[k])]
    # random hands: whatever the calculator finds complete, the filter keeps
    for _ in range(3000):
        c = [0] * 34
        for k in rng.sample([k for k in range(34) for _ in range(4)], 14):
            c[k] += 1
        if _complete(c):
            assert is_complete_mcr(c, 0), c


def test_doc_examples_are_generated_events():
    """Every example line of docs/records.md's MCR section is an event of the records it names."""
    import json
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "records.md").read_text(encoding="utf-8")
    section = text[text.index("\n## MCR records"):]
    section = section[: section.index("\n## ", 1)]
    examples = [json.loads(line) for block in re.findall(r"```json\n(.*?)```", section, re.S)
                for line in block.splitlines() if line.strip()]
    made = [e for seed in (0, 3) for e in played(Rules.preset("mcr"), seed).events]
    assert len(examples) >= 10 and [e for e in examples if e not in made] == []
    assert {"start_kyoku", "flower", "tsumo", "hora", "end_kyoku"} <= {e["type"] for e in examples}
