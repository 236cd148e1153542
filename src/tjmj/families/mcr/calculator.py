"""The MCR calculator (国标麻将, docs/rules/MCR.md): its batch lines and its ``tjmj score`` and
``waits`` (the protocol: :mod:`tjmj.jsonlines` for the batch side, :mod:`tjmj.cli.common` for the
command line; MCR has no advisor).  Its scorer is imported on first use; Click and Rich only by
the commands.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ...jsonlines import (
    NO_OVERRIDES,
    TILE_BY_TEXT,
    LineError,
    RulesCache,
    field_bool,
    field_str,
    hand_tiles,
    named_tiles,
    one_tile,
    other_keys,
    show_value,
)
from ...meld import Meld, MeldType
from ...tiles import TILE_TEXT, Tile, TileError, format_tiles
from . import FAMILY

if TYPE_CHECKING:
    from ...cli.common import Request
    from ...family import Family
    from .rules import McrRules
    from .score import McrResult
    from .waits import McrWaits

# An MCR line ("ruleset": "mcr", docs/rules/MCR.md): PyMahjongGB's inputs (M3), in documentation order.
MCR_FLAGS = ("self_drawn", "fourth_tile", "about_kong", "wall_last")
MCR_BATCH_KEYS = ("hand", "draw", "melds", "flowers", *MCR_FLAGS, "seat_wind", "prevalent_wind", "ruleset", "rules")
BATCH_KEYS = MCR_BATCH_KEYS

# --------------------------------------------------------------------------------------
# MCR lines (docs/rules/MCR.md): the calculator of tjmj.families.mcr.score, imported on the first
# such line.  Its inputs are PyMahjongGB's (M3); situations that cannot happen are errors here,
# where the calculator (like PyMahjongGB) would quietly drop the flag.
# --------------------------------------------------------------------------------------

_MCR_KEYS = frozenset(MCR_BATCH_KEYS)
_MCR_MELD_KEYS = ("type", "tile", "claimed", "from")
# another family's key on an MCR line: what MCR says instead
_MCR_INSTEAD = {
    "indicator": "MCR has no wilds (M1)",
    "kong_draw": "杠上开花 is 'about_kong' with 'self_drawn'",
    "rob_kong": "抢杠和 is 'about_kong' without 'self_drawn'",
    "last_tile": "妙手回春 and 海底捞月 are 'wall_last'",
    "win_on_discard": "an MCR line is won on a discard unless 'self_drawn' is true",
    "dealer": "the dealer is the East seat: 'seat_wind' 0",
}

def _mcr() -> Any:
    """The MCR calculator's module, imported on the first MCR line."""
    global _MCR_MODULE
    if _MCR_MODULE is None:
        from . import score

        _MCR_MODULE = score
    return _MCR_MODULE


_MCR_MODULE: Any = None


def mcr_meld(m: Meld, claimed: Tile | None = None, offer: int | None = None) -> Any:
    """The :class:`~tjmj.families.mcr.score.McrMeld` of a meld: ``offer`` (PyMahjongGB's: 1 the
    previous seat, 2 opposite, 3 the next; 0 for a concealed kong) defaults to 1 for a claimed meld.
    Neither ``claimed`` nor ``offer`` changes the fan (as in PyMahjongGB)."""
    McrMeld = _mcr().McrMeld
    if m.type is MeldType.CONCEALED_KONG:
        return McrMeld("ankong", m.tile, None, 0)
    if m.type is not MeldType.CHI and claimed is None:
        claimed = m.tile
    return McrMeld(m.type.value, m.tile, claimed, 1 if offer is None else offer)


# (type, tile, claimed, from) as written on a line -> its McrMeld: only valid melds are kept, so
# the table stays small (a few thousand at most) whatever the input
_MCR_MELD_CACHE: dict[tuple[object, object, object, object], Any] = {}
_ABSENT = object()  # a key not on the line (null is a value, and an error)


