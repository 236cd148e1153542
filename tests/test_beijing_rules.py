"""One scripted scenario per rule of Beijing mahjong (docs/rules/BEIJING.md B1–B8) on the engine.

The walls come from :func:`tests.scripted.script_wall` in tail mode (the 混坯 is the first
replacement tile, B2): the tiles a test names are placed in the hands, head draws and replacement
draws; every other dealt tile is a "quiet" one (no pair, no wild, no sequence shape), so nothing
happens that the test did not script.  Unless a test says otherwise the 混坯 is 7z (白), so the wild
is 5z (中) and nobody holds one.
"""

from __future__ import annotations

import pytest

from tjmj.game import IllegalAction, Match
from tjmj.rules import Rules

from .scripted import draw_until, drawn, events_of, legal, payments, play, run_out, script_wall, tsumogiri

B = "beijing"
A = "beijing_a"


def rules(preset: str = B, **kw: object) -> Rules:
    return Rules.preset(preset, match_hands=kw.pop("hands", 1), **kw)  # type: ignore[arg-type]


def wall(dealer: int = 0, hands: dict[int, str] | None = None, draws: str = "", replacements: str = "",
         indicator: str = "7z", **kw: object) -> tuple[list[int], object]:
    return script_wall(dealer, hands or {}, draws=draws, replacements=replacements, indicator=indicator,
                       wild_method="tail", **kw)  # type: ignore[arg-type]


def match(r: Rules, *walls: tuple[list[int], object]) -> Match:
    return Match(r, 1, walls=list(walls))  # type: ignore[arg-type]


def zero_sum(m: Match) -> None:
    """B6: every hand's payments sum to zero, none of them 0."""
    for e in events_of(m, "end_kyoku"):
        assert sum(e["deltas"]) == 0
        assert all(p["amount"] > 0 and p["payer"] != p["payee"] for p in e["payments"])


def hora(m: Match) -> dict:
    (h,) = events_of(m, "hora")
    return h


# ---- B1: tiles, wall, the reserve -------------------------------------------------------------


def test_b1_deal_and_the_reserve_line():
    """B1: 13 tiles each, the dealer 14; normal draws stop at 7 stacks (14 tiles) left: 荒牌."""
    m = match(rules(), wall())
    assert [len(h) for h in m.events[-1]["tehais"]] == [14, 13, 13, 13]
    assert m.observation(0)["wall_left"] == 136 - 53 - 14 and m.observation(0)["reserve"] == 14
    end = run_out(m)
    assert events_of(m, "ryukyoku") and end["payments"] == []
    assert m.wall.remaining == 14  # the reserve: 7 stacks, the 混坯 among them


def test_b1_the_reserve_grows_by_a_stack_for_each_kong_after_the_first():
    """B1: "一杠七墩，两杠八墩": two kongs keep 8 stacks back."""
    m = match(rules(), wall(0, {1: "1111m2222m"}, draws="9s"))
    play(m, f"0 discard {legal(m)[-1].split()[1]}")  # the dealer's first discard (a quiet tile)
    assert m.to_act == 1
    play(m, "1 ankong 1m")
    assert m.observation(1)["reserve"] == 14  # one kong: still 7 stacks
    play(m, "1 ankong 2m")
    assert m.observation(1)["reserve"] == 16  # two kongs: 8 stacks
    run_out(m)
    assert m.wall.remaining == 16


def test_b1_a_discard_kong_counts_for_the_reserve_too():
    m = match(rules(), wall(0, {0: "9p", 1: "9p9p9p2222m"}))
    play(m, "0 discard 9p", "1 kong 9p")
    assert m.observation(1)["reserve"] == 14
    play(m, "1 ankong 2m")
    assert m.observation(1)["reserve"] == 16


# ---- B2: the 混坯 and the wild --------------------------------------------------------------


@pytest.mark.parametrize(("indicator", "wild"), [("1z", "2z"), ("4z", "1z"), ("9m", "1m"), ("7z", "5z"), ("5s", "6s")])
def test_b2_the_wild_is_the_successor_of_the_hunpi(indicator, wild):
    m = match(rules(), wall(indicator=indicator))
    obs = m.observation(0)
    assert obs["indicator"] == indicator and obs["wilds"] == [wild]
    assert m.events[-1]["dora_marker"] == indicator and m.events[-1]["wilds"] == [wild]


