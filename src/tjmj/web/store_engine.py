"""The web store's database connection (``tjmj.web.store``): where the database is, the engine
set up per dialect, and the Alembic upgrade to the newest schema.

SQLite runs in WAL mode with foreign keys, full sync and its own ``BEGIN IMMEDIATE`` for a write
transaction; PostgreSQL with every wait bounded (connecting, a dead peer, a statement, a lock, and
with psycopg a frozen server).  Every name here is importable from :mod:`tjmj.web.store` too.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import platformdirs
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine

ENV_URL = "TJMJ_DATABASE_URL"
APP_NAME = "tianjin-mahjong"
DB_FILE = "tjmj.sqlite3"
MIGRATIONS = Path(__file__).with_name("migrations")
DEFAULT_TIMEOUT = 10.0  # seconds a statement or a lock wait may take (Store's ``timeout``)
CONNECT_TIMEOUT = 5  # seconds: PostgreSQL connection set-up, and waiting for a pooled connection
CLIENT_GRACE = 2.0  # seconds the client waits for a PostgreSQL answer beyond the store's timeout
_WRITE = "tjmj_write"  # execution option: this transaction will write (SQLite: BEGIN IMMEDIATE)
_PG_MIGRATE_LOCK = 0x746A6D6A  # "tjmj": serialises concurrent upgrades on PostgreSQL


def default_url() -> str:
    """``sqlite:///<user data dir>/tjmj.sqlite3``, creating the directory."""
    folder = Path(platformdirs.user_data_dir(APP_NAME))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / DB_FILE}"


def _sqlite_connect(dbapi_conn: Any, _record: Any) -> None:
    # The sqlite3 module's own transaction handling skips BEGIN before SELECT and DDL; turn it off
    # and emit BEGIN ourselves (_sqlite_begin), as the SQLAlchemy docs recommend.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    try:
        cur.execute("PRAGMA foreign_keys=ON")  # per connection; off by default
        # WAL: a crash mid-write leaves the last committed state, and readers never block the writer
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")  # a committed hand is on disk before the server shows it
    finally:
        cur.close()


def _sqlite_begin(conn: Connection) -> None:
    # A write transaction takes the write lock up front: a deferred one that reads and then writes
    # fails at once with SQLITE_BUSY when another thread committed meanwhile (no busy wait).
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(_WRITE) else "BEGIN")


def _reopen_read_only(ctx: sa.engine.ExceptionContext) -> None:
    # A connection opened while the file was read-only stays read-only (SQLite's mode=rw falls back
    # to reading): drop it like a broken one, so that the next try opens the file afresh.
    if "readonly database" in str(ctx.original_exception):
        ctx.is_disconnect = True


def _sqlite_memory(url: str) -> bool:
    u = sa.make_url(url)
    memory = u.database in (None, "", ":memory:") or u.query.get("mode") == "memory"
    return u.get_backend_name() == "sqlite" and memory


def _sqlite_file(url: str) -> str | None:
    """The absolute path of a plain SQLite file URL; None for anything else (memory, ``uri=true``, a server)."""
    u = sa.make_url(url)
    if u.get_backend_name() != "sqlite" or _sqlite_memory(url) or u.query.get("uri"):
        return None
    assert u.database is not None
    return os.path.abspath(u.database)  # SQLite resolves a relative path against the cwd of each connect


def _pg_connect_args(u: sa.URL, timeout: float) -> dict[str, Any]:
    """libpq settings that bound every wait: connecting, a dead peer, a statement, a lock."""
    ms = max(1, round(timeout * 1000))
    ours: dict[str, Any] = {
        "connect_timeout": CONNECT_TIMEOUT,
        # a peer gone without a FIN (host down, network cut) is noticed in ~11 s, not hours
        "keepalives": 1,
        "keepalives_idle": 5,
        "keepalives_interval": 2,
        "keepalives_count": 3,
        # data the peer never acknowledges (a cut network) fails the connection as soon as a wait would
        "tcp_user_timeout": max(1, round(_client_wait(timeout) * 1000)),
        "options": f"-c statement_timeout={ms} -c lock_timeout={ms}",
    }
    given = u.query.get("options")
    if isinstance(given, str):
        ours["options"] = f"{given} {ours['options']}"  # the URL's own options kept; a later -c wins
    return {k: v for k, v in ours.items() if k == "options" or k not in u.query}  # the URL's settings win


def _client_wait(timeout: float) -> float:
    """Seconds the client waits for any answer of a PostgreSQL server: longer than the server's own
    timeouts (a slow server answers with its error first), so only a server that does not answer
    at all (frozen, unreachable) meets it."""
    return timeout + CLIENT_GRACE


_bounded_class: type[Any] | None = None


