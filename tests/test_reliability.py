"""The web server when things go wrong around it (issue 9, items 7–12, 17, 20, 21).

Two server processes on one database, a database that hangs, fails or disappears, a fatal signal,
a restart, hostile parameters on every route, people whose connection drops for a moment.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.test_web import FAST, LOOSE, FakeStore, choose, is_settlement, play, quick, recv, recv_until, seat_ws
from tjmj.record import replay
from tjmj.web.app import create_app
from tjmj.web.limits import CLOSE_TRY_AGAIN, Limits
from tjmj.web.store import Store, matches_table


def app_for(store: Any, **kw: Any) -> Any:
    kw.setdefault("limits", LOOSE)
    return create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, **kw)


def in_loop(client: TestClient, fn: Any, *args: Any) -> Any:
    """Run ``fn(*args)`` (a coroutine function) on the app's event loop."""
    return client.portal.call(fn, *args)


# ---- 7. two processes on one database ------------------------------------------------------


@pytest.mark.parametrize("clustered", [False, True])
def test_two_servers_on_one_database_never_play_the_same_match(tmp_path: Path, clustered: bool) -> None:
    """A save refused for a lost lease stops the room; in a cluster (issue 30) the room is also let
    go and its pages are closed with 1013, so they reconnect to the new owner instead of waiting."""
    url = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    one, two = Store(url), Store(url)
    assert one.owner != two.owner
    app1, app2 = app_for(one), app_for(two)
    with TestClient(app1) as c1:
        app1.state.lobby.clustered = clustered
        d = quick(c1, match_hands=3)
        with seat_ws(c1, d["room"], d["token"]) as ws:
            play(ws, is_settlement)  # hand 1 stored by server one
        with TestClient(app2) as c2:
            # server two starts while server one holds the match: it neither resumes nor lists the room
            assert c2.get(f"/api/rooms/{d['room']}").status_code == 404
            assert in_loop(c2, app2.state.lobby.adopt) == []
            # server one stalls past its lease: server two takes the match over (fenced)
            with one.engine.begin() as conn:
                conn.execute(sa.update(matches_table).values(lease_until=datetime.now(UTC) - timedelta(hours=1)))
            assert in_loop(c2, app2.state.lobby.adopt) == [d["room"]]
            # server one plays on to the end of its hand: its write is refused and the room stops
            with seat_ws(c1, d["room"], d["token"]) as ws:
                err, _ = play(ws, lambda x: x["type"] == "error" and x["code"] == "moved")
                assert "another server" in err["message"]
                if clustered:
                    with pytest.raises(WebSocketDisconnect) as closed:
                        play(ws, lambda x: False)
                    assert closed.value.code == CLOSE_TRY_AGAIN
            if clustered:
                assert d["room"] not in app1.state.lobby.rooms
            else:
                assert app1.state.lobby.get(d["room"]).status == "error"
            # the match goes on at server two, with the same token, to its end
            with seat_ws(c2, d["room"], d["token"]) as ws:
                play(ws, lambda x: x["type"] == "settlement" and x["over"])
    events = two.events(d["match_id"])
    hands = [e["hand"] for e in events if e["type"] == "start_kyoku"]
    assert hands == sorted(set(hands)) and len(hands) == 3  # no hand stored twice
    assert replay(events).ok and two.get_match(d["match_id"])["status"] == "finished"
    one.close()
    two.close()


# ---- 8. the database off the event loop -----------------------------------------------------


