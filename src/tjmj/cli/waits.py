"""``tjmj waits``: what a 13-tile hand waits on, with each winning tile's fan (Tianjin R5), value
(Beijing B5) or fan on a discard and self-drawn (MCR M3); docs/cli.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from ..families.tianjin.score import HandInput
from ..families.tianjin.waits import Wait, Waits, waits_of
from ..jsonlines import named_tiles as _tiles
from ..rules import Rules
from ..tiles import TileError
from .common import (
    _MELD_HELP,
    InputError,
    _beijing_rows,
    _beijing_rules,
    _console,
    _esc,
    _family,
    _json_line,
    _mcr_melds,
    _mcr_rows,
    _mcr_rules,
    _mcr_situation_text,
    _mcr_winds,
    _no_mcr_options,
    _not_for_mcr,
    _prepare,
    _prepare_beijing,
    _print_rows,
    _rules_options,
    _show_tiles,
    _tianjin_rules,
    _wind,
)

if TYPE_CHECKING:
    from ..families.beijing.advise import Wait as BeijingTurnWait
    from ..families.beijing.score import BeijingHand
    from ..families.mcr.waits import McrWaits

__all__ = ["waits"]


@click.command()
@click.argument("hand", nargs=-1, required=True)
@click.option("--indicator", "-i", metavar="TILE", help="The face-up wild indicator (R2; Beijing: the 混坯, B2).")
@click.option("--meld", "-m", "melds", multiple=True, metavar="MELD", help=_MELD_HELP)
@click.option("--dealer", is_flag=True, help="Beijing: the player is the dealer (庄胡 doubles each value).")
@_mcr_winds
@_rules_options
@click.option("--json", "as_json", is_flag=True, help="Print the waits as one JSON object.")
def waits(
    hand: tuple[str, ...], indicator: str | None, melds: tuple[str, ...], dealer: bool, seat_wind: str | None,
    prevalent_wind: str | None, preset: str | None, sets: tuple[str, ...], as_json: bool,
) -> None:
    """Show what a 13-tile-equivalent HAND waits on: every completing draw with its fan (R5), or
    with Beijing rules every winning tile with its value self-drawn and on a discard (B5), or with
    MCR rules every completing tile with its fan on a discard and self-drawn (M3).

    \b
    tjmj waits 123m678p999p234s4p --indicator 4p
    tjmj waits 123m46m789m123p55s --indicator 1z --rules beijing
    tjmj waits 123m456m789m123p5s --rules mcr
    """
    if _family(preset) == "mcr":
        _not_for_mcr([o for o, v in (("--indicator", indicator), ("--dealer", dealer)) if v])
        _waits_mcr(" ".join(hand), melds, preset, sets, seat_wind, prevalent_wind, as_json)
        return
    _no_mcr_options({"seat_wind": seat_wind, "prevalent_wind": prevalent_wind},
                    "Beijing" if _family(preset) == "beijing" else "Tianjin")
    if _family(preset) == "beijing":
        _waits_beijing(" ".join(hand), indicator, melds, dealer, preset, sets, as_json)
        return
    if dealer:
        raise InputError("--dealer: a Beijing option (--rules beijing or beijing_a); Tianjin's fan does not depend "
                         "on the dealer (R5)")
    if indicator is None:
        raise click.UsageError("Missing option '--indicator' (the face-up wild indicator).")
    rules = _tianjin_rules(preset, sets)
    h = _prepare(" ".join(hand), None, indicator, melds, rules)
    ws = waits_of(h)
    if as_json:
        click.echo(_json_line(ws.to_dict()))
    else:
        _show_waits(h, ws)


def _waits_beijing(
    hand: str, indicator: str | None, melds: Iterable[str], dealer: bool, preset: str | None,
    sets: Iterable[str], as_json: bool,
) -> None:
    from ..families.beijing.advise import ready_waits, shanten_counts

    rules = _beijing_rules(preset, sets)
    h = _prepare_beijing(hand, None, indicator, melds, rules, {"dealer": dealer})
    ws = ready_waits(h)
    std, pairs = shanten_counts(h.counts, h.wild, len(h.melds))
    best = std if pairs is None else min(std, pairs)
    hunyou = h.wild is not None and _hunyou_ready(h)
    if as_json:
        click.echo(_json_line({"ready": any(w.live > 0 for w in ws), "shanten": best, "shanten_standard": std,
                               "shanten_pairs": pairs, "hunyou": hunyou,
                               "waits": [w.to_dict() for w in ws if w.live > 0]}))
    else:
        _show_beijing_waits(h, ws, (std, pairs), hunyou)


def _hunyou_ready(h: BeijingHand) -> bool:
    """混儿悠 readiness (B3): the 13 tiles win on any draw, a wild standing alone."""
    from ..families.beijing.score import scorer_for

    return scorer_for(h.indicator, h.rules).hunyou_ready(h.counts, len(h.melds))


def _why_not(w: Wait, rules: Rules) -> str:
    """A short label for a completing draw that does not win (the reasons of R5.2)."""
    return w.reason.split(":")[0]


def _show_waits(h: HandInput, ws: Waits) -> None:
    from rich.table import Table

    con = _console()
    _show_tiles(con, h, h.rules)
    con.print()
    con.print(f"[bold]{'Shanten':<10}[/bold] {ws.shanten}  (0 = ready, 听牌)")
    if not ws.ready:
        why = "every completing tile is already visible" if ws.shanten <= 0 else f"{ws.shanten} useful draw(s) short"
        con.print(f"[bold]{'Ready':<10}[/bold] no: {why}")
        return
    live = sum(w.live for w in ws.winning)
    con.print(f"[bold]{'Ready':<10}[/bold] yes: {len(ws.complete)} completing kind(s), "
              f"{len(ws.winning)} winning ({live} live tile(s))")
    if ws.hundiao:
        con.print(f"[bold]{'混儿吊':<7}[/bold] every drawable tile completes the hand with 混儿吊 (R5.1)")
    con.print()
    has_kong = any(m.type.is_kong for m in h.melds)
    t = Table(show_edge=False, pad_edge=False)
    for col in ("tile", "live", "fan", "combination", "win"):
        t.add_column(col, justify="right" if col in ("live", "fan") else "left")
    if has_kong:
        t.add_column("as kong draw (杠开)")
    for w in ws.complete:
        row = [f"{w.tile} {w.tile.chinese}", str(w.live), str(w.fan), w.name,
               "WIN" if w.win else f"no: {_why_not(w, h.rules)}"]
        if has_kong:
            row.append("" if w.kong_fan is None else str(w.kong_fan))
        t.add_row(*(_esc(c) for c in row))
    con.print(t)


def _show_beijing_waits(h: BeijingHand, ws: tuple[BeijingTurnWait, ...], shanten: tuple[int, int | None],
                        hunyou: bool) -> None:
    from rich.table import Table

    con = _console()
    _print_rows(con, _beijing_rows(h, waits=True))
    con.print()
    std, pairs = shanten
    best = std if pairs is None else min(std, pairs)
    shapes = f"standard {std}" + ("" if pairs is None else f", seven pairs {pairs}")
    con.print(f"[bold]{'Shanten':<10}[/bold] {best}  (0 = ready, 听牌; {shapes})")
    drawable = [w for w in ws if w.live > 0]
    if not drawable:
        why = "every completing tile is already visible" if best <= 0 else f"{best} useful draw(s) short"
        con.print(f"[bold]{'Ready':<10}[/bold] no: {why}")
        return
    con.print(f"[bold]{'Ready':<10}[/bold] yes: {len(drawable)} winning kind(s) ({sum(w.live for w in drawable)} "
              "live tile(s))")
    if hunyou:
        con.print(f"[bold]{'混儿悠':<7}[/bold] every drawable tile wins: a lone wild (B3)")
    con.print()
    has_kong = any(w.kong_draw is not None for w in drawable)
    t = Table(show_edge=False, pad_edge=False)
    for col in ("tile", "live", "value", "elements (self-drawn)", "on a discard"):
        t.add_column(col, justify="right" if col in ("live", "value") else "left")
    if has_kong:
        t.add_column("as kong draw (杠上开花)")
    for w in drawable:
        d = w.discard
        row = [f"{w.tile} {w.tile.chinese}", str(w.live), str(w.value), w.name,
               str(d.value) if d.win else "no: claimed hand (B3)"]
        if has_kong:
            row.append(str(w.kong_draw.value) if w.kong_draw is not None else "")
        t.add_row(*(_esc(c) for c in row))
    con.print(t)


def _waits_mcr(hand: str, melds_text: Iterable[str], preset: str | None, sets: Iterable[str], seat_text: str | None,
               prevalent_text: str | None, as_json: bool) -> None:
    from ..families.mcr.score import InvalidMcrHand
    from ..families.mcr.waits import mcr_waits

    rules = _mcr_rules(preset, sets)
    seat, prevalent = _wind(seat_text, "--seat-wind"), _wind(prevalent_text, "--prevalent-wind")
    melds, mcr_melds = _mcr_melds(melds_text)
    try:
        tiles = _tiles(hand, "HAND")
        ws = mcr_waits(tiles, mcr_melds, seat_wind=seat, prevalent_wind=prevalent, min_fan=rules.min_fan)
    except (TileError, InvalidMcrHand) as e:
        raise InputError(str(e)) from None
    if as_json:
        click.echo(_json_line(ws.to_dict()))
    else:
        _show_mcr_waits(_mcr_rows(tiles, None, melds, _mcr_situation_text(seat, prevalent), rules), ws)


_SHAPE_NAMES = {"standard": "standard", "seven_pairs": "seven pairs", "thirteen_orphans": "thirteen orphans",
                "honors_and_knitted": "全不靠", "knitted_straight": "组合龙"}


def _show_mcr_waits(rows: list[tuple[str, str]], ws: McrWaits) -> None:
    from rich.table import Table

    con = _console()
    _print_rows(con, rows)
    con.print()
    shapes = ", ".join(f"{_SHAPE_NAMES[k]} {v}" for k, v in ws.shapes.items() if v is not None)
    con.print(f"[bold]{'Shanten':<10}[/bold] {ws.shanten}  (0 = ready, 听牌)")
    _print_rows(con, [("Shapes", shapes)])
    if not ws.ready:
        why = ("every completing tile is already in the hand" if ws.shanten <= 0
               else f"{ws.shanten} useful draw(s) short")
        con.print(f"[bold]{'Ready':<10}[/bold] no: {why}")
        return
    live = sum(w.live for w in ws.winning)
    con.print(f"[bold]{'Ready':<10}[/bold] yes: {len(ws.waits)} completing kind(s), {len(ws.winning)} reaching "
              f"{ws.min_fan} fan ({live} live tile(s))")
    con.print()
    t = Table(show_edge=False, pad_edge=False)
    for col in ("tile", "live", "on a discard", "self-drawn", "fans (on a discard)"):
        t.add_column(col, justify="right" if col == "live" else "left")
    for w in ws.waits:
        d, s = w.discard, w.self_drawn
        t.add_row(f"{w.tile} {w.tile.chinese}", str(w.live), f"{d.fan} {'WIN' if d.win else 'no'}",
                  f"{s.fan} {'WIN' if s.win else 'no'}", _esc(d.names))
    con.print(t)
