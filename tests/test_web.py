"""The web table (tjmj.web): rooms over the JSON API and the WebSocket, with bots, hidden information,
hostile clients, reconnection, storage and resume after a restart.

Every test runs the app inside ``with TestClient(app)``: one event loop for the whole test, so the
rooms' driver tasks keep running between requests.  Messages are read with a timeout (``recv``), so
a missing message fails the test instead of hanging it.
"""

from __future__ import annotations

import contextlib
import io
import time
from collections.abc import Callable, Iterator
from typing import Any

import anyio
import orjson
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tjmj.game import Match
from tjmj.record import read_records, replay
from tjmj.tiles import Tile
from tjmj.web import room as room_mod
from tjmj.web import room_hints
from tjmj.web.app import create_app
from tjmj.web.connection import Connection
from tjmj.web.limits import Limits

Msg = dict[str, Any]
FAST = (1000, 1000.0)  # the test client plays faster than any person: a looser rate limit
# one test client is one address: the HTTP limits for a crowd of players are lifted here (and tested
# in tests/test_security.py)
LOOSE_HTTP = Limits(post_burst=10_000, post_rate=1000.0, get_burst=10_000, get_rate=1000.0,
                    unseen_per_address=1000)
LOOSE = Limits(**{**LOOSE_HTTP.__dict__, "address_ws_burst": 10_000, "address_ws_rate": 10_000.0})


class FakeStore:
    """An in-memory store with the interface of tjmj.web.store.Store (used when that is missing,
    and as the base of the failing store below); one process owns everything it holds."""

    def __init__(self) -> None:
        self.matches: dict[int, dict[str, Any]] = {}
        self.stored: dict[int, list[Msg]] = {}
        self.rooms: dict[str, dict[str, Any]] = {}
        self.log: list[tuple[str, Any]] = []

    def create_match(self, room: str, rules: dict[str, Any], seed: int, players: list[dict[str, Any]], *,
                     settings: dict[str, Any] | None = None, seen: bool = False,
                     replaces_room: str | None = None) -> int:
        mid = len(self.matches) + 1
        self.matches[mid] = {"id": mid, "room": room, "status": "playing", "rules": rules, "seed": seed,
                             "players": players, "scores": None, "hands": 0, "created_at": None,
                             "finished_at": None, "settings": settings, "seen": seen, "fence": 1}
        self.stored[mid] = []
        if replaces_room:
            self.rooms.pop(replaces_room, None)
        return mid

    def append_events(self, match_id: int, events: list[Msg], *, at: int | None = None) -> None:
        assert self.matches[match_id]["status"] == "playing"
        assert at is None or at == len(self.stored[match_id]), (at, len(self.stored[match_id]))
        self.stored[match_id].extend(orjson.loads(orjson.dumps(events)))
        self.matches[match_id]["hands"] += sum(1 for e in events if e["type"] == "end_kyoku")

    def mark_seen(self, match_id: int) -> None:
        self.matches[match_id]["seen"] = True

    def discard_match(self, match_id: int) -> None:
        assert not self.stored[match_id]
        del self.matches[match_id]

    def claim_matches(self) -> list[dict[str, Any]]:
        claimed = [m for m in self.matches.values() if m["status"] == "playing" and m["seen"]]
        for m in claimed:
            m["fence"] += 1  # raised on every taking, as the real store's
        return claimed

    def claim_rooms(self) -> list[dict[str, Any]]:
        return [{"code": c, "data": d} for c, d in self.rooms.items()]

    def save_room(self, code: str, data: dict[str, Any]) -> None:
        self.rooms[code] = orjson.loads(orjson.dumps(data))

    def delete_room(self, code: str) -> None:
        self.rooms.pop(code, None)

    def renew(self) -> tuple[set[int], set[str]]:
        return {m for m, r in self.matches.items() if r["status"] == "playing"}, set(self.rooms)

    def release_all(self) -> None:
        pass

    def finish_match(self, match_id: int, scores: list[int]) -> None:
        self.matches[match_id].update(status="finished", scores=scores)

    def abandon_match(self, match_id: int) -> None:
        self.matches[match_id]["status"] = "abandoned"

    def events(self, match_id: int) -> list[Msg]:
        return list(self.stored[match_id])

    def record_jsonl(self, match_id: int) -> bytes:
        return b"".join(orjson.dumps(e) + b"\n" for e in self.stored[match_id])

    def get_match(self, match_id: int) -> dict[str, Any] | None:
        return self.matches.get(match_id)

    def list_matches(self, limit: int = 50, offset: int = 0, status: str | None = None) -> list[dict[str, Any]]:
        ms = [m for m in reversed(self.matches.values()) if status is None or m["status"] == status]
        return ms[offset : offset + limit]

    def unfinished_matches(self) -> list[dict[str, Any]]:
        return [m for m in self.matches.values() if m["status"] == "playing"]

    def close(self) -> None:
        pass


@pytest.fixture
def store() -> Iterator[Any]:
    try:
        from tjmj.web.store import Store
    except ImportError:  # the storage module is written separately
        s: Any = FakeStore()
    else:
        s = Store("sqlite://")
    yield s
    s.close()


# ---- helpers ---------------------------------------------------------------------------------


@contextlib.contextmanager
def seat_ws(client: TestClient, room: str, token: str | None = None) -> Iterator[Any]:
    """A WebSocket to the room that says who it is in its first message (a token never goes in the URL)."""
    with client.websocket_connect(f"/ws/{room}") as ws:
        ws.send_json({"type": "hello", "token": token} if token else {"type": "hello", "spectate": True})
        yield ws


