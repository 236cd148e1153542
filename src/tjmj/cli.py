"""The ``tjmj`` command line (docs/cli.md): ``score``, ``score --batch``, ``waits`` and ``rules`` here;
``advise``, ``replay``, ``serve``, ``simulate`` and ``tournament`` in the ``cli_*`` modules, loaded lazily.

A thin client of the library: it parses text, calls :mod:`tjmj.score`, :mod:`tjmj.waits` and
:mod:`tjmj.rules`, and prints the answers; no rule is decided here.  Section numbers refer to
docs/rules/RULES.md.  Rich is imported only by the human-readable paths so that the batch path
(benchmarked, JSON only) starts and runs without it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import click

from . import __version__
from .batch import _DEFAULT_PRESET, BATCH_KEYS, BatchFileError, _one_tile, _tiles, batch_answer, run_batch, run_file
from .cli_common import parse_overrides
from .meld import Meld, MeldType, parse_melds
from .rules import PRESETS, Rules, RulesError, TianjinRules
from .score import HandInput, ScoreResult, prepare, score_input
from .tiles import Tile, TileError, format_tiles
from .waits import Wait, Waits, waits_of

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["main", "batch_answer", "run_batch", "BATCH_KEYS"]

class InputError(click.ClickException):
    """Bad input: one ``Error: …`` line on stderr and exit status 2, like Click's usage errors."""

    exit_code = 2


# --------------------------------------------------------------------------------------
# Parsing shared by the commands and the batch: every error names the input it came from.
# --------------------------------------------------------------------------------------


def _melds_text(values: Iterable[str]) -> list[Meld]:
    out: list[Meld] = []
    for v in values:
        try:
            out.extend(parse_melds(v))  # one --meld may also hold several: "[777m](1111z)"
        except TileError as e:
            raise TileError(f"--meld: {e}") from None
    return out


def _overrides(items: Iterable[str]) -> dict[str, Any]:
    try:
        return parse_overrides(items)
    except ValueError as e:
        raise InputError(f"--set {e}") from None


def _rules(preset: str | None, sets: Iterable[str]) -> TianjinRules:
    try:
        rules = Rules.preset(preset or _DEFAULT_PRESET, **_overrides(sets))
    except RulesError as e:
        raise InputError(str(e)) from None
    if not isinstance(rules, TianjinRules):
        raise InputError(f"--rules {rules.name}: these commands score Tianjin hands")
    return rules


def _prepare(
    hand: str, draw: str | None, indicator: str, melds: Iterable[str], rules: TianjinRules,
    kong_draw: bool = False, tianhu: bool = False,
) -> HandInput:
    try:
        return prepare(
            _tiles(hand, "HAND"),
            _one_tile(draw, "--draw") if draw is not None else None,
            _one_tile(indicator, "--indicator"),
            _melds_text(melds),
            kong_draw=kong_draw,
            tianhu=tianhu,
            rules=rules,
        )
    except TileError as e:  # InvalidHand included
        raise InputError(str(e)) from None


def _json_line(d: object) -> str:
    return json.dumps(d, ensure_ascii=False)


# --------------------------------------------------------------------------------------
# Human output (Rich).
# --------------------------------------------------------------------------------------


def _console() -> Console:
    from rich.console import Console

    return Console(highlight=False)


def _esc(s: object) -> str:
    from rich.markup import escape

    return escape(str(s))


def _names(tiles: Iterable[Tile]) -> str:
    return " ".join(t.chinese for t in tiles)


def _meld_text(m: Meld, wilds: tuple[Tile, ...]) -> str:
    kind = "金杠 gold kong" if m.type is MeldType.CONCEALED_KONG and m.tile in wilds else f"{m.type.chinese} {m.type.value}"
    return f"{m} {m.tile.chinese} ({kind})"


