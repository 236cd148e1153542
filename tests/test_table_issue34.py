"""Issue 34 (items 1, 2, 3, 4, 7, 11): what a new player found wrong on the web table, checked in
Chromium at phone (390×844, touch) and desktop (1280×800) size.

One server deals scripted hands; the room creator's name picks the script (:class:`Scenes`), so one
server serves every scene.  The bots (:class:`tests.ui_helpers.QuietBot`) decline 坐庄 and 拉庄,
never claim, and discard what they drew (the dealer's first discard: its lowest tile).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.scripted import script_wall
from tests.test_beijing_web import seed_for
from tests.test_mcr_rules import mcr_wall
from tests.test_store import batches
from tests.test_web import LOOSE
from tests.ui_helpers import VIEWPORTS, WIN_HAND, Viewport, quiet_bots, report, serving
from tjmj.bots import make_bot
from tjmj.game import Match
from tjmj.rules import Rules
from tjmj.simulate import play_with
from tjmj.web.app import create_app
from tjmj.web.store import Store

PHONE, DESKTOP = VIEWPORTS[1], VIEWPORTS[3]
SIZES = [PHONE, DESKTOP]
SIZE_IDS = [v.id for v in SIZES]


class Scenes:
    """A ``match_factory`` dealing by the room creator's name (player 0):

    * ``Sit``: Tianjin, the person is East (the dealer) holding a winning 14: 坐庄 is asked first;
    * ``Pull``: Tianjin, the person is South: East (a bot) declines to sit, then the person may pull;
    * ``Pon``: Tianjin, the person is East; South draws 9s and discards it: 碰 9s or pass;
    * ``BjPon`` / ``McrPon``: Beijing / MCR, the person is West holding a pair of East's first
      discard (its lowest tile): from the seat opposite, only 碰 (no 吃, no 和);
    * ``BjChi``: Beijing, the person is West; South discards 4m: three chis (2356m) or pass.
    """

    def __call__(self, rules: Rules, seed: int, names: list[str]) -> Match:
        who = names[0]
        if who == "Sit":
            return self.tianjin(rules, names, {0: 0}, {0: WIN_HAND})
        if who == "Pull":
            return self.tianjin(rules, names, {0: 1}, {})
        if who == "Pon":
            return self.tianjin(rules, names, {0: 0}, {0: "111m23m456m789m99s5p"}, draws="9s")
        if who == "BjPon":
            hands = {0: "1s1s2s2s3s3s4s4s5s5s6s6s7s7s", 2: "1s1s2m3m5m6m1p2p3p5p6p7z7z"}
            wall = script_wall(0, hands, indicator="7z", wild_method="tail", quiet=False)
            return Match(rules, seed=seed_for(rules, {0: 2}), names=names, walls=[wall])
        if who == "BjChi":
            hands = {0: "1s1s2s2s3s3s4s4s5s5s6s6s7s7s", 1: "8s8s9s9s1z1z2z2z3z3z4z4z5z", 2: "2356m123p456p789p",
                     3: "1s2s3s4s5s6s7s8s9s5z6z6z6z"}
            wall = script_wall(0, hands, draws="4m6m", indicator="7z", wild_method="tail", quiet=False)
            return Match(rules, seed=seed_for(rules, {0: 2}), names=names, walls=[wall])
        if who == "McrPon":
            hands = {0: "5s7s9s1z1z2z2z3z3z4z4z6z6z7z", 2: "5s5s1m2m4m6m1p3p7p8p2s3s7z"}
            wall = mcr_wall(0, hands, avoid="5s")
            return Match(rules, seed=seed_for(rules, {0: 2}), names=names, walls=[wall])
        return Match(rules, seed=seed, names=names)

    @staticmethod
    def tianjin(rules: Rules, names: list[str], seats: dict[int, int], hands: dict[int, str], draws: str = ""
                ) -> Match:
        wall = script_wall(0, hands, draws=draws, indicator="4p", quiet=False)
        return Match(rules, seed=seed_for(rules, seats), names=names, walls=[wall])


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    """The server's URL and its store (a test may store a finished match in it)."""
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('i34') / 'i34.sqlite3'}")
    app = create_app(store, bot_delay=0.0, next_delay=1.0, rate_limit=(1000, 1000.0), limits=LOOSE,
                     match_factory=Scenes(), bot_factory=quiet_bots)
    try:
        with serving(app) as url:
            yield url, store
    finally:
        store.close()