def recv(ws: Any, timeout: float = 10.0) -> Msg:
    """The next message, or a test failure after ``timeout`` seconds."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000))
    return orjson.loads(message["text"])


def poll(ws: Any) -> list[Msg]:
    """Every message already waiting (none: an empty list)."""
    out = []
    while True:
        try:
            message = ws.portal.call(ws._send_rx.receive_nowait)
        except anyio.WouldBlock:
            return out
        if message["type"] == "websocket.close":
            raise WebSocketDisconnect(message.get("code", 1000))
        out.append(orjson.loads(message["text"]))


def recv_until(ws: Any, pred: Callable[[Msg], bool], limit: int = 5000, timeout: float = 10.0) -> tuple[Msg, list[Msg]]:
    seen = []
    for _ in range(limit):
        msg = recv(ws, timeout)
        seen.append(msg)
        if pred(msg):
            return msg, seen
    raise AssertionError("the expected message never came")


def choose(legal: list[str]) -> str:
    """A quick policy: win when possible, never claim, otherwise the first legal action."""
    for pref in ("win", "pass"):
        if pref in legal:
            return pref
    return legal[0]


def play(ws: Any, stop: Callable[[Msg], bool], *, policy: Callable[[list[str]], str] = choose,
         limit: int = 20000) -> tuple[Msg, list[Msg]]:
    """Act on every state that offers this seat a decision, until a message satisfies ``stop``."""
    acted = -1
    seen = []
    for _ in range(limit):
        msg = recv(ws)
        seen.append(msg)
        if stop(msg):
            return msg, seen
        if msg["type"] == "state" and msg["legal"] and msg["version"] > acted:
            acted = msg["version"]
            ws.send_json({"type": "action", "action": policy(msg["legal"]), "version": acted})
    raise AssertionError("the match did not get there")


def is_settlement(msg: Msg) -> bool:
    return msg["type"] == "settlement"


def quick(client: TestClient, name: str = "Ann", **body: Any) -> Msg:
    r = client.post("/api/quick", json={"name": name, **body})
    assert r.status_code == 200, r.text
    return r.json()


def four_humans(client: TestClient, **body: Any) -> tuple[str, list[str]]:
    """A room of four people (no bots: nothing moves unless someone acts)."""
    r = client.post("/api/rooms", json={"name": "P0", **body})
    assert r.status_code == 200, r.text
    room, tokens = r.json()["room"], [r.json()["token"]]
    for i in range(1, 4):
        j = client.post(f"/api/rooms/{room}/join", json={"name": f"P{i}"})
        assert j.status_code == 200, j.text
        assert j.json()["player"] == i
        tokens.append(j.json()["token"])
    assert client.post(f"/api/rooms/{room}/start", json={"token": tokens[0]}).status_code == 200
    return room, tokens


# ---- tests -----------------------------------------------------------------------------------


def test_quick_game_plays_a_hand_and_stores_it_before_the_settlement(store: Any, monkeypatch: Any) -> None:
    order: list[str] = []

    class Spy:
        def __getattr__(self, name: str) -> Any:
            return getattr(store, name)

        def append_events(self, match_id: int, events: list[Msg], *, at: int | None = None) -> None:
            store.append_events(match_id, events, at=at)
            order.append("stored:" + ",".join(e["type"] for e in events if e["type"] in ("end_kyoku", "end_game")))

    real_send = Connection.send

    def send(self: Any, msg: Msg) -> None:
        if msg["type"] == "settlement":
            order.append("settlement")
        elif msg["type"] == "events" and any(e["type"] == "end_kyoku" for e in msg["events"]):
            order.append("end_kyoku sent")
        real_send(self, msg)

    monkeypatch.setattr(Connection, "send", send)
    app = create_app(Spy(), bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)  # type: ignore[arg-type]
    with TestClient(app) as client:
        d = quick(client, match_hands=2)
        assert d["seat"] in range(4) and d["player"] == 0
        room = client.get(f"/api/rooms/{d['room']}").json()
        assert room["status"] == "playing" and sum(1 for p in room["players"] if p["bot"]) == 3
        assert "token" not in str(room)
        with seat_ws(client, d['room'], d['token']) as ws:
            first = recv(ws)
            assert first["type"] == "room" and first["you"] == 0
            settle, seen = play(ws, is_settlement)
    assert order[0] == "stored:end_kyoku" and order.index("stored:end_kyoku") < order.index("end_kyoku sent")
    assert order.index("end_kyoku sent") < order.index("settlement")
    assert settle["hand"] == 0 and len(settle["payments"]) == len(store.events(d["match_id"])[-1]["payments"])
    assert sum(settle["deltas"]) == 0 and settle["over"] is False
    if settle["win"]:
        assert all({"code", "chinese", "english"} <= set(e) for e in settle["win"]["elements"])
    stored = store.events(d["match_id"])
    assert stored[0]["type"] == "start_game" and stored[-1]["type"] == "end_kyoku"
    states = [m for m in seen if m["type"] == "state" and m["obs"]["phase"] == "turn"]
    assert states and all(s["you"] == d["seat"] and "hand" in s["obs"] for s in states)


def test_record_download_replays(store: Any) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        d = quick(client, match_hands=1, preset="yiyou", bots="random")
        with seat_ws(client, d['room'], d['token']) as ws:
            settle, _ = play(ws, is_settlement)
        assert settle["over"] is True and [s["rank"] for s in settle["standings"]] == [1, 2, 3, 4]
        info = client.get(f"/api/matches/{d['match_id']}").json()
        assert info["status"] == "finished" and info["scores"] == settle["scores"]
        assert any(m["id"] == d["match_id"] for m in client.get("/api/matches").json()["matches"])
        r = client.get(f"/api/matches/{d['match_id']}/record")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        matches = list(read_records(io.BytesIO(r.content)))
        assert len(matches) == 1 and replay(matches[0]).ok
        fr = client.get(f"/api/matches/{d['match_id']}/frames").json()
        assert fr["frames"][0]["events"][0]["type"] == "start_game"
        assert fr["frames"][-1]["events"][-1]["type"] == "end_game"
        assert any(len(s["hand"]) >= 13 for f in fr["frames"] if "seats" in f["state"] for s in f["state"]["seats"])
        assert client.get("/api/matches/999999/record").status_code == 404
        assert client.get("/api/matches/abc").status_code == 404


def test_two_humans_see_only_their_own_tiles_and_spectators_none(store: Any) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        r = client.post("/api/rooms", json={"name": "Ann", "preset": "classic", "match_hands": 2, "bots": "baseline",
                                            "timer_s": None})
        room, ann_token = r.json()["room"], r.json()["token"]
        j = client.post(f"/api/rooms/{room}/join", json={"name": "Bob"})
        assert j.status_code == 200 and j.json()["player"] == 1
        bob_token = j.json()["token"]
        assert client.post(f"/api/rooms/{room}/start", json={"token": bob_token}).status_code == 403
        assert client.post(f"/api/rooms/{room}/start", json={"token": ann_token}).status_code == 200
        assert client.post(f"/api/rooms/{room}/start", json={"token": ann_token}).status_code == 409
        assert client.post(f"/api/rooms/{room}/join", json={"name": "Cy"}).status_code == 409
        lb = app.state.lobby
        m: Match = lb.get(room).match
        with seat_ws(client, room) as spec, \
                seat_ws(client, room, ann_token) as ann, \
                seat_ws(client, room, bob_token) as bob:
            seats = {"ann": m.seating.index(0), "bob": m.seating.index(1)}
            socks = {"ann": ann, "bob": bob}
            got: dict[str, list[Msg]] = {"ann": [], "bob": [], "spec": []}
            acted = {"ann": -1, "bob": -1}
            done = set()
            deadline = time.time() + 20
            while len(done) < 2 and time.time() < deadline:
                for who, ws in socks.items():
                    for msg in poll(ws):
                        got[who].append(msg)
                        if msg["type"] == "settlement":
                            done.add(who)
                        if msg["type"] == "state":
                            assert msg["you"] == seats[who]
                            if msg["legal"] and msg["version"] > acted[who] and who not in done:
                                acted[who] = msg["version"]
                                ws.send_json({"type": "action", "action": choose(msg["legal"]),
                                              "version": acted[who]})
                time.sleep(0.002)
            assert done == {"ann", "bob"}
            got["spec"] = poll(spec)
        dealt = next(e for e in store.events(lb.get(room).match_id) if e["type"] == "start_kyoku")["tehais"]
        for who, msgs in got.items():
            me = seats.get(who)
            evs = [e for msg in msgs if msg["type"] == "events" for e in msg["events"]]
            assert any(e["type"] == "start_kyoku" for e in evs) and any(e["type"] == "tsumo" for e in evs)
            for e in evs:
                if e["type"] == "tsumo":
                    assert (e["pai"] is not None) == (e["actor"] == me), (who, e)
                if e["type"] == "start_kyoku":
                    assert [h is not None for h in e["tehais"]] == [s == me for s in range(4)], (who, e)
            turns = [msg for msg in msgs if msg["type"] == "state" and msg["obs"]["phase"] == "turn"]
            if me is not None:  # the first state of the hand shows this seat's dealt tiles, no one else's
                assert turns[0]["obs"]["hand"] == [str(t) for t in sorted(Tile.parse(x) for x in dealt[me])]
            for msg in msgs:
                if msg["type"] == "state":
                    assert msg["you"] == me
                    if me is None:
                        assert "hand" not in msg["obs"] and "drawn" not in msg["obs"] and msg["legal"] == []


def test_hostile_clients_get_errors_and_change_nothing(store: Any) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        room, tokens = four_humans(client)
        r = app.state.lobby.get(room)
        m: Match = r.match
        with seat_ws(client, room, "not-a-token") as bad:
            assert recv(bad)["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect):
                recv(bad)
        for first in ({"type": "action", "action": "pass"}, {"type": "hello"}, [1], "x"):
            with client.websocket_connect(f"/ws/{room}") as anon:
                anon.send_json(first)
                assert recv(anon)["code"] == "bad_token", first
        with seat_ws(client, "NOROOM") as nowhere:
            assert recv(nowhere)["code"] == "no_room"
        actor = m.to_act  # the dealer decides whether to sit
        other = (actor + 1) % 4
        with seat_ws(client, room, tokens[m.seating[actor]]) as ws_act, \
                seat_ws(client, room, tokens[m.seating[other]]) as ws_other, seat_ws(client, room) as spec:
            recv_until(ws_act, lambda x: x["type"] == "state")
            recv_until(ws_other, lambda x: x["type"] == "state")
            before = (r.version, len(m.events), m.to_act, m.phase)
            legal = [str(a) for a in m.legal_actions(actor)]
            v = before[0]
            attempts: list[tuple[Any, str | Msg]] = [
                (ws_other, {"type": "action", "action": legal[0], "version": v}),  # out of turn
                (ws_act, {"type": "action", "action": legal[0], "seat": other, "version": v}),  # another seat's action
                (ws_act, "{not json"),
                (ws_act, "[1, 2]"),
                (ws_act, {"type": "teleport"}),
                (ws_act, {"type": "action", "action": "discard " + "5m" * 30, "version": v}),
                (ws_act, {"type": "action", "action": 5, "version": v}),
                (ws_act, {"type": "action", "version": v}),
                (ws_act, {"type": "action", "action": "discard 5m", "version": v}),  # illegal now (a sit decision)
                (ws_act, {"type": "action", "action": "sit 7", "version": v}),
                (ws_act, {"type": "action", "action": "fly 1", "version": v}),
                (ws_act, {"type": "hint"}),  # not a turn
                (spec, {"type": "action", "action": legal[0], "version": v}),
                (ws_act, "x" * 5000),
            ]
            for ws, payload in attempts:
                if isinstance(payload, str):
                    ws.send_text(payload)
                else:
                    ws.send_json(payload)
                msg, _ = recv_until(ws, lambda x: x["type"] == "error")
                assert msg["message"], payload
                assert (r.version, len(m.events), m.to_act, m.phase) == before, payload
            ws_act.send_bytes(b"\x00\x01")
            assert recv_until(ws_act, lambda x: x["type"] == "error")[0]["message"]
            # and a legal action still works
            ws_act.send_json({"type": "action", "action": legal[0], "version": v})
            recv_until(ws_act, lambda x: x["type"] == "state" and x["version"] > before[0])
            assert r.version == before[0] + 1


def test_an_action_names_the_state_it_answers_and_one_for_an_older_state_is_stale(store: Any) -> None:
    """Issue 35, item 2: actions carried no state version, so a double tap, or a "discard X" that
    arrived late, landed on a later decision where it happened to be legal.  Every action now names
    the ``version`` of the state it answers: none (or not an integer) is ``bad_request``, an older
    (or unknown) one ``stale``, and either changes nothing."""
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        d = quick(client, bots="random")
        r = app.state.lobby.get(d["room"])
        m: Match = r.match

        def my_turn(ws: Any) -> Msg:
            return play(ws, lambda x: x["type"] == "state" and x["obs"]["phase"] == "turn"
                        and x["to_act"] == x["you"] and any(a.startswith("discard") for a in x["legal"]))[0]

        def refused(ws: Any, payload: Msg) -> str:
            before = (r.version, len(m.events), m.to_act, m.phase)
            ws.send_json(payload)
            err = recv_until(ws, lambda x: x["type"] == "error")[0]
            assert (r.version, len(m.events), m.to_act, m.phase) == before, payload
            return str(err["code"])

        with seat_ws(client, d["room"], d["token"]) as ws:
            first = my_turn(ws)
            v1, discard = first["version"], next(a for a in first["legal"] if a.startswith("discard"))
            for version in ({}, {"version": None}, {"version": str(v1)}, {"version": True}, {"version": float(v1)}):
                assert refused(ws, {"type": "action", "action": discard, **version}) == "bad_request", version
            for version in (v1 - 1, v1 + 1, -1):
                assert refused(ws, {"type": "action", "action": discard, "version": version}) == "stale", version
            ws.send_json({"type": "action", "action": discard, "version": v1})  # a double tap:
            ws.send_json({"type": "action", "action": discard, "version": v1})  # the second is stale
            err, _ = recv_until(ws, lambda x: x["type"] == "error")
            assert err["code"] == "stale" and str(v1) in err["message"]
            assert len(m.seats[d["seat"]].discards) >= 1 and r.version > v1
            # a later decision of the same seat where the old action is legal again: it stays old
            ws.send_json({"type": "sync"})  # (a decision may have come among what was skipped above)
            later = my_turn(ws)
            late = discard if discard in later["legal"] else next(a for a in later["legal"] if a.startswith("discard"))
            assert refused(ws, {"type": "action", "action": late, "version": v1}) == "stale"
            ws.send_json({"type": "action", "action": late, "version": later["version"]})
            recv_until(ws, lambda x: x["type"] == "state" and x["version"] > later["version"])


def test_rate_limit(store: Any) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, limits=LOOSE_HTTP)  # the default: 20 at once, then 10 a second
    with TestClient(app) as client:
        room, tokens = four_humans(client)
        with seat_ws(client, room, tokens[0]) as ws:
            recv_until(ws, lambda x: x["type"] == "state")
            for _ in range(60):
                ws.send_json({"type": "ping"})
            replies: list[Msg] = []
            while len(replies) < 60:  # seats of people away are played meanwhile: skip the game's messages
                msg = recv(ws)
                if msg["type"] in ("pong", "error"):
                    replies.append(msg)
            limited = [x for x in replies if x["type"] == "error" and x["code"] == "rate_limited"]
            assert 20 <= sum(1 for x in replies if x["type"] == "pong") < 60 and limited
            time.sleep(0.3)  # the bucket refills
            ws.send_json({"type": "ping"})
            assert recv_until(ws, lambda x: x["type"] in ("pong", "error"))[0] == {"type": "pong"}


def test_hint_lists_waits_per_discard(store: Any) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        d = quick(client)
        with seat_ws(client, d['room'], d['token']) as ws:
            state, _ = play(ws, lambda x: x["type"] == "state" and x["obs"]["phase"] == "turn"
                            and x["to_act"] == x["you"])
            ws.send_json({"type": "hint"})
            h, _ = recv_until(ws, lambda x: x["type"] in ("hint", "error"))
            assert h["type"] == "hint"
            discards = {x.split()[1] for x in state["legal"] if x.startswith("discard")}
            assert {x["tile"] for x in h["discards"]} == discards
            for x in h["discards"]:
                assert x["shanten"] >= 0 or x["waits"]
                for w in x["waits"]:
                    assert {"tile", "fan", "name", "live", "win"} <= set(w) and 0 <= w["live"] <= 4


def test_reconnect_with_the_same_token_resumes_the_seat(store: Any) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        d = quick(client)
        with seat_ws(client, d['room'], d['token']) as ws:
            state, _ = play(ws, lambda x: x["type"] == "state" and x["obs"]["phase"] == "turn"
                            and x["to_act"] == x["you"])
        r = app.state.lobby.get(d["room"])
        time.sleep(0.05)
        assert not r.humans_connected() and r.match.to_act == d["seat"]  # the match waits: nobody is there
        with seat_ws(client, d['room'], d['token']) as ws:
            info = recv(ws)
            so_far = recv(ws)  # the hand so far, as this seat may see it
            again = recv(ws)
            assert info["type"] == "room" and info["you"] == 0
            assert so_far["type"] == "events" and so_far["replay"] and so_far["events"][0]["type"] == "start_kyoku"
            assert again["type"] == "state" and again["you"] == d["seat"]
            assert again["obs"]["hand"] == state["obs"]["hand"] and again["legal"] == state["legal"]
            ws.send_json({"type": "sync"})  # the full state again, to play on from it
            play(ws, is_settlement)


def test_a_disconnected_seat_is_played_and_a_timeout_plays_the_baseline(store: Any) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        room, tokens = four_humans(client, timer_s=5)
        r = app.state.lobby.get(room)
        r.timer_s = 0.05  # below the API's minimum, for the test
        m: Match = r.match
        with seat_ws(client, room, tokens[0]) as ws:
            # three seats are away (played by the bot); seat of P0 times out each decision
            settle, seen = recv_until(ws, is_settlement, timeout=15)
            assert any(x["type"] == "state" and x["deadline"] for x in seen)
            assert r.players[0].timeouts > 0
            assert m.hand_number >= 1


def test_restart_resumes_an_unfinished_match(store: Any) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        d = quick(client, match_hands=3)
        with seat_ws(client, d['room'], d['token']) as ws:
            play(ws, is_settlement)
            play(ws, lambda x: x["type"] == "events" and any(e["type"] == "dahai" for e in x["events"]))
        stored = store.events(d["match_id"])
        hand_one = app.state.lobby.get(d["room"]).match.hand_number
    assert hand_one == 1 and stored[-1]["type"] == "end_kyoku"
    assert [m["id"] for m in store.unfinished_matches()] == [d["match_id"]]

    app2 = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app2) as client:
        info = client.get(f"/api/rooms/{d['room']}").json()
        assert info["status"] == "playing" and info["hand_number"] == 1 and info["match_id"] == d["match_id"]
        assert info["players"][0]["name"] == "Ann" and not info["players"][0]["connected"]
        # a seat of a resumed match is never handed to a name (issue 9, item 1) ...
        for name in ("Eve", "Ann"):
            assert client.post(f"/api/rooms/{d['room']}/join", json={"name": name}).status_code == 409
        # ... its old token still opens it: the store keeps each token's hash
        with seat_ws(client, d['room'], d['token']) as ws:
            first = recv(ws)
            assert first["type"] == "room" and first["you"] == 0 and first["seat"] == d["seat"]
            settle, _ = play(ws, is_settlement)
            assert settle["hand"] == 1
            play(ws, lambda x: x["type"] == "settlement" and x["over"])
        r = client.get(f"/api/matches/{d['match_id']}/record")
        (events,) = list(read_records(io.BytesIO(r.content)))
        assert replay(events).ok and sum(1 for e in events if e["type"] == "end_kyoku") == 3


@pytest.mark.parametrize("family", ["beijing", "mcr"])
def test_restart_resumes_a_match_of_a_family_that_deals_at_once(store: Any, family: str) -> None:
    """Beijing and MCR deal the next hand in the step that ends a hand, after the stored
    ``end_kyoku``: such a match was abandoned at a restart (its rebuild refused the stored record).
    Issue 35, item 1: it resumes, with the hand in play dealt again from a fresh wall."""
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        d = quick(client, family=family, match_hands=2)
        with seat_ws(client, d["room"], d["token"]) as ws:
            play(ws, is_settlement)
        m = app.state.lobby.get(d["room"]).match
        dealt = [e for e in m.events if e["type"] == "start_kyoku"][-1]
        assert m.hand_number == 1 and "resume" not in dealt
    app2 = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app2) as client:
        info = client.get(f"/api/rooms/{d['room']}").json()
        assert info["status"] == "playing" and info["hand_number"] == 1
        with seat_ws(client, d["room"], d["token"]) as ws:
            so_far = recv_until(ws, lambda x: x["type"] == "events")[0]
            again = so_far["events"][0]
            assert again["type"] == "start_kyoku" and again["hand"] == 1 and again["resume"] >= 1
            assert again["tehais"][d["seat"]] != dealt["tehais"][d["seat"]]
            play(ws, lambda x: x["type"] == "settlement" and x["over"])
        (events,) = list(read_records(io.BytesIO(client.get(f"/api/matches/{d['match_id']}/record").content)))
        assert replay(events).ok and sum(1 for e in events if e["type"] == "end_kyoku") == 2


def test_a_failed_store_keeps_the_hand_and_retries_until_the_database_is_back(monkeypatch: Any) -> None:
    """Issue 9, item 8: the room does not stay in error; the hand is not dealt again either."""
    class Flaky(FakeStore):
        fail = 3

        def append_events(self, match_id: int, events: list[Msg], *, at: int | None = None) -> None:
            if self.fail:
                self.fail -= 1
                raise OSError("the database is down")
            super().append_events(match_id, events, at=at)

    monkeypatch.setattr(room_mod, "SAVE_BACKOFF_MAX", 0.05)
    store = Flaky()
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        d = quick(client, match_hands=1)
        with seat_ws(client, d['room'], d['token']) as ws:
            err, seen = play(ws, lambda x: x["type"] == "error" and x["code"] == "store_failed")
            assert not any(x["type"] == "settlement" for x in seen)
            assert not any(e["type"] == "end_kyoku" for x in seen if x["type"] == "events" for e in x["events"])
            last = max(x["version"] for x in seen if x["type"] == "state")
            ws.send_json({"type": "action", "action": "pass", "version": last})  # nothing can be decided meanwhile
            settle, after = recv_until(ws, is_settlement)
            assert store.fail == 0 and settle["over"]
            assert any(x["type"] == "error" and x["code"] == "saving" for x in after)
        events = store.events(d["match_id"])
        assert replay(events).ok and sum(1 for e in events if e["type"] == "start_kyoku") == 1  # dealt once


def test_http_api_validation_and_pages(store: Any) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        assert client.get("/healthz").json()["ok"] is True
        for body in ({"preset": "nope"}, {"overrides": {"min_fan": 0}}, {"overrides": {"bogus": 1}},
                     {"bots": "genius"}, {"timer_s": 1}, {"match_hands": 0}, {"name": 5}, {"overrides": [1]}):
            r = client.post("/api/rooms", json=body)
            assert r.status_code == 400 and r.json()["error"], body
        json_type = {"Content-Type": "application/json"}
        assert client.post("/api/rooms", content=b"{bad", headers=json_type).status_code == 400
        assert client.post("/api/rooms", content=b"x" * 20000, headers=json_type).status_code == 413
        assert client.post("/api/rooms", content=b"{}").status_code == 415  # JSON only (no cross-site forms)
        assert client.post("/api/rooms/NOPE/join", json={"name": "x"}).status_code == 404
        assert client.get("/api/rooms/NOPE").status_code == 404
        r = client.post("/api/rooms", json={"name": "  Zed\x00  ", "overrides": {"min_fan": 1}})
        assert r.status_code == 200
        info = client.get(f"/api/rooms/{r.json()['room']}").json()
        assert info["players"][0]["name"] == "Zed" and info["rules"]["min_fan"] == 1 and info["status"] == "waiting"
        for path in ("/", f"/table/{r.json()['room']}", "/history", "/replay/1"):
            page = client.get(path)
            assert page.status_code == 200 and "text/html" in page.headers["content-type"], path


def test_tiles_endpoint_serves_cached_svg(store: Any) -> None:
    app = create_app(store)
    with TestClient(app) as client:
        r = client.get("/tiles/5m.svg")
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        assert r.text.lstrip().startswith("<svg") and "max-age" in r.headers["cache-control"]
        again = client.get("/tiles/5m.svg", headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304
        wild = client.get("/tiles/5z.svg?wild=1")
        assert wild.status_code == 200 and wild.headers["etag"] != client.get("/tiles/5z.svg").headers["etag"]
        assert client.get("/tiles/back.svg").status_code == 200
        assert client.get("/tiles/1m.svg?back=1").status_code == 200
        for bad in ("/tiles/0m.svg", "/tiles/8z.svg", "/tiles/五万.svg", "/tiles/5m.svg?size=9999"):
            assert client.get(bad).status_code in (400, 404), bad


def test_restart_during_the_first_hand_deals_it_again(store: Any) -> None:
    """Nothing is stored before the first hand ends: a restart deals it again, from a fresh wall
    (issue 35, item 1: the same deal told whoever had played part of it their coming draws)."""
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        d = quick(client, name="Bo", match_hands=1)
        with seat_ws(client, d['room'], d['token']) as ws:
            _, seen = play(ws, lambda x: x["type"] == "events" and any(e["type"] == "dahai" for e in x["events"]))
        dealt = next(e for x in seen if x["type"] == "events" for e in x["events"] if e["type"] == "start_kyoku")
    assert store.events(d["match_id"]) == []  # nothing stored before the first hand ends
    with TestClient(create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)) as client:
        with seat_ws(client, d['room'], d['token']) as ws:  # the same token, the same seat
            first = recv(ws)
            assert first.get("seat") == d["seat"], first
            settle, seen = play(ws, is_settlement)
        again = next(e for x in seen if x["type"] == "events" for e in x["events"] if e["type"] == "start_kyoku")
        assert again["tehais"][d["seat"]] != dealt["tehais"][d["seat"]] and again["resume"] >= 1
        assert settle["over"] and replay(store.events(d["match_id"])).ok


def test_a_match_in_play_hides_its_seed_and_its_record(store: Any) -> None:
    """The seed deals every hand (R3): while the match is played nobody may read it, from the match,
    the list, or the record's start_game; once it is over, all are there."""
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        d = quick(client, match_hands=2)
        mid = d["match_id"]
        with seat_ws(client, d["room"], d["token"]) as ws:
            play(ws, is_settlement)  # one hand stored: the record would hold start_game and its seed
            assert client.get(f"/api/matches/{mid}").json()["seed"] is None
            listed = client.get("/api/matches?status=playing").json()["matches"]
            assert [m["seed"] for m in listed if m["id"] == mid] == [None]
            r = client.get(f"/api/matches/{mid}/record")
            assert r.status_code == 409 and r.json()["error"]
            play(ws, lambda x: x["type"] == "settlement" and x["over"])
        deadline = time.time() + 5
        while client.get(f"/api/matches/{mid}").json()["status"] == "playing" and time.time() < deadline:
            time.sleep(0.02)
        done = client.get(f"/api/matches/{mid}").json()
        assert done["status"] == "finished" and done["seed"] == app.state.lobby.get(d["room"]).match.seed
        assert client.get(f"/api/matches/{mid}/record").status_code == 200


