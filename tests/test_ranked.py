"""Ranked play (issue 31, part 4; docs/web.md "Ranked play"): the queue in the store, the
matchmaker's window, the routes, leaving a ranked match, and a ranked match rated at its end."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from tests.test_accounts import LOOSE, PASSWORD
from tests.test_web import choose, recv, recv_until, seat_ws
from tjmj.web import ranked
from tjmj.web.accounts import COOKIE
from tjmj.web.app import create_app
from tjmj.web.store import Store
from tjmj.web.store_schema import accounts_table, ranked_queue_table

WIDE = 10_000.0  # a window anyone fits


def _accounts(store: Store, n: int) -> list[int]:
    return [store.create_account(f"P{i}", "x" * 20) for i in range(n)]


def _join(store: Store, ids: list[int], ratings: list[float], family: str = "tianjin", hands: int = 4) -> None:
    for i, r in zip(ids, ratings, strict=True):
        store.ranked_join(i, f"account-{i:014d}", f"P{i}", family, hands, r)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'ranked.sqlite3'}")
    yield s
    s.close()


# ---- the queue in the store ------------------------------------------------------------------


def test_four_close_players_are_claimed_together_and_a_far_one_waits(store: Store) -> None:
    ids = _accounts(store, 5)
    _join(store, ids, [1500, 1520, 1480, 1510, 2400])
    assert store.ranked_entry(ids[0])["waiting"] == 5  # type: ignore[index]
    group = store.ranked_claim("tianjin", 4, lambda s: 100)
    assert group is not None and sorted(r["account_id"] for r in group) == ids[:4]
    assert store.ranked_entry(ids[4])["waiting"] == 1  # type: ignore[index]
    assert store.ranked_entry(ids[0])["room"] == ""  # being seated: no longer waiting
    assert store.ranked_claim("tianjin", 4, lambda s: WIDE) is None  # one left: no table


def test_the_window_decides_and_other_queues_are_apart(store: Store) -> None:
    ids = _accounts(store, 8)
    _join(store, ids[:4], [1000, 1100, 1200, 1300])
    _join(store, ids[4:], [1500] * 4, hands=8)  # another match length: another queue
    assert store.ranked_claim("tianjin", 4, lambda s: 299) is None  # they span 300
    assert store.ranked_claim("beijing", 4, lambda s: WIDE) is None
    group = store.ranked_claim("tianjin", 4, lambda s: 300)
    assert group is not None and {r["account_id"] for r in group} == set(ids[:4])
    group = store.ranked_claim("tianjin", 8, lambda s: 0)
    assert group is not None and {r["account_id"] for r in group} == set(ids[4:])


def test_the_window_widens_with_the_longest_wait(store: Store) -> None:
    ids = _accounts(store, 4)
    _join(store, ids, [1000, 1100, 1200, 1300])
    with store.engine.begin() as conn:  # the first has waited a minute
        conn.execute(sa.update(ranked_queue_table).where(ranked_queue_table.c.account_id == ids[0])
                     .values(joined_at=store._clock(conn) - timedelta(seconds=60)))
    assert store.ranked_claim("tianjin", 4, lambda s: 0 if s < 30 else WIDE) is not None
    assert ranked.window(0) < ranked.window(30) < ranked.window(120)
    assert ranked.window(0) >= 50 and ranked.window(120) >= 1000  # close at first, anyone after two minutes


def test_of_the_groups_that_fit_the_longest_waiter_is_seated_first(store: Store) -> None:
    ids = _accounts(store, 5)
    _join(store, ids[:4], [1000, 1010, 1020, 1030])  # ids[0..3] first
    _join(store, ids[4:], [1040])
    with store.engine.begin() as conn:
        conn.execute(sa.update(ranked_queue_table).where(ranked_queue_table.c.account_id == ids[0])
                     .values(joined_at=store._clock(conn) - timedelta(seconds=30)))
    group = store.ranked_claim("tianjin", 4, lambda s: 100)
    assert group is not None and ids[0] in {r["account_id"] for r in group}


def test_seats_are_handed_out_and_a_failed_table_puts_them_back(store: Store) -> None:
    ids = _accounts(store, 4)
    _join(store, ids, [1500] * 4)
    group = store.ranked_claim("tianjin", 4, lambda s: WIDE)
    assert group is not None
    assert not store.ranked_leave(ids[0])  # being seated: cannot leave now
    with pytest.raises(ValueError, match="being made"):
        store.ranked_join(ids[0], f"account-{ids[0]:014d}", "P0", "tianjin", 4, 1500)
    store.ranked_release(ids)
    assert store.ranked_entry(ids[0])["room"] is None  # type: ignore[index]
    group = store.ranked_claim("tianjin", 4, lambda s: WIDE)
    assert group is not None
    store.ranked_seated("ABCD", {a: (p, f"tok{p}") for p, a in enumerate(ids)})
    rows = [store.ranked_entry(a) for a in ids]
    assert [(r["room"], r["player"], r["token"]) for r in rows] == [("ABCD", p, f"tok{p}") for p in range(4)]  # type: ignore[index]
    assert store.ranked_leave(ids[0])  # the seat's row goes when asked
    assert store.ranked_entry(ids[0]) is None


def test_quiet_players_are_dropped_and_a_deleted_account_leaves_the_queue(store: Store) -> None:
    ids = _accounts(store, 5)
    _join(store, ids, [1500] * 5)
    with store.engine.begin() as conn:
        conn.execute(sa.update(ranked_queue_table).where(ranked_queue_table.c.account_id == ids[0])
                     .values(seen_at=store._clock(conn) - timedelta(seconds=60)))
    store.delete_account(ids[1])
    group = store.ranked_claim("tianjin", 4, lambda s: WIDE)
    assert group is None  # three left who still ask
    assert store.ranked_entry(ids[0]) is None
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(ranked_queue_table)).scalar_one() == 3


def test_bad_queue_input_is_refused(store: Store) -> None:
    (a,) = _accounts(store, 1)
    for family, hands, rating in [("", 4, 1500.0), ("tianjin", 0, 1500.0), ("tianjin", True, 1500.0),
                                  ("tianjin", 4, "high")]:
        with pytest.raises(ValueError):
            store.ranked_join(a, "account-1", "P0", family, hands, rating)  # type: ignore[arg-type]
    assert store.ranked_entry(a) is None


def _claim_race(url: str) -> list[int]:
    """Eight players, two processes' worth of threads claiming at once: each seated once."""
    s = Store(url)
    try:
        ids = _accounts(s, 8)
        _join(s, ids, [1500] * 8)
        got: list[list[int]] = []
        start = threading.Barrier(4)

        def claim() -> None:
            start.wait()
            g = s.ranked_claim("tianjin", 4, lambda _: WIDE)
            if g is not None:
                got.append([r["account_id"] for r in g])

        threads = [threading.Thread(target=claim) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seated = [a for g in got for a in g]
        assert len(got) == 2 and sorted(seated) == sorted(ids)  # two tables, nobody twice
        return seated
    finally:
        s.close()


def test_two_claims_at_once_never_seat_one_player_twice(tmp_path: Path) -> None:
    _claim_race(f"sqlite:///{tmp_path / 'race.sqlite3'}")


@pytest.mark.skipif(not os.environ.get("TJMJ_TEST_POSTGRES_URL"), reason="needs TJMJ_TEST_POSTGRES_URL")
def test_two_claims_at_once_never_seat_one_player_twice_on_postgresql() -> None:
    from tests.conftest import postgres_lock
    from tests.test_store import _reset_postgres

    url = os.environ["TJMJ_TEST_POSTGRES_URL"]
    with postgres_lock():
        _reset_postgres(url)
        _claim_race(url)


# ---- the routes ----------------------------------------------------------------------------


@pytest.fixture
def app_store(tmp_path: Path) -> Iterator[tuple[Any, Store]]:
    store = Store(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    app = create_app(store, limits=LOOSE, bot_delay=0, next_delay=0, timer=2)
    yield app, store
    store.close()


def _sign_up(client: TestClient, names: list[str]) -> list[str]:
    cookies = []
    for n in names:
        client.cookies.clear()
        r = client.post("/api/account/signup", json={"name": n, "password": PASSWORD})
        assert r.status_code == 200, r.text
        cookies.append(str(r.cookies.get(COOKIE)))
    return cookies


def _as(client: TestClient, cookie: str) -> TestClient:
    client.cookies.clear()
    client.cookies.set(COOKIE, cookie)
    return client


def test_ranked_needs_an_account_and_good_choices(app_store: tuple[Any, Store]) -> None:
    app, _ = app_store
    with TestClient(app) as c:
        assert c.get("/api/ranked").status_code == 401
        r = c.post("/api/ranked", json={"family": "tianjin", "match_hands": 4})
        assert r.status_code == 401 and "sign in" in r.json()["error"]
        (cookie,) = _sign_up(c, ["Ann"])
        _as(c, cookie)
        assert c.get("/api/ranked").json() == {"state": "idle"}
        for body, word in [({"family": "chess", "match_hands": 4}, "family"),
                           ({"family": "tianjin", "match_hands": 5}, "match_hands"),
                           ({"family": "tianjin", "match_hands": True}, "match_hands"),
                           ({"family": "tianjin"}, "match_hands")]:
            r = c.post("/api/ranked", json=body)
            assert r.status_code == 400 and word in r.json()["error"], body
        assert c.get("/api/ranked").json() == {"state": "idle"}  # nothing changed
        r = c.post("/api/ranked", json={"family": "mcr", "match_hands": 8})
        d = r.json()
        assert r.status_code == 200 and d["state"] == "waiting" and d["waiting"] == 1, d
        assert d["family"] == "mcr" and d["match_hands"] == 8 and d["window"] >= ranked.WINDOW_BASE
        assert c.post("/api/ranked/leave", json={}).json() == {"state": "idle"}
        assert c.get("/api/ranked").json() == {"state": "idle"}


def _queue_four(c: TestClient, cookies: list[str], family: str = "tianjin") -> list[dict[str, Any]]:
    answers = []
    for ck in cookies:
        r = _as(c, ck).post("/api/ranked", json={"family": family, "match_hands": 4})
        assert r.status_code == 200, r.text
        answers.append(r.json())
    assert [a["state"] for a in answers[:3]] == ["waiting"] * 3
    assert [a["waiting"] for a in answers[:3]] == [1, 2, 3]
    return [_as(c, ck).get("/api/ranked").json() for ck in cookies]


def test_four_in_the_queue_land_at_one_ranked_table_each_with_their_own_seat(app_store: tuple[Any, Store]) -> None:
    app, store = app_store
    with TestClient(app) as c:
        names = ["Ann", "Ben", "Cai", "Dee"]
        cookies = _sign_up(c, names)
        seats = _queue_four(c, cookies)
        assert {s["state"] for s in seats} == {"matched"}
        assert len({s["room"] for s in seats}) == 1 and sorted(s["player"] for s in seats) == [0, 1, 2, 3]
        assert len({s["token"] for s in seats}) == 4
        room = seats[0]["room"]
        info = c.get(f"/api/rooms/{room}").json()
        assert info["ranked"] is True and info["status"] == "playing" and info["bots"] == ranked.RANKED_BOT
        assert sorted(p["name"] for p in info["players"]) == names and not any(p["bot"] for p in info["players"])
        assert info["timer_s"] == 2  # the server's timer (else RANKED_TIMER): nobody stalls a ranked table
        pid = _as(c, cookies[0]).get("/api/account/me").json()["player_id"]
        with store.engine.connect() as conn:  # seated as the accounts (public reads leave ids out)
            ids = conn.execute(sa.text("SELECT player_id FROM match_players WHERE match_id = :m"),
                               {"m": info["match_id"]}).scalars().all()
        assert pid in ids and all(i and i.startswith("account-") for i in ids)
        settings = store.get_match(info["match_id"])["settings"]  # type: ignore[index]
        assert settings["ranked"] is True
        # each seat's token is its own: the first account's opens the first account's seat
        with seat_ws(c, room, seats[0]["token"]) as ws:
            first = recv_until(ws, lambda m: m["type"] == "room")[0]
            assert first["you"] == seats[0]["player"]


def test_leaving_a_ranked_match_hands_the_seat_to_a_bot_and_is_stored(app_store: tuple[Any, Store]) -> None:
    app, store = app_store
    with TestClient(app) as c:
        cookies = _sign_up(c, ["Ann", "Ben", "Cai", "Dee"])
        seats = _queue_four(c, cookies)
        room, token = seats[0]["room"], seats[0]["token"]
        with seat_ws(c, room, token) as ws:
            recv_until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "leave"})
            err, _ = recv_until(ws, lambda m: m["type"] == "error")
            assert err["code"] == "left" and "last place" in err["message"]
        info = c.get(f"/api/rooms/{room}").json()
        me = next(p for p in info["players"] if p["player"] == seats[0]["player"])
        assert me["bot"] == ranked.RANKED_BOT
        with seat_ws(c, room, token) as ws:  # back with the token: watching only
            msg = recv_until(ws, lambda m: m["type"] == "room")[0]
            assert msg["you"] is None
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # stored at once (a background write)
            with store.engine.connect() as conn:
                left = conn.execute(sa.text("SELECT seat FROM match_players WHERE match_id = :m AND left_at IS NOT NULL"),
                                    {"m": info["match_id"]}).all()
            if left:
                break
            time.sleep(0.05)
        assert [r.seat for r in left] == [me["seat"]]


