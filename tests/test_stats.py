"""Player statistics (issue 13, part 2): the player id, ``Store.player_matches``, :mod:`tjmj.stats`,
``GET /api/players/{name}`` and ``tjmj stats``.

A database is filled with 36 two-hand matches (12 per rule family) played by bots, stored as the
server stores them (``create_match``, one ``append_events`` per hand, ``finish_match``), with two
people among the bots: "Ann" (three identities: the id ``ID_A``, no id, and another person's id
``ID_B`` who chose the same name) and "Bob" (``ID_C``).  The figures are checked against a recount
written here from the full event lists (not through tjmj.stats), and the API's JSON against
``tjmj stats --json``.  With ``TJMJ_TEST_POSTGRES_URL`` set the database tests run on PostgreSQL too.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from alembic import command
from click.testing import CliRunner
from starlette.testclient import TestClient

from tests.conftest import postgres_lock
from tests.test_store import _reset_postgres, batches
from tests.test_web import FAST, LOOSE, recv, seat_ws
from tjmj.bots import make_bot
from tjmj.cli import main
from tjmj.game import Match
from tjmj.rules import Rules
from tjmj.simulate import play_with
from tjmj.stats import EVENT_TYPES, PlayerNotFound, all_players, player_stats
from tjmj.web.app import create_app
from tjmj.web.store import JSONText, Store, UTCDateTime, alembic_config

PG_URL = os.environ.get("TJMJ_TEST_POSTGRES_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])
ID_A, ID_B, ID_C = "annAAAAAAAAAAAAAAAAA", "ann-other_BBBBBBBBB", "bobCCCCCCCCCCCCCCCCC"
PRESETS = {"tianjin": "classic", "beijing": "beijing", "mcr": "mcr"}
PER_FAMILY = 12
Events = list[dict[str, Any]]


@dataclass(frozen=True)
class Played:
    family: str
    seed: int
    events: Events
    scores: list[int]
    players: list[dict[str, Any]]  # by seat, as stored


@cache
def played() -> list[Played]:
    """Every match, in the order stored (so, finished)."""
    out = []
    for family, preset in PRESETS.items():
        for i in range(PER_FAMILY):
            seed = 100 * i + len(out)
            ann_id = (ID_A, None, ID_B)[i % 3]
            bots = ["greedy" if i % 2 else "baseline", "baseline", "baseline", "greedy"]  # greedy: random 坐庄/拉庄
            m = play_with(Match(Rules.preset(preset, match_hands=2), seed, names=["Ann", "Bob", "Bot 2", "Bot 3"]),
                          [make_bot(b) for b in bots], seed)
            players = []
            for seat in range(4):
                p = m.seating[seat]
                d: dict[str, Any] = {"seat": seat, "name": m.names[p], "kind": "human" if p < 2 else "bot",
                                     "bot": None if p < 2 else bots[p], "player": p}
                pid = (ann_id, ID_C, None, None)[p]
                if pid is not None:
                    d["player_id"] = pid
                players.append(d)
            out.append(Played(family, seed, list(m.events), list(m.scores), players))
    return out


def fill(store: Store) -> None:
    for i, p in enumerate(played()):
        mid = store.create_match(f"R{i}", p.events[0]["rules"], p.seed, p.players)
        at = 0
        for batch in batches(p.events):
            store.append_events(mid, batch, at=at)
            at += len(batch)
        store.finish_match(mid, p.scores)


@pytest.fixture(scope="module", params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A database holding every match of :func:`played` (and a playing one, which never counts);
    PostgreSQL's held for this module's tests alone (``postgres_lock``)."""
    with ExitStack() as held:
        if request.param == "sqlite":
            u = f"sqlite:///{tmp_path_factory.mktemp('stats') / 'tjmj.sqlite3'}"
        else:
            assert PG_URL is not None
            held.enter_context(postgres_lock())
            _reset_postgres(PG_URL)
            u = PG_URL
        with Store(u) as s:
            fill(s)
            p = played()[0]
            mid = s.create_match("LIVE", p.events[0]["rules"], 1, p.players)
            s.append_events(mid, batches(p.events)[0])
            s.release_all()
        yield u


@pytest.fixture(scope="module")
def client(url: str) -> Iterator[TestClient]:
    store = Store(url)
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as c:
        yield c
    store.close()


def cli(*args: str) -> Any:
    return CliRunner().invoke(main, ["stats", *args])


# ---- the recount: straight from the full records, not through tjmj.stats -------------------------


