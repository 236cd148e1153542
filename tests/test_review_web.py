"""The review (复盘) in the browser (issue 32, part 1): ``GET /api/matches/{id}/review?seat=N`` and the
replay viewer's Review panel.

* The API streams NDJSON: progress lines (``done`` counting up to ``total``), then one ``review``
  line with exactly :func:`tjmj.review.review`'s figures for the stored events (a fixed number of
  worlds per decision: ``REVIEW_ROUNDS``, so both are the same search); a second request is
  answered from the cache (one line, no progress), and a review of a cached seat does not search
  again.  Refusals are one-line JSON errors: a seat that is not one ASCII digit 0–3 → 400, an
  unknown match → 404, a match still playing or with nothing stored → 409.  Two reviews asked at
  once never run together: the second's first line says it is queued.
* Each replay frame carries ``event``: the index of its first event in the match's events.
* In Chromium at 390×844: the replay of a finished match, Review → the seat chooser → the summary
  (agreement, the curve as an SVG image); "next mistake" moves the replay to the mistake's step
  and shows its why; axe-core finds nothing serious or critical on that page.

The matches are self-play records (a strong bot among random ones: there are mistakes to find),
stored as the server stores a match.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import orjson
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, expect
from starlette.testclient import TestClient

from tests.test_web import LOOSE
from tests.ui_helpers import VIEWPORTS, serving
from tjmj.review import review
from tjmj.rules import Rules
from tjmj.simulate import play_match
from tjmj.web import review as web_review
from tjmj.web.app import create_app
from tjmj.web.store import Store

ROUNDS = 12
SEED = 5
BOTS = ["random", "strong", "random", "baseline"]


def _events() -> list[dict[str, Any]]:
    """A finished two-hand match of bots (player 0, random, makes mistakes a search finds)."""
    m = play_match(Rules.preset("classic").replace(match_hands=2), SEED, BOTS)
    return [orjson.loads(orjson.dumps(e)) for e in m.events]  # as stored: plain JSON


def _store(store: Store, events: list[dict[str, Any]], *, finish: bool = True) -> int:
    start = events[0]
    players = [{"seat": s, "name": n, "kind": "bot", "bot": "strong"} for s, n in enumerate(start["names"])]
    mid = store.create_match("ABCDE", start["rules"], start["seed"], players)
    store.append_events(mid, events if finish else events[:40])
    if finish:
        end = next(e for e in events if e["type"] == "end_game")
        store.finish_match(mid, end["scores"])
    else:
        store.release_match(mid)  # a match another server plays: never resumed by this one
    return mid


@pytest.fixture(scope="module")
def events() -> list[dict[str, Any]]:
    return _events()


@pytest.fixture(scope="module")
def want(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Player 0's review as the CLI computes it (the same fixed number of worlds as the API's)."""
    return review(events, 0, rounds=ROUNDS, seed=0).to_dict()


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory, events: list[dict[str, Any]]) -> Iterator[tuple[Store, int, int]]:
    """The store: a finished match and one still being played (their ids)."""
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('review') / 'review.sqlite3'}")
    try:
        yield store, _store(store, events), _store(store, events, finish=False)
    finally:
        store.close()


@pytest.fixture(autouse=True)
def fixed_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_review, "REVIEW_ROUNDS", ROUNDS)


def _lines(body: bytes) -> list[dict[str, Any]]:
    return [orjson.loads(x) for x in body.splitlines()]


