"""The batch interface of the calculator: ``tjmj score --batch FILE`` (docs/cli.md).

JSON lines in, one JSON line out per input line, in order: a stable interface that other
tools check against.  Every line is answered; a bad one with ``{"error": "..."}`` naming what
is wrong.  This module loads only the scorer (not Click, Rich or the web stack), and the
console script (:func:`tjmj.batch.console`) sends a batch command line here directly, so batch
runs start quickly.  It imports nothing of :mod:`tjmj.cli`; the commands use its parsing of hand
text and its answers (``tjmj score --json`` prints the same objects).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
from itertools import product
from typing import IO, Any

import orjson

from .families.tianjin.score import ScoreResult, _codes, prepare, score_input
from .hand import Group
from .meld import Meld, MeldType
from .rules import CLASSIC, PRESETS, Rules, RulesError, TianjinRules
from .tiles import TILE_TEXT, TILES, Tile, TileError, parse_tiles

__all__ = ["BATCH_KEYS", "BEIJING_BATCH_KEYS", "BEIJING_FLAGS", "MCR_BATCH_KEYS", "MCR_FLAGS", "batch_answer",
           "beijing_answer", "beijing_context", "mcr_answer", "mcr_meld", "mcr_situation", "run_batch", "run_file"]

# The batch input keys, in documentation order (docs/cli.md); anything else is an error.
BATCH_KEYS = ("hand", "draw", "indicator", "melds", "kong_draw", "tianhu", "ruleset", "rules")
_REQUIRED = ("hand", "draw", "indicator")
_DEFAULT_PRESET = "classic"
# A Beijing line ("ruleset": "beijing" or "beijing_a", docs/rules/BEIJING.md): its win situation
# flags, then every key it may hold, in documentation order.
BEIJING_FLAGS = ("win_on_discard", "dealer", "last_tile", "kong_draw", "rob_kong", "hunyou", "hungang", "tianhe",
                 "dihe", "upstairs")
BEIJING_BATCH_KEYS = ("hand", "draw", "indicator", "melds", *BEIJING_FLAGS, "ruleset", "rules")
# An MCR line ("ruleset": "mcr", docs/rules/MCR.md): PyMahjongGB's inputs (M3), in documentation order.
MCR_FLAGS = ("self_drawn", "fourth_tile", "about_kong", "wall_last")
MCR_BATCH_KEYS = ("hand", "draw", "melds", "flowers", *MCR_FLAGS, "seat_wind", "prevalent_wind", "ruleset", "rules")


def _tiles(text: str, what: str) -> list[Tile]:
    try:
        return parse_tiles(text)
    except TileError as e:
        raise TileError(f"{what}: {e}") from None


_TILE_BY_TEXT = dict(zip(TILE_TEXT, TILES))


def _one_tile(text: str, what: str) -> Tile:
    t = _TILE_BY_TEXT.get(text)  # "5m": every batch line has two of these
    if t is not None:
        return t
    ts = _tiles(text, what)
    if len(ts) != 1:
        raise TileError(f"{what} must be exactly one tile, got {text!r} ({len(ts)} tiles)")
    return ts[0]


def _show(value: object) -> str:
    """A short JSON rendering of an offending value for an error message."""
    import json  # error messages only: the batch itself reads and writes with orjson

    try:
        s = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        s = repr(value)
    return s if len(s) <= 60 else s[:57] + "..."


_JSON_TYPE = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "a number",
              float: "a number", type(None): "null"}


class _Error(Exception):
    """A bad batch line; the message becomes the line's ``{"error": …}``."""


def _field_str(obj: dict[str, Any], key: str) -> str:
    v = obj[key]
    if not isinstance(v, str):
        raise _Error(f"'{key}' must be a string of tiles like \"5m\", got {_JSON_TYPE.get(type(v), 'a value')} {_show(v)}")
    return v


