"""every stored upload with its owner and size: quotas and the orphan sweep (issue 18, finding 6)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
import sqlmodel  # noqa: F401
from alembic import op  # noqa: F401

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
