"""The web store (tjmj.web.store): migrations, validation, atomic appends, replay, restarts, threads,
leases between servers, waiting rooms, bounded waits, and a SQLite file lost under a running store.

Every test runs on a fresh SQLite file; with ``TJMJ_TEST_POSTGRES_URL`` set (a throwaway database:
its tables are dropped before each test) the database tests run on PostgreSQL as well.
"""

from __future__ import annotations

import io
import math
import os
import random
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from functools import cache, partial
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from tests.conftest import postgres_lock
from tjmj.game import Match
from tjmj.record import read_records, replay
from tjmj.rules import Rules
from tjmj.web import store as store_mod
from tjmj.web.store import (
    ENV_URL,
    DatabaseLost,
    DatabaseUnwritable,
    JSONText,
    LeaseLost,
    Store,
    UTCDateTime,
    alembic_config,
    metadata,
    rooms_table,
    upgrade,
)

Events = list[dict[str, Any]]
PG_URL = os.environ.get("TJMJ_TEST_POSTGRES_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])
PLAYERS = [
    {"seat": 0, "name": "alice", "kind": "human", "bot": None},
    {"seat": 1, "name": "bob", "kind": "bot", "bot": "baseline"},
    {"seat": 2, "name": "carol", "kind": "human"},  # "bot" may be left out for a human
    {"seat": 3, "name": "dave", "kind": "bot", "bot": "random", "player": 0},  # the server's own fields are kept
]
RULES = Rules.preset("classic", match_hands=4)


def _reset_postgres(url: str) -> None:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            metadata.drop_all(conn, checkfirst=True)
            conn.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
    finally:
        engine.dispose()


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database (PostgreSQL's held for the test alone: ``postgres_lock``)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tjmj.sqlite3'}"
        return
    assert PG_URL is not None
    with postgres_lock():
        _reset_postgres(PG_URL)
        yield PG_URL


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    s = Store(url)
    yield s
    s.close()


@cache
def played(seed: int = 11) -> tuple[Events, list[int]]:
    """A classic 4-hand match played by a random legal policy: its events and final scores."""
    m = Match(RULES, seed=seed)
    rng = random.Random(seed)
    while not m.is_over:
        m.apply(m.to_act, rng.choice(m.legal_actions(m.to_act)))
    return m.events, list(m.scores)


def batches(events: Events) -> list[Events]:
    """The server's appends: start_game with the first hand, then each hand to its end_kyoku, then end_game."""
    out: list[Events] = []
    cur: Events = []
    for ev in events:
        cur.append(ev)
        if ev["type"] in ("end_kyoku", "end_game"):
            out.append(cur)
            cur = []
    assert not cur
    return out


def new_match(store: Store, room: str = "room-1", seed: int = 11) -> int:
    return store.create_match(room, RULES.to_dict(), seed, PLAYERS)


def statements(fn: Any) -> list[str]:
    """The SQL every engine runs while ``fn()`` runs."""
    seen: list[str] = []

    def hook(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    sa.event.listen(sa.engine.Engine, "before_cursor_execute", hook)
    try:
        fn()
    finally:
        sa.event.remove(sa.engine.Engine, "before_cursor_execute", hook)
    return seen


# ---- migrations -----------------------------------------------------------------------------


def test_migration_history_has_a_single_head() -> None:
    script = ScriptDirectory.from_config(alembic_config())
    assert script.get_heads() == ["0008"]
    revisions = list(script.walk_revisions())
    files = sorted(p.name for p in (store_mod.MIGRATIONS / "versions").glob("*.py"))
    assert len(revisions) == len(files)  # every file is in the one chain
    assert revisions[-1].down_revision is None


def test_upgrade_creates_the_schema_then_does_nothing(url: str) -> None:
    assert upgrade(url) is True
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            assert {"matches", "events", "rooms", "alembic_version"} <= set(sa.inspect(conn).get_table_names())
            assert MigrationContext.configure(conn).get_current_heads() == ("0008",)
            # the migration builds exactly the schema the store's queries are written against
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    finally:
        engine.dispose()
    assert upgrade(url) is False
    Store(url).close()
    ddl = statements(lambda: Store(url).close())  # a second open: reads the version, changes nothing
    assert not [s for s in ddl if s.split()[0].upper() in ("CREATE", "ALTER", "DROP", "INSERT", "UPDATE")]


def test_alembic_command_upgrade(url: str) -> None:
    """``alembic upgrade head`` through the plain command API (no connection passed in)."""
    command.upgrade(alembic_config(url), "head")
    with Store(url) as s:
        assert s.list_matches() == []
    command.downgrade(alembic_config(url), "base")
    engine = sa.create_engine(url)
    try:
        assert "matches" not in sa.inspect(engine).get_table_names()
    finally:
        engine.dispose()


def test_postgresql_ddl_renders_offline() -> None:
    """The migration is dialect-neutral: its PostgreSQL DDL renders without a server."""
    cfg = alembic_config("postgresql+psycopg://user@localhost/tjmj")
    cfg.output_buffer = io.StringIO()
    command.upgrade(cfg, "head", sql=True)
    sql = cfg.output_buffer.getvalue()
    assert "CREATE TABLE matches" in sql and "CREATE TABLE events" in sql and "CREATE TABLE rooms" in sql
    assert "ALTER TABLE matches ADD COLUMN seen BOOLEAN DEFAULT false NOT NULL" in sql
    assert "TIMESTAMP WITH TIME ZONE" in sql and "PRIMARY KEY (match_id, seq)" in sql


def test_a_newer_schema_is_refused(url: str) -> None:
    upgrade(url)
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
    finally:
        engine.dispose()
    with pytest.raises(RuntimeError, match="9999"):
        Store(url)


# ---- the stored match ------------------------------------------------------------------------


def test_a_played_match_comes_back_and_replays(store: Store) -> None:
    events, scores = played()
    mid = new_match(store)
    for i, batch in enumerate(batches(events)):
        store.append_events(mid, batch)
        info = store.get_match(mid)
        assert info is not None and info["status"] == "playing"
        assert info["hands"] == min(i + 1, RULES.match_hands)
    store.finish_match(mid, scores)
    assert store.events(mid) == events
    assert replay(store.events(mid)).ok
    (from_file,) = list(read_records(io.BytesIO(store.record_jsonl(mid))))
    assert from_file == events
    info = store.get_match(mid)
    assert info is not None
    assert info["status"] == "finished" and info["scores"] == scores and info["hands"] == 4
    assert info["rules"] == RULES.to_dict() and info["seed"] == 11 and info["room"] == "room-1"
    assert info["players"][2] == {"seat": 2, "name": "carol", "kind": "human", "bot": None}
    assert info["players"][3] == PLAYERS[3]
    created = datetime.fromisoformat(info["created_at"])
    finished = datetime.fromisoformat(info["finished_at"])
    assert created.utcoffset() == finished.utcoffset() == UTC.utcoffset(None)
    assert created <= finished <= datetime.now(UTC)
    assert store.unfinished_matches() == []


def test_a_new_match(store: Store) -> None:
    mid = new_match(store)
    info = store.get_match(mid)
    assert info is not None
    assert set(info) == {"id", "room", "status", "rules", "seed", "players", "scores", "hands", "created_at",
                         "finished_at", "settings"}
    assert info["settings"] is None
    assert info["id"] == mid and info["status"] == "playing" and info["hands"] == 0
    assert info["scores"] is None and info["finished_at"] is None
    assert store.events(mid) == [] and store.record_jsonl(mid) == b""
    assert store.get_match(mid + 1000) is None
    assert store.create_match("r", {}, -(1 << 63), list(reversed(PLAYERS))) != mid  # players sorted by seat
    assert [p["seat"] for p in store.list_matches()[0]["players"]] == [0, 1, 2, 3]


def test_append_is_all_or_nothing_when_an_event_cannot_be_stored(store: Store) -> None:
    events, _ = played()
    first, second = batches(events)[:2]
    mid = new_match(store)
    store.append_events(mid, first)
    bad = [second[0], {"type": "dahai", "pai": object()}, *second[1:]]  # ends with end_kyoku: hands += 1 first
    with pytest.raises(TypeError, match="event 1"):
        store.append_events(mid, bad)
    assert store.events(mid) == first
    assert store.get_match(mid)["hands"] == 1  # type: ignore[index]
    store.append_events(mid, second)  # the same seqs are free: nothing was left behind
    assert store.events(mid) == first + second


def test_append_is_all_or_nothing_when_the_database_fails(store: Store) -> None:
    events, _ = played()
    first, second = batches(events)[:2]
    mid = new_match(store)
    store.append_events(mid, first)

    def fail(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO EVENTS"):
            raise RuntimeError("disk full")  # after the rows were written

    sa.event.listen(store.engine, "after_cursor_execute", fail)
    try:
        with pytest.raises(RuntimeError, match="disk full"):
            store.append_events(mid, second)
    finally:
        sa.event.remove(store.engine, "after_cursor_execute", fail)
    assert store.events(mid) == first
    assert store.get_match(mid)["hands"] == 1  # type: ignore[index]


# ---- validation ----------------------------------------------------------------------------


def test_unknown_match_ids(store: Store) -> None:
    for call in (
        lambda: store.append_events(4242, []),
        lambda: store.finish_match(4242, [0, 0, 0, 0]),
        lambda: store.abandon_match(4242),
        lambda: store.events(4242),
        lambda: store.record_jsonl(4242),
    ):
        with pytest.raises(KeyError, match="4242"):
            call()
    assert store.get_match(4242) is None
    for bad_id in ("1", 1.0, True, None):
        with pytest.raises(TypeError):
            store.events(bad_id)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            store.get_match(bad_id)  # type: ignore[arg-type]


def _last(**changes: Any) -> dict[str, Any]:
    """Seat 3's player with ``changes``."""
    return {**PLAYERS[3], **changes}


@pytest.mark.parametrize(
    ("room", "rules", "seed", "players", "error"),
    [
        ("", {}, 1, PLAYERS, ValueError),
        ("x" * 201, {}, 1, PLAYERS, ValueError),
        (None, {}, 1, PLAYERS, TypeError),
        ("r", [], 1, PLAYERS, TypeError),
        ("r", {"x": object()}, 1, PLAYERS, TypeError),
        ("r", {1: 2}, 1, PLAYERS, TypeError),
        ("r", {}, "1", PLAYERS, TypeError),
        ("r", {}, True, PLAYERS, TypeError),
        ("r", {}, 1 << 63, PLAYERS, ValueError),
        ("r", {}, 1, PLAYERS[:3], ValueError),
        ("r", {}, 1, [*PLAYERS[:3], _last(seat=2)], ValueError),
        ("r", {}, 1, [*PLAYERS[:3], _last(seat=4)], ValueError),
        ("r", {}, 1, [*PLAYERS[:3], _last(kind="robot")], ValueError),
        ("r", {}, 1, [*PLAYERS[:3], _last(bot=None)], TypeError),
        ("r", {}, 1, [*PLAYERS[:3], _last(kind="human")], ValueError),
        ("r", {}, 1, [*PLAYERS[:3], _last(name="")], ValueError),
        ("r", {}, 1, [*PLAYERS[:3], _last(token=object())], TypeError),
        ("r", {}, 1, [*PLAYERS[:3], {**PLAYERS[3], 3: "x"}], TypeError),
        ("r", {}, 1, [*PLAYERS[:3], "dave"], TypeError),
    ],
)
def test_create_match_validates(store: Store, room: Any, rules: Any, seed: Any, players: Any,
                                error: type[Exception]) -> None:
    with pytest.raises(error):
        store.create_match(room, rules, seed, players)
    assert store.list_matches() == []


def test_append_validates(store: Store) -> None:
    events, scores = played()
    mid = new_match(store)
    for bad in ({"type": "start_game"}, [{"no": "type"}], [{"type": ""}], [{"type": "x" * 33}], ["start_game"]):
        with pytest.raises((TypeError, ValueError)):
            store.append_events(mid, bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="start_game"):
        store.append_events(mid, events[1:5])  # a record opens with start_game
    store.append_events(mid, [])  # nothing to do
    store.append_events(mid, events[:1])
    with pytest.raises(ValueError, match="start_game"):
        store.append_events(mid, events[:1])  # only once
    with pytest.raises(ValueError, match="after end_game"):
        store.append_events(mid, [events[-1], events[1]])
    store.append_events(mid, events[1:])
    with pytest.raises(ValueError, match="end_game"):
        store.append_events(mid, events[1:2])  # nothing after end_game
    with pytest.raises(ValueError, match="differ"):
        store.finish_match(mid, [s + 1 for s in scores])  # must agree with the stored end_game
    for bad_scores in ([0, 0, 0], [0, 0, 0, "0"], None, [0, 0, 0, True]):
        with pytest.raises(ValueError):
            store.finish_match(mid, bad_scores)  # type: ignore[arg-type]
    assert store.events(mid) == events


def test_finished_and_abandoned_matches_are_closed(store: Store) -> None:
    events, scores = played()
    done, gone = new_match(store), new_match(store)
    store.append_events(done, events)
    store.finish_match(done, scores)
    with pytest.raises(ValueError, match="finished"):
        store.append_events(done, [{"type": "dahai"}])
    with pytest.raises(ValueError, match="finished"):
        store.append_events(done, [])
    with pytest.raises(ValueError, match="finished"):
        store.finish_match(done, scores)
    with pytest.raises(ValueError, match="finished"):
        store.abandon_match(done)
    store.append_events(gone, batches(events)[0])
    store.abandon_match(gone)
    store.abandon_match(gone)  # twice: nothing more
    info = store.get_match(gone)
    assert info is not None and info["status"] == "abandoned" and info["finished_at"] is not None
    assert info["hands"] == 1 and info["scores"] is None
    with pytest.raises(ValueError, match="abandoned"):
        store.append_events(gone, batches(events)[1])
    with pytest.raises(ValueError, match="abandoned"):
        store.finish_match(gone, scores)
    assert store.unfinished_matches() == []
    assert store.get_match(done)["status"] == "finished"  # type: ignore[index]


def test_list_matches(store: Store) -> None:
    ids = [new_match(store, room=f"room-{i}") for i in range(5)]
    store.abandon_match(ids[1])
    store.abandon_match(ids[3])
    assert [m["id"] for m in store.list_matches()] == ids[::-1]  # newest first
    assert [m["id"] for m in store.list_matches(limit=2, offset=1)] == [ids[3], ids[2]]
    assert [m["id"] for m in store.list_matches(status="abandoned")] == [ids[3], ids[1]]
    assert [m["id"] for m in store.list_matches(status="playing")] == [ids[4], ids[2], ids[0]]
    assert store.list_matches(status="finished") == []
    assert store.list_matches(limit=0) == []
    assert store.list_matches()[0] == store.get_match(ids[4])
    for kwargs in ({"status": "done"}, {"limit": -1}, {"limit": 1001}, {"offset": -1}, {"limit": "5"}):
        with pytest.raises(ValueError):
            store.list_matches(**kwargs)


# ---- restarts, threads, configuration -------------------------------------------------------


def test_a_restart_finds_the_unfinished_matches(url: str) -> None:
    events, scores = played()
    parts = batches(events)
    with Store(url) as s:
        playing, done, fresh = new_match(s), new_match(s), new_match(s, seed=5)
        s.append_events(playing, parts[0] + parts[1])
        s.append_events(done, events)
        s.finish_match(done, scores)
        s.mark_seen(playing)  # fresh: nobody connected, not worth resuming
        s.release_all()  # a graceful shutdown
    # a server started again on the same database: resume where the hands left off
    with Store(url) as s:
        unfinished = s.unfinished_matches()
        assert [m["id"] for m in unfinished] == [playing, fresh]
        assert unfinished[0]["hands"] == 2 and unfinished[1]["seed"] == 5
        assert [m["id"] for m in s.claim_matches()] == [playing]  # a new store writes what it claimed
        assert s.events(playing) == parts[0] + parts[1]
        for part in parts[2:]:
            s.append_events(playing, part)
        s.finish_match(playing, scores)
        assert replay(s.events(playing)).ok
        assert [m["id"] for m in s.unfinished_matches()] == [fresh]
    with pytest.raises(RuntimeError, match="closed"):
        s.events(playing)


def test_threads_share_a_store(store: Store) -> None:
    events, scores = played()
    parts = batches(events)

    def play_one(room: int) -> int:
        mid = new_match(store, room=f"room-{room}")
        for part in parts:
            store.append_events(mid, part)
            store.list_matches(limit=5)
        store.finish_match(mid, scores)
        return mid

    shared = new_match(store, room="shared")
    store.append_events(shared, events[:1])

    def note(i: int) -> None:
        store.append_events(shared, [{"type": "note", "n": i, "k": k} for k in range(3)])

    with ThreadPoolExecutor(max_workers=8) as pool:
        mids = list(pool.map(play_one, range(8)))
        list(pool.map(note, range(40)))
    for mid in mids:
        assert store.events(mid) == events
    notes = store.events(shared)[1:]
    assert len(notes) == 120
    for i in range(0, 120, 3):  # each append stayed whole and in order
        assert [ev["k"] for ev in notes[i:i + 3]] == [0, 1, 2] and len({ev["n"] for ev in notes[i:i + 3]}) == 1
    assert sorted(ev["n"] for ev in notes[::3]) == list(range(40))


def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(sa.exc.IntegrityError), store.engine.begin() as conn:
        conn.execute(store_mod.events_table.insert().values(match_id=999, seq=0, type="x", body="{}"))


def test_sqlite_is_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    with Store(f"sqlite:///{path}") as s:
        with s.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        new_match(s)
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # kept in the file
        assert raw.execute("SELECT count(*) FROM matches").fetchone() == (1,)
    finally:
        raw.close()


def test_in_memory_sqlite() -> None:
    with Store("sqlite://") as s:
        mid = new_match(s)
        events, _ = played()
        with ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(lambda _: s.list_matches(), range(8)))
        s.append_events(mid, events)
        assert s.events(mid) == events


def test_the_default_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_URL, f"sqlite:///{tmp_path / 'from-env.sqlite3'}")
    with Store() as s:
        assert s.url == f"sqlite:///{tmp_path / 'from-env.sqlite3'}"
        new_match(s)
    assert (tmp_path / "from-env.sqlite3").exists()
    monkeypatch.delenv(ENV_URL)
    data = tmp_path / "user" / "data"
    monkeypatch.setattr(store_mod.platformdirs, "user_data_dir", lambda app: str(data / app))
    with Store() as s:
        assert s.url == f"sqlite:///{data / 'tianjin-mahjong' / 'tjmj.sqlite3'}"
        assert s.list_matches() == []
    assert (data / "tianjin-mahjong" / "tjmj.sqlite3").exists()


def test_record_jsonl_is_one_event_a_line(store: Store) -> None:
    events, _ = played()
    mid = new_match(store)
    store.append_events(mid, events)
    lines = store.record_jsonl(mid).splitlines()
    assert [orjson.loads(line) for line in lines] == events


# ---- upgrading from 0001 ---------------------------------------------------------------------


def test_upgrade_from_0001_keeps_the_matches_and_their_events(url: str) -> None:
    """A database made by the previous version, with a match in play, upgrades in place: nothing lost."""
    events, scores = played()
    first, second = batches(events)[:2]
    command.upgrade(alembic_config(url), "0001")
    old = sa.table(  # the 0001 schema, as the previous version wrote it
        "matches", sa.column("id", sa.Integer), sa.column("room", sa.String), sa.column("status", sa.String),
        sa.column("rules", JSONText), sa.column("seed", sa.BigInteger), sa.column("players", JSONText),
        sa.column("hands", sa.Integer), sa.column("created_at", UTCDateTime), sa.column("scores", JSONText),
        sa.column("finished_at", UTCDateTime),
    )
    now = datetime.now(UTC)
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(old.insert().values(id=1, room="old", status="playing", rules=RULES.to_dict(), seed=11,
                                             players=PLAYERS, hands=1, created_at=now))
            conn.execute(old.insert().values(id=2, room="done", status="finished", rules=RULES.to_dict(), seed=11,
                                             players=PLAYERS, hands=4, created_at=now, scores=scores,
                                             finished_at=now))
            conn.execute(store_mod.events_table.insert(),
                         [{"match_id": 1, "seq": i, "type": ev["type"], "body": orjson.dumps(ev).decode()}
                          for i, ev in enumerate(first)])
            if engine.dialect.name == "postgresql":  # rows inserted with explicit ids: move the sequence on
                conn.execute(sa.text("SELECT setval('matches_id_seq', 2)"))
    finally:
        engine.dispose()
    with Store(url) as s:
        with s.engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_heads() == ("0008",)
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
        assert s.events(1) == first  # the copy-free ALTER kept every event (no ON DELETE CASCADE)
        info = s.get_match(2)
        assert info is not None and info["status"] == "finished" and info["settings"] is None
        (claimed,) = s.claim_matches()  # a match from before counts as seen: it is resumed
        assert claimed["id"] == 1 and claimed["seen"] is True and claimed["fence"] == 1
        assert claimed["hands"] == 1 and claimed["players"][3] == PLAYERS[3]
        s.append_events(1, second, at=len(first))
        assert new_match(s) == 3
        s.release_all()
    # and back: dropping the columns in place keeps the events too
    command.downgrade(alembic_config(url), "0001")
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM events WHERE match_id = 1")).scalar() == len(
                first + second)
            assert "rooms" not in sa.inspect(conn).get_table_names()
    finally:
        engine.dispose()


