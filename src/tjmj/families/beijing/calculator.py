"""The Beijing calculator (北京麻将, docs/rules/BEIJING.md): its batch lines and its ``tjmj score``,
``waits`` and ``advise`` (the protocol: :mod:`tjmj.jsonlines` for the batch side,
:mod:`tjmj.cli.common` for the command line).  Its scorer is imported on first use, so that a
Tianjin batch or command neither loads it nor pays for it; Click and Rich only by the commands.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ... import families
from ...jsonlines import NO_OVERRIDES, LineError, RulesCache, field_bool, field_str, named_tiles, one_tile, parse_melds
from ...tiles import Tile, TileError, format_tiles
from . import FAMILY

if TYPE_CHECKING:
    from ...cli.common import Request
    from ...family import Family
    from .advise import Advice as BeijingAdvice
    from .advise import Option as BeijingOption
    from .advise import Wait as BeijingTurnWait
    from .rules import BeijingRules
    from .score import BeijingHand, BeijingResult

# A Beijing line ("ruleset": "beijing" or "beijing_a", docs/rules/BEIJING.md): its win situation
# flags, then every key it may hold, in documentation order.
BEIJING_FLAGS = ("win_on_discard", "dealer", "last_tile", "kong_draw", "rob_kong", "hunyou", "hungang", "tianhe",
                 "dihe", "upstairs")
BEIJING_BATCH_KEYS = ("hand", "draw", "indicator", "melds", *BEIJING_FLAGS, "ruleset", "rules")
BATCH_KEYS = BEIJING_BATCH_KEYS
_BEIJING_KEYS = frozenset(BEIJING_BATCH_KEYS)


def beijing_context(flags: dict[str, bool], name: Any = None) -> Any:
    """The :class:`~tjmj.families.beijing.elements.WinContext` of a Beijing win from the interface's
    flags (``BEIJING_FLAGS`` but ``upstairs``; missing ones false), after rejecting situations that
    cannot happen together; ``name(flag)`` spells a flag in the error (``--discard`` on the command
    line).  Raises :class:`~tjmj.tiles.TileError` with one line naming both flags and the rule."""
    from .elements import WinContext

    def say(k: str) -> str:
        return name(k) if name is not None else k

    def clash(a: str, b: str, why: str) -> TileError:
        return TileError(f"{say(a)} and {say(b)}: {why}")

    f = {k: bool(flags.get(k, False)) for k in BEIJING_FLAGS}
    discard, rob = f["win_on_discard"], f["rob_kong"]
    if discard and rob:
        raise clash("win_on_discard", "rob_kong", "a robbed kong's tile is not a discard (B3)")
    other = "win_on_discard" if discard else "rob_kong" if rob else None
    if other is not None:
        for k, why in (("kong_draw", "杠上开花 is won on one's own replacement draw (B5)"),
                       ("last_tile", "海底捞月 is the last tile a normal draw may take, self-drawn (B1, B5)"),
                       ("hunyou", "the 混儿悠 win is the player's own next draw (B3)"),
                       ("hungang", "混杠 is declared after one's own draw (B2)"),
                       ("tianhe", "天和 is won on the dealer's 14 dealt tiles (B5)"),
                       ("dihe", "地和 is won on a non-dealer's first draw (B5)")):
            if f[k]:
                raise clash(other, k, why)
    if f["kong_draw"] and f["last_tile"]:
        raise clash("kong_draw", "last_tile", "a replacement draw is not a normal draw, so not 海底 (B1, B5)")
    flats = [k for k in ("hungang", "tianhe", "dihe") if f[k]]
    if len(flats) > 1:
        raise clash(flats[0], flats[1], "a win is one flat hand at most (B5)")
    if f["tianhe"] and not f["dealer"]:
        raise TileError(f"{say('tianhe')} (天和) is the dealer's win: it needs {say('dealer')} as well (B5)")
    if f["dihe"] and f["dealer"]:
        raise clash("dihe", "dealer", "地和 is a non-dealer's win; the dealer's is 天和 (B5)")
    for k in ("tianhe", "dihe"):
        if f[k] and f["kong_draw"]:
            raise clash(k, "kong_draw", "it comes before any kong (B5)")
    return WinContext(self_drawn=not (discard or rob), dealer=f["dealer"], last_tile=f["last_tile"],
                      kong_draw=f["kong_draw"], rob_kong=rob, hunyou=f["hunyou"], hungang=f["hungang"],
                      tianhe=f["tianhe"], dihe=f["dihe"])


def beijing_answer(r: Any, arrangement: bool = True, upstairs: bool = False) -> dict[str, object]:
    """A Beijing line's answer from a :class:`~tjmj.families.beijing.score.BeijingResult` (docs/cli.md):
    ``complete``, ``win``, ``value``, ``elements`` (B5 codes), ``name``, ``reason`` when it does not
    win, ``halved`` (version A, an open hand), ``payments`` when it wins, ``arrangement``."""
    d: dict[str, object] = {"complete": r.complete, "win": r.win, "value": r.value, "elements": r.codes,
                            "name": r.name}
    if r.reason:
        d["reason"] = r.reason
    if r.halved:
        d["halved"] = True
    if r.win:
        d["payments"] = r.payments(upstairs=upstairs)
    if arrangement:
        a = r.arrangement
        d["arrangement"] = a.to_dict() if a is not None else None
    return d



def batch_answer(obj: dict[str, Any], cache: RulesCache, arrangement: bool = True) -> dict[str, object]:
    """A Beijing line's answer (``"ruleset": "beijing"`` or ``"beijing_a"``): :func:`beijing_answer`."""
    from .score import prepare_beijing, score_input

    ruleset = obj["ruleset"]
    if not _BEIJING_KEYS.issuperset(obj):
        tianjin = [k for k in obj if k in _tianjin_only()]
        if tianjin:
            raise LineError(f"key(s) {', '.join(map(repr, tianjin))} belong to Tianjin lines, not to ruleset "
                            f"{ruleset!r} (Beijing's 天和 and 地和 are 'tianhe' and 'dihe'); the keys of a Beijing line "
                            f"are {', '.join(BEIJING_BATCH_KEYS)}")
        unknown = [k for k in obj if k not in _BEIJING_KEYS]
        raise LineError(f"unknown key(s) {', '.join(map(repr, unknown))}; the keys of a Beijing line are "
                        f"{', '.join(BEIJING_BATCH_KEYS)}")
    if "hand" not in obj or "draw" not in obj:
        missing = [k for k in ("hand", "draw") if k not in obj]
        raise LineError(f"missing key(s) {', '.join(map(repr, missing))}; hand and draw are required")
    rules = cache.get(ruleset, obj.get("rules", NO_OVERRIDES))
    hand = named_tiles(field_str(obj, "hand"), "hand")
    draw = one_tile(field_str(obj, "draw"), "draw")
    indicator = None
    if rules.wilds:  # type: ignore[attr-defined]
        if "indicator" not in obj:
            raise LineError(f"missing key 'indicator': ruleset {rules.name!r} has a wild (B2); give the 混坯, the wild "
                            "is its successor")
        indicator = one_tile(field_str(obj, "indicator"), "indicator")
    elif "indicator" in obj:
        raise LineError(f"'indicator': ruleset {rules.name!r} has no wild (B2 option wilds false); leave it out")
    melds = parse_melds(obj.get("melds"))
    flags = {k: field_bool(obj, k) for k in BEIJING_FLAGS if k in obj}
    ctx = beijing_context(flags)
    upstairs = flags.get("upstairs", False)
    if upstairs and not rules.upstairs:  # type: ignore[attr-defined]
        raise LineError(f"'upstairs': 上楼 is off in ruleset {rules.name!r} (B6 option upstairs)")
    h = prepare_beijing(hand, draw, melds=melds, indicator=indicator, rules=rules, context=ctx)  # type: ignore[arg-type]
    return beijing_answer(score_input(h), arrangement, upstairs)


