"""The account pages in the browser (issue 31, parts 1 and 2): a real server on loopback
(tests/ui_helpers.py's ``serve``: a scripted first hand, quiet bots) and Debian's Chromium.

* The lobby's account area (a guest's lobby does not ask ``/api/account/me``): sign up (then
  "Signed in as NAME", the name field read-only and the account's name in it, "My statistics" by the account's player id), log out, a wrong password
  shows the server's error in a live region, the right one signs in, a reload stays signed in;
  quick play while signed in seats the account's name with no guest marker.
* A guest's room: another browser context, signed in, joins it; both see the guest marker beside
  the guest (in the waiting room and, once started, in the seat header) and none beside the account;
  the guest cannot take the account's name (409, said in words).
* /account: the name and since when, change the password (a mismatch refused), log out, the old
  password refused and the new one accepted, delete the account (a wrong password refused).
* axe finds nothing serious on the lobby with the sign-up form open and on /account (signed in and
  out); /account does not pan sideways at 360 px.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.test_a11y import axe_problems
from tests.ui_helpers import overflow, report, serve, small_targets


def _context(browser: Browser, width: int = 1280, height: int = 800) -> BrowserContext:
    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.set_default_timeout(8000)
    return ctx


def _errors(page: Page) -> list[str]:
    """The page's script errors (a CSP violation among them); a 401 or 409 answer is logged by
    Chromium as a failed resource: those are expected here and left out."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and "Failed to load resource" not in m.text else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def _lobby(page: Page, base: str) -> None:
    page.goto(base + "/?lang=en")
    expect(page.locator("[data-testid=account-area]")).to_be_visible()


def _auth(page: Page, form: str, mode: str, name: str, password: str) -> None:
    """Fill the log-in or sign-up form ``form`` (its id) and send it."""
    f = page.locator(f"#{form}")
    if f.get_attribute("data-mode") != mode:
        f.locator(f"[data-testid={form}-swap]").click()
    expect(f).to_have_attribute("data-mode", mode)
    page.fill(f"#{form}-name", name)
    page.fill(f"#{form}-password", password)
    f.locator(f"[data-testid={form}-submit]").click()


def _sign_up(page: Page, base: str, name: str, password: str) -> None:
    _lobby(page, base)
    page.locator("#show-signup").click()
    expect(page.locator("#lobby-auth-name")).to_be_focused()
    expect(page.locator("#lobby-auth-password")).to_have_attribute("autocomplete", "new-password")
    _auth(page, "lobby-auth", "signup", name, password)
    expect(page.locator("#signed-in-as")).to_have_text(f"Signed in as {name}")


def test_sign_up_log_out_log_in_and_quick_play_as_the_account(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path / "acct.sqlite3") as base:
        ctx = _context(browser)
        try:
            page = ctx.new_page()
            errors = _errors(page)
            asked: list[str] = []
            page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/api/account/me") else None)
            _lobby(page, base)
            expect(page.locator("#show-login")).to_be_visible()
            assert not asked, "a guest's lobby asked who is signed in (a 401: a console error on every visit)"
            expect(page.locator("#quick")).to_be_enabled()  # a guest plays in one click, as before
            expect(page.locator("#name")).to_be_editable()

            _sign_up(page, base, "Alice", "first password")
            name = page.locator("#name")
            expect(name).to_have_value("Alice")
            expect(name).not_to_be_editable()
            expect(page.locator("#account-link")).to_have_attribute("href", "/account")
            expect(page.locator("#my-stats")).to_have_attribute("href", re.compile(r"^/player/Alice\?id=."))
            expect(page.locator("#show-login")).to_be_hidden()

            page.locator("#logout").click()
            expect(page.locator("#show-login")).to_be_visible()
            expect(page.locator("#signed-in-as")).to_be_hidden()
            expect(name).to_be_editable()

            page.locator("#show-login").click()
            expect(page.locator("#lobby-auth-password")).to_have_attribute("autocomplete", "current-password")
            _auth(page, "lobby-auth", "login", "Alice", "not the password")
            status = page.locator("[data-testid=lobby-auth-status]")
            expect(status).to_have_text("Wrong name or password")
            expect(status).to_have_attribute("aria-live", "polite")
            _auth(page, "lobby-auth", "login", "Alice", "first password")
            expect(page.locator("#signed-in-as")).to_have_text("Signed in as Alice")

            page.reload()  # GET /api/account/me on load: still signed in
            expect(page.locator("#signed-in-as")).to_be_visible()
            assert asked, "a signed-in browser's lobby did not ask who is signed in"
            expect(page.locator("#signed-in-as")).to_have_text("Signed in as Alice")
            expect(name).to_have_value("Alice")
            expect(name).not_to_be_editable()

            page.locator("#quick").click()
            expect(page).to_have_url(re.compile(r"/table/[A-Z0-9]{6}$"))
            head = page.locator("#pos-0 .seathead")
            expect(head.locator(".pname")).to_have_text("Alice")
            expect(head.locator(".tag.you")).to_be_visible()
            expect(page.locator("#table [data-testid=guest]")).to_have_count(0)  # an account and three bots
            assert not errors, errors
        finally:
            ctx.close()


