"""The web table playing Chinese Official mahjong (国标麻将, docs/rules/MCR.md; issue 12, item 5): the
lobby's API for the family and its preset, the state (winds, flowers), flower events seen by all, the
win preview for the winning seat only, a win on a discard and a self-drawn win to the settlement
(each fan by name, the flowers, the total, M4's payments as sums, every hand face up, the
arrangement), hints (shanten and waits with their fan, or "not available"), the tile pictures of the
flowers, and a quick MCR game played to the end of its match.

Scripted games use the app's test hooks: ``match_factory`` deals the room's first hand from a
scripted 144-tile wall (:func:`tests.test_mcr_rules.mcr_wall`) with a seed chosen for the seating,
and ``bot_factory`` gives bots that never claim or win (:class:`tests.test_beijing_web.PlanBot`).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

import orjson
import pytest
from starlette.testclient import TestClient

from tests.test_beijing_web import PlanBot, answer, seed_for
from tests.test_mcr_rules import mcr_wall
from tests.test_web import FAST, LOOSE, Msg, is_settlement, play, poll, quick, recv, recv_until, seat_ws
from tjmj.families.mcr import webview as mcr_webview
from tjmj.families.mcr.webview import arrangement as mcr_arrangement
from tjmj.families.mcr.webview import payments_detail as mcr_payments_detail
from tjmj.families.mcr.webview import win_detail as mcr_win_detail
from tjmj.game import Match
from tjmj.record import read_records, replay
from tjmj.rules import Rules
from tjmj.web import hints
from tjmj.web import room_hints as room_mod
from tjmj.web.app import create_app


def plan_bots(name: str) -> PlanBot:
    return PlanBot()


class McrScripted:
    """A ``match_factory``: the room's first hand dealt from a scripted MCR wall (the dealer is
    East), with a seed that seats each player where the script wants them ({player: seat})."""

    def __init__(self, seats: Mapping[int, int], hands: Mapping[int, str], replacements: str = "",
                 draws: str = "", avoid: str = "") -> None:
        self.seats, self.hands = dict(seats), dict(hands)
        self.replacements, self.draws, self.avoid = replacements, draws, avoid
        self.made: list[Match] = []

    def __call__(self, rules: Rules, seed: int, names: list[str]) -> Match:
        wall = mcr_wall(0, self.hands, draws=self.draws, replacements=self.replacements, avoid=self.avoid)
        m = Match(rules, seed=seed_for(rules, self.seats), names=names, walls=[wall])
        self.made.append(m)
        return m


@pytest.fixture
def store() -> Any:
    from tjmj.web.store import Store

    s = Store("sqlite://")
    yield s
    s.close()


# Ann (player 0) sits South, Bob (player 1) West.  East (a bot, the dealer) holds bamboo and honours
# only and discards its lowest tile, 5s, at once.  Ann was dealt a flower (1f) and 123m456m789m123p; the
# flower's replacement is 5s: she waits on 5s alone and wins on East's discard (清龙 16, 门前清 2,
# 平和 2, 喜相逢 1, 单钓将 1 = 22 fan, and 1 flower: 23).  Bob was dealt the flower 2f (replaced by
# 9p).  East pays 8 + 23 = 31, West and North 8 each (M4).
DISCARD_WIN = {
    0: "5s7s9s1z1z2z2z3z3z4z4z6z6z7z",  # East (a bot), the dealer
    1: "123m456m789m123p1f",  # South: Ann
    2: "2f",  # West: Bob (the rest dealt quietly)
}


def discard_win_app(store: Any) -> tuple[Any, McrScripted]:
    script = McrScripted({0: 1, 1: 2}, DISCARD_WIN, replacements="5s9p", avoid="5s")
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE, match_factory=script,
                     bot_factory=plan_bots)
    return app, script


def _events(msgs: list[Msg]) -> list[Msg]:
    return [e for m in msgs if m["type"] == "events" for e in m["events"]]


# ---- the API: the family and its preset --------------------------------------------------------


def test_rooms_accept_the_mcr_family_and_check_its_options(store: Any) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        for body in ({"family": "mcr"}, {"preset": "mcr"}, {"family": "mcr", "preset": "mcr", "match_hands": 16},
                     {"family": "mcr", "match_hands": None}, {"preset": "mcr", "overrides": {"flowers": False}},
                     {"preset": "mcr", "overrides": {"min_fan": 0, "base": 2}}):
            r = client.post("/api/rooms", json=body)
            assert r.status_code == 200, (body, r.text)
            rules = client.get(f"/api/rooms/{r.json()['room']}").json()["rules"]
            assert rules["family"] == "mcr" and rules["preset"] == "mcr", rules
        assert rules["min_fan"] == 0 and rules["base"] == 2
        # a full match is the preset's 16 hands (four rounds)
        r = client.post("/api/rooms", json={"family": "mcr", "match_hands": None})
        assert client.get(f"/api/rooms/{r.json()['room']}").json()["rules"]["match_hands"] == 16
        bad = [
            {"family": "mcr", "preset": "beijing"},  # a preset of another family
            {"family": "tianjin", "preset": "mcr"},
            {"family": "MCR"},
            {"preset": "mcr", "overrides": {"min_fan": 99}},  # 0..88
            {"preset": "mcr", "overrides": {"flowers": "yes"}},
            {"preset": "mcr", "overrides": {"hunyou": False}},  # a Beijing option
            {"preset": "mcr", "overrides": {"max_pull": 1}},  # a Tianjin option
            {"preset": "mcr", "overrides": {"family": "tianjin"}},
            {"family": "mcr", "match_hands": 65},
        ]
        for body in bad:
            for path in ("/api/rooms", "/api/quick"):
                r = client.post(path, json=body)
                assert r.status_code == 400 and r.json()["error"], (path, body, r.text)
        assert "mcr" in client.post("/api/rooms", json=bad[0]).json()["error"]
        assert "min_fan" in client.post("/api/rooms", json=bad[3]).json()["error"]


def test_the_pages_and_tiles_know_mcr(store: Any) -> None:
    """The lobby offers the family, the table's script draws its flowers and winds, and the flowers
    are tiles of the sprite and of ``/tiles/{name}.svg``."""
    app = create_app(store, bot_delay=0)
    with TestClient(app) as client:
        lobby = client.get("/").text
        assert lobby.count('value="mcr"') == 2  # the quick game and the room form
        assert '"mcr"' in client.get("/static/registry.js").text  # the families the lobby offers
        assert "mcrWin" in client.get("/static/families/mcr/win.js").text  # its settlement, which the table loads
        assert '"/static/families/mcr/win.js"' in client.get("/static/wins.js").text
        table = client.get("/static/table.js").text
        for needed in ("flowersEl", "prevalent_wind", "seat_winds", "hint_unavailable", "fan_flowers"):
            assert needed in table, needed
        render = client.get("/static/render.js").text
        assert '"flower"' in render and "Chrysanthemum" in render
        sprite = client.get("/tiles/sprite.svg").text
        for f in range(1, 9):
            assert f'id="t-{f}f"' in sprite
            r = client.get(f"/tiles/{f}f.svg")
            assert r.status_code == 200 and "<svg" in r.text and f"{f}f " in r.text  # its title: "3f 秋"
        assert "秋" in client.get("/tiles/3f.svg").text
        for bad in ("/tiles/9f.svg", "/tiles/0f.svg", "/tiles/1ff.svg"):
            assert client.get(bad).status_code == 404, bad


# ---- a win on a discard, with two people and a spectator ---------------------------------------


def test_a_discard_win_shows_winds_flowers_the_preview_and_the_settlement(store: Any) -> None:
    app, script = discard_win_app(store)
    with TestClient(app) as client:
        r = client.post("/api/rooms", json={"name": "Ann", "family": "mcr", "match_hands": 1})
        room, ann_token = r.json()["room"], r.json()["token"]
        bob_token = client.post(f"/api/rooms/{room}/join", json={"name": "Bob"}).json()["token"]
        with seat_ws(client, room, ann_token) as ann, seat_ws(client, room, bob_token) as bob, \
                seat_ws(client, room) as spec:
            assert client.post(f"/api/rooms/{room}/start", json={"token": ann_token}).status_code == 200
            m = script.made[-1]
            assert m.seating[1] == 0 and m.seating[2] == 1  # Ann South, Bob West
            ann_seen: list[Msg] = []
            st = answer(ann, lambda x: bool(x["legal"]) and x["obs"]["phase"] == "claim", ann_seen)
            # the state: the winds of the hand and everyone's flowers (public), no indicator or wilds
            o = st["obs"]
            assert o["prevalent_wind"] == "E" and o["seat_winds"] == ["E", "S", "W", "N"]
            assert [s["flowers"] for s in o["seats"]] == [[], ["1f"], ["2f"], []]
            assert "indicator" not in o and "wilds" not in o and o["wall_left"] > 0
            assert st["rules"]["family"] == "mcr" and st["rules"]["min_fan"] == 8 and st["rules"]["flowers"]
            assert st["rules"]["hints"] is True
            # East's 5s: Ann may win on it; the button's preview is hers alone
            assert o["window"] == {"kind": "discard", "tile": "5s", "from": 0, "waiting": [1]}
            assert st["legal"] == ["win", "pass"]
            p = st["win_preview"]
            assert (p["fan"], p["flowers"], p["total"], p["payment"]) == (22, 1, 23, 31 + 8 + 8)
            assert [f["code"] for f in p["fans"]][-1] == "flower_tiles"
            assert [d["english"] for d in p["elements_detail"]][:2] == ["Pure Straight", "Concealed Hand"]
            assert p["elements_detail"][0]["chinese"] == "清龙"
            # the flowers were laid aside in public: Bob and the spectator saw Ann's, and the deal
            # showed nobody another seat's tiles (her flower among them)
            for ws in (bob, spec):
                seen = poll(ws)
                evs = _events(seen)
                assert {(e["actor"], e["pai"]) for e in evs if e["type"] == "flower"} == {(1, "1f"), (2, "2f")}
                deal = next(e for e in evs if e["type"] == "start_kyoku")
                assert deal["tehais"][1] is None
                assert not any("win_preview" in x for x in seen if x["type"] == "state")
            assert {(e["actor"], e["pai"]) for e in _events(ann_seen) if e["type"] == "flower"} == {(1, "1f"), (2, "2f")}
            ann.send_json({"type": "hint"})  # a window, not a turn
            assert recv_until(ann, lambda x: x["type"] == "error")[0]["code"] == "not_your_turn"
            ann.send_json({"type": "action", "action": "win", "version": st["version"]})
            settles = [recv_until(ws, is_settlement)[0] for ws in (ann, bob, spec)]
        assert settles[0] == settles[1] == settles[2]
        s = settles[0]
        assert s["family"] == "mcr" and s["winner"] == 1 and s["prevalent_wind"] == "E"
        assert s["seat_winds"] == ["E", "S", "W", "N"] and s["flowers"] == [[], ["1f"], ["2f"], []]
        assert "indicator" not in s and "sit" not in s
        w = s["win"]
        assert (w["seat"], w["from"], w["tile"], w["self_drawn"]) == (1, 0, "5s", False)
        assert (w["fan"], w["flowers"], w["total"], w["min_fan"]) == (22, 1, 23, 8)
        assert [(f["chinese"], f["english"], f["fan"], f["count"]) for f in w["fans"]] == [
            ("清龙", "Pure Straight", 16, 1), ("门前清", "Concealed Hand", 2, 1), ("平和", "All Chows", 2, 1),
            ("喜相逢", "Mixed Double Chow", 1, 1), ("单钓将", "Single Wait", 1, 1), ("花牌", "Flower Tiles", 1, 1)]
        assert [f["flower"] for f in w["fans"]] == [False] * 5 + [True]
        assert w["formula"] == "22番 + 花牌 1 = 23" and w["formula_en"] == "22 fan + 1 flower = 23"
        # M4: the discarder pays 8 + the total, the others 8
        pays = {p["payer"]: p for p in s["payments"]}
        assert {p: x["amount"] for p, x in pays.items()} == {0: 31, 2: 8, 3: 8}
        assert pays[0]["formula"] == pays[0]["formula_en"] == "8 + 23 = 31" and pays[0]["terms"] == [8, 23]
        assert pays[2]["formula"] == "8" and pays[3]["terms"] == [8]
        assert s["deltas"] == [-31, 47, -8, -8] and sum(s["deltas"]) == 0
        # every hand face up, with its flowers; the winner's without the winning tile
        hands = s["hands"]
        assert len(hands) == 4 and hands[1]["flowers"] == ["1f"] and hands[2]["flowers"] == ["2f"]
        assert sorted(hands[1]["tiles"]) == sorted(w["hand"]) and len(hands[0]["tiles"]) == 13
        assert all(len(h["tiles"]) + 3 * len(h["melds"]) == 13 for h in hands)
        # the arrangement, group by group, the winning tile in the pair
        arr = w["arrangement"]
        assert arr["shape"] == "standard"
        assert [(g["kind"], g["tiles"]) for g in arr["groups"]] == [
            ("chow", ["1m", "2m", "3m"]), ("chow", ["4m", "5m", "6m"]), ("chow", ["7m", "8m", "9m"]),
            ("chow", ["1p", "2p", "3p"]), ("pair", ["5s", "5s"])]
        assert arr["winning_group"] == 4 and arr["groups"][4]["winning"] == 0
        # the record replays; the replay's frames show the flowers and the winds
        match_id = app.state.lobby.get(room).match_id
        events = store.events(match_id)
        assert replay(events).ok
        (record,) = list(read_records(io.BytesIO(client.get(f"/api/matches/{match_id}/record").content)))
        assert record[0]["rules"]["family"] == "mcr"
        fr = client.get(f"/api/matches/{match_id}/frames").json()
        assert any(f["state"].get("prevalent_wind") == "E" and f["state"]["seats"][1]["flowers"] == ["1f"]
                   for f in fr["frames"] if "seats" in f["state"])
        flower_events = [e for f in fr["frames"] for e in f["events"] if e["type"] == "flower"]
        assert [(e["actor"], e["pai"]) for e in flower_events] == [(1, "1f"), (2, "2f")]
        hora = next(e for f in fr["frames"] for e in f["events"] if e["type"] == "hora")
        assert hora["elements_detail"][0] == {"code": "pure_straight", "chinese": "清龙", "english": "Pure Straight"}


# ---- a self-drawn win, hints ---------------------------------------------------------------------


def test_a_self_drawn_win_each_pays_8_plus_the_total(store: Any) -> None:
    """Ann deals herself 123m456m789m123p55s (and a flower): each of the three pays 8 + the total."""
    script = McrScripted({0: 0}, {0: "123m456m789m123p5s3f"}, replacements="5s")
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE, match_factory=script,
                     bot_factory=plan_bots)
    with TestClient(app) as client:
        d = quick(client, match_hands=1, family="mcr")
        with seat_ws(client, d["room"], d["token"]) as ws:
            st = answer(ws, lambda x: "win" in x["legal"])
            assert st["obs"]["seats"][0]["flowers"] == ["3f"]
            p = st["win_preview"]
            assert p["flowers"] == 1 and p["total"] == p["fan"] + 1 and p["payment"] == 3 * (8 + p["total"])
            ws.send_json({"type": "action", "action": "win", "version": st["version"]})
            s, _ = recv_until(ws, is_settlement)
        w = s["win"]
        assert w["self_drawn"] and w["from"] is None and w["total"] == p["total"]
        assert "self_drawn" in {f["code"] for f in w["fans"]} or "fully_concealed_hand" in {f["code"] for f in w["fans"]}
        formula = f"8 + {w['total']} = {8 + w['total']}"
        assert [(x["amount"], x["formula"]) for x in s["payments"]] == [(8 + w["total"], formula)] * 3
        assert s["deltas"][0] == 3 * (8 + w["total"]) and s["over"] and s["standings"][0]["seat"] == 0


def test_hints_give_shanten_and_each_wait_with_its_fan(store: Any) -> None:
    """Ann deals herself 123m456m789m123p5s9s: discarding 9s (or 5s) leaves her waiting on 5s (on 9s)
    with at least 8 fan; any other discard leaves her a step from ready."""
    script = McrScripted({0: 0}, {0: "123m456m789m123p5s9s"})
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE, match_factory=script,
                     bot_factory=plan_bots)
    with TestClient(app) as client:
        d = quick(client, match_hands=1, family="mcr")
        with seat_ws(client, d["room"], d["token"]) as ws:
            st = answer(ws, lambda x: bool(x["legal"]) and x["obs"]["phase"] == "turn")
            ws.send_json({"type": "hint"})
            h, _ = recv_until(ws, lambda x: x["type"] in ("hint", "error"))
        assert h["type"] == "hint" and h["available"] is True and h["version"] == st["version"]
        by_tile = {x["tile"]: x for x in h["discards"]}
        assert set(by_tile) == {a.split()[1] for a in st["legal"] if a.startswith("discard ")}
        nine = by_tile["9s"]
        assert nine["shanten"] == 0 and [x["tile"] for x in nine["waits"]] == ["5s"]
        wait = nine["waits"][0]
        assert wait["win"] and wait["fan"] >= 8 and wait["live"] == 3 and wait["discard"]["win"]
        assert wait["fan"] > wait["discard"]["fan"]  # self-drawn scores more (不求人 over 门前清)
        assert wait["fans"][0] == {"code": "pure_straight", "name": "清龙", "en": "Pure Straight", "fan": 16, "count": 1}
        assert nine["summary"].startswith("ready") and nine["summary_zh"].startswith("听牌")
        assert by_tile["1m"]["shanten"] == 1 and by_tile["1m"]["waits"] == []
        assert by_tile["1m"]["improving"] > 0 and by_tile["1m"]["summary"].startswith("1 from ready")
        ranks = sorted(h["discards"], key=lambda x: x["rank"])
        assert {ranks[0]["tile"], ranks[1]["tile"]} == {"9s", "5s"} and [x["rank"] for x in ranks] == list(
            range(1, len(ranks) + 1))


def test_a_ready_hand_under_8_fan_says_it_cannot_win() -> None:
    """M2: 123m789m456p333z + 2s — ready on 2s (a single wait) but under 8 fan (7 self-drawn): listed,
    not a win."""
    rules = Rules.preset("mcr", match_hands=1)
    m = Match(rules, seed=seed_for(rules, {0: 0}), walls=[mcr_wall(0, {0: "123m789m456p333z2s7z"})])
    assert m.to_act == 0
    out = hints.hint(m, 0)
    seven = next(x for x in out if x["tile"] == "7z")
    assert seven["shanten"] == 0 and [w["tile"] for w in seven["waits"]] == ["2s"]
    assert not seven["waits"][0]["win"] and seven["waits"][0]["fan"] < 8
    assert "8 fan" in seven["summary"] and seven["ev"] == 0


def test_hints_not_available_are_said_so_and_a_failing_advisor_costs_only_the_hint(store: Any,
                                                                                  monkeypatch: Any) -> None:
    script = McrScripted({0: 0}, {0: "123m456m789m123p5s9s"})
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE, match_factory=script,
                     bot_factory=plan_bots)
    with TestClient(app) as client:
        d = quick(client, match_hands=1, family="mcr")
        with seat_ws(client, d["room"], d["token"]) as ws:
            st = answer(ws, lambda x: bool(x["legal"]) and x["obs"]["phase"] == "turn")
            monkeypatch.setattr(mcr_webview, "hint_compute", lambda *a: 1 / 0)  # (computed in a worker thread)
            ws.send_json({"type": "hint"})
            h, _ = recv_until(ws, lambda x: x["type"] in ("hint", "error"))
            assert h["type"] == "hint" and h["available"] is False and h["discards"] == []
            monkeypatch.setattr(room_mod, "hint_available", lambda rules: False)
            ws.send_json({"type": "hint"})
            h, _ = recv_until(ws, lambda x: x["type"] in ("hint", "error"))
            assert h["type"] == "hint" and h["available"] is False
            ws.send_json({"type": "action", "action": "discard 9s", "version": st["version"]})  # the table goes on
            st = answer(ws, lambda x: x["obs"]["seats"][0]["discards"] == ["9s"])
            assert st["status"] == "playing"


# ---- the settlement's helpers ----------------------------------------------------------------------


def test_payments_with_a_base_and_a_robbed_kong_are_explained() -> None:
    rules = Rules.preset("mcr", base=2)
    hora = {"type": "hora", "actor": 2, "target": 3, "pai": "5s", "hand": [], "melds": [], "fan": 10, "flowers": 2,
            "total": 12, "fans": [], "name": "", "self_drawn": False, "rob_kong": True}
    pays = [{"reason": "win", "payer": 3, "payee": 2, "amount": 40}, {"reason": "win", "payer": 0, "payee": 2, "amount": 16},
            {"reason": "win", "payer": 1, "payee": 2, "amount": 16}]
    out = mcr_payments_detail(hora, pays, rules)  # type: ignore[arg-type]
    assert [p["formula"] for p in out] == ["(8 + 12) × 2 = 40", "8 × 2 = 16", "8 × 2 = 16"]
    wrong = mcr_payments_detail(hora, [{**pays[0], "amount": 7}], rules)  # type: ignore[arg-type]
    assert wrong[0]["formula"] == "7" and wrong[0]["terms"] == []  # never a wrong explanation
    w = mcr_win_detail(hora, rules)  # type: ignore[arg-type]
    assert w["rob_kong"] and w["from"] == 3 and w["formula"] == "10番 + 花牌 2 = 12"


def test_every_random_mcr_win_is_explained_and_arranged() -> None:
    """Whatever wins (claimed melds, kongs, robbed kongs, flowers): each payment's sum is its amount,
    and the arrangement re-scores to the engine's fans with the winning tile in a group."""
    import random

    rules = Rules.preset("mcr", match_hands=4, min_fan=0)
    wins = 0
    for seed in range(25):
        rng = random.Random(seed)
        m = Match(rules, seed=seed)
        while not m.is_over:
            s = m.to_act
            legal = m.legal_actions(s)
            w = [a for a in legal if a.type == "win"]
            bold = [a for a in legal if a.type in ("chi", "pon", "kong", "added_kong", "ankong")]
            m.apply(s, w[0] if w else rng.choice(bold) if bold and rng.random() < 0.5 else rng.choice(legal))
        hand: list[dict[str, Any]] = []
        for ev in m.events:
            if ev["type"] == "start_kyoku":
                hand = []
            hand.append(ev)
            if ev["type"] != "end_kyoku":
                continue
            hora = next((e for e in hand if e["type"] == "hora"), None)
            for p in mcr_payments_detail(hora, ev["payments"], rules):  # type: ignore[arg-type]
                assert p["terms"] and sum(p["terms"]) == p["amount"], (seed, p)
            if hora is not None:
                wins += 1
                arr = mcr_arrangement(hora, rules)  # type: ignore[arg-type]
                assert arr is not None, hora
                assert arr["winning_group"] is not None and hora["pai"] in arr["groups"][arr["winning_group"]]["tiles"]
                assert sum(len(g["tiles"]) for g in arr["groups"]) >= 14
    assert wins >= 10


