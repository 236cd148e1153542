#!/usr/bin/env python3
"""A tiny outside bot for tjmj: the starting point for writing your own (docs/bot-protocol.md).

Standard library only.  It reads one JSON object per line on stdin and, for every ``request``,
writes one ``action`` line on stdout (and flushes).  Its play:

* win whenever ``win`` is legal (on its turn, on a discard, robbing a kong), and 混杠 (Beijing);
* take a concealed or added kong when it can (kongs score, R6); claim a kong on a discard;
* never sit or pull (坐庄/拉庄 raise the stakes), never pon or chi, never 混儿悠;
* otherwise discard the most isolated tile: an honour with no pair first, then a suited tile with
  no neighbours, and never a wild (混儿) unless only wilds are left.

When its own play cannot decide (an observation it does not understand, an error in ``choose``),
it falls back on ``safe``: pass, ``sit 0``/``pull 0``, the drawn tile if it is not a wild, the most
isolated non-wild tile — never a kong, a win or a wild discard while a plain choice exists.  It
plays both rule families: a Beijing observation has an ``upstairs`` field.
Remember that ``hand`` includes the drawn tile and that ``drawn`` is null on the dealer's first turn
and after a pon (docs/bot-protocol.md).

Try it:  tjmj tournament --bots "cmd:python3 examples/bots/simple_bot.py",baseline,baseline,baseline --hands 40
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


def most_isolated(discards: list[str], obs: dict) -> str:
    """The discard of the least connected tile (wilds do not count as neighbours); honours first on a tie."""
    wilds = set(obs.get("wilds") or [])
    counts = Counter(t for t in obs.get("hand") or [] if t not in wilds)
    return min(discards, key=lambda a: (isolation(a.split()[1], counts), a.split()[1][-1] != "z", a))


def safe(legal: list[str], obs: dict) -> str:
    """The fallback: never a kong, a win, a sit/pull above 0 or a wild discard while a plain choice exists."""
    for plain in ("pass", "sit 0", "pull 0"):
        if plain in legal:
            return plain
    wilds = set(obs.get("wilds") or [])
    discards = [a for a in legal if a.startswith("discard ") and a.split()[1] not in wilds]
    drawn = obs.get("drawn")  # null on the dealer's first turn and after a pon
    if drawn is not None and drawn not in wilds and f"discard {drawn}" in discards:
        return f"discard {drawn}"
    if discards:
        return most_isolated(discards, obs)
    if "upstairs" in obs:  # Beijing: a wild discard costs nothing (B2), a win or kong is not a fallback
        for a in legal:
            if a.startswith("discard "):
                return a
    return legal[0]  # every discard is a wild: nothing plain is left


def choose(legal: list[str], obs: dict) -> str:
    for win in ("hungang", "win"):  # Beijing's 混杠 (four wilds) is a flat 40: better than most wins
        if win in legal:
            return win
    for kind in ("ankong", "added_kong", "kong"):
        for a in legal:
            if a.split()[0] == kind:
                return a
    for kind in ("sit 0", "pull 0"):
        if kind in legal:
            return kind
    if "pass" in legal:
        return "pass"
    wilds = set(obs.get("wilds") or [])
    plain = [a for a in legal if a.startswith("discard ") and a.split()[1] not in wilds]
    if not plain:
        return safe(legal, obs)
    return most_isolated(plain, obs)


def main() -> None:
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        kind = msg.get("type")
        if kind == "request":
            legal, obs = msg["legal"], msg.get("observation") or {}
            try:
                action = choose(legal, obs)
            except Exception:  # noqa: BLE001 - a bot bug must not cost the answer: play safe
                action = safe(legal, obs)
            if action not in legal:
                action = safe(legal, obs)
            sys.stdout.write(json.dumps({"type": "action", "id": msg.get("id"), "action": action}) + "\n")
            sys.stdout.flush()
        elif kind == "end":
            break
        # hello and the game events (start_kyoku, tsumo, dahai, ...) need no answer


if __name__ == "__main__":
    main()
