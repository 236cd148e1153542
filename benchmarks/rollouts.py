"""The expert's search speed: rollouts a second and rounds a decision, pure Python against compiled.

The expert bot (docs/bots.md, ``expert``) plays sampled worlds to the end of the hand with its rollout
policy; the more rollouts fit in its 200 ms, the smaller the gains it can tell from noise.  This
script measures, for each preset, in one run and one fresh process per line:

* ``rollouts/s``: the worlds of every fourth turn of ``--hands`` hands of ``strong`` self-play
  (``Match.determinize`` of the seat to play), each played to the end of the hand with
  ``tjmj.bots.expert.play_out`` on a copy; CPU time of the rollouts alone (``time.process_time``);
* ``rounds/decision``: the mean rounds (worlds) an ``expert`` at its default budget played per searched
  decision, in ``--hands`` one-hand matches against three ``strong`` (wall time: the machine's load
  moves it).

The peer is this tree in pure Python; the compiled line is the same tree built with
``python -m tjmj.build_compiled --out DIR`` (the engine, the shanten tables and the rollout policy)::

    .venv/bin/python benchmarks/rollouts.py                      # builds the compiled copy (~3 min)
    .venv/bin/python benchmarks/rollouts.py --compiled DIR --hands 12 --json

A manual tool, never a (timed) test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _compiled import compiled_src
from _machine import machine as _machine

ROOT = Path(__file__).resolve().parent.parent
PRESETS = ("classic", "beijing", "mcr")

_CHILD = """
import json, random, sys, time
import tjmj
from tjmj.bots import make_bot
from tjmj.bots.expert import ExpertBot, play_out
from tjmj.families import match_type
from tjmj.rules import Rules
from tjmj.simulate import play_with
preset, hands, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rules = Rules.preset(preset, match_hands=1)
rng = random.Random(seed)
worlds = []
for h in range(hands):
    m = match_type(rules.family)(rules, seed + h)
    bots = [make_bot("strong") for _ in range(4)]
    for b in bots:
        b.set_rules(rules)
    turns = 0
    while not m.is_over:
        s = m.to_act
        legal = m.legal_actions(s)
        if m.phase == "turn" and len(legal) > 1:
            turns += 1
            if turns % 4 == 0:
                worlds.append((m.determinize(s, rng), s))
        m.apply(s, bots[s].choose(m.observation(s), legal, rng))
t0 = time.process_time()
for w, s in worlds:
    play_out(w, s)
cpu = time.process_time() - t0
searched = rounds = 0
for h in range(hands):
    e = ExpertBot()
    play_with(match_type(rules.family)(rules, seed + h), [e] + [make_bot("strong") for _ in range(3)], seed + h)
    searched += e.searched
    rounds += e.rounds_played
print(json.dumps({"compiled": len(tjmj.compiled()), "rollouts": len(worlds), "rollouts_per_s": len(worlds) / cpu,
                  "searched": searched, "rounds_per_decision": rounds / max(1, searched)}))
"""


def _child(src: Path, preset: str, hands: int, seed: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, "-c", _CHILD, preset, str(hands), str(seed)], env=env,
                         capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"the run under {src} failed:\n{out.stderr[-2000:]}")
    got: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return got


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--compiled", type=Path, help="a compiled copy built with python -m tjmj.build_compiled --out DIR")
    ap.add_argument("--hands", type=int, default=8, help="hands per line (default 8)")
    ap.add_argument("--repeat", type=int, default=2, help="runs per line, interleaved; the best is kept (default 2)")
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tjmj-rollouts-") as tmp:
        trees = {"pure": ROOT / "src", "compiled": compiled_src(args.compiled, tmp)}
        best: dict[tuple[str, str], dict[str, float]] = {}
        for r in range(args.repeat):
            for preset in PRESETS:
                for name, src in trees.items():
                    got = _child(src, preset, args.hands, args.seed)
                    if name == "compiled" and not got["compiled"]:
                        raise SystemExit(f"{src} runs no compiled module: build it with python -m tjmj.build_compiled --out DIR")
                    old = best.get((name, preset))
                    if old is None or got["rollouts_per_s"] > old["rollouts_per_s"]:
                        best[(name, preset)] = got
            print(f"repeat {r + 1}/{args.repeat} done", file=sys.stderr)
    rows = []
    for preset in PRESETS:
        ref = best[("pure", preset)]
        for name in trees:
            got = best[(name, preset)]
            rows.append({"preset": preset, "form": name, "rollouts": int(got["rollouts"]),
                         "rollouts_per_s": round(got["rollouts_per_s"]),
                         "x_pure": round(got["rollouts_per_s"] / ref["rollouts_per_s"], 2),
                         "searched": int(got["searched"]), "rounds_per_decision": round(got["rounds_per_decision"], 1)})
    if args.json:
        print(json.dumps({"machine": _machine(), "args": vars(args) | {"compiled": str(args.compiled)}, "rows": rows},
                         indent=1))
        return 0
    print(json.dumps(_machine()))
    head = f"{'preset':8s}  {'form':9s}  {'rollouts/s':>10s}  {'x pure':>7s}  {'rounds/decision':>15s}"
    print(head)
    print("-" * len(head))
    for row in rows:
        print(f"{row['preset']:8s}  {row['form']:9s}  {row['rollouts_per_s']:10d}  {row['x_pure']:6.2f}x"
              f"  {row['rounds_per_decision']:15.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
