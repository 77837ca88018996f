"""booking engine: a stored booking reference, the checkout's state and ZIP, per-event prices

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 09:10:00

`bookings.reference` becomes a real, unique column so staff can find a booking by what the
customer reads out. The checkout form (docs/product.md §3) asks for state and ZIP code, which had no
columns. `services.price_unit` says whether the hours booked multiply the price
(docs/architecture.md §9.9); packages, wedding offers, tables and the Tiffany chairs are priced per
event.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copy of the rule at the time of this migration (models may change later).
PER_EVENT_KINDS = ("package", "wedding_offer", "table")
PER_EVENT_SLUGS = ("tiffany-chairs",)


def upgrade() -> None:
    with op.batch_alter_table('bookings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reference', sqlmodel.sql.sqltypes.AutoString(length=11), nullable=True))
        batch_op.add_column(sa.Column('state', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=True))
        batch_op.add_column(sa.Column('zip_code', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True))
    # The first 8 characters of the id are the same in PostgreSQL's hyphenated text and in
    # SQLite's 32-digit hex form (the first hyphen comes after the 8th character).
    op.execute("UPDATE bookings SET reference = 'MG-' || UPPER(SUBSTR(CAST(id AS VARCHAR), 1, 8))")
    with op.batch_alter_table('bookings', schema=None) as batch_op:
        batch_op.alter_column('reference', existing_type=sqlmodel.sql.sqltypes.AutoString(length=11), nullable=False)
        batch_op.create_index('ix_bookings_reference', ['reference'], unique=True)

    with op.batch_alter_table('services', schema=None) as batch_op:
        batch_op.add_column(sa.Column('price_unit', sqlmodel.sql.sqltypes.AutoString(length=16), server_default='per_hour', nullable=False))
    services = sa.table('services', sa.column('kind', sa.String), sa.column('slug', sa.String), sa.column('price_unit', sa.String))
    op.execute(
        services.update()
        .where(sa.or_(services.c.kind.in_(PER_EVENT_KINDS), services.c.slug.in_(PER_EVENT_SLUGS)))
        .values(price_unit='per_event')
    )
    with op.batch_alter_table('services', schema=None) as batch_op:
        batch_op.create_check_constraint('ck_services_price_unit', "price_unit IN ('per_hour', 'per_event')")


def downgrade() -> None:
    with op.batch_alter_table('services', schema=None) as batch_op:
        batch_op.drop_constraint('ck_services_price_unit', type_='check')
        batch_op.drop_column('price_unit')
    with op.batch_alter_table('bookings', schema=None) as batch_op:
        batch_op.drop_index('ix_bookings_reference')
        batch_op.drop_column('reference')
        batch_op.drop_column('zip_code')
        batch_op.drop_column('state')