def test_a_seat_that_connects_before_the_first_deal_is_not_sent_the_seed(store: Any) -> None:
    """Tianjin's first hand opens with the dealer's choice (坐庄, R7): until the deal, the match's only
    event is start_game, and a (re)connecting client was sent it as "the hand so far": the seed,
    which deals every hand and the whole wall."""
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        room, tokens = four_humans(client)
        m = app.state.lobby.get(room).match
        assert m.phase == "sit" and [e["type"] for e in m.events] == ["start_game"]
        for token in (*tokens, None):
            with seat_ws(client, room, token) as ws:
                _, seen = recv_until(ws, lambda x: x["type"] == "state")
                assert str(m.seed) not in orjson.dumps(seen).decode()
                assert not [e for x in seen for e in x.get("events", []) if e["type"] == "start_game"]


def test_expert_bots_search_off_the_event_loop_on_their_own_copies(store: Any) -> None:
    """Issue 15, part 3: a room of ``expert`` bots plays a hand to its settlement; each bot seat has
    its own bot, bound to a copy of the match (never the room's own; the search runs on it in a
    worker thread), and the bots did search."""
    from tjmj.bots import make_bot
    from tjmj.bots.expert import ExpertBot

    made: list[ExpertBot] = []

    def factory(name: str) -> Any:
        if name == "expert":
            made.append(ExpertBot(budget_ms=40, max_shanten=None))  # (searches at every decision)
            return made[-1]
        return make_bot(name)

    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE, bot_factory=factory)
    with TestClient(app) as client:
        d = quick(client, match_hands=1, bots="expert")
        room = app.state.lobby.get(d["room"])
        assert room.bot_kind == "expert"
        with seat_ws(client, d["room"], d["token"]) as ws:
            recv(ws)
            settle, _ = play(ws, is_settlement)
            assert client.get(f"/api/rooms/{d['room']}").status_code == 200
        assert sum(settle["deltas"]) == 0
    bound = [b for b in made if b.match is not None]
    assert len(bound) == 3 and len({b.seat for b in bound}) == 3  # one bot per bot seat
    assert all(b.match is not room.match for b in bound)  # a copy, never the table's match
    assert sum(b.searched for b in bound) > 0  # they searched (not only the strong fallback)


