"""One scripted scenario per rule of the engine (RULES.md R2–R9), each on a scripted wall.

The walls come from :func:`tests.scripted.script_wall`: the tiles named in a test are placed in the
hands, head draws and replacement draws; every other dealt tile is a "quiet" one (no pair, no wild,
no sequence shape), so nothing happens that the test did not script.  Unless a test says otherwise
the indicator is 7z (白): the wilds are 7z and 5z (中).
"""

import pytest

from tjmj.families.tianjin.score import score
from tjmj.game import IllegalAction, Match
from tjmj.record import replay
from tjmj.rules import CLASSIC, YIYOU, Rules

from .scripted import (
    draw_until,
    drawn,
    events_of,
    last_end,
    legal,
    make_dice,
    payments,
    play,
    run_out,
    script_wall,
    scripted_match,
    start,
    tsumogiri,
)


def one_hand(rules: Rules = CLASSIC, **kw) -> Rules:
    return rules.replace(match_hands=1, **kw)


def zero_sum(m: Match) -> None:
    """R8: every hand's payments sum to zero."""
    for e in events_of(m, "end_kyoku"):
        assert sum(e["deltas"]) == 0
        assert all(p["amount"] > 0 and p["payer"] != p["payee"] for p in e["payments"])


def since(m: Match, n: int, type_: str) -> list[dict]:
    return events_of(m, type_, n)


# ---- R3 / R4: turns and claims ---------------------------------------------------------------


def test_r3_turn_order_e_s_w_n():
    """R3: play goes E→S→W→N (seats 0, 1, 2, 3); the dealer starts with 14 and discards first."""
    m = scripted_match(one_hand(), script_wall(0, {0: "1z"}))
    assert m.phase == "turn" and m.to_act == 0
    assert [e["type"] for e in m.events[-1:]] == ["start_kyoku"]
    assert m.observation(0)["seats"][0]["hand_size"] == 14
    n = len(m.events)
    play(m, "0 discard 1z")
    tsumogiri(m, 8)
    assert [e["actor"] for e in since(m, n, "tsumo")] == [1, 2, 3, 0, 1, 2, 3, 0, 1]
    assert [e["actor"] for e in since(m, n, "dahai")] == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    zero_sum(m)


def test_r4_pon_claimer_discards_without_drawing():
    """R4: after a pon the claimer discards without drawing; play continues from the claimer's next seat."""
    m = scripted_match(one_hand(), script_wall(0, {0: "6z", 2: "66z"}))
    play(m, "0 discard 6z")
    # seat 1 (next) holds none: the claim is seat 2's
    assert m.phase == "claim" and m.to_act == 2
    assert legal(m) == ["pon 6z", "pass"]
    assert m.legal_actions(1) == [] and m.legal_actions(0) == []
    n = len(m.events)
    play(m, "2 pon 6z")
    assert m.phase == "turn" and m.to_act == 2
    assert since(m, n, "tsumo") == []  # no draw
    assert m.observation(2)["drawn"] is None
    assert all(a.startswith("discard ") for a in legal(m))  # no win, no kong after a pon
    obs = m.observation(2)
    assert obs["seats"][2]["melds"] == ["[666z]"] and obs["seats"][2]["hand_size"] == 11
    discard = legal(m)[0].split()[1]
    play(m, f"2 discard {discard}")
    # seat 3 draws next: seat 1 is skipped
    assert [e["actor"] for e in since(m, n, "tsumo")] == [3]
    tsumogiri(m, 3)
    assert [e["actor"] for e in since(m, n, "tsumo")] == [3, 0, 1, 2]
    zero_sum(m)


def test_r4_pass_keeps_the_order():
    """R4: a claim may be passed; the discarder's next seat draws as usual."""
    m = scripted_match(one_hand(), script_wall(0, {0: "6z", 2: "66z"}))
    n = len(m.events)
    play(m, "0 discard 6z", "2 pass")
    assert [e["actor"] for e in since(m, n, "tsumo")] == [1]
    zero_sum(m)


