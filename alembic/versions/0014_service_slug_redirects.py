"""service_slug_redirects: a published service's old addresses answer with a redirect to its
current one after its slug changes (issue 20, item 18)

One row per old slug, pointing at the service; it goes with the service (ON DELETE CASCADE) and
when another service takes the slug.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-26 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import storefront.models.base

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "service_slug_redirects",
        sa.Column("old_slug", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("service_id", sa.Uuid(), nullable=False),
        sa.Column(
            "created_at", storefront.models.base.UTCDateTime(timezone=True), nullable=False
        ),
        sa.ForeignKeyConstraint(["service_id"], ["services.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("old_slug"),
    )
    op.create_index(
        "ix_service_slug_redirects_service_id", "service_slug_redirects", ["service_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_service_slug_redirects_service_id", table_name="service_slug_redirects")
    op.drop_table("service_slug_redirects")
