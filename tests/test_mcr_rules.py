"""One scripted scenario per rule of Chinese Official mahjong (docs/rules/MCR.md M1–M5) on the engine.

The walls come from :func:`mcr_wall`, the MCR form of :func:`tests.scripted.script_wall`: 144 tiles
in 18 stacks a side (136 in 17 without flowers, M1), the break and the deal of R3, no indicator.  The
tiles a test names are placed in the hands (flowers included), head draws and replacement draws
(from the tail); every other dealt tile is a "quiet" one (no pair, no sequence shape), so nothing
happens that the test did not script; flowers the test does not place lie in the middle of the
wall (from the 46th head draw on).  Every scripted match's record replays (tjmj.record.replay).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from tjmj import families
from tjmj.game import Match
from tjmj.record import check_hora, replay
from tjmj.rules import Rules, RulesError
from tjmj.tiles import FLOWER_TEXT, TILE_TEXT, parse_tiles
from tjmj.wall import Dice

from .scripted import draw_until, drawn, events_of, legal, make_dice, payments, play, run_out, tsumogiri

SEATS = 4


def rules(**kw: object) -> Rules:
    return Rules.preset("mcr", match_hands=kw.pop("hands", 1), **kw)  # type: ignore[arg-type]


def _kinds(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text, flowers=True)] if text else []


def _isolated(k: int, held: set[int]) -> bool:
    return k >= 27 or not any(h < 27 and h // 9 == k // 9 and abs(h - k) <= 2 for h in held)


def mcr_wall(dealer: int = 0, hands: Mapping[int, str] | None = None, draws: str | Mapping[int, str] = "",
             replacements: str = "", flowers: bool = True, seed: int = 0, avoid: str = "",
             dice: Dice | None = None) -> tuple[list[int], Dice]:
    """A scripted MCR wall ``(kinds in ring order, dice)`` for ``Match(walls=...)`` (M1, R3).

    Line (draw order after the break) positions: the deal of R3 (picks of 4 from the dealer, then
    跳牌 on line stacks 24–26), head draws the lowest free positions, replacement draws the tail
    (top then bottom of the last stack, then the one before).  ``hands``: seat → dealt tiles
    (completed quietly, never with a kind in ``avoid``); ``draws``: head draws in order, or draw
    number → tile; ``replacements``: tail draws in order (after a kong or a flower)."""
    n = 144 if flowers else 136
    stacks = n // 2
    dice = dice or make_dice(dealer, wild_method="none")
    dealt: list[list[int]] = [[] for _ in range(SEATS)]
    for rnd in range(3):
        for j in range(SEATS):
            pick = rnd * SEATS + j
            dealt[(dealer + j) % SEATS].extend(range(4 * pick, 4 * pick + 4))
    dealt[dealer] += [2 * 24, 2 * 26]
    for j, pos in zip((1, 2, 3), (2 * 24 + 1, 2 * 25, 2 * 25 + 1), strict=True):
        dealt[(dealer + j) % SEATS].append(pos)
    taken = {p for h in dealt for p in h}
    head = [p for p in range(n) if p not in taken]
    tail = [2 * s + b for s in range(stacks - 1, -1, -1) for b in (0, 1)]
    left = [4] * 34 + ([1] * 8 if flowers else [])
    line: list[int | None] = [None] * n

    def put(pos: int, k: int, what: str) -> None:
        assert line[pos] is None, f"{what}: line position {pos} is already scripted"
        assert left[k] > 0, f"{what}: no {k} left"
        left[k] -= 1
        line[pos] = k

    given = {s: _kinds(t) for s, t in (hands or {}).items()}
    for s, ks in given.items():
        for pos, k in zip(dealt[s], ks):
            put(pos, k, f"hand of seat {s}")
    draw_map = dict(enumerate(_kinds(draws))) if isinstance(draws, str) else {
        i: _kinds(t)[0] for i, t in draws.items()}
    for i, k in draw_map.items():
        put(head[i], k, f"head draw {i}")
    for i, k in enumerate(_kinds(replacements)):
        put(tail[i], k, f"replacement {i}")
    banned = set(_kinds(avoid))
    for s in range(SEATS):
        held = set(given.get(s, []))
        for pos in dealt[s][len(given.get(s, [])):]:
            choices = [k for k in range(34) if k not in held and k not in banned and left[k] > 0]
            k = max(choices, key=lambda k: (_isolated(k, held), left[k], -k))
            put(pos, k, f"quiet fill of seat {s}")
            held.add(k)
    spare = [i for i in head[45:] if line[i] is None]  # the flowers nobody asked for: mid-wall
    for k in range(34, 34 + (8 if flowers else 0)):
        if left[k]:
            put(spare.pop(0), k, "a spare flower")
    rest = [k for k in range(34) for _ in range(left[k])]
    random.Random(seed).shuffle(rest)
    it = iter(rest)
    full = [k if k is not None else next(it) for k in line]
    # the line back to the ring: line stack j is ring stack (break + j) mod stacks (R3)
    start = ((stacks // SEATS) * ((-dice.second_roller) % SEATS) + dice.break_count) % stacks
    ring = [0] * n
    for j in range(stacks):
        r = (start + j) % stacks
        ring[2 * r], ring[2 * r + 1] = full[2 * j], full[2 * j + 1]
    return ring, dice


def match(r: Rules, *walls: tuple[list[int], Dice], seed: int = 1) -> Match:
    return Match(r, seed, walls=list(walls))


def replays(m: Match) -> None:
    """The record so far replays event for event (a hand still in play: up to where it stands)."""
    res = replay(m.events)
    assert res.divergence is None and (res.ok or not m.is_over), res.summary()


def zero_sum(m: Match) -> None:
    for e in events_of(m, "end_kyoku"):
        assert sum(e["deltas"]) == 0
        assert all(p["amount"] > 0 and p["payer"] != p["payee"] for p in e["payments"])


def hora(m: Match) -> dict:
    (h,) = events_of(m, "hora")
    return h


def discard_other(m: Match, *keep: str) -> str:
    """A discard of the seat to act that is none of ``keep``."""
    return next(a for a in legal(m) if a.startswith("discard") and a[8:] not in keep)


# the M5 hand: 清龙 on a 5s single wait
DRAGON = "123m456m789m123p5s"
# 清龙 waiting on 5s alone, holding none
KANCHAN = "123m456m789m11p46s"


# ---- the family and its options ----------------------------------------------------------------


def test_the_mcr_family_and_its_preset():
    r = Rules.preset("mcr")
    assert r.family == "mcr" and families.get("mcr").section == "M" and families.find_family("mcr").name == "mcr"
    assert (r.flowers, r.min_fan, r.base, r.match_hands) == (True, 8, 1, 16)
    assert Rules.from_dict(r.to_dict()) is r
    assert Rules.preset("mcr", flowers=False).name == "mcr+custom"
    with pytest.raises(RulesError, match="min_fan"):
        Rules.preset("mcr", min_fan=-1)
    with pytest.raises(RulesError, match="unknown rule option 'wilds'"):
        Rules.preset("mcr", wilds=True)
    m = Match(r, 1)
    assert type(m) is families.match_type("mcr") and m.events[0]["rules"]["family"] == "mcr"


# ---- M1: tiles, the wall, flowers ---------------------------------------------------------------


@pytest.mark.parametrize(("flowers", "size"), [(True, 144), (False, 136)])
def test_m1_the_wall_18_stacks_a_side_with_flowers_17_without(flowers, size):
    m = Match(rules(flowers=flowers), 5)
    assert len(m.wall.tiles) == size and len(m.wall.stacks_left()) == size // 2
    assert sum(1 for t in m.wall.tiles if t >= 34) == (8 if flowers else 0)
    sk = m.events[1]
    assert sk["type"] == "start_kyoku" and [len(h) for h in sk["tehais"]] == [14, 13, 13, 13]
    assert sk["prevalent_wind"] == 0 and "dora_marker" not in sk and m.wall.dice.indicator is None
    laid = sum(len(st.flower_tiles) for st in m.seats)
    assert m.observation(0)["wall_left"] == size - 53 - laid
    assert all(len(st.hand) == (14 if s == 0 else 13) for s, st in enumerate(m.seats))


def test_m1_the_break_and_the_deal_from_the_head():
    """The scripted layout (R3 with 18 stacks a side) is what the engine deals: hands, then head draws."""
    w = mcr_wall(0, {0: "1m2m3m", 1: "4p"}, draws="9s8s")
    m = match(rules(), w)
    assert m.observation(0)["hand"][:3] == ["1m", "2m", "3m"]
    assert "4p" in m.observation(1)["hand"]
    play(m, f"0 {discard_other(m)}")
    assert drawn(m, 1) == "9s"


def test_m1_dealt_flowers_are_laid_aside_and_replaced_dealer_first_until_nobody_holds_one():
    """The dealer holds 1f and 2f, seat 2 holds 3f; the dealer's second replacement is 4f, replaced in
    the next pass, after seat 2's."""
    w = mcr_wall(0, {0: "1f2f", 2: "3f"}, replacements="1m4f2m3m")
    m = match(rules(), w)
    seq = [(e["type"], e["actor"], e["pai"]) for e in m.events[2:]]
    assert seq == [
        ("flower", 0, "1f"), ("tsumo", 0, "1m"), ("flower", 0, "2f"), ("tsumo", 0, "4f"),
        ("flower", 2, "3f"), ("tsumo", 2, "2m"),
        ("flower", 0, "4f"), ("tsumo", 0, "3m"),
    ]
    assert all(e["replacement"] for e in events_of(m, "tsumo"))
    assert m.events[1]["tehais"][0][:2] == ["1f", "2f"]  # the record shows the deal as dealt
    obs = m.observation(1)
    assert [s["flowers"] for s in obs["seats"]] == [["1f", "2f", "4f"], [], ["3f"], []]  # public (M1)
    assert [s["hand_size"] for s in obs["seats"]] == [14, 13, 13, 13]
    assert all(not t.endswith("f") for t in m.observation(0)["hand"])
    assert m.phase == "turn" and m.to_act == 0
    replays(m)


