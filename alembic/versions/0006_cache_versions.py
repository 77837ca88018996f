"""cache versions: the catalogue's version, raised by every change of what the public pages show

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22 23:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    table = op.create_table(
        'cache_versions',
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('name'),
    )
    op.bulk_insert(table, [{'name': 'catalogue', 'version': 0}])


def downgrade() -> None:
    op.drop_table('cache_versions')
