"""The web table playing Beijing mahjong (docs/rules/BEIJING.md; issue 10, item 5): the lobby's API
for every family's presets, a quick Beijing game to the settlement, two people in one room (a chi
and a win on a discard, with the claim window's hidden answers), the settlement explaining the
value and each payment, hints, and a bot that fails.

Scripted games use the app's test hooks: ``match_factory`` deals the room's match from a scripted
wall (tests/scripted.py, ``wild_method="tail"``: Beijing's 混坯) with a seed chosen for the seating,
and ``bot_factory`` gives bots that play a plan (:class:`PlanBot`).
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Mapping
from typing import Any

import orjson
import pytest
from starlette.testclient import TestClient

from tests.scripted import script_wall
from tests.test_web import FAST, LOOSE, Msg, is_settlement, play, poll, quick, recv, recv_until, seat_ws
from tjmj.families.beijing.webview import payments_detail as beijing_payments_detail
from tjmj.families.beijing.webview import win_detail as beijing_win_detail
from tjmj.game import Action, Match
from tjmj.record import read_records, replay
from tjmj.rules import Rules
from tjmj.tiles import TILE_TEXT
from tjmj.web.app import create_app

# ---- scripted games ---------------------------------------------------------------------------


class PlanBot:
    """A bot whose moves a test can foresee: it never claims and never wins; on a turn it discards
    the tile it drew, or with none drawn (the dealer's first turn) its lowest tile."""

    name = "plan"
    uses_observation = True

    def choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if obs.get("phase") in ("claim", "rob"):
            return next(a for a in legal if a.type == "pass")
        discards = [a for a in legal if a.type == "discard"]
        drawn = obs.get("drawn")
        for a in discards:
            if a.tile is not None and TILE_TEXT[a.tile] == drawn:
                return a
        return discards[0]


def plan_bots(name: str) -> PlanBot:
    return PlanBot()


def seed_for(rules: Rules, seats: Mapping[int, int]) -> int:
    """A match seed whose seating (R3) puts each player at the given seat ({player: seat})."""
    for seed in range(1, 10_000):
        seating = Match(rules, seed=seed).seating
        if all(seating[s] == p for p, s in seats.items()):
            return seed
    raise AssertionError(f"no seed seats {seats}")


class Scripted:
    """A ``match_factory``: the room's first hand dealt from a scripted wall (the dealer is East),
    with a seed that seats each player where the script wants them ({player: seat})."""

    def __init__(self, seats: Mapping[int, int], hands: Mapping[int, str], draws: str = "", indicator: str = "7z",
                 ) -> None:
        self.seats, self.hands, self.draws, self.indicator = dict(seats), dict(hands), draws, indicator
        self.made: list[Match] = []
        self.match: Callable[..., Match] = Match  # what makes the match (a test may watch it: a subclass)

    def __call__(self, rules: Rules, seed: int, names: list[str]) -> Match:
        wall = script_wall(0, self.hands, draws=self.draws, indicator=self.indicator, wild_method="tail", quiet=False)
        m = self.match(rules, seed=seed_for(rules, self.seats), names=names, walls=[wall])
        self.made.append(m)
        return m


# Two people, players 0 (A, West) and 1 (B, North); the bots (East deals, South) hold only bamboo and
# honours, and draw nothing that matters.  South draws 4m and discards it: A may chi it three ways
# (2356m: 234m, 345m, 456m), B may pon it (44m) and passes; A's chi 345m, then A discards 2m, and B's
# 13m fills the 2m: B wins on A's discard (点炮).  The 混坯 is 7z, the wild 5z (nobody holds one).
TWO_PEOPLE_HANDS = {
    0: "1s1s2s2s3s3s4s4s5s5s6s6s2z2z",  # East (a bot), the dealer: its first discard is its lowest, 1s
    1: "2s3s4s5s6s2z3z3z3z4z4z4z6z",  # South (a bot)
    2: "2356m123p456p789p",  # West: A
    3: "1344m567p789s111z",  # North: B
}


def two_people_app(store: Any) -> tuple[Any, Scripted]:
    script = Scripted({0: 2, 1: 3}, TWO_PEOPLE_HANDS, draws="4m")
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE, match_factory=script,
                     bot_factory=plan_bots)
    return app, script