def test_m1_a_flower_drawn_is_laid_aside_and_replaced_at_once():
    w = mcr_wall(0, draws="5f9p", replacements="6f2s")
    m = match(rules(), w)
    play(m, f"0 {discard_other(m)}")
    start = max(i for i, e in enumerate(m.events) if e["type"] == "dahai") + 1
    seq = [(e["type"], e.get("pai"), e.get("replacement")) for e in m.events[start:]]
    # 5f from the head, replaced from the tail by 6f, itself replaced by 2s
    assert seq == [("tsumo", "5f", False), ("flower", "5f", None), ("tsumo", "6f", True), ("flower", "6f", None),
                   ("tsumo", "2s", True)]
    assert drawn(m, 1) == "2s" and m.observation(3)["seats"][1]["flowers"] == ["5f", "6f"]
    # another seat sees the flowers, never the tile that replaced them
    seen = [e for e in m.events_for(2, start)]
    assert [e["pai"] for e in seen] == [None, "5f", None, "6f", None]
    tsumogiri(m)
    assert drawn(m, 2) == "9p"  # the next head draw
    replays(m)


def test_m1_without_flowers_there_are_none():
    m = match(rules(flowers=False), mcr_wall(0, flowers=False))
    end = run_out(m)
    assert not events_of(m, "flower") and end["payments"] == []
    assert all(t < 34 for t in m.wall.tiles)


