"""Where the search disagrees with ``strong``: the expert bot's search run on every decision of
strong-vs-strong matches, tallied by the kind of decision (issue 15, part 4; docs/bots.md).

Run from the repository root::

    .venv/bin/python benchmarks/search_findings.py [--rules classic] [--hands 64] [--rounds 64]
        [--strong-check N] [--seed S] [--workers 2] [--json FILE]

Four ``strong`` bots play matches of ``--hands-per-match`` hands.  At every decision with a choice
(a turn, a claim or a rob window; not 坐庄/拉庄, not a win strong takes) the seat's decision is also
searched by :meth:`tjmj.bots.expert.ExpertBot.analyse` with exactly ``--rounds`` worlds (the same
worlds for every candidate), but ``strong``'s choice is played, so the matches are strong's own.
The search's pick is then measured again on ``--rounds`` fresh worlds: the gain reported is that
second, independent estimate (the pick's gain on the worlds that chose it is biased upwards).

For each kind of decision (``turn: discard``, ``turn: discard/ankong``, ``claim: pon/pass`` …, named
by the candidate types) it prints how many were searched, how often the search's pick (the best
candidate whose paired gain exceeds 2 standard errors) differs from ``strong``'s, which change it
makes (``pass -> pon`` …) and the mean gain of its pick on the fresh worlds (points of the seat's score change to the end of
the hand, under the rollout policy), with a 95% interval of the total.  ``gain/hand`` sums those gains over the
hands played by the four seats: what the search's changes are worth to one seat a hand, by its own
(out-of-sample) estimate under the rollout policy, a rough bound on what fixing that kind of
decision in ``strong`` could win.

``--strong-check N`` measures each change once more, on N fresh worlds whose hands ``strong`` plays
to the end for every seat, as in real play: the search's own figure is valued under the rollout
policy, which plays the searching seat's later decisions too, and plainer than ``strong`` does; the
two figures side by side say how much of the search's gain survives in real play (docs/bots.md).
A manual tool, never a test.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tjmj.bots import make_bot
from tjmj.bots.expert import ExpertBot, play_out, ranked_discards
from tjmj.rules import Rules
from tjmj.simulate import match_seed, match_type
from tjmj.tiles import TILE_TEXT


def _kind(phase: str, cands: list[Any]) -> str:
    types = sorted({a.type for a in cands})
    return f"{phase}: {'/'.join(types)}"


def _shanten(m: Any, seat: int, legal: list[Any]) -> dict[Any, int]:
    """Each legal discard's shanten after it, as the rollout policy ranks them (turns only)."""
    if m.phase != "turn":
        return {}
    return {a: sh for sh, a in ranked_discards(m, seat, legal)}


def _strong_policy(rules: Rules) -> Any:
    """``strong`` as a rollout policy for every seat: its choice from each seat's observation of the copy."""
    bot = make_bot("strong")
    bot.set_rules(rules)  # type: ignore[attr-defined]
    rng = random.Random(0)  # (strong never uses it)

    def policy(m: Any, seat: int, legal: Any) -> Any:
        return legal[0] if len(legal) == 1 else bot.choose(m.observation(seat), list(legal), rng)

    return policy


def _strong_check(m: Any, seat: int, default: Any, pick: Any, worlds: int, rng: random.Random,
                  policy: Any, keep_hands: bool = False) -> tuple[float, float]:
    """The pick's mean gain over the default and its standard error on ``worlds`` fresh worlds whose
    hands are played to the end by ``strong`` (every seat), as in real play, not by the rollout policy.
    ``keep_hands``: the other seats' hands as they truly are, only the wall dealt again (an oracle:
    what the change is worth in the real position, not in the worlds the search can imagine)."""
    diffs = []
    for _ in range(worlds):
        world = m.determinize(seat, rng, keep_hands=keep_hands)
        values = []
        for a in (default, pick):
            c = world.clone()
            before, hand = c.scores[seat], c.hand_number
            c.apply(seat, a)
            if not c.is_over and c.hand_number == hand:
                play_out(c, seat, policy)
            values.append(c.scores[seat] - before)
        diffs.append(values[1] - values[0])
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean, (var / n) ** 0.5