@pytest.fixture
def store() -> Any:
    from tjmj.web.store import Store

    s = Store("sqlite://")
    yield s
    s.close()


def answer(ws: Any, pred: Callable[[Msg], bool], seen: list[Msg] | None = None, timeout: float = 10) -> Msg:
    """The next state that satisfies ``pred`` (every message on the way kept in ``seen``)."""
    msg, got = recv_until(ws, lambda x: x["type"] == "state" and pred(x), timeout=timeout)
    if seen is not None:
        seen.extend(got)
    return msg


# ---- the API: every family's presets ---------------------------------------------------------


def test_rooms_accept_every_family_and_check_overrides_by_its_rules(store: Any) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        made = {}
        for body in ({"preset": "classic"}, {"preset": "yiyou"}, {"preset": "beijing"}, {"preset": "beijing_a"},
                     {"family": "beijing"}, {"family": "tianjin"}, {"family": "beijing", "preset": "beijing_a"},
                     {"preset": "beijing_a", "overrides": {"cap": 64, "upstairs": True}},
                     {"preset": "beijing", "overrides": {"hunyou": False}, "match_hands": 2}):
            r = client.post("/api/rooms", json=body)
            assert r.status_code == 200, (body, r.text)
            made[orjson.dumps(body)] = client.get(f"/api/rooms/{r.json()['room']}").json()["rules"]
        rules = list(made.values())
        assert [(x["family"], x["preset"]) for x in rules[:7]] == [
            ("tianjin", "classic"), ("tianjin", "yiyou"), ("beijing", "beijing"), ("beijing", "beijing_a"),
            ("beijing", "beijing"), ("tianjin", "classic"), ("beijing", "beijing_a")]
        assert rules[7]["cap"] == 64 and rules[7]["upstairs"] is True and rules[7]["wilds"] is False
        assert rules[8]["hunyou"] is False and rules[8]["match_hands"] == 2
        bad = [
            {"family": "beijing", "preset": "classic"},  # a preset of another family
            {"family": "tianjin", "preset": "beijing_a"},
            {"family": "mahjong"},
            {"family": 5},
            {"preset": "beijing_b"},
            {"preset": "beijing", "overrides": {"min_fan": 1}},  # a Tianjin option
            {"preset": "classic", "overrides": {"hunyou": False}},  # a Beijing option
            {"preset": "beijing", "overrides": {"max_claims": 99}},
            {"preset": "beijing", "overrides": {"scoring": "times"}},
            {"preset": "beijing_a", "overrides": {"wilds": "yes"}},
            {"preset": "beijing", "overrides": {"family": "tianjin"}},
        ]
        for body in bad:
            for path in ("/api/rooms", "/api/quick"):
                r = client.post(path, json=body)
                assert r.status_code == 400 and r.json()["error"], (path, body, r.text)
        # the errors name what is wrong
        assert "beijing" in client.post("/api/rooms", json=bad[0]).json()["error"]
        assert "min_fan" in client.post("/api/rooms", json=bad[5]).json()["error"]


# ---- a quick game to the settlement -------------------------------------------------------------


