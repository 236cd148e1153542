"""The store's exceptions and the player id's pattern, in a module of their own: the rooms use them
without importing SQLAlchemy."""

from __future__ import annotations

import re

__all__ = ["PLAYER_ID_RE", "DatabaseLost", "DatabaseUnwritable", "LeaseLost", "StoreError"]

# A person's player id, made once by their browser (docs/web.md): 16 to 32 base64url characters.
PLAYER_ID_RE = re.compile(r"^[A-Za-z0-9_-]{16,32}$")


class StoreError(Exception):
    """A store failure that retrying will not mend."""


class LeaseLost(StoreError):
    """This server process no longer owns the match (or room): another one took it over."""


class DatabaseLost(StoreError):
    """The SQLite database file was deleted or replaced while the server ran: no more writes."""


class DatabaseUnwritable(OSError):
    """The SQLite database file (or its folder) cannot be written just now: a write fails, and
    succeeds again once the same file is writable (an OSError: retried like a database that is down)."""
