"""Server load: many tables of four WebSocket bot clients against the real web app under uvicorn.

Run from the repository root::

    .venv/bin/python benchmarks/server_load.py [--tables 50] [--hands 1] [--seconds 120] [--no-deflate] [--json]

What it does:

* starts ``tjmj.web.app.create_app`` under uvicorn in a background thread, on a free port of
  127.0.0.1 only, with a temporary SQLite store (``tjmj.web.store.Store``), ``bot_delay=0``,
  ``next_delay=1`` and a rate limit of 1000 messages at once and 1000/s per socket (bots act
  faster than people);
* sets up ``--tables`` tables (a few HTTP requests at a time): ``POST /api/rooms``
  (``match_hands``), three ``POST /api/rooms/{room}/join``, four WebSockets
  ``/ws/{room}`` (each sends its ``hello`` with the seat's token and waits for its ``room`` message) — so all four seats are clients and
  the server has no bot to play; once every table is set up, all are started at once with
  ``POST /api/rooms/{room}/start``;
* each client is an asyncio task (all in this process's main thread, on one event loop). When a
  ``state`` says it is its seat's decision (``to_act == you``, ``legal`` not empty, not ``paused``,
  a ``version`` it has not acted on), it sends one action: ``win`` if legal, else the last
  ``discard …`` of ``legal``, else the first legal action (so ``pon`` whenever offered, ``sit 1``,
  ``pull 0``). After a ``settlement`` that is not the last it sends ``next``; after the last one
  it closes its socket.

**Round trip** of an action: from just before the client sends ``{"type": "action", …}`` (taken
after the action was chosen) to the moment that client has received and decoded the first ``state``
message whose ``version`` is greater than the version of the state it acted on. The server sends
``events`` then ``state`` after every change it applies, so this is the server's whole handling of
the action (parse, check, ``Match.apply``, storing the hand if it ended, building and sending the
messages of all four seats) plus both transfers and the client's own wait for the event loop. The
server runs in another thread of the same process, so clients and server share one GIL: on a busy
run part of every round trip is time spent waiting for the other side's Python code.

Bounds: ``--seconds`` caps the whole run (table set-up included; unfinished tables are cancelled and
reported); sockets, the HTTP client and the server are closed at the end in every case.

Report: tables finished, hands completed (settlements received), client actions, the set-up and play
times, actions/s during play, each table's time from its start to its last settlement, round-trip p50/p90/p99/max in ms (also by kind of action, and for the action that ends a
hand, whose handling includes the store write), ``error`` messages received (should be 0), CPU
seconds of the server thread and of the whole process, the load average before and after, and for
every finished match: its stored status, ``tjmj.record.replay(store.events(id)).ok``, and that the
number of decisions its stored events imply equals the actions its four clients sent (so no
server-side bot acted). A manual tool, never a (timed) test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvicorn
import websockets
from websockets.asyncio.client import connect

from _machine import machine
from tjmj.record import rebuild, replay
from tjmj.web.app import create_app
from tjmj.web.limits import Limits
from tjmj.web.store import Store

HOST = "127.0.0.1"  # loopback only, never any other address
NEXT_DELAY = 1.0  # the pause after a hand if a client failed to send "next"
RATE_LIMIT = (1000, 1000.0)
LIMITS = Limits(post_burst=100_000, post_rate=100_000.0, get_burst=100_000, get_rate=100_000.0,
                unseen_per_address=100_000, sockets_per_address=100_000, max_sockets=100_000,
                address_ws_burst=100_000, address_ws_rate=100_000.0)
HTTP_AT_ONCE = 8  # requests in flight during the set-up


# ---- the server ----------------------------------------------------------------------------


class Server:
    """The app under uvicorn in a daemon thread, on a socket bound to a free port of 127.0.0.1."""

    def __init__(self, store: Store) -> None:
        # every client comes from 127.0.0.1: the per-address limits of a public server are lifted
        app = create_app(store, bot_delay=0.0, next_delay=NEXT_DELAY, rate_limit=RATE_LIMIT, limits=LIMITS)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((HOST, 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(app, host=HOST, port=self.port, log_level="warning", access_log=False,
                                lifespan="on", timeout_graceful_shutdown=5)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       name="uvicorn", daemon=True)

    def start(self, timeout: float = 15.0) -> None:
        self.thread.start()
        end = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > end:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)

    def cpu_seconds(self) -> float | None:
        """CPU time of the server thread so far (Linux: its pthread CPU clock)."""
        ident = self.thread.ident
        if ident is None or not self.thread.is_alive():
            return None
        try:
            return time.clock_gettime(time.pthread_getcpuclockid(ident))
        except (AttributeError, OSError):
            return None

    def stop(self, timeout: float = 15.0) -> None:
        self.server.should_exit = True
        self.thread.join(timeout)
        self.sock.close()


# ---- the clients ---------------------------------------------------------------------------


def choose(legal: list[str]) -> str:
    """``win`` if legal, else the last discard, else the first legal action."""
    if "win" in legal:
        return "win"
    discards = [a for a in legal if a.startswith("discard ")]
    return discards[-1] if discards else legal[0]


def kind_of(action: str) -> str:
    word = action.split()[0]
    if word in ("pon", "kong", "pass"):
        return "claim (pon/kong/pass)"
    if word in ("sit", "pull"):
        return "sit/pull"
    if word in ("ankong", "added_kong"):
        return "concealed/added kong"
    return word  # discard, win


@dataclass
class Stats:
    rtts: list[tuple[str, float]] = field(default_factory=list)  # (kind, seconds)
    hand_end_rtts: list[float] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    actions: int = 0
    nexts: int = 0
    setup_s: float = 0.0  # from the start of the run until every table was set up (or had failed)
    play_s: float = 0.0  # from then until the last table finished (or the cap)


@dataclass
class Table:
    index: int
    room: str = ""
    match_id: int | None = None
    actions: int = 0  # sent by its four clients
    hands: int = 0  # settlements received by its player 0
    finished: bool = False
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # set up (four clients in the room), or failed
    started: bool = False
    seconds: float | None = None  # from the start request to the last client's final settlement
    failure: str | None = None


async def client(url: str, token: str, table: Table, player: int, stats: Stats, deflate: bool,
                 joined: asyncio.Event) -> None:
    """One seat: act whenever a state says so, until the match is over."""
    async with connect(url, proxy=None, compression="deflate" if deflate else None, open_timeout=30,
                       max_size=4 * 2**20) as ws:
        await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())  # the token: never in the URL
        acted_version = -1
        pending: tuple[int, float, str] | None = None  # (version acted on, send time, kind)
        async for raw in ws:
            now = time.perf_counter()
            msg = orjson.loads(raw)
            t = msg.get("type")
            if t == "room":
                joined.set()
            elif t == "state":
                version = msg["version"]
                if pending is not None and version > pending[0]:
                    rtt = now - pending[1]
                    stats.rtts.append((pending[2], rtt))
                    if msg["paused"] or msg["status"] != "playing":
                        stats.hand_end_rtts.append(rtt)
                    pending = None
                if (msg["status"] != "playing" or msg["paused"] or pending is not None
                        or version <= acted_version or msg["to_act"] != msg["you"] or not msg["legal"]):
                    continue
                action = choose(msg["legal"])
                acted_version = version
                pending = (version, time.perf_counter(), kind_of(action))
                await ws.send(orjson.dumps({"type": "action", "action": action, "version": version}).decode())
                stats.actions += 1
                table.actions += 1
            elif t == "settlement":
                if player == 0:
                    table.hands += 1
                if msg.get("over"):
                    break
                await ws.send('{"type": "next"}')
                stats.nexts += 1
            elif t == "error":
                stats.errors.append({"table": table.index, "player": player, **msg})
                raise RuntimeError(f"table {table.index} player {player}: error {msg.get('code')}: "
                                   f"{msg.get('message')}")


async def run_table(base: str, http: httpx.AsyncClient, table: Table, hands: int, stats: Stats,
                    deflate: bool, go: asyncio.Event, http_slots: asyncio.Semaphore) -> None:
    """Set up one table over HTTP and connect its four clients; once ``go`` is set (every table is set
    up), start it and wait for the end of its match."""
    tasks: list[asyncio.Task[None]] = []

    async def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        async with http_slots:
            r = await http.post(base + path, json=body)
        if r.status_code != 200:
            raise RuntimeError(f"POST {path}: {r.status_code} {r.text[:200]}")
        return r.json()

    try:
        made = await post("/api/rooms", {"name": f"T{table.index} P0", "match_hands": hands})
        table.room = made["room"]
        tokens = [made["token"]]
        for p in range(1, 4):
            tokens.append((await post(f"/api/rooms/{table.room}/join", {"name": f"T{table.index} P{p}"}))["token"])
        ws_base = base.replace("http://", "ws://", 1)
        joined = [asyncio.Event() for _ in range(4)]
        tasks = [asyncio.create_task(client(f"{ws_base}/ws/{table.room}", tok, table, p, stats, deflate,
                                            joined[p]), name=f"t{table.index}p{p}")
                 for p, tok in enumerate(tokens)]
        all_joined = asyncio.gather(*(e.wait() for e in joined))
        await asyncio.wait([all_joined, *tasks], return_when=asyncio.FIRST_COMPLETED)
        if not all_joined.done():  # a client ended before the start: its exception says why
            all_joined.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await all_joined
            for task in tasks:
                if task.done():
                    task.result()
            raise RuntimeError("a client closed before the start")
        table.ready.set()
        await go.wait()
        t0 = time.perf_counter()
        table.started = True
        table.match_id = (await post(f"/api/rooms/{table.room}/start", {"token": tokens[0]}))["match_id"]
        await asyncio.gather(*tasks)
        table.seconds = time.perf_counter() - t0
        table.finished = True
    except asyncio.CancelledError:
        table.failure = "not finished within --seconds" + ("" if table.started else " (never started)")
        raise
    except Exception as e:
        table.failure = f"{type(e).__name__}: {e}"
    finally:
        table.ready.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def drive(base: str, args: argparse.Namespace, tables: list[Table], stats: Stats) -> None:
    """Set every table up, then start them all at once; everything within ``--seconds``."""
    t0 = time.perf_counter()
    end = t0 + args.seconds
    go = asyncio.Event()
    # httpx's pool costs the client much CPU with hundreds of requests waiting in it: a few at a time
    http_slots = asyncio.Semaphore(HTTP_AT_ONCE)
    limits = httpx.Limits(max_connections=HTTP_AT_ONCE, max_keepalive_connections=HTTP_AT_ONCE)
    async with httpx.AsyncClient(trust_env=False, timeout=30, limits=limits) as http:
        tasks = [asyncio.create_task(run_table(base, http, t, args.hands, stats, not args.no_deflate, go,
                                               http_slots)) for t in tables]
        everyone = asyncio.gather(*(t.ready.wait() for t in tables))
        with contextlib.suppress(TimeoutError):  # the cap: start whatever is set up
            await asyncio.wait_for(everyone, timeout=args.seconds)
        t1 = time.perf_counter()
        stats.setup_s = t1 - t0
        go.set()
        _, pending = await asyncio.wait(tasks, timeout=max(0.0, end - t1))
        for task in pending:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        stats.play_s = time.perf_counter() - t1


# ---- checks and the report -----------------------------------------------------------------


def verify(store: Store, tables: list[Table]) -> dict[str, Any]:
    """Each finished match: stored as finished, replays, and its stored decisions are the clients' actions."""
    checked = replays = finished = matching = 0
    problems: list[str] = []
    for t in tables:
        if not t.finished or t.match_id is None:
            continue
        checked += 1
        m = store.get_match(t.match_id)
        if m is not None and m["status"] == "finished":
            finished += 1
        else:
            problems.append(f"table {t.index}: match {t.match_id} is {m and m['status']}")
        events = store.events(t.match_id)
        result = replay(events)
        if result.ok:
            replays += 1
        else:
            problems.append(f"table {t.index}: match {t.match_id} does not replay: {result.summary()}")
        steps = [0]

        def count(_m: Any, action: Any, _new: Any, steps: list[int] = steps) -> None:
            steps[0] += action is not None

        rebuild(events, count)
        if steps[0] == t.actions:
            matching += 1
        else:
            problems.append(f"table {t.index}: {steps[0]} stored decisions, {t.actions} client actions")
    return {"checked": checked, "stored_finished": finished, "replay_ok": replays, "decisions_match": matching,
            "problems": problems}