def test_a_guest_is_marked_for_everyone_and_an_account_is_not(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path / "guest.sqlite3") as base:
        guest_ctx, acct_ctx = _context(browser), _context(browser)
        try:
            g, a = guest_ctx.new_page(), acct_ctx.new_page()
            errors = {"guest": _errors(g), "account": _errors(a)}

            _lobby(g, base)  # axe on the lobby with the sign-up form open
            g.locator("#show-signup").click()
            expect(g.locator("#lobby-auth")).to_be_visible()
            report("axe on the lobby's sign-up form", axe_problems(g))
            g.locator("#lobby-auth button", has_text="Cancel").click()
            expect(g.locator("#lobby-auth")).to_be_hidden()
            expect(g.locator("#show-login")).to_be_focused()

            g.fill("#name", "Gus")
            g.locator("#create button[type=submit]").click()
            expect(g).to_have_url(re.compile(r"/table/[A-Z0-9]{6}$"))
            code = g.url.rsplit("/", 1)[1]
            expect(g.locator("#waiting li", has_text="Gus").locator("[data-testid=guest]")).to_have_text("guest")

            _sign_up(a, base, "Ann", "ann's password")
            a.goto(f"{base}/table/{code}?lang=en")  # the table's own join form: the account's name, read-only
            name_box = a.locator("#waiting .joinform input")
            expect(name_box).to_have_value("Ann")
            expect(name_box).to_have_attribute("readonly", "")
            _lobby(a, base)
            a.fill("#join input[name=code]", code)
            a.locator("#join button[type=submit]").click()
            expect(a).to_have_url(f"{base}/table/{code}")
            for page in (a, g):
                expect(page.locator("#waiting li", has_text="Ann")).to_be_visible()
                expect(page.locator("#waiting li", has_text="Ann").locator("[data-testid=guest]")).to_have_count(0)
                marker = page.locator("#waiting li", has_text="Gus").locator("[data-testid=guest]")
                expect(marker).to_have_text("guest")
                expect(marker).to_have_attribute("title", re.compile("not signed in"))

            g.get_by_role("button", name=re.compile("^Start")).click()
            gus = a.locator(".seathead", has_text="Gus")
            expect(gus.locator("[data-testid=guest]")).to_have_count(1)
            expect(a.locator(".seathead", has_text="Ann").locator("[data-testid=guest]")).to_have_count(0)
            expect(a.locator("#table [data-testid=guest]")).to_have_count(1)

            _lobby(g, base)  # a guest cannot take an account's name (409), said in the page's language
            g.fill("#name", "Ann")
            g.locator("#quick").click()
            expect(g.locator("#toasts")).to_contain_text("That name belongs to an account")
            expect(g).to_have_url(base + "/?lang=en")
            assert not any(errors.values()), errors
        finally:
            guest_ctx.close()
            acct_ctx.close()


