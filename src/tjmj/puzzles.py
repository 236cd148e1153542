"""Practice puzzles: "what would you discard?" positions from self-play, each judged twice.

A puzzle is a turn of one seat in a self-play match of ``strong`` bots, with at least
``MIN_DISCARDS`` distinct discards, kept only when its answer is clear:

* the family's advisor (:func:`tjmj.web.hints.hint`: shanten, improving tiles, the chance of a legal
  win and its expected fan or points) ranks every discard; the position is searched only when the
  advisor's first is ahead of its second (:func:`_advisor_separates`);
* the expert search (:mod:`tjmj.bots.expert`, as :mod:`tjmj.review` uses it: paired worlds dealt
  from what the seat cannot see, every candidate played out in each) plays the advisor's top
  ``SEARCHED`` discards in ``ROUNDS`` worlds, the advisor's first as the reference;
* the position is kept when the advisor's first beats **every** other searched discard by more than
  ``MARGIN_Z`` standard errors of the paired gain, over at least ``MIN_WORLDS`` worlds (``margin_holds``).

The puzzle holds what the seat sees (:meth:`tjmj.game.Match.observation` only: its hand, every
seat's melds and discards, the indicator and wilds, the winds) and the answer: the best discard,
every discard's advisor figures and searched gain, and the explanation in English and Chinese.

``python -m tjmj.puzzles build --family F --count N --seed S --out FILE`` generates a set (slow: a
few seconds a position); the shipped set is ``tjmj/puzzles.json`` (:func:`load`), made by the
command in docs/practice.md.  :func:`daily` picks the day's puzzle from the UTC date.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import random
import sys
import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import families
from .bots import make_bot
from .game import Action, Match

__all__ = ["MARGIN_Z", "MIN_WORLDS", "ROUNDS", "SEARCHED", "MIN_DISCARDS", "build", "load", "puzzles",
           "by_id", "daily", "verdict", "margin_holds"]

MARGIN_Z = 3.0  # the best discard's paired gain over every other searched one: more than this many standard errors
MIN_WORLDS = 24  # ... over at least this many worlds
ROUNDS = 64  # worlds searched per position
SEARCHED = 4  # the advisor's top discards the search plays
MIN_DISCARDS = 3  # distinct discards a position must offer
DATA = Path(__file__).with_name("puzzles.json")
WINDS = ("E", "S", "W", "N")
WINDS_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}


def _tile(a: Action) -> str:
    return str(a).split()[1]


def _advisor_separates(h: list[dict[str, Any]]) -> bool:
    """Whether the advisor's first discard is ahead of its second: closer to a ready hand that can
    win, or as close with clearly (a quarter) more expected value or more improving tiles."""
    if len(h) < 2:
        return False
    a, b = h[0], h[1]
    sa, sb = a.get("legal_shanten", a["shanten"]), b.get("legal_shanten", b["shanten"])
    if sa is not None and sb is not None and sa < sb:
        return True
    if a["shanten"] < b["shanten"]:
        return True
    if "expected" in a and "expected" in b:
        return bool(a["expected"] > 0 and a["expected"] >= 1.25 * b["expected"])
    return bool(a["shanten"] == b["shanten"] and a.get("improving", 0) >= b.get("improving", 0) + 4)


def margin_holds(p: dict[str, Any]) -> bool:
    """The stored figures of a puzzle show the margin: the best's paired gain over each other
    searched discard exceeds ``MARGIN_Z`` standard errors over ≥ ``MIN_WORLDS`` worlds, and the best
    is the advisor's first."""
    if p["worlds"] < MIN_WORLDS:
        return False
    best = next(o for o in p["options"] if o["tile"] == p["best"])
    if best["rank"] != 1:
        return False
    return all(o["loss"] > MARGIN_Z * o["se"] for o in p["options"] if o["searched"] and o["tile"] != p["best"])