@pytest.fixture(scope="module")
def server(served: tuple[str, Store]) -> str:
    return served[0]


def store_played(store: Store, m: Match, seed: int, people: int = 0) -> int:
    """A match played to its end, stored as the server stores one (its events in batches, then
    finished); players 0 … ``people`` − 1 are people, the others bots."""
    players = [{"seat": seat, "name": m.names[m.seating[seat]], "kind": "human" if m.seating[seat] < people else "bot",
                "bot": None if m.seating[seat] < people else "baseline", "player": m.seating[seat]}
               for seat in range(4)]
    mid = store.create_match(f"P{seed}", m.events[0]["rules"], seed, players)
    at = 0
    for batch in batches(list(m.events)):
        store.append_events(mid, batch, at=at)
        at += len(batch)
    store.finish_match(mid, list(m.scores))
    return mid


def open_table(browser: Browser, base: str, vp: Viewport, name: str, *, family: str = "tianjin",
               preset: str | None = None, lang: str = "en") -> tuple[BrowserContext, Page]:
    """A one-hand room of ``name``'s scene against the bots, started, its table open in a new context."""
    context = vp.context(browser)
    context.set_default_timeout(8000)
    body: dict[str, Any] = {"name": name, "family": family, "match_hands": 1, "bots": "baseline"}
    if preset:
        body["preset"] = preset
    r = context.request.post(f"{base}/api/quick", data=body)
    assert r.ok, r.text()
    d = r.json()
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{base}/table/{d['room']}?lang={lang}#token={d['token']}&player=0")
    return context, page


def keys_of(page: Page, prefix: str) -> dict[str, tuple[str, str]]:
    """Each action button starting ``prefix``: its ``aria-keyshortcuts`` and the key its badge shows."""
    buttons = page.locator(f'#myhand button[data-action^="{prefix}"]')
    out = {}
    for i in range(buttons.count()):
        b = buttons.nth(i)
        badge = b.locator(".key")
        out[b.get_attribute("data-action") or "?"] = (b.get_attribute("aria-keyshortcuts") or "",
                                                      badge.inner_text() if badge.count() else "")
    return out


# ---- item 1: the letters S and L name 坐庄 and 拉庄, not their decline ----------------------------


@pytest.mark.parametrize("vp", SIZES, ids=SIZE_IDS)
def test_s_sits_and_l_pulls_and_x_declines(server: str, browser: Browser, vp: Viewport) -> None:
    """The sit prompt: S sits, X does not; the pull prompt (yiyou: up to ×2): L pulls once, 2 twice,
    X does not; the badge shows the key the button answers; pressing S and L does what they say."""
    context, page = open_table(browser, server, vp, "Sit", preset="yiyou")
    try:
        expect(page.locator('#myhand button[data-action="sit 0"]')).to_be_visible()
        assert keys_of(page, "sit ") == {"sit 1": ("S", "S"), "sit 0": ("X", "X")}
        page.keyboard.press("s")
        expect(page.locator("#pos-0 .mark.sit")).to_be_visible()  # the person, the dealer, sits
    finally:
        context.close()
    context, page = open_table(browser, server, vp, "Pull", preset="yiyou")
    try:
        expect(page.locator('#myhand button[data-action="pull 0"]')).to_be_visible()
        assert keys_of(page, "pull ") == {"pull 0": ("X", "X"), "pull 1": ("L", "L"), "pull 2": ("2", "2")}
        page.keyboard.press("l")
        expect(page.locator("#pos-0 .mark.pull")).to_have_text("pull ×1")
    finally:
        context.close()


@pytest.mark.parametrize(("name", "preset", "key", "mark"), [
    ("Sit", "yiyou", "0", None), ("Sit", "classic", "1", "sits"), ("Sit", "classic", "x", None),
    ("Pull", "yiyou", "2", "pull ×2"), ("Pull", "classic", "1", "pull ×1"), ("Pull", "classic", "0", None),
    ("Pull", "classic", "x", None)])
