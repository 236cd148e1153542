"""The terminal table, ``tjmj play`` (docs/terminal.md): whole matches played by keys in each family,
claims by keys on scripted walls, the settlement as the web explains it, the ASCII mode, the seat at a
real ``tjmj serve`` (``--connect``), the record replayed, and the CLI's one-line errors.

Textual's pilot drives the app (``app.run_test``) inside ``asyncio.run``: pytest-asyncio is not used.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.scripted import script_wall
from tests.test_beijing_web import TWO_PEOPLE_HANDS, Scripted, seed_for
from tests.ui_helpers import free_port, serving
from tjmj.cli import main
from tjmj.families.beijing.webview import payments_detail as beijing_payments_detail
from tjmj.families.beijing.webview import win_detail as beijing_win_detail
from tjmj.families.tianjin.webview import elements_detail
from tjmj.game import Action, Match
from tjmj.record import read_records, replay
from tjmj.rules import Rules
from tjmj.tiles import TILE_TEXT
from tjmj.tui.app import ChoiceScreen, SettlementScreen, TableApp, screen_text
from tjmj.tui.glyphs import GLYPHS, is_glyph
from tjmj.tui.source import LocalTable, RemoteTable, join_remote
from tjmj.web.app import create_app
from tjmj.web.settlement import settlement_message
from tjmj.web.store import Store

SMALL = (80, 24)
LARGE = (160, 50)


class PlanBot:
    """Never claims, never wins, sits and pulls nothing; discards the tile it drew (or, with none
    drawn, its lowest): a test can foresee its moves."""

    name = "plan"
    uses_observation = True

    def choose(self, obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if obs.get("phase") in ("sit", "pull"):
            return next(a for a in legal if a.count == 0)
        if obs.get("phase") in ("claim", "rob"):
            return next(a for a in legal if a.type == "pass")
        discards = [a for a in legal if a.type == "discard"]
        for a in discards:
            if a.tile is not None and TILE_TEXT[a.tile] == obs.get("drawn"):
                return a
        return discards[0]


async def _play_by_keys(app: TableApp, pilot: Any, *, until_over: bool = True, limit_s: float = 40) -> list[str]:
    """Answer every decision with keys only (w win, Enter discard, space pass / no sit / no pull),
    Enter on each settlement, until the app exits (or, without ``until_over``, the first settlement);
    returns the screen texts of the settlements."""
    shots: list[str] = []
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        await pilot.pause()
        if not app.is_running:
            return shots
        if isinstance(app.screen, SettlementScreen):
            shots.append(screen_text(app))
            if not until_over:
                return shots
            await pilot.press("enter")
            continue
        if isinstance(app.screen, ChoiceScreen):
            await pilot.press("1")
            continue
        legal = (app.state or {}).get("legal") or []
        if not legal:
            await asyncio.sleep(0.005)
            continue
        if "win" in legal:
            await pilot.press("w")
        elif any(a.startswith("discard ") for a in legal):
            await pilot.press("enter")
            if app._confirm_wild:  # a Tianjin wild asks first
                await pilot.press("enter")
        elif "pass" in legal or any(a in ("sit 0", "pull 0") for a in legal):
            await pilot.press("space")
        else:
            await pilot.press("s")
    raise AssertionError("the match did not end in time")


def _local(preset: str, tmp_path: Path, *, hands: int = 2, seed: int = 5, **kw: Any) -> LocalTable:
    rules = Rules.preset(preset, match_hands=hands)
    return LocalTable(rules, seed=seed, record=str(tmp_path / f"{preset}.jsonl"), bot_delay=0, **kw)


@pytest.mark.parametrize("preset", ["classic", "beijing", "mcr"])
def test_a_whole_match_by_keys(preset: str, tmp_path: Path) -> None:
    source = _local(preset, tmp_path)

    async def go() -> list[str]:
        app = TableApp(source)
        async with app.run_test(size=SMALL) as pilot:
            shots = await _play_by_keys(app, pilot)
        assert app.return_value is not None and app.return_value["over"]
        assert app.return_value["hands"] == len(shots) >= 2
        return shots

    shots = asyncio.run(go())
    assert "Payments" in shots[0] and "Enter for the next hand" in shots[0]
    assert "Final standings" in shots[-1] or "Enter to leave" in shots[-1]
    # the record holds the whole match and replays against the engine
    matches = list(read_records(str(tmp_path / f"{preset}.jsonl")))
    assert len(matches) == 1
    result = replay(matches[0])
    assert result.divergence is None and result.incomplete is None
    assert result.hands == 2
    # and the CLI's replay shows it step by step
    out = CliRunner().invoke(main, ["replay", str(tmp_path / f"{preset}.jsonl"), "--show"])
    assert out.exit_code == 0, out.output
    assert "match 1:" in out.output and len(out.output.splitlines()) > 20


def test_a_pon_by_keys_tianjin(tmp_path: Path) -> None:
    """The dealer (a bot, East) discards its lowest tile, 1m; you (South) hold 1m1m: pon is offered,
    ``p`` takes it, Enter discards; the pon lies among your melds."""
    rules = Rules.preset("classic", match_hands=1)
    hands = {0: "1m3p5p7p9p2s4s6s8s1z2z3z4z", 1: "1m1m"}

    def factory(r: Rules, seed: int, names: list[str]) -> Match:
        wall = script_wall(0, hands, indicator="7z")
        return Match(r, seed=seed_for(r, {0: 1}), names=names, walls=[wall])

    source = LocalTable(rules, bot_delay=0, record=str(tmp_path / "r.jsonl"), match_factory=factory,
                        bot_factory=lambda name: PlanBot())
    assert source.seat == 1

    async def go() -> None:
        app = TableApp(source)
        async with app.run_test(size=SMALL) as pilot:
            for _ in range(200):
                await pilot.pause()
                legal = (app.state or {}).get("legal") or []
                if "pon" in legal or "pon 1m" in legal:
                    break
                if "pull 0" in legal:
                    await pilot.press("space")
            else:
                raise AssertionError(f"no pon offered: {app.state and app.state['legal']}")
            assert "your claim?" in screen_text(app)
            assert "[p]" in screen_text(app)
            await pilot.press("p")
            await pilot.pause()
            obs = app.state["obs"] if app.state else {}
            assert obs["seats"][1]["melds"] == ["[111m]"]
            assert obs["seats"][0]["claimed"] == [0]  # the dealer's claimed discard stays marked
            assert any(a.startswith("discard ") for a in app.state["legal"])  # type: ignore[index]
            await pilot.press("enter")
            await pilot.pause()
            assert len(source.match.seats[1].discards) == 1
            assert f"[{GLYPHS['1m']} {GLYPHS['1m']} {GLYPHS['1m']} ]" in screen_text(app)

    asyncio.run(go())


def test_a_chi_with_a_choice_beijing(tmp_path: Path) -> None:
    """South discards 4m; you (West) hold 2356m: three chis, ``c`` asks which, ``2`` takes 345m."""
    rules = Rules.preset("beijing", match_hands=1)
    source = LocalTable(rules, bot_delay=0, record=str(tmp_path / "r.jsonl"),
                        match_factory=Scripted({0: 2}, TWO_PEOPLE_HANDS, draws="4m"),
                        bot_factory=lambda name: PlanBot())
    assert source.seat == 2

    async def go() -> None:
        app = TableApp(source, ascii=True)
        async with app.run_test(size=SMALL) as pilot:
            for _ in range(200):
                await pilot.pause()
                if any(a.startswith("chi") for a in (app.state or {}).get("legal") or []):
                    break
            else:
                raise AssertionError("no chi offered")
            await pilot.press("c")
            await pilot.pause()
            assert isinstance(app.screen, ChoiceScreen)
            assert app.screen.actions == ["chi 2m", "chi 3m", "chi 4m"]
            await pilot.press("2")
            await pilot.pause()
            assert app.state is not None and app.state["obs"]["seats"][2]["melds"] == ["[345m]"]
            assert "[345m]" in screen_text(app)

    asyncio.run(go())


def test_settlement_is_the_web_settlement(tmp_path: Path) -> None:
    """A Beijing hand won on a discard: the screen shows what the web's own functions explain —
    each element's Chinese and English names and value, the value's formula and each payment's —
    and LocalTable's message is ``settlement_message`` of that hand."""
    source = _local("beijing", tmp_path, hands=1, seed=3)

    async def go() -> str:
        app = TableApp(source, ascii=True)
        async with app.run_test(size=LARGE) as pilot:
            shots = await _play_by_keys(app, pilot, until_over=False)
        return shots[0]

    shot = asyncio.run(go())
    m = source.match
    msg = source.settlement
    hora = next((e for e in m.events if e["type"] == "hora"), None)
    kyoku = next(e for e in m.events if e["type"] == "start_kyoku")
    end = next(e for e in m.events if e["type"] == "end_kyoku")
    expected = settlement_message(m, m.rules, m.events, source.names)
    assert msg == expected
    payments = beijing_payments_detail(hora, kyoku, m.events, end["payments"], m.rules)  # type: ignore[arg-type]
    for p in payments:
        assert p["formula_en"] in shot
    assert hora is not None, "seed 3 deals a Beijing hand that someone wins"
    win = beijing_win_detail(hora, m.rules)  # type: ignore[arg-type]
    for e in win["elements"]:
        assert f"{e['chinese']} {e['english']}: {e['value']}" in shot
    assert win["formula_en"] in shot
    for s, name in enumerate(source.names):
        assert f"{name}" in shot and str(end["scores"][s]) in shot


