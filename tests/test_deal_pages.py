"""Deals anyone can verify, in the browser (issue 31, part 5): a real server on loopback and Debian's
Chromium (tests/ui_helpers.py).

* The table: the side panel's "Deal commitment" line shows the first 16 hex digits of the room's
  ``deal_commitment`` (the API's) with "…", the whole value in its ``title``, and the reason in words
  for screen readers.
* The replay of a finished match (played to its end through the API and the WebSocket, as
  tests/test_deal.py does, on an unscripted server: a scripted wall does not come from the seed the
  room committed to) shows the "Fair deal" box: the commitment, the revealed salt, the record's seed
  (read as text: a 62-bit seed does not survive JSON.parse), the browser's own SHA-256 check
  ("matches"), the record's download link and the ``tjmj verify`` command with both values.
"""

from __future__ import annotations

import time
from pathlib import Path

import orjson
from playwright.sync_api import Browser, Page, expect
from starlette.testclient import TestClient

from tests.test_web import LOOSE, is_settlement, play
from tests.ui_helpers import quick_room, serve, serving, table_url
from tjmj.deal import commitment
from tjmj.web.app import create_app
from tjmj.web.store import Store

WHY = "SHA-256 of the shuffle's seed, fixed before the first deal; revealed in the replay when the match ends"


def _errors(page: Page) -> list[str]:
    """The page's script errors (a CSP violation among them)."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def test_the_table_shows_the_commitment_made_before_the_first_deal(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path / "table.sqlite3") as base:
        ctx = browser.new_context(viewport={"width": 1280, "height": 800})
        ctx.set_default_timeout(8000)
        try:
            seat = quick_room(ctx, base)
            shown = ctx.request.get(f"{base}/api/rooms/{seat.room}").json()["deal_commitment"]
            assert isinstance(shown, str) and len(shown) == 64
            page = ctx.new_page()
            errors = _errors(page)
            page.goto(table_url(base, seat))
            expect(page.locator('button[data-action="sit 0"]')).to_be_visible(timeout=15_000)
            line = page.locator("[data-testid=deal]")
            expect(line).to_be_visible()
            code = line.locator("[data-testid=deal-commitment]")
            expect(code).to_have_text(shown[:16] + "…")
            expect(code).to_have_attribute("title", shown)
            assert code.evaluate("(el) => el.tagName") == "CODE"
            expect(line).to_contain_text("Deal commitment")
            # the reason, for screen readers: the code is described by it
            why = code.get_attribute("aria-describedby")
            assert why and page.locator(f"#{why}").text_content() == WHY
            expect(line.get_by_role("button", name="Copy the deal commitment")).to_be_visible()
            assert not errors, errors
        finally:
            ctx.close()


def _finished_match(db: Path) -> tuple[int, str, str, int]:
    """A one-hand match played to its end (no scripted wall): its id, the commitment the room showed
    before the first deal, the salt revealed after, and the record's seed."""
    store = Store(f"sqlite:///{db}")
    try:
        with TestClient(create_app(store, bot_delay=0, limits=LOOSE)) as client:
            made = client.post("/api/rooms", json={"name": "Ann", "match_hands": 1}).json()
            shown = client.get(f"/api/rooms/{made['room']}").json()["deal_commitment"]
            started = client.post(f"/api/rooms/{made['room']}/start", json={"token": made["token"]}).json()
            with client.websocket_connect(f"/ws/{made['room']}") as ws:
                ws.send_json({"type": "hello", "token": made["token"]})
                play(ws, lambda m: is_settlement(m) and m["over"])
            mid = started["match_id"]
            deadline = time.monotonic() + 10
            while client.get(f"/api/matches/{mid}").json()["status"] != "finished":  # marked just after it is shown
                assert time.monotonic() < deadline, "the match was not marked finished"
                time.sleep(0.05)
            deal = client.get(f"/api/matches/{mid}").json()["settings"]["deal"]
            first = client.get(f"/api/matches/{mid}/record").text.splitlines()[0]
    finally:
        store.close()
    seed = orjson.loads(first)["seed"]
    assert deal["commitment"] == shown == commitment(seed, deal["salt"])
    return mid, shown, deal["salt"], seed


def test_the_replay_reveals_the_salt_and_checks_the_commitment(browser: Browser, tmp_path: Path) -> None:
    db = tmp_path / "replay.sqlite3"
    mid, shown, salt, seed = _finished_match(db)
    store = Store(f"sqlite:///{db}")
    try:
        with serving(create_app(store, bot_delay=0, limits=LOOSE)) as base:
            ctx = browser.new_context(viewport={"width": 1280, "height": 800})
            ctx.set_default_timeout(8000)
            try:
                page = ctx.new_page()
                errors = _errors(page)
                page.goto(f"{base}/replay/{mid}?lang=en")
                box = page.locator("[data-testid=fair-deal]")
                expect(box).to_be_visible()
                expect(box.locator("h2")).to_have_text("Fair deal")
                # the browser's own SHA-256 (http://127.0.0.1 is a secure context: crypto.subtle is there)
                expect(box.locator("[data-testid=fair-check]")).to_contain_text("matches")
                expect(box.locator("[data-testid=fair-check]")).to_have_class("ok")
                box.locator("summary").click()  # the values and the command fold away until asked for
                expect(box.locator("[data-testid=fair-commitment]")).to_have_text(shown)
                expect(box.locator("[data-testid=fair-salt]")).to_have_text(salt)
                expect(box.locator("[data-testid=fair-seed]")).to_have_text(str(seed))  # every digit
                command = box.locator("[data-testid=fair-command]")
                expect(command).to_have_text(
                    f"tjmj verify tjmj-match-{mid}.jsonl --commitment {shown} --salt {salt}")
                link = box.get_by_role("link", name="Download record")
                expect(link).to_have_attribute("href", f"/api/matches/{mid}/record")
                record = ctx.request.get(base + str(link.get_attribute("href")))
                assert record.ok and '"start_game"' in record.text().splitlines()[0]
                assert not errors, errors
                # in Chinese too, the language switched in place
                page.locator("#lang").click()
                expect(box.locator("h2")).to_have_text("公平发牌")
                expect(box.locator("[data-testid=fair-check]")).to_contain_text("相符")
                expect(command).to_be_visible()  # still unfolded: a re-render keeps it open
                expect(command).to_contain_text(salt)
            finally:
                ctx.close()
    finally:
        store.close()
