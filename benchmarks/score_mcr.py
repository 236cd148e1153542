"""Throughput of the tjmj MCR calculator against PyMahjongGB (``MahjongGB.MahjongFanCalculator``).

Run from the repository root::

    .venv/bin/python benchmarks/score_mcr.py [--n N] [--seed S] [--repeat R] [--json]

One seeded set of random MCR winning hands (:func:`tjmj.families.mcr.reference.random_hand`: every
shape, melds, flags, winds and flowers) is built up front; every measurement of both sides runs on
it, interleaved (ours, then the peer's, in each repeat), after one untimed warm-up pass that also
checks both sides answer every hand and compares their fan totals; the best of ``--repeat`` runs is
kept.  The in-process runs score a new seeded set each (seed + 1, + 2, …), both sides the same.  See benchmarks/README.md ("score_mcr.py") for what each line measures.  This is a manual
tool: it is never run as a (timed) test.
"""

from __future__ import annotations

import argparse
import compileall
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    from MahjongGB import MahjongFanCalculator
except ImportError:  # pragma: no cover - a manual tool
    raise SystemExit("PyMahjongGB is not installed: .venv/bin/pip install pymahjonggb") from None

from _machine import machine as _machine
from tjmj.families.mcr.reference import Hand, pymahjonggb_args, random_hand
from tjmj.families.mcr.score import McrSituation, score_mcr
from tjmj.tiles import TILE_TEXT, format_tiles

# The peer's JSON batch: the same JSON lines as `tjmj score --batch -` reads (an MCR line:
# {"hand", "draw", "melds", "flowers", "self_drawn", ..., "ruleset": "mcr"}), converted to
# PyMahjongGB's arguments, one MahjongFanCalculator call each, one JSON line out: the fan total
# without flowers and each fan (or the error).
PEER_BATCH_SCRIPT = r"""
import json
import sys

from MahjongGB import MahjongFanCalculator

SUITS = {"m": "W", "p": "B", "s": "T"}
HONORS = ("F1", "F2", "F3", "F4", "J1", "J2", "J3")


def tiles(text):
    out, digits = [], []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            out.extend(HONORS[d - 1] if ch == "z" else SUITS[ch] + str(d) for d in digits)
            digits = []
    return out


def pack(m):
    t = m["tile"]
    kind = m["type"]
    if kind == "chi":
        n, s = int(t[0]), t[1]
        claimed = int(m["claimed"][0]) - n + 1 if "claimed" in m else 1
        return ("CHI", SUITS[s] + str(n + 1), claimed)
    code = tiles(t)[0]
    if kind == "pon":
        return ("PENG", code, m.get("from", 1))
    return ("GANG", code, 0 if kind == "ankong" else m.get("from", 1))


def main():
    write = sys.stdout.write
    for line in sys.stdin:
        if not line.strip():
            continue
        d = json.loads(line)
        try:
            fans = MahjongFanCalculator(
                pack=tuple(pack(m) for m in d.get("melds", ())),
                hand=tuple(tiles(d["hand"])),
                winTile=tiles(d["draw"])[0],
                flowerCount=d.get("flowers", 0),
                isSelfDrawn=d.get("self_drawn", False),
                is4thTile=d.get("fourth_tile", False),
                isAboutKong=d.get("about_kong", False),
                isWallLast=d.get("wall_last", False),
                seatWind=d.get("seat_wind", 0),
                prevalentWind=d.get("prevalent_wind", 0),
                verbose=True,
            )
        except Exception as e:
            write(json.dumps({"error": str(e)}) + "\n")
            continue
        total = sum(v * n for v, n, name, _ in fans if name != "花牌")
        rec = {"fan": total, "fans": [{"name": name, "en": en, "fan": v, "count": n} for v, n, name, en in fans]}
        write(json.dumps(rec, ensure_ascii=False) + "\n")


main()
"""


# --------------------------------------------------------------------------------------
# The hand set
# --------------------------------------------------------------------------------------


