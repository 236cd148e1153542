"""tjmj.families.tianjin.advise and ``tjmj advise``: the ranking against brute force, live counts, wilds, kongs, CLI."""

from __future__ import annotations

import json
import random
import time

import pytest
from click.testing import CliRunner

from tjmj.cli.advise import advise as advise_cmd
from tjmj.families.tianjin.advise import TIANJIN_HAZARD_RAMP, Advice, Option, advise
from tjmj.families.tianjin.score import score
from tjmj.hand import InvalidHand, shanten_counts
from tjmj.meld import Meld, MeldType
from tjmj.outlook import hazard_now
from tjmj.tiles import Tile, format_tiles, parse_tiles, wild_kinds

# --------------------------------------------------------------------------------------
# Brute force: shanten_counts on every draw, score() on every draw of a ready hand.
# --------------------------------------------------------------------------------------


def _split(counts: list[int], wilds: tuple[Tile, ...]) -> tuple[list[int], int]:
    c = list(counts)
    w = 0
    for k in wilds:
        w += c[k]
        c[k] = 0
    return c, w


def _brute(rest: list[int], melds: list[Meld], indicator: Tile, live: list[int], kong: bool) -> dict:
    wilds = wild_kinds(indicator)
    need = 4 - len(melds)
    nw, w = _split(rest, wilds)
    sh = shanten_counts(nw, w, need)
    improving = []
    for k in range(34):
        if live[k] <= 0:
            continue
        c = list(rest)
        c[k] += 1
        nw2, w2 = _split(c, wilds)
        if shanten_counts(nw2, w2, need) < sh:
            improving.append((Tile(k), live[k]))
    waits = {}
    if sh == 0:
        hand = [Tile(k) for k in range(34) for _ in range(rest[k])]
        for k in range(34):
            try:
                r = score(hand, Tile(k), indicator, melds)
            except InvalidHand:  # a fifth copy: not drawable
                continue
            if r.complete:
                fan, win = r.fan, r.win
                if kong:
                    rk = score(hand, Tile(k), indicator, melds, kong_draw=True)
                    fan, win = rk.fan, rk.win
                waits[Tile(k)] = (fan, win, live[k])
    return {"shanten": sh, "improving": improving, "waits": waits}


def _check_against_brute(a: Advice, hand14: list[int], melds: list[Meld], indicator: Tile, seen: list[Tile]) -> None:
    vis = list(hand14)
    for m in melds:
        vis[m.tile] += m.size
    vis[indicator] += 1
    for t in seen:
        vis[t] += 1
    live = [4 - n for n in vis]
    wilds = wild_kinds(indicator)
    expected = []
    for k in range(34):
        if not hand14[k]:
            continue
        rest = list(hand14)
        rest[k] -= 1
        b = _brute(rest, melds, indicator, live, False)
        expected.append(("discard", Tile(k), k in wilds, b))
        if hand14[k] == 4:
            rest4 = list(hand14)
            rest4[k] = 0
            expected.append(("ankong", Tile(k), False,
                             _brute(rest4, [*melds, Meld(MeldType.CONCEALED_KONG, Tile(k))], indicator, live, True)))
        for i, m in enumerate(melds):
            if m.type is MeldType.PON and m.tile == k:
                km = [*melds[:i], Meld(MeldType.ADDED_KONG, Tile(k)), *melds[i + 1:]]
                expected.append(("added_kong", Tile(k), False, _brute(rest, km, indicator, live, True)))
    assert len(a.options) == len(expected)
    got = {(o.action, o.tile): o for o in a.options}
    unseen = sum(live)
    assert a.unseen == unseen
    keys = []
    for action, tile, wild, b in expected:
        o = got[(action, tile)]
        assert o.wild == wild
        assert o.shanten == b["shanten"], (action, tile)
        assert list(o.improving) == b["improving"], (action, tile)
        if b["shanten"] == 0:
            assert {w.tile: (o.next_fan(w), w.win if action == "discard" and not wild else o.next_win(w), w.live)
                    for w in o.waits} == {t: (f, win and not wild, n) for t, (f, win, n) in b["waits"].items()}
            ev = sum(n * f for f, win, n in b["waits"].values() if win and not wild)
            win_live = sum(n for f, win, n in b["waits"].values() if win and not wild)
            assert o.ev == ev
            primary = ev
            if action == "discard" and not wild:
                # a ready hand with a live legal win: its chance is the closed form over the draws left;
                # one without is dead and valued as the step it is from a legal ready hand
                assert o.dead == (win_live == 0)
                if win_live:
                    fans = sum(n * f for f, win, n in b["waits"].values() if win)
                    p = _ready_chance(win_live / unseen, a.draws, hazard_now(a.wall_left, TIANJIN_HAZARD_RAMP),
                                      TIANJIN_HAZARD_RAMP)
                    assert o.legal_shanten == 0 and o.win_chance == pytest.approx(p, abs=2e-3)
                    assert o.expected == pytest.approx(p * fans / win_live, abs=1e-2)
                else:
                    assert o.legal_shanten >= 1 and o.legal_improving is not None
        else:
            assert not o.waits
            win_live = 0
            primary = sum(n for _, n in b["improving"])
            assert o.legal_shanten >= o.shanten and not o.dead
        if wild:
            assert o.win_chance == 0 and o.expected == 0
        assert 0 <= o.win_chance <= 1 and o.expected >= 0
        keys.append(((int(wild), -round(o.expected, 6), o.legal_shanten, b["shanten"], -primary, -win_live, int(tile),
                      ("discard", "ankong", "added_kong").index(action)), (action, tile)))
    keys.sort()
    assert [(o.action, o.tile) for o in a.options] == [k for _, k in keys]
    assert [o.rank for o in a.options] == list(range(1, len(a.options) + 1))


