"""A small self-contained policy-gradient trainer on tjmj.env (numpy only): it learns Tianjin
mahjong's seat against three random bots, and shows that it learned.

    .venv/bin/python examples/rl/train.py [--preset classic] [--minutes 3] [--seed 1] [--eval-hands 2000]
                                          [--out examples/rl/learning_curve.svg] [--json]

The policy is linear in a few features per action, shared over the tile kinds (a discard of kind k
is scored from k's count in hand, its neighbours, whether it is wild, an honour or a terminal, how
many are visible …; every other action type has its own bias), trained by REINFORCE with a running
baseline on each hand's score change (``reward="hand"``).  Every few hundred hands it is measured on
fixed deals against the random policy in the same seat (duplicate: same walls, same opponents'
random numbers), and the learning curve is written as an SVG plot.  README.md beside this file says
what a run of a few minutes on two cores gives, and how RLlib and CleanRL users plug in.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from tjmj.env import gym_env
from tjmj.env.codec import ACTION_SIZE, ACTIONS, OFFSETS

K = 34
# the action groups that get a bias each: every discard kind shares the discard features instead
GROUPS = ["discard", "ankong", "added_kong", "hunyou", "chi", "pon", "kong", "win", "pass", "hungang",
          "sit 0", "sit 1", "pull 0", "pull 1+"]


def _group(i: int) -> int:
    a = ACTIONS[i]
    if a.type in ("sit",):
        return GROUPS.index(f"sit {a.count}")
    if a.type == "pull":
        return GROUPS.index("pull 0" if a.count == 0 else "pull 1+")
    return GROUPS.index(a.type)


GROUP_OF = np.array([_group(i) for i in range(ACTION_SIZE)])
N_DISCARD_FEATURES = 11  # a discard's bias is its group's
N_PARAMS = N_DISCARD_FEATURES + len(GROUPS)
_SUITED = np.array([k < 27 for k in range(K)])
_TERMINAL = np.array([k >= 27 or k % 9 in (0, 8) for k in range(K)], dtype=np.float32)
_HONOUR = np.array([k >= 27 for k in range(K)], dtype=np.float32)


def _slice(name: str) -> slice:
    a, b, _ = OFFSETS[name]
    return slice(a, b)


_HAND, _WILDS, _DRAWN, _DISC = _slice("hand"), _slice("wilds"), _slice("drawn"), _slice("discards")


def _shift(v: np.ndarray, d: int) -> np.ndarray:
    """v moved by d kinds within each suit (0 across suit edges and for honours)."""
    out = np.zeros_like(v)
    for s in range(3):
        a, b = 9 * s, 9 * s + 9
        if d > 0:
            out[a + d:b] = v[a:b - d]
        else:
            out[a:b + d] = v[a - d:b]
    return out


def discard_features(obs: np.ndarray) -> np.ndarray:
    """(34, N_DISCARD_FEATURES): what a discard of each kind gives up."""
    hand = obs[_HAND]
    wild = obs[_WILDS]
    plain = hand * (1 - wild)  # wilds are not neighbours of anything
    near = _shift(plain, 1) + _shift(plain, -1)
    far = _shift(plain, 2) + _shift(plain, -2)
    seen = np.bincount(np.maximum(obs[_DISC].astype(np.int64) - 1, 0), weights=obs[_DISC] > 0, minlength=K)[:K]
    f = np.stack([
        hand, (hand == 1), (hand >= 2), (hand >= 3), near, far, (near == 0) * (far == 0),
        wild, _HONOUR, _TERMINAL, seen / 4.0,
    ], axis=1).astype(np.float32)
    return f


def features(obs: np.ndarray) -> np.ndarray:
    """(ACTION_SIZE, N_PARAMS): each action's features; logits = features @ theta."""
    phi = np.zeros((ACTION_SIZE, N_PARAMS), dtype=np.float32)
    phi[:K, :N_DISCARD_FEATURES] = discard_features(obs)
    phi[np.arange(ACTION_SIZE), N_DISCARD_FEATURES + GROUP_OF] = 1.0
    return phi


