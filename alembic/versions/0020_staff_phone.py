"""users.phone: a member of staff's phone, for the customer's 'on the way' mail (issue 34, item 7)

The day sheet's 'On the way' mails the customer the number of whoever marked it, when their
profile has one (services/messaging/notify.py); else the business's phone.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-29 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("phone", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("phone")