def _tianjin_only() -> frozenset[str]:
    """The keys of Tianjin lines that Beijing's have not (``tianhu``): an error's hint only."""
    return frozenset(families.get("tianjin").calculator.BATCH_KEYS) - _BEIJING_KEYS


# --------------------------------------------------------------------------------------
# The command line (tjmj score / waits / advise --rules beijing|beijing_a): tjmj.cli.common's protocol.
# --------------------------------------------------------------------------------------

HELP_NOTES = {"--draw": "Beijing: the tile won on", "--indicator": "Beijing: the 混坯, B2", "--meld": "Beijing",
              "--kong-draw": "杠上开花, B5"}
# the command-line spelling of each situation flag (the batch keys of BEIJING_FLAGS)
BEIJING_OPTIONS = {
    "win_on_discard": "--discard", "dealer": "--dealer", "last_tile": "--last-tile", "kong_draw": "--kong-draw",
    "rob_kong": "--rob-kong", "hunyou": "--hunyou", "hungang": "--hungang", "tianhe": "--tianhe", "dihe": "--dihe",
    "upstairs": "--upstairs",
}
OPTIONS = BEIJING_OPTIONS
# the win situation (B3, B5, B6) on tjmj score: the flags of BEIJING_OPTIONS but kong_draw (a shared option)
_FLAG_HELP = (
    ("win_on_discard", "Beijing: won on another player's discard (点炮), not self-drawn."),
    ("dealer", "Beijing: the winner is the dealer (庄胡)."),
    ("last_tile", "Beijing: self-drawn on the last tile a normal draw may take (海底捞月)."),
    ("rob_kong", "Beijing: robbing another player's kong (抢杠)."),
    ("hunyou", "Beijing: the automatic win of a 混儿悠 draw (B3)."),
    ("hungang", "Beijing: 混杠 declared with all four wilds (B2)."),
    ("tianhe", "Beijing: 天和, the dealer's 14 dealt tiles (with --dealer)."),
    ("dihe", "Beijing: 地和, a non-dealer's first draw."),
    ("upstairs", "Beijing: the hand is played 上楼 (payments doubled, B6)."),
)
_DEALER = (("--dealer", "dealer"), {"is_flag": True, "help": "Beijing: the player is the dealer (庄胡 doubles each value)."})
CLI_OPTIONS: dict[str, tuple[tuple[tuple[str, ...], dict[str, Any]], ...]] = {
    "score": tuple(((BEIJING_OPTIONS[k], k), {"is_flag": True, "help": text}) for k, text in _FLAG_HELP),
    "waits": (_DEALER,),
    "advise": (_DEALER,),
}


