"""Money at the door (issue 36): what was paid on a booking, the cash a member of staff handed
over, and the booking's numbered receipt. Rows here are never edited or deleted: a mistaken
payment is answered by a reversal (a row of its own), a receipt keeps its number for ever."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from storefront.models.base import MONEY, UTCDateTime, new_id, utcnow

# How money reaches the business: cash handed to the crew, a bank transfer (a wedding's
# deposit), a card at the door (the crew's terminal).
PAYMENT_METHODS = ("cash", "bank_transfer", "card")
PAYMENT_KINDS = ("payment", "reversal")


class Payment(SQLModel, table=True):
    """One amount received on a booking (kind 'payment', amount > 0), or the reversal of one
    (kind 'reversal', the same amount negated, `reverses_id` naming it, a reason in `note`).
    The balance is the booking's total less the sum of its rows."""

    __tablename__ = "payments"
    __table_args__ = (
        CheckConstraint("method IN ('cash', 'bank_transfer', 'card')", name="ck_payments_method"),
        CheckConstraint("kind IN ('payment', 'reversal')", name="ck_payments_kind"),
        CheckConstraint(
            "(kind = 'payment' AND amount > 0 AND reverses_id IS NULL)"
            " OR (kind = 'reversal' AND amount < 0 AND reverses_id IS NOT NULL)",
            name="ck_payments_sign",
        ),
        Index("ix_payments_booking_id", "booking_id"),
        Index("ix_payments_recorded_at", "recorded_at"),
        Index("ix_payments_recorded_by_recorded_at", "recorded_by_id", "recorded_at"),
        # One reversal per payment; one row per press of the button (a double click, two
        # phones sending the same collection).
        Index("ux_payments_reverses_id", "reverses_id", unique=True),
        Index("ux_payments_idempotency_key", "idempotency_key", unique=True),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    # A booking with payments is cancelled, never deleted (services/booking/admin.py).
    booking_id: uuid.UUID = Field(foreign_key="bookings.id", ondelete="RESTRICT")
    kind: str = Field(default="payment", max_length=16)
    amount: Decimal = Field(sa_type=MONEY)
    currency: str = Field(default="EUR", max_length=3)
    method: str = Field(default="cash", max_length=16)
    note: str = Field(default="", max_length=500)
    # (NO ACTION: checked at the statement's end, so a table emptied whole may go at once.)
    reverses_id: uuid.UUID | None = Field(default=None, foreign_key="payments.id")
    # Who recorded it (the account may go: the name stays).
    recorded_by_id: uuid.UUID | None = Field(
        default=None, foreign_key="users.id", ondelete="SET NULL"
    )
    recorded_by_name: str = Field(default="", max_length=255)
    recorded_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    # The browser's key for one press of 'Collected' / 'Record payment'.
    idempotency_key: str = Field(max_length=64)


class CashHandover(SQLModel, table=True):
    """An admin took a member of staff's collected cash of one day (`amount`, what they held
    then); what they still hold is their cash of that day less its handovers
    (services/payments/cash.py). The payments themselves are not touched."""

    __tablename__ = "cash_handovers"
    __table_args__ = (
        CheckConstraint("amount >= 0", name="ck_cash_handovers_amount"),
        Index("ix_cash_handovers_day", "day"),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    day: date
    staff_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    staff_name: str = Field(default="", max_length=255)
    amount: Decimal = Field(sa_type=MONEY)
    currency: str = Field(default="EUR", max_length=3)
    received_by_id: uuid.UUID | None = Field(
        default=None, foreign_key="users.id", ondelete="SET NULL"
    )
    received_by_name: str = Field(default="", max_length=255)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class Receipt(SQLModel, table=True):
    """A booking's receipt number: per year, without gaps (2026-0001, 2026-0002, ...), given
    once under a lock (services/payments/receipts.py); the PDF is drawn from the booking each
    time it is asked for, under the same number."""

    __tablename__ = "receipts"
    __table_args__ = (
        UniqueConstraint("year", "sequence", name="uq_receipts_year_sequence"),
        UniqueConstraint("booking_id", name="uq_receipts_booking_id"),
        CheckConstraint("sequence >= 1", name="ck_receipts_sequence"),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    booking_id: uuid.UUID = Field(foreign_key="bookings.id", ondelete="RESTRICT")
    year: int
    sequence: int
    issued_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    issued_by_id: uuid.UUID | None = Field(
        default=None, foreign_key="users.id", ondelete="SET NULL"
    )

    @property
    def number(self) -> str:
        return receipt_number(self.year, self.sequence)


def receipt_number(year: int, sequence: int) -> str:
    """2026, 1 -> '2026-0001' (four digits at least; the 10,000th of a year is '2026-10000')."""
    return f"{year}-{sequence:04d}"
