"""What the business runs on: contact requests, the notification outbox, the audit log, settings."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import JSON, BigInteger, CheckConstraint, Column, Index, false
from sqlmodel import Field, SQLModel

from storefront.models.base import MONEY, UTCDateTime, new_id, utcnow

CONTACT_EVENT_TYPES = ("birthday", "wedding", "corporate", "baby-shower", "anniversary", "other")
OUTBOX_CHANNELS = ("whatsapp", "email")
# 'printed': printed or logged because no mail server or webhook is set (development), which
# is not a delivery.
OUTBOX_STATUSES = ("pending", "sent", "printed", "failed", "suppressed")


class ContactMessage(SQLModel, table=True):
    __tablename__ = "contact_messages"
    __table_args__ = (
        Index("ix_contact_messages_created_at", "created_at"),
        # One row per sent form, however often it is sent (a double click, a retry).
        Index("ux_contact_messages_submission_key", "submission_key", unique=True),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    name: str = Field(max_length=255)
    email: str = Field(max_length=255)
    phone: str | None = Field(default=None, max_length=64)
    event_type: str = Field(max_length=32)
    event_date: date | None = None
    message: str = Field(max_length=5000)
    submission_key: str | None = Field(default=None, max_length=64)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class NotificationOutbox(SQLModel, table=True):
    """A message to send, written in the same transaction as what it announces."""

    __tablename__ = "notification_outbox"
    __table_args__ = (
        CheckConstraint("channel IN ('whatsapp', 'email')", name="ck_outbox_channel"),
        CheckConstraint(
            "status IN ('pending', 'sent', 'printed', 'failed', 'suppressed')",
            name="ck_outbox_status",
        ),
        CheckConstraint("attempts >= 0", name="ck_outbox_attempts"),
        Index("ix_notification_outbox_due", "status", "next_attempt_at"),
        # The mail cap counts what was queued for one mailbox lately (services/messaging/outbox.py).
        Index("ix_notification_outbox_recipient_mailbox", "recipient_mailbox", "created_at"),
        Index("ux_notification_outbox_dedupe_key", "dedupe_key", unique=True),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    channel: str = Field(max_length=16)
    topic: str = Field(max_length=64)  # booking_placed, contact_request, password_reset, ...
    recipient: str = Field(max_length=255)
    # A mail's recipient as the mail cap counts it (services/limit_keys.mailbox); None for
    # WhatsApp messages.
    recipient_mailbox: str | None = Field(default=None, max_length=255)
    payload: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    status: str = Field(default="pending", max_length=16)
    attempts: int = Field(default=0)
    next_attempt_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    last_error: str | None = Field(default=None, max_length=2000)
    booking_id: uuid.UUID | None = Field(
        default=None, foreign_key="bookings.id", ondelete="SET NULL"
    )
    # A message that must go once (the reminder of one booking at one start, the digest of one
    # day) carries a key no other row has: a second worker's insert of it fails.
    dedupe_key: str | None = Field(default=None, max_length=160)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    sent_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class AuditLog(SQLModel, table=True):
    """Who changed what in the back office."""

    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_entity", "entity_type", "entity_id"),)

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    actor_user_id: uuid.UUID | None = Field(
        default=None, foreign_key="users.id", ondelete="SET NULL"
    )
    action: str = Field(max_length=64)
    entity_type: str = Field(max_length=64)
    entity_id: str | None = Field(default=None, max_length=64)
    details: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, index=True)


# The business's address and hours until an admin writes them: in the default edition's language
# (Albanian) in the columns and in English in `translations` (services/content.py).
DEFAULT_ADDRESS = "Prishtinë, Kosovë"
DEFAULT_OPENING_HOURS = "E hënë - e premte 9:00-18:00"
DEFAULT_ENGLISH = {"address": "Prishtina, Kosovo", "opening_hours": "Monday to Friday 9AM-6PM"}


def default_business_translations() -> dict[str, Any]:
    return {"en": dict(DEFAULT_ENGLISH)}


class BusinessSettings(SQLModel, table=True):
    """The one row of business details shown on the site and used in messages."""

    __tablename__ = "business_settings"
    __table_args__ = (
        CheckConstraint("id = 1", name="ck_business_settings_single_row"),
        CheckConstraint("min_notice_hours >= 0", name="ck_business_settings_notice"),
        CheckConstraint(
            "deposit_percent >= 0 AND deposit_percent <= 100", name="ck_business_settings_deposit"
        ),
    )

    id: int = Field(default=1, primary_key=True)
    business_name: str = Field(default="Magic Events", max_length=120)
    phone: str = Field(default="+383 44 000 000", max_length=64)
    email: str = Field(default="info@magicevents.example", max_length=255)
    instagram: str = Field(default="@magicevents.ks", max_length=120)
    # The Facebook page's name, as in facebook.com/{facebook}.
    facebook: str = Field(default="magicevents.ks", max_length=120)
    address: str = Field(default=DEFAULT_ADDRESS, max_length=255)
    whatsapp_number: str = Field(default="+38344000000", max_length=32)
    opening_hours: str = Field(default=DEFAULT_OPENING_HOURS, max_length=120)
    min_notice_hours: int = Field(default=24)
    # Every admin must sign in with two-factor (services/accounts/two_factor.py); admins toggle it.
    admin_two_factor_required: bool = Field(default=False)
    # The language of the staff's WhatsApp messages, whatever the customer's (storefront/i18n.py).
    staff_language: str = Field(
        default="sq", max_length=8, sa_column_kwargs={"server_default": "sq"}
    )
    # The English text of fields an admin filled in ({"en": {"title": ...}}; a new row has the
    # defaults' English); the rest shows the default edition's (services/content.py).
    translations: dict[str, Any] = Field(
        default_factory=default_business_translations,
        sa_column=Column(JSON, nullable=False, server_default="{}"),
    )
    # Event-day operations: the customer's reminder goes this long before the event; the staff's
    # digest of tomorrow's jobs at this local hour; customers may cancel or move a booking
    # themselves until this long before it; the app backs itself up once a day.
    reminder_lead_hours: int = Field(default=24, sa_column_kwargs={"server_default": "24"})
    digest_hour: int = Field(default=19, sa_column_kwargs={"server_default": "19"})
    change_cutoff_hours: int = Field(default=48, sa_column_kwargs={"server_default": "48"})
    backup_daily: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    # Money at the door (issue 36). The fiscal number (NUI) the receipts print; a deposit of
    # `deposit_percent` % asked of a booking whose total is above `deposit_above` (0 %: none);
    # the transport fee per municipality ({municipality key: '15.00', or null: not served
    # online}); a municipality not named costs nothing (the home town).
    fiscal_number: str = Field(default="", max_length=32, sa_column_kwargs={"server_default": ""})
    deposit_percent: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    deposit_above: Decimal = Field(
        default=Decimal("0"), sa_type=MONEY, sa_column_kwargs={"server_default": "0"}
    )
    transport_fees: dict[str, Any] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )
    # Crews and vans (issue 37): the depot's municipality (where the vans leave from) and the
    # driving minutes between municipalities ({"prishtine|gjakove": 75}, the two keys sorted):
    # what a run's leave and return times add to the setup lead.
    depot_municipality: str = Field(
        default="prishtine", max_length=32, sa_column_kwargs={"server_default": "prishtine"}
    )
    travel_minutes: dict[str, Any] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class CacheVersion(SQLModel, table=True):
    """A counter that every change of a cached kind of data raises in its own transaction
    (services/cache.py), so each worker's in-process cache learns of it."""

    __tablename__ = "cache_versions"

    name: str = Field(primary_key=True, max_length=32)
    version: int = Field(default=0)


class HousekeepingLease(SQLModel, table=True):
    """Who runs a periodic job of the cluster and until when (services/operations/housekeeping.py): a
    runner takes the lease only once it has expired, in one conditional UPDATE, so several
    workers and hosts sharing the database run the job once per period."""

    __tablename__ = "housekeeping_leases"

    name: str = Field(primary_key=True, max_length=64)
    holder: str = Field(default="", max_length=200)
    expires_at: datetime = Field(sa_type=UTCDateTime)
    last_run_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


BACKUP_STATUSES = ("running", "done", "failed")


class Backup(SQLModel, table=True):
    """One backup of the database and the stored images (services/operations/backup.py), made by
    `make backup` or the daily job; System Status shows the last one that finished."""

    __tablename__ = "backups"
    __table_args__ = (
        CheckConstraint("status IN ('running', 'done', 'failed')", name="ck_backups_status"),
        Index("ix_backups_started_at", "started_at"),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    started_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    status: str = Field(default="running", max_length=16)
    trigger: str = Field(default="manual", max_length=16)  # 'manual' (make backup) or 'daily'
    location: str = Field(default="", max_length=1024)
    size_bytes: int | None = Field(default=None, sa_type=BigInteger)
    error: str | None = Field(default=None, max_length=2000)
