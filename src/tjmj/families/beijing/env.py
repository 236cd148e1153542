"""Beijing mahjong in the RL environment (part ``env``; the contract is :mod:`tjmj.env.codec`'s docstring).

* The Beijing fields of the observation vector: 混儿悠 and the chi/pon made per seat (B3), 过手
  (B3), the tiles kept back (B1), 上楼 and 烧庄 (B6), the wilds and the indicator (B2).
* PettingZoo's module form, with this family's default preset (``beijing``; pass ``rules=`` for
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
from ...env.codec import OFFSETS, mark_wilds
from ...env.parallel import MahjongParallel
from . import FAMILY
from .game import BeijingMatch, BeijingSeat

__all__ = ["env", "raw_env", "parallel_env", "seat_flags", "moment_fields", "fixed_fields"]

_HUNYOU, _CLAIMS, _RESERVE, _SHAO, _PASSED, _UPSTAIRS = (
    OFFSETS[name][0] for name in ("hunyou", "claims", "reserve", "shaozhuang", "passed_win", "upstairs"))


def seat_flags(st: BeijingSeat, shown: Sequence[tuple[array[float], int]]) -> None:
    """A seat's 混儿悠 and its chi/pon count (B3) in every kept vector that shows it."""
    for view, r in shown:
        view[_HUNYOU + r] = st.hunyou
        view[_CLAIMS + r] = st.claims


def moment_fields(m: BeijingMatch, seat: int, v: array[float]) -> None:
    """The tiles kept back (B1), 烧庄 (B6) and the seat's 过手 (B3)."""
    v[_RESERVE] = m.reserve()
    v[_SHAO] = m.shaozhuang
    v[_PASSED] = m.seats[seat].passed_win  # type: ignore[attr-defined]


def fixed_fields(m: BeijingMatch, seat: int, v: array[float], at_table: bool) -> None:
    """上楼 (B6); at the table, the wilds and the indicator (B2)."""
    v[_UPSTAIRS] = m.upstairs
    if at_table:
        mark_wilds(m, v)


def env(**options: Any) -> Any:
    return aec_env(options.pop("rules", FAMILY.default_preset), **options)


def raw_env(**options: Any) -> MahjongAEC:
    return _raw_env(options.pop("rules", FAMILY.default_preset), **options)


def parallel_env(**options: Any) -> MahjongParallel:
    return _parallel_env(options.pop("rules", FAMILY.default_preset), **options)