def test_r4_r6_discard_kong_replacement_and_points():
    """R4: a discard kong is followed by a replacement draw from the tail; R6: 明杠 1 from each other player."""
    m = scripted_match(one_hand(), script_wall(0, {0: "6z", 2: "666z"}, replacements="9s"))
    play(m, "0 discard 6z")
    assert m.to_act == 2 and legal(m) == ["pon 6z", "kong 6z", "pass"]
    n = len(m.events)
    play(m, "2 kong 6z")
    assert [e["type"] for e in m.events[n:]] == ["daiminkan", "tsumo"]
    t = m.events[-1]
    assert t["actor"] == 2 and t["replacement"] is True and t["pai"] == "9s"
    assert m.to_act == 2 and drawn(m, 2) == "9s"
    assert m.observation(0)["seats"][2]["melds"] == ["[6666z]"]
    play(m, "2 discard 9s")
    assert [e["actor"] for e in since(m, n, "tsumo")] == [2, 3]  # then the claimer's next seat
    run_out(m)
    assert sorted(payments(m, "kong")) == [("kong", p, 2, 1) for p in (0, 1, 3)]
    zero_sum(m)


def test_r4_r6_added_kong():
    """R4: an added kong (加杠) onto one's pon with the drawn 4th tile, then a replacement; R6: 1 point each."""
    w = script_wall(0, {0: "6z", 2: "66z"}, draws={3: "6z"}, replacements="9s")
    m = scripted_match(one_hand(), w)
    play(m, "0 discard 6z", "2 pon 6z")
    play(m, f"2 discard {legal(m)[0].split()[1]}")
    tsumogiri(m, 3)  # seats 3, 0, 1
    assert m.to_act == 2 and drawn(m, 2) == "6z"
    assert "added_kong 6z" in legal(m)
    n = len(m.events)
    play(m, "2 added_kong 6z")
    assert [e["type"] for e in m.events[n:]] == ["kakan", "tsumo"]
    assert m.events[-1]["replacement"] and m.events[-1]["pai"] == "9s"
    assert m.observation(2)["seats"][2]["melds"] == ["[6666z+]"]
    play(m, "2 discard 9s")
    run_out(m)
    assert sorted(payments(m, "kong")) == [("kong", p, 2, 1) for p in (0, 1, 3)]
    zero_sum(m)


@pytest.mark.parametrize("pay_on_draw", [True, False])
def test_r4_r6_concealed_kong_and_points_in_drawn_hand(pay_on_draw):
    """R4 暗杠 with a replacement draw; R6: 2 points from each other player, also in a drawn hand
    (`kong_pay_on_draw`); R9: a drawn hand where only the dealer konged keeps the deal."""
    rules = CLASSIC.replace(kong_pay_on_draw=pay_on_draw, match_hands=2)
    m = scripted_match(rules, script_wall(0, {0: "1111m"}, replacements="9s"))
    assert "ankong 1m" in legal(m)
    n = len(m.events)
    play(m, "0 ankong 1m")
    assert [e["type"] for e in m.events[n:]] == ["ankan", "tsumo"]
    assert m.events[n]["gold"] is False and m.events[-1]["replacement"] and m.events[-1]["pai"] == "9s"
    assert m.observation(1)["seats"][0]["melds"] == ["(1111m)"]
    tsumogiri(m)
    end = run_out(m)
    assert events_of(m, "ryukyoku")
    expected = [("kong", p, 0, 2) for p in (1, 2, 3)] if pay_on_draw else []
    assert sorted(payments(m, "kong")) == expected
    assert end["deltas"] == ([6, -2, -2, -2] if pay_on_draw else [0, 0, 0, 0])
    assert m.dealer == 0  # R9
    zero_sum(m)


@pytest.mark.parametrize(("rules", "points"), [(CLASSIC, 8), (YIYOU, 4)])
def test_r2_r6_gold_kong(rules, points):
    """R2: four identical wilds may be konged concealed (金杠); R6: gold_kong_points (8 classic, 4 yiyou)."""
    m = scripted_match(one_hand(rules), script_wall(0, {0: "5555z"}, replacements="9s"))
    assert "ankong 5z" in legal(m)
    play(m, "0 ankong 5z")
    assert events_of(m, "ankan")[-1]["gold"] is True
    tsumogiri(m)
    run_out(m)
    assert sorted(payments(m, "kong")) == [("kong", p, 0, points) for p in (1, 2, 3)]
    zero_sum(m)


# ---- R2: wild discards ----------------------------------------------------------------------


def test_r2_no_claim_of_a_wild_discard():
    """R2: a player may not pon a discarded wild (nor kong it)."""
    for held in ("55z", "555z"):
        m = scripted_match(one_hand(), script_wall(0, {0: "5z", 2: held}))
        n = len(m.events)
        play(m, "0 discard 5z")
        assert m.phase == "turn" and m.to_act == 1
        assert [e["actor"] for e in since(m, n, "tsumo")] == [1]
        assert m.events[n]["wild"] is True
        assert m.observation(1)["seats"][0]["xiaoxianggong"] is True