def plausible(h: Hand) -> Hand:
    """The hand with the situation flags that cannot happen cleared, as the calculator (and
    PyMahjongGB) would ignore them, so that the batch, which rejects them (docs/cli.md), answers
    every line: 杠上开花 without a kong, 抢杠和 on a tile the winner holds, 和绝张 on a tile the
    hand holds."""
    concealed, win, melds, s = h
    about, fourth = s.about_kong, s.fourth_tile
    in_melds = any(win in ((m.tile, m.tile + 1, m.tile + 2) if m.type == "chi" else (m.tile,)) for m in melds)
    if about and s.self_drawn and not any(m.type in ("kong", "added_kong", "ankong") for m in melds):
        about = False
    if about and not s.self_drawn and (win in concealed or in_melds):
        about = False
    if fourth and win in concealed:
        fourth = False
    if (about, fourth) != (s.about_kong, s.fourth_tile):
        s = McrSituation(s.self_drawn, fourth, about, s.wall_last, s.seat_wind, s.prevalent_wind, s.flowers)
    return concealed, win, melds, s


def batch_line(h: Hand) -> dict[str, Any]:
    """The hand as an MCR batch line (docs/cli.md "MCR lines"), defaults left out."""
    concealed, win, melds, s = h
    d: dict[str, Any] = {"hand": format_tiles(sorted(concealed)), "draw": TILE_TEXT[win], "ruleset": "mcr"}
    if melds:
        ms = []
        for m in melds:
            md: dict[str, Any] = {"type": m.type, "tile": TILE_TEXT[m.tile]}
            if m.type == "chi" and m.claimed is not None:
                md["claimed"] = TILE_TEXT[m.claimed]
            elif m.type in ("pon", "kong", "added_kong") and m.offer:
                md["from"] = m.offer
            ms.append(md)
        d["melds"] = ms
    for key in ("flowers", "self_drawn", "fourth_tile", "about_kong", "wall_last", "seat_wind", "prevalent_wind"):
        v = getattr(s, key)
        if v:
            d[key] = v
    return d


def build(n: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    return [plausible(random_hand(rng)) for _ in range(n)]


def composition(hands: list[Hand]) -> dict[str, object]:
    shapes: dict[str, int] = {}
    wins = 0
    for c, w, m, s in hands:
        r = score_mcr(c, w, m, s)
        shapes[r.shape or "incomplete"] = shapes.get(r.shape or "incomplete", 0) + 1
        wins += r.win
    return {
        "hands": len(hands),
        "shapes": dict(sorted(shapes.items(), key=lambda kv: -kv[1])),
        "with_melds": sum(1 for h in hands if h[2]),
        "self_drawn": sum(1 for h in hands if h[3].self_drawn),
        "with_flowers": sum(1 for h in hands if h[3].flowers),
        "win_8_fan": wins,
    }


# --------------------------------------------------------------------------------------
# The in-process measurements (each returns a checksum, so nothing is optimised away)
# --------------------------------------------------------------------------------------


def ours_score(hands: list[Hand]) -> Callable[[], int]:
    def run() -> int:
        total = 0
        for c, w, m, s in hands:
            r = score_mcr(c, w, m, s)
            r.fans  # noqa: B018 - the result as a caller reads it
            total += r.fan
        return total

    return run


def peer_score(args: list[dict[str, Any]]) -> Callable[[], int]:
    calc = MahjongFanCalculator

    def run() -> int:
        total = 0
        for kw in args:
            try:
                fans = calc(**kw)
            except Exception:  # noqa: S112 - a hand it rejects: counted as 0
                continue
            for v, k, name, _ in fans:
                if name != "花牌":
                    total += v * k
        return total

    return run


# --------------------------------------------------------------------------------------
# The batch subprocesses
# --------------------------------------------------------------------------------------


def tjmj_command() -> list[str] | None:
    exe = Path(sys.executable).parent / "tjmj"
    if exe.exists():
        return [str(exe), "score", "--batch", "-"]
    found = shutil.which("tjmj")
    return [found, "score", "--batch", "-"] if found else None


def run_batch(cmd: list[str], input_path: Path, n: int) -> tuple[float, dict[str, Any]]:
    """Time one whole subprocess run (start-up included); check it answered every line."""
    with open(input_path, "rb") as f:
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdin=f, capture_output=True, timeout=600)
        dt = time.perf_counter() - t0
    lines = [ln for ln in p.stdout.decode("utf-8", "replace").splitlines() if ln.strip()]
    info: dict[str, Any] = {"rc": p.returncode, "lines": len(lines)}
    if p.returncode != 0 or len(lines) != n:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        info["failure"] = f"exit status {p.returncode}, {len(lines)} output line(s) for {n} input lines" + (
            f"; stderr: {err[-1][:200]}" if err else "")
        return dt, info
    answers = [json.loads(ln) for ln in lines]
    info["errors"] = [a["error"] for a in answers if "error" in a]
    info["fans"] = [a.get("fan") for a in answers]
    return dt, info