def test_b2_the_hunpi_is_the_first_replacement_tile_and_then_ordinary():
    """B2: the face-up 混坯 stays in the wall and is the first replacement tile drawn."""
    m = match(rules(), wall(0, {0: "1111m"}, indicator="3p"))
    play(m, "0 ankong 1m")
    (rep,) = [e for e in events_of(m, "tsumo") if e["replacement"]]
    assert rep["actor"] == 0 and rep["pai"] == "3p" and drawn(m, 0) == "3p"


def test_b2_wilds_are_discarded_without_penalty_and_claimed_as_themselves():
    """B2: a wild may be discarded (no 相公) and ponged; in the pon it plays only its own kind."""
    m = match(rules(), wall(0, {0: "5z", 1: "5z5z"}))
    play(m, "0 discard 5z")
    assert events_of(m, "dahai")[-1]["wild"] is True
    assert "pon 5z" in legal(m, 1)
    play(m, "1 pon 5z")
    assert m.observation(1)["seats"][1]["melds"] == ["[555z]"]


def test_b2_hungang_is_a_flat_40_win():
    """B2: all four wilds in the concealed hand: 混杠, an immediate win worth 40."""
    m = match(rules(), wall(0, {1: "5z5z5z"}, draws="5z"))
    play(m, f"0 discard {legal(m)[-1].split()[1]}")
    assert "hungang" in legal(m, 1)
    play(m, "1 hungang")
    h = hora(m)
    assert h["value"] == 40 and h["elements"] == ["HUNGANG"] and h["actor"] == 1
    assert sorted(payments(m)) == [("win", p, 1, 40) for p in (0, 2, 3)]


def test_b2_version_a_has_no_wild():
    m = match(rules(A), wall())
    assert m.events[-1]["dora_marker"] is None and m.observation(0)["wilds"] == []


# ---- B3: turns and claims ---------------------------------------------------------------------


def test_b3_chi_by_the_next_seat_only_with_the_choice_of_sequence():
    m = match(rules(), wall(0, {0: "3m", 1: "1m2m4m5m", 2: "2m4m"}))
    play(m, "0 discard 3m")
    assert m.phase == "claim" and m.to_act == 1
    assert [a for a in legal(m) if a.startswith("chi")] == ["chi 1m", "chi 2m", "chi 3m"]
    assert m.observation(1)["window"] == {"kind": "discard", "tile": "3m", "from": 0, "waiting": [1]}
    play(m, "1 chi 2m")
    assert m.observation(1)["seats"][1]["melds"] == ["[234m]"] and m.phase == "turn" and m.to_act == 1
    (c,) = events_of(m, "chi")
    assert (c["actor"], c["target"], c["pai"], sorted(c["consumed"])) == (1, 0, "3m", ["2m", "4m"])
    assert not any(a.startswith(("win", "ankong")) for a in legal(m))  # discard only after a claim


def test_b3_pon_beats_chi_whatever_the_order_of_asking():
    m = match(rules(), wall(0, {0: "3m", 1: "2m4m", 2: "3m3m"}))
    play(m, "0 discard 3m")
    play(m, "1 chi 2m")
    assert m.to_act == 2  # the chi is not final: seat 2 could pon
    play(m, "2 pon 3m")
    assert events_of(m, "pon") and not events_of(m, "chi") and m.to_act == 2


def test_b3_a_discard_win_beats_a_pon_and_the_first_winner_in_play_order_wins():
    """抢胡: the first in play order after the discarder who declares wins; one who declines lets
    the next win (B3).  Seats 2 and 3 both wait on 3m; seat 1 could pon it."""
    hands = {0: "3m", 1: "3m3m", 2: "2m4m123p456p789p1s1s", 3: "1m2m456s789s123s9p9p"}
    m = match(rules(), wall(0, hands))
    play(m, "0 discard 3m")
    assert (m.to_act, legal(m)) == (1, ["pon 3m", "pass"])
    play(m, "1 pon 3m")
    assert m.to_act == 2 and legal(m) == ["win", "pass"]  # the pon is not final: a win beats it
    play(m, "2 win")
    h = hora(m)
    assert (h["actor"], h["target"], h["self_drawn"]) == (2, 0, False) and "DIANPAO" in h["elements"]
    assert not events_of(m, "pon")
    m2 = match(rules(), wall(0, hands))
    play(m2, "0 discard 3m", "1 pass", "2 pass")
    assert m2.to_act == 3 and "win" in legal(m2)
    play(m2, "3 win")
    assert hora(m2)["actor"] == 3


