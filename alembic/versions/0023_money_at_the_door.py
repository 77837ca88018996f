"""money at the door: payments, cash handovers, receipts, transport and deposit (issue 36)

A booking's total is what it owes: its lines plus `transport_amount` (0 on every booking placed
before); `deposit_amount` is what was asked before the day (0: none). Payments and their
reversals, the cash handed over by staff and the receipts' numbers per year are new tables. The
business settings gain the fiscal number (NUI), the deposit rule and the transport fees.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-01 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MONEY = sa.Numeric(10, 2)
# A timestamp as models.base.UTCDateTime stores it.
WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("bookings") as batch:
        batch.add_column(sa.Column("transport_amount", MONEY, nullable=False, server_default="0"))
        batch.add_column(sa.Column("deposit_amount", MONEY, nullable=False, server_default="0"))
        batch.create_check_constraint("ck_bookings_transport", "transport_amount >= 0")
        batch.create_check_constraint("ck_bookings_deposit", "deposit_amount >= 0")
    with op.batch_alter_table("business_settings") as batch:
        batch.add_column(
            sa.Column("fiscal_number", sa.String(length=32), nullable=False, server_default="")
        )
        batch.add_column(
            sa.Column("deposit_percent", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(sa.Column("deposit_above", MONEY, nullable=False, server_default="0"))
        batch.add_column(
            sa.Column("transport_fees", sa.JSON(), nullable=False, server_default="{}")
        )
        batch.create_check_constraint(
            "ck_business_settings_deposit", "deposit_percent >= 0 AND deposit_percent <= 100"
        )
    op.create_table(
        "cash_handovers",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("staff_id", sa.Uuid(), sa.ForeignKey("users.id", ondelete="SET NULL")),
        sa.Column("staff_name", sa.String(length=255), nullable=False),
        sa.Column("amount", MONEY, nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("received_by_id", sa.Uuid(), sa.ForeignKey("users.id", ondelete="SET NULL")),
        sa.Column("received_by_name", sa.String(length=255), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.CheckConstraint("amount >= 0", name="ck_cash_handovers_amount"),
    )
    op.create_index("ix_cash_handovers_day", "cash_handovers", ["day"])
    op.create_table(
        "payments",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column(
            "booking_id",
            sa.Uuid(),
            sa.ForeignKey("bookings.id", ondelete="RESTRICT"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("amount", MONEY, nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("note", sa.String(length=500), nullable=False),
        sa.Column("reverses_id", sa.Uuid(), sa.ForeignKey("payments.id")),
        sa.Column("recorded_by_id", sa.Uuid(), sa.ForeignKey("users.id", ondelete="SET NULL")),
        sa.Column("recorded_by_name", sa.String(length=255), nullable=False),
        sa.Column("recorded_at", WHEN, nullable=False),
        sa.Column("idempotency_key", sa.String(length=64), nullable=False),
        sa.CheckConstraint("method IN ('cash', 'bank_transfer', 'card')", name="ck_payments_method"),
        sa.CheckConstraint("kind IN ('payment', 'reversal')", name="ck_payments_kind"),
        sa.CheckConstraint(
            "(kind = 'payment' AND amount > 0 AND reverses_id IS NULL)"
            " OR (kind = 'reversal' AND amount < 0 AND reverses_id IS NOT NULL)",
            name="ck_payments_sign",
        ),
    )
    op.create_index("ix_payments_booking_id", "payments", ["booking_id"])
    op.create_index("ix_payments_recorded_at", "payments", ["recorded_at"])
    op.create_index(
        "ix_payments_recorded_by_recorded_at", "payments", ["recorded_by_id", "recorded_at"]
    )
    op.create_index("ux_payments_reverses_id", "payments", ["reverses_id"], unique=True)
    op.create_index("ux_payments_idempotency_key", "payments", ["idempotency_key"], unique=True)
    op.create_table(
        "receipts",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column(
            "booking_id",
            sa.Uuid(),
            sa.ForeignKey("bookings.id", ondelete="RESTRICT"),
            nullable=False,
        ),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("issued_at", WHEN, nullable=False),
        sa.Column("issued_by_id", sa.Uuid(), sa.ForeignKey("users.id", ondelete="SET NULL")),
        sa.UniqueConstraint("year", "sequence", name="uq_receipts_year_sequence"),
        sa.UniqueConstraint("booking_id", name="uq_receipts_booking_id"),
        sa.CheckConstraint("sequence >= 1", name="ck_receipts_sequence"),
    )


def downgrade() -> None:
    op.drop_table("receipts")
    op.drop_table("payments")
    op.drop_table("cash_handovers")
    with op.batch_alter_table("business_settings") as batch:
        batch.drop_constraint("ck_business_settings_deposit", type_="check")
        for column in ("transport_fees", "deposit_above", "deposit_percent", "fiscal_number"):
            batch.drop_column(column)
    with op.batch_alter_table("bookings") as batch:
        batch.drop_constraint("ck_bookings_deposit", type_="check")
        batch.drop_constraint("ck_bookings_transport", type_="check")
        batch.drop_column("deposit_amount")
        batch.drop_column("transport_amount")