def _seat_view(obs: dict[str, Any], m: Match, seat: int) -> dict[str, Any]:
    """The puzzle's table: only what ``obs`` (the seat's observation) shows."""
    order = [(seat + k) % 4 for k in range(4)]  # the seat itself, then right, across, left
    names = ("you", "right", "across", "left")
    winds = obs.get("seat_winds") or [WINDS[(s - obs["dealer"]) % 4] for s in range(4)]
    seats = [{"who": names[k], "wind": winds[s], "discards": list(obs["seats"][s]["discards"]),
              "melds": list(obs["seats"][s]["melds"]), "flowers": list(obs["seats"][s].get("flowers", []))}
             for k, s in enumerate(order)]
    view: dict[str, Any] = {"hand": sorted(obs["hand"], key=_order), "drawn": obs.get("drawn"),
                            "melds": list(obs["seats"][seat]["melds"]), "seat_wind": winds[seat],
                            "dealer": obs["dealer"] == seat, "wall_left": obs.get("wall_left"), "seats": seats}
    if obs.get("indicator"):
        view["indicator"] = obs["indicator"]
    if obs.get("wilds"):
        view["wilds"] = list(obs["wilds"])
    if obs.get("prevalent_wind"):
        view["prevalent_wind"] = obs["prevalent_wind"]
    return view


def _order(t: str) -> tuple[int, int]:
    return ("mpsz".index(t[1]) if t[1] in "mpsz" else 4, int(t[0]))


def _explain(best: dict[str, Any], second: dict[str, Any], unit: str, unit_zh: str) -> tuple[str, str]:
    en = (f"Discard {best['tile']}: {best['summary']}. The next best, {second['tile']}: {second['summary']}"
          + (f"; in {second['worlds']} simulated deals it scored {second['loss']:.2f} ± {second['se']:.2f} {unit} less"
             if second["searched"] else "") + ".")
    zh = (f"打{best['tile']}：{best['summary_zh']}。其次打{second['tile']}：{second['summary_zh']}"
          + (f"；{second['worlds']} 次模拟中平均少 {second['loss']:.2f} ± {second['se']:.2f} {unit_zh}"
             if second["searched"] else "") + "。")
    return en, zh


def judge(m: Match, seat: int, rng: random.Random, rounds: int = ROUNDS) -> dict[str, Any] | None:
    """The puzzle of ``seat``'s turn in ``m`` now, or None when its answer is not clear."""
    from .bots.expert import ExpertBot
    from .web.hints import hint

    legal = m.legal_actions(seat)
    discards = {_tile(a): a for a in legal if a.type == "discard"}
    if len(discards) < MIN_DISCARDS or any(a.type in ("win", "hungang", "hunyou") for a in legal):
        return None
    h = [e for e in hint(m, seat) if e["tile"] in discards]
    if not _advisor_separates(h):
        return None
    cands = [discards[e["tile"]] for e in h[:SEARCHED]]
    bot = ExpertBot(rollouts=rounds)
    bot.race = False
    bot.credit = 0.0
    found = bot._evaluate(m, seat, cands, rng, time.perf_counter())
    options = []
    for e in h:
        i = next((k for k, a in enumerate(cands) if _tile(a) == e["tile"]), None)
        o: dict[str, Any] = {k: e[k] for k in ("tile", "rank", "shanten", "improving", "win_chance", "expected",
                                                "summary", "summary_zh", "legal_shanten") if k in e}
        o["rank"] = e.get("rank", h.index(e) + 1)
        o["searched"] = i is not None
        if i is not None:
            gain, se = found.gain(i)
            o.update(mean=round(found.mean(i), 3), loss=round(-gain, 3), se=round(se, 3), worlds=found.counts[i])
        options.append(o)
    puzzle = {"best": h[0]["tile"], "worlds": found.rounds, "options": options}
    if not margin_holds(puzzle):
        return None
    puzzle["explanation"], puzzle["explanation_zh"] = _explain(options[0], options[1], "points", "分")
    puzzle["legal"] = sorted(discards, key=_order)
    return puzzle


