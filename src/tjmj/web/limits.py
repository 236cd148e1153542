"""The limits the server enforces, and the token buckets that enforce its rates.

:class:`Limits` holds every limit in one place (docs/security.md gives the reasons); :class:`Bucket`
is one token bucket (a seat's, a socket's, an address's) and :class:`Buckets` one per client address.
Security (docs/security.md): tokens only in the first WebSocket message, one live socket per seat,
rate limits per seat, per socket and per address, rooms nobody connects to expire.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass

__all__ = [
    "BURST",
    "Bucket",
    "Buckets",
    "CLOSE_REPLACED",
    "CLOSE_TRY_AGAIN",
    "ERROR_BURST",
    "ERROR_RATE",
    "Limits",
    "MAX_ACTION_LEN",
    "MAX_LIMITED",
    "MAX_MESSAGE_CHARS",
    "MAX_NAME_LEN",
    "MAX_ROOMS",
    "OUTBOX",
    "RATE",
    "SAVE_BACKOFF_MAX",
]

MAX_ACTION_LEN = 40
MAX_MESSAGE_CHARS = 2000
MAX_NAME_LEN = 20
BURST = 20  # messages a seat (or a spectator's socket) may send at once ...
RATE = 10.0  # ... refilled at this many per second
MAX_LIMITED = 200  # messages refused in a row before the socket is closed
ERROR_BURST = 50  # messages a seat (or a spectator's socket) may get an error for at once ...
ERROR_RATE = 0.5  # ... refilled at this many per second; beyond, the socket is closed (1008)
OUTBOX = 2000  # queued messages to one slow client before it is dropped
MAX_ROOMS = 500
CLOSE_REPLACED = 4409  # the seat was opened by a newer socket
CLOSE_TRY_AGAIN = 1013  # the room moved to another process of a cluster: the page reconnects there
SAVE_BACKOFF_MAX = 10.0


@dataclass(frozen=True)
class Limits:
    """Every limit the server enforces, in one place (docs/security.md gives the reasons).

    Rates are token buckets: ``*_burst`` at once, then ``*_rate`` per second.
    """

    ws_burst: int = BURST  # messages per seat, and per spectator socket
    ws_rate: float = RATE
    error_burst: int = ERROR_BURST  # messages answered with an error, per seat and per spectator socket
    error_rate: float = ERROR_RATE
    address_ws_burst: int = 60  # messages of all the sockets of one address together
    address_ws_rate: float = 30.0
    post_burst: int = 10  # POSTs (create, join, start) per address
    post_rate: float = 0.5
    get_burst: int = 120  # API GETs per address
    get_rate: float = 20.0
    max_rooms: int = MAX_ROOMS
    unseen_per_address: int = 5  # rooms one address created that nobody has connected to yet
    unseen_ttl: float = 120.0  # seconds before such a room expires
    waiting_ttl: float = 3600.0  # a waiting room with nobody connected is forgotten after this
    finished_ttl: float = 600.0  # a finished room with nobody connected is forgotten after this
    finished_kept: int = 100  # finished rooms with nobody connected kept at most (the least recently used go)
    sockets_per_address: int = 32
    max_sockets: int = 5000
    auth_timeout: float = 10.0  # seconds for a socket's first message (hello)
    grace: float = 15.0  # a person away is played by the bot after this (or their turn timer)
    db_timeout: float = 5.0  # a database call slower than this answers 503 / tells the table
    health_every: float = 1.5  # seconds /healthz reuses its check of the database, however often asked
    health_timeout: float = 2.0  # a database check (SELECT 1) slower than this says the database is down
    lease_renew: float = 10.0  # seconds between lease renewals (the store's lease is longer)
    adopt_every: float = 60.0  # seconds between looks for matches another process left behind
    node_beat: float = 1.0  # in a cluster: seconds between heartbeats, and between looks for a dead process's matches
    lobby_listed: int = 50  # rooms per list of GET /api/lobby (open, live), newest first
    lobby_rebuild: float = 0.5  # seconds GET /api/lobby reuses its lists, however many pages poll


class Bucket:
    """A token bucket: ``burst`` at once, refilled at ``rate`` per second."""

    __slots__ = ("burst", "rate", "tokens", "stamp", "limited")

    def __init__(self, burst: int, rate: float) -> None:
        self.burst = burst
        self.rate = rate
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.limited = 0  # refusals in a row

    def allow(self, cost: float = 1.0) -> bool:
        now = time.monotonic()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= cost:
            self.tokens -= cost
            self.limited = 0
            return True
        self.limited += 1
        return False

    def wait(self) -> float:
        """Seconds until one more is allowed."""
        return max(0.0, (1 - self.tokens) / self.rate) if self.rate > 0 else 60.0


class Buckets:
    """One bucket per key (a client address), the least recently used forgotten beyond ``size``."""

    def __init__(self, burst: int, rate: float, size: int = 10000) -> None:
        self.burst, self.rate, self.size = burst, rate, size
        self.items: OrderedDict[str, Bucket] = OrderedDict()

    def get(self, key: str) -> Bucket:
        b = self.items.get(key)
        if b is None:
            b = self.items[key] = Bucket(self.burst, self.rate)
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        else:
            self.items.move_to_end(key)
        return b

    def allow(self, key: str) -> bool:
        return self.get(key).allow()