def test_tianjin_settlement_names_each_element(tmp_path: Path) -> None:
    seed = 3  # a Tianjin hand that someone wins (checked below)
    source = _local("classic", tmp_path, hands=1, seed=seed)

    async def go() -> str:
        app = TableApp(source)
        async with app.run_test(size=LARGE) as pilot:
            return (await _play_by_keys(app, pilot, until_over=False))[0]

    shot = asyncio.run(go())
    m = source.match
    hora = next(e for e in m.events if e["type"] == "hora")
    for e in elements_detail(hora["elements"], m.rules):
        assert f"{e['chinese']} {e['english']}: {e['value']}" in shot
    msg = settlement_message(m, m.rules, m.events, source.names)
    for p in msg["payments"]:
        assert p["formula_en"] in shot
    assert f"{hora['fan']} fan" in shot


@pytest.mark.parametrize("preset", ["classic", "mcr"])
def test_ascii_mode_has_no_glyphs(preset: str, tmp_path: Path) -> None:
    source = _local(preset, tmp_path, hands=1, seed=2)

    async def go() -> tuple[str, list[str], list[str]]:
        app = TableApp(source, ascii=True)
        async with app.run_test(size=SMALL) as pilot:
            while not (app.state and any(a.startswith("discard ") for a in app.state["legal"])):
                await pilot.pause()
                if app.state and app.state["legal"]:
                    await pilot.press("space")
            await pilot.press("question_mark")  # the hint panel too
            for _ in range(200):
                await pilot.pause()
                if app.hint is not None:
                    break
            table = screen_text(app)
            hand = list(app.state["obs"]["hand"])
            return table, hand, await _play_by_keys(app, pilot, until_over=False)

    table, hand, shots = asyncio.run(go())
    for text in (table, *shots):
        assert not [ch for ch in text if is_glyph(ch)], text
    assert all(t in table for t in hand)  # the hand in MPSZ
    assert "Hints" in table and "1. discard" in table


