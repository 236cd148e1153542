"""The batch interface of the calculator: ``tjmj score --batch FILE`` (docs/cli.md).

JSON lines in, one JSON line out per input line, in order: a stable interface that other
tools check against.  Every line is answered; a bad one with ``{"error": "..."}`` naming what
is wrong.  This module loads only the scorer (not Click, Rich or the web stack), and the
console script (:func:`tjmj.batch.console`) sends a batch command line here directly, so batch
runs start quickly.  It imports nothing of :mod:`tjmj.cli`; the commands use its parsing of hand
text and its answers (``tjmj score --json`` prints the same objects).

A line is answered by the calculator of its family (``"ruleset"``'s preset; a line without one,
or naming no preset, by the default family, whose error then names the ruleset), imported on the
first such line, so that a batch of one family neither loads another's scorer nor pays for it.

The calculator protocol (``tjmj/families/<name>/calculator.py``, ``Family.calculator``), batch side:

``BATCH_KEYS``
    The keys a line of the family may hold, in documentation order (docs/cli.md).
``batch_answer(obj, cache, arrangement) -> dict``
    The answer to one line already read as a JSON object (``dict``): what the line's family
    answers (``tjmj score --json`` prints the same), with ``arrangement`` left out when false.
    A bad line raises :class:`LineError` or :class:`~tjmj.tiles.TileError` with its one-line
    message; ``cache`` (:class:`RulesCache`) builds the line's rules once per distinct
    ``ruleset``/``rules``.  The helpers below (``field_str``, ``one_tile``, ``parse_melds``,
    ``unknown_keys_hint`` ...) word the errors as every family's lines do.

The CLI side of the same modules is described in :mod:`tjmj.cli.common`.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable
from typing import IO, Any

import orjson

from . import families
from .meld import Meld, MeldType
from .rules import PRESETS, Rules, RulesError
from .tiles import TILE_TEXT, TILES, Tile, TileError, parse_tiles

__all__ = ["JSON_TYPE", "NO_OVERRIDES", "TILE_BY_TEXT", "BatchFileError", "LineError", "RulesCache", "batch_answer",
           "field_bool", "field_str", "hand_tiles", "named_tiles", "one_tile", "other_keys", "parse_melds",
           "run_batch", "run_file", "show_value", "unknown_keys_hint"]


def named_tiles(text: str, what: str) -> list[Tile]:
    """``parse_tiles(text)``, its error prefixed with ``what`` (the input it came from)."""
    try:
        return parse_tiles(text)
    except TileError as e:
        raise TileError(f"{what}: {e}") from None


TILE_BY_TEXT = dict(zip(TILE_TEXT, TILES))


def one_tile(text: str, what: str) -> Tile:
    t = TILE_BY_TEXT.get(text)  # "5m": every batch line has two of these
    if t is not None:
        return t
    ts = named_tiles(text, what)
    if len(ts) != 1:
        raise TileError(f"{what} must be exactly one tile, got {text!r} ({len(ts)} tiles)")
    return ts[0]


def show_value(value: object) -> str:
    """A short JSON rendering of an offending value for an error message."""
    import json  # error messages only: the batch itself reads and writes with orjson

    try:
        s = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        s = repr(value)
    return s if len(s) <= 60 else s[:57] + "..."


JSON_TYPE = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "a number",
             float: "a number", type(None): "null"}


class LineError(Exception):
    """A bad batch line; the message becomes the line's ``{"error": …}``."""


def field_str(obj: dict[str, Any], key: str) -> str:
    v = obj[key]
    if not isinstance(v, str):
        raise LineError(f"'{key}' must be a string of tiles like \"5m\", got {JSON_TYPE.get(type(v), 'a value')} "
                        f"{show_value(v)}")
    return v


def field_bool(obj: dict[str, Any], key: str) -> bool:
    v = obj.get(key, False)
    if type(v) is not bool:
        raise LineError(f"'{key}' must be true or false, got {show_value(v)}")
    return v