def pct(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile."""
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * len(s) + 0.5) - 1))]


def summary(values: list[float]) -> dict[str, Any]:
    ms = [v * 1000 for v in values]
    return {"n": len(ms), **{f"p{q}_ms": pct(ms, q) for q in (50, 90, 99)}, "max_ms": max(ms) if ms else None}


def fmt(x: float | None, spec: str = ".1f") -> str:
    return "—" if x is None else format(x, spec)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=50, help="tables played at once (default 50)")
    ap.add_argument("--hands", type=int, default=1, help="match_hands of each match, 1-64 (default 1)")
    ap.add_argument("--seconds", type=float, default=120.0, help="cap on the whole run (default 120)")
    ap.add_argument("--no-deflate", action="store_true", help="clients do not offer permessage-deflate")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON instead of the table")
    ap.add_argument("--processes", default=None, metavar="N[,N...]",
                    help="server processes behind nginx on PostgreSQL, e.g. 1,2,4: each count is run in "
                         "turn and reported side by side (needs --db and nginx)")
    ap.add_argument("--db", default=os.environ.get("TJMJ_TEST_POSTGRES_URL"),
                    help="PostgreSQL URL for --processes (default $TJMJ_TEST_POSTGRES_URL)")
    args = ap.parse_args(argv)
    args.tables = max(1, args.tables)
    args.hands = min(64, max(1, args.hands))
    say = (lambda *a, **k: print(*a, file=sys.stderr, **k)) if args.json else print
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    if args.processes:
        return run_processes(args, say)

    mach = machine("uvicorn", "websockets", "starlette")
    tables = [Table(i) for i in range(args.tables)]
    stats = Stats()
    with tempfile.TemporaryDirectory(prefix="tjmj-load-") as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'load.sqlite3'}")
        server = Server(store)
        try:
            server.start()
            say(f"server on http://{HOST}:{server.port} (uvicorn {uvicorn.__version__}, websockets "
                f"{websockets.__version__}); {args.tables} tables x {args.hands} hand(s), cap {args.seconds:g} s",
                flush=True)
            cpu0, srv0 = time.process_time(), server.cpu_seconds()
            asyncio.run(drive(f"http://{HOST}:{server.port}", args, tables, stats))
            cpu1, srv1 = time.process_time(), server.cpu_seconds()
        finally:
            server.stop()
        check = verify(store, tables)
        store.close()
    try:
        load_after: list[float] | None = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load_after = None

    done = [t for t in tables if t.finished]
    failures = [f"table {t.index}: {t.failure}" for t in tables if t.failure]
    by_kind: dict[str, list[float]] = {}
    for kind, rtt in stats.rtts:
        by_kind.setdefault(kind, []).append(rtt)
    table_secs = [t.seconds for t in done if t.seconds is not None]
    server_cpu = srv1 - srv0 if srv0 is not None and srv1 is not None else None
    out: dict[str, Any] = {
        "machine": mach,
        "loadavg_after": load_after,
        "settings": {"tables": args.tables, "match_hands": args.hands, "seconds_cap": args.seconds,
                     "deflate": not args.no_deflate, "bot_delay": 0.0, "next_delay": NEXT_DELAY,
                     "rate_limit": list(RATE_LIMIT), "store": "temporary SQLite file"},
        "setup_s": stats.setup_s,
        "play_s": stats.play_s,
        "tables_finished": len(done),
        "hands_completed": sum(t.hands for t in tables),
        "actions": stats.actions,
        "actions_per_s": stats.actions / stats.play_s if stats.play_s > 0 else None,
        "next_messages": stats.nexts,
        "rtt": summary([r for _, r in stats.rtts]),
        "rtt_by_kind": {k: summary(v) for k, v in sorted(by_kind.items(), key=lambda kv: -len(kv[1]))},
        "rtt_hand_end": summary(stats.hand_end_rtts),
        "table_seconds": {"min": min(table_secs, default=None), "p50": pct(table_secs, 50),
                          "max": max(table_secs, default=None)},
        "errors": len(stats.errors),
        "error_samples": stats.errors[:5],
        "failures": failures,
        "cpu": {"process_s": cpu1 - cpu0, "server_thread_s": server_cpu,
                "clients_and_rest_s": (cpu1 - cpu0 - server_cpu) if server_cpu is not None else None,
                "server_ms_per_action": server_cpu / stats.actions * 1000 if server_cpu and stats.actions else None},
        "verify": check,
    }
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0 if not failures and not stats.errors and not check["problems"] else 1

    print(f"machine: {mach['platform']}, {mach['processor']}, {mach['cpu_count']} CPUs, "
          f"load {mach['loadavg_at_start']} before, {load_after} after; {mach['python']}; tjmj {mach['tjmj']}, "
          f"uvicorn {mach['uvicorn']}, websockets {mach['websockets']}, starlette {mach['starlette']}")
    print(f"settings: {args.tables} tables x {args.hands} hand(s), 4 WebSocket clients each, bot_delay 0, "
          f"permessage-deflate {'on' if not args.no_deflate else 'off'}, temp SQLite store, cap {args.seconds:g} s")
    print()
    rows = [
        ("tables finished", f"{len(done)} / {args.tables}"),
        ("hands completed", str(out["hands_completed"])),
        ("client actions", f"{stats.actions:,}"),
        ("set-up: rooms, joins, 4 sockets each", f"{stats.setup_s:.1f} s (before any table starts)"),
        ("play: all tables start at once", f"{stats.play_s:.1f} s until the last one finished"),
        ("actions/s during play", fmt(out["actions_per_s"], ",.0f")),
        ("round trip p50 / p90 / p99 / max",
         " / ".join(fmt(out["rtt"][k]) for k in ("p50_ms", "p90_ms", "p99_ms", "max_ms")) + " ms"),
        ("table time min / p50 / max",
         " / ".join(fmt(out["table_seconds"][k]) for k in ("min", "p50", "max")) + " s"),
        ("error messages received", str(len(stats.errors))),
        ("CPU: process / server thread",
         f"{cpu1 - cpu0:.1f} s / {fmt(server_cpu)} s, set-up and play "
         f"({(cpu1 - cpu0) / (stats.setup_s + stats.play_s):.2f} cores busy on average)"),
        ("server CPU per action", fmt(out["cpu"]["server_ms_per_action"], ".2f") + " ms"),
        ("matches stored finished / replay ok",
         f"{check['stored_finished']} / {check['replay_ok']} of {check['checked']}"),
        ("stored decisions = client actions", f"{check['decisions_match']} of {check['checked']} matches"),
    ]
    w = max(len(a) for a, _ in rows)
    for a, b in rows:
        print(f"{a.ljust(w)}  {b}")
    print()
    head = ("round trip by action", "n", "p50 ms", "p90 ms", "p99 ms", "max ms")
    lines = [head]
    for k, s in [*out["rtt_by_kind"].items(), ("(ends a hand: store write)", out["rtt_hand_end"])]:
        lines.append((k, str(s["n"]), fmt(s["p50_ms"]), fmt(s["p90_ms"]), fmt(s["p99_ms"]), fmt(s["max_ms"])))
    widths = [max(len(r[i]) for r in lines) for i in range(len(head))]
    for i, r in enumerate(lines):
        print("  ".join(c.ljust(wd) if j == 0 else c.rjust(wd) for j, (c, wd) in enumerate(zip(r, widths))))
        if i == 0:
            print("  ".join("-" * wd for wd in widths))
    reasons: dict[str, int] = {}
    for t in tables:
        if t.failure:
            reasons[t.failure] = reasons.get(t.failure, 0) + 1
    for reason, n in sorted(reasons.items(), key=lambda kv: -kv[1])[:10]:
        print(f"  problem: {n} table(s): {reason}")
    for p in check["problems"][:10]:
        print(f"  problem: {p}")
    for e in stats.errors[:5]:
        print(f"  error: {e}")
    return 0 if not failures and not stats.errors and not check["problems"] else 1


def run_processes(args: argparse.Namespace, say: Any) -> int:
    """``--processes``: the same load through nginx to N processes on PostgreSQL, for each N given."""
    import _cluster

    counts = [int(x) for x in args.processes.split(",") if x.strip()]
    if not args.db or not args.db.startswith("postgresql"):
        print("--processes needs --db postgresql+psycopg://… (or $TJMJ_TEST_POSTGRES_URL)", file=sys.stderr)
        return 2
    mach = machine("uvicorn", "websockets", "starlette")
    rows: list[dict[str, Any]] = []
    bad = False
    for n in counts:
        tables = [Table(i) for i in range(args.tables)]
        stats = Stats()
        with _cluster.servers(args.db, n) as (ports, pids), _cluster.nginx(ports) as (port, nginx_pid):
            say(f"{n} process(es) behind nginx on 127.0.0.1:{port}: {args.tables} tables x {args.hands} hand(s)",
                flush=True)
            cpu0, srv0, ngx0 = time.process_time(), _cluster.cpu_seconds(pids), _cluster.cpu_seconds([nginx_pid])
            asyncio.run(drive(f"http://{HOST}:{port}", args, tables, stats))
            cpu1, srv1, ngx1 = time.process_time(), _cluster.cpu_seconds(pids), _cluster.cpu_seconds([nginx_pid])
        with Store(args.db) as store:
            check = verify(store, tables)
        failures = [t.failure for t in tables if t.failure]
        bad = bad or bool(failures or stats.errors or check["problems"])
        rows.append({
            "processes": n, "tables_finished": sum(t.finished for t in tables), "actions": stats.actions,
            "play_s": stats.play_s, "actions_per_s": stats.actions / stats.play_s if stats.play_s else None,
            "rtt": summary([r for _, r in stats.rtts]), "rtt_hand_end": summary(stats.hand_end_rtts),
            "errors": len(stats.errors), "failures": failures[:5], "problems": check["problems"][:5],
            "cpu": {"servers_s": srv1 - srv0, "nginx_s": ngx1 - ngx0, "clients_s": cpu1 - cpu0,
                    "server_ms_per_action": (srv1 - srv0) / stats.actions * 1000 if stats.actions else None},
            "verify": {k: v for k, v in check.items() if k != "problems"},
        })
    base = rows[0]["actions_per_s"] if rows and rows[0]["actions_per_s"] else None
    for r in rows:
        r["ratio_to_first"] = r["actions_per_s"] / base if base and r["actions_per_s"] else None
    if args.json:
        print(json.dumps({"machine": mach, "settings": {"tables": args.tables, "match_hands": args.hands,
                                                        "store": "PostgreSQL", "proxy": "nginx"}, "runs": rows}))
        return 1 if bad else 0
    print(f"machine: {mach['platform']}, {mach['cpu_count']} CPUs, load {mach['loadavg_at_start']} before; "
          f"{mach['python']}; tjmj {mach['tjmj']}")
    print(f"settings: {args.tables} tables x {args.hands} hand(s), 4 WebSocket clients each (this process), "
          "through nginx (round robin) to N processes on PostgreSQL")
    print()
    head = ("processes", "finished", "actions/s", "x first", "rtt p50", "p99", "hand end p99", "server ms/action",
            "CPU servers/nginx/clients s")
    lines = [head]
    for r in rows:
        lines.append((str(r["processes"]), f"{r['tables_finished']}/{args.tables}", fmt(r["actions_per_s"], ",.0f"),
                      fmt(r["ratio_to_first"], ".2f"), fmt(r["rtt"]["p50_ms"]) + " ms", fmt(r["rtt"]["p99_ms"]) + " ms",
                      fmt(r["rtt_hand_end"]["p99_ms"]) + " ms", fmt(r["cpu"]["server_ms_per_action"], ".2f"),
                      f"{r['cpu']['servers_s']:.0f} / {r['cpu']['nginx_s']:.0f} / {r['cpu']['clients_s']:.0f}"))
    widths = [max(len(x[i]) for x in lines) for i in range(len(head))]
    for i, x in enumerate(lines):
        print("  ".join(c.rjust(wd) for c, wd in zip(x, widths)))
        if i == 0:
            print("  ".join("-" * wd for wd in widths))
    for r in rows:
        for p in r["failures"] + r["problems"]:
            print(f"  problem ({r['processes']} processes): {p}")
    return 1 if bad else 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
