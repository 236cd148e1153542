"""Ratings (issue 31 part 3; docs/web.md, "Ratings and the leaderboard"): tjmj.ratings.rate, the
store's rating of ranked matches in finish_match, the leaderboard, and the API."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tjmj.ratings import DEFAULT, Rating, bot_rating, bot_ratings, ranks, rate
from tjmj.rules import Rules
from tjmj.web.app import create_app
from tjmj.web.limits import Limits
from tjmj.web.store import LeaseLost, Store

LOOSE = Limits(post_burst=1000, post_rate=1000.0, get_burst=1000, get_rate=1000.0)


def test_the_winner_goes_up_and_the_last_goes_down() -> None:
    after = rate([DEFAULT] * 4, [50, 10, -20, -40])
    assert after[0].mu > after[1].mu > after[2].mu > after[3].mu
    assert after[0].mu > DEFAULT.mu > after[3].mu
    assert all(r.sigma < DEFAULT.sigma for r in after)  # every rated match makes the system surer
    assert after[0].display > DEFAULT.display == 1500


def test_equal_scores_share_a_place() -> None:
    assert ranks([10, 10, -10, -10]) == [1, 1, 3, 3]
    after = rate([DEFAULT] * 4, [10, 10, -10, -10])
    assert after[0] == after[1] and after[2] == after[3]
    assert after[0].mu > after[2].mu


def test_a_seat_that_left_ranks_last_even_with_the_top_score() -> None:
    assert ranks([60, 0, -20, -40], left=frozenset({0})) == [4, 1, 2, 3]
    after = rate([DEFAULT] * 4, [60, 0, -20, -40], left=frozenset({0}))
    assert after[0].mu < DEFAULT.mu
    assert after[0].mu == min(r.mu for r in after)
    assert after[1].mu == max(r.mu for r in after)
    # two leavers tie among themselves, below everyone who stayed
    assert ranks([60, 0, -20, -40], left=frozenset({0, 3})) == [3, 1, 2, 3]


def test_fixed_seats_keep_their_rating() -> None:
    bot = Rating(30.0, 2.0)
    before = [DEFAULT, bot, bot, bot]
    after = rate(before, [-30, 30, 10, -10], fixed=frozenset({1, 2, 3}))
    assert after[1:] == [bot, bot, bot]
    assert after[0].mu < DEFAULT.mu


def test_losing_to_strong_bots_costs_less_than_to_weak_ones() -> None:
    strong, weak = Rating(35.0, 2.0), Rating(15.0, 2.0)
    vs_strong = rate([DEFAULT, strong, strong, strong], [-30, 30, 10, -10], fixed=frozenset({1, 2, 3}))
    vs_weak = rate([DEFAULT, weak, weak, weak], [-30, 30, 10, -10], fixed=frozenset({1, 2, 3}))
    assert vs_weak[0].mu < vs_strong[0].mu < DEFAULT.mu


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        rate([DEFAULT] * 3, [1, 2, 3])
    with pytest.raises(ValueError):
        rate([DEFAULT] * 4, [1, 2, 3, 4], left=frozenset({4}))
    with pytest.raises(ValueError):
        Rating(25.0, 0.0)


ratings_st = st.builds(Rating, st.floats(0, 50), st.floats(0.5, 9))


@settings(max_examples=60, deadline=None)
@given(st.lists(ratings_st, min_size=4, max_size=4), st.lists(st.integers(-100, 100), min_size=4, max_size=4),
       st.frozensets(st.integers(0, 3)))
def test_rating_moves_with_the_place(before: list[Rating], scores: list[int], left: frozenset[int]) -> None:
    """A seat placed alone first never loses mu, one placed alone last never gains; the fixed seats
    never move; sigma never grows by more than openskill's tau."""
    after = rate(before, scores, left=left)
    places = ranks(scores, left)
    for seat in range(4):
        if places[seat] == 1 and places.count(1) == 1:
            assert after[seat].mu >= before[seat].mu - 1e-9
        if places[seat] == max(places) and places.count(places[seat]) == 1:
            assert after[seat].mu <= before[seat].mu + 1e-9
        assert after[seat].sigma <= (before[seat].sigma ** 2 + (25 / 300) ** 2) ** 0.5 + 1e-9
    assert rate(before, scores, left=left, fixed=frozenset(range(4))) == before


