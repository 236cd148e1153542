"""Throughput of the tjmj scorer against the Riichi library ``mahjong`` (2.1.0).

Run from the repository root::

    .venv/bin/python benchmarks/score.py [--n N] [--seed S] [--repeat R] [--json]

One seeded hand set is built up front; every measurement of both libraries runs on it,
interleaved (ours, then the peer's, in each repeat), after one untimed warm-up pass, and the
best of ``--repeat`` runs is kept.  See benchmarks/README.md for what each line measures.
This is a manual tool: it is never run as a (timed) test.
"""

from __future__ import annotations

import argparse
import compileall
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mahjong.agari import Agari
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.tile import TilesConverter

from _machine import machine as _machine
from tjmj.families.tianjin.samples import SampleHand, random_complete_hand, random_hand
from tjmj.families.tianjin.score import Scorer, score
from tjmj.families.tianjin.waits import waits
from tjmj.meld import MeldType
from tjmj.tiles import counts_of

# The peer's JSON batch: the same JSON lines as `tjmj score --batch -` reads ({"hand", "draw", ...}),
# parsed to kinds 0..33 (m, p, s, z), converted to 136-format, scored as a closed tsumo.
PEER_BATCH_SCRIPT = r"""
import json
import sys

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig

BASE = {"m": 0, "p": 9, "s": 18, "z": 27}


def kinds(text):
    out, digits = [], []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            base = BASE[ch]
            out.extend(base + d - 1 for d in digits)
            digits = []
    return out


def main():
    calc = HandCalculator()
    config = HandConfig(is_tsumo=True)
    write = sys.stdout.write
    for line in sys.stdin:
        if not line.strip():
            continue
        d = json.loads(line)
        draw = kinds(d["draw"])[0]
        counts = [0] * 34
        for k in kinds(d["hand"]):
            counts[k] += 1
        counts[draw] += 1
        tiles = []
        for k, n in enumerate(counts):
            tiles.extend(range(4 * k, 4 * k + n))
        r = calc.estimate_hand_value(tiles, 4 * draw, config=config)
        if r.error:
            rec = {"error": r.error}
        else:
            rec = {"han": r.han, "fu": r.fu, "yaku": [y.name for y in r.yaku]}
        write(json.dumps(rec, ensure_ascii=False) + "\n")


main()
"""


# --------------------------------------------------------------------------------------
# The hand sets
# --------------------------------------------------------------------------------------


@dataclass
class HandSet:
    random_hands: list[SampleHand]  # 14 random tiles (13 + draw), both libraries
    complete: list[SampleHand]  # tjmj: complete, 0–3 wilds, 0–1 melds
    peer_complete: list[SampleHand]  # mahjong: complete, no wilds, no melds
    # derived inputs, built once, outside the timed loops
    scorers: dict[int, Scorer] = field(default_factory=dict)
    random_ours: list[tuple[Scorer, list[int]]] = field(default_factory=list)
    random_counts: list[list[int]] = field(default_factory=list)
    complete_ours: list[tuple[Scorer, list[int], int, int, int, bool]] = field(default_factory=list)
    complete_public: list[tuple[list[int], int, int, tuple, bool]] = field(default_factory=list)
    waits_in: list[tuple[list[int], int, tuple]] = field(default_factory=list)
    peer_counts: list[list[int]] = field(default_factory=list)
    peer_136: list[tuple[list[int], int]] = field(default_factory=list)