def _play(task: tuple[str, int, int, int, int, str, bool, str]) -> list[dict[str, Any]]:
    """One strong-vs-strong match, every searchable decision analysed; the records of those."""
    preset, seed, hands, rounds, strong_worlds, own, true_hands, worlds = task
    rules = Rules.preset(preset).replace(match_hands=hands)
    m = match_type(rules.family)(rules, seed)
    bots = [make_bot("strong") for _ in range(4)]
    for b in bots:
        b.set_rules(rules)  # type: ignore[attr-defined]
    expert = ExpertBot(rollouts=rounds, own=own, worlds=worlds)
    expert.set_rules(rules)
    # the check plays every candidate in every world: racing's early stop would bias its estimate
    checker = ExpertBot(rollouts=rounds, race=False, own=own, worlds=worlds)
    checker.set_rules(rules)
    rng = random.Random(seed)
    policy = _strong_policy(rules)
    out: list[dict[str, Any]] = []
    while not m.is_over:
        seat = m.to_act
        legal = m.legal_actions(seat)
        found = expert.analyse(m, seat, rng) if len(legal) > 1 else None
        if found is not None:
            # the pick from one set of worlds, its gain measured on another: the gain of the
            # candidate that looked best on the same worlds would be biased upwards
            pick = found.pick()
            check = checker.analyse(m, seat, rng)
            assert check is not None and check.candidates == found.candidates
            gain, se = check.gain(pick)
            strong_gain = strong_se = true_gain = true_se = None
            if pick != 0 and strong_worlds:
                strong_gain, strong_se = _strong_check(m, seat, found.candidates[0], found.candidates[pick],
                                                       strong_worlds, rng, policy)
                if true_hands:
                    true_gain, true_se = _strong_check(m, seat, found.candidates[0], found.candidates[pick],
                                                       strong_worlds, rng, policy, keep_hands=True)
            out.append({
                "kind": _kind(m.phase, found.candidates),
                "default": found.candidates[0].type,
                "pick": found.candidates[pick].type,
                "changed": pick != 0,
                "gain": gain,
                "se": se,
                "strong_gain": strong_gain,
                "strong_se": strong_se,
                "true_gain": true_gain,
                "true_se": true_se,
                "rounds": found.rounds,
                "candidates": [str(a) for a in found.candidates],
                "means": [round(found.mean(i), 3) for i in range(len(found.candidates))],
                "check_means": [round(check.mean(i), 3) for i in range(len(check.candidates))],
                # what the pattern may depend on: the hand, each candidate discard's shanten (the
                # rollout policy's reading), the wall, the stakes
                "hand": " ".join(TILE_TEXT[t] for t in sorted(m.seats[seat].hand)),
                "wilds": [TILE_TEXT[k] for k in m.wilds],
                "shanten": [sh.get(a) for a in found.candidates] if (sh := _shanten(m, seat, legal)) else None,
                "wall_left": m._wall_left(),
                "dealer": m.dealer == seat,
                "melds": len(m.seats[seat].melds),
            })
        obs = m.observation(seat)
        m.apply(seat, bots[seat].choose(obs, legal, rng))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="classic", help="preset (classic, yiyou, beijing, beijing_a, mcr)")
    ap.add_argument("--hands", type=int, default=64, help="hands in all (default 64)")
    ap.add_argument("--hands-per-match", type=int, default=4, help="hands per match (default 4)")
    ap.add_argument("--rounds", type=int, default=64, help="worlds searched per decision (default 64)")
    ap.add_argument("--strong-check", type=int, default=0, metavar="N",
                    help="also measure each change on N fresh worlds played out by strong (default 0: not)")
    ap.add_argument("--true-hands", action="store_true",
                    help="with --strong-check: measure each change again with the other seats' true hands "
                         "(only the wall dealt again): what it is worth in the real position")
    ap.add_argument("--own", default="rollout", metavar="BOT",
                    help="who plays the searching seat's own later decisions in the search's rollouts: rollout "
                         "(the fast policy, default) or a bot, e.g. 'strong(revive=0)' (ExpertBot's own)")
    ap.add_argument("--worlds", default="uniform", choices=("uniform", "belief"),
                    help="how the search deals the unseen tiles (ExpertBot's worlds): uniform (default) or by the "
                         "beliefs about the other hands; the --strong-check worlds are uniform either way")
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", help="write every decision's record to this file")
    args = ap.parse_args(argv)
    try:
        Rules.preset(args.rules)
        ExpertBot(own=args.own)
    except (KeyError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    per = max(1, args.hands_per_match)
    tasks = [(args.rules, match_seed(args.seed, i), per, max(2, args.rounds),
              max(0, args.strong_check), args.own, args.true_hands, args.worlds) for i in range(max(1, args.hands // per))]
    t0 = time.perf_counter()
    records: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max(1, args.workers)) as pool:
        for i, got in enumerate(pool.map(_play, tasks)):
            records.extend(got)
            print(f"match {i + 1}/{len(tasks)}: {len(records)} decisions", file=sys.stderr, flush=True)
    hands = len(tasks) * per
    seat_hands = 4 * hands  # every seat's decisions are searched: gains per hand are per seat
    print(f"{args.rules}: {hands} hands of four strong bots, {len(records)} decisions searched with "
          f"{args.rounds} worlds each (own: {args.own}, worlds: {args.worlds}), {time.perf_counter() - t0:.0f} s")
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_kind[r["kind"]].append(r)
    head = f"{'decision':34s} {'searched':>8s} {'changed':>8s} {'gain/change':>11s} {'gain/hand':>9s}  changes"
    print(head)
    print("-" * len(head))
    for kind, rs in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
        changed = [r for r in rs if r["changed"]]
        moves: dict[str, int] = defaultdict(int)
        for r in changed:
            moves[f"{r['default']} -> {r['pick']}"] += 1
        mean_gain = sum(r["gain"] for r in changed) / len(changed) if changed else 0.0
        per_hand = sum(r["gain"] for r in changed) / seat_hands
        listed = ", ".join(f"{k} ×{n}" for k, n in sorted(moves.items(), key=lambda kv: -kv[1]))
        print(f"{kind:34s} {len(rs):8d} {len(changed):8d} {mean_gain:11.2f} {per_hand:9.3f}  {listed}")
    changed_all = [r for r in records if r["changed"]]
    total = sum(r["gain"] for r in changed_all) / seat_hands
    half = 1.96 * sum(r["se"] ** 2 for r in changed_all) ** 0.5 / seat_hands
    print(f"all: {len(changed_all)} changes in {len(records)} decisions, {total:.3f} ± {half:.3f} points a hand "
          "(the changes' gains on fresh worlds)")
    checked = [r for r in changed_all if r.get("strong_gain") is not None]
    if checked:
        s_total = sum(r["strong_gain"] for r in checked) / seat_hands
        s_half = 1.96 * sum(r["strong_se"] ** 2 for r in checked) ** 0.5 / seat_hands
        r_total = sum(r["gain"] for r in checked) / seat_hands
        print(f"the same {len(checked)} changes on {args.strong_check} worlds played out by strong: "
              f"{s_total:.3f} ± {s_half:.3f} points a hand (under the rollout policy: {r_total:.3f})")
        trued = [r for r in checked if r.get("true_gain") is not None]
        if trued:
            t_total = sum(r["true_gain"] for r in trued) / seat_hands
            t_half = 1.96 * sum(r["true_se"] ** 2 for r in trued) ** 0.5 / seat_hands
            print(f"... and with the other seats' true hands (only the wall dealt again): "
                  f"{t_total:.3f} ± {t_half:.3f} points a hand")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rules": args.rules, "hands": hands, "rounds": args.rounds, "own": args.own, "worlds": args.worlds,
                       "records": records}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
