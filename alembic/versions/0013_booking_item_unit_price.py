"""booking items keep their catalogue rate and its unit: the admin edit reprices a line the way
checkout priced it (issue 20, item 5)

`service_price` stays the price of one unit for the booked hours (what the total, the mails and
the views multiply by the quantity); `unit_price` is the rate it came from and `price_unit` says
whether that rate is per hour or per event. Existing lines take their service's unit (per event
when the service is gone) and the rate that gives their price.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-25 19:00:00
"""

from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CENT = Decimal("0.01")


def upgrade() -> None:
    with op.batch_alter_table("booking_items") as batch:
        batch.add_column(
            sa.Column("price_unit", sa.String(length=16), nullable=False, server_default="per_event")
        )
        batch.add_column(
            sa.Column("unit_price", sa.Numeric(10, 2), nullable=False, server_default="0")
        )
        batch.create_check_constraint(
            "ck_booking_items_price_unit", "price_unit IN ('per_hour', 'per_event')"
        )
    bind = op.get_bind()
    items = sa.table(
        "booking_items",
        sa.column("id"),
        sa.column("service_id"),
        sa.column("service_price", sa.Numeric(10, 2)),
        sa.column("start_datetime", sa.DateTime()),
        sa.column("end_datetime", sa.DateTime()),
        sa.column("price_unit", sa.String()),
        sa.column("unit_price", sa.Numeric(10, 2)),
    )
    services = sa.table("services", sa.column("id"), sa.column("price_unit", sa.String()))
    rows = bind.execute(
        sa.select(
            items.c.id,
            items.c.service_price,
            items.c.start_datetime,
            items.c.end_datetime,
            services.c.price_unit,
        ).select_from(items.outerjoin(services, services.c.id == items.c.service_id))
    ).all()
    for row in rows:
        unit = row.price_unit or "per_event"
        price = Decimal(row.service_price)
        if unit == "per_hour":
            hours = max(1, round((row.end_datetime - row.start_datetime).total_seconds() / 3600))
            rate = (price / hours).quantize(CENT, ROUND_HALF_UP)
        else:
            rate = price
        bind.execute(
            items.update().where(items.c.id == row.id).values(price_unit=unit, unit_price=rate)
        )


def downgrade() -> None:
    with op.batch_alter_table("booking_items") as batch:
        batch.drop_constraint("ck_booking_items_price_unit", type_="check")
        batch.drop_column("unit_price")
        batch.drop_column("price_unit")