def test_b3_one_claim_per_hand_in_version_b_unlimited_in_a():
    """B3: max_claims 1 (B): after a pon no more chi or pon; version A: no limit."""
    for preset, more in ((B, False), (A, True)):
        m = match(rules(preset), wall(0, {0: "1z2z", 1: "1z1z2z2z"}, avoid="1z2z"))
        play(m, "0 discard 1z", "1 pon 1z")
        play(m, f"1 {other_discard(m, '2z')}")
        while not (m.to_act == 0 and m.phase == "turn"):
            tsumogiri(m)
        play(m, "0 discard 2z")
        can = m.phase == "claim" and m.to_act == 1 and "pon 2z" in legal(m)
        assert can is more, preset


def test_b3_claimed_hands_win_only_by_self_draw():
    """B3 (B): after a pon, a discard completing the hand is no win; version A allows it."""
    for preset, wins in ((B, False), (A, True)):
        # seat 1 pons 1z, then waits on 5p; seat 2 discards 5p
        m = match(rules(preset), wall(0, {0: "1z", 1: "1z1z123m456m789m5p9s", 2: "5p"}, draws="8s", avoid="1z5p"))
        play(m, "0 discard 1z", "1 pon 1z", "1 discard 9s")
        assert m.to_act == 2
        play(m, "2 discard 5p")
        offered = m.phase == "claim" and m.to_act == 1 and "win" in legal(m)
        assert offered is wins, preset


def test_b3_a_passed_discard_win_locks_discard_wins_until_ones_own_next_discard():
    """过手 (B3): seat 1 passes a win on seat 2's 1m; seat 3's 4m is then no win for it; after its own
    next discard it may win on discards again."""
    waits_1m4m = "2m3m456p789p123s1z1z"
    m = match(rules(), wall(0, {1: waits_1m4m}, draws={1: "1m", 2: "4m"}, avoid="1m4m"))
    draw_until(m, 2)  # the dealer and seat 1 discarded; seat 2 drew 1m
    assert m.to_act == 2 and drawn(m, 2) == "1m"
    play(m, "2 discard 1m")
    assert m.phase == "claim" and m.to_act == 1 and "win" in legal(m)
    play(m, "1 pass")
    assert m.observation(1)["passed_win"] is True
    assert drawn(m, 3) == "4m"
    play(m, "3 discard 4m")
    assert m.window is None or 1 not in m.window.order  # locked: 4m is no win for seat 1 now
    while not (m.to_act == 1 and m.phase == "turn"):
        tsumogiri(m)
    assert m.observation(1)["passed_win"] is True  # until its own discard
    tsumogiri(m)
    assert m.observation(1)["passed_win"] is False


def test_b3_robbing_an_added_kong_the_declarer_pays_all_three_shares():
    """抢杠 (B3, B6): seat 1 adds a kong of 7p, seat 2 wins on it; the kong is not made and seat 1
    pays all three shares."""
    m = match(rules(), wall(0, {0: "7p", 1: "7p7p", 2: "123m456m789m1s1s8p9p"}, draws={3: "7p"}, avoid="7p"))
    play(m, "0 discard 7p", "1 pon 7p", "2 pass")  # seat 2 could have won on the discard: it waits
    play(m, f"1 {other_discard(m, '7p')}")
    draw_until(m, 4)
    assert m.to_act == 1 and drawn(m, 1) == "7p" and "added_kong 7p" in legal(m)
    play(m, "1 added_kong 7p")
    assert m.phase == "rob" and m.to_act == 2 and legal(m) == ["win", "pass"]
    play(m, "2 win")
    h = hora(m)
    assert h["rob_kong"] and h["target"] == 1 and "ZIMO" in h["elements"]  # scores as self-drawn (B3)
    assert payments(m) == [("win", 1, 2, 3 * h["value"])]
    assert not [e for e in events_of(m, "tsumo") if e["replacement"]]  # no replacement draw


def test_b3_a_concealed_kong_is_robbed_only_by_a_dragon():
    """B3: a concealed kong can be robbed only by a hand that wins with 一条龙 on that tile."""
    dragon = "123m456m78m1s1s1p2p3p"  # waits on 9m with 一条龙
    plain = "111p234p567s1s1s78m"  # waits on 9m without
    for hand, robbed in ((dragon, True), (plain, False)):
        m = match(rules(), wall(0, {0: "9m9m9m9m", 1: hand}))
        play(m, "0 ankong 9m")
        assert (m.phase == "rob") is robbed, hand


