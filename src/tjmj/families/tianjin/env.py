"""Tianjin mahjong in the RL environment (part ``env``; the contract is :mod:`tjmj.env.codec`'s docstring).

* The Tianjin fields of the observation vector: 小相公 per seat (R2), 坐庄 and each seat's 拉庄
  count (R7), the wilds and the indicator (R2).
* PettingZoo's module form, with this family's default preset (``classic``; pass ``rules=`` for
  another): ``env()``, ``raw_env()``, ``parallel_env()`` (docs/env.md).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

from ...env import aec_env
from ...env import parallel_env as _parallel_env
from ...env import raw_env as _raw_env
from ...env.aec import MahjongAEC
from ...env.codec import OFFSETS, SEATS, mark_wilds
from ...env.parallel import MahjongParallel
from . import FAMILY
from .game import TianjinMatch, TianjinSeat

__all__ = ["env", "raw_env", "parallel_env", "seat_flags", "moment_fields", "fixed_fields"]

_XXG, _SIT, _PULLS = (OFFSETS[name][0] for name in ("xiaoxianggong", "sit", "pulls"))


def seat_flags(st: TianjinSeat, shown: Sequence[tuple[array[float], int]]) -> None:
    """A seat's 小相公 (R2) in every kept vector that shows it."""
    for view, r in shown:
        view[_XXG + r] = st.xiaoxianggong


moment_fields = None  # nothing of the moment beyond the shared fields


def fixed_fields(m: TianjinMatch, seat: int, v: array[float], at_table: bool) -> None:
    """坐庄 and the 拉庄 counts (R7); at the table, the wilds and the indicator (R2)."""
    v[_SIT] = m.sit
    pulls = m.pulls
    for r in range(SEATS):
        v[_PULLS + r] = pulls[(seat + r) % SEATS]
    if at_table:
        mark_wilds(m, v)


def env(**options: Any) -> Any:
    return aec_env(options.pop("rules", FAMILY.default_preset), **options)


def raw_env(**options: Any) -> MahjongAEC:
    return _raw_env(options.pop("rules", FAMILY.default_preset), **options)


def parallel_env(**options: Any) -> MahjongParallel:
    return _parallel_env(options.pop("rules", FAMILY.default_preset), **options)