def _field_bool(obj: dict[str, Any], key: str) -> bool:
    v = obj.get(key, False)
    if type(v) is not bool:
        raise _Error(f"'{key}' must be true or false, got {_show(v)}")
    return v


class _RulesCache:
    """Rules per (ruleset, overrides): building and checking them once, not once per line."""

    def __init__(self) -> None:
        self._cache: dict[object, Rules | str] = {}

    def get(self, ruleset: object, overrides: object) -> Rules:
        if not isinstance(ruleset, str):
            raise _Error(f"'ruleset' must be a string ({' or '.join(PRESETS)}), got {_show(ruleset)}")
        if not isinstance(overrides, dict):
            raise _Error(f"'rules' must be an object of option: value, got {_show(overrides)}")
        key: object = (ruleset, orjson.dumps(overrides, option=orjson.OPT_SORT_KEYS)) if overrides else ruleset
        hit = self._cache.get(key)  # type: ignore[call-overload]
        if hit is None:
            try:
                hit = Rules.preset(ruleset, **overrides)
            except RulesError as e:
                hit = str(e)
            except TypeError as e:  # a key that is not a valid keyword, e.g. ""
                hit = f"bad rule override: {e}"
            if len(self._cache) >= 4096:  # distinct overrides on every line must not grow memory for ever
                self._cache.clear()
            self._cache[key] = hit
        if isinstance(hit, str):
            raise _Error(hit)
        return hit


_KEYS = frozenset(BATCH_KEYS)
# (type, tile) text of every meld that can be written -> the Meld (others: Meld.from_dict's error)
_MELDS: dict[tuple[object, object], Meld] = {
    (t.value, text): Meld(t, tile) for t in MeldType for text, tile in zip(TILE_TEXT, TILES)
    if t is not MeldType.CHI or (tile.suit != "z" and tile.number <= 7)  # a chi is named by its lowest tile
}


def _batch_result(obj: object, cache: _RulesCache, arrangement: bool = True) -> dict[str, object]:
    if type(obj) is not dict:
        raise _Error(f"a line must be a JSON object, got {_JSON_TYPE.get(type(obj), 'a value')}")
    custom = "ruleset" in obj or "rules" in obj
    if custom:
        ruleset = obj.get("ruleset")
        preset = PRESETS.get(ruleset) if type(ruleset) is str else None
        if preset is not None and preset.family != "tianjin":  # another family's line (a Tianjin one pays nothing)
            return _other_family(obj, preset, cache, arrangement)
    if not _KEYS.issuperset(obj):
        unknown = [k for k in obj if k not in BATCH_KEYS]
        hint = ""
        theirs = [k for k in unknown if k in BEIJING_BATCH_KEYS]
        if theirs:
            hint = (f" ({', '.join(map(repr, theirs))} {'is a key' if len(theirs) == 1 else 'are keys'} of Beijing lines: "
                    "\"ruleset\": \"beijing\" or \"beijing_a\")")
        else:
            theirs = [k for k in unknown if k in MCR_BATCH_KEYS]
            if theirs:
                hint = (f" ({', '.join(map(repr, theirs))} {'is a key' if len(theirs) == 1 else 'are keys'} of MCR "
                        "lines: \"ruleset\": \"mcr\")")
        raise _Error(f"unknown key(s) {', '.join(map(repr, unknown))}; the keys are {', '.join(BATCH_KEYS)}{hint}")
    if "hand" not in obj or "draw" not in obj or "indicator" not in obj:
        missing = [k for k in _REQUIRED if k not in obj]
        raise _Error(f"missing key(s) {', '.join(map(repr, missing))}; hand, draw and indicator are required")
    text = obj["hand"]
    if type(text) is not str:
        _field_str(obj, "hand")  # raises, naming the type
    try:
        hand = parse_tiles(text)
    except TileError as e:
        raise TileError(f"hand: {e}") from None
    v = obj["draw"]
    draw = _TILE_BY_TEXT.get(v) if type(v) is str else None
    if draw is None:
        draw = _one_tile(_field_str(obj, "draw"), "draw")
    v = obj["indicator"]
    indicator = _TILE_BY_TEXT.get(v) if type(v) is str else None
    if indicator is None:
        indicator = _one_tile(_field_str(obj, "indicator"), "indicator")
    raw_melds = obj.get("melds")
    melds: list[Meld] = []
    if raw_melds is not None:
        if type(raw_melds) is not list:
            raise _Error(f"'melds' must be an array of {{\"type\": ..., \"tile\": ...}} objects, got {_show(raw_melds)}")
        for i, m in enumerate(raw_melds):
            meld = None
            if type(m) is dict and len(m) == 2 and type(m.get("type")) is str and type(m.get("tile")) is str:
                meld = _MELDS.get((m["type"], m["tile"]))
            if meld is None:
                try:
                    meld = Meld.from_dict(m)
                except TileError as e:
                    raise _Error(f"melds[{i}]: {e}") from None
            melds.append(meld)
    kong_draw = obj.get("kong_draw", False)
    if type(kong_draw) is not bool:
        _field_bool(obj, "kong_draw")
    tianhu = obj.get("tianhu", False)
    if type(tianhu) is not bool:
        _field_bool(obj, "tianhu")
    if custom:
        rules = cache.get(obj.get("ruleset", _DEFAULT_PRESET), obj.get("rules", _NO_OVERRIDES))
        if not isinstance(rules, TianjinRules):  # pragma: no cover - other families are dispatched above
            raise _Error(f"ruleset {rules.name!r} is not Tianjin's")
    else:
        rules = CLASSIC  # the usual line: no look-up needed
    h = prepare(hand, draw, indicator, melds, kong_draw=kong_draw, tianhu=tianhu, rules=rules)
    return _answer(score_input(h), arrangement)