class Gate:
    """A store whose writes of one match's hands (and every read) wait while the gate is shut."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.open = threading.Event()
        self.open.set()
        self.waiting = threading.Event()
        self.match: int | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def append_events(self, match_id: int, *a: Any, **k: Any) -> Any:
        if match_id == self.match and not self.open.is_set():
            self.waiting.set()
            self.open.wait(30)
        return self.store.append_events(match_id, *a, **k)

    def list_matches(self, *a: Any, **k: Any) -> Any:
        self.open.wait(30)
        return self.store.list_matches(*a, **k)


def test_a_hanging_database_blocks_no_table_and_no_health_check() -> None:
    gate = Gate(Store("sqlite://"))
    limits = Limits(**{**LOOSE.__dict__, "db_timeout": 0.3})
    app = app_for(gate, limits=limits)
    with TestClient(app) as client:
        a, b = quick(client, "A", match_hands=2), quick(client, "B", match_hands=2)
        gate.match = a["match_id"]
        gate.open.clear()
        with seat_ws(client, a["room"], a["token"]) as wa, seat_ws(client, b["room"], b["token"]) as wb:
            # table A ends its hand: the store hangs ...
            slow, _ = play(wa, lambda x: x["type"] == "error" and x["code"] == "store_slow")
            assert gate.waiting.is_set()
            # ... while the server answers and table B plays
            t0 = time.monotonic()
            assert client.get("/healthz").json()["ok"] and time.monotonic() - t0 < 1
            r = client.get("/api/matches")
            assert r.status_code == 503 and r.json()["error"] and time.monotonic() - t0 < 3
            states = 0
            while states < 10:  # (its own hand end is stored at once: the database hangs for A's only)
                msg = recv(wb)
                if msg["type"] == "state" and msg["legal"]:
                    states += 1
                    wb.send_json({"type": "action", "action": choose(msg["legal"]), "version": msg["version"]})
                elif msg["type"] == "settlement":
                    break
            # the database is back: table A's hand is stored and shown
            gate.open.set()
            settle, _ = recv_until(wa, is_settlement)
            assert settle["hand"] == 0
        stored = gate.store.events(a["match_id"])
        assert stored[-1]["type"] == "end_kyoku" and stored[-1]["scores"] == settle["scores"]


# ---- 9. the database file deleted or replaced while running -----------------------------------


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_lost_database_file_stops_play_with_a_clear_error(tmp_path: Path, how: str) -> None:
    path = tmp_path / "lost.sqlite3"
    store = Store(f"sqlite:///{path}")
    app = app_for(store)
    with TestClient(app) as client:
        d = quick(client, match_hands=3)
        with seat_ws(client, d["room"], d["token"]) as ws:
            play(ws, is_settlement)
            if how == "deleted":
                path.unlink()
            else:
                other = tmp_path / "other.sqlite3"
                Store(f"sqlite:///{other}").close()
                os.replace(other, path)
            err, seen = play(ws, lambda x: x["type"] == "error" and x["code"] == "database_lost")
            assert how in err["message"] and str(path) in err["message"]
            assert not any(x["type"] == "settlement" for x in seen)  # a hand that was not stored is not shown
        health = client.get("/healthz")
        assert health.status_code == 503 and health.json()["database"] == "down" and how in health.json()["reason"]
        r = client.post("/api/quick", json={})
        assert r.status_code == 503 and how in r.json()["error"]
        assert app.state.lobby.get(d["room"]).status == "error"
    store.close()


# ---- 10. a fatal signal, then a restart -----------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


SERVE = [sys.executable, "-c", "import sys; from tjmj.cli import main; sys.exit(main())", "serve"]


@contextlib.contextmanager
def serving(db: Path | str, port: int, *extra: str,
            preexec_fn: Callable[[], None] | None = None) -> Iterator[subprocess.Popen[str]]:
    """``tjmj serve`` on ``db`` (a SQLite file, or a database URL) until the block ends."""
    url = db if isinstance(db, str) else f"sqlite:///{db}"
    proc = subprocess.Popen([*SERVE, "--db", url, "--port", str(port), "--bot-delay", "0", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=preexec_fn)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("Tianjin mahjong at http://127.0.0.1:"), (line, proc.stderr.read() if proc.stderr
                                                                         else "")
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(15)


def _post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    import urllib.request

    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=orjson.dumps(body),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return orjson.loads(r.read())  # type: ignore[no-any-return]


def _get(port: int, path: str) -> Any:
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
        return orjson.loads(r.read())


def _status(port: int, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """GET (or POST ``body``) ``path``: the status and the JSON answer, errors included."""
    import urllib.error
    import urllib.request

    data = None if body is None else orjson.dumps(body)
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, orjson.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, orjson.loads(e.read())


class Seat:
    """A person's socket at a table of ``tjmj serve``: acts on every decision until told to stop."""

    def __init__(self, port: int, room: str, token: str) -> None:
        from websockets.sync.client import connect

        self.connection = connect(f"ws://127.0.0.1:{port}/ws/{room}")
        self.token = token
        self.acted = -1
        self.last = ""
        self.seen: list[dict[str, Any]] = []

    def __enter__(self) -> Seat:
        self.ws = self.connection.__enter__()
        self.ws.send(orjson.dumps({"type": "hello", "token": self.token}).decode())
        return self

    def __exit__(self, *exc: Any) -> None:
        self.connection.__exit__(*exc)

    def until(self, stop: Any, seconds: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                msg = orjson.loads(self.ws.recv(timeout=30))
            except TimeoutError:
                raise AssertionError(f"no message for 30 s; the last ones: {self.seen[-3:]}") from None
            self.seen.append(msg)
            if stop(msg):
                return msg  # type: ignore[no-any-return]
            if msg["type"] == "state" and msg["legal"] and msg["version"] > self.acted:
                self.acted = msg["version"]
                self.last = orjson.dumps({"type": "action", "action": choose(msg["legal"]),
                                          "version": self.acted}).decode()
                self.ws.send(self.last)
            elif msg["type"] == "error" and msg["code"] == "rate_limited":  # faster than a person: wait, resend
                time.sleep(0.2)
                self.ws.send(self.last)
        raise AssertionError(f"the match did not get there; the last messages: {self.seen[-3:]}")


def _play_socket(port: int, room: str, token: str, until: Any) -> dict[str, Any]:
    with Seat(port, room, token) as seat:
        return seat.until(until)


def test_a_fatal_signal_is_logged_and_a_restart_resumes(tmp_path: Path) -> None:
    db, port = tmp_path / "crash.sqlite3", _free_port()
    with serving(db, port) as proc:
        d = _post(port, "/api/quick", {"name": "Ann", "match_hands": 3})
        _play_socket(port, d["room"], d["token"], is_settlement)  # hand 1 is stored
        # SQLite's shared-memory file shrinks under the server (as when its file system is full): the
        # next access to the database faults with SIGBUS, which no program can catch
        os.truncate(f"{db}-shm", 0)
        with contextlib.suppress(OSError):
            _get(port, "/api/matches")
        proc.wait(15)
        assert proc.stderr is not None
        err = proc.stderr.read()
        assert proc.returncode == -signal.SIGBUS
        assert "Fatal Python error: Bus error" in err and "Current thread" in err  # logged with a traceback
    with serving(db, port):
        info = _get(port, f"/api/rooms/{d['room']}")
        assert info["status"] == "playing" and info["hand_number"] == 1  # resumed at once (the owner is dead)
        settle = _play_socket(port, d["room"], d["token"], is_settlement)
        assert settle["hand"] == 1


# ---- 11. settings and waiting rooms survive a restart ---------------------------------------


def test_a_restart_keeps_room_settings_and_waiting_rooms(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'keep.sqlite3'}"
    with Store(url) as store, TestClient(app_for(store)) as client:
        d = quick(client, match_hands=2, timer_s=30, bots="random")
        with seat_ws(client, d["room"], d["token"]) as ws:
            assert recv(ws)["timer_s"] == 30
        w = client.post("/api/rooms", json={"name": "Host", "bots": "greedy", "timer_s": 45}).json()
        with seat_ws(client, w["room"], w["token"]) as ws:
            assert recv(ws)["type"] == "room"
        guest = client.post(f"/api/rooms/{w['room']}/join", json={"name": "Guest"}).json()
        nobody = client.post("/api/rooms", json={"name": "Ghost"}).json()  # never connected: not kept
    with Store(url) as store, TestClient(app_for(store)) as client:
        info = client.get(f"/api/rooms/{d['room']}").json()
        assert info["status"] == "playing" and info["timer_s"] == 30 and info["bots"] == "random"
        wait = client.get(f"/api/rooms/{w['room']}").json()
        assert wait["status"] == "waiting" and wait["timer_s"] == 45 and wait["bots"] == "greedy"
        assert [p["name"] for p in wait["players"]] == ["Host", "Guest"]
        assert client.get(f"/api/rooms/{nobody['room']}").status_code == 404
        with seat_ws(client, w["room"], guest["token"]) as ws:
            assert recv(ws)["you"] == 1
        assert client.post(f"/api/rooms/{w['room']}/start", json={"token": w["token"]}).status_code == 200
        assert client.get(f"/api/rooms/{w['room']}").json()["status"] == "playing"
        assert store.claim_rooms() == []  # the started room's waiting row went with the new match


# ---- 12. no 500 for any input ----------------------------------------------------------------


JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                       lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
                       max_leaves=6)
