"""MCR hands through the calculator (docs/cli.md "MCR hands"): ``tjmj score --rules mcr`` with every
situation option, ``--json``, the batch's MCR lines mixed with the other rulesets' lines, ``tjmj
waits --rules mcr`` and its library (:mod:`tjmj.families.mcr.waits`, whose shanten is checked
against a brute-force search), ``tjmj rules --rules mcr``, and every error path (one line, exit
status 2, no traceback; one ``{"error": …}`` line in the batch)."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner, Result

from tjmj.cli import main
from tjmj.families.mcr.calculator import MCR_BATCH_KEYS, MCR_FLAGS, MCR_OPTIONS
from tjmj.families.mcr.reference import Hand, pymahjonggb_args, random_hand
from tjmj.families.mcr.score import InvalidMcrHand, McrMeld, McrSituation, is_complete_mcr, score_mcr
from tjmj.families.mcr.waits import SHAPES, counts_of_hand, mcr_waits, shanten_mcr, shanten_shapes
from tjmj.jsonlines import batch_answer, run_batch
from tjmj.tiles import TILE_TEXT, TILES, Tile, format_tiles, parse_tiles

from .clitools import one_error_line

WIDE = {"COLUMNS": "200"}


def run(*args: str, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, env=WIDE)


def json_of(res: Result) -> dict:
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def answer(line: dict, arrangement: bool = True) -> dict:
    return batch_answer(json.dumps(line, ensure_ascii=False), arrangement=arrangement)


def fan_list(d: dict) -> list[tuple[str, int, int]]:
    return [(f["name"], f["fan"], f["count"]) for f in d["fans"]]


# ------------------------------------------------------------------------------------------
# M5's four worked cases (concealed, no flowers, seat and prevalent East, self-drawn)
# ------------------------------------------------------------------------------------------

M5 = [
    ("123m456m789m123p5s", "5s", [("清龙", 16), ("不求人", 4), ("平和", 2), ("喜相逢", 1), ("单钓将", 1)], 24, "standard"),
    ("123m46m789m123p55s", "5m", [("清龙", 16), ("不求人", 4), ("平和", 2), ("喜相逢", 1), ("嵌张", 1)], 24, "standard"),
    ("19m19p19s1234567z", "1m", [("十三幺", 88), ("自摸", 1)], 89, "thirteen_orphans"),
    ("1122m3344p5566s7z", "7z", [("七对", 24), ("自摸", 1)], 25, "seven_pairs"),
]


@pytest.mark.parametrize("case", M5, ids=[c[0] for c in M5])
def test_m5_cases_json_batch_and_text(case: tuple) -> None:
    hand, win, fans, total, shape = case
    d = json_of(run("score", hand, "--draw", win, "--rules", "mcr", "--self-drawn", "--json"))
    assert [(n, f) for n, f, _ in fan_list(d)] == fans
    assert (d["complete"], d["win"], d["fan"], d["flowers"], d["total"]) == (True, True, total, 0, total)
    assert d["arrangement"]["shape"] == shape
    # the batch answers the same, key for key
    b = answer({"hand": hand, "draw": win, "ruleset": "mcr", "self_drawn": True})
    assert b == d
    # the human output: each fan with its Chinese and English names, value and count; the total; WIN
    res = run("score", hand, "--draw", win, "--rules", "mcr", "--self-drawn")
    assert res.exit_code == 0, res.output
    out = res.stdout
    for f in d["fans"]:
        assert any(f["name"] in ln and f["en"] in ln and f" {f['fan']} " in ln for ln in out.splitlines()), f
    assert f"Fan        {total}  (without flowers)" in out
    assert f"WIN  ({total} fan ≥ min_fan 8, M2)" in out
    assert "Situation  seat 东 East, prevalent 东 East, self-drawn (自摸)" in out


def test_default_is_a_discard_win_and_winds_and_flowers() -> None:
    # on a discard: 门前清 instead of 不求人, no 自摸
    d = json_of(run("score", "123m456m789m123p5s", "-d", "5s", "--rules", "mcr", "--json"))
    assert fan_list(d) == [("清龙", 16, 1), ("门前清", 2, 1), ("平和", 2, 1), ("喜相逢", 1, 1), ("单钓将", 1, 1)]
    # flowers are listed (花牌) and in total, never in fan; winds by letter, number or Chinese
    for seat in ("S", "s", "1", "南"):
        d = json_of(run("score", "123m456m789m11z55s", "-d", "1z", "--rules", "mcr", "--flowers", "3",
                        "--seat-wind", seat, "--prevalent-wind", "E", "--json"))
        assert ("圈风刻", 2, 1) in fan_list(d) and not any(n == "门风刻" for n, _, _ in fan_list(d))
        assert fan_list(d)[-1] == ("花牌", 1, 3)
        assert d["total"] == d["fan"] + 3 and d["flowers"] == 3


def test_not_a_win_below_8_fan_and_not_complete() -> None:
    d = json_of(run("score", "123m456p234s678s5z", "-d", "5z", "--rules", "mcr", "--json"))
    assert d["complete"] and not d["win"] and d["fan"] < 8
    assert d["reason"] == f"{d['fan']} fan < min_fan 8: a win needs 8 fan, flowers not counted (M2)"
    res = run("score", "123m456p234s678s5z", "-d", "5z", "--rules", "mcr")
    assert res.exit_code == 0 and "not a win: " in res.stdout
    # --set min_fan lowers the bar
    assert json_of(run("score", "123m456p234s678s5z", "-d", "5z", "--rules", "mcr", "--set", "min_fan=1",
                       "--json"))["win"]
    d = json_of(run("score", "123m456m789m123p5s", "-d", "6s", "--rules", "mcr", "--json"))
    assert (d["complete"], d["win"], d["fan"], d["fans"], d["arrangement"]) == (False, False, 0, [], None)
    assert d["reason"].startswith("not complete")


def test_the_situation_flags() -> None:
    base = ["score", "123m456m789m5s", "-d", "5s", "--rules", "mcr", "--json", "--meld", "(1111p)"]
    assert ("杠上开花", 8, 1) in fan_list(json_of(run(*base, "--self-drawn", "--about-kong")))
    assert ("妙手回春", 8, 1) in fan_list(json_of(run(*base, "--self-drawn", "--wall-last")))
    assert ("海底捞月", 8, 1) in fan_list(json_of(run(*base, "--wall-last")))
    got = fan_list(json_of(run("score", "123m456m789m123p4s", "-d", "5s", "--rules", "mcr", "--json")))
    assert got == []  # not complete; 抢杠和 needs a tile nobody holds:
    d = json_of(run("score", "123m456m789m12p55s", "-d", "3p", "--rules", "mcr", "--about-kong", "--json"))
    assert ("抢杠和", 8, 1) in fan_list(d)
    d = json_of(run("score", "123m456m789m12p55s", "-d", "3p", "--rules", "mcr", "--fourth-tile", "--json"))
    assert ("和绝张", 4, 1) in fan_list(d)


MELDS = [McrMeld("chi", Tile.parse("1p"), None, 1), McrMeld("pon", Tile.parse("1z"), Tile.parse("1z"), 1),
         McrMeld("ankong", Tile.parse("7z"), None, 0)]


def test_melds_chi_pon_kongs_agree_with_the_library_and_the_reference() -> None:
    melds = ["[123p]", "[111z]", "(7777z)"]
    d = json_of(run("score", "456m5s", "-d", "5s", "--rules", "mcr", "--json", *(x for m in melds for x in ("-m", m))))
    r = score_mcr(parse_tiles("456m5s"), Tile.parse("5s"), MELDS)
    assert d["fan"] == r.fan and fan_list(d) == [(e.chinese, e.fan, e.count) for e in r.fans]
    groups = d["arrangement"]["groups"]
    assert groups[:3] == [{"kind": "chow", "tiles": ["1p", "2p", "3p"], "concealed": False},
                          {"kind": "pung", "tiles": ["1z"] * 3, "concealed": False},
                          {"kind": "kong", "tiles": ["7z"] * 4, "concealed": True}]
    # one --meld may hold several; the batch's melds, with the claimed tile and the seat, agree
    d2 = json_of(run("score", "456m5s", "-d", "5s", "--rules", "mcr", "--json", "-m", "".join(melds)))
    b = answer({"hand": "456m5s", "draw": "5s", "ruleset": "mcr", "melds": [
        {"type": "chi", "tile": "1p", "claimed": "3p", "from": 1}, {"type": "pon", "tile": "1z", "from": 2},
        {"type": "ankong", "tile": "7z"}]})
    assert d == d2 == b
    res = run("score", "456m5s", "-d", "5s", "--rules", "mcr", "-m", "".join(melds))
    assert "Melds      [123p] 一饼 二饼 三饼 (吃 chi), [111z] 东 (碰 pon), (7777z) 白 (暗杠 ankong)" in res.stdout
    assert "1z 1z 1z    │ pung │ exposed" in res.stdout
    MahjongGB = pytest.importorskip("MahjongGB")
    ref = MahjongGB.MahjongFanCalculator(**pymahjonggb_args(parse_tiles("456m5s"), Tile.parse("5s"), MELDS,
                                                            McrSituation()))
    assert sum(v * n for v, n, name, _ in ref if name != "花牌") == d["fan"]


def test_added_and_discard_kongs() -> None:
    a = json_of(run("score", "123m456m789m5s", "-d", "5s", "--rules", "mcr", "-m", "[1111p+]", "--json"))
    b = json_of(run("score", "123m456m789m5s", "-d", "5s", "--rules", "mcr", "-m", "[1111p]", "--json"))
    assert ("明杠", 1, 1) in fan_list(a) and a == b  # an added kong counts as a melded kong (PyMahjongGB)


def test_svg_draws_the_hand(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "h.svg"
    res = run("score", "123m456m789m5s", "-d", "5s", "--rules", "mcr", "-m", "[123p]", "--svg", str(out))
    assert res.exit_code == 0 and out.read_text(encoding="utf-8").startswith("<svg")


# ------------------------------------------------------------------------------------------
# The batch: MCR lines among the others; the JSON shape
# ------------------------------------------------------------------------------------------


def test_json_shape_and_key_order() -> None:
    d = answer({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "flowers": 1})
    assert list(d) == ["complete", "win", "fan", "flowers", "total", "fans", "arrangement"]
    assert list(d["fans"][0]) == ["code", "name", "en", "fan", "count"]
    assert d["fans"][0] == {"code": "pure_straight", "name": "清龙", "en": "Pure Straight", "fan": 16, "count": 1}
    assert list(d["arrangement"]) == ["shape", "groups"]
    assert d["arrangement"]["groups"][-1] == {"kind": "pair", "tiles": ["5s", "5s"], "concealed": True}
    short = answer({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr"}, arrangement=False)
    assert "arrangement" not in short
    lose = answer({"hand": "123m456p234s678s5z", "draw": "5z", "ruleset": "mcr"})
    assert list(lose) == ["complete", "win", "fan", "flowers", "total", "fans", "reason", "arrangement"]


def test_mixed_batch_stream() -> None:
    import io

    lines = [
        {"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "self_drawn": True},
        {"hand": "1p1p1p2p3p456p789p66z", "draw": "5m", "indicator": "1p"},
        {"hand": "123m456m789m123p5s", "draw": "5s", "indicator": "1z", "ruleset": "beijing"},
        {"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "dealer": True},
    ]
    out = io.BytesIO()
    n, bad = run_batch(io.BytesIO("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines).encode()), out)
    got = [json.loads(x) for x in out.getvalue().decode().splitlines()]
    assert (n, bad) == (4, 1)
    assert got[0]["fan"] == 24 and got[1]["fan"] == 28 and got[2]["value"] == 16
    assert "dealer" in got[3]["error"]
    res = run("score", "--batch", "-", "--no-arrangement",
              input="".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))
    assert res.exit_code == 0 and len(res.stdout.splitlines()) == 4


def plausible(h: Hand) -> Hand:
    """The random hand without the flags that cannot happen (the batch rejects them)."""
    c, w, m, s = h
    in_melds = any(w in ((x.tile, x.tile + 1, x.tile + 2) if x.type == "chi" else (x.tile,)) for x in m)
    about = s.about_kong and not (s.self_drawn and not any(x.type != "chi" and x.type != "pon" for x in m)) \
        and not (not s.self_drawn and (w in c or in_melds))
    fourth = s.fourth_tile and w not in c
    return c, w, m, McrSituation(s.self_drawn, fourth, about, s.wall_last, s.seat_wind, s.prevalent_wind, s.flowers)


def batch_line(h: Hand) -> dict:
    c, w, m, s = h
    d: dict = {"hand": format_tiles(sorted(c)), "draw": TILE_TEXT[w], "ruleset": "mcr",
               "melds": [{"type": x.type, "tile": TILE_TEXT[x.tile]} for x in m]}
    for k in ("flowers", *MCR_FLAGS, "seat_wind", "prevalent_wind"):
        d[k] = getattr(s, k)
    return d


def test_batch_agrees_with_the_library_on_random_hands() -> None:
    rng = random.Random(12)
    for _ in range(300):
        h = plausible(random_hand(rng))
        d = answer(batch_line(h))
        assert "error" not in d, (batch_line(h), d)
        r = score_mcr(*h)
        assert (d["complete"], d["win"], d["fan"], d["total"]) == (r.complete, r.win, r.fan, r.total)
        assert fan_list(d) == [(e.chinese, e.fan, e.count) for e in r.fans]
        assert d["arrangement"] == {"shape": r.shape, "groups": [g.to_dict() for g in r.groups]}


def test_batch_meets_the_reference_on_random_hands() -> None:
    MahjongGB = pytest.importorskip("MahjongGB")
    rng = random.Random(5)
    for _ in range(200):
        h = plausible(random_hand(rng))
        d = answer(batch_line(h), arrangement=False)
        ref = MahjongGB.MahjongFanCalculator(**pymahjonggb_args(*h))
        assert d["fan"] == sum(v * n for v, n, name, _ in ref if name != "花牌"), batch_line(h)


BAD_LINES = [
    ({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "indicator": "1z"},
     "'indicator': MCR has no wilds (M1)"),
    ({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "kong_draw": True},
     "belong to other rulesets' lines"),
    ({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "colour": 1}, "unknown key(s) 'colour'"),
    ({"hand": "123m456m789m123p5s", "ruleset": "mcr"}, "missing key(s) 'draw'"),
    ({"hand": 5, "draw": "5s", "ruleset": "mcr"}, "'hand' must be a string"),
    ({"hand": "123m456m789m123p5x", "draw": "5s", "ruleset": "mcr"}, "hand: invalid character 'x'"),
    ({"hand": "123m456m789m123p5s", "draw": "55s", "ruleset": "mcr"}, "draw must be exactly one tile"),
    ({"hand": "123m456m789m123p", "draw": "5s", "ruleset": "mcr"}, "holds 13 concealed tiles"),
    ({"hand": "1111m456m789m123p", "draw": "1m", "ruleset": "mcr"}, "5 copies of 1m"),
    ({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "flowers": 9}, "'flowers' must be a count 0..8"),
    ({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "flowers": True}, "'flowers' must be a count"),
    ({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "self_drawn": 1},
     "'self_drawn' must be true or false"),
    ({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "seat_wind": 4}, "'seat_wind' must be 0, 1, 2 or 3"),
    ({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "prevalent_wind": "E"},
     "'prevalent_wind' must be 0, 1, 2 or 3"),
    ({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "self_drawn": True, "about_kong": True},
     "it needs a kong among the melds"),
    ({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "about_kong": True}, "抢杠和"),
    ({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "fourth_tile": True}, "和绝张"),
    ({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "flowers": 1, "rules": {"flowers": False}},
     "play without flowers"),
    ({"hand": "123m456m789m123p5s", "draw": "5s", "ruleset": "mcr", "rules": {"min_fun": 1}},
     "unknown rule option 'min_fun'"),
    ({"hand": "123m456m789m5s", "draw": "5s", "ruleset": "mcr", "melds": {"type": "pon"}}, "'melds' must be an array"),
    ({"hand": "123m456m789m5s", "draw": "5s", "ruleset": "mcr", "melds": ["[111z]"]}, "melds[0]: a meld must be an object"),
    ({"hand": "123m456m789m5s", "draw": "5s", "ruleset": "mcr", "melds": [{"type": "pung", "tile": "1z"}]},
     "melds[0]: meld type 'pung' is not one of"),
    ({"hand": "123m456m789m5s", "draw": "5s", "ruleset": "mcr", "melds": [{"type": "chi", "tile": "8m"}]},
     "melds[0]: a chi is a sequence named by its lowest tile"),
    ({"hand": "123m456m789m5s", "draw": "5s", "ruleset": "mcr", "melds": [{"type": "pon", "tile": "1z", "seat": 1}]},
     "melds[0]: unknown key(s) 'seat'"),
    ({"hand": "123m456m789m5s", "draw": "5s", "ruleset": "mcr", "melds": [{"type": "chi", "tile": "1p", "claimed": "4p"}]},
     "the claimed tile 4p is not a tile of the chi [123p]"),
    ({"hand": "123m456m789m5s", "draw": "5s", "ruleset": "mcr", "melds": [{"type": "pon", "tile": "1z", "claimed": 1}]},
     "'claimed' must be a string"),
    ({"hand": "123m456m789m5s", "draw": "5s", "ruleset": "mcr", "melds": [{"type": "pon", "tile": "1z", "from": 4}]},
     "'from' must be 1 (the previous seat), 2 (opposite) or 3 (the next), got 4"),
    ({"hand": "123m456m789m5s", "draw": "5s", "ruleset": "mcr", "melds": [{"type": "pon", "tile": "1z", "from": True}]},
     "'from' must be 1"),
    ({"hand": "123m456m789m5s", "draw": "5s", "ruleset": "mcr", "melds": [{"type": "chi", "tile": "1p", "from": 2}]},
     "a chi is claimed from the previous seat only"),
    ({"hand": "123m456m789m5s", "draw": "5s", "ruleset": "mcr", "melds": [{"type": "ankong", "tile": "1z", "from": 1}]},
     "a concealed kong (ankong) claims nothing"),
    ({"hand": "123m456m789m123p5s", "draw": "5s", "self_drawn": True}, "is a key of MCR lines"),
]


@pytest.mark.parametrize("line,needle", BAD_LINES, ids=[n for _, n in BAD_LINES])
def test_bad_lines_get_one_error(line: dict, needle: str) -> None:
    d = answer(line)
    assert list(d) == ["error"] and needle in d["error"], d
    # the same line after a good one (warm caches) gets the same answer
    answer({"hand": "123m456m789m5s", "draw": "5s", "ruleset": "mcr",
            "melds": [{"type": "pon", "tile": "1z"}, {"type": "chi", "tile": "1p"}][:1]})
    assert answer(line) == d


def test_cached_melds_still_check_every_key() -> None:
    good = {"hand": "123m456m789m5s", "draw": "5s", "ruleset": "mcr", "melds": [{"type": "pon", "tile": "1z"}]}
    assert "error" not in answer(good)
    for extra in ({"claimed": None}, {"from": None}, {"from": 1.0}, {"x": 1}):
        bad = dict(good, melds=[{"type": "pon", "tile": "1z", **extra}])
        assert "error" in answer(bad), extra


def test_keys_are_documented() -> None:
    assert MCR_BATCH_KEYS == ("hand", "draw", "melds", "flowers", "self_drawn", "fourth_tile", "about_kong",
                              "wall_last", "seat_wind", "prevalent_wind", "ruleset", "rules")
    assert set(MCR_OPTIONS) == {*MCR_FLAGS, "flowers", "seat_wind", "prevalent_wind"}


# ------------------------------------------------------------------------------------------
# Command-line errors: one line, exit status 2
# ------------------------------------------------------------------------------------------

BAD_ARGS = [
    (["-i", "1z"], "--indicator: not an option of MCR hands: MCR has no wilds (M1)"),
    (["--kong-draw"], "--kong-draw: not an option of MCR hands: 杠上开花 is --about-kong with --self-drawn"),
    (["--tianhu"], "--tianhu: not an option of MCR hands"),
    (["--discard", "--dealer"], "--discard, --dealer: not options of MCR hands"),
    (["--rob-kong"], "抢杠和 is --about-kong without --self-drawn"),
    (["--last-tile"], "--wall-last"),
    (["--flowers", "9"], "--flowers: expected a count of flowers 0..8"),
    (["--flowers", "two"], "--flowers: expected a count"),
    (["--seat-wind", "Q"], "--seat-wind: expected E, S, W or N"),
    (["--prevalent-wind", "5"], "--prevalent-wind: expected E, S, W or N"),
    (["--self-drawn", "--about-kong"], "--about-kong with --self-drawn is 杠上开花"),
    (["--about-kong"], "--about-kong on a discard is 抢杠和"),
    (["--fourth-tile"], "--fourth-tile (和绝张)"),
    (["--set", "flowers=false", "--flowers", "1"], "--flowers: rules mcr+custom play without flowers"),
    (["--set", "min_fun=1"], "unknown rule option 'min_fun' for mcr rules"),
    (["--set", "min_fan=99"], "min_fan"),
    (["-m", "[135p]"], "--meld: meld '[135p]'"),
]


@pytest.mark.parametrize("extra,needle", BAD_ARGS, ids=[n for _, n in BAD_ARGS])
def test_score_errors_are_one_line(extra: list[str], needle: str) -> None:
    one_error_line(run("score", "123m456m789m123p5s", "-d", "5s", "--rules", "mcr", *extra), needle)


def test_tile_errors_are_one_line() -> None:
    one_error_line(run("score", "123m456m789m123p5x", "-d", "5s", "--rules", "mcr"), "HAND: invalid character 'x'")
    one_error_line(run("score", "123m456m789m123p5s", "-d", "55s", "--rules", "mcr"), "--draw must be exactly one")
    one_error_line(run("score", "1111m456m789m123p", "-d", "1m", "--rules", "mcr"), "5 copies of 1m")
    one_error_line(run("score", "123m456m789m123p", "-d", "5s", "--rules", "mcr"), "holds 13 concealed tiles")
    one_error_line(run("waits", "123m456m789m123p", "--rules", "mcr"), "holds 13 concealed tiles")
    one_error_line(run("waits", "1111m456m789m123p5s", "--rules", "mcr", "-m", "[111m]"), "holds 10 concealed")
    one_error_line(run("waits", "11m456m789m55s", "--rules", "mcr", "-m", "[111m]"), "5 copies of 1m")


def test_mcr_options_are_refused_elsewhere() -> None:
    one_error_line(run("score", "123m678p999p3s4p22z", "-d", "2s", "-i", "4p", "--self-drawn", "--flowers", "2"),
                   "--self-drawn, --flowers: MCR options (--rules mcr), not for Tianjin hands")
    one_error_line(run("score", "123m46m789m123p55s", "-d", "5m", "-i", "1z", "--rules", "beijing", "--wall-last"),
                   "--wall-last: an MCR option (--rules mcr), not for Beijing hands")
    one_error_line(run("waits", "123m678p999p234s4p", "-i", "4p", "--seat-wind", "S"), "--seat-wind: an MCR option")
    one_error_line(run("waits", "123m456m789m123p5s", "--rules", "mcr", "--dealer"), "--dealer: not an option of MCR")
    res = run("score", "--batch", "-", "--about-kong", input="")
    assert res.exit_code == 2 and "cannot be combined with --about-kong" in res.stderr
    # a command without MCR support says so in one line
    one_error_line(run("advise", "123m456m789m123p5s", "-d", "5s", "-i", "1z", "--rules", "mcr"),
                   "--rules mcr: tjmj advise does not take Chinese Official mahjong (MCR) rules")


# ------------------------------------------------------------------------------------------
# tjmj waits --rules mcr and the library's shanten
# ------------------------------------------------------------------------------------------


def test_waits_of_a_known_hand() -> None:
    d = json_of(run("waits", "123m46m789m123p55s", "--rules", "mcr", "--json"))
    assert (d["ready"], d["shanten"], d["min_fan"]) == (True, 0, 8)
    assert d["shapes"] == {"standard": 0, "seven_pairs": 5, "thirteen_orphans": 10, "honors_and_knitted": 8,
                           "knitted_straight": 5}
    assert [(w["tile"], w["live"], w["fan"], w["win"], w["self_drawn"]["fan"]) for w in d["waits"]] == [
        ("5m", 4, 22, True, 24)]
    assert [f["name"] for f in d["waits"][0]["self_drawn"]["fans"]] == ["清龙", "不求人", "平和", "喜相逢", "嵌张"]
    res = run("waits", "123m46m789m123p55s", "--rules", "mcr")
    assert res.exit_code == 0
    assert "Shanten    0  (0 = ready, 听牌)" in res.stdout
    assert "Ready      yes: 1 completing kind(s), 1 reaching 8 fan (4 live tile(s))" in res.stdout
    assert "5m 五万 │    4 │ 22 WIN       │ 24 WIN     │ 清龙、门前清、平和、喜相逢、嵌张" in res.stdout


def test_waits_of_special_shapes_and_melds() -> None:
    ws = mcr_waits(parse_tiles("19m19p19s1234567z"))
    assert [str(w.tile) for w in ws.waits] == ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z",
                                              "6z", "7z"]
    assert all(w.discard.fan == 88 and w.self_drawn.fan == 89 for w in ws.waits)
    ws = mcr_waits(parse_tiles("147m258p369s1234z"))  # 全不靠 with 组合龙
    assert [str(w.tile) for w in ws.waits] == ["5z", "6z", "7z"] and ws.shapes["honors_and_knitted"] == 0
    ws = mcr_waits(parse_tiles("1112345678999m"))  # 九莲宝灯: every 万
    assert [str(w.tile) for w in ws.waits] == [f"{i}m" for i in range(1, 10)]
    assert all(w.discard.fan >= 88 for w in ws.waits)
    # low fan: complete but not a win on a discard, nor self-drawn
    ws = mcr_waits(parse_tiles("123m456p234s678s5z"))
    assert ws.ready and not ws.winning and ws.waits[0].discard.fan < 8
    res = run("waits", "123m456p234s678s5z", "--rules", "mcr")
    assert "0 reaching 8 fan" in res.stdout and " no " in res.stdout.replace("│", " ")
    # with a meld: the concealed shapes are gone; the seat wind counts
    d = json_of(run("waits", "456m789m22z55s", "--rules", "mcr", "-m", "[123m]", "--seat-wind", "S", "--json"))
    assert d["shapes"]["seven_pairs"] is None and d["shapes"]["knitted_straight"] is not None
    w2z = next(w for w in d["waits"] if w["tile"] == "2z")
    assert any(f["name"] == "门风刻" for f in w2z["fans"])
    # not ready
    d = json_of(run("waits", "1m3m5m7m9m2p4p6p8p1s3s5s7s", "--rules", "mcr", "--json"))
    assert not d["ready"] and d["shanten"] > 0 and d["waits"] == []
    res = run("waits", "1m3m5m7m9m2p4p6p8p1s3s5s7s", "--rules", "mcr")
    assert f"Ready      no: {d['shanten']} useful draw(s) short" in res.stdout


def test_waits_skip_a_fifth_copy() -> None:
    # 1111m held: a fifth 1m cannot be drawn, even where the shape would take it
    ws = mcr_waits(parse_tiles("1111m234m567m999p"))
    assert all(str(w.tile) != "1m" for w in ws.waits)


def _random_counts(rng: random.Random, n: int) -> list[int]:
    pal = rng.sample(range(34), rng.randrange(8, 34))
    wall = [k for k in pal for _ in range(4)]
    c = [0] * 34
    for t in rng.sample(wall, n):
        c[t] += 1
    return c


def test_shanten_zero_is_ready() -> None:
    rng = random.Random(3)
    for _ in range(300):
        n_melds = rng.choice((0, 0, 0, 1, 2))
        c = _random_counts(rng, 13 - 3 * n_melds)
        ready = False
        for k in range(34):
            c[k] += 1
            ready = ready or is_complete_mcr(c, n_melds)
            c[k] -= 1
        assert (shanten_mcr(c, n_melds) == 0) == ready, c


def test_shanten_drops_by_exactly_one_per_exchange() -> None:
    """Shanten s > 0: some draw-and-discard reaches s − 1, and none reaches less.  With the base
    case above (0 = ready) this makes the shanten the true distance, by induction."""
    rng = random.Random(4)
    for _ in range(30):
        n_melds = rng.choice((0, 0, 1))
        c = _random_counts(rng, 13 - 3 * n_melds)
        s = shanten_mcr(c, n_melds)
        if s == 0:
            continue
        best = 99
        for k in range(34):
            c[k] += 1
            for d in range(34):
                if c[d]:
                    c[d] -= 1
                    best = min(best, shanten_mcr(c, n_melds))
                    c[d] += 1
            c[k] -= 1
        assert best == s - 1, (c, s, best)


def test_shanten_of_each_shape() -> None:
    def sh(text: str, n_melds: int = 0) -> dict:
        c = [0] * 34
        for t in parse_tiles(text):
            c[t] += 1
        return shanten_shapes(c, n_melds)

    assert list(sh("123m456m789m123p5s")) == list(SHAPES)
    assert sh("19m19p19s1234567z")["thirteen_orphans"] == 0
    assert sh("19m19p19s123456z5m")["thirteen_orphans"] == 1
    assert sh("1122m3344p5566s7z")["seven_pairs"] == 0
    assert sh("1111m3344p5566s7z")["seven_pairs"] == 0  # four of a kind: two pairs (四归一)
    assert sh("147m258p369s1234z")["honors_and_knitted"] == 0
    assert sh("147m258p36s12345z")["honors_and_knitted"] == 0  # 8 knitted + 5 honours
    assert sh("147m258p369s11z23m")["knitted_straight"] == 0
    assert sh("147m258p369s5z", 1)["knitted_straight"] == 0
    assert sh("147m258p369s5z", 2)["knitted_straight"] is None


def test_library_errors() -> None:
    with pytest.raises(InvalidMcrHand, match="at most 4 melds"):
        counts_of_hand([], [McrMeld("pon", TILES[0])] * 5)
    with pytest.raises(InvalidMcrHand, match="unknown meld type 'peng'"):
        counts_of_hand(parse_tiles("123m456m789m5s"), [McrMeld("peng", TILES[0])])
    with pytest.raises(InvalidMcrHand, match="counts must have 34"):
        shanten_shapes([0] * 9)


# ------------------------------------------------------------------------------------------
# tjmj rules --rules mcr
# ------------------------------------------------------------------------------------------


def test_rules_lists_the_mcr_options() -> None:
    res = run("rules", "--rules", "mcr")
    assert res.exit_code == 0
    assert "Rule options — mcr  (option = value, MCR.md section, allowed)" in res.stdout
    assert "min_fan = 8" in res.stdout and "flowers = true" in res.stdout
    d = json_of(run("rules", "--rules", "mcr", "--json"))
    assert d["family"] == "mcr" and d["options"]["min_fan"]["value"] == 8 and d["options"]["min_fan"]["section"] == "M2"