def _mcr_melds(raw_melds: object) -> list[Any]:
    """An MCR line's ``melds``: ``{"type", "tile"}`` as for the other families, and optionally the
    ``claimed`` tile (a chi's: one of its three) and ``from`` (1 previous seat, 2 opposite, 3 next)."""
    if raw_melds is None:
        return []
    if type(raw_melds) is not list:
        raise LineError(f"'melds' must be an array of {{\"type\": ..., \"tile\": ...}} objects, got {show_value(raw_melds)}")
    out = []
    for i, m in enumerate(raw_melds):
        if type(m) is dict:
            offer = m.get("from", _ABSENT)
            if offer is _ABSENT or type(offer) is int:  # not true, 1.0: equal to 1 as a key, but errors
                hit = _MCR_MELD_CACHE.get((m.get("type"), m.get("tile"), m.get("claimed", _ABSENT), offer))
                if hit is not None and len(m) == 2 + ("claimed" in m) + ("from" in m):
                    out.append(hit)
                    continue
        out.append(_mcr_meld_checked(i, m))
    return out


def _mcr_meld_checked(i: int, m: object) -> Any:
    if type(m) is not dict:
        raise LineError(f"melds[{i}]: a meld must be an object like {{\"type\": \"pon\", \"tile\": \"7z\"}}, got {show_value(m)}")
    unknown = [k for k in m if k not in _MCR_MELD_KEYS]
    if unknown:
        raise LineError(f"melds[{i}]: unknown key(s) {', '.join(map(repr, unknown))}; an MCR meld has "
                        f"{', '.join(_MCR_MELD_KEYS)}")
    try:
        meld = Meld.from_dict({k: m[k] for k in ("type", "tile") if k in m})
    except TileError as e:
        raise LineError(f"melds[{i}]: {e}") from None
    claimed = offer = None
    if meld.type is MeldType.CONCEALED_KONG and ("claimed" in m or "from" in m):
        raise LineError(f"melds[{i}]: a concealed kong (ankong) claims nothing; leave out 'claimed' and 'from'")
    if "claimed" in m:
        c = m["claimed"]
        if type(c) is not str:
            raise LineError(f"melds[{i}]: 'claimed' must be a string like \"5m\", got {show_value(c)}")
        claimed = one_tile(c, f"melds[{i}].claimed")
        if claimed not in meld.tiles:
            raise LineError(f"melds[{i}]: the claimed tile {claimed} is not a tile of the {meld.type.value} {meld}")
    if "from" in m:
        offer = m["from"]
        if type(offer) is not int or not 1 <= offer <= 3:
            raise LineError(f"melds[{i}]: 'from' must be 1 (the previous seat), 2 (opposite) or 3 (the next), "
                            f"got {show_value(offer)}")
        if meld.type is MeldType.CHI and offer != 1:
            raise LineError(f"melds[{i}]: a chi is claimed from the previous seat only (M2): 'from' 1, got {offer}")
    got = mcr_meld(meld, claimed, offer)
    _MCR_MELD_CACHE[(m["type"], m["tile"], m.get("claimed", _ABSENT), m.get("from", _ABSENT))] = got
    return got


def mcr_situation(hand: list[Tile], draw: Tile, melds: list[Any], flags: dict[str, bool], flowers: int,
                  rules: Any, name: Any = None) -> None:
    """Reject a win situation that cannot happen (raises :class:`~tjmj.tiles.TileError`, one line):
    杠上开花 without a kong, 抢杠和 on a tile the winner holds, 和绝张 on a tile the hand holds, or
    flowers under rules without them.  ``name(flag)`` spells a flag (``--about-kong`` on the
    command line)."""
    def say(k: str) -> str:
        return name(k) if name is not None else k

    if flowers and not rules.flowers:
        raise TileError(f"{say('flowers')}: rules {rules.name} play without flowers (M1 option flowers false)")
    if flags.get("about_kong"):
        if flags.get("self_drawn"):
            if not any(m.type in ("kong", "added_kong", "ankong") for m in melds):
                raise TileError(f"{say('about_kong')} with {say('self_drawn')} is 杠上开花 (out with a replacement "
                                "tile): it needs a kong among the melds")
        elif draw in hand or any(draw in _mcr_meld_tiles(m) for m in melds):
            raise TileError(f"{say('about_kong')} on a discard is 抢杠和 (robbing the kong): the other three {draw} "
                            "are the robbed kong's, so the winner's hand and melds cannot hold one")
    if flags.get("fourth_tile") and draw in hand:
        raise TileError(f"{say('fourth_tile')} (和绝张): the other three {draw} are face up, so the hand cannot "
                        "hold one")


