"""The advisor ranks by the chance and value of a *legal* win (issue 11): 死提溜 is no ready hand, a
混儿吊 / 混儿悠 wait reads "any tile", each option has a one-line summary (English and Chinese), in
the library, ``tjmj advise`` (text and JSON) and the web hint; Tianjin (R5.2) and Beijing (B3, B5)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tjmj.bots import make_bot
from tjmj.cli.advise import advise as advise_cmd
from tjmj.families.beijing import advise as bj
from tjmj.families.tianjin.advise import Advice, Option, _Model, _scorer, advise
from tjmj.game import Match
from tjmj.outlook import draws_left, estimate_wall_left, hazard_now
from tjmj.rules import Rules
from tjmj.tiles import Tile

CLASSIC = Rules.preset("classic")


def _opt(a: Advice | bj.Advice, tile: str, action: str = "discard") -> Any:
    return next(o for o in a.options if str(o.tile) == tile and o.action == action)


def _props(n: int) -> settings:
    return settings(max_examples=n, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# --------------------------------------------------------------------------------------------
# 死提溜 (R5.2): a ready hand that cannot win legally ranks as the step it is from a legal win
# --------------------------------------------------------------------------------------------


def test_dead_ready_ranks_below_real_progress() -> None:
    """12356778m224p11z + 3p, wilds 4p 5p: discarding 2p leaves 123m 567m 2p3p4p 11z + 78m, ready on
    6m/9m (and the wilds), but every completion is a plain 提溜 (fan 1 < min_fan 2: the 4p wild is
    held and sits in a meld); discarding 7m leaves a 1-shanten hand whose ready hands may win (混儿吊,
    龙).  By shanten the dead hand came first; by the chance and value of a legal win the progress does."""
    a = advise("12356778m224p11z", "3p", "4p")
    dead, live = _opt(a, "2p"), _opt(a, "7m")
    assert dead.shanten == 0 and dead.dead and dead.legal_shanten == 1 and dead.winning_live == 0
    assert all(not w.win and "死提溜" in w.reason for w in dead.waits)
    assert live.shanten == 1 and not live.dead and live.legal_shanten == 1 and live.legal_improving
    assert a.best is live and live.rank < dead.rank
    assert live.win_chance > dead.win_chance and live.expected > dead.expected
    assert dead.summary.startswith("dead ready (死提溜): no legal win; ")
    assert dead.summary_zh.startswith("死提溜：听牌但不够番，不能和")
    assert live.summary.startswith(f"1 step from ready: {live.improving_count} improving tiles, "
                                   f"{live.legal_improving} to a legal ready, ~")
    # the old order (shanten first) put the dead hand ahead of every 1-shanten option
    assert min(o.shanten for o in a.options if o.rank < dead.rank) == 1


def test_rules_case_dead_ready_and_the_kong_that_revives_it() -> None:
    """R5.4: 123m678p999p3s4p22z wins 2s only as 死提溜 (fan 1).  With 9p drawn the concealed kong of
    9p makes the replacement draw a 杠开 win (fan 2): that option is live and ranks first; the plain
    discards stay dead and are valued by the one exchange that makes them live (混儿吊)."""
    a = advise("123m678p999p3s4p22z", "9p", "4p")
    kong = _opt(a, "9p", "ankong")
    assert a.best is kong and kong.legal_shanten == 0 and not kong.dead
    for t in ("6p", "9p", "3s"):
        o = _opt(a, t)
        assert o.ready and o.dead and o.legal_shanten == 1 and o.legal_improving and o.win_chance < kong.win_chance
        assert o.to_dict()["dead"] is True and "死提溜" in o.summary
    # with min_fan 1 the same hands are live ready hands
    a1 = advise("123m678p999p3s4p22z", "9p", "4p", rules=Rules.preset("classic", min_fan=1))  # type: ignore[arg-type]
    assert not _opt(a1, "6p").dead and _opt(a1, "6p").legal_shanten == 0


def test_all_winning_tiles_visible_is_no_live_win() -> None:
    """A ready hand whose legal winning tiles are all visible (空听) cannot win either: 123m456m678m11p
    5s6s (no wild held: a 4s or 7s would win 素) with every 4s and 7s seen; a drawn wild (1z, 2z)
    completes it only as 提溜."""
    a = advise("123m456m678m11p5s7z", "6s", "1z", seen="4s4s4s4s7s7s7s7s")
    o = _opt(a, "7z")
    assert [(str(w.tile), w.win, w.live) for w in o.waits] == [("4s", True, 0), ("7s", True, 0), ("1z", False, 3),
                                                               ("2z", False, 4)]
    assert o.ready and o.winning_live == 0 and o.dead and o.legal_shanten == 1 and o.legal_improving
    assert o.summary.startswith("ready, but every winning tile is visible (no live win); ")
    assert o.summary_zh.startswith("听牌但和的牌已全部现出（空听）")


# --------------------------------------------------------------------------------------------
# 混儿吊 and 混儿悠: any tile
# --------------------------------------------------------------------------------------------


def test_hundiao_reads_any_tile() -> None:
    a = advise("123m456p789s111s4p", "9s", "4p")
    o = a.best
    assert o.hundiao and o.any_tile and not o.dead and o.win_chance == pytest.approx(1.0)
    assert o.summary.startswith(f"混儿吊: wins on any tile ({o.winning_live} live), ~100% to win, ~")
    assert o.summary_zh.startswith(f"混儿吊：和任意牌（{o.winning_live}张活牌），和牌约100%")
    d = o.to_dict()
    assert d["any_tile"] is True and d["hundiao"] is True and d["summary"] == o.summary
    r = CliRunner().invoke(advise_cmd, ["123m456p789s111s4p", "-d", "9s", "-i", "4p", "--top", "2"])
    assert r.exit_code == 0, r.output
    assert "混儿吊 any tile" in r.output and "wins on any tile" in r.output


def test_beijing_hunyou_reads_any_tile() -> None:
    a = bj.advise("123m456m789m123p2z", "5s", "1z")
    declared, plain = a.best, _opt(a, "5s")
    assert declared.action == "hunyou" and declared.any_tile and declared.win_chance == pytest.approx(1.0)
    assert declared.summary.startswith("混儿悠: the next draw wins, any tile (无混儿)")
    assert plain.any_tile and "wins on any tile" in plain.summary and "和任意牌" in plain.summary_zh


# --------------------------------------------------------------------------------------------
# The model's figures
# --------------------------------------------------------------------------------------------


def test_wall_left_and_its_estimate() -> None:
    assert estimate_wall_left(121) == 68 and estimate_wall_left(40) == 0
    assert [draws_left(n) for n in (0, 1, 4, 5, 68)] == [0, 1, 1, 2, 17]
    assert hazard_now(68, 0.02) == 0 and hazard_now(28, 0.02) == pytest.approx(0.2)
    a = advise("123m456p789s11s45p", "7z", "9s")  # nothing seen: the start of a hand
    assert (a.wall_left, a.wall_estimated, a.draws, a.unseen) == (68, True, 17, 121)
    assert a.to_dict()["model"] == {"wall_left": 68, "estimated": True, "draws": 17, "unseen": 121}
    b = advise("123m456p789s11s45p", "7z", "9s", wall_left=8)
    assert (b.wall_left, b.wall_estimated, b.draws) == (8, False, 2)
    assert all(x.win_chance <= y.win_chance + 1e-12 for x, y in zip(
        sorted(b.options, key=lambda o: (o.action, o.tile)), sorted(a.options, key=lambda o: (o.action, o.tile)),
        strict=True))
    c = advise("123m456p789s11s45p", "7z", "9s", wall_left=0)
    assert all(o.win_chance == 0 and o.expected == 0 for o in c.discards)
    assert all(o.summary.endswith("no win in the draws left") for o in c.discards if not o.wild)


def test_expected_is_chance_times_the_fan_of_the_win() -> None:
    a = advise("1234679m999p4p22z", "8m", "4p", wall_left=40)
    for o in a.discards:
        if o.ready and not o.dead and not o.wild:
            fans = [w.fan for w in o.waits if w.win and w.live]
            assert min(fans) * o.win_chance - 1e-9 <= o.expected <= max(fans) * o.win_chance + 1e-9


def test_shortcut_agrees_with_scoring_every_draw() -> None:
    """The look-ahead scores only the draws R5 lets win a hand holding wilds (5m, a wild, a 龙's missing
    number, or every draw of a 混儿吊 shape at fan 2); against scoring all 34 draws, many rule sets."""
    rng = random.Random(4)
    checked = nonempty = 0
    rule_sets = [CLASSIC, Rules.preset("yiyou"), Rules.preset("classic", hundiao_alone_wins=False),
                 Rules.preset("classic", min_fan=3), Rules.preset("classic", wild_kinds=1),
                 Rules.preset("classic", wild_kinds=3), Rules.preset("classic", min_fan=1)]
    for _ in range(2500):
        rules = rng.choice(rule_sets)
        sc = _scorer(Tile(rng.randrange(34)), rules)  # type: ignore[arg-type]
        wilds = [int(k) for k in sc.wilds]
        n_melds = rng.choice((0, 0, 1, 2))
        c = [0] * 34
        for _ in range(4 - n_melds):  # a complete hand, some tiles turned into wilds, one taken out
            if rng.random() < 0.6:
                s, i = rng.randrange(3), rng.randrange(7)
                ks = [9 * s + i, 9 * s + i + 1, 9 * s + i + 2]
            else:
                ks = [rng.randrange(34)] * 3
            for k in ks:
                c[k] += 1
        c[rng.randrange(34)] += 2
        for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
            k = rng.choice([k for k in range(34) if c[k]])
            c[k] -= 1
            c[rng.choice(wilds)] += 1
        c[rng.choice([k for k in range(34) if c[k]])] -= 1
        if max(c) > 4:
            continue
        gold = 1 if n_melds and rng.random() < 0.2 else 0
        m = _Model(sc, [4] * 34, 100, 10, set(wilds), rules)  # type: ignore[arg-type]
        want = []
        for x in range(34):
            if c[x] < 4:
                c[x] += 1
                if sc.is_complete(c):
                    r = sc.evaluate(c, x, n_melds, gold)
                    if r is not None and sc.can_win(r[0], r[1]):
                        want.append((x, r[0]))
                c[x] -= 1
        assert m.legal_wins(list(c), n_melds, gold) == tuple(want), (c, n_melds, gold, rules)
        checked += 1
        nonempty += bool(want)
    assert checked > 2000 and nonempty > 800


def _random_turn(rng: random.Random) -> tuple[list[Tile], Tile, Tile, list[Tile]]:
    wall = [Tile(k) for k in range(34) for _ in range(4)]
    rng.shuffle(wall)
    indicator = wall.pop()
    kinds = rng.sample(range(34), 11)
    pool = [t for t in wall if t in kinds]
    tiles = pool[:14]
    for t in tiles:
        wall.remove(t)
    return tiles[:13], tiles[13], indicator, wall[: rng.randrange(0, 40)]


@_props(40)
@given(st.integers(0, 10**9), st.integers(0, 70), st.integers(0, 70))
def test_more_draws_never_lower_the_chance(seed: int, w1: int, w2: int) -> None:
    hand, draw, ind, seen = _random_turn(random.Random(seed))
    lo, hi = sorted((w1, w2))
    a, b = advise(hand, draw, ind, seen=seen, wall_left=lo), advise(hand, draw, ind, seen=seen, wall_left=hi)
    key = {(o.action, o.tile): o for o in b.options}
    for o in a.options:
        other = key[(o.action, o.tile)]
        assert o.win_chance <= other.win_chance + 1e-9 and o.expected <= other.expected + 1e-9
        assert (o.legal_shanten, o.shanten, o.dead) == (other.legal_shanten, other.shanten, other.dead)


@_props(40)
@given(st.integers(0, 10**9))
def test_seeing_a_winning_tile_never_raises_the_chance(seed: int) -> None:
    """One more visible copy of a live winning tile: fewer winning draws among fewer unseen tiles."""
    hand, draw, ind, seen = _random_turn(random.Random(seed))
    a = advise(hand, draw, ind, seen=seen, wall_left=40)
    for o in a.discards:
        if o.ready and not o.dead and o.winning_live > 1 and not o.hundiao:
            w = next(w for w in o.waits if w.win and w.live)
            b = advise(hand, draw, ind, seen=[*seen, w.tile], wall_left=40)
            assert _opt(b, str(o.tile)).win_chance <= o.win_chance + 1e-9


@_props(60)
@given(st.integers(0, 10**9), st.booleans())
def test_ranks_follow_the_expected_value(seed: int, beijing: bool) -> None:
    hand, draw, ind, seen = _random_turn(random.Random(seed))
    a: Advice | bj.Advice = (bj.advise(hand, draw, ind, seen=seen) if beijing
                             else advise(hand, draw, ind, seen=seen))
    assert [o.rank for o in a.options] == list(range(1, len(a.options) + 1))
    keys = [o.sort_key() for o in a.options]
    assert keys == sorted(keys)
    tame = [o for o in a.options if not getattr(o, "wild", False) or beijing]
    assert [round(o.expected, 6) for o in tame] == sorted((round(o.expected, 6) for o in tame), reverse=True)
    for o in a.options:
        assert 0 <= o.win_chance <= 1 + 1e-9 and o.expected >= 0
        assert o.summary and o.summary_zh and "\n" not in o.summary
        assert o.dead == (o.ready and o.legal_shanten > 0)
        if not beijing and not o.can_win:  # 小相公
            assert o.win_chance == o.expected == 0 and o.summary.startswith("小相公")
        elif o.ready and not o.dead:
            assert o.legal_shanten == 0 and ("ready: " in o.summary or "any tile" in o.summary)
        if not o.ready:
            assert o.legal_shanten >= o.shanten


# --------------------------------------------------------------------------------------------
# Beijing: the value of the win and who may be won from (B3, B5)
# --------------------------------------------------------------------------------------------


def test_beijing_value_beats_width() -> None:
    """12346789p33399s + 9s (wild 2z): discarding 3s keeps 一条龙 (5p: 16) on 8 live tiles; discarding
    1p waits wider (10 live) for 8.  The wider wait wins more often, the dragon is worth more."""
    a = bj.advise("12346789p33399s", "9s", "1z")
    dragon, wide = _opt(a, "3s"), _opt(a, "1p")
    assert dragon.winning_live < wide.winning_live and dragon.win_chance < wide.win_chance
    assert dragon.expected > wide.expected and dragon.rank < wide.rank and a.best.tile == dragon.tile


def test_beijing_claimed_hand_wins_only_by_self_draw() -> None:
    """B3 claimed_self_draw_only: after a pon the hand cannot win on a discard, so the same wait wins
    less often than with a concealed kong (which keeps discard wins and 门清)."""
    claimed = bj.advise("123m456m789m1z", "5s", "1z", melds="[777z]")
    kong = bj.advise("123m456m789m1z", "5s", "1z", melds="(7777z)")
    c, k = _opt(claimed, "1z"), _opt(kong, "1z")
    assert [str(w.tile) for w in c.waits] == [str(w.tile) for w in k.waits] == ["5s", "2z"]
    assert not any(w.discard.win for w in c.waits) and all(w.discard.win for w in k.waits)
    assert c.self_draw_only and not k.self_draw_only
    assert c.win_chance < k.win_chance and c.expected < k.expected
    assert "self-draw only" in c.summary and "只能自摸" in c.summary_zh and "self-draw" not in k.summary
    a = bj.advise("123m456m789m5s", "6s", None, "[123p]", rules=Rules.preset("beijing_a"))  # type: ignore[arg-type]
    assert not a.best.self_draw_only  # version A: a claimed hand still wins on discards


def test_beijing_lookahead_candidates_agree_with_every_draw() -> None:
    """The Beijing look-ahead scores only draws next to a tile held or the wild, unless the hand wins on
    any draw (混儿悠-ready): the same figures as scoring all 34 draws, standard and seven-pairs hands."""
    from tjmj.families.beijing.score import scorer_for
    from tjmj.meld import Meld, MeldType
    from tjmj.tiles import TILES

    rng = random.Random(5)
    checked = 0
    for _ in range(1500):
        rules = rng.choice([Rules.preset("beijing"), Rules.preset("beijing_a")])
        sc = scorer_for(TILES[rng.randrange(34)] if rules.wilds else None, rules)  # type: ignore[arg-type]
        wk = -1 if sc.wild is None else int(sc.wild)
        n_melds = rng.choice((0, 0, 0, 1))
        c = [0] * 34
        if not n_melds and rng.random() < 0.3:
            for _ in range(7):
                c[rng.randrange(34)] += 2
        else:
            for _ in range(4 - n_melds):
                if rng.random() < 0.6:
                    s, i = rng.randrange(3), rng.randrange(7)
                    ks = [9 * s + i, 9 * s + i + 1, 9 * s + i + 2]
                else:
                    ks = [rng.randrange(34)] * 3
                for k in ks:
                    c[k] += 1
            c[rng.randrange(34)] += 2
        if wk >= 0:
            for _ in range(rng.choice((0, 1, 1, 2, 3))):
                k = rng.choice([k for k in range(34) if c[k]])
                c[k] -= 1
                c[wk] += 1
        c[rng.choice([k for k in range(34) if c[k]])] -= 1
        melds = tuple(Meld(MeldType.PON, TILES[33 - i]) for i in range(n_melds))
        if max(c) > 4 or any(c[33 - i] for i in range(n_melds)):
            continue
        live = [4 - c[k] for k in range(34)]
        fast = bj._Model(sc, live, [4] * 34, 100, 10, 40, False)
        slow = bj._Model(sc, live, [4] * 34, 100, 10, 40, False)
        slow.candidates = lambda c, n: range(34)  # type: ignore[method-assign]
        assert fast.hand_figures(list(c), melds, -1) == slow.hand_figures(list(c), melds, -1), (c, melds)
        checked += 1
    assert checked > 1000


def test_beijing_far_hand_and_dead_hand() -> None:
    a = bj.advise("19m19p19s1234567z", "5m", "1z")  # far from both shapes: the usual rates, the least value
    assert all(o.shanten >= 2 and o.legal_improving is None for o in a.options)
    assert all(o.summary.startswith(f"{o.shanten} steps from ready: {o.improving_count} improving tiles, ")
               for o in a.options)
    assert all(0 < o.win_chance < 0.05 for o in a.options)
    # 空听: every tile that completes 123m456m789m 11p 5s6s (4s, 7s, the wild 2z) is visible
    a = bj.advise("123m456m789m11p5s7z", "6s", "1z", seen="4s4s4s4s7s7s7s7s2z2z2z2z")
    o = _opt(a, "7z")
    assert o.ready and o.dead and o.legal_shanten == 1 and o.winning_live == 0
    assert "every winning tile is visible" in o.summary and "空听" in o.summary_zh


# --------------------------------------------------------------------------------------------
# The command and the web hint
# --------------------------------------------------------------------------------------------


def test_cli_text_shows_the_model_the_figures_and_the_summaries() -> None:
    r = CliRunner().invoke(advise_cmd, ["12356778m224p11z", "-d", "3p", "-i", "4p", "--top", "3"])
    assert r.exit_code == 0, r.output
    out = r.output
    assert "Model      wall 68 (estimated), 17 own draws left, 121 unseen tiles" in out
    assert " win " in out and " exp " in out and "1. discard 7m: 1 step from ready" in out
    assert "dead ready (死提溜): no legal win" in out
    r = CliRunner().invoke(advise_cmd, ["12356778m224p11z", "-d", "3p", "-i", "4p", "--wall-left", "12"])
    assert r.exit_code == 0 and "Model      wall 12, 3 own draws left" in r.output
    r = CliRunner().invoke(advise_cmd, ["12356778m224p11z", "-d", "3p", "-i", "4p", "--wall-left", "-1"])
    assert r.exit_code == 2


def test_cli_json_has_the_new_fields() -> None:
    r = CliRunner().invoke(advise_cmd, ["12356778m224p11z", "-d", "3p", "-i", "4p", "--json", "--wall-left", "40"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["model"] == {"wall_left": 40, "estimated": False, "draws": 10, "unseen": 121}
    a = advise("12356778m224p11z", "3p", "4p", wall_left=40)
    assert d["options"] == [o.to_dict() for o in a.options]
    first = d["options"][0]
    assert {"win_chance", "expected", "legal_shanten", "legal_improving", "any_tile", "dead", "summary",
            "summary_zh"} <= set(first)
    dead = next(o for o in d["options"] if o["tile"] == "2p")
    assert dead["dead"] is True and dead["shanten"] == 0 and dead["legal_shanten"] == 1 and "死提溜" in dead["summary"]
    r = CliRunner().invoke(advise_cmd, ["123m456m789m123p5s", "-d", "6s", "-i", "1z", "--rules", "beijing", "--json"])
    d = json.loads(r.output)
    assert d["options"][0]["summary"].startswith("ready: 6s 2z (7 live), ~") and "points expected" in \
        d["options"][0]["summary"]
    r = CliRunner().invoke(advise_cmd, ["123m456m789m123p5s", "-d", "6s", "-i", "1z", "--rules", "beijing"])
    assert "1. discard 5s: ready: 6s 2z (7 live)" in r.output and " exp " in r.output


def _turns(rules: Rules, seed: int, n: int) -> list[tuple[Match, int]]:
    """Play strong bots and stop at ``n`` turns (a new match each time, the state kept)."""
    out = []
    rng = random.Random(seed)
    s = seed
    while len(out) < n:
        m = Match(rules, seed=s, names=list("abcd"))
        s += 1
        bots = [make_bot("strong") for _ in range(4)]
        for b in bots:
            b.set_rules(rules)  # type: ignore[attr-defined]
        brng = random.Random(s)
        stop = rng.randrange(4, 60)
        steps = 0
        while not m.is_over:
            seat = m.to_act
            legal = m.legal_actions(seat)
            obs = m.observation(seat)
            if obs.get("phase") == "turn" and any(x.type == "discard" for x in legal) and steps >= stop:
                out.append((m, seat))
                break
            m.apply(seat, bots[seat].choose(obs, legal, brng))
            steps += 1
    return out


@pytest.mark.parametrize("preset", ["classic", "beijing"])
def test_web_hint_entries_carry_the_figures(preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each hint entry has the advisor's figures for that discard, computed with the wall the seat sees."""
    from tjmj.web import hints

    module = bj if preset == "beijing" else __import__("tjmj.families.tianjin.advise", fromlist=["advise"])
    real = module.advise
    got: list[tuple[dict[str, Any], Any]] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        a = real(*args, **kwargs)
        got.append((kwargs, a))
        return a

    monkeypatch.setattr(module, "advise", spy)
    for m, seat in _turns(Rules.preset(preset), 3, 5):
        obs = m.observation(seat)
        entries = hints.hint(m, seat)
        kwargs, a = got[-1]
        assert kwargs["wall_left"] == obs["wall_left"] and a.wall_left == obs["wall_left"] and not a.wall_estimated
        by_tile = {str(o.tile): o for o in a.discards}
        assert entries and [e["rank"] for e in entries] == sorted(e["rank"] for e in entries)
        for e in entries:
            o = by_tile[e["tile"]]
            assert e["win_chance"] == round(o.win_chance, 3) and e["expected"] == round(o.expected, 2)
            assert (e["legal_shanten"], e["dead"], e["any_tile"]) == (o.legal_shanten, o.dead, o.any_tile)
            assert (e["summary"], e["summary_zh"]) == (o.summary, o.summary_zh)
            assert e.get("legal_improving") == o.legal_improving


def test_option_summary_is_a_property_of_the_fields() -> None:
    o = Option("discard", Tile.parse("1m"), 2, ((Tile.parse("2m"), 3),), win_chance=0.004, expected=0.01,
               legal_shanten=2)
    assert o.summary == "2 steps from ready: 3 improving tiles, <1% to win, <0.1 fan expected"
    assert o.summary_zh == "2向听：进张3张，和牌<1%，期望<0.1番"
