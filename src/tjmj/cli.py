"""The ``tjmj`` command line (docs/cli.md): ``score``, ``score --batch``, ``waits`` and ``rules`` here;
``advise``, ``replay``, ``serve``, ``simulate`` and ``tournament`` in the ``cli_*`` modules, loaded lazily.

A thin client of the library: it parses text, calls :mod:`tjmj.families.tianjin.score`, :mod:`tjmj.families.tianjin.waits` and
:mod:`tjmj.rules` (Tianjin, docs/rules/RULES.md, sections R…), :mod:`tjmj.families.beijing`
(``--rules beijing|beijing_a``, docs/rules/BEIJING.md, sections B…) or :mod:`tjmj.families.mcr`
(``--rules mcr``, docs/rules/MCR.md, sections M…), and prints the answers; no rule is decided here.
Rich is imported only by the human-readable paths so that the batch path (benchmarked, JSON only)
starts and runs without it, and each family's modules only for its rules.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import click

from . import __version__
from .batch import (
    _DEFAULT_PRESET,
    BATCH_KEYS,
    BEIJING_FLAGS,
    MCR_FLAGS,
    BatchFileError,
    _one_tile,
    _tiles,
    batch_answer,
    beijing_answer,
    beijing_context,
    mcr_answer,
    mcr_meld,
    mcr_situation,
    run_batch,
    run_file,
)
from .cli_common import check_output_file, parse_overrides
from .families.tianjin.score import HandInput, ScoreResult, prepare, score_input
from .families.tianjin.waits import Wait, Waits, waits_of
from .meld import Meld, MeldType, parse_melds
from .rules import PRESETS, BeijingRules, McrRules, Rules, RulesError, TianjinRules
from .tiles import Tile, TileError, format_tiles

if TYPE_CHECKING:
    from rich.console import Console

    from .families.beijing.advise import Wait as BeijingTurnWait
    from .families.beijing.score import BeijingHand, BeijingResult
    from .families.mcr.score import McrResult
    from .families.mcr.waits import McrWaits

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


def _rules(preset: str | None, sets: Iterable[str]) -> Rules:
    """The preset (default classic) with the ``--set`` overrides: Tianjin's or Beijing's rules."""
    try:
        return Rules.preset(preset or _DEFAULT_PRESET, **_overrides(sets))
    except RulesError as e:
        raise InputError(str(e)) from None


def _family(preset: str | None) -> str:
    return PRESETS[preset or _DEFAULT_PRESET].family  # a click.Choice of PRESETS: always known


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
    _print_rows(con, rows)


def _print_rows(con: Console, rows: Iterable[tuple[str, str]]) -> None:
    for label, text in rows:
        con.print(f"[bold]{label:<10}[/bold] {_esc(text)}")


def _rules_label(rules: Rules) -> str:
    """The preset's name and the options that differ from it (Rules.name says only "+custom")."""
    base_name = rules.name.split("+")[0]
    base = PRESETS.get(base_name)
    if base is None:
        return rules.name
    changed = [f"{k}={json.dumps(getattr(rules, k))}" for k in type(rules).describe()
               if getattr(base, k) != getattr(rules, k)]
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
# Beijing (--rules beijing | beijing_a): docs/rules/BEIJING.md, the scorer of tjmj.families.beijing.
# --------------------------------------------------------------------------------------

# the command-line spelling of each situation flag (the batch keys of BEIJING_FLAGS)
BEIJING_OPTIONS = {
    "win_on_discard": "--discard", "dealer": "--dealer", "last_tile": "--last-tile", "kong_draw": "--kong-draw",
    "rob_kong": "--rob-kong", "hunyou": "--hunyou", "hungang": "--hungang", "tianhe": "--tianhe", "dihe": "--dihe",
    "upstairs": "--upstairs",
}
_FLAG_AT_START = re.compile(r"^(kong_draw|last_tile|rob_kong|hunyou|hungang|tianhe|dihe|dealer)\b")


def _cli_message(e: Exception) -> str:
    """The scorer's message with a leading flag name spelt as its option (``kong_draw`` → ``--kong-draw``)."""
    return _FLAG_AT_START.sub(lambda m: BEIJING_OPTIONS[m.group(1)], str(e))


def _beijing_indicator(indicator: str | None, rules: BeijingRules) -> Tile | None:
    """The 混坯: required when the rules have a wild (B2), refused when they have none."""
    if rules.wilds:
        if indicator is None:
            raise InputError(f"--indicator: rules {rules.name} have a wild (B2): give the 混坯 (the face-up "
                             "indicator); the wild is its successor")
        try:
            return _one_tile(indicator, "--indicator")
        except TileError as e:
            raise InputError(str(e)) from None
    if indicator is not None:
        raise InputError(f"--indicator: rules {rules.name} have no wild (B2 option wilds false); leave it out")
    return None


