"""The seam holds (issue 29, item 4): a fourth rule family defined in the test tree only
(:mod:`tests.fourth_family`, 一混: Tianjin with one wild kind) plays through self-play (``simulate``,
``tjmj simulate``), replay (``tjmj replay``), the RL environment (PettingZoo's ``api_test``), the web
table (a whole match in Chromium, from the lobby) and the terminal table (``tjmj play`` in tmux, and
its app in-process), with
no change in ``src/``.

In this process the family is registered with :func:`tjmj.families.register` (and forgotten at the
end of the module, so other test files in the same worker see the three built-in families); a child
process (``tjmj …``) finds it through ``TJMJ_FAMILIES``.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

import tests.fourth_family as fourth
from tests.test_terminal_glyph_width import Tmux, needs_tmux, tmux_factory  # noqa: F401  (a fixture)
from tjmj import families
from tjmj.game import Match
from tjmj.record import replay
from tjmj.rules import PRESETS, Rules

ROOT = Path(__file__).resolve().parent.parent
TJMJ = [sys.executable, "-c", "from tjmj.batch import console; console()"]  # the console script, as installed


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[families.Family]:
    fam = families.register(fourth.FAMILY)
    yield fam
    families.unregister(fam.name)


def _child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["TJMJ_FAMILIES"] = "tests.fourth_family"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def _tjmj(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TJMJ, *args], cwd=cwd, env=_child_env(), capture_output=True,
                          text=True, timeout=300)


def test_the_registry_finds_the_family_and_its_preset() -> None:
    fam = families.find_family("yihun")
    assert fam is fourth.FAMILY and fam.presets == ["yihun"] and fam.default_rules.wild_kinds == 1
    m = Match(Rules.preset("yihun"), 1)
    assert type(m).__name__ == "OneWildMatch" and m.family == "yihun"
    assert m.events[0]["rules"]["family"] == "yihun"


def test_self_play_and_replay_in_process(tmp_path: Path) -> None:
    from tjmj.simulate import simulate

    out = tmp_path / "yihun.jsonl"
    summary = simulate(matches=2, seed=3, rules=Rules.preset("yihun"), bots="strong", out=str(out))
    assert summary.to_dict()["matches"] == 2
    lines = out.read_text().splitlines()
    games = [json.loads(x) for x in lines]
    starts = [e for e in games if e["type"] == "start_game"]
    assert len(starts) == 2 and all(e["rules"]["family"] == "yihun" for e in starts)
    wins = [e for e in games if e["type"] == "hora"]
    assert wins, "two one-round matches of strong bots with no win"
    # every match replays to the same events, each win re-scored (one wild kind: R2)
    match: list[dict] = []
    for ev in games:
        match.append(ev)
        if ev["type"] == "end_game":
            assert replay(match).ok, replay(match)
            match = []


def test_the_commands_in_a_child_process(tmp_path: Path) -> None:
    rules = _tjmj("rules", cwd=tmp_path)
    assert rules.returncode == 0, rules.stderr
    assert "yihun" in rules.stdout
    sim = _tjmj("simulate", "--rules", "yihun", "--matches", "1", "--seed", "4", "--out", "m.jsonl", "--json",
                cwd=tmp_path)
    assert sim.returncode == 0, sim.stderr
    assert json.loads(sim.stdout)["matches"] == 1
    rep = _tjmj("replay", "m.jsonl", cwd=tmp_path)
    assert rep.returncode == 0 and "yihun" not in rep.stderr, rep.stdout + rep.stderr
    unknown = subprocess.run([*TJMJ, "simulate", "--rules", "yihun", "--matches", "1"],
                             cwd=tmp_path, env={**_child_env(), "TJMJ_FAMILIES": ""}, capture_output=True, text=True,
                             timeout=120)
    assert unknown.returncode != 0 and "Traceback" not in unknown.stderr and "yihun" in unknown.stderr


def test_the_rl_environment_passes_pettingzoo_api_test() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, parallel_api_test

    from tjmj.env import parallel_env, raw_env

    api_test(raw_env("yihun", hands=1), num_cycles=200)
    parallel_api_test(parallel_env("yihun", hands=1), num_cycles=200)


def test_the_terminal_table_plays_a_match(tmp_path: Path) -> None:
    from tests.test_tui import _play_by_keys
    from tjmj.tui.app import TableApp, screen_text
    from tjmj.tui.source import LocalTable

    source = LocalTable(Rules.preset("yihun", match_hands=1), seed=5, bot_delay=0,
                        record=str(tmp_path / "r.jsonl"))

    async def go() -> tuple[list[str], str]:
        app = TableApp(source, ascii=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            title = screen_text(app)
            return await _play_by_keys(app, pilot), title

    shots, title = asyncio.run(go())
    assert source.match.is_over and shots
    assert "一混天津麻将" in title or "One-wild" in title, title
    assert replay([json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]).ok


@needs_tmux
def test_tjmj_play_in_a_terminal(tmux_factory: Callable[[dict[str, str]], Tmux], tmp_path: Path) -> None:  # noqa: F811
    """``tjmj play --rules yihun`` in tmux (a child process that finds the family via TJMJ_FAMILIES),
    answered by keys to the hand's settlement; the record it writes is of the family."""
    tmux = tmux_factory({k: v for k, v in _child_env().items() if k in ("TJMJ_FAMILIES", "PYTHONPATH")})
    record = tmp_path / "r.jsonl"
    cmd = (f"{sys.executable} -c 'from tjmj.batch import console; console()' play --rules yihun --seed 7 "
           f"--hands 1 --bot-delay 0 --record {record}")
    tmux("new-session", "-d", "-s", "t", "-x", "110", "-y", "40", "-c", str(ROOT), cmd)
    deadline = time.monotonic() + 90
    titled = False
    while time.monotonic() < deadline:
        time.sleep(0.25)
        screen = tmux.screen()
        titled = titled or "一混天津麻将" in screen or "One-wild" in screen
        if "Payments" in screen and "Enter to leave" in screen:
            break
        key = "w" if "[w]" in screen else "Space" if "[␣]" in screen else "Enter" if "[⏎]" in screen else None
        if key:
            tmux("send-keys", "-t", "t", key)
    else:
        raise AssertionError("no settlement in time:\n" + tmux.screen())
    assert titled, "the table never showed the family's name"
    tmux("send-keys", "-t", "t", "Enter")
    deadline = time.monotonic() + 30
    while not record.exists() or "end_game" not in record.read_text():
        assert time.monotonic() < deadline, "no record written:\n" + tmux.screen()
        time.sleep(0.25)
    events = [json.loads(x) for x in record.read_text().splitlines()]
    assert events[0]["rules"]["family"] == "yihun" and replay(events).ok