def build(n: int, seed: int) -> HandSet:
    rng = random.Random(seed)
    hs = HandSet(
        random_hands=[random_hand(rng) for _ in range(n)],
        complete=[random_complete_hand(rng) for _ in range(n)],
        peer_complete=[random_complete_hand(rng, wild_count=0, max_melds=0) for _ in range(n)],
    )

    def scorer(ind: int) -> Scorer:
        s = hs.scorers.get(ind)
        if s is None:
            s = hs.scorers[ind] = Scorer(ind)
        return s

    for h in hs.random_hands:
        c = counts_of([*h.concealed, h.draw])
        hs.random_ours.append((scorer(h.indicator), c))
        hs.random_counts.append(c)
    for h in hs.complete:
        s = scorer(h.indicator)
        c = counts_of([*h.concealed, h.draw])
        gold = sum(1 for m in h.melds if m.type is MeldType.CONCEALED_KONG and m.tile in s.wilds)
        hs.complete_ours.append((s, c, int(h.draw), len(h.melds), gold, h.kong_draw))
        hs.complete_public.append(([int(t) for t in h.concealed], int(h.draw), int(h.indicator), h.melds, h.kong_draw))
        hs.waits_in.append(([int(t) for t in h.concealed], int(h.indicator), h.melds))
    for h in hs.peer_complete:
        c = counts_of([*h.concealed, h.draw])
        hs.peer_counts.append(c)
        # 34 → 136: the first n copies of each kind; the winning tile is copy 0 of its kind
        hs.peer_136.append((TilesConverter.to_136_array(c), 4 * int(h.draw)))
    return hs


def composition(hs: HandSet) -> dict[str, object]:
    n = len(hs.complete)
    wild_hist = [0, 0, 0, 0, 0]
    fan2 = wins = 0
    for h, (s, c, win, m, gold, kd) in zip(hs.complete, hs.complete_ours):
        w = sum(c[k] for k in set(s.wilds))
        wild_hist[min(w, 4)] += 1
        r = s.evaluate(c, win, m, gold, kd)
        assert r is not None, f"sample hand not complete: {h.to_batch()}"
        fan2 += r[0] >= 2
        wins += s.can_win(*r)
    agari = Agari()
    return {
        "hands_per_set": n,
        "random_complete_tjmj": sum(s.is_complete(c) for s, c in hs.random_ours),
        "random_agari_mahjong": sum(agari.is_agari(c) for c in hs.random_counts),
        "complete_with_wilds": n - wild_hist[0],
        "complete_wild_histogram": wild_hist,  # hands with 0, 1, 2, 3, 4+ wild tiles
        "complete_with_melds": sum(1 for h in hs.complete if h.melds),
        "complete_with_kong_draw": sum(1 for h in hs.complete if h.kong_draw),
        "complete_fan_ge_2": fan2,
        "complete_can_win": wins,
        "peer_complete_agari": sum(agari.is_agari(c) for c in hs.peer_counts),
    }


# --------------------------------------------------------------------------------------
# The in-process measurements: each returns a checksum so that nothing is optimised away
# and so that the warm-up pass doubles as a sanity check.
# --------------------------------------------------------------------------------------


@dataclass
class Stats:
    arrangement_errors: list[str] = field(default_factory=list)
    peer_errors: dict[str, int] = field(default_factory=dict)


def ours_is_complete(data: list[tuple[Scorer, list[int]]]) -> Callable[[], int]:
    def run() -> int:
        ok = 0
        for s, c in data:
            if s.is_complete(c):
                ok += 1
        return ok

    return run


def peer_is_agari(data: list[list[int]]) -> Callable[[], int]:
    is_agari = Agari().is_agari

    def run() -> int:
        ok = 0
        for c in data:
            if is_agari(c):
                ok += 1
        return ok

    return run


def ours_evaluate(hs: HandSet) -> Callable[[], int]:
    data = hs.complete_ours

    def run() -> int:
        ok = 0
        for s, c, win, m, gold, kd in data:
            r = s.evaluate(c, win, m, gold, kd)
            if r is not None and s.can_win(r[0], r[1]):
                ok += 1
        return ok

    return run


def ours_score(hs: HandSet) -> Callable[[], int]:
    data = hs.complete_public

    def run() -> int:
        ok = 0
        for concealed, draw, ind, melds, kd in data:
            r = score(concealed, draw, ind, melds, kong_draw=kd)
            r.name  # noqa: B018 - the result as a caller reads it
            r.codes  # noqa: B018
            if r.win:
                ok += 1
        return ok

    return run


