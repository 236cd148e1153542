"""What the ``tjmj`` commands share: the input errors, the parsing of hands, melds, rules and
``--set`` (the hand text itself is read by :mod:`tjmj.jsonlines`, the batch's parser, so that the
command line and the batch read tiles alike), the option decorators, the Beijing and MCR situation
inputs, and the small pieces of Rich output.  Imports nothing of :mod:`tjmj.cli`'s group or commands.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import click

from ..families.beijing.calculator import beijing_context
from ..families.mcr.calculator import mcr_meld
from ..families.tianjin.score import HandInput, prepare
from ..jsonlines import named_tiles as _tiles
from ..jsonlines import one_tile as _one_tile
from ..meld import Meld, MeldType, parse_melds
from ..rules import PRESETS, BeijingRules, McrRules, Rules, RulesError, TianjinRules
from ..tiles import Tile, TileError, format_tiles

if TYPE_CHECKING:
    from rich.console import Console

    from ..families.beijing.score import BeijingHand

__all__ = ["BEIJING_OPTIONS", "BEIJING_OPTIONS_VAR", "MCR_OPTIONS", "MCR_OPTIONS_VAR", "CliError", "InputError",
           "check_output_file", "check_outside_bots", "parse_overrides"]


_DEFAULT_PRESET = "classic"


class CliError(click.ClickException):
    """A user mistake found before any work: one ``Error: …`` line on stderr and exit status 2
    (no usage text, no traceback), like the other commands' input errors."""

    exit_code = 2


def parse_overrides(items: Iterable[str]) -> dict[str, Any]:
    """``--set option=value``: the value is JSON (``1``, ``true``, ``"flat"``) or else the raw text.

    Raises ValueError naming the item when it is not ``option=value``.
    """
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"{item!r}: expected option=value, e.g. --set min_fan=1")
        try:
            out[key] = json.loads(raw)
        except ValueError:
            out[key] = raw  # so that tianhu=best_x4 works without shell-quoted JSON
    return out


def check_output_file(path: str | None, option: str) -> None:
    """Raise :class:`CliError` naming ``option``, the path and the problem if no file can be written
    there (missing directory, a directory, no permission); creates nothing."""
    from ..simulate import output_file_problem  # the library's check: the Python API applies it too

    if path is None:
        return
    problem = output_file_problem(path)
    if problem is not None:
        raise CliError(f"{option} {path}: cannot write there: {problem}")


def check_outside_bots(names: Iterable[str], option: str = "--bots") -> None:
    """Raise :class:`CliError` naming the bot if a ``cmd:`` bot has no command or its program cannot be
    started (not on PATH, no such file, not executable), before any match is played; starts nothing."""
    from ..bots.external import check_command, is_external

    for name in dict.fromkeys(names):
        if is_external(name):
            try:
                check_command(name)
            except ValueError as e:  # BotStartError, or no command / bad quoting after "cmd:"
                raise CliError(f"{option}: {e}") from None


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
    from ..families.beijing.score import prepare_beijing

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
    from ..families import get

    ctx = click.get_current_context(silent=True)
    command = f"tjmj {ctx.info_name}" if ctx is not None and ctx.info_name else "this command"
    return InputError(f"--rules {rules.name.split('+')[0]}: {command} does not take {get(rules.family).english} "
                      "rules")