def recount(name: str, pid: str | None, family: str) -> dict[str, Any]:
    """The figures of the seats of ``name`` (and ``pid``) in ``family``, counted from the events."""
    c: Counter[str] = Counter()
    elements: Counter[str] = Counter()
    placements = [0, 0, 0, 0]
    totals: list[int] = []
    for p in played():
        if p.family != family:
            continue
        for pl in p.players:
            if pl["kind"] != "human" or pl["name"] != name or (pid is not None and pl.get("player_id") != pid):
                continue
            seat = pl["seat"]
            c["matches"] += 1
            sitting = pulling = False
            for i, e in enumerate(p.events):
                t = e["type"]
                if t == "start_kyoku":
                    sitting = bool(e.get("sit")) and e["dealer"] == seat
                    pulling = bool((e.get("pulls") or [0] * 4)[seat])
                    c["dealer"] += e["dealer"] == seat
                    c["sat"] += sitting
                    c["pulled"] += pulling
                elif t == "end_kyoku":
                    c["hands"] += 1
                    c["sat_net"] += e["deltas"][seat] if sitting else 0
                    c["pulled_net"] += e["deltas"][seat] if pulling else 0
                elif t == "hora" and e["actor"] == seat:
                    c["wins"] += 1
                    c["self_drawn"] += e["actor"] == e["target"] if family == "tianjin" else e["self_drawn"]
                    c["points"] += e["value"] if family == "beijing" else e["fan"]
                    elements.update(set(e["elements"]))
                elif t == "hora" and e["target"] == seat and not e.get("self_drawn", True) and not e["rob_kong"]:
                    c["deal_ins"] += 1
                elif t in ("ankan", "daiminkan") and e["actor"] == seat:
                    c[t] += 1
                elif t == "kakan" and e["actor"] == seat:
                    robbed = p.events[i + 1]["type"] == "hora" and p.events[i + 1].get("rob_kong")
                    c["kakan"] += not robbed
                elif t == "chan":
                    c["chan_paid" if e["actor"] == seat else "chan_received"] += 1
            score = p.scores[seat]
            placements[sorted(p.scores, reverse=True).index(score)] += 1
            totals.append(score)
    return {"c": c, "elements": elements, "placements": placements, "totals": totals}


def check_family(f: dict[str, Any], name: str, pid: str | None, family: str) -> None:
    r = recount(name, pid, family)
    c = r["c"]
    assert f["matches"] == c["matches"] and f["hands"] == c["hands"] and f["wins"] == c["wins"]
    assert f["win_rate"] == round(c["wins"] / c["hands"], 4)
    assert f["self_drawn"] == c["self_drawn"] and f["deal_ins"] == c["deal_ins"]
    assert f["mean_points"] == (round(c["points"] / c["wins"], 2) if c["wins"] else None)
    assert {e["code"]: e["count"] for e in f["elements"]} == dict(r["elements"])
    assert {k: f["kongs"][k] for k in ("ankan", "daiminkan", "kakan")} == {
        k: c[k] for k in ("ankan", "daiminkan", "kakan")}
    assert f["placements"] == r["placements"]
    assert f["score"]["total"] == sum(r["totals"])
    running = [sum(r["totals"][: i + 1]) for i in range(len(r["totals"]))]
    assert [x["total"] for x in f["timeline"]] == running
    assert [x["score"] for x in f["timeline"]] == r["totals"]
    if family == "tianjin":
        sp = f["sit_pull"]
        assert (sp["dealer_hands"], sp["sat"], sp["sat_net"], sp["pulled"], sp["pulled_net"]) == (
            c["dealer"], c["sat"], c["sat_net"], c["pulled"], c["pulled_net"])
        assert (f["chan"]["paid"], f["chan"]["received"]) == (c["chan_paid"], c["chan_received"])
    else:
        assert f["deal_ins"] == c["deal_ins"] and "chan" not in f and "sit_pull" not in f


def test_the_test_data_covers_what_is_counted() -> None:
    ev = [e for p in played() for e in p.events]
    kinds = Counter(e["type"] for e in ev)
    assert kinds["hora"] > 30 and kinds["daiminkan"] and kinds["kakan"] and kinds["ankan"]
    assert any(e["type"] == "hora" and e["actor"] != e["target"] for e in ev)  # deal-ins
    assert any(e["type"] == "start_kyoku" and any(e.get("pulls") or []) for e in ev)  # 拉庄
    assert any(e["type"] == "start_kyoku" and e.get("sit") is False for e in ev)  # a dealer who did not sit


# ---- the figures ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "pid"), [("Ann", ID_A), ("Ann", None), ("Ann", ID_B), ("Bob", ID_C), ("Bob", None)])
def test_figures_agree_with_a_recount_from_the_events(url: str, name: str, pid: str | None) -> None:
    with Store(url) as s:
        matches = s.player_matches(name, pid, event_types=EVENT_TYPES)
    report = player_stats(matches, name, pid)
    assert report["player_id"] == pid
    assert list(report["families"]) == ["tianjin", "beijing", "mcr"]
    for family, f in report["families"].items():
        assert f["family"] == family
        check_family(f, name, pid, family)
    assert report["matches"] == sum(f["matches"] for f in report["families"].values())
    # the per-family split: each family's matches are its own
    expected = PER_FAMILY if pid in (None, ID_C) else PER_FAMILY // 3
    assert all(f["matches"] == expected for f in report["families"].values())


