"""the demo's mascot packages get their own length: 1 hour (issue 34, item 3)

A package whose length is known (`PackageDetails.hours`) is booked for exactly that long, with no
duration to choose. The seeded mascot visits ('Qëndrim 40 minuta', 'Qëndrim 1 orë') and the
mascot-and-activities packages without a bouncer had none, so the cart offered 1-8 hours and a
3-hour choice reserved the mascot 14:00-17:00. Their stay, rounded up to the hourly slots, is one
hour. The seed sets it on new databases; the seed loader leaves existing rows as they are, so
this sets it on the seeded rows of existing ones: only those still a mascot package with no
length of their own (an admin's choice stays). The slugs are written out: a migration means the
same thing next year, whatever the seed says then.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-30 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ONE_HOUR_PACKAGES = (
    "paketa-maskota-1",
    "paketa-maskota-2",
    "paketa-maskota-3",
    "paketa-maskota-4",
    "paketa-maskota-5",
    "paketa-maskota-6",
    "paketa-aktivitete-1",
    "paketa-aktivitete-2",
    "paketa-aktivitete-4",
    "paketa-aktivitete-5",
)
VISIT_TYPES = ("mascot", "mascot-activities")

services = sa.table(
    "services",
    sa.column("id"),
    sa.column("slug", sa.String()),
    sa.column("kind", sa.String()),
    sa.column("metadata", sa.JSON()),
)


def _rows(bind):
    return bind.execute(
        sa.select(services.c.id, services.c.metadata).where(
            services.c.kind == "package", services.c.slug.in_(ONE_HOUR_PACKAGES)
        )
    ).all()


def upgrade() -> None:
    bind = op.get_bind()
    for service_id, stored in _rows(bind):
        meta = stored if isinstance(stored, dict) else {}
        if meta.get("type", "mascot") in VISIT_TYPES and meta.get("hours") is None:
            bind.execute(
                services.update()
                .where(services.c.id == service_id)
                .values(metadata={**meta, "hours": 1})
            )


def downgrade() -> None:
    """The length is left: a package's `hours` was valid before this revision too (the cart
    started its line with them), so nothing needs it gone."""