def test_every_bot_level_has_a_measured_rating_in_every_family() -> None:
    data = bot_ratings()
    for family in ("tianjin", "beijing", "mcr"):
        entry = data["families"][family]
        assert entry["matches"] > 0 and "seed" in entry
        by_level = {level: bot_rating(family, level) for level in ("easy", "normal", "hard", "expert")}
        assert all(r is not None for r in by_level.values())
        assert bot_rating(family, "strong") == by_level["hard"]
        assert by_level["easy"].mu < by_level["hard"].mu  # type: ignore[union-attr]
    assert bot_rating("tianjin", "random") is None
    assert bot_rating("nowhere", "strong") is None


# ---- the store ------------------------------------------------------------------------------


@pytest.fixture
def store() -> Iterator[Store]:
    s = Store("sqlite://")
    yield s
    s.close()


def _player(seat: int, name: str, pid: str | None = None, bot: str | None = None) -> dict[str, Any]:
    if bot is not None:
        return {"seat": seat, "name": name, "kind": "bot", "bot": bot}
    p: dict[str, Any] = {"seat": seat, "name": name, "kind": "human", "bot": None}
    if pid is not None:
        p["player_id"] = pid
    return p


def _account(store: Store, name: str) -> str:
    return f"account-{store.create_account(name, '$argon2id$fake'):014d}"


def _play(store: Store, players: list[dict[str, Any]], scores: list[int], *, ranked: bool = True,
          family: str = "tianjin", left: tuple[int, ...] = ()) -> int:
    preset = {"tianjin": "classic", "beijing": "beijing", "mcr": "mcr"}[family]
    mid = store.create_match("r", Rules.preset(preset).to_dict(), 1, players,
                             settings={"ranked": ranked, "bots": "strong"})
    for seat in left:
        assert store.mark_left(mid, seat)
    store.finish_match(mid, scores)
    return mid


def test_a_scripted_ranked_match_moves_ratings_the_right_way(store: Store) -> None:
    ids = [_account(store, n) for n in ("Ann", "Bo", "Cy", "Di")]
    mid = _play(store, [_player(s, n, ids[s]) for s, n in enumerate(("Ann", "Bo", "Cy", "Di"))], [40, 10, -20, -30])
    got = [store.rating(pid, "tianjin") for pid in ids]
    assert all(g is not None and g["matches"] == 1 for g in got)
    mus = [g["mu"] for g in got]  # type: ignore[index]
    assert mus[0] > mus[1] > mus[2] > mus[3] and mus[0] > 25 > mus[3]
    assert store.rating(ids[0], "beijing") is None  # per family
    history = store.rating_history(ids[0], "tianjin")
    assert [h["match_id"] for h in history] == [mid]
    assert history[0]["rating"] == got[0]["rating"]  # type: ignore[index]
    # a second match starts from the first's ratings
    _play(store, [_player(s, n, ids[s]) for s, n in enumerate(("Ann", "Bo", "Cy", "Di"))], [40, 10, -20, -30])
    again = store.rating(ids[0], "tianjin")
    assert again is not None and again["matches"] == 2 and again["mu"] > mus[0]
    assert len(store.rating_history(ids[0], "tianjin")) == 2
    assert [r["family"] for r in store.ratings(ids[0])] == ["tianjin"]


def test_bots_keep_their_fixed_rating_and_count_as_opponents(store: Store) -> None:
    ann = _account(store, "Ann")
    bots = [_player(s, f"Bot {s}", bot="strong") for s in (1, 2, 3)]
    _play(store, [_player(0, "Ann", ann), *bots], [-30, 30, 10, -10])
    lost_to_hard = store.rating(ann, "tianjin")
    bob = _account(store, "Bob")
    _play(store, [_player(0, "Bob", bob), *[_player(s, f"Bot {s}", bot="greedy") for s in (1, 2, 3)]],
          [-30, 30, 10, -10])
    lost_to_easy = store.rating(bob, "tianjin")
    assert lost_to_hard is not None and lost_to_easy is not None
    assert lost_to_easy["mu"] < lost_to_hard["mu"] < 25  # losing to the easy bots costs more