# --------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------


@dataclass
class Row:
    key: str
    label: str
    n: int
    target: float | None = None  # ours/peer must be at least this
    ours_t: float = float("inf")
    peer_t: float = float("inf")

    def result(self) -> dict[str, object]:
        o = self.n / self.ours_t if 0 < self.ours_t < float("inf") else None
        p = self.n / self.peer_t if 0 < self.peer_t < float("inf") else None
        ratio = o / p if o is not None and p is not None else None
        verdict = None
        if self.target is not None and ratio is not None:
            verdict = "PASS" if ratio >= self.target else "BELOW"
        return {"key": self.key, "measurement": self.label, "n": self.n,
                "ours_per_s": None if o is None else round(o, 1), "peer_per_s": None if p is None else round(p, 1),
                "ratio": None if ratio is None else round(ratio, 3), "target": self.target, "verdict": verdict}


def time_once(f: Callable[[], int]) -> float:
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def print_table(results: list[dict[str, Any]]) -> None:
    head = ("measurement", "ours /s", "peer /s", "ours/peer", "target")
    rows = []
    for r in results:
        ratio = "—" if r["ratio"] is None else f"{r['ratio']:.2f}×"
        target = "" if r["target"] is None else f"≥ {r['target']:g}×" + (f"  {r['verdict']}" if r["verdict"] else "")
        rows.append((r["measurement"], *("—" if x is None else f"{x:,.0f}" for x in (r["ours_per_s"], r["peer_per_s"])),
                     ratio, target))
    widths = [max(len(x[i]) for x in [head, *rows]) for i in range(5)]
    right = (False, True, True, True, False)

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right)).rstrip()

    print(line(head))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(line(row))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=5000, help="hands (default 5000)")
    ap.add_argument("--seed", type=int, default=20261201, help="hand set seed (default 20261201)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per measurement; the best is kept (default 5)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object (progress on stderr)")
    args = ap.parse_args(argv)
    n, repeat = args.n, max(1, args.repeat)
    t_start = time.perf_counter()
    mach = _machine("PyMahjongGB")

    def say(*a: Any, **k: Any) -> None:
        print(*a, file=sys.stderr if args.json else sys.stdout, **k)

    say(f"tjmj MCR benchmark: {n} hands, seed {args.seed}, best of {repeat}; warming up …", flush=True)
    hands = build(n, args.seed)
    peer_args = [pymahjonggb_args(*h) for h in hands]
    comp = composition(hands)  # also the in-process warm-up
    in_process = Row("1", "score_mcr vs MahjongFanCalculator (in process)", n)
    checks = {"ours": ours_score(hands)(), "peer": peer_score(peer_args)()}
    # the in-process runs score a new hand set each (the calculator memoises per-suit shapes: the
    # same hands again would be all cache hits, which a batch of new hands never sees)
    fresh = [build(n, args.seed + 1 + i) for i in range(repeat)]
    runs = [(ours_score(hs), peer_score([pymahjonggb_args(*h) for h in hs])) for hs in fresh]

    import tjmj

    compileall.compile_dir(Path(tjmj.__file__).parent, quiet=1)  # as pip compiles an installed package
    tmp = Path(tempfile.mkdtemp(prefix="tjmj-bench-mcr-"))
    lines_in = tmp / "mcr.jsonl"
    lines_in.write_text("".join(json.dumps(batch_line(h), ensure_ascii=False) + "\n" for h in hands), "utf-8")
    peer_script = tmp / "peer_batch.py"
    peer_script.write_text(PEER_BATCH_SCRIPT, "utf-8")
    empty_in = tmp / "empty.jsonl"
    empty_in.write_text("", "utf-8")
    ours_cmd = tjmj_command()
    if ours_cmd is None:
        raise SystemExit("no tjmj console script next to this Python or on PATH")
    short_cmd = [*ours_cmd, "--no-arrangement"]
    peer_cmd = [sys.executable, str(peer_script)]
    batch = Row("2a", "JSON-lines batch, whole process (with arrangement)", n, target=0.5)
    batch_short = Row("2b", "the same, --no-arrangement", n, target=0.5)
    notes: list[str] = []
    _, ours_info = run_batch(ours_cmd, lines_in, n)
    _, peer_info = run_batch(peer_cmd, lines_in, n)
    for who, info in (("tjmj", ours_info), ("peer", peer_info)):
        if "failure" in info:
            raise SystemExit(f"the {who} batch failed: {info['failure']}")
        if info["errors"]:
            notes.append(f"{who} batch: {len(info['errors'])} error line(s), first: {info['errors'][0]}")
    same = sum(1 for a, b in zip(ours_info["fans"], peer_info["fans"]) if a == b)
    notes.append(f"fan totals (without flowers) agree on {same} of {n} lines; in process: tjmj sum "
                 f"{checks['ours']}, PyMahjongGB sum {checks['peer']}")
    startup = {"ours": float("inf"), "peer": float("inf")}
    for i in range(repeat):
        say(f"  run {i + 1}/{repeat} …", flush=True)
        ours_f, peer_f = runs[i]
        in_process.ours_t = min(in_process.ours_t, time_once(ours_f))
        in_process.peer_t = min(in_process.peer_t, time_once(peer_f))
        batch.ours_t = min(batch.ours_t, run_batch(ours_cmd, lines_in, n)[0])
        batch_short.ours_t = min(batch_short.ours_t, run_batch(short_cmd, lines_in, n)[0])
        batch.peer_t = min(batch.peer_t, run_batch(peer_cmd, lines_in, n)[0])
        batch_short.peer_t = batch.peer_t
        startup["ours"] = min(startup["ours"], run_batch(ours_cmd, empty_in, 0)[0])
        startup["peer"] = min(startup["peer"], run_batch(peer_cmd, empty_in, 0)[0])
    shutil.rmtree(tmp, ignore_errors=True)
    startup_s = {k: round(v, 3) for k, v in startup.items()}
    notes.append(f"process start-up on empty input: tjmj {startup_s['ours']:.2f} s, peer script "
                 f"{startup_s['peer']:.2f} s (included in 2a and 2b)")
    results = [r.result() for r in (in_process, batch, batch_short)]
    elapsed = time.perf_counter() - t_start
    if args.json:
        print(json.dumps({"machine": mach, "n": n, "seed": args.seed, "repeat": repeat, "composition": comp,
                          "results": results, "batch_startup_s": startup_s, "notes": notes,
                          "elapsed_s": round(elapsed, 1)}, ensure_ascii=False, indent=2))
        return 0
    m = mach
    print()
    print(f"machine: {m['platform']}, {m['processor']}, {m['cpu_count']} CPUs, load {m['loadavg_at_start']}")
    print(f"python:  {m['python']}; tjmj {m['tjmj']}, PyMahjongGB {m['PyMahjongGB']}")
    print(f"hands:   {n}, seed {args.seed}, best of {repeat} interleaved runs after one warm-up pass")
    print(f"  shapes {comp['shapes']}; {comp['with_melds']} with melds, {comp['self_drawn']} self-drawn, "
          f"{comp['with_flowers']} with flowers, {comp['win_8_fan']} reach 8 fan")
    print()
    print_table(results)
    print()
    for note in notes:
        print(f"note: {note}")
    print(f"\n(total {elapsed:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
