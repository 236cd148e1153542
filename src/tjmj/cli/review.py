"""``tjmj review RECORD --seat N``: every decision of one seat in a stored match, judged by search
(:mod:`tjmj.review`; docs/review.md).

Registered lazily in :mod:`tjmj.cli` (``_COMMANDS``).  Exit status 0, or 2 with one ``Error: …``
line for a file that cannot be read, a match that is not there, a seat out of range or a record
that does not replay.
"""

from __future__ import annotations

import sys
from typing import Any

import click
import orjson

from ..record import RecordError, ReplayError, iter_matches
from ..review import DEFAULT_BUDGET, KIND_NAMES, Review
from ..review import review as review_match
from .replay import _open  # the same reading of FILE or '-', and its one-line error (exit 2)

__all__ = ["review"]


class _BadInput(click.ClickException):
    exit_code = 2


def _match(path: str, k: int) -> list[dict[str, Any]]:
    f = _open(path)
    try:
        for n, (events, _lines) in enumerate(iter_matches(f), 1):
            if n == k:
                return events
        raise _BadInput(f"{path} holds {n if 'n' in locals() else 0} match(es); there is no match {k}")
    except RecordError as e:
        raise _BadInput(str(e)) from None
    finally:
        if f is not sys.stdin.buffer:
            f.close()


def _text(r: Review, all_moves: bool) -> list[str]:
    lines = [f"Review of seat {r.seat}{f' ({r.name})' if r.name else ''}, {r.family}: "
             f"{len(r.decisions)} decisions, agreement {r.agreement:.0%}, "
             f"{sum(d.mistake for d in r.decisions)} mistakes costing {r.loss:.2f} points ({r.seconds:.0f} s)"]
    kinds = r.by_kind()
    if kinds:
        lines.append("  by kind: " + ", ".join(
            f"{KIND_NAMES[k][0]} {v['mistakes']}/{v['decisions']} (−{v['loss']:.2f})" for k, v in kinds.items()))
    lines.append("  by hand: " + "  ".join(f"{h['hand']}: {h['agreement']:.0%} −{h['loss']:.2f}" for h in r.hands()))
    for d in r.decisions:
        if d.mistake or all_moves:
            mark = "✗" if d.mistake else "✓"
            lines.append(f"  {mark} hand {d.hand} #{d.turn} {d.phase}: {d.chosen}"
                         + (f" → {d.best} (−{d.loss:.2f})" if d.mistake else "") + f"  {d.why}")
    return lines


@click.command("review")
@click.argument("record", metavar="RECORD")
@click.option("--seat", type=click.IntRange(0, 3), required=True, help="The seat reviewed (0–3, as the record's actor).")
@click.option("--match", "match_no", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which match of the file (1 = the first).")
@click.option("--budget", type=click.FloatRange(min=0.1), default=DEFAULT_BUDGET, show_default=True,
              help="Seconds for the whole review, spread over its decisions.")
@click.option("--rounds", type=click.IntRange(min=1), default=None,
              help="Instead of --budget: this many sampled worlds a decision (the same answer on every machine).")
@click.option("--seed", type=int, default=0, show_default=True, help="The search's seed.")
@click.option("--json", "as_json", is_flag=True, help="The review as one JSON object.")
@click.option("--all", "all_moves", is_flag=True, help="List every decision, not only the mistakes.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def review(record: str, seat: int, match_no: int, budget: float, rounds: int | None, seed: int,
           as_json: bool, all_moves: bool, quiet: bool) -> None:
    """Review one seat's decisions in a stored match: each discard, claim, kong, win taken or passed
    and 坐庄/拉庄 compared with the best choice a search finds (sampled worlds played to the hand's
    end), the loss in expected points, a one-line reason, the mistakes by kind and by hand.

    \b
    tjmj review records.jsonl --seat 0
    tjmj review records.jsonl --match 2 --seat 3 --json
    tjmj review records.jsonl --seat 1 --rounds 32 --all
    """
    events = _match(record, match_no)
    bar: Any = None
    task: Any = None
    if not quiet and sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        bar = Progress(TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       console=Console(stderr=True), transient=True)
        bar.start()
        task = bar.add_task("review", total=None)

    def progress(done: int, total: int) -> None:
        if bar is not None:
            bar.update(task, completed=done, total=total)

    try:
        r = review_match(events, seat, budget=budget, rounds=rounds, seed=seed, progress=progress)
    except ReplayError as e:
        raise _BadInput(f"match {match_no} of {record} does not replay: {e}") from None
    finally:
        if bar is not None:
            bar.stop()
    if as_json:
        click.echo(orjson.dumps({"match": match_no, **r.to_dict()}).decode())
    else:
        click.echo("\n".join(_text(r, all_moves)))