def _mcr_meld_tiles(m: Any) -> tuple[int, ...]:
    return (m.tile, m.tile + 1, m.tile + 2) if m.type == "chi" else (m.tile,)


def _mcr_reason(r: Any, min_fan: int) -> str:
    if not r.complete:
        return "not complete: the 14 tiles make none of the winning shapes (M3)"
    return f"{r.fan} fan < min_fan {min_fan}: a win needs {min_fan} fan, flowers not counted (M2)"


def mcr_answer(r: Any, min_fan: int, arrangement: bool = True) -> dict[str, object]:
    """An MCR line's answer from an :class:`~tjmj.families.mcr.score.McrResult` (docs/cli.md):
    ``complete``, ``win``, ``fan`` (without flowers), ``flowers``, ``total``, ``fans``, ``reason``
    when it does not win, ``arrangement`` (null when not complete).  The fans' dicts and the tile
    lists are shared between answers: never to be changed in place."""
    d: dict[str, object] = {"complete": r.complete, "win": r.win, "fan": r.fan, "flowers": r.flowers,
                            "total": r.fan + r.flowers, "fans": [_mcr_fan(e) for e in r.fans]}
    if not r.win:
        d["reason"] = _mcr_reason(r, min_fan)
    if arrangement:
        d["arrangement"] = {"shape": r.shape, "groups": [_mcr_group(g) for g in r.groups]} if r.complete else None
    return d


# a fan entry -> its JSON dict, built once (the calculator hands out the same few hundred entries:
# looked up by identity, checked), and a group's tiles -> their texts
_MCR_FANS: dict[int, tuple[object, dict[str, object]]] = {}
_MCR_TILES: dict[tuple[Tile, ...], list[str]] = {}


def _mcr_fan(e: Any) -> dict[str, object]:
    got = _MCR_FANS.get(id(e))
    if got is not None and got[0] is e:
        return got[1]
    if len(_MCR_FANS) >= 4096:  # entries the calculator does not keep (rare counts): bounded
        _MCR_FANS.clear()
    d: dict[str, object] = {"code": e.code, "name": e.chinese, "en": e.english, "fan": e.fan, "count": e.count}
    _MCR_FANS[id(e)] = (e, d)
    return d


def _mcr_group(g: Any) -> dict[str, object]:
    tiles = g.tiles
    texts = _MCR_TILES.get(tiles)
    if texts is None:
        if len(_MCR_TILES) >= 65536:  # bounded, whatever the input
            _MCR_TILES.clear()
        texts = _MCR_TILES[tiles] = [TILE_TEXT[t] for t in tiles]
    return {"kind": g.kind, "tiles": texts, "concealed": g.concealed}


def _mcr_wind(obj: dict[str, Any], key: str) -> int:
    v = obj.get(key, 0)
    if type(v) is not int or not 0 <= v <= 3:
        raise LineError(f"'{key}' must be 0, 1, 2 or 3 (东 南 西 北), got {show_value(v)}")
    return v


# the situations of MCR lines, built once each (7 values: a few thousand at most)
_MCR_SITUATIONS: dict[tuple[bool, bool, bool, bool, int, int, int], Any] = {}