def foreign_error(given: list[str], receiver: Family, why: str = "") -> str:
    return (f"{', '.join(given)}: {'a Beijing option' if len(given) == 1 else 'Beijing options'} "
            f"(--rules {' or '.join(FAMILY.presets)}); {why}")


def score_cli(req: Request) -> None:
    from ...cli.common import InputError, refuse_foreign

    refuse_foreign(req, FAMILY, skip=("tianhu",))
    if req.options.get("tianhu"):
        raise InputError("--tianhu is Tianjin's 天胡 (R5.5); Beijing's are --tianhe (the dealer) and --dihe (B5)")
    assert req.draw is not None  # the command requires it
    situation = {k: req.options[k] for k in BEIJING_FLAGS if k != "kong_draw"}
    situation["kong_draw"] = req.kong_draw
    _score_beijing(req.hand, req.draw, req.indicator, req.melds, req.preset, req.sets, situation, req.as_json,
                   req.svg_path)


def waits_cli(req: Request) -> None:
    import click

    from ...cli.common import _json_line, refuse_foreign

    refuse_foreign(req, FAMILY)
    got = _waits_beijing(req.hand, req.indicator, req.melds, bool(req.options.get("dealer")), req.preset, req.sets,
                         req.as_json)
    if got is not None:
        click.echo(_json_line(got))


def advise_cli(req: Request) -> None:
    from ...cli.common import refuse_foreign

    refuse_foreign(req, FAMILY)
    assert req.draw is not None  # required by the command
    _advise_beijing(req.hand, req.draw, req.indicator, req.melds, req.seen, bool(req.options.get("dealer")),
                    req.preset, req.sets, req.top, req.as_json, req.wall_left)


_FLAG_AT_START = re.compile(r"^(kong_draw|last_tile|rob_kong|hunyou|hungang|tianhe|dihe|dealer)\b")


def _cli_message(e: Exception) -> str:
    """The scorer's message with a leading flag name spelt as its option (``kong_draw`` → ``--kong-draw``)."""
    return _FLAG_AT_START.sub(lambda m: BEIJING_OPTIONS[m.group(1)], str(e))


def _beijing_indicator(indicator: str | None, rules: BeijingRules) -> Tile | None:
    """The 混坯: required when the rules have a wild (B2), refused when they have none."""
    from ...cli.common import InputError

    if rules.wilds:
        if indicator is None:
            raise InputError(f"--indicator: rules {rules.name} have a wild (B2): give the 混坯 (the face-up "
                             "indicator); the wild is its successor")
        try:
            return one_tile(indicator, "--indicator")
        except TileError as e:
            raise InputError(str(e)) from None
    if indicator is not None:
        raise InputError(f"--indicator: rules {rules.name} have no wild (B2 option wilds false); leave it out")
    return None


