"""The store's part for accounts (docs/web.md, "Accounts"): names, password hashes, sessions.

:class:`AccountsMixin` gives :class:`tjmj.web.store.Store` the account rows.  It never sees a
password or a session cookie: the web layer hashes passwords (Argon2id, :mod:`tjmj.web.accounts`)
and stores the SHA-256 of each cookie.  A name is taken once, whatever its case or Unicode form
(``name_key``, unique in the database, so two sign-ups of one name at once cannot both succeed,
whichever processes they reach).
"""

from __future__ import annotations

import unicodedata
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import orjson
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .errors import StoreError
from .store_schema import (
    MAX_HASH,
    MAX_NAME,
    PLAYER_ID,
    accounts_table,
    events_table,
    login_failures_table,
    match_players_table,
    matches_table,
    puzzle_results_table,
    ranked_queue_table,
    rating_history_table,
    ratings_table,
    sessions_table,
)

__all__ = ["AccountsMixin", "NameTaken", "name_key"]

FAILURES_KEPT = timedelta(days=1)
DELETED = "(deleted)"  # the name a deleted account's seats get


class NameTaken(StoreError):
    """Another account has this name (in any case or Unicode form)."""


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded ("Ａlice" and "ALICE" are "alice")."""
    return unicodedata.normalize("NFKC", name).casefold()[:MAX_NAME]


def _check_hash(value: Any) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_HASH:
        raise ValueError("a password hash must be a string of 1 to 200 characters")
    return value


def _check_token_hash(value: Any) -> str:
    if not isinstance(value, str) or len(value) != 64:
        raise ValueError("a session's token hash must be 64 hex characters")
    return value


class AccountsMixin:
    """Accounts and sessions, for :class:`tjmj.web.store.Store`."""

    if TYPE_CHECKING:  # the Store's
        def _tx(self, write: bool = False) -> AbstractContextManager[Connection]: ...
        @staticmethod
        def _clock(conn: Connection) -> datetime: ...

    def create_account(self, name: str, password_hash: str) -> int:
        """A new account; its id.  :class:`NameTaken` if the name (folded) is anyone's."""
        if not isinstance(name, str) or not name or len(name) > MAX_NAME:
            raise ValueError(f"an account name must be a string of 1 to {MAX_NAME} characters")
        _check_hash(password_hash)
        a = accounts_table.c
        try:
            with self._tx(write=True) as conn:
                now = self._clock(conn)
                taken = conn.execute(sa.select(a.id).where(a.name_key == name_key(name))).first()
                if taken is not None:
                    raise NameTaken(f"the name {name!r} is taken")
                result = conn.execute(sa.insert(accounts_table).values(
                    name=name, name_key=name_key(name), password_hash=password_hash, created_at=now))
                return int(result.inserted_primary_key[0])  # type: ignore[index]
        except sa.exc.IntegrityError:  # another sign-up of the name committed between the check and ours
            raise NameTaken(f"the name {name!r} is taken") from None

    def account(self, name: str) -> dict[str, Any] | None:
        """``{"id", "name", "password_hash", "created_at"}`` of the account called ``name`` (any case), or None."""
        if not isinstance(name, str) or not name or len(name) > MAX_NAME:
            return None
        a = accounts_table.c
        with self._tx() as conn:
            row = conn.execute(sa.select(a.id, a.name, a.password_hash, a.created_at)
                               .where(a.name_key == name_key(name))).first()
        return None if row is None else dict(row._mapping)

    def set_password(self, account_id: int, password_hash: str) -> None:
        """A new password hash; every session of the account ends (the caller starts a new one)."""
        _check_hash(password_hash)
        with self._tx(write=True) as conn:
            done = conn.execute(sa.update(accounts_table).where(accounts_table.c.id == account_id)
                                .values(password_hash=password_hash))
            if done.rowcount != 1:
                raise KeyError(f"no account {account_id}")
            conn.execute(sa.delete(sessions_table).where(sessions_table.c.account_id == account_id))

    def delete_account(self, account_id: int, player_id: str | None = None) -> int:
        """The account and its sessions go; its name is free again.  With ``player_id`` (the
        account's at the tables) its matches stay, anonymised: each seat it held is named
        :data:`DELETED` with no player id, in ``match_players``, in the match's ``players`` and in
        its record's ``start_game``, and its ratings and their history are deleted.  Returns how many
        seats were anonymised."""
        mp, m, e = match_players_table.c, matches_table.c, events_table.c
        moved = 0
        with self._tx(write=True) as conn:
            if player_id is not None:
                seats: dict[int, list[int]] = {}
                for row in conn.execute(sa.select(mp.match_id, mp.seat).where(mp.player_id == player_id)):
                    seats.setdefault(row.match_id, []).append(row.seat)
                moved = conn.execute(sa.update(match_players_table).where(mp.player_id == player_id)
                                     .values({PLAYER_ID: None, "name": DELETED})).rowcount
                for match_id, held in seats.items():
                    players = conn.execute(sa.select(m.players).where(m.id == match_id)).scalar_one()
                    players = [{**p, PLAYER_ID: None, "name": DELETED}
                               if isinstance(p, dict) and p.get(PLAYER_ID) == player_id else p for p in players]
                    conn.execute(sa.update(matches_table).where(m.id == match_id).values(players=players))
                    first = conn.execute(sa.select(e.seq, e.body).where(e.match_id == match_id,
                                                                         e.type == "start_game")).first()
                    if first is not None:
                        start = orjson.loads(first.body)
                        names = start.get("names")
                        if isinstance(names, list):
                            for seat in held:
                                if 0 <= seat < len(names):
                                    names[seat] = DELETED
                            conn.execute(sa.update(events_table).where(e.match_id == match_id, e.seq == first.seq)
                                         .values(body=orjson.dumps(start).decode()))
                # its ratings go with it (the matches that made them stay, anonymised)
                conn.execute(sa.delete(rating_history_table).where(rating_history_table.c.player_id == player_id))
                conn.execute(sa.delete(ratings_table).where(ratings_table.c.player_id == player_id))
            conn.execute(sa.delete(ratings_table).where(ratings_table.c.account_id == account_id))
            conn.execute(sa.delete(sessions_table).where(sessions_table.c.account_id == account_id))
            conn.execute(sa.delete(ranked_queue_table).where(ranked_queue_table.c.account_id == account_id))
            conn.execute(sa.delete(puzzle_results_table).where(puzzle_results_table.c.account_id == account_id))
            conn.execute(sa.delete(accounts_table).where(accounts_table.c.id == account_id))
        return int(moved)

    def start_session(self, account_id: int, token_hash: str, ttl: timedelta) -> None:
        _check_token_hash(token_hash)
        with self._tx(write=True) as conn:
            now = self._clock(conn)
            conn.execute(sa.delete(sessions_table).where(sessions_table.c.expires_at < now))
            conn.execute(sa.insert(sessions_table).values(token_hash=token_hash, account_id=account_id,
                                                          created_at=now, expires_at=now + ttl))

    def session(self, token_hash: str) -> dict[str, Any] | None:
        """``{"id", "name", "created_at"}`` of the account signed in with this session, or None
        (no such session, or it expired)."""
        if not isinstance(token_hash, str) or len(token_hash) != 64:
            return None
        a, s = accounts_table.c, sessions_table.c
        with self._tx() as conn:
            now = self._clock(conn)
            row = conn.execute(sa.select(a.id, a.name, a.created_at).select_from(
                sessions_table.join(accounts_table, a.id == s.account_id))
                .where(s.token_hash == token_hash, s.expires_at > now)).first()
        return None if row is None else dict(row._mapping)

    def end_session(self, token_hash: str) -> None:
        if not isinstance(token_hash, str) or len(token_hash) != 64:
            return
        with self._tx(write=True) as conn:
            conn.execute(sa.delete(sessions_table).where(sessions_table.c.token_hash == token_hash))

    def note_login_failure(self, name: str, address: str) -> None:
        with self._tx(write=True) as conn:
            now = self._clock(conn)
            conn.execute(sa.delete(login_failures_table).where(login_failures_table.c.at < now - FAILURES_KEPT))
            conn.execute(sa.insert(login_failures_table).values(name_key=name_key(name)[:MAX_NAME],
                                                                address=address[:100], at=now))

    def login_failures(self, name: str, address: str, window: timedelta) -> tuple[int, int]:
        """Failed logins within ``window``: (for this name, from this address)."""
        f = login_failures_table.c
        with self._tx() as conn:
            since = self._clock(conn) - window
            by_name = conn.execute(sa.select(sa.func.count()).where(f.name_key == name_key(name)[:MAX_NAME],
                                                                    f.at > since)).scalar_one()
            by_address = conn.execute(sa.select(sa.func.count()).where(f.address == address[:100],
                                                                       f.at > since)).scalar_one()
        return int(by_name), int(by_address)

    def adopt_guest_matches(self, guest_id: str, account_id: str, name: str) -> int:
        """A guest who signs up from the same browser keeps their matches: every seat held with the
        browser's player id ``guest_id`` becomes the account's (``account_id``, ``name``), in the
        indexed ``match_players`` and in each match's ``players``.  The records (``start_game``
        names) stay as they were played.  Returns how many seats moved."""
        mp, m = match_players_table.c, matches_table.c
        with self._tx(write=True) as conn:
            ids = sorted(set(conn.execute(sa.select(mp.match_id).where(mp.player_id == guest_id,
                                                                         mp.kind == "human")).scalars()))
            if not ids:
                return 0
            moved = conn.execute(sa.update(match_players_table).where(mp.player_id == guest_id, mp.kind == "human")
                                 .values({PLAYER_ID: account_id, "name": name})).rowcount
            for row in conn.execute(sa.select(m.id, m.players).where(m.id.in_(ids))).all():
                players = [{**p, PLAYER_ID: account_id, "name": name}
                           if isinstance(p, dict) and p.get(PLAYER_ID) == guest_id and p.get("kind") == "human" else p
                           for p in row.players]
                conn.execute(sa.update(matches_table).where(m.id == row.id).values(players=players))
        return int(moved)