def test_m1_a_drawn_hand_when_the_wall_is_empty_no_payment():
    m = match(rules(), mcr_wall(0))
    end = run_out(m)
    (ry,) = events_of(m, "ryukyoku")
    assert ry["reason"] == "exhausted" and end["payments"] == [] and end["deltas"] == [0, 0, 0, 0]
    assert m.wall.remaining == 0 and sum(len(st.flower_tiles) for st in m.seats) == 8
    replays(m)


def test_m1_a_flower_as_the_last_tile_ends_the_hand_drawn():
    """Seven flowers drawn first, the eighth the last tile of the wall: laid aside, nothing left to
    replace it, the hand is drawn (荒庄).  The seven replacements take line positions 142, 143, 140,
    141, 138, 139, 136 from the tail, so the head's last free tile is 137: head draw position 84."""
    draws = {i: f"{i + 1}f" for i in range(7)} | {84: "8f"}
    m = match(rules(), mcr_wall(0, draws=draws))
    run_out(m)
    assert [(e["type"], e.get("pai")) for e in m.events[-5:-2]] == [("tsumo", "8f"), ("flower", "8f"),
                                                                    ("ryukyoku", None)]
    assert m.wall.remaining == 0 and sum(len(st.flower_tiles) for st in m.seats) == 8
    replays(m)


