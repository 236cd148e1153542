"""The settlement explained, and the win button's preview (issue 11).

* Every seat's hand face up: :meth:`Match.revealed_hands` is the engine's say that once a hand has
  ended its concealed tiles are public; it gives them as they stood when the hand ended (checked
  against the engine's own tiles at the settlement, over many hands of both families, and after a
  restart's rebuild), never a hand in play; the web settlement's ``hands`` are that.
* The winning arrangement (``win.arrangement``): the scorer's best arrangement, what each wild plays.
* Each payment's ``why`` (Tianjin R6–R8, Beijing B6): the factors multiply to the amount (under 锅牌
  the product is the full amount and the pot paid less), with ``formula`` / ``formula_en``.
* ``win_preview`` in a seat's own ``state`` when it may win: what the settlement then shows; never in
  another seat's state nor a spectator's.

The web tests use the app's test hooks as tests/test_beijing_web.py does: ``match_factory`` deals
from a scripted wall (tests/scripted.py) and ``bot_factory`` gives bots that play a plan.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from math import prod
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.scripted import script_wall
from tests.test_beijing_web import answer, seed_for, two_people_app
from tests.test_web import FAST, LOOSE, Msg, is_settlement, play, quick, recv_until, seat_ws
from tjmj.bots import make_bot
from tjmj.families import match_type
from tjmj.families.beijing.webview import payments_detail as beijing_payments_detail
from tjmj.families.tianjin.webview import elements_detail
from tjmj.families.tianjin.webview import payments_detail as tianjin_payments_detail
from tjmj.game import Action, Match
from tjmj.meld import Meld
from tjmj.record import rebuild
from tjmj.rules import Rules
from tjmj.tiles import TILE_TEXT, Tile
from tjmj.web.app import create_app
from tjmj.web.settlement import payment_formula, win_arrangement

Hands = list[dict[str, list[str]]]
WILD_HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "2s", "5z"]  # + 4s: 龙, 5z plays 3s


@pytest.fixture
def store() -> Any:
    from tjmj.web.store import Store

    s = Store("sqlite://")
    yield s
    s.close()


# ---- helpers --------------------------------------------------------------------------------


_WATCHED: dict[type[Match], type[Match]] = {}


def watched(rules: Rules, *args: Any, **kwargs: Any) -> Any:
    """``Match(rules, ...)`` that records each hand's tiles as the engine holds them when it settles
    the hand in ``m.held`` ({hand number: by seat}), the winner's without the winning tile: what
    ``revealed_hands`` must give.  A subclass of the family's class overriding ``_settle``, not an
    instance patch: the compiled engine's methods cannot be replaced on an instance."""
    family = match_type(rules.family)
    cls = _WATCHED.get(family)
    if cls is None:

        def _settle(self: Any, winner: int, win: Any) -> None:
            last = self.events[-1]
            hora = last if last["type"] == "hora" else None
            out = []
            for s, st in enumerate(self.seats):
                tiles = sorted(st.hand)
                if hora is not None and s == winner and hora.get("self_drawn", True):  # Tianjin: always self-drawn
                    tiles.remove(Tile.parse(hora["pai"]))
                out.append({"tiles": [TILE_TEXT[t] for t in tiles], "melds": [str(x) for x in st.melds]})
            self.held[self.hand_number] = out
            family._settle(self, winner, win)

        cls = _WATCHED[family] = type(f"Watched{family.__name__}", (family,), {"_settle": _settle})
    m: Any = cls(rules, *args, **kwargs)
    m.held = {}
    return m