@pytest.mark.parametrize("penalty", [0, 1])
def test_r2_xiaoxianggong_cannot_win_but_may_pon(penalty):
    """R2: discarding a wild makes the player 小相公: no win for the rest of the hand, pon still allowed;
    option `wild_discard_penalty`: the discarder pays each other player that many units."""
    # dealer: 123m 456p 789s 11z 3p 8s + the wild 5z (not complete: no 天胡)
    w = script_wall(0, {0: "123m456p789s11z3p8s5z"}, draws={3: "2p", 7: "1p", 10: "1z"}, avoid="1z1p2p",
                    park="1z5z5z5z7z7z7z")  # no other wild is drawn: the dealer's 5z is the only wild discard
    m = scripted_match(one_hand(wild_discard_penalty=penalty), w)
    assert "win" not in legal(m)
    play(m, "0 discard 5z")
    assert m.observation(0)["seats"][0]["xiaoxianggong"] is True
    assert draw_until(m, 4) == 0 and drawn(m, 0) == "2p"
    play(m, "0 discard 8s")
    assert draw_until(m, 8) == 0 and drawn(m, 0) == "1p"
    # 123m 456p 789s 123p 11z: complete, no wild (没混儿, fan 2) — a win for anyone but a 小相公
    r = score("123m456p789s23p11z", "1p", "7z")
    assert r.win and r.fan == 2
    assert "win" not in legal(m)
    play(m, "0 discard 1p")
    assert draw_until(m, 11) == 3 and drawn(m, 3) == "1z"
    play(m, "3 discard 1z")
    assert m.phase == "claim" and m.to_act == 0 and "pon 1z" in legal(m)
    play(m, "0 pon 1z")
    assert m.observation(0)["seats"][0]["melds"] == ["[111z]"]
    play(m, "0 discard 1m")
    run_out(m)
    expected = [("penalty", 0, p, 1) for p in (1, 2, 3)] if penalty else []
    assert sorted(payments(m, "penalty")) == expected
    zero_sum(m)


# ---- R4: last_tiles_no_claim -------------------------------------------------------------------


@pytest.mark.parametrize("rules", [YIYOU, CLASSIC])
def test_r4_last_tiles_no_claim(rules):
    """R4 `last_tiles_no_claim` (yiyou 4): with that many or fewer head tiles left, no pon or discard
    kong; an added kong still is allowed.  Classic (0): claims until the end."""
    # default dice: 67 head draws.  Seat 2 pons the dealer's 6z, so head draw n goes to seat (3 + n) % 4.
    w = script_wall(0, {0: "6z", 2: "66z", 3: "88p"}, draws={1: "8p", 62: "8p", 63: "6z"}, replacements="9s",
                    avoid="6z8p")
    m = scripted_match(one_hand(rules), w)
    play(m, "0 discard 6z", "2 pon 6z")
    play(m, f"2 discard {legal(m)[0].split()[1]}")
    assert draw_until(m, 2) == 0 and drawn(m, 0) == "8p"
    play(m, "0 discard 8p")
    assert m.phase == "claim" and m.to_act == 3  # 65 head tiles left: a claim
    play(m, "3 pass")
    assert draw_until(m, 63) == 1 and drawn(m, 1) == "8p"
    assert m.wall.live_count == 4 == m.observation(1)["wall_left"]
    play(m, "1 discard 8p")
    if rules.last_tiles_no_claim == 4:
        assert m.phase == "turn" and m.to_act == 2  # 4 left: no pon for seat 3
        assert drawn(m, 2) == "6z" and "added_kong 6z" in legal(m)  # the added kong is still allowed
        play(m, "2 added_kong 6z")
        assert m.observation(0)["seats"][2]["melds"] == ["[6666z+]"]
    else:
        assert m.phase == "claim" and m.to_act == 3 and legal(m) == ["pon 8p", "pass"]
    zero_sum(m)


# ---- R5: winning -------------------------------------------------------------------------------


@pytest.mark.parametrize(("overrides", "wins"), [({}, False), ({"min_fan": 1}, True)])
def test_r5_2_dead_tiliu_not_offered(overrides, wins):
    """R5.2: a win needs fan ≥ min_fan: the R5.4 死提溜 (fan 1) is not offered under min_fan 2."""
    w = script_wall(0, {0: "1z", 1: "123m678p999p3s4p22z"}, draws={0: "9m", 4: "2s"}, indicator="4p", avoid="1z",
                    park="9p2z2z")
    m = scripted_match(one_hand(**overrides), w)
    play(m, "0 discard 1z")
    assert drawn(m, 1) == "9m" and "win" not in legal(m)
    play(m, "1 discard 9m")
    assert draw_until(m, 5) == 1 and drawn(m, 1) == "2s"
    assert ("win" in legal(m)) is wins
    if wins:
        play(m, "1 win")
        h = events_of(m, "hora")[-1]
        assert (h["fan"], h["tianhu"], h["kong_draw"]) == (1, False, False)
        assert sorted(payments(m)) == [("win", p, 1, 1) for p in (0, 2, 3)]
    zero_sum(m)


