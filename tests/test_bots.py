"""Bots (tjmj.bots): legal choices only, the baseline's rules (R2, R4–R7), its fast shanten, determinism."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tjmj.bots import (
    BOT_NAMES,
    BaselineBot,
    Bot,
    BotOptionError,
    GreedyRandomBot,
    RandomBot,
    UnknownBot,
    bot_options,
    make_bot,
    split_bot_names,
)
from tjmj.bots.common import _discard_shanten, shanten_fast
from tjmj.game import Action, Match
from tjmj.hand import shanten_counts
from tjmj.rules import CLASSIC, YIYOU, Rules
from tjmj.simulate import simulate
from tjmj.tiles import TILE_TEXT, Tile, parse_tiles

T = Tile.parse


def obs_of(hand: str, *, phase: str = "turn", wilds: tuple[str, ...] = ("3z", "4z"), melds: tuple[str, ...] = (),
           claimable: str | None = None, seat: int = 0, scores: tuple[int, ...] = (0, 0, 0, 0),
           sit: bool = False) -> dict[str, Any]:
    """A hand-made observation in the shape of Match.observation (only the keys the bots read)."""
    seats = [{"melds": [], "discards": [], "hand_size": 13, "xiaoxianggong": False} for _ in range(4)]
    seats[seat]["melds"] = list(melds)
    return {"seat": seat, "phase": phase, "hand": [TILE_TEXT[t] for t in sorted(parse_tiles(hand))],
            "wilds": list(wilds), "seats": seats, "claimable": claimable, "scores": list(scores), "sit": sit,
            "dealer": 0, "pulls": [0] * 4}


def discards(hand: str) -> list[Action]:
    return [Action("discard", t) for t in sorted(set(parse_tiles(hand)))]


# ------------------------------------------------------------------------------------------
# The registry and the protocol
# ------------------------------------------------------------------------------------------


def test_registry_names_and_protocol():
    assert BOT_NAMES == ("random", "greedy", "baseline", "strong")
    for name in BOT_NAMES:
        bot = make_bot(name)
        assert isinstance(bot, Bot) and bot.name == name
    assert isinstance(make_bot("greedy"), GreedyRandomBot) and make_bot("greedy").win_when_possible
    assert not make_bot("random").win_when_possible


def test_unknown_bot_names_the_known_ones():
    with pytest.raises(UnknownBot, match=r"unknown bot 'alpha'; bots are random, greedy, baseline"):
        make_bot("alpha")


def test_bot_options_reach_the_constructor_and_name_the_bot():
    from tjmj.bots.expert import ExpertBot
    from tjmj.bots.strong import StrongBot

    bot = make_bot("expert( budget_ms=500 , max_shanten=0, own=strong, race=false)")
    assert isinstance(bot, ExpertBot)
    assert (bot.budget_ms, bot.max_shanten, bot.own, bot.race) == (500.0, 0, "strong", False)
    assert isinstance(bot.budget_ms, float)  # a whole number where a float is asked becomes one
    assert bot.name == "expert(budget_ms=500, max_shanten=0, own=strong, race=false)"  # one spelling
    assert make_bot("expert(max_shanten=null)").max_shanten is None
    nested = make_bot("expert(own=strong(revive=0), budget_ms=50)")
    assert nested.name == "expert(own=strong(revive=0), budget_ms=50)" and nested.budget_ms == 50.0
    assert isinstance(nested._own_bot, StrongBot) and nested._own_bot.revive == 0.0
    strong = make_bot("strong(revive=0)")
    assert isinstance(strong, StrongBot) and strong.revive == 0.0 and strong.name == "strong(revive=0)"
    assert make_bot("expert").name == "expert" and make_bot("expert()").name == "expert"
    assert bot_options("expert")["budget_ms"] == 200.0 and "revive" in bot_options("strong")
    assert bot_options("greedy") == {}


@pytest.mark.parametrize(("spec", "message"), [
    ("expert(budget=5)", r"^bot expert\(budget=5\): unknown option 'budget'; expert takes budget_ms, rollouts, "),
    ("greedy(x=1)", r"^bot greedy\(x=1\): unknown option 'x'; greedy takes no options$"),
    ("expert(budget_ms=fast)", r"^bot expert\(budget_ms=fast\): option budget_ms must be a number, got \"fast\"$"),
    ("expert(budget_ms=0)", r"^bot expert\(budget_ms=0\): budget_ms must be positive, got 0.0$"),
    ("expert(max_shanten=1.5)", r"option max_shanten must be a whole number or null, got 1.5$"),
    ("expert(race=1)", r"option race must be true/false, got 1$"),
    ("baseline(sit_threshold=true)", r"option sit_threshold must be a whole number, got true$"),
    ("expert(own=fast)", r"^bot expert\(own=fast\): own must be rollout or one of random, greedy, baseline, "
                         r"strong \(with options if any\), got 'fast'$"),
    ("expert(own=expert)", r"own must be rollout or one of .*, got 'expert'$"),
    ("expert(own=strong(revive=x))", r"^bot expert\(own=strong\(revive=x\)\): bot strong\(revive=x\): option revive "),
    ("expert(z)", r"^bot 'expert\(z\)': 'z' is not option=value"),
    ("expert(z=1, z=2)", r"option 'z' is given twice$"),
    ("expert(z=1", r"the options must end with '\)'"),
])
def test_bad_bot_options_get_one_line_naming_the_option(spec: str, message: str):
    with pytest.raises(BotOptionError, match=message) as e:
        make_bot(spec)
    assert "\n" not in str(e.value)


def test_bot_lists_split_outside_parentheses():
    assert split_bot_names("a, b(x=1, y=2),c") == ["a", "b(x=1, y=2)", "c"]
    assert split_bot_names("strong") == ["strong"]


def test_bot_docstrings_run():
    import doctest

    import tjmj.bots

    found = doctest.testmod(tjmj.bots, optionflags=doctest.ELLIPSIS)
    assert found.attempted >= 5 and found.failed == 0


# ------------------------------------------------------------------------------------------
# Fuzzing through the engine: every choice legal, the baseline's invariants hold
# ------------------------------------------------------------------------------------------

RULE_VARIANTS = [
    CLASSIC,
    YIYOU,
    Rules.preset("classic", wild_kinds=1, forced_sit=True, max_pull=0, min_fan=1),
    Rules.preset("classic", wild_kinds=3, wild_method="flip", last_tiles_no_claim=6, hundiao_alone_wins=False),
    Rules.preset("yiyou", settlement="pot", pot_stake=10, wild_discard_penalty=1),
]


def drive(rules: Rules, seed: int, names: list[str], hands: int) -> dict[str, int]:
    """Play ``hands`` hands, checking every bot decision against the legal list and the baseline's rules."""
    rules = rules.replace(match_hands=hands)
    bots = [make_bot(n) for n in names]
    rngs = [random.Random(seed * 10 + i) for i in range(4)]
    m = Match(rules, seed, names=names)
    seen = {"decisions": 0, "baseline_wins_legal": 0, "baseline_discards": 0}
    while not m.is_over:
        seat = m.to_act
        legal = m.legal_actions(seat)
        assert legal, f"seat {seat} must act but has no legal action"
        obs = m.observation(seat)
        bot = bots[m.seating[seat]]
        a = bot.choose(obs, legal, rngs[m.seating[seat]])
        assert a in legal, f"{bot.name} chose {a} not in {[str(x) for x in legal]}"
        if bot.name == "baseline":
            if any(x.type == "win" for x in legal):
                assert a.type == "win"  # always declares a legal win (R4)
                seen["baseline_wins_legal"] += 1
            if a.type == "discard":
                seen["baseline_discards"] += 1
                hand = obs["hand"]
                if TILE_TEXT[a.tile] in obs["wilds"]:  # R2: a wild discard only when every tile is wild
                    assert all(t in obs["wilds"] for t in hand), (hand, str(a))
        m.apply(seat, a)
        seen["decisions"] += 1
    assert sum(m.scores) == 0
    return seen


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=lambda r: r.name)
def test_bots_only_choose_legal_actions(rules: Rules):
    total = {"decisions": 0, "baseline_wins_legal": 0, "baseline_discards": 0}
    for seed, names in enumerate((["random"] * 4, ["greedy", "baseline", "random", "baseline"], ["baseline"] * 4)):
        for k, v in drive(rules, seed, names, hands=8).items():
            total[k] += v
    assert total["decisions"] > 500
    assert total["baseline_discards"] > 100 and total["baseline_wins_legal"] > 0