def batch_answer(obj: dict[str, Any], cache: RulesCache, arrangement: bool = True) -> dict[str, object]:
    """An MCR line's answer (``"ruleset": "mcr"``): :func:`mcr_answer`."""
    mod = _mcr()
    ruleset = obj["ruleset"]
    if not _MCR_KEYS.issuperset(obj):
        unknown = [k for k in obj if k not in _MCR_KEYS]
        hints = [f"{k!r}: {_MCR_INSTEAD[k]}" for k in unknown if k in _MCR_INSTEAD]
        theirs = {k for _, keys in other_keys(FAMILY.name) for k in keys}
        others = [k for k in unknown if k in theirs]
        what = (f"key(s) {', '.join(map(repr, unknown))} belong to other rulesets' lines, not to ruleset {ruleset!r}"
                if len(others) == len(unknown) else f"unknown key(s) {', '.join(map(repr, unknown))}")
        raise LineError(f"{what}{' (' + '; '.join(hints) + ')' if hints else ''}; the keys of an MCR line are "
                        f"{', '.join(MCR_BATCH_KEYS)}")
    if "hand" not in obj or "draw" not in obj:
        missing = [k for k in ("hand", "draw") if k not in obj]
        raise LineError(f"missing key(s) {', '.join(map(repr, missing))}; hand and draw are required")
    rules = cache.get(ruleset, obj.get("rules", NO_OVERRIDES))
    text = obj["hand"]
    if type(text) is not str:
        field_str(obj, "hand")  # raises, naming the type
    hand = hand_tiles(text)
    v = obj["draw"]
    draw = TILE_BY_TEXT.get(v) if type(v) is str else None
    if draw is None:
        draw = one_tile(field_str(obj, "draw"), "draw")
    melds = _mcr_melds(obj.get("melds"))
    flowers = obj.get("flowers", 0)
    if type(flowers) is not int or not 0 <= flowers <= 8:
        raise LineError(f"'flowers' must be a count 0..8, got {show_value(flowers)}")
    self_drawn = obj.get("self_drawn", False)
    fourth = obj.get("fourth_tile", False)
    about = obj.get("about_kong", False)
    wall_last = obj.get("wall_last", False)
    seat = obj.get("seat_wind", 0)
    prevalent = obj.get("prevalent_wind", 0)
    key = (self_drawn, fourth, about, wall_last, seat, prevalent, flowers)
    situation = _MCR_SITUATIONS.get(key)  # type: ignore[arg-type]
    if (situation is None or type(self_drawn) is not bool or type(fourth) is not bool or type(about) is not bool
            or type(wall_last) is not bool or type(seat) is not int or type(prevalent) is not int):
        # 1, 1.0, true: equal as keys, but only the right type is valid
        for k in MCR_FLAGS:
            field_bool(obj, k)
        seat, prevalent = _mcr_wind(obj, "seat_wind"), _mcr_wind(obj, "prevalent_wind")
        situation = _MCR_SITUATIONS.get(key)  # type: ignore[arg-type]
        if situation is None:
            situation = _MCR_SITUATIONS[key] = mod.McrSituation(  # type: ignore[index]
                self_drawn, fourth, about, wall_last, seat, prevalent, flowers)
    try:
        if about or fourth or (flowers and not rules.flowers):  # type: ignore[attr-defined]
            mcr_situation(hand, draw, melds, {"self_drawn": self_drawn, "about_kong": about, "fourth_tile": fourth},
                          flowers, rules)
        r = mod.score_mcr(hand, draw, melds, situation, min_fan=rules.min_fan)  # type: ignore[attr-defined]
    except mod.InvalidMcrHand as e:
        raise LineError(str(e)) from None
    return mcr_answer(r, rules.min_fan, arrangement)  # type: ignore[attr-defined]


# --------------------------------------------------------------------------------------
# The command line (tjmj score / waits --rules mcr): tjmj.cli.common's protocol.  No advisor:
# tjmj advise refuses MCR rules.
# --------------------------------------------------------------------------------------

