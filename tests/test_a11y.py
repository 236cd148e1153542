"""Issue 11 (b): accessibility, checked in Chromium.

* axe-core (the copy bundled by ``axe-playwright-python``) finds no violation of impact "serious" or
  "critical" on the lobby, the table at the player's turn, the settlement, the history and the
  replay.  axe is injected with ``page.evaluate``, which runs over the DevTools protocol: the pages'
  strict Content-Security-Policy does not apply to it, so the pages are checked exactly as served
  (no ``bypass_csp``; a ``<script>`` tag added to the page would be refused by the CSP).
* Every tile is focusable; Tab reaches a tile of the hand, ArrowRight/ArrowLeft move the focus
  along it, Enter discards the focused tile (it appears in the person's pond).
* Each action button (``button[data-action]``) declares its key in ``aria-keyshortcuts``, and
  pressing that key presses the button (the claim buttons in a claim window, and 和).
* Tiles are named in words, with their wild status: "5 of dots, wild".
* A live region (``aria-live``, or role status/log/alert) announces turns, claims and wins.

The scripted hand (tests/ui_helpers.py): Tianjin, the person is East and is dealt
1m1m1m 2m…9m 9s9s 5p (5p wild, the indicator 4p): a win at once, and South's first draw is 9s, which
South discards: after the person's discard the claim window offers ``pon 9s`` and ``pass``.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Locator, Page, expect

from tests.ui_helpers import SETTLEMENT, VIEWPORTS, Session, report, serve

CLAIM_HAND = "111m23m456m789m99s5p"
FAIL_IMPACTS = ("serious", "critical")
DESKTOP = VIEWPORTS[3]

HAND_TILE = "[data-testid=hand-tile]"
WILDS = "[data-testid=wilds]"
MY_DISCARDS = "[data-testid=my-discards], #pos-0 .discards"
LIVE = "[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]"

# a tile in words (English): "5 of dots", "East wind", "Red dragon"
TILE_WORDS = re.compile(r"[1-9] of (?:characters|dots|bamboo)|(?:East|South|West|North) wind|(?:Red|Green|White) dragon")
EXPECTED_HAND = (["1 of characters"] * 3 + [f"{n} of characters" for n in range(2, 10)]
                 + ["9 of bamboo"] * 2 + ["5 of dots"])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("a11y") / "a11y.sqlite3", hand=CLAIM_HAND, draws="9s") as base:
        yield base


@pytest.fixture(scope="module")
def sessions(server: str, browser: Browser) -> Iterator[dict[str, Session]]:
    """The module's rooms, by purpose: "table" (axe, names, keyboard), "claim", "win"."""
    made: dict[str, Session] = {}
    yield made
    for s in made.values():
        s.close()


def session(sessions: dict[str, Session], server: str, browser: Browser, purpose: str) -> Session:
    if purpose not in sessions:
        sessions[purpose] = Session(browser, server, DESKTOP)
    return sessions[purpose]


# ---- probes ---------------------------------------------------------------------------------------


def axe_problems(page: Page) -> list[str]:
    """The serious and critical violations: rule id, impact, what it asks, the offending nodes."""
    found = Axe().run(page).response["violations"]
    problems = []
    for v in found:
        if v["impact"] not in FAIL_IMPACTS:
            continue
        nodes = ["/".join(str(t) for t in n["target"]) for n in v["nodes"]]
        more = f" (+{len(nodes) - 6} more)" if len(nodes) > 6 else ""
        problems.append(f"{v['id']} ({v['impact']}): {v['help']} — {len(nodes)} node(s): {'; '.join(nodes[:6])}{more}")
    return problems


def name_of(locator: Locator) -> str:
    """The accessible name Chromium computes (from the ARIA snapshot: ``- button "Discard 1 of …"``)."""
    first = locator.aria_snapshot().splitlines()[0] if locator.count() else ""
    m = re.search(r'"(.*)"', first)
    return m.group(1) if m else ""


