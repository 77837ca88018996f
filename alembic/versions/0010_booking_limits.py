"""booking limits, mail caps and idempotency bound to its lines (issue 18, findings 3 and 13)

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OUTBOX_STATUSES_BEFORE = "status IN ('pending', 'sent', 'printed', 'failed')"
# A mail over the per-recipient cap is held back, never sent, and counted as such.
OUTBOX_STATUSES = "status IN ('pending', 'sent', 'printed', 'failed', 'suppressed')"


def upgrade() -> None:
    with op.batch_alter_table("bookings") as batch:
        batch.add_column(
            sa.Column("lines_digest", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True)
        )
        batch.add_column(
            sa.Column("client_address", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True)
        )
    op.create_index(
        "ix_bookings_client_address_created_at", "bookings", ["client_address", "created_at"]
    )
    op.create_index(
        "ix_bookings_contact_email_created_at", "bookings", ["contact_email", "created_at"]
    )
    op.create_index(
        "ix_bookings_contact_phone_created_at", "bookings", ["contact_phone", "created_at"]
    )
    with op.batch_alter_table("notification_outbox") as batch:
        batch.drop_constraint("ck_outbox_status", type_="check")
        batch.create_check_constraint("ck_outbox_status", OUTBOX_STATUSES)
    op.create_index(
        "ix_notification_outbox_recipient", "notification_outbox", ["recipient", "created_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_notification_outbox_recipient", table_name="notification_outbox")
    op.execute("UPDATE notification_outbox SET status = 'failed' WHERE status = 'suppressed'")
    with op.batch_alter_table("notification_outbox") as batch:
        batch.drop_constraint("ck_outbox_status", type_="check")
        batch.create_check_constraint("ck_outbox_status", OUTBOX_STATUSES_BEFORE)
    op.drop_index("ix_bookings_contact_phone_created_at", table_name="bookings")
    op.drop_index("ix_bookings_contact_email_created_at", table_name="bookings")
    op.drop_index("ix_bookings_client_address_created_at", table_name="bookings")
    with op.batch_alter_table("bookings") as batch:
        batch.drop_column("client_address")
        batch.drop_column("lines_digest")
