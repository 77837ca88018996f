"""languages: catalogue content in English beside the default edition's, and the language of each
booking and of the staff (issue 21)

- `translations` (JSON, `{}` by default) on services, service categories, banner items and the
  business settings: `{"en": {"title": ..., "description": ..., "details": {...}}}`, the
  English text of each field an admin filled in; an empty or missing one shows the default
  edition's text (services/content.py).
- `bookings.language`: the language the booking was made in ('sq' for every existing one), for
  its mails, calendar file and confirmation page.
- `business_settings.staff_language`: the language of the staff's WhatsApp messages.
- `users.language`: the language of the back office for an admin (None: English).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25 21:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TRANSLATED_TABLES = ("services", "service_categories", "banner_items", "business_settings")


def upgrade() -> None:
    for table in TRANSLATED_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(
                sa.Column("translations", sa.JSON(), nullable=False, server_default="{}")
            )
    with op.batch_alter_table("bookings") as batch:
        batch.add_column(
            sa.Column("language", sa.String(length=8), nullable=False, server_default="sq")
        )
    with op.batch_alter_table("business_settings") as batch:
        batch.add_column(
            sa.Column("staff_language", sa.String(length=8), nullable=False, server_default="sq")
        )
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("language", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("language")
    with op.batch_alter_table("business_settings") as batch:
        batch.drop_column("staff_language")
    with op.batch_alter_table("bookings") as batch:
        batch.drop_column("language")
    for table in reversed(TRANSLATED_TABLES):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("translations")