@pytest.mark.parametrize("preset", ["beijing", "beijing_a"])
def test_a_quick_beijing_game_plays_to_the_settlement(store: Any, preset: str) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        d = quick(client, match_hands=1, family="beijing", preset=preset)
        info = client.get(f"/api/rooms/{d['room']}").json()
        assert info["rules"]["family"] == "beijing" and info["rules"]["preset"] == preset
        with seat_ws(client, d["room"], d["token"]) as ws:
            assert recv(ws)["type"] == "room"
            settle, seen = play(ws, is_settlement)
        states = [m for m in seen if m["type"] == "state"]
        assert states and all(s["rules"]["family"] == "beijing" for s in states)
        assert {s["obs"]["phase"] for s in states} <= {"turn", "claim", "rob", "over"}  # no 坐庄/拉庄 (B7)
        table = next(s["obs"] for s in states if "seats" in s["obs"])
        assert {"indicator", "wilds", "reserve", "wall_left", "upstairs", "shaozhuang", "passed_win"} <= set(table)
        assert (table["indicator"] is None) == (preset == "beijing_a") and table["reserve"] == 14
        assert all({"hunyou", "claims"} <= set(st) for st in table["seats"])
        assert settle["family"] == "beijing" and settle["over"] and sum(settle["deltas"]) == 0
        assert "sit" not in settle and "chan" not in settle
        for p in settle["payments"]:
            product = 1
            for f in p["why"]:
                product *= f["times"]
            assert p["why"] and product == p["amount"], p
        if settle["win"]:
            w = settle["win"]
            assert w["formula"].endswith(str(w["value"])) or "→" in w["formula"]
            assert all({"code", "chinese", "english", "value", "counts"} <= set(e) for e in w["elements"])
        # the record replays; the replay frames and the history know the family
        events = store.events(d["match_id"])
        assert replay(events).ok
        (record,) = list(read_records(io.BytesIO(client.get(f"/api/matches/{d['match_id']}/record").content)))
        assert record[0]["rules"]["family"] == "beijing"
        fr = client.get(f"/api/matches/{d['match_id']}/frames").json()
        assert fr["match"]["rules"]["family"] == "beijing"
        assert any("reserve" in f["state"] and len(f["state"]["seats"][0]["hand"]) >= 13
                   for f in fr["frames"] if "seats" in f["state"])
        listed = client.get("/api/matches").json()["matches"]
        assert next(m for m in listed if m["id"] == d["match_id"])["rules"]["family"] == "beijing"


# ---- two people: a chi, and a win on a discard ------------------------------------------------


