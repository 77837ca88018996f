"""two-factor: wrong codes counted per account until a lock, secrets sealed at rest (issue 33)

- `two_factor.failed_codes`: wrong codes in a row since the account's last accepted code or
  recovery code (never reset by a window, nor by a correct password).
- `two_factor.locked_at`: set when `failed_codes` reaches the lock's count; the second step is
  refused until a recovery code is used or an admin runs `manage reset-2fa`.
- `two_factor.secret` holds the TOTP secret sealed with AES-GCM (services/accounts/sealed.py), longer
  than the plain base32 text it held before.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28 02:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import storefront.models.base

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("two_factor") as batch:
        batch.add_column(
            sa.Column("failed_codes", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(
            sa.Column(
                "locked_at", storefront.models.base.UTCDateTime(timezone=True), nullable=True
            )
        )
        batch.alter_column(
            "secret", existing_type=sa.String(length=64), type_=sa.String(length=255)
        )


def downgrade() -> None:
    with op.batch_alter_table("two_factor") as batch:
        batch.alter_column(
            "secret", existing_type=sa.String(length=255), type_=sa.String(length=64)
        )
        batch.drop_column("locked_at")
        batch.drop_column("failed_codes")
