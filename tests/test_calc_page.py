"""The calculator page (算番器, ``/calc``; issue 32, part 2) at a phone's size (390×844, touch):
hands picked by tapping the tile palette score exactly what the batch (``tjmj.jsonlines.batch_answer``)
gives for the same line; a Tianjin hand with its indicator; a 13-tile hand's waits (``POST
/api/waits``, checked against ``tjmj waits --json``'s answer); a bad hand's one-line error; the
service worker keeps the page for offline use and the page says scoring needs the server; axe finds
no serious or critical violation.  Also the routes: the manifest, the worker's content type, the
lobby's link."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page, expect
from starlette.testclient import TestClient

from tests.test_web import LOOSE
from tests.ui_helpers import serving
from tjmj.jsonlines import batch_answer
from tjmj.web.app import create_app
from tjmj.web.calc import waits_answer
from tjmj.web.store import Store

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
MCR_LINE = {"hand": "123456789m5p", "draw": "5p", "melds": [{"type": "pon", "tile": "1z"}], "flowers": 1,
            "self_drawn": True, "seat_wind": 1, "prevalent_wind": 0, "ruleset": "mcr"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('calc') / 'c.sqlite3'}")
    try:
        with serving(create_app(store, limits=LOOSE)) as url:
            yield url
    finally:
        store.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(**PHONE)
    ctx.add_init_script("localStorage.setItem('tjmj.lang', 'en')")
    yield ctx
    ctx.close()


def open_calc(context: BrowserContext, server: str, family: str | None = None) -> Page:
    page = context.new_page()
    page.goto(f"{server}/calc")
    expect(page.locator("#palette button[data-tile='1m']")).to_be_visible()
    if family:
        page.select_option("[data-testid=calc-family]", family)
    return page


def tap_tiles(page: Page, text: str) -> None:
    """Tap each tile of plain MPSZ text on the palette, in order."""
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
            continue
        for d in digits:
            page.locator(f"#palette button[data-tile='{d}{ch}']").tap()
        digits = ""


def target(page: Page, name: str) -> None:
    page.locator(f"[data-target={name}]").tap()


def test_an_mcr_hand_tapped_in_scores_what_the_batch_scores(context: BrowserContext, server: str) -> None:
    page = open_calc(context, server, "mcr")
    tap_tiles(page, "123456789m5p")
    target(page, "pon")
    tap_tiles(page, "1z")
    target(page, "win")
    tap_tiles(page, "5p")
    tap_tiles(page, "1f")  # a flower goes to the flowers, whatever the target
    page.locator("[data-flag=self_drawn]").tap()
    page.select_option("[data-testid=calc-seat_wind]", "1")
    want = batch_answer(orjson.dumps(MCR_LINE))
    assert want["win"] and want["flowers"] == 1
    fans: list[dict[str, object]] = want["fans"]  # type: ignore[assignment]
    names = page.locator("[data-testid=calc-names] li")
    expect(names).to_have_count(len(fans))
    assert [names.nth(i).get_attribute("data-code") for i in range(len(fans))] == [f["code"] for f in fans]
    for i, f in enumerate(fans):  # each fan named in both languages, with its value
        text = names.nth(i).inner_text()
        assert str(f["name"]) in text and str(f["en"]) in text and str(int(f["fan"]) * int(f["count"])) in text  # type: ignore[call-overload]
    expect(page.locator("[data-testid=calc-value]")).to_have_text(str(want["total"]))
    expect(page.locator("[data-testid=calc-summary]")).to_have_text(f"A win · fan {want['total']}")  # at the top
    expect(page.locator(".arr .group")).to_have_count(len(want["arrangement"]["groups"]))  # type: ignore[index]
    expect(page.locator("[data-testid=calc-text]")).to_have_value("123456789m5p")
    # a tile is removed by tapping it, and the text follows
    page.locator("#hand button[data-tile='5p']").tap()
    expect(page.locator("[data-testid=calc-text]")).to_have_value("123456789m")
    # touch targets on a phone: the palette fits the width, every button at least 40 px
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    small = page.evaluate("""[...document.querySelectorAll('.calc button, .calc select')]
        .filter((b) => b.offsetParent).map((b) => b.getBoundingClientRect())
        .filter((r) => r.width < 40 || r.height < 40).map((r) => [r.width, r.height])""")
    assert small == []


def test_a_tianjin_hand_with_its_indicator(context: BrowserContext, server: str) -> None:
    page = open_calc(context, server)  # the default family
    text = page.locator("[data-testid=calc-text]")
    text.fill("123m678p999p234s4p")  # typed: the palette's hand follows
    expect(page.locator("#hand button[data-tile]")).to_have_count(13)
    target(page, "indicator")
    tap_tiles(page, "4p")
    target(page, "win")
    tap_tiles(page, "5m")
    want = batch_answer(orjson.dumps({"hand": "123m678p999p234s4p", "draw": "5m", "indicator": "4p", "ruleset": "classic"}))
    assert "error" not in want
    expect(page.locator("[data-testid=calc-value]")).to_have_text(str(want["fan"]))
    codes = list(want["elements"])  # type: ignore[call-overload]
    assert codes
    expect(page.locator("[data-testid=calc-names] li")).to_have_count(len(codes))
    assert page.locator("[data-testid=calc-names] li").evaluate_all("(xs) => xs.map((x) => x.dataset.code)") == codes


def test_a_13_tile_hand_shows_its_waits(context: BrowserContext, server: str) -> None:
    page = open_calc(context, server)
    target(page, "indicator")
    tap_tiles(page, "4p")
    target(page, "hand")
    tap_tiles(page, "123m678p999p234s4p")
    want = waits_answer(orjson.dumps({"hand": "123m678p999p234s4p", "indicator": "4p", "ruleset": "classic"}))
    tiles = [w["tile"] for w in want["waits"]]
    assert tiles
    waits = page.locator("[data-testid=calc-waits] li")
    expect(waits).to_have_count(len(tiles))
    assert waits.evaluate_all("(xs) => xs.map((x) => x.dataset.tile)") == tiles


def test_a_bad_hand_shows_the_servers_one_line_error(context: BrowserContext, server: str) -> None:
    page = open_calc(context, server)
    target(page, "indicator")
    tap_tiles(page, "1z")
    target(page, "win")
    tap_tiles(page, "5s")
    page.locator("[data-testid=calc-text]").fill("123m456m789m123p5")  # a tile without its suit
    want = batch_answer(orjson.dumps({"hand": "123m456m789m123p5", "draw": "5s", "indicator": "1z", "ruleset": "classic"}))
    assert "error" in want
    expect(page.locator("[data-testid=calc-error]")).to_have_text(str(want["error"]))
    expect(page.locator("[data-testid=calc-text]")).to_have_value("123m456m789m123p5")  # the input is kept


def test_offline_the_page_opens_and_says_scoring_needs_the_server(context: BrowserContext, server: str) -> None:
    page = open_calc(context, server)
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")  # registered, installed, active
    assert scope == f"{server}/"
    page.reload()  # now controlled by the worker, its cache filled on install
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    context.set_offline(True)
    try:
        page.reload()
        expect(page.locator("#palette button[data-tile='1m']")).to_be_visible()
        target(page, "hand")
        tap_tiles(page, "123m678p999p234s4p")
        expect(page.locator("[data-testid=calc-offline]")).to_have_text("Scoring needs the server: you are offline")
        expect(page.locator("[data-testid=calc-summary]")).to_have_text("Scoring needs the server: you are offline")
        expect(page.locator("[data-testid=calc-text]")).to_have_value("123m4678999p234s")  # kept, in order
    finally:
        context.set_offline(False)


def test_axe_finds_no_serious_violation_on_the_calculator(context: BrowserContext, server: str) -> None:
    page = open_calc(context, server, "mcr")
    tap_tiles(page, "123456789m5p")
    target(page, "pon")
    tap_tiles(page, "1z")
    target(page, "win")
    tap_tiles(page, "5p")
    expect(page.locator("[data-testid=calc-verdict]")).to_be_visible()
    found = Axe().run(page).response["violations"]
    bad = [f"{v['id']} ({v['impact']}): {v['help']}" for v in found if v["impact"] in ("serious", "critical")]
    assert not bad, bad


def test_the_manifest_worker_and_lobby_link(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 's.sqlite3'}")
    try:
        with TestClient(create_app(store, limits=LOOSE)) as c:
            m = c.get("/manifest.webmanifest")
            assert m.status_code == 200 and m.headers["content-type"].startswith("application/manifest+json")
            manifest = m.json()
            assert manifest["start_url"] == "/calc" and manifest["display"] == "standalone" and manifest["icons"]
            assert c.get(manifest["icons"][0]["src"]).status_code == 200
            sw = c.get("/sw.js")
            assert sw.status_code == 200 and sw.headers["content-type"].startswith("text/javascript")
            assert "default-src 'self'" in sw.headers["content-security-policy"]  # worker-src, manifest-src: 'self'
            page = c.get("/calc")
            assert 'rel="manifest"' in page.text
            assert 'href="/calc"' in c.get("/").text
            keys = c.get("/static/calckeys.js")
            assert keys.status_code == 200 and '"mcr"' in keys.text
    finally:
        store.close()