def test_m1_the_dealer_passes_after_every_hand_and_the_prevalent_wind_every_four():
    """16 hands (drawn here): dealer 0,1,2,3,0,…; prevalent wind E for hands 1–4, S, W, N; the seat
    winds move with the deal; the match ends after the 16th."""
    m = Match(rules(hands=16), 3)
    seen = []
    while not m.is_over:
        sk = [e for e in m.events if e["type"] == "start_kyoku"][-1]
        obs = m.observation(1)
        seen.append((sk["hand"], sk["dealer"], sk["prevalent_wind"], obs["prevalent_wind"], obs["seat_winds"]))
        run_out(m)
    winds = "ESWN"
    for h, dealer, pw, pw_text, seat_winds in seen:
        assert dealer == h % 4 and pw == h // 4 and pw_text == winds[h // 4]
        assert seat_winds == [winds[(s - dealer) % 4] for s in range(4)]
    assert [h for h, *_ in seen] == list(range(16)) and m.events[-1]["type"] == "end_game"


def test_m1_the_dealer_passes_after_the_dealer_wins_too():
    """No 连庄: the dealer wins hand 1 and seat 1 deals hand 2."""
    m = match(rules(hands=2), mcr_wall(0, {0: DRAGON + "1z"}, draws={3: "5s"}, avoid="5s"))
    play(m, "0 discard 1z")
    draw_until(m, 4)
    assert m.to_act == 0 and drawn(m, 0) == "5s" and "win" in legal(m)
    play(m, "0 win")
    assert hora(m)["seat_wind"] == 0
    assert m.dealer == 1 and events_of(m, "start_kyoku")[-1]["dealer"] == 1


def test_m1_observations_show_the_winds_the_dice_and_every_seats_flowers():
    m = match(rules(hands=2), mcr_wall(0, {3: "2f"}, replacements="9m"))
    for seat in (None, 0, 3):
        obs = m.observation(seat)
        assert obs["prevalent_wind"] == "E" and obs["seat_winds"] == ["E", "S", "W", "N"]
        assert obs["dice"] == m.wall.dice.to_dict() and obs["seats"][3]["flowers"] == ["2f"]
    assert "flower_tiles" not in str(m.observation(1))


def test_m2_the_dealer_wins_on_the_dealt_tiles():
    """A complete 14 dealt to the dealer wins on the first turn, self-drawn, on the tile that scores
    best (see docs/rules-notes.md)."""
    m = match(rules(), mcr_wall(0, {0: DRAGON + "5s"}, avoid="5s"))
    assert "win" in legal(m, 0)
    play(m, "0 win")
    h = hora(m)
    assert h["self_drawn"] and h["actor"] == 0 and h["fan"] >= 24
    replays(m)


# ---- M2: turns and claims ----------------------------------------------------------------------


def test_m2_chi_by_the_next_seat_only():
    m = match(rules(), mcr_wall(0, {0: "3m", 1: "1m2m4m5m", 2: "2m4m", 3: "4m5m"}))
    play(m, "0 discard 3m")
    assert m.phase == "claim" and m.to_act == 1
    assert [a for a in legal(m) if a.startswith("chi")] == ["chi 1m", "chi 2m", "chi 3m"]
    assert m.window is not None and m.window.order == [1]  # seats 2 and 3 are not asked
    play(m, "1 chi 2m")
    assert m.observation(0)["seats"][1]["melds"] == ["[234m]"] and m.to_act == 1
    assert all(a.startswith("discard") for a in legal(m))  # discard only after a claim
    replays(m)


