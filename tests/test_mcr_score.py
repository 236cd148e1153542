"""The MCR calculator (docs/rules/MCR.md M3, M5; docs/scoring-mcr.md): M5's worked cases, a hand for
every fan, the exclusion principles one by one, the decisions where the rule book leaves a choice,
bad input.  Every expected answer here is also PyMahjongGB's (tests/test_mcr_vs_pymahjonggb.py runs
these cases through it)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from tjmj.families.mcr import shapes
from tjmj.families.mcr.fans import BOOK_FANS, EXCLUDES, FAN_BY_CODE, FANS
from tjmj.families.mcr.score import (
    InvalidMcrHand,
    McrMeld,
    McrResult,
    McrSituation,
    is_complete_mcr,
    score_mcr,
    score_mcr_many,
)
from tjmj.tiles import Tile, parse_tiles

MeldSpec = tuple[tuple[str, str], ...]


def melds_of(spec: MeldSpec) -> list[McrMeld]:
    """("chi", "4s") etc. as melds: a claimed meld from the previous seat, an ankong offered by no one."""
    return [McrMeld(typ, Tile.parse(tile), None, 0 if typ == "ankong" else 1) for typ, tile in spec]


def score(concealed: str, win: str, melds: MeldSpec = (), min_fan: int = 0, **situation: object) -> McrResult:
    return score_mcr(parse_tiles(concealed), Tile.parse(win), melds_of(melds), McrSituation(**situation),
                     min_fan=min_fan)


def check(concealed: str, win: str, melds: MeldSpec, situation: dict, names: str, fan: int) -> McrResult:
    r = score(concealed, win, melds, **situation)
    assert r.complete
    assert (r.names, r.fan) == (names, fan), f"{concealed}+{win} {melds} {situation}"
    assert r.fan == sum(e.fan * e.count for e in r.fans if e.code != "flower_tiles")
    return r


# --- M5 ---------------------------------------------------------------------------------------------

M5 = [
    ("123m456m789m123p5s", "5s", "清龙、不求人、平和、喜相逢、单钓将", 24),
    ("123m46m789m123p55s", "5m", "清龙、不求人、平和、喜相逢、嵌张", 24),
    ("19m19p19s1234567z", "1m", "十三幺、自摸", 89),
    ("1122m3344p5566s7z", "7z", "七对、自摸", 25),
]


@pytest.mark.parametrize(("concealed", "win", "names", "fan"), M5)
def test_m5_worked_cases(concealed: str, win: str, names: str, fan: int) -> None:
    """M5: concealed, no flowers, seat and prevalent wind East, self-drawn: PyMahjongGB's answers."""
    r = check(concealed, win, (), {"self_drawn": True}, names, fan)
    assert r.win and r.flowers == 0 and r.total == fan
    assert [e.fan for e in r.fans] == sorted((e.fan for e in r.fans), reverse=True)  # highest first


# --- one hand for every fan ------------------------------------------------------------------------
# (fan code, concealed tiles, winning tile, fixed melds, situation, the fans, the total)