def test_two_people_a_chi_and_a_win_on_a_discard_with_hidden_answers(store: Any) -> None:
    app, script = two_people_app(store)
    with TestClient(app) as client:
        r = client.post("/api/rooms", json={"name": "Ann", "family": "beijing", "preset": "beijing",
                                            "match_hands": 1})
        room, ann_token = r.json()["room"], r.json()["token"]
        bob_token = client.post(f"/api/rooms/{room}/join", json={"name": "Bob"}).json()["token"]
        with seat_ws(client, room, ann_token) as ann, seat_ws(client, room, bob_token) as bob, \
                seat_ws(client, room) as spec:
            assert client.post(f"/api/rooms/{room}/start", json={"token": ann_token}).status_code == 200
            m = script.made[-1]
            assert m.seating[2] == 0 and m.seating[3] == 1  # Ann sits West, Bob North
            # South discarded 4m: Ann is asked first (chi, three ways), Bob's pon waits behind her
            ann_first: list[Msg] = []
            st = answer(ann, lambda x: x["legal"] and x["obs"]["phase"] == "claim", ann_first)
            # the deal came as events, as Ann may see it (no start_game: its seed deals every hand)
            evs = [e for x in ann_first if x["type"] == "events" for e in x["events"]]
            deal = next(e for e in evs if e["type"] == "start_kyoku")
            assert [h is not None for h in deal["tehais"]] == [False, False, True, False] and "wall" not in deal
            assert not any(e["type"] == "start_game" for e in evs)
            # she is not told that Bob may claim too: that would tell of his hand
            assert st["you"] == 2 and st["obs"]["window"] == {"kind": "discard", "tile": "4m", "from": 1,
                                                              "waiting": [2]}
            assert st["legal"] == ["chi 2m", "chi 3m", "chi 4m", "pass"]
            assert st["obs"]["indicator"] == "7z" and st["obs"]["wilds"] == ["5z"]
            bob_seen: list[Msg] = []
            ann.send_json({"type": "action", "action": "chi 3m", "version": st["version"]})
            st_b = answer(bob, lambda x: bool(x["legal"]), bob_seen)
            assert st_b["legal"] == ["pon 4m", "pass"] and st_b["obs"]["window"]["waiting"] == [3]
            # Ann's answer stays hidden from Bob (and everyone) until the window closes
            assert not any(e["type"] == "chi" for x in bob_seen if x["type"] == "events" for e in x["events"])
            assert b"chi" not in orjson.dumps([x for x in bob_seen if x["type"] == "state"])
            ann_seen = poll(ann)
            assert not any(e["type"] == "chi" for x in ann_seen if x["type"] == "events" for e in x["events"])
            bob.send_json({"type": "action", "action": "pass", "version": st_b["version"]})
            # the chi is made: Ann holds [345m] and discards without drawing
            st = answer(ann, lambda x: x["obs"]["phase"] == "turn" and x["to_act"] == 2 and bool(x["legal"]))
            assert st["obs"]["seats"][2]["melds"] == ["[345m]"] and st["obs"]["seats"][2]["claims"] == 1
            assert st["obs"]["drawn"] is None and "win" not in st["legal"]
            # her hint: discarding 2m leaves a single wait on 6m (or a wild), won only self-drawn (B3)
            ann.send_json({"type": "hint"})
            h, _ = recv_until(ann, lambda x: x["type"] in ("hint", "error"))
            assert h["type"] == "hint", h
            by_tile = {x["tile"]: x for x in h["discards"]}
            assert set(by_tile) == {x.split()[1] for x in st["legal"] if x.startswith("discard")}
            two = by_tile["2m"]
            assert two["shanten"] == 0 and [w["tile"] for w in two["waits"]] == ["6m", "5z"]  # or the wild
            wait, wild = two["waits"]
            assert wait["value"] == 8 and wait["win"] and wait["live"] == 3 and not wait["discard"]["win"]
            assert "fan" not in wait and set(wait["elements"]) == {"LONG", "ZIMO", "WUHUN"}
            assert wild["value"] == 4 and "WUHUN" not in wild["elements"]  # the wild pairs the 6m: not 无混儿
            ann.send_json({"type": "action", "action": "discard 2m", "version": st["version"]})
            # Bob may win on it (and chi it); he wins
            st_b = answer(bob, lambda x: bool(x["legal"]) and x["obs"]["phase"] == "claim")
            assert st_b["obs"]["window"]["tile"] == "2m" and st_b["legal"] == ["win", "chi 1m", "chi 2m", "pass"]
            bob.send_json({"type": "action", "action": "win", "version": st_b["version"]})
            settles = [recv_until(ws, is_settlement)[0] for ws in (ann, bob, spec)]
            spec_msgs = poll(spec)
        assert settles[0] == settles[1] == settles[2]
        s = settles[0]
        assert s["family"] == "beijing" and s["winner"] == 3 and s["indicator"] == "7z" and s["wilds"] == ["5z"]
        w = s["win"]
        assert w["from"] == 2 and not w["self_drawn"] and w["tile"] == "2m" and w["value"] == 4
        assert [e["code"] for e in w["elements"]] == ["MENQING", "WUHUN", "DIANPAO"]
        assert [e["counts"] for e in w["elements"]] == [True, True, False]
        assert w["formula"] == "门清 ×2 · 无混儿 ×2 = 4"
        assert w["formula_en"] == "concealed hand ×2 · no wild ×2 = 4"
        pays = {p["payer"]: p for p in s["payments"]}
        assert {p: x["amount"] for p, x in pays.items()} == {0: 4, 1: 4, 2: 8}
        assert pays[2]["why"] == [{"key": "value", "times": 4}, {"key": "dianpao", "times": 2}]
        assert pays[0]["why"] == [{"key": "value", "times": 4}]
        assert s["deltas"] == [-4, -4, -8, 16]
        assert not any(x["type"] == "state" and "hand" in x["obs"] for x in spec_msgs)
        assert replay(store.events(app.state.lobby.get(room).match_id)).ok


def test_a_claim_window_open_for_someone_else_says_so_and_hides_who_is_asked(store: Any) -> None:
    """Bob's view while Ann decides on South's 4m: a window, waiting on others, no legal action;
    who else is asked is not said (it would tell something of their hand): only that Bob is."""
    app, _ = two_people_app(store)
    with TestClient(app) as client:
        r = client.post("/api/rooms", json={"name": "Ann", "preset": "beijing", "match_hands": 1})
        room, ann_token = r.json()["room"], r.json()["token"]
        bob_token = client.post(f"/api/rooms/{room}/join", json={"name": "Bob"}).json()["token"]
        with seat_ws(client, room, ann_token) as ann, seat_ws(client, room, bob_token) as bob, \
                seat_ws(client, room) as spec:
            client.post(f"/api/rooms/{room}/start", json={"token": ann_token})
            st_a = answer(ann, lambda x: bool(x["legal"]) and x["obs"]["phase"] == "claim")
            assert st_a["to_act"] == 2 and st_a["obs"]["window"]["waiting"] == [2]  # Ann alone: not whether Bob is asked
            st_b = answer(bob, lambda x: x["obs"]["phase"] == "claim" and x["obs"]["window"]["tile"] == "4m")
            assert st_b["legal"] == [] and st_b["to_act"] is None and st_b["obs"]["to_act"] is None
            assert st_b["obs"]["window"] == {"kind": "discard", "tile": "4m", "from": 1, "waiting": [3]}
            st_s = answer(spec, lambda x: x["obs"]["phase"] == "claim" and x["obs"]["window"]["tile"] == "4m")
            assert st_s["to_act"] is None and st_s["obs"]["window"]["waiting"] == []
            bob.send_json({"type": "action", "action": "pon 4m", "version": st_b["version"]})  # not his turn yet
            err, _ = recv_until(bob, lambda x: x["type"] == "error")
            assert err["code"] == "not_your_turn" and "seat 2" not in err["message"]  # nor who is asked
            bob.send_json({"type": "hint"})  # hints are for a turn, not a window
            assert recv_until(bob, lambda x: x["type"] == "error")[0]["code"] == "not_your_turn"


