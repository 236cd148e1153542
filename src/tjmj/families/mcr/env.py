"""MCR in the RL environment (part ``env``; the contract is :mod:`tjmj.env.codec`'s docstring).

* The MCR fields of the observation vector: the seat wind and the prevalent wind (M1); no wilds.
  (The flowers laid aside are encoded by the shared code: any seat with ``flower_tiles``.)
* PettingZoo's module form, with this family's default preset (``mcr``; pass ``rules=`` for
  another): ``env()``, ``raw_env()``, ``parallel_env()`` (docs/env.md).
"""

from __future__ import annotations

from array import array
from typing import Any

from ...env import aec_env
from ...env import parallel_env as _parallel_env
from ...env import raw_env as _raw_env
from ...env.aec import MahjongAEC
from ...env.codec import OFFSETS
from ...env.parallel import MahjongParallel
from . import FAMILY
from .game import McrMatch

__all__ = ["env", "raw_env", "parallel_env", "seat_flags", "moment_fields", "fixed_fields"]

_SEAT_WIND, _PREVALENT = (OFFSETS[name][0] for name in ("seat_wind", "prevalent_wind"))

seat_flags = None  # no per-seat flags beyond the shared fields
moment_fields = None  # nothing of the moment beyond the shared fields


def fixed_fields(m: McrMatch, seat: int, v: array[float], at_table: bool) -> None:
    """The seat's wind and the prevalent wind (M1), one-hot."""
    v[_SEAT_WIND + m.seat_wind(seat)] = 1
    v[_PREVALENT + m.prevalent_wind] = 1


def env(**options: Any) -> Any:
    return aec_env(options.pop("rules", FAMILY.default_preset), **options)


def raw_env(**options: Any) -> MahjongAEC:
    return _raw_env(options.pop("rules", FAMILY.default_preset), **options)


def parallel_env(**options: Any) -> MahjongParallel:
    return _parallel_env(options.pop("rules", FAMILY.default_preset), **options)
