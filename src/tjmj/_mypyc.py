"""``mypyc_attr`` (mypy_extensions), for the modules of the compiled form (:mod:`tjmj.build_compiled`):
with mypy not installed, a decorator that does nothing (the attributes only matter to mypyc)."""

from typing import Any

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # a plain install: no mypy, no mypy_extensions

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Any:  # type: ignore[misc]
        return lambda c: c


__all__ = ["mypyc_attr"]