def _ready_chance(q: float, rounds: int, hazard: float, ramp: float) -> float:
    """The chance that a draw wins (chance ``q`` each) within ``rounds`` rounds, the hand going on
    after round ``t`` with 1 − min(0.8, hazard + ramp × t): written out, not the module's chain."""
    p, alive = 0.0, 1.0
    for t in range(rounds):
        p += alive * q
        alive *= (1 - q) * (1 - min(0.8, hazard + ramp * t))
    return p


def _random_case(rng: random.Random) -> tuple[list[Tile], Tile, Tile, list[Meld], list[Tile]]:
    wall = [Tile(k) for k in range(34) for _ in range(4)]
    rng.shuffle(wall)
    indicator = wall.pop()
    wilds = wild_kinds(indicator)
    melds: list[Meld] = []
    n_melds = rng.choice((0, 0, 0, 1, 2))
    for _ in range(n_melds):
        k = rng.choice([k for k in range(34) if wall.count(Tile(k)) >= 3 and k not in wilds])
        for _ in range(3):
            wall.remove(Tile(k))
        melds.append(Meld(MeldType.PON, Tile(k)))
    # a hand with structure: draw from a few suits so that ready hands are common enough
    kinds = rng.sample(range(34), 12)
    pool = [t for t in wall if t in kinds or t in wilds]
    rng.shuffle(pool)
    tiles = pool[: 14 - 3 * n_melds]
    for t in tiles:
        wall.remove(t)
    seen = wall[: rng.randrange(0, 30)]
    return tiles[:-1], tiles[-1], indicator, melds, seen


def test_ranking_agrees_with_brute_force_on_random_hands() -> None:
    rng = random.Random(5)
    ready = 0
    for _ in range(25):
        hand, draw, indicator, melds, seen = _random_case(rng)
        a = advise(hand, draw, indicator, melds, seen=seen)
        counts = [0] * 34
        for t in [*hand, draw]:
            counts[t] += 1
        _check_against_brute(a, counts, melds, indicator, seen)
        ready += any(o.ready for o in a.options)
    assert ready >= 3  # the brute force also covered ready hands' waits


