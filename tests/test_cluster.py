"""Several ``tjmj serve`` processes on one PostgreSQL (issue 30; docs/web.md, "Several processes").

Real processes on a real PostgreSQL (``TJMJ_TEST_POSTGRES_URL``, started by ``./test``): a room
made through one process is played through another, the lobby and a room's calls answer the same
everywhere, a process killed with SIGKILL has its match taken over within seconds and finished with
no hand lost or played twice, and a forward not signed by a peer counts for nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import re
import shutil
import signal
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa

from tests.test_reliability import SERVE, _free_port, _get, _post, _status, choose
from tjmj.record import replay

PG_URL = os.environ.get("TJMJ_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not PG_URL, reason="needs TJMJ_TEST_POSTGRES_URL (./test starts PostgreSQL)")


@contextlib.contextmanager
def fresh_postgres() -> Iterator[str]:
    from tests.conftest import postgres_lock
    from tests.test_store import _reset_postgres

    assert PG_URL is not None
    with postgres_lock():
        _reset_postgres(PG_URL)
        yield PG_URL


@contextlib.contextmanager
def node(url: str, port: int, *extra: str) -> Iterator[subprocess.Popen[str]]:
    """One ``tjmj serve --cluster`` process until the block ends (or it is killed)."""
    # its log to a file, never a pipe nobody reads: a full pipe would block the server at its next log line
    log = tempfile.NamedTemporaryFile("w+", prefix=f"tjmj-node-{port}-", suffix=".log", delete=False)  # noqa: SIM115
    proc = subprocess.Popen([*SERVE, "--db", url, "--port", str(port), "--bot-delay", "0", "--cluster",
                             "--log-level", "warning", *extra],
                            stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(3)]
        assert lines[0].startswith("Tianjin mahjong at http://127.0.0.1:"), (lines, Path(log.name).read_text())
        assert lines[2].startswith("Cluster node: http://127.0.0.1:"), lines
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(20)
        log.close()
        os.unlink(log.name)


def wait_for(check: Any, seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds} s: {what}")


def live_nodes(url: str, n: int) -> None:
    engine = sa.create_engine(url)
    try:
        def count() -> bool:
            with engine.connect() as conn:
                return conn.execute(sa.text("SELECT count(*) FROM nodes")).scalar_one() >= n
        wait_for(count, 30, f"{n} nodes beating")
    finally:
        engine.dispose()
    time.sleep(1.2)  # each has seen the others beat once


class Player:
    """A person at a table who reconnects through whichever port it is given, as the page does."""

    def __init__(self, room: str, token: str) -> None:
        self.room, self.token = room, token
        self.acted = -1
        self.settled: list[int] = []  # the hand numbers of the settlements seen, in order
        self.closes: list[int] = []  # close codes seen
        self.errors: list[dict[str, Any]] = []
        self.seen: list[dict[str, Any]] = []
        self.retry = 0  # reconnections since the last message

    def play(self, port: int | str, stop: Any, seconds: float = 90) -> dict[str, Any] | None:
        """Play through ``port`` (or a ``wss://host:port`` base) until ``stop(msg)``; None if the
        connection closed first."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake
        from websockets.sync.client import connect

        base = port if isinstance(port, str) else f"ws://127.0.0.1:{port}"
        if self.retry:  # as table.js: wait 0.5 s, 1 s, ... at most 3 s before reconnecting
            time.sleep(min(0.5 * self.retry, 3.0))
        try:
            with connect(f"{base}/ws/{self.room}", open_timeout=5,
                         ssl=_insecure() if base.startswith("wss:") else None) as ws:
                return self._session(ws, base, stop, time.monotonic() + seconds)
        except ConnectionClosed as e:  # closed while sending, or while reading
            self.closes.append(e.rcvd.code if e.rcvd else 1006)
        except OSError:  # nothing listening there (a killed process, with no proxy in front)
            self.closes.append(0)
        except InvalidHandshake:  # the upgrade refused (a proxy's 502): a page's socket closes, and it retries
            self.closes.append(-1)
        self.retry += 1
        return None

    def _session(self, ws: Any, base: str, stop: Any, deadline: float) -> dict[str, Any]:
        last = b""
        ws.send(orjson.dumps({"type": "hello", "token": self.token}).decode())
        while time.monotonic() < deadline:
            try:
                msg = orjson.loads(ws.recv(timeout=20))
            except TimeoutError:
                raise AssertionError(f"no message for 20 s through {base}; the last: {self.seen[-4:]}") from None
            self.retry = 0
            self.seen.append({k: msg.get(k) for k in ("type", "status", "version", "legal", "code", "message")})
            if msg["type"] == "settlement" and msg.get("hand") not in self.settled[-1:]:
                self.settled.append(msg["hand"])
                ws.send('{"type": "next"}')  # ready for the next hand: no pause
            if stop(msg):
                return msg  # type: ignore[no-any-return]
            if msg["type"] == "state" and msg["legal"] and msg["version"] > self.acted:
                self.acted = msg["version"]
                last = orjson.dumps({"type": "action", "action": choose(msg["legal"]), "version": self.acted})
                ws.send(last.decode())
            elif msg["type"] == "error" and msg.get("code") == "rate_limited" and last:
                time.sleep(0.3)  # faster than a person (the bots wait 0 s): wait, and send it again
                ws.send(last.decode())
            elif msg["type"] == "error" and msg.get("code") not in ("stale", "moving"):
                self.errors.append(msg)
        raise AssertionError("the match did not get there in time")


def is_settlement(msg: dict[str, Any]) -> bool:
    return msg["type"] == "settlement"


def over(msg: dict[str, Any]) -> bool:
    return msg["type"] == "settlement" and msg["over"] is True


def _stored(url: str, room: str) -> tuple[str, list[dict[str, Any]]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            row = conn.execute(sa.text("SELECT id, status FROM matches WHERE room = :r"), {"r": room}).one()
            bodies = conn.execute(sa.text("SELECT body FROM events WHERE match_id = :m ORDER BY seq"),
                                  {"m": row.id}).scalars().all()
    finally:
        engine.dispose()
    return row.status, [orjson.loads(b) for b in bodies]


@pytest.mark.parametrize("fault", ["kill", "freeze"])
def test_any_process_serves_any_room_and_one_that_dies_is_taken_over_in_seconds(fault: str) -> None:
    """``kill``: SIGKILL (its peers on the host see the pid gone); ``freeze``: SIGSTOP, as a host
    that is lost or cut off (its pid lives, only its heartbeat stops), then SIGCONT mid-match."""
    with fresh_postgres() as url:
        ports = [_free_port() for _ in range(3)]
        with node(url, ports[0]) as a, node(url, ports[1]), node(url, ports[2]):
            live_nodes(url, 3)
            d = _post(ports[0], "/api/quick", {"name": "Ann", "match_hands": 4})  # made, and owned, by A
            room, token = d["room"], d["token"]
            # B and C answer for A's room: its info, and its socket (piped to A)
            assert _get(ports[2], f"/api/rooms/{room}")["status"] == "playing"
            ann = Player(room, token)
            assert ann.play(ports[1], is_settlement) is not None  # hand 1 played through B, stored by A
            lobby = wait_for(lambda: [r for r in _get(ports[2], "/api/lobby")["live"] if r["room"] == room] or None,
                             5, "C lists A's live table")
            assert lobby[0]["seats"]
            status, _ = _status(ports[0], f"/internal/rooms/{room}")  # unsigned: nothing for a client here
            assert status == 404
            a.send_signal(signal.SIGKILL if fault == "kill" else signal.SIGSTOP)
            gone = time.monotonic()

            def back() -> bool:
                code, info = _status(ports[1], f"/api/rooms/{room}")
                return code == 200 and info.get("status") == "playing"

            wait_for(back, 20, "another process plays the match")
            took = time.monotonic() - gone
            assert took < 8.0, took  # node_timeout 3 s + a beat; more only on a loaded machine
            # the page's socket through B was cut (B saw A stop beating, or A's socket closed); it
            # reconnects through the same address and reaches the new owner
            assert ann.play(ports[2], is_settlement) is not None
            if fault == "freeze":
                a.send_signal(signal.SIGCONT)  # A wakes: it must find its lease gone and let the room go
                time.sleep(2.5)
            for i in range(20):  # play on through every port in turn (A's too, once awake) until the end
                port = ports[i % 3] if fault == "freeze" else ports[1 + i % 2]
                if ann.play(port, over) is not None:
                    break
            else:
                raise AssertionError(f"the match did not finish: closes {ann.closes}")
            assert ann.errors == []
        status, events = _stored(url, room)
        assert status == "finished"
        ends = [e for e in events if e["type"] == "end_kyoku"]
        assert len(ends) == 4  # every hand once: none lost, none doubled
        assert ann.settled == sorted(set(ann.settled))  # no settlement shown twice or out of order
        replay(events)  # the record replays
        print(f"\n{fault}: taken over {took:.1f} s after the fault")


def test_a_forward_counts_only_with_the_cluster_signature() -> None:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    with fresh_postgres() as url:
        ports = [_free_port() for _ in range(2)]
        with node(url, ports[0]), node(url, ports[1]):
            live_nodes(url, 2)
            d = _post(ports[0], "/api/quick", {"name": "Ann", "match_hands": 1})
            path = f"/ws/{d['room']}"
            evil = {"Origin": "http://evil.example", "x-tjmj-time": f"{time.time():.3f}", "x-tjmj-client": "1.2.3.4",
                    "x-tjmj-sign": "0" * 64}
            with pytest.raises(InvalidStatus):  # a cross-site socket, the forged headers notwithstanding
                connect(f"ws://127.0.0.1:{ports[0]}{path}", additional_headers=evil, open_timeout=5)
            engine = sa.create_engine(url)
            try:
                with engine.connect() as conn:
                    secret = bytes.fromhex(conn.execute(sa.text("SELECT value FROM cluster")).scalar_one())
            finally:
                engine.dispose()
            stamp = f"{time.time():.3f}"
            mac = hmac.new(secret, f"{stamp}\n1.2.3.4\nWS\n{path}".encode(), hashlib.sha256).hexdigest()
            signed = {**evil, "x-tjmj-time": stamp, "x-tjmj-sign": mac}
            with connect(f"ws://127.0.0.1:{ports[0]}{path}", additional_headers=signed, open_timeout=5) as ws:
                ws.send(orjson.dumps({"type": "hello", "spectate": True}).decode())
                assert orjson.loads(ws.recv(timeout=10))["type"] in ("room", "state")  # a peer's forward is served


def test_workers_share_one_port_and_sqlite_is_refused(tmp_path: Any) -> None:
    bad = subprocess.run([*SERVE, "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", "--workers", "2"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "need PostgreSQL" in bad.stderr and "Traceback" not in bad.stderr
    with fresh_postgres() as url:
        port = _free_port()
        proc = subprocess.Popen([*SERVE, "--db", url, "--port", str(port), "--bot-delay", "0", "--workers", "2",
                                 "--log-level", "warning"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert proc.stdout is not None
            first = proc.stdout.readline()
            assert first.startswith(f"Tianjin mahjong at http://127.0.0.1:{port}"), first
            assert proc.stdout.readline().startswith("Workers: 2 processes")
            live_nodes(url, 2)
            rooms = [_post(port, "/api/quick", {"name": f"P{i}", "match_hands": 1}) for i in range(6)]
            for d in rooms:  # whichever worker each lands on, it finds the room's
                assert _get(port, f"/api/rooms/{d['room']}")["status"] == "playing"
            p = Player(rooms[0]["room"], rooms[0]["token"])
            assert p.play(port, over) is not None
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(40) == 0


# ---- behind nginx (deploy/nginx/tjmj.conf) ---------------------------------------------------------

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def _insecure() -> ssl.SSLContext:
    """A TLS client context that takes the test's throw-away certificate."""
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def https(port: int, path: str, body: dict[str, Any] | None = None) -> Any:
    import urllib.request

    data = None if body is None else orjson.dumps(body)
    req = urllib.request.Request(f"https://127.0.0.1:{port}{path}", data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=20, context=_insecure()) as r:
        return orjson.loads(r.read())


@contextlib.contextmanager
def nginx(tmp: Path, upstreams: list[int]) -> Iterator[int]:
    """deploy/nginx/tjmj.conf itself, run with loopback upstreams, free ports and a throw-away
    certificate; yields its TLS port."""
    conf = (Path(__file__).parents[1] / "deploy" / "nginx" / "tjmj.conf").read_text()
    servers = re.findall(r"^ *server 10\.0\.0\.\d+:8000 .*$", conf, re.M)
    assert len(servers) == 3, servers
    conf = conf.replace("\n".join(servers), "\n".join(
        f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;" for p in upstreams))
    plain, tls = _free_port(), _free_port()
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{plain};").replace("listen 443 ssl", f"listen 127.0.0.1:{tls} ssl")
    conf = conf.replace("/etc/ssl/tjmj/fullchain.pem", str(tmp / "cert.pem"))
    conf = conf.replace("/etc/ssl/tjmj/privkey.pem", str(tmp / "key.pem"))
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-keyout", str(tmp / "key.pem"), "-out", str(tmp / "cert.pem")], check=True, capture_output=True)
    (tmp / "tjmj.conf").write_text(conf)
    for d in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp / d).mkdir()
    temp = " ".join(f"{d}_temp_path {tmp / d};" for d in ("proxy", "fastcgi", "uwsgi", "scgi"))
    (tmp / "nginx.conf").write_text(
        f"daemon off; worker_processes 1; pid {tmp / 'nginx.pid'}; error_log {tmp / 'error.log'} warn;\n"
        f"events {{ worker_connections 512; }}\n"
        f"http {{ access_log off; client_body_temp_path {tmp / 'body'}; {temp} include {tmp / 'tjmj.conf'}; }}\n")
    check = subprocess.run([NGINX, "-t", "-p", str(tmp), "-c", str(tmp / "nginx.conf")], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf")], stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: _listening(tls), 10, "nginx listens")
        yield tls
    finally:
        proc.terminate()
        proc.wait(10)


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.skipif(not shutil.which("nginx") and not Path("/usr/sbin/nginx").exists(), reason="needs nginx")
@pytest.mark.serial  # five processes and nginx with heartbeats of seconds: alone, after the parallel run
def test_three_processes_behind_nginx_finish_every_match_when_one_is_killed(tmp_path: Path) -> None:
    """Issue 30, part 4: three processes behind the real nginx of deploy/ (round robin, TLS),
    browser-like clients at several tables, one process SIGKILLed mid-match."""
    with fresh_postgres() as url:
        ports = [_free_port() for _ in range(3)]
        with node(url, ports[0]) as a, node(url, ports[1]), node(url, ports[2]), nginx(tmp_path, ports) as tls:
            live_nodes(url, 3)
            base = f"wss://127.0.0.1:{tls}"
            made = [https(tls, "/api/quick", {"name": f"P{i}", "match_hands": 3}) for i in range(6)]
            people = [Player(d["room"], d["token"]) for d in made]
            done: dict[str, bool] = {}

            def person(p: Player) -> None:
                try:
                    for _ in range(30):  # a page: play, and reconnect through the same address when cut
                        if p.play(base, over) is not None:
                            done[p.room] = True
                            return
                except AssertionError as e:  # reported below with the others
                    p.errors.append({"assertion": str(e)[:500]})

            threads = [threading.Thread(target=person, args=(p,), daemon=True) for p in people]
            for t in threads:
                t.start()
            wait_for(lambda: all(p.settled for p in people), 120, "every table ended a hand")
            a.send_signal(signal.SIGKILL)  # whichever tables it played go on elsewhere
            for t in threads:
                t.join(240)
            assert sorted(done) == sorted(p.room for p in people), [
                (p.room, t.is_alive(), p.closes, p.errors, p.seen[-3:]) for p, t in zip(people, threads, strict=True)
                if p.room not in done]
            assert all(p.errors == [] for p in people), [p.errors for p in people]
        for p in people:
            status, events = _stored(url, p.room)
            assert status == "finished"
            assert len([e for e in events if e["type"] == "end_kyoku"]) == 3  # no hand missing or doubled
            assert p.settled == sorted(set(p.settled))
            replay(events)
        print(f"\nreconnects: {sum(len(p.closes) for p in people)} in all; close codes {sorted({c for p in people for c in p.closes})}")


def test_one_live_socket_per_seat_holds_across_processes() -> None:
    """A seat opened through B, then again through A (the owner): the first is told 4409
    ("opened elsewhere"), passed on through B's pipe, as on one process."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with fresh_postgres() as url:
        ports = [_free_port() for _ in range(2)]
        with node(url, ports[0]), node(url, ports[1]):
            live_nodes(url, 2)
            d = _post(ports[0], "/api/quick", {"name": "Ann", "match_hands": 1})
            hello = orjson.dumps({"type": "hello", "token": d["token"]}).decode()
            with connect(f"ws://127.0.0.1:{ports[1]}/ws/{d['room']}", open_timeout=5) as first:
                first.send(hello)
                assert orjson.loads(first.recv(timeout=10))["type"] == "room"
                with connect(f"ws://127.0.0.1:{ports[0]}/ws/{d['room']}", open_timeout=5) as second:
                    second.send(hello)
                    assert orjson.loads(second.recv(timeout=10))["type"] == "room"
                    with pytest.raises(ConnectionClosed) as closed:
                        while True:
                            first.recv(timeout=10)
                    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4409


def test_a_frozen_database_pauses_the_cluster_and_every_match_goes_on_after() -> None:
    """PostgreSQL frozen for 8 s under two processes (no heartbeat, no write gets through): after,
    whichever process takes the match (its old owner, or the other that found the owner's
    heartbeat stale) finishes it, and no hand is lost or doubled."""
    from tests.test_reliability import _postmaster, frozen

    with fresh_postgres() as url:
        ports = [_free_port() for _ in range(2)]
        with node(url, ports[0]), node(url, ports[1]):
            live_nodes(url, 2)
            d = _post(ports[0], "/api/quick", {"name": "Ann", "match_hands": 3})
            ann = Player(d["room"], d["token"])
            assert ann.play(ports[1], is_settlement) is not None
            with frozen(_postmaster(url)):
                time.sleep(8)
            for i in range(30):
                if ann.play(ports[i % 2], over) is not None:
                    break
            else:
                raise AssertionError(f"the match did not finish: closes {ann.closes}")
        status, events = _stored(url, d["room"])
        assert status == "finished"
        assert len([e for e in events if e["type"] == "end_kyoku"]) == 3
        assert ann.settled == sorted(set(ann.settled))
        replay(events)


def test_a_page_that_leaves_through_a_pipe_is_away_at_the_owner_at_once() -> None:
    """A waiting room (the owner sends nothing unless something happens): the host's page, piped
    through B, closes; the owner sees the seat disconnected at once, not at its next message."""
    from websockets.sync.client import connect

    with fresh_postgres() as url:
        ports = [_free_port() for _ in range(2)]
        with node(url, ports[0]), node(url, ports[1]):
            live_nodes(url, 2)
            d = _post(ports[0], "/api/rooms", {"name": "Ann"})
            with connect(f"ws://127.0.0.1:{ports[1]}/ws/{d['room']}", open_timeout=5) as ws:
                ws.send(orjson.dumps({"type": "hello", "token": d["token"]}).decode())
                assert orjson.loads(ws.recv(timeout=10))["type"] == "room"
                assert _get(ports[0], f"/api/rooms/{d['room']}")["players"][0]["connected"] is True
            wait_for(lambda: _get(ports[0], f"/api/rooms/{d['room']}")["players"][0]["connected"] is False, 3,
                     "the owner sees the page gone")


def test_the_ranked_queue_is_one_queue_across_processes() -> None:
    """Issue 31, part 6: four accounts sign up and queue through two processes, alternating; each
    asks through the other one; all four are seated at one ranked table, and each seat's token,
    handed out by whichever process answered, opens that seat through either process."""
    import httpx
    from websockets.sync.client import connect

    with fresh_postgres() as url:
        ports = [_free_port() for _ in range(2)]
        with node(url, ports[0]), node(url, ports[1]):
            live_nodes(url, 2)
            clients = [httpx.Client(timeout=10) for _ in range(4)]
            try:
                for i, (c, name) in enumerate(zip(clients, ["Ann", "Ben", "Cai", "Dee"], strict=True)):
                    at = f"http://127.0.0.1:{ports[i % 2]}"
                    r = c.post(f"{at}/api/account/signup", json={"name": name, "password": "a long enough password"})
                    assert r.status_code == 200, r.text
                    r = c.post(f"{at}/api/ranked", json={"family": "tianjin", "match_hands": 4})
                    assert r.status_code == 200, r.text

                def seat(i: int) -> Any:
                    d = clients[i].get(f"http://127.0.0.1:{ports[(i + 1) % 2]}/api/ranked").json()
                    return d if d["state"] == "matched" else None

                seats = [wait_for(lambda i=i: seat(i), 30, f"player {i} seated") for i in range(4)]
            finally:
                for c in clients:
                    c.close()
            assert len({s["room"] for s in seats}) == 1 and sorted(s["player"] for s in seats) == [0, 1, 2, 3]
            for i, s in enumerate(seats):
                with connect(f"ws://127.0.0.1:{ports[i % 2]}/ws/{s['room']}", open_timeout=5) as ws:
                    ws.send(orjson.dumps({"type": "hello", "token": s["token"]}).decode())
                    first = orjson.loads(ws.recv(timeout=10))
                    assert first["type"] == "room" and first["you"] == s["player"] and first["ranked"] is True