class RulesCache:
    """Rules per (ruleset, overrides): building and checking them once, not once per line."""

    def __init__(self) -> None:
        self._cache: dict[object, Rules | str] = {}

    def get(self, ruleset: object, overrides: object) -> Rules:
        if not isinstance(ruleset, str):
            raise LineError(f"'ruleset' must be a string ({' or '.join(PRESETS)}), got {show_value(ruleset)}")
        if not isinstance(overrides, dict):
            raise LineError(f"'rules' must be an object of option: value, got {show_value(overrides)}")
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
            raise LineError(hit)
        return hit


NO_OVERRIDES: dict[str, object] = {}  # a line without "rules" (never changed)

# (type, tile) text of every meld that can be written -> the Meld (others: Meld.from_dict's error)
MELD_BY_TEXT: dict[tuple[object, object], Meld] = {
    (t.value, text): Meld(t, tile) for t in MeldType for text, tile in zip(TILE_TEXT, TILES)
    if t is not MeldType.CHI or (tile.suit != "z" and tile.number <= 7)  # a chi is named by its lowest tile
}


# --------------------------------------------------------------------------------------
# The families: each line goes to its family's calculator (the module docstring's protocol).
# --------------------------------------------------------------------------------------

Answer = Callable[[dict[str, Any], RulesCache, bool], dict[str, object]]
_ANSWERS: dict[str, Answer] = {}  # family name -> its calculator's batch_answer, found once


def _answerer(name: str) -> Answer:
    got = _ANSWERS.get(name)
    if got is None:
        got = _ANSWERS[name] = families.get(name).calculator.batch_answer
    return got


_DEFAULT = families.default().name  # a line without "ruleset" (or naming no preset) is the default family's


def other_keys(name: str) -> list[tuple[families.Family, tuple[str, ...]]]:
    """Every other registered family with its lines' keys, in registry order."""
    return [(f, f.calculator.BATCH_KEYS) for f in families.all_families() if f.name != name]


def unknown_keys_hint(name: str, unknown: Iterable[str]) -> str:
    """`` ('dealer' is a key of Beijing lines: "ruleset": "beijing" or "beijing_a")``: the first other
    family (registry order) whose lines have some of the ``unknown`` keys of family ``name``'s line."""
    unknown = list(unknown)
    for fam, keys in other_keys(name):
        theirs = [k for k in unknown if k in keys]
        if theirs:
            rulesets = '"ruleset": ' + " or ".join(f'"{p}"' for p in fam.presets)
            return (f" ({', '.join(map(repr, theirs))} {'is a key' if len(theirs) == 1 else 'are keys'} of "
                    f"{fam.short} lines: {rulesets})")
    return ""


def _batch_result(obj: object, cache: RulesCache, arrangement: bool = True) -> dict[str, object]:
    if type(obj) is not dict:
        raise LineError(f"a line must be a JSON object, got {JSON_TYPE.get(type(obj), 'a value')}")
    if "ruleset" in obj or "rules" in obj:
        ruleset = obj.get("ruleset")
        preset = PRESETS.get(ruleset) if type(ruleset) is str else None
        if preset is not None:
            return _answerer(preset.family)(obj, cache, arrangement)
    return _answerer(_DEFAULT)(obj, cache, arrangement)


def parse_melds(raw_melds: object) -> list[Meld]:
    melds: list[Meld] = []
    if raw_melds is None:
        return melds
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
    return melds


# MPSZ text of one suit ("1239m") -> its tiles: a hand is a few of these, and they recur
_SEGMENTS: dict[str, list[Tile]] = {}
_SEGMENT = re.compile(r"[1-9]+[mpsz]")


def hand_tiles(text: str) -> list[Tile]:
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


def batch_answer(line: str | bytes, cache: RulesCache | None = None, arrangement: bool = True) -> dict[str, object]:
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
        return _batch_result(obj, cache or RulesCache(), arrangement)
    except (LineError, TileError) as e:  # InvalidHand included
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
    cache = RulesCache()
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