def _prepare_beijing(
    hand: str, draw: str | None, indicator: str | None, melds: Iterable[str], rules: BeijingRules,
    flags: dict[str, bool],
) -> BeijingHand:
    from .families.beijing.score import prepare_beijing

    ind = _beijing_indicator(indicator, rules)
    try:
        ctx = beijing_context(flags, BEIJING_OPTIONS.get)
        if flags.get("upstairs") and not rules.upstairs:
            raise TileError(f"--upstairs: 上楼 is off in rules {rules.name} (B6 option upstairs)")
        return prepare_beijing(
            _tiles(hand, "HAND"),
            _one_tile(draw, "--draw") if draw is not None else None,
            melds=_melds_text(melds),
            indicator=ind,
            rules=rules,
            context=ctx,
        )
    except TileError as e:  # InvalidBeijingHand included
        raise InputError(_cli_message(e)) from None


def _situation(h: BeijingHand, upstairs: bool = False, *, waits: bool = False) -> str:
    c = h.context
    parts = ["dealer (庄家)" if c.dealer else "non-dealer"]
    if not waits:
        parts.append("robbing a kong (抢杠)" if c.rob_kong else "self-drawn (自摸)" if c.self_drawn
                     else "won on a discard (点炮)")
    for on, text in ((c.last_tile, "last tile (海底)"), (c.kong_draw, "kong replacement draw (杠上开花)"),
                     (c.hunyou, "混儿悠's draw"), (c.hungang, "混杠 declared"), (c.tianhe, "天和"), (c.dihe, "地和"),
                     (upstairs, "上楼 (payments doubled)")):
        if on:
            parts.append(text)
    return ", ".join(parts)


def _beijing_rows(h: BeijingHand, upstairs: bool = False, *, waits: bool = False) -> list[tuple[str, str]]:
    """The tiles, the 混坯 and its wild, the situation and the rules; ``waits``: a 13-tile hand, or a
    turn's 14 tiles to advise on (then the draw is not a win, and only the dealer matters)."""
    hand = sorted(h.concealed)
    rows = [("Hand", format_tiles(hand)), ("", _names(hand))]
    if waits and h.draw is not None:
        rows.append(("Draw", f"{h.draw} {h.draw.chinese}"))
    elif h.draw is not None:
        how = ("robbed from a kong" if h.context.rob_kong else "drawn" if h.context.self_drawn else "a discard")
        rows.append(("Win tile", f"{h.draw} {h.draw.chinese}  ({how})"))
    rows.append(("Melds", ", ".join(f"{m} {m.tile.chinese} ({m.type.chinese} {m.type.value})" for m in h.melds) or "–"))
    if h.wild is not None and h.indicator is not None:
        rows.append(("Indicator", f"{h.indicator} {h.indicator.chinese}  (混坯, B2)"))
        rows.append(("Wild", f"{h.wild} {h.wild.chinese}  (混儿: its successor, B2)"))
    else:
        rows.append(("Wild", "none  (B2 option wilds false)"))
    rows.append(("Situation", _situation(h, upstairs, waits=waits)))
    rows.append(("Rules", _rules_label(h.rules)))
    return rows


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
    from .families.beijing.elements import bit_of

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


def _write_beijing_svg(r: BeijingResult, path: str) -> None:
    """The best arrangement when complete (a 龙's groups underlined), else the hand as held."""
    from . import svg
    from .families.tianjin.elements import Arrangement

    h = r.hand
    arr = r.arrangement
    if arr is not None:
        dragon = sorted(_dragon_groups(r))
        text = svg.arrangement(Arrangement(arr.groups, arr.winning_tile, (arr.wild,) if arr.wild is not None else (),
                                           tuple(dragon) if len(dragon) == 3 else None))  # type: ignore[arg-type]
    else:
        text = svg.hand(h.concealed, h.draw, h.melds, wilds=(h.wild,) if h.wild is not None else ())
    _write_text(text, path)


# --------------------------------------------------------------------------------------
# MCR (--rules mcr): docs/rules/MCR.md, the calculator of tjmj.families.mcr.
# --------------------------------------------------------------------------------------

