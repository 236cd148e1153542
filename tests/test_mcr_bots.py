"""The bots in MCR matches (docs/rules/MCR.md M1–M4, docs/bots.md): every bot plays only legal
actions over many hands and deterministically, and its records replay; the MCR shanten against the
CLI's; the baseline's and the strong bot's rules on set positions; self-play and tournaments with
``--rules mcr`` (MCR's rows, none of Tianjin's); and the strong bot's edge over the baseline,
checked with its confidence interval."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tjmj.bots import BOT_NAMES, make_bot
from tjmj.cli.simulate import simulate as simulate_cmd
from tjmj.cli.tournament import tournament as tournament_cmd
from tjmj.families.mcr.bots.baseline import McrView, discard_shanten, is_mcr, mcr_shanten, shapes_shanten
from tjmj.families.mcr.bots.strong import ROUTES, _Model, route_distances, template_distance
from tjmj.families.mcr.records import KONG_TYPES as MCR_KONG_TYPES
from tjmj.families.mcr.rules import MCR
from tjmj.families.mcr.score import McrMeld, is_complete_mcr
from tjmj.families.mcr.waits import shanten_shapes
from tjmj.game import Action, Match
from tjmj.record import read_records, replay
from tjmj.rules import Rules
from tjmj.simulate import play_match, play_with, simulate
from tjmj.tiles import TILE_TEXT, parse_tiles
from tjmj.tournament import tournament

TIMING = ("seconds", "hands_per_s")


def mcr(hands: int = 1, **kw: Any) -> Rules:
    return Rules.preset("mcr", match_hands=hands, **kw)


def counts(text: str) -> list[int]:
    c = [0] * 34
    for t in parse_tiles(text):
        c[t] += 1
    return c


def obs(hand: str, *, melds: tuple[str, ...] = (), phase: str = "turn", window: str | None = None,
        source: int = 3, discards: dict[int, str] | None = None, opp_melds: dict[int, tuple[str, ...]] | None = None,
        wall_left: int = 70, seat_wind: str = "S", prevalent: str = "E") -> dict[str, Any]:
    """An observation of seat 0 as the engine gives one (only the fields the bots read)."""
    discards = discards or {}
    opp_melds = opp_melds or {}
    winds = ["ESWN"[("ESWN".index(seat_wind) + s) % 4] for s in range(4)]
    return {
        "seat": 0, "phase": phase, "prevalent_wind": prevalent, "seat_winds": winds, "wall_left": wall_left,
        "hand": [TILE_TEXT[t] for t in sorted(parse_tiles(hand))],
        "window": {"kind": "claim", "tile": window, "from": source, "waiting": [0]} if window else None,
        "seats": [{"melds": list(melds if s == 0 else opp_melds.get(s, ())),
                   "discards": [TILE_TEXT[t] for t in parse_tiles(discards.get(s, ""))], "claimed": [],
                   "hand_size": 13, "flowers": []} for s in range(4)],
    }


def choose(bot_name: str, o: dict[str, Any], legal: list[str]) -> str:
    bot = make_bot(bot_name)
    set_rules = getattr(bot, "set_rules", None)
    if set_rules is not None:
        set_rules(MCR)
    acts = [Action.parse(a) for a in legal]
    got = bot.choose(o, acts, random.Random(0))
    assert got in acts
    return str(got)


def discards_of(hand: str) -> list[str]:
    return [f"discard {TILE_TEXT[k]}" for k in sorted(set(parse_tiles(hand)))]


# ---- whole matches: legal, deterministic, replayable ----------------------------------------------


class _Checked:
    """A bot wrapper that checks every answer is one of the legal actions it was given."""

    def __init__(self, name: str) -> None:
        self.bot = make_bot(name)
        self.name = name
        self.uses_observation = getattr(self.bot, "uses_observation", True)
        self.decisions = 0

    def set_rules(self, rules: Rules) -> None:
        set_rules = getattr(self.bot, "set_rules", None)
        if set_rules is not None:
            set_rules(rules)

    def choose(self, o: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        a = self.bot.choose(o, legal, rng)
        assert a in legal, (a, legal)
        self.decisions += 1
        return a


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), mix=st.permutations(["strong", "baseline", "strong", "greedy"]),
       flowers=st.booleans())
def test_bots_make_only_legal_actions_over_many_mcr_hands(seed: int, mix: list[str], flowers: bool):
    """Property: whatever the deal, the strong and baseline bots (beside each other and a greedy
    random player) answer every decision of whole hands with one of the legal actions, and the
    hands end in a win or a drawn hand with scores that sum to zero (M4)."""
    players = [_Checked(n) for n in mix]
    m = play_with(Match(mcr(2, flowers=flowers), seed, names=mix), players, seed)
    assert m.is_over and sum(m.scores) == 0
    assert all(p.decisions for p in players)
    assert replay(m.events).ok


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_every_bot_plays_whole_mcr_matches_deterministically_and_replayably(bot: str):
    r = mcr(4)
    bots = [bot, bot, "baseline", "greedy"] if bot != "baseline" else [bot] * 4
    a = play_match(r, 21, bots)
    b = play_match(r, 21, bots)
    assert a.is_over and a.hand_number == 4 and sum(a.scores) == 0
    assert a.events == b.events
    assert replay(a.events).ok


def test_the_bots_read_the_family_from_the_observation():
    m = Match(mcr(), 3)
    o = m.observation(m.to_act)
    assert is_mcr(o)
    assert not is_mcr(Match(Rules.preset("beijing", match_hands=1), 3).observation(0))
    assert not is_mcr(Match(Rules.preset("classic", match_hands=1), 3).observation(0))
    for name in ("baseline", "strong"):  # no driver: the bot plays by the preset mcr
        a = make_bot(name).choose(o, m.legal_actions(m.to_act), random.Random(1))
        assert a in m.legal_actions(m.to_act)


# ---- shanten over every shape (M3) -----------------------------------------------------------------


def _random_counts(rng: random.Random, n: int, bias: int) -> list[int]:
    pool = [k for k in range(34) for _ in range(4)]
    rng.shuffle(pool)
    if bias == 1:  # near a standard hand
        pool.sort(key=lambda k: k // 3 + rng.random() * 4)
    elif bias == 2:  # knitted tiles and honours
        knit = {0, 3, 6, 10, 13, 16, 20, 23, 26, 27, 28, 29, 30, 31, 32, 33}
        pool.sort(key=lambda k: (k not in knit) + rng.random())
    c = [0] * 34
    for k in pool[:n]:
        c[k] += 1
    return c


def test_shanten_agrees_with_the_cli_helpers_shanten_on_random_hands():
    """The bots' incremental shanten equals :func:`tjmj.families.mcr.waits.shanten_shapes` shape
    by shape, and after every discard of a 14-tile hand."""
    rng = random.Random(8)
    for n in range(3000):
        n_melds = rng.choice((0, 0, 0, 1, 1, 2))
        c = _random_counts(rng, 14 - 3 * n_melds, n % 3)
        kinds = [k for k in range(34) if c[k]]
        after = discard_shanten(c, n_melds, kinds)
        for k in kinds:
            c[k] -= 1
            assert shapes_shanten(c, n_melds) == shanten_shapes(c, n_melds)
            assert after[k] == mcr_shanten(c, n_melds) == min(v for v in shanten_shapes(c, n_melds).values()
                                                             if v is not None)
            c[k] += 1


def test_shanten_zero_is_exactly_ready():
    """A 13-tile hand has shanten 0 exactly when some tile completes it in a shape of M3."""
    rng = random.Random(9)
    seen = Counter()
    for n in range(2000):
        c = _random_counts(rng, 13, n % 3)
        ready = False
        for k in range(34):
            if c[k] < 4:
                c[k] += 1
                ready = ready or is_complete_mcr(c, 0)
                c[k] -= 1
        s = mcr_shanten(c, 0)
        assert s >= 0 and (s == 0) == ready, c
        seen[ready] += 1
    assert seen[True] > 30


def test_route_distances():
    # 清龙 in 万 with 1p 2p 5s 5s: the straight is there, the hand ready on 3p
    c = counts("123456789m12p55s")
    pure = next(r for r in ROUTES if r.name == "pure_straight" and r.groups[0] == ("c", 0))
    assert template_distance(c, [], pure) == 0  # ready (3p completes 123p)
    d = dict((name, dist) for name, _fan, dist in route_distances(tuple(c), (), mcr_shanten(c, 0)))
    assert d["pure_straight"] == 0
    # a claimed 456m fits the straight; a claimed 777p and 111z leave no room for it
    melds = (McrMeld("chi", parse_tiles("4m")[0]),)
    c = counts("123789m12p55s")
    assert dict((n, x) for n, _f, x in route_distances(tuple(c), melds, 0))["pure_straight"] == 0
    melds2 = (McrMeld("pon", parse_tiles("7p")[0]), McrMeld("pon", parse_tiles("1z")[0]))
    assert "pure_straight" not in {n for n, _f, _x in route_distances(tuple(counts("123m456m5s")), melds2, 1)}
    # seven pairs and a flush
    c = counts("1133557799m1p2p3s")
    got = dict((n, x) for n, _f, x in route_distances(tuple(c), (), mcr_shanten(c, 0)))
    assert got["seven_pairs"] == 1 and got["full_flush"] == 3


# ---- the baseline ----------------------------------------------------------------------------------------


def test_baseline_and_strong_win_whenever_win_is_legal():
    """On its turn, on a discard (before a pon of it) and robbing a kong: ``win`` is taken (the engine
    offers it only for 8 fan, M2)."""
    cases = [(obs("123m456m789m123p55s"), ["win", "discard 1m", "discard 5s"]),
             (obs("123m456m789m123p5s", phase="claim", window="5s"), ["win", "pon 5s", "pass"]),
             (obs("123m456m789m123p5s", phase="rob", window="5s"), ["win", "pass"])]
    for o, legal in cases:
        for bot in ("baseline", "strong", "greedy"):
            assert choose(bot, o, legal) == "win"


def test_baseline_discards_to_the_lowest_shanten_over_every_shape():
    # seven pairs one from ready: the lone honour goes, not a pair
    hand = "1133m5577p99s1z2z4z"
    assert choose("baseline", obs(hand), discards_of(hand)) in ("discard 1z", "discard 2z", "discard 4z")
    # 十三幺 two from ready: the 5m is the tile that helps no shape
    hand = "19m19p19s1234566z5m"
    assert choose("baseline", obs(hand), discards_of(hand)) == "discard 5m"


def test_baseline_claims_what_costs_no_distance():
    # 55s in hand, a 5s offered: the pon leaves the hand one step closer
    o = obs("123m456m78p55s1z9s2z", phase="claim", window="5s")
    assert choose("baseline", o, ["pon 5s", "pass"]) == "pon 5s"
    # a pon that breaks a ready hand is passed
    o = obs("123m456m789m11p55s", phase="claim", window="1p")
    assert choose("baseline", o, ["pon 1p", "win", "pass"]) == "win"
    assert choose("baseline", obs("123m456m789m11p55s", phase="claim", window="9p"), ["pass"]) == "pass"


# ---- the strong bot ------------------------------------------------------------------------------------


def test_strong_keeps_a_ready_hand_that_reaches_8_fan():
    """Both 1p and 4p leave the hand ready on 7s; without 1p it is 箭刻 and 门前清 (5 fan on a
    discard, 7 self-drawn: the engine never lets it win, M2), without 4p the 123p makes 花龙 with
    456m and 789s (13 fan).  The baseline lets 1p go (a terminal), the strong bot 4p."""
    hand = "45556m1234p89s555z"
    o = obs(hand)
    model = _Model(McrView(o, MCR))
    for tile, legal_wins in (("1p", False), ("4p", True)):
        c = counts(hand)
        c[parse_tiles(tile)[0]] -= 1
        assert mcr_shanten(c, 0) == 0 and (model.ready_value(c, ()) > 0) == legal_wins
    assert choose("baseline", o, discards_of(hand)) == "discard 1p"
    assert choose("strong", o, discards_of(hand)) == "discard 4p"


def test_strong_passes_a_claim_that_leaves_no_route_to_8_fan():
    """A concealed hand ready with 8 fan and more (双暗刻, 门前清 … on 3p or 6s); the chi of 5s keeps
    it ready (the baseline takes it: it costs no distance) but ends 门前清 and the pungs' 暗刻, and no
    wait of the hand it leaves reaches 8 fan: the strong bot passes."""
    o = obs("33p666p66s789s333z", phase="claim", window="5s", source=3)
    model = _Model(McrView(o, MCR))
    c = counts("33p666p66s789s333z")
    assert model.ready_value(c, ()) > 0
    after = counts("33p666p6s89s333z")  # the chi 567s made, the best discard 6s or 8s/9s still to come
    melds = (McrMeld("chi", parse_tiles("5s")[0], claimed=parse_tiles("5s")[0]),)
    for k in range(34):
        if after[k]:
            after[k] -= 1
            if mcr_shanten(after, 1) == 0:
                assert model.ready_value(after, melds) == 0, TILE_TEXT[k]
            after[k] += 1
    assert choose("baseline", o, ["chi 5s", "pass"]) == "chi 5s"
    assert choose("strong", o, ["chi 5s", "pass"]) == "pass"


def test_strong_plays_safe_when_its_hand_is_poor_late():
    """Late in the hand (two rounds left), far from ready, against opponents who have claimed and
    discarded much: the strong bot lets go of the tile least likely to deal in (an honour two
    opponents discarded), not the baseline's tile of lowest shanten."""
    hand = "19m4p258s1357z6z5m7p3p"
    discards = {1: "1z2z3z4z9m9p9s1s2m8m3s6p", 2: "1m2m3m1p2p1s2s3s4s4z5z6z", 3: "7z7z2z1p9m9s8s8p2p3p5z6s"}
    melds = {1: ("[123p]", "[777s]"), 2: ("[456m]",), 3: ("[888m]", "[345p]")}
    o = obs(hand, discards=discards, opp_melds=melds, wall_left=8)
    model = _Model(McrView(o, MCR))
    safest = min(sorted(set(parse_tiles(hand))), key=model.danger)
    assert choose("strong", o, discards_of(hand)) == f"discard {TILE_TEXT[safest]}" == "discard 5z"
    assert choose("baseline", o, discards_of(hand)) != "discard 5z"


