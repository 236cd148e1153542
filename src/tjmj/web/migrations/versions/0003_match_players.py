"""Who sat in each seat of every match, indexed: a player's matches for the statistics.

Revision ID: 0003
Revises: 0002
Create Date: 2025-07-01

``match_players`` holds one row per seat of every match (``name``, ``kind``, and a person's
``player_id``, the id their browser made: docs/web.md), indexed by (name, player_id), so that a
player's matches are found the same way on SQLite and PostgreSQL (the ``players`` JSON column is
text, which neither can index).  The store writes the rows with the match; this revision fills
them in for the matches stored before it, from each match's ``players``.  Written out in full, like 0001.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 500


def upgrade() -> None:
    op.create_table(
        "match_players",
        sa.Column("match_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_match_players_match_id_matches"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("match_id", "seat", name=op.f("pk_match_players")),
    )
    op.create_index(op.f("ix_match_players_name_player_id"), "match_players", ["name", "player_id"])
    if op.get_context().as_sql:
        return  # offline (rendering the DDL): there are no rows to read, so none to fill in
    # back-fill from the players JSON (text on every dialect: parsed here, not in SQL)
    conn = op.get_bind()
    matches = sa.table("matches", sa.column("id", sa.Integer()), sa.column("players", sa.Text()))
    target = sa.table("match_players", sa.column("match_id", sa.Integer()), sa.column("seat", sa.Integer()),
                      sa.column("name", sa.String()), sa.column("kind", sa.String()),
                      sa.column("player_id", sa.String()))
    last = None
    while True:
        query = sa.select(matches.c.id, matches.c.players).order_by(matches.c.id).limit(BATCH)
        if last is not None:
            query = query.where(matches.c.id > last)
        rows = conn.execute(query).all()
        if not rows:
            break
        last = rows[-1].id
        out = []
        for row in rows:
            try:
                players = json.loads(row.players)
            except ValueError:
                continue  # unreadable: the store never wrote such a row
            seats: set[int] = set()
            for p in players if isinstance(players, list) else []:
                if not isinstance(p, dict) or not isinstance(p.get("seat"), int) or p["seat"] in seats:
                    continue
                seats.add(p["seat"])
                pid = p.get("player_id")
                out.append({"match_id": row.id, "seat": p["seat"], "name": str(p.get("name") or "")[:100],
                            "kind": "bot" if p.get("kind") == "bot" else "human",
                            "player_id": pid if isinstance(pid, str) and len(pid) <= 32 else None})
        if out:
            conn.execute(target.insert(), out)


def downgrade() -> None:
    op.drop_index(op.f("ix_match_players_name_player_id"), table_name="match_players")
    op.drop_table("match_players")