_NO_OVERRIDES: dict[str, object] = {}


# --------------------------------------------------------------------------------------
# Beijing lines (docs/rules/BEIJING.md): the scorer of tjmj.families.beijing, imported on the
# first such line, so that a Tianjin batch neither loads it nor pays for the branch.
# --------------------------------------------------------------------------------------

_TIANJIN_ONLY = frozenset(BATCH_KEYS) - frozenset(BEIJING_BATCH_KEYS)
_BEIJING_KEYS = frozenset(BEIJING_BATCH_KEYS)


def _parse_melds(raw_melds: object) -> list[Meld]:
    melds: list[Meld] = []
    if raw_melds is None:
        return melds
    if type(raw_melds) is not list:
        raise _Error(f"'melds' must be an array of {{\"type\": ..., \"tile\": ...}} objects, got {_show(raw_melds)}")
    for i, m in enumerate(raw_melds):
        meld = None
        if type(m) is dict and len(m) == 2 and type(m.get("type")) is str and type(m.get("tile")) is str:
            meld = _MELDS.get((m["type"], m["tile"]))
        if meld is None:
            try:
                meld = Meld.from_dict(m)
            except TileError as e:
                raise _Error(f"melds[{i}]: {e}") from None
        melds.append(meld)
    return melds


def beijing_context(flags: dict[str, bool], name: Any = None) -> Any:
    """The :class:`~tjmj.families.beijing.elements.WinContext` of a Beijing win from the interface's
    flags (``BEIJING_FLAGS`` but ``upstairs``; missing ones false), after rejecting situations that
    cannot happen together; ``name(flag)`` spells a flag in the error (``--discard`` on the command
    line).  Raises :class:`~tjmj.tiles.TileError` with one line naming both flags and the rule."""
    from .families.beijing.elements import WinContext

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


def _other_family(obj: dict[str, Any], preset: Rules, cache: _RulesCache, arrangement: bool) -> dict[str, object]:
    if preset.family == "mcr":
        return _mcr_result(obj, cache, arrangement)
    if preset.family != "beijing":  # pragma: no cover - every registered family has a branch
        raise _Error(f"ruleset {preset.name!r} ({preset.family}) cannot be scored by this batch")
    return _beijing_result(obj, cache, arrangement)


