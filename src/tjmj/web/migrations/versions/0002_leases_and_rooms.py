"""Leases for several servers on one database, room settings, and stored waiting rooms.

Revision ID: 0002
Revises: 0001
Create Date: 2025-06-01

``matches`` gains the lease of the server playing it (``owner``, ``lease_until``, and ``fence``,
raised on every acquisition so that a server that lost a match cannot write to it), the room's
``settings`` (JSON text), and ``seen`` (a client connected: worth resuming after a restart; every
match stored before this revision counts as seen).  ``rooms`` keeps the waiting rooms, leased the
same way.  Written out in full, like 0001.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # recreate="never": SQLite adds the columns in place.  A batch copy would DROP TABLE matches,
    # and with the store's foreign keys on that deletes every event through ON DELETE CASCADE.
    with op.batch_alter_table("matches", recreate="never") as batch:
        batch.add_column(sa.Column("owner", sa.String(200), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("fence", sa.Integer(), server_default=sa.text("0"), nullable=False))
        batch.add_column(sa.Column("settings", sa.Text(), nullable=True))
        batch.add_column(sa.Column("seen", sa.Boolean(), server_default=sa.false(), nullable=False))
    # matches from before this revision were all resumed on restart: keep doing so
    matches = sa.table("matches", sa.column("seen", sa.Boolean()))
    op.execute(matches.update().values(seen=True))
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(200), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("owner", sa.String(200), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("fence", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_rooms")),
    )


def downgrade() -> None:
    op.drop_table("rooms")
    # in place again (SQLite 3.35+ drops a column with ALTER TABLE): no copy, no cascade
    with op.batch_alter_table("matches", recreate="never") as batch:
        batch.drop_column("seen")
        batch.drop_column("settings")
        batch.drop_column("fence")
        batch.drop_column("lease_until")
        batch.drop_column("owner")
