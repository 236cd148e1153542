"""Fit the beliefs about the other hands (:mod:`tjmj.bots.belief`) to ``strong``'s self-play, and say
how much better than a uniform deal they predict the true hands on other deals (issue 15).

Run from the repository root::

    .venv/bin/python benchmarks/belief_fit.py [--rules classic] [--hands 600] [--test-hands 300]
        [--every 6] [--seed 1000]

Four ``strong`` bots play one-hand matches.  At every ``--every``-th turn with a choice, for the seat
to act, each other seat and each kind it has not seen make one row: the features of
:data:`tjmj.bots.belief.FEATURES` (from what the seat sees), the kind's unseen copies, how many of
them that other hand holds, its size and the number of unseen tiles.  A logistic model of "this
unseen copy is in that hand", with the uniform deal's odds (hand size over unseen tiles) as the
offset, is fitted by Newton's method on ``--hands`` hands and scored on ``--test-hands`` others:
the log-likelihood a row above the uniform deal's, and how far the expected count of each kind in
each hand is from the true count (mean squared, uniform against the model).  The last line is the
family's coefficients, as :data:`tjmj.bots.belief.COEFFICIENTS` holds them.  Needs numpy (the
``dev`` extra).  A manual tool, never a test.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from tjmj.bots import make_bot
from tjmj.bots.belief import FEATURES, seat_features
from tjmj.game import Match
from tjmj.rules import Rules
from tjmj.simulate import _bot_rng

Rows = tuple[list[list[float]], list[float], list[float], list[float]]


def collect(rules: str, hands: int, seed: int, every: int) -> Rows:
    """Rows of (features, unseen copies, copies held, uniform log-odds) from strong's self-play."""
    X: list[list[float]] = []
    unseen_n: list[float] = []
    held: list[float] = []
    offset: list[float] = []
    for h in range(hands):
        m = Match(Rules.preset(rules, match_hands=1), seed + h)
        bots = [make_bot("strong") for _ in range(4)]
        for b in bots:
            b.set_rules(m.rules)  # type: ignore[attr-defined]
        rngs = [_bot_rng(seed + h, p) for p in range(4)]
        step = 0
        while not m.is_over:
            s = m.to_act
            legal = m.legal_actions(s)
            if m.phase == "turn" and len(legal) > 1:
                if step % every == 0:
                    unseen = m.unseen_counts(s)
                    total = sum(unseen)
                    for o in range(4):
                        if o == s:
                            continue
                        size = len(m.seats[o].hand)
                        p0 = min(max(size / total, 1e-6), 1 - 1e-6)
                        for k, f in enumerate(seat_features(m, s, o, unseen)):
                            if f is not None:
                                X.append(f)
                                unseen_n.append(unseen[k])
                                held.append(m.seats[o].counts[k])
                                offset.append(math.log(p0 / (1 - p0)))
                step += 1
            p = m.seating[s]
            m.apply(s, bots[p].choose(m.observation(s), legal, rngs[p]))
    return X, unseen_n, held, offset


def _arrays(rows: Rows) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    X, u, h, off = (np.asarray(a, dtype=float) for a in rows)
    return X, u, h, off


def log_likelihood(b: np.ndarray, X: np.ndarray, u: np.ndarray, h: np.ndarray, off: np.ndarray) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-(X @ b + off))), 1e-12, 1 - 1e-12)
    return float(np.sum(h * np.log(p) + (u - h) * np.log(1 - p)))


def fit(X: np.ndarray, u: np.ndarray, h: np.ndarray, off: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Binomial logistic regression with an offset, by Newton's method (a small ridge keeps a feature
    that never occurs at 0)."""
    b = np.zeros(X.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(X @ b + off)))
        g = X.T @ (h - u * p) - ridge * b
        H = X.T @ (X * (u * p * (1 - p))[:, None]) + ridge * np.eye(len(b))
        step = np.linalg.solve(H, g)
        b += step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return b


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="classic", help="a preset (default classic)")
    ap.add_argument("--hands", type=int, default=600, help="hands to fit on (default 600)")
    ap.add_argument("--test-hands", type=int, default=300, help="other hands to score on (default 300)")
    ap.add_argument("--every", type=int, default=6, help="take every N-th turn (default 6)")
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    train = _arrays(collect(args.rules, args.hands, args.seed, args.every))
    test = _arrays(collect(args.rules, args.test_hands, args.seed + 1_000_000, args.every))
    b = fit(*train)
    zero = np.zeros_like(b)
    print(f"{args.rules}: {len(train[0]):,} rows from {args.hands} hands to fit, {len(test[0]):,} rows "
          f"from {args.test_hands} other hands to score ({time.perf_counter() - t0:.0f} s)")
    for name, v in zip(FEATURES, b, strict=True):
        print(f"  {name:20s} {v:+.3f}  (x{math.exp(v):.2f})")
    for label, (X, u, h, off) in (("fitted on", train), ("other deals", test)):
        gain = (log_likelihood(b, X, u, h, off) - log_likelihood(zero, X, u, h, off)) / len(X)
        base = log_likelihood(zero, X, u, h, off) / len(X)
        p_fit = 1.0 / (1.0 + np.exp(-(X @ b + off)))
        p_uni = 1.0 / (1.0 + np.exp(-off))
        mse_fit = float(np.mean((u * p_fit - h) ** 2))
        mse_uni = float(np.mean((u * p_uni - h) ** 2))
        print(f"{label:12s} log-likelihood a row {base:.4f} uniform, {gain:+.4f} with the model; "
              f"expected count's squared error {mse_uni:.4f} uniform, {mse_fit:.4f} with the model")
    print(f'"{Rules.preset(args.rules).family}": ({", ".join(f"{v:.3f}" for v in b)}),')
    return 0


if __name__ == "__main__":
    sys.exit(main())