# ---- self-play and tournaments with --rules mcr -------------------------------------------------------------


def test_simulate_mcr_records_replay_and_the_summary_has_mcrs_rows(tmp_path: Path):
    one, two = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    kw: dict[str, Any] = {"hands": 24, "seed": 3, "rules": Rules.preset("mcr"), "hands_per_match": 8,
                          "bots": "strong,baseline,greedy,baseline"}
    s1 = simulate(**kw, out=one)
    s2 = simulate(**kw, out=two, workers=2)
    assert one.read_bytes() == two.read_bytes()
    d1, d2 = s1.to_dict(), s2.to_dict()
    for k in TIMING:
        d1.pop(k), d2.pop(k)
    assert d1 == d2
    matches = list(read_records(one))
    assert len(matches) == 3 and all(replay(evs).ok for evs in matches)
    evs = [e for m in matches for e in m]
    types = Counter(e["type"] for e in evs)
    hora = [e for e in evs if e["type"] == "hora"]
    assert d1["family"] == "mcr" and d1["hands"] == 24 == types["end_kyoku"]
    assert d1["wins"] == types["hora"] == len(hora) > 0 and d1["draws"] == types["ryukyoku"]
    assert d1["self_drawn"] + d1["discard_wins"] + d1["rob_kong_wins"] == d1["wins"]
    assert d1["chis"] == types["chi"] and d1["pons"] == types["pon"]
    assert set(d1["kongs"]) == set(MCR_KONG_TYPES)
    assert d1["mean_fan"] == pytest.approx(sum(e["fan"] for e in hora) / len(hora))
    assert d1["mean_total"] == pytest.approx(sum(e["total"] for e in hora) / len(hora))
    assert d1["mean_total"] == pytest.approx(d1["mean_fan"] + d1["mean_flowers"])
    assert all(e["fan"] >= 8 for e in hora)  # M2: no win below 8 fan
    for code, v in d1["fans"].items():
        assert v["count"] == sum(code in e["elements"] for e in hora)
        assert v["frequency"] == pytest.approx(v["count"] / len(hora)) and v["name"]
    for key in ("tianhu", "chan", "sits", "pulls", "wild_discards", "combinations", "shaozhuang", "upstairs",
                "hunyou_declared", "hungang", "elements", "mean_value"):
        assert key not in d1  # Tianjin's and Beijing's own figures are not MCR's