LISTEN_JS = """
(selector) => {
  window.__announced = [];
  const last = new Map();
  const note = () => document.querySelectorAll(selector).forEach((el) => {
    const now = (el.textContent || '').replace(/\\s+/g, ' ').trim();
    const before = last.get(el) || '';
    if (now === before) return;
    last.set(el, now);
    window.__announced.push(now.startsWith(before) ? now.slice(before.length).trim() : now);  // a log: what was added
  });
  note();
  window.__announced = [];
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true, characterData: true});
}
"""


def listen(page: Page) -> None:
    """Record from now on what the live regions say (each change of each region's text)."""
    page.evaluate(LISTEN_JS, LIVE)


def announced(page: Page, pattern: str, timeout_ms: int = 5000) -> list[str]:
    """What the live regions said, once one text matches ``pattern`` (or when the time is up)."""
    waited = 0
    while True:
        said: list[str] = page.evaluate("() => window.__announced || []")
        if any(re.search(pattern, x, re.IGNORECASE) for x in said) or waited >= timeout_ms:
            return said
        page.wait_for_timeout(100)
        waited += 100


def press_shortcut(page: Page, button: Locator, what: str, problems: list[str]) -> None:
    """Press the button's ``aria-keyshortcuts`` key; without one, note it and click the button."""
    keys = (button.get_attribute("aria-keyshortcuts") or "").split()
    if not keys:
        problems.append(f"{what}: no aria-keyshortcuts (clicked instead)")
        button.click()
        return
    page.keyboard.press(keys[0])


# ---- axe ------------------------------------------------------------------------------------------


def test_axe_lobby(sessions: dict[str, Session], server: str, browser: Browser) -> None:
    page = session(sessions, server, browser, "table").new_page("/")
    expect(page.locator("main")).to_be_visible()
    problems = axe_problems(page)
    page.close()
    report("axe on the lobby", problems)


def test_axe_table(sessions: dict[str, Session], server: str, browser: Browser) -> None:
    page = session(sessions, server, browser, "table").turn()
    report("axe on the table at the player's turn", axe_problems(page))


# ---- tiles, focus, keys ---------------------------------------------------------------------------


def test_tiles_are_named_in_words_with_their_wild_status(sessions: dict[str, Session], server: str,
                                                         browser: Browser) -> None:
    page = session(sessions, server, browser, "table").turn()
    tiles = page.locator(HAND_TILE)
    names = [name_of(tiles.nth(i)) for i in range(tiles.count())]
    problems = [f"hand tile named {n!r}: not a tile in words" for n in names if not TILE_WORDS.search(n)]
    words = sorted(m.group(0) for n in names if (m := TILE_WORDS.search(n)))
    if Counter(words) != Counter(EXPECTED_HAND):
        problems.append(f"the hand's tiles are named {words}, expected {sorted(EXPECTED_HAND)}")
    if sum("5 of dots, wild" in n for n in names) != 1:
        problems.append(f"the wild 5p is not named '5 of dots, wild' in the hand: {names}")
    wilds = page.locator(WILDS).aria_snapshot() if page.locator(WILDS).count() else ""
    for words in ("4 of dots", "4 of dots, wild", "5 of dots, wild"):  # the indicator, then the two wilds
        if words not in wilds:
            problems.append(f"{WILDS} names no {words!r}: {wilds!r}")
    report("tile names", problems)


def test_every_hand_tile_is_focusable(sessions: dict[str, Session], server: str, browser: Browser) -> None:
    page = session(sessions, server, browser, "table").turn()
    expect(page.locator(HAND_TILE)).to_have_count(14)
    unfocusable = page.evaluate("""(sel) => [...document.querySelectorAll(sel)].filter((el) => {
        el.focus(); return document.activeElement !== el; }).map((el) => el.outerHTML.slice(0, 80))""", HAND_TILE)
    assert not unfocusable, f"hand tiles that cannot take the focus: {unfocusable}"


FOCUSED_INDEX_JS = "(sel) => [...document.querySelectorAll(sel)].indexOf(document.activeElement)"