def hands_of(rules: Rules, seed: int, bots: tuple[str, ...]) -> Iterator[tuple[Match, list[dict[str, Any]], Hands]]:
    """Play a match with bots (seat s by ``bots[s]``); after each hand: the match, the hand's events
    (start_kyoku … end_kyoku) and the engine's tiles at its settlement."""
    m = watched(rules, seed)
    seen = m.held
    players = [make_bot(b) for b in bots]
    for p in players:
        set_rules = getattr(p, "set_rules", None)
        if set_rules is not None:
            set_rules(rules)
    rng = random.Random(seed)
    while not m.is_over:
        seat = m.to_act
        before = len(m.events)
        m.apply(seat, players[seat].choose(m.observation(seat), m.legal_actions(seat), rng))
        for i in range(before, len(m.events)):
            if m.events[i]["type"] == "end_kyoku":
                start = max(j for j in range(i) if m.events[j]["type"] == "start_kyoku")
                hand = m.events[start]["hand"]
                yield m, m.events[start : i + 1], seen[hand]


def hora_of(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((e for e in events if e["type"] == "hora"), None)


def product(why: list[dict[str, Any]]) -> int:
    return prod(f["times"] for f in why)


def is_group(kind: str, plays: list[str]) -> bool:
    """The kinds a group's tiles play make that group (R4, R5, B4)."""
    ks = [int(Tile.parse(p)) for p in plays]
    if kind == "pair":
        return len(ks) == 2 and ks[0] == ks[1]
    if kind in ("sequence", "chi"):
        ks = sorted(ks)
        return len(ks) == 3 and ks[0] < 27 and ks[0] // 9 == ks[2] // 9 and ks == [ks[0], ks[0] + 1, ks[0] + 2]
    size = 3 if kind in ("triplet", "pon") else 4
    return len(ks) == size and len(set(ks)) == 1


def check_arrangement(a: dict[str, Any], hora: dict[str, Any], wilds: list[str]) -> int:
    """The arrangement holds exactly the winning hand's tiles, each group is what it says, a tile
    plays itself unless it is a wild, and the winning tile is in the group ``winning_group`` says;
    the number of wilds playing another kind."""
    groups = a["groups"]
    held = list(hora["hand"]) + [hora["pai"]] + [TILE_TEXT[t] for x in hora["melds"] for t in Meld.parse(x).tiles]
    assert sorted(t for g in groups for t in g["tiles"]) == sorted(held)
    standing_in = 0
    for g in groups:
        assert is_group(g["kind"], g["plays"]), g
        for t, p, w in zip(g["tiles"], g["plays"], g["wild"], strict=True):
            if w:
                assert t in wilds, g
                standing_in += p != t
            else:
                assert p == t, g
    winning = [i for i, g in enumerate(groups) if g["winning"] is not None]
    assert winning == [a["winning_group"]]
    g = groups[a["winning_group"]]
    if not hora.get("tianhu") and "TIANHE" not in hora["elements"]:  # 天胡/天和: any copy may be the winning one
        assert g["tiles"][g["winning"]] == hora["pai"]
    return standing_in


# ---- every hand face up (the engine) ---------------------------------------------------------------


@pytest.mark.parametrize(("preset", "bots"), [
    ("classic", ("greedy", "random", "baseline", "greedy")),
    ("yiyou", ("random", "greedy", "greedy", "baseline")),
    ("beijing", ("greedy", "baseline", "random", "greedy")),
    ("beijing_a", ("greedy", "greedy", "baseline", "random")),
])
def test_revealed_hands_are_the_tiles_the_engine_held_when_each_hand_ended(preset: str, bots: tuple[str, ...]) -> None:
    rules = Rules.preset(preset).replace(match_hands=8)
    fresh = Match(rules, 1)
    with pytest.raises(ValueError, match="never revealed"):
        fresh.revealed_hands()  # the first hand is in play (or its choices are): nothing to reveal
    ended = 0
    for seed in range(6):
        for m, events, held in hands_of(rules, seed, bots):
            hand = events[0]["hand"]
            assert m.revealed_hands(hand) == m.revealed_hands() == held
            hora = hora_of(events)
            if hora is not None:
                assert held[hora["actor"]] == {"tiles": hora["hand"], "melds": hora["melds"]}
            with pytest.raises(ValueError, match="in play"):
                m.revealed_hands(hand + 1)  # the next hand (dealt already, or its choices made): hidden
            if hand:
                with pytest.raises(ValueError, match="no longer kept"):
                    m.revealed_hands(hand - 1)
            ended += 1
    assert ended == 6 * 8


def test_revealed_hands_survive_a_restart_rebuild() -> None:
    """The server rebuilds an unfinished match from its stored hands (record.rebuild): the last hand
    that ended is revealed as it was."""
    rules = Rules.preset("classic").replace(match_hands=4)
    for m, events, held in hands_of(rules, 3, ("greedy", "random", "greedy", "baseline")):
        if events[0]["hand"] == 2:
            stored = m.events[: next(i for i, e in enumerate(m.events) if e is events[-1]) + 1]
            again = rebuild(stored)
            assert again.revealed_hands(2) == held == m.revealed_hands(2)
            break
    else:
        raise AssertionError("the match did not reach hand 2")


# ---- the winning arrangement -----------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "bots"), [
    ("classic", ("baseline", "greedy", "baseline", "greedy")),
    ("beijing", ("baseline", "greedy", "baseline", "greedy")),
    ("beijing_a", ("baseline", "greedy", "baseline", "greedy")),
])
def test_the_arrangement_of_every_win_shows_what_each_wild_plays(preset: str, bots: tuple[str, ...]) -> None:
    rules = Rules.preset(preset).replace(match_hands=10)
    wins = wilds_standing_in = 0
    for seed in range(8):
        for m, events, _ in hands_of(rules, seed, bots):
            hora = hora_of(events)
            if hora is None:
                continue
            a = win_arrangement(hora, events[0], events, m.rules)
            if "HUNGANG" in hora["elements"]:  # 混杠: declared, no arrangement (B2)
                assert a is None
                continue
            assert a is not None, hora
            wilds_standing_in += check_arrangement(a, hora, events[0]["wilds"])
            wins += 1
    assert wins >= 20
    if preset != "beijing_a":  # beijing_a has no wilds
        assert wilds_standing_in > 0