def test_the_store_reads_a_players_finished_matches_only(url: str) -> None:
    with Store(url) as s:
        mine = s.player_matches("Ann", ID_A)
        everyone = s.player_matches(None, event_types=["end_game"])
        assert s.player_matches("Nobody") == []
        assert s.player_matches("Bot 2") == []  # bots are not players
        with pytest.raises(ValueError, match="player id"):
            s.player_matches("Ann", "short")
    assert len(mine) == 3 * PER_FAMILY // 3 and all(m["status"] == "finished" for m in mine)
    assert [m["id"] for m in mine] == sorted(m["id"] for m in mine)  # oldest first
    assert mine[0]["events"] == played()[0].events  # every event, in order, without event_types
    assert all(not any(k.startswith("token") for p in m["players"] for k in p) for m in mine)
    assert len(everyone) == 3 * PER_FAMILY and all([e["type"] for e in m["events"]] == ["end_game"] for m in everyone)


def test_public_reads_never_show_player_ids(client: TestClient) -> None:
    body = client.get("/api/matches?limit=200").text
    assert "player_id" not in body and ID_A not in body and ID_C not in body
    assert ID_A not in client.get("/api/players/Ann").text  # asked by name: nobody's id
    assert client.get("/api/players/Ann", params={"id": ID_A}).json()["player_id"] == ID_A  # only the one asked


def test_all_players(url: str) -> None:
    with Store(url) as s:
        rows = all_players(s.player_matches(None, event_types=EVENT_TYPES))
        tianjin = all_players(s.player_matches(None, event_types=EVENT_TYPES), "tianjin")
    assert [(r["name"], r["matches"]) for r in rows] == [("Ann", 36), ("Bob", 36)]
    assert [(r["name"], r["matches"]) for r in tianjin] == [("Ann", 12), ("Bob", 12)]
    with pytest.raises(PlayerNotFound):
        player_stats([], "Ann")


# ---- the API and the command agree -----------------------------------------------------------------


@pytest.mark.parametrize("args", [("Ann", ID_A, None), ("Ann", None, None), ("Bob", ID_C, "mcr")])
def test_the_api_and_tjmj_stats_json_agree_exactly(client: TestClient, url: str, args: tuple[Any, ...]) -> None:
    name, pid, family = args
    params = {k: v for k, v in (("id", pid), ("family", family)) if v}
    r = client.get(f"/api/players/{name}", params=params)
    assert r.status_code == 200, r.text
    argv = ["--db", url, "--player", name, "--json"] + (["--id", pid] if pid else []) + (
        ["--family", family] if family else [])
    res = cli(*argv)
    assert res.exit_code == 0, res.output
    assert res.output.strip().encode() == r.content  # byte for byte
    assert json.loads(res.output) == r.json()
    if family:
        assert list(r.json()["families"]) == [family]


def test_tjmj_stats_tables(url: str) -> None:
    res = cli("--db", url)
    assert res.exit_code == 0, res.output
    assert "Ann" in res.output and "Bob" in res.output and "win rate" in res.output
    res = cli("--db", url, "--player", "Ann", "--id", ID_A)
    assert res.exit_code == 0, res.output
    assert "天津麻将" in res.output and "坐庄" in res.output and "scoring elements" in res.output
    res = cli("--db", url, "--json")
    assert [p["name"] for p in json.loads(res.output)["players"]] == ["Ann", "Bob"]


def test_tjmj_stats_bad_input(url: str, tmp_path: Path) -> None:
    for argv, text in [
        (["--db", url, "--player", "Nobody"], "no finished matches"),
        (["--db", url, "--player", "Ann", "--id", "x"], "player id"),
        (["--db", url, "--id", ID_A], "--id needs --player"),
        (["--db", f"sqlite:///{tmp_path / 'missing.sqlite3'}"], "no database at"),
        (["--db", "nosuchdialect://x/y"], "cannot open the database"),
        (["--db", "not a url"], "not a database URL"),
    ]:
        res = CliRunner().invoke(main, ["stats", *argv])
        assert res.exit_code == 2, (argv, res.output)
        assert text in res.output and "Traceback" not in res.output, (argv, res.output)
        assert res.output.count("\n") == 1, res.output
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    res = cli("--db", f"sqlite:///{junk}")
    assert res.exit_code == 2 and "cannot open the database" in res.output