FAN_CASES = [
    ("big_four_winds", "44m11144z", "4z", (('pon', '3z'), ('pon', '2z')), {'seat_wind': 3, 'prevalent_wind': 1}, "大四喜、混一色", 94),
    ("big_three_dragons", "88m234p66777z", "6z", (('pon', '5z'),), {'seat_wind': 1, 'prevalent_wind': 1}, "大三元、缺一门", 89),
    ("all_green", "66888s66z", "6s", (('pon', '4s'), ('pon', '3s')), {'seat_wind': 2}, "绿一色、碰碰和", 94),
    ("nine_gates", "1112345678999s", "3s", (), {'seat_wind': 3, 'prevalent_wind': 3}, "九莲宝灯、连六", 89),
    ("four_kongs", "4z", "4z", (('kong', '6s'), ('ankong', '3s'), ('kong', '8p'), ('kong', '2m')), {'self_drawn': True, 'seat_wind': 3, 'prevalent_wind': 1}, "四杠、自摸", 89),
    ("seven_shifted_pairs", "1123344556677s", "2s", (), {'prevalent_wind': 1}, "连七对", 88),
    ("thirteen_orphans", "19m19p19s1233567z", "4z", (), {'seat_wind': 3, 'prevalent_wind': 2}, "十三幺", 88),
    ("all_terminals", "1199p111s", "9p", (('pon', '9m'), ('pon', '1m')), {'prevalent_wind': 2}, "清幺九", 64),
    ("little_four_winds", "345m1122233z", "1z", (('pon', '4z'),), {'seat_wind': 2, 'prevalent_wind': 2}, "小四喜、混一色", 70),
    ("little_three_dragons", "678p23s55566z", "1s", (('pon', '7z'),), {'seat_wind': 1, 'prevalent_wind': 3}, "小三元、缺一门", 65),
    ("all_honors", "2244666z", "2z", (('pon', '7z'), ('pon', '1z')), {'seat_wind': 2, 'prevalent_wind': 3}, "字一色、双箭刻", 70),
    ("four_concealed_pungs", "222m4666p444888s", "4p", (), {'seat_wind': 1, 'prevalent_wind': 2}, "四暗刻、全双刻", 88),
    ("pure_terminal_chows", "1223355789s", "1s", (('chi', '7s'),), {'seat_wind': 3, 'prevalent_wind': 3}, "一色双龙会", 64),
    ("quadruple_chow", "33444555p44z", "3p", (('chi', '3p'),), {'seat_wind': 3, 'prevalent_wind': 2}, "一色四同顺、混一色", 54),
    ("four_pure_shifted_pungs", "33355s66z", "5s", (('pon', '6s'), ('pon', '4s')), {'seat_wind': 1, 'prevalent_wind': 1}, "一色四节高、混一色", 54),
    ("four_pure_shifted_chows", "12345789p77z", "3p", (('chi', '5p'),), {'seat_wind': 3, 'prevalent_wind': 1}, "一色四步高、混一色", 38),
    ("three_kongs", "1199s", "9s", (('added_kong', '1m'), ('kong', '9m'), ('ankong', '1p')), {'seat_wind': 1, 'prevalent_wind': 2}, "清幺九、三杠", 96),
    ("all_terminals_and_honors", "11m199p11s113344z", "1p", (), {'seat_wind': 2, 'prevalent_wind': 1}, "混幺九、七对", 56),
    ("seven_pairs", "336699m336p88s66z", "6p", (), {'seat_wind': 1, 'prevalent_wind': 3}, "七对", 24),
    ("greater_honors_and_knitted_tiles", "14m258p36s234567z", "1z", (), {'seat_wind': 3}, "七星不靠", 24),
    ("all_even_pungs", "44m22p666s", "2p", (('pon', '8s'), ('pon', '4s')), {}, "全双刻", 24),
    ("full_flush", "1223444555s", "3s", (('pon', '7s'),), {'seat_wind': 3, 'prevalent_wind': 3}, "清一色", 24),
    ("pure_triple_chow", "123p33445s55z", "5s", (('chi', '3s'),), {'seat_wind': 2, 'prevalent_wind': 3}, "一色三同顺、缺一门", 25),
    ("pure_shifted_pungs", "1235566699s", "5s", (('pon', '4s'),), {'prevalent_wind': 1}, "清一色、一色三节高", 48),
    ("upper_tiles", "77899m7788p7799s", "8m", (), {'seat_wind': 3}, "七对、全大", 48),
    ("middle_tiles", "4466m446p445566s", "6p", (), {'seat_wind': 3, 'prevalent_wind': 2}, "七对、全中", 48),
    ("lower_tiles", "233m112233p2233s", "2m", (), {'seat_wind': 2}, "七对、全小", 48),
    ("pure_straight", "777m45678p77z", "9p", (('chi', '1p'),), {}, "清龙、缺一门", 17),
    ("three_suited_terminal_chows", "789m23789p55s", "1p", (('chi', '1m'),), {'seat_wind': 1, 'prevalent_wind': 1}, "三色双龙会", 16),
    ("pure_shifted_chows", "45567m77p333s", "6m", (('chi', '6m'),), {'seat_wind': 3}, "一色三步高、断幺", 18),
    ("all_five", "55m34556p555s", "4p", (('chi', '5m'),), {'seat_wind': 2, 'prevalent_wind': 2}, "全带五", 16),
    ("triple_pung", "345m77p777s33z", "7p", (('pon', '7m'),), {'seat_wind': 2, 'prevalent_wind': 1}, "三同刻", 16),
    ("three_concealed_pungs", "444555m67p666s11z", "8p", (), {'seat_wind': 1, 'prevalent_wind': 1}, "三暗刻、门前清", 18),
    ("lesser_honors_and_knitted_tiles", "69m147p258s12367z", "4z", (), {'seat_wind': 2}, "全不靠", 12),
    ("knitted_straight", "147m28p369s33z", "5p", (('chi', '3s'),), {'seat_wind': 2, 'prevalent_wind': 3}, "组合龙", 12),
    ("upper_four", "66m7788p6677899s", "8s", (), {'seat_wind': 3, 'prevalent_wind': 3}, "七对、大于五", 36),
    ("lower_four", "122m11223344p11s", "1m", (), {'seat_wind': 2, 'prevalent_wind': 3}, "七对、小于五", 36),
    ("big_three_winds", "12344m33344z", "4z", (('pon', '1z'),), {'seat_wind': 1, 'prevalent_wind': 1}, "三风刻、混一色", 18),
    ("mixed_straight", "456m23p789s44z", "1p", (('chi', '3p'),), {'seat_wind': 1}, "花龙", 8),
    ("reversible_tiles", "33558899p226s77z", "6s", (), {'prevalent_wind': 1}, "七对、推不倒", 32),
    ("mixed_triple_chow", "78m234p234s55z", "9m", (('chi', '2m'),), {'seat_wind': 2}, "三色三同顺", 8),
    ("mixed_shifted_pungs", "34888m666s11z", "2m", (('pon', '7p'),), {'seat_wind': 2}, "三色三节高、双暗刻", 10),
    ("chicken_hand", "345m666p88s55z", "8s", (('pon', '5s'),), {'seat_wind': 2, 'prevalent_wind': 1}, "无番和", 8),
    ("last_tile_draw", "23m22z", "1m", (('chi', '6p'), ('chi', '5s'), ('chi', '3s')), {'self_drawn': True, 'wall_last': True, 'seat_wind': 1, 'prevalent_wind': 2}, "妙手回春", 8),
    ("last_tile_claim", "789m123p66s66z", "6s", (('pon', '4s'),), {'wall_last': True, 'seat_wind': 1}, "海底捞月", 8),
    ("out_with_replacement_tile", "234789m5567s", "5s", (('added_kong', '4p'),), {'self_drawn': True, 'about_kong': True}, "杠上开花、明杠、无字", 10),
    ("robbing_the_kong", "19m19p19s1234557z", "6z", (), {'about_kong': True, 'seat_wind': 1, 'prevalent_wind': 2}, "十三幺、抢杠和", 96),
    ("all_pungs", "88m55p444s", "8m", (('pon', '6s'), ('pon', '2m')), {'prevalent_wind': 1}, "碰碰和、断幺", 8),
    ("half_flush", "12366888s66z", "6s", (('chi', '2s'),), {'seat_wind': 2, 'prevalent_wind': 2}, "混一色", 6),
    ("mixed_shifted_chows", "345m234p45s11z", "6s", (('chi', '6s'),), {'prevalent_wind': 2}, "三色三步高", 6),
    ("all_types", "22m8p33s11336677z", "8p", (), {'seat_wind': 1}, "七对、五门齐", 30),
    ("melded_hand", "4z", "4z", (('chi', '6p'), ('chi', '5p'), ('chi', '1m'), ('chi', '2s')), {'prevalent_wind': 2}, "全求人", 6),
    ("two_concealed_kongs", "22p45s", "6s", (('ankong', '7z'), ('pon', '6z'), ('ankong', '8m')), {'seat_wind': 3, 'prevalent_wind': 3}, "双暗杠、双箭刻", 12),
    ("two_dragons_pungs", "789m99p34s666z", "2s", (('pon', '5z'),), {'prevalent_wind': 3}, "双箭刻", 6),
    ("outside_hand", "99m11123s222z", "9m", (('chi', '7p'),), {'seat_wind': 3, 'prevalent_wind': 3}, "全带幺、幺九刻×2", 6),
    ("fully_concealed_hand", "345m678p12356s11z", "7s", (), {'self_drawn': True, 'prevalent_wind': 1}, "不求人", 4),
    ("two_melded_kongs", "1199m111s", "9m", (('kong', '9p'), ('added_kong', '1p')), {'seat_wind': 3, 'prevalent_wind': 2}, "清幺九、双明杠", 68),
    ("last_tile", "19m19p199s124567z", "3z", (), {'fourth_tile': True, 'seat_wind': 2, 'prevalent_wind': 3}, "十三幺、和绝张", 92),
    ("dragon_pung", "789m3344p555z", "4p", (('chi', '5s'),), {'seat_wind': 1, 'prevalent_wind': 2}, "箭刻", 2),
    ("prevalent_wind", "77m678p67s444z", "5s", (('chi', '1s'),), {'seat_wind': 1, 'prevalent_wind': 3}, "圈风刻", 2),
    ("seat_wind", "123m99p67s111z", "8s", (('chi', '4p'),), {'prevalent_wind': 3}, "门风刻", 2),
    ("concealed_hand", "234m56778p123s44z", "6p", (), {}, "门前清", 2),
    ("all_chows", "23445m567p66s", "3m", (('chi', '7s'),), {'seat_wind': 2, 'prevalent_wind': 1}, "平和", 2),
    ("tile_hog", "678m777p66s44z", "6s", (('chi', '5p'),), {'seat_wind': 1}, "四归一", 2),
    ("double_pung", "777p45677s77z", "7s", (('pon', '2m'),), {'prevalent_wind': 3}, "双同刻", 2),
    ("two_concealed_pungs", "88p555777s66z", "8p", (('chi', '5m'),), {'seat_wind': 2, 'prevalent_wind': 3}, "双暗刻", 2),
    ("concealed_kong", "33456p44z", "3p", (('ankong', '8s'), ('pon', '4m')), {}, "暗杠", 2),
    ("all_simples", "444m66p22345s", "2s", (('chi', '6p'),), {'seat_wind': 2, 'prevalent_wind': 2}, "断幺", 2),
    ("pure_double_chow", "345p67788s11z", "6s", (('pon', '5m'),), {'seat_wind': 3, 'prevalent_wind': 2}, "一般高", 1),
    ("mixed_double_chow", "45667m123p44z", "8m", (('chi', '6s'),), {'seat_wind': 3, 'prevalent_wind': 2}, "喜相逢", 1),
    ("short_straight", "666m22p789s22z", "2p", (('chi', '4s'),), {'seat_wind': 1, 'prevalent_wind': 1}, "连六", 1),
    ("two_terminal_chows", "77m789p234s77z", "7m", (('chi', '1p'),), {'seat_wind': 3, 'prevalent_wind': 1}, "老少副", 1),
    ("pung_of_terminals_or_honors", "22277m678s22z", "2z", (('chi', '4p'),), {'prevalent_wind': 2}, "幺九刻", 1),
    ("melded_kong", "222m12367s33z", "5s", (('added_kong', '6p'),), {'seat_wind': 1, 'prevalent_wind': 2}, "明杠", 1),
    ("one_voided_suit", "23345m678s55z", "4m", (('chi', '4s'),), {'seat_wind': 3}, "缺一门", 1),
    ("no_honors", "77m34666p123s", "2p", (('chi', '7m'),), {'seat_wind': 2, 'prevalent_wind': 2}, "无字", 1),
    ("edge_wait", "12p678s77z", "3p", (('chi', '3m'), ('pon', '7p')), {'seat_wind': 1, 'prevalent_wind': 3}, "边张", 1),
    ("closed_wait", "24m444p345s11z", "3m", (('chi', '1s'),), {'seat_wind': 2, 'prevalent_wind': 1}, "嵌张", 1),
    ("single_wait", "123m345s7z", "7z", (('pon', '7m'), ('chi', '4p')), {'seat_wind': 2, 'prevalent_wind': 2}, "单钓将", 1),
    ("self_drawn", "45m678p345s66z", "6m", (('chi', '2s'),), {'self_drawn': True, 'prevalent_wind': 1}, "自摸", 1),
    ("concealed_kong_and_melded_kong", "67m345s55z", "8m", (('ankong', '1p'), ('added_kong', '2m')), {'seat_wind': 3, 'prevalent_wind': 3}, "幺九刻、明暗杠", 6),

    ("flower_tiles", "123m456p789s1115z", "5z", (), {"flowers": 4}, "花龙、五门齐、圈风刻、门风刻、门前清、单钓将、花牌×4", 21),
]