# ---- issue 15, part 3: strength levels, and the expert search in the hint ------------------------


def test_levels_seat_their_bots_and_bad_names_create_nothing(store: Any) -> None:
    """``bots`` takes a level (easy, normal, hard, expert) or a bot name; the room reports the bot it
    seats (and its level); a bad value is a one-line 400 naming it, and no room is made."""
    from tjmj.web.inputs import LEVELS

    assert LEVELS == {"easy": "greedy", "normal": "baseline", "hard": "strong", "expert": "expert"}
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        lobby = app.state.lobby
        for level, bot in LEVELS.items():
            r = client.post("/api/rooms", json={"name": "Ann", "bots": level})
            assert r.status_code == 200, r.text
            info = client.get(f"/api/rooms/{r.json()['room']}").json()
            assert info["bots"] == bot and info["level"] == level and lobby.get(r.json()["room"]).bot_kind == bot
        # bot names still work for API users, random too (not in the lobby's select)
        for bot in ("random", "greedy", "baseline", "strong", "expert"):
            r = client.post("/api/rooms", json={"name": "Ann", "bots": bot})
            assert r.status_code == 200 and client.get(f"/api/rooms/{r.json()['room']}").json()["bots"] == bot
        assert client.get(f"/api/rooms/{r.json()['room']}").json()["level"] == "expert"
        # a quick match seats three bots of the level, by name
        d = quick(client, match_hands=1, bots="easy")
        info = client.get(f"/api/rooms/{d['room']}").json()
        assert sorted(p["bot"] for p in info["players"] if p["bot"]) == ["greedy"] * 3 and info["level"] == "easy"
        assert client.post("/api/rooms", json={"name": "Ann"}).json()["room"]  # (the default: hard's strong)
        before = set(lobby.rooms)
        for bad in ("genius", "Hard", "", 5, None, ["hard"], "x" * 100, "cmd:python bot.py"):
            for path in ("/api/rooms", "/api/quick"):
                r = client.post(path, json={"name": "Ann", "bots": bad})
                assert r.status_code == 400, (path, bad, r.text)
                message = r.json()["error"]
                assert "\n" not in message and "'bots'" in message and repr(bad)[:30] in message, message
                assert "easy" in message and "random" in message
        assert set(lobby.rooms) == before  # nothing created
        # the lobby's listing names the bot, as the room does
        listed = {e["room"]: e for e in client.get("/api/lobby").json()["open"]}
        assert all(e["bots"] in ("random", "greedy", "baseline", "strong", "expert") for e in listed.values())