def test_the_arrangement_of_a_wild_hand() -> None:
    """123m 456m 789m 1p1p 2s 5z + 4s, the indicator 7z (wilds 7z 5z, R2): 龙 (4 fan), the 5z plays 3s."""
    hora = {"type": "hora", "actor": 1, "target": 1, "pai": "4s", "hand": WILD_HAND,
            "melds": [], "kong_draw": False, "tianhu": False, "fan": 4, "elements": ["LONG"], "name": "龙"}
    kyoku = {"type": "start_kyoku", "dora_marker": "7z", "wilds": ["7z", "5z"], "dealer": 0}
    a = win_arrangement(hora, kyoku, [kyoku, hora], Rules.preset("classic"))
    assert a is not None
    assert a["dragon"] == [0, 1, 2] and a["winning_group"] == 4
    assert a["groups"][4] == {"kind": "sequence", "tiles": ["2s", "5z", "4s"], "plays": ["2s", "3s", "4s"],
                              "wild": [False, True, False], "winning": 2}
    # a win the scorer would not give is not explained (the engine is the authority)
    assert win_arrangement({**hora, "fan": 8}, kyoku, [kyoku, hora], Rules.preset("classic")) is None


# ---- each payment's factors --------------------------------------------------------------------------

R6_POINTS = {"kong": 1, "added_kong": 1, "ankong": 2}