def test_baseline_beats_random():
    s = simulate(hands=40, seed=3, bots="baseline,random,baseline,random")
    assert s.wins_by_bot.get("baseline", 0) > s.wins_by_bot.get("random", 0)
    assert s.wins_by_bot["baseline"] >= 20  # most hands end in a baseline win
    assert s.points_by_bot["baseline"] > 0 > s.points_by_bot["random"]


# ------------------------------------------------------------------------------------------
# The baseline's rules on hand-made observations
# ------------------------------------------------------------------------------------------


def test_baseline_takes_a_legal_win():
    o = obs_of("123m456p789s111z3z4z")
    legal = [Action("win")] + discards("123m456p789s111z3z4z")
    assert BaselineBot().choose(o, legal, random.Random(0)) == Action("win")


def test_baseline_keeps_wilds_r2():
    # 3z 4z are wild; the hand holds non-wild junk, so it discards junk, never a wild
    hand = "19m19p19s1z5z6z7z2z3z4z4z"
    a = BaselineBot().choose(obs_of(hand), discards(hand), random.Random(0))
    assert a.type == "discard" and TILE_TEXT[a.tile] not in ("3z", "4z")


def test_baseline_discards_a_wild_only_when_all_are_wild():
    # four melds exposed, two wild tiles left (a complete 混儿 pair that may not win here)
    o = obs_of("3z4z", melds=("[111m]", "[222p]", "[333s]", "[555z]"))
    a = BaselineBot().choose(o, discards("3z4z"), random.Random(0))
    assert a.type == "discard" and TILE_TEXT[a.tile] in ("3z", "4z")


