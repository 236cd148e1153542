"""The strength levels and the hint's search part in the browser (issue 15, part 3): a real server on
loopback and Debian's Chromium (tests/ui_helpers.py's ``serve``: a scripted first hand, the person
East and the dealer), at the phone size 390×844.

* The lobby's strength select offers the four levels, each naming its bot, hard chosen; a room made
  with ``easy`` seats the greedy bot.
* With **Hints** on, at the person's turn the hint panel (in the drawer) shows the advisor's rows and
  then the expert search's pick (100 ms, in a worker thread on the server): a discard's row is marked
  and the line "Search suggests: …" names it; on a hand that wins at once the pick is the win, which
  no row holds, and the line says so.  Nothing sticks out sideways, the panel keeps its width, and
  axe finds nothing serious.

Screenshots go to ``$TJMJ_SHOTS`` (or the test's temporary folder).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.test_a11y import axe_problems
from tests.test_e2e import _watch_console
from tests.ui_helpers import VIEWPORTS, WIN_HAND, Session, overflow, quick_room, report, serve, table_url
from tjmj.web.inputs import LEVELS

PHONE = next(v for v in VIEWPORTS if v.id == "phone-390x844")
# a hand that does not win at once and holds no wild (the indicator 4p makes 4p and 5p wild)
PLAIN_HAND = "1m2m3m5m7m9m2p3p7s8s1z1z6z7z"

PANEL_WIDTH_JS = """
() => {
  const p = document.getElementById('hintpanel');
  return {scroll: p.scrollWidth, client: p.clientWidth};
}
"""


def _shots(tmp_path: Path) -> Path:
    return Path(os.environ.get("TJMJ_SHOTS") or tmp_path)


def _hint_panel(browser: Browser, base: str, shot: Path) -> tuple[Page, list[str], Session]:
    """The person's turn with Hints on, the drawer open on the hint panel once the search answered."""
    s = Session(browser, base, PHONE, "en")
    s.seat = quick_room(s.context, base)
    page = s.page
    errors = _watch_console(page)
    page.goto(table_url(base, s.seat, "en") + "&hints=1")
    sit = page.locator('button[data-action="sit 0"]')
    expect(sit).to_be_visible(timeout=15_000)
    sit.dispatch_event("click")
    expect(page.locator("[data-testid=hand-tile].can").first).to_be_attached(timeout=15_000)
    page.locator("[data-testid=side-toggle]").click()
    panel = page.locator("#hintpanel")
    expect(panel).to_be_visible()
    line = panel.locator("[data-testid=hint-search][data-action]")
    expect(line).to_be_visible(timeout=8000)  # the search's part came (100 ms on the server)
    expect(line).to_have_text(re.compile(r"^Search suggests: \S"))
    panel.evaluate("(p) => p.scrollIntoView({block: 'start'})")  # the panel at the top of the drawer
    page.wait_for_timeout(300)  # the drawer's slide is over
    page.screenshot(path=str(shot))
    problems = overflow(page)
    width = page.evaluate(PANEL_WIDTH_JS)
    if width["scroll"] > width["client"] + 1:
        problems.append(f"the hint panel is {width['scroll']} px wide inside {width['client']} px")
    problems += [f"console: {e}" for e in errors] + axe_problems(page)
    return page, problems, s


def test_the_lobby_offers_the_levels_and_creates_with_one(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path / "levels.sqlite3") as base:
        context = PHONE.context(browser)
        try:
            context.set_default_timeout(8000)
            page = context.new_page()
            page.goto(base + "/?lang=en")
            select = page.locator("select[name=bots]")
            values = select.locator("option").evaluate_all("(os) => os.map((o) => o.value)")
            texts = select.locator("option").all_inner_texts()
            assert values == list(LEVELS)
            assert texts[list(LEVELS).index("hard")] == "Hard (strong: plays for value)"
            assert all(f"({bot}" in text for text, bot in zip(texts, LEVELS.values())), texts
            assert select.input_value() == "hard"
            page.locator("#create").scroll_into_view_if_needed()
            page.screenshot(path=str(_shots(tmp_path) / "lobby_levels_390x844.png"))
            report("the lobby at 390×844", overflow(page))
            page.fill("#name", "Ada")
            select.select_option("easy")
            page.locator("#create button[type=submit]").click()
            expect(page).to_have_url(re.compile(r"/table/[A-Z0-9]{6}$"))
            code = page.url.rsplit("/", 1)[1]
            expect(page.locator("#waiting")).to_contain_text("Easy (greedy")  # the rules line names the level
            info = context.request.get(f"{base}/api/rooms/{code}").json()
            assert info["bots"] == "greedy" and info["level"] == "easy"
        finally:
            context.close()


def test_the_hint_panel_marks_the_search_pick_on_a_phone(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path / "hint.sqlite3", hand=PLAIN_HAND) as base:
        page, problems, s = _hint_panel(browser, base, _shots(tmp_path) / "hint_search_390x844.png")
        try:
            action = page.locator("[data-testid=hint-search]").get_attribute("data-action") or ""
            assert action.startswith("discard "), action  # no win, no kong in this hand: a discard
            tile = action.split()[1]
            row = page.locator(f"#hintpanel .hintrow.pick[data-tile='{tile}']")
            expect(row).to_have_count(1)
            expect(page.locator("#hintpanel .hintrow.pick")).to_have_count(1)
            expect(row).to_contain_text("search's pick")
            # the hand tile says so too (its accessible name), and no other tile does
            labels = page.locator("[data-testid=hand-tile].can").evaluate_all(
                "(ts) => ts.map((t) => [t.dataset.tile, t.getAttribute('aria-label')])")
            assert {x for x, label in labels if label.endswith("search's pick")} == {tile}, labels
            report("the hint panel with the search's pick at 390×844", problems)
        finally:
            s.close()


def test_a_pick_that_is_not_a_discard_is_said_in_a_line(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path / "hint-win.sqlite3", hand=WIN_HAND) as base:
        page, problems, s = _hint_panel(browser, base, _shots(tmp_path) / "hint_search_win_390x844.png")
        try:
            line = page.locator("[data-testid=hint-search]")
            assert line.get_attribute("data-action") == "win"  # 天胡: the search wins at once
            expect(line).to_contain_text("Win")
            expect(page.locator("#hintpanel .hintrow.pick")).to_have_count(0)  # no row holds a win
            report("the hint panel with a win picked at 390×844", problems)
        finally:
            s.close()
