"""review of published services changed by their owners, and the periodic housekeeping lease (issue 18, findings 5 and 12)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-23 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
import sqlmodel  # noqa: F401
from alembic import op  # noqa: F401

import storefront.models.base

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'service_revisions',
        sa.Column('service_id', sa.Uuid(), nullable=False),
        sa.Column('values', sa.JSON(), nullable=False),
        sa.Column('submitted_by', sa.Uuid(), nullable=True),
        sa.Column('submitted_at', storefront.models.base.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['service_id'], ['services.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['submitted_by'], ['users.id'], ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('service_id'),
    )
    op.create_table(
        'housekeeping_leases',
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('holder', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column('expires_at', storefront.models.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column('last_run_at', storefront.models.base.UTCDateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('name'),
    )


def downgrade() -> None:
    op.drop_table('housekeeping_leases')
    op.drop_table('service_revisions')
