"""examples/rl/train.py learns (docs/env.md, examples/rl/README.md): a short run of its trainer gives
a policy that beats the random policy in the same seat on the same deals, by a margin its 95 %
interval supports — a fixed number of hands and seeds, so the run is the same on any machine."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def _load():
    spec = importlib.util.spec_from_file_location("rl_train", ROOT / "examples" / "rl" / "train.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["rl_train"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_a_short_training_run_beats_the_random_policy_with_a_clear_interval() -> None:
    rl = _load()
    untrained = rl.Policy()
    policy, curve = rl.train("classic", seed=3, max_hands=1200, eval_every=10**9, eval_hands=50, log=lambda *a: None)
    assert curve[0]["hands"] == 0 and curve[-1]["hands"] == 1200
    assert not np.array_equal(policy.theta, untrained.theta)
    learned = rl.evaluate("classic", policy, 300, seed=99)
    rand = rl.evaluate("classic", None, 300, seed=99)
    diff, ci = rl.mean_ci(learned - rand)  # paired: the same 300 deals and opponents
    assert diff - ci > 1.0, (diff, ci)  # the whole interval a point a hand or more above random
    # what it learned is the game's, not noise: keep wilds (R2: a wild discard makes 小相公), take wins
    names = ["count", "single", "pair", "set", "near", "far", "isolated", "wild", "honour", "terminal", "seen"]
    theta = dict(zip(names + rl.GROUPS, policy.theta, strict=True))
    assert theta["wild"] < 0 and theta["win"] > theta["pass"]


def test_the_curve_is_written_as_svg(tmp_path: Path) -> None:
    rl = _load()
    svg = rl.curve_svg([{"hands": 0, "mean": -0.4, "ci": 0.1}, {"hands": 400, "mean": 2.0, "ci": 0.7}], -0.1, "t")
    assert svg.startswith("<svg") and "polyline" in svg and "random policy -0.10" in svg
