"""For ``server_load.py --processes``: N server processes on PostgreSQL behind nginx.

Each process is this file run as a program (``python benchmarks/_cluster.py URL PORT``): the app
of ``tjmj serve --cluster`` (:func:`tjmj.web.app.create_app` with a :class:`tjmj.web.cluster.Cluster`),
with the load benchmark's settings (bots wait 0 s, the pause after a hand 1 s, the per-address
limits lifted: every client comes from 127.0.0.1).  nginx runs the upstream and proxy settings of
deploy/nginx/tjmj.conf, over plain HTTP (TLS would cost the proxy's CPU, not the servers').
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of these processes so far (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


@contextlib.contextmanager
def servers(url: str, n: int) -> Iterator[tuple[list[int], list[int]]]:
    """``n`` server processes on ``url``; yields (their ports, their pids)."""
    ports = [_free_port() for _ in range(n)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent / "src"), str(HERE)])}
    procs = [subprocess.Popen([sys.executable, str(HERE / "_cluster.py"), url, str(p)], env=env,
                              stdout=subprocess.DEVNULL) for p in ports]
    try:
        end = time.monotonic() + 60
        while not all(_listening(p) for p in ports):
            if time.monotonic() > end or any(pr.poll() is not None for pr in procs):
                raise RuntimeError("a server process did not start")
            time.sleep(0.1)
        time.sleep(2.5)  # every process has seen the others beat
        yield ports, [pr.pid for pr in procs]
    finally:
        for pr in procs:
            pr.send_signal(signal.SIGTERM)
        for pr in procs:
            try:
                pr.wait(30)
            except subprocess.TimeoutExpired:
                pr.kill()


@contextlib.contextmanager
def nginx(upstreams: list[int]) -> Iterator[tuple[int, int]]:
    """nginx with a round-robin upstream of ``upstreams``; yields (its port, its pid)."""
    exe = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(exe).exists():
        raise RuntimeError("--processes needs nginx (Debian: apt-get install nginx)")
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="tjmj-nginx-") as tmp:
        t = Path(tmp)
        for d in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (t / d).mkdir()
        up = "".join(f"server 127.0.0.1:{p} max_fails=1 fail_timeout=2s; " for p in upstreams)
        temp = " ".join(f"{d}_temp_path {t / d};" for d in ("proxy", "fastcgi", "uwsgi", "scgi"))
        (t / "nginx.conf").write_text(
            f"daemon off; worker_processes 1; pid {t / 'nginx.pid'}; error_log {t / 'error.log'} warn;\n"
            "events { worker_connections 4096; }\n"
            f"http {{ access_log off; client_body_temp_path {t / 'body'}; {temp}\n"
            f"  upstream tjmj {{ {up} keepalive 32; }}\n"
            "  map $http_upgrade $connection_upgrade { default upgrade; \"\" \"\"; }\n"
            f"  server {{ listen 127.0.0.1:{port}; location / {{ proxy_pass http://tjmj; proxy_http_version 1.1;\n"
            "    proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection $connection_upgrade;\n"
            "    proxy_set_header Host $host; proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n"
            "    proxy_read_timeout 120s; } } }\n")
        proc = subprocess.Popen([exe, "-p", tmp, "-c", str(t / "nginx.conf")])
        try:
            end = time.monotonic() + 10
            while not _listening(port):
                if time.monotonic() > end or proc.poll() is not None:
                    raise RuntimeError(f"nginx did not start: {(t / 'error.log').read_text()}")
                time.sleep(0.05)
            yield port, proc.pid
        finally:
            proc.terminate()
            proc.wait(10)


def _child(url: str, port: int) -> None:
    from server_load import LIMITS, NEXT_DELAY, RATE_LIMIT
    from tjmj.web.app import create_app
    from tjmj.web.cluster import Cluster
    from tjmj.web.server import bind, serve
    from tjmj.web.store import Store

    store = Store(url)
    sock, peer_sock = bind("127.0.0.1", port), bind("127.0.0.1", 0)
    peers: set[str] = set()
    cluster = Cluster(f"http://127.0.0.1:{peer_sock.getsockname()[1]}", exempt=peers)
    app = create_app(store, bot_delay=0.0, next_delay=NEXT_DELAY, rate_limit=RATE_LIMIT, limits=LIMITS,
                     cluster=cluster)
    try:
        serve(app, [sock, peer_sock], on_ready=lambda: None, log_level="warning", exempt=peers,
              max_connections=100_000, per_address=100_000)
    finally:
        store.close()


if __name__ == "__main__":
    _child(sys.argv[1], int(sys.argv[2]))