@pytest.mark.parametrize(("overrides", "wins"), [({}, True), ({"hundiao_alone_wins": False}, False)])
def test_r5_2_hundiao_wins_unless_option(overrides, wins):
    """R5.4 混儿吊 (fan 2) wins under min_fan 2; not under `hundiao_alone_wins: false` (R5.2)."""
    w = script_wall(0, {0: "1z", 1: "123m678p999p234s4p"}, draws={0: "9m", 4: "7z"}, indicator="4p", avoid="1z",
                    park="9p")
    m = scripted_match(one_hand(**overrides), w)
    play(m, "0 discard 1z", "1 discard 9m")
    assert draw_until(m, 5) == 1 and drawn(m, 1) == "7z"
    assert ("win" in legal(m)) is wins
    if wins:
        play(m, "1 win")
        h = events_of(m, "hora")[-1]
        assert (h["fan"], h["elements"]) == (2, ["HUNDIAO"])
    zero_sum(m)


def test_r5_1_gangkai_after_concealed_kong():
    """R5.1/R5.4 杠开: the winning tile is a kong replacement draw (fan 2); R6 kong points come on top;
    R9 the dealer wins and keeps the deal."""
    w = script_wall(0, {0: "123m678p3s4p22z9999p"}, replacements="2s", indicator="4p")
    m = scripted_match(CLASSIC.replace(match_hands=2), w)
    assert "win" not in legal(m)
    play(m, "0 ankong 9p")
    assert drawn(m, 0) == "2s" and "win" in legal(m)
    play(m, "0 win")
    h = events_of(m, "hora")[-1]
    assert (h["fan"], h["kong_draw"], h["elements"], h["name"], h["tianhu"]) == (2, True, ["GANGKAI"], "杠开", False)
    assert h["melds"] == ["(9999p)"] and h["pai"] == "2s"
    assert sorted(payments(m)) == sorted([("win", p, 0, 2) for p in (1, 2, 3)] + [("kong", p, 0, 2) for p in (1, 2, 3)])
    assert m.dealer == 0
    zero_sum(m)


@pytest.mark.parametrize(("rules", "fan"), [(CLASSIC, 4), (YIYOU, 8)])
def test_r5_5_tianhu_dealer(rules, fan):
    """R5.5 天胡: the dealer's dealt 14 form a complete hand: flat 4 (classic) or 4 × best (yiyou: 没混儿 2 → 8)."""
    m = scripted_match(one_hand(rules), script_wall(0, {0: "123m456p789s111z22z"}))
    assert "win" in legal(m)
    play(m, "0 win")
    h = events_of(m, "hora")[-1]
    assert h["tianhu"] is True and h["fan"] == fan and "TIANHU" in h["elements"]
    assert sorted(payments(m)) == [("win", p, 0, fan) for p in (1, 2, 3)]
    zero_sum(m)


def test_r5_5_tianhu_non_dealer_first_draw_any_shape():
    """R5.5: a non-dealer's first draw completing the hand before any pon/kong is 天胡; 提溜 included."""
    # 123m 456p 78s 111z 22z + the wild 5z (as 9s or 6s): a plain 提溜, fan 1
    w = script_wall(0, {0: "3z", 1: "123m456p78s111z22z"}, draws={0: "5z"}, avoid="3z", park="1z2z2z")
    m = scripted_match(one_hand(), w)
    play(m, "0 discard 3z")
    assert m.to_act == 1 and drawn(m, 1) == "5z"
    assert "win" in legal(m)
    play(m, "1 win")
    h = events_of(m, "hora")[-1]
    assert (h["tianhu"], h["fan"], h["actor"]) == (True, 4, 1)
    assert sorted(payments(m)) == [("win", p, 1, 4) for p in (0, 2, 3)]
    zero_sum(m)


