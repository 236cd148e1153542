"""``tjmj replay FILE``: replay recorded matches of any rule family against the engine (docs/records.md).

Registered lazily in :mod:`tjmj.cli` (``_COMMANDS``).  Exit status: 0 when every
match matches, 1 when any diverges, 2 when the file cannot be read (one ``Error: …`` line on
stderr naming the line and what is wrong with it), 3 when none diverges but some match is an
incomplete record (cut off before its end; 0 with ``--allow-incomplete``).  Matches are replayed
as they are read, so the verdicts of the matches before a bad line are printed before the error.
"""

from __future__ import annotations

import sys
from typing import IO, Any

import click
import orjson

from ..record import RecordError, iter_matches, show
from ..record import replay as replay_events

__all__ = ["replay", "EXIT_DIVERGES", "EXIT_UNREADABLE", "EXIT_INCOMPLETE"]

EXIT_DIVERGES = 1
EXIT_UNREADABLE = 2
# not 0: a record that stops early has not been shown to be a whole, valid match (a verification
# gate must not pass it silently), and not 1: nothing in it is wrong as far as it goes
EXIT_INCOMPLETE = 3


class _Unreadable(click.ClickException):
    """Unreadable input: one ``Error: …`` line and exit status 2, like the other commands' input errors."""

    exit_code = EXIT_UNREADABLE


def _open(path: str) -> IO[Any]:
    if path == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")  # noqa: SIM115 - closed by the caller
    except OSError as e:
        raise _Unreadable(f"cannot read {path}: {e.strerror or e}") from None


@click.command("replay")
@click.argument("file", metavar="FILE")
@click.option("--show", "show_moves", is_flag=True, help="Also print each match move by move.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per match instead of text.")
@click.option("--allow-incomplete", is_flag=True,
              help="Exit 0, not 3, when the only problem is a record cut off before its match ends.")
def replay(file: str, show_moves: bool, as_json: bool, allow_incomplete: bool) -> None:
    """Replay every match in FILE (JSON lines, '-' for stdin) and check it against the engine.

    Each match is re-created from its start_game (rules, seed; Tianjin, Beijing or MCR, as its
    rules say) and driven by the recorded actions; every event and payment must come out the same,
    every win re-scores the same with its family's scorer (R5, B5, M3) and every hand's payments
    sum to zero with the family's reasons (R8, B6, M4).  A match whose record stops before the match
    ends (cut off, or no end_game) is an "incomplete record": everything up to the cut is checked.
    Exit status 0: all match; 1: some match diverges (the first divergence is shown); 2: the file
    is unreadable; 3: none diverges but some record is incomplete (0 with --allow-incomplete).

    \b
    tjmj replay matches.jsonl
    tjmj replay matches.jsonl --show
    """
    f = _open(file)
    diverged = incomplete = 0
    count = 0
    try:
        for events, lines in iter_matches(f):
            count += 1
            result = replay_events(events)
            d = result.divergence
            line = lines[d.index] if d is not None and d.index < len(lines) else None
            if as_json:
                obj: dict[str, Any] = {"match": count, "line": lines[0], "last_line": lines[-1], **result.to_dict()}
                if d is not None:
                    obj["divergence"]["line"] = line
                if show_moves:
                    obj["show"] = show(events)
                click.echo(orjson.dumps(obj).decode())
            else:
                if show_moves:
                    click.echo("\n".join(show(events)))
                    click.echo("")
                if result.incomplete is not None:
                    click.echo(f"match {count}: incomplete record (ends at line {lines[-1]}): "
                               f"{len(events)} events, {result.hands} hands, the match is not over: "
                               f"{result.incomplete}; every event and payment up to the cut matches "
                               f"({result.payments} payments, {result.wins} wins re-scored)")
                elif d is None:
                    click.echo(f"match {count}: {result.summary()}")
                else:
                    where = f" (line {line})" if line is not None else " (after the last line)"
                    click.echo(f"match {count}: diverges at event {d.index}{where}: {d.explanation}")
                    click.echo(f"  record: {_one_line(d.expected)}")
                    click.echo(f"  engine: {_one_line(d.got)}")
            if d is not None:
                diverged += 1
            elif result.incomplete is not None:
                incomplete += 1
    except RecordError as e:
        raise _Unreadable(f"{file}: {e}") from None
    finally:
        if f is not sys.stdin.buffer:
            f.close()
    if count == 0:
        raise _Unreadable(f"{file}: holds no events (a record is JSON lines opening with start_game)")
    if not as_json and count > 1:
        cut = f", {incomplete} incomplete" if incomplete else ""
        click.echo(f"{count} matches: {count - diverged - incomplete} match{cut}, {diverged} diverge")
    if diverged:
        click.get_current_context().exit(EXIT_DIVERGES)
    if incomplete and not allow_incomplete:
        click.get_current_context().exit(EXIT_INCOMPLETE)


def _one_line(ev: dict[str, Any] | None) -> str:
    if ev is None:
        return "(none)"
    text = orjson.dumps(ev).decode()
    return text if len(text) <= 400 else text[:399] + "…"
