"""Self-play throughput: tjmj hands/s with random and baseline bots against peer mahjong engines.

Run from the repository root::

    .venv/bin/python benchmarks/selfplay.py [--hands N] [--peer-games N] [--repeat R] [--seed S] [--json]

Every line runs in this process, on one core (``simulate(..., workers=1)``, no records written):

* tjmj ``random``: uniform random legal actions (wild discards make 小相公, R2, so almost every
  hand ends as a 荒牌 draw after the whole wall);
* tjmj ``greedy``: the same, but it always takes a legal win;
* tjmj ``baseline``: the shanten bot of :mod:`tjmj.bots.baseline` (it reads the observation);
* the same ``random`` and ``baseline`` lines in Beijing mahjong (preset ``beijing``, docs/rules/BEIJING.md:
  one wild kind, chi, discard wins), beside the Tianjin ones;
* ``tjmj env``: the PettingZoo AEC environment (:mod:`tjmj.env`, docs/env.md) of each family
  played by a uniform random policy over ``action_mask`` (the index drawn with ``random.Random``,
  as the engine's random bot draws; one classic line draws with numpy's ``Generator`` instead),
  one match of all the hands, without the raw observation dict (``raw_obs=False``);
* ``tjmj vector env``: :class:`tjmj.env.vector.VectorTables`, 16 tables stepped as one batch by
  one random policy over the masks (one numpy call per batch), the form batch trainers use;
* each env line's ``x raw`` is its hands/s over the engine's own ``random`` line of the same family,
  run just before it in each repeat: the median over the repeats of that ratio (target: at least
  0.5, within 2x).  A pair shares the machine's moment, so the ratio is steadier than one of two
  bests taken apart (that one is kept as ``x_raw_of_bests`` in ``--json``);
* ``rlcard`` 1.2.0 ``mahjong`` (one hand per game) with four ``RandomAgent`` via ``env.run``;
* ``riichienv`` 0.4.11 one-hand 4-player games (``game_mode=0``, YON_IKKYOKU) with four
  ``riichienv.agents.RandomAgent``.

A peer that is not importable is skipped with a note.  Each repeat runs every line once with the
same seeds, interleaved so all see the same machine load (a family's env lines just after its
engine line); the best repeat's hands/s is shown.  Target:
tjmj random-bot hands/s ≥ 10× rlcard's games/s.  A manual tool, never a (timed) test.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from _machine import machine as _machine
from _machine import version
from tjmj.rules import CLASSIC, Rules
from tjmj.simulate import simulate

TARGET_X_RLCARD = 10.0
TARGET_ENV_X_RAW = 0.5  # the env path within 2x of the raw engine (issue: env hands/s over engine hands/s)
VECTOR_TABLES = 16


def _family_of(name: str) -> str | None:
    """The preset of a tjmj line (``classic`` when the name has none), None for a peer's line."""
    if not name.startswith("tjmj"):
        return None
    last = name.rsplit(", ", 1)[-1]
    return last if last in ("beijing", "mcr") else "classic"


def _run_rank(name: str) -> tuple[str, int]:
    """Run order: by family, the engine's random line first, its env lines next, then the rest."""
    fam = _family_of(name)
    raw = "tjmj random" if fam == "classic" else f"tjmj random, {fam}"
    return (fam or "~", 0 if name == raw else 1 if name.startswith(("tjmj env", "tjmj vector")) else 2)


def tjmj_line(bots: str, hands: int, seed: int, rules: Rules = CLASSIC) -> Callable[[], tuple[int, float, dict[str, Any]]]:
    def run() -> tuple[int, float, dict[str, Any]]:
        s = simulate(hands=hands, seed=seed, rules=rules, bots=bots, workers=1)
        return s.hands, s.seconds, {"mean_turns": round(s.discards / s.hands, 1), "wins": s.wins}

    return run


def env_line(preset: str, hands: int, seed: int, policy: str = "python") -> Callable[[], tuple[int, float, dict[str, Any]]] | str:
    """The AEC env played by a uniform random policy over ``action_mask``: ``python`` draws the
    index with ``random.Random`` (as the engine's random bot draws its action), ``numpy`` with a
    numpy ``Generator`` (``flatnonzero`` + ``integers``: about 3 µs more a step, the policy's cost)."""
    try:
        import numpy as np

        from tjmj.env import raw_env
    except ImportError as e:
        return f"tjmj.env not importable ({e}); pip install -e '.[env]'"

    def run() -> tuple[int, float, dict[str, Any]]:
        env = raw_env(preset, hands=hands, raw_obs=False)
        rng = np.random.default_rng(seed)
        rnd = random.Random(seed)
        steps = 0
        t0 = time.perf_counter()
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if policy == "python":
                legal = obs["action_mask"].nonzero()[0]
                env.step(int(legal[rnd.randrange(len(legal))]))
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        return hands, time.perf_counter() - t0, {"steps_per_hand": round(steps / hands, 1)}

    return run


