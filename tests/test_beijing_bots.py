"""The bots in Beijing matches (docs/rules/BEIJING.md B1–B8, docs/bots.md): every bot plays both
presets legally and deterministically and its records replay; the Beijing shanten; the baseline's
and the strong bot's rules on scripted positions; self-play and tournaments with ``--rules beijing``;
and the strong bot's edge over the baseline, checked with its confidence interval."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tjmj.bots import BOT_NAMES, make_bot
from tjmj.bots.common import pairs_shanten, shanten13
from tjmj.cli.simulate import simulate as simulate_cmd
from tjmj.cli.tournament import tournament as tournament_cmd
from tjmj.families.beijing.bots.baseline import is_beijing, rules_from_obs
from tjmj.families.beijing.records import KONG_TYPES as BEIJING_KONG_TYPES
from tjmj.families.beijing.rules import BEIJING, BEIJING_A
from tjmj.families.beijing.score import scorer_for
from tjmj.game import Action, Match
from tjmj.record import read_records, replay
from tjmj.rules import Rules
from tjmj.simulate import play_match, simulate
from tjmj.tiles import TILES
from tjmj.tournament import tournament

from .scripted import draw_until, legal, play, script_wall

PRESETS = ("beijing", "beijing_a")
TIMING = ("seconds", "hands_per_s")


def rules(preset: str = "beijing", **kw: Any) -> Rules:
    return Rules.preset(preset, match_hands=kw.pop("hands", 1), **kw)


def wall(dealer: int = 0, hands: dict[int, str] | None = None, draws: Any = "", indicator: str = "7z",
         **kw: Any) -> tuple[list[int], Any]:
    return script_wall(dealer, hands or {}, draws=draws, indicator=indicator, wild_method="tail", **kw)


def choose(bot_name: str, m: Match, seat: int | None = None) -> str:
    seat = m.to_act if seat is None else seat
    bot = make_bot(bot_name)
    set_rules = getattr(bot, "set_rules", None)
    if set_rules is not None:
        set_rules(m.rules)
    return str(bot.choose(m.observation(seat), m.legal_actions(seat), random.Random(0)))


# ---- whole matches --------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("bot", BOT_NAMES)
def test_every_bot_plays_whole_beijing_matches_legally_deterministically_and_replayably(preset: str, bot: str):
    """Every bot plays every seat of a 4-hand match of both presets (an illegal action would raise),
    the same seed gives the same events, and the record replays (issue 10 item 5)."""
    r = Rules.preset(preset, match_hands=4)
    bots = [bot, bot, "baseline", "greedy"] if bot != "baseline" else [bot] * 4
    a = play_match(r, 21, bots)
    b = play_match(r, 21, bots)
    assert a.is_over and a.hand_number == 4 and sum(a.scores) == 0
    assert a.events == b.events
    assert replay(a.events).ok


def test_strong_and_baseline_take_every_kind_of_beijing_decision():
    """Over a few hundred strong/baseline hands every Beijing action kind is chosen somewhere: chi,
    pon, a discard win, a self-drawn win, 混儿悠 (all legal: the engine checks each)."""
    s = simulate(hands=240, seed=2, rules=Rules.preset("beijing"), bots="strong,baseline,strong,baseline",
                 hands_per_match=40, workers=2)
    d = s.to_dict()
    assert d["chis"] and d["pons"] and d["discard_wins"] and d["self_drawn"] and d["hunyou_declared"]
    assert d["wins"] + d["draws"] == d["hands"] == 240


def test_bots_read_the_family_and_the_rules_from_the_observation():
    m = Match(rules("beijing"), 3)
    obs = m.observation(m.to_act)
    assert is_beijing(obs) and rules_from_obs(obs) is BEIJING
    assert rules_from_obs(Match(rules("beijing_a"), 3).observation(0)) is BEIJING_A
    custom = BEIJING.replace(max_claims=0)
    assert rules_from_obs(obs, custom) is custom  # what the driver gave (set_rules) comes first
    assert not is_beijing(Match(Rules.preset("classic", match_hands=1), 3).observation(0))


# ---- shanten with one wild kind, both shapes (B2, B4) ---------------------------------------------


def test_pairs_shanten():
    pair = [0] * 34
    for k in range(6):
        pair[k] = 2
    pair[6] = 1
    assert pairs_shanten(pair, 0) == 0  # six pairs and a single: ready
    pair[6] = 0
    assert pairs_shanten(pair, 1) == 0  # six pairs and a wild: ready on anything
    four = [4, 4, 2, 2] + [0] * 30
    four[10] = 1
    assert pairs_shanten(four, 0) == 0  # a four counts as two pairs (豪华七对子, B4)


@pytest.mark.parametrize("indicator", [None, 0, 30, 33])
def test_shanten_zero_is_exactly_ready(indicator: int | None):
    """For random 13-tile hands, shanten 0 (either shape, the wild standing in) holds exactly when some
    tile completes the hand for the Beijing scorer (B4), and shanten −1 never happens."""
    rng = random.Random(5 + (indicator or 0))
    r = BEIJING if indicator is not None else BEIJING_A
    sc = scorer_for(TILES[indicator] if indicator is not None else None, r)
    wild = int(sc.wild) if sc.wild is not None else -1
    seen = Counter()
    for n in range(1500):
        pool = [k for k in range(34) for _ in range(4)]
        rng.shuffle(pool)
        if n % 3 == 0:  # bias towards near-ready hands: a complete 14 less one tile
            pool.sort(key=lambda k: (k // 3 + rng.random() * 4))
        counts = [0] * 34
        for k in pool[:13]:
            counts[k] += 1
        nonwild = list(counts)
        w = 0
        if wild >= 0:
            w, nonwild[wild] = counts[wild], 0
        s = shanten13(nonwild, w, 4, True)
        ready = False
        for k in range(34):
            counts[k] += 1
            ready = ready or sc.is_complete(counts, 0)
            counts[k] -= 1
        assert s >= 0 and (s == 0) == ready, (counts, s)
        seen[s == 0] += 1
    assert seen[True] > 20


def test_shanten_agrees_with_the_beijing_advisor():
    """The bots' incremental shanten (either shape) equals the advisor's
    (:func:`tjmj.families.beijing.advise.shanten_counts`) on random hands with 0–2 melds."""
    from tjmj.bots.common import shanten_fast
    from tjmj.families.beijing.advise import shanten_counts

    rng = random.Random(8)
    for n in range(3000):
        pool = [k for k in range(34) for _ in range(4)]
        rng.shuffle(pool)
        if n % 2:
            pool.sort(key=lambda k: k // 2 + rng.random() * 3)
        n_melds = rng.choice((0, 0, 1, 2))
        counts = [0] * 34
        for k in pool[:13 - 3 * n_melds]:
            counts[k] += 1
        wild = rng.choice((None, rng.randrange(34)))
        nonwild, w = list(counts), 0
        if wild is not None:
            w, nonwild[wild] = counts[wild], 0
        std, pairs = shanten_counts(counts, wild, n_melds)
        assert shanten_fast(nonwild, w, 4 - n_melds) == std
        assert (pairs_shanten(nonwild, w) if not n_melds else None) == pairs
        assert shanten13(nonwild, w, 4 - n_melds, not n_melds) == min(std, pairs if pairs is not None else 99)


# ---- the baseline's rules ----------------------------------------------------------------------


def test_greedy_and_baseline_declare_hungang():
    m = Match(rules(), walls=[wall(0, {1: "5z5z5z"}, draws="5z")])
    play(m, f"0 discard {legal(m)[-1].split()[1]}")
    assert "hungang" in legal(m, 1)
    for bot in ("greedy", "baseline", "strong"):
        assert choose(bot, m) == "hungang"


def test_baseline_wins_on_a_discard_and_robs_a_kong():
    m = Match(rules(), walls=[wall(0, {0: "7p", 1: "7p7p", 2: "123m456m789m1s1s8p9p"}, draws={3: "7p"},
                                   avoid="7p")])
    play(m, "0 discard 7p", "1 pon 7p")
    assert m.phase == "claim" and m.to_act == 2 and "win" in legal(m)
    assert choose("baseline", m) == "win" and choose("greedy", m) == "win"
    play(m, "2 pass")
    play(m, f"1 {next(a for a in legal(m) if a.startswith('discard') and a != 'discard 7p')}")
    draw_until(m, 4)
    play(m, "1 added_kong 7p")
    assert m.phase == "rob" and legal(m) == ["win", "pass"]
    for bot in ("baseline", "strong", "greedy"):
        assert choose(bot, m) == "win"


def test_baseline_keeps_the_wild_and_discards_by_shanten():
    # wild 5z (indicator 7z); the dealer holds it: a near-ready hand with one isolated honour
    m = Match(rules(), walls=[wall(0, {0: "123m456m789m12p5z1z"})])
    a = choose("baseline", m)
    assert a == "discard 1z"  # the lone honour: the wild is kept and the hand stays one from ready


def test_baseline_chis_when_it_gets_closer_and_spends_its_one_claim_sensibly():
    """Seat 1 (the dealer's 下家) may chi 3m into 123m: it does when that lowers its shanten; the one
    claim of preset beijing (B3) is not spent on a chi that does not."""
    m = Match(rules(), walls=[wall(0, {0: "3m", 1: "12m456p789p11s9s"}, avoid="3m")])
    play(m, "0 discard 3m")
    assert m.to_act == 1 and "chi 1m" in legal(m)
    assert choose("baseline", m) == "chi 1m"
    m = Match(rules(), walls=[wall(0, {0: "9s", 1: "12m456p789p11s78s"}, avoid="9s")])
    play(m, "0 discard 9s")
    assert "chi 7s" in legal(m)
    assert choose("baseline", m) == "chi 7s"
    # a chi that leaves the shanten where it was (ready before, ready after) is passed under the
    # one-claim rule, and taken without a claim limit
    m = Match(rules(), walls=[wall(0, {0: "5s", 1: "7p9p111s222s34s666s"}, avoid="5s")])
    play(m, "0 discard 5s")
    assert legal(m) == ["chi 3s", "chi 4s", "pass"]
    assert choose("baseline", m) == "pass"
    m = Match(rules(max_claims=0), walls=[wall(0, {0: "5s", 1: "7p9p111s222s34s666s"}, avoid="5s")])
    play(m, "0 discard 5s")
    assert choose("baseline", m).startswith("chi")


# ---- the strong bot's rules --------------------------------------------------------------------


def test_strong_declares_hunyou_when_it_is_worth_it():
    """混儿悠 (B3) after a self-draw early in the wall: the next draw wins with 无混儿 ×2, while the
    risk (someone else wins in between: pay double) is small.  Seat 1 draws into 123m 456m 789m 123p
    + the wild 5z and 1s: one of 混儿悠's discards is taken instead of the win."""
    m = Match(rules(), walls=[wall(0, {1: "123m456m789m123p5z"}, draws="1s")])
    play(m, f"0 discard {legal(m)[-1].split()[1]}")
    while m.phase != "turn":  # seat 1 could win on the discard already (the wild pairs anything)
        play(m, f"{m.to_act} pass")
    assert m.to_act == 1 and "win" in legal(m) and any(a.startswith("hunyou") for a in legal(m))
    assert choose("strong", m).startswith("hunyou")
    assert choose("baseline", m) == "win"


def test_strong_wins_on_a_discard():
    m = Match(rules(), walls=[wall(0, {0: "7p", 2: "123m456m789m1s1s8p9p"}, avoid="7p")])
    play(m, "0 discard 7p")
    while m.to_act != 2:
        play(m, f"{m.to_act} pass")
    assert choose("strong", m) == "win"


def test_strong_passes_a_claim_that_costs_menqing_early():
    """Under beijing a chi ends 门清 and every discard win (B3, B5): early in the hand the strong bot
    keeps the hand concealed where the baseline chis."""
    m = Match(rules(), walls=[wall(0, {0: "3m", 1: "12m456p789p11s9s"}, avoid="3m")])
    play(m, "0 discard 3m")
    assert choose("baseline", m) == "chi 1m" and choose("strong", m) == "pass"


def test_strong_follows_the_dealers_first_discard_for_shaozhuang():
    """烧庄 (B6): the last non-dealer follows the dealer's first discard when the two before it did:
    each non-dealer then receives 10."""
    m = Match(rules(), walls=[wall(0, {0: "1z", 1: "1z", 2: "1z", 3: "1z"}, avoid="1z")])
    play(m, "0 discard 1z")
    for seat in (1, 2):
        while m.to_act != seat:
            play(m, f"{m.to_act} pass")
        play(m, f"{seat} discard 1z")
    while m.to_act != 3 or m.phase != "turn":
        play(m, f"{m.to_act} pass")
    assert choose("strong", m) == "discard 1z"


# ---- self-play and tournaments ------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_simulate_beijing_records_replay_and_workers_agree(tmp_path: Path, preset: str):
    one, two = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    kw: dict[str, Any] = {"hands": 24, "seed": 3, "rules": Rules.preset(preset), "hands_per_match": 6,
                          "bots": "strong,baseline,greedy,random"}
    s1 = simulate(**kw, out=one)
    s2 = simulate(**kw, out=two, workers=2)
    assert one.read_bytes() == two.read_bytes()
    d1, d2 = s1.to_dict(), s2.to_dict()
    for k in TIMING:
        d1.pop(k), d2.pop(k)
    assert d1 == d2
    matches = list(read_records(one))
    assert len(matches) == 4 and all(replay(evs).ok for evs in matches)
    evs = [e for m in matches for e in m]
    types = Counter(e["type"] for e in evs)
    assert d1["family"] == "beijing" and d1["hands"] == 24 == types["end_kyoku"]
    assert d1["wins"] == types["hora"] and d1["chis"] == types["chi"] and d1["pons"] == types["pon"]
    assert d1["self_drawn"] + d1["discard_wins"] + d1["rob_kong_wins"] == d1["wins"]
    assert set(d1["kongs"]) == set(BEIJING_KONG_TYPES)
    hora = [e for e in evs if e["type"] == "hora"]
    assert d1["mean_value"] == pytest.approx(sum(e["value"] for e in hora) / max(1, len(hora)))
    for code, v in d1["elements"].items():
        assert v["count"] == sum(code in e["elements"] for e in hora)
    for key in ("tianhu", "chan", "sits", "pulls", "wild_discards", "mean_fan"):
        assert key not in d1  # Tianjin's own figures are not Beijing's
    assert d1["upstairs"] == sum(1 for e in evs if e["type"] == "start_kyoku" and e["upstairs"])


def test_simulate_cli_beijing_text_and_json():
    runner = CliRunner()
    res = runner.invoke(simulate_cmd, ["--hands", "12", "--seed", "1", "--rules", "beijing", "--bots",
                                       "baseline,greedy,baseline,random", "--set", "max_claims=0"],
                        env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    out = res.stdout
    for row in ("self-drawn / on a discard", "mean value of a win", "chi / pon", "烧庄", "上楼", "混儿悠", "混杠",
                "Elements of the wins"):
        assert row in out, row
    for tianjin in ("铲", "小相公", "sits / pulls", "mean fan", "天胡"):
        assert tianjin not in out, tianjin
    res = runner.invoke(simulate_cmd, ["--hands", "8", "--rules", "beijing_a", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["family"] == "beijing" and d["hands"] == 8 and "elements" in d and "chan" not in d
    res = runner.invoke(simulate_cmd, ["--hands", "4", "--rules", "beijing", "--set", "hunyou=maybe"])
    assert res.exit_code == 2


def test_tournament_cli_beijing_text_and_json():
    runner = CliRunner()
    args = ["--bots", "baseline,random,greedy,baseline", "--hands", "16", "--seed", "2", "--match-hands", "4",
            "--rules", "beijing"]
    r = runner.invoke(tournament_cmd, args, env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "value" in r.output and "点炮" in r.output and "自摸" in r.output and "铲" not in r.output
    r = runner.invoke(tournament_cmd, [*args[:-1], "beijing_a", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["family"] == "beijing" and d["rules"] == "beijing_a" and d["hands"] == 16
    s = d["results"]["baseline"]
    assert {"mean_value", "dealt_in", "self_drawn", "discard_wins", "claims", "shaozhuang"} <= set(s)
    assert "mean_fan" not in s and "chan" not in s
    assert sum(x["points"] for x in d["results"].values()) == 0
    assert sum(x["dealt_in"] for x in d["results"].values()) == sum(x["discard_wins"] for x in d["results"].values())


def test_tournament_beijing_is_deterministic_whatever_the_workers():
    kw: dict[str, Any] = {"hands": 16, "seed": 4, "rules": Rules.preset("beijing"), "match_hands": 2}
    a = tournament(["strong", "baseline", "random", "greedy"], workers=1, **kw).to_dict()
    b = tournament(["strong", "baseline", "random", "greedy"], workers=2, **kw).to_dict()
    for k in TIMING:
        a.pop(k), b.pop(k)
    assert a == b


# ---- who beats whom, with its interval ------------------------------------------------------------


@pytest.mark.parametrize("preset, hands", [("beijing", 600), ("beijing_a", 1200)])
def test_strong_beats_three_baselines_with_95_percent_confidence(preset: str, hands: int):
    """A small fixed duplicate tournament: strong against three baselines; the strong bot's mean points
    per hand has a 95% interval above 0 (docs/bots.md has the larger runs)."""
    r = tournament(["strong", "baseline", "baseline", "baseline"], hands=hands, seed=20, rules=Rules.preset(preset),
                   workers=2).to_dict()["results"]
    low, high = r["strong"]["ci95"]
    assert low > 0, r["strong"]
    assert r["baseline"]["mean_points"] < 0


@pytest.mark.parametrize("preset", PRESETS)
def test_baseline_beats_three_random_with_95_percent_confidence(preset: str):
    r = tournament(["baseline", "random", "random", "random"], hands=160, seed=21, rules=Rules.preset(preset),
                   workers=2).to_dict()["results"]
    assert r["baseline"]["ci95"][0] > 0, r["baseline"]


def test_actions_are_actions():  # the bots return the engine's own Action objects
    m = Match(rules(), 2)
    for name in BOT_NAMES:
        a = make_bot(name).choose(m.observation(m.to_act), m.legal_actions(m.to_act), random.Random(1))
        assert isinstance(a, Action) and a in m.legal_actions(m.to_act)