def test_a_digit_chooses_its_level(server: str, browser: Browser, name: str, preset: str, key: str,
                                   mark: str | None) -> None:
    """A digit answers the level it names, as in the terminal: 0 declines, 1 sits or pulls once."""
    context, page = open_table(browser, server, DESKTOP, name, preset=preset)
    kind = name.lower()
    try:
        expect(page.locator(f'#myhand button[data-action="{kind} 0"]')).to_be_visible()
        page.keyboard.press(key)
        expect(page.locator("[data-testid=hand-tile]").first).to_be_visible()  # the hand is dealt
        marks = page.locator(f"#pos-0 .mark.{kind}")
        if mark is None:
            expect(marks).to_have_count(0)
        else:
            expect(marks).to_have_text(mark)
    finally:
        context.close()


# ---- item 2: the claim prompt names only the claims offered -------------------------------------

TURN = "[data-testid=turn]"


def to_claim(page: Page, name: str) -> None:
    """Bring ``name``'s scene to the person's claim window (Pon: decline to sit, discard 1m)."""
    if name == "Pon":
        page.locator('#myhand button[data-action="sit 0"]').click()
        page.locator('#myhand [data-testid=hand-tile][data-tile="1m"]').first.click()
    expect(page.locator('#myhand button[data-action="pass"]')).to_be_visible(timeout=15_000)


CLAIM_PROMPTS = [  # (scene, family, English, Chinese): the discard and what may be done with it
    ("Pon", "tianjin", "9 bamboo: pon or pass?", "九条：碰还是过？"),
    ("BjPon", "beijing", "1 bamboo: pon or pass?", "一条：碰还是过？"),
    ("McrPon", "mcr", "5 bamboo: pon or pass?", "五条：碰还是过？"),
    ("BjChi", "beijing", "4 characters: chi or pass?", "四万：吃还是过？"),
]


