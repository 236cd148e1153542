"""Ratings per family, their history, and the seats that left a ranked match.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07

``ratings`` (a player's openskill ``mu`` and ``sigma`` in one family, the ranked matches counted,
the account of an ``account-…`` player id), ``rating_history`` (each rated match's rating of each
rated seat) and ``match_players.left_at`` (the person of that seat left the ranked match: they rank
last).  Written out in full, like 0001.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # in place (see 0002): a batch copy of match_players is not needed to add a nullable column
    with op.batch_alter_table("match_players", recreate="never") as batch:
        batch.add_column(sa.Column("left_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("family", sa.String(32), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("matches >= 0", name=op.f("ck_ratings_matches")),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name=op.f("fk_ratings_account_id_accounts"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "family", name=op.f("pk_ratings")),
    )
    op.create_index(op.f("ix_ratings_family_account_id"), "ratings", ["family", "account_id"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("family", sa.String(32), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name=op.f("fk_rating_history_match_id_matches"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_history")),
    )
    op.create_index(op.f("ix_rating_history_player_id_family_id"), "rating_history",
                    ["player_id", "family", "id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_rating_history_player_id_family_id"), table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index(op.f("ix_ratings_family_account_id"), table_name="ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("match_players", recreate="never") as batch:
        batch.drop_column("left_at")
