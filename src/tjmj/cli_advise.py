"""``tjmj advise``: rank every discard (and kong) of a 14-tile turn (docs/advise.md).

A thin client of :mod:`tjmj.advise`; bad input is one ``Error:`` line and exit status 2.
"""

from __future__ import annotations

import click

from .advise import Advice, Option, advise_input
from .cli import (
    _MELD_HELP,
    InputError,
    _console,
    _esc,
    _json_line,
    _prepare,
    _rules,
    _rules_options,
    _show_tiles,
    _tiles,
)
from .tiles import TileError, format_tiles

__all__ = ["advise"]


@click.command("advise")
@click.argument("hand", nargs=-1, required=True)
@click.option("--draw", "-d", metavar="TILE", required=True, help="The drawn tile (the 14th tile).")
@click.option("--indicator", "-i", metavar="TILE", required=True, help="The face-up wild indicator (R2).")
@click.option("--meld", "-m", "melds", multiple=True, metavar="MELD", help=_MELD_HELP)
@click.option("--seen", metavar="TILES", multiple=True,
              help="Other visible tiles (every discard, the others' melds), e.g. 5m5m7z; repeatable.")
@_rules_options
@click.option("--top", type=click.IntRange(min=1), default=None, help="Show only the best N options.")
@click.option("--json", "as_json", is_flag=True, help="Print the advice as one JSON object.")
def advise(
    hand: tuple[str, ...], draw: str, indicator: str, melds: tuple[str, ...], seen: tuple[str, ...],
    preset: str | None, sets: tuple[str, ...], top: int | None, as_json: bool,
) -> None:
    """Rank every discard and kong of a turn: HAND (13-tile-equivalent) plus --draw.

    Ranked by shanten, then live winning tiles × fan (ready) or live improving tiles, with
    wild discards (小相公, R2) last.

    \b
    tjmj advise 1234679m999p4p22z --draw 8m --indicator 4p
    tjmj advise 123m456p789s111s4p -d 9s -i 4p --seen 7z7z1m
    """
    rules = _rules(preset, sets)
    h = _prepare(" ".join(hand), draw, indicator, melds, rules)
    try:
        seen_tiles = [t for text in seen for t in _tiles(text, "--seen")]
        a = advise_input(h, seen_tiles)
    except TileError as e:  # InvalidHand included
        raise InputError(str(e)) from None
    if as_json:
        d = a.to_dict()
        if top is not None:
            d["options"] = d["options"][:top]  # type: ignore[index]
        click.echo(_json_line(d))
    else:
        _show(a, top)


def _waits_text(o: Option) -> str:
    """The winning draws, best fan first (``5m×4 7f``), and how many complete without winning."""
    if not o.ready:
        return ""
    wins = sorted((w for w in o.waits if o.next_win(w)), key=lambda w: (-o.next_fan(w), w.tile))
    lost = len(o.waits) - len(wins)
    if o.hundiao:
        text = f"混儿吊 any tile ({o.winning_live} live, fan ≥ {min(o.next_fan(w) for w in wins)})"
    else:
        text = " ".join(f"{w.tile}×{w.live} {o.next_fan(w)}f" for w in wins)
    if lost:
        why = sorted({(w.reason.split(":")[0] or "no win") for w in o.waits if not o.next_win(w)})
        text += f" (+{lost} ✗ {'/'.join(why)})"
    return text.strip()


def _show(a: Advice, top: int | None) -> None:
    from rich.table import Table

    con = _console()
    _show_tiles(con, a.hand, a.hand.rules)
    if a.now is not None:
        verdict = "WIN" if a.now.win else f"no win: {a.now.reason.split(':')[0]}"
        con.print(f"[bold]{'Now':<10}[/bold] complete: {_esc(a.now.name)} fan {a.now.fan} ({_esc(verdict)})")
    con.print()
    t = Table(show_edge=False, pad_edge=False)
    for col, right in (("#", True), ("option", False), ("shanten", True), ("improving", True),
                       ("kinds", False), ("ev", True), ("waits (tile×live fan)", False)):
        t.add_column(col, justify="right" if right else "left")
    shown = a.options if top is None else a.options[:top]
    live_kinds = sum(1 for n in a.visible if n < 4)
    for o in shown:
        label = o.label()
        if o.wild:
            label += " (小相公)"
        if o.replacement_draw:
            label += " +draw"
        kinds = format_tiles([k for k, _ in o.improving]) if len(o.improving) < live_kinds else "all"
        t.add_row(str(o.rank), _esc(label), str(o.shanten), str(o.improving_count), _esc(kinds),
                  str(o.ev) if o.ready else "", _esc(_waits_text(o)))
    con.print(t)
    con.print("[dim]improving: live tiles that lower the shanten; ev: Σ live × fan over winning draws "
              "(杠开 fan after a kong); ✗ completes but does not win[/dim]")