def test_the_api_checks_names_and_ids(client: TestClient) -> None:
    assert client.get("/api/players/Nobody").status_code == 404
    assert client.get("/api/players/Ann", params={"id": ID_C}).status_code == 404  # Bob's id, Ann's name
    for path, params in [("/api/players/" + "x" * 21, {}), ("/api/players/%20Ann", {}), ("/api/players/A%00n", {}),
                         ("/api/players/Ann", {"id": "short"}), ("/api/players/Ann", {"id": "a" * 33}),
                         ("/api/players/Ann", {"id": "ann!AAAAAAAAAAAAAAAA"}), ("/api/players/Ann", {"family": "x"})]:
        r = client.get(path, params=params)
        assert r.status_code == 400, (path, params, r.text)
        assert set(r.json()) == {"error"}
    assert client.get("/api/players/Ann", params={"id": ""}).status_code == 200  # empty: no id
    page = client.get("/player/Ann")
    assert page.status_code == 200 and "player.js" in page.text


# ---- the player id: checked, stored, kept over a restart ---------------------------------------------


def test_bad_player_ids_are_refused(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        for bad in ("short", "x" * 33, 12345678901234567, ["a"], "with space AAAAAAAAAA", "ümlautAAAAAAAAAAAAA"):
            for path in ("/api/rooms", "/api/quick"):
                r = client.post(path, json={"name": "Ann", "player_id": bad})
                assert r.status_code == 400 and "player_id" in r.json()["error"], (path, bad, r.text)
        r = client.post("/api/rooms", json={"name": "Ann"})
        assert r.status_code == 200
        j = client.post(f"/api/rooms/{r.json()['room']}/join", json={"name": "Bob", "player_id": "nope"})
        assert j.status_code == 400
    store.close()
    with Store("sqlite://") as s, pytest.raises(ValueError, match="player id"):
        s.create_match("R", {}, 1, [{"seat": i, "name": "x", "kind": "bot", "bot": "random",
                                     **({"player_id": ID_A} if i == 0 else {})} for i in range(4)])


def test_the_player_id_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    store = Store(url)
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        # a waiting room with two people (one anonymous), stored once someone connected
        r = client.post("/api/rooms", json={"name": "Ann", "player_id": ID_A}).json()
        with seat_ws(client, r["room"], r["token"]) as ws:
            assert recv(ws)["type"] == "room"
            j = client.post(f"/api/rooms/{r['room']}/join", json={"name": "Eve"})
            assert j.status_code == 200
        # a match in play, connected once (so it is resumed)
        q = client.post("/api/quick", json={"name": "Bob", "player_id": ID_C, "bots": "random"}).json()
        with seat_ws(client, q["room"], q["token"]) as ws:
            assert recv(ws)["type"] == "room"
        stored = {p["name"]: p for m in store.unfinished_matches() for p in m["players"]}
        assert stored["Bob"]["player_id"] == ID_C and "player_id" not in stored["Bot 1"]
        assert "player_id" not in client.get(f"/api/matches/{q['match_id']}").text
    store.close()
    store = Store(url)
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        lobby = app.state.lobby
        waiting = lobby.get(r["room"])
        assert waiting.status == "waiting"
        assert [(p.name, p.player_id) for p in waiting.players] == [("Ann", ID_A), ("Eve", None)]
        match = lobby.get(q["room"])
        assert match.status == "playing"
        assert [p.player_id for p in match.players] == [ID_C, None, None, None]
        assert "player_id" not in client.get(f"/api/rooms/{q['room']}").text
    store.close()


def test_the_migration_fills_in_the_players_of_older_matches(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    command.upgrade(alembic_config(url), "0002")
    p = played()[0]
    old = sa.table("matches", sa.column("id", sa.Integer), sa.column("room", sa.String),
                   sa.column("status", sa.String), sa.column("rules", JSONText), sa.column("seed", sa.BigInteger),
                   sa.column("players", JSONText), sa.column("hands", sa.Integer),
                   sa.column("created_at", UTCDateTime), sa.column("scores", JSONText),
                   sa.column("finished_at", UTCDateTime))
    events = sa.table("events", sa.column("match_id", sa.Integer), sa.column("seq", sa.Integer),
                      sa.column("type", sa.String), sa.column("body", sa.Text))
    now = datetime.now(UTC)
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(old.insert().values(id=1, room="old", status="finished", rules=p.events[0]["rules"],
                                         seed=p.seed, players=p.players, hands=2, created_at=now, scores=p.scores,
                                         finished_at=now))
        conn.execute(events.insert(), [{"match_id": 1, "seq": i, "type": e["type"], "body": orjson.dumps(e).decode()}
                                       for i, e in enumerate(p.events)])
    engine.dispose()
    with Store(url) as s:
        (m,) = s.player_matches("Ann", ID_A)
        assert m["id"] == 1 and m["events"] == p.events
        assert len(s.player_matches("Bob")) == 1
