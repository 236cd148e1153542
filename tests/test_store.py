"""The web store (tjmj.web.store): migrations, validation, atomic appends, replay, restarts, threads.

Every test runs on a fresh SQLite file; with ``TJMJ_TEST_POSTGRES_URL`` set (a throwaway database:
its tables are dropped before each test) the database tests run on PostgreSQL as well.
"""

from __future__ import annotations

import io
import os
import random
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from tjmj.game import Match
from tjmj.record import read_records, replay
from tjmj.rules import Rules
from tjmj.web import store as store_mod
from tjmj.web.store import ENV_URL, Store, alembic_config, metadata, upgrade

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
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tjmj.sqlite3'}"
    assert PG_URL is not None
    _reset_postgres(PG_URL)
    return PG_URL


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
    assert script.get_heads() == ["0001"]
    revisions = list(script.walk_revisions())
    files = sorted(p.name for p in (store_mod.MIGRATIONS / "versions").glob("*.py"))
    assert len(revisions) == len(files)  # every file is in the one chain
    assert revisions[-1].down_revision is None


def test_upgrade_creates_the_schema_then_does_nothing(url: str) -> None:
    assert upgrade(url) is True
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            assert {"matches", "events", "alembic_version"} <= set(sa.inspect(conn).get_table_names())
            assert MigrationContext.configure(conn).get_current_heads() == ("0001",)
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
    assert "CREATE TABLE matches" in sql and "CREATE TABLE events" in sql
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
                         "finished_at"}
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
    # a server started again on the same database: resume where the hands left off
    with Store(url) as s:
        unfinished = s.unfinished_matches()
        assert [m["id"] for m in unfinished] == [playing, fresh]
        assert unfinished[0]["hands"] == 2 and unfinished[1]["seed"] == 5
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
