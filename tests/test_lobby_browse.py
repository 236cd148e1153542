"""The lobby's lists in the browser (issue 13, part 3): a real server on loopback and Debian's
Chromium (tests/ui_helpers.py's ``serve``: a scripted first hand, so a started match waits for its
host's first decision and stays live).

Page A sits on the lobby while page B creates a room: the room appears under "Open rooms" without a
reload, and A joins it with one click (after being asked for a name).  Page C watches the lobby while
the host starts: the room leaves the open list and shows under "Live tables", and Watch opens the
table as a spectator.  The lobby with both lists filled is checked as the other pages are: no
sideways panning and 40 px touch targets at 360 px, nothing covered, axe finds nothing serious.
Screenshots at 360×740 and 1280×800 go to ``$TJMJ_SHOTS`` (or the test's temporary folder).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.test_a11y import axe_problems
from tests.test_e2e import _watch_console
from tests.ui_helpers import INTERACTIVE, overflow, placed, report, serve, small_targets

# a change shows within ~2 s (a poll every 1.5 s, the lists rebuilt every 0.5 s); slack for a busy machine
APPEARS_MS = 4000


def _lobby(page: Page, base: str) -> None:
    page.goto(base + "/?lang=en")
    expect(page.locator("[data-testid=browse]")).to_be_visible()


def _create(page: Page, base: str, name: str) -> str:
    _lobby(page, base)
    page.fill("#name", name)
    page.locator("#create button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/table/[A-Z0-9]{6}$"))
    expect(page.locator("#waiting")).to_contain_text(name)  # connected: the room is listed from now on
    return page.url.rsplit("/", 1)[1]


def test_a_room_appears_is_joined_in_one_click_moves_to_live_and_is_watched(browser: Browser, tmp_path: Path) -> None:
    shots = Path(os.environ.get("TJMJ_SHOTS") or tmp_path)
    with serve(tmp_path / "browse.sqlite3") as base:
        contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
        try:
            for ctx in contexts:
                ctx.set_default_timeout(8000)
            a, b, c = (ctx.new_page() for ctx in contexts)
            errors = {"A": _watch_console(a), "C": _watch_console(c)}
            _lobby(a, base)
            expect(a.locator("#open-empty")).to_be_visible()
            expect(a.locator("#live-empty")).to_be_visible()
            a.evaluate("() => { window.__notReloaded = true; }")

            code = _create(b, base, "Bob")
            row = a.locator(f"#open-rooms li.roomrow[data-room='{code}']")
            expect(row).to_be_visible(timeout=APPEARS_MS)
            expect(row).to_contain_text("Bob")
            expect(row).to_contain_text("1 player of 4")
            expect(a.locator("#open-empty")).to_be_hidden()
            assert a.evaluate("() => window.__notReloaded === true"), "the lobby reloaded"

            a.fill("#name", "")  # Join asks for a name first
            join = row.get_by_role("button", name=f"Join room {code}")
            join.click()
            expect(a.locator("#name")).to_be_focused()
            expect(a).to_have_url(base + "/?lang=en")
            a.fill("#name", "Ann")
            join.click()
            expect(a).to_have_url(f"{base}/table/{code}")
            expect(a.locator("#waiting")).to_contain_text("Ann")

            _lobby(c, base)
            c.evaluate("() => { window.__notReloaded = true; }")
            crow = c.locator(f"#open-rooms li.roomrow[data-room='{code}']")
            expect(crow).to_contain_text(re.compile(r"Bob\s*host, Ann"), timeout=APPEARS_MS)
            expect(crow).to_contain_text("2 players of 4")

            b.get_by_role("button", name=re.compile("^Start")).click()
            live = c.locator(f"#live-tables li.roomrow[data-room='{code}']")
            expect(live).to_be_visible(timeout=APPEARS_MS)
            expect(crow).to_have_count(0)
            expect(live).to_contain_text("hand 1 of 4")
            expect(live.locator(".seatlist li")).to_have_count(4)
            expect(live.locator(".seatlist .tag")).to_have_count(2)  # the two bots are marked
            assert c.evaluate("() => window.__notReloaded === true"), "the lobby reloaded"

            # a second room waits for players, so that both lists show: layout, axe, screenshots
            b2 = contexts[1].new_page()
            other = _create(b2, base, "Cy")
            expect(c.locator(f"#open-rooms li.roomrow[data-room='{other}']")).to_be_visible(timeout=APPEARS_MS)
            problems = placed(c, INTERACTIVE, "interactive element", scroll=True, at_least=0) + axe_problems(c)
            c.screenshot(path=str(shots / "lobby_1280x800.png"), full_page=True)
            phone = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
                                        has_touch=True)
            try:
                p = phone.new_page()
                _lobby(p, base)
                expect(p.locator(f"#live-tables li.roomrow[data-room='{code}']")).to_be_visible(timeout=APPEARS_MS)
                expect(p.locator(f"#open-rooms li.roomrow[data-room='{other}']")).to_be_visible()
                problems += overflow(p) + small_targets(p, 40)
                problems += placed(p, INTERACTIVE, "interactive element", scroll=True, at_least=0)
                p.locator("[data-testid=browse]").scroll_into_view_if_needed()
                p.screenshot(path=str(shots / "lobby_360x740.png"))
                p.screenshot(path=str(shots / "lobby_360x740_full.png"), full_page=True)
            finally:
                phone.close()
            report("the lobby with open rooms and live tables", problems)

            live.get_by_role("link", name=f"Watch {code}").click()
            expect(c).to_have_url(f"{base}/table/{code}")
            expect(c.locator("#conn")).to_contain_text("watching")
            expect(c.locator("#table")).to_be_visible()
            assert not any(errors.values()), errors
        finally:
            for ctx in contexts:
                ctx.close()