# ---- the settlement explains the value and every payment --------------------------------------


def _hands(m: Match) -> list[list[dict[str, Any]]]:
    out, cur = [], []
    for ev in m.events:
        if ev["type"] == "start_kyoku":
            cur = [ev]
        elif cur:
            cur.append(ev)
            if ev["type"] == "end_kyoku":
                out.append(cur)
                cur = []
    return out


def test_every_payment_of_random_beijing_matches_is_explained() -> None:
    """Whatever happens — 点炮, 包三家, 抢杠, 互包, 混儿悠, 烧庄, 上楼 — each payment's factors
    multiply to its amount, and each win's formula ends with its value."""
    keys: set[str] = set()
    for preset in ("beijing", "beijing_a"):
        rules = Rules.preset(preset, match_hands=6)
        for seed in range(40):
            rng = random.Random(seed)
            m = Match(rules, seed=seed)
            while not m.is_over:
                s = m.to_act
                legal = m.legal_actions(s)
                wins = [a for a in legal if a.type in ("win", "hungang", "hunyou")]
                bold = [a for a in legal if a.type in ("chi", "pon", "kong", "added_kong", "ankong")]
                if wins:
                    m.apply(s, rng.choice(wins))
                else:
                    m.apply(s, rng.choice(bold) if bold and rng.random() < 0.3 else rng.choice(legal))
            for hand in _hands(m):
                hora = next((e for e in hand if e["type"] == "hora"), None)
                end = hand[-1]
                if hora is not None:
                    w = beijing_win_detail(hora, rules)  # type: ignore[arg-type]
                    assert w["formula"].endswith(str(w["value"])), w
                for p in beijing_payments_detail(hora, hand[0], hand, end["payments"], rules):  # type: ignore[arg-type]
                    product = 1
                    for f in p["why"]:
                        product *= f["times"]
                        keys.add(f["key"])
                    assert p["why"] and product == p["amount"], (preset, seed, p)
    assert {"value", "dianpao", "discarder", "mutual", "upstairs"} <= keys