def build(family: str, count: int, seed: int, *, rounds: int = ROUNDS, every: int = 3,
          log: Any = None, each: Any = None, start: int = 0) -> list[dict[str, Any]]:
    """``count`` puzzles of ``family`` (its default preset) from self-play of ``strong`` bots, seeded
    by ``seed``: one hand a match, every ``every``-th turn decision with enough discards judged;
    ``each(puzzles so far)`` after each one found (the command writes its file then); ids are
    numbered from ``start + 1`` (``family-NNN``)."""
    fam = families.get(family)
    rules = fam.default_rules
    out: list[dict[str, Any]] = []
    rng = random.Random(seed)
    game = 0
    while len(out) < count:
        mseed = seed * 1000 + game
        game += 1
        m = fam.match_type(rules, mseed, names=["strong"] * 4)
        bots = [make_bot("strong") for _ in range(4)]
        brng = random.Random(mseed)
        turns = 0
        while not m.is_over and m.hand_number == 0 and len(out) < count:
            s = m.to_act
            legal = m.legal_actions(s)
            if m.phase == "turn" and len({a for a in legal if a.type == "discard"}) >= MIN_DISCARDS:
                turns += 1
                if turns % every == 0:
                    p = judge(m, s, random.Random(rng.getrandbits(64)), rounds)
                    if p is not None:
                        obs = m.observation(s)
                        p = {"id": f"{family}-{start + len(out) + 1:03d}", "family": family, "preset": rules.to_dict()["preset"],
                             "source": {"seed": mseed, "turn": turns}, **_seat_view(obs, m, s), **p}
                        out.append(p)
                        if log is not None:
                            print(f"{p['id']}: {p['best']} (seed {mseed})", file=log, flush=True)
                        if each is not None:
                            each(out)
            m.apply(s, bots[s].choose(m.observation(s), legal, brng))
    return out


@lru_cache(maxsize=1)
def _all() -> tuple[dict[str, Any], ...]:
    if not DATA.exists():
        return ()
    return tuple(json.loads(DATA.read_text(encoding="utf-8")))


def load() -> list[dict[str, Any]]:
    """Every shipped puzzle."""
    return list(_all())


def puzzles(family: str | None = None) -> list[dict[str, Any]]:
    """The shipped puzzles of ``family`` (all when None), in id order."""
    return [p for p in _all() if family is None or p["family"] == family]


def by_id(pid: str) -> dict[str, Any] | None:
    return next((p for p in _all() if p["id"] == pid), None)


def daily(family: str, day: dt.date) -> dict[str, Any] | None:
    """The day's puzzle of ``family``: the same for everyone on a UTC date (a hash of the date and
    the family picks it, so consecutive days do not walk the list in order)."""
    ps = puzzles(family)
    if not ps:
        return None
    h = hashlib.sha256(f"{family}:{day.isoformat()}".encode()).digest()
    return ps[int.from_bytes(h[:8], "big") % len(ps)]


def verdict(p: dict[str, Any], tile: str) -> dict[str, Any]:
    """The answer to puzzle ``p`` with ``tile`` discarded: right or wrong, the best, the explanation
    and every discard's figures (the server's verdict: the client is never trusted)."""
    return {"id": p["id"], "tile": tile, "correct": tile == p["best"], "legal": tile in p["legal"],
            "best": p["best"], "explanation": p["explanation"], "explanation_zh": p["explanation_zh"],
            "options": p["options"], "worlds": p["worlds"]}


def public(p: dict[str, Any]) -> dict[str, Any]:
    """A puzzle without its answer (the page asks the verdict after a tap), and without its source:
    the match seed would tell the tiles the seat could not see."""
    return {k: v for k, v in p.items()
            if k not in ("best", "options", "explanation", "explanation_zh", "worlds", "source")}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tjmj.puzzles")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="generate puzzles from self-play")
    b.add_argument("--family", required=True)
    b.add_argument("--count", type=int, default=30)
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--rounds", type=int, default=ROUNDS)
    b.add_argument("--out", required=True,
                   help="a JSON file (a list of puzzles); if it exists, the new puzzles are added after its own")
    args = ap.parse_args(argv)
    out = Path(args.out)
    old = json.loads(out.read_text(encoding="utf-8")) if out.exists() else []

    known = {(p["family"], p["source"]["seed"], p["source"]["turn"]) for p in old}

    def write(made: list[dict[str, Any]]) -> None:  # after each puzzle: a long run stopped keeps what it found
        new = [p for p in made if (p["family"], p["source"]["seed"], p["source"]["turn"]) not in known]
        merged = sorted(old + new, key=lambda p: (p["family"], p["id"]))
        out.write_text(json.dumps(merged, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")

    start = sum(p["family"] == args.family for p in old)
    made = build(args.family, args.count, args.seed, rounds=args.rounds, log=sys.stderr, each=write, start=start)
    write(made)
    print(f"{len(made)} puzzles of {args.family} written to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
