"""Self-play and tournaments on Ray (tjmj.ray_runner, docs/ray.md): the same records and reports as
the single-process run for the same seed, and a killed worker's match played again, neither lost
nor counted twice."""

from __future__ import annotations

import glob
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tjmj.cli import main
from tjmj.ray_runner import RayUnavailable, ordered_results
from tjmj.rules import Rules
from tjmj.simulate import simulate
from tjmj.tournament import tournament

ray = pytest.importorskip("ray")

TIMING = ("seconds", "hands_per_s")


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """One local Ray for the module (starting one takes seconds); the runner joins it and leaves it
    running, as it does any cluster it did not start."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=100 * 1024 * 1024)
    yield
    ray.shutdown()


def _untimed(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in TIMING}


@pytest.mark.parametrize("preset", ["classic", "mcr"])
def test_simulate_on_ray_writes_the_same_records_as_one_process(tmp_path: Path, preset: str) -> None:
    rules = Rules.preset(preset)
    local = simulate(hands=24, hands_per_match=4, seed=5, rules=rules, bots="baseline", out=tmp_path / "local.jsonl")
    seen: list[tuple[int, int]] = []
    on_ray = simulate(hands=24, hands_per_match=4, seed=5, rules=rules, bots="baseline", out=tmp_path / "ray.jsonl",
                      ray="", progress=lambda done, total: seen.append((done, total)))
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert _untimed(on_ray.to_dict()) == _untimed(local.to_dict())
    assert [d for d, _ in seen] == [4 * i for i in range(1, 7)] and {t for _, t in seen} == {24}


def test_a_tournament_on_ray_reports_what_one_process_reports() -> None:
    rules = Rules.preset("beijing")
    args = (("strong", "baseline", "baseline", "baseline"),)
    local = tournament(*args, hands=16, seed=3, rules=rules, match_hands=2)
    on_ray = tournament(*args, hands=16, seed=3, rules=rules, match_hands=2, ray="")
    assert _untimed(on_ray.to_dict()) == _untimed(local.to_dict())


def _running_matches() -> list[int]:
    """The pids of Ray workers running a match now (Ray titles a busy worker ``ray::FUNCTION``)."""
    out = []
    for path in glob.glob("/proc/[0-9]*/cmdline"):
        try:
            cmd = Path(path).read_bytes()
        except OSError:
            continue
        if cmd.startswith(b"ray::_run"):
            out.append(int(path.split("/")[2]))
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds Ray's workers in /proc")
def test_a_killed_worker_has_its_match_played_again_without_loss_or_duplication(tmp_path: Path) -> None:
    rules = Rules.preset("classic")
    kw: dict[str, Any] = {"hands": 48, "hands_per_match": 8, "seed": 9, "rules": rules, "bots": "strong"}
    local = simulate(**kw, out=tmp_path / "local.jsonl")
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["summary"] = simulate(**kw, out=tmp_path / "ray.jsonl", ray="")
        except BaseException as e:  # noqa: BLE001 - handed to the test thread
            result["error"] = e

    t = threading.Thread(target=run)
    t.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and t.is_alive() and time.monotonic() < deadline:
        busy = _running_matches()
        if busy:
            os.kill(busy[0], signal.SIGKILL)  # a worker dies in the middle of a match
            killed = busy[0]
        time.sleep(0.01)
    t.join(120)
    assert killed is not None, "no Ray worker was seen running a match"
    assert "error" not in result, result.get("error")
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert _untimed(result["summary"].to_dict()) == _untimed(local.to_dict())


def _fails(x: int) -> int:
    raise ValueError(f"bot bug in task {x}")


def test_a_tasks_own_error_is_raised_as_itself_not_retried() -> None:
    with pytest.raises(ValueError, match="bot bug in task 0"):
        list(ordered_results(_fails, [0, 1], ""))


def test_the_cli_takes_ray_and_says_what_is_wrong_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    r = CliRunner().invoke(main, ["simulate", "--hands", "8", "--hands-per-match", "4", "--ray", "--json"])
    assert r.exit_code == 0, r.output
    assert '"hands": 8' in r.output
    r = CliRunner().invoke(main, ["tournament", "--bots", "baseline,baseline,baseline,random", "--hands", "8",
                                  "--match-hands", "2", "--ray", "--workers", "2"])
    assert r.exit_code == 2 and "not both" in r.output
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the extra were not installed
    with pytest.raises(RayUnavailable, match=r"pip install 'tianjin-mahjong\[ray\]'"):
        list(ordered_results(abs, [1], ""))
    r = CliRunner().invoke(main, ["simulate", "--hands", "4", "--ray"])
    assert r.exit_code != 0 and "Traceback" not in r.output
    assert r.output.strip().splitlines()[-1].startswith("Error: --ray needs Ray")
