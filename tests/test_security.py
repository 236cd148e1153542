"""The web server as an attacker finds it (issue 9, items 1–6; docs/security.md).

Each test names the hole it closes.  In-process tests drive the app with Starlette's TestClient;
the ones about connections and logs run a real uvicorn server on loopback.  One TestClient is one
client address: a second address comes through ``X-Forwarded-For`` from a trusted proxy
(``create_app(trusted_proxies=["testclient"])``), as behind a real reverse proxy.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.test_web import FAST, LOOSE, is_settlement, play, quick, recv, recv_until, seat_ws
from tjmj.web import room_hints as room_mod
from tjmj.web.app import SECURITY_HEADERS, create_app
from tjmj.web.inputs import token_hash
from tjmj.web.limits import Bucket, Limits
from tjmj.web.store import Store


@pytest.fixture
def store() -> Iterator[Store]:
    s = Store("sqlite://")
    yield s
    s.close()


def app_for(store: Any, **kw: Any) -> Any:
    kw.setdefault("limits", LOOSE)
    return create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, trusted_proxies=["testclient"], **kw)


def four_people(client: TestClient) -> tuple[str, list[str]]:
    r = client.post("/api/rooms", json={"name": "P0"})
    room, tokens = r.json()["room"], [r.json()["token"]]
    for i in range(1, 4):
        tokens.append(client.post(f"/api/rooms/{room}/join", json={"name": f"P{i}"}).json()["token"])
    assert client.post(f"/api/rooms/{room}/start", json={"token": tokens[0]}).status_code == 200
    return room, tokens


# ---- 1. seats after a restart ----------------------------------------------------------------


def test_a_restart_never_hands_a_seat_to_a_name_and_keeps_the_tokens(store: Store) -> None:
    with TestClient(app_for(store)) as client:
        d = quick(client, name="Ann", match_hands=2)
        with seat_ws(client, d["room"], d["token"]) as ws:
            assert recv(ws)["type"] == "room"
            play(ws, is_settlement)
        listed = client.get("/api/matches?status=playing").json()["matches"]
        assert listed and all("token" not in k for p in listed[0]["players"] for k in p)
        assert d["token"] not in str(listed) and token_hash(d["token"]) not in str(listed)
    with TestClient(app_for(store)) as client:
        assert client.get(f"/api/rooms/{d['room']}").json()["status"] == "playing"
        for name in ("Ann", "Mallory"):
            r = client.post(f"/api/rooms/{d['room']}/join", json={"name": name})
            assert r.status_code == 409 and "token" not in r.json()
        with seat_ws(client, d["room"], "a-guess") as ws:
            assert recv(ws)["code"] == "bad_token"
        with seat_ws(client, d["room"], d["token"]) as ws:
            first = recv(ws)
            assert first["you"] == 0 and first["seat"] == d["seat"]


# ---- 2. flooding room creation ---------------------------------------------------------------


def test_a_flood_of_room_creation_is_limited_and_real_players_still_get_rooms(store: Store) -> None:
    limits = Limits(max_rooms=30, unseen_ttl=0.5)  # the default HTTP limits, a small server
    app = app_for(store, limits=limits)
    with TestClient(app) as client:
        codes = [client.post("/api/quick", json={"name": "x"}).status_code for _ in range(520)]
        assert codes.count(200) <= limits.post_burst + 2 and codes.count(429) >= 500
        r = client.post("/api/quick", json={"name": "x"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        # another address (through the trusted proxy) is not held up by the flood
        real = client.post("/api/quick", json={"name": "Real"}, headers={"X-Forwarded-For": "203.0.113.7"})
        assert real.status_code == 200
        # a flood from many addresses fills the room cap with rooms nobody connects to: those go first
        for i in range(60):
            client.post("/api/rooms", json={"name": "x"}, headers={"X-Forwarded-For": f"198.51.100.{i}"})
        lb = app.state.lobby
        assert len(lb.rooms) <= limits.max_rooms
        fresh = client.post("/api/rooms", json={"name": "Late"}, headers={"X-Forwarded-For": "203.0.113.9"})
        assert fresh.status_code == 200
        with seat_ws(client, fresh.json()["room"], fresh.json()["token"]) as ws:
            assert recv(ws)["type"] == "room"
        time.sleep(0.6)

        async def sweep() -> None:
            lb.cleanup()

        client.portal.call(sweep)
        time.sleep(0.3)  # the discarded matches are deleted in the background
        # the unconnected rooms expired; the one a person opened stays
        assert set(lb.rooms) == {fresh.json()["room"]}
        assert all(m["status"] != "playing" for m in store.list_matches(200)), "unconnected matches stay stored"
    with TestClient(app_for(store)) as client:  # and nothing of the flood comes back after a restart
        assert list(client.app.state.lobby.rooms) == [fresh.json()["room"]]  # type: ignore[attr-defined]


# ---- 3. no secret in URLs or logs ------------------------------------------------------------


@contextlib.contextmanager
def real_server(app: Any) -> Iterator[str]:
    """The app served as ``tjmj serve`` serves it, at debug level (every frame logged)."""
    from tjmj.web.server import bind, make_server

    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    srv = make_server(app, log_level="debug")
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith("websockets.client"):  # the test's own client is not the server
            self.lines.append(f"{record.name}: {record.getMessage()}")


def test_tokens_never_appear_in_urls_or_log_lines(store: Store) -> None:
    import urllib.request

    from websockets.sync.client import connect

    handler = Collect()
    # uvicorn's loggers do not propagate to the root: listen on each of them
    loggers = [logging.getLogger(n) for n in ("", "uvicorn", "uvicorn.error", "uvicorn.access", "tjmj")]
    try:
        with real_server(app_for(store)) as where:
            for lg in loggers:
                lg.addHandler(handler)
                lg.setLevel(logging.DEBUG)
            req = urllib.request.Request(f"http://{where}/api/quick", data=b'{"name": "Ann", "match_hands": 1}',
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=10) as resp:
                d = orjson.loads(resp.read())
            with connect(f"ws://{where}/ws/{d['room']}") as ws:
                ws.send(orjson.dumps({"type": "hello", "token": d["token"]}).decode())
                first = orjson.loads(ws.recv(timeout=10))
                assert first["type"] == "room" and first["you"] == 0
            with connect(f"ws://{where}/ws/{d['room']}?token={d['token']}") as ws:  # an old client: refused
                assert orjson.loads(ws.recv(timeout=10))["code"] == "bad_request"
    finally:
        for lg in loggers:
            lg.removeHandler(handler)
    text = "\n".join(handler.lines)
    assert f"/ws/{d['room']}" in text and "/api/quick" in text, "the server's access log was not captured"
    assert "hello" in text and "[redacted]" in text  # the frames were logged, without the secret
    assert d["token"] not in text


# ---- 4. cross-site use -----------------------------------------------------------------------


def test_cross_site_requests_and_sockets_are_refused(store: Store) -> None:
    app = app_for(store, allowed_origins=["https://friend.example"])
    with TestClient(app) as client:
        evil = {"Origin": "http://evil.example"}
        r = client.post("/api/rooms", content=b'{"name": "x"}', headers={"Content-Type": "text/plain"})
        assert r.status_code == 415 and r.json()["error"]
        assert client.post("/api/quick", json={"name": "x"}, headers=evil).status_code == 403
        assert client.post("/api/rooms", json={}, headers={"Origin": "null"}).status_code == 403
        own = client.post("/api/rooms", json={"name": "x"}, headers={"Origin": "http://testserver"})
        assert own.status_code == 200
        assert client.post("/api/rooms", json={}, headers={"Origin": "https://friend.example"}).status_code == 200
        room, token = own.json()["room"], own.json()["token"]
        with pytest.raises(WebSocketDisconnect) as refused, \
                client.websocket_connect(f"/ws/{room}", headers=evil) as ws:
            ws.send_json({"type": "hello", "token": token})
            recv(ws)
        assert refused.value.code == 4403
        with client.websocket_connect(f"/ws/{room}", headers={"Origin": "http://testserver"}) as ws:
            ws.send_json({"type": "hello", "token": token})
            assert recv(ws)["type"] == "room"


def test_every_response_carries_the_security_headers(store: Store) -> None:
    with TestClient(app_for(store)) as client:
        room = client.post("/api/rooms", json={}).json()["room"]
        for path in ("/", f"/table/{room}", "/history", "/replay/1", "/static/app.css", "/tiles/5m.svg",
                     "/healthz", "/api/matches", "/api/rooms/NOPE", "/nothing-here"):
            r = client.get(path)
            for k, v in SECURITY_HEADERS.items():
                assert r.headers.get(k) == v, (path, k)
        csp = SECURITY_HEADERS["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp


# ---- 5. one socket per seat, limits per seat and address, hints cached ------------------------


def test_one_live_socket_per_seat_and_limits_that_extra_sockets_do_not_multiply(store: Store,
                                                                                 monkeypatch: Any) -> None:
    calls = []
    real_hint = room_mod.hint

    def counting_hint(m: Any, seat: int) -> Any:
        calls.append(seat)
        return real_hint(m, seat)

    monkeypatch.setattr(room_mod, "hint", counting_hint)
    limits = Limits(**{**LOOSE.__dict__, "ws_burst": 20, "ws_rate": 0.2})
    app = create_app(store, bot_delay=0, next_delay=0, limits=limits)
    with TestClient(app) as client:
        room, tokens = four_people(client)
        r = app.state.lobby.get(room)
        with seat_ws(client, room, tokens[0]) as first:
            recv_until(first, lambda x: x["type"] == "state")
            with seat_ws(client, room, tokens[0]) as second:
                recv_until(second, lambda x: x["type"] == "state")
                bye = recv_until(first, lambda x: x["type"] == "error")[0]
                assert bye["code"] == "replaced"
                with pytest.raises(WebSocketDisconnect) as closed:
                    recv_until(first, lambda x: False)
                assert closed.value.code == 4409
                assert r.players[0].conn is not None and sum(1 for c in r.connections() if c.player == 0) == 1
                # the seat's bucket goes with the seat: a fresh socket does not bring fresh allowance
                for _ in range(30):
                    second.send_json({"type": "ping"})
                got = [recv_until(second, lambda x: x["type"] in ("pong", "error"))[0] for _ in range(30)]
                assert sum(1 for x in got if x["type"] == "pong") <= 21
        with seat_ws(client, room, tokens[0]) as third:
            third.send_json({"type": "ping"})
            assert recv_until(third, lambda x: x["type"] in ("pong", "error"))[0]["code"] == "rate_limited"
        # hints: the seat to act asks again and again; the advisor runs once per state
        m = r.match
        while m.phase != "turn":
            r._auto(m.to_act, "baseline")
        actor = m.seating[m.to_act]
        r.players[actor].bucket = Bucket(20, 0.2)  # a full allowance for this part
        with seat_ws(client, room, tokens[actor]) as ws:
            recv_until(ws, lambda x: x["type"] == "state")
            for _ in range(15):
                ws.send_json({"type": "hint"})
            hints = [recv_until(ws, lambda x: x["type"] in ("hint", "error"))[0] for _ in range(15)]
        assert sum(1 for h in hints if h["type"] == "hint") >= 10 and len(calls) == 1


def test_all_the_sockets_of_one_address_share_a_budget(store: Store) -> None:
    limits = Limits(**{**LOOSE.__dict__, "address_ws_burst": 30, "address_ws_rate": 1.0, "ws_burst": 1000,
                       "ws_rate": 1000.0})
    app = create_app(store, bot_delay=0, next_delay=0, limits=limits)
    with TestClient(app) as client:
        room, tokens = four_people(client)
        with contextlib.ExitStack() as stack:
            socks = [stack.enter_context(seat_ws(client, room, t)) for t in tokens]
            for ws in socks:
                recv_until(ws, lambda x: x["type"] == "state")
            pongs = 0
            for ws in socks:
                for _ in range(15):
                    ws.send_json({"type": "ping"})
                for _ in range(15):
                    pongs += recv_until(ws, lambda x: x["type"] in ("pong", "error"))[0]["type"] == "pong"
        assert 30 <= pongs <= 34  # 4 seats × 15 asked, one address: its 30 (and a refill)


# ---- 6. slow and idle connections ------------------------------------------------------------


def test_idle_and_half_sent_connections_are_closed_and_capped() -> None:
    import uvicorn

    from tjmj.web.server import bind, guarded_protocol

    async def tiny(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"ok"})

    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    proto = guarded_protocol(header_timeout=1.0, max_connections=400, per_address=150)
    srv = uvicorn.Server(uvicorn.Config(tiny, http=proto, log_level="warning"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.02)
    try:
        slow = []
        for i in range(140):
            c = socket.create_connection(("127.0.0.1", port))
            if i % 2:
                c.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # a head that never ends
            slow.append(c)
        extra = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]  # beyond 150 from here
        time.sleep(0.3)
        refused = 0
        for c in extra:
            c.settimeout(2)
            with contextlib.suppress(OSError):
                refused += c.recv(1) == b""
        assert refused >= 9  # the per-address cap dropped what was beyond it at once
        time.sleep(1.5)
        closed = 0
        for c in slow:
            c.settimeout(2)
            try:
                closed += c.recv(1) == b""
            except OSError:
                closed += 1
        assert closed == len(slow)
        with socket.create_connection(("127.0.0.1", port), timeout=5) as ok:
            ok.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert ok.recv(100).startswith(b"HTTP/1.1 200")
    finally:
        for c in slow + extra:
            c.close()
        srv.should_exit = True
        thread.join(10)


# ---- issue 35, items 3 and 6: counts and seats as a client may write them ------------------------


def test_counts_are_ascii_digits_only(store: Store, caplog: Any) -> None:
    """``pull ²`` passed ``str.isdigit()`` and made ``int()`` raise: an ``internal`` answer and a
    traceback in the log for every message; ``sit ٣`` was read as ``sit 3``.  Each is now a plain
    refusal (``illegal``) that changes nothing and logs no traceback."""
    caplog.set_level(logging.INFO)
    with TestClient(app_for(store)) as client:
        room, tokens = four_people(client)
        r = client.app.state.lobby.get(room)  # type: ignore[attr-defined]
        m = r.match
        assert m.phase == "sit" and m.to_act == 0  # East, the dealer, decides whether to sit (R7)
        with seat_ws(client, room, tokens[m.seating[0]]) as ws:
            state = recv_until(ws, lambda x: x["type"] == "state")[0]
            before = (r.version, len(m.events), m.to_act, m.phase)
            for text in ("sit ²", "sit ٣", "sit １", "pull ²", "sit " + "1" * 30):
                ws.send_json({"type": "action", "action": text, "version": state["version"]})
                msg = recv_until(ws, lambda x: x["type"] == "error")[0]
                assert msg["code"] == "illegal", (text, msg)
                assert (r.version, len(m.events), m.to_act, m.phase) == before, text
        assert not [rec for rec in caplog.records if rec.exc_info], "a refusal logged a traceback"


def test_a_seat_is_an_integer_not_a_boolean(store: Store) -> None:
    """``"seat": false`` was taken as seat 0 (``False == 0``), ``0.0`` too: now refused."""
    with TestClient(app_for(store)) as client:
        room, tokens = four_people(client)
        r = client.app.state.lobby.get(room)  # type: ignore[attr-defined]
        m = r.match
        assert m.phase == "sit" and m.to_act == 0
        with seat_ws(client, room, tokens[m.seating[0]]) as ws:
            state = recv_until(ws, lambda x: x["type"] == "state")[0]
            before = (r.version, len(m.events), m.to_act, m.phase)
            for seat in (False, True, 0.0, "0", None, [0]):
                ws.send_json({"type": "action", "action": "sit 0", "seat": seat, "version": state["version"]})
                msg = recv_until(ws, lambda x: x["type"] == "error")[0]
                assert msg["code"] == "bad_request" and "'seat'" in msg["message"], (seat, msg)
                assert (r.version, len(m.events), m.to_act, m.phase) == before, seat
            ws.send_json({"type": "action", "action": "sit 0", "seat": 0, "version": state["version"]})
            recv_until(ws, lambda x: x["type"] == "state" and x["version"] > before[0])


def test_errors_of_any_kind_close_a_socket_that_keeps_sending_them(store: Store, caplog: Any) -> None:
    """195 bad messages in 20 s from one seat, within the rate limit, were each answered (and, for
    ``pull ²``, logged with a traceback) for as long as the socket stayed.  Errors now spend a budget
    of their own (``Limits.error_burst``, 50, at once, then ``error_rate``, one each 2 s): beyond it
    the socket is closed (1008), and the seat's next socket starts with what is left, not a fresh
    budget."""
    caplog.set_level(logging.INFO)
    with TestClient(app_for(store)) as client:
        room, tokens = four_people(client)
        r = client.app.state.lobby.get(room)  # type: ignore[attr-defined]
        before = (r.version, len(r.match.events))
        bad: list[Any] = ["{not json", {"type": "teleport"}, {"type": "action", "action": "pull ²"},
                          {"type": "action", "action": "sit 0", "seat": True}, {"type": "hint"}]
        with seat_ws(client, room, tokens[1]) as ws:  # not the seat to act: its actions are refused too
            recv_until(ws, lambda x: x["type"] == "state")
            codes = []
            with pytest.raises(WebSocketDisconnect) as closed:
                for i in range(100):
                    payload = bad[i % len(bad)]
                    if isinstance(payload, str):
                        ws.send_text(payload)
                    else:
                        ws.send_json(payload)
                    codes.append(recv_until(ws, lambda x: x["type"] == "error")[0]["code"])
            assert closed.value.code == 1008
        assert 50 <= len(codes) <= 53 and codes[-1] == "too_many_errors", codes
        with seat_ws(client, room, tokens[1]) as again:  # the budget is the seat's
            recv_until(again, lambda x: x["type"] == "state")
            again.send_json({"type": "teleport"})
            assert recv_until(again, lambda x: x["type"] == "error")[0]["code"] == "bad_request"
            assert recv_until(again, lambda x: x["type"] == "error")[0]["code"] == "too_many_errors"
        assert (r.version, len(r.match.events)) == before
        assert not [rec for rec in caplog.records if rec.exc_info], "a refusal logged a traceback"