HELP_NOTES = {"--meld": "MCR"}
# the command-line spelling of each MCR input (the batch keys of MCR_BATCH_KEYS)
MCR_OPTIONS = {
    "self_drawn": "--self-drawn", "fourth_tile": "--fourth-tile", "about_kong": "--about-kong",
    "wall_last": "--wall-last", "flowers": "--flowers", "seat_wind": "--seat-wind", "prevalent_wind": "--prevalent-wind",
}
OPTIONS = MCR_OPTIONS
_WIND_TEXT = {"e": 0, "s": 1, "w": 2, "n": 3, "东": 0, "南": 1, "西": 2, "北": 3, "0": 0, "1": 1, "2": 2, "3": 3}
_WIND_NAMES = ("东 East", "南 South", "西 West", "北 North")
# another family's option given with --rules mcr: what MCR says instead
_INSTEAD_OPTIONS = {
    "--indicator": "MCR has no wilds (M1)",
    "--tianhu": "Tianjin's 天胡 is no MCR fan (M3)",
    "--kong-draw": "杠上开花 is --about-kong with --self-drawn",
    "--rob-kong": "抢杠和 is --about-kong without --self-drawn",
    "--last-tile": "妙手回春 and 海底捞月 are --wall-last",
    "--discard": "MCR hands are won on a discard unless --self-drawn",
    "--dealer": "the dealer is the East seat: --seat-wind E",
}
_WINDS: tuple[tuple[tuple[str, ...], dict[str, Any]], ...] = (
    (("--seat-wind", "seat_wind"), {"metavar": "WIND",
                                    "help": "MCR: the player's seat wind (门风), E S W N or 0-3 (default E, the dealer)."}),
    (("--prevalent-wind", "prevalent_wind"), {"metavar": "WIND",
                                              "help": "MCR: the prevalent wind (圈风), E S W N or 0-3 (default E)."}),
)
# the win situation (PyMahjongGB's inputs, M3): the options of MCR_OPTIONS, the winds first
CLI_OPTIONS: dict[str, tuple[tuple[tuple[str, ...], dict[str, Any]], ...]] = {
    "score": (*_WINDS, *(((opt, key), kwargs) for opt, key, kwargs in (
        ("--self-drawn", "self_drawn", {"is_flag": True, "help": "MCR: self-drawn (自摸); without it, won on a discard."}),
        ("--fourth-tile", "fourth_tile",
         {"is_flag": True, "help": "MCR: 和绝张, the other three of the winning tile are face up."}),
        ("--about-kong", "about_kong",
         {"is_flag": True, "help": "MCR: 杠上开花 (with --self-drawn) or 抢杠和 (on a discard)."}),
        ("--wall-last", "wall_last",
         {"is_flag": True, "help": "MCR: 妙手回春 (with --self-drawn) or 海底捞月: the wall's last tile."}),
        ("--flowers", "flowers", {"metavar": "N", "help": "MCR: flowers laid aside, 0..8 (1 fan each, not toward the 8)."}),
    ))),
    "waits": _WINDS,
}


def foreign_error(given: list[str], receiver: Family, why: str = "") -> str:
    return (f"{', '.join(given)}: {'an MCR option' if len(given) == 1 else 'MCR options'} "
            f"(--rules {' or '.join(FAMILY.presets)}), not for {receiver.short} hands")


def score_cli(req: Request) -> None:
    given = [o for o, v in (("--indicator", req.indicator), ("--kong-draw", req.kong_draw)) if v]
    _not_for_mcr(given + [o for _, theirs in req.foreign(FAMILY) for o in theirs])
    assert req.draw is not None  # the command requires it
    mcr = {k: req.options.get(k) for k in MCR_OPTIONS}
    _score_mcr(req.hand, req.draw, req.melds, req.preset, req.sets, mcr, req.as_json, req.svg_path)


def waits_cli(req: Request) -> None:
    given = ["--indicator"] if req.indicator else []
    _not_for_mcr(given + [o for _, theirs in req.foreign(FAMILY) for o in theirs])
    import click

    from ...cli.common import _json_line

    got = _waits_mcr(req.hand, req.melds, req.preset, req.sets, req.options.get("seat_wind"),
                     req.options.get("prevalent_wind"), req.as_json)
    if got is not None:
        click.echo(_json_line(got))


def waits_json(req: Request) -> dict[str, Any]:
    """What ``tjmj waits --json`` prints (and ``POST /api/waits`` answers) for ``req``."""
    given = ["--indicator"] if req.indicator else []
    _not_for_mcr(given + [o for _, theirs in req.foreign(FAMILY) for o in theirs])
    got = _waits_mcr(req.hand, req.melds, req.preset, req.sets, req.options.get("seat_wind"),
                     req.options.get("prevalent_wind"), True)
    assert got is not None
    return got