def test_simulate_cli_mcr_text_and_json():
    runner = CliRunner()
    res = runner.invoke(simulate_cmd, ["--hands", "8", "--seed", "1", "--rules", "mcr", "--bots",
                                       "baseline,greedy,baseline,strong"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    out = res.stdout
    for row in ("self-drawn / on a discard / 抢杠和", "mean fan of a win (M2: without flowers)",
                "mean fan of a win with flowers", "chi / pon", "draws", "Fans of the wins (M3)"):
        assert row in out, row
    for other in ("铲", "小相公", "sits / pulls", "天胡", "烧庄", "上楼", "混儿悠", "混杠", "Winning combinations"):
        assert other not in out, other
    res = runner.invoke(simulate_cmd, ["--hands", "8", "--rules", "mcr", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["family"] == "mcr" and d["hands"] == 8 and "fans" in d and "chan" not in d and "tianhu" not in d
    res = runner.invoke(simulate_cmd, ["--help"])
    assert "mcr" in res.output and "Chinese Official" in res.output


def test_tournament_cli_mcr_text_and_json():
    runner = CliRunner()
    args = ["--bots", "baseline,random,greedy,baseline", "--hands", "16", "--seed", "2", "--match-hands", "4",
            "--rules", "mcr"]
    r = runner.invoke(tournament_cmd, args, env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "fan" in r.output and "点炮" in r.output and "自摸" in r.output and "吃碰" in r.output
    assert "铲" not in r.output and "value" not in r.output
    r = runner.invoke(tournament_cmd, [*args, "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["family"] == "mcr" and d["rules"] == "mcr" and d["hands"] == 16
    s = d["results"]["baseline"]
    assert {"mean_fan", "mean_total", "dealt_in", "self_drawn", "discard_wins", "claims"} <= set(s)
    assert "chan" not in s and "mean_value" not in s and "shaozhuang" not in s
    assert sum(x["points"] for x in d["results"].values()) == 0
    assert sum(x["dealt_in"] for x in d["results"].values()) == sum(x["discard_wins"] for x in d["results"].values())
    assert "mcr" in runner.invoke(tournament_cmd, ["--help"]).output


def test_tournament_mcr_is_deterministic_whatever_the_workers():
    kw: dict[str, Any] = {"hands": 16, "seed": 4, "rules": Rules.preset("mcr"), "match_hands": 2}
    a = tournament(["strong", "baseline", "random", "greedy"], workers=1, **kw).to_dict()
    b = tournament(["strong", "baseline", "random", "greedy"], workers=2, **kw).to_dict()
    for k in TIMING:
        a.pop(k), b.pop(k)
    assert a == b


# ---- who beats whom, with its interval ----------------------------------------------------------------------


STRONG_HANDS, STRONG_SEED = 256, 22  # 8 deal sets; about 20 s with two workers (95% interval 4.1 to 14.8)


def test_strong_beats_three_baselines_with_95_percent_confidence():
    """A small fixed duplicate tournament: strong against three baselines; the strong bot's mean
    points per hand has a 95% interval above 0 (docs/bots.md has the 2000-hand run)."""
    r = tournament(["strong", "baseline", "baseline", "baseline"], hands=STRONG_HANDS, seed=STRONG_SEED,
                   rules=Rules.preset("mcr"), workers=2).to_dict()["results"]
    low, _high = r["strong"]["ci95"]
    assert low > 0, r["strong"]
    assert r["baseline"]["mean_points"] < 0