def test_m2_pon_and_kong_by_any_player_pon_beats_chi():
    m = match(rules(), mcr_wall(0, {0: "3m", 1: "2m4m", 3: "3m3m3m"}))
    play(m, "0 discard 3m")
    assert legal(m) == ["chi 2m", "pass"]
    play(m, "1 chi 2m")
    assert m.to_act == 3 and legal(m) == ["pon 3m", "kong 3m", "pass"]
    play(m, "3 kong 3m")
    assert events_of(m, "daiminkan") and not events_of(m, "chi")
    rep = events_of(m, "tsumo")[-1]
    assert rep["actor"] == 3 and rep["replacement"] and m.to_act == 3
    replays(m)


def test_m2_a_win_beats_a_pon_and_the_first_winner_after_the_discarder_takes_it():
    """Seats 1 and 3 both win on the dealer's 5s, seat 2 could pon it: seat 1 wins (截和); when seat 1
    passes, seat 3 wins; a pon is only made when nobody wins."""
    hands = {0: "5s", 1: DRAGON, 2: "5s5s", 3: "123p456p789p11m46s"}
    m = match(rules(), mcr_wall(0, hands, avoid="5s"))
    play(m, "0 discard 5s")
    assert m.window is not None and m.window.order == [1, 2, 3]
    assert legal(m, 1) == ["win", "pass"]
    play(m, "1 win")
    h = hora(m)
    assert (h["actor"], h["target"], h["self_drawn"]) == (1, 0, False)  # 截和: seats 2 and 3 never asked
    replays(m)
    m2 = match(rules(), mcr_wall(0, hands, avoid="5s"))
    play(m2, "0 discard 5s", "1 pass")
    assert m2.to_act == 2 and legal(m2) == ["pon 5s", "pass"]
    play(m2, "2 pon 5s")
    assert m2.to_act == 3 and legal(m2) == ["win", "pass"]  # the pon waits: a win beats it
    play(m2, "3 win")
    assert hora(m2)["actor"] == 3 and not events_of(m2, "pon")
    replays(m2)
    m3 = match(rules(), mcr_wall(0, hands, avoid="5s"))
    play(m3, "0 discard 5s", "1 pass", "2 pon 5s", "3 pass")
    assert events_of(m3, "pon")[0]["actor"] == 2 and m3.to_act == 2


def test_m2_no_lock_after_passing_a_win():
    """A player who passed a discard win may win on the next discard (M2: no 过手 lock)."""
    m = match(rules(), mcr_wall(0, {0: "5s", 2: DRAGON}, draws="5s", avoid="5s"))
    play(m, "0 discard 5s")
    assert m.to_act == 2 and legal(m) == ["win", "pass"]
    play(m, "2 pass")
    assert drawn(m, 1) == "5s"
    play(m, "1 discard 5s")
    assert m.phase == "claim" and m.to_act == 2 and "win" in legal(m)
    play(m, "2 win")
    assert hora(m)["target"] == 1
    replays(m)


def test_m2_a_win_needs_8_fan_not_counting_flowers():
    """123m345m567p789p + 5s: 门前清, 平和, 单钓将 = 5 fan: complete but no win (M2); with min_fan 5
    or 0 it is one.  Flowers do not help: seat 1 holds four of them (dealt, replaced by 7p8p9p5s)."""
    for min_fan, wins in ((8, False), (5, True), (0, True)):
        m = match(rules(min_fan=min_fan), mcr_wall(0, {0: "5s", 1: "1f2f3f4f123m345m567p"},
                                                   replacements="7p8p9p5s", avoid="5s"))
        assert m.observation(0)["seats"][1]["flowers"] == ["1f", "2f", "3f", "4f"]
        play(m, "0 discard 5s")
        offered = m.phase == "claim" and m.to_act == 1 and "win" in legal(m)
        assert offered is wins, min_fan
        if wins:
            play(m, "1 win")
            h = hora(m)
            assert h["fan"] == 5 and h["flowers"] == 4 and h["total"] == 9
            replays(m)


