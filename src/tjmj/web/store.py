"""Match storage for the web table: matches and their events in SQL (SQLite by default, PostgreSQL too).

A match is a row of ``matches`` (room, rules, seed, players, status, final scores) and its record
is the ordered rows of ``events``: the engine's events (``tjmj.game.Match.events``), one JSON body
each, so a stored match replays with :func:`tjmj.record.replay` and exports as JSON lines.  The
server appends a finished hand in one transaction before it shows the result, so a crash loses at
most the hand in play.

Several servers may share one database.  Each :class:`Store` has an ``owner`` id, and a match or a
waiting room (``rooms``) is played by the server holding its *lease*: ``owner``, ``lease_until``
and ``fence``, a number raised on every acquisition.  A server takes what is free with
:meth:`Store.claim_matches` and :meth:`Store.claim_rooms`, keeps it with :meth:`Store.renew`, and
lets it go with :meth:`Store.release_all`; every write checks, in its transaction, that the owner
and fence are still this store's, so a server that lost a lease (it froze, or its lease ran out and
another took over) gets :class:`LeaseLost` and changes nothing.  A SQLite file deleted or replaced
under a running server makes every later write raise :class:`DatabaseLost`; one made read-only, a
write raise :class:`DatabaseUnwritable` until it is writable again.

The schema is owned by the Alembic migrations in ``tjmj/web/migrations`` (never ``create_all``):
opening a :class:`Store` upgrades the database to the newest revision; :func:`upgrade` does only that.

The store is this module (the :class:`Store`, its leases and queries) and three of one concern
each, whose names are all importable from here too: :mod:`.store_schema` (the tables and column
sizes), :mod:`.store_engine` (the database URL, the engine per dialect, the Alembic upgrade) and
:mod:`.store_values` (the checks of the arguments, the dicts of the rows read).

>>> store = Store("sqlite://")
>>> players = [{"seat": s, "name": f"p{s}", "kind": "bot", "bot": "baseline"} for s in range(4)]
>>> mid = store.create_match("room-1", {"preset": "classic"}, 7, players)
>>> store.get_match(mid)["status"]
'playing'
>>> store.close()
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import orjson
import platformdirs  # noqa: F401  (kept here: tests patch tjmj.web.store.platformdirs.user_data_dir)
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

# The schema, the engine and the argument checks live in modules of their own; every name this
# module defined before that split is still importable from here (the noqa: re-exports).
from .errors import PLAYER_ID_RE, DatabaseLost, DatabaseUnwritable, LeaseLost, StoreError
from .store_accounts import AccountsMixin
from .store_engine import (  # noqa: F401
    _WRITE,
    APP_NAME,
    CLIENT_GRACE,
    CONNECT_TIMEOUT,
    DB_FILE,
    DEFAULT_TIMEOUT,
    ENV_URL,
    MIGRATIONS,
    _reopen_read_only,
    _sqlite_file,
    _sqlite_memory,
    _upgrade,
    alembic_config,
    default_url,
    make_engine,
    upgrade,
)
from .store_nodes import NODE_TIMEOUT, NodesMixin
from .store_puzzles import PuzzlesMixin
from .store_ranked import RankedMixin
from .store_ratings import RatingsMixin
from .store_schema import (  # noqa: F401
    _INT64,
    MAX_NAME,
    MAX_OWNER,
    MAX_PLAYER_ID,
    MAX_ROOM,
    MAX_TYPE,
    PLAYER_ID,
    PLAYER_KINDS,
    SEATS,
    STATUSES,
    JSONText,
    UTCDateTime,
    events_table,
    match_players_table,
    matches_table,
    metadata,
    ranked_queue_table,
    rooms_table,
)
from .store_values import (  # noqa: F401
    _TOKEN,
    _check_events,
    _check_id,
    _check_object,
    _check_players,
    _check_scores,
    _check_seconds,
    _check_str,
    _event_bodies,
    _is_int,
    _match_dict,
    _missing,
    _now,
    _player_rows,
    _room_dict,
)

__all__ = [
    "ENV_URL",
    "PLAYER_KINDS",
    "STATUSES",
    "DatabaseLost",
    "DatabaseUnwritable",
    "LeaseLost",
    "Store",
    "StoreError",
    "alembic_config",
    "default_url",
    "events_table",
    "make_engine",
    "matches_table",
    "match_players_table",
    "metadata",
    "rooms_table",
    "upgrade",
]

log = logging.getLogger("tjmj.web.store")

MAX_LIMIT = 1000
_K = TypeVar("_K")  # a held fence's key: a match id or a room code
_BATCH = 200  # matches per query when reading a player's matches


# ---- owners -------------------------------------------------------------------------------


def _host() -> str:
    return socket.gethostname()[:120]  # the owner id must fit its column


def _default_owner() -> str:
    """``host:pid:random``: unique per store, and it tells when its process on this host is gone."""
    return f"{_host()}:{os.getpid()}:{secrets.token_hex(4)}"


def _dead_here(owner: str) -> bool:
    """True when ``owner`` names a process on this host that no longer runs."""
    if os.name != "posix":
        return False  # os.kill(pid, 0) would end the process on Windows
    parts = owner.rsplit(":", 2)
    if len(parts) != 3 or parts[0] != _host() or not (parts[1].isascii() and parts[1].isdigit()):
        return False
    pid = int(parts[1])
    if pid <= 0 or pid == os.getpid():
        return False  # pid 0 would signal our process group; our own pid is alive
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # PermissionError: it runs, as another user
    return False


def _forget_lost(held: dict[_K, int], before: dict[_K, int], owned: dict[_K, int]) -> None:
    """Drop from ``held`` the fences of ``before`` that are no longer ``owned``; a fence acquired
    meanwhile (not the one in ``before``) is left alone."""
    for k, fence in before.items():
        if owned.get(k) != fence and held.get(k) == fence:
            del held[k]


# ---- the store ----------------------------------------------------------------------------


class Store(NodesMixin, AccountsMixin, RatingsMixin, RankedMixin, PuzzlesMixin):
    """Matches, their events and the waiting rooms in a SQL database; safe to share between the
    threads of one process, and between processes (servers) through leases.

    ``url``: any SQLAlchemy URL; ``None``: ``$TJMJ_DATABASE_URL``, else the SQLite file
    ``tjmj.sqlite3`` in the user data directory.  Opening migrates the database to the newest schema.
    Every call runs in its own transaction on a pooled connection.

    ``owner``: this store's id in the leases (default ``host:pid:random``, see :attr:`owner`).
    ``node_timeout``: a server process of a cluster whose heartbeat (:meth:`heartbeat`) is older
    than this is dead, and its leases are free at once (:mod:`tjmj.web.store_nodes`).
    ``lease_s``: how long an acquired or renewed lease lasts; renew well within it.  Leases are
    timed by the database's clock on PostgreSQL (servers on several hosts share it), by this host's
    on SQLite.

    ``timeout``: seconds any wait may last before the call fails instead of hanging.  On SQLite,
    the wait for the write lock held by another connection or process.  On PostgreSQL, each
    statement and each lock wait (``statement_timeout``, ``lock_timeout``); besides, connecting and
    waiting for a pooled connection give up after 5 s, TCP keepalives drop a connection to a
    vanished server after about 11 s, and (with psycopg) the client itself gives up any wait for
    an answer after ``timeout`` + 2 s, closing the connection: a frozen server, which keeps its
    sockets open but never answers, fails the call instead of hanging it.

    A match's writes (:meth:`append_events`, :meth:`finish_match`, :meth:`abandon_match`,
    :meth:`mark_seen`, :meth:`discard_match`) need this store's lease on it, acquired by
    :meth:`create_match` or :meth:`claim_matches`; otherwise :class:`LeaseLost`.  Room writes
    (:meth:`save_room`, :meth:`delete_room`) take a room that is free (see :meth:`claim_matches`).
    A plain SQLite file is watched: see :attr:`broken`.
    """

    url: str
    owner: str

    def __init__(self, url: str | None = None, *, owner: str | None = None, lease_s: float = 30.0,
                 timeout: float = DEFAULT_TIMEOUT, node_timeout: float = NODE_TIMEOUT) -> None:
        self.url = url or os.environ.get(ENV_URL) or default_url()
        self.owner = _default_owner() if owner is None else _check_str("owner", owner, MAX_OWNER)
        self._lease = timedelta(seconds=_check_seconds("lease_s", lease_s))
        self._node_timeout = timedelta(seconds=_check_seconds("node_timeout", node_timeout))
        self._engine = make_engine(self.url, timeout=_check_seconds("timeout", timeout))
        self._closed = False
        # an in-memory SQLite database is one connection (StaticPool): its transactions take turns
        self._serial: AbstractContextManager[Any] = threading.Lock() if _sqlite_memory(self.url) else nullcontext()
        # SQLite takes one writer at a time; threads of this process queue here instead of in
        # SQLite's busy handler, which sleeps up to 100 ms between tries
        sqlite = sa.make_url(self.url).get_backend_name() == "sqlite"
        self._writer: AbstractContextManager[Any] = threading.Lock() if sqlite else nullcontext()
        # the fences this store acquired, by match id and by room code
        self._held = threading.Lock()
        self._fences: dict[int, int] = {}
        self._room_fences: dict[str, int] = {}
        self._path = _sqlite_file(self.url)
        self._file_id: tuple[int, int] | None = None
        self._broken: str | None = None
        self._unwritable: str | None = None  # why the file cannot be written just now (logged once)
        try:
            _upgrade(self._engine)
            if self._path is not None:
                st = os.stat(self._path)
                self._file_id = (st.st_dev, st.st_ino)
                sa.event.listen(self._engine, "do_connect", self._open_existing)
                sa.event.listen(self._engine, "handle_error", _reopen_read_only)
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

    @property
    def broken(self) -> str | None:
        """Why the SQLite file can no longer be written (it was deleted or replaced while the store
        was open), or None.  Checked before every write; once set it stays, and every write raises
        :class:`DatabaseLost` with this message without touching the database.  A file (or folder)
        made read-only is not broken: each write raises :class:`DatabaseUnwritable` while it is,
        and writes go on once the same file (same device and inode) is writable again."""
        return self._broken

    def ping(self) -> None:
        """Check that the database answers and, for a SQLite file, that it can still be written
        (:meth:`_check_file`); raises if not.  One ``SELECT 1``: cheap enough for a health check."""
        if self._closed:
            raise RuntimeError("the store is closed")
        self._check_file()
        with self._serial, self._engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1").scalar()

    # ---- plumbing -------------------------------------------------------------------------

    def _open_existing(self, dialect: Any, conn_rec: Any, cargs: list[Any], cparams: dict[str, Any]) -> None:
        # Connections opened after start-up must not create the file: once it was deleted, SQLite
        # would make a new empty database there and reads would silently see nothing.
        assert self._path is not None
        cargs[:] = [Path(self._path).as_uri() + "?mode=rw"]
        cparams["uri"] = True

    def _check_file(self) -> None:
        if self._broken is not None:
            raise DatabaseLost(self._broken)
        if self._path is None:
            return
        path = self._path
        try:
            st = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            reason = f"the database file {path} was deleted while the server was running"
        else:
            folder = os.path.dirname(path)
            if (st.st_dev, st.st_ino) != self._file_id:
                reason = f"the database file {path} was replaced by another file while the server was running"
            else:
                # the same file: unwritable for now (an operator's chmod, a file system remounted
                # read-only), writable again later; a write waits for that like for a server that is down
                if not os.access(path, os.W_OK):
                    unwritable = f"the database file {path} is not writable"
                elif not os.access(folder, os.W_OK):  # SQLite writes its journal files beside it
                    unwritable = f"the database file {path} is not writable (its folder {folder} is not)"
                else:
                    if self._unwritable is not None:
                        log.warning("the database file %s is writable again", path)
                        self._unwritable = None
                    return
                if self._unwritable is None:
                    log.error("%s: writes fail until it is writable again", unwritable)
                self._unwritable = unwritable
                raise DatabaseUnwritable(unwritable)
        self._broken = reason
        log.error("%s: no more writes", reason)
        raise DatabaseLost(reason)

    @contextmanager
    def _tx(self, write: bool = False) -> Iterator[Connection]:
        if self._closed:
            raise RuntimeError("the store is closed")
        if write:
            self._check_file()
        with self._writer if write else nullcontext(), self._serial, self._engine.connect() as conn:
            if write:
                conn.execution_options(**{_WRITE: True})
            with conn.begin():
                yield conn

    @staticmethod
    def _clock(conn: Connection) -> datetime:
        # PostgreSQL: the database's clock, the same for servers on several hosts
        if conn.dialect.name == "postgresql":
            now: datetime = conn.execute(sa.select(sa.func.now())).scalar_one()
            return now.astimezone(UTC)
        return _now()

    def _free(self, owner: str | None, lease_until: datetime | None, now: datetime) -> bool:
        """May this store take a row with this lease?"""
        return (owner is None or owner == self.owner or lease_until is None or lease_until <= now
                or _dead_here(owner))

    @staticmethod
    def _lock_match(conn: Connection, match_id: int) -> sa.Row[Any, Any, Any, Any]:
        # FOR UPDATE (PostgreSQL; SQLite's write lock is the whole file): writes to one match
        # serialise, so each computes its next seq from the previous one's committed events, and
        # the owner and fence checked stay as they are until the commit.
        m = matches_table.c
        row = conn.execute(
            sa.select(m.status, m.hands, m.owner, m.fence).where(m.id == match_id).with_for_update()
        ).first()
        if row is None:
            raise _missing(match_id)
        return row

    def _check_owned(self, match_id: int, row: sa.Row[Any, Any, Any, Any]) -> None:
        with self._held:
            fence = self._fences.get(match_id)
        if row.owner == self.owner and row.fence == fence:
            return
        if row.owner is not None and row.owner != self.owner:
            raise LeaseLost(f"match {match_id} is owned by another server ({row.owner})")
        raise LeaseLost(f"match {match_id}: this server's lease on it ended")

    def _forget_match(self, match_id: int) -> None:
        with self._held:
            self._fences.pop(match_id, None)

    @staticmethod
    def _require(conn: Connection, match_id: int) -> None:
        if conn.execute(sa.select(matches_table.c.id).where(matches_table.c.id == match_id)).first() is None:
            raise _missing(match_id)

    def _take_room(self, conn: Connection, code: str, now: datetime) -> sa.Row[Any, Any, Any] | None:
        """The room's lease row, locked; LeaseLost unless it is free for this store; None if there is none."""
        r = rooms_table.c
        row = conn.execute(
            sa.select(r.owner, r.lease_until, r.fence).where(r.code == code).with_for_update()
        ).first()
        if row is not None and not self._free(row.owner, row.lease_until, now):
            raise LeaseLost(f"room {code} is owned by another server ({row.owner})")
        return row

    # ---- match writes ---------------------------------------------------------------------

    def create_match(self, room: str, rules: dict[str, Any], seed: int, players: list[dict[str, Any]], *,
                     settings: dict[str, Any] | None = None, seen: bool = False,
                     replaces_room: str | None = None) -> int:
        """A new match, status ``playing``, owned by this store; returns its id.

        ``players``: one per seat, ``{"seat": 0, "name": "alice", "kind": "human"|"bot", "bot": "baseline"|None}``,
        plus any keys of the server's own (kept as given; public reads drop those starting with
        ``token``).  ``settings``: the room's settings (a JSON object).  ``seen``: a client already
        connected (only seen matches are claimed after a restart).  ``replaces_room``: the code of
        the waiting room this match starts from, deleted in the same transaction (if it exists;
        :class:`LeaseLost`, and no match, if another server owns it).
        """
        _check_str("room", room, MAX_ROOM)
        _check_object("rules", rules)
        if not _is_int(seed):
            raise TypeError(f"seed must be an int, got {seed!r}")
        if not -_INT64 <= seed < _INT64:
            raise ValueError(f"seed must fit in 64 bits, got {seed}")
        norm = _check_players(players)
        if settings is not None:
            _check_object("settings", settings)
        if not isinstance(seen, bool):
            raise TypeError(f"seen must be a bool, got {seen!r}")
        if replaces_room is not None:
            _check_str("replaces_room", replaces_room, MAX_ROOM)
        with self._tx(write=True) as conn:
            now = self._clock(conn)
            if replaces_room is not None and self._take_room(conn, replaces_room, now) is not None:
                conn.execute(sa.delete(rooms_table).where(rooms_table.c.code == replaces_room))
            result = conn.execute(
                sa.insert(matches_table).values(
                    room=room, status="playing", rules=rules, seed=seed, players=norm, scores=None, hands=0,
                    created_at=_now(), finished_at=None, owner=self.owner, lease_until=now + self._lease,
                    fence=1, settings=settings, seen=seen,
                )
            )
            key = result.inserted_primary_key
            assert key is not None  # an INSERT of one row always has it
            match_id = int(key[0])
            conn.execute(sa.insert(match_players_table), _player_rows(match_id, norm))
        with self._held:
            self._fences[match_id] = 1
            if replaces_room is not None:
                self._room_fences.pop(replaces_room, None)
        return match_id

    def append_events(self, match_id: int, events: list[dict[str, Any]], *, at: int | None = None) -> None:
        """Append ``events`` in order, all or none (one transaction).

        The first event of a match must be ``start_game`` and nothing may follow ``end_game``; a
        finished or abandoned match takes no events (``ValueError``).

        ``at``: how many events the caller believes are stored already.  With exactly that many
        the events are appended; with more, of which those from ``at`` on are exactly ``events``, an
        earlier try committed (its answer was lost) and nothing is written; else ``ValueError``.
        """
        events, bodies = self._prepare_append(match_id, events, at)
        with self._tx(write=True) as conn:
            self._append(conn, match_id, events, bodies, at)

    @staticmethod
    def _prepare_append(match_id: Any, events: Any, at: Any) -> tuple[list[dict[str, Any]], list[str]]:
        _check_id(match_id)
        events = _check_events(events)
        if at is not None and (not _is_int(at) or at < 0):
            raise ValueError(f"at must be an int >= 0, got {at!r}")
        return events, _event_bodies(match_id, events)

    def _append(self, conn: Connection, match_id: int, events: list[dict[str, Any]], bodies: list[str],
                at: int | None) -> None:
        """The body of one append, inside the caller's transaction."""
        row = self._lock_match(conn, match_id)
        if row.status != "playing":
            raise ValueError(f"match {match_id} is {row.status}: it takes no more events")
        self._check_owned(match_id, row)
        last = conn.execute(
            sa.select(events_table.c.seq, events_table.c.type)
            .where(events_table.c.match_id == match_id)
            .order_by(events_table.c.seq.desc())
            .limit(1)
        ).first()
        seq = 0 if last is None else last.seq + 1  # seqs run from 0 without gaps: the count stored
        if at is not None and at != seq:
            self._check_retry(conn, match_id, at, seq, bodies)
            return
        if not events:
            return
        self._check_order(match_id, seq, None if last is None else last.type, events)
        hands = sum(1 for ev in events if ev["type"] == "end_kyoku")
        if hands:
            conn.execute(
                sa.update(matches_table)
                .where(matches_table.c.id == match_id)
                .values(hands=matches_table.c.hands + hands)
            )
        rows = [{"match_id": match_id, "seq": seq + i, "type": ev["type"], "body": body}
                for i, (ev, body) in enumerate(zip(events, bodies, strict=True))]
        conn.execute(sa.insert(events_table), rows)

    @staticmethod
    def _check_retry(conn: Connection, match_id: int, at: int, stored: int, bodies: list[str]) -> None:
        # a retry after a lost answer: what it would append is exactly what was stored from ``at`` on
        if at > stored:
            raise ValueError(f"match {match_id} has {stored} events stored, not {at}")
        tail = list(
            conn.scalars(
                sa.select(events_table.c.body)
                .where(events_table.c.match_id == match_id, events_table.c.seq >= at)
                .order_by(events_table.c.seq)
            )
        )
        if tail != bodies:
            raise ValueError(f"match {match_id} has {stored} events stored, not {at}, and those from {at} on "
                             f"({len(tail)}) are not the {len(bodies)} given")

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
        """Mark a playing match finished with its final scores (seat order); this releases it.  A
        ranked match (its settings say ``"ranked": true``) is rated in the same transaction
        (:meth:`_rate_match`, docs/web.md "Ratings and the leaderboard")."""
        _check_id(match_id)
        scores = _check_scores(scores)
        with self._tx(write=True) as conn:
            row = self._lock_match(conn, match_id)
            if row.status != "playing":
                raise ValueError(f"match {match_id} is {row.status}, not playing: it cannot finish")
            self._check_owned(match_id, row)
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
                .values(status="finished", scores=scores, finished_at=_now(), owner=None, lease_until=None)
            )
            settings = conn.execute(sa.select(matches_table.c.settings).where(matches_table.c.id == match_id)).scalar()
            if isinstance(settings, dict) and settings.get("ranked") is True:
                self._rate_match(conn, match_id, scores, self._clock(conn))
        self._forget_match(match_id)

    def abandon_match(self, match_id: int) -> None:
        """Mark a playing match abandoned (kept, never resumed; this releases it); abandoning twice does nothing."""
        _check_id(match_id)
        with self._tx(write=True) as conn:
            row = self._lock_match(conn, match_id)
            if row.status == "abandoned":
                return
            if row.status == "finished":
                raise ValueError(f"match {match_id} is finished: it cannot be abandoned")
            self._check_owned(match_id, row)
            conn.execute(
                sa.update(matches_table)
                .where(matches_table.c.id == match_id)
                .values(status="abandoned", finished_at=_now(), owner=None, lease_until=None)
            )
        self._forget_match(match_id)

    def mark_seen(self, match_id: int) -> None:
        """Note that a client connected to the playing match: a restarted server resumes it."""
        _check_id(match_id)
        with self._tx(write=True) as conn:
            row = self._lock_match(conn, match_id)
            if row.status != "playing":
                raise ValueError(f"match {match_id} is {row.status}, not playing")
            self._check_owned(match_id, row)
            conn.execute(sa.update(matches_table).where(matches_table.c.id == match_id).values(seen=True))

    def discard_match(self, match_id: int) -> None:
        """Delete a playing match with no events (one nobody ever connected to), leaving no trace."""
        _check_id(match_id)
        with self._tx(write=True) as conn:
            row = self._lock_match(conn, match_id)
            if row.status != "playing":
                raise ValueError(f"match {match_id} is {row.status}: only a playing match can be discarded")
            self._check_owned(match_id, row)
            if conn.execute(sa.select(events_table.c.seq).where(events_table.c.match_id == match_id)
                            .limit(1)).first() is not None:
                raise ValueError(f"match {match_id} has events: abandon it instead")
            conn.execute(sa.delete(matches_table).where(matches_table.c.id == match_id))
        self._forget_match(match_id)

    # ---- leases ---------------------------------------------------------------------------

    def claim_matches(self) -> list[dict[str, Any]]:
        """Acquire every playing, seen match that is free for this store; returns them oldest first.

        Free: no owner, or this store, or a lease that ran out, or an owner on this host whose
        process is gone (a server that crashed here is taken over at once).  Matches this store
        already holds are not returned again, so calling this now and then takes over the matches
        of servers that died.  Each is as :meth:`get_match`, with every player key (token hashes
        included: the server needs them to accept the players' old tokens), plus ``"seen"`` and
        ``"fence"``.
        """
        m = matches_table.c
        with self._tx(write=True) as conn:
            now = self._clock(conn)
            candidates = conn.execute(
                sa.select(m.id, m.owner, m.lease_until, m.fence).where(m.status == "playing", m.seen)
            ).all()
            won = self._acquire(conn, matches_table, m.id, candidates, self._fences, now)
            rows = conn.execute(sa.select(matches_table).where(m.id.in_(won)).order_by(m.id)).all() if won else []
        with self._held:
            self._fences.update(won)
        return [{**_match_dict(row, public=False), "seen": row.seen, "fence": row.fence} for row in rows]

    def claim_rooms(self) -> list[dict[str, Any]]:
        """Acquire every waiting room free for this store (as :meth:`claim_matches`); returns
        ``[{"code", "data", "created_at", "updated_at"}]`` oldest first."""
        r = rooms_table.c
        with self._tx(write=True) as conn:
            now = self._clock(conn)
            candidates = conn.execute(sa.select(r.code, r.owner, r.lease_until, r.fence)).all()
            won = self._acquire(conn, rooms_table, r.code, candidates, self._room_fences, now)
            rows = (conn.execute(sa.select(rooms_table).where(r.code.in_(won)).order_by(r.created_at, r.code)).all()
                    if won else [])
        with self._held:
            self._room_fences.update(won)
        return [_room_dict(row) for row in rows]

    def _acquire(self, conn: Connection, table: sa.Table, key: sa.Column[Any],
                 candidates: Sequence[sa.Row[Any, Any, Any, Any]],
                 held: dict[Any, int], now: datetime) -> dict[Any, int]:
        """Take the free ``candidates`` (rows of key, owner, lease_until, fence); returns key -> new fence."""
        with self._held:
            mine = dict(held)
        c = table.c
        won: dict[Any, int] = {}
        dead = self.dead_owners(conn, now) if any(row.owner for row in candidates) else set()
        for row in candidates:
            k = row[0]
            if row.owner == self.owner and mine.get(k) in (row.fence, None):
                # held already: a claim returns a row once.  None: another thread of this store is
                # acquiring it right now (its fence noted after the commit); claimed here, the lobby
                # took it for a stale copy of a room it holds and deleted it
                continue
            if not (self._free(row.owner, row.lease_until, now) or row.owner in dead):
                continue
            # compare-and-set on the lease as read: of two servers racing for a row one matches, and
            # the other (on PostgreSQL, after waiting for the first one's row lock) updates nothing
            result = conn.execute(
                sa.update(table)
                .where(key == k, c.fence == row.fence, c.owner.is_not_distinct_from(row.owner),
                       c.lease_until.is_not_distinct_from(row.lease_until))
                .values(owner=self.owner, lease_until=now + self._lease, fence=c.fence + 1)
            )
            if result.rowcount == 1:
                won[k] = row.fence + 1
        return won

    def renew(self) -> tuple[set[int], set[str]]:
        """Extend the lease of every playing match and every room this store owns; returns the
        match ids and room codes it still holds (one it lost to another server is left out)."""
        m, r = matches_table.c, rooms_table.c
        with self._held:
            before_m, before_r = dict(self._fences), dict(self._room_fences)
        with self._tx(write=True) as conn:
            until = self._clock(conn) + self._lease
            conn.execute(sa.update(matches_table).where(m.status == "playing", m.owner == self.owner)
                         .values(lease_until=until))
            conn.execute(sa.update(rooms_table).where(r.owner == self.owner).values(lease_until=until))
            owned_m: dict[int, int] = {
                row.id: row.fence
                for row in conn.execute(sa.select(m.id, m.fence).where(m.status == "playing", m.owner == self.owner))
            }
            owned_r: dict[str, int] = {
                row.code: row.fence for row in conn.execute(sa.select(r.code, r.fence).where(r.owner == self.owner))
            }
        with self._held:
            _forget_lost(self._fences, before_m, owned_m)
            _forget_lost(self._room_fences, before_r, owned_r)
            # a row the database says is this store's but whose fence it has not noted yet is being
            # acquired in another thread right now (create_match or save_room notes the fence after
            # its commit): still held, not lost
            matches = {k for k, f in owned_m.items() if self._fences.get(k) in (f, None)}
            rooms = {k for k, f in owned_r.items() if self._room_fences.get(k) in (f, None)}
        return matches, rooms

    def release_match(self, match_id: int) -> None:
        """Give up this store's lease on the match (if it has one): another server may take it at once."""
        _check_id(match_id)
        m = matches_table.c
        with self._tx(write=True) as conn:
            conn.execute(sa.update(matches_table).where(m.id == match_id, m.owner == self.owner)
                         .values(owner=None, lease_until=None))
        self._forget_match(match_id)

    def release_room(self, code: str) -> None:
        """Give up this store's lease on the room (if it has one)."""
        _check_str("room code", code, MAX_ROOM)
        r = rooms_table.c
        with self._tx(write=True) as conn:
            conn.execute(sa.update(rooms_table).where(r.code == code, r.owner == self.owner)
                         .values(owner=None, lease_until=None))
        with self._held:
            self._room_fences.pop(code, None)

    def release_all(self) -> None:
        """Give up every lease of this store (a graceful shutdown: a restarted server resumes at once)."""
        with self._tx(write=True) as conn:
            for table in (matches_table, rooms_table):
                conn.execute(sa.update(table).where(table.c.owner == self.owner).values(owner=None, lease_until=None))
        with self._held:
            self._fences.clear()
            self._room_fences.clear()

    # ---- waiting rooms --------------------------------------------------------------------

    def save_room(self, code: str, data: dict[str, Any]) -> None:
        """Store the waiting room ``code`` (``data``: any JSON object), acquiring it if it is new or
        free; :class:`LeaseLost` if another server owns it."""
        _check_str("room code", code, MAX_ROOM)
        _check_object("data", data)
        r = rooms_table.c
        with self._tx(write=True) as conn:
            now = self._clock(conn)
            row = self._take_room(conn, code, now)
            with self._held:
                held = self._room_fences.get(code)
            if row is None:
                fence = 1
                try:
                    conn.execute(sa.insert(rooms_table).values(
                        code=code, data=data, owner=self.owner, lease_until=now + self._lease, fence=fence,
                        created_at=_now(), updated_at=_now()))
                except sa.exc.IntegrityError as e:
                    # PostgreSQL: another server inserted the same code after our SELECT
                    raise LeaseLost(f"room {code} was just created by another server") from e
            else:
                # ours already (held None: another thread of this store saved it a moment ago and has
                # not noted the fence yet): the same fence; anyone else's, or lost and retaken: a new one
                mine = row.owner == self.owner and held in (row.fence, None)
                fence = row.fence if mine else row.fence + 1
                conn.execute(sa.update(rooms_table).where(r.code == code).values(
                    data=data, owner=self.owner, lease_until=now + self._lease, fence=fence, updated_at=_now()))
        with self._held:  # two saves of one room in two threads: the later fence wins, whoever notes it last
            self._room_fences[code] = max(fence, self._room_fences.get(code, 0))

    def delete_room(self, code: str) -> None:
        """Delete the waiting room (none: nothing to do); :class:`LeaseLost` if another server owns it."""
        _check_str("room code", code, MAX_ROOM)
        with self._tx(write=True) as conn:
            if self._take_room(conn, code, self._clock(conn)) is not None:
                conn.execute(sa.delete(rooms_table).where(rooms_table.c.code == code))
        with self._held:
            self._room_fences.pop(code, None)

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
        "finished_at", "settings"}`` (timestamps: UTC ISO 8601), or None for an unknown id.  Player
        keys starting with ``token`` (the server's token hashes) are left out."""
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
        """Every match still ``playing``, whoever owns it, oldest first (for tools; a server claims
        with :meth:`claim_matches`).  As :meth:`get_match`, with every player key."""
        query = sa.select(matches_table).where(matches_table.c.status == "playing").order_by(matches_table.c.id)
        with self._tx() as conn:
            return [_match_dict(row, public=False) for row in conn.execute(query)]

    def player_matches(self, name: str | None = None, player_id: str | None = None, *,
                       event_types: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """The finished matches in which a person named ``name`` sat (with ``player_id``: a person
        of that name with that id), oldest first (by when they finished), for the statistics
        (:mod:`tjmj.stats`).  Each is as :meth:`get_match`, but its players keep their
        ``player_id`` (never the token hashes), plus ``"events"``: its stored events in order, only
        those of ``event_types`` when given.  ``name`` None: every finished match with a person in it.

        Found through the indexed ``match_players`` table; one query for the matches and one per
        200 of them for the events, all in one transaction (a consistent snapshot)."""
        if name is not None:
            _check_str("name", name, MAX_NAME)
        if player_id is not None and (not isinstance(player_id, str) or not PLAYER_ID_RE.match(player_id)):
            raise ValueError(f"a player id is 16 to 32 of A-Z a-z 0-9 _ -, got {player_id!r}")
        if player_id is not None and name is None:
            raise ValueError("a player id needs the player's name")
        types = None if event_types is None else sorted(set(event_types))
        m, mp, e = matches_table.c, match_players_table.c, events_table.c
        seats = sa.select(mp.match_id).where(mp.kind == "human")
        if name is not None:
            seats = seats.where(mp.name == name)
        if player_id is not None:
            seats = seats.where(mp.player_id == player_id)
        query = (sa.select(matches_table).where(m.status == "finished", m.id.in_(seats))
                 .order_by(m.finished_at, m.id))
        with self._tx() as conn:
            out = [{**_match_dict(row, public=False), "events": []} for row in conn.execute(query)]
            for match in out:
                match["players"] = [{k: v for k, v in p.items() if not k.startswith(_TOKEN)}
                                    for p in match["players"]]
            by_id = {match["id"]: match for match in out}
            ids = list(by_id)
            for start in range(0, len(ids), _BATCH):
                events = sa.select(e.match_id, e.body).where(e.match_id.in_(ids[start:start + _BATCH]))
                if types is not None:
                    events = events.where(e.type.in_(types))
                for row in conn.execute(events.order_by(e.match_id, e.seq)):
                    by_id[row.match_id]["events"].append(orjson.loads(row.body))
        return out

    def close(self) -> None:
        """Close every pooled connection; the store cannot be used afterwards (leases are kept:
        call :meth:`release_all` first to hand them over at once)."""
        if not self._closed:
            self._closed = True
            self._engine.dispose()
