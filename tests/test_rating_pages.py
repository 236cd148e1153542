"""The leaderboard and the rating on the player page in the browser (issue 31, part 3): a real
server on loopback (tests/ui_helpers.py's ``serve``) over a database with ranked matches already
finished, and Debian's Chromium.

* /leaderboard: a table with a caption and column headers, the accounts best first, the bot levels
  as rows marked "bot" where their fixed ratings fall; the family selector (keyboard) switches to a
  game nobody has played ranked: said in words, the bots still listed; in Chinese too.
* /player/NAME of an account: its rating and the chart of its history, with a text alternative.
* axe finds nothing serious on either; neither pans sideways at 360 px; the touch targets are big
  enough on a phone.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.test_a11y import axe_problems
from tests.test_ratings import _account, _play, _player
from tests.ui_helpers import overflow, report, serve, small_targets
from tjmj.web.store import Store

NAMES = ("Ann", "Bo", "Cy", "Di")


def _ranked(db: Path) -> None:
    """Two ranked Tianjin matches among four accounts: Bo first twice, Cy last twice."""
    store = Store(f"sqlite:///{db}")
    try:
        ids = [_account(store, n) for n in NAMES]
        for _ in range(2):
            _play(store, [_player(s, n, ids[s]) for s, n in enumerate(NAMES)], [10, 40, -30, -20])
    finally:
        store.close()


def _errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def test_the_leaderboard_and_the_rating_chart(browser: Browser, tmp_path: Path) -> None:
    db = tmp_path / "ratings.sqlite3"
    _ranked(db)
    with serve(db) as base:
        ctx = browser.new_context(viewport={"width": 1280, "height": 800})
        ctx.set_default_timeout(8000)
        try:
            page = ctx.new_page()
            errors = _errors(page)
            page.goto(base + "/leaderboard?lang=en")
            board = page.locator("[data-testid=leaderboard]")
            expect(board).to_be_visible()
            expect(board.locator("caption")).to_have_text("Tianjin mahjong leaderboard")
            expect(board.locator("thead th[scope=col]")).to_have_count(4)
            players = board.locator("[data-testid=lb-player]")
            expect(players).to_have_count(4)
            assert [players.nth(i).locator("td").nth(1).inner_text() for i in range(4)] == ["Bo", "Ann", "Di", "Cy"]
            bots = board.locator("[data-testid=lb-bot]")
            expect(bots).to_have_count(4)
            expect(bots.first.locator(".tag")).to_have_text("bot")
            shown = [int(r.locator("td").nth(2).inner_text()) for r in board.locator("tbody tr").all()]
            assert shown == sorted(shown, reverse=True), shown
            report("leaderboard (axe)", axe_problems(page))

            select = page.locator("#family")
            select.focus()
            select.select_option("beijing")  # as a keyboard's arrows would
            expect(page.locator("[data-testid=lb-empty]")).to_be_visible()
            expect(page.locator("[data-testid=lb-bot]")).to_have_count(4)
            assert page.url.endswith("/leaderboard?family=beijing")

            page.locator("#lang").click()
            expect(page.locator("thead th").nth(2)).to_have_text("等级分")
            expect(page.locator("[data-testid=lb-empty]")).to_contain_text("排位赛")
            page.locator("#lang").click()

            page.goto(base + "/player/Bo?lang=en")
            section = page.locator("[data-testid=rating-tianjin]")
            expect(section).to_be_visible()
            expect(section.locator("[data-testid=rated-matches] dd")).to_have_text("2")
            chart = section.locator("svg[data-testid=rating-plot]")
            expect(chart).to_have_attribute("role", "img")
            assert "after each of 2 ranked matches" in (chart.get_attribute("aria-label") or "")
            expect(chart.locator("circle")).to_have_count(2)
            report("player page with ratings (axe)", axe_problems(page))
            assert not errors, errors
        finally:
            ctx.close()

        phone = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
        phone.set_default_timeout(8000)
        try:
            page = phone.new_page()
            page.goto(base + "/leaderboard?lang=zh")
            expect(page.locator("[data-testid=leaderboard]")).to_be_visible()
            report("leaderboard at 360 px", overflow(page) + small_targets(page, within="main"))
            page.goto(base + "/player/Bo?lang=zh")
            expect(page.locator("[data-testid=rating-plot]")).to_be_visible()
            report("player page at 360 px", overflow(page))
        finally:
            phone.close()
