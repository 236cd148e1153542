"""A Gymnasium single-agent environment: one seat learns, bots play the other three.

``tjmj.env.gym_env(rules="classic", seat=0, opponents="baseline")``.  A step is one decision of the
learning seat; the bots' decisions in between are played inside the step.  An episode is a match.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np

from ..bots import make_bot
from ..game import Match
from ..rules import Rules
from .aec import action_space, check_options, default_action, make_rules, observation_space
from .codec import Encoder, action_mask, decode_action

__all__ = ["SingleSeatEnv"]


class SingleSeatEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """``seat``: the learner's seat (0..3), or None for a seat drawn from the seed at each reset;
    ``opponents``: one bot name for the three others or a list of three (``random``, ``greedy``,
    ``baseline``, ``strong``); ``hands``, ``reward``, ``illegal``, ``raw_obs`` as in
    :class:`tjmj.env.aec.MahjongAEC`."""

    metadata = {"render_modes": []}

    def __init__(self, rules: str | Rules | None = None, *, seat: int | None = 0,
                 opponents: str | list[str] = "baseline", hands: int | None = None, reward: str = "hand",
                 illegal: str = "default", raw_obs: bool = False) -> None:
        if seat is not None and seat not in range(4):
            raise ValueError(f"seat must be 0..3 or None, not {seat!r}")
        names = [opponents] * 3 if isinstance(opponents, str) else list(opponents)
        if len(names) != 3:
            raise ValueError(f"opponents: one bot name or three, not {len(names)}")
        for n in names:
            make_bot(n)  # an unknown name fails here, not in the middle of an episode
        check_options(reward, illegal)
        self.rules = make_rules(rules, hands)
        self.fixed_seat = seat
        self.opponent_names = names
        self.reward_mode = reward
        self.illegal = illegal
        self.raw_obs = raw_obs
        self.observation_space = observation_space()
        self.action_space = action_space()
        self._seeds = random.Random()
        self.match: Match | None = None

    def _obs(self) -> dict[str, np.ndarray]:
        m = self.match
        assert m is not None
        return {"observation": self.encoder.encode(self.seat), "action_mask": action_mask(m.legal_actions(self.seat))}

    def _info(self) -> dict[str, Any]:
        m = self.match
        assert m is not None
        return {"obs": m.observation(self.seat)} if self.raw_obs else {}

    def _bots_play(self) -> None:
        """Play the bots until it is the learner's decision or the match is over."""
        m = self.match
        assert m is not None
        while not m.is_over and m.to_act != self.seat:
            s = m.to_act
            bot = self.bots[s]
            legal = m.legal_actions(s)
            obs = m.observation(s) if getattr(bot, "uses_observation", True) else {}
            m.apply(s, bot.choose(obs, legal, self.rngs[s]))

    def _reward(self, start: int) -> float:
        m = self.match
        assert m is not None
        if self.reward_mode == "hand":
            return float(sum(ev["deltas"][self.seat] for ev in m.events[start:] if ev["type"] == "end_kyoku"))
        return float(m.scores[self.seat]) if m.is_over else 0.0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        match_seed = self._seeds.getrandbits(63)
        self.seat = self.fixed_seat if self.fixed_seat is not None else self._seeds.randrange(4)
        self.match = Match(self.rules, seed=match_seed)
        self.encoder = Encoder(self.match)
        self.bots = {}
        self.rngs = {}
        others = [s for s in range(4) if s != self.seat]
        for s, name in zip(others, self.opponent_names, strict=True):
            bot = make_bot(name)
            if hasattr(bot, "set_rules"):
                bot.set_rules(self.rules)
            self.bots[s] = bot
            self.rngs[s] = random.Random(f"{match_seed}:{s}")  # a bot's own rng, as in self-play
        self._bots_play()  # the learner's first decision (a match never ends before it has one)
        return self._obs(), self._info()

    def step(self, action: np.int64 | int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        m = self.match
        assert m is not None and not m.is_over, "step() after the episode ended: call reset()"
        legal = m.legal_actions(self.seat)
        act = decode_action(int(action), legal)
        info: dict[str, Any] = {}
        if act is None:
            if self.illegal == "raise":
                raise ValueError(f"action {action} is not legal; legal: {', '.join(map(str, legal))}")
            act = default_action(m, self.seat, legal)
            info["illegal"] = True
        start = len(m.events)
        m.apply(self.seat, act)
        self._bots_play()
        reward = self._reward(start)
        return self._obs(), reward, m.is_over, False, {**self._info(), **info}
