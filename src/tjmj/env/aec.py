"""The PettingZoo AEC environment: one table of any rule family, one agent per seat.

The engine decides whose decision it is (``agent_selection`` follows :attr:`Match.to_act`: the
dealer's 坐庄, each 拉庄, every turn, every seat asked in a claim window), what each seat sees
(:mod:`tjmj.env.codec`) and what is legal (``action_mask``).  An episode is a match.
"""

from __future__ import annotations

import random
from array import array
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from .. import families
from ..game import Action, IllegalAction, Match
from ..rules import Rules
from .codec import (
    _FLOAT32,
    _INT8,
    _MASK_SHAPE,
    _NO_ACTIONS,
    _OBS_SHAPE,
    ACTION_SIZE,
    ACTIONS,
    OBS_SIZE,
    OFFSETS,
    Encoder,
    _ndarray,
    mark_legal,
)

__all__ = ["MahjongAEC", "AGENTS", "apply_index", "check_options", "default_action", "make_rules", "observation_space", "action_space"]

AGENTS = tuple(f"seat_{s}" for s in range(4))
_SEAT_OF = {a: s for s, a in enumerate(AGENTS)}
_UNBOUNDED = ("scores", "hand_number", "round", "shaozhuang")
_HIGH = {"hand": 4, "melds": 34, "discards": 34, "hand_size": 14, "wall_left": 144, "pulls": 10,
         "reserve": 144, "claims": 4}


def observation_space() -> gymnasium.spaces.Dict:
    """``{"observation": Box(float32, OBS_SIZE), "action_mask": Box(int8, ACTION_SIZE)}``."""
    low = np.zeros(OBS_SIZE, dtype=np.float32)
    high = np.ones(OBS_SIZE, dtype=np.float32)
    for name, (a, b, _) in OFFSETS.items():
        if name in _UNBOUNDED:
            low[a:b], high[a:b] = -np.inf, np.inf
        elif name in _HIGH:
            high[a:b] = _HIGH[name]
    return gymnasium.spaces.Dict({
        "observation": gymnasium.spaces.Box(low, high, dtype=np.float32),
        "action_mask": gymnasium.spaces.Box(0, 1, (ACTION_SIZE,), dtype=np.int8),
    })


def action_space() -> gymnasium.spaces.Discrete:
    return gymnasium.spaces.Discrete(ACTION_SIZE)


def make_rules(rules: str | Rules | None, hands: int | None) -> Rules:
    """A preset name or rules (None: the default family's default preset), with the match cut to
    ``hands`` hands when given."""
    if rules is None:
        rules = families.default().default_preset
    r = Rules.preset(rules) if isinstance(rules, str) else rules
    return r.replace(match_hands=hands) if hands is not None else r


def check_options(reward: str, illegal: str) -> None:
    """The options every form of the environment takes: a ValueError naming a bad one."""
    if reward not in ("hand", "match"):
        raise ValueError(f"reward must be 'hand' or 'match', not {reward!r}")
    if illegal not in ("default", "raise"):
        raise ValueError(f"illegal must be 'default' or 'raise', not {illegal!r}")


def apply_index(m: Match, seat: int, index: int) -> bool:
    """Play the action at ``index`` for ``seat``; False, changing nothing, when it is not legal now.
    The engine checks legality itself (finding its own action objects by identity), and a
    ``pon``/``kong`` index becomes the claim of the tile on offer there."""
    if not 0 <= index < ACTION_SIZE:
        return False
    try:
        m.apply(seat, ACTIONS[index])
    except IllegalAction:  # (raised before anything changes)
        return False
    return True


def default_action(m: Match, seat: int, legal: list[Action]) -> Action:
    """What the environment plays for an illegal action (``illegal="default"``) or a seat whose
    ``max_cycles`` are spent: pass a claim, discard the tile just drawn, decline 坐庄/拉庄."""
    for a in legal:
        if a.type == "pass" or (a.type in ("sit", "pull") and a.count == 0):
            return a
    if m.last_draw is not None:
        for a in legal:
            if a.type == "discard" and a.tile == m.last_draw:
                return a
    for a in legal:
        if a.type == "discard":
            return a
    return legal[0]


