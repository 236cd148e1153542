"""Match records: JSON lines on disk, replay against the engine, and a readable move list.

A record is the list of events :class:`tjmj.game.Match` logs (``docs/records.md``), one JSON
object per line; a file may hold several matches one after another, each opening with
``start_game``.  A match is fully determined by (rules, seed, actions) (R3: "every draw is
reproducible from the match seed"), so :func:`replay` re-creates the match from its
``start_game`` and drives the engine with the actions the record implies, comparing every
event the engine emits with the recorded one.

>>> import random
>>> from tjmj.game import Match
>>> from tjmj.rules import Rules
>>> m = Match(Rules.preset("classic", match_hands=1), seed=3)
>>> rng = random.Random(3)
>>> while not m.is_over:
...     _ = m.apply(m.to_act, rng.choice(m.legal_actions(m.to_act)))
>>> replay(m.events).ok
True
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, BinaryIO

import orjson

from .families.tianjin.score import score
from .game import Action, IllegalAction, Match
from .rules import FAMILIES, PRESETS, BeijingRules, McrRules, Rules, RulesError, TianjinRules
from .tiles import Flower, Tile, TileError, format_tiles, parse_tiles
from .wall import Dice

__all__ = [
    "BEIJING_EVENT_FIELDS",
    "MCR_EVENT_FIELDS",
    "DEFAULT_FAMILY",
    "EVENT_FIELDS",
    "FAMILY_EVENT_FIELDS",
    "FAMILY_PAYMENT_REASONS",
    "ReplayError",
    "action_for",
    "rebuild",
    "PAYMENT_REASONS",
    "SEAT_WINDS",
    "Divergence",
    "RecordError",
    "RecordWriter",
    "ReplayResult",
    "STATUSES",
    "check_end_kyoku",
    "check_hora",
    "iter_matches",
    "read_records",
    "record_family",
    "replay",
    "show",
    "write_record",
]

SEAT_WINDS = ("E", "S", "W", "N")  # seats 0–3 (R3)
_SEAT_CN = ("东", "南", "西", "北")
_BLOCK = 1 << 16

# Every event type with its required fields and their JSON types, per rule family; ``read_records``
# checks each event against the schema of its match's family (``start_game.rules.family``; none:
# Tianjin, records made before families existed), so that a malformed file is rejected with its line
# number instead of failing deep inside a replay.  More fields than these are allowed.
_INT, _STR, _BOOL, _LIST, _OBJ = "integer", "string", "boolean", "array", "object"
_STR_OR_NULL = "string or null"
# Tianjin's (docs/rules/RULES.md); the name is kept from before families (other modules use it)
EVENT_FIELDS: dict[str, dict[str, str]] = {
    "start_game": {"names": _LIST, "seating": _LIST, "seed": _INT, "rules": _OBJ},
    "start_kyoku": {
        "hand": _INT, "round": _INT, "dealer": _INT, "dice": _OBJ, "wall_break": _OBJ, "dora_marker": _STR,
        "wilds": _LIST, "sit": _BOOL, "pulls": _LIST, "scores": _LIST, "tehais": _LIST,
    },
    "tsumo": {"actor": _INT, "pai": _STR, "replacement": _BOOL},
    "dahai": {"actor": _INT, "pai": _STR, "tsumogiri": _BOOL, "wild": _BOOL},
    "pon": {"actor": _INT, "target": _INT, "pai": _STR, "consumed": _LIST},
    "daiminkan": {"actor": _INT, "target": _INT, "pai": _STR, "consumed": _LIST},
    "ankan": {"actor": _INT, "consumed": _LIST, "gold": _BOOL},
    "kakan": {"actor": _INT, "pai": _STR, "consumed": _LIST},
    "chan": {"actor": _INT, "pai": _STR},
    "hora": {
        "actor": _INT, "target": _INT, "pai": _STR, "hand": _LIST, "melds": _LIST, "kong_draw": _BOOL,
        "tianhu": _BOOL, "fan": _INT, "elements": _LIST, "name": _STR,
    },
    "ryukyoku": {"reason": _STR},
    "end_kyoku": {"payments": _LIST, "deltas": _LIST, "scores": _LIST},
    "end_game": {"scores": _LIST},
}
# Beijing's (docs/rules/BEIJING.md): no 坐庄/拉庄 and no 金杠; the 混坯 is null without wilds (B2);
# chi (B3), 烧庄 (B6), and a win that may be on a discard or a robbed kong, worth a value (B5)
BEIJING_EVENT_FIELDS: dict[str, dict[str, str]] = {
    "start_game": EVENT_FIELDS["start_game"],
    "start_kyoku": {
        "hand": _INT, "round": _INT, "dealer": _INT, "dice": _OBJ, "wall_break": _OBJ, "dora_marker": _STR_OR_NULL,
        "wilds": _LIST, "upstairs": _BOOL, "scores": _LIST, "tehais": _LIST,
    },
    "tsumo": EVENT_FIELDS["tsumo"],
    "dahai": EVENT_FIELDS["dahai"],
    "chi": {"actor": _INT, "target": _INT, "pai": _STR, "consumed": _LIST},
    "pon": EVENT_FIELDS["pon"],
    "daiminkan": EVENT_FIELDS["daiminkan"],
    "ankan": {"actor": _INT, "consumed": _LIST},
    "kakan": EVENT_FIELDS["kakan"],
    "shaozhuang": {"actor": _INT, "pai": _STR, "rounds": _INT},
    "hora": {
        "actor": _INT, "target": _INT, "pai": _STR, "hand": _LIST, "melds": _LIST, "value": _INT,
        "elements": _LIST, "name": _STR, "self_drawn": _BOOL, "rob_kong": _BOOL, "kong_draw": _BOOL,
        "last_tile": _BOOL, "hunyou": _BOOL,
    },
    "ryukyoku": EVENT_FIELDS["ryukyoku"],
    "end_kyoku": EVENT_FIELDS["end_kyoku"],
    "end_game": EVENT_FIELDS["end_game"],
}
# MCR's (docs/rules/MCR.md): no wild; the prevalent wind (M1); flowers laid aside (M1); chi (M2);
# a win with its fans (M3), the table's part of it and the claims of its melds
MCR_EVENT_FIELDS: dict[str, dict[str, str]] = {
    "start_game": EVENT_FIELDS["start_game"],
    "start_kyoku": {
        "hand": _INT, "round": _INT, "dealer": _INT, "dice": _OBJ, "wall_break": _OBJ, "prevalent_wind": _INT,
        "scores": _LIST, "tehais": _LIST,
    },
    "tsumo": EVENT_FIELDS["tsumo"],
    "flower": {"actor": _INT, "pai": _STR},
    "dahai": EVENT_FIELDS["dahai"],
    "chi": BEIJING_EVENT_FIELDS["chi"],
    "pon": EVENT_FIELDS["pon"],
    "daiminkan": EVENT_FIELDS["daiminkan"],
    "ankan": BEIJING_EVENT_FIELDS["ankan"],
    "kakan": EVENT_FIELDS["kakan"],
    "hora": {
        "actor": _INT, "target": _INT, "pai": _STR, "hand": _LIST, "melds": _LIST, "claims": _LIST, "fan": _INT,
        "flowers": _INT, "total": _INT, "fans": _LIST, "elements": _LIST, "name": _STR, "self_drawn": _BOOL,
        "rob_kong": _BOOL, "about_kong": _BOOL, "wall_last": _BOOL, "fourth_tile": _BOOL, "seat_wind": _INT,
        "prevalent_wind": _INT,
    },
    "ryukyoku": EVENT_FIELDS["ryukyoku"],
    "end_kyoku": EVENT_FIELDS["end_kyoku"],
    "end_game": EVENT_FIELDS["end_game"],
}
# family name (``Rules.family``) -> event type -> required field -> JSON type
FAMILY_EVENT_FIELDS: dict[str, dict[str, dict[str, str]]] = {
    "tianjin": EVENT_FIELDS, "beijing": BEIJING_EVENT_FIELDS, "mcr": MCR_EVENT_FIELDS}
PAYMENT_REASONS = ("win", "kong", "chan", "penalty")  # R8: the kinds a Tianjin settlement lists
# family -> the payment reasons its settlement lists (R8; B6: the win and 烧庄; M4: the win)
FAMILY_PAYMENT_REASONS: dict[str, tuple[str, ...]] = {
    "tianjin": PAYMENT_REASONS, "beijing": ("win", "shaozhuang"), "mcr": ("win",)}
_SETTLEMENT_SECTION = {"tianjin": "R8", "beijing": "B6", "mcr": "M4"}
DEFAULT_FAMILY = "tianjin"  # a start_game whose rules name no family: a record made before families existed
_PYTYPE: dict[str, type | tuple[type, ...]] = {
    _INT: int, _STR: str, _BOOL: bool, _LIST: list, _OBJ: dict, _STR_OR_NULL: (str, type(None)),
}


class RecordError(ValueError):
    """An unreadable record: ``line`` is the 1-based line number at fault (0: the file as a whole)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