def test_r5_5_no_tianhu_after_a_pon():
    """R5.5: once someone has ponged, a first draw is no 天胡: the same 提溜 then cannot win (R5.2)."""
    w = script_wall(0, {0: "6z", 1: "123m456p78s111z22z", 3: "66z"}, draws={1: "5z"}, avoid="6z", park="6z1z2z2z")
    m = scripted_match(one_hand(), w)
    play(m, "0 discard 6z", "3 pon 6z")
    play(m, f"3 discard {legal(m)[0].split()[1]}")
    tsumogiri(m)  # seat 0
    assert m.to_act == 1 and drawn(m, 1) == "5z"
    assert "win" not in legal(m)
    zero_sum(m)


# ---- R7: 铲, sit and pull ------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "pulls", "expected"), [
    (CLASSIC, (1, 0, 0), [4, 2, 2]),  # chan_units 1 × (sat 2 × 2^pulls)
    (YIYOU, (2, 1, 0), [16, 8, 4]),  # chan_units 2
])
def test_r7_chan_paid_in_drawn_hand_with_multipliers(rules, pulls, expected):
    """R7 铲: the dealer's first discard followed by the same kind from each other seat in turn, no claim
    between: the dealer pays each non-dealer chan_units × m (R8), also when the hand is drawn."""
    w = script_wall(0, {0: "1z", 1: "1z", 2: "1z", 3: "1z"}, avoid="1z")
    m = scripted_match(one_hand(rules), w, sit=1, pulls=pulls)
    play(m, "0 discard 1z", "1 discard 1z", "2 discard 1z")
    assert not events_of(m, "chan")
    play(m, "3 discard 1z")
    assert events_of(m, "chan")[-1]["actor"] == 0
    run_out(m)
    assert events_of(m, "ryukyoku")
    assert sorted(payments(m, "chan")) == [("chan", 0, p, a) for p, a in zip((1, 2, 3), expected)]
    zero_sum(m)


def test_r7_no_chan_when_a_seat_breaks_the_run():
    """R7: all three others must follow with the same kind in turn."""
    w = script_wall(0, {0: "1z", 1: "1z", 2: "1z", 3: "1z"}, avoid="1z")
    m = scripted_match(one_hand(), w)
    play(m, "0 discard 1z", "1 discard 1z", "2 discard 1z")
    tsumogiri(m)  # seat 3 keeps its 1z
    run_out(m)
    assert not events_of(m, "chan") and payments(m, "chan") == []
    zero_sum(m)


def test_r8_multipliers_sit_and_pulls():
    """R8: m = 1, ×2 if the dealer sat, ×2 per pull between the dealer and the puller (sat + 1 pull = 4,
    sat + 2 pulls = 8); non-dealers between themselves 1.  R7 `max_pull` bounds the pulls."""
    m = Match(CLASSIC, 1)
    assert m.phase == "sit" and legal(m, 0) == ["sit 1", "sit 0"]
    m.apply(0, "sit 1")
    assert m.phase == "pull" and legal(m) == ["pull 0", "pull 1"]
    with pytest.raises(IllegalAction):
        m.apply(1, "pull 2")  # max_pull 1 in classic
    start(m, pulls=(1, 0, 1))
    assert [m.multiplier(0, s) for s in (1, 2, 3)] == [4, 2, 4]
    assert m.multiplier(1, 2) == m.multiplier(3, 1) == 1
    y = Match(YIYOU, 1)
    y.apply(0, "sit 1")
    assert legal(y) == ["pull 0", "pull 1", "pull 2"]
    start(y, pulls=(2, 0, 1))
    assert [y.multiplier(s, 0) for s in (1, 2, 3)] == [8, 2, 4]
    n = Match(CLASSIC, 1)
    start(n, sit=0, pulls=(1, 0, 0))
    assert [n.multiplier(0, s) for s in (1, 2, 3)] == [2, 1, 1]
    zero_sum(m)


def test_r8_multipliers_on_a_win():
    """R8: each of the others pays the winner fan × base × m (天胡 4 fan, base 2)."""
    m = scripted_match(one_hand(base=2), script_wall(0, {0: "123m456p789s111z22z"}), sit=1, pulls=(1, 0, 1))
    play(m, "0 win")
    assert sorted(payments(m)) == [("win", 1, 0, 32), ("win", 2, 0, 16), ("win", 3, 0, 32)]
    assert last_end(m)["deltas"] == [80, -32, -16, -32]
    zero_sum(m)


def test_r7_forced_sit():
    """R7 `forced_sit` (死坐庄): the dealer always sits; no sit decision is asked."""
    m = Match(CLASSIC.replace(forced_sit=True), 1)
    assert m.phase == "pull" and m.sit is True and m.to_act == 1
    with pytest.raises(IllegalAction):
        m.apply(0, "sit 0")
    zero_sum(m)