@dataclass
class Policy:
    theta: np.ndarray = field(default_factory=lambda: np.zeros(N_PARAMS, dtype=np.float64))

    def probs(self, phi: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = phi @ self.theta
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, obs: dict[str, np.ndarray], rng: np.random.Generator, greedy: bool = False,
            ) -> tuple[int, np.ndarray | None]:
        mask = obs["action_mask"]
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0]), None  # nothing to learn from a forced move
        phi = features(obs["observation"])
        p = self.probs(phi, mask)
        a = int(np.argmax(p)) if greedy else int(rng.choice(ACTION_SIZE, p=p))
        grad = phi[a] - p @ phi  # d log p(a) / d theta
        return a, grad


def play_hand(env, policy: Policy | None, rng: np.random.Generator, seed: int, greedy: bool = False,
              ) -> tuple[float, list[np.ndarray]]:
    """One hand (an episode of ``hands=1``) by the policy, or uniformly at random when None."""
    obs, _ = env.reset(seed=seed)
    grads: list[np.ndarray] = []
    total, done = 0.0, False
    while not done:
        if policy is None:
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        else:
            a, g = policy.act(obs, rng, greedy)
            if g is not None:
                grads.append(g)
        obs, r, done, _, _ = env.step(a)
        total += r
    return total, grads


def evaluate(preset: str, policy: Policy | None, hands: int, seed: int) -> np.ndarray:
    """The learner seat's score per hand on fixed deals (the same for every policy evaluated)."""
    env = gym_env(preset, hands=1, opponents="random", seat=None)
    rng = np.random.default_rng(seed)
    return np.array([play_hand(env, policy, rng, seed * 1_000_003 + i, greedy=True)[0] for i in range(hands)])


def mean_ci(x: np.ndarray) -> tuple[float, float]:
    """The mean and the half-width of its 95 % interval (normal approximation)."""
    return float(x.mean()), float(1.96 * x.std(ddof=1) / math.sqrt(len(x)))


def train(preset: str = "classic", seconds: float = 180.0, seed: int = 1, lr: float = 0.02,
          eval_every: int = 400, eval_hands: int = 200, log=print, max_hands: int | None = None,
          ) -> tuple[Policy, list[dict[str, float]]]:
    """REINFORCE for ``seconds`` (or ``max_hands`` hands, which makes the run the same on any
    machine); returns the policy and its curve (hands trained, mean score on the evaluation deals,
    its interval)."""
    env = gym_env(preset, hands=1, opponents="random", seat=None)
    rng = np.random.default_rng(seed)
    policy = Policy()
    baseline, scale = 0.0, 1.0
    m, v = np.zeros(N_PARAMS), np.zeros(N_PARAMS)  # Adam
    curve: list[dict[str, float]] = []
    hands, step = 0, 0
    start = time.perf_counter()

    def measure() -> None:
        mean, ci = mean_ci(evaluate(preset, policy, eval_hands, seed + 7))
        curve.append({"hands": hands, "seconds": round(time.perf_counter() - start, 1), "mean": mean, "ci": ci})
        log(f"{hands:6d} hands  {time.perf_counter() - start:6.1f} s  mean {mean:+.2f} ± {ci:.2f} a hand")

    measure()
    while (hands < max_hands) if max_hands is not None else (time.perf_counter() - start < seconds):
        ret, grads = play_hand(env, policy, rng, int(rng.integers(2**62)))
        hands += 1
        baseline += 0.01 * (ret - baseline)
        scale += 0.01 * (abs(ret - baseline) - scale)
        if grads:
            adv = (ret - baseline) / max(scale, 1e-3)
            g = adv * np.sum(grads, axis=0) / len(grads)
            step += 1
            m = 0.9 * m + 0.1 * g
            v = 0.999 * v + 0.001 * g * g
            policy.theta += lr * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        if hands % eval_every == 0:
            measure()
    measure()
    return policy, curve


