"""The store's exceptions, in a module of their own: the rooms catch them without importing SQLAlchemy."""

from __future__ import annotations

__all__ = ["DatabaseLost", "LeaseLost", "StoreError"]


class StoreError(Exception):
    """A store failure that retrying will not mend."""


class LeaseLost(StoreError):
    """This server process no longer owns the match (or room): another one took it over."""


class DatabaseLost(StoreError):
    """The SQLite database file was deleted, replaced or made unwritable while the server ran."""
