"""The ranked queue: signed-in players waiting for a ranked table, and the seats they were given.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07

``ranked_queue``: one row an account (its family, match length and rating when it queued, when
it joined and last asked), then the room and seat token the matchmaker gave it.  Written out in
full, like 0001.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ranked_queue",
        sa.Column("account_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("family", sa.String(32), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("room", sa.String(200), nullable=True),
        sa.Column("token", sa.String(64), nullable=True),
        sa.Column("player", sa.Integer(), nullable=True),
        sa.Column("matched_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name=op.f("fk_ranked_queue_account_id_accounts"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("account_id", name=op.f("pk_ranked_queue")),
    )
    op.create_index(op.f("ix_ranked_queue_family_hands"), "ranked_queue", ["family", "hands"])


def downgrade() -> None:
    op.drop_table("ranked_queue")