# the command-line spelling of each MCR input (the batch keys of MCR_BATCH_KEYS)
MCR_OPTIONS = {
    "self_drawn": "--self-drawn", "fourth_tile": "--fourth-tile", "about_kong": "--about-kong",
    "wall_last": "--wall-last", "flowers": "--flowers", "seat_wind": "--seat-wind", "prevalent_wind": "--prevalent-wind",
}
_WIND_TEXT = {"e": 0, "s": 1, "w": 2, "n": 3, "东": 0, "南": 1, "西": 2, "北": 3, "0": 0, "1": 1, "2": 2, "3": 3}
_WIND_NAMES = ("东 East", "南 South", "西 West", "北 North")
# another family's option given with --rules mcr: what MCR says instead
_MCR_INSTEAD = {
    "--indicator": "MCR has no wilds (M1)",
    "--tianhu": "Tianjin's 天胡 is no MCR fan (M3)",
    "--kong-draw": "杠上开花 is --about-kong with --self-drawn",
    "--rob-kong": "抢杠和 is --about-kong without --self-drawn",
    "--last-tile": "妙手回春 and 海底捞月 are --wall-last",
    "--discard": "MCR hands are won on a discard unless --self-drawn",
    "--dealer": "the dealer is the East seat: --seat-wind E",
}


def _wind(text: str | None, option: str) -> int:
    if text is None:
        return 0
    w = _WIND_TEXT.get(text.strip().lower())
    if w is None:
        raise InputError(f"{option}: expected E, S, W or N (or 0-3, 东 南 西 北), got {text!r}")
    return w


def _flower_count(text: str | None) -> int:
    if text is None:
        return 0
    t = text.strip()
    if not t.isdigit() or not 0 <= int(t) <= 8:
        raise InputError(f"--flowers: expected a count of flowers 0..8 (花牌, M1), got {text!r}")
    return int(t)


def _mcr_given(mcr: dict[str, Any]) -> list[str]:
    return [MCR_OPTIONS[k] for k, v in mcr.items() if v not in (None, False)]


def _no_mcr_options(mcr: dict[str, Any], family: str) -> None:
    given = _mcr_given(mcr)
    if given:
        raise InputError(f"{', '.join(given)}: {'an MCR option' if len(given) == 1 else 'MCR options'} "
                         f"(--rules mcr), not for {family} hands")


def _not_for_mcr(given: Iterable[str]) -> None:
    """Another family's options with --rules mcr: one error naming them and MCR's way instead."""
    given = list(given)
    if len(given) == 1:
        hint = _MCR_INSTEAD.get(given[0])
        raise InputError(f"{given[0]}: not an option of MCR hands" + (f": {hint}" if hint else ""))
    if given:
        hints = [f"{o}: {_MCR_INSTEAD[o]}" for o in given if o in _MCR_INSTEAD]
        raise InputError(f"{', '.join(given)}: not options of MCR hands" + (f" ({'; '.join(hints)})" if hints else ""))


def _mcr_rules(preset: str | None, sets: Iterable[str]) -> McrRules:
    rules = _rules(preset, sets)
    assert isinstance(rules, McrRules)
    return rules


def _mcr_melds(values: Iterable[str]) -> tuple[list[Meld], list[Any]]:
    try:
        melds = _melds_text(values)
    except TileError as e:
        raise InputError(str(e)) from None
    return melds, [mcr_meld(m) for m in melds]


def _mcr_meld_text(m: Meld) -> str:
    names = " ".join(t.chinese for t in dict.fromkeys(m.tiles))
    return f"{m} {names} ({m.type.chinese} {m.type.value})"


def _mcr_rows(hand: list[Tile], draw: Tile | None, melds: list[Meld], situation: list[str],
              rules: McrRules, flowers: int | None = None, self_drawn: bool = False) -> list[tuple[str, str]]:
    cs = sorted(hand)
    rows = [("Hand", format_tiles(cs)), ("", _names(cs))]
    if draw is not None:
        rows.append(("Win tile", f"{draw} {draw.chinese}  ({'self-drawn' if self_drawn else 'a discard'})"))
    rows.append(("Melds", ", ".join(_mcr_meld_text(m) for m in melds) or "–"))
    rows.append(("Situation", ", ".join(situation)))
    if flowers is not None:
        rows.append(("Flowers", f"{flowers}  (花牌: 1 fan each, not counted toward min_fan, M2)"))
    rows.append(("Rules", _rules_label(rules)))
    return rows