def ours_score_arrangement(hs: HandSet, stats: Stats) -> Callable[[], int]:
    data = hs.complete_public
    errors = stats.arrangement_errors

    def run() -> int:
        errors.clear()
        ok = 0
        for concealed, draw, ind, melds, kd in data:
            r = score(concealed, draw, ind, melds, kong_draw=kd)
            r.name  # noqa: B018
            r.codes  # noqa: B018
            try:
                a = r.arrangement
            except Exception as e:  # a scorer bug must not stop the benchmark; it is reported
                errors.append(f"{r.hand.describe()} indicator {r.hand.indicator}: {e!r}")
                continue
            if a is not None:
                ok += 1
        return ok

    return run


def ours_waits(hs: HandSet) -> Callable[[], int]:
    data = hs.waits_in

    def run() -> int:
        total = 0
        for concealed, ind, melds in data:
            total += len(waits(concealed, ind, melds).complete)
        return total

    return run


def peer_estimate(hs: HandSet, stats: Stats) -> Callable[[], int]:
    data = hs.peer_136
    estimate = HandCalculator().estimate_hand_value
    config = HandConfig(is_tsumo=True)
    errs = stats.peer_errors

    def run() -> int:
        errs.clear()
        ok = 0
        for tiles, win in data:
            r = estimate(tiles, win, config=config)
            if r.error is None:
                r.han  # noqa: B018
                r.fu  # noqa: B018
                r.yaku  # noqa: B018
                ok += 1
            else:
                errs[r.error] = errs.get(r.error, 0) + 1
        return ok

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


def count_instructions(cmd: list[str], input_path: Path) -> int | None:
    """Instructions one whole batch process executes (valgrind's callgrind), or None without valgrind.

    Unlike time, this does not move with the machine's load: a second opinion on the batch ratio.
    """
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    with open(input_path, "rb") as f:
        p = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd], stdin=f,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=1800)
    m = re.search(rb"Collected : (\d+)", p.stderr)
    return int(m.group(1)) if m else None


def run_batch(cmd: list[str], input_path: Path, n: int) -> tuple[float, dict[str, object]]:
    """Time one whole subprocess run (start-up included); check it answered every line."""
    with open(input_path, "rb") as f:
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdin=f, capture_output=True, timeout=300)
        dt = time.perf_counter() - t0
    lines = [ln for ln in p.stdout.decode("utf-8", "replace").splitlines() if ln.strip()]
    info: dict[str, object] = {"rc": p.returncode, "lines": len(lines)}
    if p.returncode != 0 or len(lines) != n:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        info["failure"] = f"exit status {p.returncode}, {len(lines)} output line(s) for {n} input lines" + (
            f"; stderr: {err[-1][:200]}" if err else ""
        )
        return dt, info
    ok = 0
    for ln in lines:
        try:
            d = json.loads(ln)
        except ValueError:
            continue
        if isinstance(d, dict) and "error" not in d:
            ok += 1
    info["ok"] = ok
    return dt, info


# --------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------


@dataclass
class Row:
    key: str
    label: str
    n: int
    ours: Callable[[], int] | None = None
    peer: Callable[[], int] | None = None
    target: float | None = None  # ours/peer must be at least this
    ours_t: float = float("inf")
    peer_t: float = float("inf")
    ours_check: int | None = None
    peer_check: int | None = None
    note: str = ""

    def hps(self, t: float) -> float | None:
        return self.n / t if t != float("inf") and t > 0 else None

    def result(self) -> dict[str, object]:
        o, p = self.hps(self.ours_t), self.hps(self.peer_t)
        ratio = o / p if o is not None and p is not None else None
        verdict = None
        if self.target is not None and ratio is not None:
            verdict = "PASS" if ratio >= self.target else "BELOW"
        return {
            "key": self.key,
            "measurement": self.label,
            "n": self.n,
            "ours_per_s": None if o is None else round(o, 1),
            "peer_per_s": None if p is None else round(p, 1),
            "ratio": None if ratio is None else round(ratio, 3),
            "target": self.target,
            "verdict": verdict,
            "ours_check": self.ours_check,
            "peer_check": self.peer_check,
            "note": self.note,
        }


