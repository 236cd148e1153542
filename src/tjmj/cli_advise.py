"""``tjmj advise``: rank every discard (and kong) of a 14-tile turn (docs/advise.md).

A thin client of :mod:`tjmj.advise` (Tianjin) and :mod:`tjmj.families.beijing.advise` (``--rules
beijing|beijing_a``); bad input is one ``Error:`` line and exit status 2.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from .advise import Advice, Option, advise_input
from .cli import (
    _MELD_HELP,
    InputError,
    _beijing_rows,
    _beijing_rules,
    _console,
    _esc,
    _family,
    _json_line,
    _prepare,
    _prepare_beijing,
    _print_rows,
    _rules_options,
    _show_tiles,
    _tianjin_rules,
    _tiles,
)
from .tiles import TileError, format_tiles

if TYPE_CHECKING:
    from .families.beijing.advise import Advice as BeijingAdvice
    from .families.beijing.advise import Option as BeijingOption

__all__ = ["advise"]


@click.command("advise")
@click.argument("hand", nargs=-1, required=True)
@click.option("--draw", "-d", metavar="TILE", required=True, help="The drawn tile (the 14th tile).")
@click.option("--indicator", "-i", metavar="TILE", help="The face-up wild indicator (R2; Beijing: the 混坯, B2).")
@click.option("--meld", "-m", "melds", multiple=True, metavar="MELD", help=_MELD_HELP)
@click.option("--seen", metavar="TILES", multiple=True,
              help="Other visible tiles (every discard, the others' melds), e.g. 5m5m7z; repeatable.")
@click.option("--dealer", is_flag=True, help="Beijing: the player is the dealer (庄胡 doubles each value).")
@_rules_options
@click.option("--top", type=click.IntRange(min=1), default=None, help="Show only the best N options.")
@click.option("--json", "as_json", is_flag=True, help="Print the advice as one JSON object.")
def advise(
    hand: tuple[str, ...], draw: str, indicator: str | None, melds: tuple[str, ...], seen: tuple[str, ...],
    dealer: bool, preset: str | None, sets: tuple[str, ...], top: int | None, as_json: bool,
) -> None:
    """Rank every discard and kong of a turn: HAND (13-tile-equivalent) plus --draw.

    Ranked by shanten, then live winning tiles × fan (ready) or live improving tiles, with
    wild discards (小相公, R2) last.  With --rules beijing|beijing_a: shanten of the standard shape
    and seven pairs, the value (B5) of each winning tile, and 混儿悠 declarations (B3).

    \b
    tjmj advise 1234679m999p4p22z --draw 8m --indicator 4p
    tjmj advise 123m456p789s111s4p -d 9s -i 4p --seen 7z7z1m
    tjmj advise 123m456m789m123p5s -d 6s -i 1z --rules beijing
    """
    if _family(preset) == "beijing":
        _advise_beijing(" ".join(hand), draw, indicator, melds, seen, dealer, preset, sets, top, as_json)
        return
    if dealer:
        raise InputError("--dealer: a Beijing option (--rules beijing or beijing_a); Tianjin's fan does not depend "
                         "on the dealer (R5)")
    if indicator is None:
        raise click.UsageError("Missing option '--indicator' (the face-up wild indicator).")
    rules = _tianjin_rules(preset, sets)
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


# --------------------------------------------------------------------------------------
# Beijing (B2–B5): tjmj.families.beijing.advise
# --------------------------------------------------------------------------------------


def _advise_beijing(
    hand: str, draw: str, indicator: str | None, melds: Iterable[str], seen: Iterable[str], dealer: bool,
    preset: str | None, sets: Iterable[str], top: int | None, as_json: bool,
) -> None:
    from .families.beijing.advise import advise_input as advise_beijing

    rules = _beijing_rules(preset, sets)
    h = _prepare_beijing(hand, draw, indicator, melds, rules, {"dealer": dealer})
    try:
        seen_tiles = [t for text in seen for t in _tiles(text, "--seen")]
        a = advise_beijing(h, seen_tiles)
    except TileError as e:  # InvalidBeijingHand included
        raise InputError(str(e)) from None
    if as_json:
        d = a.to_dict()
        if top is not None:
            d["options"] = d["options"][:top]  # type: ignore[index]
        click.echo(_json_line(d))
    else:
        _show_beijing(a, top)


def _beijing_waits_text(o: BeijingOption) -> str:
    """The winning tiles of the next draw, best value first (``5m×3 (32)``)."""
    if not o.ready:
        return ""
    wins = sorted((w for w in o.waits if w.win), key=lambda w: (-w.value, w.tile))
    if o.hunyou and len(wins) > 9:
        return f"any tile ({o.winning_live} live, value ≥ {min(w.value for w in wins)})"
    return " ".join(f"{w.tile}×{w.live} ({w.value})" for w in wins)


def _show_beijing(a: BeijingAdvice, top: int | None) -> None:
    from rich.table import Table

    con = _console()
    _print_rows(con, _beijing_rows(a.hand, waits=True))
    if a.now is not None:
        verdict = "WIN" if a.now.win else f"no win: {a.now.reason.split(':')[0]}"
        con.print(f"[bold]{'Now':<10}[/bold] complete, self-drawn: {_esc(a.now.name)} value {a.now.value} "
                  f"({_esc(verdict)})")
    if a.hungang:
        con.print(f"[bold]{'混杠':<8}[/bold] all four wilds held: 混杠 may be declared, 40 flat (B2)")
    con.print()
    t = Table(show_edge=False, pad_edge=False)
    for col, right in (("#", True), ("option", False), ("shanten", True), ("std/7p", True), ("improving", True),
                       ("kinds", False), ("ev", True), ("waits (tile×live (value))", False)):
        t.add_column(col, justify="right" if right else "left")
    shown = a.options if top is None else a.options[:top]
    live_kinds = sum(1 for n in a.visible if n < 4)
    for o in shown:
        label = o.label()
        if o.wild:
            label += " (wild)"
        if o.replacement_draw:
            label += " +draw"
        kinds = format_tiles([k for k, _ in o.improving]) if len(o.improving) < live_kinds else "all"
        shapes = f"{o.shanten_standard}/{'–' if o.shanten_pairs is None else o.shanten_pairs}"
        t.add_row(str(o.rank), _esc(label), str(o.shanten), shapes, str(o.improving_count), _esc(kinds),
                  str(o.ev) if o.ready else "", _esc(_beijing_waits_text(o)))
    con.print(t)
    con.print("[dim]shanten: the better of std (four melds and a pair) and 7p (seven pairs); improving: live "
              "tiles that lower it; ev: Σ live × value of the next draw over the winning tiles (杠上开花 after a "
              "kong)[/dim]")
