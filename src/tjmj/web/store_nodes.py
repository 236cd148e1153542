"""The store's part for several server processes on one database (docs/web.md, "Several processes").

:class:`NodesMixin` gives :class:`tjmj.web.store.Store` the heartbeats of the processes of a
cluster (table ``nodes``) and their shared secret (table ``cluster``).  A process beats every
second or so; one whose last beat is older than ``node_timeout`` is dead, and the leases it held
are free at once (:meth:`NodesMixin.dead_owners`, read by the store's claims), where a lease alone
would keep its matches for up to ``lease_s``.  Timed by the database's clock on PostgreSQL.
"""

from __future__ import annotations

import secrets
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .store_schema import MAX_URL, cluster_table, matches_table, nodes_table, rooms_table

__all__ = ["NodesMixin", "NODE_TIMEOUT"]

NODE_TIMEOUT = 3.0  # seconds without a heartbeat after which a process is dead
FORGET_AFTER = timedelta(hours=1)  # the rows of dead processes are deleted after this


class NodesMixin:
    """Heartbeats and the shared secret, for :class:`tjmj.web.store.Store`."""

    owner: str
    _node_timeout: timedelta

    if TYPE_CHECKING:  # the Store's
        def _tx(self, write: bool = False) -> AbstractContextManager[Connection]: ...
        @staticmethod
        def _clock(conn: Connection) -> datetime: ...

    def heartbeat(self, url: str) -> list[dict[str, Any]]:
        """Say this process is alive and reachable at ``url``; returns the other live processes,
        ``[{"id", "url"}]`` (the rows of processes dead for an hour are deleted)."""
        if not isinstance(url, str) or not url or len(url) > MAX_URL:
            raise ValueError(f"a node's url must be a string of 1 to {MAX_URL} characters")
        n = nodes_table.c
        with self._tx(write=True) as conn:
            now = self._clock(conn)
            done = conn.execute(sa.update(nodes_table).where(n.id == self.owner).values(url=url, heartbeat_at=now))
            if done.rowcount == 0:
                conn.execute(sa.insert(nodes_table).values(id=self.owner, url=url, started_at=now, heartbeat_at=now))
            conn.execute(sa.delete(nodes_table).where(n.heartbeat_at < now - FORGET_AFTER))
            rows = conn.execute(sa.select(n.id, n.url).where(n.id != self.owner,
                                                             n.heartbeat_at >= now - self._node_timeout)
                                .order_by(n.id)).all()
        return [{"id": r.id, "url": r.url} for r in rows]

    def leave(self) -> None:
        """This process stops: its row goes (its peers stop sending it anything at once)."""
        with self._tx(write=True) as conn:
            conn.execute(sa.delete(nodes_table).where(nodes_table.c.id == self.owner))

    def nodes(self) -> list[dict[str, Any]]:
        """Every process with a row: ``[{"id", "url", "alive"}]`` (alive: beat within ``node_timeout``)."""
        n = nodes_table.c
        with self._tx() as conn:
            now = self._clock(conn)
            rows = conn.execute(sa.select(n.id, n.url, n.heartbeat_at).order_by(n.id)).all()
        return [{"id": r.id, "url": r.url, "alive": r.heartbeat_at >= now - self._node_timeout} for r in rows]

    def dead_owners(self, conn: Connection, now: datetime) -> set[str]:
        """The owners whose process has a row and has not beaten within ``node_timeout``."""
        n = nodes_table.c
        return set(conn.execute(sa.select(n.id).where(n.heartbeat_at < now - self._node_timeout)).scalars())

    def room_known(self, code: str) -> bool:
        """Whether room ``code`` has a match being played or is a stored waiting room (so a
        process that does not hold it knows it is between owners, not gone)."""
        if not isinstance(code, str) or len(code) > 200:
            return False
        m, r = matches_table.c, rooms_table.c
        with self._tx() as conn:
            if conn.execute(sa.select(m.id).where(m.room == code, m.status == "playing").limit(1)).first():
                return True
            return conn.execute(sa.select(r.code).where(r.code == code)).first() is not None

    def cluster_secret(self) -> bytes:
        """The secret every process of the cluster signs forwarded requests with: made by the
        first process that asks, then read by the others (whoever can read the database can
        already change any match, so it adds no new trust)."""
        c = cluster_table.c
        for _ in range(2):  # two processes making it at once: one insert fails, and it reads the other's
            try:
                with self._tx(write=True) as conn:
                    value = conn.execute(sa.select(c.value).where(c.name == "secret")).scalar_one_or_none()
                    if value is None:
                        value = secrets.token_hex(32)
                        conn.execute(sa.insert(cluster_table).values(name="secret", value=value))
                return bytes.fromhex(value)
            except sa.exc.IntegrityError:
                continue
        raise RuntimeError("the cluster's secret could not be read")