def _beijing_result(obj: dict[str, Any], cache: _RulesCache, arrangement: bool) -> dict[str, object]:
    from .families.beijing.score import prepare_beijing, score_input

    ruleset = obj["ruleset"]
    if not _BEIJING_KEYS.issuperset(obj):
        tianjin = [k for k in obj if k in _TIANJIN_ONLY]
        if tianjin:
            raise _Error(f"key(s) {', '.join(map(repr, tianjin))} belong to Tianjin lines, not to ruleset "
                         f"{ruleset!r} (Beijing's 天和 and 地和 are 'tianhe' and 'dihe'); the keys of a Beijing line "
                         f"are {', '.join(BEIJING_BATCH_KEYS)}")
        unknown = [k for k in obj if k not in _BEIJING_KEYS]
        raise _Error(f"unknown key(s) {', '.join(map(repr, unknown))}; the keys of a Beijing line are "
                     f"{', '.join(BEIJING_BATCH_KEYS)}")
    if "hand" not in obj or "draw" not in obj:
        missing = [k for k in ("hand", "draw") if k not in obj]
        raise _Error(f"missing key(s) {', '.join(map(repr, missing))}; hand and draw are required")
    rules = cache.get(ruleset, obj.get("rules", _NO_OVERRIDES))
    hand = _tiles(_field_str(obj, "hand"), "hand")
    draw = _one_tile(_field_str(obj, "draw"), "draw")
    indicator = None
    if rules.wilds:  # type: ignore[attr-defined]
        if "indicator" not in obj:
            raise _Error(f"missing key 'indicator': ruleset {rules.name!r} has a wild (B2); give the 混坯, the wild "
                         "is its successor")
        indicator = _one_tile(_field_str(obj, "indicator"), "indicator")
    elif "indicator" in obj:
        raise _Error(f"'indicator': ruleset {rules.name!r} has no wild (B2 option wilds false); leave it out")
    melds = _parse_melds(obj.get("melds"))
    flags = {k: _field_bool(obj, k) for k in BEIJING_FLAGS if k in obj}
    ctx = beijing_context(flags)
    upstairs = flags.get("upstairs", False)
    if upstairs and not rules.upstairs:  # type: ignore[attr-defined]
        raise _Error(f"'upstairs': 上楼 is off in ruleset {rules.name!r} (B6 option upstairs)")
    h = prepare_beijing(hand, draw, melds=melds, indicator=indicator, rules=rules, context=ctx)  # type: ignore[arg-type]
    return beijing_answer(score_input(h), arrangement, upstairs)


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
        from .families.mcr import score

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
        raise _Error(f"'melds' must be an array of {{\"type\": ..., \"tile\": ...}} objects, got {_show(raw_melds)}")
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
        raise _Error(f"melds[{i}]: a meld must be an object like {{\"type\": \"pon\", \"tile\": \"7z\"}}, got {_show(m)}")
    unknown = [k for k in m if k not in _MCR_MELD_KEYS]
    if unknown:
        raise _Error(f"melds[{i}]: unknown key(s) {', '.join(map(repr, unknown))}; an MCR meld has "
                     f"{', '.join(_MCR_MELD_KEYS)}")
    try:
        meld = Meld.from_dict({k: m[k] for k in ("type", "tile") if k in m})
    except TileError as e:
        raise _Error(f"melds[{i}]: {e}") from None
    claimed = offer = None
    if meld.type is MeldType.CONCEALED_KONG and ("claimed" in m or "from" in m):
        raise _Error(f"melds[{i}]: a concealed kong (ankong) claims nothing; leave out 'claimed' and 'from'")
    if "claimed" in m:
        c = m["claimed"]
        if type(c) is not str:
            raise _Error(f"melds[{i}]: 'claimed' must be a string like \"5m\", got {_show(c)}")
        claimed = _one_tile(c, f"melds[{i}].claimed")
        if claimed not in meld.tiles:
            raise _Error(f"melds[{i}]: the claimed tile {claimed} is not a tile of the {meld.type.value} {meld}")
    if "from" in m:
        offer = m["from"]
        if type(offer) is not int or not 1 <= offer <= 3:
            raise _Error(f"melds[{i}]: 'from' must be 1 (the previous seat), 2 (opposite) or 3 (the next), "
                         f"got {_show(offer)}")
        if meld.type is MeldType.CHI and offer != 1:
            raise _Error(f"melds[{i}]: a chi is claimed from the previous seat only (M2): 'from' 1, got {offer}")
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
        raise _Error(f"'{key}' must be 0, 1, 2 or 3 (东 南 西 北), got {_show(v)}")
    return v


