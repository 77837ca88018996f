"""bookings.calendar_sequence: the SEQUENCE of a booking's calendar events (issue 34, item 6)

A move, a cancel or a status change mails the customer the booking's calendar file again with
the same UIDs; RFC 5546 calendars take it as an update only when its SEQUENCE rose. The model
counts it up at every change of the booking (models/bookings.py).

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-28 03:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("bookings") as batch:
        batch.add_column(
            sa.Column("calendar_sequence", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("bookings") as batch:
        batch.drop_column("calendar_sequence")