def test_arrow_keys_move_along_the_hand_and_enter_discards(sessions: dict[str, Session], server: str,
                                                           browser: Browser) -> None:
    page = session(sessions, server, browser, "table").turn()
    tiles = page.locator(HAND_TILE)
    expect(tiles).to_have_count(14)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    for _ in range(60):  # Tab from the top of the page until a tile of the hand has the focus
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_INDEX_JS, HAND_TILE) >= 0:
            break
    at = page.evaluate(FOCUSED_INDEX_JS, HAND_TILE)
    assert at >= 0, "Tab never reaches a tile of the hand (60 presses)"
    if at == tiles.count() - 1:  # at the end: go back first
        page.keyboard.press("ArrowLeft")
        assert page.evaluate(FOCUSED_INDEX_JS, HAND_TILE) == at - 1, "ArrowLeft does not move to the previous tile"
        at -= 1
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED_INDEX_JS, HAND_TILE) == at + 1, "ArrowRight does not move to the next tile"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(FOCUSED_INDEX_JS, HAND_TILE) == at, "ArrowLeft does not move back to the previous tile"
    focused = TILE_WORDS.search(name_of(tiles.nth(at)))
    assert focused, f"the focused tile is not named in words: {name_of(tiles.nth(at))!r}"
    pond = page.locator(MY_DISCARDS).first
    pond_tiles = pond.locator(":is(img, [role=img])")
    expect(pond_tiles).to_have_count(0)
    page.keyboard.press("Enter")
    expect(pond_tiles).to_have_count(1, timeout=5000)  # nobody else adds to this pond
    assert focused.group(0) in name_of(pond_tiles.first), (
        f"Enter on {focused.group(0)!r} put {name_of(pond_tiles.first)!r} in the pond")


def test_claim_buttons_have_shortcut_keys_and_claims_and_turns_are_announced(
        sessions: dict[str, Session], server: str, browser: Browser) -> None:
    """The person discards (a click); South discards 9s: the claim window's buttons (pon, pass) each
    declare a key; the pon key claims it; the claim and the person's next turn are announced."""
    page = session(sessions, server, browser, "claim").turn()
    problems: list[str] = []
    if not page.locator(LIVE).count():
        problems.append(f"no live region ({LIVE})")
    listen(page)
    page.locator(HAND_TILE).first.click()  # 1m: the two 9s stay for the pon
    pon = page.locator('button[data-action="pon 9s"]')
    expect(pon).to_be_visible(timeout=10_000)
    buttons = page.locator("button[data-action]:visible")
    keys: dict[str, str] = {}
    for i in range(buttons.count()):
        action = buttons.nth(i).get_attribute("data-action") or "?"
        key = (buttons.nth(i).get_attribute("aria-keyshortcuts") or "").strip()
        if not key:
            problems.append(f'button[data-action="{action}"] has no aria-keyshortcuts')
        elif key.lower() in keys:
            problems.append(f"{action} and {keys[key.lower()]} share the shortcut {key!r}")
        else:
            keys[key.lower()] = action
    press_shortcut(page, pon, 'button[data-action="pon 9s"]', problems)
    try:
        expect(pon).to_have_count(0, timeout=5000)
        expect(page.locator(HAND_TILE)).to_have_count(11, timeout=5000)  # 13 less the pair; the pon is a meld
    except AssertionError:
        problems.append("the pon shortcut key did not claim the 9s")
    said = announced(page, r"your turn")
    if not any(re.search(r"\bpon", x, re.IGNORECASE) for x in said):
        problems.append(f"the claim (pon) was not announced in a live region; it said: {said[-8:]}")
    if not any(re.search(r"your turn", x, re.IGNORECASE) for x in said):
        problems.append(f"the person's turn was not announced in a live region; it said: {said[-8:]}")
    report("claim shortcuts and announcements", problems)


def test_the_win_button_has_a_shortcut_key_and_the_win_is_announced(sessions: dict[str, Session], server: str,
                                                                   browser: Browser) -> None:
    s = session(sessions, server, browser, "win")
    page = s.turn()
    problems: list[str] = []
    listen(page)
    win = page.locator('button[data-action="win"]')
    press_shortcut(page, win, 'button[data-action="win"]', problems)
    try:
        expect(win).to_have_count(0, timeout=5000)
    except AssertionError:
        problems.append("the win shortcut key did not win (clicked instead)")
        win.click()
    s.finished()
    said = announced(page, r"\bwins?\b")
    if not any(re.search(r"\bwins?\b", x, re.IGNORECASE) for x in said):
        problems.append(f"the win was not announced in a live region; it said: {said[-8:]}")
    report("win shortcut and announcement", problems)