# MPSZ text of one suit ("1239m") -> its tiles: a hand is a few of these, and they recur
_SEGMENTS: dict[str, list[Tile]] = {}
_SEGMENT = re.compile(r"[1-9]+[mpsz]")


def _hand_tiles(text: str) -> list[Tile]:
    """``parse_tiles(text)`` for plain MPSZ text (the usual batch hand) from cached one-suit
    segments; anything else (Chinese names, spaces, an error to name) goes to ``parse_tiles``."""
    out: list[Tile] = []
    covered = 0
    for seg in _SEGMENT.findall(text):
        tiles = _SEGMENTS.get(seg)
        if tiles is None:
            try:
                tiles = parse_tiles(seg)
            except TileError:
                break  # the full parse below names the fault where it is in the hand
            if len(_SEGMENTS) >= 65536:  # bounded, whatever the input
                _SEGMENTS.clear()
            _SEGMENTS[seg] = tiles
        out += tiles
        covered += len(seg)
    if covered == len(text):
        return out
    try:
        return parse_tiles(text)
    except TileError as e:
        raise TileError(f"hand: {e}") from None


# the situations of MCR lines, built once each (7 values: a few thousand at most)
_MCR_SITUATIONS: dict[tuple[bool, bool, bool, bool, int, int, int], Any] = {}


def _mcr_result(obj: dict[str, Any], cache: _RulesCache, arrangement: bool) -> dict[str, object]:
    mod = _mcr()
    ruleset = obj["ruleset"]
    if not _MCR_KEYS.issuperset(obj):
        unknown = [k for k in obj if k not in _MCR_KEYS]
        hints = [f"{k!r}: {_MCR_INSTEAD[k]}" for k in unknown if k in _MCR_INSTEAD]
        others = [k for k in unknown if k in _KEYS or k in _BEIJING_KEYS]
        what = (f"key(s) {', '.join(map(repr, unknown))} belong to other rulesets' lines, not to ruleset {ruleset!r}"
                if len(others) == len(unknown) else f"unknown key(s) {', '.join(map(repr, unknown))}")
        raise _Error(f"{what}{' (' + '; '.join(hints) + ')' if hints else ''}; the keys of an MCR line are "
                     f"{', '.join(MCR_BATCH_KEYS)}")
    if "hand" not in obj or "draw" not in obj:
        missing = [k for k in ("hand", "draw") if k not in obj]
        raise _Error(f"missing key(s) {', '.join(map(repr, missing))}; hand and draw are required")
    rules = cache.get(ruleset, obj.get("rules", _NO_OVERRIDES))
    text = obj["hand"]
    if type(text) is not str:
        _field_str(obj, "hand")  # raises, naming the type
    hand = _hand_tiles(text)
    v = obj["draw"]
    draw = _TILE_BY_TEXT.get(v) if type(v) is str else None
    if draw is None:
        draw = _one_tile(_field_str(obj, "draw"), "draw")
    melds = _mcr_melds(obj.get("melds"))
    flowers = obj.get("flowers", 0)
    if type(flowers) is not int or not 0 <= flowers <= 8:
        raise _Error(f"'flowers' must be a count 0..8, got {_show(flowers)}")
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
            _field_bool(obj, k)
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
        raise _Error(str(e)) from None
    return mcr_answer(r, rules.min_fan, arrangement)  # type: ignore[attr-defined]


