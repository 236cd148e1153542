#!/usr/bin/env python3
"""A tiny outside bot for tjmj: the starting point for writing your own (docs/bot-protocol.md).

Standard library only.  It reads one JSON object per line on stdin and, for every ``request``,
writes one ``action`` line on stdout (and flushes).  Its play:

* win whenever ``win`` is legal;
* take a concealed or added kong when it can (kongs score, R6); claim a kong on a discard;
* never sit or pull (坐庄/拉庄 raise the stakes), never pon;
* otherwise discard the most isolated tile: an honour with no pair first, then a suited tile with
  no neighbours, and never a wild (混儿) unless only wilds are left.

Try it:  tjmj tournament --bots "cmd:python examples/bots/simple_bot.py",baseline,baseline,baseline --hands 40
Debug with print(..., file=sys.stderr): stdout is the protocol.
"""

from __future__ import annotations

import json
import sys
from collections import Counter


def isolation(tile: str, counts: Counter[str]) -> int:
    """How useful a tile is to the hand: higher = more connected (pairs, runs); lower = discard first."""
    num, suit = tile[:-1], tile[-1]
    score = 4 * (counts[tile] - 1)  # pairs and triplets
    if suit == "z":
        return score
    n = int(num)
    for d, w in ((1, 3), (2, 1)):
        for m in (n - d, n + d):
            if 1 <= m <= 9 and counts[f"{m}{suit}"]:
                score += w
    if n in (1, 9):
        score -= 1  # terminals make fewer runs
    return score


def choose(legal: list[str], obs: dict) -> str:
    if "win" in legal:
        return "win"
    for kind in ("ankong", "added_kong", "kong"):
        for a in legal:
            if a.split()[0] == kind:
                return a
    for kind in ("sit 0", "pull 0"):
        if kind in legal:
            return kind
    if "pass" in legal:
        return "pass"
    discards = [a for a in legal if a.startswith("discard ")]
    if not discards:
        return legal[0]
    wilds = set(obs.get("wilds") or [])
    hand = [t for t in obs.get("hand") or [] if t not in wilds]
    counts = Counter(hand)
    plain = [a for a in discards if a.split()[1] not in wilds] or discards
    return min(plain, key=lambda a: (isolation(a.split()[1], counts), a.split()[1][-1] != "z", a))


def main() -> None:
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        kind = msg.get("type")
        if kind == "request":
            action = choose(msg["legal"], msg.get("observation") or {})
            sys.stdout.write(json.dumps({"type": "action", "id": msg.get("id"), "action": action}) + "\n")
            sys.stdout.flush()
        elif kind == "end":
            break
        # hello and the game events (start_kyoku, tsumo, dahai, ...) need no answer


if __name__ == "__main__":
    main()
