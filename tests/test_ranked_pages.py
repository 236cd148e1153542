"""Ranked play in the browser (issue 31, part 4): four browsers — two phones, two desktops — sign
up, queue for ranked Tianjin, and land at one table; the card counts who waits; the table says
"Ranked" and offers "Leave the match"; a guest sees no ranked card.  A real server on loopback
(tests/ui_helpers.py's ``serve``) and Debian's Chromium; axe on the lobby with the card shown."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.test_a11y import axe_problems
from tests.test_account_pages import _errors, _sign_up
from tests.ui_helpers import overflow, serve

PASSWORD = "a long enough password"


def _context(browser: Browser, phone: bool) -> BrowserContext:
    if phone:
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    else:
        ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.set_default_timeout(15000)
    return ctx


def _queue(page: Page) -> None:
    card = page.locator("[data-testid=ranked]")
    expect(card).to_be_visible()
    page.select_option("#ranked_family", "tianjin")
    page.select_option("#ranked_hands", "4")
    page.locator("#ranked-go").click()


def test_four_browsers_queue_for_ranked_and_land_at_one_table(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path / "ranked.sqlite3") as base:
        contexts = [_context(browser, phone=i < 2) for i in range(4)]
        try:
            guest = contexts[0].new_page()
            guest.goto(base + "/?lang=en")
            expect(guest.locator("[data-testid=account-area]")).to_be_visible()
            expect(guest.locator("[data-testid=ranked]")).to_be_hidden()  # ranked play is for accounts
            guest.close()
            pages = [ctx.new_page() for ctx in contexts]
            errors = [_errors(p) for p in pages]
            names = ["Ann", "Ben", "Cai", "Dee"]
            for page, name in zip(pages, names, strict=True):
                _sign_up(page, base, name, PASSWORD)
            problems = axe_problems(pages[0])  # the lobby with the ranked card
            assert not problems, problems
            assert not overflow(pages[0]), "the lobby pans sideways at 390 px"
            for i, page in enumerate(pages[:3]):
                _queue(page)
                # the card counts who waits (each page asks every second), the leave button is offered
                expect(page.locator("[data-testid=ranked-status]")).to_contain_text(f"{i + 1} waiting")
                expect(page.locator("#ranked-leave")).to_be_visible()
            expect(pages[0].locator("[data-testid=ranked-status]")).to_contain_text("3 waiting")
            # one leaves and comes back: the queue says so
            pages[2].locator("#ranked-leave").click()
            expect(pages[2].locator("#ranked-go")).to_be_visible()
            expect(pages[0].locator("[data-testid=ranked-status]")).to_contain_text("2 waiting")
            _queue(pages[2])
            _queue(pages[3])
            rooms = []
            for page in pages:
                page.wait_for_url(re.compile(r"/table/[A-Z0-9]+$"), timeout=20000)
                rooms.append(page.url.rsplit("/", 1)[1])
            assert len(set(rooms)) == 1, rooms  # all four at one table
            for page in pages:
                expect(page.locator("#ranked-badge")).to_be_visible()
                expect(page.locator(".myhand")).to_be_visible()
            desk = pages[3]
            desk.locator("#leave-ranked").wait_for(state="attached")
            expect(desk.locator("#leave-ranked")).to_have_text("Leave the match")
            for e in errors:
                assert not e, e
        finally:
            for ctx in contexts:
                ctx.close()
