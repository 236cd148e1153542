"""Practice puzzles (issue 32, part 3; docs/practice.md): the shipped set (every best discard legal,
the advisor's first, the margin holding in its stored figures; only what the seat saw), the daily
puzzle (deterministic for a date, varying across dates), the API (the puzzles without their
answers, the server's verdict, bad ids and families a 404 with a one-line JSON error, a bad tile a
400) and the page at a phone's size: a tap on a discard shows the verdict and the explanation."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from playwright.sync_api import Browser, expect
from starlette.testclient import TestClient

from tests.test_web import LOOSE
from tests.ui_helpers import serving
from tjmj import drills, puzzles
from tjmj.web.app import create_app
from tjmj.web.store import Store, alembic_config, metadata

FAMILIES = ("tianjin", "beijing", "mcr")
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
SEEN = {"id", "family", "preset", "hand", "drawn", "melds", "seat_wind", "dealer", "wall_left", "seats",
        "indicator", "wilds", "prevalent_wind", "legal"}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_shipped_puzzle_has_a_legal_best_discard_ranked_first_with_the_margin(family: str) -> None:
    ps = puzzles.puzzles(family)
    assert len(ps) >= 20
    for p in ps:
        assert p["best"] in p["legal"] and p["best"] in p["hand"], p["id"]
        assert set(p["legal"]) <= set(p["hand"])
        best = next(o for o in p["options"] if o["tile"] == p["best"])
        assert best["rank"] == 1 and p["options"][0]["tile"] == p["best"]
        assert puzzles.margin_holds(p), p["id"]
        others = [o for o in p["options"] if o["searched"] and o["tile"] != p["best"]]
        assert others and p["worlds"] >= puzzles.MIN_WORLDS
        assert all(o["loss"] > puzzles.MARGIN_Z * o["se"] for o in others)
        assert {o["tile"] for o in p["options"]} == set(p["legal"])
        assert p["explanation"].startswith(f"Discard {p['best']}") and p["explanation_zh"].startswith(f"打{p['best']}")
        # what the seat saw, nothing more: its own hand, and the others' counts only through ponds and melds
        assert set(puzzles.public(p)) <= SEEN
        assert len(p["seats"]) == 4 and p["seats"][0]["who"] == "you" and "hand" not in p["seats"][1]
        assert (len(p["hand"]) + 3 * len(p["melds"])) % 3 == 2


def test_ids_are_unique() -> None:
    ids = Counter(p["id"] for p in puzzles.load())
    assert ids and max(ids.values()) == 1


def test_the_daily_puzzle_is_the_same_for_a_date_and_varies_across_dates() -> None:
    day = dt.date(2026, 12, 8)
    for family in FAMILIES:
        assert puzzles.daily(family, day) == puzzles.daily(family, day)
        picks = {puzzles.daily(family, day + dt.timedelta(days=k))["id"] for k in range(10)}  # type: ignore[index]
        assert len(picks) >= 3
    assert puzzles.daily("nonesuch", day) is None


def test_the_verdict_is_the_servers() -> None:
    p = puzzles.puzzles("tianjin")[0]
    right = puzzles.verdict(p, p["best"])
    assert right["correct"] and right["best"] == p["best"]
    other = next(t for t in p["legal"] if t != p["best"])
    wrong = puzzles.verdict(p, other)
    assert not wrong["correct"] and wrong["explanation"] == p["explanation"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('practice') / 'p.sqlite3'}")
    try:
        with TestClient(create_app(store, limits=LOOSE)) as c:
            yield c
    finally:
        store.close()


def test_the_api(client: TestClient) -> None:
    listing = client.get("/api/puzzles?family=beijing").json()
    assert listing["family"] == "beijing" and len(listing["puzzles"]) == len(puzzles.puzzles("beijing"))
    daily = client.get("/api/puzzles/daily?family=mcr").json()
    assert daily["family"] == "mcr" and "best" not in daily and "options" not in daily
    assert daily["date"] == dt.datetime.now(dt.UTC).date().isoformat()
    p = puzzles.puzzles("tianjin")[1]
    one = client.get(f"/api/puzzles/{p['id']}").json()
    assert one == puzzles.public(p)
    v = client.post(f"/api/puzzles/{p['id']}/answer", json={"tile": p["best"]}).json()
    assert v["correct"] and v["explanation_zh"] == p["explanation_zh"] and v["options"] == p["options"]
    other = next(t for t in p["legal"] if t != p["best"])
    assert client.post(f"/api/puzzles/{p['id']}/answer", json={"tile": other}).json()["correct"] is False


@pytest.mark.parametrize("url", ["/api/puzzles/nonesuch", "/api/puzzles/daily?family=nonesuch",
                                 "/api/puzzles?family=nonesuch", "/api/puzzles/" + "x" * 300])
def test_bad_ids_and_families_are_a_404(client: TestClient, url: str) -> None:
    r = client.get(url)
    assert r.status_code == 404 and set(r.json()) == {"error"} and "\n" not in r.json()["error"]


def test_a_bad_answer(client: TestClient) -> None:
    r = client.post("/api/puzzles/nonesuch/answer", json={"tile": "1m"})
    assert r.status_code == 404 and set(r.json()) == {"error"}
    p = puzzles.puzzles("mcr")[0]
    illegal = next(t for t in ("1m", "2m", "3m", "9p", "7z", "1z") if t not in p["legal"])
    r = client.post(f"/api/puzzles/{p['id']}/answer", json={"tile": illegal})
    assert r.status_code == 400 and set(r.json()) == {"error"}
    r = client.post(f"/api/puzzles/{p['id']}/answer", json={"tile": p["best"]}, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403


def test_the_lobby_links_the_page(client: TestClient) -> None:
    assert 'href="/practice"' in client.get("/").text
    assert client.get("/practice").status_code == 200


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('practice_ui') / 'p.sqlite3'}")
    try:
        with serving(create_app(store, limits=LOOSE)) as url:
            yield url
    finally:
        store.close()


def test_the_page_on_a_phone_taps_a_discard_and_explains(browser: Browser, server: str) -> None:
    ctx = browser.new_context(**PHONE)
    ctx.add_init_script("localStorage.setItem('tjmj.lang', 'en')")
    try:
        p = puzzles.puzzles("beijing")[0]
        page = ctx.new_page()
        page.goto(f"{server}/practice?id={p['id']}")
        wrong = next(t for t in p["legal"] if t != p["best"])
        page.locator(f"[data-testid=practice-hand] button[data-tile='{wrong}']").first.tap()
        expect(page.get_by_test_id("practice-verdict")).to_have_text(f"Not the best: discard {p['best']}")
        expect(page.get_by_test_id("practice-explain")).to_have_text(p["explanation"])
        expect(page.locator(".practice-table tr.best:not(.best-why)")).to_have_count(1)
        assert page.evaluate("JSON.parse(localStorage.getItem('tjmj.practice')).puzzles")[p["id"]] == {
            "attempted": 1, "solved": False}
        expect(page.get_by_test_id("practice-stats")).to_contain_text("Solved 0 of 1")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        page.get_by_test_id("practice-drill").tap()  # a fan-counting drill: a wrong count shows the right one
        page.get_by_test_id("drill-fan").fill("0")
        page.get_by_test_id("drill-check").tap()
        expect(page.get_by_test_id("drill-verdict")).to_contain_text("Not quite")
    finally:
        ctx.close()


def test_a_signed_in_accounts_answers_are_kept_on_the_server(client: TestClient) -> None:
    assert client.get("/api/puzzles/results").status_code == 401
    p = puzzles.puzzles("beijing")[2]
    r = client.post(f"/api/puzzles/{p['id']}/answer", json={"tile": p["best"]})
    assert "kept" not in r.json()
    assert client.post("/api/account/signup", json={"name": "Puzzler", "password": "correct horse battery"}).status_code == 200
    try:
        other = next(t for t in p["legal"] if t != p["best"])
        assert client.post(f"/api/puzzles/{p['id']}/answer", json={"tile": other}).json()["kept"] is True
        assert client.post(f"/api/puzzles/{p['id']}/answer", json={"tile": p["best"]}).json()["kept"] is True
        mine = client.get("/api/puzzles/results").json()
        assert mine["account"] == "Puzzler" and mine["answered"] == 2 and mine["solved"] == 1
        assert [(x["puzzle_id"], x["correct"]) for x in mine["results"]] == [(p["id"], True), (p["id"], False)]
    finally:
        client.post("/api/account/logout")


def test_the_migration_builds_the_puzzle_results_table(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.sqlite3'}"
    command.upgrade(alembic_config(url), "head")
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_heads() == ("0008",)
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    finally:
        engine.dispose()


def test_every_drill_is_a_win_the_batch_scores() -> None:
    ds = drills.drills("tianjin")
    assert len(ds) >= 20 and len({d["id"] for d in ds}) == len(ds)
    for d in ds[:10]:
        a = drills.answer(d["line"])
        assert a["win"] and a["fan"] >= 1 and a["elements"]


def test_the_drill_api_answers_what_the_calculator_does(client: TestClient) -> None:
    assert client.get("/api/drills?family=tianjin").json()["drills"] == [d["id"] for d in drills.drills("tianjin")]
    d = drills.drills("tianjin")[0]
    got = client.get(f"/api/drills/{d['id']}").json()
    assert got == {**d, "wilds": got["wilds"]} and d["line"]["indicator"] in got["wilds"] and len(got["wilds"]) == 2
    score = client.post("/api/score?names=true", json=d["line"]).json()
    v = client.post(f"/api/drills/{d['id']}/answer", json={"fan": score["fan"]}).json()
    assert v["correct"] and v["answer"]["fan"] == score["fan"] and v["answer"]["elements"] == score["elements"]
    assert v["names"] == score["names"]
    assert client.post(f"/api/drills/{d['id']}/answer", json={"fan": score["fan"] + 1}).json()["correct"] is False
    assert client.post(f"/api/drills/{d['id']}/answer", json={"fan": "two"}).status_code == 400
    for url in ("/api/drills/nonesuch", "/api/drills?family=nonesuch"):
        r = client.get(url)
        assert r.status_code == 404 and set(r.json()) == {"error"}