def test_the_lobby_select_offers_the_levels_of_the_server() -> None:
    """The lobby's strength select (static HTML) lists LEVELS in order, hard selected, each option
    labelled by an i18n key whose texts name the bot it seats, in both languages."""
    import re
    from pathlib import Path

    from tjmj.web.inputs import LEVELS

    static = Path(room_mod.__file__).with_name("static")
    html = (static / "index.html").read_text(encoding="utf-8")
    select = re.search(r'<select name="bots"[^>]*>(.*?)</select>', html, re.DOTALL)
    assert select, "the lobby has no <select name=\"bots\">"
    options = re.findall(r'<option value="([^"]+)" data-i18n="([^"]+)"( selected)?>', select.group(1))
    assert [v for v, _, _ in options] == list(LEVELS)
    assert [v for v, _, sel in options if sel] == ["hard"]
    i18n = (static / "i18n.js").read_text(encoding="utf-8")
    for level, key, _ in options:
        assert key == f"level_{level}"
        texts = re.search(rf'^\s*{key}: \["([^"]+)", "([^"]+)"\],$', i18n, re.MULTILINE)
        assert texts, key
        assert all(f"{LEVELS[level]}" in x for x in texts.groups()), texts.groups()


class _Gate:
    """A stand-in for the hint's searching bot (room.hint_search_bot): the real expert bot, made and
    bound as the room makes it, whose search in the worker thread may be held until the test lets it
    go (``hold``), or fails (``fail``); it records each bot made."""

    def __init__(self, *, hold: bool = False, fail: bool = False) -> None:
        import threading

        self.made: list[Any] = []
        self.started = threading.Event()
        self.go = threading.Event()
        if not hold:
            self.go.set()
        self.fail = fail

    def __call__(self, budget_ms: float) -> Any:
        from tjmj.bots.expert import ExpertBot

        gate = self

        class Held(ExpertBot):
            def choose(self, obs: dict[str, Any], legal: list[Any], rng: Any) -> Any:
                gate.started.set()
                assert gate.go.wait(10)
                if gate.fail:
                    raise RuntimeError("a search's bug")
                return super().choose(obs, legal, rng)

        bot = Held(budget_ms=budget_ms)
        self.made.append(bot)
        return bot