def time_once(f: Callable[[], int]) -> tuple[float, int]:
    t0 = time.perf_counter()
    v = f()
    return time.perf_counter() - t0, v


def fmt_rate(x: object) -> str:
    return "—" if x is None else f"{x:,.0f}"


def print_table(results: list[dict[str, object]]) -> None:
    head = ("measurement", "ours /s", "peer /s", "ours/peer", "target")
    rows = []
    for r in results:
        ratio = "—" if r["ratio"] is None else f"{r['ratio']:.2f}×"
        target = "" if r["target"] is None else f"≥ {r['target']:g}×"
        if r["verdict"]:
            target += f"  {r['verdict']}"
        elif r["target"] is not None:
            target += "  (not measured)"
        rows.append((str(r["measurement"]), fmt_rate(r["ours_per_s"]), fmt_rate(r["peer_per_s"]), ratio, target))
    widths = [max(len(x[i]) for x in [head, *rows]) for i in range(5)]
    right = (False, True, True, True, False)

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right)).rstrip()

    print(line(head))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(line(row))


def machine() -> dict[str, object]:
    return _machine("mahjong")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=5000, help="hands per set (default 5000)")
    ap.add_argument("--seed", type=int, default=20261129, help="hand set seed (default 20261129)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per measurement; the best is kept (default 5)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON instead of the table")
    ap.add_argument(
        "--instructions", action="store_true",
        help="also count the CPU instructions of each batch process with valgrind (slow; noise-free)",
    )
    args = ap.parse_args(argv)
    n, repeat = max(1, args.n), max(1, args.repeat)
    say = (lambda *a, **k: print(*a, file=sys.stderr, **k)) if args.json else print

    t_start = time.perf_counter()
    mach = machine()
    hs = build(n, args.seed)
    comp = composition(hs)
    stats = Stats()

    estimate = peer_estimate(hs, stats)  # one peer measurement, shared by rows 2a, 2b, 2c
    rows = [
        Row(
            "complete_random",
            "completeness: random 14 tiles  (Scorer.is_complete | Agari.is_agari)",
            n,
            ours_is_complete(hs.random_ours),
            peer_is_agari(hs.random_counts),
            1.0,
        ),
        Row(
            "complete_complete",
            "completeness: complete hands   (Scorer.is_complete | Agari.is_agari)",
            n,
            ours_is_complete([(s, c) for s, c, *_ in hs.complete_ours]),
            peer_is_agari(hs.peer_counts),
            1.0,
        ),
        Row(
            "evaluate",
            "2a full scoring, bot API       (Scorer.evaluate+can_win | estimate_hand_value)",
            n,
            ours_evaluate(hs),
            estimate,
            5.0,
        ),
        Row(
            "score",
            "2b full scoring, checked API   (score()+name+codes | estimate_hand_value)",
            n,
            ours_score(hs),
            estimate,
            5.0,
        ),
        Row(
            "score_arrangement",
            "2c 2b + .arrangement           (| estimate_hand_value)",
            n,
            ours_score_arrangement(hs, stats),
            estimate,
        ),
        Row("waits", "3  waits() on 13 tiles         (no peer equivalent)", n, ours_waits(hs), None),
    ]
    batch = Row("batch", "4a JSON-lines batch, whole process (tjmj score --batch - | peer script)", n, target=2.0)
    batch_short = Row(
        "batch_no_arrangement", "4b 4a with --no-arrangement: the peer's fields  (| peer script)", n, target=2.0
    )

    # warm-up: one untimed pass of everything (fills the memoised per-suit tables, imports, caches)
    say(f"tjmj benchmark: {n} hands per set, seed {args.seed}, best of {repeat}; warming up …", flush=True)
    checks: dict[int, int] = {}
    for row in rows:
        for side in ("ours", "peer"):
            f = getattr(row, side)
            if f is None:
                continue
            if id(f) not in checks:
                checks[id(f)] = f()
            setattr(row, f"{side}_check", checks[id(f)])

    # Both commands should load compiled bytecode: pip compiles an installed package (the peer's)
    # at install time, but an editable install under PYTHONDONTWRITEBYTECODE=1 (set on some
    # machines, this one included) would recompile every tjmj module in every process.
    import tjmj

    compileall.compile_dir(Path(tjmj.__file__).parent, quiet=1)

    # batch inputs and a first (untimed) run of each command
    tmp = Path(tempfile.mkdtemp(prefix="tjmj-bench-"))
    ours_in = tmp / "ours.jsonl"
    peer_in = tmp / "peer.jsonl"
    peer_script = tmp / "peer_batch.py"
    ours_in.write_text("".join(json.dumps(h.to_batch(), ensure_ascii=False) + "\n" for h in hs.complete), "utf-8")
    peer_in.write_text("".join(json.dumps(h.to_batch(), ensure_ascii=False) + "\n" for h in hs.peer_complete), "utf-8")
    peer_script.write_text(PEER_BATCH_SCRIPT, "utf-8")
    empty_in = tmp / "empty.jsonl"  # for the start-up cost alone (interpreter, imports)
    empty_in.write_text("", "utf-8")
    startup = {"ours": float("inf"), "peer": float("inf")}
    ours_cmd = tjmj_command()
    short_cmd = [*ours_cmd, "--no-arrangement"] if ours_cmd else None
    peer_cmd = [sys.executable, str(peer_script)]
    batch_ok = False
    notes: list[str] = []
    if ours_cmd is None:
        batch.note = "skipped: no tjmj console script found next to this Python or on PATH"
    else:
        try:
            _, info = run_batch(ours_cmd, ours_in, n)
        except (OSError, subprocess.TimeoutExpired) as e:
            info = {"failure": repr(e)}
        if "failure" in info:
            batch.note = f"skipped: `{' '.join(ours_cmd[-3:])}` failed ({info['failure']})"
        else:
            batch_ok = True
            batch.ours_check = info.get("ok")  # type: ignore[assignment]
            _, sinfo = run_batch(short_cmd, ours_in, n)  # type: ignore[arg-type]
            batch_short.ours_check = sinfo.get("ok")  # type: ignore[assignment]
    _, pinfo = run_batch(peer_cmd, peer_in, n)
    if "failure" in pinfo:
        raise SystemExit(f"the peer batch script failed: {pinfo['failure']}")
    batch.peer_check = batch_short.peer_check = pinfo.get("ok")  # type: ignore[assignment]

    # timed runs, interleaved: in each repeat, every row's ours then peer (a peer function
    # shared by several rows is timed once per repeat, next to the first of them)
    best: dict[int, float] = {}
    for i in range(repeat):
        say(f"  run {i + 1}/{repeat} …", flush=True)
        timed: set[int] = set()
        for row in rows:
            for f in (row.ours, row.peer):
                if f is not None and id(f) not in timed:
                    timed.add(id(f))
                    best[id(f)] = min(best.get(id(f), float("inf")), time_once(f)[0])
        if batch_ok:
            batch.ours_t = min(batch.ours_t, run_batch(ours_cmd, ours_in, n)[0])  # type: ignore[arg-type]
            batch_short.ours_t = min(batch_short.ours_t, run_batch(short_cmd, ours_in, n)[0])  # type: ignore[arg-type]
            startup["ours"] = min(startup["ours"], run_batch(ours_cmd, empty_in, 0)[0])  # type: ignore[arg-type]
        batch.peer_t = min(batch.peer_t, run_batch(peer_cmd, peer_in, n)[0])
        batch_short.peer_t = batch.peer_t  # one peer figure for both rows
        startup["peer"] = min(startup["peer"], run_batch(peer_cmd, empty_in, 0)[0])
    instructions: dict[str, int | None] = {}
    if args.instructions and batch_ok:
        say("  counting instructions with valgrind (a minute or two) …", flush=True)
        instructions = {
            "4a": count_instructions(ours_cmd, ours_in),  # type: ignore[arg-type]
            "4b": count_instructions(short_cmd, ours_in),  # type: ignore[arg-type]
            "peer": count_instructions(peer_cmd, peer_in),
        }
        if None in instructions.values():
            notes.append("instructions: valgrind is not installed (apt-get install valgrind) or did not report")
        else:
            peer_i = instructions["peer"]
            notes.append(
                "instructions per whole batch process (valgrind): "
                + ", ".join(f"{k} {v / 1e6:,.0f} M ({peer_i / v:.2f}x fewer than the peer)"  # type: ignore[operator]
                            for k, v in instructions.items() if k != "peer")
                + f", peer {peer_i / 1e6:,.0f} M"  # type: ignore[operator]
            )
    shutil.rmtree(tmp, ignore_errors=True)
    for row in rows:
        if row.ours is not None:
            row.ours_t = best[id(row.ours)]
        if row.peer is not None:
            row.peer_t = best[id(row.peer)]

    if stats.arrangement_errors:
        notes.append(
            f"2c: .arrangement raised for {len(stats.arrangement_errors)} of {n} complete hands (skipped in the loop;"
            f" a tjmj.families.tianjin.arrange bug), first: {stats.arrangement_errors[0]}"
        )
    if stats.peer_errors:
        notes.append(f"estimate_hand_value errors: {stats.peer_errors}")
    if batch.note:
        notes.append(f"4: {batch.note}")
    startup_s = {k: (None if v == float("inf") else round(v, 3)) for k, v in startup.items()}
    if batch_ok:
        notes.append(
            f"4: process start-up on empty input: tjmj {startup_s['ours']:.2f} s, peer script {startup_s['peer']:.2f} s"
            f" (included above); 4a answers with the arrangement on every line (about 690 bytes a line, the"
            f" peer script about 55), 4b with the peer's kind of answer (verdict, fan, elements, name)"
        )
    results = [r.result() for r in [*rows, batch, batch_short]]
    elapsed = time.perf_counter() - t_start

    if args.json:
        print(
            json.dumps(
                {
                    "machine": mach,
                    "n": n,
                    "seed": args.seed,
                    "repeat": repeat,
                    "composition": comp,
                    "results": results,
                    "batch_startup_s": startup_s,
                    "batch_instructions": instructions,
                    "arrangement_errors": stats.arrangement_errors,
                    "notes": notes,
                    "elapsed_s": round(elapsed, 1),
                },
                ensure_ascii=False,
                indent=2,
            )
        )
        return 0

    m = mach
    print()
    print(f"machine: {m['platform']}, {m['processor']}, {m['cpu_count']} CPUs, load {m['loadavg_at_start']}")
    print(f"python:  {m['python']}; tjmj {m['tjmj']}, mahjong {m['mahjong']}")
    print(f"hands:   {n} per set, seed {args.seed}, best of {repeat} interleaved runs after one warm-up pass")
    c = comp
    print(
        f"  random 14-tile hands: {c['random_complete_tjmj']} complete with wilds (tjmj),"
        f" {c['random_agari_mahjong']} agari without (mahjong)"
    )
    print(
        f"  tjmj complete hands:  {c['complete_with_wilds']} with wilds (0/1/2/3/4+ wild tiles:"
        f" {'/'.join(map(str, c['complete_wild_histogram']))}), {c['complete_with_melds']} with a meld,"
        f" {c['complete_with_kong_draw']} kong draws; {c['complete_fan_ge_2']} score ≥ 2 fan,"
        f" {c['complete_can_win']} may win (min_fan)"
    )
    print(
        f"  peer complete hands:  no wilds, no melds, closed tsumo; {c['peer_complete_agari']} agari,"
        f" {batch.peer_check if batch.peer_check is not None else '?'} scored without error in the batch,"
        f" {rows[2].peer_check} in process"
    )
    print()
    print_table(results)
    if notes:
        print()
        for note in notes:
            print(f"note: {note}")
    print(f"\n(total {elapsed:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
