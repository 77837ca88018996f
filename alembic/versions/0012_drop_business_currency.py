"""drop business_settings.currency: prices use the server's CURRENCY everywhere (issue 19, item 7)

The admin 'Currency' setting was saved but changed nothing (every price, mail and export uses the
server's CURRENCY setting, and each booking stores the currency it was placed in).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24 01:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("business_settings") as batch:
        batch.drop_column("currency")


def downgrade() -> None:
    with op.batch_alter_table("business_settings") as batch:
        batch.add_column(
            sa.Column("currency", sa.String(length=3), nullable=False, server_default="EUR")
        )
