"""Reinforcement-learning environments for every rule family (docs/env.md).

* :func:`aec_env` — PettingZoo AEC: one agent per seat, ``agent_selection`` follows the engine;
* :func:`parallel_env` — PettingZoo parallel: one step per decision of the table;
* :func:`gym_env` — Gymnasium single-agent: one seat learns, bots play the others;
* :mod:`tjmj.env.codec` — the fixed action space (``ACTION_SIZE`` integers) and the observation
  vector (``OBS_SIZE`` floats), with ``fields()`` to read a vector by name.

Each family's ``env`` part gives it PettingZoo's module form (``env()``, ``raw_env()``,
``parallel_env()``, with its default preset): ``tjmj.families.tianjin.env``,
``tjmj.families.beijing.env``, ``tjmj.families.mcr.env``.  A ``rules`` of None (the default) is the
default family's default preset.  Needs the ``env`` extra
(``pip install 'tianjin-mahjong[env]'``: numpy, gymnasium, pettingzoo).
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    from pettingzoo.utils import wrappers
except ImportError as e:  # an optional part: say how to get it
    raise ImportError(f"tjmj.env needs the env extra ({e.name} is missing): "
                      "pip install 'tianjin-mahjong[env]' (in a clone: pip install -e '.[env]')") from e

from ..rules import Rules
from .aec import MahjongAEC
from .codec import ACTION_SIZE, OBS_SIZE, action_index, action_mask, decode_action, encode_observation, fields
from .parallel import MahjongParallel
from .single import SingleSeatEnv

__all__ = ["ACTION_SIZE", "OBS_SIZE", "MahjongAEC", "MahjongParallel", "SingleSeatEnv", "aec_env",
           "parallel_env", "gym_env", "raw_env", "action_index", "action_mask", "decode_action",
           "encode_observation", "fields"]


def raw_env(rules: str | Rules | None = None, **options: Any) -> MahjongAEC:
    """The AEC environment without PettingZoo's checking wrappers."""
    return MahjongAEC(rules, **options)


def aec_env(rules: str | Rules | None = None, **options: Any) -> Any:
    """The AEC environment in PettingZoo's order-enforcing wrapper (steps out of turn are errors)."""
    return wrappers.OrderEnforcingWrapper(MahjongAEC(rules, **options))


def parallel_env(rules: str | Rules | None = None, **options: Any) -> MahjongParallel:
    return MahjongParallel(rules, **options)


def gym_env(rules: str | Rules | None = None, **options: Any) -> SingleSeatEnv:
    return SingleSeatEnv(rules, **options)
