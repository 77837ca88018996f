"""what the limits and the mail cap count by (issue 33, finding 4)

- `bookings.client_network`: the visitor's address as the limits count it (an IPv6 address as
  its /64); `bookings.contact_mailbox`: the email's mailbox (lower case, `+tag` removed, Gmail's
  dots removed). The per-address and per-email booking limits count these instead of the text as
  typed, each with `created_at` in its index (the indexes on the typed text go).
- `notification_outbox.recipient_mailbox`: a mail's mailbox, which the per-recipient mail cap
  counts (its index replaces the one on the typed recipient).

Rows already written get their values from the same rules the app uses
(storefront/services/limit_keys.py).

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel

from alembic import op
from storefront.services import limit_keys

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 500


def upgrade() -> None:
    with op.batch_alter_table("bookings") as batch:
        batch.add_column(
            sa.Column("client_network", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True)
        )
        batch.add_column(
            sa.Column(
                "contact_mailbox", sqlmodel.sql.sqltypes.AutoString(length=255), nullable=True
            )
        )
    with op.batch_alter_table("notification_outbox") as batch:
        batch.add_column(
            sa.Column(
                "recipient_mailbox", sqlmodel.sql.sqltypes.AutoString(length=255), nullable=True
            )
        )
    _fill(
        "SELECT id, client_address, contact_email FROM bookings",
        "UPDATE bookings SET client_network = :network, contact_mailbox = :mailbox WHERE id = :id",
        lambda row: {
            "id": row[0],
            "network": limit_keys.network(row[1] or "") or None,
            "mailbox": limit_keys.mailbox(row[2] or "") or None,
        },
    )
    _fill(
        "SELECT id, recipient FROM notification_outbox WHERE channel = 'email'",
        "UPDATE notification_outbox SET recipient_mailbox = :mailbox WHERE id = :id",
        lambda row: {"id": row[0], "mailbox": limit_keys.mailbox(row[1] or "") or None},
    )
    op.drop_index("ix_bookings_client_address_created_at", table_name="bookings")
    op.drop_index("ix_bookings_contact_email_created_at", table_name="bookings")
    op.create_index(
        "ix_bookings_client_network_created_at", "bookings", ["client_network", "created_at"]
    )
    op.create_index(
        "ix_bookings_contact_mailbox_created_at", "bookings", ["contact_mailbox", "created_at"]
    )
    op.drop_index("ix_notification_outbox_recipient", table_name="notification_outbox")
    op.create_index(
        "ix_notification_outbox_recipient_mailbox",
        "notification_outbox",
        ["recipient_mailbox", "created_at"],
    )


def _fill(select: str, update: str, values) -> None:
    """Each row's new values, written a batch at a time (the ids as the driver returned them)."""
    connection = op.get_bind()
    rows = connection.execute(sa.text(select)).fetchall()
    for start in range(0, len(rows), BATCH):
        connection.execute(sa.text(update), [values(row) for row in rows[start : start + BATCH]])


def downgrade() -> None:
    op.drop_index("ix_notification_outbox_recipient_mailbox", table_name="notification_outbox")
    op.create_index(
        "ix_notification_outbox_recipient", "notification_outbox", ["recipient", "created_at"]
    )
    op.drop_index("ix_bookings_contact_mailbox_created_at", table_name="bookings")
    op.drop_index("ix_bookings_client_network_created_at", table_name="bookings")
    op.create_index(
        "ix_bookings_contact_email_created_at", "bookings", ["contact_email", "created_at"]
    )
    op.create_index(
        "ix_bookings_client_address_created_at", "bookings", ["client_address", "created_at"]
    )
    with op.batch_alter_table("notification_outbox") as batch:
        batch.drop_column("recipient_mailbox")
    with op.batch_alter_table("bookings") as batch:
        batch.drop_column("contact_mailbox")
        batch.drop_column("client_network")