def _bounded_connection() -> type[Any]:
    """psycopg's Connection whose every wait for the server (a statement, a commit, a pre-ping) ends
    after ``wait_timeout`` seconds: the connection is closed and the call fails.

    The server's ``statement_timeout`` cannot help when the server does not run at all (stopped
    with SIGSTOP, swapped out, a VM paused): its host's kernel still acknowledges every packet, so
    neither keepalives nor ``tcp_user_timeout`` ever fire, and a query cancel goes to the same
    frozen server.  Only a deadline in the client ends such a wait."""
    global _bounded_class
    if _bounded_class is not None:
        return _bounded_class
    import psycopg

    class BoundedConnection(psycopg.Connection[Any]):
        wait_timeout: float | None = None  # None: no deadline (a migration may run long)

        def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
            limit = self.wait_timeout
            if timeout is not None or limit is None:  # psycopg's own deadline (notifies): its own handling
                return super().wait(gen, interval, timeout)
            try:
                return super().wait(gen, interval, limit)
            except psycopg.OperationalError as e:
                if type(e).__name__ != "_WaitTimeout":
                    raise
                # mid-exchange: the connection's state is unknown, so it is closed (SQLAlchemy then
                # drops it from the pool); a server that wakes up sees it gone and rolls back
                # anything not yet committed
                self.pgconn.finish()
                raise psycopg.OperationalError(
                    f"the database server did not answer within {limit:g} s; the connection was closed") from None

    _bounded_class = BoundedConnection
    return BoundedConnection


def make_engine(url: str, *, timeout: float = DEFAULT_TIMEOUT) -> Engine:
    """An engine for ``url`` set up for the store: SQLite with WAL, foreign keys, thread-safe pooling;
    PostgreSQL with every wait bounded (see :class:`Store`'s ``timeout``)."""
    u = sa.make_url(url)
    backend = u.get_backend_name()
    if backend == "postgresql":
        engine = sa.create_engine(
            u,
            pool_pre_ping=True,  # survive a database server restart
            pool_timeout=CONNECT_TIMEOUT,  # every pooled connection busy (e.g. stuck): fail, don't queue forever
            connect_args=_pg_connect_args(u, timeout),
        )
        if engine.dialect.driver == "psycopg":
            wait = _client_wait(timeout)

            @sa.event.listens_for(engine, "connect")
            def bounded(dbapi_conn: Any, conn_rec: Any) -> None:
                # each new connection becomes the subclass (same layout, one method more): however
                # it was made, by psycopg.connect or a do_connect hook
                import psycopg

                if type(dbapi_conn) is psycopg.Connection:
                    conn: Any = dbapi_conn
                    conn.__class__ = _bounded_connection()
                    conn.wait_timeout = wait

        return engine
    if backend != "sqlite":
        return sa.create_engine(u, pool_pre_ping=True)
    memory = _sqlite_memory(url)
    kwargs: dict[str, Any] = {
        # pooled connections move between the server's threads; timeout: wait for the write lock
        "connect_args": {"check_same_thread": False, "timeout": timeout},
    }
    if memory:
        kwargs["poolclass"] = sa.pool.StaticPool  # one connection, else each would see its own empty DB
    engine = sa.create_engine(u, **kwargs)
    sa.event.listen(engine, "connect", _sqlite_connect)
    sa.event.listen(engine, "begin", _sqlite_begin)
    return engine


def alembic_config(url: str | None = None) -> Config:
    """The Alembic configuration of the store's migrations, without an ini file.

    ``command.upgrade(alembic_config(url), "head")`` is ``alembic upgrade head``; with no ``url``,
    pass an open connection as ``config.attributes["connection"]``.
    """
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("path_separator", "os")
    cfg.set_main_option("file_template", "%%(rev)s_%%(slug)s")  # versions/0002_add_something.py
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))  # configparser interpolation
    return cfg


def _upgrade(engine: Engine) -> bool:
    """Migrate to head in one transaction; False (and no DDL at all) when already there."""
    cfg = alembic_config()
    script = ScriptDirectory.from_config(cfg)
    heads = set(script.get_heads())
    known = {rev.revision for rev in script.walk_revisions()}
    with engine.connect() as conn:
        conn.execution_options(**{_WRITE: True})
        with conn.begin():
            if conn.dialect.name == "postgresql":
                # two servers starting at once would both create the tables; the lock ends with the transaction
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_PG_MIGRATE_LOCK)))
            current = set(MigrationContext.configure(conn).get_current_heads())
            if current == heads:
                return False
            if current - known:
                raise RuntimeError(
                    f"the database is at schema revision {', '.join(sorted(current - known))}, "
                    "unknown to this version of tjmj (made by a newer one?)"
                )
            raw: Any = conn.connection.dbapi_connection
            wait = getattr(raw, "wait_timeout", None)  # the client's deadline (_bounded_connection)
            if conn.dialect.name == "postgresql":
                # a migration may rewrite a large table: only its lock waits stay bounded
                conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
                if wait is not None:
                    raw.wait_timeout = None
            try:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
            finally:
                if wait is not None:
                    raw.wait_timeout = wait
    return True


def upgrade(url: str) -> bool:
    """Migrate the database at ``url`` to the newest schema; True if anything was done."""
    engine = make_engine(url)
    try:
        return _upgrade(engine)
    finally:
        engine.dispose()


# ---- validation ---------------------------------------------------------------------------