# group -> its JSON: the same few thousand groups make up every arrangement
_GROUP_JSON: dict[Group, orjson.Fragment] = {}


def _answer(r: ScoreResult, arrangement: bool = True) -> dict[str, object]:
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


def batch_answer(line: str | bytes, cache: _RulesCache | None = None, arrangement: bool = True) -> dict[str, object]:
    """The answer to one batch line: ``ScoreResult.to_dict(arrangement)`` or ``{"error": "..."}``; never raises."""
    try:
        obj = orjson.loads(line)  # bytes straight in: orjson checks the UTF-8 itself
    except orjson.JSONDecodeError as e:
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")  # to name the bad byte, which orjson does not
            except UnicodeDecodeError as u:
                return {"error": f"line is not valid UTF-8 ({u.reason} at byte {u.start})"}
        if not line.strip():
            return {"error": "blank line: expected a JSON object"}
        return {"error": f"invalid JSON: {e}"}
    try:
        return _batch_result(obj, cache or _RulesCache(), arrangement)
    except (_Error, TileError) as e:  # InvalidHand included
        return {"error": str(e)}
    except Exception as e:  # a bug must cost one line, not the rest of the batch
        return {"error": f"internal error: {type(e).__name__}: {e}"}


def run_batch(
    inp: IO[bytes], out: IO[bytes], *, flush_each: bool = False, arrangement: bool = True
) -> tuple[int, int]:
    """Answer every line of ``inp`` on ``out``, one JSON line each, in order; (lines, errors).

    ``arrangement=False`` (``--no-arrangement``) leaves the ``arrangement`` key out of every
    answer, for tools that need only the verdict and the fan: half the work and a fifth of
    the output."""
    cache = _RulesCache()
    dumps = orjson.dumps  # compact UTF-8, the format json.dumps(separators=(",", ":")) writes
    newline = orjson.OPT_APPEND_NEWLINE  # the line's "\n" written with it, not concatenated after
    write = out.write
    n = bad = 0
    for raw in inp:
        d = batch_answer(raw, cache, arrangement)
        n += 1
        if "error" in d:
            bad += 1
        write(dumps(d, option=newline))
        if flush_each:
            out.flush()
    out.flush()
    return n, bad


def _is_regular_file(f: IO[bytes]) -> bool:
    try:
        return stat.S_ISREG(os.fstat(f.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is both of the first two
        return False


class BatchFileError(Exception):
    """The batch file cannot be opened (the CLI reports it as a usage error, exit status 2)."""


def run_file(path: str, arrangement: bool = True) -> int:
    """``tjmj score --batch PATH [--no-arrangement]`` (``-``: stdin) onto stdout; the exit status."""
    sys.stdout.flush()
    out: IO[bytes] = sys.stdout.buffer  # bytes both ways: no locale guessing, UTF-8 in and out
    if path == "-":
        inp: IO[bytes] = sys.stdin.buffer
        close = False
    else:
        try:
            inp = open(path, "rb")  # noqa: SIM115 - closed below
        except OSError as e:
            raise BatchFileError(f"cannot open batch file {path!r}: {e.strerror or e}") from None
        close = True
    # a pipe may be a program waiting for each answer before it writes the next line; a file
    # is answered in 1 MiB writes (an answer line is ~700 bytes: far fewer system calls)
    interactive = not _is_regular_file(inp)
    if not interactive:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            out = open(sys.stdout.fileno(), "wb", buffering=1 << 20, closefd=False)  # noqa: SIM115 - flushed below
    try:
        run_batch(inp, out, flush_each=interactive, arrangement=arrangement)
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, without a traceback at exit
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 1
    finally:
        if close:
            inp.close()
    return 0

