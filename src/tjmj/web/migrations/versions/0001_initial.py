"""The initial schema: matches and their events.

Revision ID: 0001
Revises:
Create Date: 2025-01-01

Written out in full rather than imported from ``tjmj.web.store``: a migration must keep creating
the schema of its time after the models change.  JSON is stored as text (orjson) and timestamps
as time-zone aware UTC, the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room", sa.String(200), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("players", sa.Text(), nullable=False),
        sa.Column("scores", sa.Text(), nullable=True),
        sa.Column("hands", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('playing', 'finished', 'abandoned')", name=op.f("ck_matches_status")),
        sa.CheckConstraint("hands >= 0", name=op.f("ck_matches_hands")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
    )
    op.create_index(op.f("ix_matches_status_id"), "matches", ["status", "id"])
    op.create_table(
        "events",
        sa.Column("match_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.CheckConstraint("seq >= 0", name=op.f("ck_events_seq")),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_events_match_id_matches"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("match_id", "seq", name=op.f("pk_events")),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_index(op.f("ix_matches_status_id"), table_name="matches")
    op.drop_table("matches")