def test_m2_robbing_an_added_kong():
    """抢杠和: seat 1 adds a kong of 5s, seat 2 (who passed the 5s before) wins on it; the kong is not
    made; the declarer pays as a discarder (M4)."""
    m = match(rules(), mcr_wall(0, {0: "5s", 1: "5s5s", 2: KANCHAN}, draws={3: "5s"}, avoid="5s"))
    play(m, "0 discard 5s")
    assert m.window is not None and m.window.order == [1, 2]
    play(m, "1 pon 5s", "2 pass")
    play(m, f"1 {discard_other(m, '5s')}")
    draw_until(m, 4)
    assert m.to_act == 1 and drawn(m, 1) == "5s" and "added_kong 5s" in legal(m)
    play(m, "1 added_kong 5s")
    assert m.phase == "rob" and m.to_act == 2 and legal(m) == ["win", "pass"]
    play(m, "2 win")
    h = hora(m)
    assert h["rob_kong"] and h["about_kong"] and h["target"] == 1 and not h["self_drawn"]
    assert "抢杠和" in h["name"]
    total = h["total"]
    assert sorted(payments(m)) == [("win", 0, 2, 8), ("win", 1, 2, 8 + total), ("win", 3, 2, 8)]
    assert not [e for e in events_of(m, "tsumo") if e["replacement"]]  # no replacement draw
    replays(m)


def test_m2_robbing_an_added_kong_may_be_passed():
    m = match(rules(), mcr_wall(0, {0: "5s", 1: "5s5s", 2: KANCHAN}, draws={3: "5s"}, replacements="7z",
                                avoid="5s"))
    play(m, "0 discard 5s", "1 pon 5s", "2 pass")
    play(m, f"1 {discard_other(m, '5s')}")
    draw_until(m, 4)
    play(m, "1 added_kong 5s", "2 pass")
    assert m.observation(0)["seats"][1]["melds"] == ["[5555s+]"] and drawn(m, 1) == "7z"
    replays(m)


def test_m2_a_concealed_kong_is_never_robbed():
    """Seat 2 waits on 5s (清龙); the dealer's concealed kong of 5s is not robbed: no window."""
    m = match(rules(), mcr_wall(0, {0: "5s5s5s5s", 2: KANCHAN}, replacements="7z"))
    assert "ankong 5s" in legal(m, 0)
    play(m, "0 ankong 5s")
    assert m.phase == "turn" and m.to_act == 0 and drawn(m, 0) == "7z"
    replays(m)


# ---- M3: the table's part of a win ----------------------------------------------------------


def test_m3_self_drawn_the_worked_case_24_fan():
    """M5's first case through the engine: seat 1 (no flowers) self-draws 5s: 清龙 16, 不求人 4,
    平和 2, 喜相逢 1, 单钓将 1 = 24; each other seat pays 8 + 24 (M4)."""
    m = match(rules(), mcr_wall(0, {0: "1z", 1: DRAGON}, draws="5s", avoid="5s"))
    play(m, "0 discard 1z")
    assert drawn(m, 1) == "5s" and "win" in legal(m)
    preview = m.win_preview(1)
    assert preview is not None and preview["fan"] == 24 and preview["payment"] == 3 * 32
    play(m, "1 win")
    h = hora(m)
    assert h["fan"] == 24 and h["flowers"] == 0 and h["total"] == 24 and h["self_drawn"]
    names = [f["name"] for f in h["fans"]]
    assert {"清龙", "不求人", "平和", "喜相逢"} <= set(names) and len(names) == 5
    assert sorted(payments(m)) == [("win", 0, 1, 32), ("win", 2, 1, 32), ("win", 3, 1, 32)]
    assert check_hora(h, None, m.rules, dealer=0) is None
    zero_sum(m)
    replays(m)


def test_m4_a_discard_win_the_discarder_pays_8_plus_fan_the_others_8_times_base():
    """Seat 1 wins on the dealer's 5s: 清龙 16, 门前清 2, 平和 2, 喜相逢 1, 单钓将 1 = 22, plus its two
    flowers; base 2 doubles every payment."""
    for base in (1, 2):
        m = match(rules(base=base), mcr_wall(0, {0: "5s", 1: "7f8f123m456m789m12p"}, replacements="3p5s",
                                             avoid="5s"))
        play(m, "0 discard 5s", "1 win")
        h = hora(m)
        assert (h["fan"], h["flowers"], h["total"]) == (22, 2, 24)
        assert sorted(payments(m)) == [("win", 0, 1, (8 + 24) * base), ("win", 2, 1, 8 * base),
                                       ("win", 3, 1, 8 * base)]
        zero_sum(m)
        replays(m)


