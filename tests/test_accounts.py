"""Accounts (issue 31, part 1; docs/web.md "Accounts", docs/security.md "Accounts").

The app with a real store: Argon2id hashes and never a password at rest, the session cookie's
flags, one 401 for a wrong name or password, 429 after repeated failures, a new session at every
login (no fixation), cross-site and non-JSON posts refused, one account per name whatever its case
or form (sign-ups racing included, on SQLite and PostgreSQL), password change, deletion, and the
operator's ``tjmj user reset``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from tjmj.record import replay
from tjmj.web.accounts import COOKIE
from tjmj.web.app import create_app
from tjmj.web.limits import Limits
from tjmj.web.store import Store

PASSWORD = "correct horse battery"
# the per-address request budget lifted: the login limits are what these tests meet
LOOSE = Limits(post_burst=1000, post_rate=1000.0, get_burst=1000, get_rate=1000.0)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "accounts.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{db}")
    with TestClient(create_app(store, limits=LOOSE, bot_delay=0)) as c:
        yield c
    store.close()


def signup(client: TestClient, name: str = "Alice", password: str = PASSWORD) -> Any:
    return client.post("/api/account/signup", json={"name": name, "password": password})


def login(client: TestClient, name: str = "Alice", password: str = PASSWORD) -> Any:
    return client.post("/api/account/login", json={"name": name, "password": password})


def test_signup_stores_an_argon2id_hash_and_sets_a_guarded_cookie(client: TestClient, db: Path) -> None:
    r = signup(client)
    assert r.status_code == 200 and r.json() == {"name": "Alice"}
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    flags = {f.strip().split("=")[0].lower() for f in cookie.split(";")[1:]}
    assert {"httponly", "path", "max-age", "samesite"} <= flags and "samesite=lax" in cookie.lower()
    assert "secure" not in flags  # plain HTTP here: see the https test
    assert client.get("/api/account/me").json()["name"] == "Alice"
    raw = db.read_bytes() + (db.with_name(db.name + "-wal").read_bytes() if db.with_name(db.name + "-wal").exists()
                             else b"")
    assert PASSWORD.encode() not in raw  # never the password at rest
    assert b"$argon2id$" in raw
    token = client.cookies.get(COOKIE)
    assert token and token.encode() not in raw  # nor the cookie: only its hash


def test_the_cookie_is_secure_over_https(db: Path) -> None:
    store = Store(f"sqlite:///{db}")
    with TestClient(create_app(store), base_url="https://testserver") as c:
        r = signup(c)
        assert "secure" in {f.strip().lower() for f in r.headers["set-cookie"].split(";")}
    store.close()


def test_a_wrong_name_and_a_wrong_password_answer_the_same_401(client: TestClient) -> None:
    signup(client)
    client.post("/api/account/logout")
    wrong_password = login(client, password="not the password")
    no_such_name = login(client, name="Nobody")
    assert wrong_password.status_code == no_such_name.status_code == 401
    assert wrong_password.json() == no_such_name.json() == {"error": "wrong name or password"}
    assert client.get("/api/account/me").status_code == 401
    assert login(client, name="ALICE").status_code == 200  # names match in any case


def test_repeated_failures_for_one_name_answer_429_even_with_the_right_password(client: TestClient) -> None:
    signup(client)
    for _ in range(10):
        assert login(client, password="guess guess").status_code == 401
    r = login(client)
    assert r.status_code == 429 and "retry-after" in r.headers
    assert login(client, name="Bob").status_code == 401  # another name is not blocked by Alice's


def _session_cookie(r: Any) -> str:
    """The session cookie a response sets."""
    value = r.cookies.get(COOKIE)
    assert value, r.headers.get("set-cookie")
    return str(value)


def _as(client: TestClient, token: str) -> int:
    """GET /api/account/me with only this session cookie: its status."""
    client.cookies.clear()
    client.cookies.set(COOKIE, token)
    return int(client.get("/api/account/me").status_code)


def test_each_login_starts_a_new_session_and_ends_the_old_one(client: TestClient) -> None:
    signup(client)
    client.post("/api/account/logout")
    client.cookies.clear()
    client.cookies.set(COOKIE, "chosen-by-an-attacker")  # a session fixation attempt
    first = _session_cookie(login(client))
    assert first != "chosen-by-an-attacker"
    assert _as(client, "chosen-by-an-attacker") == 401
    assert _as(client, first) == 200
    second = _session_cookie(login(client))
    assert second != first
    assert _as(client, first) == 401  # the first session ended at the second login (same browser)
    assert _as(client, second) == 200
    client.post("/api/account/logout")
    assert _as(client, second) == 401


def test_cross_site_and_non_json_posts_are_refused(client: TestClient) -> None:
    r = client.post("/api/account/signup", json={"name": "Alice", "password": PASSWORD},
                    headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    r = client.post("/api/account/login", content=f"name=Alice&password={PASSWORD}",
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    assert client.get("/api/account/me").status_code == 401


@pytest.mark.parametrize("name", ["alice", "ALICE", "Ａｌｉｃｅ"])
def test_no_name_is_taken_twice_in_any_case_or_form(client: TestClient, name: str) -> None:
    assert signup(client).status_code == 200
    r = signup(client, name=name)
    assert r.status_code == 409 and "taken" in r.json()["error"]


def test_bad_input_is_a_400_naming_the_field(client: TestClient) -> None:
    assert "password" in signup(client, password="short").json()["error"]
    assert signup(client, password="short").status_code == 400
    assert signup(client, name="").status_code == 400
    assert signup(client, name="Al\x00ice").status_code == 400  # a name is given as it will be shown
    assert signup(client, name="A" * 21).status_code == 400
    r = client.post("/api/account/login", json={"name": 5, "password": []})
    assert r.status_code == 400 and "name" in r.json()["error"]


def _race(url: str) -> list[int]:
    """Eight sign-ups of one name at once, each with its own store (as separate servers)."""
    stores = [Store(url) for _ in range(8)]
    results: list[int] = []
    gate = threading.Barrier(8)

    def one(store: Store) -> None:
        from tjmj.web.store_accounts import NameTaken

        gate.wait()
        try:
            store.create_account("Racer", "$argon2id$fake")
            results.append(1)
        except NameTaken:
            results.append(0)

    threads = [threading.Thread(target=one, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    for s in stores:
        s.close()
    return results


def test_concurrent_signups_of_one_name_make_one_account(db: Path) -> None:
    assert sorted(_race(f"sqlite:///{db}")) == [0] * 7 + [1]


@pytest.mark.skipif(not os.environ.get("TJMJ_TEST_POSTGRES_URL"), reason="needs TJMJ_TEST_POSTGRES_URL")
def test_concurrent_signups_of_one_name_make_one_account_on_postgresql() -> None:
    from tests.conftest import postgres_lock
    from tests.test_store import _reset_postgres

    url = os.environ["TJMJ_TEST_POSTGRES_URL"]
    with postgres_lock():
        _reset_postgres(url)
        assert sorted(_race(url)) == [0] * 7 + [1]


def test_changing_the_password_ends_every_other_session(client: TestClient, db: Path) -> None:
    signup(client)
    store = Store(f"sqlite:///{db}")
    with TestClient(create_app(store, limits=LOOSE)) as other:  # the same account on another device
        assert login(other).status_code == 200
        r = client.post("/api/account/password", json={"password": PASSWORD, "new_password": "a new passphrase"})
        assert r.status_code == 200
        assert client.get("/api/account/me").status_code == 200  # this browser: a new session
        assert other.get("/api/account/me").status_code == 401  # the other device is signed out
        assert login(other).status_code == 401
        assert login(other, password="a new passphrase").status_code == 200
    store.close()
    r = client.post("/api/account/password", json={"password": "wrong wrong", "new_password": "another one!"})
    assert r.status_code == 401


def test_deleting_the_account_frees_the_name(client: TestClient) -> None:
    signup(client)
    assert client.post("/api/account/delete", json={"password": "wrong wrong"}).status_code == 401
    assert client.post("/api/account/delete", json={"password": PASSWORD}).json() == {"deleted": "Alice"}
    assert client.get("/api/account/me").status_code == 401
    assert login(client).status_code == 401
    assert signup(client, password="someone else now").status_code == 200


def test_an_operator_resets_a_password_from_the_command_line(client: TestClient, db: Path) -> None:
    signup(client)
    cmd = [sys.executable, "-c", "import sys; from tjmj.cli import main; sys.exit(main())", "user", "reset"]
    out = subprocess.run([*cmd, "alice", "--db", f"sqlite:///{db}"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    new = out.stdout.split("new password for Alice: ")[1].split()[0]
    assert client.get("/api/account/me").status_code == 401  # its sessions ended
    assert login(client).status_code == 401
    assert login(client, password=new).status_code == 200
    bad = subprocess.run([*cmd, "nobody", "--db", f"sqlite:///{db}"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and bad.stderr.strip() == "Error: no account named 'nobody'"


# ---- at the tables (issue 31, part 2) -------------------------------------------------------------


def test_a_signed_in_person_plays_as_their_account_and_guests_are_marked(client: TestClient, db: Path) -> None:
    signup(client)
    r = client.post("/api/quick", json={"name": "Mallory", "player_id": "b" * 16, "match_hands": 1})
    assert r.status_code == 200 and r.json()["name"] == "Alice"  # the account's name, whatever the body says
    room = r.json()["room"]
    info = client.get(f"/api/rooms/{room}").json()
    me = info["players"][0]
    assert me["name"] == "Alice" and me["guest"] is False
    assert all(p["guest"] is False for p in info["players"] if p["bot"])  # bots are not guests either
    pid = client.get("/api/account/me").json()["player_id"]
    assert pid.startswith("account-")
    engine = sa.create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as conn:  # the statistics find the seat by this id
            rows = conn.execute(sa.text("SELECT name, player_id FROM match_players WHERE match_id = :m AND kind = 'human'"),
                                {"m": r.json()["match_id"]}).all()
    finally:
        engine.dispose()
    assert [tuple(x) for x in rows] == [("Alice", pid)]
    client.post("/api/account/logout")
    guest = client.post("/api/rooms", json={"name": "Bob", "player_id": "c" * 16}).json()
    assert guest["name"] == "Bob"
    assert client.get(f"/api/rooms/{guest['room']}").json()["players"][0]["guest"] is True


@pytest.mark.parametrize("name", ["Alice", "alice", "ＡＬＩＣＥ"])
def test_a_guest_cannot_take_an_accounts_name(client: TestClient, name: str) -> None:
    signup(client)
    client.post("/api/account/logout")
    client.cookies.clear()
    r = client.post("/api/quick", json={"name": name})
    assert r.status_code == 409 and "belongs to an account" in r.json()["error"]
    room = client.post("/api/rooms", json={"name": "Bob"}).json()["room"]
    r = client.post(f"/api/rooms/{room}/join", json={"name": name})
    assert r.status_code == 409
    assert len(client.get(f"/api/rooms/{room}").json()["players"]) == 1  # nothing changed


def test_a_guest_cannot_send_an_accounts_player_id(client: TestClient) -> None:
    r = client.post("/api/quick", json={"name": "Eve", "player_id": "account-00000000000001"})
    assert r.status_code == 400 and "player_id" in r.json()["error"]


def test_a_guest_keeps_their_matches_by_signing_up_from_the_same_browser(client: TestClient, db: Path) -> None:
    browser, other = "g" * 16, "h" * 16
    mine = client.post("/api/quick", json={"name": "Ann", "player_id": browser, "match_hands": 1}).json()
    theirs = client.post("/api/quick", json={"name": "Ann", "player_id": other, "match_hands": 1}).json()
    r = client.post("/api/account/signup", json={"name": "Annie", "password": PASSWORD, "player_id": browser})
    assert r.status_code == 200
    pid = client.get("/api/account/me").json()["player_id"]
    engine = sa.create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            def seats(match_id: int) -> list[tuple[str, str]]:
                return [tuple(x) for x in conn.execute(sa.text(  # type: ignore[misc]
                    "SELECT name, player_id FROM match_players WHERE match_id = :m AND kind = 'human'"),
                    {"m": match_id}).all()]

            assert seats(mine["match_id"]) == [("Annie", pid)]
            assert seats(theirs["match_id"]) == [("Ann", other)]  # another browser's Ann keeps hers
            players = conn.execute(sa.text("SELECT players FROM matches WHERE id = :m"),
                                   {"m": mine["match_id"]}).scalar_one()
            assert f'"player_id":"{pid}"' in players and '"name":"Annie"' in players
    finally:
        engine.dispose()


def test_a_deleted_accounts_matches_stay_anonymised(client: TestClient, db: Path) -> None:
    from tests.test_web import is_settlement, play

    signup(client)
    d = client.post("/api/quick", json={"match_hands": 1}).json()
    with client.websocket_connect(f"/ws/{d['room']}") as ws:  # play the one hand: start_game is stored
        ws.send_json({"type": "hello", "token": d["token"]})
        play(ws, is_settlement)
    assert client.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
    engine = sa.create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            seats = conn.execute(sa.text("SELECT name, player_id FROM match_players WHERE kind = 'human'")).all()
            start = conn.execute(sa.text("SELECT body FROM events WHERE type = 'start_game'")).scalar_one()
            players = conn.execute(sa.text("SELECT players FROM matches")).scalar_one()
    finally:
        engine.dispose()
    assert [tuple(x) for x in seats] == [("(deleted)", None)]
    assert "Alice" not in start and "(deleted)" in start
    assert "Alice" not in players and "account-" not in players
    record = client.get(f"/api/matches/{d['match_id']}/record").text
    assert "Alice" not in record
    assert replay([orjson.loads(line) for line in record.splitlines()]).ok  # still replays
