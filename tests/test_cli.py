"""The ``tjmj`` command line (docs/cli.md): score, waits, rules, the JSON-lines batch, bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tjmj import __version__
from tjmj.cli import main
from tjmj.families.tianjin.calculator import BATCH_KEYS
from tjmj.jsonlines import batch_answer
from tjmj.rules import Rules

WIDE = {"COLUMNS": "200"}  # so that Rich does not wrap names in the middle for the assertions


def run(*args: str, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, env=WIDE)


def json_of(res: Result) -> dict:
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert len(lines) == 1  # --json prints one JSON object on one line
    return json.loads(lines[0])


# R5.4 worked cases (hand = 13 tiles before the draw)
DOUBLE_28 = ["1p1p1p2p3p456p789p66z", "--draw", "5m", "--indicator", "1p"]
DEAD_TILIU = ["123m678p999p3s4p22z", "--draw", "2s", "--indicator", "4p"]
GANGKAI = ["123m678p3s4p22z", "--draw", "2s", "--indicator", "4p", "--meld", "[9999p]", "--kong-draw"]
HUNDIAO_13 = ["123m678p999p234s4p", "--indicator", "4p"]


# ------------------------------------------------------------------------------------------
# score
# ------------------------------------------------------------------------------------------


def test_score_human_28() -> None:
    """R5.4: 双混儿捉伍儿本混儿龙 28, with tiles, arrangement, elements and the verdict."""
    res = run("score", *DOUBLE_28)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "双混儿捉伍儿本混儿龙" in out and "fan 28" in out
    assert "WIN" in out and "not a win" not in out
    assert "五万" in out and "一饼" in out and "二饼" in out  # draw, indicator and wilds in Chinese (R2)
    assert "2p=4m <5m> 1p=6m" in out  # wilds marked with what they play, the winning tile in <>
    assert out.count("龙 dragon") == 3  # the three groups of the 龙
    for chinese, english in [("混儿吊", "wild wait"), ("捉伍儿", "catching the five"), ("本混儿", "own-wild dragon")]:
        assert chinese in out and english in out
    assert "core 4" in out and "core 3" in out and "×2" in out


def test_score_json_28() -> None:
    d = json_of(run("score", *DOUBLE_28, "--json"))
    assert d["complete"] is True and d["win"] is True and d["fan"] == 28
    assert d["name"] == "双混儿捉伍儿本混儿龙"
    assert set(d["elements"]) == {"HUNDIAO", "ZHUOWU", "BENHUN", "LONG"}
    assert d["arrangement"]["dragon"] is not None and len(d["arrangement"]["groups"]) == 5
    assert "reason" not in d


def test_score_dead_tiliu() -> None:
    """R5.4 / R5.2: complete, fan 1, no win (死提溜); exit status 0 all the same."""
    res = run("score", *DEAD_TILIU)
    assert res.exit_code == 0, res.output
    assert "not a win" in res.stdout and "死提溜" in res.stdout and "提溜" in res.stdout
    d = json_of(run("score", *DEAD_TILIU, "--json"))
    assert (d["complete"], d["win"], d["fan"]) == (True, False, 1)
    assert d["reason"].startswith("死提溜")


def test_score_min_fan_override() -> None:
    """R5.2 option min_fan: --set min_fan=1 lets the 死提溜 hand win."""
    d = json_of(run("score", *DEAD_TILIU, "--set", "min_fan=1", "--json"))
    assert d["win"] is True and d["fan"] == 1


def test_score_gangkai() -> None:
    """R5.4: 123m678p3s4p22z + 2s as a kong replacement with kong 9p: 杠开 2."""
    d = json_of(run("score", *GANGKAI, "--json"))
    assert (d["win"], d["fan"], d["name"], d["elements"]) == (True, 2, "杠开", ["GANGKAI"])
    res = run("score", *GANGKAI)
    assert res.exit_code == 0
    assert "杠开" in res.stdout and "fan 2" in res.stdout and "[9999p]" in res.stdout
    assert "kong replacement" in res.stdout


def test_score_not_complete() -> None:
    d = json_of(run("score", "13m679p1358s1237z", "--draw", "9m", "--indicator", "4p", "--json"))
    assert (d["complete"], d["win"], d["fan"], d["arrangement"]) == (False, False, 0, None)
    res = run("score", "13m679p1358s1237z", "--draw", "9m", "--indicator", "4p")
    assert res.exit_code == 0 and "not a win" in res.stdout and "not complete" in res.stdout


def test_score_chinese_and_spaced_hand() -> None:
    """R1: Chinese names and separate words both parse to the same hand."""
    d = json_of(run("score", "一饼", "一饼", "一饼", "二饼", "三饼", "四饼五饼六饼七饼八饼九饼", "发", "发",
                    "--draw", "五万", "--indicator", "一饼", "--json"))
    assert d["fan"] == 28


def test_score_tianhu_presets() -> None:
    """R5.5: flat 4 under classic, 4 × the best fan (28) under yiyou."""
    flat = json_of(run("score", *DOUBLE_28, "--tianhu", "--json"))
    assert flat["fan"] == 4 and "TIANHU" in flat["elements"]
    best = json_of(run("score", *DOUBLE_28, "--tianhu", "--rules", "yiyou", "--json"))
    assert best["fan"] == 112
    same = json_of(run("score", *DOUBLE_28, "--tianhu", "--set", "tianhu=best_x4", "--json"))
    quoted = json_of(run("score", *DOUBLE_28, "--tianhu", "--set", 'tianhu="best_x4"', "--json"))
    assert same["fan"] == quoted["fan"] == 112


# ------------------------------------------------------------------------------------------
# waits
# ------------------------------------------------------------------------------------------


def test_waits_hundiao_json() -> None:
    """R5.4 / R5.1: 123m678p999p234s4p (4p wild) waits on every tile with 混儿吊."""
    d = json_of(run("waits", *HUNDIAO_13, "--json"))
    assert d["ready"] is True and d["shanten"] == 0 and d["hundiao"] is True
    winning = [w for w in d["waits"] if w["win"]]
    assert len(winning) == 34
    assert all(w["fan"] >= 2 for w in winning)
    seven_z = next(w for w in d["waits"] if w["tile"] == "7z")
    assert seven_z["name"] == "混儿吊" and seven_z["live"] == 4


def test_waits_hundiao_human() -> None:
    res = run("waits", *HUNDIAO_13)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "Shanten    0" in out and "34 winning" in out
    assert "混儿吊" in out and "every drawable tile" in out
    assert "7z 白" in out and "1m 一万" in out


def test_waits_kong_column_and_dead_tiliu() -> None:
    """With a kong the table shows the 杠开 fan; plain 提溜 waits are marked 死提溜 (R5.2)."""
    args = ["123m678p3s4p22z", "--indicator", "4p", "--meld", "[9999p]"]
    res = run("waits", *args)
    assert res.exit_code == 0, res.output
    assert "杠开" in res.stdout and "no: 死提溜" in res.stdout
    d = json_of(run("waits", *args, "--json"))
    two_s = next(w for w in d["waits"] if w["tile"] == "2s")
    assert (two_s["fan"], two_s["win"], two_s["kong_draw"]["fan"]) == (1, False, 2)


def test_waits_not_ready() -> None:
    res = run("waits", "13m679p1358s1237z", "--indicator", "4p")
    assert res.exit_code == 0 and "Ready      no" in res.stdout
    d = json_of(run("waits", "13m679p1358s1237z", "--indicator", "4p", "--json"))
    assert d["ready"] is False and d["shanten"] > 0 and d["waits"] == []


# ------------------------------------------------------------------------------------------
# rules, version
# ------------------------------------------------------------------------------------------


def test_rules_lists_every_option() -> None:
    res = run("rules")
    assert res.exit_code == 0, res.output
    for name, (_, section, _) in Rules.describe().items():
        assert name in res.stdout and section in res.stdout
    assert 'tianhu = "flat"' in res.stdout


def test_rules_yiyou_json() -> None:
    d = json_of(run("rules", "--rules", "yiyou", "--json"))
    assert d["preset"] == "yiyou"
    assert set(d["options"]) == set(Rules.describe())
    assert d["options"]["suben"]["value"] is True and d["options"]["tianhu"]["value"] == "best_x4"
    assert d["options"]["min_fan"]["section"] == "R5.2"
    assert d["options"]["min_fan"]["allowed"] == {"min": 1, "max": 1000}
    assert d["options"]["tianhu"]["allowed"] == ["flat", "best_x4"]


def test_version() -> None:
    res = run("--version")
    assert res.exit_code == 0 and __version__ in res.stdout


# ------------------------------------------------------------------------------------------
# bad input: exit status 2 and a message naming what is wrong
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["123m678p999p3s4p22x", "--draw", "2s", "--indicator", "4p"], "'x' at position 18"),
        (["123m678p999p3s4p22z", "--draw", "2q", "--indicator", "4p"], "--draw: invalid character 'q'"),
        (["123m678p999p3s4p22z", "--draw", "2s3s", "--indicator", "4p"], "exactly one tile"),
        (["123m678p999p3s4p2z", "--draw", "2s", "--indicator", "4p"], "12 concealed tiles"),
        (["1111p678p999p3s22z", "--draw", "1p", "--indicator", "4p"], "5 copies of 1p"),
        (["123m678p3s4p22z", "--draw", "2s", "--indicator", "4p", "--meld", "[444p]"], "wild kind 4p"),
        (["123m678p3s4p22z", "--draw", "2s", "--indicator", "4p", "--meld", "[94p]"], "one kind of tile"),
        ([*DEAD_TILIU, "--set", "min_fun=1"], "unknown rule option 'min_fun'"),
        ([*DEAD_TILIU, "--set", "min_fan=0"], "min_fan"),
        ([*DEAD_TILIU, "--set", "min_fan"], "expected option=value"),
        ([*DEAD_TILIU, "--rules", "nope"], "nope"),
        (["123m678p999p3s4p22z", "--draw", "2s"], "--indicator"),
        ([], "HAND"),
        (["123m678p999p3s4p22z", "--batch", "-"], "HAND"),
        (["--batch", "/nonexistent/hands.jsonl"], "cannot open batch file"),
    ],
)
def test_score_bad_input(args: list[str], needle: str) -> None:
    res = run("score", *args)
    assert res.exit_code == 2, res.output
    assert needle in res.stderr
    assert "Traceback" not in res.output
    assert res.stdout == ""


def test_content_errors_are_one_line() -> None:
    """Errors in the tiles (not in the command's shape) are a single 'Error: …' line."""
    res = run("score", "1111p678p999p3s22z", "--draw", "1p", "--indicator", "4p")
    assert res.exit_code == 2
    assert res.stderr.splitlines() == [res.stderr.strip()] and res.stderr.startswith("Error: ")
    assert "一饼" in res.stderr


def test_waits_bad_input() -> None:
    res = run("waits", "123m678p999p234s4p4p", "--indicator", "4p")
    assert res.exit_code == 2 and "14 concealed tiles" in res.stderr
    res = run("waits", "123m678p999p234s4p")
    assert res.exit_code == 2 and "--indicator" in res.stderr


# ------------------------------------------------------------------------------------------
# batch (stable interface: one JSON line per input line, in order)
# ------------------------------------------------------------------------------------------

GOOD_28 = {"hand": "1p1p1p2p3p456p789p66z", "draw": "5m", "indicator": "1p"}
GOOD_GANGKAI = {"hand": "123m678p3s4p22z", "draw": "2s", "indicator": "4p",
                "melds": [{"type": "kong", "tile": "9p"}], "kong_draw": True}
DEAD = {"hand": "123m678p999p3s4p22z", "draw": "2s", "indicator": "4p"}

# (input line, substring of the error, or the expected fan of a good line)
BATCH_CASES: list[tuple[str, str | int]] = [
    (json.dumps(GOOD_28), 28),
    ("not json", "invalid JSON"),
    (json.dumps(GOOD_GANGKAI), 2),
    ("[1, 2]", "JSON object"),
    (json.dumps({"hand": "123m678p999p3s4p22z", "draw": "2s"}), "missing key(s) 'indicator'"),
    (json.dumps({**DEAD, "foo": 1, "bar": 2}), "unknown key(s) 'foo', 'bar'"),
    (json.dumps({**DEAD, "kong_draw": "yes"}), "'kong_draw' must be true or false"),
    (json.dumps({**DEAD, "tianhu": 1}), "'tianhu' must be true or false"),
    (json.dumps({**DEAD, "hand": 5}), "'hand' must be a string"),
    (json.dumps({**DEAD, "hand": "123m678p999p3s4p2z"}), "12 concealed tiles"),
    (json.dumps({**DEAD, "hand": "1111p678p999p3s22z", "draw": "1p"}), "5 copies of 1p"),
    (json.dumps({**DEAD, "hand": "123m678p999p3s4p2x"}), "invalid character 'x'"),
    (json.dumps({**DEAD, "draw": "2s3s"}), "draw must be exactly one tile"),
    (json.dumps({**DEAD, "indicator": "0p"}), "indicator: invalid digit '0'"),
    (json.dumps({**GOOD_GANGKAI, "melds": [{"type": "pon", "tile": "4p"}]}), "pon of the wild kind 4p"),
    (json.dumps({**GOOD_GANGKAI, "melds": [{"type": "kong", "tile": "4p"}]}), "kong of the wild kind 4p"),
    (json.dumps({**GOOD_GANGKAI, "melds": [{"type": "chi", "tile": "9p"}]}), "melds[0]: a chi is a sequence named by its lowest tile"),
    (json.dumps({**GOOD_GANGKAI, "melds": [{"type": "chi", "tile": "7p"}]}), "there is no chi in Tianjin mahjong (R4)"),
    (json.dumps({**GOOD_GANGKAI, "melds": "[9999p]"}), "'melds' must be an array"),
    (json.dumps({**DEAD, "kong_draw": True}), "kong_draw"),
    (json.dumps({**DEAD, "ruleset": "nope"}), "unknown rule preset 'nope'"),
    (json.dumps({**DEAD, "ruleset": 3}), "'ruleset' must be a string"),
    (json.dumps({**DEAD, "rules": {"min_fun": 1}}), "unknown rule option 'min_fun'"),
    (json.dumps({**DEAD, "rules": {"min_fan": "one"}}), "min_fan"),
    (json.dumps({**DEAD, "rules": [1]}), "'rules' must be an object"),
    (json.dumps({**DEAD, "rules": {"min_fan": 1}}), 1),
    (json.dumps({**GOOD_28, "tianhu": True, "ruleset": "yiyou"}), 112),
    (json.dumps(GOOD_28, ensure_ascii=False).replace("5m", "五万"), 28),
    (json.dumps(DEAD), 1),
]


def check_batch_output(out: str, cases: list[tuple[str, str | int]]) -> None:
    lines = out.splitlines()
    assert len(lines) == len(cases)
    for line, (src, want) in zip(lines, cases, strict=True):
        d = json.loads(line)
        if isinstance(want, str):
            assert set(d) == {"error"}, (src, d)
            assert want in d["error"], (src, d)
        else:
            assert "error" not in d, (src, d)
            assert d["fan"] == want, (src, d)
            assert {"complete", "win", "fan", "elements", "name", "arrangement"} <= set(d)


def test_batch_stdin_mixed_lines() -> None:
    text = "".join(src + "\n" for src, _ in BATCH_CASES)
    res = run("score", "--batch", "-", input=text.encode("utf-8"))
    assert res.exit_code == 0, res.output  # bad lines do not change the exit status
    assert res.stderr == ""
    check_batch_output(res.stdout, BATCH_CASES)


def test_batch_file_blank_lines_and_no_final_newline(tmp_path: Path) -> None:
    """Blank lines get an error line too, so output line N always answers input line N."""
    cases: list[tuple[str, str | int]] = [(json.dumps(GOOD_28), 28), ("", "blank line"), ("   ", "blank line"),
                                          (json.dumps(DEAD), 1)]
    p = tmp_path / "hands.jsonl"
    p.write_text("\n".join(src for src, _ in cases), "utf-8")  # the last line has no newline
    res = run("score", "--batch", str(p))
    assert res.exit_code == 0, res.output
    check_batch_output(res.stdout, cases)


def test_batch_answer_never_raises() -> None:
    for line in [b"\xff\xfe{}", b'{"a": ' * 100_000, "null", "1", '"x"', "{}", '{"hand": null}',
                 json.dumps({**DEAD, "melds": [None]}), json.dumps({**DEAD, "melds": [{"type": ["pon"]}]}),
                 json.dumps({**DEAD, "rules": {"": 1}})]:
        d = batch_answer(line)
        assert set(d) == {"error"} and d["error"], line[:40]


def test_batch_keys_documented() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text("utf-8")
    for key in BATCH_KEYS:
        assert f"`{key}`" in doc


def test_batch_matches_score_on_rules_cases() -> None:
    """Every R5.4 / R10 worked case scores the same through the batch as through `score --json`."""
    from .cases import ALL

    lines = []
    for row in ALL:
        _, _, hand, draw, ind, melds, kong_draw, fan, win = row[:9]
        d: dict[str, object] = {"hand": hand, "draw": draw, "indicator": ind}
        if melds:
            from tjmj.meld import parse_melds

            d["melds"] = [m.to_dict() for m in parse_melds(melds)]
        if kong_draw:
            d["kong_draw"] = True
        lines.append((json.dumps(d), fan, win))
    res = run("score", "--batch", "-", input="".join(src + "\n" for src, _, _ in lines))
    assert res.exit_code == 0
    out = [json.loads(x) for x in res.stdout.splitlines()]
    assert [(o["fan"], o["win"]) for o in out] == [(fan, win) for _, fan, win in lines]


def test_batch_rejects_hand_options() -> None:
    res = run("score", "--batch", "-", "--draw", "5m", input="")
    assert res.exit_code == 2 and "--draw" in res.stderr


# ------------------------------------------------------------------------------------------
# the installed console script, as a real process
# ------------------------------------------------------------------------------------------


def _tjmj_command() -> list[str]:
    exe = Path(sys.executable).parent / "tjmj"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("tjmj")
    if found:
        return [found]
    return [sys.executable, "-c", "import sys; from tjmj.cli import main; sys.exit(main())"]


def test_subprocess_batch_and_exit_codes() -> None:
    cmd = _tjmj_command()
    text = "".join(src + "\n" for src, _ in BATCH_CASES)
    p = subprocess.run([*cmd, "score", "--batch", "-"], input=text.encode("utf-8"), capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stderr == b""
    check_batch_output(p.stdout.decode("utf-8"), BATCH_CASES)

    p = subprocess.run([*cmd, "score", *DOUBLE_28, "--json"], capture_output=True, timeout=120)
    assert p.returncode == 0 and json.loads(p.stdout)["fan"] == 28

    p = subprocess.run([*cmd, "score", "123m678p999p3s4p22z", "--draw", "2s", "--indicator", "4x"],
                       capture_output=True, timeout=120)
    assert p.returncode == 2
    err = p.stderr.decode("utf-8")
    assert "'x'" in err and "Traceback" not in err


def test_subprocess_batch_answers_interactively() -> None:
    """Through a pipe each answer is flushed at once: a caller may wait for it before writing more."""
    p = subprocess.Popen([*_tjmj_command(), "score", "--batch", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert p.stdin is not None and p.stdout is not None
    watchdog = threading.Timer(60, p.kill)  # a missing flush would block readline() for ever
    watchdog.start()
    try:
        for src, want in [(json.dumps(GOOD_28), 28), ("oops", None), (json.dumps(DEAD), 1)]:
            p.stdin.write(src.encode() + b"\n")
            p.stdin.flush()
            d = json.loads(p.stdout.readline())
            assert d.get("fan") == want if want is not None else "error" in d
        p.stdin.close()
        assert p.wait(timeout=60) == 0
    finally:
        watchdog.cancel()
        if p.poll() is None:
            p.kill()


def test_score_svg_writes_the_arrangement(tmp_path):
    """`tjmj score ... --svg FILE` draws the best arrangement with tjmj.svg (issue 4's CLI hook)."""
    import xml.etree.ElementTree as ET

    out = tmp_path / "hand.svg"
    res = CliRunner().invoke(main, ["score", "1p1p1p2p3p456p789p66z", "--draw", "5m", "--indicator", "1p",
                                    "--svg", str(out)])
    assert res.exit_code == 0, res.output
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg") and "5m" in out.read_text(encoding="utf-8")
    bad = CliRunner().invoke(main, ["score", "1p1p1p2p3p456p789p66z", "-d", "5m", "-i", "1p",
                                    "--svg", str(tmp_path / "no" / "x.svg")])
    assert bad.exit_code == 2 and "--svg" in bad.output


def test_batch_answers_equal_to_dict_on_random_hands() -> None:
    """The batch writes groups as cached JSON text; once parsed, every answer is to_dict()."""
    import random

    import orjson

    from tjmj.families.tianjin.samples import random_complete_hand
    from tjmj.families.tianjin.score import score

    rng = random.Random(11)
    for i in range(600):
        h = random_complete_hand(rng, max_melds=2)
        line = json.dumps(h.to_batch())
        r = score(h.concealed, h.draw, h.indicator, h.melds, kong_draw=h.kong_draw)
        assert json.loads(orjson.dumps(batch_answer(line))) == r.to_dict()
        if i % 5 == 0:  # the same hand again: the cached JSON is reused as it was made
            assert json.loads(orjson.dumps(batch_answer(line))) == r.to_dict()


def test_batch_no_arrangement() -> None:
    """--no-arrangement: the same answers without the arrangement key; errors unchanged."""
    lines = [json.dumps(GOOD_28), "oops", json.dumps(DEAD)]
    full = run("score", "--batch", "-", input="\n".join(lines) + "\n")
    short = run("score", "--batch", "-", "--no-arrangement", input="\n".join(lines) + "\n")
    assert full.exit_code == short.exit_code == 0
    for a, b in zip(full.stdout.splitlines(), short.stdout.splitlines(), strict=True):
        da, db = json.loads(a), json.loads(b)
        da.pop("arrangement", None)
        assert "arrangement" not in db and da == db
    bad = run("score", *DOUBLE_28, "--no-arrangement")
    assert bad.exit_code == 2 and "--no-arrangement goes with --batch" in bad.output


def test_subprocess_batch_fast_path_forms(tmp_path: Path) -> None:
    """The console script runs `score --batch FILE` without Click, in each spelling it accepts."""
    # the console script's own entry point, whether or not the script is on this machine's PATH
    cmd = [sys.executable, "-c", "import sys; from tjmj.batch import console; console()"]
    f = tmp_path / "hands.jsonl"
    f.write_text(json.dumps(GOOD_28) + "\n", encoding="utf-8")
    for args in (["--batch", str(f)], [f"--batch={f}"], ["--batch", str(f), "--no-arrangement"],
                 ["--no-arrangement", f"--batch={f}"]):
        p = subprocess.run([*cmd, "score", *args], capture_output=True, timeout=120)
        assert p.returncode == 0, p.stderr
        d = json.loads(p.stdout)
        assert d["fan"] == 28 and (("arrangement" in d) == ("--no-arrangement" not in args))
    p = subprocess.run([*cmd, "score", "--batch", str(tmp_path / "missing.jsonl")], capture_output=True, timeout=120)
    assert p.returncode == 2 and p.stdout == b"" and b"Error: cannot open batch file" in p.stderr


def test_subprocess_batch_reader_gone(tmp_path: Path) -> None:
    """A reader that stops early (`| head`): exit status 1, quietly, from a file in big writes too."""
    f = tmp_path / "many.jsonl"
    f.write_text((json.dumps(GOOD_28) + "\n") * 3000, encoding="utf-8")  # > 1 MiB of answers
    p = subprocess.Popen([*_tjmj_command(), "score", "--batch", str(f)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    first = p.stdout.read(100)
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=120) == 1
    assert first.startswith(b'{"complete":true') and b"Traceback" not in err and b"Exception" not in err


def test_subprocess_output_paths_and_outside_bots_fail_in_one_line(tmp_path: Path) -> None:
    """The real `tjmj` program: an output path that cannot be written or an outside bot that cannot
    start is one `Error:` line on stderr and exit status 2, never a traceback."""
    cmd = _tjmj_command()
    missing = str(tmp_path / "no" / "dir")
    cases = [
        (["simulate", "--hands", "5", "--out", f"{missing}/x.jsonl"], f"--out {missing}/x.jsonl"),
        (["tournament", "--bots", "baseline,random,baseline,random", "--bot-log", f"{missing}/log.txt"],
         f"--bot-log {missing}/log.txt"),
        (["simulate", "--hands", "5", "--bots", "cmd:no-such-program-xyz"], "'cmd:no-such-program-xyz'"),
        (["tournament", "--bots", "baseline,random,baseline,cmd:no-such-program-xyz"], "'cmd:no-such-program-xyz'"),
    ]
    for args, needle in cases:
        p = subprocess.run([*cmd, *args], capture_output=True, timeout=120)
        err = p.stderr.decode("utf-8")
        assert p.returncode == 2 and p.stdout == b"", (args, err)
        assert "Traceback" not in err and len(err.splitlines()) == 1 and err.startswith("Error: ")
        assert needle in err