def test_every_fan_has_a_case() -> None:
    assert sorted(c[0] for c in FAN_CASES) == sorted(f.code for f in FANS)


@pytest.mark.parametrize("case", FAN_CASES, ids=[c[0] for c in FAN_CASES])
def test_every_fan(case: tuple) -> None:
    code, concealed, win, melds, situation, names, fan = case
    r = check(concealed, win, melds, situation, names, fan)
    assert code in [e.code for e in r.fans]


# --- the exclusion principles -------------------------------------------------------------------


def test_no_repeat_big_four_winds() -> None:
    # 不重复原则: a fan its tiles already imply is not counted again.  大四喜 "不计圈风刻、门风刻、
    # 三风刻、碰碰和", and its wind pungs are not 幺九刻; concealed, so 四暗刻 still counts.
    check("111222333444z5m", "5m", (), {"seat_wind": 1, "prevalent_wind": 1}, "大四喜、四暗刻、混一色、单钓将", 159)


def test_no_repeat_fully_concealed_strikes_self_drawn() -> None:
    # 不求人 "四副牌及将中没有吃牌、碰牌（包括明杠），自摸和牌" is 门前清 + 自摸: neither counts again.
    check("123m456m789m123p5s", "5s", (), {"self_drawn": True}, "清龙、不求人、平和、喜相逢、单钓将", 24)


