"""End-to-end: a real server on loopback, Debian's Chromium driven by Playwright (issue 4).

A person opens the lobby, creates a one-hand room against bots, plays the hand by clicking until
the settlement appears, opens its replay; two people share a room from two browser contexts.
Beijing (issue 10): a newcomer picks Beijing for a quick game and plays to the settlement; a
scripted Beijing hand (the app's ``match_factory`` and ``bot_factory`` test hooks) is played with a
chi and a win on a discard.  These tests never skip: `./test` installs the browser (CI runs it
with CI=true).
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.test_beijing_web import Scripted, plan_bots
from tjmj.web.app import create_app
from tjmj.web.store import Store


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(store: Store, port: int, **hooks: Any) -> tuple[uvicorn.Server, threading.Thread]:
    app = create_app(store, bot_delay=0.0, next_delay=1.0, rate_limit=(200, 100.0), **hooks)
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


def _not_blank(page: Page, path: Path) -> None:
    """The screenshot is a real page: large, and the page shows tiles and text."""
    png = page.screenshot(path=str(path), full_page=True)
    assert len(png) > 20_000, f"screenshot {path.name} looks blank ({len(png)} bytes)"


def _step(page: Page) -> None:
    """One click like a person: win when offered, else discard the drawn tile, else the first choice.
    The table may change between looking and clicking (a redraw, the other player's move): a click
    that finds nothing to click is given up after 2 s and the caller looks again."""
    try:
        win = page.locator("button.act-win")
        if win.count():
            win.first.click(timeout=2000)
            return
        tiles = page.locator("#myhand button.htile.can")
        if tiles.count():
            drawn = page.locator("#myhand button.htile.can.drawn")
            (drawn.first if drawn.count() else tiles.last).click(timeout=2000)
            return
        buttons = page.locator("#myhand button.act")
        if buttons.count():
            buttons.first.click(timeout=2000)  # sit/pull choices and claims: the first offered (pon/kong before pass)
    except PlaywrightTimeoutError:
        pass


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


# ---- Beijing -------------------------------------------------------------------------------------


def test_a_newcomer_picks_beijing_for_a_quick_game(server: str, browser: Browser, tmp_path: Path) -> None:
    """The lobby's quick game offers the family: Beijing's table shows the 混坯 and its wild, the
    reserve line, no 坐庄/拉庄; the hand is played to its settlement."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = _watch_console(page)
    page.goto(server + "/?lang=zh")
    page.fill("#name", "新手")
    page.select_option("#quick_family", "beijing")
    page.click("#quick")
    page.wait_for_url("**/table/**")
    expect(page.locator("#handinfo")).to_contain_text("北京麻将", timeout=15_000)
    expect(page.locator("#center .indicator")).to_contain_text("混坯")
    expect(page.locator("#center .indicator svg.tile.wild")).to_have_count(1)  # one wild kind (B2)
    expect(page.locator("#center")).to_contain_text("离荒牌还有")
    assert page.locator(".mark.sit, .mark.pull").count() == 0
    _not_blank(page, tmp_path / "beijing-table.png")
    _play_until_settlement(page)
    modal = page.locator("#modal")
    expect(modal).to_contain_text("结算")
    if page.locator("#modal .formula-line").count():  # a win: the value is explained, each payment too
        assert "=" in page.locator("#modal .formula-line").inner_text()
        expect(page.locator("#modal td.why").first).to_contain_text("点数")
    _not_blank(page, tmp_path / "beijing-settlement.png")
    assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
    page.close()


# The person sits West; the bots (PlanBot: they discard what they draw, never claim) hold only
# bamboo and honours.  South draws 4m and discards it: the person may chi it three ways; after the
# chi 345m and the discard of 2m, North draws 6m and discards it: the person's single wait.
E2E_HANDS = {
    0: "1s1s2s2s3s3s4s4s5s5s6s6s7s7s",  # East, the dealer: its first discard is its lowest, 1s
    1: "8s8s9s9s1z1z2z2z3z3z4z4z5z",
    2: "2356m123p456p789p",
    3: "1s2s3s4s5s6s7s8s9s5z6z6z6z",
}


def test_beijing_from_the_lobby_a_chi_and_a_win_on_a_discard(browser: Browser, tmp_path: Path) -> None:
    """Version A (beijing_a: a claimed hand may win on a discard): chi buttons show the sequences,
    the 和 button appears in the claim window, and the settlement explains the halved value and the
    discarder's payment for all three (包三家)."""
    store = Store(f"sqlite:///{tmp_path / 'beijing.sqlite3'}")
    port = _free_port()
    srv, thread = _start(store, port, match_factory=Scripted({0: 2}, E2E_HANDS, draws="4m6m"), bot_factory=plan_bots)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = _watch_console(page)
    try:
        page.goto(f"http://127.0.0.1:{port}/?lang=zh")
        page.fill("#name", "京")
        page.select_option("#family", "beijing")
        page.select_option("#preset", "beijing_a")
        page.select_option("#match_hands", "1")
        page.click("#create button[type=submit]")
        page.wait_for_url("**/table/**")
        expect(page.locator(".rulesline")).to_contain_text("北京麻将 · 北京 A")
        page.locator("button.primary.big").click()
        chi = page.locator("#myhand button.act-chi")
        expect(chi).to_have_count(3, timeout=15_000)  # 234m, 345m, 456m
        expect(page.locator("#center")).to_contain_text("南")  # South discarded it
        expect(page.locator("#center .claimable svg.tile")).to_have_attribute("data-tile", "4m")
        three = page.locator('#myhand button[data-action="chi 3m"]')
        expect(three).to_contain_text("吃")
        tiles = three.locator("svg.tile")
        expect(tiles).to_have_count(3)
        assert [tiles.nth(i).get_attribute("data-tile") for i in range(3)] == ["3m", "4m", "5m"]
        expect(page.locator("#myhand button.act-pass")).to_have_count(1)
        _not_blank(page, tmp_path / "chi.png")
        three.click()
        expect(page.locator("#myhand .meld.meld-chi")).to_have_count(1)
        page.locator('#myhand button.htile.can[data-tile="2m"]').click()
        win = page.locator("#myhand button.act-win")
        expect(win).to_contain_text("和 · 一条龙 · 2 点", timeout=15_000)  # the value before pressing (issue 11)
        expect(page.locator("#center .claimable svg.tile")).to_have_attribute("data-tile", "6m")
        win.click()
        expect(page.locator("#overlay")).to_be_visible(timeout=15_000)
        modal = page.locator("#modal")
        expect(modal).to_contain_text("点炮")
        expect(page.locator("#modal .formula-line")).to_have_text("一条龙 +3 = 3；未门清，减半（进一）→ 2")
        expect(page.locator("#modal table.elements")).to_contain_text("一条龙")  # names in the page's language
        expect(page.locator("#modal td.why")).to_contain_text("包三家")
        expect(page.locator("#modal .hands-up .row")).to_have_count(4)  # every hand face up (issue 11)
        expect(page.locator("#modal table.payments")).to_contain_text("6")
        _not_blank(page, tmp_path / "beijing-win.png")
        assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
    finally:
        page.close()
        _stop(srv, thread)
        store.close()


def test_beijing_hunyou_is_a_way_to_discard(browser: Browser, tmp_path: Path) -> None:
    """Version B: the dealer's dealt 14 win with a wild; the 混儿悠 toggle shows which discards
    declare it, the click declares it, and the next draw wins by itself (scored as 无混儿, B3)."""
    store = Store(f"sqlite:///{tmp_path / 'hunyou.sqlite3'}")
    port = _free_port()
    script = Scripted({0: 0}, {0: "123m456m789m123p5z9s"})  # 混坯 7z: the wild is 5z
    srv, thread = _start(store, port, match_factory=script, bot_factory=plan_bots)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = _watch_console(page)
    try:
        page.goto(f"http://127.0.0.1:{port}/?lang=zh")
        page.select_option("#family", "beijing")
        page.select_option("#match_hands", "1")
        page.click("#create button[type=submit]")
        page.wait_for_url("**/table/**")
        page.locator("button.primary.big").click()
        toggle = page.locator("#myhand button.mode-hunyou")
        expect(toggle).to_have_count(1, timeout=15_000)
        expect(page.locator("#myhand button.act-win")).to_contain_text("自摸")
        expect(page.locator("#center .indicator svg.tile.wild")).to_have_attribute("data-tile", "5z")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        glowing = page.locator("#myhand button.htile.can.hunyou")
        expect(glowing).to_have_count(1)  # only discarding 9s leaves 13 tiles that win on any draw
        expect(page.locator("#myhand .note.hunyou")).to_contain_text("混儿悠")
        _not_blank(page, tmp_path / "hunyou.png")
        glowing.first.click()
        expect(page.locator("#overlay")).to_be_visible(timeout=15_000)
        expect(page.locator("#modal .winline")).to_contain_text("混儿悠成功")
        expect(page.locator("#modal .formula-line")).to_have_text(
            "一条龙 ×2 · 庄胡 ×2 · 门清 ×2 · 自摸 ×2 · 无混儿 ×2 = 32")
        assert script.made[-1].is_over
        assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
    finally:
        page.close()
        _stop(srv, thread)
        store.close()
