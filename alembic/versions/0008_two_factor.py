"""admins' two-factor sign-in: TOTP secrets, recovery codes, the setting that requires it (issue 18, finding 11)

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import storefront.models.base

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('two_factor',
    sa.Column('user_id', sa.Uuid(), nullable=False),
    sa.Column('secret', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('enabled_at', storefront.models.base.UTCDateTime(timezone=True), nullable=True),
    sa.Column('last_used_step', sa.Integer(), nullable=True),
    sa.Column('created_at', storefront.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id')
    )
    op.create_table('two_factor_recovery_codes',
    sa.Column('id', sa.Uuid(), nullable=False),
    sa.Column('user_id', sa.Uuid(), nullable=False),
    sa.Column('code_hash', sqlmodel.sql.sqltypes.AutoString(length=255), nullable=False),
    sa.Column('used_at', storefront.models.base.UTCDateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('two_factor_recovery_codes', schema=None) as batch_op:
        batch_op.create_index('ix_two_factor_recovery_codes_user_id', ['user_id'], unique=False)
    with op.batch_alter_table('business_settings', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('admin_two_factor_required', sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table('business_settings', schema=None) as batch_op:
        batch_op.drop_column('admin_two_factor_required')
    with op.batch_alter_table('two_factor_recovery_codes', schema=None) as batch_op:
        batch_op.drop_index('ix_two_factor_recovery_codes_user_id')
    op.drop_table('two_factor_recovery_codes')
    op.drop_table('two_factor')