def test_no_repeat_inevitably_concealed_fans_keep_self_drawn() -> None:
    # 四暗刻 "不计门前清、碰碰和": a hand that cannot be anything but concealed counts 自摸, not 不求人
    # (the MIL supplement's rule 5; the same for 七对, 十三幺, 全不靠, 七星不靠, 连七对, 九莲宝灯).
    check("111m222p333s4445z", "5z", (), {"self_drawn": True}, "四暗刻、三色三节高、五门齐、幺九刻×2、单钓将、自摸", 82)
    check("1122m3344p5566s7z", "7z", (), {"self_drawn": True}, "七对、自摸", 25)


def test_no_split_pure_straight() -> None:
    # 不拆移原则: 清龙's own 123 and 456 are not also 连六, nor its 123 and 789 老少副; a fourth chow
    # may combine once with one of them: 456m again is 一般高.
    check("123456789m456m1z", "1z", (), {}, "清龙、混一色、门前清、一般高、单钓将", 26)


def test_not_the_same_twice() -> None:
    # 不得相同原则: "凡已经合过某一番种的牌，不能再同其他一副牌组成相同的番种计分".  234s with each of
    # 234p 234p would be 喜相逢 twice for the same 234s: it counts once, so 234s 234p 234p 567p is
    # 一般高、喜相逢、连六, not 喜相逢×2、连六.
    check("234s223344567p1z", "1z", (), {}, "门前清、一般高、喜相逢、连六、缺一门、单钓将", 7)