FIELDS = ("name", "preset", "overrides", "match_hands", "bots", "timer_s", "token", "private")
PARAM = st.one_of(st.text(max_size=12), st.sampled_from(["１", "1e9", "-1", "9" * 40, "", "0x10", "1_0", " 5"]))


@pytest.fixture(scope="module")
def fuzz_client() -> Iterator[TestClient]:
    store = Store("sqlite://")
    with TestClient(app_for(store), raise_server_exceptions=False) as client:
        yield client
    store.close()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(["/api/rooms", "/api/quick", "/api/rooms/{room}/join", "/api/rooms/{room}/start"]),
       body=st.one_of(st.dictionaries(st.sampled_from(FIELDS), JSONISH, max_size=4), JSONISH,
                      st.binary(max_size=30)),
       room=PARAM)
def test_every_post_answers_bad_input_with_a_json_4xx(fuzz_client: TestClient, route: str, body: Any,
                                                      room: str) -> None:
    import urllib.parse

    path = route.replace("{room}", urllib.parse.quote(room, safe="") or "X")
    content = body if isinstance(body, bytes) else json.dumps(body).encode()  # any int, as a client may send
    r = fuzz_client.post(path, content=content, headers={"Content-Type": "application/json"})
    assert r.status_code < 500 or r.status_code == 503, (path, body, r.status_code, r.text)
    assert isinstance(r.json(), dict)
    if r.status_code >= 400:
        assert r.json()["error"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.sampled_from(["list", "match", "record", "frames", "room", "tile", "lobby"]), a=PARAM, b=PARAM,
       c=PARAM)
