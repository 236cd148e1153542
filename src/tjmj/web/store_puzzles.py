"""The store's part for practice puzzles (docs/practice.md): a signed-in account's answers.

:class:`PuzzlesMixin` gives :class:`tjmj.web.store.Store` the ``puzzle_results`` rows.  The verdict
is the server's (:func:`tjmj.puzzles.verdict`), never the client's.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .store_schema import puzzle_results_table

__all__ = ["PuzzlesMixin", "RESULTS_SHOWN"]

RESULTS_SHOWN = 500  # the latest answers an account's results list


class PuzzlesMixin:
    """Practice answers, for :class:`tjmj.web.store.Store`."""

    if TYPE_CHECKING:  # the Store's
        def _tx(self, write: bool = False) -> AbstractContextManager[Connection]: ...
        @staticmethod
        def _clock(conn: Connection) -> datetime: ...

    def puzzle_answer(self, account_id: int, puzzle_id: str, correct: bool) -> None:
        """Keep one answer of the account."""
        with self._tx(write=True) as conn:
            conn.execute(sa.insert(puzzle_results_table).values(
                account_id=account_id, puzzle_id=puzzle_id[:40], correct=bool(correct), answered_at=self._clock(conn)))

    def puzzle_results(self, account_id: int) -> list[dict[str, Any]]:
        """The account's latest answers, newest first: puzzle id, correct, when (ISO)."""
        t = puzzle_results_table
        with self._tx() as conn:
            rows = conn.execute(sa.select(t.c.puzzle_id, t.c.correct, t.c.answered_at)
                                .where(t.c.account_id == account_id)
                                .order_by(t.c.answered_at.desc(), t.c.id.desc()).limit(RESULTS_SHOWN)).all()
        return [{"puzzle_id": r.puzzle_id, "correct": bool(r.correct), "answered_at": r.answered_at.isoformat()}
                for r in rows]
