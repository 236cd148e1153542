"""Small helpers shared by the ``tjmj`` subcommands (each command module stays readable alone)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

__all__ = ["parse_overrides"]


def parse_overrides(items: Iterable[str]) -> dict[str, Any]:
    """``--set option=value``: the value is JSON (``1``, ``true``, ``"flat"``) or else the raw text.

    Raises ValueError naming the item when it is not ``option=value``.
    """
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"{item!r}: expected option=value, e.g. --set min_fan=1")
        try:
            out[key] = json.loads(raw)
        except ValueError:
            out[key] = raw  # so that tianhu=best_x4 works without shell-quoted JSON
    return out
