"""Issue 11 (a): one responsive layout from 360 px phones to desktops, checked in Chromium.

At 360×640 and 390×844 (phones), 768×1024 (tablet), 1280×800 (desktop) and at 200 % zoom (a
1280×800 window zoomed to 200 % lays out as a 640×400 CSS px viewport with devicePixelRatio 2: that
is how it is emulated, see tests/ui_helpers.py), for the lobby, the table at the player's turn, the
settlement, the history and the replay:

* no horizontal panning: ``document.scrollingElement.scrollWidth <= innerWidth``;
* the hand (``[data-testid=hand]``, each ``[data-testid=hand-tile]``), the wilds
  (``[data-testid=wilds]``), the turn line (``[data-testid=turn]``) and every action button
  (``[data-testid=actions] button[data-action]``) are inside the viewport, all at once and
  unscrolled (at 200 % zoom: each after scrolling it into view), and each is the topmost element at
  its centre (``document.elementFromPoint``): visible, not covered, clickable;
* no interactive element anywhere is covered by another (each scrolled into view in turn);
* on the phones every visible interactive element is at least 40×40 CSS px (a checkbox: its label);
* on narrow screens (phones, 200 % zoom) the side panels are a drawer: ``[data-testid=side-toggle]``
  is shown, names the drawer in ``aria-controls``, opens it (``aria-expanded="true"``, the drawer
  visible and no wider than the screen) and closes it again (a second click, or Escape when the
  open drawer covers the toggle);
* the settlement dialog (``[data-testid=settlement]``) fits the viewport, its buttons and links are
  uncovered (and ≥ 40 px on phones), and ``[data-testid=close-standings]`` closes it;
* tiles load as one sprite or inline SVG: at most :data:`MAX_TILE_REQUESTS` tile image requests while
  the table loads (not one per tile kind).

Each page state is one test whose failure lists every problem found there (the to-do list).  One
server and one browser serve the module; each viewport plays one scripted one-hand room (the
person is dealt a winning hand: their turn first, then a click on 和 brings the settlement).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.ui_helpers import (
    INTERACTIVE,
    SETTLEMENT,
    VIEWPORTS,
    Session,
    Viewport,
    eventually,
    overflow,
    placed,
    report,
    serve,
    small_targets,
    tile_requests,
)

# one sprite (or none with inline SVG), plus the page's icon and the brand mark
MAX_TILE_REQUESTS = 3
MIN_TARGET = 40

HAND = "[data-testid=hand]"
HAND_TILE = "[data-testid=hand-tile]"
WILDS = "[data-testid=wilds]"
TURN = "[data-testid=turn]"
ACTION = "[data-testid=actions] button[data-action]"
SIDE_TOGGLE = "[data-testid=side-toggle]"
CLOSE_STANDINGS = "[data-testid=close-standings]"

VP_IDS = [v.id for v in VIEWPORTS]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("layout") / "layout.sqlite3") as base:
        yield base


@pytest.fixture(scope="module")
def sessions(server: str, browser: Browser) -> Iterator[dict[str, Session]]:
    """One context (and one room, made on demand) per viewport, shared by the tests of the module."""
    made: dict[str, Session] = {}
    yield made
    for s in made.values():
        s.close()


def session(sessions: dict[str, Session], server: str, browser: Browser, vp: Viewport) -> Session:
    if vp.id not in sessions:
        sessions[vp.id] = Session(browser, server, vp)
    return sessions[vp.id]


@pytest.fixture(scope="module")
def match_id(sessions: dict[str, Session], server: str, browser: Browser) -> int:
    """A finished match (for the history and the replay): the desktop room, played to its end."""
    s = session(sessions, server, browser, VIEWPORTS[3])
    s.settle()
    assert s.seat is not None and s.seat.match_id is not None
    return s.seat.match_id


def page_problems(page: Page, vp: Viewport) -> list[str]:
    """What every page must satisfy: no sideways panning, nothing interactive covered, and on the
    phones touch targets of at least 40 px."""
    problems = overflow(page)
    problems += placed(page, INTERACTIVE, "interactive element", scroll=True, at_least=0)
    if vp.phone:
        problems += small_targets(page, MIN_TARGET)
    return problems


@pytest.mark.parametrize("vp", VIEWPORTS, ids=VP_IDS)
def test_lobby(sessions: dict[str, Session], server: str, browser: Browser, vp: Viewport) -> None:
    page = session(sessions, server, browser, vp).new_page("/")
    expect(page.locator("main")).to_be_visible()
    problems = page_problems(page, vp)
    page.close()
    report(f"lobby at {vp.id}", problems)


@pytest.mark.parametrize("vp", VIEWPORTS, ids=VP_IDS)
def test_table_at_the_players_turn(sessions: dict[str, Session], server: str, browser: Browser, vp: Viewport) -> None:
    s = session(sessions, server, browser, vp)
    page = s.turn()
    problems = s.sit_problems + overflow(page)
    scroll = not vp.all_at_once  # False: all of them at once, as the page stands
    problems += placed(page, HAND, "the hand", scroll=scroll)
    problems += placed(page, HAND_TILE, "hand tile", scroll=scroll, at_least=14)
    problems += placed(page, WILDS, "the wilds", scroll=scroll)
    problems += placed(page, TURN, "the turn line", scroll=scroll)
    problems += placed(page, ACTION, "action button", scroll=scroll, at_least=2)  # 和 and 暗杠
    problems += placed(page, INTERACTIVE, "interactive element", scroll=True, at_least=0)
    if vp.phone:
        problems += small_targets(page, MIN_TARGET)
    problems += drawer_problems(page, vp)
    report(f"table at {vp.id}", problems)


def drawer_problems(page: Page, vp: Viewport) -> list[str]:
    """On a narrow screen the side panels are a drawer behind ``[data-testid=side-toggle]``.  Each
    state is judged once its transition is over (:func:`eventually`)."""
    toggle = page.locator(SIDE_TOGGLE)
    if not toggle.count() or not toggle.first.is_visible():
        return [f"no visible {SIDE_TOGGLE} on a narrow screen"] if vp.narrow else []
    toggle = toggle.first
    drawer_id = toggle.get_attribute("aria-controls")
    if not drawer_id:
        return [f"{SIDE_TOGGLE} has no aria-controls naming the drawer"]
    problems = placed(page, SIDE_TOGGLE, "the side toggle")
    if problems:
        return problems  # it cannot be clicked
    toggle.click(timeout=3000)
    if toggle.get_attribute("aria-expanded") != "true":
        problems.append(f"{SIDE_TOGGLE}: aria-expanded is not 'true' once opened")
    drawer = f"#{drawer_id}"

    def opened() -> list[str]:
        box = page.locator(drawer).bounding_box()
        if not page.locator(drawer).is_visible() or box is None:
            return [f"the drawer {drawer} is not visible once opened"]
        if box["x"] < -1 or box["x"] + box["width"] > vp.width + 1:
            return [f"the open drawer {drawer} spans x {box['x']:.0f}..{box['x'] + box['width']:.0f} "
                    f"in a {vp.width} px viewport"]
        return [f"drawer open: {p}" for p in overflow(page)]

    problems += eventually(page, opened)
    if placed(page, SIDE_TOGGLE, "toggle"):  # the open drawer covers it: Escape closes it
        page.keyboard.press("Escape")
    else:
        toggle.click(timeout=3000)
    if toggle.get_attribute("aria-expanded") != "false":
        problems.append(f"{SIDE_TOGGLE}: the drawer does not close again (aria-expanded is not 'false')")
    problems += [f"drawer closed again: {p}"
                 for p in eventually(page, lambda: placed(page, HAND_TILE, "hand tile", at_least=0))]
    return problems


def test_tiles_load_as_one_sprite_or_inline_svg(sessions: dict[str, Session], server: str, browser: Browser) -> None:
    """No request per tile kind while the table loads (the desktop room's requests)."""
    s = session(sessions, server, browser, VIEWPORTS[3])
    s.turn()
    tiles = tile_requests([u for u, kind in s.requests if kind == "image" or "/tiles/" in u])
    assert len(tiles) <= MAX_TILE_REQUESTS, f"{len(tiles)} tile image requests: {tiles[:40]}"


@pytest.mark.parametrize("vp", VIEWPORTS, ids=VP_IDS)
def test_settlement(sessions: dict[str, Session], server: str, browser: Browser, vp: Viewport) -> None:
    page = session(sessions, server, browser, vp).settle()
    problems = overflow(page)
    try:
        expect(page.locator(SETTLEMENT)).to_be_visible(timeout=5000)
    except AssertionError:
        problems.append(f"no visible {SETTLEMENT} after the win")
    problems += placed(page, SETTLEMENT, "the settlement dialog")
    problems += placed(page, f"{SETTLEMENT} :is({INTERACTIVE})", "settlement control", scroll=True, at_least=0)
    if vp.phone:
        problems += small_targets(page, MIN_TARGET, within=SETTLEMENT)
    close = page.locator(CLOSE_STANDINGS)
    if not close.count():
        problems.append(f"no {CLOSE_STANDINGS} in the final standings")
    else:
        problems += placed(page, CLOSE_STANDINGS, "close the standings", scroll=True)
        close.first.click()
        try:
            expect(page.locator(SETTLEMENT)).to_be_hidden(timeout=3000)
        except AssertionError:
            problems.append(f"{CLOSE_STANDINGS} does not close the settlement")
    report(f"settlement at {vp.id}", problems)


@pytest.mark.parametrize("vp", VIEWPORTS, ids=VP_IDS)
def test_history(sessions: dict[str, Session], server: str, browser: Browser, match_id: int, vp: Viewport) -> None:
    page = session(sessions, server, browser, vp).new_page("/history")
    expect(page.locator(f"a[href='/replay/{match_id}']").first).to_be_attached()
    problems = page_problems(page, vp)
    page.close()
    report(f"history at {vp.id}", problems)


@pytest.mark.parametrize("vp", VIEWPORTS, ids=VP_IDS)
def test_replay(sessions: dict[str, Session], server: str, browser: Browser, match_id: int, vp: Viewport) -> None:
    page = session(sessions, server, browser, vp).new_page(f"/replay/{match_id}")
    expect(page.locator("main")).to_contain_text("Ada")  # the frames are drawn
    problems = page_problems(page, vp)
    page.close()
    report(f"replay at {vp.id}", problems)


# ---- an MCR table (国标麻将, issue 12) -------------------------------------------------------------
#
# MCR has no wilds (M1): where the other families show the indicator and the wilds
# (``[data-testid=wilds]``), an MCR table shows the prevalent wind and the seat wind
# (``[data-testid=winds]``), held to the same contract: on screen with the hand, the turn line and
# the action buttons, uncovered.  The person (player 0) is East, the dealer, dealt
# 1111m23m456m789m99s: 和 (清龙, at least 8 fan) and 暗杠 1m are offered at once, and 和 brings the
# settlement of the match's only hand.

WINDS = "[data-testid=winds]"
MCR_VPS = [VIEWPORTS[0], VIEWPORTS[1], VIEWPORTS[3]]


@pytest.fixture(scope="module")
def mcr_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from tests.test_e2e import _free_port, _start, _stop
    from tests.test_mcr_web import McrScripted
    from tests.ui_helpers import quiet_bots
    from tjmj.web.store import Store

    store = Store(f"sqlite:///{tmp_path_factory.mktemp('mcr-layout') / 'mcr.sqlite3'}")
    port = _free_port()
    srv, thread = _start(store, port, match_factory=McrScripted({0: 0}, {0: "1111m23m456m789m99s"}),
                         bot_factory=quiet_bots)
    yield f"http://127.0.0.1:{port}"
    _stop(srv, thread)
    store.close()


def _mcr_turn(browser: Browser, base: str, vp: Viewport) -> tuple[Any, Page]:
    ctx = vp.context(browser)
    ctx.set_default_timeout(8000)
    r = ctx.request.post(f"{base}/api/quick", data={"name": "Ada", "family": "mcr", "match_hands": 1})
    assert r.ok, r.text()
    d = r.json()
    page = ctx.new_page()
    page.goto(f"{base}/table/{d['room']}?lang=en#token={d['token']}&player=0")
    expect(page.locator('button[data-action="win"]')).to_be_visible(timeout=15_000)
    return ctx, page


@pytest.mark.parametrize("vp", MCR_VPS, ids=[v.id for v in MCR_VPS])
def test_mcr_table_and_settlement(mcr_server: str, browser: Browser, vp: Viewport) -> None:
    ctx, page = _mcr_turn(browser, mcr_server, vp)
    try:
        problems = overflow(page)
        problems += placed(page, HAND, "the hand")
        problems += placed(page, HAND_TILE, "hand tile", at_least=14)
        problems += placed(page, WINDS, "the winds")
        problems += placed(page, TURN, "the turn line")
        problems += placed(page, ACTION, "action button", at_least=2)  # 和 and 暗杠
        problems += placed(page, INTERACTIVE, "interactive element", scroll=True, at_least=0)
        if page.locator(WILDS).count():
            problems.append(f"{WILDS} on an MCR table, which has no wilds")
        if vp.phone:
            problems += small_targets(page, MIN_TARGET)
        page.locator('button[data-action="win"]').dispatch_event("click")
        expect(page.locator(SETTLEMENT)).to_be_visible(timeout=8000)
        problems += overflow(page)
        problems += placed(page, SETTLEMENT, "the settlement dialog")
        problems += placed(page, f"{SETTLEMENT} :is({INTERACTIVE})", "settlement control", scroll=True, at_least=1)
        if vp.phone:
            problems += small_targets(page, MIN_TARGET, within=SETTLEMENT)
        page.locator(CLOSE_STANDINGS).first.click()
        expect(page.locator(SETTLEMENT)).to_be_hidden(timeout=3000)
        report(f"MCR table and settlement at {vp.id}", problems)
    finally:
        ctx.close()