@pytest.mark.parametrize("vp", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize(("name", "family", "en", "zh"), CLAIM_PROMPTS, ids=[c[0] for c in CLAIM_PROMPTS])
def test_the_claim_prompt_names_only_the_claims_offered(server: str, browser: Browser, vp: Viewport, name: str,
                                                        family: str, en: str, zh: str) -> None:
    for lang, want in (("en", en), ("zh", zh)):
        context, page = open_table(browser, server, vp, name, family=family, lang=lang)
        try:
            to_claim(page, name)
            expect(page.locator(TURN)).to_contain_text(want)
            kinds = {(page.locator("#myhand button[data-action]").nth(i).get_attribute("data-action") or "").split()[0]
                     for i in range(page.locator("#myhand button[data-action]").count())}
            offered = {"pon", "pass"} if "pon" in want or "碰" in want else {"chi", "pass"}
            assert kinds == offered, f"{name}: the buttons offer {kinds}"
        finally:
            context.close()


# ---- item 4: a chi button names its sequence, the suit once --------------------------------------

LINES_JS = """(el) => new Set([...el.getClientRects()].map((r) => Math.round(r.top))).size"""


@pytest.mark.parametrize("vp", SIZES, ids=SIZE_IDS)
def test_a_chi_button_names_its_sequence(server: str, browser: Browser, vp: Viewport) -> None:
    want = {"en": ["Chi 2-3-4 characters", "Chi 3-4-5 characters", "Chi 4-5-6 characters"],
            "zh": ["吃 二三四万", "吃 三四五万", "吃 四五六万"]}
    problems = []
    for lang in ("en", "zh"):
        context, page = open_table(browser, server, vp, "BjChi", family="beijing", lang=lang)
        try:
            to_claim(page, "BjChi")
            for action, text in zip(("chi 2m", "chi 3m", "chi 4m"), want[lang], strict=True):
                button = page.locator(f'#myhand button[data-action="{action}"]')
                label = button.locator("span[aria-hidden=true]").first
                expect(label).to_have_text(text)
                expect(button).to_have_attribute("aria-label", f"{text} ({button.get_attribute('aria-keyshortcuts')})")
                lines = page.evaluate(LINES_JS, label.element_handle())
                if lines != 1:
                    problems.append(f"{lang}: {text!r} runs over {lines} lines")
        finally:
            context.close()
    report(f"chi buttons at {vp.id}", problems)


# ---- item 3: the replay's "winning tile" tag stays inside its seat -------------------------------


@pytest.fixture(scope="module")
def left_win(served: tuple[str, Store]) -> int:
    """A stored one-hand match that North (seat 3, the replay's left seat on a desktop) wins with
    all 14 tiles in hand (no meld: the longest hand, which wraps in the narrow seat)."""
    for seed in range(1, 500):
        m = play_with(Match(Rules.preset("classic", match_hands=1), seed, names=["Ann", "Bob", "Cy", "Di"]),
                      [make_bot("baseline") for _ in range(4)], seed)
        hora = [e for e in m.events if e["type"] == "hora"]
        if hora and hora[0]["actor"] == 3 and not hora[0].get("melds"):
            return store_played(served[1], m, seed)
    raise AssertionError("no seed gives North a concealed win")


INSIDE_JS = """([inner, outer]) => {
  const a = document.querySelector(inner).getBoundingClientRect(), b = document.querySelector(outer).getBoundingClientRect();
  return [a.left - b.left, b.right - a.right, a.top - b.top, b.bottom - a.bottom].map(Math.round);
}"""


@pytest.mark.parametrize("vp", SIZES, ids=SIZE_IDS)
def test_the_replay_shows_the_winning_tile_tag_whole(server: str, browser: Browser, vp: Viewport, left_win: int
                                                     ) -> None:
    problems = []
    for lang in ("en", "zh"):
        context = vp.context(browser)
        try:
            page = context.new_page()
            page.goto(f"{server}/replay/{left_win}?lang={lang}")
            expect(page.locator("#pos-3 .rp-seathead")).to_be_visible()
            page.keyboard.press("End")  # the hand's end: the win
            label = page.locator("#pos-3 .rp-winlabel")
            expect(label).to_have_text("winning tile" if lang == "en" else "和张")
            label.scroll_into_view_if_needed()
            for outer in ("#pos-3", "#board"):  # its seat, and the board (which scrolls, and clips)
                margins = page.evaluate(INSIDE_JS, ["#pos-3 .rp-winlabel", outer])
                if min(margins) < 0:
                    problems.append(f"{lang}: the tag sticks out of {outer} (left, right, top, bottom: {margins})")
        finally:
            context.close()
    report(f"the winning tile's tag at {vp.id}", problems)


# ---- item 7: the payments, the lobby's bar, the waiting room, the claim at 390 px ----------------

# how many lines an element's text runs over (the line boxes of its text, less a screen reader's)
TEXT_LINES_JS = """(el) => {
  const tops = new Set();
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim() || n.parentElement.closest('.sr-only')) continue;
    const r = document.createRange();
    r.selectNodeContents(n);
    for (const b of r.getClientRects()) tops.add(Math.round(b.top));
  }
  return tops.size;
}"""


@pytest.mark.parametrize("vp", SIZES, ids=SIZE_IDS)
def test_each_payment_and_its_formula_stay_on_one_line(server: str, browser: Browser, vp: Viewport) -> None:
    """The dealer sits (×2) and wins: each payment's payer, payee, amount and reason, and the formula
    ("32 fan × sit 2 = 64", 32番 × 坐庄2 = 64) under it, each on one line."""
    problems = []
    for lang in ("en", "zh"):
        context, page = open_table(browser, server, vp, "Sit", preset="yiyou", lang=lang)
        try:
            page.locator('#myhand button[data-action="sit 1"]').click()
            page.locator('#myhand button[data-action="win"]').click()
            cells = page.locator("#modal table.payments td")
            expect(cells.first).to_be_visible()
            expect(page.locator("#modal table.payments td.why").first).to_contain_text("= 64")
            for i in range(cells.count()):
                lines = page.evaluate(TEXT_LINES_JS, cells.nth(i).element_handle())
                if lines != 1:
                    problems.append(f"{lang}: {cells.nth(i).inner_text()!r} runs over {lines} lines")
        finally:
            context.close()
    report(f"the payments at {vp.id}", problems)


BOXES_JS = """(sels) => sels.map((s) => [...document.querySelectorAll(s)].map((e) => {
  const r = e.getBoundingClientRect(); return [s, Math.round(r.left), Math.round(r.right), Math.round(r.top), Math.round(r.bottom)];
})).flat()"""


@pytest.mark.parametrize("vp", [VIEWPORTS[0], PHONE, DESKTOP], ids=[VIEWPORTS[0].id, *SIZE_IDS])
def test_the_lobby_bar_keeps_its_links_on_screen(server: str, browser: Browser, vp: Viewport) -> None:
    """With a name, the lobby's bar holds History, My statistics and the language button: each is
    inside the window, and the title gives way (it does not run under them)."""
    problems = []
    for lang in ("en", "zh"):
        context = vp.context(browser)
        try:
            page = context.new_page()
            page.goto(f"{server}/?lang={lang}")
            page.fill("#name", "Ann")
            expect(page.locator("#my-stats")).to_be_visible()
            boxes = page.evaluate(BOXES_JS, [".topbar > .brand", ".topbar nav > a:not([hidden]), .topbar nav > button"])
            width = vp.width
            brand = boxes[0]
            for _, left, right, _, _ in boxes[1:]:
                if left == right == 0:  # not shown at this width (the leaderboard link on a phone)
                    continue
                if right > width or left < brand[2]:
                    problems.append(f"{lang}: a link of the bar at {left}..{right}, the title ends at {brand[2]}, "
                                    f"the window is {width} px wide")
        finally:
            context.close()
    report(f"the lobby's bar at {vp.id}", problems)


@pytest.mark.parametrize("vp", SIZES, ids=SIZE_IDS)
def test_the_private_checkbox_stands_apart_from_start(server: str, browser: Browser, vp: Viewport) -> None:
    problems = []
    for lang in ("en", "zh"):
        context = vp.context(browser)
        try:
            r = context.request.post(f"{server}/api/rooms", data={"name": "Host", "match_hands": 1})
            assert r.ok, r.text()
            d = r.json()
            page = context.new_page()
            page.goto(f"{server}/table/{d['room']}?lang={lang}#token={d['token']}&player=0")
            expect(page.locator("#private")).to_be_visible()
            boxes = page.evaluate(BOXES_JS, ["#waiting label.toggle", "#waiting button.primary.big"])
            gap = boxes[1][3] - boxes[0][4]
            if gap < 8:
                problems.append(f"{lang}: {gap} px between the Private checkbox's text and the Start button")
        finally:
            context.close()
    report(f"the waiting room at {vp.id}", problems)


@pytest.mark.parametrize("vp", SIZES, ids=SIZE_IDS)
def test_no_empty_band_between_the_table_and_the_hand_in_a_claim(server: str, browser: Browser, vp: Viewport
                                                                 ) -> None:
    """In a claim window the person's seat (under the discard offered) sits on the hand and its
    buttons: the felt's spare height is not a band between them."""
    context, page = open_table(browser, server, vp, "BjPon", family="beijing")
    try:
        to_claim(page, "BjPon")
        boxes = page.evaluate(BOXES_JS, ["#pos-0", "#myhand"])
        gap = boxes[1][3] - boxes[0][4]
        assert 0 <= gap <= 16, f"{gap} px between the person's seat and the hand"
    finally:
        context.close()


# ---- item 11: nits --------------------------------------------------------------------------------


@pytest.mark.parametrize("vp", SIZES, ids=SIZE_IDS)
def test_a_replay_that_does_not_exist_shows_no_controls(server: str, browser: Browser, vp: Viewport) -> None:
    """/replay/9999: the page says there is no such match, in the page's language, and offers the
    stored matches; no board, no step buttons, no move list to open."""
    for lang, text in (("en", "There is no such match"), ("zh", "没有这场对局")):
        context = vp.context(browser)
        try:
            page = context.new_page()
            page.goto(f"{server}/replay/9999?lang={lang}")
            expect(page.locator("#title")).not_to_have_text(re.compile("^(回放|Replay)$"))  # the load failed
            for hidden in ("#board", "#movesbtn", "#side", ".rp-controls", "#fwd", "#slider"):
                expect(page.locator(hidden)).to_be_hidden()
            expect(page.locator("#title")).to_have_text(text)
            expect(page.locator("main a[href='/history']")).to_be_visible()
            page.locator("#lang").click()  # the other language: the message follows
            expect(page.locator("#title")).not_to_have_text(text)
        finally:
            context.close()


@pytest.mark.parametrize("vp", SIZES, ids=SIZE_IDS)
def test_a_bad_player_name_is_explained_in_the_page_language(server: str, browser: Browser, vp: Viewport) -> None:
    """/player/%20bad%20 (spaces at the ends: the server refuses the name) says why in the page's
    language, in the page, not as an English toast."""
    for lang, text in (("zh", "玩家名字是 1 到 20 个字符，首尾不能有空格"),
                       ("en", "A player's name has 1 to 20 characters, without spaces at either end")):
        context = vp.context(browser)
        try:
            page = context.new_page()
            page.goto(f"{server}/player/%20bad%20?lang={lang}", wait_until="networkidle")
            expect(page.locator("#families")).to_have_text(text)
            expect(page.locator(".toast")).to_have_count(0)
        finally:
            context.close()


@pytest.mark.parametrize("vp", SIZES, ids=SIZE_IDS)
def test_one_match_is_said_in_words_not_drawn_in_an_empty_box(served: tuple[str, Store], browser: Browser,
                                                             vp: Viewport) -> None:
    """A player with one finished match: the score over time is a sentence with the total, not a
    chart box holding one dot."""
    base, store = served
    m = play_with(Match(Rules.preset("classic", match_hands=1), 7, names=["Solo", "B1", "B2", "B3"]),
                  [make_bot("baseline") for _ in range(4)], 7)
    if not store.player_matches("Solo"):
        store_played(store, m, 7, people=1)
    total = m.scores[m.seating.index(0)]
    shown = f"+{total}" if total > 0 else f"\u2212{-total}" if total < 0 else "0"
    for lang, text in (("en", f"One match so far, {shown} in all"), ("zh", f"只有 1 场，累计 {shown}")):
        context = vp.context(browser)
        try:
            page = context.new_page()
            page.goto(f"{base}/player/Solo?lang={lang}")
            plot = page.get_by_test_id("family-tianjin").get_by_test_id("score-plot")
            expect(plot).to_contain_text(text)
            assert plot.evaluate("(e) => e.tagName") == "P"
        finally:
            context.close()


@pytest.fixture(scope="module")
def mcr_two_hands(served: tuple[str, Store]) -> int:
    """A stored two-hand MCR match: in hand 2 the dealer has passed, so no seat's wind is its letter."""
    m = play_with(Match(Rules.preset("mcr", match_hands=2), 3, names=["Ann", "Bob", "Cy", "Di"]),
                  [make_bot("baseline") for _ in range(4)], 3)
    return store_played(served[1], m, 3)


WINDS_EN = {"E": "East", "S": "South", "W": "West", "N": "North"}


@pytest.mark.parametrize("vp", SIZES, ids=SIZE_IDS)
def test_an_mcr_seat_says_which_is_its_place_and_which_its_wind(server: str, browser: Browser, vp: Viewport,
                                                                mcr_two_hands: int) -> None:
    """The seat's letter is its fixed place, the badge beside it this hand's seat wind: the badge
    says "seat wind South" (门风 南), the letter's title "Seat W: its fixed place …".  Checked at the
    table (hand 1) and in the replay's hand 2, where the winds have moved on from the letters."""
    context, page = open_table(browser, server, vp, "McrPon", family="mcr")
    try:
        to_claim(page, "McrPon")
        expect(page.locator("#pos-0 .mark.seatwind")).to_have_text("seat wind West")
        expect(page.locator("#pos-0 .wind")).to_have_attribute("title", re.compile(r"^Seat W: its fixed place"))
    finally:
        context.close()
    for lang in ("en", "zh"):
        context = vp.context(browser)
        try:
            page = context.new_page()
            page.goto(f"{server}/replay/{mcr_two_hands}?lang={lang}")
            expect(page.locator("#pos-0 .rp-seathead")).to_be_visible()
            page.keyboard.press("PageDown")  # hand 2
            expect(page.locator("#handline")).to_contain_text("2")
            moved = 0
            for seat in range(4):
                letter = page.locator(f"#pos-{seat} .rp-wind")
                mark = page.locator(f"#pos-{seat} .rp-mark.seatwind")
                if lang == "en":
                    expect(mark).to_have_text(re.compile(r"^seat wind (East|South|West|North)$"))
                    expect(letter).to_have_attribute("title", re.compile(rf"^Seat {letter.inner_text()}: its fixed place"))
                    moved += mark.inner_text().split()[-1] != WINDS_EN[letter.inner_text()]
                else:
                    expect(mark).to_have_text(re.compile(r"^门风 [东南西北]$"))
                    expect(letter).to_have_attribute("title", re.compile(rf"^座位{letter.inner_text()}："))
                    moved += mark.inner_text()[-1] != letter.inner_text()
            assert moved == 4, f"hand 2 of the replay: {moved} of 4 seats have a wind other than their letter"
        finally:
            context.close()
