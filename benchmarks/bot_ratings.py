"""The fixed ratings of the lobby's bot levels, measured by rated matches (docs/web.md, "Ratings and
the leaderboard").

Run from the repository root::

    .venv/bin/python benchmarks/bot_ratings.py [--families tianjin,beijing,mcr] [--matches N]
        [--match-hands H] [--seed S] [--workers W] [--out src/tjmj/bot_ratings.json]

For each family, every level of the lobby (``tjmj.web.inputs.LEVELS``: easy ``greedy``, normal
``baseline``, hard ``strong``, expert ``expert``) starts from the default rating
(:data:`tjmj.ratings.DEFAULT`) and plays ``N`` matches of ``H`` hands, one seat each at every table
(the engine seats them from each match's seed, R3, so every level sits in every seat over the
run).  The matches are rated with :func:`tjmj.ratings.rate` one after another, exactly as ranked
matches of people are; as an online rating depends on the order (the last matches weigh most),
they are rated in the order played and in ``--orders`` − 1 seeded shuffles of it, and each
level's ``mu`` and ``sigma`` are the means over those orders (``mu_spread``: their standard
deviation).  The result goes to the package's ``bot_ratings.json`` (the other families' entries
are kept), with the number of matches, their length, the seed, each level's mean final score and
first places, and every match's bots and scores (to rate them again without playing).  The server then uses them as fixed ratings: a bot's rating
never moves in a ranked match (:func:`tjmj.ratings.bot_rating`).

Matches are played in ``W`` processes (their results do not depend on the process) and rated in
the order of their seeds, so the same arguments give the same file.  A manual tool, never a test.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from tjmj.ratings import BOT_RATINGS_FILE, DEFAULT, Rating, ranks, rate
from tjmj.rules import Rules
from tjmj.simulate import match_seed, play_match
from tjmj.web.inputs import LEVELS

OUT = Path(__file__).resolve().parent.parent / "src" / "tjmj" / BOT_RATINGS_FILE
PRESETS = {"tianjin": "classic", "beijing": "beijing", "mcr": "mcr"}


def _play(task: tuple[str, int, int, int]) -> tuple[list[int], list[str]]:
    """One match: (final scores, the bot of each seat)."""
    family, hands, seed, index = task
    rules = Rules.preset(PRESETS[family]).replace(match_hands=hands)
    bots = list(LEVELS.values())
    bots = bots[index % len(bots):] + bots[:index % len(bots)]  # player order rotated (seats: R3)
    m = play_match(rules, seed, bots)
    return list(m.scores), [bots[m.seating[s]] for s in range(len(bots))]


def rate_in_order(results: list[tuple[list[int], list[str]]], order: list[int]) -> dict[str, Rating]:
    """Every level's rating after the matches rated one after another in ``order``."""
    ratings: dict[str, Rating] = dict.fromkeys(LEVELS.values(), DEFAULT)
    for i in order:
        scores, bots = results[i]
        for b, r in zip(bots, rate([ratings[b] for b in bots], scores), strict=True):
            ratings[b] = r
    return ratings


def measure(family: str, matches: int, hands: int, seed: int, workers: int, orders: int) -> dict[str, Any]:
    tasks = [(family, hands, match_seed(seed, i), i) for i in range(matches)]
    started = time.monotonic()
    results: list[tuple[list[int], list[str]]] = []
    with multiprocessing.Pool(workers) as pool:
        for scores, bots in pool.imap(_play, tasks):
            results.append((scores, bots))
            now = rate_in_order(results, list(range(len(results))))
            print(f"{family} {len(results)}/{matches} ({time.monotonic() - started:.0f} s): "
                  + ", ".join(f"{b} {r.display}" for b, r in now.items()), file=sys.stderr)
    # an online rating depends on the order of the matches (the last ones weigh most): the ratings
    # reached in the order played and in orders - 1 shuffles of it (seeded), averaged
    rng = random.Random(seed)
    runs = []
    for k in range(orders):
        order = list(range(matches))
        if k:
            rng.shuffle(order)
        runs.append(rate_in_order(results, order))
    mean = {b: Rating(statistics.fmean(r[b].mu for r in runs), statistics.fmean(r[b].sigma for r in runs))
            for b in LEVELS.values()}
    points = {b: sum(sc[bots.index(b)] for sc, bots in results) for b in LEVELS.values()}
    firsts = {b: sum(ranks(sc)[bots.index(b)] == 1 for sc, bots in results) for b in LEVELS.values()}
    return {
        "matches": matches, "match_hands": hands, "seed": seed, "preset": PRESETS[family], "orders": orders,
        "seconds": round(time.monotonic() - started),
        "bots": {b: {"level": level, "mu": round(mean[b].mu, 4), "sigma": round(mean[b].sigma, 4),
                     "rating": mean[b].display, "mu_spread": round(statistics.pstdev(r[b].mu for r in runs), 4),
                     "mean_points": round(points[b] / matches, 2), "firsts": firsts[b]}
                 for level, b in LEVELS.items()},
        # each match: its seats' bots and final scores (seat order), to rate again without playing
        "results": [[bots, scores] for scores, bots in results],
    }


def _dumps(data: dict[str, Any]) -> str:
    """Indented JSON with each innermost list (a match's bots, its scores) on one line."""
    text = json.dumps(data, indent=1, sort_keys=True)
    return re.sub(r"\[\s*([^\[\]{}]*?)\s*\]", lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]",
                  text) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--families", default=",".join(PRESETS))
    ap.add_argument("--matches", type=int, default=80)
    ap.add_argument("--match-hands", type=int, default=4)
    ap.add_argument("--seed", type=int, default=20261207)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--orders", type=int, default=100, help="orders the matches are rated in, averaged")
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args()
    data: dict[str, Any] = json.loads(a.out.read_text()) if a.out.exists() else {}
    data.setdefault("families", {})
    data["about"] = ("fixed ratings of the lobby's bot levels (tjmj.ratings, openskill Plackett-Luce), measured "
                     "by benchmarks/bot_ratings.py: one seat of each level at every table")
    for family in a.families.split(","):
        data["families"][family] = measure(family, a.matches, a.match_hands, a.seed, a.workers, a.orders)
        a.out.write_text(_dumps(data))  # each family as it is done
        print(json.dumps(data["families"][family]["bots"]))


if __name__ == "__main__":
    main()