def _show_tiles(con: Console, h: HandInput, rules: Rules, *, draw_note: str = "") -> None:
    hand = sorted(h.concealed)
    rows = [("Hand", format_tiles(hand)), ("", _names(hand))]
    if h.draw is not None:
        rows.append(("Draw", f"{h.draw} {h.draw.chinese}{draw_note}"))
    rows.append(("Melds", ", ".join(_meld_text(m, h.wilds) for m in h.melds) or "–"))
    rows.append(("Indicator", f"{h.indicator} {h.indicator.chinese}"))
    rows.append(("Wilds", ", ".join(f"{w} {w.chinese}" for w in h.wilds) + "  (混儿, R2)"))
    rows.append(("Rules", _rules_label(rules)))
    for label, text in rows:
        con.print(f"[bold]{label:<10}[/bold] {_esc(text)}")


def _rules_label(rules: Rules) -> str:
    """The preset's name and the options that differ from it (Rules.name says only "+custom")."""
    base_name = rules.name.split("+")[0]
    base = PRESETS.get(base_name)
    if base is None:
        return rules.name
    changed = [f"{k}={json.dumps(getattr(rules, k))}" for k in Rules.describe() if getattr(base, k) != getattr(rules, k)]
    return base_name + (f" ({', '.join(changed)})" if changed else "")


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


def _allowed(spec: Any) -> tuple[str, object]:
    """Rules.describe()'s allowed values as text and as JSON: choices, or an int range (min, max)."""
    nullable = spec[0] is None
    vals = spec[1:] if nullable else spec
    if isinstance(vals[0], (bool, str)) or len(vals) != 2:
        choices = list(spec)
        return " | ".join(json.dumps(v) for v in choices), choices
    lo, hi = vals
    data: dict[str, object] = {"min": lo, "max": hi}
    text = f"{lo}..{hi}"
    if nullable:
        data["null"] = True
        text += " | null"
    return text, data


# --------------------------------------------------------------------------------------
# The commands.
# --------------------------------------------------------------------------------------


def _rules_options(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option(
        "--set", "sets", multiple=True, metavar="OPTION=VALUE",
        help="Override one rule option (repeatable); VALUE is JSON or plain text: min_fan=1, suben=true.",
    )(f)
    f = click.option(
        "--rules", "preset", type=click.Choice(list(PRESETS)), default=None,
        help="Rule preset (default classic; see `tjmj rules`).",
    )(f)
    return f


_MELD_HELP = "Exposed meld (repeatable): [777m] pon, [7777m] kong, [7777m+] added kong, (7777m) concealed kong."


# Commands that live in their own modules (each readable alone, like python-chess's), imported
# only when used: `tjmj score --batch` starts without the web stack, and no import cycles arise.
_LAZY = {
    "advise": "cli_advise",
    "replay": "cli_replay",
    "serve": "cli_serve",
    "simulate": "cli_simulate",
    "tournament": "cli_tournament",
}


class _Group(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *_LAZY])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in _LAZY:
            import importlib

            module = importlib.import_module(f"{__package__}.{_LAZY[name]}")
            return getattr(module, name)  # type: ignore[no-any-return]
        return super().get_command(ctx, name)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="tjmj", message="%(prog)s %(version)s")
def main() -> None:
    """Tianjin mahjong (天津麻将): the game in the browser, the hand calculator, self-play and tools.

    Rules: docs/rules/RULES.md in the source tree; tiles in MPSZ or Chinese."""


