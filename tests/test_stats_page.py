"""The player page (issue 13): /player/{name} in Chromium, over the database of tests/test_stats.py.

It shows each family's figures as the API has them, and the score over time as an SVG line with one
point per match; the history links a person's name to it, the lobby links "My statistics" with the
browser's name and player id.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.test_stats import ID_A, PER_FAMILY, fill
from tests.ui_helpers import serve
from tjmj.web.store import Store


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("page") / "tjmj.sqlite3"
    with Store(f"sqlite:///{db}") as s:
        fill(s)
    with serve(Path(db)) as url:
        yield url


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    p = context.new_page()
    yield p
    context.close()


def test_the_player_page_shows_the_figures_and_the_plot(base: str, page: Page) -> None:
    page.goto(f"{base}/api/players/Ann?id={ID_A}")
    report = page.evaluate("() => JSON.parse(document.body.innerText)")
    page.goto(f"{base}/player/Ann?id={ID_A}&lang=en")
    expect(page.get_by_test_id("player-title")).to_have_text("Statistics: Ann")
    expect(page.get_by_test_id("player-summary")).to_contain_text(f"matches: {report['matches']} ")
    for family, f in report["families"].items():
        section = page.get_by_test_id(f"family-{family}")
        expect(section.get_by_test_id("matches").locator("dd")).to_have_text(str(f["matches"]))
        expect(section.get_by_test_id("wins").locator("dd")).to_have_text(str(f["wins"]))
        expect(section.get_by_test_id("place-1").locator("dd")).to_have_text(str(f["placements"][0]))
        # one point per match, in order, at the running total
        points = section.locator("svg.score-plot circle.point")
        expect(points).to_have_count(f["matches"])
        assert f["matches"] == PER_FAMILY // 3
        ids = [points.nth(i).get_attribute("data-match") for i in range(f["matches"])]
        assert ids == [str(p["match_id"]) for p in f["timeline"]]
        expect(section.locator("table.elements tbody tr")).to_have_count(len(f["elements"]) or 0)
    expect(page.get_by_test_id("family-tianjin").get_by_test_id("sit")).to_contain_text("sat")
    expect(page.get_by_test_id("family-beijing").get_by_test_id("chan")).to_have_count(0)
    page.screenshot(path="/tmp/player.png", full_page=True)
    # in Chinese
    page.goto(f"{base}/player/Ann?id={ID_A}&lang=zh")
    expect(page.get_by_test_id("player-title")).to_have_text("Ann 的统计")
    expect(page.get_by_test_id("family-tianjin").get_by_test_id("sit")).to_contain_text("坐庄")


def test_an_unknown_player(base: str, page: Page) -> None:
    page.goto(f"{base}/player/Nobody?lang=en")
    expect(page.locator("#families")).to_have_text("No finished matches of this player")


def test_history_and_lobby_link_to_the_player_page(base: str, page: Page) -> None:
    page.goto(f"{base}/history?lang=en")
    link = page.get_by_role("link", name="Statistics of Ann").first
    expect(link).to_have_attribute("href", "/player/Ann")
    expect(page.get_by_role("link", name="Statistics of Bot 2")).to_have_count(0)  # bots are not players
    link.click()
    expect(page.get_by_test_id("player-title")).to_have_text("Statistics: Ann")
    expect(page.get_by_test_id("player-summary")).to_contain_text("matches: 36 ")  # every Ann, by name
    # the lobby: "My statistics" with this browser's name and id
    page.goto(f"{base}/?lang=en")
    page.evaluate(f"() => {{ localStorage.setItem('tjmj.name', 'Ann'); localStorage.setItem('tjmj.player_id', '{ID_A}'); }}")
    page.reload()
    mine = page.locator("#my-stats")
    expect(mine).to_be_visible()
    expect(mine).to_have_attribute("href", f"/player/Ann?id={ID_A}")
    mine.click()
    expect(page.get_by_test_id("player-summary")).to_contain_text(f"matches: {3 * PER_FAMILY // 3} ")


def test_the_lobby_makes_a_player_id_once(base: str, page: Page) -> None:
    page.goto(f"{base}/?lang=en")
    page.fill("#name", "Zed")
    expect(page.locator("#my-stats")).to_be_visible()
    first = page.evaluate("() => localStorage.getItem('tjmj.player_id')")
    assert isinstance(first, str) and len(first) == 16
    page.reload()
    page.fill("#name", "Zed")
    assert page.evaluate("() => localStorage.getItem('tjmj.player_id')") == first
    expect(page.locator("#my-stats")).to_have_attribute("href", f"/player/Zed?id={first}")
