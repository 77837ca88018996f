"""contact submission key (one row per sent form); business facebook page

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22 09:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('contact_messages', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('submission_key', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True)
        )
        batch_op.create_index(
            'ux_contact_messages_submission_key', ['submission_key'], unique=True
        )
    with op.batch_alter_table('business_settings', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                'facebook',
                sqlmodel.sql.sqltypes.AutoString(length=120),
                nullable=False,
                server_default='magicevents.ks',
            )
        )


def downgrade() -> None:
    with op.batch_alter_table('business_settings', schema=None) as batch_op:
        batch_op.drop_column('facebook')
    with op.batch_alter_table('contact_messages', schema=None) as batch_op:
        batch_op.drop_index('ux_contact_messages_submission_key')
        batch_op.drop_column('submission_key')
