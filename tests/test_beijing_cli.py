"""Beijing hands through the calculator (docs/cli.md "Beijing hands", docs/advise.md "Beijing hands"):
``tjmj score --rules beijing|beijing_a`` with every situation flag, ``--json``, the batch's Beijing
lines mixed with Tianjin ones, ``tjmj waits``, ``tjmj advise`` and its library
(:mod:`tjmj.families.beijing.advise`, whose shanten is checked against a brute-force search),
``tjmj rules``, and every error path (one line, exit status 2, no traceback)."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tjmj.cli import main
from tjmj.families.beijing.advise import (
    Advice,
    advise,
    advise_input,
    ready_waits,
    shanten,
    shanten_counts,
)
from tjmj.families.beijing.calculator import BEIJING_BATCH_KEYS, BEIJING_FLAGS, BEIJING_OPTIONS
from tjmj.families.beijing.elements import WinContext
from tjmj.families.beijing.rules import BEIJING, BEIJING_A, BeijingRules
from tjmj.families.beijing.score import (
    BeijingScorer,
    InvalidBeijingHand,
    prepare_beijing,
    score_beijing,
)
from tjmj.families.beijing.waits import waits as library_waits
from tjmj.families.tianjin.calculator import BATCH_KEYS
from tjmj.jsonlines import batch_answer
from tjmj.meld import Meld, MeldType
from tjmj.tiles import TILES, Tile, format_tiles, successor

from .clitools import one_error_line

WIDE = {"COLUMNS": "200"}
ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, env=WIDE)


def json_of(res: Result) -> dict:
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def answer(line: dict, arrangement: bool = True) -> dict:
    return batch_answer(json.dumps(line, ensure_ascii=False), arrangement=arrangement)


# ------------------------------------------------------------------------------------------
# B8's four worked cases (preset beijing, non-dealer, no claims, 混坯 1z: the wild is 2z)
# ------------------------------------------------------------------------------------------

# (hand, winning tile, on a discard, value, codes, payments)
B8 = [
    ("123m456m789m123p5s", "5s", False, 16, ["LONG", "MENQING", "ZIMO", "WUHUN"], {"each": 16}),
    ("11m22m33p44p55s66s7z", "7z", True, 8, ["QIDUI", "MENQING", "WUHUN", "DIANPAO"],
     {"discarder": 16, "others": 8}),
    ("123m46m789m123p55s", "5m", False, 32, ["LONG", "ZHUOWUKUI", "MENQING", "ZIMO", "WUHUN"], {"each": 32}),
    ("111m222m333m444m5m", "5m", False, 32, ["QINGYISE", "MENQING", "ZIMO", "WUHUN"], {"each": 32}),
]


@pytest.mark.parametrize("case", B8, ids=[c[0] for c in B8])
def test_b8_cases_score_json_and_batch(case: tuple) -> None:
    hand, win, discard, value, codes, pay = case
    args = [hand, "--draw", win, "--indicator", "1z", "--rules", "beijing", *(["--discard"] if discard else [])]
    d = json_of(run("score", *args, "--json"))
    assert (d["complete"], d["win"], d["value"], d["elements"], d["payments"]) == (True, True, value, codes, pay)
    assert "reason" not in d and d["arrangement"]["wild"] == "2z"
    line = {"hand": hand, "draw": win, "indicator": "1z", "ruleset": "beijing"}
    if discard:
        line["win_on_discard"] = True
    assert answer(line) == d  # the batch answers exactly what --json prints
    short = answer(line, arrangement=False)
    assert "arrangement" not in short and short == {k: v for k, v in d.items() if k != "arrangement"}
    r = score_beijing(hand, win, indicator="1z", context=WinContext(self_drawn=not discard))
    assert (r.value, r.codes, r.payments()) == (value, codes, pay)

    res = run("score", *args)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert f"value {value}" in out and "WIN" in out and "not a win" not in out
    assert "东" in out and "南" in out and "混坯" in out  # the indicator and its wild, in Chinese
    for code in codes:
        assert code in out
    assert "Payments" in out
    if discard:
        assert f"the discarder pays {pay['discarder']}" in out and f"each other player {pay['others']}" in out
        assert "×2 on the discarder's payment" in out
    else:
        assert f"each of the three others pays {pay['each']}" in out


def test_score_human_explains_every_element() -> None:
    """Each element with its Chinese and English names and its value in the preset's column, the
    arrangement with what the wild plays, the dragon noted, the product."""
    res = run("score", "12346789m123p5s2z", "--draw", "5s", "--indicator", "1z", "--rules", "beijing")
    out = res.stdout
    assert "2z=5m" in out  # the wild plays 5m
    assert out.count("龙 dragon") == 3
    for chinese, english in [("一条龙", "pure straight 1-9"), ("门清", "concealed hand"), ("自摸", "self-drawn")]:
        assert chinese in out and english in out
    assert "1 × 2 × 2 × 2 = 8" in out and "value 8" in out
    assert "无混儿" not in out  # a wild is held

    res = run("score", "123m456m789m5s", "--draw", "5s", "--meld", "[123p]", "--rules", "beijing_a", "--discard")
    out = res.stdout
    assert res.exit_code == 0, res.output
    assert "+3" in out and "halved (not 门清), rounded up: 2" in out and "value 2" in out
    assert "包三家" in out and "the discarder pays 6" in out and "Wild       none" in out
    assert "[1p 2p 3p]" in out and "chi" in out  # the chi, in the arrangement


def test_score_seven_pairs_and_luxury() -> None:
    d = json_of(run("score", "11m22m33p44p55s66s2z", "-d", "6s", "-i", "1z", "--rules", "beijing", "--json"))
    assert d["arrangement"]["shape"] == "pairs" and "HAOHUA" in d["elements"]
    res = run("score", "11m22m33p44p55s66s2z", "-d", "6s", "-i", "1z", "--rules", "beijing")
    assert "七对子" in res.stdout and "豪华七对子" in res.stdout and "luxury seven pairs" in res.stdout


def test_score_not_complete_and_not_a_win() -> None:
    d = json_of(run("score", "123m456m789m123p5s", "-d", "6s", "-i", "1z", "--rules", "beijing", "--json"))
    assert (d["complete"], d["win"], d["value"], d["elements"], d["arrangement"]) == (False, False, 0, [], None)
    assert d["reason"].startswith("not complete") and "payments" not in d
    res = run("score", "123m456m789m123p5s", "-d", "6s", "-i", "1z", "--rules", "beijing")
    assert res.exit_code == 0 and "not a win" in res.stdout and "Payments" not in res.stdout
    # a pon, on a discard: complete, but a claimed hand wins only self-drawn (B3)
    args = ["123m456m789m5s", "-d", "5s", "-m", "[111p]", "-i", "1z", "--rules", "beijing", "--discard"]
    d = json_of(run("score", *args, "--json"))
    assert d["complete"] and not d["win"] and "B3" in d["reason"] and "payments" not in d
    assert "not a win" in run("score", *args).stdout
    # … unless the option says otherwise
    d = json_of(run("score", *args, "--set", "claimed_self_draw_only=false", "--json"))
    assert d["win"] and d["payments"] == {"discarder": 8, "others": 4}


# ------------------------------------------------------------------------------------------
# Every situation flag: the command line and the batch agree, and each has its effect
# ------------------------------------------------------------------------------------------

LONG13 = "123m46m789m123p55s"  # wins on 5m with 一条龙 捉五魁 (B8)
FLAG_CASES: list[tuple[str, list[str], dict, str, object]] = [
    # (id, command-line args after the hand, batch keys, check, expected)
    ("plain", [LONG13, "-d", "5m", "-i", "1z"], {"hand": LONG13, "draw": "5m", "indicator": "1z"}, "value", 32),
    ("discard", [LONG13, "-d", "5m", "-i", "1z", "--discard"],
     {"hand": LONG13, "draw": "5m", "indicator": "1z", "win_on_discard": True}, "payments",
     {"discarder": 32, "others": 16}),
    ("dealer", [LONG13, "-d", "5m", "-i", "1z", "--dealer"],
     {"hand": LONG13, "draw": "5m", "indicator": "1z", "dealer": True}, "value", 64),
    ("last_tile", [LONG13, "-d", "5m", "-i", "1z", "--last-tile"],
     {"hand": LONG13, "draw": "5m", "indicator": "1z", "last_tile": True}, "elements",
     ["LONG", "ZHUOWUKUI", "HAIDI", "MENQING", "ZIMO", "WUHUN"]),
    ("kong_draw", ["123m46m789m55s", "-d", "5m", "-i", "1z", "-m", "(1111p)", "--kong-draw"],
     {"hand": "123m46m789m55s", "draw": "5m", "indicator": "1z", "melds": [{"type": "ankong", "tile": "1p"}],
      "kong_draw": True}, "elements", ["LONG", "ZHUOWUKUI", "GANGKAI", "MENQING", "ZIMO", "WUHUN"]),
    ("rob_kong", [LONG13, "-d", "5m", "-i", "1z", "--rob-kong"],
     {"hand": LONG13, "draw": "5m", "indicator": "1z", "rob_kong": True}, "payments", {"kong_declarer": 96}),
    ("hunyou", ["123m456m789m123p2z", "-d", "5s", "-i", "1z", "--hunyou"],
     {"hand": "123m456m789m123p2z", "draw": "5s", "indicator": "1z", "hunyou": True}, "elements",
     ["LONG", "MENQING", "ZIMO", "WUHUN"]),
    ("hungang", ["222z123m456p789s1s", "-d", "2z", "-i", "1z", "--hungang"],
     {"hand": "222z123m456p789s1s", "draw": "2z", "indicator": "1z", "hungang": True}, "elements", ["HUNGANG"]),
    ("tianhe", [LONG13, "-d", "5m", "-i", "1z", "--tianhe", "--dealer"],
     {"hand": LONG13, "draw": "5m", "indicator": "1z", "tianhe": True, "dealer": True}, "value", 40),
    ("dihe", [LONG13, "-d", "5m", "-i", "1z", "--dihe"],
     {"hand": LONG13, "draw": "5m", "indicator": "1z", "dihe": True}, "elements", ["DIHE"]),
    ("upstairs", [LONG13, "-d", "5m", "-i", "1z", "--upstairs"],
     {"hand": LONG13, "draw": "5m", "indicator": "1z", "upstairs": True}, "payments", {"each": 64}),
    ("set_cap", [LONG13, "-d", "5m", "-i", "1z", "--set", "cap=16"],
     {"hand": LONG13, "draw": "5m", "indicator": "1z", "rules": {"cap": 16}}, "value", 16),
    ("set_base", [LONG13, "-d", "5m", "-i", "1z", "--set", "base=5"],
     {"hand": LONG13, "draw": "5m", "indicator": "1z", "rules": {"base": 5}}, "payments", {"each": 160}),
    ("chi", ["123m456m789m5s", "-d", "5s", "-i", "1z", "-m", "[345p]"],
     {"hand": "123m456m789m5s", "draw": "5s", "indicator": "1z", "melds": [{"type": "chi", "tile": "3p"}]},
     "elements", ["LONG", "ZIMO", "WUHUN"]),
    ("beijing_a", ["123m456m789m5s", "-d", "5s", "-m", "[123p]", "--discard", "--rules", "beijing_a"],
     {"hand": "123m456m789m5s", "draw": "5s", "melds": [{"type": "chi", "tile": "1p"}], "win_on_discard": True,
      "ruleset": "beijing_a"}, "payments", {"discarder": 6, "others": 0}),
]


@pytest.mark.parametrize("case", FLAG_CASES, ids=[c[0] for c in FLAG_CASES])
def test_every_flag(case: tuple) -> None:
    _, args, line, key, want = case
    if "--rules" not in args:
        args = [*args, "--rules", "beijing"]
    d = json_of(run("score", *args, "--json"))
    assert d[key] == want, d
    assert d["win"]
    line = {"ruleset": "beijing", **line}
    assert answer(line) == d
    res = run("score", *args)  # the human output runs too, and names the situation
    assert res.exit_code == 0 and "WIN" in res.stdout, res.output


def test_situation_is_shown() -> None:
    out = run("score", LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--dealer", "--last-tile",
              "--upstairs").stdout
    assert "dealer (庄家)" in out and "last tile (海底)" in out and "上楼" in out and "上楼 ×2" in out
    out = run("score", LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--rob-kong").stdout
    assert "robbing a kong (抢杠)" in out and "the kong's declarer pays 96" in out
    out = run("score", "222z123m456p789s1s", "-d", "2z", "-i", "1z", "--rules", "beijing", "--hungang").stdout
    assert "混杠 declared" in out and "40 flat" in out and "Best arrangement" not in out


def test_score_svg(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    for args in ([LONG13, "-d", "5m", "-i", "1z"], ["123m456m789m5s", "-d", "5s", "-m", "[123p]", "--rules",
                                                     "beijing_a"], ["123m456m789m123p5s", "-d", "6s", "-i", "1z"]):
        out = tmp_path / "hand.svg"
        res = run("score", *args, *([] if "--rules" in args else ["--rules", "beijing"]), "--svg", str(out))
        assert res.exit_code == 0, res.output
        assert ET.fromstring(out.read_text(encoding="utf-8")).tag.endswith("svg")
    one_error_line(run("score", LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--svg",
                       str(tmp_path / "no" / "x.svg")), "--svg")


# ------------------------------------------------------------------------------------------
# Errors: one line, exit 2, no traceback
# ------------------------------------------------------------------------------------------

SCORE_ERRORS: list[tuple[list[str], str]] = [
    ([LONG13, "-d", "5m", "--rules", "beijing"], "--indicator: rules beijing have a wild"),
    (["123m456m789m5s", "-d", "5s", "-m", "[123p]", "-i", "1z", "--rules", "beijing_a"],
     "--indicator: rules beijing_a have no wild"),
    ([LONG13, "-d", "5m", "--rules", "beijing_a", "--set", "wilds=true"], "have a wild"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--set", "wilds=false"], "have no wild"),
    ([LONG13, "-d", "5m", "-i", "1x", "--rules", "beijing"], "--indicator: invalid character 'x'"),
    ([LONG13, "-d", "5m5m", "-i", "1z", "--rules", "beijing"], "--draw must be exactly one tile"),
    ([LONG13 + "x", "-d", "5m", "-i", "1z", "--rules", "beijing"], "HAND: invalid character 'x'"),
    (["123m46m789m123p5s", "-d", "5m", "-i", "1z", "--rules", "beijing"], "12 concealed tiles"),
    (["1111m46m789m123p5s", "-d", "1m", "-i", "1z", "--rules", "beijing"], "5 copies of 1m"),
    (["1111z46m789m123p5s", "-d", "5m", "-i", "1z", "--rules", "beijing"], "the face-up 混坯 counts as one"),
    (["123m456m789m5s", "-d", "5s", "-m", "[135p]", "-i", "1z", "--rules", "beijing"],
     "a chi only as a sequence of one suit"),
    (["123m456m789m5s", "-d", "5s", "-m", "[789z]", "-i", "1z", "--rules", "beijing"], "--meld"),
    (["123m456m5s", "-d", "5s", "-m", "[123p][777z]", "-i", "1z", "--rules", "beijing"], "max_claims"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--discard", "--rob-kong"],
     "--discard and --rob-kong"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--discard", "--kong-draw"],
     "--discard and --kong-draw"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--discard", "--last-tile"],
     "--discard and --last-tile"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--rob-kong", "--hunyou"], "--rob-kong and --hunyou"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--discard", "--hungang"], "--discard and --hungang"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--discard", "--tianhe", "--dealer"],
     "--discard and --tianhe"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--discard", "--dihe"], "--discard and --dihe"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--kong-draw"], "--kong-draw (杠上开花) needs a kong"),
    (["123m46m789m55s", "-d", "5m", "-i", "1z", "-m", "(1111p)", "--rules", "beijing", "--kong-draw",
      "--last-tile"], "--kong-draw and --last-tile"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--tianhe"], "it needs --dealer as well"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--dihe", "--dealer"], "--dihe and --dealer"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--tianhe", "--dihe", "--dealer"],
     "one flat hand at most"),
    (["123m46m789m55s", "-d", "5m", "-i", "1z", "-m", "(1111p)", "--rules", "beijing", "--tianhe", "--dealer"],
     "no melds"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--hunyou"], "--hunyou (混儿悠): the 13 tiles"),
    (["123m456m789m5s", "-d", "5s", "-m", "[123p]", "--rules", "beijing_a", "--hunyou"], "hunyou"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--hungang"], "needs all four wilds"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--upstairs", "--set", "upstairs=false"],
     "上楼 is off"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--tianhu"], "--tianhu is Tianjin's"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--set", "cap=-1"], "cap"),
    ([LONG13, "-d", "5m", "-i", "1z", "--rules", "beijing", "--set", "min_fan=1"], "unknown rule option 'min_fan'"),
    (["123m678p999p3s4p22z", "-d", "2s", "-i", "4p", "--discard"], "--discard: a Beijing option"),
    (["123m678p999p3s4p22z", "-d", "2s", "-i", "4p", "--dealer", "--upstairs"], "--dealer, --upstairs: Beijing"),
    (["123m678p999p3s4p22z", "-d", "2s", "-i", "4p", "--set", "cap=3"], "unknown rule option 'cap'"),
]


@pytest.mark.parametrize("args,needle", SCORE_ERRORS, ids=[n for _, n in SCORE_ERRORS])
def test_score_errors_are_one_line(args: list[str], needle: str) -> None:
    one_error_line(run("score", *args), needle)
    one_error_line(run("score", *args, "--json"), needle)


def test_batch_rejects_beijing_flags_too() -> None:
    for flag in BEIJING_OPTIONS.values():
        res = run("score", "--batch", "-", flag)
        assert res.exit_code == 2 and flag in res.stderr


def test_flag_names() -> None:
    """Every batch flag has its option, and the option exists on `tjmj score`."""
    assert set(BEIJING_OPTIONS) == set(BEIJING_FLAGS)
    help_text = run("score", "--help").stdout
    for opt in BEIJING_OPTIONS.values():
        assert opt in help_text


# ------------------------------------------------------------------------------------------
# The batch: Beijing lines among Tianjin ones
# ------------------------------------------------------------------------------------------

TIANJIN = [
    {"hand": "1p1p1p2p3p456p789p66z", "draw": "5m", "indicator": "1p"},
    {"hand": "123m678p999p3s4p22z", "draw": "2s", "indicator": "4p", "ruleset": "yiyou"},
    {"hand": "123m678p3s4p22z", "draw": "2s", "indicator": "4p", "melds": [{"type": "kong", "tile": "9p"}],
     "kong_draw": True},
    {"hand": "123m678p999p3s4p22z", "draw": "2s", "indicator": "4p", "rules": {"min_fan": 1}},
]

# (Beijing line, an error substring or the expected value)
BEIJING_LINES: list[tuple[dict, str | int]] = [
    ({"hand": "123m456m789m123p5s", "draw": "5s", "indicator": "1z", "ruleset": "beijing"}, 16),
    ({"hand": "11m22m33p44p55s66s7z", "draw": "7z", "indicator": "1z", "ruleset": "beijing",
      "win_on_discard": True}, 8),
    ({"hand": "123m456m789m5s", "draw": "5s", "melds": [{"type": "chi", "tile": "1p"}], "ruleset": "beijing_a",
      "win_on_discard": True}, 2),
    ({"hand": "123m456m789m5s", "draw": "5s", "ruleset": "beijing_a", "rules": {"scoring": "multiply"},
      "melds": [{"type": "pon", "tile": "7z"}]}, 8),
    ({"hand": "123m456m789m5s", "draw": "5s", "indicator": "1z", "ruleset": "beijing_a"}, "has no wild"),
    ({"hand": "123m456m789m5s", "draw": "5s", "ruleset": "beijing"}, "missing key 'indicator'"),
    ({"draw": "5s", "indicator": "1z", "ruleset": "beijing"}, "missing key(s) 'hand'"),
    ({"hand": LONG13, "draw": "5m", "indicator": "1z", "ruleset": "beijing", "tianhu": True},
     "'tianhu' belong to Tianjin lines"),
    ({"hand": LONG13, "draw": "5m", "indicator": "1z", "ruleset": "beijing", "colour": "red"},
     "unknown key(s) 'colour'"),
    ({"hand": LONG13, "draw": "5m", "indicator": "1z", "ruleset": "beijing", "dealer": "yes"},
     "'dealer' must be true or false"),
    ({"hand": LONG13, "draw": "5m", "indicator": "1z", "ruleset": "beijing", "win_on_discard": True,
      "rob_kong": True}, "win_on_discard and rob_kong"),
    ({"hand": LONG13, "draw": "5m", "indicator": "1z", "ruleset": "beijing", "tianhe": True},
     "it needs dealer as well"),
    ({"hand": LONG13, "draw": "5m", "indicator": "1z", "ruleset": "beijing", "kong_draw": True},
     "kong_draw (杠上开花) needs a kong"),
    ({"hand": LONG13, "draw": "5m", "indicator": "1z", "ruleset": "beijing", "upstairs": True,
      "rules": {"upstairs": False}}, "上楼 is off"),
    ({"hand": LONG13, "draw": "5m", "indicator": "1z", "ruleset": "beijing", "rules": {"min_fan": 1}},
     "unknown rule option 'min_fan' for beijing rules"),
    ({"hand": LONG13, "draw": "5m", "indicator": "1z", "ruleset": "beijing", "rules": [1]}, "'rules' must be"),
    ({"hand": 5, "draw": "5m", "indicator": "1z", "ruleset": "beijing"}, "'hand' must be a string"),
    ({"hand": LONG13, "draw": "5m5m", "indicator": "1z", "ruleset": "beijing"}, "draw must be exactly one tile"),
    ({"hand": LONG13, "draw": "5m", "indicator": "0z", "ruleset": "beijing"}, "indicator: invalid digit '0'"),
    ({"hand": "123m456m789m5s", "draw": "5s", "indicator": "1z", "ruleset": "beijing",
      "melds": [{"type": "chi", "tile": "8p"}]}, "melds[0]: a chi is a sequence named by its lowest tile"),
    ({"hand": "123m456m789m5s", "draw": "5s", "indicator": "1z", "ruleset": "beijing", "melds": "[123p]"},
     "'melds' must be an array"),
    ({"hand": "123m456m5s", "draw": "5s", "indicator": "1z", "ruleset": "beijing",
      "melds": [{"type": "chi", "tile": "1p"}, {"type": "pon", "tile": "7z"}]}, "max_claims"),
    ({"hand": "1111z46m789m123p5s", "draw": "5m", "indicator": "1z", "ruleset": "beijing"}, "5 copies of 1z"),
    ({"hand": LONG13 + "5s", "draw": "5m", "indicator": "1z", "ruleset": "beijing"}, "14 concealed tiles"),
]

TIANJIN_ERRORS: list[tuple[dict, str]] = [
    ({**TIANJIN[0], "dealer": True}, "'dealer' is a key of Beijing lines"),
    ({**TIANJIN[0], "win_on_discard": True, "rob_kong": False}, "'win_on_discard', 'rob_kong' are keys of Beijing"),
    ({**TIANJIN[0], "ruleset": "classic", "hungang": True}, "unknown key(s) 'hungang'"),
    ({**TIANJIN[0], "melds": [{"type": "chi", "tile": "7p"}], "hand": "1p1p1p2p3p456p66z"},
     "there is no chi in Tianjin mahjong"),
]


def check_line(d: dict, want: str | int) -> None:
    if isinstance(want, str):
        assert set(d) == {"error"}, d
        assert want in d["error"], d
    else:
        assert "error" not in d, d
        assert d["value"] == want, d
        assert list(d)[:5] == ["complete", "win", "value", "elements", "name"]


@pytest.mark.parametrize("line,want", BEIJING_LINES + TIANJIN_ERRORS,
                         ids=[str(w) for _, w in BEIJING_LINES + TIANJIN_ERRORS])
def test_batch_beijing_lines(line: dict, want: str | int) -> None:
    check_line(answer(line), want)


def test_batch_mixed_in_order_and_tianjin_unchanged() -> None:
    """Tianjin and Beijing lines interleaved: answered in order, the Tianjin answers exactly those of a
    Tianjin-only batch (and with today's keys: fan, no value)."""
    alone = run("score", "--batch", "-", input="".join(json.dumps(t) + "\n" for t in TIANJIN))
    assert alone.exit_code == 0
    tianjin_answers = alone.stdout.splitlines()
    lines: list[tuple[str, object]] = []
    for i, (b, want) in enumerate(BEIJING_LINES):
        lines.append((json.dumps(b, ensure_ascii=False), want))
        if i % 3 == 0:
            t = i // 3 % len(TIANJIN)
            lines.append((json.dumps(TIANJIN[t]), ("tianjin", t)))
    res = run("score", "--batch", "-", input="".join(src + "\n" for src, _ in lines).encode("utf-8"))
    assert res.exit_code == 0 and res.stderr == ""
    out = res.stdout.splitlines()
    assert len(out) == len(lines)
    for got, (_, want) in zip(out, lines, strict=True):
        if isinstance(want, tuple):
            assert got == tianjin_answers[want[1]]
            assert "fan" in json.loads(got) and "value" not in json.loads(got)
        else:
            check_line(json.loads(got), want)  # type: ignore[arg-type]
    # --no-arrangement drops only the arrangement, Beijing lines included
    res = run("score", "--batch", "-", "--no-arrangement", input=json.dumps(BEIJING_LINES[0][0]) + "\n")
    d = json.loads(res.stdout)
    assert "arrangement" not in d and d["value"] == 16


def test_batch_keys_documented() -> None:
    doc = (ROOT / "docs" / "cli.md").read_text("utf-8")
    for key in BEIJING_BATCH_KEYS:
        assert f"`{key}`" in doc
    assert set(BATCH_KEYS) - set(BEIJING_BATCH_KEYS) == {"tianhu"}
    for code in ("HUNGANG", "QIDUI", "HAOHUA", "ZHUOWUKUI", "BENHUNLONG", "DIANPAO", "WUHUN", "DADIAO"):
        assert f"`{code}`" in doc


def test_batch_matches_score_json_on_random_hands() -> None:
    """Random Beijing wins (both presets, every situation the hand allows): batch == score --json."""
    rng = random.Random(7)
    groups = ["123m", "456m", "789m", "234p", "567s", "111z", "777z", "333p", "2z2z2z", "55s"]
    for _ in range(25):
        rules = rng.choice(["beijing", "beijing_a"])
        gs = rng.sample(groups[:-1], 4)
        hand = "".join(gs) + "55s"
        tiles = [str(t) for t in __import__("tjmj.tiles", fromlist=["parse_tiles"]).parse_tiles(hand)]
        if max(tiles.count(t) for t in set(tiles)) > 3:
            continue
        win = tiles.pop(rng.randrange(len(tiles)))
        if rules == "beijing_a" and "2z" in tiles + [win]:
            rules = "beijing"
        line: dict = {"hand": "".join(tiles), "draw": win, "ruleset": rules}
        args = ["".join(tiles), "--draw", win, "--rules", rules]
        if rules == "beijing":
            line["indicator"] = "1z"
            args += ["--indicator", "1z"]
        for key in ("win_on_discard", "dealer"):
            if rng.random() < 0.5:
                line[key] = True
                args.append(BEIJING_OPTIONS[key])
        d = json_of(run("score", *args, "--json"))
        assert answer(line) == d, line


def test_subprocess_console_batch(tmp_path: Path) -> None:
    """The console script's fast path (no Click) answers Beijing lines too, in order."""
    f = tmp_path / "mixed.jsonl"
    rows = [BEIJING_LINES[0][0], TIANJIN[0], BEIJING_LINES[4][0], BEIJING_LINES[1][0]]
    f.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    code = ("import sys; sys.argv = ['tjmj', 'score', '--batch', sys.argv[1]]; "
            "from tjmj.batch import console; console()")
    p = subprocess.run([sys.executable, "-c", code, str(f)], capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = [json.loads(x) for x in p.stdout.decode("utf-8").splitlines()]
    assert [d.get("value", d.get("fan", "error" in d)) for d in out] == [16, 28, True, 8]


def test_tianjin_batch_does_not_load_beijing_scorer() -> None:
    code = ("import sys, json; from tjmj.jsonlines import batch_answer; "
            f"batch_answer({json.dumps(json.dumps(TIANJIN[0]))}); "
            "print(any(m.startswith('tjmj.families.beijing.score') for m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60, text=True)
    assert p.stdout.strip() == "False", p.stderr


# ------------------------------------------------------------------------------------------
# tjmj waits --rules beijing
# ------------------------------------------------------------------------------------------


def test_waits_human_and_json() -> None:
    res = run("waits", LONG13, "--indicator", "1z", "--rules", "beijing")
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "standard 0, seven pairs 5" in out and "2 winning kind(s)" in out
    assert "一条龙、捉五魁、门清、自摸、无混儿" in out and "│ 16" in out  # 5m: 32 self-drawn, 16 on a discard
    d = json_of(run("waits", LONG13, "--indicator", "1z", "--rules", "beijing", "--json"))
    assert (d["ready"], d["shanten"], d["shanten_standard"], d["shanten_pairs"], d["hunyou"]) == (True, 0, 0, 5, False)
    assert [(w["tile"], w["value"], w["live"], w["discard"]["value"]) for w in d["waits"]] == [
        ("5m", 32, 4, 16), ("2z", 8, 4, 4)]
    lib = library_waits(LONG13, indicator="1z")
    assert [(str(w.tile), w.value, w.live) for w in lib] == [(w["tile"], w["value"], w["live"]) for w in d["waits"]]
    d = json_of(run("waits", LONG13, "--indicator", "1z", "--rules", "beijing", "--dealer", "--json"))
    assert [w["value"] for w in d["waits"]] == [64, 16]


def test_waits_seven_pairs_and_wild() -> None:
    d = json_of(run("waits", "11m22m33p44p55s66s2z", "--indicator", "1z", "--rules", "beijing", "--json"))
    assert (d["shanten"], d["shanten_pairs"], d["hunyou"]) == (0, 0, True)  # a lone wild: any tile wins
    assert len(d["waits"]) == 34 and {w["tile"] for w in d["waits"]} >= {"7z", "1m"}
    by_tile = {w["tile"]: w for w in d["waits"]}
    assert "HAOHUA" in by_tile["1m"]["elements"] and "QIDUI" in by_tile["7z"]["elements"]
    out = run("waits", "11m22m33p44p55s66s2z", "--indicator", "1z", "--rules", "beijing").stdout
    assert "混儿悠" in out and "every drawable tile wins" in out
    # seven pairs without a wild: the single's kind only
    d = json_of(run("waits", "11m22m33p44p55s66s7z", "--indicator", "1z", "--rules", "beijing", "--json"))
    assert [w["tile"] for w in d["waits"]] == ["2z", "7z"] and d["hunyou"] is False


def test_waits_claimed_kong_and_not_ready() -> None:
    d = json_of(run("waits", "123m456m789m5s", "-m", "[111p]", "-i", "1z", "--rules", "beijing", "--json"))
    assert d["shanten_pairs"] is None
    assert all(not w["discard"]["win"] and "B3" in w["discard"]["reason"] for w in d["waits"])
    assert all(w["win"] for w in d["waits"])
    out = run("waits", "123m456m789m5s", "-m", "[111p]", "-i", "1z", "--rules", "beijing").stdout
    assert "no: claimed hand (B3)" in out
    res = run("waits", "123m456m789m2z", "-m", "(1111p)", "-i", "1z", "--rules", "beijing", "--json")
    d = json_of(res)
    assert d["hunyou"] and all(w["kong_draw"]["value"] == 2 * w["value"] for w in d["waits"])
    assert "as kong draw (杠上开花)" in run("waits", "123m456m789m2z", "-m", "(1111p)", "-i", "1z", "--rules",
                                             "beijing").stdout
    d = json_of(run("waits", "19m19p19s1234567z", "-i", "1z", "--rules", "beijing", "--json"))
    assert d["ready"] is False and d["shanten"] > 0 and d["waits"] == []
    assert "useful draw(s) short" in run("waits", "19m19p19s1234567z", "-i", "1z", "--rules", "beijing").stdout
    d = json_of(run("waits", "123m456m789m5s", "-m", "[123p]", "--rules", "beijing_a", "--json"))
    assert [w["tile"] for w in d["waits"]] == ["5s"] and d["waits"][0]["discard"]["win"]


@pytest.mark.parametrize("args,needle", [
    ([LONG13, "--rules", "beijing"], "--indicator: rules beijing have a wild"),
    ([LONG13, "-i", "1z", "--rules", "beijing_a"], "have no wild"),
    ([LONG13 + "5s", "-i", "1z", "--rules", "beijing"], "14 concealed tiles"),
    ([LONG13, "-i", "1z", "-m", "[246m]", "--rules", "beijing"], "a chi only as a sequence"),
    (["123m678p999p234s4p", "-i", "4p", "--dealer"], "--dealer: a Beijing option"),
])
def test_waits_errors(args: list[str], needle: str) -> None:
    one_error_line(run("waits", *args), needle)


# ------------------------------------------------------------------------------------------
# Shanten against a brute-force search
# ------------------------------------------------------------------------------------------


def brute_shanten(counts: list[int], n_melds: int, scorer: BeijingScorer, alphabet: list[int], top: int) -> int | None:
    """The fewest exchanges d (discard d tiles of the hand, draw d + 1 of ``alphabet``) after which
    the hand is complete: shanten = d; None when more than ``top``.  Like the usual shanten it does not
    ask whether the tiles drawn are still there (a fifth copy may be drawn)."""
    kinds = [k for k in range(34) if counts[k]]
    for d in range(top + 1):
        for out in itertools.combinations_with_replacement(kinds, d):
            c = list(counts)
            for k in out:
                c[k] -= 1
            if min(c) < 0:
                continue
            for new in itertools.combinations_with_replacement(alphabet, d + 1):
                for k in new:
                    c[k] += 1
                if max(c) <= 7 and scorer.is_complete(c, n_melds):  # counts pack in 3 bits
                    return d
                for k in new:
                    c[k] -= 1
    return None


def _random_case(rng: random.Random, kinds: list[int]) -> tuple[list[int], int | None, int, BeijingScorer]:
    wild = rng.choice(kinds) if rng.random() < 0.7 else None
    if wild is None:
        scorer = BeijingScorer(None, BEIJING_A)
    else:
        scorer = BeijingScorer(next(TILES[k] for k in range(34) if successor(k) == wild), BEIJING)
    n = rng.choice([0, 0, 1, 2, 3])
    pairs = n == 0 and rng.random() < 0.4  # pair-rich: seven pairs is then often the better shape
    while True:
        c = [0] * 34
        if pairs:
            for k in rng.sample(kinds, rng.randint(4, 6)):
                c[k] += 2
        while sum(c) < 13 - 3 * n:
            c[rng.choice(kinds)] += 1
        if max(c) <= 4:
            return c, wild, n, scorer


@pytest.mark.parametrize("seed,kinds", [
    (1, list(range(9)) + [27, 28]),  # one suit and two honours: mostly near ready
    (2, list(range(14)) + [27, 28, 29]),  # wider: higher shanten, seven pairs often better
])
def test_shanten_against_brute_force(seed: int, kinds: list[int]) -> None:
    rng = random.Random(seed)
    pairs_better = 0
    for _ in range(120 if seed == 1 else 60):
        c, wild, n, scorer = _random_case(rng, kinds)
        alphabet = sorted({*kinds, 32, 33, *([] if wild is None else [wild])})  # 发 白: room for new groups
        std, pairs = shanten_counts(c, wild, n)
        mine = std if pairs is None else min(std, pairs)
        top = 2 if n == 0 else 3
        b = brute_shanten(c, n, scorer, alphabet, top)
        assert (mine if mine <= top else None) == b, (format_tiles([k for k in range(34) for _ in range(c[k])]), wild, n, std, pairs)
        pairs_better += pairs is not None and pairs < std
        # with the draw (14 tiles): −1 when complete, else the best discard's
        for k in rng.sample(kinds, 3):
            if c[k] < 4:
                c[k] += 1
                s14, p14 = shanten_counts(c, wild, n)
                best14 = s14 if p14 is None else min(s14, p14)
                if scorer.is_complete(c, n):
                    assert best14 == -1
                else:
                    per_discard = [min(x for x in shanten_counts([*c[:j], c[j] - 1, *c[j + 1:]], wild, n)
                                       if x is not None) for j in range(34) if c[j]]
                    assert best14 == min(per_discard)
                c[k] -= 1
    if seed == 2:
        assert pairs_better >= 5  # the seven-pairs branch was exercised


def test_improving_tiles_against_brute_force() -> None:
    """For small hands (3 concealed kongs: 4 tiles and the draw) each discard's shanten is the brute
    force's, and its improving tiles are the kinds after whose draw some discard leaves a lower one."""
    rng = random.Random(3)
    kinds = list(range(9)) + [27, 28]
    alphabet = [*kinds, 29, 30]  # two honour kinds held by nobody: room for new groups
    melds = tuple(Meld(MeldType.CONCEALED_KONG, Tile(k)) for k in (31, 32, 33))  # no claim: B3 allows one
    for _ in range(20):
        wild_ind = rng.choice([None, "1z", "8m"])  # no wild, the wild 2z, the wild 9m
        rules = BEIJING if wild_ind else BEIJING_A
        tiles = [rng.choice(kinds) for _ in range(5)]
        if max(tiles.count(t) for t in tiles) > 4:
            continue
        a = advise(tiles[:4], tiles[4], wild_ind, melds, rules=rules, seen="1m1m")
        scorer = BeijingScorer(wild_ind, rules)

        def brute(c: list[int], scorer: BeijingScorer = scorer, memo: dict = {}) -> int | None:  # noqa: B006
            key = (scorer.wild, tuple(c))
            if key not in memo:
                memo[key] = brute_shanten(c, 3, scorer, alphabet, 3)
            return memo[key]  # type: ignore[no-any-return]

        for o in a.discards:
            c = [0] * 34
            for t in tiles:
                c[t] += 1
            c[o.tile] -= 1
            base = brute(c)
            assert base == o.shanten
            want = []
            for k in range(34):
                live = 4 - a.visible[k]
                if live <= 0:
                    continue
                c[k] += 1
                if scorer.is_complete(c, 3):
                    best: int | None = -1
                else:
                    best = min(brute([*c[:j], c[j] - 1, *c[j + 1:]]) for j in range(34) if c[j])  # type: ignore[type-var]
                c[k] -= 1
                if best is not None and base is not None and best < base:
                    want.append((k, live))
            assert [(int(t), n) for t, n in o.improving] == want, (tiles, wild_ind, o.tile)


def test_shanten_function() -> None:
    assert shanten(LONG13, indicator="1z") == 0
    assert shanten(LONG13, indicator="1z", draw="5m") == -1
    assert shanten("11m22m33p44p55s66s7z", indicator="1z") == 0
    assert shanten("123m456m789m5s", melds="[123p]", rules=BEIJING_A) == 0
    with pytest.raises(InvalidBeijingHand):
        shanten("123m", indicator="1z")


# ------------------------------------------------------------------------------------------
# The advisor: library and tjmj advise --rules beijing
# ------------------------------------------------------------------------------------------


def check_advice(a: Advice, rules: BeijingRules, indicator: str | None, seen_counts: list[int] | None = None) -> None:
    """Every option's waits agree with the scorer's waits (self-drawn and on a discard), ev and ranks."""
    h = a.hand
    for o in a.options:
        assert o.rank == a.options.index(o) + 1
        if not o.ready:
            assert o.waits == () and o.ev == 0
            continue
        c = list(h.counts)
        if o.action in ("discard", "hunyou"):
            c[o.tile] -= 1
            melds = h.melds
        elif o.action == "ankong":
            c[o.tile] = 0
            melds = (*h.melds, Meld(MeldType.CONCEALED_KONG, o.tile))
        else:
            c[o.tile] -= 1
            melds = tuple(Meld(MeldType.ADDED_KONG, m.tile) if m.type is MeldType.PON and m.tile == o.tile else m
                          for m in h.melds)
        concealed = [TILES[k] for k in range(34) for _ in range(c[k])]
        ctx = dict(dealer=h.context.dealer, kong_draw=o.replacement_draw, hunyou=o.action == "hunyou")
        lib = library_waits(concealed, melds, indicator, rules, WinContext(**ctx))
        assert [(w.tile, w.value) for w in o.waits] == [(w.tile, w.value) for w in lib]
        lib_d = library_waits(concealed, melds, indicator, rules, WinContext(self_drawn=False, dealer=h.context.dealer))
        if o.action != "hunyou":
            assert [(w.discard.value, w.discard.win) for w in o.waits] == [(w.value, w.win) for w in lib_d]
        assert o.ev == sum(w.live * w.value for w in o.waits if w.win)
        assert all(w.live == 4 - a.visible[w.tile] for w in o.waits)
    keys = [o.sort_key() for o in a.options]
    assert keys == sorted(keys)


def test_advise_library_cases() -> None:
    a = advise("123m456m789m123p5s", "6s", "1z")
    check_advice(a, BEIJING, "1z")
    assert a.best.label() == "discard 5s" and a.best.ev == 80 and a.now is None and not a.hungang
    # seven pairs with a wild: ready only as pairs
    a = advise("11m22m33p44p55s67s2z", "7z", "1z")
    check_advice(a, BEIJING, "1z")
    o = a.discards[0]
    assert (str(o.tile), o.shanten, o.shanten_standard, o.shanten_pairs) == ("6s", 0, 2, 0)
    assert {str(w.tile) for w in o.waits} == {"7s", "2z", "7z"}
    # complete now with a wild: 混儿悠 declarations, scored with 无混儿
    a = advise("123m456m789m123p2z", "5s", "1z")
    check_advice(a, BEIJING, "1z")
    assert a.now is not None and a.now.win and a.now.value == 8
    hy = [o for o in a.options if o.action == "hunyou"]
    assert [str(o.tile) for o in hy] == ["5s"] and hy[0].hunyou and a.best is hy[0]
    assert all("WUHUN" in w.codes and not w.discard.win for w in hy[0].waits)
    assert next(o for o in a.discards if str(o.tile) == "5s").hunyou  # the plain discard is 混儿悠-ready too
    # no 混儿悠 under beijing_a-style rules without it
    a = advise("123m456m789m123p2z", "5s", "1z", rules=BEIJING.replace(hunyou=False))  # type: ignore[arg-type]
    assert not any(o.action == "hunyou" for o in a.options)
    # kongs: concealed (four held) and added (onto one's pon); the replacement draw scores 杠上开花
    a = advise("1111m456m789m", "2z", "1z", melds="[777z]")
    assert {o.label() for o in a.kongs} == {"concealed kong 1m"}
    a = advise("123m456m789m7z", "5s", "1z", melds="[777z]")
    kong = next(o for o in a.options if o.action == "added_kong")
    check_advice(a, BEIJING, "1z")
    assert kong.replacement_draw and kong.ready and all("GANGKAI" in w.codes for w in kong.waits)
    # four wilds: 混杠
    a = advise("2222z123m456p789s", "1s", "1z")
    assert a.hungang and a.to_dict()["hungang"] is True
    assert any(o.wild for o in a.discards) and all(not o.wild for o in a.kongs)
    # the dealer doubles every value
    a2 = advise("123m456m789m123p5s", "6s", "1z", dealer=True)
    assert a2.best.ev == 2 * advise("123m456m789m123p5s", "6s", "1z").best.ev
    # seen tiles lower the live counts, and the ranking follows
    a = advise("123m456m789m123p5s", "6s", "1z", seen="6s6s6s")
    check_advice(a, BEIJING, "1z")
    assert a.best.label() == "discard 6s"
    with pytest.raises(InvalidBeijingHand, match="seen: 5 copies of 6s"):
        advise("123m456m789m123p5s", "6s", "1z", seen="6s6s6s6s")
    with pytest.raises(InvalidBeijingHand):
        advise("123m456m789m123p", "6s", "1z")
    # beijing_a: no wild; the indicator is ignored by the library (the CLI refuses it)
    a = advise("123m456m789m5s", "6s", None, "[123p]", rules=BEIJING_A)
    assert a.best.shanten == 0 and a.best.shanten_pairs is None and not any(o.wild for o in a.options)
    # the face-up 混坯 counts as a visible copy until it is drawn
    assert advise("123m456m789m123p5s", "6s", "5s").best.winning_live + 1 == advise(
        "123m456m789m123p5s", "6s", "5s", indicator_visible=False).best.winning_live


def test_advise_random_turns() -> None:
    rng = random.Random(11)
    for _ in range(25):
        kinds = rng.sample(range(34), 12)
        tiles = [rng.choice(kinds) for _ in range(14)]
        if max(tiles.count(t) for t in tiles) > 3:
            continue
        ind = rng.choice([TILES[k] for k in range(34) if k not in tiles])
        rules = rng.choice([BEIJING, BEIJING_A])
        h = prepare_beijing(tiles[:13], tiles[13], indicator=ind, rules=rules,
                            context=WinContext(dealer=rng.random() < 0.5))
        a = advise_input(h, [TILES[rng.randrange(34)] for _ in range(3)] if rng.random() < 0.3 else [])
        check_advice(a, rules, str(ind) if rules.wilds else None)
        d = a.to_dict()
        json.dumps(d, ensure_ascii=False)
        assert len(d["options"]) == len(a.options)  # type: ignore[arg-type]
        assert {o.tile for o in a.discards} == set(TILES[t] for t in tiles)


def test_advise_cli() -> None:
    res = run("advise", "123m456m789m123p5s", "--draw", "6s", "--indicator", "1z", "--rules", "beijing")
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "discard 5s" in out and "6s×3 (16)" in out and "0/6" in out and "std/7p" in out
    d = json_of(run("advise", "123m456m789m123p5s", "-d", "6s", "-i", "1z", "--rules", "beijing", "--json",
                    "--top", "2"))
    assert len(d["options"]) == 2
    o = d["options"][0]
    assert (o["tile"], o["shanten"], o["shanten_standard"], o["shanten_pairs"], o["ev"], o["hunyou"]) == (
        "5s", 0, 0, 6, 80, False)
    assert o["waits"][0]["discard"]["value"] == 8
    assert d == {**advise("123m456m789m123p5s", "6s", "1z").to_dict(), "options": d["options"]}
    out = run("advise", "123m456m789m123p2z", "-d", "5s", "-i", "1z", "--rules", "beijing").stdout
    assert "混儿悠 discard 5s" in out and "any tile" in out and "Now" in out and "value 8 (WIN)" in out
    d = json_of(run("advise", "123m456m789m123p2z", "-d", "5s", "-i", "1z", "--rules", "beijing", "--json"))
    assert d["win_now"]["value"] == 8 and d["options"][0]["action"] == "hunyou"
    out = run("advise", "2222z123m456p789s", "-d", "1s", "-i", "1z", "--rules", "beijing").stdout
    assert "混杠" in out and "40 flat" in out and "(wild)" in out
    out = run("advise", "11m22m33p44p55s67s2z", "-d", "7z", "-i", "1z", "--rules", "beijing", "--dealer").stdout
    assert "2/0" in out and "dealer (庄家)" in out and "7s×3 (16)" in out
    d = json_of(run("advise", "123m456m789m7z", "-d", "5s", "-i", "1z", "-m", "[777z]", "--rules", "beijing",
                    "--json"))
    assert any(o["action"] == "added_kong" and o["replacement_draw"] for o in d["options"])
    d = json_of(run("advise", "123m456m789m5s", "-d", "6s", "-m", "[123p]", "--rules", "beijing_a", "--json"))
    assert d["options"][0]["shanten_pairs"] is None


@pytest.mark.parametrize("args,needle", [
    (["123m456m789m123p5s", "-d", "6s", "--rules", "beijing"], "--indicator: rules beijing have a wild"),
    (["123m456m789m5s", "-d", "6s", "-m", "[123p]", "-i", "1z", "--rules", "beijing_a"], "have no wild"),
    (["123m456m789m123p5s", "-d", "6s", "-i", "1z", "--rules", "beijing", "--seen", "6s6s6s6s"],
     "seen: 5 copies of 6s"),
    (["123m456m789m123p5s", "-d", "6s", "-i", "1z", "--rules", "beijing", "--seen", "6x"], "--seen: invalid"),
    (["123m456m789m123p", "-d", "6s", "-i", "1z", "--rules", "beijing"], "12 concealed tiles"),
    (["1234679m999p4p22z", "-d", "8m", "-i", "4p", "--dealer"], "--dealer: a Beijing option"),
])
def test_advise_errors(args: list[str], needle: str) -> None:
    one_error_line(run("advise", *args), needle)


def test_ready_waits_live_and_seen() -> None:
    h = prepare_beijing(LONG13, None, indicator="1z")
    ws = ready_waits(h, [TILES[4]] * 4)
    assert [(str(w.tile), w.live) for w in ws] == [("5m", 0), ("2z", 4)]  # seen elsewhere: kept with live 0
    with pytest.raises(ValueError):
        ready_waits(prepare_beijing(LONG13, "5m", indicator="1z"))


# ------------------------------------------------------------------------------------------
# tjmj rules
# ------------------------------------------------------------------------------------------


def test_rules_beijing() -> None:
    res = run("rules", "--rules", "beijing")
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "BEIJING.md section" in out
    for name, (_, section, _) in BeijingRules.describe().items():
        assert name in out and section in out
    assert 'scoring = "multiply"' in out and "wilds = true" in out
    d = json_of(run("rules", "--rules", "beijing_a", "--json"))
    assert d["preset"] == "beijing_a" and d["family"] == "beijing"
    assert set(d["options"]) == set(BeijingRules.describe())
    assert d["options"]["wilds"]["value"] is False and d["options"]["scoring"]["allowed"] == ["multiply", "add"]
    assert d["options"]["cap"]["allowed"] == {"min": 0, "max": 1_000_000}
    out = run("rules", "--rules", "beijing", "--set", "cap=64").stdout
    assert "beijing (cap=64)" in out and "cap = 64" in out
    one_error_line(run("rules", "--rules", "beijing", "--set", "min_fan=1"), "unknown rule option 'min_fan'")


def test_rules_without_preset_lists_the_families() -> None:
    out = run("rules").stdout
    assert 'tianhu = "flat"' in out and "RULES.md section" in out
    assert "Rule families" in out and "presets beijing, beijing_a" in out and "presets classic, yiyou" in out
    assert "Rule families" not in run("rules", "--rules", "classic").stdout
    assert json_of(run("rules", "--json"))["family"] == "tianjin"
