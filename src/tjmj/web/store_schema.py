"""The web store's schema (``tjmj.web.store``): its tables, column types and column sizes.

The Alembic migrations in ``tjmj/web/migrations`` own the schema in the database (never
``create_all``); these definitions are what the store's queries are written against, and what a
test compares the migrated database with.  Every name here is importable from
:mod:`tjmj.web.store` too.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson
import sqlalchemy as sa

STATUSES = ("playing", "finished", "abandoned")
PLAYER_KINDS = ("human", "bot")
SEATS = 4
MAX_ROOM = 200  # column sizes: checked here so that every dialect rejects the same input
MAX_NAME = 100
MAX_TYPE = 32
MAX_OWNER = 200
_INT64 = 1 << 63  # seeds are BIGINT: signed 64-bit on every dialect
# A player's id (made once by their browser, kept with their name; docs/web.md): not a secret, but
# public reads leave it out too, so that nobody can collect another person's id and pose as them.
PLAYER_ID = "player_id"
MAX_PLAYER_ID = 32


class JSONText(sa.TypeDecorator[Any]):
    """JSON stored as text by orjson: the same bytes on every dialect (no JSON/JSONB differences)."""

    impl = sa.Text
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: sa.Dialect) -> str | None:
        return None if value is None else orjson.dumps(value).decode()

    def process_result_value(self, value: Any, dialect: sa.Dialect) -> Any:
        return None if value is None else orjson.loads(value)


class UTCDateTime(sa.TypeDecorator[datetime]):
    """An aware UTC timestamp; SQLite keeps no time zone, so naive values read back are UTC."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be time-zone aware")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# Named constraints: migrations can then alter them by name on every dialect.
metadata = sa.MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)


def _lease_columns() -> list[sa.Column[Any]]:
    return [
        sa.Column("owner", sa.String(MAX_OWNER), nullable=True),  # the store holding the lease, or NULL
        sa.Column("lease_until", UTCDateTime, nullable=True),
        # raised on every acquisition: a write must present the fence its store acquired
        sa.Column("fence", sa.Integer, nullable=False, server_default=sa.text("0")),
    ]


matches_table = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("room", sa.String(MAX_ROOM), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("rules", JSONText, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("players", JSONText, nullable=False),
    sa.Column("scores", JSONText, nullable=True),  # final scores, set by finish_match
    sa.Column("hands", sa.Integer, nullable=False, server_default=sa.text("0")),  # end_kyoku events stored
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("finished_at", UTCDateTime, nullable=True),  # when it finished or was abandoned
    *_lease_columns(),  # only playing matches are owned: finishing or abandoning one releases it
    sa.Column("settings", JSONText, nullable=True),  # the room's settings (turn timer, bot kind, ...)
    sa.Column("seen", sa.Boolean, nullable=False, server_default=sa.false()),  # a client came: resume it
    sa.CheckConstraint("status IN ('playing', 'finished', 'abandoned')", name="status"),
    sa.CheckConstraint("hands >= 0", name="hands"),
    # list_matches(status=...) newest first, unfinished_matches(), and claims and renewals
    sa.Index(None, "status", "id"),
)

events_table = sa.Table(
    "events",
    metadata,
    # (match_id, seq) is the primary key: unique, and the index that reads a record in order
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True,
              autoincrement=False),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("type", sa.String(MAX_TYPE), nullable=False),
    sa.Column("body", sa.Text, nullable=False),  # the whole event as orjson text, exactly as exported
    sa.CheckConstraint("seq >= 0", name="seq"),
)

# One row per seat of every match: who sat there (name, kind and, for a person with one, the
# browser's player id), so that a player's matches are found by an index on every dialect (the
# ``players`` JSON is text: querying it would be json_each on SQLite, jsonb functions on PostgreSQL,
# and a scan of every match either way).  Written with the match by create_match; 0003 back-fills it.
match_players_table = sa.Table(
    "match_players",
    metadata,
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True,
              autoincrement=False),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("name", sa.String(MAX_NAME), nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column(PLAYER_ID, sa.String(MAX_PLAYER_ID), nullable=True),
    # when the person of this seat left a ranked match for good (they rank last; 0006, mark_left)
    sa.Column("left_at", UTCDateTime, nullable=True),
    sa.Index(None, "name", PLAYER_ID),  # a player's matches: by name, or by name and id
)

rooms_table = sa.Table(
    "rooms",
    metadata,
    sa.Column("code", sa.String(MAX_ROOM), primary_key=True),
    sa.Column("data", JSONText, nullable=False),  # whatever the server needs to rebuild the waiting room
    *_lease_columns(),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
)


# ---- engine and migrations ----------------------------------------------------------------


# ---- several server processes (docs/web.md, "Several processes") ---------------------------

MAX_URL = 300