def test_combine_once() -> None:
    # 套算一次原则: "如果有尚未组合过的一副牌，只可同已组合过的相应的一副牌套算一次".  Among four
    # chows each new combination must bring in a chow not yet combined, so at most three:
    # 234567s234567p is 喜相逢×2 and 连六 once, not 喜相逢×2、连六×2.
    check("234567s234567p1z", "1z", (), {}, "门前清、喜相逢×2、连六、缺一门、单钓将", 7)


def test_three_chow_fan_and_a_fourth_chow() -> None:
    # 套算一次 again: beside a three-chow fan the fourth chow combines once (清龙 + 喜相逢).
    check("123m456m789m123p5s", "5s", (), {}, "清龙、门前清、平和、喜相逢、单钓将", 22)


def test_three_pung_fan_and_a_fourth_pung() -> None:
    # 三色三节高 (2m 3p 4s) and 3m: the fourth pung combines once, 双同刻 with 3p.
    r = score("222m333m333p444s5z", "5z")
    assert [e.chinese for e in r.fans][:2] == ["四暗刻", "三色三节高"]
    assert "双同刻" in r.names


def test_pair_fan_limit_is_the_faithful_one() -> None:
    # For every set of 3 or 4 chows with no three-chow fan, the 1-fan combinations chosen are a
    # most numerous set that the principles allow: each new combination brings in a chow not yet
    # combined (a forest) and no chow forms one fan twice.
    chows = [s * 9 + r for s in range(3) for r in range(7)]
    for n in (3, 4):
        for combo in itertools.combinations_with_replacement(chows, n):
            ordered = tuple(sorted(combo))
            if n == 4 and shapes.chow_fans(ordered) and any(
                    shapes._three_chow_fan(*t) >= 0 for t in itertools.combinations(ordered, 3)):
                continue
            if n == 3 and shapes._three_chow_fan(*ordered) >= 0:
                continue
            got = Counter({f: k for f, k in shapes.chow_fans(ordered)})
            assert sum(got.values()) == shapes.best_pair_combination(ordered)
            assert _realisable(ordered, got), (ordered, got)


def test_allowed_combination() -> None:
    mdc, ss, pdc = (FAN_BY_CODE[c].id for c in ("mixed_double_chow", "short_straight", "pure_double_chow"))
    # 234s-234p, 234p-567p, 234s-567p? the third joins two chows already combined (套算一次)
    assert not shapes.allowed_combination(3, [(0, 1, mdc), (1, 2, ss), (0, 2, pdc)])
    # 234s with 234p and with a second 234p: 喜相逢 twice for 234s (不得相同)
    assert not shapes.allowed_combination(3, [(0, 1, mdc), (0, 2, mdc)])
    assert shapes.allowed_combination(4, [(0, 1, mdc), (1, 2, pdc), (2, 3, ss)])
    assert shapes.best_pair_combination((18 + 1, 9 + 1, 9 + 1, 9 + 4)) == 3  # 234s 234p 234p 567p (CPP kinds)


def _realisable(chows: tuple[int, ...], want: Counter) -> bool:
    """Some choice of the pairwise combinations, exactly ``want`` of each fan, obeys 套算一次 and
    不得相同 (:func:`shapes.allowed_combination`)."""
    n = len(chows)
    edges = [(i, j, f) for i in range(n) for j in range(i + 1, n)
             if (f := shapes.pair_fan_of_chows(chows[i], chows[j])) >= 0]
    return any(Counter(f for _, _, f in sel) == want and shapes.allowed_combination(n, sel)
               for sel in itertools.combinations(edges, sum(want.values())))


# --- waits: 边张, 嵌张, 单钓将 only on a single wait ---------------------------------------------------


def test_edge_wait() -> None:
    # 边张 "单和123的3以及789的7或1233和3、7789和7都为边张": 12 waiting on 3 alone, and 1233 on 3
    check("12m345p678s999s22z", "3m", (), {}, "门前清、幺九刻、边张", 4)
    check("1233m456p789s111z", "3m", (), {}, "花龙、圈风刻、门风刻、门前清、边张", 15)


def test_no_edge_wait_with_another_wait() -> None:
    # "手中有12345和3，56789和7不算和边张": 12345 waits on 3 and 6
    check("12345m678p999s22z", "3m", (), {}, "门前清、幺九刻", 3)


def test_closed_wait() -> None:
    # 坎张 "和2张牌之间的牌。4556和5为坎张"; "手中有45567和6不算坎张"
    check("4556m123p789s111z", "5m", (), {}, "花龙、圈风刻、门风刻、门前清、嵌张", 15)
    check("45567m123p789s11z", "6m", (), {}, "花龙、门前清", 10)


