"""The store's exceptions, which failures are worth retrying (:func:`transient`) and the player
id's pattern, in a module of their own: the rooms use them without importing SQLAlchemy."""

from __future__ import annotations

import re

__all__ = ["PLAYER_ID_RE", "DatabaseLost", "DatabaseUnwritable", "LeaseLost", "StoreError", "transient"]

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


def transient(e: BaseException) -> bool:
    """A database failure that may pass (the server down, a timeout, a lock): worth retrying."""
    if isinstance(e, OSError | TimeoutError):
        return True
    try:
        from sqlalchemy import exc
    except ImportError:  # pragma: no cover
        return False
    return isinstance(e, exc.OperationalError | exc.InterfaceError | exc.DisconnectionError | exc.TimeoutError)