def test_glyph_mode_draws_the_hand_as_glyphs(tmp_path: Path) -> None:
    source = _local("classic", tmp_path, hands=1, seed=2)

    async def go() -> str:
        app = TableApp(source)
        async with app.run_test(size=LARGE) as pilot:
            while not (app.state and any(a.startswith("discard ") for a in app.state["legal"])):
                await pilot.pause()
                if app.state and app.state["legal"]:
                    await pilot.press("space")
            await pilot.press("left")
            await pilot.press("left")
            assert app.cursor == len(app.state["obs"]["hand"]) - 3
            return screen_text(app)

    text = asyncio.run(go())
    for t in source.match.observation(source.seat)["hand"]:
        assert GLYPHS[t] in text
    assert "Your turn" in text and "q quit" in text


def test_quit_asks_first(tmp_path: Path) -> None:
    source = _local("mcr", tmp_path, hands=1)

    async def go() -> None:
        app = TableApp(source)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
            assert "Quit the match?" in screen_text(app)
            await pilot.press("n")
            await pilot.pause()
            assert app.is_running
            await pilot.press("q")
            await pilot.press("y")
            await pilot.pause()
        assert app.return_value is not None and not app.return_value["over"]

    asyncio.run(go())


# ---- a seat at a real server -----------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("db") / "tui.sqlite3"
    store = Store(f"sqlite:///{db}")
    app = create_app(store, bot_delay=0.0, next_delay=0.5, rate_limit=(200, 100.0))
    with serving(app) as url:
        yield url
    store.close()


