"""every stored upload with its owner and size: quotas and the orphan sweep (issue 18, finding 6)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import storefront.models.base

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "stored_files",
        sa.Column("path", sqlmodel.sql.sqltypes.AutoString(length=255), nullable=False),
        sa.Column("owner_id", sa.Uuid(), nullable=True),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("bytes", sa.Integer(), nullable=False),
        sa.Column("referenced", sa.Boolean(), nullable=False),
        sa.Column("draft", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("created_at", storefront.models.base.UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('service', 'banner', 'avatar')", name="ck_stored_files_kind"),
        sa.CheckConstraint("bytes >= 0", name="ck_stored_files_bytes"),
        sa.ForeignKeyConstraint(["owner_id"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("path"),
    )
    with op.batch_alter_table("stored_files", schema=None) as batch_op:
        batch_op.create_index("ix_stored_files_owner_id", ["owner_id"], unique=False)
        batch_op.create_index(
            "ix_stored_files_referenced_created", ["referenced", "created_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("stored_files", schema=None) as batch_op:
        batch_op.drop_index("ix_stored_files_referenced_created")
        batch_op.drop_index("ix_stored_files_owner_id")
    op.drop_table("stored_files")