# One row per running server process of a cluster: where its peers reach it directly (``url``) and
# when it last said it is alive (``heartbeat_at``, the database's clock).  A process whose
# heartbeat is older than the store's ``node_timeout`` is dead: its leases are free at once.
nodes_table = sa.Table(
    "nodes",
    metadata,
    sa.Column("id", sa.String(MAX_OWNER), primary_key=True),  # the store's owner id (its leases)
    sa.Column("url", sa.String(MAX_URL), nullable=False),
    sa.Column("started_at", UTCDateTime, nullable=False),
    sa.Column("heartbeat_at", UTCDateTime, nullable=False),
)

# Settings the processes share: the secret that signs what one forwards to another.
cluster_table = sa.Table(
    "cluster",
    metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)


# ---- accounts (docs/web.md, "Accounts") ------------------------------------------------------

MAX_HASH = 200

# A person's account: a name nobody else may take (``name_key``: the name folded, NFKC and
# case-folded, unique) and an Argon2id hash of the password (never the password).
accounts_table = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(MAX_NAME), nullable=False),
    sa.Column("name_key", sa.String(MAX_NAME), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(MAX_HASH), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
)

# A signed-in browser: the SHA-256 of its session cookie (the cookie itself is never stored).
sessions_table = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("expires_at", UTCDateTime, nullable=False),
    sa.Index(None, "account_id"),
)

# Failed logins, by folded name and by address, for the limits on guessing (kept a day).
login_failures_table = sa.Table(
    "login_failures",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name_key", sa.String(MAX_NAME), nullable=False),
    sa.Column("address", sa.String(100), nullable=False),
    sa.Column("at", UTCDateTime, nullable=False),
    sa.Index(None, "name_key", "at"),
    sa.Index(None, "address", "at"),
)


# ---- ratings (docs/web.md, "Ratings and the leaderboard") ------------------------------------

MAX_FAMILY = 32

# A player's rating (等级分) in one family (tjmj.ratings): openskill's mu and sigma, and how many
# ranked matches made it.  Written only by finish_match, in the transaction that finishes a ranked
# match.  ``account_id``: the account of an ``account-…`` player id (the leaderboard lists accounts,
# by their current name); the rating goes with the account.
ratings_table = sa.Table(
    "ratings",
    metadata,
    sa.Column(PLAYER_ID, sa.String(MAX_PLAYER_ID), primary_key=True),
    sa.Column("family", sa.String(MAX_FAMILY), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("matches", sa.Integer, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    sa.CheckConstraint("matches >= 0", name="matches"),
    sa.Index(None, "family", "account_id"),  # a family's leaderboard
)

# Each rated match's rating of each rated seat: the history a profile draws.
rating_history_table = sa.Table(
    "rating_history",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column(PLAYER_ID, sa.String(MAX_PLAYER_ID), nullable=False),
    sa.Column("family", sa.String(MAX_FAMILY), nullable=False),
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("at", UTCDateTime, nullable=False),
    sa.Index(None, PLAYER_ID, "family", "id"),
)

# ---- the ranked queue (docs/web.md, "Ranked play") -----------------------------------------

# A signed-in player waiting for a ranked table (排位), one row an account.  ``room`` is NULL while
# waiting, "" while a process seats the four it matched, then the room's code with the seat's
# ``token`` (the bearer of the seat, handed to that account's own session only; the row goes when
# the account queues again or leaves, or an hour after).
ranked_queue_table = sa.Table(
    "ranked_queue",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True,
              autoincrement=False),
    sa.Column(PLAYER_ID, sa.String(MAX_PLAYER_ID), nullable=False),
    sa.Column("name", sa.String(MAX_NAME), nullable=False),
    sa.Column("family", sa.String(MAX_TYPE), nullable=False),
    sa.Column("hands", sa.Integer, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("joined_at", UTCDateTime, nullable=False),
    sa.Column("seen_at", UTCDateTime, nullable=False),
    sa.Column("room", sa.String(MAX_ROOM), nullable=True),
    sa.Column("token", sa.String(64), nullable=True),
    sa.Column("player", sa.Integer, nullable=True),  # the seat's place in the room (its host is 0)
    sa.Column("matched_at", UTCDateTime, nullable=True),
    sa.Index(None, "family", "hands"),
)

# ---- practice (docs/practice.md) -----------------------------------------------------------

# A signed-in account's answer to a practice puzzle (tjmj.puzzles): the puzzle's id, whether the
# server judged it right, when.  Every answer is a row (attempts count); the account's go with it.
puzzle_results_table = sa.Table(
    "puzzle_results",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("puzzle_id", sa.String(40), nullable=False),
    sa.Column("correct", sa.Boolean, nullable=False),
    sa.Column("answered_at", UTCDateTime, nullable=False),
    sa.Index(None, "account_id", "answered_at"),
)