def _wind(text: str | None, option: str) -> int:
    from ...cli.common import InputError

    if text is None:
        return 0
    w = _WIND_TEXT.get(text.strip().lower())
    if w is None:
        raise InputError(f"{option}: expected E, S, W or N (or 0-3, 东 南 西 北), got {text!r}")
    return w


def _flower_count(text: str | None) -> int:
    from ...cli.common import InputError

    if text is None:
        return 0
    t = text.strip()
    if not t.isdigit() or not 0 <= int(t) <= 8:
        raise InputError(f"--flowers: expected a count of flowers 0..8 (花牌, M1), got {text!r}")
    return int(t)


def _not_for_mcr(given: Iterable[str]) -> None:
    """Another family's options with --rules mcr: one error naming them and MCR's way instead."""
    from ...cli.common import InputError

    given = list(given)
    if len(given) == 1:
        hint = _INSTEAD_OPTIONS.get(given[0])
        raise InputError(f"{given[0]}: not an option of MCR hands" + (f": {hint}" if hint else ""))
    if given:
        hints = [f"{o}: {_INSTEAD_OPTIONS[o]}" for o in given if o in _INSTEAD_OPTIONS]
        raise InputError(f"{', '.join(given)}: not options of MCR hands" + (f" ({'; '.join(hints)})" if hints else ""))


def _cli_melds(values: Iterable[str]) -> tuple[list[Meld], list[Any]]:
    from ...cli.common import InputError, _melds_text

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
    from ...cli.common import _names, _rules_label

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
    import click

    from ...cli.common import InputError, _json_line, _write_text, check_output_file, family_rules
    from .score import InvalidMcrHand, McrSituation, score_mcr

    check_output_file(svg_path, "--svg")
    rules = family_rules(preset, sets, FAMILY)
    flowers = _flower_count(mcr["flowers"])
    seat, prevalent = _wind(mcr["seat_wind"], "--seat-wind"), _wind(mcr["prevalent_wind"], "--prevalent-wind")
    flags = {k: bool(mcr[k]) for k in MCR_FLAGS}
    melds, mcr_melds = _cli_melds(melds_text)
    try:
        tiles = named_tiles(hand, "HAND")
        win = one_tile(draw, "--draw")
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
        from ... import svg

        _write_text(svg.hand(tiles, win, melds), svg_path)


def _show_mcr_score(r: McrResult, rows: list[tuple[str, str]], min_fan: int) -> None:
    from rich.table import Table

    from ...cli.common import _console, _esc, _print_rows

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
               prevalent_text: str | None, as_json: bool) -> dict[str, Any] | None:
    """The waits as a dict (``as_json``), or shown on the terminal (None)."""
    from ...cli.common import InputError, family_rules
    from .score import InvalidMcrHand
    from .waits import mcr_waits

    rules = family_rules(preset, sets, FAMILY)
    seat, prevalent = _wind(seat_text, "--seat-wind"), _wind(prevalent_text, "--prevalent-wind")
    melds, mcr_melds = _cli_melds(melds_text)
    try:
        tiles = named_tiles(hand, "HAND")
        ws = mcr_waits(tiles, mcr_melds, seat_wind=seat, prevalent_wind=prevalent, min_fan=rules.min_fan)
    except (TileError, InvalidMcrHand) as e:
        raise InputError(str(e)) from None
    if as_json:
        return ws.to_dict()
    _show_mcr_waits(_mcr_rows(tiles, None, melds, _mcr_situation_text(seat, prevalent), rules), ws)
    return None


_SHAPE_NAMES = {"standard": "standard", "seven_pairs": "seven pairs", "thirteen_orphans": "thirteen orphans",
                "honors_and_knitted": "全不靠", "knitted_straight": "组合龙"}


def _show_mcr_waits(rows: list[tuple[str, str]], ws: McrWaits) -> None:
    from rich.table import Table

    from ...cli.common import _console, _esc, _print_rows

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