@main.command()
@click.argument("hand", nargs=-1)
@click.option("--draw", "-d", metavar="TILE", help="The drawn (winning) tile.")
@click.option("--indicator", "-i", metavar="TILE", help="The face-up wild indicator (R2).")
@click.option("--meld", "-m", "melds", multiple=True, metavar="MELD", help=_MELD_HELP)
@click.option("--kong-draw", is_flag=True, help="The draw is a kong replacement (杠开, R5.1).")
@click.option("--tianhu", is_flag=True, help="天胡 (R5.5): the dealer's 14 dealt tiles; --draw is the 14th.")
@_rules_options
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--batch", metavar="FILE", help="Score JSON lines from FILE ('-' for stdin); see docs/cli.md.")
@click.option("--no-arrangement", is_flag=True, help="With --batch: leave the arrangement out of each answer (faster).")
@click.option("--svg", "svg_path", metavar="FILE", help="Also draw the hand (its best arrangement) as SVG to FILE.")
def score(
    hand: tuple[str, ...], draw: str | None, indicator: str | None, melds: tuple[str, ...], kong_draw: bool,
    tianhu: bool, preset: str | None, sets: tuple[str, ...], as_json: bool, batch: str | None,
    no_arrangement: bool, svg_path: str | None,
) -> None:
    """Score a self-drawn hand (R5): HAND is the 13-tile-equivalent concealed hand before the draw.

    \b
    tjmj score 1p1p1p2p3p456p789p66z --draw 5m --indicator 1p
    tjmj score 123m678p3s4p22z -d 2s -i 4p --meld "[9999p]" --kong-draw
    tjmj score --batch hands.jsonl
    """
    if batch is not None:
        given = [name for name, v in (("HAND", hand), ("--draw", draw), ("--indicator", indicator),
                                      ("--meld", melds), ("--kong-draw", kong_draw), ("--tianhu", tianhu),
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
    if indicator is None:
        raise click.UsageError("Missing option '--indicator' (the face-up wild indicator).")
    rules = _rules(preset, sets)
    h = _prepare(" ".join(hand), draw, indicator, melds, rules, kong_draw=kong_draw, tianhu=tianhu)
    r = score_input(h)
    if as_json:
        click.echo(_json_line(r.to_dict()))
    else:
        _show_score(r)
    if svg_path:
        _write_svg(r, svg_path)


def _write_svg(r: ScoreResult, path: str) -> None:
    """The best arrangement when the hand is complete, else the hand as held (tjmj.svg)."""
    from . import svg

    h = r.hand
    arr = r.arrangement
    text = svg.arrangement(arr) if arr is not None else svg.hand(h.concealed, h.draw, h.melds, wilds=h.wilds)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise InputError(f"--svg: cannot write {path!r}: {e.strerror or e}") from None


@main.command()
@click.argument("hand", nargs=-1, required=True)
@click.option("--indicator", "-i", metavar="TILE", required=True, help="The face-up wild indicator (R2).")
@click.option("--meld", "-m", "melds", multiple=True, metavar="MELD", help=_MELD_HELP)
@_rules_options
@click.option("--json", "as_json", is_flag=True, help="Print the waits as one JSON object.")
def waits(
    hand: tuple[str, ...], indicator: str, melds: tuple[str, ...], preset: str | None, sets: tuple[str, ...],
    as_json: bool,
) -> None:
    """Show what a 13-tile-equivalent HAND waits on: every completing draw with its fan (R5).

    \b
    tjmj waits 123m678p999p234s4p --indicator 4p
    """
    rules = _rules(preset, sets)
    h = _prepare(" ".join(hand), None, indicator, melds, rules)
    ws = waits_of(h)
    if as_json:
        click.echo(_json_line(ws.to_dict()))
    else:
        _show_waits(h, ws)


@main.command("rules")
@_rules_options
@click.option("--json", "as_json", is_flag=True, help="Print the options as one JSON object.")
def rules_cmd(preset: str | None, sets: tuple[str, ...], as_json: bool) -> None:
    """List every rule option: its value in the preset, allowed values and RULES.md section."""
    rules = _rules(preset, sets)
    desc = Rules.describe()
    if as_json:
        options = {}
        for name, (spec, section, text) in desc.items():
            options[name] = {"value": getattr(rules, name), "allowed": _allowed(spec)[1], "section": section,
                             "description": text}
        click.echo(_json_line({"preset": rules.name.split("+")[0], "options": options}))
        return
    # one block per option rather than a table: the descriptions stay readable at 80 columns
    con = _console()
    con.print(f"[bold]Rule options — {_esc(_rules_label(rules))}[/bold]  (option = value, RULES.md section, allowed)")
    for name, (spec, section, text) in desc.items():
        head = f"{name} = {json.dumps(getattr(rules, name))}"
        con.print(f"{_esc(head):<30} {section:<5} {_esc(_allowed(spec)[0])}")
        con.print(f"    [dim]{_esc(text)}[/dim]")

