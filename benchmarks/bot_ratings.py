"""The fixed ratings of the lobby's bot levels, measured by rated matches (docs/web.md, "Ratings and
the leaderboard").

Run from the repository root::

    .venv/bin/python benchmarks/bot_ratings.py [--families tianjin,beijing,mcr] [--matches N]
        [--match-hands H] [--seed S] [--workers W] [--out src/tjmj/bot_ratings.json]

For each family, every level of the lobby (``tjmj.web.inputs.LEVELS``: easy ``greedy``, normal
``baseline``, hard ``strong``, expert ``expert``) starts from the default rating
(:data:`tjmj.ratings.DEFAULT`) and plays ``N`` matches of ``H`` hands, one seat each at every table
(the engine seats them from each match's seed, R3, so every level sits in every seat over the
run).  Each match is rated with :func:`tjmj.ratings.rate`, in order, exactly as a ranked match of
people is; the ratings reached are written to the package's ``bot_ratings.json`` (the other
families' entries are kept), with the number of matches, their length, the seed and each level's
mean final score and first places.  The server then uses them as fixed ratings: a bot's rating
never moves in a ranked match (:func:`tjmj.ratings.bot_rating`).

Matches are played in ``W`` processes (their results do not depend on the process) and rated in
the order of their seeds, so the same arguments give the same file.  A manual tool, never a test.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
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


def measure(family: str, matches: int, hands: int, seed: int, workers: int) -> dict[str, Any]:
    ratings: dict[str, Rating] = dict.fromkeys(LEVELS.values(), DEFAULT)
    points: dict[str, int] = dict.fromkeys(LEVELS.values(), 0)
    firsts: dict[str, int] = dict.fromkeys(LEVELS.values(), 0)
    tasks = [(family, hands, match_seed(seed, i), i) for i in range(matches)]
    started = time.monotonic()
    with multiprocessing.Pool(workers) as pool:
        for i, (scores, bots) in enumerate(pool.imap(_play, tasks)):
            after = rate([ratings[b] for b in bots], scores)
            for seat, (b, r) in enumerate(zip(bots, after, strict=True)):
                ratings[b] = r
                points[b] += scores[seat]
                firsts[b] += ranks(scores)[seat] == 1
            print(f"{family} {i + 1}/{matches} ({time.monotonic() - started:.0f} s): "
                  + ", ".join(f"{b} {r.display}" for b, r in ratings.items()), file=sys.stderr)
    return {
        "matches": matches, "match_hands": hands, "seed": seed, "preset": PRESETS[family],
        "seconds": round(time.monotonic() - started),
        "bots": {b: {"level": level, "mu": round(ratings[b].mu, 4), "sigma": round(ratings[b].sigma, 4),
                     "rating": ratings[b].display, "mean_points": round(points[b] / matches, 2),
                     "firsts": firsts[b]}
                 for level, b in LEVELS.items()},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--families", default=",".join(PRESETS))
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--match-hands", type=int, default=4)
    ap.add_argument("--seed", type=int, default=20261207)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args()
    data: dict[str, Any] = json.loads(a.out.read_text()) if a.out.exists() else {}
    data.setdefault("families", {})
    data["about"] = ("fixed ratings of the lobby's bot levels (tjmj.ratings, openskill Plackett-Luce), measured "
                     "by benchmarks/bot_ratings.py: one seat of each level at every table")
    for family in a.families.split(","):
        data["families"][family] = measure(family, a.matches, a.match_hands, a.seed, a.workers)
        a.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")  # each family as it is done
        print(json.dumps(data["families"][family]["bots"]))


if __name__ == "__main__":
    main()
