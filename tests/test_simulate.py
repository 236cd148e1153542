"""Self-play (tjmj.simulate, `tjmj simulate`): determinism, worker independence, summary vs records, CLI."""

from __future__ import annotations

import io
import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.clitools import one_error_line
from tjmj.cli.simulate import simulate as simulate_cmd
from tjmj.rules import Rules
from tjmj.simulate import HANDS_PER_MATCH, KONG_TYPES, Summary, match_seed, simulate

TIMING = ("seconds", "hands_per_s")


def stable(s: Summary) -> dict:
    """The summary without its machine-dependent keys."""
    return {k: v for k, v in s.to_dict().items() if k not in TIMING}


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def split_matches(evs: list[dict]) -> list[list[dict]]:
    out: list[list[dict]] = []
    for ev in evs:
        if ev["type"] == "start_game":
            out.append([])
        out[-1].append(ev)
    return out


# ------------------------------------------------------------------------------------------
# Sizing and determinism
# ------------------------------------------------------------------------------------------


def test_hands_mode_plays_exactly_n_hands_in_chunks(tmp_path: Path):
    out = tmp_path / "r.jsonl"
    s = simulate(hands=7, seed=4, bots="greedy", out=out, hands_per_match=3)
    assert s.hands == 7 and s.matches == 3  # 3 + 3 + 1 (R9 match_hands)
    games = split_matches(records(out))
    assert [sum(e["type"] == "end_kyoku" for e in g) for g in games] == [3, 3, 1]
    assert [g[0]["rules"]["match_hands"] for g in games] == [3, 3, 1]
    assert [g[0]["seed"] for g in games] == [match_seed(4, i) for i in range(3)]


def test_matches_mode_plays_full_matches(tmp_path: Path):
    out = tmp_path / "r.jsonl"
    rules = Rules.preset("classic", match_rounds=1)
    s = simulate(matches=2, seed=1, rules=rules, bots="baseline", out=out)
    games = split_matches(records(out))
    assert s.matches == len(games) == 2
    for g in games:
        assert g[0]["type"] == "start_game" and g[-1]["type"] == "end_game"
        assert g[0]["rules"]["match_rounds"] == 1 and g[0]["rules"]["match_hands"] is None
        assert sum(g[-1]["scores"]) == 0  # R8
    assert s.hands == sum(e["type"] == "end_kyoku" for g in games for e in g) >= 8  # ≥ 4 dealers × 2 matches


def test_same_seed_same_records_and_other_seed_differs(tmp_path: Path):
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    bots = ("baseline", "random", "greedy", "baseline")
    sa = simulate(hands=12, seed=5, bots=bots, out=a, hands_per_match=4)
    sb = simulate(hands=12, seed=5, bots=bots, out=b, hands_per_match=4)
    simulate(hands=12, seed=6, bots=bots, out=c, hands_per_match=4)
    assert a.read_bytes() == b.read_bytes()
    assert stable(sa) == stable(sb)
    assert a.read_bytes() != c.read_bytes()


def test_workers_do_not_change_records_or_summary(tmp_path: Path):
    one, two = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    kw = {"hands": 30, "seed": 11, "bots": "baseline,random,baseline,greedy", "hands_per_match": 5}
    s1 = simulate(**kw, out=one, workers=1)
    s2 = simulate(**kw, out=two, workers=2)
    assert one.read_bytes() == two.read_bytes()
    assert stable(s1) == stable(s2)
    assert s1.matches == 6


def test_out_accepts_a_binary_file_and_progress_counts():
    buf = io.BytesIO()
    seen: list[tuple[int, int]] = []
    simulate(hands=5, seed=2, bots="greedy", out=buf, hands_per_match=2, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(2, 5), (4, 5), (5, 5)]
    lines = buf.getvalue().decode().splitlines()
    assert json.loads(lines[0])["type"] == "start_game" and json.loads(lines[-1])["type"] == "end_game"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({}, "exactly one of hands= or matches="),
        ({"hands": 1, "matches": 1}, "exactly one of hands= or matches="),
        ({"hands": 0}, "positive integer"),
        ({"hands": 1, "bots": "baseline,random"}, "one name .* or four"),
        ({"hands": 1, "bots": "nobot"}, "unknown bot 'nobot'"),
        ({"hands": 1, "workers": 0}, "workers"),
    ],
)
def test_bad_arguments(kwargs: dict, message: str):
    with pytest.raises(ValueError, match=message):
        simulate(**kwargs)


