"""``tjmj waits``: what a 13-tile hand waits on, with each winning tile's fan (Tianjin R5), value
(Beijing B5) or fan on a discard and self-drawn (MCR M3); docs/cli.md.  The calculator of the
rules' family answers (``waits_cli``, :mod:`tjmj.cli.common`).
"""

from __future__ import annotations

from typing import Any

import click

from .common import _MELD_HELP, INDICATOR_HELP, Request, _rules_options, family_options, run_family

__all__ = ["waits"]


@click.command()
@click.argument("hand", nargs=-1, required=True)
@click.option("--indicator", "-i", metavar="TILE", help=INDICATOR_HELP)
@click.option("--meld", "-m", "melds", multiple=True, metavar="MELD", help=_MELD_HELP)
@family_options("waits")
@_rules_options
@click.option("--json", "as_json", is_flag=True, help="Print the waits as one JSON object.")
def waits(
    hand: tuple[str, ...], indicator: str | None, melds: tuple[str, ...], preset: str | None, sets: tuple[str, ...],
    as_json: bool, **options: Any,
) -> None:
    """Show what a 13-tile-equivalent HAND waits on: every completing draw with its fan (R5), or
    with Beijing rules every winning tile with its value self-drawn and on a discard (B5), or with
    MCR rules every completing tile with its fan on a discard and self-drawn (M3).

    \b
    tjmj waits 123m678p999p234s4p --indicator 4p
    tjmj waits 123m46m789m123p55s --indicator 1z --rules beijing
    tjmj waits 123m456m789m123p5s --rules mcr
    """
    run_family("waits", Request("waits", " ".join(hand), None, indicator, melds, preset, sets, as_json, options))
