"""``tjmj serve``: the web table (docs/web.md) with uvicorn, hardened as docs/security.md says.

Registered lazily in :mod:`tjmj.cli` (``_COMMANDS``).  The database is ``--db`` or
``$TJMJ_DATABASE_URL`` (any SQLAlchemy URL), else a SQLite file in the user data directory;
unfinished matches found there are resumed at start-up (those no other live server owns).
"""

from __future__ import annotations

import faulthandler
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
def serve(host: str, port: int, db: str | None, bot_delay: float, timer: float | None, grace: float,
          allow_origins: tuple[str, ...], forwarded_allow_ips: str | None, header_timeout: float,
          max_connections: int, per_address: int, db_timeout: float, db_statement_timeout: float,
          log_level: str) -> None:
    """Run the web table: play Tianjin, Beijing or MCR mahjong in the browser against bots or friends."""
    from ..web.app import create_app
    from ..web.limits import Limits
    from ..web.server import bind
    from ..web.server import serve as run_server
    from ..web.store import Store

    for origin in allow_origins:
        if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
            raise click.BadParameter(f"{origin!r} is not an origin like https://example.com", param_hint="--allow-origin")
    try:
        store = Store(db, timeout=db_statement_timeout)
    except Exception as e:  # a bad URL or an unreachable database: one line, not a traceback
        raise click.ClickException(f"cannot open the database {_shown_url(db)}: {_one_line(e)}") from None
    try:
        sock = bind(host, port)
    except OSError as e:
        store.close()
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    # A fatal signal (SIGBUS when SQLite's shared-memory file cannot be mapped, SIGSEGV) cannot be
    # caught; its Python traceback is logged on stderr, and a restart resumes from the last stored hand.
    faulthandler.enable(file=sys.stderr, all_threads=True)
    limits = Limits(grace=grace, db_timeout=db_timeout)
    app = create_app(store, bot_delay=bot_delay, timer=timer, limits=limits, allowed_origins=allow_origins)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host

    def ready() -> None:
        click.echo(f"{PROGRAM} at http://{shown}:{port}")
        click.echo(f"Database: {store!r}")
        sys.stdout.flush()

    try:
        run_server(app, sock, on_ready=ready, log_level=log_level, header_timeout=header_timeout,
                   max_connections=max_connections, per_address=per_address,
                   forwarded_allow_ips=forwarded_allow_ips)
    finally:
        sock.close()
        store.close()


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
