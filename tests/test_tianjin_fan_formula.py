"""The Tianjin settlement writes out how the fan is made (issue 34 item 6), as Beijing's value and
MCR's fan are: the core values added, then ×2 per doubling element (R5.2), 天胡 4 flat or ×4 (R5.5).

The formula is built from the scorer's elements and checked against the scorer's fan on the hands of
RULES.md R5.4 and more; the web settlement carries it and the terminal shows it.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from tjmj.families.tianjin.elements import ELEMENT_BY_CODE
from tjmj.families.tianjin.score import score
from tjmj.families.tianjin.webview import fan_formula as tianjin_fan_formula
from tjmj.rules import Rules
from tjmj.tui.app import TableApp
from tjmj.tui.render import settlement_text
from tjmj.web.settlement import settlement_message

# hand (13 tiles), draw, indicator, melds, kong draw, the arithmetic the formula must show (R5.3, R5.4)
HANDS = [
    ("123m678p999p234s4p", "7z", "4p", (), False, "1 × 2 = 2"),  # 混儿吊
    ("123m678p3s4p22z", "2s", "4p", ("[9999p]",), True, "1 × 2 = 2"),  # 杠开
    ("1234679m999p4p22z", "8m", "4p", (), False, "4 = 4"),  # 龙
    ("1234679m999p4p22z", "5m", "4p", (), False, "3 + 4 = 7"),  # 捉伍儿龙
    ("123456789m23s66z", "4s", "1p", (), False, "4 × 2 = 8"),  # 没混儿龙 (no wild anywhere)
    ("1p1p2p13s456s789s66z", "5m", "1p", (), False, "(3 + 4) × 2 = 14"),  # 双混儿捉伍儿龙
    ("1p1p1p2p3p456p789p66z", "5m", "1p", (), False, "(3 + 4) × 2 × 2 = 28"),  # 双混儿捉伍儿本混儿龙
    ("123m456p789s111s9s", "4p", "4p", (), False, "1 = 1"),  # 提溜 (no win under min_fan 2)
]


def arithmetic(formula: str) -> str:
    """The numbers and operators of a formula, its names dropped: "(捉伍儿3 + 龙4) × 没混儿2 = 14"
    → "(3 + 4) × 2 = 14"."""
    kept = re.sub(r"[^0-9+×=() ]", "", formula)
    kept = re.sub(r"\(\s+", "(", kept)
    return re.sub(r"\s+", " ", kept).strip()


def evaluate(formula: str) -> tuple[int, int]:
    left, right = arithmetic(formula).split("=")
    return eval(left.replace("×", "*"), {"__builtins__": {}}), int(right)  # noqa: S307 - digits and operators only


@pytest.mark.parametrize("hand, draw, indicator, melds, kong_draw, expected", HANDS)
def test_the_formula_comes_to_the_scorers_fan(hand: str, draw: str, indicator: str, melds: tuple[str, ...],
                                              kong_draw: bool, expected: str) -> None:
    rules = Rules.preset("classic")
    res = score(hand, draw, indicator, list(melds), kong_draw=kong_draw, rules=rules)
    assert res.complete
    zh, en = tianjin_fan_formula(res.codes, res.fan, rules)
    assert arithmetic(zh) == arithmetic(en) == expected
    for formula in (zh, en):
        total, said = evaluate(formula)
        assert total == said == res.fan
    for code in res.codes:  # every element is named, in its language
        e = ELEMENT_BY_CODE[code]
        assert e.chinese in zh and e.english.split(" (")[0] in en


def test_the_issues_hand_reads_three_plus_four_times_two() -> None:
    rules = Rules.preset("classic")
    res = score("1p1p2p13s456s789s66z", "5m", "1p", rules=rules)
    zh, en = tianjin_fan_formula(res.codes, res.fan, rules)
    assert (res.fan, zh, en) == (14, "(捉伍儿3 + 龙4) × 混儿吊2 = 14",
                                 "(catching the five 3 + dragon 4) × wild wait 2 = 14")


@pytest.mark.parametrize("preset, expected", [("classic", "4 = 4"), ("yiyou", "(3 + 4) × 2 × 4 = 56")])
def test_tianhu_is_four_flat_or_times_four(preset: str, expected: str) -> None:
    rules = Rules.preset(preset)
    res = score("1p1p2p13s456s789s66z", "5m", "1p", tianhu=True, rules=rules)
    zh, en = tianjin_fan_formula(res.codes, res.fan, rules)
    assert arithmetic(zh) == arithmetic(en) == expected
    assert evaluate(en) == (res.fan, res.fan)
    assert "天胡" in zh and "heavenly hand" in en


def test_a_fan_the_elements_do_not_make_is_said_alone() -> None:
    assert tianjin_fan_formula(["LONG"], 5) == ("5", "5")


def test_the_settlement_and_the_terminal_show_the_formula(tmp_path: Path) -> None:
    from tests.test_tui import _local, _play_by_keys

    source = _local("classic", tmp_path, hands=1, seed=3)

    async def go() -> str:
        app = TableApp(source, ascii=True)
        async with app.run_test(size=(120, 50)) as pilot:
            return (await _play_by_keys(app, pilot, until_over=False))[0]

    shot = asyncio.run(go())
    m = source.match
    hora = next(e for e in m.events if e["type"] == "hora")
    msg = settlement_message(m, m.rules, m.events, source.names)
    win = msg["win"]
    assert (win["formula"], win["formula_en"]) == tianjin_fan_formula(hora["elements"], hora["fan"], m.rules)
    assert evaluate(win["formula_en"]) == (hora["fan"], hora["fan"])
    assert win["formula_en"] in shot and win["formula"] in shot
    assert win["formula_en"] in settlement_text(msg, ascii=True).plain


# ---- the web table -----------------------------------------------------------------------------

# East (the person, the dealer) is dealt a 天胡 with a 7z to spare; discarding it and drawing 5m
# makes R5.4's 双混儿捉伍儿龙 (indicator 1p: 1p and 2p are wild), 14 fan.
WEB_HAND, WEB_DRAWS, WEB_INDICATOR = "1p1p2p13s456s789s66z7z", "1z2z3z5m", "1p"


@pytest.mark.parametrize("lang, expected", [("zh", "(捉伍儿3 + 龙4) × 混儿吊2 = 14"),
                                            ("en", "(catching the five 3 + dragon 4) × wild wait 2 = 14")])
def test_the_web_settlement_shows_the_formula(browser: Any, tmp_path: Path, lang: str, expected: str) -> None:
    from playwright.sync_api import expect

    from tests.test_web import LOOSE
    from tests.ui_helpers import DealtHand, quick_room, quiet_bots, serving, table_url, to_turn
    from tjmj.web.app import create_app
    from tjmj.web.store import Store

    store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    app = create_app(store, bot_delay=0.0, next_delay=1.0, rate_limit=(1000, 1000.0), limits=LOOSE,
                     match_factory=DealtHand(WEB_HAND, WEB_DRAWS, WEB_INDICATOR), bot_factory=quiet_bots)
    try:
        with serving(app) as base:
            context = browser.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            seat = quick_room(context, base)
            page.goto(table_url(base, seat, lang))
            to_turn(page)
            page.locator('#myhand button.htile.can[data-tile="7z"]').dispatch_event("click")
            win = page.locator('button[data-action="win"]')
            expect(win).to_be_visible(timeout=15_000)
            formula = page.locator("#modal .formula-line")
            # a press that had no effect (seen once, under a load average of 8: the cause is not known)
            # is pressed again, as a person would; the state version makes a second press harmless
            for _ in range(3):
                win.dispatch_event("click")
                try:
                    formula.wait_for(timeout=10_000)
                    break
                except Exception:
                    if not win.is_visible():
                        break
            expect(formula).to_have_text(expected, timeout=15_000)
            page.screenshot(path=str(tmp_path / f"formula-{lang}.png"), full_page=True)
            context.close()
    finally:
        store.close()