def test_a_player_who_left_ranks_last(store: Store) -> None:
    ids = [_account(store, n) for n in ("Ann", "Bo", "Cy", "Di")]
    _play(store, [_player(s, n, ids[s]) for s, n in enumerate(("Ann", "Bo", "Cy", "Di"))], [60, 0, -20, -40],
          left=(0,))
    mus = [store.rating(pid, "tianjin")["mu"] for pid in ids]  # type: ignore[index]
    assert mus[0] < 25 and mus[0] == min(mus)


def test_mark_left_needs_a_playing_match(store: Store) -> None:
    mid = _play(store, [_player(s, f"p{s}", bot="strong") for s in range(4)], [0, 0, 0, 0])
    with pytest.raises(ValueError):
        store.mark_left(mid, 0)
    mid = store.create_match("r", Rules.preset("classic").to_dict(), 1,
                             [_player(s, f"p{s}", bot="strong") for s in range(4)])
    with pytest.raises(ValueError):
        store.mark_left(mid, 4)
    assert store.mark_left(mid, 1) is True
    assert store.mark_left(mid, 1) is False  # the first time is kept


def test_an_unranked_match_changes_nothing(store: Store) -> None:
    ids = [_account(store, n) for n in ("Ann", "Bo", "Cy", "Di")]
    _play(store, [_player(s, n, ids[s]) for s, n in enumerate(("Ann", "Bo", "Cy", "Di"))], [40, 10, -20, -30],
          ranked=False)
    mid = store.create_match("r", Rules.preset("classic").to_dict(), 1,
                             [_player(s, n, ids[s]) for s, n in enumerate(("Ann", "Bo", "Cy", "Di"))])
    store.finish_match(mid, [40, 10, -20, -30])  # no settings at all
    assert all(store.rating(pid, "tianjin") is None for pid in ids)
    assert store.leaderboard("tianjin") == []


def test_guests_are_rated_but_only_accounts_are_listed(store: Store) -> None:
    ann = _account(store, "Ann")
    guest = "g" * 20
    _play(store, [_player(0, "Ann", ann), _player(1, "Guest", guest), _player(2, "Anon"),
                  _player(3, "Bot", bot="baseline")], [-10, 20, 0, -10])
    assert store.rating(guest, "tianjin") is not None
    assert [p["name"] for p in store.leaderboard("tianjin")] == ["Ann"]


def test_the_leaderboard_orders_by_rating(store: Store) -> None:
    names = ("Ann", "Bo", "Cy", "Di")
    ids = [_account(store, n) for n in names]
    for family in ("tianjin", "mcr"):
        _play(store, [_player(s, n, ids[s]) for s, n in enumerate(names)], [10, 40, -30, -20], family=family)
    _play(store, [_player(s, n, ids[s]) for s, n in enumerate(names)], [10, 40, -30, -20], family="tianjin")
    board = store.leaderboard("tianjin")
    assert [p["name"] for p in board] == ["Bo", "Ann", "Di", "Cy"]
    assert [p["rank"] for p in board] == [1, 2, 3, 4]
    assert [p["rating"] for p in board] == sorted((p["rating"] for p in board), reverse=True)
    assert all(p["matches"] == 2 for p in board)
    assert [p["name"] for p in store.leaderboard("tianjin", limit=2, offset=1)] == ["Ann", "Di"]
    assert store.leaderboard("tianjin", offset=1)[0]["rank"] == 2
    assert [p["matches"] for p in store.leaderboard("mcr")] == [1, 1, 1, 1]
    assert store.leaderboard("beijing") == []
    with pytest.raises(ValueError):
        store.leaderboard("tianjin", limit=-1)


def test_the_leaderboard_shows_the_current_name_and_forgets_deleted_accounts(store: Store) -> None:
    names = ("Ann", "Bo", "Cy", "Di")
    ids = [_account(store, n) for n in names]
    _play(store, [_player(s, n, ids[s]) for s, n in enumerate(names)], [10, 40, -30, -20])
    ann = store.account("Ann")
    assert ann is not None
    store.delete_account(ann["id"], ids[0])
    assert store.rating(ids[0], "tianjin") is None and store.rating_history(ids[0], "tianjin") == []
    assert [p["name"] for p in store.leaderboard("tianjin")] == ["Bo", "Di", "Cy"]


