"""What the web store (``tjmj.web.store``) takes and gives: the checks of its arguments (the
same on every dialect, before anything is written) and the dicts its reads return.

Every name here is importable from :mod:`tjmj.web.store` too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import orjson
import sqlalchemy as sa

from .errors import PLAYER_ID_RE
from .store_schema import MAX_NAME, MAX_TYPE, PLAYER_ID, PLAYER_KINDS, SEATS

_TOKEN = "token"  # player keys starting with this (token hashes) never leave through public reads


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_id(match_id: Any) -> int:
    if not _is_int(match_id):
        raise TypeError(f"a match id is an int, got {match_id!r}")
    return match_id


def _check_str(what: str, value: Any, max_len: int) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, got {value!r}")
    if not value or len(value) > max_len:
        raise ValueError(f"{what} must have 1 to {max_len} characters, got {value!r}")
    return value


def _check_json(what: str, value: Any) -> None:
    try:
        orjson.dumps(value)
    except orjson.JSONEncodeError as e:
        raise TypeError(f"{what} is not JSON-serialisable: {e}") from e


def _check_object(what: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError(f"{what} must be a dict, got {value!r}")
    _check_json(what, value)
    return value


def _check_seconds(what: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < math.inf:
        raise ValueError(f"{what} must be a positive number of seconds, got {value!r}")
    return float(value)


def _check_players(players: Any) -> list[dict[str, Any]]:
    """One player per seat, sorted by seat; fields beyond the four the store knows are kept as given
    (the server keeps its own, e.g. a player's index and token hash, to rebuild a room on resume)."""
    if not isinstance(players, list | tuple) or len(players) != SEATS:
        raise ValueError(f"players must be a list of {SEATS} players, one per seat, got {players!r}")
    out: list[dict[str, Any]] = []
    for p in players:
        if not isinstance(p, dict):
            raise TypeError(f"a player is a dict, got {p!r}")
        seat: Any = p.get("seat")
        kind, bot = p.get("kind"), p.get("bot")
        if not _is_int(seat) or not 0 <= seat < SEATS:
            raise ValueError(f"a player's seat is 0 to {SEATS - 1}, got {p!r}")
        name = _check_str("a player's name", p.get("name"), MAX_NAME)
        if kind not in PLAYER_KINDS:
            raise ValueError(f"a player's kind is one of {PLAYER_KINDS}, got {p!r}")
        if kind == "bot":
            _check_str("a bot player's bot", bot, MAX_NAME)
        elif bot is not None:
            raise ValueError(f"a human player has no bot, got {p!r}")
        pid = p.get(PLAYER_ID)
        if pid is not None and (kind != "human" or not isinstance(pid, str) or not PLAYER_ID_RE.match(pid)):
            raise ValueError(f"a player id is a person's, 16 to 32 of A-Z a-z 0-9 _ -, got {p!r}")
        out.append({"seat": seat, "name": name, "kind": kind, "bot": bot, **p})
    if sorted(p["seat"] for p in out) != list(range(SEATS)):
        raise ValueError(f"players must fill seats 0 to {SEATS - 1} once each, got {players!r}")
    _check_json("players", out)
    return sorted(out, key=lambda p: p["seat"])


def _check_scores(scores: Any) -> list[int]:
    if not isinstance(scores, list | tuple) or len(scores) != SEATS or not all(_is_int(s) for s in scores):
        raise ValueError(f"scores must be {SEATS} ints, one per seat, got {scores!r}")
    return list(scores)


def _check_events(events: Any) -> list[dict[str, Any]]:
    if not isinstance(events, list | tuple):
        raise TypeError(f"events must be a list of dicts, got {type(events).__name__}")
    for i, ev in enumerate(events):
        if not isinstance(ev, dict):
            raise TypeError(f"event {i} is not a dict: {ev!r}")
        _check_str(f"the type of event {i}", ev.get("type"), MAX_TYPE)
    return list(events)


def _event_bodies(match_id: int, events: Sequence[dict[str, Any]]) -> list[str]:
    bodies = []
    for i, ev in enumerate(events):
        try:
            bodies.append(orjson.dumps(ev).decode())
        except orjson.JSONEncodeError as e:
            raise TypeError(f"event {i} for match {match_id} is not JSON-serialisable: {e}") from e
    return bodies


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(t: datetime | None) -> str | None:
    return None if t is None else t.isoformat()


def _public_player(p: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in p.items() if not k.startswith(_TOKEN) and k != PLAYER_ID}


def _player_rows(match_id: int, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"match_id": match_id, "seat": p["seat"], "name": p["name"], "kind": p["kind"],
             PLAYER_ID: p.get(PLAYER_ID)} for p in players]


def _match_dict(row: sa.Row[Any], *, public: bool = True) -> dict[str, Any]:
    return {
        "id": row.id,
        "room": row.room,
        "status": row.status,
        "rules": row.rules,
        "seed": row.seed,
        "players": [_public_player(p) for p in row.players] if public else row.players,
        "scores": row.scores,
        "hands": row.hands,
        "created_at": _iso(row.created_at),
        "finished_at": _iso(row.finished_at),
        # the deal's salt (tjmj.deal) is revealed once the match is over, never while it is played
        "settings": _public_settings(row.settings, row.status) if public else row.settings,
    }


def _public_settings(settings: Any, status: str) -> Any:
    deal = settings.get("deal") if isinstance(settings, dict) else None
    if status != "playing" or not isinstance(deal, dict) or "salt" not in deal:
        return settings
    return {**settings, "deal": {k: v for k, v in deal.items() if k != "salt"}}


def _room_dict(row: sa.Row[Any]) -> dict[str, Any]:
    return {"code": row.code, "data": row.data, "created_at": _iso(row.created_at),
            "updated_at": _iso(row.updated_at)}


def _missing(match_id: int) -> KeyError:
    return KeyError(f"no match with id {match_id}")