def test_leaving_is_only_for_ranked_matches(app_store: tuple[Any, Store]) -> None:
    app, _ = app_store
    with TestClient(app) as c:
        d = c.post("/api/quick", json={"name": "Zed", "match_hands": 1, "timer_s": None}).json()
        with seat_ws(c, d["room"], d["token"]) as ws:
            recv_until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "leave"})
            err, _ = recv_until(ws, lambda m: m["type"] == "error")
            assert err["code"] == "forbidden"
            info = c.get(f"/api/rooms/{d['room']}").json()
            assert info["players"][0]["bot"] is None and info["ranked"] is False


def test_a_ranked_match_played_out_is_rated_and_the_one_who_stayed_ranks_above_those_who_left(
        app_store: tuple[Any, Store]) -> None:
    """One of four plays the whole match; the three others never come (the bot plays their seats
    after the grace period) and so count as left: the one who stayed goes up, they go down."""
    app, store = app_store
    with TestClient(app) as c:
        names = ["Ann", "Ben", "Cai", "Dee"]
        cookies = _sign_up(c, names)
        seats = _queue_four(c, cookies)
        room = seats[0]["room"]
        with seat_ws(c, room, seats[0]["token"]) as ws:
            acted = -1
            for _ in range(20000):
                msg = recv(ws, timeout=30)
                if msg["type"] == "settlement" and msg.get("over"):
                    break
                if msg["type"] == "state" and msg["legal"] and msg["version"] > acted:
                    acted = msg["version"]
                    ws.send_json({"type": "action", "action": choose(msg["legal"]), "version": acted})
            else:
                raise AssertionError("the match did not end")
        board: dict[str, Any] = {}
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # the match is finished (and rated) just after its last hand is shown
            board = _as(c, cookies[0]).get("/api/leaderboard", params={"family": "tianjin"}).json()
            if len(board.get("players", [])) == 4:
                break
            time.sleep(0.1)
        rated = {p["name"]: p["rating"] for p in board["players"]}
        assert set(rated) == set(names), board
        stayed = names[0]
        assert all(rated[stayed] > rated[n] for n in names[1:]), rated
        assert [p["name"] for p in board["players"]][0] == stayed  # the leaderboard orders by rating
        with store.engine.connect() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(accounts_table)).scalar_one() == 4