# ---- store arguments and bounded waits ----------------------------------------------------------


def test_owner_and_arguments(url: str) -> None:
    with Store(url) as a, Store(url) as b:
        host, pid, tag = a.owner.rsplit(":", 2)
        assert host == socket.gethostname() and pid == str(os.getpid()) and re.fullmatch("[0-9a-f]{8}", tag)
        assert a.owner != b.owner
    with Store(url, owner="server-1") as s:
        assert s.owner == "server-1"
    for kwargs in ({"owner": ""}, {"owner": "x" * 201}, {"lease_s": 0}, {"lease_s": -1.0}, {"lease_s": math.nan},
                   {"lease_s": math.inf}, {"lease_s": True}, {"timeout": 0}, {"timeout": "5"}):
        with pytest.raises(ValueError):
            Store(url, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Store(url, owner=3)  # type: ignore[arg-type]


def test_waits_are_bounded(url: str) -> None:
    """The store's ``timeout`` and the connection settings reach the driver."""
    seen: list[dict[str, Any]] = []
    with Store(url, timeout=2.5) as s:
        sa.event.listen(s.engine, "do_connect", lambda dialect, rec, cargs, cparams: seen.append(dict(cparams)))
        s.engine.dispose()  # the next call opens a new connection
        assert s.list_matches() == []
        (cparams,) = seen
        if s.engine.dialect.name == "sqlite":
            assert cparams["timeout"] == 2.5
            return
        assert cparams["connect_timeout"] == 5
        assert {k: cparams[k] for k in ("keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count")} \
            == {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 3}
        assert s.engine.pool.timeout() == 5  # type: ignore[attr-defined]
        with s.engine.connect() as conn:
            assert conn.exec_driver_sql("SHOW statement_timeout").scalar() == "2500ms"
            assert conn.exec_driver_sql("SHOW lock_timeout").scalar() == "2500ms"


def test_a_held_lock_fails_the_call_instead_of_hanging(url: str, tmp_path: Path) -> None:
    with Store(url, timeout=0.5) as s:
        mid = new_match(s)
        if s.engine.dialect.name == "sqlite":
            path = sa.make_url(url).database
            assert path is not None
            other = sqlite3.connect(path, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")  # another process holding the write lock
        else:
            engine = sa.create_engine(url)
            conn = engine.connect()
            conn.execute(sa.text("SELECT 1 FROM matches WHERE id = :id FOR UPDATE"), {"id": mid})
        try:
            start = time.monotonic()
            with pytest.raises(sa.exc.OperationalError):
                s.append_events(mid, played()[0][:1])
            assert time.monotonic() - start < 5
        finally:
            if s.engine.dialect.name == "sqlite":
                other.close()
            else:
                conn.close()
                engine.dispose()
        s.append_events(mid, played()[0][:1])  # the lock gone, it works again


# ---- leases: several servers on one database ------------------------------------------------


def seen_match(store: Store, room: str = "room-1", **kwargs: Any) -> int:
    """A match a client connected to (claimable after a restart)."""
    return store.create_match(room, RULES.to_dict(), 11, PLAYERS, seen=True, **kwargs)


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", ""])
    proc.wait()
    return proc.pid


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls at the same moment, one thread each; their results in order."""
    gate = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        gate.wait()
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def owned_writes(store: Store, mid: int) -> list[Callable[[], Any]]:
    events, scores = played()
    return [
        lambda: store.append_events(mid, events[:1]),
        lambda: store.append_events(mid, events[:1], at=0),
        lambda: store.finish_match(mid, scores),
        lambda: store.abandon_match(mid),
        lambda: store.mark_seen(mid),
        lambda: store.discard_match(mid),
    ]


def test_a_match_is_written_only_by_its_owner(url: str) -> None:
    with Store(url) as a, Store(url) as b:
        mid, fresh = seen_match(a), new_match(a)
        assert b.claim_matches() == []  # a is alive and its lease runs
        before = a.get_match(mid)
        for write in owned_writes(b, mid):
            with pytest.raises(LeaseLost, match=rf"match {mid} is owned by another server \({re.escape(a.owner)}\)"):
                write()
        assert a.get_match(mid) == before and a.events(mid) == []
        assert [m["id"] for m in b.unfinished_matches()] == [mid, fresh]  # tools still see everything
        a.append_events(mid, played()[0][:1])  # the owner writes on
        assert a.claim_matches() == []  # what a holds is not returned again
    with Store(url, owner="elsewhere:1:x") as c, Store(url, owner="no-pid-here") as d, Store(url) as e:
        theirs = [seen_match(c), seen_match(d)]
        assert e.claim_matches() == []  # another host, or an owner that says nothing: alive until the lease ends
        with pytest.raises(LeaseLost, match="elsewhere:1:x"):
            e.mark_seen(theirs[0])


def test_racing_claims_never_share_a_match(url: str) -> None:
    with Store(url) as maker:
        mids = [seen_match(maker, room=f"r{i}") for i in range(12)]
        maker.release_all()
    stores = [Store(url) for _ in range(3)]
    try:
        for _ in range(3):
            got = [[m["id"] for m in claimed] for claimed in race([s.claim_matches for s in stores])]
            assert sorted(sum(got, [])) == mids  # every match once
            for s, ids in zip(stores, got, strict=True):
                assert s.renew()[0] == set(ids)
                for mid in ids:
                    s.mark_seen(mid)  # an owned write works for its one owner
                s.release_all()
    finally:
        for s in stores:
            s.close()


def test_an_expired_lease_is_taken_over(url: str) -> None:
    events, scores = played()
    first, second, *rest = batches(events)
    with Store(url, lease_s=0.3) as a, Store(url) as b:
        mid = seen_match(a)
        a.append_events(mid, first)
        time.sleep(0.4)  # a froze: no renewal
        (claimed,) = b.claim_matches()
        assert claimed["id"] == mid and claimed["fence"] == 2 and claimed["hands"] == 1
        with pytest.raises(LeaseLost, match=re.escape(f"({b.owner})")):
            a.append_events(mid, second)  # a wakes up: its stale write is refused
        assert a.renew() == (set(), set())
        b.append_events(mid, second, at=len(first))
        for part in rest:
            b.append_events(mid, part)
        b.finish_match(mid, scores)
        assert b.events(mid) == events


def test_a_dead_owner_on_this_host_is_taken_over_at_once(url: str) -> None:
    with Store(url, owner=f"{socket.gethostname()}:{dead_pid()}:gone") as a, Store(url) as b:
        mid = seen_match(a)  # a long lease, but its process is gone
        a.save_room("ROOM", {"n": 1})
        assert [m["id"] for m in b.claim_matches()] == [mid]
        assert [r["code"] for r in b.claim_rooms()] == ["ROOM"]
        b.mark_seen(mid)
        with pytest.raises(LeaseLost):
            a.mark_seen(mid)


def test_renew_keeps_the_leases_until_they_are_lost(url: str) -> None:
    with Store(url, lease_s=1.0) as a, Store(url) as b:
        m1, m2 = seen_match(a), seen_match(a)
        a.save_room("R1", {})
        time.sleep(1.1)  # expired, but nobody took them: renewing still works
        assert a.renew() == ({m1, m2}, {"R1"})
        assert b.claim_matches() == [] and b.claim_rooms() == []
        sql = statements(a.renew)  # cheap: a few statements whatever a holds
        assert sum(q.lstrip().upper().startswith("UPDATE") for q in sql) == 2
        assert sum(q.lstrip().upper().startswith("SELECT") for q in sql) <= 3
        a.abandon_match(m2)  # no longer playing: no longer leased
        assert a.renew() == ({m1}, {"R1"})
        time.sleep(1.1)
        assert [m["id"] for m in b.claim_matches()] == [m1]
        assert [r["code"] for r in b.claim_rooms()] == ["R1"]
        assert a.renew() == (set(), set())
        assert b.renew() == ({m1}, {"R1"})
        with pytest.raises(LeaseLost):
            a.save_room("R1", {"stale": True})


def test_renew_keeps_a_row_acquired_in_another_thread_at_that_moment(url: str) -> None:
    """create_match and save_room note the new fence after their commit: a renewal running between
    the two (every second in a cluster) must not count the row as lost (it did: the room stopped,
    "kept by another server", with one process)."""
    with Store(url) as a:
        mid = seen_match(a)
        a.save_room("R9", {})
        with a._held:  # the moment between the commit and the noting of the fence
            a._fences.pop(mid)
            a._room_fences.pop("R9")
        assert a.renew() == ({mid}, {"R9"})
        assert a.claim_matches() == [] and a.claim_rooms() == []  # nor claimed again as if someone else's


def test_two_saves_of_a_new_room_racing_in_one_store_keep_it(url: str) -> None:
    """The second save runs after the first one's commit but before it noted the fence: it must not
    raise the fence (it did, and the first then noted the old one: renew counted the room lost)."""
    with Store(url) as a:
        a.save_room("R7", {"n": 1})
        with a._held:
            noted = a._room_fences.pop("R7")  # as if the first save had not noted it yet
        a.save_room("R7", {"n": 2})  # the second save
        assert room_rows(a)["R7"].fence == noted == 1  # not raised: the first save's note still holds
        assert a.renew()[1] == {"R7"}


def test_release_hands_everything_over_at_once(url: str) -> None:
    with Store(url) as a, Store(url) as b:
        m1, m2 = seen_match(a), seen_match(a)
        a.save_room("R1", {})
        a.save_room("R2", {})
        a.release_match(m1)
        a.release_room("R1")
        with pytest.raises(LeaseLost, match=f"match {m1}: this server's lease on it ended"):
            a.mark_seen(m1)
        assert a.renew() == ({m2}, {"R2"})
        assert [m["id"] for m in b.claim_matches()] == [m1]
        assert [r["code"] for r in b.claim_rooms()] == ["R1"]
        a.release_all()  # a graceful shutdown
        assert a.renew() == (set(), set())
        assert [m["id"] for m in b.claim_matches()] == [m2]
        assert [r["code"] for r in b.claim_rooms()] == ["R2"]
        assert b.renew() == ({m1, m2}, {"R1", "R2"})
        a.release_match(m1)  # not a's: nothing happens
        assert b.renew() == ({m1, m2}, {"R1", "R2"})


# ---- waiting rooms ---------------------------------------------------------------------------


def room_rows(store: Store) -> dict[str, Any]:
    with store.engine.connect() as conn:
        return {row.code: row for row in conn.execute(sa.select(rooms_table))}


def test_rooms_save_claim_update_delete(url: str) -> None:
    with Store(url) as a, Store(url) as b:
        a.save_room("ZZZZ", {"timer": 20, "bot": "strong", "seats": [None, "alice"]})
        a.save_room("AAAA", {"timer": 0})
        assert a.claim_rooms() == []  # held already
        with pytest.raises(LeaseLost, match=re.escape(f"room ZZZZ is owned by another server ({a.owner})")):
            b.save_room("ZZZZ", {})
        with pytest.raises(LeaseLost):
            b.delete_room("ZZZZ")
        with pytest.raises(LeaseLost):
            b.create_match("ZZZZ", RULES.to_dict(), 1, PLAYERS, replaces_room="ZZZZ")
        assert b.list_matches() == []  # no match without the room
        a.save_room("ZZZZ", {"timer": 30})  # an update keeps the fence and created_at
        row = room_rows(a)["ZZZZ"]
        assert row.data == {"timer": 30} and row.fence == 1 and row.updated_at > row.created_at
        a.release_all()
        claimed = b.claim_rooms()
        assert [r["code"] for r in claimed] == ["ZZZZ", "AAAA"]  # oldest first
        assert claimed[0]["data"] == {"timer": 30} and set(claimed[0]) == {"code", "data", "created_at", "updated_at"}
        assert datetime.fromisoformat(claimed[0]["created_at"]) < datetime.fromisoformat(claimed[0]["updated_at"])
        b.delete_room("ZZZZ")
        b.delete_room("ZZZZ")  # gone: nothing to do
        b.delete_room("NONE")
        assert set(room_rows(a)) == {"AAAA"}
        for bad in ({"code": "", "data": {}}, {"code": "x" * 201, "data": {}}):
            with pytest.raises(ValueError):
                a.save_room(**bad)
        for bad in ({"code": 5, "data": {}}, {"code": "C", "data": []}, {"code": "C", "data": {"x": object()}}):
            with pytest.raises(TypeError):
                a.save_room(**bad)


def test_racing_saves_of_a_new_room(url: str) -> None:
    stores = [Store(url) for _ in range(2)]
    try:
        def save(s: Store, code: str) -> str:
            try:
                s.save_room(code, {"by": s.owner})
            except LeaseLost:
                return "lost"
            return "saved"

        for i in range(5):
            outcomes = race([partial(save, s, f"R{i}") for s in stores])
            assert sorted(outcomes) == ["lost", "saved"]
    finally:
        for s in stores:
            s.close()


def test_a_match_replaces_its_waiting_room_in_one_transaction(url: str) -> None:
    with Store(url) as a:
        a.save_room("ROOM", {"timer": 20})
        mid = a.create_match("ROOM", RULES.to_dict(), 11, PLAYERS, settings={"timer": 20}, replaces_room="ROOM")
        assert room_rows(a) == {} and a.renew() == ({mid}, set())
        a.create_match("GONE", RULES.to_dict(), 11, PLAYERS, replaces_room="GONE")  # no such room: fine
        a.save_room("NEXT", {})

        def fail(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            if statement.lstrip().upper().startswith("INSERT INTO MATCHES"):
                raise RuntimeError("disk full")

        sa.event.listen(a.engine, "after_cursor_execute", fail)
        try:
            with pytest.raises(RuntimeError, match="disk full"):
                a.create_match("NEXT", RULES.to_dict(), 11, PLAYERS, replaces_room="NEXT")
        finally:
            sa.event.remove(a.engine, "after_cursor_execute", fail)
        assert set(room_rows(a)) == {"NEXT"} and len(a.list_matches()) == 2  # the room stayed
        a.save_room("NEXT", {"still": "mine"})


# ---- appends that are retried, discarded matches, tokens and settings ----------------------------


def test_append_at_makes_a_retry_harmless(store: Store) -> None:
    events, _ = played()
    first, second, third = batches(events)[:3]
    mid = new_match(store)
    store.append_events(mid, first, at=0)
    n = len(first)
    store.append_events(mid, second, at=n)
    store.append_events(mid, second, at=n)  # the answer was lost and the server retried: nothing more
    assert store.events(mid) == first + second and store.get_match(mid)["hands"] == 2  # type: ignore[index]
    with pytest.raises(ValueError, match="not the"):
        store.append_events(mid, third, at=n)  # what is stored from n on is something else
    with pytest.raises(ValueError, match="not the"):
        store.append_events(mid, second[:-1], at=n)  # a part of it is not it either
    with pytest.raises(ValueError, match=f"has {n + len(second)} events stored, not 999"):
        store.append_events(mid, third, at=999)
    with pytest.raises(ValueError, match="not the"):
        store.append_events(mid, [], at=n)
    store.append_events(mid, [], at=n + len(second))
    for bad in (-1, "3", True, 1.0):
        with pytest.raises(ValueError):
            store.append_events(mid, third, at=bad)  # type: ignore[arg-type]
    store.append_events(mid, third, at=n + len(second))
    assert store.events(mid) == first + second + third


def test_discard_match(url: str) -> None:
    events, scores = played()
    with Store(url) as a, Store(url) as b:
        fresh, started, done = new_match(a), new_match(a), new_match(a)
        a.append_events(started, events[:1])
        a.append_events(done, events)
        a.finish_match(done, scores)
        with pytest.raises(LeaseLost):
            b.discard_match(fresh)
        with pytest.raises(ValueError, match="has events"):
            a.discard_match(started)
        with pytest.raises(ValueError, match="finished"):
            a.discard_match(done)
        with pytest.raises(KeyError):
            a.discard_match(4242)
        a.discard_match(fresh)
        assert a.get_match(fresh) is None and a.renew() == ({started}, set())
        with pytest.raises(KeyError):
            a.discard_match(fresh)
        with pytest.raises(ValueError, match="finished"):
            a.mark_seen(done)


def test_tokens_stay_inside_and_settings_come_back(url: str) -> None:
    players = [{**p, "token_hash": f"h{p['seat']}", "tokens": ["x"]} for p in PLAYERS]
    settings = {"turn_timer": 15, "bot": "strong", "open": True}
    with Store(url) as a, Store(url) as b:
        mid = a.create_match("room-1", RULES.to_dict(), 11, players, settings=settings)
        info = a.get_match(mid)
        assert info is not None and info["settings"] == settings
        assert info["players"][3] == PLAYERS[3]  # the server's own key kept, its token keys not
        assert all(not k.startswith("token") for m in a.list_matches() for p in m["players"] for k in p)
        assert a.unfinished_matches()[0]["players"] == [
            {"seat": p["seat"], "name": p["name"], "kind": p["kind"], "bot": p.get("bot"), **p} for p in players]
        assert b.claim_matches() == []  # not seen yet
        a.mark_seen(mid)
        a.release_all()
        (claimed,) = b.claim_matches()
        assert claimed["players"][0]["token_hash"] == "h0" and claimed["players"][2]["tokens"] == ["x"]
        assert claimed["settings"] == settings and claimed["seen"] is True and claimed["fence"] == 2
        assert {k: v for k, v in claimed.items() if k not in ("players", "seen", "fence")} == {
            k: v for k, v in info.items() if k != "players"}
        for bad, error in (([], TypeError), ({"x": object()}, TypeError)):
            with pytest.raises(error):
                a.create_match("r", {}, 1, PLAYERS, settings=bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            a.create_match("r", {}, 1, PLAYERS, seen=1)  # type: ignore[arg-type]


# ---- a SQLite file lost under a running store ---------------------------------------------------


def first_failure(call: Callable[[], Any], match: str) -> None:
    """``call`` finds the file lost: DatabaseLost, before any statement ran."""

    def attempt() -> None:
        with pytest.raises(DatabaseLost, match=match):
            call()

    assert statements(attempt) == []


def file_store(tmp_path: Path) -> tuple[Store, Path, int, Events]:
    """A store on a file, with one match and its first hand stored."""
    path = tmp_path / "tjmj.sqlite3"
    s = Store(f"sqlite:///{path}")
    mid = new_match(s)
    first = batches(played()[0])[0]
    s.append_events(mid, first)
    return s, path, mid, first


def assert_no_more_writes(s: Store, mid: int, reason: str) -> None:
    """Every write fails at once with ``reason``, without running a statement (nothing written anywhere)."""
    assert s.broken is not None and reason in s.broken
    second = batches(played()[0])[1]
    for write in (lambda: s.append_events(mid, second), lambda: new_match(s), s.renew, s.release_all,
                  lambda: s.save_room("R", {}), s.claim_matches):

        def attempt(write: Callable[[], Any] = write) -> None:
            with pytest.raises(DatabaseLost) as err:
                write()
            assert str(err.value) == s.broken

        assert statements(attempt) == []


def test_a_deleted_database_file_stops_every_write(tmp_path: Path) -> None:
    s, path, mid, first = file_store(tmp_path)
    try:
        os.remove(path)
        first_failure(lambda: s.append_events(mid, batches(played()[0])[1]),
                      f"the database file {re.escape(str(path))} was deleted while the server was running")
        assert_no_more_writes(s, mid, "was deleted")
        assert s.events(mid) == first  # reads go on, on the connection already open
        s.engine.dispose()
        with pytest.raises(sa.exc.OperationalError):
            s.events(mid)  # a new connection does not make a new empty database there
        assert not path.exists()
    finally:
        s.close()


def test_a_replaced_database_file_stops_every_write(tmp_path: Path) -> None:
    s, path, mid, first = file_store(tmp_path)
    try:
        other = tmp_path / "other.sqlite3"
        with Store(f"sqlite:///{other}") as o:
            new_match(o)
        content = other.read_bytes()
        os.replace(other, path)
        first_failure(lambda: s.append_events(mid, batches(played()[0])[1]), "was replaced by another file")
        assert_no_more_writes(s, mid, "was replaced")
        assert path.read_bytes() == content  # the new file untouched
        assert s.events(mid) == first  # reads go on, on the connection already open
    finally:
        s.close()


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_database_file_fails_writes_until_it_is_writable_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, what: str) -> None:
    s, path, mid, first = file_store(tmp_path)
    try:
        real = os.access
        target = str(path) if what == "file" else str(path.parent)
        # tests run as root, where chmod would not stop a write: pretend instead
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: p != target and real(p, mode, **kw))
        second = batches(played()[0])[1]
        for write in (lambda: s.append_events(mid, second), lambda: s.mark_seen(mid), s.renew):

            def attempt(write: Callable[[], Any] = write) -> None:
                with pytest.raises(DatabaseUnwritable, match="is not writable"):
                    write()

            assert statements(attempt) == []  # refused before any statement
        with pytest.raises(DatabaseUnwritable):
            s.ping()
        assert s.broken is None and s.events(mid) == first  # not lost: reads go on
        monkeypatch.undo()  # writable again: the same file takes writes again
        s.ping()
        s.append_events(mid, second, at=len(first))
        assert s.events(mid) == first + second
    finally:
        s.close()


def test_a_connection_opened_while_the_file_was_read_only_is_not_kept(tmp_path: Path) -> None:
    """SQLite opens a write-protected file read-only (mode=rw falls back to reading); such a pooled
    connection must not refuse every write once the file is writable again."""
    s, path, mid, first = file_store(tmp_path)
    try:
        made: list[sqlite3.Connection] = []

        def read_only(dialect: Any, rec: Any, cargs: Any, cparams: Any) -> sqlite3.Connection | None:
            if made:
                return None
            made.append(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, check_same_thread=False))
            return made[0]

        # the pool's next connection is a read-only one, as a read during the read-only time opens
        sa.event.listen(s.engine, "do_connect", read_only, insert=True)
        s.engine.dispose()
        assert s.events(mid) == first and made
        second = batches(played()[0])[1]
        with pytest.raises(sa.exc.OperationalError, match="readonly database"):
            s.append_events(mid, second, at=len(first))
        s.append_events(mid, second, at=len(first))  # the read-only connection was dropped
        assert s.events(mid) == first + second
    finally:
        s.close()


def test_other_databases_are_not_watched(url: str) -> None:
    for u in ("sqlite://", url):
        if u.startswith("sqlite:///"):
            continue  # a file: watched, above
        with Store(u) as s:
            seen_match(s)
            assert s.broken is None and len(s.renew()[0]) == 1