def tianhu_wall(dealer: int, winner: int) -> tuple[list[int], object]:
    """A wall on which ``winner`` wins 天胡 at once: the dealer's 14, or the first draw after the dealer's 3z."""
    if winner == dealer:
        return script_wall(dealer, {dealer: "123m456p789s111z22z"}, dice=make_dice(dealer))
    return script_wall(dealer, {dealer: "3z", winner: "123m456p789s111z2z"}, draws={(winner - dealer) % 4 - 1: "2z"},
                       avoid="3z", dice=make_dice(dealer))


def win_at_once(m: Match, winner: int) -> None:
    if m.to_act != winner:
        k = (winner - m.to_act) % 4 - 1
        play(m, f"{m.to_act} discard 3z")
        tsumogiri(m, k)
    assert m.to_act == winner and "win" in legal(m)
    play(m, f"{winner} win")


def test_r7_sat_dealer_who_keeps_the_deal_sits_again():
    """R7: a dealer who sat and keeps the deal must sit again until losing it (also after a drawn hand)."""
    walls = [tianhu_wall(0, 0), script_wall(0, {}), tianhu_wall(0, 1), tianhu_wall(1, 2)]
    m = Match(CLASSIC.replace(match_hands=4), 1, walls=walls)
    start(m, sit=1)
    win_at_once(m, 0)  # the dealer wins: keeps the deal
    assert m.dealer == 0 and m.phase == "pull" and m.sit is True  # no sit decision: sits again
    start(m)
    run_out(m)  # a drawn hand without kongs: keeps the deal
    assert m.dealer == 0 and m.phase == "pull" and m.sit is True
    start(m)
    win_at_once(m, 1)  # another wins: the deal passes, the new dealer chooses
    assert m.dealer == 1 and m.phase == "sit" and m.to_act == 1
    start(m, sit=0)
    assert m.sit is False
    zero_sum(m)


# ---- R9: rotation and match length ------------------------------------------------------------


def test_r9_rotation_round_and_match_length_in_rounds():
    """R9: another's win passes the deal to the dealer's next seat; a round ends when it passes from the
    fourth dealer back to the first; `match_rounds`; R3 the turn order starts from each dealer."""
    walls = [tianhu_wall(d, (d + 1) % 4) for d in range(4)]
    m = Match(CLASSIC.replace(match_rounds=1), 1, walls=walls)
    for d in range(4):
        assert m.dealer == d and m.round == 0 and not m.is_over
        start(m)
        n = len(m.events)
        win_at_once(m, (d + 1) % 4)
        assert [e["actor"] for e in since(m, n, "tsumo")] == [(d + 1) % 4]
    assert m.is_over and m.round == 1 and m.dealer == 0 and m.to_act == -1
    assert events_of(m, "end_game") and m.hand_number == 4
    assert [e["dealer"] for e in events_of(m, "start_kyoku")] == [0, 1, 2, 3]
    zero_sum(m)


def test_r9_match_length_in_hands():
    """R9: match length as a number of hands (`match_hands`)."""
    m = Match(CLASSIC.replace(match_hands=2), 1, walls=[script_wall(0, {}), script_wall(0, {})])
    start(m)
    run_out(m)
    assert not m.is_over and m.hand_number == 1
    start(m)
    run_out(m)
    assert m.is_over and m.phase == "over" and events_of(m, "end_game")
    with pytest.raises(IllegalAction):
        m.apply(0, "sit 0")
    zero_sum(m)


def test_r9_drawn_hand_with_non_dealer_kong_passes_deal():
    """R9: a drawn hand keeps the deal unless a non-dealer made a kong in it."""
    m = scripted_match(CLASSIC.replace(match_hands=3), script_wall(0, {1: "4444m"}, replacements="9s", avoid="4m"),
                       script_wall(1, {}, dice=make_dice(1)))
    tsumogiri(m)  # the dealer's first discard
    assert m.to_act == 1 and "ankong 4m" in legal(m)
    play(m, "1 ankong 4m")
    run_out(m)
    assert m.dealer == 1 and m.hand_number == 1
    start(m)
    run_out(m)
    assert m.dealer == 1  # a drawn hand without kongs keeps the deal
    zero_sum(m)


# ---- R3: exhaustion ------------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "draws", "left"), [("dice", 67, 15), ("flip", 82, 0)])
def test_r3_exhaustion(method, draws, left):
    """R3: dice mode — head draws stop before the indicator's stack (d = 8: 67 draws, the 15 reserve
    tiles stay); flip mode — the hand is exhausted when no tile is left."""
    rules = one_hand(wild_method=method)
    m = scripted_match(rules, script_wall(0, {}, wild_method=method))
    end = run_out(m)
    tsumo = [e for e in m.events if e["type"] == "tsumo"]
    assert len(tsumo) == draws and not any(e["replacement"] for e in tsumo)
    assert events_of(m, "ryukyoku")[-1]["reason"] == "exhausted"
    assert m.wall.remaining == left and m.wall.live_count == 0
    assert end["deltas"] == [0, 0, 0, 0]
    zero_sum(m)