@pytest.mark.parametrize(("preset", "options"), [
    ("classic", {}),
    ("yiyou", {}),
    ("classic", {"settlement": "pot", "pot_stake": 8, "wild_discard_penalty": 1, "base": 2}),
    ("yiyou", {"forced_sit": True, "max_pull": 3, "kong_pay_on_draw": False, "wild_discard_penalty": 2}),
])
def test_tianjin_payment_factors_multiply_to_each_amount(preset: str, options: dict[str, Any]) -> None:
    """R6–R8 over many hands with sitting and pulling: every payment is explained, the product of its
    factors is its amount (锅牌: the full amount, of which the pot paid what was left), each factor
    is the rules' (the units, 底, 坐庄 ×2 between the dealer who sat and another, 拉庄 ×2 per pull of
    the non-dealer), and the formula writes it out."""
    rules = Rules.preset(preset).replace(match_hands=10, **options)
    seen: Counter[str] = Counter()
    for seed in range(10):
        for m, events, _ in hands_of(rules, seed, ("random", "greedy", "random", "baseline")):
            kyoku, end, hora = events[0], events[-1], hora_of(events)
            hands = m.revealed_hands(kyoku["hand"])
            detail = tianjin_payments_detail(hora, kyoku, events, end["payments"], m.rules, hands)
            assert [{k: d[k] for k in ("reason", "payer", "payee", "amount")} for d in detail] == end["payments"]
            dealer, sit, pulls = kyoku["dealer"], kyoku["sit"], kyoku["pulls"]
            for d in detail:
                why, amount = d["why"], d["amount"]
                assert why, d
                keys = [f["key"] for f in why]
                full = product(why)
                if d.get("capped"):
                    assert rules.settlement == "pot" and d["full"] == full > amount
                    assert d["formula"] == payment_formula(why, amount)[0] and d["formula"].endswith(f"→ {amount}")
                    seen["capped"] += 1
                else:
                    assert full == amount and "full" not in d
                    assert d["formula"].endswith(f" = {amount}") and d["formula_en"].endswith(f" = {amount}")
                units = why[0]
                if d["reason"] == "win":
                    assert hora is not None and units == {"key": "fan", "times": hora["fan"]}
                    assert d["formula"].startswith(f"{hora['fan']}番")
                elif d["reason"] == "kong":
                    points = rules.gold_kong_points if units["key"] == "gold_kong" else R6_POINTS[units["key"]]
                    assert units["times"] == points
                elif d["reason"] == "chan":
                    assert units == {"key": "chan", "times": rules.chan_units}
                else:
                    assert units == {"key": "penalty", "times": rules.wild_discard_penalty}
                assert keys.count("base") == (rules.base != 1)
                between_dealer = dealer in (d["payer"], d["payee"])
                other = d["payee"] if d["payer"] == dealer else d["payer"]
                assert keys.count("sit") == (between_dealer and sit)
                assert keys.count("pull") == (pulls[other] if between_dealer else 0)
                assert all(f["times"] == 2 for f in why if f["key"] in ("sit", "pull"))
                seen[d["reason"]] += 1
                seen.update(k for k in set(keys) if k in ("sit", "pull", "base"))
    assert seen["win"] and seen["kong"] and seen["sit"] and seen["pull"]
    assert bool(seen["penalty"]) == bool(rules.wild_discard_penalty)  # R8: a payment of 0 is not listed
    if rules.settlement == "pot":
        assert seen["capped"]
    if rules.base != 1:
        assert seen["base"]


def test_tianjin_chan_and_a_win_between_the_sitting_dealer_and_a_puller() -> None:
    """R7 铲 and R8 written out: the dealer sat and South pulled once; the dealer pays 铲 1 × 坐庄 2 ×
    拉庄 2 = 4 to South, 2 to the others; a formula for each."""
    from tests.scripted import run_out, start

    w = script_wall(0, {0: "1z", 1: "1z", 2: "1z", 3: "1z"}, avoid="1z")
    m = watched(Rules.preset("classic").replace(match_hands=1), 1, walls=[w])
    start(m, sit=1, pulls=(1, 0, 0))
    held = m.held
    for seat in range(4):
        m.apply(seat, "discard 1z")
    run_out(m)
    events = m.events[next(i for i, e in enumerate(m.events) if e["type"] == "start_kyoku"):]
    end = next(e for e in events if e["type"] == "end_kyoku")
    detail = tianjin_payments_detail(None, events[0], events, end["payments"], m.rules, held[0])
    chan = {d["payee"]: d for d in detail if d["reason"] == "chan"}
    assert chan[1]["why"] == [{"key": "chan", "times": 1}, {"key": "sit", "times": 2}, {"key": "pull", "times": 2}]
    assert chan[1]["formula"] == "铲1 × 坐庄2 × 拉庄2 = 4"
    assert chan[1]["formula_en"] == "chan 1 × sit 2 × pull 2 = 4"
    assert chan[2]["formula"] == "铲1 × 坐庄2 = 2"
    # a win and a capped pot payment, written out
    why = [{"key": "fan", "times": 2}, {"key": "sit", "times": 2}, {"key": "pull", "times": 2}]
    assert payment_formula(why, 8) == ("2番 × 坐庄2 × 拉庄2 = 8", "2 fan × sit 2 × pull 2 = 8")
    assert payment_formula(why, 5) == ("2番 × 坐庄2 × 拉庄2 = 8；锅里只剩5 → 5",
                                       "2 fan × sit 2 × pull 2 = 8; only 5 left in the pot → 5")


