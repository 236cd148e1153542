"""Shared by the browser acceptance tests of issue 11 (tests/test_ui_layout.py, tests/test_a11y.py,
tests/test_i18n.py): a real server on loopback with a scripted first hand, Debian's Chromium, the
viewports, and the geometry probes run in the page.

The scripted hand (the app's ``match_factory`` and ``bot_factory`` test hooks): a one-hand Tianjin
match where the person (player 0) is East, the dealer.  The page first offers 坐庄 (``sit 1`` /
``sit 0``); after ``sit 0`` the bots (:class:`QuietBot`) decline to pull and the person's turn
comes with the dealt 14 tiles, which win at once (``win``) and hold a concealed kong (``ankong
1m``) and a wild (5p; the indicator 4p makes 4p and 5p wild).  So the player's turn shows the hand,
the wilds, the turn line and two action buttons, and one click on ``win`` brings the settlement of
the last hand of the match (the final standings): a finished match for the history and replay.

The DOM contract these tests rely on (the lead adds what today's pages lack):

* ``[data-testid=hand]`` the hand row; ``[data-testid=hand-tile]`` each tile in it (focusable);
* ``[data-testid=wilds]`` the indicator and the wilds; ``[data-testid=turn]`` the turn line;
* ``[data-testid=actions]`` the action buttons, each ``button[data-action="<server action>"]``
  carrying ``aria-keyshortcuts``;
* ``[data-testid=side-toggle]`` the button opening the side drawer on narrow screens, with
  ``aria-controls`` (the drawer's id) and ``aria-expanded``;
* ``[data-testid=settlement]`` the settlement dialog; ``[data-testid=close-standings]`` closes the
  final standings;
* ``[data-testid=my-discards]`` the person's pond (falls back to today's ``#pos-0 .discards``);
* tiles named in words: "5 of dots, wild" (``alt`` or ``aria-label``; a hand tile's name contains
  them: "Discard 5 of dots, wild" is fine);
* a live region (``aria-live`` not off, or role status/log/alert) that says "Your turn", the claim
  ("… pons …") and the win ("… wins …");
* ``<html lang>`` follows the language; text in the other language is marked ``lang="zh"`` /
  ``lang="en"`` (language of parts).

``page.wait_for_function`` cannot be used: the pages' Content-Security-Policy forbids the eval it
needs; ``expect(locator)`` waits, and ``page.evaluate`` runs the probes below.
"""

from __future__ import annotations

import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.scripted import script_wall
from tests.test_beijing_web import seed_for
from tests.test_web import LOOSE
from tjmj.game import Action, Match
from tjmj.rules import Rules
from tjmj.tiles import TILE_TEXT
from tjmj.web.app import create_app
from tjmj.web.store import Store

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

# The person's dealt 14 (East, the dealer): 1111m 23m+5p(wild as 4m) 456m 789m, a pair of 9s.
# Wins at once (天胡), holds a concealed kong of 1m; the indicator 4p makes 4p and 5p the wilds.
WIN_HAND = "1111m23m456m789m9s5p"
INDICATOR = "4p"

# ---- the server ---------------------------------------------------------------------------------


class QuietBot:
    """A bot whose moves a test can foresee: it declines 坐庄 and 拉庄, never claims, never wins;
    on a turn it discards the tile it drew (with none drawn, its first discard)."""

    name = "quiet"
    uses_observation = True

    def choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if obs.get("phase") in ("claim", "rob"):
            return next(a for a in legal if a.type == "pass")
        if obs.get("phase") in ("sit", "pull"):
            return next(a for a in legal if a.count == 0)
        discards = [a for a in legal if a.type == "discard"]
        drawn = obs.get("drawn")
        for a in discards:
            if a.tile is not None and TILE_TEXT[a.tile] == drawn:
                return a
        return discards[0]


def quiet_bots(name: str) -> QuietBot:
    return QuietBot()


