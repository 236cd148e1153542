"""``tjmj serve``: the web table (docs/web.md) with uvicorn, hardened as docs/security.md says.

Registered lazily in :mod:`tjmj.cli` (``_COMMANDS``).  The database is ``--db`` or
``$TJMJ_DATABASE_URL`` (any SQLAlchemy URL), else a SQLite file in the user data directory;
unfinished matches found there are resumed at start-up (those no other live server owns).
"""

from __future__ import annotations

import faulthandler
import socket
import sys

import click

__all__ = ["serve"]

# the program's name as the start-up line says it: its pip package's ("Tianjin mahjong"), which is
# the project's name, not a rule family's (the server plays every family)
PROGRAM = "tianjin-mahjong".replace("-", " ").capitalize()


def _one_line(e: BaseException) -> str:
    """An exception as one line: SQLAlchemy appends a 'Background on this error' line."""
    orig = getattr(e, "orig", None)
    text = str(orig if orig is not None else e).strip()
    return text.splitlines()[0] if text else type(e).__name__


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on.")
@click.option("--db", "db", envvar="TJMJ_DATABASE_URL", default=None, metavar="URL",
              help="SQLAlchemy database URL [env TJMJ_DATABASE_URL; default: a SQLite file in the user data dir]. "
                   "PostgreSQL needs the postgres extra: pip install 'tianjin-mahjong[postgres]'.")
@click.option("--bot-delay", default=0.4, show_default=True, type=click.FloatRange(0, 10),
              help="Seconds between bot actions, so that people can follow.")
@click.option("--timer", default=None, type=click.FloatRange(5, 600),
              help="Default turn timer in seconds for rooms that set none (on time-out the baseline bot plays).")
@click.option("--grace", default=15.0, show_default=True, type=click.FloatRange(0, 600),
              help="Seconds a disconnected person keeps their seat before the bot plays it (rooms without a timer).")
@click.option("--allow-origin", "allow_origins", multiple=True, metavar="ORIGIN",
              help="Another site whose pages may use this server (https://example.com); repeatable. "
                   "Pages of this server itself are always allowed.")
@click.option("--forwarded-allow-ips", default=None, metavar="IPS",
              help="Reverse proxies (comma-separated addresses) whose X-Forwarded-For/-Proto are trusted "
                   "[default: 127.0.0.1]; see docs/security.md.")
@click.option("--header-timeout", default=10.0, show_default=True, type=click.FloatRange(1, 120),
              help="Seconds a connection has to send a whole request head (slow or idle ones are closed).")
@click.option("--max-connections", default=2000, show_default=True, type=click.IntRange(10, 1_000_000),
              help="Open connections at most, WebSockets included.")
@click.option("--max-connections-per-address", "per_address", default=64, show_default=True,
              type=click.IntRange(1, 1_000_000), help="Open HTTP connections at most from one address.")
@click.option("--db-timeout", default=5.0, show_default=True, type=click.FloatRange(0.5, 60),
              help="Seconds a request waits for the database before it is answered 503, and a table tells its "
                   "players the database is slow.")
@click.option("--db-statement-timeout", default=10.0, show_default=True, type=click.FloatRange(0.5, 600),
              help="Seconds one database statement or lock wait may take; on PostgreSQL the client also gives "
                   "up waiting for any answer 2 s after this (a frozen server fails calls, not hangs them).")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]), help="uvicorn's log level.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes on this host, sharing the port (more than one: a cluster, PostgreSQL only).")
@click.option("--cluster", is_flag=True,
              help="Run as one of several processes or hosts on one PostgreSQL database (docs/web.md, "
                   "\"Several processes\"); implied by --workers above 1.")
@click.option("--node-host", default=None, metavar="HOST",
              help="In a cluster: the address this process's peers reach it at [default: --host, or this "
                   "host's address when --host is 0.0.0.0].")
@click.option("--node-port", default=0, show_default=True, type=click.IntRange(0, 65535),
              help="In a cluster: the port for the peers (0: any free one; with --workers, the first one's, the "
                   "others counting up).")
