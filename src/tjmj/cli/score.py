"""``tjmj score``: score a hand (Tianjin R5, Beijing B5/B6, MCR M3), one at a time or ``--batch``
JSON lines (docs/cli.md).  The batch itself is :mod:`tjmj.jsonlines`; the console script
(:func:`tjmj.batch.console`) runs a plain ``tjmj score --batch FILE`` there without loading Click.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import click

from ..families.beijing.calculator import BEIJING_FLAGS, beijing_answer
from ..families.mcr.calculator import MCR_FLAGS, _mcr_reason, mcr_answer, mcr_situation
from ..families.tianjin.score import ScoreResult, score_input
from ..jsonlines import BatchFileError, run_file
from ..jsonlines import named_tiles as _tiles
from ..jsonlines import one_tile as _one_tile
from ..rules import BeijingRules
from ..tiles import TileError, format_tiles
from .common import (
    _MELD_HELP,
    BEIJING_OPTIONS,
    MCR_OPTIONS,
    InputError,
    _beijing_flags,
    _beijing_rows,
    _beijing_rules,
    _console,
    _esc,
    _family,
    _flower_count,
    _json_line,
    _mcr_flags,
    _mcr_given,
    _mcr_melds,
    _mcr_rows,
    _mcr_rules,
    _mcr_situation_text,
    _no_mcr_options,
    _not_for_mcr,
    _prepare,
    _prepare_beijing,
    _print_rows,
    _rules_options,
    _show_tiles,
    _tianjin_rules,
    _wind,
    check_output_file,
)

if TYPE_CHECKING:
    from ..families.beijing.score import BeijingResult
    from ..families.mcr.score import McrResult

__all__ = ["score"]


@click.command()
@click.argument("hand", nargs=-1)
@click.option("--draw", "-d", metavar="TILE", help="The drawn (winning) tile; Beijing: the tile won on.")
@click.option("--indicator", "-i", metavar="TILE", help="The face-up wild indicator (R2; Beijing: the 混坯, B2).")
@click.option("--meld", "-m", "melds", multiple=True, metavar="MELD", help=_MELD_HELP)
@click.option("--kong-draw", is_flag=True, help="The draw is a kong replacement (杠开, R5.1; 杠上开花, B5).")
@click.option("--tianhu", is_flag=True, help="天胡 (R5.5): the dealer's 14 dealt tiles; --draw is the 14th.")
@_beijing_flags
@_mcr_flags
@_rules_options
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--batch", metavar="FILE", help="Score JSON lines from FILE ('-' for stdin); see docs/cli.md.")
@click.option("--no-arrangement", is_flag=True, help="With --batch: leave the arrangement out of each answer (faster).")
@click.option("--svg", "svg_path", metavar="FILE", help="Also draw the hand (its best arrangement) as SVG to FILE.")
def score(
    hand: tuple[str, ...], draw: str | None, indicator: str | None, melds: tuple[str, ...], kong_draw: bool,
    tianhu: bool, preset: str | None, sets: tuple[str, ...], as_json: bool, batch: str | None,
    no_arrangement: bool, svg_path: str | None, **situation: Any,
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
    mcr = {k: situation.pop(k) for k in MCR_OPTIONS}
    situation["kong_draw"] = kong_draw
    if batch is not None:
        given = [name for name, v in (("HAND", hand), ("--draw", draw), ("--indicator", indicator),
                                      ("--meld", melds), ("--kong-draw", kong_draw), ("--tianhu", tianhu),
                                      *((BEIJING_OPTIONS[k], situation[k]) for k in BEIJING_FLAGS if k != "kong_draw"),
                                      *((o, True) for o in _mcr_given(mcr)),
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
    if _family(preset) == "mcr":
        _not_for_mcr([o for o, v in (("--indicator", indicator), ("--kong-draw", kong_draw), ("--tianhu", tianhu),
                                     *((BEIJING_OPTIONS[k], situation[k]) for k in BEIJING_FLAGS if k != "kong_draw"))
                      if v])
        _score_mcr(" ".join(hand), draw, melds, preset, sets, mcr, as_json, svg_path)
        return
    if _family(preset) == "beijing":
        _no_mcr_options(mcr, "Beijing")
        if tianhu:
            raise InputError("--tianhu is Tianjin's 天胡 (R5.5); Beijing's are --tianhe (the dealer) and --dihe (B5)")
        _score_beijing(" ".join(hand), draw, indicator, melds, preset, sets, situation, as_json, svg_path)
        return
    _no_beijing_flags(situation, "Tianjin hands are scored self-drawn (R5)")
    _no_mcr_options(mcr, "Tianjin")
    if indicator is None:
        raise click.UsageError("Missing option '--indicator' (the face-up wild indicator).")
    rules = _tianjin_rules(preset, sets)
    h = _prepare(" ".join(hand), draw, indicator, melds, rules, kong_draw=kong_draw, tianhu=tianhu)
    r = score_input(h)
    if as_json:
        click.echo(_json_line(r.to_dict()))
    else:
        _show_score(r)
    if svg_path:
        _write_svg(r, svg_path)


def _no_beijing_flags(situation: dict[str, bool], why: str) -> None:
    given = [BEIJING_OPTIONS[k] for k in BEIJING_FLAGS if k != "kong_draw" and situation.get(k)]
    if given:
        raise InputError(f"{', '.join(given)}: {'a Beijing option' if len(given) == 1 else 'Beijing options'} "
                         f"(--rules beijing or beijing_a); {why}")


def _score_beijing(
    hand: str, draw: str, indicator: str | None, melds: Iterable[str], preset: str | None, sets: Iterable[str],
    situation: dict[str, bool], as_json: bool, svg_path: str | None,
) -> None:
    from ..families.beijing.score import score_input as score_beijing_input

    check_output_file(svg_path, "--svg")  # before any work: one error line, nothing printed
    rules = _beijing_rules(preset, sets)
    h = _prepare_beijing(hand, draw, indicator, melds, rules, situation)
    r = score_beijing_input(h)
    upstairs = situation.get("upstairs", False)
    if as_json:
        click.echo(_json_line(beijing_answer(r, True, upstairs)))
    else:
        _show_beijing_score(r, upstairs)
    if svg_path:
        _write_beijing_svg(r, svg_path)


def _write_svg(r: ScoreResult, path: str) -> None:
    """The best arrangement when the hand is complete, else the hand as held (tjmj.svg)."""
    from .. import svg

    h = r.hand
    arr = r.arrangement
    text = svg.arrangement(arr) if arr is not None else svg.hand(h.concealed, h.draw, h.melds, wilds=h.wilds)
    _write_text(text, path)


def _write_text(text: str, path: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise InputError(f"--svg: cannot write {path!r}: {e.strerror or e}") from None


def _show_score(r: ScoreResult) -> None:
    from rich.table import Table

    con = _console()
    h = r.hand
    note = "  (kong replacement draw)" if h.kong_draw else ""
    if h.tianhu:
        note += "  (天胡 heavenly hand, R5.5)"
    _show_tiles(con, h, h.rules, draw_note=note)
    con.print()
    arr = r.arrangement
    if arr is not None:
        title = "Best arrangement (R5.2)"
        if h.tianhu and r.tianhu_win is not None:
            title += f" — {r.tianhu_win} taken as the winning tile"
        g_table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
        g_table.add_column("#", justify="right")
        g_table.add_column("group")
        g_table.add_column("plays")
        g_table.add_column("kind")
        g_table.add_column("note")
        dragon = set(arr.dragon or ())
        for i, g in enumerate(arr.groups):
            notes = []
            if i in dragon:
                notes.append("龙 dragon")
            if g.winning is not None:
                notes.append("winning tile")
            g_table.add_row(str(i + 1), _esc(g), _esc(format_tiles(g.plays)), g.kind, ", ".join(notes))
        con.print(g_table)
        con.print("[dim]<t> the winning tile; w=k a wild w playing k; w* a wild playing itself[/dim]")
        con.print()
        e_table = Table(title="Elements (R5.1)", title_justify="left", show_edge=False, pad_edge=False)
        for col in ("code", "element", "English", "value"):
            e_table.add_column(col)
        for e in r.elements:
            e_table.add_row(e.code, e.chinese, _esc(e.english), _esc(e.value_text()))
        if not r.elements:
            e_table.add_row("TILIU", "提溜", "plain complete hand", "core 1")
        con.print(e_table)
        con.print()
        con.print(f"[bold]{_esc(r.name)}[/bold]  fan {r.fan}")
    if r.win:
        con.print("[bold green]WIN[/bold green]")
    else:
        con.print(f"[bold red]not a win[/bold red]: {_esc(r.reason)}")


def _dragon_groups(r: BeijingResult) -> set[int]:
    """The three concealed sequences of the 一条龙 (B5), when the hand has one."""
    if not r.flags & (_bj_bit("LONG") | _bj_bit("BENHUNLONG")) or r.arrangement is None:
        return set()
    out: dict[tuple[int, ...], int] = {}
    for i, g in enumerate(r.arrangement.groups):
        if g.kind == "sequence" and g.plays[0] % 9 in (0, 3, 6):
            out.setdefault((g.plays[0] // 9, g.plays[0] % 9), i)
    for suit in range(3):
        idx = [out.get((suit, start)) for start in (0, 3, 6)]
        if all(i is not None for i in idx):
            return set(idx)  # type: ignore[arg-type]
    return set()


def _bj_bit(code: str) -> int:
    from ..families.beijing.elements import bit_of

    return bit_of(code)


def _value_sum(r: BeijingResult) -> str:
    """How the value is reached (B5): the product of the multipliers, the sum of the fan, a flat hand."""
    scoring = r.rules.scoring
    es = r.elements
    flat = [e.flat for e in es if e.flat is not None]
    if flat:
        raw, text = flat[0], f"{flat[0]} flat"
    elif scoring == "multiply":
        ms = [e.multiplier for e in es if e.multiplier is not None]
        raw = 1
        for m in ms:
            raw *= m
        text = " × ".join(["1", *map(str, ms)]) + (f" = {raw}" if ms else "")
    else:
        fans = [e.fan for e in es if e.fan is not None]
        raw = sum(fans) or 1
        text = (" + ".join(map(str, fans)) + (f" = {raw} fan" if len(fans) > 1 else " fan")) if fans else "1 fan"
        if r.halved:
            raw = (raw + 1) // 2
            text += f", halved (not 门清), rounded up: {raw}"
    if r.rules.cap and raw > r.value:
        text += f", capped at {r.value}"
    return text


def _payments_text(pay: dict[str, int], rules: BeijingRules, upstairs: bool) -> str:
    if "each" in pay:
        text = f"each of the three others pays {pay['each']}"
    elif "kong_declarer" in pay:
        text = f"the kong's declarer pays {pay['kong_declarer']} (抢杠: all three shares)"
    elif pay["others"]:
        text = f"the discarder pays {pay['discarder']} (点炮 ×2), each other player {pay['others']}"
    else:
        text = f"the discarder pays {pay['discarder']} (包三家: three shares), the others 0"
    notes = []
    if rules.base != 1:
        notes.append(f"base {rules.base}")
    if upstairs:
        notes.append("上楼 ×2")
    return text + (f"  ({', '.join(notes)})" if notes else "")


def _show_beijing_score(r: BeijingResult, upstairs: bool) -> None:
    from rich.table import Table

    con = _console()
    h = r.hand
    scoring = h.rules.scoring
    _print_rows(con, _beijing_rows(h, upstairs))
    con.print()
    arr = r.arrangement
    if arr is not None:
        g_table = Table(title=f"Best arrangement ({'七对子, B4' if arr.shape == 'pairs' else 'B5'})",
                        title_justify="left", show_edge=False, pad_edge=False)
        for col in ("#", "group", "plays", "kind", "note"):
            g_table.add_column(col, justify="right" if col == "#" else "left")
        dragon = _dragon_groups(r)
        for i, g in enumerate(arr.groups):
            notes = []
            if i in dragon:
                notes.append("龙 dragon")
            if g.winning is not None:
                notes.append("winning tile")
            g_table.add_row(str(i + 1), _esc(g), _esc(format_tiles(g.plays)), g.kind, ", ".join(notes))
        con.print(g_table)
        con.print("[dim]<t> the winning tile; w=k a wild w playing k; w* a wild playing itself[/dim]")
        con.print()
    if r.complete:
        col = "multiplied" if scoring == "multiply" else "fan added"
        e_table = Table(title=f"Elements (B5, {col})", title_justify="left", show_edge=False, pad_edge=False)
        for c in ("code", "element", "English", "value"):
            e_table.add_column(c)
        for e in r.elements:
            e_table.add_row(e.code, e.chinese, _esc(e.english), _esc(e.value_text(scoring)))
        if not r.elements:
            e_table.add_row("–", "推倒胡", "plain win", "1")
        con.print(e_table)
        con.print()
        con.print(f"[bold]{_esc(r.name)}[/bold]  value {r.value}  ({_esc(_value_sum(r))})")
    if r.win:
        con.print("[bold green]WIN[/bold green]")
        con.print(f"[bold]{'Payments':<10}[/bold] {_esc(_payments_text(r.payments(upstairs=upstairs), h.rules, upstairs))}")
    else:
        con.print(f"[bold red]not a win[/bold red]: {_esc(r.reason)}")


def _write_beijing_svg(r: BeijingResult, path: str) -> None:
    """The best arrangement when complete (a 龙's groups underlined), else the hand as held."""
    from .. import svg
    from ..families.tianjin.elements import Arrangement

    h = r.hand
    arr = r.arrangement
    if arr is not None:
        dragon = sorted(_dragon_groups(r))
        text = svg.arrangement(Arrangement(arr.groups, arr.winning_tile, (arr.wild,) if arr.wild is not None else (),
                                           tuple(dragon) if len(dragon) == 3 else None))  # type: ignore[arg-type]
    else:
        text = svg.hand(h.concealed, h.draw, h.melds, wilds=(h.wild,) if h.wild is not None else ())
    _write_text(text, path)


def _score_mcr(hand: str, draw: str, melds_text: Iterable[str], preset: str | None, sets: Iterable[str],
               mcr: dict[str, Any], as_json: bool, svg_path: str | None) -> None:
    from ..families.mcr.score import InvalidMcrHand, McrSituation, score_mcr

    check_output_file(svg_path, "--svg")
    rules = _mcr_rules(preset, sets)
    flowers = _flower_count(mcr["flowers"])
    seat, prevalent = _wind(mcr["seat_wind"], "--seat-wind"), _wind(mcr["prevalent_wind"], "--prevalent-wind")
    flags = {k: bool(mcr[k]) for k in MCR_FLAGS}
    melds, mcr_melds = _mcr_melds(melds_text)
    try:
        tiles = _tiles(hand, "HAND")
        win = _one_tile(draw, "--draw")
        mcr_situation(tiles, win, mcr_melds, flags, flowers, rules, MCR_OPTIONS.get)
        r = score_mcr(tiles, win, mcr_melds, McrSituation(seat_wind=seat, prevalent_wind=prevalent, flowers=flowers,
                                                          **flags), min_fan=rules.min_fan)
    except (TileError, InvalidMcrHand) as e:
        raise InputError(str(e)) from None
    if as_json:
        click.echo(_json_line(mcr_answer(r, rules.min_fan)))
    else:
        rows = _mcr_rows(tiles, win, melds, _mcr_situation_text(seat, prevalent, flags), rules, flowers,
                         flags["self_drawn"])
        _show_mcr_score(r, rows, rules.min_fan)
    if svg_path:
        from .. import svg

        _write_text(svg.hand(tiles, win, melds), svg_path)


def _show_mcr_score(r: McrResult, rows: list[tuple[str, str]], min_fan: int) -> None:
    from rich.table import Table

    con = _console()
    _print_rows(con, rows)
    con.print()
    if r.complete:
        shape = {"standard": "four melds and a pair", "seven_pairs": "七对 seven pairs",
                 "thirteen_orphans": "十三幺 thirteen orphans", "knitted": "全不靠 knitted tiles",
                 "knitted_straight": "组合龙 knitted straight, a meld and a pair",
                 "nine_gates": "九莲宝灯 nine gates"}.get(r.shape, r.shape)
        _print_rows(con, [("Shape", f"{shape} (M3)")])
        g_table = Table(title="Best arrangement", title_justify="left", show_edge=False, pad_edge=False)
        for col in ("#", "group", "kind", "note"):
            g_table.add_column(col, justify="right" if col == "#" else "left")
        for i, g in enumerate(r.groups):
            g_table.add_row(str(i + 1), " ".join(str(t) for t in g.tiles), g.kind,
                            "" if g.kind in ("pair", "single", "knitted", "nine_gates") else
                            "concealed" if g.concealed else "exposed")
        con.print(g_table)
        con.print()
        f_table = Table(title="Fans (M3)", title_justify="left", show_edge=False, pad_edge=False)
        for col in ("fan", "English", "value", "count"):
            f_table.add_column(col, justify="right" if col in ("value", "count") else "left")
        for e in r.fans:
            f_table.add_row(e.chinese, _esc(e.english), str(e.fan), str(e.count))
        con.print(f_table)
        con.print()
        con.print(f"[bold]{_esc(r.names)}[/bold]")
        extra = f"; with {r.flowers} flower(s): {r.total}" if r.flowers else ""
        _print_rows(con, [("Fan", f"{r.fan}  (without flowers{extra})")])
    if r.win:
        con.print(f"[bold green]WIN[/bold green]  ({r.fan} fan ≥ min_fan {min_fan}, M2)")
    else:
        con.print(f"[bold red]not a win[/bold red]: {_esc(_mcr_reason(r, min_fan))}")
