"""The store's part for the ranked queue (docs/web.md, "Ranked play"; 排位).

:class:`RankedMixin` gives :class:`tjmj.web.store.Store` the queue's rows.  The queue lives in the
database, so every server process of a cluster sees one queue: whichever process a waiting
player's poll reaches may match four of them (:meth:`RankedMixin.ranked_claim`, one transaction
that locks the bucket's rows, so two processes never seat one player twice), seat them at a room
of its own and hand each their seat (:meth:`RankedMixin.ranked_seated`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .store_schema import MAX_ROOM, PLAYER_ID, ranked_queue_table

__all__ = ["RankedMixin"]

STALE = timedelta(seconds=20)  # a waiting player who has not asked for this long has gone
SEATING = timedelta(seconds=30)  # a process that claimed four and did not seat them in this long died
KEPT = timedelta(hours=1)  # a seat handed out stays readable this long (a reload finds its table)
SEATS = 4


def _check_entry(family: Any, hands: Any, rating: Any) -> None:
    if not isinstance(family, str) or not family or len(family) > 32:
        raise ValueError("a ranked family must be a name of 1 to 32 characters")
    if isinstance(hands, bool) or not isinstance(hands, int) or not 1 <= hands <= 64:
        raise ValueError("a ranked match length must be 1 to 64 hands")
    if isinstance(rating, bool) or not isinstance(rating, int | float):
        raise ValueError("a rating must be a number")


class RankedMixin:
    """The ranked queue, for :class:`tjmj.web.store.Store`."""

    if TYPE_CHECKING:  # the Store's
        def _tx(self, write: bool = False) -> AbstractContextManager[Connection]: ...
        @staticmethod
        def _clock(conn: Connection) -> datetime: ...

    def ranked_join(self, account_id: int, player_id: str, name: str, family: str, hands: int,
                    rating: float) -> None:
        """Put the account in the queue for ``family`` and ``hands`` (again: a fresh place, whatever
        it had, unless four were being seated with it: ``ValueError``)."""
        _check_entry(family, hands, rating)
        q = ranked_queue_table.c
        with self._tx(write=True) as conn:
            now = self._clock(conn)
            row = conn.execute(sa.select(q.room, q.matched_at).where(q.account_id == account_id)
                               .with_for_update()).first()
            if row is not None and row.room == "" and row.matched_at is not None and now - row.matched_at < SEATING:
                raise ValueError("a table is being made for you this moment; ask again in a second")
            conn.execute(sa.delete(ranked_queue_table).where(q.account_id == account_id))
            conn.execute(sa.insert(ranked_queue_table).values(
                {"account_id": account_id, PLAYER_ID: player_id, "name": name, "family": family, "hands": hands,
                 "rating": float(rating), "joined_at": now, "seen_at": now, "room": None, "token": None,
                 "player": None, "matched_at": None}))

    def ranked_leave(self, account_id: int) -> bool:
        """Take the account out of the queue; False if it was not waiting (or was being seated)."""
        q = ranked_queue_table.c
        with self._tx(write=True) as conn:
            done = conn.execute(sa.delete(ranked_queue_table).where(
                q.account_id == account_id, sa.or_(q.room.is_(None), q.room != ""))).rowcount
        return bool(done)

    def ranked_entry(self, account_id: int, touch: bool = True) -> dict[str, Any] | None:
        """The account's row (``touch``: it is still here, so it is not dropped as gone), with
        ``waiting``: how many wait for the same family and length, and ``waited_s``."""
        q = ranked_queue_table.c
        with self._tx(write=touch) as conn:
            now = self._clock(conn)
            row = conn.execute(sa.select(ranked_queue_table).where(q.account_id == account_id)).first()
            if row is None:
                return None
            if touch and row.room is None:
                conn.execute(sa.update(ranked_queue_table).where(q.account_id == account_id).values(seen_at=now))
            waiting = conn.execute(sa.select(sa.func.count()).select_from(ranked_queue_table).where(
                q.family == row.family, q.hands == row.hands, q.room.is_(None),
                q.seen_at > now - STALE)).scalar_one()
        out = dict(row._mapping)
        out["waiting"] = int(waiting)
        out["waited_s"] = max(0.0, (now - row.joined_at).total_seconds())
        return out

    def ranked_claim(self, family: str, hands: int, window: Callable[[float], float]) -> list[dict[str, Any]] | None:
        """Four waiting players of close rating for ``family`` and ``hands``, taken out of the wait
        (``room`` ""), or None.  Four fit when their ratings span at most ``window(s)``, ``s`` the
        seconds the longest-waiting of them has waited (the window widens with waiting); of the
        groups that fit, the one with the longest waiter.  Players gone quiet are dropped, and a
        claim whose process never seated it is waited on again."""
        q = ranked_queue_table.c
        with self._tx(write=True) as conn:
            now = self._clock(conn)
            conn.execute(sa.delete(ranked_queue_table).where(q.room.is_(None), q.seen_at <= now - STALE))
            conn.execute(sa.delete(ranked_queue_table).where(q.room.is_not(None), q.room != "",
                                                             q.matched_at <= now - KEPT))
            conn.execute(sa.update(ranked_queue_table).where(q.room == "", q.matched_at <= now - SEATING)
                         .values(room=None, matched_at=None, seen_at=now))
            # locked: a second process matching this bucket waits here, then sees these rows taken
            rows = conn.execute(sa.select(ranked_queue_table).where(
                q.family == family, q.hands == hands, q.room.is_(None))
                .order_by(q.rating, q.joined_at).with_for_update()).all()
            best: list[Any] | None = None
            for i in range(len(rows) - SEATS + 1):
                group = rows[i:i + SEATS]
                oldest = min(r.joined_at for r in group)
                fits = group[-1].rating - group[0].rating <= window((now - oldest).total_seconds())
                if fits and (best is None or oldest < min(r.joined_at for r in best)):
                    best = list(group)
            if best is None:
                return None
            conn.execute(sa.update(ranked_queue_table).where(q.account_id.in_([r.account_id for r in best]))
                         .values(room="", matched_at=now))
        return [dict(r._mapping) for r in sorted(best, key=lambda r: r.joined_at)]

    def ranked_seated(self, room: str, seats: dict[int, tuple[int, str]]) -> None:
        """The four claimed have their seats: ``seats`` maps each account to its place in the
        room and its seat token."""
        if not isinstance(room, str) or not room or len(room) > MAX_ROOM:
            raise ValueError("a room code must be a non-empty string")
        q = ranked_queue_table.c
        with self._tx(write=True) as conn:
            now = self._clock(conn)
            for account_id, (player, token) in seats.items():
                conn.execute(sa.update(ranked_queue_table).where(q.account_id == account_id, q.room == "")
                             .values(room=room, token=token, player=player, matched_at=now))

    def ranked_release(self, account_ids: list[int]) -> None:
        """The claimed players wait again (their table could not be made), keeping their places."""
        q = ranked_queue_table.c
        with self._tx(write=True) as conn:
            now = self._clock(conn)
            conn.execute(sa.update(ranked_queue_table).where(q.account_id.in_(account_ids), q.room == "")
                         .values(room=None, matched_at=None, seen_at=now))
