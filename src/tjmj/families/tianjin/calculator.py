"""The Tianjin calculator (天津麻将, docs/rules/RULES.md): its batch lines and its ``tjmj score``,
``waits`` and ``advise`` (the protocol: :mod:`tjmj.jsonlines` for the batch side,
:mod:`tjmj.cli.common` for the command line).  The batch side loads neither Click nor Rich: the
command-line functions import them when called.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product
from typing import TYPE_CHECKING, Any

import orjson

from ...hand import Group
from ...jsonlines import (
    MELD_BY_TEXT,
    NO_OVERRIDES,
    TILE_BY_TEXT,
    LineError,
    RulesCache,
    field_bool,
    field_str,
    named_tiles,
    one_tile,
    show_value,
    unknown_keys_hint,
)
from ...meld import Meld, MeldType
from ...tiles import TILE_TEXT, Tile, TileError, format_tiles, parse_tiles
from . import FAMILY
from .rules import CLASSIC, TianjinRules
from .score import ScoreResult, _codes, prepare, score_input

if TYPE_CHECKING:
    from rich.console import Console

    from ...cli.common import Request
    from ...family import Family
    from ...rules import Rules
    from .advise import Advice, Option
    from .score import HandInput
    from .waits import Wait, Waits

# The batch input keys, in documentation order (docs/cli.md); anything else is an error.
BATCH_KEYS = ("hand", "draw", "indicator", "melds", "kong_draw", "tianhu", "ruleset", "rules")
_REQUIRED = ("hand", "draw", "indicator")
_KEYS = frozenset(BATCH_KEYS)


def batch_answer(obj: dict[str, Any], cache: RulesCache, arrangement: bool = True) -> dict[str, object]:
    """A Tianjin line's answer: ``ScoreResult.to_dict(arrangement)`` (a line without ``ruleset``
    is one: classic; one naming no preset comes here too, and its error names it)."""
    if not _KEYS.issuperset(obj):
        unknown = [k for k in obj if k not in BATCH_KEYS]
        hint = unknown_keys_hint(FAMILY.name, unknown)
        raise LineError(f"unknown key(s) {', '.join(map(repr, unknown))}; the keys are {', '.join(BATCH_KEYS)}{hint}")
    if "hand" not in obj or "draw" not in obj or "indicator" not in obj:
        missing = [k for k in _REQUIRED if k not in obj]
        raise LineError(f"missing key(s) {', '.join(map(repr, missing))}; hand, draw and indicator are required")
    text = obj["hand"]
    if type(text) is not str:
        field_str(obj, "hand")  # raises, naming the type
    try:
        hand = parse_tiles(text)
    except TileError as e:
        raise TileError(f"hand: {e}") from None
    v = obj["draw"]
    draw = TILE_BY_TEXT.get(v) if type(v) is str else None
    if draw is None:
        draw = one_tile(field_str(obj, "draw"), "draw")
    v = obj["indicator"]
    indicator = TILE_BY_TEXT.get(v) if type(v) is str else None
    if indicator is None:
        indicator = one_tile(field_str(obj, "indicator"), "indicator")
    raw_melds = obj.get("melds")
    melds: list[Meld] = []
    if raw_melds is not None:
        if type(raw_melds) is not list:
            raise LineError(f"'melds' must be an array of {{\"type\": ..., \"tile\": ...}} objects, got {show_value(raw_melds)}")
        for i, m in enumerate(raw_melds):
            meld = None
            if type(m) is dict and len(m) == 2 and type(m.get("type")) is str and type(m.get("tile")) is str:
                meld = MELD_BY_TEXT.get((m["type"], m["tile"]))
            if meld is None:
                try:
                    meld = Meld.from_dict(m)
                except TileError as e:
                    raise LineError(f"melds[{i}]: {e}") from None
            melds.append(meld)
    kong_draw = obj.get("kong_draw", False)
    if type(kong_draw) is not bool:
        field_bool(obj, "kong_draw")
    tianhu = obj.get("tianhu", False)
    if type(tianhu) is not bool:
        field_bool(obj, "tianhu")
    if "ruleset" in obj or "rules" in obj:
        rules = cache.get(obj.get("ruleset", CLASSIC.name), obj.get("rules", NO_OVERRIDES))
        if not isinstance(rules, TianjinRules):  # pragma: no cover - other families' lines go to their calculators
            raise LineError(f"ruleset {rules.name!r} is not Tianjin's")
    else:
        rules = CLASSIC  # the usual line: no look-up needed
    h = prepare(hand, draw, indicator, melds, kong_draw=kong_draw, tianhu=tianhu, rules=rules)
    return answer(score_input(h), arrangement)




# group -> its JSON: the same few thousand groups make up every arrangement
_GROUP_JSON: dict[Group, orjson.Fragment] = {}


def answer(r: ScoreResult, arrangement: bool = True) -> dict[str, object]:
    """``r.to_dict(arrangement)``, with each group as ready-made JSON and tuples for arrays
    (shared, so never to be changed in place): equal once serialised (tested)."""
    d: dict[str, object] = {"complete": r.complete, "win": r.win, "fan": r.fan, "elements": _codes(r.flags),
                            "name": r.name}
    if r.reason:
        d["reason"] = r.reason
    if not arrangement:
        return d
    a = r.arrangement
    if a is None:
        d["arrangement"] = None
        return d
    groups = []
    for g in a.groups:
        f = _GROUP_JSON.get(g)
        groups.append(f if f is not None else _group_json(g))
    d["arrangement"] = {"groups": groups, "dragon": a.dragon}
    return d


def _list_json(tiles: tuple[Tile, ...]) -> str:
    if len(_LIST_JSON) >= 65536:  # bounded, whatever the input
        _LIST_JSON.clear()
    v = _LIST_JSON[tiles] = "[" + ",".join(['"' + TILE_TEXT[t] + '"' for t in tiles]) + "]"
    return v


# the parts of a group's JSON: tile lists (a few hundred recur), wild flags, winning index
_LIST_JSON: dict[tuple[Tile, ...], str] = {}
_WILD_JSON = {
    w: "[" + ",".join("true" if x else "false" for x in w) + "]" for n in (2, 3, 4) for w in product((False, True), repeat=n)
}
_WINNING_JSON: dict[int | None, str] = {None: "null", 0: "0", 1: "1", 2: "2", 3: "3"}


def _group_json(g: Group) -> orjson.Fragment:
    """``g.to_dict()`` as compact JSON, put together from cached parts (orjson.dumps would
    also hand back a 2 kB buffer for each of these kept fragments: tens of MB in a big batch)."""
    if len(_GROUP_JSON) >= 65536:  # bounded, whatever the input
        _GROUP_JSON.clear()
    kind, tiles, plays, wild, winning = g
    t = _LIST_JSON.get(tiles) or _list_json(tiles)
    p = t if plays == tiles else (_LIST_JSON.get(plays) or _list_json(plays))
    text = f'{{"kind":"{kind}","tiles":{t},"plays":{p},"wild":{_WILD_JSON[wild]},"winning":{_WINNING_JSON[winning]}}}'
    f = _GROUP_JSON[g] = orjson.Fragment(text.encode())
    return f


# --------------------------------------------------------------------------------------
# The command line (tjmj score / waits / advise): the protocol of tjmj.cli.common.
# --------------------------------------------------------------------------------------

HELP_NOTES = {"--indicator": "R2", "--kong-draw": "杠开, R5.1"}
OPTIONS = {"tianhu": "--tianhu"}
CLI_OPTIONS: dict[str, tuple[tuple[tuple[str, ...], dict[str, Any]], ...]] = {
    "score": ((("--tianhu", "tianhu"), {"is_flag": True,
                                        "help": "天胡 (R5.5): the dealer's 14 dealt tiles; --draw is the 14th."}),),
}
_DEALER_WHY = "Tianjin's fan does not depend on the dealer (R5)"


def foreign_error(given: list[str], receiver: Family, why: str = "") -> str:
    return (f"{', '.join(given)}: {'a Tianjin option' if len(given) == 1 else 'Tianjin options'} "
            f"(--rules {' or '.join(FAMILY.presets)}), not for {receiver.short} hands")


def _missing_indicator() -> Exception:
    import click

    return click.UsageError("Missing option '--indicator' (the face-up wild indicator).")


def score_cli(req: Request) -> None:
    import click

    from ...cli.common import _json_line, family_rules, refuse_foreign

    refuse_foreign(req, FAMILY, "Tianjin hands are scored self-drawn (R5)")
    if req.indicator is None:
        raise _missing_indicator()
    rules = family_rules(req.preset, req.sets, FAMILY)
    h = _prepare(req.hand, req.draw, req.indicator, req.melds, rules, kong_draw=req.kong_draw,
                 tianhu=bool(req.options.get("tianhu")))
    r = score_input(h)
    if req.as_json:
        click.echo(_json_line(r.to_dict()))
    else:
        _show_score(r)
    if req.svg_path:
        _write_svg(r, req.svg_path)


def _waits(req: Request) -> tuple[HandInput, Waits]:
    from ...cli.common import family_rules, refuse_foreign
    from .waits import waits_of

    refuse_foreign(req, FAMILY, _DEALER_WHY, reverse=True)  # another family's seat winds first, as always
    if req.indicator is None:
        raise _missing_indicator()
    rules = family_rules(req.preset, req.sets, FAMILY)
    h = _prepare(req.hand, None, req.indicator, req.melds, rules)
    return h, waits_of(h)


def waits_json(req: Request) -> dict[str, Any]:
    """What ``tjmj waits --json`` prints (and ``POST /api/waits`` answers) for ``req``."""
    return _waits(req)[1].to_dict()


def waits_cli(req: Request) -> None:
    import click

    from ...cli.common import _json_line

    h, ws = _waits(req)
    if req.as_json:
        click.echo(_json_line(ws.to_dict()))
    else:
        _show_waits(h, ws)


def advise_cli(req: Request) -> None:
    """Also what ``tjmj advise`` runs for a family without an advisor: its rules are refused once
    the inputs are checked (as they always were)."""
    import click

    from ...cli.common import InputError, _json_line, _seen_tiles, family_rules, refuse_foreign
    from .advise import advise_input

    refuse_foreign(req, FAMILY, _DEALER_WHY)
    if req.indicator is None:
        raise _missing_indicator()
    rules = family_rules(req.preset, req.sets, FAMILY)
    h = _prepare(req.hand, req.draw, req.indicator, req.melds, rules)
    try:
        seen_tiles = _seen_tiles(req.seen)
        a = advise_input(h, seen_tiles, wall_left=req.wall_left)
    except TileError as e:  # InvalidHand included
        raise InputError(str(e)) from None
    if req.as_json:
        d = a.to_dict()
        if req.top is not None:
            d["options"] = d["options"][:req.top]  # type: ignore[index]
        click.echo(_json_line(d))
    else:
        _show_advice(a, req.top)


def _prepare(
    hand: str, draw: str | None, indicator: str, melds: Iterable[str], rules: TianjinRules,
    kong_draw: bool = False, tianhu: bool = False,
) -> HandInput:
    from ...cli.common import InputError, _melds_text

    try:
        return prepare(
            named_tiles(hand, "HAND"),
            one_tile(draw, "--draw") if draw is not None else None,
            one_tile(indicator, "--indicator"),
            _melds_text(melds),
            kong_draw=kong_draw,
            tianhu=tianhu,
            rules=rules,
        )
    except TileError as e:  # InvalidHand included
        raise InputError(str(e)) from None


def _meld_text(m: Meld, wilds: tuple[Tile, ...]) -> str:
    kind = "金杠 gold kong" if m.type is MeldType.CONCEALED_KONG and m.tile in wilds else f"{m.type.chinese} {m.type.value}"
    return f"{m} {m.tile.chinese} ({kind})"


def _show_tiles(con: Console, h: HandInput, rules: Rules, *, draw_note: str = "") -> None:
    from ...cli.common import _names, _print_rows, _rules_label

    hand = sorted(h.concealed)
    rows = [("Hand", format_tiles(hand)), ("", _names(hand))]
    if h.draw is not None:
        rows.append(("Draw", f"{h.draw} {h.draw.chinese}{draw_note}"))
    rows.append(("Melds", ", ".join(_meld_text(m, h.wilds) for m in h.melds) or "–"))
    rows.append(("Indicator", f"{h.indicator} {h.indicator.chinese}"))
    rows.append(("Wilds", ", ".join(f"{w} {w.chinese}" for w in h.wilds) + "  (混儿, R2)"))
    rows.append(("Rules", _rules_label(rules)))
    _print_rows(con, rows)


def _write_svg(r: ScoreResult, path: str) -> None:
    """The best arrangement when the hand is complete, else the hand as held (tjmj.svg)."""
    from ... import svg
    from ...cli.common import _write_text

    h = r.hand
    arr = r.arrangement
    text = svg.arrangement(arr) if arr is not None else svg.hand(h.concealed, h.draw, h.melds, wilds=h.wilds)
    _write_text(text, path)


def _show_score(r: ScoreResult) -> None:
    from rich.table import Table

    from ...cli.common import _console, _esc

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

    from ...cli.common import _console, _esc

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


def _show_advice(a: Advice, top: int | None) -> None:
    from rich.table import Table

    from ...cli.common import _console, _esc, _model_line, _pct, _summaries

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