def record_family(start: dict[str, Any]) -> str:
    """The rule family of a match from its ``start_game`` event: ``rules.family``, Tianjin when the
    rules name none (records made before families existed); a :class:`RecordError` (line 0) when
    it is not a family records know (:data:`FAMILY_EVENT_FIELDS`)."""
    rules = start.get("rules")
    family = rules.get("family", DEFAULT_FAMILY) if isinstance(rules, dict) else DEFAULT_FAMILY
    if not isinstance(family, str) or family not in FAMILY_EVENT_FIELDS:
        raise RecordError(0, f"start_game names the rule family {_json_text(family)}; record families are "
                             f"{', '.join(FAMILY_EVENT_FIELDS)}")
    return family


# ---- writing ------------------------------------------------------------------------------


def _dumps(event: dict[str, Any]) -> bytes:
    """One event as one UTF-8 JSON line (compact, keys in the engine's order, Chinese as is)."""
    return orjson.dumps(event) + b"\n"


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()  # read once: os.umask can only be read by setting it


def _fsync_dir(directory: str) -> None:
    """Make the rename itself durable (POSIX); a no-op where directories cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def write_record(events: Iterable[dict[str, Any]], target: str | os.PathLike[str] | IO[Any]) -> int:
    """Write events as JSON lines; returns how many were written.

    ``target`` a path: written atomically (temp file in the same directory, flush + fsync,
    ``os.replace``), so a crash or an error midway leaves either the old file or the complete new
    one, never half a record.  ``target`` an open file (binary or text): every event is
    serialised first and the lines are written in one call, so a bad event writes nothing.
    ``events`` may hold several matches one after another.
    """
    if not isinstance(target, str | os.PathLike):  # an open file (anything with write)
        lines = [_dumps(ev) for ev in events]
        data = b"".join(lines)
        if isinstance(target, io.TextIOBase):
            target.write(data.decode("utf-8"))
        else:
            target.write(data)
        target.flush()
        return len(lines)
    path = os.fspath(target)
    directory = os.path.dirname(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o7777  # keep an existing file's permissions
    except FileNotFoundError:
        mode = 0o666 & ~_UMASK
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=directory)
    n = 0
    try:
        with os.fdopen(fd, "wb") as f:
            for ev in events:
                f.write(_dumps(ev))
                n += 1
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)  # the old file, if any, is untouched
        raise
    _fsync_dir(directory)
    return n


def _is_end_game(line: bytes) -> bool:
    if b"end_game" not in line:
        return False
    try:
        ev = orjson.loads(line)
    except orjson.JSONDecodeError:
        return False
    return isinstance(ev, dict) and ev.get("type") == "end_game"


def _end_of_last_match(f: BinaryIO) -> int | None:
    """Offset just past the last complete ``end_game`` line, reading backwards; None if there is none."""
    pos = f.seek(0, os.SEEK_END)
    carry = b""  # the line that runs into the block already read (its start is not known yet)
    trimmed = False  # bytes after the file's last newline (a torn line) are never a complete line
    while pos > 0:
        step = min(_BLOCK, pos)
        pos -= step
        f.seek(pos)
        buf = f.read(step) + carry
        if not trimmed:
            k = buf.rfind(b"\n")
            if k < 0:
                carry = b""
                continue
            buf, trimmed = buf[: k + 1], True
        lines = buf.split(b"\n")[:-1]  # buf ends with a newline
        end = pos + len(buf)
        for line in reversed(lines if pos == 0 else lines[1:]):
            if _is_end_game(line):
                return end
            end -= len(line) + 1
        carry = lines[0] + b"\n" if pos > 0 else b""
    return None


class RecordWriter:
    """Append complete matches to a record file, for streaming many matches (self-play, servers).

    Each :meth:`write_match` serialises the whole match first, then appends it with one write
    call, flush and fsync: a crash can at worst tear the match being written.  On opening, a file
    that ends in a partial line (such a torn write) is cut back to the end of its last complete
    match (``repaired`` tells how many bytes were dropped), so later matches start on a clean line.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> with RecordWriter(os.path.join(d, "m.jsonl")) as w:
    ...     w.matches
    0
    """

    def __init__(self, path: str | os.PathLike[str], *, repair: bool = True) -> None:
        self.path = os.fspath(path)
        self.repair = repair
        self.matches = 0
        self.repaired = 0
        self._f: BinaryIO | None = None

    def __enter__(self) -> RecordWriter:
        f = open(self.path, "a+b")  # noqa: SIM115 - closed in __exit__
        try:
            size = f.seek(0, os.SEEK_END)
            if size and self.repair:
                f.seek(size - 1)
                if f.read(1) != b"\n":
                    end = _end_of_last_match(f)
                    if end is None:
                        raise RecordError(0, f"{self.path}: ends in a partial line and holds no complete match; "
                                             "not appending to it")
                    f.truncate(end)
                    f.flush()
                    os.fsync(f.fileno())
                    self.repaired = size - end
        except BaseException:
            f.close()
            raise
        self._f = f
        return self

    def __exit__(self, *exc: object) -> None:
        if self._f is not None:
            self._f.close()
            self._f = None

    def write_match(self, events: Sequence[dict[str, Any]]) -> None:
        """Append one complete match: ``start_game`` … ``end_game``, nothing else."""
        if self._f is None:
            raise ValueError("RecordWriter is not open: use it as a context manager")
        if not events or events[0].get("type") != "start_game" or events[-1].get("type") != "end_game":
            raise ValueError("write_match takes one complete match: from start_game to end_game")
        if sum(1 for ev in events if ev.get("type") == "start_game") != 1:
            raise ValueError("write_match takes one match at a time (found several start_game events)")
        data = b"".join(_dumps(ev) for ev in events)  # a bad event raises here, before anything is written
        self._f.write(data)
        self._f.flush()
        os.fsync(self._f.fileno())
        self.matches += 1


# ---- reading ------------------------------------------------------------------------------


def _json_text(value: Any, limit: int = 80) -> str:
    try:
        s = orjson.dumps(value).decode()
    except TypeError:
        s = repr(value)
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _parse_line(raw: bytes, n: int) -> dict[str, Any]:
    """One line as an event: a JSON object with a string ``type`` (its fields are checked later)."""
    try:
        ev = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        raise RecordError(n, f"not valid JSON at column {e.colno}: {e.msg}") from None
    if not isinstance(ev, dict):
        raise RecordError(n, f"expected one event (a JSON object), got {_json_text(ev)}")
    t = ev.get("type")
    if not isinstance(t, str):
        raise RecordError(n, f"an event needs a string field 'type', got {_json_text(t)}")
    return ev


def _check_fields(ev: dict[str, Any], n: int, family: str) -> None:
    """The event's type is one of ``family``'s, with its required fields of the right JSON types."""
    t = ev["type"]
    schema = FAMILY_EVENT_FIELDS[family]
    spec = schema.get(t)
    if spec is None:
        raise RecordError(n, f"unknown event type {t!r} in a {family} match; its types are {', '.join(schema)}")
    for name, kind in spec.items():
        if name not in ev:
            raise RecordError(n, f"{t} event lacks the field {name!r}")
        v = ev[name]
        ok = isinstance(v, _PYTYPE[kind]) and not (kind == _INT and isinstance(v, bool))
        if not ok:
            raise RecordError(n, f"{t} field {name!r} must be a JSON {kind}, got {_json_text(v)}")


def iter_matches(source: str | os.PathLike[str] | IO[Any]) -> Iterator[tuple[list[dict[str, Any]], list[int]]]:
    """Like :func:`read_records`, with the line number of every event (for messages)."""
    if hasattr(source, "read"):
        yield from _iter_lines(source)  # type: ignore[arg-type]
        return
    with open(os.fspath(source), "rb") as f:
        yield from _iter_lines(f)


def _iter_lines(f: IO[Any]) -> Iterator[tuple[list[dict[str, Any]], list[int]]]:
    events: list[dict[str, Any]] = []
    lines: list[int] = []
    family = ""  # the current match's family, from its start_game
    for n, raw in enumerate(f, 1):
        if isinstance(raw, str):
            raw = raw.encode("utf-8")
        if not raw.strip():
            continue  # blank lines (e.g. a trailing one) carry nothing
        ev = _parse_line(raw, n)
        if ev["type"] == "start_game":
            _check_fields(ev, n, DEFAULT_FAMILY)  # start_game is the same in every family
            try:
                family = record_family(ev)
            except RecordError as e:
                raise RecordError(n, e.message) from None
            if events:
                yield events, lines
            events, lines = [], []
        elif not events:
            raise RecordError(n, f"a match must open with start_game, found {ev['type']!r}")
        else:
            _check_fields(ev, n, family)
        events.append(ev)
        lines.append(n)
    if events:
        yield events, lines


def read_records(source: str | os.PathLike[str] | IO[Any]) -> Iterator[list[dict[str, Any]]]:
    """The matches of a record file (a path or an open file), one list of events each.

    Each line is checked as it is read (JSON object, a match opening with ``start_game``, a ``type``
    of the match's rule family with its required fields of the right JSON type,
    :data:`FAMILY_EVENT_FIELDS`); a bad line raises :class:`RecordError` naming it.
    """
    for events, _ in iter_matches(source):
        yield events


# ---- replay -------------------------------------------------------------------------------


def _seat(s: Any) -> str:
    return SEAT_WINDS[s] if isinstance(s, int) and 0 <= s < 4 else f"seat {s!r}"


def _brief(ev: dict[str, Any] | None) -> str:
    """A few words for an event in messages: 'dahai by S: 7p'."""
    if ev is None:
        return "nothing"
    t = ev.get("type")
    who = _seat(ev.get("actor"))
    if t in ("tsumo", "dahai", "chan", "flower"):
        extra = " (replacement)" if ev.get("replacement") else ""
        return f"{t} by {who}: {ev.get('pai')}{extra}"
    if t in ("pon", "daiminkan", "chi"):
        return f"{t} by {who} of {ev.get('pai')} from {_seat(ev.get('target'))}"
    if t == "ankan":
        consumed = ev.get("consumed") or ["?"]
        return f"ankan by {who}: {consumed[0]}"
    if t == "kakan":
        return f"kakan by {who}: {ev.get('pai')}"
    if t == "hora":
        worth = f"{ev.get('fan')} fan" if "fan" in ev else f"value {ev.get('value')}"
        return f"hora by {who} on {ev.get('pai')} ({ev.get('name')}, {worth})"
    if t == "shaozhuang":
        return f"shaozhuang (烧庄) of {ev.get('pai')}, round {ev.get('rounds')}"
    if t == "start_kyoku":
        return f"start_kyoku of hand {ev.get('hand')}"
    return str(t)


def _explain_mismatch(expected: dict[str, Any], got: dict[str, Any], family: str = DEFAULT_FAMILY) -> str:
    if expected.get("type") != got.get("type"):
        return f"the record has {_brief(expected)}, but the engine produced {_brief(got)}"
    diffs = [
        f"{k}: record {_json_text(expected.get(k, '—'))}, engine {_json_text(got.get(k, '—'))}"
        for k in dict.fromkeys([*got, *expected])
        if expected.get(k, ...) != got.get(k, ...)
    ]
    text = f"the recorded {expected.get('type')} differs from the engine's in " + "; ".join(diffs)
    if expected.get("type") == "end_kyoku":
        problem = check_end_kyoku(expected, family=family)
        if problem:
            text += f" (and the record is inconsistent in itself: {problem})"
    return text


@dataclass
class Divergence:
    """Where a record and the engine part ways.

    ``kind``: ``mismatch`` (the engine emitted another event), ``illegal`` (the engine refused the
    recorded action), ``unexpected`` (the record's next event is not an action the engine waits
    for), ``extra`` (events after the match ended), ``check`` (an independent check of a hora or a
    settlement failed), ``start`` (no match can be started).  A record that merely stops early is
    not a divergence: see :attr:`ReplayResult.incomplete`.
    """

    index: int  # 0-based position in the match's events
    kind: str
    expected: dict[str, Any] | None  # the recorded event (None: the record has none there)
    got: dict[str, Any] | None  # the engine's event (None: it emitted none)
    explanation: str

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "kind": self.kind, "expected": self.expected, "got": self.got,
                "explanation": self.explanation}

    def __str__(self) -> str:
        return f"event {self.index}: {self.explanation}"


STATUSES = ("ok", "incomplete", "diverges")  # ReplayResult.status


@dataclass
class ReplayResult:
    """The verdict of :func:`replay` on one match.

    ``status`` is ``ok`` (the whole match, start_game to end_game, matches), ``diverges`` (see
    ``divergence``) or ``incomplete``: the record stops before the match is over (cut off, or no
    ``end_game``) and every event up to the cut matches; ``incomplete`` then says what the engine
    expected next.  Only ``ok`` counts as :attr:`ok`.
    """

    events: int  # events in the record
    hands: int  # start_kyoku events in the record
    compared: int = 0  # events the engine reproduced exactly
    wins: int = 0  # hora events re-scored independently
    payments: int = 0  # payments compared
    divergence: Divergence | None = None
    incomplete: str | None = None  # the record stops early: what the engine expected next
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.divergence is None and self.incomplete is None

    @property
    def status(self) -> str:
        if self.divergence is not None:
            return "diverges"
        return "incomplete" if self.incomplete is not None else "ok"

    def summary(self) -> str:
        checked = f"({self.payments} payments, {self.wins} wins re-scored)"
        if self.divergence is not None:
            return f"diverges at {self.divergence}"
        if self.incomplete is not None:
            return (f"incomplete record: {self.events} events, {self.hands} hands, cut before the match is over "
                    f"({self.incomplete}) — every event and payment up to the cut matches {checked}")
        return f"{self.events} events, {self.hands} hands — every event and payment matches {checked}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "status": self.status,
            "events": self.events,
            "hands": self.hands,
            "compared": self.compared,
            "wins": self.wins,
            "payments": self.payments,
            "divergence": self.divergence.to_dict() if self.divergence else None,
            "incomplete": self.incomplete,
        }


def check_hora(hora: dict[str, Any], indicator: str | None, rules: Rules, *, dealer: int | None = None,
               indicator_visible: bool = True) -> str | None:
    """Re-score a recorded win with the family's scorer; a problem in words, or None.

    Tianjin (R5): :func:`tjmj.families.tianjin.score.score` of the hand, the winning tile, the indicator, the melds,
    ``kong_draw`` and ``tianhu``; the win must be legal with the recorded ``fan``, ``elements`` and
    ``name``.  Beijing (B5): :func:`tjmj.families.beijing.score.score_beijing` of the hand, the
    winning tile, the melds, the 混坯 (``indicator``, None without wilds) and a
    :class:`~tjmj.families.beijing.elements.WinContext` built from the event's flags
    (``self_drawn``, ``rob_kong``, ``kong_draw``, ``last_tile``, ``hunyou``), ``dealer`` (the hand's
    dealer: required) and the flat hands 混杠/天和/地和 of the recorded elements (they are declared
    or situational, not shapes); the win must be legal with the recorded ``value``, ``elements`` and
    ``name``.  ``indicator_visible``: the face-up 混坯 is still in the wall (no replacement draw yet
    this hand, B2), so it counts as one of the four copies of its kind.

    MCR (M3): :func:`tjmj.families.mcr.score.score_mcr` of the hand, the winning tile, the melds with
    their ``claims`` (the claimed tile and whom from), and the situation the event records
    (``self_drawn``, ``fourth_tile``, ``about_kong``, ``wall_last``, the winds, ``flowers``); the
    win must reach ``min_fan`` with the recorded ``fan``, ``fans``, ``elements`` and ``name``, and
    ``total`` must be ``fan`` + ``flowers``; ``indicator`` is not used (MCR has none) and ``dealer``,
    when given, must make ``seat_wind``.
    """
    if isinstance(rules, BeijingRules):
        return _check_beijing_hora(hora, indicator, rules, dealer, indicator_visible)
    if isinstance(rules, McrRules):
        return _check_mcr_hora(hora, rules, dealer)
    if not isinstance(rules, TianjinRules):
        raise TypeError(f"check_hora re-scores Tianjin, Beijing and MCR wins; these rules are {rules.family}'s")
    if indicator is None:
        return "the winning hand cannot be scored: the hand has no indicator (R2)"
    try:
        r = score("".join(hora["hand"]), hora["pai"], indicator, hora["melds"], kong_draw=hora["kong_draw"],
                  tianhu=hora["tianhu"], rules=rules)
    except (TileError, KeyError, TypeError, ValueError) as e:
        return f"the winning hand cannot be scored: {e}"
    problems = []
    if not r.win:
        problems.append(f"it is not a win ({r.reason or 'incomplete'})")
    if r.fan != hora.get("fan"):
        problems.append(f"fan {r.fan}, recorded {hora.get('fan')}")
    if r.codes != hora.get("elements"):
        problems.append(f"elements {r.codes}, recorded {hora.get('elements')}")
    if r.name != hora.get("name"):
        problems.append(f"name {r.name}, recorded {hora.get('name')}")
    return "re-scoring the win gives " + "; ".join(problems) if problems else None


_FLAT_FLAGS = {"HUNGANG": "hungang", "TIANHE": "tianhe", "DIHE": "dihe"}  # B5: declared or situational


def _check_beijing_hora(hora: dict[str, Any], indicator: str | None, rules: BeijingRules, dealer: int | None,
                        indicator_visible: bool) -> str | None:
    from .families.beijing.elements import WinContext  # lazily: Tianjin records never load Beijing's scorer
    from .families.beijing.score import score_beijing

    if dealer is None:
        raise TypeError("check_hora of a Beijing win needs the hand's dealer (dealer=start_kyoku.dealer)")
    try:
        actor, target, self_drawn = hora["actor"], hora["target"], hora["self_drawn"]
        recorded = hora["elements"]
        flats = {flag: True for code, flag in _FLAT_FLAGS.items() if code in recorded}
        ctx = WinContext(self_drawn=self_drawn, dealer=actor == dealer, last_tile=hora["last_tile"],
                         kong_draw=hora["kong_draw"], rob_kong=hora["rob_kong"], hunyou=hora["hunyou"], **flats)
        if (target == actor) != bool(self_drawn):
            return (f"the win is {'self-drawn' if self_drawn else 'not self-drawn'} but its target is "
                    f"{'the winner' if target == actor else _seat(target)} (B3: target is the discarder or the "
                    "robbed kong's declarer, the winner itself for a self-draw)")
        r = score_beijing("".join(hora["hand"]), hora["pai"], melds=list(hora["melds"]), indicator=indicator,
                          rules=rules, context=ctx, indicator_visible=indicator_visible)
    except (TileError, KeyError, TypeError, ValueError) as e:  # InvalidBeijingHand and RulesError included
        return f"the winning hand cannot be scored: {e}"
    problems = []
    if not r.win:
        problems.append(f"it is not a win ({r.reason or 'incomplete'})")
    if r.value != hora.get("value"):
        problems.append(f"value {r.value}, recorded {hora.get('value')}")
    if r.codes != recorded:
        problems.append(f"elements {r.codes}, recorded {recorded}")
    if r.name != hora.get("name"):
        problems.append(f"name {r.name}, recorded {hora.get('name')}")
    return "re-scoring the win gives " + "; ".join(problems) if problems else None


def _check_mcr_hora(hora: dict[str, Any], rules: McrRules, dealer: int | None) -> str | None:
    from .families.mcr.game import fan_list  # lazily: other families' records never load MCR's calculator
    from .families.mcr.score import McrMeld, McrSituation, score_mcr
    from .meld import melds_of

    try:
        actor, target, self_drawn = hora["actor"], hora["target"], hora["self_drawn"]
        if (target == actor) != bool(self_drawn):
            return (f"the win is {'self-drawn' if self_drawn else 'not self-drawn'} but its target is "
                    f"{'the winner' if target == actor else _seat(target)} (M2: target is the discarder or the "
                    "robbed kong's declarer, the winner itself for a self-draw)")
        if dealer is not None and hora["seat_wind"] != (actor - dealer) % 4:
            return f"seat wind {hora['seat_wind']} is not the winner's: {(actor - dealer) % 4} with dealer {dealer} (M1)"
        melds = melds_of(list(hora["melds"]))
        claims = hora["claims"]
        if len(claims) != len(melds):
            return f"{len(claims)} claims for {len(melds)} melds"
        mcr_melds = [McrMeld(type=m.type.value, tile=m.tile,
                             claimed=Tile.parse(c["claimed"]) if c["claimed"] is not None else None,
                             offer=c["offer"]) for m, c in zip(melds, claims, strict=True)]
        sit = McrSituation(self_drawn=bool(self_drawn), fourth_tile=hora["fourth_tile"],
                           about_kong=hora["about_kong"], wall_last=hora["wall_last"], seat_wind=hora["seat_wind"],
                           prevalent_wind=hora["prevalent_wind"], flowers=hora["flowers"])
        r = score_mcr(parse_tiles("".join(hora["hand"])), Tile.parse(hora["pai"]), mcr_melds, sit,
                      min_fan=rules.min_fan)
    except (TileError, KeyError, TypeError, ValueError) as e:
        return f"the winning hand cannot be scored: {e}"
    problems = []
    if not r.win:
        problems.append(f"it is not a win of {rules.min_fan} fan (M2): {r.fan} fan")
    if r.fan != hora.get("fan"):
        problems.append(f"fan {r.fan}, recorded {hora.get('fan')}")
    if fan_list(r) != hora.get("fans"):
        problems.append(f"fans {fan_list(r)}, recorded {hora.get('fans')}")
    if [f.code for f in r.fans] != hora.get("elements"):
        problems.append(f"elements {[f.code for f in r.fans]}, recorded {hora.get('elements')}")
    if r.names != hora.get("name"):
        problems.append(f"name {r.names}, recorded {hora.get('name')}")
    if hora.get("total") != r.total or r.total != r.fan + hora["flowers"]:
        problems.append(f"total {r.total} (fan {r.fan} + flowers {hora['flowers']}), recorded {hora.get('total')} (M3)")
    return "re-scoring the win gives " + "; ".join(problems) if problems else None


def check_end_kyoku(ev: dict[str, Any], scores_before: Sequence[int] | None = None, *,
                    family: str = DEFAULT_FAMILY) -> str | None:
    """R8 (B6 likewise): payments are transfers between seats summing to zero, each with a reason of
    the family's (:data:`FAMILY_PAYMENT_REASONS`) and none of 0, ``deltas`` are their per-seat sums,
    ``scores`` are the scores before plus ``deltas``; a problem in words, or None."""
    reasons = FAMILY_PAYMENT_REASONS.get(family, PAYMENT_REASONS)
    section = _SETTLEMENT_SECTION.get(family, "R8")
    net = [0, 0, 0, 0]
    for i, p in enumerate(ev.get("payments") or []):
        try:
            payer, payee, amount, reason = p["payer"], p["payee"], p["amount"], p["reason"]
            if not (isinstance(amount, int) and not isinstance(amount, bool) and amount >= 0
                    and payer in range(4) and payee in range(4) and payer != payee):
                raise ValueError
        except (KeyError, TypeError, ValueError):
            return f"payment {i} is not a positive transfer between two seats: {_json_text(p)}"
        if reason not in reasons:
            return (f"payment {i} has the reason {_json_text(reason)}; {family} reasons are {', '.join(reasons)} "
                    f"({section})")
        if amount == 0:  # every kind alike: a 0 would be a payment that pays nothing
            return f"payment {i} ({reason}) is 0, but a payment of 0 is not listed ({section}): {_json_text(p)}"
        net[payer] -= amount
        net[payee] += amount
    deltas = ev.get("deltas")
    if sum(net) != 0:
        return f"the payments sum to {sum(net)}, not zero"
    if deltas != net:
        return f"deltas {deltas} are not the per-seat sums of the payments {net}"
    if scores_before is not None and ev.get("scores") != [a + b for a, b in zip(scores_before, net)]:
        return f"scores {ev.get('scores')} are not the scores before {list(scores_before)} plus the deltas {net}"
    return None


def _flat_hand_problem(hora: dict[str, Any], hand: Sequence[dict[str, Any]], dealer: int) -> str | None:
    """天和 / 地和 (B5) need the first turn of an untouched hand: ``hand`` is the hand's events from
    its start_kyoku up to the win.  (混杠's four wilds are checked by the scorer.)"""
    codes = hora.get("elements") or ()
    actor = hora.get("actor")
    before = hand[1:]
    if "TIANHE" in codes and before:
        return f"天和 (TIANHE) is the dealer's win on the dealt 14 tiles, but {_brief(before[0])} came first (B5)"
    if "DIHE" in codes:
        if any(e.get("type") in ("chi", "pon", "daiminkan", "ankan", "kakan") for e in before):
            return "地和 (DIHE) comes before any claim or kong, but the hand has one (B5)"
        own = [e.get("type") for e in before if e.get("actor") == actor]
        if own != ["tsumo"] or actor == dealer:
            return "地和 (DIHE) is a non-dealer's win on their first draw, before any discard of theirs (B5)"
    return None


def _names_by_player(start: dict[str, Any]) -> list[str]:
    """start_game lists names by seat; Match takes them by player index (seating[seat] = player)."""
    names, seating = start["names"], start["seating"]
    by_player = [f"player{i}" for i in range(4)]
    for s, p in enumerate(seating):
        by_player[p] = names[s]
    return by_player


_PHASE_WORDS = {
    "sit": "to choose whether to sit (坐庄)",
    "pull": "to choose its pulls (拉庄)",
    "turn": "to discard, kong or win",
    "claim": "to claim or pass the discard",
    "rob": "to rob the kong (抢杠) or pass",
}


def action_for(m: Match, nxt: dict[str, Any]) -> tuple[Action | None, str]:
    """The action the record implies for the seat the engine waits on (``nxt`` is the next recorded
    event), or None and why not.  Replay and the web server's restart both use this one mapping."""
    seat, phase, t = m.to_act, m.phase, nxt.get("type")
    if phase in ("sit", "pull"):
        if t != "start_kyoku":
            what = "whether to sit (坐庄, R7)" if phase == "sit" else "how many times to pull (拉庄, R7)"
            return None, (f"the engine waits for {_seat(seat)} to choose {what}, which the next start_kyoku "
                          f"records, but the record has {_brief(nxt)}")
        if phase == "sit":
            return Action("sit", None, 1 if nxt["sit"] else 0), ""
        return Action("pull", None, int(nxt["pulls"][seat])), ""
    if phase in ("claim", "rob"):
        # the window's outcome is the next event: this seat's claim, or it passed (a claim that
        # lost to a better one changes nothing either, R4, B3)
        if nxt.get("actor") == seat:
            if t == "hora" and nxt.get("target") != seat:
                return Action("win"), ""
            if t in ("pon", "daiminkan"):
                return Action("pon" if t == "pon" else "kong", Tile.parse(nxt["pai"])), ""
            if t == "chi":
                low = min(Tile.parse(x) for x in [nxt["pai"], *nxt["consumed"]])
                return Action("chi", low), ""
        return Action("pass"), ""
    # phase turn: the seat discards, kongs or wins (R4)
    if nxt.get("actor") != seat or t not in ("dahai", "ankan", "kakan", "hora"):
        return None, (f"it is {_seat(seat)}'s turn (discard, kong or win), but the record has {_brief(nxt)}; "
                      "an event is missing, extra or out of order")
    if t == "dahai":
        if nxt.get("hunyou"):
            return Action("hunyou", Tile.parse(nxt["pai"])), ""
        return Action("discard", Tile.parse(nxt["pai"])), ""
    if t == "ankan":
        return Action("ankong", Tile.parse(nxt["consumed"][0])), ""
    if t == "kakan":
        return Action("added_kong", Tile.parse(nxt["pai"])), ""
    if "HUNGANG" in (nxt.get("elements") or ()):
        return Action("hungang"), ""
    return Action("win"), ""


def _as_recorded(got: dict[str, Any], exp: dict[str, Any]) -> dict[str, Any]:
    """The engine's event as a record of an earlier version would have it: records made before
    rule families existed have no ``family`` in ``start_game.rules`` (they are all Tianjin)."""
    if got.get("type") == "start_game" and exp.get("type") == "start_game":
        rules = exp.get("rules")
        if isinstance(rules, dict) and "family" not in rules and got["rules"].get("family") == "tianjin":
            return {**got, "rules": {k: v for k, v in got["rules"].items() if k != "family"}}
    return got


class ReplayError(ValueError):
    """Recorded events the engine does not reproduce (:func:`rebuild`)."""


def rebuild(events: Sequence[dict[str, Any]],
            on_step: Callable[[Match, Action | None, list[dict[str, Any]]], None] | None = None, *,
            resume: int | None = None) -> Match:
    """The match the recorded ``events`` describe, driven by the actions they imply (:func:`action_for`);
    every event the engine emits must equal the recorded one, else :class:`ReplayError`.  A record
    may stop anywhere, also inside what one action caused (the server stores whole hands, up to
    their ``end_kyoku``: the deal that follows is the engine's).
    ``on_step(match, action, new_events)`` after each step (first with ``action`` None).

    ``resume``: the server takes the match up again after a restart: the hand in play (the one after
    the last stored ``end_kyoku``) is dealt again from a fresh wall, recorded with this counter
    (:meth:`Match._resume_deal`), never the wall its interrupted deal had."""
    if not events or events[0].get("type") != "start_game":
        raise ReplayError("the events do not open with start_game")
    start = events[0]
    try:
        resumes = _resumes(events)
        if resume is not None:
            resumes[sum(1 for ev in events if ev.get("type") == "end_kyoku")] = _resume_counter(resume)
        m = Match(Rules.from_dict(start["rules"]), seed=start["seed"], names=_names_by_player(start),
                  walls=_scripted_walls(events), resumes=resumes)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise ReplayError(f"cannot start the match: {e}") from None
    i = len(m.events)
    if [_as_recorded(g, e) for g, e in zip(m.events, events[:i], strict=False)] != list(events[:i]):
        raise ReplayError("the engine's opening events differ from the stored ones")
    if on_step:
        on_step(m, None, list(m.events))
    while i < len(events) and not m.is_over:
        try:
            action, why = action_for(m, events[i])
            if action is None:
                raise ReplayError(f"event {i}: {why}")
            new = m.apply(m.to_act, action)
        except (IllegalAction, KeyError, TypeError, ValueError, IndexError) as e:
            raise ReplayError(f"event {i}: {e}") from None
        stored = list(events[i : i + len(new)])
        if stored != new[: len(stored)]:  # a shorter slice: the record stops inside this step
            raise ReplayError(f"event {i}: the engine's events differ from the stored ones")
        i += len(stored)
        if on_step:
            on_step(m, action, new)
    if i != len(events):
        raise ReplayError(f"{len(events) - i} stored events after the end of the match")
    return m


def _resume_counter(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"a resume counter is a positive integer, not {_json_text(value)}")
    return value


def _resumes(events: Sequence[dict[str, Any]]) -> dict[int, int]:
    """The hands a record says were dealt again after a restart (``start_kyoku.resume``): hand
    number -> resume counter.  A ValueError for a malformed one."""
    out: dict[int, int] = {}
    for ev in events:
        if ev.get("type") == "start_kyoku" and "resume" in ev:
            out[ev["hand"]] = _resume_counter(ev["resume"])
    return out


def _scripted_walls(events: Sequence[dict[str, Any]]) -> list[tuple[list[int], Dice]] | None:
    """The scripted walls a record carries (``start_kyoku.wall``), by hand; None if there are none."""
    walls: list[tuple[list[int], Dice] | None] = []
    for ev in events:
        if ev.get("type") == "start_kyoku":
            wall = ev.get("wall")
            walls.append((list(parse_tiles("".join(wall), flowers=True)), Dice.from_dict(ev["dice"])) if wall else None)
    return walls if any(walls) else None  # type: ignore[return-value]


def replay(events: Sequence[dict[str, Any]], *, walls: list[tuple[list[int], Dice]] | None = None) -> ReplayResult:
    """Replay one match's record against the engine and report the first divergence, if any.

    The match is re-created from ``start_game`` (rules, seed, names; its family is ``rules.family``);
    every decision is taken from the record (:func:`action_for`): ``start_kyoku.sit``/``pulls`` for
    the choices the engine asks for (Tianjin R7), ``dahai`` (混儿悠 when it says ``hunyou``),
    ``ankan``, ``kakan``, ``hora`` (混杠 when its elements say ``HUNGANG``) on a turn,
    ``pon``/``daiminkan``/``chi``/``hora`` or else ``pass`` in a claim or rob window (R4, B3).
    Every engine event must equal the recorded one; each ``hora`` is re-scored by the family's
    scorer (:func:`check_hora`: R5, B5) and each ``end_kyoku`` checked for zero-sum payments with
    the family's reasons and consistent deltas and scores (:func:`check_end_kyoku`: R8, B6).

    A record that stops before the match is over (cut off mid-match, or without ``end_game``) is
    checked up to where it stops; if nothing diverges there, the result is ``incomplete``, not a
    divergence.

    ``walls``: the scripted walls of a match made with ``Match(..., walls=...)`` (tests); the
    record does not hold them, so such a match replays only when they are given again.  A hand the
    web server dealt again after a restart is dealt from the fresh seed its ``start_kyoku.resume``
    names (:meth:`Match._resume_deal`).
    """
    rec = list(events)
    res = ReplayResult(events=len(rec), hands=sum(1 for ev in rec if ev.get("type") == "start_kyoku"))

    def diverge(i: int, kind: str, got: dict[str, Any] | None, why: str) -> ReplayResult:
        res.divergence = Divergence(i, kind, rec[i] if i < len(rec) else None, got, why)
        return res

    if not rec or rec[0].get("type") != "start_game":
        return diverge(0, "start", None, f"a match opens with start_game, the record with {_brief(rec[0] if rec else None)}")
    try:
        start = rec[0]
        rules = Rules.from_dict(start["rules"])
        if walls is None:
            walls = _scripted_walls(events)
        m = Match(rules, seed=start["seed"], names=_names_by_player(start), walls=walls, resumes=_resumes(events))
    except (RulesError, KeyError, TypeError, ValueError, IndexError) as e:
        return diverge(0, "start", None, f"cannot start a match from this start_game: {e}")
    if rules.family not in FAMILY_EVENT_FIELDS:
        return diverge(0, "start", None, f"records of the {rules.family} family cannot be checked yet; record "
                                         f"families are {', '.join(FAMILY_EVENT_FIELDS)}")

    family = rules.family
    kyoku: dict[str, Any] | None = None
    kyoku_at = 0  # the index of the hand's start_kyoku
    replaced = False  # a replacement draw this hand: Beijing's face-up 混坯 has been drawn (B2)
    scores: list[int] | None = None  # after the last end_kyoku

    def compare(new: list[dict[str, Any]]) -> bool:
        """Check the engine's new events against the record; False once a divergence is set."""
        nonlocal kyoku, kyoku_at, replaced, scores
        for got in new:
            i = res.compared
            if i >= len(rec):
                # the record stops inside what one action caused (e.g. after a dahai, before the
                # draw it leads to; or without end_game): cut off, not a different game
                res.incomplete = f"after event {i - 1} the engine goes on with {_brief(got)}"
                return False
            exp = rec[i]
            got = _as_recorded(got, exp)
            if got != exp:
                diverge(i, "mismatch", got, _explain_mismatch(exp, got, family))
                return False
            t = got["type"]
            problem = None
            if t == "start_kyoku":
                kyoku, kyoku_at, replaced = got, i, False
            elif t == "tsumo":
                replaced = replaced or bool(got.get("replacement"))
            elif t == "hora":
                assert kyoku is not None
                problem = check_hora(got, kyoku.get("dora_marker"), rules, dealer=kyoku["dealer"],
                                     indicator_visible=not replaced)
                if problem is None and family == "beijing":
                    problem = _flat_hand_problem(got, rec[kyoku_at:i], kyoku["dealer"])
                res.wins += 1
            elif t == "end_kyoku":
                assert kyoku is not None
                problem = check_end_kyoku(got, kyoku["scores"], family=family)
                scores = got["scores"]
                res.payments += len(got["payments"])
            elif t == "end_game" and scores is not None and got["scores"] != scores:
                problem = f"final scores {got['scores']} are not those after the last hand {scores}"
            if problem:
                diverge(i, "check", got, problem)
                return False
            res.compared += 1
        return True

    if not compare(m.events):
        return res
    while not m.is_over:
        i = res.compared
        if i >= len(rec):
            res.incomplete = f"after event {i - 1} the engine waits for {_seat(m.to_act)} {_PHASE_WORDS[m.phase]}"
            return res
        nxt = rec[i]
        try:
            action, why = action_for(m, nxt)
        except (KeyError, TypeError, ValueError, IndexError) as e:  # TileError is a ValueError
            return diverge(i, "unexpected", None, f"the recorded {nxt.get('type')} is malformed: {e}")
        if action is None:
            return diverge(i, "unexpected", None, why)
        try:
            new = m.apply(m.to_act, action)
        except IllegalAction as e:
            return diverge(i, "illegal", None, f"the engine refuses '{action}' by {_seat(m.to_act)}: {e}")
        if not compare(new):
            return res
    if res.compared < len(rec):
        return diverge(res.compared, "extra", None, f"the match is over, but the record goes on with "
                                                     f"{len(rec) - res.compared} more events")
    return res


# ---- the move list ------------------------------------------------------------------------


def _tile_or_flower(text: str) -> Tile:
    return Flower.parse(text) if isinstance(text, str) and text.endswith("f") else Tile.parse(text)


def _tiles(names: Iterable[str]) -> str:
    try:
        return format_tiles([_tile_or_flower(t) for t in names], sort=True)
    except (TileError, TypeError):
        return " ".join(map(str, names))


def _rules_text(d: dict[str, Any]) -> str:
    """The preset of the family and the options that differ from it; a family other than Tianjin
    is named: ``beijing_a [北京麻将 Beijing mahjong] (base=2)``."""
    raw = d.get("family")
    family = raw if isinstance(raw, str) and raw in FAMILIES else None
    preset = d.get("preset", FAMILIES[family].default_preset if family else "classic")
    base = PRESETS[preset].to_dict() if preset in PRESETS else {}
    diff = [f"{k}={_json_text(v)}" for k, v in d.items() if k != "preset" and base.get(k, ...) != v]
    name = str(preset)
    if family is not None and family != DEFAULT_FAMILY:
        from .families import get as get_family

        f = get_family(family)
        name += f" [{f.chinese} {f.english}]"
    return name + (f" ({', '.join(diff)})" if diff else "")


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _scores(values: Sequence[int], signed: bool = False) -> str:
    return "  ".join(f"{SEAT_WINDS[s]} {_signed(v) if signed else v}" for s, v in enumerate(values))


def show(events: Sequence[dict[str, Any]]) -> list[str]:
    """A readable move-by-move text of a match; ``[n]`` is the event's index (as replay reports it).
    Tianjin's and Beijing's own events read in their family's words (坐庄/拉庄, 铲, 金杠; chi,
    点炮, 抢杠, 混儿悠, 混杠, 烧庄, 上楼)."""
    out: list[str] = []
    names = ["?"] * 4
    family = DEFAULT_FAMILY
    dealer = 0
    i = 0
    while i < len(events):
        ev = events[i]
        t = ev.get("type")
        tag = f"[{i}]"
        who = _seat(ev.get("actor"))
        if t == "start_game":
            names = list(ev.get("names", names))
            rules = ev.get("rules", {})
            family = rules.get("family", DEFAULT_FAMILY) if isinstance(rules, dict) else DEFAULT_FAMILY
            seats = ", ".join(f"{SEAT_WINDS[s]} {_SEAT_CN[s]} {n}" for s, n in enumerate(names))
            out.append(f"{tag} match: seed {ev.get('seed')}, rules {_rules_text(rules if isinstance(rules, dict) else {})}")
            out.append(f"    seats: {seats}")
        elif t == "start_kyoku":
            d = dealer = ev["dealer"]
            dice = ev.get("dice", {})
            head = f"{tag} hand {ev['hand'] + 1} (round {ev['round'] + 1}): dealer {SEAT_WINDS[d]} {names[d]}"
            if "sit" in ev or "pulls" in ev:  # Tianjin's choices (R7)
                pulls = [f"{SEAT_WINDS[s]} ×{n}" for s, n in enumerate(ev.get("pulls", [])) if n]
                head += (f", {'sat (坐庄)' if ev.get('sit') else 'did not sit'}; "
                         f"pulls (拉庄): {', '.join(pulls) or 'none'}")
            if ev.get("upstairs"):
                head += "; 上楼 (upstairs): every payment doubled after a drawn hand (B6)"
            if "resume" in ev:
                head += f"; dealt again after a restart (resume {ev['resume']}), from a fresh wall"
            out.append("")
            out.append(head)
            first, second = dice.get("first", []), dice.get("second", [])
            line = (f"    dice: {SEAT_WINDS[d]} rolled {'+'.join(map(str, first))}, "
                    f"{_seat(dice.get('second_roller'))} rolled {'+'.join(map(str, second))}; "
                    f"wall broken at {_seat(ev.get('wall_break', {}).get('seat'))}'s wall")
            if dice.get("indicator"):
                line += f"; {SEAT_WINDS[(d + 2) % 4]} rolled {'+'.join(map(str, dice['indicator']))} for the indicator"
            out.append(line)
            wilds = " ".join(ev.get("wilds", []))
            if family == "mcr":
                pw = ev.get("prevalent_wind")
                wild_text = (f"prevalent wind (圈风) {SEAT_WINDS[pw]} {_SEAT_CN[pw]}" if isinstance(pw, int) and 0 <= pw < 4
                             else "prevalent wind ?")
            elif family == "beijing":
                marker = ev.get("dora_marker")
                wild_text = (f"混坯 (indicator) {marker}, wild (混儿) {wilds}" if marker is not None
                             else "no wilds (混儿)")
            else:
                wild_text = f"indicator {ev.get('dora_marker')}, wilds (混儿) {wilds}"
            out.append(f"    {wild_text}; scores {_scores(ev.get('scores', [0] * 4))}")
            for s, hand in enumerate(ev.get("tehais", [])):
                out.append(f"    {SEAT_WINDS[s]} dealt {_tiles(hand)}")
        elif t == "tsumo":
            src = "from the tail (补牌)" if ev.get("replacement") else ""
            if src and i > 0 and events[i - 1].get("type") == "flower":
                src = "from the tail for the flower (补花)"
            text = f"{tag} {who} draws {ev.get('pai')}" + (f" {src}" if src else "")
            nx = events[i + 1] if i + 1 < len(events) else None
            if nx is not None and nx.get("type") == "dahai" and nx.get("actor") == ev.get("actor"):
                text += f", {_discard_text(nx, family)}"  # the usual draw-discard pair on one line
                i += 1
            out.append(text)
        elif t == "dahai":
            out.append(f"{tag} {who} {_discard_text(ev, family)}")
        elif t == "flower":
            out.append(f"{tag} {who} lays aside the flower {ev.get('pai')} and draws its replacement (补花, M1)")
        elif t == "chi":
            seq = _tiles([str(ev.get("pai")), *ev.get("consumed", [])])
            out.append(f"{tag} {who} chis {ev.get('pai')} from {_seat(ev.get('target'))} (吃): {seq}")
        elif t == "pon":
            out.append(f"{tag} {who} pons {ev.get('pai')} from {_seat(ev.get('target'))} (碰)")
        elif t == "daiminkan":
            out.append(f"{tag} {who} kongs {ev.get('pai')} from {_seat(ev.get('target'))} (明杠)")
        elif t == "ankan":
            tile = (ev.get("consumed") or ["?"])[0]
            kind = "gold kong (金杠)" if ev.get("gold") else "concealed kong (暗杠)"
            out.append(f"{tag} {who} declares a {kind} of {tile}")
        elif t == "kakan":
            out.append(f"{tag} {who} adds {ev.get('pai')} to the pon (加杠)")
        elif t == "chan":
            out.append(f"{tag} 铲: the dealer's first discard {ev.get('pai')} was followed by each other seat (R7)")
        elif t == "shaozhuang":
            rounds = ev.get("rounds")
            again = f", round {rounds}" if rounds != 1 else ""
            out.append(f"{tag} 烧庄{again}: the dealer {who}'s first discard {ev.get('pai')} was followed by each "
                       "other seat; the dealer pays each other seat at the end of the hand unless it is drawn (B6)")
        elif t == "hora":
            if family == "mcr":
                fans = ", ".join(f"{f.get('name')} {f.get('fan')}" + (f"×{f.get('count')}" if f.get("count", 1) != 1 else "")
                                 for f in ev.get("fans", []) if isinstance(f, dict))
                flowers = f" + {ev.get('flowers')} flowers" if ev.get("flowers") else ""
                out.append(f"{tag} {who} WINS on {ev.get('pai')} ({_mcr_how(ev)}): {ev.get('fan')} fan{flowers} "
                           f"= {ev.get('total')} [{fans}]")
            elif family == "beijing" or "value" in ev:
                out.append(f"{tag} {who} WINS on {ev.get('pai')} ({_beijing_how(ev, dealer)}): {ev.get('name')}, "
                           f"value {ev.get('value')} [{' '.join(ev.get('elements', []))}]")
            else:
                how = []
                if ev.get("tianhu"):
                    how.append("天胡")
                if ev.get("kong_draw"):
                    how.append("on a kong replacement")
                out.append(f"{tag} {who} WINS on {ev.get('pai')}{' (' + ', '.join(how) + ')' if how else ''}: "
                           f"{ev.get('name')}, {ev.get('fan')} fan [{' '.join(ev.get('elements', []))}]")
            melds = " ".join(ev.get("melds", []))
            out.append(f"    hand {_tiles(ev.get('hand', []))} + {ev.get('pai')}" + (f"  melds {melds}" if melds else ""))
        elif t == "ryukyoku":
            drawn = f"{tag} drawn hand: {ev.get('reason')} (荒牌)"
            if family == "beijing":
                drawn += "; no 烧庄 is paid (B6)"
            out.append(drawn)
        elif t == "end_kyoku":
            pays = ev.get("payments", [])
            if pays:
                out.append(f"{tag} payments:")
                for p in pays:
                    out.append(f"    {_seat(p.get('payer'))} → {_seat(p.get('payee'))} {p.get('amount')} "
                               f"({p.get('reason')})")
            else:
                out.append(f"{tag} no payments")
            out.append(f"    deltas {_scores(ev.get('deltas', []), signed=True)}; "
                       f"scores {_scores(ev.get('scores', []))}")
        elif t == "end_game":
            out.append("")
            out.append(f"{tag} end of the match: "
                       + ", ".join(f"{SEAT_WINDS[s]} {names[s]} {v}" for s, v in enumerate(ev.get("scores", []))))
        else:
            out.append(f"{tag} {_json_text(ev, 200)}")
        i += 1
    return out


def _mcr_how(ev: dict[str, Any]) -> str:
    """How an MCR win came (M2, M3): on whose discard, 抢杠和, 自摸, and the table's part of it."""
    target = _seat(ev.get("target"))
    if ev.get("rob_kong"):
        how = [f"robbing {target}'s added kong (抢杠和)"]
    elif not ev.get("self_drawn"):
        how = [f"on {target}'s discard"]
    else:
        how = ["self-drawn (自摸)"]
    if ev.get("about_kong") and not ev.get("rob_kong"):
        how.append("on a kong replacement (杠上开花)")
    if ev.get("wall_last"):
        how.append("the last tile (妙手回春)" if ev.get("self_drawn") else "the last discard (海底捞月)")
    if ev.get("fourth_tile"):
        how.append("the last copy (和绝张)")
    return ", ".join(how)


def _beijing_how(ev: dict[str, Any], dealer: int) -> str:
    """How a Beijing win came (B2, B3, B5): 点炮 from whom, 抢杠, 自摸 and its kinds, 混儿悠, 混杠."""
    codes = ev.get("elements") or ()
    target = _seat(ev.get("target"))
    if ev.get("rob_kong"):
        how = [f"robbing {target}'s kong (抢杠), {target} pays"]
    elif not ev.get("self_drawn"):
        how = [f"on {target}'s discard (点炮 by {target})"]
    elif "HUNGANG" in codes:
        how = ["混杠 declared: the four wilds"]
    else:
        how = ["self-drawn (自摸)"]
    if ev.get("hunyou"):
        how.append("混儿悠 succeeded")
    if ev.get("kong_draw"):
        how.append("on a kong replacement (杠上开花)")
    if ev.get("last_tile"):
        how.append("the last tile (海底)")
    if "TIANHE" in codes:
        how.append("天和")
    if "DIHE" in codes:
        how.append("地和")
    if ev.get("actor") == dealer:
        how.append("the dealer (庄)")
    return ", ".join(how)


def _discard_text(ev: dict[str, Any], family: str = DEFAULT_FAMILY) -> str:
    """``discards 7m (the drawn tile)``; Beijing's 混儿悠 and wilds (B2, B3), Tianjin's 小相公 (R2)."""
    text = f"discards {ev.get('pai')}"
    if ev.get("hunyou"):
        text = f"declares 混儿悠 (hunyou): discards {ev.get('pai')} and waits on any tile"
    if ev.get("tsumogiri"):
        text += " (the drawn tile)"
    if ev.get("wild"):
        if family == "beijing":
            text += " — a wild (混儿), discarded without penalty (B2)"
        else:
            text += " — a wild: 小相公, no more wins this hand (R2)"
    return text
