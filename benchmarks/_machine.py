"""The machine line both benchmark scripts print, so figures are always quoted with it."""

from __future__ import annotations

import importlib.metadata
import os
import platform

import tjmj


def version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def machine(*peers: str) -> dict[str, object]:
    """Platform, Python, cores, load at start, and the versions of tjmj and each peer library."""
    try:
        load: list[float] | None = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpu_count": os.cpu_count(),
        "loadavg_at_start": load,
        "tjmj": tjmj.__version__,
        **{p: version(p) for p in peers},
    }