def test_the_api_streams_progress_then_the_review_and_caches_it(
        stored: tuple[Store, int, int], want: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    store, done, _ = stored
    with TestClient(create_app(store, bot_delay=0, limits=LOOSE)) as client:
        r = client.get(f"/api/matches/{done}/review?seat=0")
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
        lines = _lines(r.content)
        progress, last = lines[:-1], lines[-1]
        assert progress and all(x["type"] == "progress" for x in progress)
        total = progress[0]["total"]
        assert [x["done"] for x in progress] == list(range(total + 1))
        assert last["type"] == "review"
        got = {k: v for k, v in last.items() if k != "type"}
        for k in ("seat", "name", "family", "agreement", "loss", "mistakes", "by_kind", "hands", "curve"):
            assert got[k] == want[k], k
        assert [(d["event"], d["chosen"], d["best"], d["loss"], d["why"]) for d in got["decisions"]] == \
               [(d["event"], d["chosen"], d["best"], d["loss"], d["why"]) for d in want["decisions"]]
        assert len(got["decisions"]) == total and got["mistakes"] > 0

        # the second request: the cached line at once, without searching again
        def no_search(*a: Any, **k: Any) -> None:
            raise AssertionError("searched again")
        monkeypatch.setattr(web_review, "review", no_search)
        again = client.get(f"/api/matches/{done}/review?seat=0")
        assert again.status_code == 200 and _lines(again.content) == [last]


def test_the_frames_name_their_first_event(stored: tuple[Store, int, int], events: list[dict[str, Any]]) -> None:
    store, done, _ = stored
    with TestClient(create_app(store, bot_delay=0, limits=LOOSE)) as client:
        frames = client.get(f"/api/matches/{done}/frames").json()["frames"]
    for f in frames:
        assert events[f["event"]: f["event"] + len(f["events"])] == [
            {k: v for k, v in e.items() if k != "elements_detail"} for e in f["events"]]


@pytest.mark.parametrize("query", ["seat=4", "seat=-1", "seat=０", "seat= 1", "seat=01", "seat=1&seat=2", "", "seat=x"])
def test_a_bad_seat_is_400(stored: tuple[Store, int, int], query: str) -> None:
    store, done, _ = stored
    with TestClient(create_app(store, bot_delay=0, limits=LOOSE)) as client:
        r = client.get(f"/api/matches/{done}/review?{query}")
    assert r.status_code == 400 and r.content.count(b"\n") == 0 and "seat" in r.json()["error"]


def test_unknown_and_playing_matches_are_refused(stored: tuple[Store, int, int]) -> None:
    store, _, playing = stored
    with TestClient(create_app(store, bot_delay=0, limits=LOOSE)) as client:
        for path in ("/api/matches/99999/review?seat=0", "/api/matches/1x/review?seat=0"):
            r = client.get(path)
            assert r.status_code == 404 and "error" in r.json(), path
        r = client.get(f"/api/matches/{playing}/review?seat=1")
        assert r.status_code == 409 and "still being played" in r.json()["error"]


PHONE = VIEWPORTS[1]  # 390×844, touch: targets of 40 px at least


def test_the_replay_reviews_a_seat_and_jumps_to_its_mistakes(
        browser: Browser, stored: tuple[Store, int, int], want: dict[str, Any]) -> None:
    store, done, _ = stored
    first = next(d for d in want["decisions"] if d["mistake"])
    with serving(create_app(store, bot_delay=0, rate_limit=(1000, 1000.0), limits=LOOSE)) as base:
        ctx = PHONE.context(browser, locale="en-US")
        ctx.set_default_timeout(10_000)
        try:
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{base}/replay/{done}")
            page.get_by_role("button", name="Review", exact=True).click()
            seats = page.locator(".rv-seats button")
            expect(seats).to_have_count(4)
            page.locator('.rv-seats button[data-seat="0"]').click()
            summary = page.locator("[data-testid=review-summary]")
            expect(summary).to_be_visible(timeout=30_000)
            expect(page.locator("[data-testid=review-agreement]")).to_have_text(f"{round(want['agreement'] * 1000) / 10}%")
            curve = page.locator("[data-testid=review-curve]")
            assert curve.get_attribute("role") == "img" and "hand 1" in (curve.get_attribute("aria-label") or "")
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE.width
            problems = [f"{v['id']} ({v['impact']})" for v in Axe().run(page).response["violations"]
                        if v["impact"] in ("serious", "critical")]
            assert not problems, problems

            page.locator("#closeside").click()
            before = page.locator("#stepinfo").text_content()
            nxt = page.get_by_role("button", name="Next mistake")
            for target in (nxt, page.get_by_role("button", name="Previous mistake"), page.locator("#reviewbtn")):
                box = target.bounding_box()
                assert box and box["width"] >= 40 and box["height"] >= 40, box
            nxt.click()
            expect(page.locator("[data-testid=review-why]").first).to_have_text(first["why"])
            expect(page.locator("[data-testid=review-decision]").first).to_contain_text("✗")
            assert page.locator("#stepinfo").text_content() != before
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE.width
            problems = [f"{v['id']} ({v['impact']})" for v in Axe().run(page).response["violations"]
                        if v["impact"] in ("serious", "critical")]
            assert not problems, problems
            assert not errors, errors
        finally:
            ctx.close()



def test_reviews_run_one_at_a_time_and_the_others_queue(
        stored: tuple[Store, int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Two reviews asked at once: the second says it waits ("queued"), and they never run together."""
    store, done, _ = stored
    release = threading.Event()
    running: list[int] = []
    most = [0]

    class Fake:
        def to_dict(self) -> dict[str, Any]:
            return {"seat": 9, "decisions": []}

    def fake(events: Any, seat: int, **kw: Any) -> Fake:  # a review that runs until released
        running.append(seat)
        most[0] = max(most[0], len(running))
        kw["progress"](0, 1)
        release.wait(10)
        running.remove(seat)
        return Fake()

    def until(cond: Callable[[], bool]) -> None:
        end = time.monotonic() + 10
        while not cond():
            assert time.monotonic() < end
            time.sleep(0.02)

    monkeypatch.setattr(web_review, "review", fake)
    got: dict[int, list[dict[str, Any]]] = {2: [], 3: []}
    app = create_app(store, bot_delay=0, rate_limit=(1000, 1000.0), limits=LOOSE)
    with serving(app) as base, httpx.Client(base_url=base, timeout=15) as client:
        def ask(seat: int) -> None:
            with client.stream("GET", f"/api/matches/{done}/review?seat={seat}") as r:
                got[seat].extend(orjson.loads(line) for line in r.iter_lines() if line)

        threads = [threading.Thread(target=ask, args=(seat,)) for seat in (2, 3)]
        threads[0].start()
        until(lambda: bool(running))
        threads[1].start()
        until(lambda: bool(got[3]))
        release.set()
        for th in threads:
            th.join(15)
    assert got[3][0] == {"type": "progress", "done": 0, "total": 0, "queued": 1}
    assert got[2][-1]["type"] == got[3][-1]["type"] == "review" and most[0] == 1
