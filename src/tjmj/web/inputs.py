"""What a request may name, checked: the bot levels (:data:`LEVELS`) and speeds (:data:`BOT_SPEEDS`)
a host chooses, player ids and display names; and the hash a seat's secret token is kept as.

A refused request raises :class:`LobbyError`, which carries the HTTP status to answer with.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..bots import BOT_NAMES
from .errors import PLAYER_ID_RE
from .limits import MAX_NAME_LEN

__all__ = [
    "BOT_SPEEDS",
    "LEVELS",
    "LEVEL_OF",
    "LobbyError",
    "ROOM_BOTS",
    "checked_player_id",
    "clean_name",
    "player_id",
    "room_bot",
    "token_hash",
]

# the bots a room may seat: those of BOT_NAMES, which decide from the observation, and ``expert``,
# which searches on a copy of the room's match in a worker thread (Room._search), off the event loop
ROOM_BOTS: tuple[str, ...] = (*BOT_NAMES, "expert")
# the lobby's bot levels and the bot each seats: said here only (the lobby's select lists them, as
# tests/test_web.py checks; rooms report the level of their bot).  ``bots`` in the API takes a level
# or a bot name of ROOM_BOTS (``random`` is offered by the API only)
LEVELS: dict[str, str] = {"easy": "greedy", "normal": "baseline", "hard": "strong", "expert": "expert"}
LEVEL_OF: dict[str, str] = {bot: level for level, bot in LEVELS.items()}


class LobbyError(Exception):
    """A refused request: ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


def room_bot(value: Any) -> str:
    """The bot a room seats for ``bots``: a level of :data:`LEVELS` (``hard`` → ``strong``) or a bot
    name of :data:`ROOM_BOTS` as it is; anything else is a 400 that names the value."""
    if isinstance(value, str):
        if value in LEVELS:
            return LEVELS[value]
        if value in ROOM_BOTS:
            return value
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    raise LobbyError(400, f"'bots' must be a level ({', '.join(LEVELS)}) or a bot ({', '.join(ROOM_BOTS)}), "
                          f"not {shown}")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def player_id(value: Any) -> str | None:
    """A person's player id from a request (docs/web.md): None when absent (anonymous); anything
    but 16 to 32 of ``A-Z a-z 0-9 _ -`` is a 400."""
    if value is None:
        return None
    if not isinstance(value, str) or not PLAYER_ID_RE.match(value):
        raise LobbyError(400, "'player_id' must be 16 to 32 of the characters A-Z a-z 0-9 _ -")
    return value


# a signed-in person's player id: made from their account's number, never sent by a browser
ACCOUNT_PREFIX = "account-"


def account_player_id(account_id: int) -> str:
    """The player id of account ``account_id`` at the tables and in the statistics (22 characters)."""
    return f"{ACCOUNT_PREFIX}{account_id:014d}"


def is_account_id(value: str | None) -> bool:
    return bool(value) and value.startswith(ACCOUNT_PREFIX)  # type: ignore[union-attr]


def checked_player_id(value: Any) -> str | None:
    """A stored player id read back (a resumed room): kept if well formed, else dropped (anonymous)."""
    return value if isinstance(value, str) and PLAYER_ID_RE.match(value) else None


def clean_name(name: Any, default: str = "Player") -> str:
    """A display name: a string, control characters dropped, trimmed, at most 20 characters."""
    if name is None:
        return default
    if not isinstance(name, str):
        raise LobbyError(400, "'name' must be a string")
    text = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME_LEN]
    return text or default


# how long bots wait before they act, as a factor on the server's bot delay (the host's choice)
BOT_SPEEDS = {"slow": 2.5, "normal": 1.0, "fast": 0.25}
