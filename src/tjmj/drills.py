"""Fan-counting drills: a winning hand from self-play; the player counts its fan.

Each drill is one line of the calculator's batch format (docs/cli.md, "Batch"): the hand, the
winning tile, the indicator, the melds and the flags of a win of ``strong`` self-play, so its
answer is exactly what ``POST /api/score`` (:func:`tjmj.jsonlines.batch_answer`) gives for it: the
fan and every element, explained.  Tianjin's wins for now (its line is the win event's own fields).

``python -m tjmj.drills build --family F --count N --seed S --out FILE`` makes a set; the shipped one is
``tjmj/drills.json`` (:func:`load`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson

from . import families
from .jsonlines import RulesCache, batch_answer
from .meld import Meld
from .simulate import play_match

__all__ = ["DATA", "answer", "build", "by_id", "drills", "line_of"]

DATA = Path(__file__).with_name("drills.json")
MAX_MATCHES = 500  # a build stops after this many matches, whatever it found


def line_of(hora: dict[str, Any], indicator: str, preset: str) -> dict[str, Any]:
    """The batch line of a Tianjin win event (``hora``) under its hand's indicator."""
    return {"hand": "".join(hora["hand"]), "draw": hora["pai"], "indicator": indicator,
            "melds": [Meld.parse(m).to_dict() for m in hora["melds"]], "kong_draw": bool(hora["kong_draw"]),
            "tianhu": bool(hora["tianhu"]), "ruleset": preset}


def answer(line: dict[str, Any]) -> dict[str, Any]:
    """What ``POST /api/score`` answers for the line (the batch's answer, as plain JSON)."""
    raw = batch_answer((json.dumps(line) + "\n").encode(), RulesCache(), True)
    return orjson.loads(orjson.dumps(raw))  # type: ignore[no-any-return]  # (orjson fragments made plain)


def build(count: int, seed: int, family: str) -> list[dict[str, Any]]:
    """``count`` drills of ``family`` from the wins of ``strong`` self-play matches seeded from
    ``seed``: each distinct hand once, only lines the batch scores as a win with the fan the engine
    recorded (a family whose win event lacks some of its line's keys gets none)."""
    rules = families.get(family).default_rules
    preset = rules.to_dict()["preset"]
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    k = 0
    while len(out) < count and k < MAX_MATCHES:
        m = play_match(rules, seed * 1000 + k, ["strong"] * 4)
        k += 1
        indicator = None
        for e in m.events:
            if e["type"] == "start_kyoku":
                indicator = e.get("dora_marker")
            if e["type"] != "hora" or indicator is None or len(out) >= count:
                continue
            line = line_of(e, indicator, preset)
            key = json.dumps(line, sort_keys=True)
            a = answer(line)
            if key in seen or "error" in a or a.get("fan") != e.get("fan") or not a.get("win"):
                continue
            seen.add(key)
            out.append({"id": f"{family}-fan-{len(out) + 1:03d}", "family": family, "line": line})
    return out


@lru_cache(maxsize=1)
def _all() -> tuple[dict[str, Any], ...]:
    return tuple(json.loads(DATA.read_text(encoding="utf-8"))) if DATA.exists() else ()


def drills(family: str | None = None) -> list[dict[str, Any]]:
    return [d for d in _all() if family is None or d["family"] == family]


def by_id(did: str) -> dict[str, Any] | None:
    return next((d for d in _all() if d["id"] == did), None)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tjmj.drills")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="winning hands from self-play")
    b.add_argument("--family", default=families.default().name)
    b.add_argument("--count", type=int, default=30)
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    made = build(args.count, args.seed, args.family)
    Path(args.out).write_text(json.dumps(made, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{len(made)} drills written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
