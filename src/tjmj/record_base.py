"""What :mod:`tjmj.record` and the families' ``records`` parts share: the JSON types of a record's
fields, :class:`RecordError`, seat words and the few-word texts messages give of a value or an event.

It imports no family (each family's ``records`` part imports it), so that the record modules and
the parts never import each other at load time.
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["BOOL", "COMMON_FIELDS", "INT", "LIST", "OBJ", "PYTYPE", "SEAT_CN", "SEAT_WINDS", "STR", "STR_OR_NULL", "RecordError",
           "brief", "json_text", "seat_text"]

SEAT_WINDS = ("E", "S", "W", "N")  # seats 0–3 (R3)
SEAT_CN = ("东", "南", "西", "北")

# the JSON types a family's EVENT_FIELDS names (docs/records.md), and the Python types that hold them
INT, STR, BOOL, LIST, OBJ = "integer", "string", "boolean", "array", "object"
STR_OR_NULL = "string or null"
PYTYPE: dict[str, type | tuple[type, ...]] = {
    INT: int, STR: str, BOOL: bool, LIST: list, OBJ: dict, STR_OR_NULL: (str, type(None)),
}

# the event types whose required fields every family shares (each family's EVENT_FIELDS lists them in its order)
COMMON_FIELDS: dict[str, dict[str, str]] = {
    "start_game": {"names": LIST, "seating": LIST, "seed": INT, "rules": OBJ},
    "tsumo": {"actor": INT, "pai": STR, "replacement": BOOL},
    "dahai": {"actor": INT, "pai": STR, "tsumogiri": BOOL, "wild": BOOL},
    "pon": {"actor": INT, "target": INT, "pai": STR, "consumed": LIST},
    "daiminkan": {"actor": INT, "target": INT, "pai": STR, "consumed": LIST},
    "kakan": {"actor": INT, "pai": STR, "consumed": LIST},
    "ryukyoku": {"reason": STR},
    "end_kyoku": {"payments": LIST, "deltas": LIST, "scores": LIST},
    "end_game": {"scores": LIST},
}


class RecordError(ValueError):
    """An unreadable record: ``line`` is the 1-based line number at fault (0: the file as a whole)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


def json_text(value: Any, limit: int = 80) -> str:
    """A value as compact JSON for a message, cut to ``limit`` characters."""
    try:
        s = orjson.dumps(value).decode()
    except TypeError:
        s = repr(value)
    return s if len(s) <= limit else s[: limit - 1] + "…"


def seat_text(s: Any) -> str:
    """A seat as its wind letter (``E``), or ``seat 7`` for a value that is none."""
    return SEAT_WINDS[s] if isinstance(s, int) and 0 <= s < 4 else f"seat {s!r}"


def brief(ev: dict[str, Any] | None) -> str:
    """A few words for an event in messages: 'dahai by S: 7p'."""
    if ev is None:
        return "nothing"
    t = ev.get("type")
    who = seat_text(ev.get("actor"))
    if t in ("tsumo", "dahai", "chan", "flower"):
        extra = " (replacement)" if ev.get("replacement") else ""
        return f"{t} by {who}: {ev.get('pai')}{extra}"
    if t in ("pon", "daiminkan", "chi"):
        return f"{t} by {who} of {ev.get('pai')} from {seat_text(ev.get('target'))}"
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
