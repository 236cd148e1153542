"""The batch interface of the calculator: ``tjmj score --batch FILE`` (docs/cli.md).

JSON lines in, one JSON line out per input line, in order: a stable interface that other
tools check against.  Every line is answered; a bad one with ``{"error": "..."}`` naming what
is wrong.  This module loads only the scorer (not Click, Rich or the web stack), and the
console script sends a batch command line here directly, so batch runs start quickly.
"""

from __future__ import annotations

import contextlib
import gc
import os
import stat
import sys
from itertools import product
from typing import IO, Any

import orjson

from .elements import Group
from .meld import Meld, MeldType
from .rules import CLASSIC, PRESETS, Rules, RulesError, TianjinRules
from .score import ScoreResult, _codes, prepare, score_input
from .tiles import TILE_TEXT, TILES, Tile, TileError, parse_tiles

__all__ = ["BATCH_KEYS", "BEIJING_BATCH_KEYS", "BEIJING_FLAGS", "batch_answer", "beijing_answer", "beijing_context",
           "run_batch", "run_file", "console"]

# The batch input keys, in documentation order (docs/cli.md); anything else is an error.
BATCH_KEYS = ("hand", "draw", "indicator", "melds", "kong_draw", "tianhu", "ruleset", "rules")
_REQUIRED = ("hand", "draw", "indicator")
_DEFAULT_PRESET = "classic"
# A Beijing line ("ruleset": "beijing" or "beijing_a", docs/rules/BEIJING.md): its win situation
# flags, then every key it may hold, in documentation order.
BEIJING_FLAGS = ("win_on_discard", "dealer", "last_tile", "kong_draw", "rob_kong", "hunyou", "hungang", "tianhe",
                 "dihe", "upstairs")
BEIJING_BATCH_KEYS = ("hand", "draw", "indicator", "melds", *BEIJING_FLAGS, "ruleset", "rules")


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


def console() -> None:
    """The ``tjmj`` console script.

    ``tjmj score --batch FILE`` goes straight to the batch loop, so a tool that starts one
    batch per job does not wait for Click and the other commands to load; any other command
    line (including a malformed batch one) goes to the Click CLI, :func:`tjmj.cli.main`.
    """
    args = sys.argv[1:]
    path = None
    rest = [a for a in args[1:] if a != "--no-arrangement"]
    if args[:1] == ["score"] and len(rest) >= len(args) - 2:  # --no-arrangement at most once
        if len(rest) == 2 and rest[0] == "--batch":
            path = rest[1]
        elif len(rest) == 1 and rest[0].startswith("--batch="):
            path = rest[0][len("--batch="):]
    if path is not None and path and (path == "-" or not path.startswith("-")):
        # each line's garbage is acyclic (freed by reference counting); the cyclic collector
        # would only rescan the growing caches, so it runs less often here
        gc.set_threshold(100_000, 50, 100)
        try:
            code = run_file(path, arrangement="--no-arrangement" not in args)
        except BatchFileError as e:
            sys.stderr.write(f"Error: {e}\n")  # as Click words its usage errors
            code = 2
        sys.exit(code)
    from .cli import main

    main()