def test_ratings_live_in_the_database_and_a_match_is_rated_once(tmp_path: Path) -> None:
    """Two server processes on one database: only the owner of a match rates it, once; the other
    reads the same ratings."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    a, b = Store(url, owner="a"), Store(url, owner="b")
    try:
        ids = [_account(a, n) for n in ("Ann", "Bo", "Cy", "Di")]
        players = [_player(s, n, ids[s]) for s, n in enumerate(("Ann", "Bo", "Cy", "Di"))]
        mid = a.create_match("r", Rules.preset("classic").to_dict(), 1, players, settings={"ranked": True})
        with pytest.raises(LeaseLost):
            b.finish_match(mid, [40, 10, -20, -30])
        with pytest.raises(LeaseLost):
            b.mark_left(mid, 0)
        assert b.rating(ids[0], "tianjin") is None
        a.finish_match(mid, [40, 10, -20, -30])
        with pytest.raises(ValueError):
            a.finish_match(mid, [40, 10, -20, -30])  # finished: not rated again
        assert [p["name"] for p in b.leaderboard("tianjin")] == ["Ann", "Bo", "Cy", "Di"]
        assert b.rating(ids[0], "tianjin")["matches"] == 1  # type: ignore[index]
    finally:
        a.close()
        b.close()


# ---- the API --------------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[tuple[TestClient, Store]]:
    store = Store(f"sqlite:///{tmp_path / 'ratings.sqlite3'}")
    with TestClient(create_app(store, limits=LOOSE, bot_delay=0)) as c:
        yield c, store
    store.close()


def test_the_leaderboard_api(client: tuple[TestClient, Store]) -> None:
    c, store = client
    names = ("Ann", "Bo", "Cy", "Di")
    ids = [_account(store, n) for n in names]
    _play(store, [_player(s, n, ids[s]) for s, n in enumerate(names)], [10, 40, -30, -20])
    r = c.get("/api/leaderboard?family=tianjin")
    assert r.status_code == 200
    body = r.json()
    assert body["family"] == "tianjin"
    assert [p["name"] for p in body["players"]] == ["Bo", "Ann", "Di", "Cy"]
    assert {"name", "rating", "matches", "rank"} <= set(body["players"][0])
    assert {b["name"] for b in body["bots"]} == {"easy", "normal", "hard", "expert"}
    assert [b["rating"] for b in body["bots"]] == sorted((b["rating"] for b in body["bots"]), reverse=True)
    assert c.get("/api/leaderboard?family=tianjin&limit=1&offset=1").json()["players"][0]["name"] == "Ann"
    assert c.get("/api/leaderboard?family=beijing").json()["players"] == []
    assert c.get("/leaderboard").status_code == 200


@pytest.mark.parametrize("query", ["", "?family=", "?family=riichi", "?family=tianjin&limit=x",
                                   "?family=tianjin&limit=1000", "?family=tianjin&offset=-1"])
def test_the_leaderboard_api_refuses_bad_input(client: tuple[TestClient, Store], query: str) -> None:
    r = client[0].get(f"/api/leaderboard{query}")
    assert r.status_code == 400
    assert "error" in r.json()
    if "riichi" in query:
        assert "riichi" in r.json()["error"] and "tianjin" in r.json()["error"]


def test_an_accounts_ratings_and_history(client: tuple[TestClient, Store]) -> None:
    c, store = client
    names = ("Ann", "Bo", "Cy", "Di")
    ids = [_account(store, n) for n in names]
    first = _play(store, [_player(s, n, ids[s]) for s, n in enumerate(names)], [10, 40, -30, -20])
    second = _play(store, [_player(s, n, ids[s]) for s, n in enumerate(names)], [40, 10, -30, -20])
    body = c.get("/api/players/ann/ratings").json()  # any case, as account names are
    assert body["name"] == "Ann" and body["account"] is True
    [tianjin] = body["ratings"]
    assert tianjin["family"] == "tianjin" and tianjin["matches"] == 2
    assert [h["match_id"] for h in tianjin["history"]] == [first, second]
    assert tianjin["history"][-1]["rating"] == tianjin["rating"]
    assert len(body["bots"]["tianjin"]) == 4
    nobody = c.get("/api/players/Nobody/ratings")
    assert nobody.status_code == 200 and nobody.json() == {"name": "Nobody", "account": False, "ratings": [], "bots": {}}
    assert c.get("/api/players/%20x/ratings").status_code == 400