def test_b3_hunyou_then_the_next_draw_wins_with_wuhun():
    """混儿悠 (B3): a self-drawn win holding a wild may instead discard so that the 13 tiles win on
    any draw; the next draw then wins by itself, scored with 无混儿 added."""
    # the dealer holds a winning 14 with the wild 5z: 123m 456m 789m 123p + 5z 1s (5z pairs 1s)
    m = match(rules(), wall(0, {0: "123m456m789m123p5z1s"}, draws="7s8s9s3z"))
    assert "win" in legal(m, 0) and "hunyou 1s" in legal(m, 0)
    play(m, "0 hunyou 1s")
    assert events_of(m, "dahai")[-1]["hunyou"] is True and m.observation(1)["seats"][0]["hunyou"] is True
    while not events_of(m, "hora"):
        tsumogiri(m)
    h = hora(m)
    assert h["actor"] == 0 and h["hunyou"] and "WUHUN" in h["elements"] and h["pai"] == "3z"


def test_b3_a_hunyou_cut_short_pays_double():
    m = match(rules(), wall(0, {0: "123m456m789m123p5z1s", 2: "123s456s789s111p9p"}, draws="8p9p"))
    play(m, "0 hunyou 1s")
    tsumogiri(m)  # seat 1 draws 8p, discards it
    assert drawn(m, 2) == "9p" and "win" in legal(m, 2)
    play(m, "2 win")
    v = hora(m)["value"]
    assert sorted(payments(m)) == [("win", 0, 2, 2 * v), ("win", 1, 2, v), ("win", 3, 2, v)]


# ---- B6: settlement ---------------------------------------------------------------------------


def other_discard(m: Match, *keep: str) -> str:
    """A discard of the seat to act that is none of ``keep``."""
    return next(a for a in legal(m) if a.startswith("discard") and a[8:] not in keep)


def test_b8_case_1_self_draw_16_each():
    """B8 case 1, won on seat 1's second draw (on its first it would be 地和, a flat 40)."""
    m = match(rules(), wall(0, {1: "123m456m789m123p5s"}, draws={4: "5s"}, indicator="1z"))
    draw_until(m, 5)
    assert drawn(m, 1) == "5s" and "win" in legal(m, 1)
    play(m, "1 win")
    h = hora(m)
    assert h["value"] == 16 and set(h["elements"]) == {"LONG", "MENQING", "ZIMO", "WUHUN"}
    assert sorted(payments(m)) == [("win", 0, 1, 16), ("win", 2, 1, 16), ("win", 3, 1, 16)]
    zero_sum(m)


def test_b8_case_2_seven_pairs_on_a_discard_the_discarder_pays_double():
    m = match(rules(), wall(0, {0: "7z", 2: "11m22m33p44p55s66s7z"}, indicator="1z"))
    play(m, "0 discard 7z")
    assert m.to_act == 2 and "win" in legal(m)
    play(m, "2 win")
    h = hora(m)
    assert h["value"] == 8 and set(h["elements"]) == {"QIDUI", "MENQING", "WUHUN", "DIANPAO"}
    assert sorted(payments(m)) == [("win", 0, 2, 16), ("win", 1, 2, 8), ("win", 3, 2, 8)]


def test_b6_version_a_the_discarder_pays_three_shares():
    m = match(rules(A), wall(0, {0: "7z", 2: "11m22m33p44p55s66s7z"}))
    play(m, "0 discard 7z", "2 win")
    v = hora(m)["value"]
    assert payments(m) == [("win", 0, 2, 3 * v)]


