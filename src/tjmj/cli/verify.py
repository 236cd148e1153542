"""``tjmj verify RECORD``: check that a finished match's deals were fair (``tjmj.deal``)."""

from __future__ import annotations

import click

__all__ = ["verify"]


@click.command("verify")
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--commitment", default=None, metavar="HEX",
              help="The commitment the table showed before the first deal (64 hex digits).")
@click.option("--salt", default=None, metavar="HEX", help="The salt revealed when the match ended (32 hex digits).")
def verify(record: str, commitment: str | None, salt: str | None) -> None:
    """Check a finished match's RECORD (JSON lines): every wall came from its seed, and, with
    --commitment and --salt (the match page shows both once it is over), the seed is the one
    committed to before the first deal."""
    from ..deal import verify as check
    from ..record import RecordError, iter_matches
    from .replay import _open, _Unreadable

    f = _open(record)
    try:
        matches = [events for events, _ in iter_matches(f)]
    except RecordError as e:
        raise _Unreadable(f"{record}: {e}") from None
    finally:
        f.close()
    if len(matches) != 1:
        raise _Unreadable(f"{record}: holds {len(matches)} matches; give the record of one match")
    events = matches[0]
    problems = check(events, commitment, salt)
    if problems:
        for p in problems:
            click.echo(f"FAIL: {p}", err=True)
        raise SystemExit(1)
    hands = sum(1 for e in events if e.get("type") == "start_kyoku")
    what = "and the seed is the one committed to" if commitment else "(no commitment given: only the walls checked)"
    click.echo(f"ok: {hands} hands, every wall from seed {events[0]['seed']} {what}")