def _my_turn(ws: Any) -> Msg:
    state, _ = play(ws, lambda x: x["type"] == "state" and x["obs"]["phase"] == "turn" and x["to_act"] == x["you"])
    return state


@contextlib.contextmanager
def _hint_table(store: Any) -> Iterator[tuple[Any, Any, Msg]]:
    """A quick game with a 30 ms hint search: (the room, the person's socket, the state of their turn)."""
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE, hint_search_ms=30)
    with TestClient(app) as client:
        d = quick(client, match_hands=1)
        room = app.state.lobby.get(d["room"])
        with seat_ws(client, d["room"], d["token"]) as ws:
            yield room, ws, _my_turn(ws)


def test_the_hint_carries_the_search_pick_computed_on_a_copy_off_the_loop(store: Any, monkeypatch: Any) -> None:
    """The advisor's hint comes at once; the search's pick follows in ``hint_search`` for the same
    version: a legal action of the asking seat, by an expert bot bound to a copy of the match and to
    that seat, in a worker thread (the socket is served while it runs), the room's match unchanged;
    asked again, the same answer from the cache (one search per seat and state)."""
    gate = _Gate(hold=True)
    monkeypatch.setattr(room_hints, "hint_search_bot", gate)
    with _hint_table(store) as (room, ws, state):
        assert state["rules"]["hint_search_ms"] == 30
        seat = state["you"]
        events, legal = orjson.dumps(room.match.events), list(room.match.legal_actions(seat))
        ws.send_json({"type": "hint"})
        h, seen = recv_until(ws, lambda x: x["type"] in ("hint", "error"))
        assert h["type"] == "hint" and h["version"] == state["version"] and h["discards"]
        assert not any(x["type"] == "hint_search" for x in seen)
        assert gate.started.wait(5)  # the search is running in a worker thread, held there ...
        ws.send_json({"type": "ping"})  # ... and the event loop still answers
        assert recv_until(ws, lambda x: x["type"] in ("pong", "hint_search"))[0]["type"] == "pong"
        ws.send_json({"type": "hint"})  # asked again while it runs: the advisor's part from its cache
        assert recv_until(ws, lambda x: x["type"] in ("hint", "error"))[0]["type"] == "hint"
        gate.go.set()
        found, _ = recv_until(ws, lambda x: x["type"] in ("hint_search", "error"))
        assert found["type"] == "hint_search" and found["version"] == state["version"], found
        part = found["search"]
        assert part["action"] in state["legal"] and part["budget_ms"] == 30 and part["ms"] >= 0
        assert isinstance(part["searched"], bool) and isinstance(part["changed"], bool)
        assert part["rounds"] == (gate.made[0].last_rounds if part["searched"] else 0)
        second, _ = recv_until(ws, lambda x: x["type"] == "hint_search")  # the second ask's answer
        assert second == found
        ws.send_json({"type": "hint"})  # once more: both parts from the cache, no new search
        third, _ = recv_until(ws, lambda x: x["type"] == "hint_search")
        assert third == found
        time.sleep(0.05)
        assert not [x for x in poll(ws) if x["type"] == "hint_search"]  # one answer per ask
        assert len(gate.made) == 1
        bot = gate.made[0]
        assert bot.match is not room.match and bot.seat == seat  # a copy, bound to the asking seat
        assert orjson.dumps(room.match.events) == events and room.match.legal_actions(seat) == legal
        assert room.version == state["version"]  # the search changed nothing at the table
        ws.send_json({"type": "action", "action": part["action"], "version": state["version"]})  # the pick is playable
        after, _ = recv_until(ws, lambda x: x["type"] in ("state", "error"))
        assert after["type"] == "state" and after["version"] > state["version"]