@click.option("--listen-fd", default=None, type=int, hidden=True)  # a worker of --workers: the parent's socket
def serve(host: str, port: int, db: str | None, bot_delay: float, timer: float | None, grace: float,
          allow_origins: tuple[str, ...], forwarded_allow_ips: str | None, header_timeout: float,
          max_connections: int, per_address: int, db_timeout: float, db_statement_timeout: float,
          log_level: str, workers: int, cluster: bool, node_host: str | None, node_port: int,
          listen_fd: int | None) -> None:
    """Run the web table: play Tianjin, Beijing or MCR mahjong in the browser against bots or friends."""
    from ..web.app import create_app
    from ..web.cluster import Cluster
    from ..web.limits import Limits
    from ..web.server import bind
    from ..web.server import serve as run_server
    from ..web.store import Store

    for origin in allow_origins:
        if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
            raise click.BadParameter(f"{origin!r} is not an origin like https://example.com", param_hint="--allow-origin")
    clustered = cluster or workers > 1
    if clustered and _is_sqlite(db):
        raise click.UsageError("several processes need PostgreSQL (--db postgresql+psycopg://…); "
                               "SQLite serves one process")
    if workers > 1:
        from .serve_workers import run_workers

        argv = sys.argv[1:]
        run_workers(host, port, workers, argv[argv.index("serve") + 1:] if "serve" in argv else argv, node_port)
        return
    try:
        store = Store(db, timeout=db_statement_timeout)
    except Exception as e:  # a bad URL or an unreachable database: one line, not a traceback
        raise click.ClickException(f"cannot open the database {_shown_url(db)}: {_one_line(e)}") from None
    try:
        sock = socket.socket(fileno=listen_fd) if listen_fd is not None else bind(host, port)
        sockets = [sock]
        if clustered:
            node_addr = node_host or (host if host not in ("0.0.0.0", "::") else _own_address())
            sockets.append(bind(node_addr, node_port))
            node_url = f"http://{node_addr}:{sockets[1].getsockname()[1]}"
    except OSError as e:
        store.close()
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    # A fatal signal (SIGBUS when SQLite's shared-memory file cannot be mapped, SIGSEGV) cannot be
    # caught; its Python traceback is logged on stderr, and a restart resumes from the last stored hand.
    faulthandler.enable(file=sys.stderr, all_threads=True)
    limits = Limits(grace=grace, db_timeout=db_timeout)
    peers: set[str] = set()  # the cluster's peers' hosts: not capped per address (every forward comes from them)
    member = Cluster(node_url, exempt=peers) if clustered else None
    app = create_app(store, bot_delay=bot_delay, timer=timer, limits=limits, allowed_origins=allow_origins,
                     cluster=member)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host

    def ready() -> None:
        click.echo(f"{PROGRAM} at http://{shown}:{port}")
        click.echo(f"Database: {store!r}")
        if member is not None:
            click.echo(f"Cluster node: {member.url} ({store.owner})")
        sys.stdout.flush()

    try:
        run_server(app, sockets, on_ready=ready, log_level=log_level, header_timeout=header_timeout,
                   max_connections=max_connections, per_address=per_address,
                   forwarded_allow_ips=forwarded_allow_ips, exempt=peers)
    finally:
        for s in sockets:
            s.close()
        store.close()


def _is_sqlite(db: str | None) -> bool:
    import os

    url = db or os.environ.get("TJMJ_DATABASE_URL") or ""
    return not url or url.startswith("sqlite")


def _own_address() -> str:
    """This host's address as its peers would reach it (the one its name resolves to)."""
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"


def _shown_url(db: str | None) -> str:
    if not db:
        return "(the default SQLite file)"
    from sqlalchemy.engine import make_url

    try:
        return make_url(db).render_as_string(hide_password=True)
    except Exception:
        return repr(db)


if __name__ == "__main__":
    serve()
