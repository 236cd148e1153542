"""Checks shared by the CLI tests."""

from __future__ import annotations

from typing import Any


def one_error_line(res: Any, *needles: str) -> None:
    """A user mistake: exit 2, nothing on stdout, one `Error: …` line on stderr (no usage, no traceback)."""
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), res.stderr
    for n in needles:
        assert n in lines[0]