def test_version_a_halves_an_open_hand_and_the_discarder_pays_for_all() -> None:
    rules = Rules.preset("beijing_a")
    hora = {"type": "hora", "actor": 2, "target": 3, "pai": "6m", "hand": [], "melds": ["[345m]"], "value": 2,
            "elements": ["LONG"], "name": "一条龙", "self_drawn": False, "rob_kong": False, "kong_draw": False,
            "last_tile": False, "hunyou": False}
    w = beijing_win_detail(hora, rules)  # type: ignore[arg-type]
    assert w["halved"] and w["formula"] == "一条龙 +3 = 3；未门清，减半（进一）→ 2"
    assert w["formula_en"] == "pure straight 1-9 +3 = 3; not concealed: half, rounded up → 2"
    assert w["elements"][0]["value"] == "+3" and w["from"] == 3
    kyoku = {"type": "start_kyoku", "upstairs": False}
    pays = beijing_payments_detail(hora, kyoku, [kyoku, hora], [{"reason": "win", "payer": 3, "payee": 2, "amount": 6}],
                                   rules)  # type: ignore[arg-type]
    assert pays[0]["why"] == [{"key": "value", "times": 2}, {"key": "discarder", "times": 3}]
    # version B: a flat 40 and 上楼, 烧庄 (10 each from the dealer), a 混儿悠 cut short
    b = Rules.preset("beijing", base=2)
    flat = {**hora, "actor": 1, "target": 1, "self_drawn": True, "value": 40, "elements": ["HUNGANG"], "name": "混杠"}
    wb = beijing_win_detail(flat, b)  # type: ignore[arg-type]
    assert wb["hungang"] and wb["formula"] == "混杠（固定）= 40" and wb["from"] is None
    events = [{"type": "start_kyoku", "upstairs": True}, {"type": "dahai", "actor": 0, "pai": "1m", "hunyou": True},
              {"type": "shaozhuang", "actor": 0, "pai": "1z", "rounds": 1}, flat]
    payments = [{"reason": "win", "payer": 0, "payee": 1, "amount": 40 * 2 * 2 * 2},
                {"reason": "win", "payer": 2, "payee": 1, "amount": 40 * 2 * 2},
                {"reason": "win", "payer": 3, "payee": 1, "amount": 40 * 2 * 2},
                {"reason": "shaozhuang", "payer": 0, "payee": 1, "amount": 10 * 2 * 2}]
    out = beijing_payments_detail(flat, events[0], events, payments, b)  # type: ignore[arg-type]
    assert [[f["key"] for f in p["why"]] for p in out] == [
        ["value", "hunyou", "base", "upstairs"], ["value", "base", "upstairs"], ["value", "base", "upstairs"],
        ["shaozhuang", "base", "upstairs"]]
    wrong = beijing_payments_detail(flat, events[0], events, [{**payments[1], "amount": 7}], b)  # type: ignore[arg-type]
    assert wrong[0]["why"] == []  # never a wrong explanation


# ---- robustness ------------------------------------------------------------------------------


class BrokenBot:
    name = "broken"

    def choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        raise IndexError("this bot cannot play this family")


def test_a_failing_bot_is_replaced_by_the_baseline_for_that_decision(store: Any, caplog: Any) -> None:
    from tjmj.bots import make_bot

    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE,
                     bot_factory=lambda name: BrokenBot() if name == "strong" else make_bot(name))
    with TestClient(app) as client:
        d = quick(client, match_hands=1, preset="beijing_a", bots="strong")
        with seat_ws(client, d["room"], d["token"]) as ws:
            settle, _ = play(ws, is_settlement)
        assert settle["over"] and client.get(f"/api/rooms/{d['room']}").json()["status"] == "over"
    assert any("the baseline bot decides" in r.getMessage() for r in caplog.records)


def test_the_pages_offer_both_families(store: Any) -> None:
    """The lobby offers the family for a room and for the quick game (its presets from the
    registry the server sends, /static/registry.js); the table's script knows Beijing's actions (the
    browser tests play them)."""
    app = create_app(store, bot_delay=0)
    with TestClient(app) as client:
        lobby = client.get("/").text
        assert 'id="family"' in lobby and 'id="quick_family"' in lobby and 'value="beijing"' in lobby
        js = client.get("/static/registry.js").text
        assert '"beijing_a"' in js and '"yiyou"' in js
        assert '"family_beijing":' in js  # the family's name, in the pages' strings
        table = client.get("/static/table.js").text
        for needed in ("chiTiles", "hunyou", "reserve_line", "window_waiting", "act_win_rob", "act_win_discard",
                       "hungang"):
            assert needed in table, needed
        i18n = client.get("/static/i18n.js").text
        for key in ("indicator_bj", "why_dianpao", "why_upstairs", "why_mutual", "why_hunyou",
                    "why_shaozhuang", "why_rob_kong", "why_discarder", "settle_upstairs", "upstairs_mark",
                    "act_win_rob", "act_win_discard", "act_hungang"):
            assert f"{key}:" in i18n, key


def test_scripted_factory_seats_players_as_asked() -> None:
    rules = Rules.preset("beijing")
    seed = seed_for(rules, {0: 2, 1: 3})
    m = Match(rules, seed=seed)
    assert m.seating[2] == 0 and m.seating[3] == 1
    s = Scripted({0: 2}, TWO_PEOPLE_HANDS, draws="4m")(rules, 1, ["a", "b", "c", "d"])
    assert s.observation(2)["hand"] == ["2m", "3m", "5m", "6m", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p"]
    assert s.observation(2)["indicator"] == "7z"
