"""Several server processes on one database: their heartbeats and a shared secret.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07

``nodes`` holds one row per running server process of a cluster (``tjmj serve --cluster`` or
``--workers N``): its id (the store's lease owner), the address its peers reach it at, and its last
heartbeat; a process whose heartbeat stops is dead and its matches are taken over within seconds.
``cluster`` holds settings the processes share (the secret that signs a forwarded request).
Written out in full, like 0001.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("id", sa.String(200), nullable=False),
        sa.Column("url", sa.String(300), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_nodes")),
    )
    op.create_table(
        "cluster",
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_cluster")),
    )


def downgrade() -> None:
    op.drop_table("cluster")
    op.drop_table("nodes")