def _mcr_situation_text(seat: int, prevalent: int, flags: dict[str, bool] | None = None) -> list[str]:
    parts = [f"seat {_WIND_NAMES[seat]}", f"prevalent {_WIND_NAMES[prevalent]}"]
    if flags is None:
        return parts
    drawn = flags["self_drawn"]
    parts.append("self-drawn (自摸)" if drawn else "won on a discard")
    if flags["fourth_tile"]:
        parts.append("和绝张 (last tile of its kind)")
    if flags["about_kong"]:
        parts.append("杠上开花 (replacement tile)" if drawn else "抢杠和 (robbing the kong)")
    if flags["wall_last"]:
        parts.append("妙手回春 (last tile of the wall)" if drawn else "海底捞月 (last discard)")
    return parts


def _score_mcr(hand: str, draw: str, melds_text: Iterable[str], preset: str | None, sets: Iterable[str],
               mcr: dict[str, Any], as_json: bool, svg_path: str | None) -> None:
    from .families.mcr.score import InvalidMcrHand, McrSituation, score_mcr

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
        from . import svg

        _write_text(svg.hand(tiles, win, melds), svg_path)


def _show_mcr_score(r: McrResult, rows: list[tuple[str, str]], min_fan: int) -> None:
    from rich.table import Table

    from .batch import _mcr_reason

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


def _waits_mcr(hand: str, melds_text: Iterable[str], preset: str | None, sets: Iterable[str], seat_text: str | None,
               prevalent_text: str | None, as_json: bool) -> None:
    from .families.mcr.score import InvalidMcrHand
    from .families.mcr.waits import mcr_waits

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
        help="Rule preset (default classic; classic, yiyou: Tianjin; beijing, beijing_a: Beijing; mcr: MCR; "
             "see `tjmj rules`).",
    )(f)
    return f


_MELD_HELP = ("Exposed meld (repeatable): [345m] chi (Beijing, MCR), [777m] pon, [7777m] kong, [7777m+] added "
              "kong, (7777m) concealed kong.")


def _beijing_flags(f: Callable[..., Any]) -> Callable[..., Any]:
    """The Beijing win situation (B3, B5, B6): the options of BEIJING_OPTIONS but --kong-draw."""
    for opt, text in reversed((
        ("--discard", "Beijing: won on another player's discard (点炮), not self-drawn."),
        ("--dealer", "Beijing: the winner is the dealer (庄胡)."),
        ("--last-tile", "Beijing: self-drawn on the last tile a normal draw may take (海底捞月)."),
        ("--rob-kong", "Beijing: robbing another player's kong (抢杠)."),
        ("--hunyou", "Beijing: the automatic win of a 混儿悠 draw (B3)."),
        ("--hungang", "Beijing: 混杠 declared with all four wilds (B2)."),
        ("--tianhe", "Beijing: 天和, the dealer's 14 dealt tiles (with --dealer)."),
        ("--dihe", "Beijing: 地和, a non-dealer's first draw."),
        ("--upstairs", "Beijing: the hand is played 上楼 (payments doubled, B6)."),
    )):
        f = click.option(opt, BEIJING_OPTIONS_VAR[opt], is_flag=True, help=text)(f)
    return f


BEIJING_OPTIONS_VAR = {opt: key for key, opt in BEIJING_OPTIONS.items()}


def _mcr_flags(f: Callable[..., Any]) -> Callable[..., Any]:
    """The MCR win situation (PyMahjongGB's inputs, M3): the options of MCR_OPTIONS."""
    for opt, kwargs in reversed((
        ("--self-drawn", {"is_flag": True, "help": "MCR: self-drawn (自摸); without it, won on a discard."}),
        ("--fourth-tile", {"is_flag": True, "help": "MCR: 和绝张, the other three of the winning tile are face up."}),
        ("--about-kong", {"is_flag": True, "help": "MCR: 杠上开花 (with --self-drawn) or 抢杠和 (on a discard)."}),
        ("--wall-last", {"is_flag": True, "help": "MCR: 妙手回春 (with --self-drawn) or 海底捞月: the wall's last tile."}),
        ("--flowers", {"metavar": "N", "help": "MCR: flowers laid aside, 0..8 (1 fan each, not toward the 8)."}),
    )):
        f = click.option(opt, MCR_OPTIONS_VAR[opt], **kwargs)(f)  # type: ignore[arg-type]
    return _mcr_winds(f)


