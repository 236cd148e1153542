"""How far the expert's search could go if its worlds were right: an oracle tournament.

The expert (docs/bots.md, ``expert``) deals the tiles its seat has not seen at random in every world
it samples.  This script measures the ceiling of that idea: the same bot whose worlds keep the other
seats' hands as they truly are and deal only the wall again (``Match.determinize(seat, rng,
keep_hands=True)``), in a duplicate tournament against three ``strong``.  No bot may see those hands,
so the bot has no such option: the script copies the package to a temporary directory
(``tjmj.build_compiled.copy_tree``), changes there the one line of ``tjmj/bots/expert.py`` where a world is dealt, builds that copy
compiled (``python -m tjmj.build_compiled``, about 4 minutes; ``--pure`` skips it: fewer worlds a
decision) and runs ``tjmj tournament`` on it::

    .venv/bin/python benchmarks/oracle_expert.py --hands 1600 --seed 22 --workers 2
    .venv/bin/python benchmarks/oracle_expert.py --bot "expert(own=strong(revive=0), budget_ms=500)" --hands 800
    .venv/bin/python benchmarks/oracle_expert.py --pure --hands 16 --json

Its report is ``tjmj tournament``'s ([docs/tournament.md]); the same command without the oracle, on
the same ``--seed``, plays the same deals (compare them with ``tjmj.tournament.paired``).  A manual
tool, never a (timed) test.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tjmj.build_compiled import build, copy_tree

WORLD_LINE = "world = m.determinize(seat, rng, weights=weights)"
ORACLE_LINE = "world = m.determinize(seat, rng, keep_hands=True)  # the oracle (benchmarks/oracle_expert.py)"


def oracle_copy(tmp: Path) -> Path:
    """A pure copy of the package under ``tmp/src`` whose expert deals its worlds with the true hands."""
    src = copy_tree(tmp)
    expert = src / "tjmj" / "bots" / "expert.py"
    text = expert.read_text(encoding="utf-8")
    if text.count(WORLD_LINE) != 1:
        raise SystemExit(f"oracle_expert: {expert.relative_to(tmp)} no longer has the line {WORLD_LINE!r} once")
    expert.write_text(text.replace(WORLD_LINE, ORACLE_LINE), encoding="utf-8")
    return src


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="expert", help="the searching bot, with its options (default: expert)")
    ap.add_argument("--against", default="strong", help="the bot in the other three seats (default: strong)")
    ap.add_argument("--hands", type=int, default=1600)
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--pure", action="store_true", help="run the copy in pure Python (no build)")
    ap.add_argument("--json", action="store_true", help="the tournament's report as JSON")
    args = ap.parse_args(argv)
    if not args.bot.startswith("expert"):
        raise SystemExit(f"oracle_expert: --bot must be the expert (with options), got {args.bot!r}")
    with tempfile.TemporaryDirectory(prefix="tjmj-oracle-") as tmp:
        src = oracle_copy(Path(tmp))
        if not args.pure:
            print("building the oracle copy compiled (tjmj.build_compiled) ...", file=sys.stderr)
            build(src, quiet=True)
        bots = ",".join([args.bot] + [args.against] * 3)
        cmd = [sys.executable, "-c", "from tjmj.batch import console; console()", "tournament", "--bots", bots,
               "--hands", str(args.hands), "--seed", str(args.seed), "--workers", str(args.workers),
               "--rules", args.rules] + (["--json"] if args.json else [])
        return subprocess.run(cmd, env=dict(os.environ, PYTHONPATH=str(src)), cwd=tmp).returncode


if __name__ == "__main__":
    sys.exit(main())