def test_baseline_discard_tie_break_isolated_honour_first():
    # 7z (isolated honour) and 9m (isolated terminal) both leave the hand ready (3z is wild):
    # the honour goes first
    hand = "123m456p789s11z3z7z9m"
    a = BaselineBot().choose(obs_of(hand), discards(hand), random.Random(0))
    assert a == Action("discard", T("7z"))
    hand = "111m444p888s11z3z9m5s"  # both isolated: the terminal before the middle tile
    assert BaselineBot().choose(obs_of(hand), discards(hand), random.Random(0)) == Action("discard", T("9m"))


def test_baseline_discard_minimises_shanten():
    hand = "123m456p789s1z5z4s7s3z"  # one wild (3z): compare with shanten_counts over every discard
    nonwild = [0] * 34
    for t in parse_tiles(hand):
        if TILE_TEXT[t] not in ("3z", "4z"):
            nonwild[t] += 1
    a = BaselineBot().choose(obs_of(hand), discards(hand), random.Random(0))
    after = nonwild.copy()
    after[a.tile] -= 1
    best = min(shanten_counts([c - (j == k) for j, c in enumerate(nonwild)], 1, 4) for k in range(34) if nonwild[k])
    assert shanten_counts(after, 1, 4) == best


def test_baseline_kongs_r4_r6():
    bot = BaselineBot()
    hand = "1111z123m456p789s5z"  # four isolated 东: a concealed kong keeps the shanten
    legal = [Action("ankong", T("1z"))] + discards(hand)
    assert bot.choose(obs_of(hand), legal, random.Random(0)) == Action("ankong", T("1z"))
    # 4444z are wild (gold kong, 金杠): always taken
    hand = "4444z123m456p789s5z"
    legal = [Action("ankong", T("4z"))] + discards(hand)
    assert bot.choose(obs_of(hand), legal, random.Random(0)) == Action("ankong", T("4z"))
    # 111m + 123m use all four 1m: konging them breaks the 123m, so no kong
    hand = "111123m456p789s5z6z"
    legal = [Action("ankong", T("1m"))] + discards(hand)
    assert bot.choose(obs_of(hand), legal, random.Random(0)).type == "discard"