def test_r3_replacements_beyond_reserve_take_one_live_tile_each():
    """R3: in dice mode with d = 2 the reserve holds 3 tiles; a 4th replacement "continues from the end of
    the live wall", which then has one tile fewer for head draws (79 − 1 = 78), not two."""
    dice = make_dice(0, indicator=(1, 1))
    w = script_wall(0, {0: "1111m2222m3333m4m5m"}, replacements="4m4m4m9s", dice=dice)
    m = scripted_match(one_hand(), w)
    play(m, "0 ankong 1m", "0 ankong 2m", "0 ankong 3m")
    assert drawn(m, 0) == "4m" and m.wall.live_count == 136 - 53 - 4  # the reserve was enough so far
    play(m, "0 ankong 4m")
    assert drawn(m, 0) == "9s"
    assert m.wall.live_count == 136 - 53 - 4 - 1
    run_out(m)
    assert sum(1 for e in m.events if e["type"] == "tsumo" and not e["replacement"]) == 78
    zero_sum(m)


# ---- R8: pot settlement -----------------------------------------------------------------------


POT_WALL = dict(
    hands={0: "1z", 1: "1z222m", 2: "1z345m456p789s22z3z", 3: "1z"},
    # head draws: seat 1 (2m: a concealed kong), 2 (3z), 3, 0, 1, 2 (3z: 没混儿, fan 2)
    draws={0: "2m", 1: "3z", 5: "3z"},
    replacements="9s",
    avoid="1z2m3z2z",
    park="3z2z2z",
)


@pytest.mark.parametrize(("settlement", "deltas", "chan"), [
    ("open", [-7, 5, 5, -3], [("chan", 0, 1, 1), ("chan", 0, 2, 1), ("chan", 0, 3, 1)]),
    # stake 5: the dealer pays the win (2), the kong (2), then what is left (1) of the 铲, in that order
    ("pot", [-5, 5, 4, -4], [("chan", 0, 1, 1)]),
])
def test_r8_pot_settlement_order_win_kongs_chan(settlement, deltas, chan):
    """R8 `settlement: pot`: a player pays at most what is left of their stake, in the order win, kongs, 铲."""
    rules = one_hand(settlement=settlement, pot_stake=5)
    m = scripted_match(rules, script_wall(0, **POT_WALL))
    play(m, "0 discard 1z")
    assert drawn(m, 1) == "2m"
    play(m, "1 ankong 2m", "1 discard 1z")  # a concealed kong is no claim: 铲 goes on
    assert drawn(m, 2) == "3z"
    play(m, "2 discard 1z", "3 discard 1z")
    assert events_of(m, "chan")
    tsumogiri(m, 2)  # seats 0, 1
    assert drawn(m, 2) == "3z" and "win" in legal(m)
    play(m, "2 win")
    h = events_of(m, "hora")[-1]
    assert (h["fan"], h["elements"]) == (2, ["SU"])
    assert sorted(payments(m, "win")) == [("win", p, 2, 2) for p in (0, 1, 3)]
    assert sorted(payments(m, "kong")) == [("kong", p, 1, 2) for p in (0, 2, 3)]
    assert sorted(payments(m, "chan")) == chan
    assert last_end(m)["deltas"] == deltas
    if settlement == "pot":
        assert m.pot_left == [0, 10, 9, 1]
    assert m.dealer == 1  # R9: another won
    zero_sum(m)


def test_bare_claim_names_the_discard_on_offer_r4():
    """R4: "pon" / "kong" without a tile claim the discard on offer; out of a claim they are refused."""
    m = Match(Rules.preset("classic", match_hands=1, max_pull=0, forced_sit=True), seed=3)
    for _ in range(5000):
        if m.is_over:
            break
        seat = m.to_act
        legal = m.legal_actions(seat)
        if m.phase == "claim":
            before = len(m.events)
            m.apply(seat, "pon")
            assert m.events[before]["type"] == "pon"
            return
        if m.phase == "turn":
            with pytest.raises(IllegalAction):
                m.apply(seat, "pon")
        m.apply(seat, next((a for a in legal if a.type == "discard"), legal[0]))
    pytest.fail("no claim arose in the scripted seed")