@pytest.mark.parametrize(("preset", "options"), [
    ("beijing", {}),
    ("beijing_a", {}),
    ("beijing", {"shaozhuang_doubling": True, "mutual_liability": 2, "base": 3}),
    ("beijing_a", {"cap": 8, "base": 2, "shaozhuang_units": 5}),
])
def test_beijing_payment_factors_multiply_to_each_amount(preset: str, options: dict[str, Any]) -> None:
    """B6 over many hands: every payment is explained, the product of its factors is its amount, and the
    formula writes it out."""
    rules = Rules.preset(preset).replace(match_hands=10, **options)
    seen: Counter[str] = Counter()
    for seed in range(10):
        for m, events, _ in hands_of(rules, seed, ("greedy", "baseline", "random", "greedy")):
            kyoku, end, hora = events[0], events[-1], hora_of(events)
            for d in beijing_payments_detail(hora, kyoku, events, end["payments"], m.rules):
                assert d["why"] and product(d["why"]) == d["amount"], d
                assert d["formula"] == payment_formula(d["why"], d["amount"])[0]
                assert d["formula"].endswith(f" = {d['amount']}") and d["formula_en"].endswith(f" = {d['amount']}")
                seen.update(f["key"] for f in d["why"])
    assert seen["value"] and seen["upstairs" if rules.upstairs else "value"]
    assert seen["discarder" if rules.discard_pays == "discarder" else "dianpao"]
    if rules.base != 1:
        assert seen["base"]


def test_beijing_formulas_of_the_rarer_factors() -> None:
    """抢杠, 混儿悠 cut short and 烧庄 doubled, upstairs: each factor in the formula, in both languages."""
    rules = Rules.preset("beijing").replace(shaozhuang_doubling=True)
    kyoku = {"type": "start_kyoku", "hand": 0, "dealer": 0, "upstairs": True, "dora_marker": "7z", "wilds": ["5z"]}
    hora = {"type": "hora", "actor": 1, "target": 2, "value": 4, "self_drawn": False, "rob_kong": True}
    events = [kyoku, {"type": "dahai", "actor": 2, "pai": "3m", "hunyou": True},
              {"type": "shaozhuang", "actor": 0, "pai": "1z", "rounds": 2}, hora]
    pays = [{"reason": "win", "payer": 2, "payee": 1, "amount": 4 * 3 * 2 * 2},
            {"reason": "shaozhuang", "payer": 0, "payee": 1, "amount": 10 * 2 * 2}]
    rob, shao = beijing_payments_detail(hora, kyoku, events, pays, rules)
    assert rob["formula"] == "点数4 × 抢杠包三家3 × 混儿悠被截2 × 上楼2 = 48"
    assert rob["formula_en"] == "value 4 × robbed kong pays all 3 × 混儿悠 cut short 2 × upstairs 2 = 48"
    assert shao["formula"] == "烧庄10 × 连烧2 × 上楼2 = 40"