# ------------------------------------------------------------------------------------------
# The summary agrees with the records
# ------------------------------------------------------------------------------------------


def test_summary_is_consistent_with_records(tmp_path: Path):
    out = tmp_path / "r.jsonl"
    s = simulate(hands=60, seed=3, bots="baseline,greedy,baseline,random", out=out, hands_per_match=20)
    evs = records(out)
    d = s.to_dict()
    types = Counter(e["type"] for e in evs)
    assert d["hands"] == 60 == types["end_kyoku"] == types["start_kyoku"]
    assert d["wins"] + d["draws"] == d["hands"]  # each hand ends in a win or a 荒牌
    assert d["wins"] == types["hora"] == sum(d["wins_by_seat"]) == sum(d["wins_by_player"])
    assert sum(d["wins_by_bot"].values()) == d["wins"]
    assert d["draws"] == types["ryukyoku"]
    assert d["chan"] == types["chan"] and d["pons"] == types["pon"]
    assert d["kongs"]["daiminkan"] == types["daiminkan"] and d["kongs"]["kakan"] == types["kakan"]
    assert d["kongs"]["ankan"] + d["kongs"]["gold_ankan"] == types["ankan"]
    assert set(d["kongs"]) == set(KONG_TYPES)
    assert d["mean_turns"] == pytest.approx(types["dahai"] / 60)
    hora = [e for e in evs if e["type"] == "hora"]
    assert sum(c["count"] for c in d["combinations"].values()) == len(hora)
    for name, c in d["combinations"].items():
        fans = [e["fan"] for e in hora if e["name"] == name]
        assert c["count"] == len(fans) and c["mean_fan"] == pytest.approx(sum(fans) / len(fans))
    assert d["mean_fan"] == pytest.approx(sum(e["fan"] for e in hora) / len(hora))
    assert d["wild_discards"] == sum(1 for e in evs if e["type"] == "dahai" and e["wild"])
    assert sum(d["points_by_player"]) == 0 and sum(d["points_by_bot"].values()) == 0  # R8 zero-sum
    for g in split_matches(evs):
        assert g[0]["type"] == "start_game" and g[-1]["type"] == "end_game" and sum(g[-1]["scores"]) == 0
    # wins by player follow the engine's seating (R3): player p sits at seat seating.index(p)
    by_player = [0] * 4
    for g in split_matches(evs):
        seating = g[0]["seating"]
        for e in g:
            if e["type"] == "hora":
                by_player[seating[e["actor"]]] += 1
    assert by_player == d["wins_by_player"]


def test_summary_merge_equals_one_pass():
    s = simulate(hands=10, seed=9, bots="greedy", hands_per_match=3)
    whole = Summary(bots=s.bots)
    whole.merge(s)
    assert stable(whole) == stable(s)


# ------------------------------------------------------------------------------------------
# The command
# ------------------------------------------------------------------------------------------


def run(*args: str) -> Result:
    return CliRunner().invoke(simulate_cmd, list(args), env={"COLUMNS": "200"})


def test_cli_json_keys():
    res = run("--hands", "6", "--seed", "1", "--json")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert len(lines) == 1
    d = json.loads(lines[0])
    for key in ("hands", "matches", "bots", "wins", "draws", "wins_by_seat", "wins_by_bot", "combinations", "chan",
                "kongs", "mean_turns", "hands_per_s", "points_by_bot"):
        assert key in d
    assert d["hands"] == 6 and d["bots"] == ["baseline"] * 4 and d["matches"] == 1  # 6 < HANDS_PER_MATCH
    assert HANDS_PER_MATCH >= 6


def test_cli_out_writes_complete_matches(tmp_path: Path):
    out = tmp_path / "rec.jsonl"
    res = run("--matches", "2", "--seed", "3", "--set", "match_hands=3", "--bots", "baseline,random,baseline,greedy",
              "--rules", "yiyou", "--out", str(out), "--json")
    assert res.exit_code == 0, res.output
    games = split_matches(records(out))
    assert len(games) == 2
    for g in games:
        assert g[0]["type"] == "start_game" and g[-1]["type"] == "end_game"
        assert g[0]["rules"]["preset"] == "yiyou" and g[0]["rules"]["match_hands"] == 3
        assert sorted(g[0]["names"]) == sorted(["baseline", "random", "baseline", "greedy"])
    assert json.loads(res.stdout)["hands"] == 6


