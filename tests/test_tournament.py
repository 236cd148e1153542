"""Duplicate tournaments (tjmj.tournament) and the `tjmj tournament` command."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import pytest
from click.testing import CliRunner

from tests.clitools import one_error_line
from tjmj.cli.tournament import tournament as tournament_cmd
from tjmj.tournament import mean_ci, paired, t_quantile, tournament

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


def test_paired_compares_two_runs_deal_set_by_deal_set() -> None:
    """Two runs on the same deals: the JSON carries each deal set's mean, and ``paired`` gives the mean
    difference with a t interval over the deal sets; a bot against itself differs by exactly 0, and
    runs on other deals are refused."""
    a = tournament(["baseline", "random", "random", "random"], hands=48, seed=5, match_hands=4).to_dict()
    b = tournament(["greedy", "random", "random", "random"], hands=48, seed=5, match_hands=4).to_dict()
    assert len(a["results"]["baseline"]["set_means"]) == a["deal_sets"] == 3
    mean, half, sets = paired(a, "baseline", b, "greedy")
    want = [x - y for x, y in zip(a["results"]["baseline"]["set_means"], b["results"]["greedy"]["set_means"], strict=True)]
    assert sets == 3 and (mean, half) == mean_ci(want)
    assert math.isclose(mean, a["results"]["baseline"]["mean_points"] - b["results"]["greedy"]["mean_points"])
    assert paired(a, "baseline", a, "baseline") == (0.0, 0.0, 3)
    other = tournament(["baseline", "random", "random", "random"], hands=48, seed=6, match_hands=4).to_dict()
    with pytest.raises(ValueError, match="seed"):
        paired(a, "baseline", other, "baseline")
    with pytest.raises(ValueError, match="nope"):
        paired(a, "nope", b, "greedy")


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


def test_cli_bots_with_options_are_told_apart() -> None:
    """``--bots`` takes a bot's options in parentheses (their commas do not split the list); the report
    names each setting by its whole text, normalised, so two settings of one bot are two rows."""
    r = CliRunner().invoke(tournament_cmd, ["--bots", "expert(rollouts=2,max_shanten=0),strong(revive=0),strong,strong",
                                            "--hands", "4", "--seed", "2", "--match-hands", "4", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert set(d["results"]) == {"expert(rollouts=2, max_shanten=0)", "strong(revive=0)", "strong"}
    assert sum(s["points"] for s in d["results"].values()) == 0


@pytest.mark.parametrize("args", [["--bots", "baseline,nope,baseline,random"],
                                  ["--bots", "expert(budget=1),strong,strong,strong"], ["--bots", "baseline,random"],
                                  ["--bots", "baseline,random,baseline,random", "--set", "nope=1"],
                                  ["--bots", "baseline,random,baseline,random", "--hands", "0"]])
def test_cli_bad_input_exits_2(args: list[str]) -> None:
    r = CliRunner().invoke(tournament_cmd, args)
    assert r.exit_code == 2
    assert "Error" in r.output


def test_cli_bot_log_that_cannot_be_written(tmp_path: Any) -> None:
    """`--bot-log` into a missing directory: one error line before any hand (it used to be a traceback
    when the first outside bot started)."""
    log = f"{tmp_path}/no/such/dir/log.txt"
    simple = f"cmd:{sys.executable} examples/bots/simple_bot.py"
    r = CliRunner().invoke(tournament_cmd, ["--bots", f"baseline,baseline,baseline,{simple}", "--hands", "2000",
                                            "--bot-log", log])
    one_error_line(r, f"--bot-log {log}: cannot write there: the directory {tmp_path}/no/such/dir does not exist")
    r = CliRunner().invoke(tournament_cmd, ["--bots", "baseline,random,baseline,random", "--bot-log", str(tmp_path)])
    one_error_line(r, f"--bot-log {tmp_path}: cannot write there: it is a directory")


def test_api_bot_log_that_cannot_be_written(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="bot_log .*does not exist"):
        tournament(["baseline", "random", "baseline", "random"], hands=4, bot_log=tmp_path / "no" / "log.txt")


def test_cli_outside_bot_that_cannot_start() -> None:
    """`cmd:no-such-program-xyz`: refused before playing, one line naming the command (it used to be
    played to the end as a crash)."""
    r = CliRunner().invoke(tournament_cmd, ["--bots", "baseline,cmd:no-such-program-xyz,baseline,random",
                                            "--hands", "2000"])
    one_error_line(r, "--bots: cannot start the outside bot 'cmd:no-such-program-xyz': ", "not found on PATH")
    from tjmj.bots.external import BotStartError

    with pytest.raises(BotStartError, match="no-such-program-xyz"):
        tournament(["baseline", "cmd:no-such-program-xyz", "baseline", "random"], hands=4)


def test_chan_counts_only_a_paid_chan() -> None:
    """R8 lists no payment of 0: with `chan_units: 0` a 铲 still happens but is not counted as paid."""
    from tjmj.rules import Rules

    counts = []
    for units in (1, 0):
        seen: list[dict[str, Any]] = []

        def keep(i: int, rot: int, events: list[dict[str, Any]], seen: list[dict[str, Any]] = seen) -> None:
            seen.extend(e for e in events if e["type"] == "chan")

        r = tournament(["baseline"] * 4, hands=200, seed=3, match_hands=50,
                       rules=Rules.preset("classic", chan_units=units), on_match=keep)
        counts.append((len(seen), r.stats["baseline"].chan))
    assert counts[0][0] == counts[0][1] > 0
    assert counts[1] == (counts[0][0], 0)