def test_single_wait_only_alone() -> None:
    # 1112 waits on 2 and 3: no 单钓将
    check("1112m456p789s111z", "2m", (), {}, "圈风刻、门风刻、门前清、双暗刻、幺九刻", 9)


# --- the win's flags -------------------------------------------------------------------------------


def test_last_tile_and_robbing() -> None:
    # 和绝张; 抢杠和 "不计和绝张"
    check("12m456p789s111z55s", "3m", (), {"fourth_tile": True}, "花龙、和绝张、圈风刻、门风刻、门前清、边张", 19)
    check("12m456p789s111z55s", "3m", (), {"fourth_tile": True, "about_kong": True},
          "花龙、抢杠和、圈风刻、门风刻、门前清、边张", 23)


def test_last_tile_corrected() -> None:
    # holding one of the kind, the winning tile cannot be the last one; with three in the melds it is
    check("123m456p789s111z5m", "5m", (), {"fourth_tile": True}, "花龙、圈风刻、门风刻、门前清、单钓将", 15)
    check("12m456p789s11z", "3m", (("pon", "3m"),), {}, "花龙、和绝张、四归一、边张", 15)


def test_kong_flags() -> None:
    # 杠上开花 "不计自摸" needs a kong to have been made; 妙手回春 "不计自摸"
    check("12m456p789s11z", "3m", (("kong", "9p"),), {"self_drawn": True, "about_kong": True},
          "花龙、杠上开花、幺九刻、明杠、边张", 19)
    check("12m456p789s11z", "3m", (("pon", "9p"),), {"self_drawn": True, "about_kong": True},
          "花龙、幺九刻、边张、自摸", 11)
    check("12m456p789s11z", "3m", (("pon", "9p"),), {"self_drawn": True, "wall_last": True},
          "花龙、妙手回春、幺九刻、边张", 18)


def test_melded_hand_strikes_single_wait() -> None:
    # 全求人 "全靠吃牌、碰牌、单钓别人打出的牌而和牌。不计单钓"
    check("1z", "1z", (("chi", "1m"), ("chi", "4p"), ("chi", "7s"), ("pon", "9m")), {}, "花龙、全求人、幺九刻", 15)


# --- pungs, kongs and winds -------------------------------------------------------------------------


def test_big_three_winds_and_terminal_pungs() -> None:
    # 三风刻's three pungs are not also 幺九刻 (不重复); the 999m completed by the discard is, and is
    # exposed: 三暗刻 of the wind pungs, not 四暗刻
    check("111222333z99m55p", "9m", (), {}, "三暗刻、三风刻、碰碰和、圈风刻、门风刻、门前清、幺九刻、缺一门", 42)


def test_wind_pungs() -> None:
    # a pung of the seat (or prevalent) wind is 门风刻 (圈风刻), not also 幺九刻
    check("345m123p567s2z", "2z", (("pon", "1z"),), {"seat_wind": 0, "prevalent_wind": 0},
          "圈风刻、门风刻、单钓将", 5)
    check("345m123p567s2z", "2z", (("pon", "1z"),), {"seat_wind": 2, "prevalent_wind": 1}, "幺九刻、单钓将", 2)


def test_discard_pung_is_exposed_unless_read_as_a_chow() -> None:
    # won on a discard, 555s is exposed (双暗刻); with 567s beside it the 5s may complete the chow
    # instead, and the three concealed pungs stay 三暗刻
    check("111m222p55s11z", "5s", (("chi", "3s"),), {}, "四归一、双暗刻、幺九刻", 5)
    check("111m222p55567s11z", "5s", (), {}, "三暗刻、门前清、四归一、幺九刻", 21)


def test_kong_fans() -> None:
    # 双暗杠 "不计暗杠" and the 双暗刻 they are
    check("123m456p5p", "5p", (("ankong", "1z"), ("ankong", "2z")), {},
          "双暗杠、圈风刻、门风刻、门前清、幺九刻、缺一门、嵌张", 15)
    check("123m456p789s5p", "5p", (("ankong", "2z"),), {}, "花龙、门前清、暗杠、幺九刻、嵌张", 14)
    check("5p", "5p", (("kong", "1z"), ("kong", "2z"), ("kong", "3z"), ("kong", "9m")), {},
          "四杠、三风刻、全求人、圈风刻、门风刻、幺九刻、缺一门", 112)


# --- the rule book's open questions, as PyMahjongGB (and the MIL supplement) answer them ----------------
# Where the 1998/2006 text reads otherwise the comment quotes it; M3 asks for PyMahjongGB's answer.