# ---- the win preview (the engine) --------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "yiyou", "beijing", "beijing_a"])
def test_the_win_preview_is_what_the_win_then_scores(preset: str) -> None:
    """Whenever a seat may win, ``win_preview`` says what the win scores (Beijing: and what it is paid);
    the seats that may not win get none."""
    rules = Rules.preset(preset).replace(match_hands=10)
    beijing = rules.family == "beijing"
    checked = Counter[str]()
    for seed in range(8):
        m = Match(rules, seed)
        bots = [make_bot(b) for b in ("baseline", "greedy", "baseline", "baseline")]
        for b in bots:
            set_rules = getattr(b, "set_rules", None)
            if set_rules is not None:
                set_rules(rules)
        rng = random.Random(seed)
        while not m.is_over:
            seat = m.to_act
            legal = m.legal_actions(seat)
            preview = m.win_preview(seat)
            assert (preview is not None) == (Action("win") in legal)
            assert all(m.win_preview(s) is None for s in range(4) if s != seat)
            new = m.apply(seat, bots[seat].choose(m.observation(seat), legal, rng))
            hora = hora_of(new)
            if preview is None or hora is None or hora["actor"] != seat:
                continue
            assert preview["name"] == hora["name"] and preview["elements"] == hora["elements"]
            if beijing:
                end = next(e for e in new if e["type"] == "end_kyoku")
                assert preview["value"] == hora["value"]
                assert preview["payment"] == sum(p["amount"] for p in end["payments"]
                                                 if p["reason"] == "win" and p["payee"] == seat)
                checked["self" if hora["self_drawn"] else "discard"] += 1
            else:
                assert set(preview) == {"fan", "name", "elements"} and preview["fan"] == hora["fan"]
                checked["self"] += 1
    assert checked["self"] >= 5
    if beijing:
        assert checked["discard"] >= 5


# ---- the web table ------------------------------------------------------------------------------------


class Planned:
    """Tianjin bots a test can foresee: the dealer sits, each other bot pulls once, claims are passed,
    the drawn tile is discarded (with none drawn, the first legal discard); never a win."""

    name = "planned"
    uses_observation = True

    def choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if obs["phase"] == "sit":
            return Action("sit", None, 1)
        if obs["phase"] == "pull":
            return Action("pull", None, 1)
        if obs["phase"] in ("claim", "rob"):
            return Action("pass")
        discards = [a for a in legal if a.type == "discard"]
        return next((a for a in discards if a.tile is not None and TILE_TEXT[a.tile] == obs.get("drawn")), discards[0])


class TianjinScript:
    """A ``match_factory``: Ann (player 0) sits South (seat 1) with 123m 456m 789m 1p1p 2s 5z, the
    indicator 7z (wilds 7z 5z); she draws 9p, then 4s: 龙, the 5z playing 3s (R5)."""

    def __init__(self) -> None:
        self.made: list[Match] = []
        self.held: list[dict[int, Hands]] = []

    def __call__(self, rules: Rules, seed: int, names: list[str]) -> Match:
        wall = script_wall(0, {1: "123m456m789m1p1p2s5z"}, draws={0: "9p", 4: "4s"}, indicator="7z",
                           avoid="9p4s1p2s")
        m = watched(rules, seed=seed_for(rules, {0: 1}), names=names, walls=[wall])
        self.made.append(m)
        self.held.append(m.held)
        return m


def own_turn(ws: Any) -> Msg:
    """The next state in which this seat has a turn; a claim window on the way is passed."""
    while True:
        st = answer(ws, lambda x: bool(x["legal"]))
        if st["obs"]["phase"] == "turn":
            return st
        assert "win_preview" not in st
        ws.send_json({"type": "action", "action": "pass", "version": st["version"]})