def curve_svg(curve: list[dict[str, float]], random_mean: float, title: str) -> str:
    """The learning curve as a small SVG line plot with the 95 % band and the random policy's line."""
    w, h, pad = 640, 360, 48
    xs = [c["hands"] for c in curve]
    lo = min([c["mean"] - c["ci"] for c in curve] + [random_mean, 0.0])
    hi = max([c["mean"] + c["ci"] for c in curve] + [random_mean, 0.0])
    span_x = max(xs[-1], 1)
    span_y = (hi - lo) or 1.0

    def px(x: float) -> float:
        return pad + (w - 2 * pad) * x / span_x

    def py(y: float) -> float:
        return h - pad - (h - 2 * pad) * (y - lo) / span_y

    band = " ".join(f"{px(c['hands']):.1f},{py(c['mean'] + c['ci']):.1f}" for c in curve)
    band += " " + " ".join(f"{px(c['hands']):.1f},{py(c['mean'] - c['ci']):.1f}" for c in reversed(curve))
    line = " ".join(f"{px(c['hands']):.1f},{py(c['mean']):.1f}" for c in curve)
    return f"""<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">
<title>{title}</title>
<rect width="{w}" height="{h}" fill="#fff"/>
<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="#888"/>
<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" stroke="#888"/>
<line x1="{pad}" y1="{py(0):.1f}" x2="{w - pad}" y2="{py(0):.1f}" stroke="#bbb" stroke-dasharray="4 4"/>
<line x1="{pad}" y1="{py(random_mean):.1f}" x2="{w - pad}" y2="{py(random_mean):.1f}" stroke="#c0392b" stroke-dasharray="6 3"/>
<text x="{w - pad}" y="{py(random_mean) - 6:.1f}" text-anchor="end" fill="#c0392b">random policy {random_mean:+.2f}</text>
<polygon points="{band}" fill="#1e6b52" fill-opacity="0.15"/>
<polyline points="{line}" fill="none" stroke="#1e6b52" stroke-width="2"/>
<text x="{w / 2}" y="{pad - 18}" text-anchor="middle" font-size="14">{title}</text>
<text x="{w / 2}" y="{h - 12}" text-anchor="middle">hands trained (final: {xs[-1]})</text>
<text x="14" y="{h / 2}" text-anchor="middle" transform="rotate(-90 14 {h / 2})">points a hand (95 % band)</text>
<text x="{pad - 6}" y="{py(hi) + 4:.1f}" text-anchor="end">{hi:.1f}</text>
<text x="{pad - 6}" y="{py(lo) + 4:.1f}" text-anchor="end">{lo:.1f}</text>
</svg>
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--eval-hands", type=int, default=2000, help="final duplicate evaluation against random")
    ap.add_argument("--out", default=None, help="write the learning curve here as SVG")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    say = (lambda *a: print(*a, file=sys.stderr)) if args.json else print
    policy, curve = train(args.preset, args.minutes * 60, args.seed, log=say)
    learned = evaluate(args.preset, policy, args.eval_hands, args.seed + 100)
    rand = evaluate(args.preset, None, args.eval_hands, args.seed + 100)
    diff = learned - rand  # paired: the same deals
    result = {
        "preset": args.preset, "hands_trained": curve[-1]["hands"], "seconds": curve[-1]["seconds"],
        "learned": mean_ci(learned), "random": mean_ci(rand), "difference": mean_ci(diff),
        "theta": dict(zip([f"discard:{n}" for n in ("count", "single", "pair", "set", "near", "far",
                                                    "isolated", "wild", "honour", "terminal", "seen")] + GROUPS,
                          np.round(policy.theta, 3).tolist(), strict=True)),
        "curve": curve,
    }
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(curve_svg(curve, result["random"][0], f"REINFORCE on tjmj.env ({args.preset}) vs three random bots"))
    if args.json:
        print(json.dumps(result))
    else:
        (lm, lc), (rm, rc), (dm, dc) = result["learned"], result["random"], result["difference"]
        print(f"after {result['hands_trained']} hands ({result['seconds']} s): learned {lm:+.2f} ± {lc:.2f}, "
              f"random {rm:+.2f} ± {rc:.2f} points a hand on the same {args.eval_hands} deals; "
              f"difference {dm:+.2f} ± {dc:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
