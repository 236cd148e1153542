"""Small helpers shared by the ``tjmj`` subcommands (each command module stays readable alone)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import click

__all__ = ["CliError", "check_output_file", "check_outside_bots", "parse_overrides"]


class CliError(click.ClickException):
    """A user mistake found before any work: one ``Error: …`` line on stderr and exit status 2
    (no usage text, no traceback), like the other commands' input errors."""

    exit_code = 2


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


def check_output_file(path: str | None, option: str) -> None:
    """Raise :class:`CliError` naming ``option``, the path and the problem if no file can be written
    there (missing directory, a directory, no permission); creates nothing."""
    from .simulate import output_file_problem  # the library's check: the Python API applies it too

    if path is None:
        return
    problem = output_file_problem(path)
    if problem is not None:
        raise CliError(f"{option} {path}: cannot write there: {problem}")


def check_outside_bots(names: Iterable[str], option: str = "--bots") -> None:
    """Raise :class:`CliError` naming the bot if a ``cmd:`` bot has no command or its program cannot be
    started (not on PATH, no such file, not executable), before any match is played; starts nothing."""
    from .bots.external import check_command, is_external

    for name in dict.fromkeys(names):
        if is_external(name):
            try:
                check_command(name)
            except ValueError as e:  # BotStartError, or no command / bad quoting after "cmd:"
                raise CliError(f"{option}: {e}") from None
