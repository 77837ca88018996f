"""event-day operations (issue 22): a staff role, staff notes on bookings, the setup lead of a
service, reminders sent once, customers' own changes, calendar feeds for staff, backups

- `users.role` may be 'staff' (drivers, decorators): the day sheet and the week calendar only.
- `services.setup_lead_minutes`: how long before the start the crew leaves (None: the kind's
  default, models/kinds.py).
- `booking_notes`: what staff write on a booking on the day (who, when, what).
- `notification_outbox.dedupe_key`: a message that must go once (a reminder of one booking at
  one start, the digest of one day) carries a key no second row may have, so several workers
  or a restart never queue it twice.
- `business_settings`: `reminder_lead_hours` (the customer's reminder, before the event),
  `digest_hour` (the local hour of the staff's digest of tomorrow's jobs), `change_cutoff_hours`
  (until when before the event a customer may cancel or move a booking themselves) and
  `backup_daily` (the app backs itself up once a day).
- `calendar_feeds`: one private iCalendar address per admin or staff member (only the hash of
  its secret is stored).
- `backups`: each backup made (by `make backup` or the daily job), for System Status.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-26 00:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import storefront.models.base

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_constraint("ck_users_role", type_="check")
        batch.create_check_constraint("ck_users_role", "role IN ('admin', 'staff', 'user')")
    with op.batch_alter_table("services") as batch:
        batch.add_column(sa.Column("setup_lead_minutes", sa.Integer(), nullable=True))
    op.create_table(
        "booking_notes",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("booking_id", sa.Uuid(), nullable=False),
        sa.Column("author_id", sa.Uuid(), nullable=True),
        sa.Column("author_name", sa.String(length=255), nullable=False, server_default=""),
        sa.Column("text", sa.String(length=2000), nullable=False),
        sa.Column("created_at", storefront.models.base.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["booking_id"], ["bookings.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["author_id"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_booking_notes_booking_id", "booking_notes", ["booking_id"])
    with op.batch_alter_table("notification_outbox") as batch:
        batch.add_column(sa.Column("dedupe_key", sa.String(length=160), nullable=True))
        batch.create_index("ux_notification_outbox_dedupe_key", ["dedupe_key"], unique=True)
    with op.batch_alter_table("business_settings") as batch:
        batch.add_column(
            sa.Column("reminder_lead_hours", sa.Integer(), nullable=False, server_default="24")
        )
        batch.add_column(
            sa.Column("digest_hour", sa.Integer(), nullable=False, server_default="19")
        )
        batch.add_column(
            sa.Column("change_cutoff_hours", sa.Integer(), nullable=False, server_default="48")
        )
        batch.add_column(
            sa.Column("backup_daily", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "calendar_feeds",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("token_hash", sa.String(length=128), nullable=False),
        sa.Column("created_at", storefront.models.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", storefront.models.base.UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id"),
        sa.UniqueConstraint("token_hash", name="uq_calendar_feeds_token_hash"),
    )
    op.create_table(
        "backups",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("started_at", storefront.models.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("finished_at", storefront.models.base.UTCDateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("trigger", sa.String(length=16), nullable=False),
        sa.Column("location", sa.String(length=1024), nullable=False, server_default=""),
        sa.Column("size_bytes", sa.BigInteger(), nullable=True),
        sa.Column("error", sa.String(length=2000), nullable=True),
        sa.CheckConstraint("status IN ('running', 'done', 'failed')", name="ck_backups_status"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_backups_started_at", "backups", ["started_at"])


def downgrade() -> None:
    op.drop_index("ix_backups_started_at", table_name="backups")
    op.drop_table("backups")
    op.drop_table("calendar_feeds")
    with op.batch_alter_table("business_settings") as batch:
        batch.drop_column("backup_daily")
        batch.drop_column("change_cutoff_hours")
        batch.drop_column("digest_hour")
        batch.drop_column("reminder_lead_hours")
    with op.batch_alter_table("notification_outbox") as batch:
        batch.drop_index("ux_notification_outbox_dedupe_key")
        batch.drop_column("dedupe_key")
    op.drop_index("ix_booking_notes_booking_id", table_name="booking_notes")
    op.drop_table("booking_notes")
    with op.batch_alter_table("services") as batch:
        batch.drop_column("setup_lead_minutes")
    op.execute("UPDATE users SET role = 'user' WHERE role = 'staff'")
    with op.batch_alter_table("users") as batch:
        batch.drop_constraint("ck_users_role", type_="check")
        batch.create_check_constraint("ck_users_role", "role IN ('admin', 'user')")
