"""PettingZoo's module form for the Tianjin family (preset ``classic``; pass ``rules=`` for another):
``env()``, ``raw_env()``, ``parallel_env()`` (docs/env.md)."""

from __future__ import annotations

from typing import Any

from . import aec_env
from . import parallel_env as _parallel_env
from . import raw_env as _raw_env
from .aec import MahjongAEC
from .parallel import MahjongParallel


def env(**options: Any) -> Any:
    return aec_env(options.pop("rules", "classic"), **options)


def raw_env(**options: Any) -> MahjongAEC:
    return _raw_env(options.pop("rules", "classic"), **options)


def parallel_env(**options: Any) -> MahjongParallel:
    return _parallel_env(options.pop("rules", "classic"), **options)