def test_every_get_answers_bad_input_with_a_json_4xx(fuzz_client: TestClient, which: str, a: str, b: str,
                                                     c: str) -> None:
    import urllib.parse

    q = urllib.parse.quote
    path = {
        "list": f"/api/matches?limit={q(a)}&offset={q(b)}&status={q(c)}",
        "match": f"/api/matches/{q(a, safe='')}",
        "record": f"/api/matches/{q(a, safe='')}/record",
        "frames": f"/api/matches/{q(a, safe='')}/frames",
        "room": f"/api/rooms/{q(a, safe='')}",
        "tile": f"/tiles/{q(a, safe='')}.svg?size={q(b)}",
        "lobby": f"/api/lobby?{q(a)}={q(b)}",
    }[which]
    r = fuzz_client.get(path, headers={"If-None-Match": c} if which == "lobby" and c.isascii() and c.isprintable() else {})
    assert r.status_code < 500, (path, r.status_code, r.text)
    if r.status_code >= 400:
        assert r.json()["error"]


def test_the_known_500s_are_4xx_now(fuzz_client: TestClient) -> None:
    c = fuzz_client
    assert c.post("/api/rooms", json={"preset": []}).status_code == 400
    assert c.post("/api/rooms", json={"bots": {}}).status_code == 400
    assert c.post("/api/rooms", json={"overrides": {"min_fan": []}}).status_code == 400
    assert c.get("/api/matches?offset=" + "9" * 30).status_code == 400
    assert c.get("/api/matches?offset=99999999999999999").status_code == 400
    assert c.get("/api/matches/１").status_code == 404
    assert c.get("/api/matches?limit=１").status_code == 400


def test_a_database_that_is_down_answers_503_json() -> None:
    class Down:
        def __getattr__(self, name: str) -> Any:
            def fail(*a: Any, **k: Any) -> Any:
                raise sa.exc.OperationalError("SELECT 1", {}, Exception("connection refused"))

            return fail

    with TestClient(create_app(Down(), limits=LOOSE), raise_server_exceptions=False) as client:  # type: ignore[arg-type]
        for path in ("/api/matches", "/api/matches/1", "/api/matches/1/record"):
            r = client.get(path)
            assert r.status_code == 503 and "database" in r.json()["error"], path
        r = client.post("/api/quick", json={})
        assert r.status_code == 503 and r.json()["error"]


# ---- 17. tjmj serve: the ready line, one-line errors -------------------------------------------