def test_b6_shaozhuang_is_paid_at_the_end_of_a_won_hand_only():
    """烧庄 (B6): the dealer's first discard followed by the same kind from the three others; 10 × base
    to each of them at the end of the hand, nothing if the hand is drawn."""
    hands = {0: "1z", 1: "1z", 2: "1z", 3: "1z"}
    m = match(rules(), wall(0, hands))
    play(m, "0 discard 1z")
    for s in (1, 2, 3):
        tsumogiri(m) if m.phase == "claim" else None
        play(m, f"{s} discard 1z")
    (sz,) = events_of(m, "shaozhuang")
    assert (sz["actor"], sz["pai"], sz["rounds"]) == (0, "1z", 1)
    run_out(m)
    assert payments(m) == []  # a drawn hand: no 烧庄
    # seat 1 keeps its first draw (9p) and waits on 1s or 9p; its second draw is the other 9p
    m2 = match(rules(), wall(0, {**hands, 1: "1z123m456m789m1s1s9p"}, draws={0: "9p", 4: "9p"}, avoid="9p1s"))
    play(m2, "0 discard 1z", "1 discard 1z", "2 discard 1z", "3 discard 1z")
    draw_until(m2, 5)
    assert m2.to_act == 1 and "win" in legal(m2)
    play(m2, "1 win")
    assert sorted(payments(m2, "shaozhuang")) == [("shaozhuang", 0, p, 10) for p in (1, 2, 3)]
    zero_sum(m2)


def test_b6_shaozhuang_doubles_each_further_round_in_version_a():
    hands = {s: "1z2z" for s in range(4)}
    m = match(rules(A), wall(0, hands))
    for t in ("1z", "2z"):
        for s in range(4):
            while m.to_act != s or m.phase != "turn":
                tsumogiri(m)
            play(m, f"{s} discard {t}")
    assert [e["rounds"] for e in events_of(m, "shaozhuang")] == [1, 2]


def test_b6_follow_wind_in_version_a():
    """B6 option shaozhuang_follow_wind: after the dealer's first discard of a wind, a player
    holding it must make it their first discard."""
    m = match(rules(A), wall(0, {0: "1z", 1: "1z"}))
    play(m, "0 discard 1z")
    assert [a for a in legal(m, 1) if a.startswith("discard")] == ["discard 1z"]
    m2 = match(rules(B), wall(0, {0: "1z", 1: "1z"}))
    play(m2, "0 discard 1z")
    assert len([a for a in legal(m2, 1) if a.startswith("discard")]) > 1


def test_b6_mutual_liability_in_version_a():
    """互包 (B6, version A): three melds claimed from one player tie the two: if either wins, the
    other pays all of it."""
    m = match(rules(A), wall(0, {0: "1z2z3z", 1: "1z1z2z2z3z3z123m5p9s8s7s"}, draws={9: "5p"},
                              avoid="1z2z3z5p"))
    for wind, spare in (("1z", "9s"), ("2z", "8s"), ("3z", "7s")):
        while not (m.to_act == 0 and m.phase == "turn"):
            tsumogiri(m)
        play(m, f"0 discard {wind}", f"1 pon {wind}", f"1 discard {spare}")
    assert m.liable == {1: 0, 0: 1}
    draw_until(m, 10)
    assert m.to_act == 1 and drawn(m, 1) == "5p"
    play(m, "1 win")
    v = hora(m)["value"]
    assert payments(m) == [("win", 0, 1, 3 * v)]  # seat 0 pays the three shares alone
    zero_sum(m)


def test_b6_upstairs_doubles_after_a_drawn_hand_until_norths_dealership_ends():
    """上楼 (B6): after a drawn hand every payment is doubled; a second drawn hand does not double
    again; when the deal passes from North to East it is over."""
    win = {1: "123m456m789m123p5s"}
    m = match(rules(hands=3), wall(), wall(0, win, draws={4: "5s"}, indicator="1z"),
              wall(1, {}))
    run_out(m)  # hand 1 drawn: upstairs from now on
    assert m.upstairs and m.events[-1]["upstairs"] is True
    draw_until(m, 5)
    play(m, "1 win")
    v = hora(m)["value"]
    assert sorted(payments(m)) == [("win", p, 1, 2 * v) for p in (0, 2, 3)]
    assert m.dealer == 1 and m.upstairs  # still upstairs: North's dealership has not ended


def test_b6_upstairs_ends_when_the_deal_passes_from_north_to_east():
    """上楼 lasts until North's dealership ends: a drawn hand, then the next seat wins each hand."""
    def won_by_next(dealer: int) -> tuple[list[int], object]:
        return wall(dealer, {(dealer + 1) % 4: "123m456m789m123p5s"}, draws={4: "5s"}, indicator="1z")

    m = match(rules(hands=6), wall(), won_by_next(0), won_by_next(1), won_by_next(2), won_by_next(3), wall())
    run_out(m)
    ups = []
    for _ in range(4):
        draw_until(m, 5)
        ups.append((m.dealer, m.upstairs))
        play(m, f"{m.to_act} win")
    assert ups == [(0, True), (1, True), (2, True), (3, True)]
    assert m.dealer == 0 and m.round == 1 and not m.upstairs and m.events[-1]["upstairs"] is False