# ---- a quick game to the end of its match --------------------------------------------------------


def test_a_quick_mcr_game_plays_to_the_end(store: Any) -> None:
    """Two hands against bots that play only the legal actions they are given: the dealer passes
    after every hand (M1), the settlements are sent, the match is stored."""
    from tjmj.bots import make_bot

    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE,
                     bot_factory=lambda name: make_bot("greedy"))
    with TestClient(app) as client:
        d = quick(client, match_hands=2, family="mcr")
        with seat_ws(client, d["room"], d["token"]) as ws:
            assert recv(ws)["type"] == "room"
            settle, seen = play(ws, lambda x: is_settlement(x) and x["over"])
        settlements = [x for x in seen if is_settlement(x)]
        assert [x["hand"] for x in settlements] == [0, 1] and [x["dealer"] for x in settlements] == [0, 1]
        assert [x["seat_winds"] for x in settlements] == [["E", "S", "W", "N"], ["N", "E", "S", "W"]]
        states = [x for x in seen if x["type"] == "state"]
        assert all(x["rules"]["family"] == "mcr" for x in states)
        assert {x["obs"]["phase"] for x in states} <= {"turn", "claim", "rob", "over"}
        assert any(e["type"] == "flower" for e in _events(seen))
        assert replay(store.events(d["match_id"])).ok
        listed = client.get("/api/matches").json()["matches"]
        assert next(x for x in listed if x["id"] == d["match_id"])["rules"]["family"] == "mcr"
        assert orjson.dumps(settle)  # plain JSON