class MahjongAEC(AECEnv[str, dict[str, np.ndarray], int]):
    """A match as an AEC game: ``tjmj.env.aec_env(rules="classic")``.

    * ``rules``: a preset name (``classic``, ``yiyou``, ``beijing``, ``beijing_a``, ``mcr``) or a
      :class:`~tjmj.rules.Rules`; ``hands``: cut the match to this many hands.
    * ``reward``: ``"hand"`` (each hand's score change, given when the hand ends) or ``"match"``
      (the final score, given at the end).
    * ``illegal``: ``"default"`` plays :func:`default_action` instead and sets
      ``info["illegal"]``; ``"raise"`` raises ``ValueError``.
    * ``max_cycles``: each agent makes at most this many decisions; once it has, the default
      action is played for it, and when every agent has, the episode is truncated.
    * ``raw_obs``: put the engine's observation dict under ``info["obs"]`` of the agent to act
      (it costs more than the engine's step; off for speed).
    """

    metadata = {"name": "tjmj_v0", "render_modes": ["ansi", "human"], "is_parallelizable": True}

    def __init__(self, rules: str | Rules | None = None, *, hands: int | None = None, reward: str = "hand",
                 illegal: str = "default", max_cycles: int | None = None, raw_obs: bool = True,
                 render_mode: str | None = None) -> None:
        super().__init__()
        check_options(reward, illegal)
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be 'ansi', 'human' or None, not {render_mode!r}")
        self.rules = make_rules(rules, hands)
        self.reward_mode = reward
        self.illegal = illegal
        self.max_cycles = max_cycles
        self.raw_obs = raw_obs
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self._obs_space = observation_space()
        self._act_space = action_space()
        self._seeds = random.Random()
        self.match: Match | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._act_space

    # ---- the episode -------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        match_seed = self._seeds.getrandbits(63)
        self.match = m = Match(self.rules, seed=match_seed)
        self.encoder = Encoder(m)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.moves = [0, 0, 0, 0]
        self._rewarded = False  # some reward is not 0 (cleared at the next step)
        self._informed: list[str] = []  # agents whose info is not {} (cleared at the next step)
        self._skip_agent_selection = None
        self.agent_selection = AGENTS[m.to_act]
        self._set_info()

    def _set_info(self) -> None:
        m = self.match
        assert m is not None
        if self.raw_obs and not m.is_over:
            seat = m.to_act
            agent = AGENTS[seat]
            self.infos[agent] = {**self.infos[agent], "obs": m.observation(seat)}
            self._informed.append(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        # Encoder.encode and action_mask written out: called every step, the two calls they would
        # add are worth saving (the codec's private helpers are this package's own)
        m = self.match
        assert m is not None
        seat = _SEAT_OF[agent]
        mask = array("b", _NO_ACTIONS)
        mark_legal(m.legal_view(seat), mask, 0)
        return {"observation": _ndarray(_OBS_SHAPE, _FLOAT32, self.encoder.vector(seat)),
                "action_mask": _ndarray(_MASK_SHAPE, _INT8, mask)}

    def state(self) -> np.ndarray:
        """Every seat's observation vector, stacked (4 × OBS_SIZE): for centralised critics only —
        it shows each seat's hand, which no seat may see."""
        return np.stack([self.encoder.encode(s) for s in range(4)])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        m = self.match
        assert m is not None
        seat = _SEAT_OF[agent]
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # clear last step's rewards (most steps have none)
            for a in self.rewards:
                self.rewards[a] = 0.0
            self._rewarded = False
        if self._informed:  # and last step's infos
            for a in self._informed:
                if a in self.infos:
                    self.infos[a] = {}
            self._informed = []
        start = len(m.events)
        hand = m.hand_number
        if not apply_index(m, seat, -1 if action is None else int(action)):
            legal = m.legal_view(seat)
            if self.illegal == "raise":
                raise ValueError(f"action {action} is not legal for {agent}; legal: {', '.join(map(str, legal))}") from None
            m.apply(seat, default_action(m, seat, legal))
            self.infos[agent] = {"illegal": True}
            self._informed.append(agent)
        self.moves[seat] += 1
        cap = self.max_cycles
        if cap is not None:  # seats whose decisions are spent play the default
            while not m.is_over and self.moves[m.to_act] >= cap and min(self.moves) < cap:
                s = m.to_act
                m.apply(s, default_action(m, s, m.legal_actions(s)))
        if m.hand_number != hand or m.is_over:  # a hand ended: its end_kyoku is among the new events
            self._rewards_from(m.events, start)
        if m.is_over:
            for a in self.agents:
                self.terminations[a] = True
        elif cap is not None and min(self.moves) >= cap:
            for a in self.agents:
                self.truncations[a] = True
        else:
            self.agent_selection = AGENTS[m.actor]  # (to_act, the match not being over)
            if self.raw_obs:
                self._set_info()
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _rewards_from(self, events: list[dict[str, Any]], start: int) -> None:
        m = self.match
        assert m is not None
        if self.reward_mode == "hand":
            for i in range(start, len(events)):
                ev = events[i]
                if ev["type"] == "end_kyoku":
                    for s, d in enumerate(ev["deltas"]):
                        self.rewards[AGENTS[s]] += float(d)
                    self._rewarded = True
        elif m.is_over:
            for s in range(4):
                self.rewards[AGENTS[s]] = float(m.scores[s])
            self._rewarded = True

    # ---- showing it ---------------------------------------------------------------------------

    def render(self) -> str | None:
        """The table as a spectator sees it, plus the hand of the seat to act (``ansi``: returned;
        ``human``: printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        m = self.match
        assert m is not None
        o = m.observation(None)
        lines = [f"hand {o['hand_number'] + 1} · {o['phase']} · scores {o['scores']} · dealer seat {o['dealer']}"]
        for s, d in enumerate(o.get("seats") or ()):
            lines.append(f"seat {s}: melds {' '.join(d['melds']) or '-'} | discards {' '.join(d['discards']) or '-'}")
        if not m.is_over:
            me = m.observation(m.to_act)
            if me.get("hand"):
                lines.append(f"seat {m.to_act} to act: {' '.join(me['hand'])}")
            lines.append("legal: " + ", ".join(me["legal_actions"]))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.match = None