def test_b7_the_dealer_keeps_the_deal_after_a_drawn_hand():
    m = match(rules(hands=2), wall(), wall())
    run_out(m)
    assert m.dealer == 0 and m.events[-1]["type"] == "start_kyoku" and m.events[-1]["dealer"] == 0
    assert m.events[-1]["upstairs"] is True  # 上楼 after a drawn hand (B6)


def test_illegal_actions_change_nothing():
    m = match(rules(), wall(0, {0: "3m", 1: "2m4m"}))
    before = (len(m.events), m.to_act, m.phase)
    for bad in ("1 discard 3m", "0 chi 2m", "0 win", "0 pon 3m"):
        seat, act = bad.split(" ", 1)
        with pytest.raises(IllegalAction):
            m.apply(int(seat), act)
        assert (len(m.events), m.to_act, m.phase) == before
    play(m, "0 discard 3m")
    with pytest.raises(IllegalAction):
        m.apply(1, "chi 4m")  # 4m5m6m does not hold the discard's partners
    assert legal(m, 1) == ["chi 2m", "pass"]


def test_b7_the_dealer_keeps_the_deal_after_winning_and_passes_it_otherwise():
    m = match(rules(hands=2), wall(0, {0: "123m456m789m123p5s"}, draws={3: "5s"}, indicator="1z"), wall(0))
    keep = [t for t in (["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5s"])]
    play(m, f"0 {other_discard(m, *keep)}")
    draw_until(m, 4)
    assert m.to_act == 0
    play(m, "0 win")
    assert "DEALER" in hora(m)["elements"] and m.dealer == 0  # 庄胡, and the deal stays (B7)


def test_b5_tianhe_and_dihe_are_flat_40():
    """天和: the dealer wins on the dealt 14; 地和: a non-dealer on their first draw, before any
    claim or kong (B5)."""
    m = match(rules(), wall(0, {0: "123m456m789m123p5s5s"}, indicator="1z"))
    assert "win" in legal(m, 0)
    play(m, "0 win")
    assert (hora(m)["value"], hora(m)["elements"]) == (40, ["TIANHE"])
    m2 = match(rules(), wall(0, {1: "123m456m789m123p5s"}, draws="5s", indicator="1z"))
    play(m2, f"0 {[a for a in legal(m2) if a.startswith('discard')][-1]}")  # an honour nobody wants
    play(m2, "1 win")
    assert (hora(m2)["value"], hora(m2)["elements"]) == (40, ["DIHE"])
    assert sorted(payments(m2)) == [("win", p, 1, 40) for p in (0, 2, 3)]


def test_b5_haidi_on_the_last_tile_a_normal_draw_may_take():
    """海底捞月 (B5, B1): self-drawn on the last tile before the reserve line."""
    m = match(rules(), wall(0, {1: "123m456m789m123p5s"}, indicator="1z", avoid="5s"))
    # every normal draw is quiet until the last one, which seat 1 must make: find it and put 5s there
    left = m._wall_left()
    n_draws = left  # draws still possible, the first one seat 1's
    last_drawer = (1 + n_draws - 1) % 4
    assert last_drawer in range(4)
    m = match(rules(), wall(0, {last_drawer: "123m456m789m123p5s"}, draws={n_draws - 1: "5s"}, indicator="1z",
                           avoid="5s"))
    while not (m.phase == "turn" and m._wall_left() == 0 and m.to_act == last_drawer):
        tsumogiri(m)
    assert drawn(m, last_drawer) == "5s" and "win" in legal(m)
    play(m, f"{last_drawer} win")
    h = hora(m)
    assert h["last_tile"] and "HAIDI" in h["elements"]


def test_b5_gangkai_after_a_concealed_kong():
    """杠上开花 (B5): the replacement draw after one's kong completes the hand."""
    m = match(rules(), wall(0, {0: "1111m456m789m123p5s"}, indicator="5s"))  # 混坯 5s: the first replacement
    play(m, "0 ankong 1m")
    assert drawn(m, 0) == "5s" and "win" in legal(m)
    play(m, "0 win")
    h = hora(m)
    assert h["kong_draw"] and "GANGKAI" in h["elements"] and "ZIMO" in h["elements"]
