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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, BinaryIO

import orjson

from . import families
from .game import Action, IllegalAction, Match
from .record_base import INT, PYTYPE, SEAT_WINDS, RecordError, brief, json_text, seat_text
from .rules import Rules, RulesError
from .tiles import Tile, parse_tiles
from .wall import Dice

__all__ = [
    "FAMILY_EVENT_FIELDS",
    "FAMILY_PAYMENT_REASONS",
    "ReplayError",
    "action_for",
    "rebuild",
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
    "records_of",
    "replay",
    "show",
    "write_record",
]

_BLOCK = 1 << 16


class _ByFamily(Mapping[str, Any]):
    """One name of every family's ``records`` part, by family name, in the registry's order:
    ``FAMILY_EVENT_FIELDS[name]`` is ``families.get(name).records.EVENT_FIELDS``."""

    def __init__(self, attr: str) -> None:
        self._attr = attr

    def __getitem__(self, name: str) -> Any:
        try:
            return getattr(records_of(name), self._attr)
        except RecordError:
            raise KeyError(name) from None

    def __iter__(self) -> Iterator[str]:
        return (f.name for f in families.all_families())

    def __len__(self) -> int:
        return len(families.all_families())

    def __repr__(self) -> str:
        return repr(dict(self))


# Every event type with its required fields and their JSON types, per rule family (the family's
# ``records.EVENT_FIELDS``); ``read_records`` checks each event against the schema of its match's
# family (``start_game.rules.family``; none: the registry's default family, records made before
# families existed), so that a malformed file is rejected with its line number instead of failing
# deep inside a replay.  More fields than these are allowed.
FAMILY_EVENT_FIELDS: Mapping[str, dict[str, dict[str, str]]] = _ByFamily("EVENT_FIELDS")
# family -> the payment reasons its settlement lists (``records.PAYMENT_REASONS``: R8, B6, M4)
FAMILY_PAYMENT_REASONS: Mapping[str, tuple[str, ...]] = _ByFamily("PAYMENT_REASONS")