def vector_line(preset: str, hands: int, seed: int, tables: int = VECTOR_TABLES) -> Callable[[], tuple[int, float, dict[str, Any]]] | str:
    """``VectorTables``: ``tables`` matches of 50 hands stepped as one batch by one uniform random
    policy over the masks (a random key per action, the best legal key taken: one numpy call for
    the batch), until ``hands`` hands have ended."""
    try:
        import numpy as np

        from tjmj.env.vector import VectorTables
    except ImportError as e:
        return f"tjmj.env not importable ({e}); pip install -e '.[env]'"

    def run() -> tuple[int, float, dict[str, Any]]:
        t = VectorTables(preset, n=tables, hands=50)
        rng = np.random.default_rng(seed)
        steps = 0
        t0 = time.perf_counter()
        _, mask, _ = t.reset(seed=seed)
        while t.hands_played < hands:
            _, mask, _, _, _ = t.step((rng.random(mask.shape) * mask).argmax(1))
            steps += tables
        return t.hands_played, time.perf_counter() - t0, {"steps_per_hand": round(steps / t.hands_played, 1)}

    return run


def rlcard_line(games: int, seed: int) -> Callable[[], tuple[int, float, dict[str, Any]]] | str:
    try:
        import numpy as np
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError as e:  # the peer is optional: skip with a note
        return f"rlcard not importable ({e}); pip install rlcard==1.2.0"
    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def run() -> tuple[int, float, dict[str, Any]]:
        np.random.seed(seed)  # RandomAgent draws from numpy's global generator
        wins = 0
        t0 = time.perf_counter()
        for _ in range(games):
            _, payoffs = env.run(is_training=False)
            wins += any(p > 0 for p in payoffs)
        return games, time.perf_counter() - t0, {"wins": wins}

    return run


def riichienv_line(games: int, seed: int) -> Callable[[], tuple[int, float, dict[str, Any]]] | str:
    try:
        from riichienv import RiichiEnv
        from riichienv.agents import RandomAgent
    except ImportError as e:
        return f"riichienv not importable ({e}); pip install riichienv==0.4.11"

    def run() -> tuple[int, float, dict[str, Any]]:
        env = RiichiEnv(game_mode=0, skip_mjai_logging=True, seed=seed)  # 0: one 4-player hand
        agents = [RandomAgent(seed + i) for i in range(4)]
        steps = 0
        t0 = time.perf_counter()
        for _ in range(games):
            obs = env.reset()
            while not env.done():
                obs = env.step({pid: agents[pid].act(o) for pid, o in obs.items()})
                steps += 1
        return games, time.perf_counter() - t0, {"steps_per_game": round(steps / games, 1)}

    return run


_version = version


