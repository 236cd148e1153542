"""``tjmj advise``: rank every discard (and kong) of a 14-tile turn (docs/advise.md).

A thin client of :mod:`tjmj.families.tianjin.advise` (Tianjin) and :mod:`tjmj.families.beijing.advise` (``--rules
beijing|beijing_a``); bad input is one ``Error:`` line and exit status 2.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from ..families.tianjin.advise import Advice, Option, advise_input
from ..jsonlines import named_tiles as _tiles
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
    _prepare,
    _prepare_beijing,
    _print_rows,
    _rules_options,
    _show_tiles,
    _tianjin_rules,
)

if TYPE_CHECKING:
    from rich.console import Console

    from ..families.beijing.advise import Advice as BeijingAdvice
    from ..families.beijing.advise import Option as BeijingOption

__all__ = ["advise"]


@click.command("advise")
@click.argument("hand", nargs=-1, required=True)
@click.option("--draw", "-d", metavar="TILE", required=True, help="The drawn tile (the 14th tile).")
@click.option("--indicator", "-i", metavar="TILE", help="The face-up wild indicator (R2; Beijing: the 混坯, B2).")
@click.option("--meld", "-m", "melds", multiple=True, metavar="MELD", help=_MELD_HELP)
@click.option("--seen", metavar="TILES", multiple=True,
              help="Other visible tiles (every discard, the others' melds), e.g. 5m5m7z; repeatable.")
@click.option("--dealer", is_flag=True, help="Beijing: the player is the dealer (庄胡 doubles each value).")
@click.option("--wall-left", type=click.IntRange(min=0), default=None, metavar="N",
              help="Tiles left in the wall for normal draws (default: estimated from the unseen tiles).")
@_rules_options
@click.option("--top", type=click.IntRange(min=1), default=None, help="Show only the best N options.")
@click.option("--json", "as_json", is_flag=True, help="Print the advice as one JSON object.")
def advise(
    hand: tuple[str, ...], draw: str, indicator: str | None, melds: tuple[str, ...], seen: tuple[str, ...],
    dealer: bool, wall_left: int | None, preset: str | None, sets: tuple[str, ...], top: int | None,
    as_json: bool,
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
    if _family(preset) == "beijing":
        _advise_beijing(" ".join(hand), draw, indicator, melds, seen, dealer, preset, sets, top, as_json, wall_left)
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
        a = advise_input(h, seen_tiles, wall_left=wall_left)
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
    if o.any_tile:
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
    _model_line(con, a.wall_left, a.wall_estimated, a.draws, a.unseen)
    con.print()
    t = Table(show_edge=False, pad_edge=False)
    for col, right in (("#", True), ("option", False), ("shanten", True), ("improving", True),
                       ("win", True), ("exp", True), ("waits (tile×live fan)", False)):
        t.add_column(col, justify="right" if right else "left", overflow="fold" if col.startswith("waits") else "ellipsis")
    shown = a.options if top is None else a.options[:top]
    for o in shown:
        label = o.label()
        if o.wild:
            label += " (小相公)"
        if o.replacement_draw:
            label += " +draw"
        t.add_row(str(o.rank), _esc(label), str(o.shanten), str(o.improving_count),
                  _pct(o.win_chance), f"{o.expected:.1f}", _esc(_waits_text(o)))
    con.print(t)
    con.print("[dim]improving: live tiles that lower the shanten; win: chance of a legal win in the draws left; "
              "exp: expected fan (win × fan); ✗ completes but does not win[/dim]")
    _summaries(con, shown)


def _pct(p: float) -> str:
    return f"{round(100 * p)}%" if p >= 0.005 or p <= 0 else "<1%"


def _model_line(con: Console, wall_left: int, estimated: bool, draws: int, unseen: int) -> None:
    how = " (estimated)" if estimated else ""
    con.print(f"[bold]{'Model':<10}[/bold] wall {wall_left}{how}, {draws} own draws left, {unseen} unseen tiles")


def _summaries(con: Console, shown: Iterable[Option | BeijingOption]) -> None:
    con.print()
    for o in shown:
        con.print(f"{o.rank}. {_esc(o.label())}: {_esc(o.summary)}", overflow="fold")


# --------------------------------------------------------------------------------------
# Beijing (B2–B5): tjmj.families.beijing.advise
# --------------------------------------------------------------------------------------


def _advise_beijing(
    hand: str, draw: str, indicator: str | None, melds: Iterable[str], seen: Iterable[str], dealer: bool,
    preset: str | None, sets: Iterable[str], top: int | None, as_json: bool, wall_left: int | None = None,
) -> None:
    from ..families.beijing.advise import advise_input as advise_beijing

    rules = _beijing_rules(preset, sets)
    h = _prepare_beijing(hand, draw, indicator, melds, rules, {"dealer": dealer})
    try:
        seen_tiles = [t for text in seen for t in _tiles(text, "--seen")]
        a = advise_beijing(h, seen_tiles, wall_left=wall_left)
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
    if o.any_tile and len(wins) > 9:
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
    _model_line(con, a.wall_left, a.wall_estimated, a.draws, a.unseen)
    con.print()
    t = Table(show_edge=False, pad_edge=False)
    for col, right in (("#", True), ("option", False), ("shanten", True), ("std/7p", True), ("improving", True),
                       ("win", True), ("exp", True), ("waits (tile×live (value))", False)):
        t.add_column(col, justify="right" if right else "left", overflow="fold" if col.startswith("waits") else "ellipsis")
    shown = a.options if top is None else a.options[:top]
    for o in shown:
        label = o.label()
        if o.wild:
            label += " (wild)"
        if o.replacement_draw:
            label += " +draw"
        shapes = f"{o.shanten_standard}/{'–' if o.shanten_pairs is None else o.shanten_pairs}"
        t.add_row(str(o.rank), _esc(label), str(o.shanten), shapes, str(o.improving_count),
                  _pct(o.win_chance), f"{o.expected:.1f}", _esc(_beijing_waits_text(o)))
    con.print(t)
    con.print("[dim]shanten: the better of std (four melds and a pair) and 7p (seven pairs); improving: live "
              "tiles that lower it; win: chance of a win in the draws left; exp: expected points (win × points "
              "collected); waits: the value of the next draw (杠上开花 after a kong)[/dim]")
    _summaries(con, shown)