def test_m4_self_drawn_with_flowers_each_pays_8_plus_fan():
    m = match(rules(), mcr_wall(0, {0: "1z", 1: "1f123m456m789m123p"}, draws="5s", replacements="5s", avoid="5s"))
    play(m, "0 discard 1z", "1 win")
    h = hora(m)
    assert (h["fan"], h["flowers"], h["total"]) == (24, 1, 25)
    assert sorted(payments(m)) == [("win", p, 1, 33) for p in (0, 2, 3)]


def test_m3_the_fourth_tile_is_the_last_copy_with_three_face_up():
    """和绝张: the dealer, seat 1 and seat 3 discard 5s, seat 2 (46s, passing each) self-draws the
    fourth; when only two lie face up (the third still in the wall) it is not."""
    for shown, fourth in ((3, True), (2, False)):
        draws = {0: "5s", 2: "5s", 5: "5s"} if shown == 3 else {0: "5s", 5: "5s", 60: "5s"}
        m = match(rules(), mcr_wall(0, {0: "5s", 2: KANCHAN}, draws=draws, avoid="5s"))
        play(m, "0 discard 5s")
        assert legal(m, 2) == ["win", "pass"]
        while not (m.phase == "turn" and m.to_act == 2 and m.observation(2)["drawn"] == "5s"):
            tsumogiri(m)  # seat 2 passes each 5s, the others throw their draws
        assert sum(d == "5s" for s in m.observation(None)["seats"] for d in s["discards"]) == shown
        play(m, "2 win")
        assert hora(m)["fourth_tile"] is fourth
        replays(m)


def test_m3_kong_replacement_win_is_about_kong():
    """杠上开花: the dealer's concealed kong's replacement completes its hand."""
    m = match(rules(), mcr_wall(0, {0: "1z1z1z1z123m456m789m5s"}, replacements="5s", avoid="5s"))
    play(m, "0 ankong 1z")
    assert drawn(m, 0) == "5s" and "win" in legal(m)
    play(m, "0 win")
    h = hora(m)
    assert h["about_kong"] and h["self_drawn"] and "杠上开花" in h["name"]
    replays(m)


def test_m3_the_last_tile_self_drawn_and_the_last_discard():
    """妙手回春: the last tile of the wall self-drawn wins; 海底捞月: the discard after it wins; the last
    discard may be claimed only for a win."""
    r = rules(flowers=False)
    n_draws = 136 - 53  # head draws in a hand without kongs
    # the last head draw is by seat (n_draws - 1 + 1) % 4 after the dealer: draw i is by seat (i + 1) % 4
    last_seat = n_draws % 4
    assert last_seat == 3
    m = match(r, mcr_wall(0, {3: DRAGON}, draws={n_draws - 1: "5s"}, avoid="5s", flowers=False))
    while not (m.phase == "turn" and m.wall.remaining == 0):
        tsumogiri(m)
    assert m.to_act == 3 and drawn(m, 3) == "5s" and "win" in legal(m)
    play(m, "3 win")
    h = hora(m)
    assert h["wall_last"] and h["self_drawn"] and "妙手回春" in h["name"]
    replays(m)
    # the discard of the last tile: seat 0 waits on it; seat 1 holds a pair of it but may not pon
    m = match(r, mcr_wall(0, {0: DRAGON + "1z", 1: "5s5s"}, draws={n_draws - 1: "5s"}, avoid="5s",
                          flowers=False))
    play(m, "0 discard 1z")
    while not (m.phase == "turn" and m.wall.remaining == 0):
        tsumogiri(m)
    assert m.to_act == 3 and drawn(m, 3) == "5s"
    play(m, "3 discard 5s")
    assert m.phase == "claim" and m.window is not None and m.window.order == [0]
    assert legal(m, 0) == ["win", "pass"]
    play(m, "0 win")
    h = hora(m)
    assert h["wall_last"] and not h["self_drawn"] and "海底捞月" in h["name"]
    replays(m)


def test_flower_text():
    assert FLOWER_TEXT == ("1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f") and len(TILE_TEXT) == 34