# ---- axe after the match --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def match_id(sessions: dict[str, Session], server: str, browser: Browser) -> int:
    s = session(sessions, server, browser, "win")
    s.settle()
    assert s.seat is not None and s.seat.match_id is not None
    return s.seat.match_id


def test_axe_settlement(sessions: dict[str, Session], server: str, browser: Browser) -> None:
    page = session(sessions, server, browser, "win").settle()
    with contextlib.suppress(AssertionError):  # (test_ui_layout.py fails on a missing dialog)
        expect(page.locator(SETTLEMENT)).to_be_visible(timeout=5000)
    report("axe on the settlement", axe_problems(page))


def test_axe_history(sessions: dict[str, Session], server: str, browser: Browser, match_id: int) -> None:
    page = session(sessions, server, browser, "win").new_page("/history")
    expect(page.locator(f"a[href='/replay/{match_id}']").first).to_be_attached()
    problems = axe_problems(page)
    page.close()
    report("axe on the history", problems)


def test_axe_replay(sessions: dict[str, Session], server: str, browser: Browser, match_id: int) -> None:
    page = session(sessions, server, browser, "win").new_page(f"/replay/{match_id}")
    expect(page.locator("main")).to_contain_text("Ada")
    problems = axe_problems(page)
    page.close()
    report("axe on the replay", problems)


# ---- an MCR table (国标麻将, issue 12) -------------------------------------------------------------


def test_axe_mcr_table_and_settlement_and_flowers_in_words(tmp_path_factory: pytest.TempPathFactory,
                                                           browser: Browser) -> None:
    """An MCR room (the person East, dealt the flower 1f and 1111m23m456m789m9s, the flower replaced
    by 9s: 和 and 暗杠 at once; South dealt the flower 2f): no serious axe violation on the table (the
    winds box, the flowers beside the melds) nor the settlement; the flowers are named in words, the
    winds box names both winds, the win button names every fan."""
    from tests.test_e2e import _free_port, _start, _stop
    from tests.test_mcr_web import McrScripted
    from tests.ui_helpers import quiet_bots
    from tjmj.web.store import Store

    store = Store(f"sqlite:///{tmp_path_factory.mktemp('a11y-mcr') / 'mcr.sqlite3'}")
    port = _free_port()
    script = McrScripted({0: 0}, {0: "1111m23m456m789m9s1f", 1: "2f"}, replacements="9s")
    srv, thread = _start(store, port, match_factory=script, bot_factory=quiet_bots)
    base = f"http://127.0.0.1:{port}"
    ctx = DESKTOP.context(browser)
    ctx.set_default_timeout(8000)
    try:
        r = ctx.request.post(f"{base}/api/quick", data={"name": "Ada", "family": "mcr", "match_hands": 1})
        assert r.ok, r.text()
        d = r.json()
        page = ctx.new_page()
        page.goto(f"{base}/table/{d['room']}?lang=en#token={d['token']}&player=0")
        win = page.locator('button[data-action="win"]')
        expect(win).to_be_visible(timeout=15_000)
        problems = [f"table: {p}" for p in axe_problems(page)]
        names = " | ".join(page.locator(".flowers").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"))
        for words in ("Spring (flower 1)", "Summer (flower 2)"):
            if words not in names:
                problems.append(f"no flower named {words!r} among {names!r}")
        winds = page.locator("[data-testid=winds]").text_content() or ""  # the tiles are named in text
        if "East" not in winds:
            problems.append(f"the winds box does not name the winds: {winds!r}")
        label = win.get_attribute("aria-label") or ""
        if "Pure Straight" not in label or win.get_attribute("aria-keyshortcuts") != "W":
            problems.append(f"the win button names its fans and key: {label!r}")
        win.dispatch_event("click")
        expect(page.locator(SETTLEMENT)).to_be_visible(timeout=8000)
        problems += [f"settlement: {p}" for p in axe_problems(page)]
        report("axe on an MCR table and its settlement", problems)
    finally:
        ctx.close()
        _stop(srv, thread)
        store.close()