# ---- R8: no payment of 0 is listed, whatever its kind ---------------------------------------------


def test_r8_r7_chan_units_zero_lists_no_chan_payment():
    """R8 "A payment of 0 is not listed": with `chan_units: 0` a 铲 (R7) still happens (the event is
    recorded) but the dealer pays nothing, so no 0-point chan payment appears; the record replays."""
    w = script_wall(0, {0: "1z", 1: "1z", 2: "1z", 3: "1z"}, avoid="1z")
    m = scripted_match(one_hand(chan_units=0), w, sit=1, pulls=(1, 0, 0))
    play(m, "0 discard 1z", "1 discard 1z", "2 discard 1z", "3 discard 1z")
    assert events_of(m, "chan")[-1]["actor"] == 0
    end = run_out(m)
    assert payments(m, "chan") == []
    assert all(p["amount"] > 0 for p in end["payments"])
    assert end["deltas"] == [0, 0, 0, 0]
    zero_sum(m)
    assert replay(m.events).ok, replay(m.events).summary()


@pytest.mark.parametrize(("overrides", "reason"), [
    ({"gold_kong_points": 0}, "kong"),  # R6: a 金杠 worth 0 points
    ({"wild_discard_penalty": 0}, "penalty"),  # R2: no penalty
])
def test_r8_zero_kong_and_penalty_payments_not_listed(overrides, reason):
    """R8: a payment of 0 is not listed — kong points (R6 `gold_kong_points: 0`) and the wild-discard
    penalty (R2) alike; the hand still settles to zero and its record replays."""
    # the dealer kongs its four 5z (gold: 5z is a wild under indicator 7z), then discards a wild 7z
    w = script_wall(0, {0: "5555z7z"}, replacements="9s")
    m = scripted_match(one_hand(**overrides), w)
    play(m, "0 ankong 5z", "0 discard 7z")
    assert events_of(m, "dahai")[-1]["wild"] is True
    end = run_out(m)
    assert payments(m, reason) == []
    assert all(p["amount"] > 0 for p in end["payments"])
    zero_sum(m)
    assert replay(m.events).ok, replay(m.events).summary()


def test_r8_pot_payment_cut_to_zero_not_listed():
    """R8 锅牌: a payer at zero pays nothing more, and that 0 is not listed either."""
    w = script_wall(0, {0: "1z", 1: "1z", 2: "1z", 3: "1z"}, avoid="1z")
    # stake 1, the dealer sat with one pull from seat 1: 铲 of 4, 2, 2 is cut to 1, 0, 0
    m = scripted_match(one_hand(settlement="pot", pot_stake=1), w, sit=1, pulls=(1, 0, 0))
    play(m, "0 discard 1z", "1 discard 1z", "2 discard 1z", "3 discard 1z")
    run_out(m)
    assert payments(m, "chan") == [("chan", 0, 1, 1)]
    zero_sum(m)


# ---- R4: last_tiles_no_claim 0 = no limit ---------------------------------------------------------


@pytest.mark.parametrize(("no_claim", "claims"), [(0, True), (1, False)])
def test_r4_last_tiles_no_claim_zero_means_no_limit(no_claim, claims):
    """R4: `last_tiles_no_claim: 0` (the default) is no limit: a pon or a discard kong is offered even
    with no head tile left; any positive value forbids them at that many head tiles or fewer."""
    assert "0: no limit" in Rules.describe()["last_tiles_no_claim"][2]  # what `tjmj rules` shows
    # default dice: 67 head draws; without claims head draw n goes to seat (n + 1) % 4, so the last
    # one (n = 66) is seat 3's; seat 1 holds three 8p and the 4th is that last draw
    w = script_wall(0, {1: "888p"}, draws={66: "8p"}, avoid="8p")
    m = scripted_match(one_hand(last_tiles_no_claim=no_claim), w)
    assert draw_until(m, 67) == 3 and drawn(m, 3) == "8p"
    assert m.wall.live_count == 0 == m.observation(3)["wall_left"]
    play(m, "3 discard 8p")
    if claims:
        assert m.phase == "claim" and m.to_act == 1
        assert legal(m) == ["pon 8p", "kong 8p", "pass"]
        play(m, "1 kong 8p")  # the replacement comes from the tail reserve (R3)
        assert m.events[-1]["type"] == "tsumo" and m.events[-1]["replacement"] is True
        assert m.to_act == 1
        run_out(m)
    assert events_of(m, "ryukyoku")  # then (or at once, with no claim) the next head draw is missing (R3)
    zero_sum(m)