def test_the_search_is_dropped_when_the_table_moves_on_and_a_failure_costs_only_it(store: Any,
                                                                                   monkeypatch: Any) -> None:
    """A pick for a state gone (the person discarded while it ran) is never sent nor cached; a
    search that fails sends ``search: null`` and the advisor's hint and the table go on."""
    gate = _Gate(hold=True)
    monkeypatch.setattr(room_hints, "hint_search_bot", gate)
    with _hint_table(store) as (room, ws, state):
        seat = state["you"]
        ws.send_json({"type": "hint"})
        assert recv_until(ws, lambda x: x["type"] in ("hint", "error"))[0]["type"] == "hint"
        assert gate.started.wait(5)
        discard = next(a for a in state["legal"] if a.startswith("discard"))
        ws.send_json({"type": "action", "action": discard, "version": state["version"]})  # the table moves on meanwhile
        moved, _ = recv_until(ws, lambda x: x["type"] == "state" and x["version"] > state["version"])
        gate.go.set()
        deadline = time.monotonic() + 5
        while room._search_waiting and time.monotonic() < deadline:  # the search has ended
            time.sleep(0.01)
        assert not room._search_waiting
        time.sleep(0.05)
        late = [x for x in poll(ws) if x["type"] == "hint_search"]
        assert not late, late  # dropped: never sent for the old state ...
        assert room._searches.get(seat, (None,))[0] != state["version"]  # ... nor cached
        ws.send_json({"type": "sync"})  # (the state polled above is sent again, to play on)
        # a failing search: the hint's advisor part as ever, the search part null, the table goes on
        gate.fail = True
        state = _my_turn(ws)
        ws.send_json({"type": "hint"})
        h, _ = recv_until(ws, lambda x: x["type"] in ("hint", "error"))
        assert h["type"] == "hint" and h["available"] is True and h["discards"]
        failed, _ = recv_until(ws, lambda x: x["type"] in ("hint_search", "error"))
        assert failed == {"type": "hint_search", "version": state["version"], "search": None}
        ws.send_json({"type": "action", "action": state["legal"][0], "version": state["version"]})
        after, _ = recv_until(ws, lambda x: x["type"] in ("state", "error"))
        assert after["type"] == "state" and after["version"] > state["version"]


def test_hints_without_the_search(store: Any) -> None:
    """``hint_search_ms=None``: hints are the advisor's alone, and the table says so."""
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE, hint_search_ms=None)
    with TestClient(app) as client:
        d = quick(client, match_hands=1)
        with seat_ws(client, d["room"], d["token"]) as ws:
            state = _my_turn(ws)
            assert state["rules"]["hint_search_ms"] is None
            ws.send_json({"type": "hint"})
            assert recv_until(ws, lambda x: x["type"] in ("hint", "error"))[0]["type"] == "hint"
            ws.send_json({"type": "ping"})
            _, seen = recv_until(ws, lambda x: x["type"] == "pong")
            time.sleep(0.1)
            assert not [x for x in seen + poll(ws) if x["type"] == "hint_search"]