class DealtHand:
    """A ``match_factory``: every room's first hand is dealt from a scripted wall with player 0 as
    East (the dealer), holding ``hand``; ``draws``: the head draws in order (South's first …)."""

    def __init__(self, hand: str = WIN_HAND, draws: str = "", indicator: str = INDICATOR) -> None:
        self.hand, self.draws, self.indicator = hand, draws, indicator

    def __call__(self, rules: Rules, seed: int, names: list[str]) -> Match:
        method = "tail" if rules.family == "beijing" else "dice"
        wall = script_wall(0, {0: self.hand}, draws=self.draws, indicator=self.indicator, wild_method=method,
                           quiet=False)
        return Match(rules, seed=seed_for(rules, {0: 0}), names=names, walls=[wall])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn on a free loopback port in a thread; yields its base URL and stops
    it at the end."""
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=15)


@contextmanager
def serve(db: Path, *, hand: str = WIN_HAND, draws: str = "",
          bot_factory: Callable[[str], Any] = quiet_bots) -> Iterator[str]:
    """A server on loopback (bots act at once) dealing :class:`DealtHand`; yields its base URL."""
    store = Store(f"sqlite:///{db}")
    app = create_app(store, bot_delay=0.0, next_delay=1.0, rate_limit=(1000, 1000.0), limits=LOOSE,
                     match_factory=DealtHand(hand, draws), bot_factory=bot_factory)
    try:
        with serving(app) as url:
            yield url
    finally:
        store.close()


# ---- viewports ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Viewport:
    """A browser window.  ``phone``: touch targets must be ≥ 40 CSS px; ``narrow``: the side panels
    must be a drawer (or tabs) opened by ``[data-testid=side-toggle]``; ``all_at_once``: the hand,
    the wilds, the turn line and the action buttons fit in the viewport together, unscrolled."""

    id: str
    width: int
    height: int
    scale: float = 1
    mobile: bool = False
    touch: bool = False
    phone: bool = False
    narrow: bool = False
    all_at_once: bool = True

    def context(self, browser: Browser, **kw: Any) -> BrowserContext:
        return browser.new_context(viewport={"width": self.width, "height": self.height},
                                   device_scale_factor=self.scale, is_mobile=self.mobile, has_touch=self.touch, **kw)


# 200 % zoom: browser zoom divides the CSS viewport by two and doubles devicePixelRatio, so a
# 1280×800 window at 200 % lays the page out exactly as a 640×400 CSS px viewport at scale 2
# (Chromium's zoom changes innerWidth and devicePixelRatio the same way).  That is what is emulated:
# not ``device_scale_factor`` alone (it changes no layout), nor ``body.style.zoom`` (non-standard, and
# getBoundingClientRect then mixes zoomed and unzoomed pixels).  At 200 % the criterion is "no
# overlap" (and no panning sideways): vertical scrolling is allowed, so the key elements are checked
# one by one after scrolling each into view rather than all at once.
VIEWPORTS = [
    Viewport("phone-360x640", 360, 640, scale=2, mobile=True, touch=True, phone=True, narrow=True),
    Viewport("phone-390x844", 390, 844, scale=3, mobile=True, touch=True, phone=True, narrow=True),
    Viewport("tablet-768x1024", 768, 1024, scale=2, touch=True),
    Viewport("desktop-1280x800", 1280, 800),
    Viewport("zoom200-1280x800", 640, 400, scale=2, narrow=True, all_at_once=False),
]


SETTLEMENT = "[data-testid=settlement]"

# ---- rooms --------------------------------------------------------------------------------------


@dataclass
class Seat:
    room: str
    token: str
    match_id: int | None


def quick_room(context: BrowserContext, base: str, *, name: str = "Ada", family: str = "tianjin") -> Seat:
    """A one-hand room against three bots, started at once (POST /api/quick)."""
    r = context.request.post(f"{base}/api/quick", data={"name": name, "family": family, "match_hands": 1,
                                                         "bots": "baseline"})
    assert r.ok, r.text()
    d = r.json()
    return Seat(d["room"], d["token"], d.get("match_id"))


def table_url(base: str, seat: Seat, lang: str = "en") -> str:
    """The table with the seat handed over in the hash (docs/web.md: /table/ROOM#token=…&player=0)."""
    return f"{base}/table/{seat.room}?lang={lang}#token={seat.token}&player=0"


def to_turn(page: Page, timeout: float = 15_000) -> list[str]:
    """From the 坐庄 choice to the person's turn: decline to sit; the bots decline to pull.  Returns
    the problems of the two 坐庄 buttons (outside the viewport, covered): they are pressed by a DOM
    click all the same, so that the turn can be checked."""
    sit = page.locator('button[data-action="sit 0"]')
    expect(sit).to_be_visible(timeout=timeout)
    problems = placed(page, 'button[data-action^="sit "]', "坐庄 button", scroll=True, at_least=2)
    sit.dispatch_event("click")
    expect(page.locator('button[data-action="win"]')).to_be_visible(timeout=timeout)
    return problems


class Session:
    """One browser context at one viewport, in one language, holding one seat of one room, brought
    on demand to the person's turn (:meth:`turn`) and then to the settlement (:meth:`settle`)."""

    def __init__(self, browser: Browser, base: str, vp: Viewport, lang: str = "en", name: str = "Ada") -> None:
        self.base, self.vp, self.lang, self.name = base, vp, lang, name
        self.context = vp.context(browser)
        self.context.set_default_timeout(8000)  # a missing element fails in seconds, not 30
        self.page = self.context.new_page()
        self.page.on("dialog", lambda d: d.accept())  # discarding a wild asks first
        self.requests: list[tuple[str, str]] = []  # (url, resource type) while the table loads
        self.page.on("request", lambda r: self.requests.append((r.url, r.resource_type)))
        self.seat: Seat | None = None
        self.stage = "new"
        self.sit_problems: list[str] = []  # found on the way to the turn

    def turn(self) -> Page:
        if self.stage == "new":
            self.stage = "broken"  # until it gets there
            self.seat = quick_room(self.context, self.base, name=self.name)
            self.page.goto(table_url(self.base, self.seat, self.lang))
            self.sit_problems = to_turn(self.page)
            self.stage = "turn"
        assert self.stage in ("turn", "settled"), "an earlier step failed in this session"
        return self.page

    def settle(self) -> Page:
        """和: the match (one hand) is over; the settlement shows (the tests check it does)."""
        if self.stage != "settled":
            self.turn()
            self.stage = "broken"
            # a DOM click: whether the button can be reached is test_ui_layout.py's to check
            self.page.locator('button[data-action="win"]').dispatch_event("click")
            self.finished()
        return self.page

    def finished(self) -> None:
        """The match is stored as finished (the win went through)."""
        assert self.seat is not None and self.seat.match_id is not None
        wait_finished(self.context, self.base, self.seat.match_id)
        self.stage = "settled"

    def new_page(self, path: str) -> Page:
        """Another page of this context (same storage), loaded until the network is quiet."""
        page = self.context.new_page()
        sep = "&" if "?" in path else "?"
        page.goto(f"{self.base}{path}{sep}lang={self.lang}", wait_until="networkidle")
        return page

    def close(self) -> None:
        self.context.close()


def wait_finished(context: BrowserContext, base: str, match_id: int, limit_s: float = 20) -> None:
    """The match is stored as finished (the history lists it, the replay has its frames)."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        try:
            r = context.request.get(f"{base}/api/matches/{match_id}")
        except PlaywrightError as e:
            # the request context reuses a connection left idle since the room was made; uvicorn
            # closes one idle for 5 s, and a request sent just then is reset: ask again
            if "ECONNRESET" not in str(e) and "socket hang up" not in str(e):
                raise
            time.sleep(0.1)
            continue
        if r.ok and r.json().get("status") == "finished":
            return
        time.sleep(0.1)
    raise AssertionError(f"match {match_id} was not stored as finished")


# ---- probes run in the page ---------------------------------------------------------------------

# a short, stable description of an element for failure messages
DESCRIBE_JS = """
(el) => {
  let s = el.tagName.toLowerCase();
  if (el.id) s += '#' + el.id;
  if (el.dataset && el.dataset.testid) s += `[data-testid=${el.dataset.testid}]`;
  if (el.dataset && el.dataset.action) s += `[data-action="${el.dataset.action}"]`;
  const cls = (typeof el.className === 'string' ? el.className : '').trim().split(/\\s+/).filter(Boolean);
  if (cls.length) s += '.' + cls.slice(0, 3).join('.');
  const label = (el.getAttribute('aria-label') || el.getAttribute('alt') || el.textContent || '').replace(/\\s+/g, ' ').trim();
  if (label) s += ` "${label.slice(0, 24)}"`;
  return s;
}
"""

INTERACTIVE = ("a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab], "
               "[role=link], [role=checkbox], [role=switch], [tabindex]:not([tabindex='-1']), [data-testid=hand-tile]")

OVERFLOW_JS = """
(W) => {
  const describe = __DESCRIBE__;
  const sw = Math.max(document.scrollingElement.scrollWidth, window.innerWidth);
  const out = {scrollWidth: sw, innerWidth: W, offenders: []};
  if (sw <= W) return out;
  // the outermost elements that stick out sideways (their parent does not)
  // a fixed element (an off-canvas drawer) makes nothing scroll: not an offender
  const fixed = (el) => { for (let e = el; e; e = e.parentElement) if (getComputedStyle(e).position === 'fixed') return true; return false; };
  const sticks = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && (r.right > W + 1 || r.left < -1) && !fixed(el); };
  for (const el of document.body.querySelectorAll('*')) {
    if (!sticks(el) || (el.parentElement && el.parentElement !== document.body && sticks(el.parentElement))) continue;
    const r = el.getBoundingClientRect();
    out.offenders.push(`${describe(el)} [${Math.round(r.left)}..${Math.round(r.right)}]`);
    if (out.offenders.length >= 8) break;
  }
  return out;
}
""".replace("__DESCRIBE__", DESCRIBE_JS)

# Each element of the selector: inside the viewport (unscrolled: ``scroll`` false) and the topmost
# element at its centre (document.elementFromPoint), i.e. visible, not covered, clickable.
PLACE_JS = """
([selector, scroll, W, H]) => {
  const describe = __DESCRIBE__;
  const SLACK = 4;  // px: a shadow or a focus ring may stick out
  const problems = [];
  // visually hidden on purpose: an sr-only text, or a skip link kept above the page until focused
  // (scrolling cannot bring it into view)
  const hidden = (r) => (r.width <= 1 && r.height <= 1) || (scroll && (r.bottom <= 0 || r.right <= 0));
  let count = 0;
  for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    if (scroll) el.scrollIntoView({block: 'center', inline: 'center'});
    const r = el.getBoundingClientRect();
    if (hidden(r)) continue;
    count += 1;
    const where = `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)}`;
    if (r.width < 1 || r.height < 1) { problems.push(`${describe(el)}: empty box`); continue; }
    if (r.left < -SLACK || r.top < -SLACK || r.right > W + SLACK || r.bottom > H + SLACK) {
      problems.push(`${describe(el)}: outside the ${W}×${H} viewport (${where})`);
      continue;
    }
    // the centre of its largest box (a link broken over two lines has two)
    const box = [...el.getClientRects()].reduce((a, b) => (!a || b.width * b.height > a.width * a.height ? b : a), null) || r;
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!hit || !(el === hit || el.contains(hit))) {
      problems.push(`${describe(el)}: covered at its centre by ${hit ? describe(hit) : 'nothing'} (${where})`);
    }
  }
  if (scroll) window.scrollTo(0, 0);
  return {count, problems};
}
""".replace("__DESCRIBE__", DESCRIBE_JS)

# Touch targets: every visible interactive element's box (a checkbox or radio: its label's) ≥ min.
TARGETS_JS = """
([selector, min, within]) => {
  const describe = __DESCRIBE__;
  const root = within ? document.querySelector(within) : document;
  if (!root) return [];
  const small = [];
  const seen = new Set();
  for (const el of root.querySelectorAll(selector)) {
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    const box = (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label')) || el;
    if (seen.has(box)) continue;
    seen.add(box);
    const r = box.getBoundingClientRect();
    if (r.width < min - 0.5 || r.height < min - 0.5) {
      small.push(`${describe(box)} ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
  }
  return small;
}
""".replace("__DESCRIBE__", DESCRIBE_JS)


def viewport_size(page: Page) -> tuple[int, int]:
    """The window's size in CSS px, as the context set it.  Not ``innerWidth``: on a phone
    (``is_mobile``) Chromium widens the layout viewport to a page that is too wide, and zooms out."""
    size = page.viewport_size
    assert size is not None
    return size["width"], size["height"]


def overflow(page: Page) -> list[str]:
    """No horizontal panning: the document is no wider than the viewport."""
    o = page.evaluate(OVERFLOW_JS, viewport_size(page)[0])
    if o["scrollWidth"] <= o["innerWidth"]:
        return []
    return [f"the page is {o['scrollWidth']} px wide in a {o['innerWidth']} px viewport; sticking out: "
            + "; ".join(o["offenders"])]


def placed(page: Page, selector: str, what: str, *, scroll: bool = False, at_least: int = 1) -> list[str]:
    """Problems with each visible element of ``selector``: outside the viewport, or covered."""
    r = page.evaluate(PLACE_JS, [selector, scroll, *viewport_size(page)])
    problems = [f"{what}: {p}" for p in r["problems"]]
    if r["count"] < at_least:
        problems.insert(0, f"{what}: {r['count']} visible element(s) match {selector!r}, expected ≥ {at_least}")
    return problems


def eventually(page: Page, probe: Callable[[], list[str]], timeout_ms: int = 2000) -> list[str]:
    """The probe's problems once they are gone, or the last ones after ``timeout_ms`` (a drawer
    sliding in or out, a dialog fading: the state is judged when the transition is over)."""
    waited = 0
    problems = probe()
    while problems and waited < timeout_ms:
        page.wait_for_timeout(100)
        waited += 100
        problems = probe()
    return problems


def small_targets(page: Page, minimum: int = 40, within: str | None = None) -> list[str]:
    small = page.evaluate(TARGETS_JS, [INTERACTIVE, minimum, within])
    return [f"touch target under {minimum}×{minimum} px: {s}" for s in small]


def report(where: str, problems: list[str]) -> None:
    """Fail with every problem found (one assertion per page state, so the list is the to-do list)."""
    assert not problems, f"{where}: {len(problems)} problem(s)\n  " + "\n  ".join(problems)


def tile_requests(urls: list[str]) -> list[str]:
    """The distinct tile image URLs among the requests (images by type, or anything under /tiles/)."""
    return sorted({u for u in urls if "/tiles/" in u})