def test_account_page_changes_the_password_and_deletes_the_account(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path / "page.sqlite3") as base:
        ctx = _context(browser)
        phone = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
                                    has_touch=True)
        try:
            page = ctx.new_page()
            errors = _errors(page)
            _sign_up(page, base, "Cleo", "first password")
            page.locator("#account-link").click()
            expect(page).to_have_url(f"{base}/account")
            expect(page.locator("[data-testid=signed-in-as]")).to_have_text("Signed in as Cleo")
            expect(page.locator("[data-testid=since]")).to_contain_text("Account since")
            expect(page.locator("#my-stats")).to_have_attribute("href", re.compile(r"^/player/Cleo\?id=."))
            expect(page.locator("html")).to_have_attribute("lang", "en")
            report("axe on /account, signed in", axe_problems(page))

            status = page.locator("[data-testid=change-status]")
            page.fill("#current", "first password")
            page.fill("#new1", "second password")
            page.fill("#new2", "second passwort")
            page.locator("[data-testid=change-submit]").click()
            expect(status).to_have_text("The two new passwords differ")
            page.fill("#current", "wrong password")
            page.fill("#new2", "second password")
            page.locator("[data-testid=change-submit]").click()
            expect(status).to_have_text("Wrong name or password")
            page.fill("#current", "first password")
            page.locator("[data-testid=change-submit]").click()
            expect(status).to_have_text("The password is changed")
            expect(page.locator("#current")).to_have_value("")

            page.locator("#logout").click()
            expect(page.locator("[data-testid=signed-out]")).to_be_visible()
            expect(page.locator("[data-testid=signed-in]")).to_be_hidden()
            expect(page.locator("#page-auth-name")).to_be_focused()
            report("axe on /account, signed out", axe_problems(page))
            _auth(page, "page-auth", "login", "Cleo", "first password")
            expect(page.locator("[data-testid=page-auth-status]")).to_have_text("Wrong name or password")
            _auth(page, "page-auth", "login", "Cleo", "second password")
            expect(page.locator("[data-testid=signed-in-as]")).to_have_text("Signed in as Cleo")

            p = phone.new_page()  # the same account in a phone-sized browser: no sideways panning
            p.goto(base + "/?lang=en")
            p.locator("#show-login").click()
            _auth(p, "lobby-auth", "login", "Cleo", "second password")
            expect(p.locator("#signed-in-as")).to_have_text("Signed in as Cleo")
            report("the lobby signed in at 360 px", overflow(p) + small_targets(p, 40, within="#account"))
            p.goto(base + "/account")
            expect(p.locator("[data-testid=signed-in-as]")).to_have_text("Signed in as Cleo")
            report("/account at 360 px", overflow(p) + small_targets(p, 40, within="main"))

            warning = page.locator("#delete-warning")
            expect(warning).to_contain_text("Finished matches stay")
            expect(page.locator("#delete-password")).to_have_attribute("autocomplete", "current-password")
            page.fill("#delete-password", "first password")
            page.locator("[data-testid=delete-submit]").click()
            expect(page.locator("[data-testid=delete-status]")).to_have_text("Wrong name or password")
            page.fill("#delete-password", "second password")
            page.locator("[data-testid=delete-submit]").click()
            expect(page.locator("[data-testid=page-status]")).to_have_text("The account Cleo is deleted")
            expect(page.locator("[data-testid=signed-out]")).to_be_visible()
            assert page.evaluate("() => fetch('/api/account/me').then((r) => r.status)") == 401

            page.goto(base + "/account?lang=zh")  # the other language, signed out
            expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
            expect(page.locator("h1")).to_have_text("我的账号")
            expect(page.locator("#page-auth-name")).to_be_visible()
            expect(page.locator("label[for=page-auth-name]")).to_have_text("账号名")
            assert not errors, errors
        finally:
            ctx.close()
            phone.close()
