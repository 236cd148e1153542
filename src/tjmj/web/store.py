"""Match storage for the web table: matches and their events in SQL (SQLite by default, PostgreSQL too).

A match is a row of ``matches`` (room, rules, seed, players, status, final scores) and its record
is the ordered rows of ``events``: the engine's events (``tjmj.game.Match.events``), one JSON body
each, so a stored match replays with :func:`tjmj.record.replay` and exports as JSON lines.  The
server appends a finished hand in one transaction before it shows the result, so a crash loses at
most the hand in play, and :meth:`Store.unfinished_matches` lists what to resume after a restart.

The schema is owned by the Alembic migrations in ``tjmj/web/migrations`` (never ``create_all``):
opening a :class:`Store` upgrades the database to the newest revision; :func:`upgrade` does only that.

>>> store = Store("sqlite://")
>>> players = [{"seat": s, "name": f"p{s}", "kind": "bot", "bot": "baseline"} for s in range(4)]
>>> mid = store.create_match("room-1", {"preset": "classic"}, 7, players)
>>> store.get_match(mid)["status"]
'playing'
>>> store.close()
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import platformdirs
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine

__all__ = [
    "ENV_URL",
    "PLAYER_KINDS",
    "STATUSES",
    "Store",
    "alembic_config",
    "default_url",
    "events_table",
    "make_engine",
    "matches_table",
    "metadata",
    "upgrade",
]

ENV_URL = "TJMJ_DATABASE_URL"
APP_NAME = "tianjin-mahjong"
DB_FILE = "tjmj.sqlite3"
MIGRATIONS = Path(__file__).with_name("migrations")
STATUSES = ("playing", "finished", "abandoned")
PLAYER_KINDS = ("human", "bot")
SEATS = 4
MAX_ROOM = 200  # column sizes: checked here so that every dialect rejects the same input
MAX_NAME = 100
MAX_TYPE = 32
MAX_LIMIT = 1000
_INT64 = 1 << 63  # seeds are BIGINT: signed 64-bit on every dialect
_WRITE = "tjmj_write"  # execution option: this transaction will write (SQLite: BEGIN IMMEDIATE)
_PG_MIGRATE_LOCK = 0x746A6D6A  # "tjmj": serialises concurrent upgrades on PostgreSQL


# ---- schema -------------------------------------------------------------------------------


class JSONText(sa.TypeDecorator[Any]):
    """JSON stored as text by orjson: the same bytes on every dialect (no JSON/JSONB differences)."""

    impl = sa.Text
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: sa.Dialect) -> str | None:
        return None if value is None else orjson.dumps(value).decode()

    def process_result_value(self, value: Any, dialect: sa.Dialect) -> Any:
        return None if value is None else orjson.loads(value)


class UTCDateTime(sa.TypeDecorator[datetime]):
    """An aware UTC timestamp; SQLite keeps no time zone, so naive values read back are UTC."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be time-zone aware")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# Named constraints: migrations can then alter them by name on every dialect.
metadata = sa.MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

matches_table = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("room", sa.String(MAX_ROOM), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("rules", JSONText, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("players", JSONText, nullable=False),
    sa.Column("scores", JSONText, nullable=True),  # final scores, set by finish_match
    sa.Column("hands", sa.Integer, nullable=False, server_default=sa.text("0")),  # end_kyoku events stored
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("finished_at", UTCDateTime, nullable=True),  # when it finished or was abandoned
    sa.CheckConstraint("status IN ('playing', 'finished', 'abandoned')", name="status"),
    sa.CheckConstraint("hands >= 0", name="hands"),
    # list_matches(status=...) newest first, and unfinished_matches() at start-up
    sa.Index(None, "status", "id"),
)

events_table = sa.Table(
    "events",
    metadata,
    # (match_id, seq) is the primary key: unique, and the index that reads a record in order
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True,
              autoincrement=False),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("type", sa.String(MAX_TYPE), nullable=False),
    sa.Column("body", sa.Text, nullable=False),  # the whole event as orjson text, exactly as exported
    sa.CheckConstraint("seq >= 0", name="seq"),
)


# ---- engine and migrations ----------------------------------------------------------------


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


def _sqlite_memory(url: str) -> bool:
    u = sa.make_url(url)
    memory = u.database in (None, "", ":memory:") or u.query.get("mode") == "memory"
    return u.get_backend_name() == "sqlite" and memory


