"""The people at a table: :class:`Connection`, one WebSocket with an outbox of its own, and
:class:`Player`, a place in a room (a person, who holds a secret token, or a bot).

Players and seats: ``player`` is the place in the room in order of arrival (the host is player
0); ``seat`` (0–3 = East, South, West, North) is drawn at random when the match starts (R3),
``match.seating[seat] = player``.  Each person holds a secret token; the store keeps only its
SHA-256 hash, so a restarted server accepts the old tokens, and a seat is never handed to a name.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from dataclasses import dataclass, field
from typing import Any

import orjson

from .inputs import token_hash
from .limits import BURST, ERROR_BURST, ERROR_RATE, OUTBOX, RATE, Bucket

__all__ = [
    "Connection",
    "Player",
    "error",
]


class Connection:
    """One WebSocket: an outbox drained by its own task (a slow client never blocks a room).

    ``bucket`` limits what it sends: a seat's bucket is the seat's (shared by every socket that
    ever holds it), a spectator's its own; ``address_bucket`` is shared by every socket of the
    client's address."""

    def __init__(self, ws: Any, player: int | None, *, bucket: Bucket | None = None,
                 address: str = "", address_bucket: Bucket | None = None, burst: int = BURST,
                 rate: float = RATE, error_burst: int = ERROR_BURST, error_rate: float = ERROR_RATE) -> None:
        self.ws = ws
        self.player = player  # None: a spectator
        self.address = address
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=OUTBOX)
        self.bucket = bucket if bucket is not None else Bucket(burst, rate)
        self.address_bucket = address_bucket
        # the messages it may get an error for: a seat's is the seat's (a new socket starts no fresh budget)
        self.errors = Bucket(error_burst, error_rate)
        self.errors_sent = 0  # error messages queued to it (Room.handle tells which answer its messages)
        self.closed = False
        self.overflow = False
        self.close_code = 1000

    def send(self, msg: dict[str, Any]) -> None:
        if self.closed:
            return
        if msg.get("type") == "error":
            self.errors_sent += 1
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:
            self.closed = self.overflow = True
            self.close_code = 1013
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.close_code = code
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    @property
    def limited(self) -> int:
        return self.bucket.limited

    def allow(self) -> bool:
        if self.address_bucket is not None and not self.address_bucket.allow():
            self.bucket.limited += 1
            return False
        return self.bucket.allow()

    async def writer(self) -> None:
        """Send the outbox in order until :meth:`close`; a slow client (full outbox) is closed."""
        while True:
            msg = await self.queue.get()
            if msg is None:
                break
            await self.ws.send_text(orjson.dumps(msg).decode())
        with contextlib.suppress(Exception):
            await self.ws.close(code=self.close_code)


def error(message: str, code: str = "bad_request") -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


@dataclass
class Player:
    """A place in a room: a person (``bot`` None, a secret token) or a bot."""

    name: str
    bot: str | None = None
    token_hash: str | None = None
    player_id: str | None = None  # the id the person's browser made (statistics); None: anonymous
    conn: Connection | None = None  # the one live socket of this seat
    bucket: Bucket = field(default_factory=lambda: Bucket(BURST, RATE))
    errors: Bucket = field(default_factory=lambda: Bucket(ERROR_BURST, ERROR_RATE))
    away_since: float | None = None  # time.time() when the person's socket went away (None: here)
    timeouts: int = 0
    left: bool = False  # left a ranked match: the bot plays the seat to the end (tjmj.web.ranked)

    @property
    def connected(self) -> bool:
        return self.conn is not None

    def owns(self, token: str) -> bool:
        return self.token_hash is not None and hmac.compare_digest(self.token_hash, token_hash(token))

    def stored(self, seat: int) -> dict[str, Any]:
        """The player as the store keeps it: a person with the hash of their token (never the token)."""
        d: dict[str, Any] = {"seat": seat, "name": self.name, "kind": "bot" if self.bot else "human",
                             "bot": self.bot}
        if self.bot is None:
            d["token_hash"] = self.token_hash
            if self.player_id is not None:
                d["player_id"] = self.player_id
        return d