def _prepare_beijing(
    hand: str, draw: str | None, indicator: str | None, melds: Iterable[str], rules: BeijingRules,
    flags: dict[str, bool],
) -> BeijingHand:
    from ...cli.common import InputError, _melds_text
    from .score import prepare_beijing

    ind = _beijing_indicator(indicator, rules)
    try:
        ctx = beijing_context(flags, BEIJING_OPTIONS.get)
        if flags.get("upstairs") and not rules.upstairs:
            raise TileError(f"--upstairs: 上楼 is off in rules {rules.name} (B6 option upstairs)")
        return prepare_beijing(
            named_tiles(hand, "HAND"),
            one_tile(draw, "--draw") if draw is not None else None,
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
    from ...cli.common import _names, _rules_label

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


def _score_beijing(
    hand: str, draw: str, indicator: str | None, melds: Iterable[str], preset: str | None, sets: Iterable[str],
    situation: dict[str, bool], as_json: bool, svg_path: str | None,
) -> None:
    import click

    from ...cli.common import _json_line, check_output_file, family_rules
    from .score import score_input as score_beijing_input

    check_output_file(svg_path, "--svg")  # before any work: one error line, nothing printed
    rules = family_rules(preset, sets, FAMILY)
    h = _prepare_beijing(hand, draw, indicator, melds, rules, situation)
    r = score_beijing_input(h)
    upstairs = situation.get("upstairs", False)
    if as_json:
        click.echo(_json_line(beijing_answer(r, True, upstairs)))
    else:
        _show_beijing_score(r, upstairs)
    if svg_path:
        _write_beijing_svg(r, svg_path)


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
    from .elements import bit_of

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

    from ...cli.common import _console, _esc, _print_rows

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
    from ... import svg
    from ...cli.common import _write_text

    h = r.hand
    arr = r.arrangement
    if arr is not None:
        dragon = sorted(_dragon_groups(r))
        text = svg.arrangement(svg.arrangement_type()(arr.groups, arr.winning_tile, (arr.wild,) if arr.wild is not None else (),
                                           tuple(dragon) if len(dragon) == 3 else None))  # type: ignore[arg-type]
    else:
        text = svg.hand(h.concealed, h.draw, h.melds, wilds=(h.wild,) if h.wild is not None else ())
    _write_text(text, path)


def _waits_beijing(
    hand: str, indicator: str | None, melds: Iterable[str], dealer: bool, preset: str | None,
    sets: Iterable[str], as_json: bool,
) -> dict[str, Any] | None:
    """The waits as a dict (``as_json``), or shown on the terminal (None)."""
    from ...cli.common import family_rules
    from .advise import ready_waits, shanten_counts

    rules = family_rules(preset, sets, FAMILY)
    h = _prepare_beijing(hand, None, indicator, melds, rules, {"dealer": dealer})
    ws = ready_waits(h)
    std, pairs = shanten_counts(h.counts, h.wild, len(h.melds))
    best = std if pairs is None else min(std, pairs)
    hunyou = h.wild is not None and _hunyou_ready(h)
    if as_json:
        return {"ready": any(w.live > 0 for w in ws), "shanten": best, "shanten_standard": std,
                "shanten_pairs": pairs, "hunyou": hunyou, "waits": [w.to_dict() for w in ws if w.live > 0]}
    _show_beijing_waits(h, ws, (std, pairs), hunyou)
    return None


def waits_json(req: Request) -> dict[str, Any]:
    """What ``tjmj waits --json`` prints (and ``POST /api/waits`` answers) for ``req``."""
    from ...cli.common import refuse_foreign

    refuse_foreign(req, FAMILY)
    got = _waits_beijing(req.hand, req.indicator, req.melds, bool(req.options.get("dealer")), req.preset, req.sets,
                         True)
    assert got is not None
    return got


def _hunyou_ready(h: BeijingHand) -> bool:
    """混儿悠 readiness (B3): the 13 tiles win on any draw, a wild standing alone."""
    from .score import scorer_for

    return scorer_for(h.indicator, h.rules).hunyou_ready(h.counts, len(h.melds))


def _show_beijing_waits(h: BeijingHand, ws: tuple[BeijingTurnWait, ...], shanten: tuple[int, int | None],
                        hunyou: bool) -> None:
    from rich.table import Table

    from ...cli.common import _console, _esc, _print_rows

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


def _advise_beijing(
    hand: str, draw: str, indicator: str | None, melds: Iterable[str], seen: Iterable[str], dealer: bool,
    preset: str | None, sets: Iterable[str], top: int | None, as_json: bool, wall_left: int | None = None,
) -> None:
    import click

    from ...cli.common import InputError, _json_line, _seen_tiles, family_rules
    from .advise import advise_input as advise_beijing

    rules = family_rules(preset, sets, FAMILY)
    h = _prepare_beijing(hand, draw, indicator, melds, rules, {"dealer": dealer})
    try:
        seen_tiles = _seen_tiles(seen)
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

    from ...cli.common import _console, _esc, _model_line, _pct, _print_rows, _summaries

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