def _mcr_winds(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option("--prevalent-wind", "prevalent_wind", metavar="WIND",
                     help="MCR: the prevalent wind (圈风), E S W N or 0-3 (default E).")(f)
    f = click.option("--seat-wind", "seat_wind", metavar="WIND",
                     help="MCR: the player's seat wind (门风), E S W N or 0-3 (default E, the dealer).")(f)
    return f


MCR_OPTIONS_VAR = {opt: key for key, opt in MCR_OPTIONS.items()}


# Commands that live in their own modules (each readable alone, like python-chess's), imported
# only when used: `tjmj score --batch` starts without the web stack, and no import cycles arise.
_LAZY = {
    "advise": "cli_advise",
    "play": "cli_play",
    "replay": "cli_replay",
    "serve": "cli_serve",
    "simulate": "cli_simulate",
    "stats": "cli_stats",
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
    """Tianjin (天津), Beijing (北京) and MCR (国标) mahjong: the game in the terminal and the browser,
    the hand calculator, self-play and tools.

    Rules in the source tree: docs/rules/RULES.md (Tianjin, --rules classic|yiyou), BEIJING.md
    (--rules beijing|beijing_a), MCR.md (--rules mcr); `tjmj rules` lists the presets.  Tiles in
    MPSZ or Chinese."""


@main.command()
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


def _tianjin_rules(preset: str | None, sets: Iterable[str]) -> TianjinRules:
    rules = _rules(preset, sets)
    if not isinstance(rules, TianjinRules):
        raise _other_rules(rules)
    return rules


def _beijing_rules(preset: str | None, sets: Iterable[str]) -> BeijingRules:
    rules = _rules(preset, sets)
    if not isinstance(rules, BeijingRules):
        raise _other_rules(rules)
    return rules


def _other_rules(rules: Rules) -> InputError:
    """A command that does not take this family's rules (``tjmj advise --rules mcr``): one line."""
    from .families import get

    ctx = click.get_current_context(silent=True)
    command = f"tjmj {ctx.info_name}" if ctx is not None and ctx.info_name else "this command"
    return InputError(f"--rules {rules.name.split('+')[0]}: {command} does not take {get(rules.family).english} "
                      "rules")


def _no_beijing_flags(situation: dict[str, bool], why: str) -> None:
    given = [BEIJING_OPTIONS[k] for k in BEIJING_FLAGS if k != "kong_draw" and situation.get(k)]
    if given:
        raise InputError(f"{', '.join(given)}: {'a Beijing option' if len(given) == 1 else 'Beijing options'} "
                         f"(--rules beijing or beijing_a); {why}")


def _score_beijing(
    hand: str, draw: str, indicator: str | None, melds: Iterable[str], preset: str | None, sets: Iterable[str],
    situation: dict[str, bool], as_json: bool, svg_path: str | None,
) -> None:
    from .families.beijing.score import score_input as score_beijing_input

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
    from . import svg

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


@main.command()
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
    from .families.beijing.advise import ready_waits, shanten_counts

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
    from .families.beijing.score import scorer_for

    return scorer_for(h.indicator, h.rules).hunyou_ready(h.counts, len(h.melds))


@main.command("rules")
@_rules_options
@click.option("--json", "as_json", is_flag=True, help="Print the options as one JSON object.")
def rules_cmd(preset: str | None, sets: tuple[str, ...], as_json: bool) -> None:
    """List every rule option: its value in the preset, allowed values and rules section (R… for
    Tianjin, B… for Beijing, M… for MCR); without --rules, the default preset classic, then the
    families."""
    from .families import all_families, get

    rules = _rules(preset, sets)
    desc = type(rules).describe()
    if as_json:
        options = {}
        for name, (spec, section, text) in desc.items():
            options[name] = {"value": getattr(rules, name), "allowed": _allowed(spec)[1], "section": section,
                             "description": text}
        click.echo(_json_line({"preset": rules.name.split("+")[0], "options": options, "family": rules.family}))
        return
    page = get(rules.family).rules_page.rsplit("/", 1)[-1]
    # one block per option rather than a table: the descriptions stay readable at 80 columns
    con = _console()
    con.print(f"[bold]Rule options — {_esc(_rules_label(rules))}[/bold]  (option = value, {page} section, allowed)")
    for name, (spec, section, text) in desc.items():
        head = f"{name} = {json.dumps(getattr(rules, name))}"
        con.print(f"{_esc(head):<30} {section:<5} {_esc(_allowed(spec)[0])}")
        con.print(f"    [dim]{_esc(text)}[/dim]")
    if preset is None:
        con.print()
        con.print("[bold]Rule families[/bold]  (`tjmj rules --rules PRESET` lists a preset's options)")
        for fam in all_families():
            con.print(f"{fam.name:<8} {fam.chinese}  presets {', '.join(fam.presets)}  ({fam.rules_page})")

