"""``tjmj advise``: rank every discard (and kong) of a 14-tile turn (docs/advise.md).

A thin client of the advisor of the rules' family (``advise_cli``, :mod:`tjmj.cli.common`: Tianjin's
and Beijing's, ``--rules beijing|beijing_a``); bad input is one ``Error:`` line and exit status 2.
"""

from __future__ import annotations

from typing import Any

import click

from .common import _MELD_HELP, INDICATOR_HELP, Request, _rules_options, family_options, run_family

__all__ = ["advise"]


@click.command("advise")
@click.argument("hand", nargs=-1, required=True)
@click.option("--draw", "-d", metavar="TILE", required=True, help="The drawn tile (the 14th tile).")
@click.option("--indicator", "-i", metavar="TILE", help=INDICATOR_HELP)
@click.option("--meld", "-m", "melds", multiple=True, metavar="MELD", help=_MELD_HELP)
@click.option("--seen", metavar="TILES", multiple=True,
              help="Other visible tiles (every discard, the others' melds), e.g. 5m5m7z; repeatable.")
@family_options("advise")
@click.option("--wall-left", type=click.IntRange(min=0), default=None, metavar="N",
              help="Tiles left in the wall for normal draws (default: estimated from the unseen tiles).")
@_rules_options
@click.option("--top", type=click.IntRange(min=1), default=None, help="Show only the best N options.")
@click.option("--json", "as_json", is_flag=True, help="Print the advice as one JSON object.")
def advise(
    hand: tuple[str, ...], draw: str, indicator: str | None, melds: tuple[str, ...], seen: tuple[str, ...],
    wall_left: int | None, preset: str | None, sets: tuple[str, ...], top: int | None, as_json: bool,
    **options: Any,
) -> None:
    """Rank every discard and kong of a turn: HAND (13-tile-equivalent) plus --draw.

    Ranked by the expected value of a legal win: the chance to win legally (min_fan, R5.2) within
    the draws left times the fan of that win, so a dead ready hand (死提溜) counts as the step from a
    winning hand it is; wild discards (小相公, R2) last.  With --rules beijing|beijing_a: the points
    (B5, B6) of the wins, shanten of the standard shape and seven pairs, and 混儿悠 declarations (B3).

    \b
    tjmj advise 1234679m999p4p22z --draw 8m --indicator 4p
    tjmj advise 123m456p789s111s4p -d 9s -i 4p --seen 7z7z1m
    tjmj advise 123m456m789m123p5s -d 6s -i 1z --rules beijing
    """
    run_family("advise", Request("advise", " ".join(hand), draw, indicator, melds, preset, sets, as_json, options,
                                 seen=seen, wall_left=wall_left, top=top))
