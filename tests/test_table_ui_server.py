"""What the table page needs from the server (issue 11): one sprite for every tile, the claimed
discards marked by the engine, the host's bot speed, and a notice when a turn timer runs out."""

from __future__ import annotations

import random
import xml.dom.minidom
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.test_web import FAST, LOOSE, four_humans, is_settlement, quick, recv, recv_until, seat_ws
from tjmj.bots import make_bot
from tjmj.game import Match
from tjmj.rules import Rules
from tjmj.tiles import FLOWER_TEXT, TILE_TEXT
from tjmj.web.app import create_app
from tjmj.web.inputs import BOT_SPEEDS
from tjmj.web.store import Store


@pytest.fixture
def store() -> Iterator[Store]:
    s = Store("sqlite://")
    yield s
    s.close()


def test_the_sprite_holds_every_tile_once_and_is_cached(store: Any) -> None:
    app = create_app(store)
    with TestClient(app) as client:
        r = client.get("/tiles/sprite.svg")
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        doc = xml.dom.minidom.parseString(r.text)
        ids = [s.getAttribute("id") for s in doc.getElementsByTagName("symbol")]
        # the 34 kinds, MCR's eight flowers (1f–8f, M1), the back and the wild badge
        assert sorted(ids) == sorted([f"t-{t}" for t in (*TILE_TEXT, *FLOWER_TEXT)] + ["t-back", "t-wild"])
        assert not doc.documentElement.hasAttribute("style")  # the CSP allows no style attribute
        again = client.get("/tiles/sprite.svg", headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304 and "max-age" in r.headers["cache-control"]


def test_observations_mark_claimed_discards_for_every_family() -> None:
    """A claimed discard stays in its pond (R4, B3) and the engine names its index, for everyone."""
    for preset in ("classic", "beijing", "beijing_a"):
        m = Match(Rules.preset(preset), seed=11)
        bot, rng = make_bot("baseline"), random.Random(1)
        claims = 0
        while not m.is_over and m.hand_number < 3:
            seat = m.to_act
            before = len(m.events)
            m.apply(seat, bot.choose(m.observation(seat), m.legal_actions(seat), rng))
            for ev in m.events[before:]:
                if ev["type"] in ("pon", "chi", "daiminkan"):
                    claims += 1
                    for viewer in (None, 0, 1, 2, 3):
                        st = m.observation(viewer)["seats"][ev["target"]]
                        assert st["claimed"] and st["discards"][st["claimed"][-1]] == ev["pai"]
                elif ev["type"] == "start_kyoku":
                    assert all(not s["claimed"] for s in m.observation(None).get("seats") or [])
        assert claims > 0, preset


def test_only_the_host_sets_the_bot_speed_and_everyone_sees_it(store: Any) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        room, tokens = four_humans(client)
        r = app.state.lobby.get(room)
        assert r.bot_speed == "normal"
        with seat_ws(client, room, tokens[1]) as guest:
            recv_until(guest, lambda m: m["type"] == "state")
            guest.send_json({"type": "speed", "speed": "fast"})
            err, _ = recv_until(guest, lambda m: m["type"] == "error")
            assert err["code"] == "forbidden" and r.bot_speed == "normal"
            with seat_ws(client, room, tokens[0]) as host:
                recv_until(host, lambda m: m["type"] == "state")
                for bad in ("warp", 3, None):
                    host.send_json({"type": "speed", "speed": bad})
                    err, _ = recv_until(host, lambda m: m["type"] == "error")
                    assert err["code"] == "bad_request" and r.bot_speed == "normal"
                host.send_json({"type": "speed", "speed": "slow"})
                seen, _ = recv_until(guest, lambda m: m["type"] == "state" and m["bot_speed"] == "slow")
                assert r.bot_speed == "slow" and set(BOT_SPEEDS) == {"slow", "normal", "fast"}
        assert r.settings()["bot_speed"] == "slow"  # stored with the room, restored on resume


def test_a_timed_out_seat_hears_what_the_bot_chose_for_it(store: Any) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        room, tokens = four_humans(client, timer_s=5)
        r = app.state.lobby.get(room)
        r.timer_s = 0.05  # below the API's minimum, for the test
        with seat_ws(client, room, tokens[0]) as ws, seat_ws(client, room, tokens[1]) as other:
            note, _ = recv_until(ws, lambda m: m["type"] == "timed_out", timeout=15)
            assert note["seat"] == r.seat_of(0) and note["action"]
            legal_kinds = ("discard", "pon", "kong", "ankong", "added_kong", "win", "pass", "sit", "pull", "chi")
            assert note["action"].split()[0] in legal_kinds
            # the other person never hears of seat 0's time-outs
            for _ in range(200):
                msg = recv(other, 15)
                assert not (msg["type"] == "timed_out" and msg["seat"] != r.seat_of(1)), msg
                if is_settlement(msg):
                    break


def test_a_quick_room_starts_at_normal_speed(store: Any) -> None:
    app = create_app(store, bot_delay=0, next_delay=0, rate_limit=FAST, limits=LOOSE)
    with TestClient(app) as client:
        q = quick(client)
        info = client.get(f"/api/rooms/{q['room']}").json()
        assert info["bot_speed"] == "normal"