def test_tianjin_web_settlement_hands_arrangement_payments_and_preview(store: Any) -> None:
    script = TianjinScript()
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE, match_factory=script,
                     bot_factory=lambda name: Planned())
    with TestClient(app) as client:
        d = quick(client, preset="classic", match_hands=1)
        with seat_ws(client, d["room"], d["token"]) as ann, seat_ws(client, d["room"]) as spec:
            st = answer(ann, lambda x: bool(x["legal"]) and x["obs"]["phase"] == "pull")
            assert "win_preview" not in st
            ann.send_json({"type": "action", "action": "pull 1", "version": st["version"]})
            st = own_turn(ann)
            assert st["obs"]["drawn"] == "9p" and "win_preview" not in st
            ann.send_json({"type": "action", "action": "discard 9p", "version": st["version"]})
            st = own_turn(ann)
            assert st["obs"]["drawn"] == "4s" and "win" in st["legal"]
            assert st["win_preview"] == {"fan": 4, "name": "龙", "elements": ["LONG"],
                                         "elements_detail": [{"code": "LONG", "chinese": "龙",
                                                              "english": "dragon (1-9 straight)"}]}
            ann.send_json({"type": "action", "action": "win", "version": st["version"]})
            s, _ = recv_until(ann, is_settlement)
            _, spec_seen = recv_until(spec, is_settlement)
        assert not any("win_preview" in x for x in spec_seen)
        m = script.made[-1]
        assert s["hands"] == script.held[-1][0] == m.revealed_hands(0)
        assert s["hands"][1] == {"tiles": WILD_HAND, "melds": []}
        w = s["win"]
        assert (w["seat"], w["fan"], w["name"]) == (1, st["win_preview"]["fan"], st["win_preview"]["name"])
        assert [e["code"] for e in w["elements"]] == st["win_preview"]["elements"]
        a = w["arrangement"]
        assert a["winning_group"] == 4 and a["groups"][4]["plays"] == ["2s", "3s", "4s"]
        assert a["groups"][4]["wild"] == [False, True, False]
        # the dealer (East) sat, and Ann pulled once: East pays 4 fan × 坐庄 2 × 拉庄 2
        pays = {p["payer"]: p for p in s["payments"] if p["reason"] == "win"}
        assert pays[0]["amount"] == 16 and pays[0]["formula"] == "4番 × 坐庄2 × 拉庄2 = 16"
        assert pays[0]["why"] == [{"key": "fan", "times": 4}, {"key": "sit", "times": 2}, {"key": "pull", "times": 2}]
        assert pays[2]["formula"] == "4番 = 4" and pays[2]["formula_en"] == "4 fan = 4"
        assert all(product(p["why"]) == p["amount"] for p in s["payments"])


def test_tianjin_web_settlements_show_each_ended_hand_to_the_last(store: Any) -> None:
    """Over several hands, the match's end included: each settlement's hands are the hand that just
    ended (the engine has dealt the next one by then), each win has its arrangement, each payment its
    factors; a preview only ever in the own seat's state."""
    made: list[Match] = []
    held: list[dict[int, Hands]] = []

    def factory(rules: Rules, seed: int, names: list[str]) -> Match:
        m = watched(rules, seed=seed, names=names)
        made.append(m)
        held.append(m.held)
        return m

    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE, match_factory=factory)
    with TestClient(app) as client:
        d = quick(client, preset="classic", match_hands=4, bots="greedy")
        with seat_ws(client, d["room"], d["token"]) as ws:
            last, seen = play(ws, lambda x: is_settlement(x) and x["over"])
    settlements = [x for x in seen if is_settlement(x)]
    assert [x["hand"] for x in settlements] == [0, 1, 2, 3] and last["over"]
    for x in settlements:
        assert x["hands"] == held[-1][x["hand"]]
        if x["win"] is not None:
            assert x["win"]["arrangement"] is not None
        assert all(p["why"] and (product(p["why"]) == p["amount"]) for p in x["payments"])
    seat = made[-1].seating.index(0)
    for x in seen:
        if x["type"] == "state" and "win_preview" in x:
            assert x["you"] == seat and "win" in x["legal"]


