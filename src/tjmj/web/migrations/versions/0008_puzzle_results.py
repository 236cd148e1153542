"""Practice puzzles: a signed-in account's answers (docs/practice.md).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-08

``puzzle_results``: one row an answer (the account, the puzzle's id, whether the server judged it
right, when).  Written out in full, like 0001.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "puzzle_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("puzzle_id", sa.String(40), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name=op.f("fk_puzzle_results_account_id_accounts"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzle_results")),
    )
    op.create_index(op.f("ix_puzzle_results_account_id_answered_at"), "puzzle_results", ["account_id", "answered_at"])


def downgrade() -> None:
    op.drop_table("puzzle_results")
