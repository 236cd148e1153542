"""The store's part for ratings (docs/web.md, "Ratings and the leaderboard"): each player's rating
(等级分) per family, its history, the leaderboard, and the seats that left a ranked match.

:class:`RatingsMixin` gives :class:`tjmj.web.store.Store` these rows.  Ratings are written in one
place only: :meth:`RatingsMixin._rate_match`, which :meth:`tjmj.web.store.Store.finish_match` calls in
the transaction that finishes a match whose settings say ``"ranked": true``.  That transaction is
fenced (only the process holding the match's lease finishes it) and atomic (the match is finished
and its ratings written together, or neither), so a match is rated exactly once whichever process
of a cluster plays it, and two matches finishing at once serialise on the rows they share.

The rating itself is :func:`tjmj.ratings.rate`: human seats with a player id are rated from their
stored rating (the default when they have none); bot seats count with their level's fixed rating
(:func:`tjmj.ratings.bot_rating`) and never move; a seat marked with :meth:`RatingsMixin.mark_left`
ranks last.
"""

from __future__ import annotations

import re
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..ratings import DEFAULT, Rating, bot_rating, rate
from ..rules import Rules, RulesError
from .store_schema import (
    MAX_FAMILY,
    MAX_PLAYER_ID,
    PLAYER_ID,
    SEATS,
    accounts_table,
    match_players_table,
    matches_table,
    rating_history_table,
    ratings_table,
)
from .store_values import _check_id, _iso

__all__ = ["RatingsMixin", "match_family"]

MAX_LEADERBOARD = 500
_ACCOUNT_ID = re.compile(r"account-(\d{14})\Z")  # tjmj.web.inputs.account_player_id


def _account_of(player_id: str) -> int | None:
    m = _ACCOUNT_ID.match(player_id)
    return int(m.group(1)) if m else None


def match_family(rules: Any) -> str | None:
    """The family of a match's stored rules, or None if they are not valid rules."""
    try:
        return Rules.from_dict(rules).family if isinstance(rules, dict) else None
    except (RulesError, TypeError, ValueError):
        return None


def _rating_dict(row: Any) -> dict[str, Any]:
    r = Rating(row.mu, row.sigma)
    return {"family": row.family, "rating": r.display, "mu": round(r.mu, 4), "sigma": round(r.sigma, 4),
            "matches": row.matches, "updated_at": _iso(row.updated_at)}


def _check_family(family: Any) -> str:
    if not isinstance(family, str) or not family or len(family) > MAX_FAMILY:
        raise ValueError(f"a family is a string of 1 to {MAX_FAMILY} characters, got {family!r}")
    return family


def _check_player_id(player_id: Any) -> str:
    if not isinstance(player_id, str) or not player_id or len(player_id) > MAX_PLAYER_ID:
        raise ValueError(f"a player id is a string of 1 to {MAX_PLAYER_ID} characters, got {player_id!r}")
    return player_id