def test_cli_table_output():
    res = run("--hands", "4", "--seed", "2", "--bots", "greedy")
    assert res.exit_code == 0, res.output
    assert "Self-play" in res.stdout and "hands / matches" in res.stdout and "4 / 1" in res.stdout


def test_cli_workers_give_the_same_json():
    a = json.loads(run("--hands", "12", "--hands-per-match", "4", "--seed", "8", "--json").stdout)
    b = json.loads(run("--hands", "12", "--hands-per-match", "4", "--seed", "8", "--json", "--workers", "2").stdout)
    for k in TIMING:
        a.pop(k), b.pop(k)
    assert a == b


@pytest.mark.parametrize(
    "args, message",
    [
        (["--hands", "5", "--bots", "alpha"], "Invalid value for '--bots': unknown bot 'alpha'; bots are random, greedy, "
                                              "baseline"),
        (["--hands", "5", "--bots", "random,baseline"], "give one bot name (for all four players) or four"),
        (["--hands", "5", "--matches", "1"], "give exactly one of --hands N or --matches N"),
        (["--seed", "1"], "give exactly one of --hands N or --matches N"),
        (["--hands", "0"], "--hands"),
        (["--hands", "5", "--set", "min_fan=0"], "min_fan (R5.2) must be an integer 1..1000"),
        (["--hands", "5", "--set", "nosuch=1"], "unknown rule option 'nosuch'"),
        (["--hands", "5", "--set", "min_fan"], "expected option=value"),
    ],
)
def test_cli_bad_input_exits_2(args: list[str], message: str):
    res = run(*args)
    assert res.exit_code == 2
    assert message in res.stderr


def test_chan_units_zero_records_replay(tmp_path: Path):
    """R8/R7: with `chan_units: 0` the engine lists no 0-point 铲 payment, so `tjmj simulate --set
    chan_units=0 --out` gives a record that `tjmj replay` accepts (it used to reject it)."""
    from tjmj.cli.replay import replay as replay_cmd
    from tjmj.record import read_records, replay

    path = tmp_path / "chan0.jsonl"
    res = run("--hands", "50", "--seed", "3", "--set", "chan_units=0", "--out", str(path), "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["chan"] > 0  # a 铲 happened, paid with 0 units
    for events in read_records(path):
        assert all(p["amount"] > 0 for ev in events if ev["type"] == "end_kyoku" for p in ev["payments"])
        assert replay(events).ok
    rep = CliRunner().invoke(replay_cmd, [str(path)])
    assert rep.exit_code == 0, rep.output


@pytest.mark.parametrize(("target", "problem"), [
    ("{tmp}/no/such/dir/x.jsonl", "the directory {tmp}/no/such/dir does not exist"),
    ("{tmp}", "it is a directory"),
    ("{tmp}/file.txt/x.jsonl", "{tmp}/file.txt is not a directory"),
])
def test_cli_out_that_cannot_be_written(tmp_path: Path, target: str, problem: str):
    """`--out` into a missing directory (or onto a directory): one error line naming the path and the
    problem, before any hand is played (it used to be a FileNotFoundError traceback)."""
    (tmp_path / "file.txt").write_text("")
    path = target.format(tmp=tmp_path)
    res = run("--hands", "2000", "--out", path)  # a regression would play (seconds) before failing
    one_error_line(res, f"--out {path}: cannot write there: ", problem.format(tmp=tmp_path))


@pytest.mark.parametrize("bot", ["cmd:no-such-program-xyz", "cmd:/nonexistent/bot --fast", "cmd:"])
def test_cli_outside_bot_that_cannot_start(bot: str):
    """A `cmd:` bot whose program cannot be started: refused before playing, naming the command (it
    used to be played as a crash by the safe default)."""
    res = run("--hands", "2000", "--bots", f"baseline,baseline,baseline,{bot}")
    one_error_line(res, "--bots", repr(bot) if bot != "cmd:" else "no command")
    if bot != "cmd:":
        assert "cannot start the outside bot" in res.stderr


def test_cli_python_where_only_python3_exists(tmp_path: Path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "python3").symlink_to(sys.executable)
    res = CliRunner().invoke(simulate_cmd, ["--hands", "1", "--bots", "cmd:python examples/bots/simple_bot.py"],
                             env={"PATH": str(bindir)})
    one_error_line(res, "'cmd:python examples/bots/simple_bot.py'", "did you mean python3?")
