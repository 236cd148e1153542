"""``tjmj serve --workers N``: N server processes on this host sharing one port (a cluster).

The parent binds the port once and starts N workers, each ``tjmj serve --cluster`` on that socket
(the kernel hands each new connection to one of them) with its own port for its peers
(docs/web.md, "Several processes").  It prints the ready line once every worker is ready, starts a
worker again if one dies (its matches are taken over by the others meanwhile), and stops them all on
SIGTERM or Ctrl-C.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from typing import IO

import click

__all__ = ["run_workers", "worker_args"]

CHILD = [sys.executable, "-c", "import sys; from tjmj.cli import main; sys.exit(main())", "serve"]
READY_WITHIN = 120.0  # seconds a worker has to say it listens (a first start migrates the database)


def worker_args(argv: list[str]) -> list[str]:
    """``argv`` of ``tjmj serve`` without ``--workers`` and ``--node-port`` (each worker gets its own)."""
    out: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in ("--workers", "--node-port"):
            skip = True
            continue
        if a.startswith(("--workers=", "--node-port=")):
            continue
        out.append(a)
    return out


def _echo(stream: IO[str], prefix: str) -> None:
    for line in stream:
        sys.stdout.write(f"{prefix}{line}")
        sys.stdout.flush()


def _start(argv: list[str], fd: int, i: int, node_port: int) -> tuple[subprocess.Popen[str], str]:
    """Start worker ``i``; returns it once it said it is ready, with its node line."""
    port = str(node_port + i if node_port else 0)
    proc = subprocess.Popen([*CHILD, *worker_args(argv), "--cluster", "--listen-fd", str(fd), "--node-port", port],
                            pass_fds=[fd], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    node = ""
    deadline = time.monotonic() + READY_WITHIN
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if line.startswith("Cluster node:"):
            node = line.split(":", 1)[1].strip()
            break
    if not node:
        proc.kill()
        proc.wait()
        raise click.ClickException(f"worker {i} did not start (exit code {proc.returncode}); see its errors above")
    threading.Thread(target=_echo, args=(proc.stdout, f"[worker {i}] "), daemon=True).start()
    return proc, node


def run_workers(host: str, port: int, n: int, argv: list[str], node_port: int = 0) -> None:
    """Serve with ``n`` workers; ``node_port``: the first worker's port for its peers (the next
    ones count up from it), or 0 for any free ones."""
    from ..web.server import bind
    from .serve import PROGRAM

    try:
        sock = bind(host, port)
    except OSError as e:
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    fd = sock.fileno()
    os.set_inheritable(fd, True)
    procs: list[subprocess.Popen[str]] = []
    stopping = threading.Event()

    def stop(signum: int, frame: object) -> None:
        stopping.set()

    old = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        nodes = []
        for i in range(n):
            proc, node = _start(argv, fd, i, node_port)
            procs.append(proc)
            nodes.append(node)
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        click.echo(f"{PROGRAM} at http://{shown}:{port}")
        click.echo(f"Workers: {n} processes, peers at {', '.join(nodes)}")
        sys.stdout.flush()
        while not stopping.wait(0.5):
            for i, proc in enumerate(procs):
                if proc.poll() is not None and not stopping.is_set():
                    click.echo(f"worker {i} (pid {proc.pid}) exited with {proc.returncode}; starting it again",
                               err=True)
                    try:
                        procs[i], _ = _start(argv, fd, i, node_port)
                    except click.ClickException as e:
                        click.echo(f"Error: {e.message}", err=True)
                        time.sleep(2)
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        sock.close()