def test_baseline_claims_r4():
    bot = BaselineBot()
    pon = [Action("pon", T("1z")), Action("pass")]
    # a pair of 东 that is not needed elsewhere: the pon brings the hand closer
    assert bot.choose(obs_of("123m456p789s11z56z", phase="claim", claimable="1z"), pon, random.Random(0)) == pon[0]
    # 3m3m sit inside 123m 345m: a pon would break them, so pass
    pon = [Action("pon", T("3m")), Action("pass")]
    got = bot.choose(obs_of("123345m2456p689s", phase="claim", claimable="3m"), pon, random.Random(0))
    assert got == Action("pass")
    # three isolated 北: the discard kong keeps the shanten (kong points are free, R6)
    legal = [Action("pon", T("4z")), Action("kong", T("4z")), Action("pass")]
    o = obs_of("444z123m456p789s", phase="claim", claimable="4z", wilds=("5z", "6z"))
    assert bot.choose(o, legal, random.Random(0)) == Action("kong", T("4z"))


def test_baseline_sit_and_pull_r7():
    bot = BaselineBot()
    sit = [Action("sit", None, 1), Action("sit", None, 0)]
    assert bot.choose(obs_of("", phase="sit", scores=(-20, 0, 0, 20)), sit, random.Random(0)).count == 1
    assert bot.choose(obs_of("", phase="sit", scores=(-21, 0, 0, 21)), sit, random.Random(0)).count == 0
    pull = [Action("pull", None, n) for n in range(3)]
    assert bot.choose(obs_of("", phase="pull", seat=1, sit=False), pull, random.Random(0)).count == 1
    assert bot.choose(obs_of("", phase="pull", seat=1, sit=True), pull, random.Random(0)).count == 0


# ------------------------------------------------------------------------------------------
# Fast shanten == tjmj.hand.shanten_counts; determinism
# ------------------------------------------------------------------------------------------


def test_shanten_fast_matches_shanten_counts():
    rng = random.Random(7)
    wall = [k for k in range(34) for _ in range(4)]
    for _ in range(3000):
        m = rng.randint(1, 4)
        n = 3 * m + rng.choice((1, 2))
        tiles = rng.sample(wall, n)
        w = rng.randint(0, min(5, n))
        nonwild = [0] * 34
        for t in tiles[w:]:
            nonwild[t] += 1
        assert shanten_fast(nonwild, w, m) == shanten_counts(nonwild, w, m)
        if n % 3 == 2:
            kinds = [k for k in range(34) if nonwild[k]]
            got = _discard_shanten(nonwild, w, m, kinds)
            for k in kinds:
                after = [c - (j == k) for j, c in enumerate(nonwild)]
                assert got[k] == shanten_counts(after, w, m)


def test_bots_deterministic_given_rng():
    legal = discards("123456789m1234z")
    for bot in (RandomBot(), GreedyRandomBot(), BaselineBot()):
        o = obs_of("123456789m1234z")
        a = [bot.choose(o, legal, random.Random(5)) for _ in range(3)]
        assert a[0] == a[1] == a[2]
        seq1 = [bot.choose(o, legal, r) for r in [random.Random(9)] for _ in range(20)]
        r2 = random.Random(9)
        assert seq1 == [bot.choose(o, legal, r2) for _ in range(20)]


def test_greedy_wins_and_random_is_uniform():
    legal = [Action("win"), *discards("123m")]
    assert all(GreedyRandomBot().choose({}, legal, random.Random(s)) == Action("win") for s in range(20))
    picks = {RandomBot().choose({}, legal, random.Random(s)) for s in range(200)}
    assert picks == set(legal)  # pure random: the win is just one of the options