def test_a_whole_match_in_the_browser(browser: Browser, tmp_path: Path) -> None:
    from tests.test_e2e import _free_port, _start, _stop, _watch_console
    from tests.test_e2e_whole_match import _final, _open_room
    from tjmj.web.store import Store

    store = Store(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    srv, thread = _start(store, port := _free_port())
    server = f"http://127.0.0.1:{port}"
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = _watch_console(page)
    page.on("dialog", lambda d: d.accept())  # a wild discard asks first (R2)
    try:
        page.goto(server + "/?lang=en")
        assert "One-wild Tianjin" in page.locator("#family").inner_text()
        _open_room(page, server, "yihun", touch=False)
        expect(page.locator("#table")).to_be_visible()
        deadline = time.monotonic() + 150
        while not _final(page):
            assert time.monotonic() < deadline, "the match did not end"
            if page.locator("#overlay").is_visible():
                page.wait_for_timeout(100)
                continue
            buttons = page.locator("#myhand button[data-action]")
            tiles = page.locator("#myhand button.htile.can")
            try:
                if buttons.count():
                    win = page.locator("#myhand button.act-win")
                    (win.first if win.count() else buttons.first).click(timeout=2000)
                elif tiles.count():
                    drawn = page.locator("#myhand button.htile.can.drawn")
                    (drawn.first if drawn.count() else tiles.last).click(timeout=2000)
            except Exception:  # noqa: BLE001  (the table changed under the pointer: look again)
                pass
            page.wait_for_timeout(60)
        expect(page.locator("#modal")).to_contain_text("Final standings")
        assert not errors, errors
        (stored,) = store.list_matches(status="finished")
        assert stored["rules"]["family"] == "yihun"
        assert replay(store.events(stored["id"])).ok
    finally:
        page.close()
        _stop(srv, thread)
        store.close()
    assert "yihun" in PRESETS
