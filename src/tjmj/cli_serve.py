"""``tjmj serve``: the web table (docs/web.md) with uvicorn.

Registered in :mod:`tjmj.cli` with ``main.add_command(serve)``.  The database is ``--db`` or
``$TJMJ_DATABASE_URL`` (any SQLAlchemy URL), else a SQLite file in the user data directory;
unfinished matches found there are resumed at start-up.
"""

from __future__ import annotations

import click

__all__ = ["serve"]


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on.")
@click.option("--db", "db", envvar="TJMJ_DATABASE_URL", default=None, metavar="URL",
              help="SQLAlchemy database URL [env TJMJ_DATABASE_URL; default: a SQLite file in the user data dir].")
@click.option("--bot-delay", default=0.4, show_default=True, type=click.FloatRange(0, 10),
              help="Seconds between bot actions, so that people can follow.")
@click.option("--timer", default=None, type=click.FloatRange(5, 600),
              help="Default turn timer in seconds for rooms that set none (on time-out the baseline bot plays).")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]), help="uvicorn's log level.")
def serve(host: str, port: int, db: str | None, bot_delay: float, timer: float | None, log_level: str) -> None:
    """Run the web table: play Tianjin mahjong in the browser against bots or friends."""
    import uvicorn

    from .web.app import create_app
    from .web.store import Store

    try:
        store = Store(db)
    except Exception as e:  # a bad URL or an unreachable database: one line, not a traceback
        raise click.ClickException(f"cannot open the database: {e}") from None
    app = create_app(store, bot_delay=bot_delay, timer=timer)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    click.echo(f"Tianjin mahjong at http://{shown}:{port}")
    click.echo(f"Database: {store!r}")
    try:
        uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=64 * 1024)
    finally:
        store.close()


if __name__ == "__main__":
    serve()