def __getattr__(name: str) -> Any:
    """``DEFAULT_FAMILY`` (a start_game whose rules name no family: a record made before families
    existed, the registry's default family), and ``EVENT_FIELDS`` / ``PAYMENT_REASONS`` of that
    family, the names records had before families."""
    if name == "DEFAULT_FAMILY":
        return families.default().name
    if name in ("EVENT_FIELDS", "PAYMENT_REASONS"):
        return getattr(families.default().records, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def records_of(family: Any) -> Any:
    """The ``records`` part of the family named ``family`` (a :class:`RecordError`, line 0, when
    records know no such family).

    Every family's ``records`` part defines, for this module and :mod:`tjmj.record_text`:

    * ``EVENT_FIELDS``: event type -> required field -> JSON type (:mod:`tjmj.record_base`'s names);
    * ``PAYMENT_REASONS`` (the reasons a settlement lists) and ``SETTLEMENT_SECTION`` (its rule, R8);
    * ``check_hora(hora, indicator, rules, dealer, indicator_visible)``: re-score a recorded win,
      a problem in words or None (see :func:`check_hora`);
    * ``hand_problem(hora, hand, dealer)``: what the win's hand events (its start_kyoku up to the
      win) say against it, or None (Beijing's 天和/地和, B5);
    * ``kyoku_text(ev)``, ``win_text(ev, dealer)``, ``WILD_DISCARD_TEXT``, ``DRAWN_TEXT``: its words
      in the move list (:func:`show`).
    """
    try:
        fam = families.get(family)
    except RulesError:
        fam = None
    if fam is not None:
        try:
            return fam.records
        except ModuleNotFoundError as e:
            if e.name != f"{fam.package}.records":
                raise
    raise RecordError(0, f"start_game names the rule family {json_text(family)}; record families are "
                         f"{', '.join(FAMILY_EVENT_FIELDS)}")


def _default_family() -> str:
    return families.default().name


def record_family(start: dict[str, Any]) -> str:
    """The rule family of a match from its ``start_game`` event: ``rules.family``, the registry's
    default family when the rules name none (records made before families existed); a
    :class:`RecordError` (line 0) when it is not a family records know (:data:`FAMILY_EVENT_FIELDS`)."""
    rules = start.get("rules")
    default = _default_family()
    family = rules.get("family", default) if isinstance(rules, dict) else default
    records_of(family)  # raises unless records know the family
    return str(family)


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

_json_text = json_text  # the short names the messages below use
_seat = seat_text
_brief = brief


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


def _check_fields(ev: dict[str, Any], n: int, family: str, schema: dict[str, dict[str, str]]) -> None:
    """The event's type is one of ``family``'s (``schema``), with its required fields of the right JSON types."""
    t = ev["type"]
    spec = schema.get(t)
    if spec is None:
        raise RecordError(n, f"unknown event type {t!r} in a {family} match; its types are {', '.join(schema)}")
    for name, kind in spec.items():
        if name not in ev:
            raise RecordError(n, f"{t} event lacks the field {name!r}")
        v = ev[name]
        ok = isinstance(v, PYTYPE[kind]) and not (kind == INT and isinstance(v, bool))
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
    default = _default_family()
    start_fields = FAMILY_EVENT_FIELDS[default]  # start_game is the same in every family
    family = ""  # the current match's family, from its start_game
    schema: dict[str, dict[str, str]] = {}
    for n, raw in enumerate(f, 1):
        if isinstance(raw, str):
            raw = raw.encode("utf-8")
        if not raw.strip():
            continue  # blank lines (e.g. a trailing one) carry nothing
        ev = _parse_line(raw, n)
        if ev["type"] == "start_game":
            _check_fields(ev, n, default, start_fields)
            try:
                family = record_family(ev)
            except RecordError as e:
                raise RecordError(n, e.message) from None
            schema = FAMILY_EVENT_FIELDS[family]
            if events:
                yield events, lines
            events, lines = [], []
        elif not events:
            raise RecordError(n, f"a match must open with start_game, found {ev['type']!r}")
        else:
            _check_fields(ev, n, family, schema)
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


def _explain_mismatch(expected: dict[str, Any], got: dict[str, Any], family: str | None = None) -> str:
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
    """Re-score a recorded win with the family's scorer (its ``records.check_hora``); a problem in
    words, or None.

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
    problem: str | None = records_of(rules.family).check_hora(hora, indicator, rules, dealer, indicator_visible)
    return problem


def check_end_kyoku(ev: dict[str, Any], scores_before: Sequence[int] | None = None, *,
                    family: str | None = None) -> str | None:
    """R8 (B6 likewise): payments are transfers between seats summing to zero, each with a reason of
    the family's (:data:`FAMILY_PAYMENT_REASONS`) and none of 0, ``deltas`` are their per-seat sums,
    ``scores`` are the scores before plus ``deltas``; a problem in words, or None.  ``family``: the
    registry's default family when None; a family records do not know settles as that one."""
    if family is None:
        family = _default_family()
    try:
        rec = records_of(family)
    except RecordError:
        rec = records_of(_default_family())
    reasons, section = rec.PAYMENT_REASONS, rec.SETTLEMENT_SECTION
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
        if isinstance(rules, dict) and "family" not in rules and got["rules"].get("family") == _default_family():
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
    own = records_of(family)
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
                if problem is None:
                    problem = own.hand_problem(got, rec[kyoku_at:i], kyoku["dealer"])
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



# ---- the move list (tjmj.record_text) -----------------------------------------------------

def show(events: Sequence[dict[str, Any]]) -> list[str]:
    """A readable move-by-move text of a match (:func:`tjmj.record_text.show`); ``[n]`` is the
    event's index (as replay reports it)."""
    from .record_text import show as move_list  # on use: record_text imports this module

    return move_list(events)