class RatingsMixin:
    """Ratings, their history, the leaderboard and ranked seats left, for :class:`tjmj.web.store.Store`."""

    if TYPE_CHECKING:  # the Store's
        def _tx(self, write: bool = False) -> AbstractContextManager[Connection]: ...
        @staticmethod
        def _clock(conn: Connection) -> datetime: ...
        @staticmethod
        def _lock_match(conn: Connection, match_id: int) -> sa.Row[Any, Any, Any, Any]: ...
        def _check_owned(self, match_id: int, row: sa.Row[Any, Any, Any, Any]) -> None: ...

    # ---- writes ---------------------------------------------------------------------------

    def mark_left(self, match_id: int, seat: int) -> bool:
        """The person of ``seat`` left the playing match ``match_id`` for good: if it is ranked, they
        rank last when it finishes, whatever their score.  Needs this store's lease on the match, as
        every match write (:class:`~tjmj.web.errors.LeaseLost`); marking a seat twice keeps the
        first time.  True if the seat is marked now, False if it already was."""
        _check_id(match_id)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < SEATS:
            raise ValueError(f"a seat is 0 to {SEATS - 1}, got {seat!r}")
        mp = match_players_table.c
        with self._tx(write=True) as conn:
            row = self._lock_match(conn, match_id)
            if row.status != "playing":
                raise ValueError(f"match {match_id} is {row.status}, not playing: nobody can leave it")
            self._check_owned(match_id, row)
            done = conn.execute(sa.update(match_players_table)
                                .where(mp.match_id == match_id, mp.seat == seat, mp.left_at.is_(None))
                                .values(left_at=self._clock(conn)))
            return bool(done.rowcount)

    def _rate_match(self, conn: Connection, match_id: int, scores: list[int], now: datetime) -> None:
        """Rate a ranked match that is finishing, in finish_match's transaction (see the module)."""
        m, mp, rt = matches_table.c, match_players_table.c, ratings_table.c
        match = conn.execute(sa.select(m.rules, m.players).where(m.id == match_id)).one()
        family = match_family(match.rules)
        if family is None:
            return
        bots = {p.get("seat"): p.get("bot") for p in match.players if isinstance(p, dict)}
        seats = conn.execute(sa.select(mp.seat, mp.kind, mp.player_id, mp.left_at)
                             .where(mp.match_id == match_id).order_by(mp.seat)).all()
        before: list[Rating] = [DEFAULT] * SEATS
        fixed: set[int] = set()
        rated: dict[int, tuple[str, int | None]] = {}  # seat -> (player id, matches before; None: no row)
        for s in seats:
            if s.kind == "human" and s.player_id:
                have = conn.execute(sa.select(rt.mu, rt.sigma, rt.matches).where(
                    rt.player_id == s.player_id, rt.family == family).with_for_update()).first()
                if have is not None:
                    before[s.seat] = Rating(have.mu, have.sigma)
                rated[s.seat] = (s.player_id, None if have is None else have.matches)
            else:  # a bot at its level's fixed rating; a person without a player id: a newcomer, unrated
                bot = bots.get(s.seat)
                before[s.seat] = (bot_rating(family, bot) if isinstance(bot, str) else None) or DEFAULT
                fixed.add(s.seat)
        if not rated or len({pid for pid, _ in rated.values()}) != len(rated):  # nobody, or one person twice
            return
        left = frozenset(s.seat for s in seats if s.left_at is not None)
        after = rate(before, scores, left=left, fixed=frozenset(fixed))
        for seat, (pid, played) in rated.items():
            r = after[seat]
            values = {"mu": r.mu, "sigma": r.sigma, "matches": (played or 0) + 1, "updated_at": now}
            if played is not None:
                conn.execute(sa.update(ratings_table).where(rt.player_id == pid, rt.family == family).values(values))
            else:
                conn.execute(sa.insert(ratings_table).values(
                    {PLAYER_ID: pid, "family": family, "account_id": self._account(conn, pid), **values}))
            conn.execute(sa.insert(rating_history_table).values(
                {PLAYER_ID: pid, "family": family, "match_id": match_id, "mu": r.mu, "sigma": r.sigma, "at": now}))

    @staticmethod
    def _account(conn: Connection, player_id: str) -> int | None:
        """The account of an ``account-…`` player id, if it exists."""
        number = _account_of(player_id)
        if number is None:
            return None
        a = accounts_table.c
        return number if conn.execute(sa.select(a.id).where(a.id == number)).first() is not None else None

    # ---- reads ----------------------------------------------------------------------------

    def rating(self, player_id: str, family: str) -> dict[str, Any] | None:
        """``{"family", "rating", "mu", "sigma", "matches", "updated_at"}`` of a player in a family,
        or None before their first ranked match there."""
        rt = ratings_table.c
        with self._tx() as conn:
            row = conn.execute(sa.select(rt.family, rt.mu, rt.sigma, rt.matches, rt.updated_at).where(
                rt.player_id == _check_player_id(player_id), rt.family == _check_family(family))).first()
        return None if row is None else _rating_dict(row)

    def ratings(self, player_id: str) -> list[dict[str, Any]]:
        """A player's rating in every family they have played ranked, as :meth:`rating`, by family."""
        rt = ratings_table.c
        with self._tx() as conn:
            rows = conn.execute(sa.select(rt.family, rt.mu, rt.sigma, rt.matches, rt.updated_at)
                                .where(rt.player_id == _check_player_id(player_id)).order_by(rt.family)).all()
        return [_rating_dict(r) for r in rows]

    def rating_history(self, player_id: str, family: str) -> list[dict[str, Any]]:
        """The player's rating after each ranked match in the family, oldest first:
        ``{"match_id", "rating", "mu", "sigma", "at"}``."""
        h = rating_history_table.c
        with self._tx() as conn:
            rows = conn.execute(sa.select(h.match_id, h.mu, h.sigma, h.at).where(
                h.player_id == _check_player_id(player_id), h.family == _check_family(family)).order_by(h.id)).all()
        return [{"match_id": r.match_id, "rating": Rating(r.mu, r.sigma).display, "mu": round(r.mu, 4),
                 "sigma": round(r.sigma, 4), "at": _iso(r.at)} for r in rows]

    def leaderboard(self, family: str, limit: int = 100, offset: int = 0) -> list[dict[str, Any]]:
        """The accounts rated in ``family``, best first: ``{"rank", "name", "rating", "mu", "sigma",
        "matches"}``, ``name`` the account's current name; ordered by the displayed rating (``mu - 3
        sigma``), then by matches played (more first), then by name."""
        _check_family(family)
        for what, value, top in (("limit", limit, MAX_LEADERBOARD), ("offset", offset, 1 << 31)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
                raise ValueError(f"{what} must be an int from 0 to {top}, got {value!r}")
        rt, a = ratings_table.c, accounts_table.c
        ordinal = rt.mu - 3 * rt.sigma
        with self._tx() as conn:
            rows = conn.execute(
                sa.select(a.name, rt.mu, rt.sigma, rt.matches)
                .join(accounts_table, a.id == rt.account_id)
                .where(rt.family == family)
                .order_by(ordinal.desc(), rt.matches.desc(), a.name_key, a.id)
                .limit(limit).offset(offset)
            ).all()
        out = []
        for i, r in enumerate(rows):
            rating = Rating(r.mu, r.sigma)
            out.append({"rank": offset + i + 1, "name": r.name, "rating": rating.display, "mu": round(r.mu, 4),
                        "sigma": round(r.sigma, 4), "matches": r.matches})
        return out
