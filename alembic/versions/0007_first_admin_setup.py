"""the one-time first-admin setup code (issue 18, finding 1); the outbox's 'printed' status (finding 9)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel

import storefront.models.base
from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


OUTBOX_STATUSES_BEFORE = "status IN ('pending', 'sent', 'failed')"
# A mail printed to the console (no SMTP_HOST, development) is not a delivered one.
OUTBOX_STATUSES = "status IN ('pending', 'sent', 'printed', 'failed')"


def upgrade() -> None:
    op.create_table(
        'first_admin_setup',
        sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('nonce', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('created_at', storefront.models.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column('expires_at', storefront.models.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column('used_at', storefront.models.base.UTCDateTime(timezone=True), nullable=True),
        sa.CheckConstraint('id = 1', name='ck_first_admin_setup_single'),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('notification_outbox') as batch:
        batch.drop_constraint('ck_outbox_status', type_='check')
        batch.create_check_constraint('ck_outbox_status', OUTBOX_STATUSES)


def downgrade() -> None:
    op.execute("UPDATE notification_outbox SET status = 'sent' WHERE status = 'printed'")
    with op.batch_alter_table('notification_outbox') as batch:
        batch.drop_constraint('ck_outbox_status', type_='check')
        batch.create_check_constraint('ck_outbox_status', OUTBOX_STATUSES_BEFORE)
    op.drop_table('first_admin_setup')