def test_serve_says_it_is_ready_only_once_it_listens_and_errors_are_one_line(tmp_path: Path) -> None:
    port = _free_port()
    with serving(tmp_path / "a.sqlite3", port):
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass  # the ready line came: it accepts connections
        busy = subprocess.run([*SERVE, "--db", f"sqlite:///{tmp_path / 'b.sqlite3'}", "--port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert busy.returncode != 0 and "Tianjin mahjong at" not in busy.stdout
    assert busy.stderr.strip().count("\n") == 0 and f"{port}" in busy.stderr and "in use" in busy.stderr
    bad = subprocess.run([*SERVE, "--db", "sqlite:////nonexistent/dir/x.sqlite3", "--port", str(_free_port())],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and bad.stdout == ""
    assert bad.stderr.strip().count("\n") == 0 and "/nonexistent/dir/x.sqlite3" in bad.stderr


# ---- 20, 21. people who drop out for a moment; messages at the wrong time -------------------


def two_people(client: TestClient, **body: Any) -> tuple[str, list[str]]:
    r = client.post("/api/rooms", json={"name": "A", **body}).json()
    j = client.post(f"/api/rooms/{r['room']}/join", json={"name": "B"}).json()
    assert client.post(f"/api/rooms/{r['room']}/start", json={"token": r["token"]}).status_code == 200
    return r["room"], [r["token"], j["token"]]


def test_a_person_who_drops_out_briefly_is_not_played_by_the_bot() -> None:
    store = Store("sqlite://")
    app = app_for(store, limits=Limits(**{**LOOSE.__dict__, "grace": 5.0}))
    with TestClient(app) as client, contextlib.ExitStack() as a, contextlib.ExitStack() as b:
        room, tokens = two_people(client)
        r = app.state.lobby.get(room)
        m = r.match
        stacks = {0: a, 1: b}
        socks = {i: stacks[i].enter_context(seat_ws(client, room, tokens[i])) for i in (0, 1)}
        deadline = time.monotonic() + 20
        while m.to_act < 0 or m.seating[m.to_act] not in (0, 1):  # bots play until a person must decide
            assert time.monotonic() < deadline
            time.sleep(0.01)
        who = m.seating[m.to_act]
        seat, other = m.seating.index(who), socks[1 - who]
        version = r.version
        stacks[who].close()  # their tab closes ...
        recv_until(other, lambda x: x["type"] == "state" and not x["connected"][seat])
        time.sleep(1.0)
        assert r.version == version and m.to_act == seat  # ... and nobody plays for them meanwhile
        with seat_ws(client, room, tokens[who]) as again:  # back within the grace period
            recv_until(again, lambda x: x["type"] == "state")
            # presence at once: the other side sees them back without any move being made
            recv_until(other, lambda x: x["type"] == "state" and x["connected"][seat])
            assert r.version == version
            r.lobby.limits = Limits(**{**LOOSE.__dict__, "grace": 0.2})
        # away for longer than the grace period: then the bot plays for them
        recv_until(other, lambda x: x["type"] == "state" and x["version"] > version, timeout=10)
    store.close()


def test_next_outside_the_pause_is_answered() -> None:
    store = Store("sqlite://")
    with TestClient(app_for(store)) as client:
        d = quick(client)
        with seat_ws(client, d["room"], d["token"]) as ws:
            recv_until(ws, lambda x: x["type"] == "state")
            ws.send_json({"type": "next"})
            err, _ = recv_until(ws, lambda x: x["type"] == "error")
            assert err["code"] == "not_paused" and re.search("no pause", err["message"])
    store.close()


# ---- issue 35, item 1: a hand cut short by a crash is dealt again, from a wall nobody saw -------


def _hand_seen(port: int, room: str, token: str, draws: int = 4) -> tuple[int, list[str], list[str]]:
    """Play the seat (deciding whatever it is asked) until it has seen its dealt tiles and ``draws``
    of its draws in the hand in play: (the hand's number, its dealt tiles, those draws)."""
    from websockets.sync.client import connect

    me: int | None = None
    hand, dealt, drawn = -1, [], []
    with connect(f"ws://127.0.0.1:{port}/ws/{room}") as ws:
        ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
        acted = -1
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            msg = orjson.loads(ws.recv(timeout=30))
            if msg["type"] == "room":
                me = msg["seat"]
            elif msg["type"] == "events":
                for e in msg["events"]:
                    if e["type"] == "start_kyoku":
                        hand, dealt, drawn = e["hand"], e["tehais"][me], []
                    elif e["type"] == "tsumo" and e["actor"] == me:
                        drawn.append(e["pai"])
                    elif e["type"] == "end_kyoku" and msg.get("replay"):  # the hand before (shown on reconnecting)
                        hand, dealt, drawn = -1, [], []
                    elif e["type"] == "end_kyoku":
                        raise AssertionError("the hand ended before the seat drew enough: no interruption to test")
                if dealt and len(drawn) >= draws:
                    return hand, dealt, drawn[:draws]
            elif msg["type"] == "state" and msg["legal"] and msg["version"] > acted:
                acted = msg["version"]
                # never win: the hand must still be in play when the server is killed
                legal = [a for a in msg["legal"] if a != "win"]
                ws.send(orjson.dumps({"type": "action", "action": choose(legal), "version": acted}).decode())
    raise AssertionError("the seat did not draw enough")


def test_a_hand_cut_short_by_a_crash_is_dealt_again_from_a_fresh_wall(tmp_path: Path) -> None:
    """Issue 35, item 1: after kill -9 and a restart the interrupted hand was dealt again with the same
    13 tiles and the same draws, so whoever played part of it knew what was coming.  Now the hand in
    play is void and dealt from a fresh wall (the store's fence, raised by every restart, is the
    resume counter; ``start_kyoku.resume`` records it, so the record still replays exactly), a
    second restart of the same hand deals yet another one, and the record replays."""
    db, port = tmp_path / "redeal.sqlite3", _free_port()
    seen: list[tuple[int, list[str], list[str]]] = []
    with serving(db, port) as proc:
        d = _post(port, "/api/quick", {"name": "Ann", "match_hands": 2, "bots": "random"})
        seen.append(_hand_seen(port, d["room"], d["token"]))  # hand 0 (nothing stored yet)
        proc.kill()
        proc.wait(15)
    for _ in range(2):  # restarted twice in the same hand: a new wall each time
        with serving(db, port) as proc:
            assert _get(port, f"/api/rooms/{d['room']}")["status"] == "playing"
            seen.append(_hand_seen(port, d["room"], d["token"]))
            proc.kill()
            proc.wait(15)
    assert [s[0] for s in seen] == [0, 0, 0]
    for i in range(len(seen)):
        for j in range(i):
            assert (seen[i][1], seen[i][2]) != (seen[j][1], seen[j][2]), (i, j, seen)
    with serving(db, port) as proc:
        _play_socket(port, d["room"], d["token"], is_settlement)  # hand 0, stored this time
        hand_1 = _hand_seen(port, d["room"], d["token"])
        proc.kill()  # in hand 1: the match is rebuilt from the stored hand 0, then hand 1 dealt anew
        proc.wait(15)
    with serving(db, port):
        again = _hand_seen(port, d["room"], d["token"])
        assert again[0] == hand_1[0] == 1 and (again[1], again[2]) != (hand_1[1], hand_1[2])
        _play_socket(port, d["room"], d["token"], lambda x: x["type"] == "settlement" and x["over"])
        record = urllib_get(port, f"/api/matches/{d['match_id']}/record")
    events = [orjson.loads(line) for line in record.splitlines()]
    starts = [e for e in events if e["type"] == "start_kyoku"]
    # the fence is 1 when the match is made and +1 at each taking: hand 0 as the third restart dealt
    # it (4), hand 1 as the fourth (5)
    assert [(e["hand"], e.get("resume")) for e in starts] == [(0, 4), (1, 5)]
    assert replay(events).ok and sum(1 for e in events if e["type"] == "end_kyoku") == 2
    assert starts[0]["scores"] == [0, 0, 0, 0]  # the interrupted deals changed nobody's score


def urllib_get(port: int, path: str) -> bytes:
    """The body of a GET; a 409 (the match is being finished just after its last settlement) is asked again."""
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + 10
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
                return r.read()  # type: ignore[no-any-return]
        except urllib.error.HTTPError as e:
            if e.code != 409 or time.monotonic() > deadline:
                raise
            time.sleep(0.1)


# ---- issue 35: a database frozen, stopped or read-only ------------------------------------------


PG_URL = os.environ.get("TJMJ_TEST_POSTGRES_URL")
PR_CAPBSET_DROP, CAP_DAC_OVERRIDE = 24, 1


def _obey_file_modes() -> None:
    """In the server's process (before exec): root without CAP_DAC_OVERRIDE obeys file modes as any
    user does, so that chmod makes the database read-only for it (tests run as root)."""
    import ctypes

    if os.geteuid() == 0 and ctypes.CDLL(None, use_errno=True).prctl(PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0):
        raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def test_a_read_only_database_file_pauses_play_until_it_is_writable_again(tmp_path: Path) -> None:
    db, port = tmp_path / "ro.sqlite3", _free_port()
    with serving(db, port, preexec_fn=_obey_file_modes):
        d = _post(port, "/api/quick", {"name": "Ann", "match_hands": 3, "bots": "baseline"})
        with Seat(port, d["room"], d["token"]) as seat:
            first = seat.until(is_settlement)  # hand 1 stored
            os.chmod(db, 0o444)  # an operator's mistake, a file system remounted read-only
            err = seat.until(lambda x: x["type"] == "error" and x["code"] in ("store_failed", "database_lost"))
            assert err["code"] == "store_failed"  # kept and retried, not stopped for good
            status, health = _status(port, "/healthz")
            assert status == 503 and health["database"] == "down" and "not writable" in health["reason"]
            assert _status(port, "/api/quick", {"name": "Bob"})[0] == 503
            time.sleep(1)
            os.chmod(db, 0o644)  # writable again, the same file: play goes on by itself
            second = seat.until(is_settlement)
            assert second["hand"] > first["hand"]
            deadline = time.monotonic() + 10
            while _status(port, "/healthz")[0] != 200:
                assert time.monotonic() < deadline, "/healthz stays 503"
                time.sleep(0.3)
            assert _status(port, "/api/quick", {"name": "Bob", "bots": "baseline"})[0] == 200
            seat.until(lambda x: x["type"] == "settlement" and x["over"])
    with Store(f"sqlite:///{db}") as store:
        m = store.get_match(d["match_id"])
        events = store.events(d["match_id"])
        assert m is not None and m["status"] == "finished"
        assert replay(events).ok
        kyoku = [e["hand"] for e in events if e["type"] == "start_kyoku"]
        assert kyoku == sorted(set(kyoku))  # every hand once


def test_a_database_file_replaced_while_read_only_is_not_adopted(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "swap.sqlite3"
    store = Store(f"sqlite:///{path}")
    limits = Limits(**{**LOOSE.__dict__, "health_every": 0.0})
    with TestClient(app_for(store, limits=limits)) as client:
        d = quick(client, match_hands=3)
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: p != str(path) and real(p, mode, **kw))
        with seat_ws(client, d["room"], d["token"]) as ws:
            play(ws, lambda x: x["type"] == "error" and x["code"] == "store_failed")
            assert client.get("/healthz").status_code == 503
            other = tmp_path / "other.sqlite3"
            Store(f"sqlite:///{other}").close()
            os.replace(other, path)
            monkeypatch.undo()  # writable now, but another file: never written to
            err, _ = play(ws, lambda x: x["type"] == "error" and x["code"] == "database_lost")
            assert "replaced" in err["message"]
        health = client.get("/healthz")
        assert health.status_code == 503 and "replaced" in health.json()["reason"]
    store.close()


class SlowCreate(Gate):
    """A store whose create_match waits while the gate is shut."""

    def create_match(self, *a: Any, **k: Any) -> Any:
        if not self.open.is_set():
            self.waiting.set()
            self.open.wait(30)
        return self.store.create_match(*a, **k)


def test_a_write_the_database_sits_on_answers_503_in_bounded_time(tmp_path: Path) -> None:
    gate = SlowCreate(Store(f"sqlite:///{tmp_path / 'slow.sqlite3'}"))
    limits = Limits(**{**LOOSE.__dict__, "db_timeout": 0.5})
    app = app_for(gate, limits=limits)
    with TestClient(app) as client:
        gate.open.clear()
        t0 = time.monotonic()
        answers = [client.post("/api/quick", json={"name": f"P{i}"}) for i in range(6)]  # more than the pool's threads
        assert [r.status_code for r in answers] == [503] * 6 and time.monotonic() - t0 < 6 * 0.5 + 2
        assert all("not answering" in r.json()["error"] for r in answers)
        assert app.state.lobby.rooms == {}
        gate.open.set()  # the writes that were running land after all: their matches are discarded
        deadline = time.monotonic() + 10
        while gate.store.list_matches():
            assert time.monotonic() < deadline, gate.store.list_matches()
            time.sleep(0.05)
        assert quick(client)["match_id"]  # and the server works as before
    gate.store.close()


def _postmaster(url: str) -> int:
    """The pid of the PostgreSQL server at ``url`` (skips the test unless that server runs on this
    machine and this process may signal it)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:  # read while its backend (a child of the postmaster) lives
            backend = int(conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one())
            postmaster = _parent(backend)
            os.kill(postmaster, 0)
    except (OSError, ValueError):
        pytest.skip("the test PostgreSQL does not run on this machine, or cannot be signalled")
    finally:
        engine.dispose()
    return postmaster


def _parent(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("PPid:"):
            return int(line.split()[1])
    raise ValueError(pid)


@contextlib.contextmanager
def frozen(postmaster: int) -> Iterator[None]:
    """Every process of the database server stopped (SIGSTOP: its sockets stay open and its host's
    kernel acknowledges every packet, but nothing answers), always continued after."""
    stopped = []
    try:
        os.kill(postmaster, signal.SIGSTOP)  # first: no new backend starts meanwhile
        stopped.append(postmaster)
        for entry in Path("/proc").iterdir():
            pid = int(entry.name) if entry.name.isdigit() else 0
            with contextlib.suppress(OSError, ValueError):
                if pid and _parent(pid) == postmaster:
                    os.kill(pid, signal.SIGSTOP)
                    stopped.append(pid)
        yield
    finally:
        for pid in reversed(stopped):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


def _timed(call: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.monotonic()
    out = call()
    return time.monotonic() - t0, out


@pytest.mark.skipif(not PG_URL, reason="needs TJMJ_TEST_POSTGRES_URL")
def test_a_frozen_postgresql_fails_requests_in_seconds_and_loses_nothing() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from tests.conftest import postgres_lock
    from tests.test_store import _reset_postgres

    assert PG_URL is not None
    port = _free_port()
    with postgres_lock():
        _reset_postgres(PG_URL)
        postmaster = _postmaster(PG_URL)
        with serving(PG_URL, port, "--db-timeout", "2", "--db-statement-timeout", "2"):
            d = _post(port, "/api/quick", {"name": "Ann", "match_hands": 3, "bots": "baseline"})
            with Seat(port, d["room"], d["token"]) as seat:
                first = seat.until(is_settlement)  # hand 1 stored
                with frozen(postmaster):
                    took, (status, body) = _timed(lambda: _status(port, "/api/quick", {"name": "B"}))
                    assert status == 503 and "not answering" in body["error"] and took < 4, (took, body)
                    with ThreadPoolExecutor(6) as pool:  # more than the server's 4 database threads
                        answers = list(pool.map(lambda i: _timed(lambda: _status(port, "/api/quick", {"name": "C"})),
                                                range(6)))
                    assert [a[1][0] for a in answers] == [503] * 6 and max(a[0] for a in answers) < 4, answers
                    took, (status, health) = _timed(lambda: _status(port, "/healthz"))
                    assert status == 503 and health["database"] == "down" and took < 4, (took, health)
                    # the hand in play ends: kept (the table says so), not shown, not lost
                    err = seat.until(lambda x: (x["type"] == "error" and x["code"] != "rate_limited")
                                     or is_settlement(x))
                    assert err["type"] == "error" and err["code"] in ("store_slow", "store_failed"), err
                second = seat.until(is_settlement)  # thawed: stored, then shown
                assert second["hand"] > first["hand"]
                deadline = time.monotonic() + 20
                while _status(port, "/healthz")[0] != 200:
                    assert time.monotonic() < deadline, "/healthz stays 503"
                    time.sleep(0.3)
                seat.until(lambda x: x["type"] == "settlement" and x["over"])
        with Store(PG_URL) as store:
            matches = store.list_matches()
            assert [m["id"] for m in matches] == [d["match_id"]], matches  # refused requests left nothing
            events = store.events(d["match_id"])
            assert matches[0]["status"] == "finished" and replay(events).ok
            kyoku = [e["hand"] for e in events if e["type"] == "start_kyoku"]
            assert kyoku == sorted(set(kyoku))


class Pings:
    """A store that counts its health checks."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.pings = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def ping(self) -> None:
        self.pings += 1
        self.store.ping()


def _health_until(client: TestClient, status: int, seconds: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        took, r = _timed(lambda: client.get("/healthz"))
        assert took < 3, f"/healthz took {took:.1f} s"  # bounded, whatever the database does
        if r.status_code == status:
            return r.json()  # type: ignore[no-any-return]
        assert time.monotonic() < deadline, r.json()
        time.sleep(0.2)


def test_healthz_checks_the_database_cheaply(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "health.sqlite3"
    store = Pings(Store(f"sqlite:///{path}"))
    limits = Limits(**{**LOOSE.__dict__, "health_every": 0.5})
    with TestClient(app_for(store, limits=limits)) as client:
        assert _health_until(client, 200)["database"] == "ok"
        before = store.pings
        for _ in range(50):
            assert client.get("/healthz").status_code == 200
        assert store.pings - before <= 2  # a flood of checks: one query per health_every, not one each
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: p != str(path) and real(p, mode, **kw))
        body = _health_until(client, 503)  # read-only, before any write found it
        assert body["database"] == "down" and body["ok"] is False and "not writable" in body["reason"]
        monkeypatch.undo()
        assert _health_until(client, 200)["database"] == "ok"
    store.store.close()


def _cluster(url: str) -> list[str]:
    """``[version, name]`` of the Debian PostgreSQL cluster serving ``url`` (else the test is skipped)."""
    import shutil

    port = sa.make_url(url).port or 5432
    if shutil.which("pg_lsclusters") is None or shutil.which("pg_ctlcluster") is None:
        pytest.skip("needs Debian's pg_lsclusters and pg_ctlcluster")
    for line in subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True, check=True).stdout.splitlines():
        ver, name, cport, *_ = line.split()
        if int(cport) == port:
            return [ver, name]
    pytest.skip(f"no local cluster on port {port}")


@pytest.mark.skipif(not PG_URL, reason="needs TJMJ_TEST_POSTGRES_URL")
def test_healthz_says_down_while_postgresql_is_frozen_or_stopped() -> None:
    from tests.conftest import postgres_lock
    from tests.test_store import _reset_postgres

    assert PG_URL is not None
    limits = Limits(**{**LOOSE.__dict__, "health_every": 0.2, "health_timeout": 1.0})
    with postgres_lock():
        _reset_postgres(PG_URL)
        postmaster, cluster = _postmaster(PG_URL), _cluster(PG_URL)
        store = Store(PG_URL, timeout=1)
        try:
            with TestClient(app_for(store, limits=limits)) as client:
                assert _health_until(client, 200)["database"] == "ok"
                with frozen(postmaster):
                    body = _health_until(client, 503)
                    assert body["database"] == "down" and "not answered" in body["reason"]
                assert _health_until(client, 200)["database"] == "ok"
                subprocess.run(["pg_ctlcluster", *cluster, "stop", "-m", "fast"], check=True, timeout=60)
                try:
                    body = _health_until(client, 503)
                    assert body["database"] == "down" and body["reason"]
                    assert client.post("/api/quick", json={}).status_code == 503
                finally:
                    subprocess.run(["pg_ctlcluster", *cluster, "start"], check=True, timeout=60)
                assert _health_until(client, 200)["database"] == "ok"
                assert client.post("/api/quick", json={}).status_code == 200
        finally:
            store.close()


# ---- issue 35, item 7: what a long run keeps ------------------------------------------------------


def test_finished_rooms_are_bounded_and_let_go_of_their_bots() -> None:
    limits = Limits(**{**LOOSE.__dict__, "finished_kept": 3})
    app = app_for(FakeStore(), limits=limits)
    with TestClient(app) as client:
        lobby = app.state.lobby
        rooms = []
        for i in range(6):
            d = quick(client, f"P{i}", match_hands=1, bots="strong")
            with seat_ws(client, d["room"], d["token"]) as ws:
                play(ws, lambda x: x["type"] == "settlement" and x["over"])
            rooms.append(lobby.get(d["room"]))
        in_loop(client, _cleanup, lobby)
        kept = [r for r in rooms if r.id in lobby.rooms]
        assert [r.id for r in kept] == [r.id for r in rooms[-3:]]  # the most recently used
        assert all(not r._bots and not r._hints and not r._states for r in rooms)
        d = rooms[-1]
        with seat_ws(client, d.id, None) as ws:  # a finished room still shows its end
            assert recv(ws)["type"] == "room"


async def _cleanup(lobby: Any) -> None:
    lobby.cleanup()