def test_concealed_and_melded_kong_is_five() -> None:
    # The book has no such fan: 明杠 1 + 暗杠 2.  The MIL supplement (rule 13): "一明杠一暗杠计特殊
    # 番种「明暗杠」5番" — PyMahjongGB counts it, so do we.
    check("456p5p", "5p", (("ankong", "1z"), ("kong", "2z"), ("chi", "1m")), {},
          "圈风刻、门风刻、幺九刻、缺一门、嵌张、明暗杠", 12)


def test_all_terminals_keeps_triple_pung() -> None:
    # The book: 清幺九 "不计碰碰和、同刻、无字".  The MIL supplement (rule 10): "清幺九不计双同刻，可加计
    # 三同刻" — PyMahjongGB counts 三同刻 beside 清幺九, so do we.
    check("111p111s999m9p", "9p", (("pon", "1m"),), {}, "清幺九、三同刻、三暗刻、单钓将", 97)


def test_nine_gates_extra_fans() -> None:
    # The book: 九莲宝灯 "不计清一色" (and 门前清, 幺九刻).  MIL rule 11: "九莲宝灯和258时计1个幺九刻，和其他
    # 牌时不计幺九刻"; winning on 1 or 9 also 清龙 and 四归一, on 2-4, 6-8 连六.
    check("1112345678999m", "2m", (), {}, "九莲宝灯、双暗刻、连六、幺九刻", 92)
    check("1112345678999m", "5m", (), {}, "九莲宝灯、双暗刻、幺九刻", 91)
    check("1112345678999m", "1m", (), {"self_drawn": True}, "九莲宝灯、清龙、四归一、自摸", 107)


def test_all_green_allows_full_flush() -> None:
    # 绿一色 "不计混一色。如无发字组成和牌，可计清一色" (the seed's note); with 发 it is not 混一色
    check("22334466s66z", "6z", (("pon", "8s"),), {}, "绿一色、箭刻、一般高", 91)


def test_pure_terminal_chows() -> None:
    # 一色双龙会 "不计平和、七对、清一色" nor its 一般高 and 老少副 (不拆移)
    check("1122335577889s", "9s", (), {}, "一色双龙会、门前清", 66)
    check("112233m778899m5m", "5m", (), {}, "一色双龙会、门前清、单钓将", 67)


def test_ties_between_arrangements() -> None:
    # 就高不就低 picks the higher total; on a tie PyMahjongGB prefers four melds to 七对 …
    check("445566m55p44556s", "6s", (), {"self_drawn": True}, "全中、全带五、不求人、平和、一般高×2、喜相逢", 49)
    # … and an arrangement with 一色三同顺 (or 三同刻) to one with 一色三节高 …
    check("345m44555666p44s", "4p", (), {}, "一色三同顺、门前清、平和、断幺", 30)
    # … else the first in its order (a pung before the chow on the same tile)
    check("4446678999p", "6p", (("chi", "1p"),), {"self_drawn": True}, "清一色、双暗刻、老少副、自摸", 28)


def test_chicken_hand() -> None:
    check("345m666p88s55z", "8s", (("pon", "5s"),), {"seat_wind": 2, "prevalent_wind": 1}, "无番和", 8)


# --- flowers, the minimum, results ------------------------------------------------------------------


def test_flowers_listed_not_counted() -> None:
    r = score("123m456p789s111z5p", "5p", flowers=3, min_fan=8)
    assert r.fan == 15 and r.total == 18 and r.flowers == 3
    assert r.fans[-1].chinese == "花牌" and r.fans[-1].count == 3
    assert r.win


def test_min_fan() -> None:
    r = score("12345m678p999s22z", "3m", min_fan=8)
    assert r.complete and not r.win and r.fan == 3
    r = score("12345m678p999s22z", "3m", min_fan=3)
    assert r.win


def test_incomplete() -> None:
    r = score("1234m", "5m", (("chi", "1p"), ("chi", "1s"), ("pon", "1z")))
    assert not r.complete and not r.win and r.fan == 0 and r.fans == () and r.groups == ()


def test_to_dict_and_groups() -> None:
    r = score("111m222p55s11z", "5s", (("chi", "3s"),), min_fan=8)
    d = r.to_dict()
    assert d["fan"] == 5 and d["complete"] and not d["win"]
    assert d["fans"][0] == {"code": "tile_hog", "name": "四归一", "en": "Tile Hog", "fan": 2, "count": 1}
    groups = d["arrangement"]["groups"]
    assert d["arrangement"]["shape"] == "standard"
    assert groups[0] == {"kind": "chow", "tiles": ["3s", "4s", "5s"], "concealed": False}
    assert {"kind": "pung", "tiles": ["5s", "5s", "5s"], "concealed": False} in groups  # completed by the discard
    assert {"kind": "pung", "tiles": ["1m", "1m", "1m"], "concealed": True} in groups
    assert groups[-1]["kind"] == "pair"
    shapes_seen = {score(*c[1:3], c[3], **c[4]).shape for c in FAN_CASES}
    assert shapes_seen == {"standard", "seven_pairs", "thirteen_orphans", "knitted", "knitted_straight", "nine_gates"}
    for c in FAN_CASES:
        r = score(*c[1:3], c[3], **c[4])
        n = sum(len(g.tiles) for g in r.groups)
        assert n == 14 + sum(1 for typ, _ in c[3] if typ in ("kong", "added_kong", "ankong")), c