def machine() -> dict[str, object]:
    return _machine("rlcard", "riichienv")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=1000, help="tjmj hands per line and repeat (default 1000)")
    ap.add_argument("--peer-games", type=int, default=100, help="rlcard games per repeat (riichienv: 5×; default 100)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per line; the best is kept (default 3)")
    ap.add_argument("--seed", type=int, default=20261129, help="seed of every line (default 20261129)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON instead of the table")
    args = ap.parse_args(argv)
    say = (lambda *a, **k: print(*a, file=sys.stderr, **k)) if args.json else print
    hands, games, repeat = max(1, args.hands), max(1, args.peer_games), max(1, args.repeat)

    lines: dict[str, Callable[[], tuple[int, float, dict[str, Any]]] | str] = {
        "tjmj random": tjmj_line("random", hands, args.seed),
        "tjmj greedy (random, wins when it can)": tjmj_line("greedy", hands, args.seed),
        "tjmj baseline": tjmj_line("baseline", max(1, hands // 2), args.seed),
        "tjmj random, beijing": tjmj_line("random", hands, args.seed, Rules.preset("beijing")),
        "tjmj baseline, beijing": tjmj_line("baseline", max(1, hands // 2), args.seed, Rules.preset("beijing")),
        "tjmj random, mcr": tjmj_line("random", hands, args.seed, Rules.preset("mcr")),
        "tjmj env random, classic": env_line("classic", hands, args.seed),
        "tjmj env random, beijing": env_line("beijing", hands, args.seed),
        "tjmj env random, mcr": env_line("mcr", hands, args.seed),
        "tjmj env numpy-policy random, classic": env_line("classic", hands, args.seed, policy="numpy"),
        "tjmj vector env random, classic": vector_line("classic", hands, args.seed),
        "tjmj vector env random, beijing": vector_line("beijing", hands, args.seed),
        "tjmj vector env random, mcr": vector_line("mcr", hands, args.seed),
        "rlcard mahjong, random agents": rlcard_line(games, args.seed),
        "riichienv one hand, random agents": riichienv_line(5 * games, args.seed),
    }
    mach = machine()
    say(f"machine: {mach['platform']}, {mach['processor']}, {mach['cpu_count']} CPUs, load {mach['loadavg_at_start']}, "
        f"{mach['python']}; rlcard {mach['rlcard']}, riichienv {mach['riichienv']}", flush=True)
    for name, fn in lines.items():
        if isinstance(fn, str):
            say(f"skipped: {name}: {fn}", flush=True)
    runnable = {k: v for k, v in lines.items() if not isinstance(v, str)}
    for fn in runnable.values():  # untimed warm-up: memoised tables, imports, JIT-free caches
        fn()
    # each env line runs right after its family's engine line, so that a pair shares the machine's
    # moment: the ratio is taken within each repeat, and its median over the repeats reported
    order = sorted(runnable, key=_run_rank)
    best: dict[str, tuple[float, int, float, dict[str, Any]]] = {}
    rates: dict[str, list[float]] = {name: [] for name in runnable}
    for r in range(repeat):
        for name in order:
            n, secs, extra = runnable[name]()
            rate = n / secs if secs > 0 else float("inf")
            rates[name].append(rate)
            if name not in best or rate > best[name][0]:
                best[name] = (rate, n, secs, extra)
        print(f"repeat {r + 1}/{repeat} done", file=sys.stderr, flush=True)

    rl = best.get("rlcard mahjong, random agents", (None,))[0]
    ri = best.get("riichienv one hand, random agents", (None,))[0]
    rows = []
    for name in lines:
        if name not in best:
            rows.append({"line": name, "skipped": lines[name]})
            continue
        rate, n, secs, extra = best[name]
        row: dict[str, Any] = {"line": name, "per_s": rate, "n": n, "seconds": secs, **extra}
        if name.startswith("tjmj"):
            row["x_rlcard"] = rate / rl if rl else None
            row["x_riichienv"] = rate / ri if ri else None
            if name in ("tjmj random", "tjmj greedy (random, wins when it can)") and rl:
                row["target"] = f">= {TARGET_X_RLCARD:g}x rlcard"
                row["pass"] = rate >= TARGET_X_RLCARD * rl
            preset = _family_of(name)
            raw_name = "tjmj random" if preset == "classic" else f"tjmj random, {preset}"
            if name.startswith(("tjmj env", "tjmj vector")) and raw_name in best:
                # the median over the repeats of this line's rate over the engine's just before it
                row["x_raw"] = statistics.median(e / w for e, w in zip(rates[name], rates[raw_name]))
                row["x_raw_of_bests"] = rate / best[raw_name][0]
                row["target"] = f">= {TARGET_ENV_X_RAW:g}x raw"
                row["pass"] = row["x_raw"] >= TARGET_ENV_X_RAW
        rows.append(row)
    if args.json:
        print(json.dumps({"machine": mach, "hands": hands, "peer_games": games, "repeat": repeat, "lines": rows}))
        return 0
    head = ("line", "hands|games/s", "x rlcard", "x riichienv", "x raw", "target", "")
    table = [head]
    for row in rows:
        if "skipped" in row:
            table.append((row["line"], "skipped", "", "", "", "", ""))
            continue
        x1 = f"{row['x_rlcard']:.1f}x" if row.get("x_rlcard") else ""
        x2 = f"{row['x_riichienv']:.2f}x" if row.get("x_riichienv") else ""
        verdict = ("PASS" if row["pass"] else "BELOW") if "pass" in row else ""
        x3 = f"{row['x_raw']:.2f}x" if row.get("x_raw") else ""
        table.append((row["line"], f"{row['per_s']:.0f}", x1, x2, x3, row.get("target", ""), verdict))
    widths = [max(len(str(r[i])) for r in table) for i in range(len(head))]
    for i, r in enumerate(table):
        print("  ".join(str(c).ljust(w) if j == 0 else str(c).rjust(w) for j, (c, w) in enumerate(zip(r, widths))))
        if i == 0:
            print("  ".join("-" * w for w in widths))
    notes = []
    for row in rows:
        if "mean_turns" in row:
            notes.append(f"{row['line']}: {row['wins']} wins in {row['n']} hands, {row['mean_turns']} discards/hand")
        elif "steps_per_hand" in row:
            notes.append(f"{row['line']}: {row['steps_per_hand']} env steps/hand")
        elif "steps_per_game" in row:
            notes.append(f"{row['line']}: {row['steps_per_game']} env steps/game")
        elif "wins" in row:
            notes.append(f"{row['line']}: {row['wins']} wins in {row['n']} games")
    for n in notes:
        print(f"  {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
