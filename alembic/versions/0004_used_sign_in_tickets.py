"""used sign-in tickets: a ticket works once, even after its session ended

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22 10:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import storefront.models.base

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('used_sign_in_tickets',
    sa.Column('ticket_id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('expires_at', storefront.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('ticket_id')
    )
    with op.batch_alter_table('used_sign_in_tickets', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_used_sign_in_tickets_expires_at'), ['expires_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('used_sign_in_tickets', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_used_sign_in_tickets_expires_at'))
    op.drop_table('used_sign_in_tickets')