def test_beijing_web_preview_only_to_the_winner_and_hands_face_up(store: Any) -> None:
    """Two people (tests/test_beijing_web.py): Bob may win on Ann's 2m; only Bob's state previews it
    (the value 4, and the 16 he would be paid: 4 + 4 + 点炮 8), and the settlement shows it."""
    app, script = two_people_app(store)
    script.match = watched
    with TestClient(app) as client:
        r = client.post("/api/rooms", json={"name": "Ann", "preset": "beijing", "match_hands": 1})
        room, ann_token = r.json()["room"], r.json()["token"]
        bob_token = client.post(f"/api/rooms/{room}/join", json={"name": "Bob"}).json()["token"]
        with seat_ws(client, room, ann_token) as ann, seat_ws(client, room, bob_token) as bob, \
                seat_ws(client, room) as spec:
            client.post(f"/api/rooms/{room}/start", json={"token": ann_token})
            m = script.made[-1]
            held = m.held
            seen_ann: list[Msg] = []
            st = answer(ann, lambda x: bool(x["legal"]) and x["obs"]["phase"] == "claim", seen_ann)
            ann.send_json({"type": "action", "action": "chi 3m", "version": st["version"]})
            st = answer(bob, lambda x: bool(x["legal"]))
            bob.send_json({"type": "action", "action": "pass", "version": st["version"]})
            st = answer(ann, lambda x: x["obs"]["phase"] == "turn" and x["to_act"] == 2 and bool(x["legal"]), seen_ann)
            ann.send_json({"type": "action", "action": "discard 2m", "version": st["version"]})
            st_b = answer(bob, lambda x: bool(x["legal"]) and x["obs"]["phase"] == "claim")
            assert st_b["legal"][0] == "win"
            preview = dict(st_b["win_preview"])
            assert [e["code"] for e in preview.pop("elements_detail")] == ["MENQING", "WUHUN", "DIANPAO"]
            assert preview == {"value": 4, "name": "门清、无混儿、点炮",
                               "elements": ["MENQING", "WUHUN", "DIANPAO"], "payment": 16}
            bob.send_json({"type": "action", "action": "win", "version": st_b["version"]})
            s, rest = recv_until(ann, is_settlement)
            seen_ann += rest
            _, seen_spec = recv_until(spec, is_settlement)
    assert not any("win_preview" in x for x in seen_ann + seen_spec)
    assert s["win"]["value"] == st_b["win_preview"]["value"]
    assert sum(p["amount"] for p in s["payments"] if p["payee"] == 3 and p["reason"] == "win") == 16
    assert s["hands"] == held[0] == m.revealed_hands(0)
    assert s["hands"][2]["melds"] == ["[345m]"] and s["hands"][3] == {"tiles": s["win"]["hand"], "melds": []}
    a = s["win"]["arrangement"]
    assert a["shape"] == "standard" and a["wild"] == "5z"
    assert a["groups"][a["winning_group"]]["tiles"][a["groups"][a["winning_group"]]["winning"]] == "2m"
    check_arrangement(a, {"hand": s["win"]["hand"], "pai": "2m", "melds": [], "elements": []}, ["5z"])
    assert [p["formula"] for p in s["payments"]] == ["点数4 = 4", "点数4 = 4", "点数4 × 点炮2 = 8"]
    assert s["payments"][2]["formula_en"] == "value 4 × dealt in 2 = 8"


def test_tianjin_element_values_read_in_chinese_on_the_chinese_page() -> None:
    """Issue 34: the Chinese settlement showed "core 3" for 捉伍儿; every element's value has a
    Chinese form (R5.1: the core values, ×2 for the doublings), as Beijing's elements do."""
    from tjmj.families.tianjin.elements import ELEMENT_BY_CODE
    from tjmj.rules import Rules

    codes = list(ELEMENT_BY_CODE)
    for preset in ("classic", "yiyou"):
        for d in elements_detail(codes, Rules.preset(preset)):
            assert d["value_zh"] and not re.search("[A-Za-z]", d["value_zh"]), d
    by_code = {d["code"]: d for d in elements_detail(codes)}
    assert by_code["ZHUOWU"]["value_zh"] == "核心分 3" and by_code["LONG"]["value_zh"] == "核心分 4"
    assert by_code["HUNDIAO"]["value_zh"] == "×2"
