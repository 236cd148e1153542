"""Soak: a real ``tjmj serve`` with steady tables for a long time; its resident memory over time.

Run from the repository root::

    .venv/bin/python benchmarks/soak.py [--duration 3600] [--tables 20] [--hands 4] [--bots strong]
                                        [--bot-delay 0.1] [--sample 30] [--json]

What it does:

* starts ``tjmj serve`` as a child process on a free port of 127.0.0.1 (loopback only), with a
  temporary SQLite database and ``--bot-delay``;
* runs ``--tables`` tables at all times: each is one person (an asyncio task of this process)
  against three server bots (``--bots``).  A table creates a quick match (``POST /api/quick``,
  ``match_hands`` = ``--hands``), opens its seat's WebSocket, acts on every decision (``win`` if
  legal, else the last discard, else the first legal action), sends ``next`` after each hand,
  closes its socket when the match is over and starts the next match at once.  Each table sends
  from its own loopback address (127.0.0.11, 127.0.0.12, …), so the server's per-address limits
  (one POST per 2 s, five unconnected rooms) apply per table, as for real players;
* every ``--sample`` seconds prints the server's resident set size (``VmRSS`` of
  ``/proc/<pid>/status``), the rooms it holds (``/healthz``), and the matches and hands played so
  far;
* stops itself after ``--duration`` seconds (the tables are cancelled, the server gets SIGTERM),
  and reports RSS at the start (the first sample, once every table is running), at the end and at
  its highest, and the slope of a least-squares line through the samples of the second half
  (MB per minute: what is still growing once the caches are warm).

Linux only (``/proc``).  A manual tool, never a test; quote its figures with the machine line it prints.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect

from _machine import machine

HOST = "127.0.0.1"  # the server listens on loopback only


@dataclass
class Totals:
    matches: int = 0
    hands: int = 0
    errors: list[str] = field(default_factory=list)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def choose(legal: list[str]) -> str:
    if "win" in legal:
        return "win"
    discards = [a for a in legal if a.startswith("discard ")]
    return discards[-1] if discards else legal[0]


async def play_match(http: httpx.AsyncClient, port: int, source: str, args: argparse.Namespace,
                     totals: Totals) -> None:
    r = await http.post(f"http://{HOST}:{port}/api/quick",
                        json={"name": "Soak", "match_hands": args.hands, "bots": args.bots})
    if r.status_code == 429:  # the per-address POST budget: wait as a person would
        await asyncio.sleep(float(r.headers.get("retry-after", "2")))
        return
    r.raise_for_status()
    d = r.json()
    async with connect(f"ws://{HOST}:{port}/ws/{d['room']}", proxy=None, local_addr=(source, 0),
                       max_size=4 * 2**20) as ws:
        await ws.send(orjson.dumps({"type": "hello", "token": d["token"]}).decode())
        acted = -1
        async for raw in ws:
            msg = orjson.loads(raw)
            t = msg.get("type")
            if t == "state" and msg.get("legal") and msg["version"] > acted and msg["to_act"] == msg["you"]:
                acted = msg["version"]
                await ws.send(orjson.dumps({"type": "action", "action": choose(msg["legal"]), "version": acted}).decode())
            elif t == "settlement":
                totals.hands += 1
                if msg.get("over"):
                    totals.matches += 1
                    return
                await ws.send('{"type": "next"}')
            elif t == "error" and msg.get("code") not in ("rate_limited", "not_paused", "stale"):
                totals.errors.append(f"{msg.get('code')}: {msg.get('message')}"[:200])


async def table(index: int, port: int, args: argparse.Namespace, totals: Totals) -> None:
    source = f"127.0.0.{11 + index}"
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(transport=transport, timeout=30, trust_env=False) as http:
        while True:
            try:
                await play_match(http, port, source, args, totals)
            except (OSError, httpx.HTTPError, Exception) as e:  # noqa: BLE001 - counted, then the next match
                if isinstance(e, asyncio.CancelledError):
                    raise
                totals.errors.append(f"table {index}: {type(e).__name__}: {e}"[:200])
                await asyncio.sleep(1)


def slope_per_minute(samples: list[tuple[float, float]]) -> float:
    n = len(samples)
    if n < 2:
        return 0.0
    mt = sum(t for t, _ in samples) / n
    mr = sum(r for _, r in samples) / n
    var = sum((t - mt) ** 2 for t, _ in samples)
    return 60 * sum((t - mt) * (r - mr) for t, r in samples) / var if var else 0.0


async def soak(args: argparse.Namespace, pid: int, port: int) -> dict[str, Any]:
    totals = Totals()
    tasks = [asyncio.create_task(table(i, port, args, totals)) for i in range(args.tables)]
    samples: list[tuple[float, float]] = []
    start = time.monotonic()
    async with httpx.AsyncClient(timeout=10, trust_env=False) as http:
        try:
            while True:
                await asyncio.sleep(min(args.sample, max(0.0, args.duration - (time.monotonic() - start))))
                t = time.monotonic() - start
                rss = rss_mb(pid)
                samples.append((t, rss))
                with contextlib.suppress(Exception):
                    rooms = (await http.get(f"http://{HOST}:{port}/healthz")).json().get("rooms")
                print(f"{t:7.0f} s  RSS {rss:7.1f} MB  rooms {rooms!s:>4}  matches {totals.matches:6d}  "
                      f"hands {totals.hands:7d}  errors {len(totals.errors)}", file=sys.stderr, flush=True)
                if t >= args.duration:
                    break
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    half = [s for s in samples if s[0] >= samples[-1][0] / 2]
    return {
        "duration_s": round(samples[-1][0]), "tables": args.tables, "hands_per_match": args.hands,
        "bots": args.bots, "bot_delay": args.bot_delay, "matches": totals.matches, "hands": totals.hands,
        "rss_start_mb": round(samples[0][1], 1), "rss_end_mb": round(samples[-1][1], 1),
        "rss_max_mb": round(max(r for _, r in samples), 1),
        "slope_second_half_mb_per_min": round(slope_per_minute(half), 2),
        "samples": [(round(t), round(r, 1)) for t, r in samples], "errors": totals.errors[:20],
        "error_count": len(totals.errors),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--duration", type=float, default=3600.0, help="seconds to run (default 3600)")
    ap.add_argument("--tables", type=int, default=20, help="tables playing at all times (default 20, at most 200)")
    ap.add_argument("--hands", type=int, default=4, help="hands per match (default 4)")
    ap.add_argument("--bots", default="strong", help="the server's bots (default strong, as a quick match)")
    ap.add_argument("--bot-delay", type=float, default=0.1, help="tjmj serve --bot-delay (default 0.1)")
    ap.add_argument("--sample", type=float, default=30.0, help="seconds between RSS samples (default 30)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON on stdout")
    args = ap.parse_args()
    if not 1 <= args.tables <= 200:
        ap.error("--tables must be 1..200")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-c", "import sys; from tjmj.cli import main; sys.exit(main())", "serve",
               "--host", HOST, "--port", str(port), "--db", f"sqlite:///{Path(tmp) / 'soak.sqlite3'}",
               "--bot-delay", str(args.bot_delay), "--log-level", "warning"]
        server = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            if not line.startswith("Tianjin mahjong at"):
                raise SystemExit(f"the server did not start: {line!r}")
            print(f"machine: {machine()}", file=sys.stderr)
            print(f"tjmj serve pid {server.pid} on {HOST}:{port}: {args.tables} tables, {args.hands} hands a match, "
                  f"bots {args.bots}, bot delay {args.bot_delay} s, for {args.duration:.0f} s", file=sys.stderr)
            report = asyncio.run(soak(args, server.pid, port))
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(f"{report['matches']} matches, {report['hands']} hands in {report['duration_s']} s; "
              f"RSS start {report['rss_start_mb']} MB, end {report['rss_end_mb']} MB, max {report['rss_max_mb']} MB; "
              f"second-half slope {report['slope_second_half_mb_per_min']} MB/min; errors {report['error_count']}")
        for e in report["errors"][:5]:
            print("  error:", e)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    main()