def test_connect_plays_a_hand_at_a_server(server: str, tmp_path: Path) -> None:
    joined = join_remote(server, "Terminal", preset="mcr", hands=1, bots="baseline")
    record = tmp_path / "remote.jsonl"
    source = RemoteTable(joined, record=str(record))

    async def go() -> list[str]:
        app = TableApp(source, ascii=True)
        async with app.run_test(size=SMALL) as pilot:
            shots = await _play_by_keys(app, pilot, until_over=False, limit_s=50)
            for _ in range(400):  # the record is downloaded once the server has stored the match
                await pilot.pause()
                if app.record_saved:
                    break
                await asyncio.sleep(0.01)
        assert app.state is not None and app.state["names"][app.state["you"]] == "Terminal"
        return shots

    shots = asyncio.run(go())
    assert "Payments" in shots[0] and "Scores" in shots[0]
    (events,) = list(read_records(str(record)))
    assert replay(events).divergence is None


def test_connect_to_a_started_room_is_one_error_line(server: str) -> None:
    req = urllib.request.Request(f"{server}/api/quick", data=json.dumps({"name": "Host"}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        room = json.loads(r.read())["room"]
    out = CliRunner().invoke(main, ["play", "--connect", f"{server}/table/{room}"])
    assert out.exit_code == 2
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and "409" in lines[0], out.output
    out = CliRunner().invoke(main, ["play", "--connect", f"{server}/table/NOSUCH"])
    assert out.exit_code == 2 and "404" in out.output and len(out.output.strip().splitlines()) == 1


# ---- the command line ------------------------------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (["--rules", "nosuch"], "unknown preset 'nosuch'"),
    (["--bots", "nosuch"], "unknown bot 'nosuch'"),
    (["--bots", "baseline,strong"], "three separated by commas"),
    (["--bots", "strong(revive=x),baseline,baseline"], "bot strong(revive=x): option revive must be a number"),
    (["--connect", f"http://127.0.0.1:{free_port()}"], "cannot reach"),
    (["--set", "nosuch=1"], "unknown rule option 'nosuch'"),
    (["--set", "min_fan"], "expected option=value"),
    (["--rules", "mcr", "--set", "min_fan=x"], "min_fan"),
    (["--connect", "http://127.0.0.1:9/", "--set", "min_fan=1"], "--set is for local play"),
    (["--connect", "ftp://example.org/x"], "http://HOST:PORT"),
    (["--record", "/nonexistent-dir/x.jsonl"], "--record"),
])
def test_cli_errors_are_one_line(args: list[str], words: str) -> None:
    out = CliRunner().invoke(main, ["play", *args])
    assert out.exit_code == 2, out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and words in lines[0], out.output
    assert "Traceback" not in out.output


def test_bots_with_options_are_three_kinds() -> None:
    from tjmj.cli.play import parse_bots

    assert parse_bots("strong(revive=0, ),baseline , strong") == ("strong(revive=0)", "baseline", "strong")
    assert parse_bots("baseline(sit_threshold=0)") == ("baseline(sit_threshold=0)",) * 3


def test_set_overrides_a_rule_of_the_local_match(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    def run(app: TableApp) -> dict[str, Any]:  # the screen is not opened: the rules it would play are
        seen["rules"] = app.source.rules  # type: ignore[attr-defined]
        return {"record": str(tmp_path / "r.jsonl"), "error": None}

    monkeypatch.setattr(TableApp, "run", run)
    out = CliRunner().invoke(main, ["play", "--rules", "mcr", "--set", "min_fan=1", "--hands", "2",
                                    "--record", str(tmp_path / "r.jsonl")])
    assert out.exit_code == 0, out.output
    assert seen["rules"].min_fan == 1 and seen["rules"].match_hands == 2 and seen["rules"].family == "mcr"


def test_play_is_listed_with_its_options() -> None:
    out = CliRunner().invoke(main, ["play", "--help"])
    assert out.exit_code == 0
    for option in ("--rules", "--bots", "--seed", "--hands", "--name", "--ascii", "--record", "--bot-delay",
                   "--connect"):
        assert option in out.output
