"""The PettingZoo parallel environment: every agent sends an action at every step, and the one
the engine is waiting for is applied (the others' are ignored: their ``action_mask`` is all 0).

One step is one decision of the table, so ``max_cycles`` counts decisions.  Many tables in one
process: :class:`tjmj.env.vector.VectorTables`.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import ParallelEnv

from ..game import Match
from ..rules import Rules
from .aec import AGENTS, action_space, check_options, default_action, make_rules, observation_space
from .codec import Encoder, action_mask, decode_action

__all__ = ["MahjongParallel"]


class MahjongParallel(ParallelEnv[str, dict[str, np.ndarray], int]):
    """``tjmj.env.parallel_env(rules="classic")``: the options of :class:`tjmj.env.aec.MahjongAEC`
    (``hands``, ``reward``, ``illegal``, ``raw_obs``), and ``max_cycles``: truncate after this many
    steps (decisions of the table)."""

    metadata = {"name": "tjmj_parallel_v0", "render_modes": [], "is_parallelizable": True}

    def __init__(self, rules: str | Rules | None = None, *, hands: int | None = None, reward: str = "hand",
                 illegal: str = "default", max_cycles: int | None = None, raw_obs: bool = False) -> None:
        check_options(reward, illegal)
        self.rules = make_rules(rules, hands)
        self.reward_mode = reward
        self.illegal = illegal
        self.max_cycles = max_cycles
        self.raw_obs = raw_obs
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self._obs_space = observation_space()
        self._act_space = action_space()
        self._seeds = random.Random()
        self.match: Match | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._act_space

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        m = self.match
        assert m is not None
        return {a: {"observation": self.encoder.encode(s), "action_mask": action_mask(m.legal_actions(s))}
                for s, a in enumerate(AGENTS)}

    def _infos(self) -> dict[str, dict[str, Any]]:
        m = self.match
        assert m is not None
        infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        if self.raw_obs:
            for s, a in enumerate(AGENTS):
                infos[a]["obs"] = m.observation(s)
        return infos

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.match = Match(self.rules, seed=self._seeds.getrandbits(63))
        self.encoder = Encoder(self.match)
        self.agents = list(self.possible_agents)
        self.steps = 0
        return self._observations(), self._infos()

    def step(self, actions: dict[str, int]) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, float],
                                                     dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        m = self.match
        assert m is not None and self.agents, "step() after the episode ended: call reset()"
        seat = m.to_act
        legal = m.legal_actions(seat)
        action = actions.get(AGENTS[seat])
        act = decode_action(int(action), legal) if action is not None else None
        illegal = act is None
        if act is None:
            if self.illegal == "raise":
                raise ValueError(f"action {action} is not legal for {AGENTS[seat]}; legal: "
                                 f"{', '.join(map(str, legal))}")
            act = default_action(m, seat, legal)
        start = len(m.events)
        m.apply(seat, act)
        self.steps += 1
        rewards = dict.fromkeys(AGENTS, 0.0)
        if self.reward_mode == "hand":
            for ev in m.events[start:]:
                if ev["type"] == "end_kyoku":
                    for s, d in enumerate(ev["deltas"]):
                        rewards[AGENTS[s]] += float(d)
        elif m.is_over:
            rewards = {a: float(m.scores[s]) for s, a in enumerate(AGENTS)}
        over = m.is_over
        cut = not over and self.max_cycles is not None and self.steps >= self.max_cycles
        terminations = dict.fromkeys(AGENTS, over)
        truncations = dict.fromkeys(AGENTS, cut)
        observations, infos = self._observations(), self._infos()
        if illegal:
            infos[AGENTS[seat]]["illegal"] = True
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def close(self) -> None:
        self.match = None