@pytest.mark.parametrize(
    ("hand", "draw", "indicator", "melds"),
    [
        ("1234679m999p4p22z", "8m", "4p", ""),  # 龙 / 捉伍儿龙 waits
        ("123m456p789s111s4p", "9s", "4p", ""),  # 混儿吊
        ("123m678p999p3s4p22z", "9p", "4p", ""),  # a concealed kong to consider (then 杠开)
        ("123m678p3s4p22z", "2s", "4p", "[999p]"),  # an added kong
        ("1p2p123m678p68s222z", "6m", "1p", ""),  # 混儿吊 (R10)
        ("5s6s123m6m78m11s222s", "5m", "5s", ""),  # 捉伍儿龙 (R10)
        ("1p1p1p2p3p456p789p66z", "5m", "1p", ""),  # 双混儿捉伍儿本混儿龙
    ],
)
def test_ranking_agrees_with_brute_force_on_known_hands(hand: str, draw: str, indicator: str, melds: str) -> None:
    ms = [Meld.parse(x) for x in melds.split()] if melds else []
    a = advise(hand, draw, indicator, ms)
    counts = [0] * 34
    for t in [*parse_tiles(hand), Tile.parse(draw)]:
        counts[t] += 1
    _check_against_brute(a, counts, ms, Tile.parse(indicator), [])


# --------------------------------------------------------------------------------------
# Live counts, wilds, 混儿吊, kongs.
# --------------------------------------------------------------------------------------


def _opt(a: Advice, tile: str, action: str = "discard") -> Option:
    return next(o for o in a.options if o.tile == Tile.parse(tile) and o.action == action)


def test_seen_tiles_reduce_live_counts_and_can_change_the_order() -> None:
    plain = advise("1234679m999p4p22z", "8m", "4p")
    seen = advise("1234679m999p4p22z", "8m", "4p", seen="222m")
    order = [(o.action, str(o.tile)) for o in plain.options]
    assert order.index(("discard", "2m")) < order.index(("discard", "3m"))  # a tie, broken by tile order
    w2 = {str(w.tile): w.live for w in _opt(plain, "2m").waits}
    w2s = {str(w.tile): w.live for w in _opt(seen, "2m").waits}
    assert w2["2m"] == 3 and w2s["2m"] == 0
    assert _opt(seen, "2m").ev == _opt(plain, "2m").ev - 3 * 4
    assert _opt(seen, "2m").improving_count == _opt(plain, "2m").improving_count - 3
    order = [(o.action, str(o.tile)) for o in seen.options]
    assert order.index(("discard", "3m")) < order.index(("discard", "2m"))
    assert seen.to_dict()["live"]["2m"] == 0


def test_wild_discards_rank_last_and_never_win() -> None:
    a = advise("1p2p123m678p68s222z", "6m", "1p")  # wilds 1p, 2p
    wild = [o for o in a.options if o.wild]
    assert {str(o.tile) for o in wild} == {"1p", "2p"}
    assert a.options[-len(wild):] == tuple(wild)
    for o in wild:
        assert o.ev == 0 and not o.hundiao
        assert all(not w.win for w in o.waits)
        assert o.to_dict()["wild"] is True
    a = advise("1234679m999p4p5p2z", "2z", "4p")  # discarding the 5p leaves the 龙 wait
    o = _opt(a, "5p")
    assert o.wild and o.ready and o.rank > max(x.rank for x in a.options if not x.wild)
    assert any("小相公" in w.reason for w in o.waits) and not o.winning and o.ev == 0


def test_only_wilds_to_discard_still_ranks_them() -> None:
    a = advise("1p", "2p", "1p", "[111m][222m][333m][444m]")
    assert [(o.rank, str(o.tile), o.wild) for o in a.options] == [(1, "1p", True), (2, "2p", True)]
    assert a.options[0].shanten == 0 and a.options[0].ev == 0


def test_hundiao_hand_says_so() -> None:
    a = advise("123m456p789s111s4p", "9s", "4p")
    best = a.best
    assert best.ready and best.hundiao
    assert all(o.hundiao for o in a.options[:2])
    assert best.winning_live == sum(4 - n for n in a.visible)
    d = best.to_dict()
    assert d["hundiao"] is True and d["ev"] == best.ev >= 2 * best.winning_live
    assert a.to_dict()["win_now"]["name"] == "混儿吊"


