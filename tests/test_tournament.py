"""Duplicate tournaments (tjmj.tournament) and the `tjmj tournament` command."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from click.testing import CliRunner

from tjmj.cli_tournament import tournament as tournament_cmd
from tjmj.tournament import mean_ci, t_quantile, tournament

FOUR = ["baseline", "random", "greedy", "baseline"]


def _strip(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in ("seconds", "hands_per_s")}


def test_rotations_replay_the_same_walls() -> None:
    matches: list[tuple[int, int, list[dict[str, Any]]]] = []
    r = tournament(["baseline", "random", "greedy", "random"], hands=16, seed=7, match_hands=2,
                   on_match=lambda i, rot, evs: matches.append((i, rot, evs)))
    assert r.deal_sets == 2 and r.hands == 16
    assert [(i, rot) for i, rot, _ in matches] == [(i, rot) for i in range(2) for rot in range(4)]
    for i in range(2):
        sets = [evs for j, _, evs in matches if j == i]
        starts = [next(e for e in evs if e["type"] == "start_game") for evs in sets]
        deals = [next(e for e in evs if e["type"] == "start_kyoku") for evs in sets]
        assert len({json.dumps(d["tehais"]) for d in deals}) == 1  # the same deal in every rotation
        assert len({(d["dora_marker"], json.dumps(d["dice"])) for d in deals}) == 1
        assert len({tuple(s["seating"]) for s in starts}) == 1
        # rotation r: player p is bots[(p + r) % 4], so each seat is played by a different bot each time
        seating = starts[0]["seating"]
        for rot, s in enumerate(starts):
            names_by_player = {seating[seat]: s["names"][seat] for seat in range(4)}
            assert [names_by_player[p] for p in range(4)] == [r.bots[(p + rot) % 4] for p in range(4)]
    first = [next(e for e in evs if e["type"] == "start_kyoku") for _, _, evs in matches]
    assert first[0]["tehais"] != first[4]["tehais"]  # deal sets differ


def test_zero_sum_and_counts() -> None:
    r = tournament(["baseline", "random", "greedy", "baseline"], hands=40, seed=3)
    d = r.to_dict()
    assert d["hands"] == 40 and d["deal_sets"] == 2
    res = d["results"]
    assert list(res) == ["baseline", "random", "greedy"]
    assert sum(s["points"] for s in res.values()) == 0
    assert res["baseline"]["players"] == 2 and res["baseline"]["hands"] == 80 and res["random"]["hands"] == 40
    assert math.isclose(sum(s["mean_points"] * s["players"] for s in res.values()), 0.0, abs_tol=1e-9)
    for s in res.values():
        assert s["errors"] == 0 and s["decisions"] == 0
        assert 0 <= s["win_rate"] <= 1
    assert res["baseline"]["wins"] > res["random"]["wins"]


def test_hands_round_up_to_rotations() -> None:
    r = tournament(FOUR, hands=10, seed=1, match_hands=8)
    assert r.hands == 12 and r.deal_sets == 1


def test_deterministic_whatever_the_workers() -> None:
    a = tournament(FOUR, hands=32, seed=11, match_hands=4, workers=1)
    b = tournament(FOUR, hands=32, seed=11, match_hands=4, workers=2)
    assert _strip(a.to_dict()) == _strip(b.to_dict())
    c = tournament(FOUR, hands=32, seed=12, match_hands=4)
    assert _strip(a.to_dict()) != _strip(c.to_dict())


def test_confidence_interval_on_known_input() -> None:
    mean, half = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    sd = math.sqrt(5 / 3)
    assert half is not None and math.isclose(half, 3.182 * sd / 2, rel_tol=1e-9)
    assert mean_ci([5.0]) == (5.0, None)
    assert mean_ci([2.0, 2.0, 2.0]) == (2.0, 0.0)
    assert math.isclose(t_quantile(1), 12.706)
    assert math.isclose(t_quantile(30), 2.042)
    assert abs(t_quantile(31) - 2.0395) < 1e-3 and abs(t_quantile(120) - 1.9799) < 1e-3
    assert abs(t_quantile(10**6) - 1.96) < 1e-3


def test_report_ci_uses_deal_set_means() -> None:
    r = tournament(FOUR, hands=48, seed=5, match_hands=4)
    s = r.stats["random"]
    assert len(s.set_means) == r.deal_sets == 3
    d = s.to_dict()
    mean, half = mean_ci(s.set_means)
    assert d["mean_points"] == mean and d["ci95"] == [mean - half, mean + half]
    # equal hands per deal set: the mean of the set means is the overall mean
    assert math.isclose(mean, s.points / s.hands)


@pytest.mark.parametrize("bots", [["baseline"] * 3, ["baseline", "random", "nope", "random"], ["cmd:", "a", "b", "c"]])
def test_bad_bots(bots: list[str]) -> None:
    with pytest.raises(ValueError):
        tournament(bots, hands=4)


def test_cli_table_and_json() -> None:
    runner = CliRunner()
    r = runner.invoke(tournament_cmd, ["--bots", "baseline,random,baseline,random", "--hands", "16", "--seed", "2",
                                       "--match-hands", "4"])
    assert r.exit_code == 0, r.output
    assert "baseline" in r.output and "random" in r.output and "pts/hand" in r.output and "16 hands" in r.output
    r = runner.invoke(tournament_cmd, ["--bots", "baseline,random,baseline,random", "--hands", "16", "--seed", "2",
                                       "--match-hands", "4", "--set", "min_fan=1", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["hands"] == 16 and set(d["results"]) == {"baseline", "random"}
    assert sum(s["points"] for s in d["results"].values()) == 0


@pytest.mark.parametrize("args", [["--bots", "baseline,nope,baseline,random"], ["--bots", "baseline,random"],
                                  ["--bots", "baseline,random,baseline,random", "--set", "nope=1"],
                                  ["--bots", "baseline,random,baseline,random", "--hands", "0"]])
def test_cli_bad_input_exits_2(args: list[str]) -> None:
    r = CliRunner().invoke(tournament_cmd, args)
    assert r.exit_code == 2
    assert "Error" in r.output
