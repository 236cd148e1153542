"""``tjmj score``: score a hand (Tianjin R5, Beijing B5/B6, MCR M3), one at a time or ``--batch``
JSON lines (docs/cli.md).  The batch itself is :mod:`tjmj.jsonlines`; the console script
(:func:`tjmj.batch.console`) runs a plain ``tjmj score --batch FILE`` there without loading Click.
A hand is scored by the calculator of its rules' family (``score_cli``, :mod:`tjmj.cli.common`).
"""

from __future__ import annotations

from typing import Any

import click

from ..jsonlines import BatchFileError, run_file
from .common import (
    _MELD_HELP,
    DRAW_HELP,
    INDICATOR_HELP,
    KONG_DRAW_HELP,
    InputError,
    Request,
    _rules_options,
    family_options,
    given_options,
    run_family,
)

__all__ = ["score"]


@click.command()
@click.argument("hand", nargs=-1)
@click.option("--draw", "-d", metavar="TILE", help=DRAW_HELP)
@click.option("--indicator", "-i", metavar="TILE", help=INDICATOR_HELP)
@click.option("--meld", "-m", "melds", multiple=True, metavar="MELD", help=_MELD_HELP)
@click.option("--kong-draw", is_flag=True, help=KONG_DRAW_HELP)
@family_options("score")
@_rules_options
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--batch", metavar="FILE", help="Score JSON lines from FILE ('-' for stdin); see docs/cli.md.")
@click.option("--no-arrangement", is_flag=True, help="With --batch: leave the arrangement out of each answer (faster).")
@click.option("--svg", "svg_path", metavar="FILE", help="Also draw the hand (its best arrangement) as SVG to FILE.")
def score(
    hand: tuple[str, ...], draw: str | None, indicator: str | None, melds: tuple[str, ...], kong_draw: bool,
    preset: str | None, sets: tuple[str, ...], as_json: bool, batch: str | None, no_arrangement: bool,
    svg_path: str | None, **options: Any,
) -> None:
    """Score a hand: HAND is the 13-tile-equivalent concealed hand before the winning tile.

    Tianjin (R5): a self-drawn hand.  Beijing (--rules beijing|beijing_a, B5): self-drawn unless
    --discard or --rob-kong; the value, its elements and the payments (B6).  MCR (--rules mcr,
    M3): won on a discard unless --self-drawn; every fan, and a win from 8 fan without flowers.

    \b
    tjmj score 1p1p1p2p3p456p789p66z --draw 5m --indicator 1p
    tjmj score 123m678p3s4p22z -d 2s -i 4p --meld "[9999p]" --kong-draw
    tjmj score 123m46m789m123p55s -d 5m -i 1z --rules beijing
    tjmj score 123m456m789m123p5s -d 5s --rules mcr --self-drawn
    tjmj score --batch hands.jsonl
    """
    if batch is not None:
        given = [name for name, v in (("HAND", hand), ("--draw", draw), ("--indicator", indicator),
                                      ("--meld", melds), ("--kong-draw", kong_draw),
                                      *((o, True) for o in given_options("score", options)),
                                      ("--rules", preset), ("--set", sets), ("--svg", svg_path)) if v]
        if given:
            raise click.UsageError(f"--batch takes every input from its JSON lines; it cannot be combined with "
                                   f"{', '.join(given)}")
        try:
            raise SystemExit(run_file(batch, arrangement=not no_arrangement))
        except BatchFileError as e:
            raise InputError(str(e)) from None
        return
    if no_arrangement:
        raise click.UsageError("--no-arrangement goes with --batch")
    if not hand:
        raise click.UsageError("give a HAND to score, or --batch FILE")
    if draw is None:
        raise click.UsageError("Missing option '--draw' (the drawn tile).")
    run_family("score", Request("score", " ".join(hand), draw, indicator, melds, preset, sets, as_json, options,
                                kong_draw=kong_draw, svg_path=svg_path))
