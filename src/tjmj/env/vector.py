"""Many tables in one process, stepped as one batch: the form self-play trainers use with one
shared policy (every table's deciding seat answers from the same network).

>>> from tjmj.env.vector import VectorTables
>>> import numpy as np
>>> tables = VectorTables("mcr", n=8, hands=1)
>>> obs, mask, seat = tables.reset(seed=1)
>>> obs.shape, mask.shape, seat.shape
((8, 619), (8, 175), (8,))
>>> rng = np.random.default_rng(0)
>>> actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
>>> obs, mask, seat, rewards, done = tables.step(actions)
>>> rewards.shape, done.dtype
((8, 4), dtype('bool'))
"""

from __future__ import annotations

import random

import numpy as np

from ..game import Match
from ..rules import Rules
from .aec import apply_index, default_action, make_rules
from .codec import ACTION_SIZE, OBS_SIZE, Encoder, mark_legal

__all__ = ["VectorTables"]


class VectorTables:
    """``n`` independent matches of ``rules`` (cut to ``hands`` hands when given).  At every step
    each table's deciding seat gets one action; a finished match is replaced by a new one at once
    (``done`` says which did finish).  Rewards are each hand's score change per absolute seat
    (``rewards[i, s]``), given when the hand ends.  Illegal actions are replaced by the default
    (pass, discard the drawn tile, decline 坐庄/拉庄) and counted in ``illegal``."""

    def __init__(self, rules: str | Rules | None = None, n: int = 16, *, hands: int | None = None) -> None:
        if n < 1:
            raise ValueError(f"n must be at least 1, not {n}")
        self.rules = make_rules(rules, hands)
        self.n = n
        self.matches: list[Match] = []
        self.encoders: list[Encoder] = []
        self.illegal = 0
        self.hands_played = 0
        self.matches_played = 0
        self._seeds = random.Random()

    def _new(self, i: int) -> None:
        m = Match(self.rules, seed=self._seeds.getrandbits(63))
        if i < len(self.matches):
            self.matches[i], self.encoders[i] = m, Encoder(m)
        else:
            self.matches.append(m)
            self.encoders.append(Encoder(m))

    def _batch(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        # each table's vector is joined into one new buffer and its mask marked straight into
        # another: no numpy array per table (each would cost more than the copy)
        n = self.n
        rows = []
        masks = bytearray(n * ACTION_SIZE)
        seats = [0] * n
        at = 0
        for i, m in enumerate(self.matches):
            s = m.to_act
            seats[i] = s
            rows.append(self.encoders[i].vector(s))
            mark_legal(m.legal_view(s), masks, at)
            at += ACTION_SIZE
        obs = np.frombuffer(bytearray().join(rows), dtype=np.float32).reshape(n, OBS_SIZE)
        mask = np.frombuffer(masks, dtype=np.int8).reshape(n, ACTION_SIZE)
        return obs, mask, np.array(seats, dtype=np.int64)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start ``n`` new matches: (observations, action masks, deciding seats)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.matches, self.encoders = [], []
        for i in range(self.n):
            self._new(i)
        return self._batch()

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action per table for its deciding seat: (observations, masks, seats, rewards, done)."""
        if len(actions) != self.n:
            raise ValueError(f"one action per table: {self.n} expected, {len(actions)} given")
        rewards = np.zeros((self.n, 4), dtype=np.float32)
        done = np.zeros(self.n, dtype=bool)
        chosen = actions.tolist() if isinstance(actions, np.ndarray) else list(actions)
        for i, m in enumerate(self.matches):
            s = m.actor  # (a finished match was replaced: never over here)
            start = len(m.events)
            hand = m.hand_number
            if not apply_index(m, s, int(chosen[i])):
                self.illegal += 1
                m.apply(s, default_action(m, s, m.legal_view(s)))
            if m.hand_number != hand or m.is_over:  # a hand ended: its end_kyoku is among the new events
                for ev in m.events[start:]:
                    if ev["type"] == "end_kyoku":
                        rewards[i] += ev["deltas"]
                        self.hands_played += 1
            if m.is_over:
                done[i] = True
                self.matches_played += 1
                self._new(i)
        obs, mask, seat = self._batch()
        return obs, mask, seat, rewards, done