def test_many() -> None:
    hands = [(parse_tiles(c), Tile.parse(w), [], McrSituation(self_drawn=True)) for c, w, _, _ in M5]
    assert [r.fan for r in score_mcr_many(hands)] == [24, 24, 89, 25]


# --- the fan table ---------------------------------------------------------------------------------


def test_fan_table() -> None:
    assert len(BOOK_FANS) == 81 and len(FANS) == 82
    assert sum(1 for f in BOOK_FANS if f.value == 88) == 7
    assert {f.value for f in FANS} == {88, 64, 48, 32, 24, 16, 12, 8, 6, 5, 4, 2, 1}
    assert FAN_BY_CODE["four_pure_shifted_pungs"].excludes[0] == "pure_shifted_pungs"
    for f in FANS:
        for j in EXCLUDES[f.id]:
            assert FANS[j].value <= f.value


# --- completeness ------------------------------------------------------------------------------------


def _counts(text: str) -> list[int]:
    c = [0] * 34
    for t in parse_tiles(text):
        c[t] += 1
    return c


def test_is_complete() -> None:
    assert is_complete_mcr(_counts("123m456m789m123p55s"), 0)
    assert is_complete_mcr(_counts("11m22m33p44p55s66s77z"), 0)
    assert is_complete_mcr(_counts("19m19p19s12345677z"), 0)
    assert is_complete_mcr(_counts("147m258p369s12345z"), 0)
    assert is_complete_mcr(_counts("147m258p369s11155z"), 0)
    assert not is_complete_mcr(_counts("147m258p369s12355z"), 0)
    assert is_complete_mcr(_counts("147m258s369p11z"), 1)
    assert is_complete_mcr(_counts("55s"), 4)
    assert not is_complete_mcr(_counts("123m456m789m123p56s"), 0)
    assert not is_complete_mcr(_counts("11m22m33p44p55s66s77z"), 1)
    assert not is_complete_mcr(_counts("123m"), 0)


# --- bad input ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("concealed", "win", "melds", "situation", "message"), [
    ("1111m234p567s789s", "1m", (), {}, "5 copies of 1m"),
    ("123m456p789s11z", "5m", (), {}, "13 concealed tiles"),
    ("123m456p789s11z555p", "5m", (), {}, "13 concealed tiles"),
    ("123m456p789s1z", "1z", (("pon", "1z"), ("kong", "1z")), {}, "7 concealed tiles"),
    ("123m456p789s7s", "7s", (("chi", "8m"),), {}, "lowest tile"),
    ("123m456p789s7s", "7s", (("chow", "1m"),), {}, "unknown meld type"),
    ("123m456p7s", "7s", (("pon", "1z"), ("pon", "1z")), {}, "6 copies of 1z"),
    ("123m456p789s1z", "1z", (("pon", "1z"),), {}, "copies of 1z"),
    ("123m456p789s1z", "1z", (("pon", "2z"),), {"seat_wind": 4}, "seat_wind"),
    ("123m456p789s1z", "1z", (("pon", "2z"),), {"flowers": 9}, "flowers"),
])
def test_bad_input(concealed: str, win: str, melds: MeldSpec, situation: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        score(concealed, win, melds, **situation)


def test_bad_meld_fields() -> None:
    c = parse_tiles("123m456p789s1z")
    w = Tile.parse("1z")
    with pytest.raises(InvalidMcrHand, match="claimed"):
        score_mcr(c, w, [McrMeld("chi", Tile.parse("1m"), Tile.parse("5m"), 1)] + [])
    with pytest.raises(InvalidMcrHand, match="offer"):
        score_mcr(c, w, [McrMeld("pon", Tile.parse("2z"), None, 5)])
    with pytest.raises(InvalidMcrHand, match="McrMeld"):
        score_mcr(c, w, [("pon", "2z")])  # type: ignore[list-item]
    with pytest.raises(InvalidMcrHand, match="tile kind"):
        score_mcr(c, 40, [McrMeld("pon", Tile.parse("2z"), None, 1)])  # type: ignore[arg-type]
    with pytest.raises(InvalidMcrHand, match="tile kind"):
        score_mcr([-1] * 10, w, [McrMeld("pon", Tile.parse("2z"), None, 1)])  # type: ignore[list-item]
    with pytest.raises(InvalidMcrHand, match="situation"):
        score_mcr(c, w, [McrMeld("pon", Tile.parse("2z"), None, 1)], "east")  # type: ignore[arg-type]
    with pytest.raises(InvalidMcrHand, match="at most 4 melds"):
        score_mcr([], w, [McrMeld("pon", Tile.parse("2z"), None, 1)] * 5)