def make_engine(url: str) -> Engine:
    """An engine for ``url`` set up for the store: SQLite with WAL, foreign keys, thread-safe pooling."""
    u = sa.make_url(url)
    if u.get_backend_name() != "sqlite":
        return sa.create_engine(u, pool_pre_ping=True)  # survive a database server restart
    memory = _sqlite_memory(url)
    kwargs: dict[str, Any] = {
        # pooled connections move between the server's threads; timeout: wait for the write lock
        "connect_args": {"check_same_thread": False, "timeout": 30},
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
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    return True


def upgrade(url: str) -> bool:
    """Migrate the database at ``url`` to the newest schema; True if anything was done."""
    engine = make_engine(url)
    try:
        return _upgrade(engine)
    finally:
        engine.dispose()


# ---- validation ---------------------------------------------------------------------------


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_id(match_id: Any) -> int:
    if not _is_int(match_id):
        raise TypeError(f"a match id is an int, got {match_id!r}")
    return match_id


def _check_str(what: str, value: Any, max_len: int) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, got {value!r}")
    if not value or len(value) > max_len:
        raise ValueError(f"{what} must have 1 to {max_len} characters, got {value!r}")
    return value


def _check_json(what: str, value: Any) -> None:
    try:
        orjson.dumps(value)
    except orjson.JSONEncodeError as e:
        raise TypeError(f"{what} is not JSON-serialisable: {e}") from e


def _check_players(players: Any) -> list[dict[str, Any]]:
    """One player per seat, sorted by seat; fields beyond the four the store knows are kept as given
    (the server keeps its own, e.g. a player's index and token hash, to rebuild a room on resume)."""
    if not isinstance(players, list | tuple) or len(players) != SEATS:
        raise ValueError(f"players must be a list of {SEATS} players, one per seat, got {players!r}")
    out: list[dict[str, Any]] = []
    for p in players:
        if not isinstance(p, dict):
            raise TypeError(f"a player is a dict, got {p!r}")
        seat, kind, bot = p.get("seat"), p.get("kind"), p.get("bot")
        if not _is_int(seat) or not 0 <= seat < SEATS:
            raise ValueError(f"a player's seat is 0 to {SEATS - 1}, got {p!r}")
        name = _check_str("a player's name", p.get("name"), MAX_NAME)
        if kind not in PLAYER_KINDS:
            raise ValueError(f"a player's kind is one of {PLAYER_KINDS}, got {p!r}")
        if kind == "bot":
            _check_str("a bot player's bot", bot, MAX_NAME)
        elif bot is not None:
            raise ValueError(f"a human player has no bot, got {p!r}")
        out.append({"seat": seat, "name": name, "kind": kind, "bot": bot, **p})
    if sorted(p["seat"] for p in out) != list(range(SEATS)):
        raise ValueError(f"players must fill seats 0 to {SEATS - 1} once each, got {players!r}")
    _check_json("players", out)
    return sorted(out, key=lambda p: p["seat"])


def _check_scores(scores: Any) -> list[int]:
    if not isinstance(scores, list | tuple) or len(scores) != SEATS or not all(_is_int(s) for s in scores):
        raise ValueError(f"scores must be {SEATS} ints, one per seat, got {scores!r}")
    return list(scores)


def _check_events(events: Any) -> list[dict[str, Any]]:
    if not isinstance(events, list | tuple):
        raise TypeError(f"events must be a list of dicts, got {type(events).__name__}")
    for i, ev in enumerate(events):
        if not isinstance(ev, dict):
            raise TypeError(f"event {i} is not a dict: {ev!r}")
        _check_str(f"the type of event {i}", ev.get("type"), MAX_TYPE)
    return list(events)


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(t: datetime | None) -> str | None:
    return None if t is None else t.isoformat()


def _match_dict(row: sa.Row[Any]) -> dict[str, Any]:
    return {
        "id": row.id,
        "room": row.room,
        "status": row.status,
        "rules": row.rules,
        "seed": row.seed,
        "players": row.players,
        "scores": row.scores,
        "hands": row.hands,
        "created_at": _iso(row.created_at),
        "finished_at": _iso(row.finished_at),
    }


def _missing(match_id: int) -> KeyError:
    return KeyError(f"no match with id {match_id}")


# ---- the store ----------------------------------------------------------------------------


class Store:
    """Matches and their events in a SQL database; safe to share between the threads of one process.

    ``url``: any SQLAlchemy URL; ``None``: ``$TJMJ_DATABASE_URL``, else the SQLite file
    ``tjmj.sqlite3`` in the user data directory.  Opening migrates the database to the newest schema.
    Every call runs in its own transaction on a pooled connection (no state shared between calls).
    """

    url: str

    def __init__(self, url: str | None = None) -> None:
        self.url = url or os.environ.get(ENV_URL) or default_url()
        self._engine = make_engine(self.url)
        self._closed = False
        # an in-memory SQLite database is one connection (StaticPool): its transactions take turns
        self._serial: AbstractContextManager[Any] = threading.Lock() if _sqlite_memory(self.url) else nullcontext()
        try:
            _upgrade(self._engine)
        except BaseException:
            self._engine.dispose()
            raise

    def __repr__(self) -> str:
        return f"Store({sa.make_url(self.url).render_as_string(hide_password=True)!r})"

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine (maintenance and tests)."""
        return self._engine

    @contextmanager
    def _tx(self, write: bool = False) -> Iterator[Connection]:
        if self._closed:
            raise RuntimeError("the store is closed")
        with self._serial, self._engine.connect() as conn:
            if write:
                conn.execution_options(**{_WRITE: True})
            with conn.begin():
                yield conn

    @staticmethod
    def _lock_match(conn: Connection, match_id: int) -> sa.Row[Any]:
        # FOR UPDATE (PostgreSQL; SQLite's write lock is the whole file): appends to one match
        # serialise, so each computes its next seq from the previous one's committed events.
        row = conn.execute(
            sa.select(matches_table.c.status, matches_table.c.hands)
            .where(matches_table.c.id == match_id)
            .with_for_update()
        ).first()
        if row is None:
            raise _missing(match_id)
        return row

    @staticmethod
    def _require(conn: Connection, match_id: int) -> None:
        if conn.execute(sa.select(matches_table.c.id).where(matches_table.c.id == match_id)).first() is None:
            raise _missing(match_id)

    # ---- writes ---------------------------------------------------------------------------

    def create_match(self, room: str, rules: dict[str, Any], seed: int, players: list[dict[str, Any]]) -> int:
        """A new match, status ``playing``; returns its id.

        ``players``: one per seat, ``{"seat": 0, "name": "alice", "kind": "human"|"bot", "bot": "baseline"|None}``.
        """
        _check_str("room", room, MAX_ROOM)
        if not isinstance(rules, dict):
            raise TypeError(f"rules must be a dict, got {rules!r}")
        _check_json("rules", rules)
        if not _is_int(seed):
            raise TypeError(f"seed must be an int, got {seed!r}")
        if not -_INT64 <= seed < _INT64:
            raise ValueError(f"seed must fit in 64 bits, got {seed}")
        norm = _check_players(players)
        with self._tx(write=True) as conn:
            result = conn.execute(
                sa.insert(matches_table).values(
                    room=room, status="playing", rules=rules, seed=seed, players=norm, scores=None, hands=0,
                    created_at=_now(), finished_at=None,
                )
            )
            return int(result.inserted_primary_key[0])

    def append_events(self, match_id: int, events: list[dict[str, Any]]) -> None:
        """Append ``events`` in order, all or none (one transaction).

        The first event of a match must be ``start_game`` and nothing may follow ``end_game``; a
        finished or abandoned match takes no events (``ValueError``).
        """
        _check_id(match_id)
        events = _check_events(events)
        with self._tx(write=True) as conn:
            row = self._lock_match(conn, match_id)
            if row.status != "playing":
                raise ValueError(f"match {match_id} is {row.status}: it takes no more events")
            if not events:
                return
            last = conn.execute(
                sa.select(events_table.c.seq, events_table.c.type)
                .where(events_table.c.match_id == match_id)
                .order_by(events_table.c.seq.desc())
                .limit(1)
            ).first()
            seq = 0 if last is None else last.seq + 1
            self._check_order(match_id, seq, None if last is None else last.type, events)
            hands = sum(1 for ev in events if ev["type"] == "end_kyoku")
            if hands:
                conn.execute(
                    sa.update(matches_table)
                    .where(matches_table.c.id == match_id)
                    .values(hands=matches_table.c.hands + hands)
                )
            rows = []
            for i, ev in enumerate(events):
                try:
                    body = orjson.dumps(ev).decode()
                except orjson.JSONEncodeError as e:
                    # raised inside the transaction: the hands update above is rolled back too
                    raise TypeError(f"event {i} for match {match_id} is not JSON-serialisable: {e}") from e
                rows.append({"match_id": match_id, "seq": seq + i, "type": ev["type"], "body": body})
            conn.execute(sa.insert(events_table), rows)

    @staticmethod
    def _check_order(match_id: int, seq: int, last_type: str | None, events: Sequence[dict[str, Any]]) -> None:
        # A record is start_game … end_game (docs/records.md); reject what could never replay.
        if last_type == "end_game":
            raise ValueError(f"match {match_id} already has its end_game event")
        for i, ev in enumerate(events):
            if (seq + i == 0) != (ev["type"] == "start_game"):
                raise ValueError(f"match {match_id}: start_game must be its first event and only that "
                                 f"(event {i} is {ev['type']!r} at position {seq + i})")
            if ev["type"] == "end_game" and i != len(events) - 1:
                raise ValueError(f"match {match_id}: events after end_game (event {i})")

    def finish_match(self, match_id: int, scores: list[int]) -> None:
        """Mark a playing match finished with its final scores (seat order)."""
        _check_id(match_id)
        scores = _check_scores(scores)
        with self._tx(write=True) as conn:
            row = self._lock_match(conn, match_id)
            if row.status != "playing":
                raise ValueError(f"match {match_id} is {row.status}, not playing: it cannot finish")
            last = conn.execute(
                sa.select(events_table.c.type, events_table.c.body)
                .where(events_table.c.match_id == match_id)
                .order_by(events_table.c.seq.desc())
                .limit(1)
            ).first()
            if last is not None and last.type == "end_game":
                recorded = orjson.loads(last.body).get("scores")
                if recorded != scores:
                    raise ValueError(f"match {match_id}: final scores {scores} differ from its end_game {recorded}")
            conn.execute(
                sa.update(matches_table)
                .where(matches_table.c.id == match_id)
                .values(status="finished", scores=scores, finished_at=_now())
            )

    def abandon_match(self, match_id: int) -> None:
        """Mark a playing match abandoned (kept, never resumed); abandoning twice does nothing."""
        _check_id(match_id)
        with self._tx(write=True) as conn:
            row = self._lock_match(conn, match_id)
            if row.status == "abandoned":
                return
            if row.status == "finished":
                raise ValueError(f"match {match_id} is finished: it cannot be abandoned")
            conn.execute(
                sa.update(matches_table)
                .where(matches_table.c.id == match_id)
                .values(status="abandoned", finished_at=_now())
            )

    # ---- reads ----------------------------------------------------------------------------

    def _bodies(self, match_id: int) -> list[str]:
        _check_id(match_id)
        with self._tx() as conn:
            self._require(conn, match_id)
            return list(
                conn.scalars(
                    sa.select(events_table.c.body)
                    .where(events_table.c.match_id == match_id)
                    .order_by(events_table.c.seq)
                )
            )

    def events(self, match_id: int) -> list[dict[str, Any]]:
        """Every stored event of the match, in order."""
        return [orjson.loads(b) for b in self._bodies(match_id)]

    def record_jsonl(self, match_id: int) -> bytes:
        """The match as a record file: JSON lines, one event a line (``tjmj.record.read_records``)."""
        return b"".join(b.encode() + b"\n" for b in self._bodies(match_id))

    def get_match(self, match_id: int) -> dict[str, Any] | None:
        """``{"id", "room", "status", "rules", "seed", "players", "scores", "hands", "created_at",
        "finished_at"}`` (timestamps: UTC ISO 8601), or None for an unknown id."""
        _check_id(match_id)
        with self._tx() as conn:
            row = conn.execute(sa.select(matches_table).where(matches_table.c.id == match_id)).first()
        return None if row is None else _match_dict(row)

    def list_matches(self, limit: int = 50, offset: int = 0, status: str | None = None) -> list[dict[str, Any]]:
        """Matches newest first (as :meth:`get_match`), optionally only those with ``status``."""
        if not _is_int(limit) or not 0 <= limit <= MAX_LIMIT:
            raise ValueError(f"limit must be an int from 0 to {MAX_LIMIT}, got {limit!r}")
        if not _is_int(offset) or offset < 0:
            raise ValueError(f"offset must be an int >= 0, got {offset!r}")
        if status is not None and status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES} or None, got {status!r}")
        query = sa.select(matches_table).order_by(matches_table.c.id.desc()).limit(limit).offset(offset)
        if status is not None:
            query = query.where(matches_table.c.status == status)
        with self._tx() as conn:
            return [_match_dict(row) for row in conn.execute(query)]

    def unfinished_matches(self) -> list[dict[str, Any]]:
        """Every match still ``playing`` (to resume after a restart), oldest first."""
        query = sa.select(matches_table).where(matches_table.c.status == "playing").order_by(matches_table.c.id)
        with self._tx() as conn:
            return [_match_dict(row) for row in conn.execute(query)]

    def close(self) -> None:
        """Close every pooled connection; the store cannot be used afterwards."""
        if not self._closed:
            self._closed = True
            self._engine.dispose()
