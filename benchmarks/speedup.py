"""The engine's self-play speed against an earlier commit of itself, pure and compiled, in one run.

Issue 14 asks the raw engine with random bots for 3x the figure of the day it was filed; that
day's engine is commit ``419bdc5`` (the last before the issue's work).  This script measures it
beside the working tree, both pure Python and compiled with mypyc (``python -m tjmj.build_compiled``),
interleaved so that every line sees the same machine load::

    .venv/bin/python benchmarks/speedup.py                        # builds the compiled copy (~3 min)
    .venv/bin/python benchmarks/speedup.py --compiled DIR         # reuse a copy built with --out DIR
    .venv/bin/python benchmarks/speedup.py --base REF --hands 800 --repeat 5 --json

Each line is one fresh process per repeat running ``simulate(hands=N, bots="random", workers=1)``
under one preset, timed inside the process with ``time.process_time`` (CPU time: the process's own,
so other processes on the machine move it less than wall time; imports are not timed).  The best
repeat is kept.  ``x base`` is the line over the base commit's pure line of the same preset.
``--instructions`` also counts each line's CPU instructions per hand with valgrind's callgrind (the
difference between two run lengths, so start-up cancels): a figure the machine's load does not move,
though an instruction of compiled code and one of the interpreter do not cost the same time.

A manual tool, never a (timed) test.  It needs git (the base is read with ``git archive``), and for
the build a C compiler and mypy (the ``dev`` extra).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from _compiled import compiled_src
from _machine import machine as _machine

ROOT = Path(__file__).resolve().parent.parent
BASE = "419bdc5"  # the engine when issue 14 was filed
PRESETS = ("classic", "beijing", "mcr")
TARGET_X = 3.0

_CHILD = """
import sys, time
from tjmj.rules import PRESETS
from tjmj.simulate import simulate
import tjmj.families  # noqa: F401  (registers every family's presets)
preset, hands, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
t0 = time.process_time()
s = simulate(hands=hands, seed=seed, rules=PRESETS[preset], bots="random", workers=1)
print(hands / (time.process_time() - t0))
"""


def _base_tree(ref: str, into: Path) -> Path:
    """The base commit's ``src`` as files under ``into`` (``git archive``: no worktree registered)."""
    archive = into / "base.tar"
    with archive.open("wb") as f:
        subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src"], check=True, stdout=f)
    with tarfile.open(archive) as t:
        t.extractall(into / "base", filter="data")
    return into / "base" / "src"


def _child(src: Path, preset: str, hands: int, seed: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, "-c", _CHILD, preset, str(hands), str(seed)], env=env,
                         capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"the run under {src} failed:\n{out.stderr[-2000:]}")
    return float(out.stdout)


def _instructions(src: Path, preset: str, hands: int, seed: int) -> float:
    """Instructions per hand: callgrind of ``hands + 10`` hands minus that of 10 hands."""
    def count(n: int) -> int:
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg", sys.executable, "-c", _CHILD,
                 preset, str(n), str(seed)],
                env={**os.environ, "PYTHONPATH": str(src)}, capture_output=True, text=True)
            m = re.search(r"Collected : (\d+)", out.stderr)
            if out.returncode or not m:
                raise SystemExit(f"callgrind failed under {src}:\n{out.stderr[-2000:]}")
            return int(m.group(1))
    return (count(hands + 10) - count(10)) / hands


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default=BASE, help=f"the earlier commit (default {BASE})")
    ap.add_argument("--compiled", type=Path, help="a compiled copy built with python -m tjmj.build_compiled --out DIR")
    ap.add_argument("--hands", type=int, default=600, help="hands per run (mcr: half; default 600)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per line, interleaved; the best is kept (default 3)")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--instructions", action="store_true", help="also count instructions per hand (valgrind)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.instructions and shutil.which("valgrind") is None:
        ap.error("--instructions needs valgrind (apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="tjmj-speedup-") as tmp:
        base = _base_tree(args.base, Path(tmp))
        trees = {f"base {args.base} (pure)": base, "this tree (pure)": ROOT / "src",
                 "this tree (compiled)": compiled_src(args.compiled, tmp)}
        best: dict[tuple[str, str], float] = {}
        for r in range(args.repeat):
            for preset in PRESETS:
                hands = args.hands // 2 if preset == "mcr" else args.hands
                for name, src in trees.items():
                    v = _child(src, preset, hands, args.seed)
                    best[(name, preset)] = max(best.get((name, preset), 0.0), v)
            print(f"repeat {r + 1}/{args.repeat} done", file=sys.stderr)
        instr: dict[tuple[str, str], float] = {}
        if args.instructions:
            for preset in PRESETS:
                for name, src in trees.items():
                    instr[(name, preset)] = _instructions(src, preset, 60 if preset == "mcr" else 120, args.seed)
    rows = []
    for preset in PRESETS:
        ref = best[(next(iter(trees)), preset)]
        for name in trees:
            row = {"preset": preset, "engine": name, "hands_per_s": round(best[(name, preset)]),
                   "x_base": round(best[(name, preset)] / ref, 2)}
            if instr:
                row["instructions_per_hand"] = round(instr[(name, preset)])
            rows.append(row)
    if args.json:
        print(json.dumps({"machine": _machine(), "args": vars(args) | {"compiled": str(args.compiled)}, "rows": rows},
                         indent=1))
        return 0
    print(json.dumps(_machine()))
    head = f"{'preset':8s}  {'engine':28s}  {'hands/s':>8s}  {'x base':>7s}" + ("  instructions/hand" if instr else "")
    print(head)
    print("-" * len(head))
    for row in rows:
        line = f"{row['preset']:8s}  {row['engine']:28s}  {row['hands_per_s']:8d}  {row['x_base']:6.2f}x"
        if instr:
            line += f"  {row['instructions_per_hand'] / 1e6:10.2f} M"
        print(line)
    print(f"target: the compiled engine >= {TARGET_X:g}x the base in random self-play")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
