"""End-to-end: a real server on loopback, Debian's Chromium driven by Playwright (issue 4).

A person opens the lobby, creates a one-hand room against bots, plays the hand by clicking until
the settlement appears, opens its replay; two people share a room from two browser contexts.
These tests never skip: `./test` installs the browser (CI runs it with CI=true).
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tjmj.web.app import create_app
from tjmj.web.store import Store

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(store: Store, port: int) -> tuple[uvicorn.Server, threading.Thread]:
    app = create_app(store, bot_delay=0.0, next_delay=1.0, rate_limit=(200, 100.0))
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    return srv, thread


def _stop(srv: uvicorn.Server, thread: threading.Thread) -> None:
    srv.should_exit = True
    thread.join(timeout=15)
    assert not thread.is_alive(), "the server did not stop"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("db") / "e2e.sqlite3"
    store = Store(f"sqlite:///{db}")
    port = _free_port()
    srv, thread = _start(store, port)
    yield f"http://127.0.0.1:{port}"
    _stop(srv, thread)
    store.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), "Debian's chromium is needed: ./test installs it"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _not_blank(page: Page, path: Path) -> None:
    """The screenshot is a real page: large, and the page shows tiles and text."""
    png = page.screenshot(path=str(path), full_page=True)
    assert len(png) > 20_000, f"screenshot {path.name} looks blank ({len(png)} bytes)"


def _step(page: Page) -> None:
    """One click like a person: win when offered, else discard the drawn tile, else the first choice."""
    win = page.locator("button.act-win")
    if win.count():
        win.first.click()
        return
    tiles = page.locator("#myhand .htile img.can")
    if tiles.count():
        drawn = page.locator("#myhand .htile img.can.drawn")
        (drawn.first if drawn.count() else tiles.last).click()
        return
    buttons = page.locator("#myhand button.act")
    if buttons.count():
        buttons.first.click()  # sit/pull choices and claims: the first offered (pon/kong before pass)


def _play_until_settlement(*pages: Page, limit_s: float = 90) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if all(p.locator("#overlay").is_visible() for p in pages):
            return
        for p in pages:
            if not p.locator("#overlay").is_visible():
                _step(p)
        pages[0].wait_for_timeout(80)
    pytest.fail("no settlement within the time limit")


def _watch_console(page: Page) -> list[str]:
    """Console errors of the page (a Content-Security-Policy violation shows up here)."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def test_play_a_hand_against_bots_then_replay(server: str, browser: Browser, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = _watch_console(page)
    page.on("dialog", lambda d: d.accept())  # discarding a wild asks for confirmation
    page.goto(server + "/")
    page.fill("#name", "e2e")
    page.select_option("#match_hands", "1")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/table/**")
    page.locator("button.primary.big").click()  # start: bots fill the three seats
    page.wait_for_selector("#myhand", timeout=10_000)
    _not_blank(page, tmp_path / "table.png")
    _play_until_settlement(page)
    modal = page.locator("#modal").inner_text()
    assert "结算" in modal or "Settlement" in modal
    _not_blank(page, tmp_path / "settlement.png")
    # a one-hand match is over: the header names no next hand, and no seat keeps a dealer mark
    expect(page.locator("#handinfo")).not_to_be_empty()  # (no wait_for_function: the CSP forbids eval)
    header = page.locator("#handinfo").inner_text()
    assert "Hand 2" not in header and "第 2 局" not in header and ("终局" in header or "Final" in header), header
    assert page.locator(".seat .mark.dealer").count() == 0
    assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
    # the match was one hand: the settlement links to its replay
    page.locator("a[href^='/replay/']").first.click()
    page.wait_for_url("**/replay/**")
    page.wait_for_timeout(500)
    body = page.locator("body").inner_text()
    assert "e2e" in body
    _not_blank(page, tmp_path / "replay.png")
    page.close()


def test_two_people_share_a_room(server: str, browser: Browser) -> None:
    host_ctx, guest_ctx = browser.new_context(), browser.new_context()
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    host.goto(server + "/")
    host.fill("#name", "host")
    host.select_option("#match_hands", "1")
    host.click("#create button[type=submit]")
    host.wait_for_url("**/table/**")
    room = host.url.split("/table/")[1].split("#")[0].split("?")[0]
    guest.goto(server + "/")
    guest.fill("#name", "guest")
    guest.fill("#join input[name=code]", room)
    guest.click("#join button[type=submit]")
    guest.wait_for_url(f"**/table/{room}**")
    expect(host.locator("body")).to_contain_text("guest", timeout=10_000)
    host.locator("button.primary.big").click()
    for page in (host, guest):
        page.on("dialog", lambda d: d.accept())
        page.wait_for_selector("#table", timeout=15_000)
    # a third person types the code of the room that has started: it opens to watch, without an error
    late_ctx = browser.new_context()
    late = late_ctx.new_page()
    toasts: list[str] = []
    late.goto(server + "/")
    late.expose_function("noteToast", lambda text: toasts.append(text))
    late.evaluate("""new MutationObserver((ms) => ms.forEach((m) => m.addedNodes.forEach((n) =>
        n.classList && n.classList.contains('toast') && window.noteToast(n.textContent))))
        .observe(document.body, {childList: true, subtree: true})""")
    late.fill("#join input[name=code]", room)
    late.click("#join button[type=submit]")
    late.wait_for_url(f"**/table/{room}**")
    late.wait_for_selector("#table", timeout=15_000)
    assert toasts == [], toasts
    _play_until_settlement(host, guest)
    # both saw the same settlement: the same hand, the same payments
    texts = [p.locator("#modal").inner_text() for p in (host, guest)]
    assert texts[0] == texts[1] and ("结算" in texts[0] or "Settlement" in texts[0])
    host_ctx.close()
    guest_ctx.close()
    late_ctx.close()


def test_a_restart_mid_match_resumes_it(browser: Browser, tmp_path: Path) -> None:
    """The server stops in the middle of a four-hand match and starts again on the same database: the
    page reconnects with the token it holds (the store keeps its hash), and the match goes on."""
    db = tmp_path / "restart.sqlite3"
    store = Store(f"sqlite:///{db}")
    port = _free_port()
    srv, thread = _start(store, port)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.on("dialog", lambda d: d.accept())
    page.goto(f"http://127.0.0.1:{port}/")
    page.fill("#name", "phoenix")
    page.select_option("#match_hands", "4")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/table/**")
    page.locator("button.primary.big").click()
    _play_until_settlement(page)  # the first hand is stored
    _stop(srv, thread)
    store.close()
    store2 = Store(f"sqlite:///{db}")
    assert len(store2.unfinished_matches()) == 1
    srv2, thread2 = _start(store2, port)
    try:
        expect(page.locator("#conn")).to_have_class(re.compile(r"\bconnected\b"), timeout=20_000)
        page.locator("#overlay").wait_for(state="hidden", timeout=20_000)
        _play_until_settlement(page)
        assert "phoenix" in page.locator("#modal").inner_text()
    finally:
        page.close()
        _stop(srv2, thread2)
        store2.close()