def test_kongs_are_offered_with_a_replacement_draw() -> None:
    a = advise("123m678p999p3s4p22z", "9p", "4p")
    k = _opt(a, "9p", "ankong")
    assert k.replacement_draw and not k.gold
    assert k.ready
    w2s = next(w for w in k.waits if str(w.tile) == "2s")
    assert not w2s.win and k.next_win(w2s) and k.next_fan(w2s) == 2  # 死提溜, but 杠开 as a replacement draw
    d = k.to_dict()
    assert d["replacement_draw"] is True and d["action"] == "ankong"
    added = advise("123m678p3s4p22z", "9p", "4p", "[999p]")
    assert _opt(added, "9p", "added_kong").replacement_draw
    gold = advise("1p1p1p1p123m456s78s7z", "7z", "9p")
    assert _opt(gold, "1p", "ankong").gold


def test_xiaoxianggong_nothing_wins() -> None:
    a = advise("1234679m999p4p22z", "8m", "4p", xiaoxianggong=True)
    assert all(o.ev == 0 for o in a.options)
    assert all(not w.win for o in a.options for w in o.waits)


def test_seen_beyond_four_copies_is_an_error() -> None:
    with pytest.raises(InvalidHand, match="seen: 5 copies of 9p"):
        advise("1234679m999p4p22z", "8m", "4p", seen="99p")


def test_fast_enough() -> None:
    rng = random.Random(11)
    cases = [_random_case(rng) for _ in range(20)]
    cases.append((parse_tiles("1234679m999p4p22z"), Tile.parse("8m"), Tile.parse("4p"), [], []))
    for c in cases:
        advise(c[0], c[1], c[2], c[3], seen=c[4])  # warm the per-suit tables
    t0 = time.perf_counter()
    for c in cases:
        advise(c[0], c[1], c[2], c[3], seen=c[4])
    per_call = (time.perf_counter() - t0) / len(cases)
    assert per_call < 0.1, per_call


# --------------------------------------------------------------------------------------
# The command.
# --------------------------------------------------------------------------------------


def test_cli_human_output() -> None:
    r = CliRunner().invoke(advise_cmd, ["1234679m999p4p22z", "--draw", "8m", "--indicator", "4p", "--top", "3"])
    assert r.exit_code == 0, r.output
    assert "discard 1m" in r.output and "shanten" in r.output and "5m×4 7f" in r.output
    assert "龙 fan 4 (WIN)" in r.output
    r = CliRunner().invoke(advise_cmd, ["1p2p123m678p68s222z", "-d", "6m", "-i", "1p"])
    assert r.exit_code == 0 and "(小相公)" in r.output


def test_cli_json_output() -> None:
    r = CliRunner().invoke(advise_cmd, ["123m678p999p3s4p22z", "-d", "9p", "-i", "4p", "--seen", "2s2s", "--seen",
                                        "7z", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert [o["rank"] for o in d["options"]] == list(range(1, len(d["options"]) + 1))
    kong = next(o for o in d["options"] if o["action"] == "ankong")
    assert kong["replacement_draw"] is True
    w = next(w for w in kong["waits"] if w["tile"] == "2s")
    assert w["live"] == 2 and w["kong_draw"]["win"] is True
    assert d["live"]["7z"] == 3
    r = CliRunner().invoke(advise_cmd, ["123m678p999p3s4p22z", "-d", "9p", "-i", "4p", "--json", "--top", "2"])
    assert len(json.loads(r.output)["options"]) == 2


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["123m678p999p3s4p22z", "-d", "9x", "-i", "4p"], "--draw"),
        (["123m678p999p3s4p2z", "-d", "9p", "-i", "4p"], "12 concealed tiles"),
        (["123m678p999p3s4p22z", "-d", "9p", "-i", "4p", "--seen", "9q"], "--seen"),
        (["123m678p999p3s4p22z", "-d", "9p", "-i", "4p", "--seen", "4p4p4p"], "seen: 5 copies of 4p"),
        (["123m678p999p3s4p22z", "-d", "9p", "-i", "4p", "--set", "nosuch=1"], "nosuch"),
    ],
)
def test_cli_bad_input(args: list[str], needle: str) -> None:
    r = CliRunner().invoke(advise_cmd, args)
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:") and needle in lines[0], r.output


def test_format_round_trip_of_improving_kinds() -> None:
    a = advise("1234679m999p4p22z", "8m", "4p")
    assert format_tiles(t for t, _ in _opt(a, "2m").improving) == "25m45p"
