"""crews and vans: vans, runs and their crews, proof of delivery, a rainy day (issue 37)

The business's vans; which van and crew take a booking's delivery and its pickup on a day
(`van_jobs`, one per booking and leg, and `van_job_crew`); the depot's municipality and the
driving minutes between municipalities in the settings; the proof of delivery on the booking
(when it was set up, by whom, who received it, a photo: a stored upload of kind 'delivery');
and when a customer was offered a move because of the weather.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-08 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# A timestamp as models.base.UTCDateTime stores it.
WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "vans",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("name", sa.String(length=80), nullable=False, unique=True),
        sa.Column("plate", sa.String(length=20), nullable=False),
        sa.Column("note", sa.String(length=500), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_table(
        "van_jobs",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column(
            "booking_id",
            sa.Uuid(),
            sa.ForeignKey("bookings.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("leg", sa.String(length=16), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column(
            "van_id", sa.Uuid(), sa.ForeignKey("vans.id", ondelete="RESTRICT"), nullable=False
        ),
        sa.Column("assigned_by_id", sa.Uuid(), sa.ForeignKey("users.id", ondelete="SET NULL")),
        sa.Column("assigned_at", WHEN, nullable=False),
        sa.CheckConstraint("leg IN ('delivery', 'pickup')", name="ck_van_jobs_leg"),
        sa.UniqueConstraint("booking_id", "leg", name="uq_van_jobs_booking_leg"),
    )
    op.create_index("ix_van_jobs_day_van", "van_jobs", ["day", "van_id"])
    op.create_table(
        "van_job_crew",
        sa.Column(
            "job_id",
            sa.Uuid(),
            sa.ForeignKey("van_jobs.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "user_id", sa.Uuid(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
        ),
    )
    op.create_index("ix_van_job_crew_user_id", "van_job_crew", ["user_id"])
    with op.batch_alter_table("bookings") as batch:
        batch.add_column(sa.Column("set_up_at", WHEN))
        batch.add_column(
            sa.Column("set_up_by_name", sa.String(length=255), nullable=False, server_default="")
        )
        batch.add_column(
            sa.Column("received_by", sa.String(length=120), nullable=False, server_default="")
        )
        batch.add_column(sa.Column("set_up_photo", sa.String(length=255)))
        batch.add_column(sa.Column("weather_offered_at", WHEN))
    with op.batch_alter_table("business_settings") as batch:
        batch.add_column(
            sa.Column(
                "depot_municipality",
                sa.String(length=32),
                nullable=False,
                server_default="prishtine",
            )
        )
        batch.add_column(
            sa.Column("travel_minutes", sa.JSON(), nullable=False, server_default="{}")
        )
    with op.batch_alter_table("stored_files") as batch:
        batch.drop_constraint("ck_stored_files_kind", type_="check")
        batch.create_check_constraint(
            "ck_stored_files_kind", "kind IN ('service', 'banner', 'avatar', 'delivery')"
        )


def downgrade() -> None:
    op.execute("DELETE FROM stored_files WHERE kind = 'delivery'")
    with op.batch_alter_table("stored_files") as batch:
        batch.drop_constraint("ck_stored_files_kind", type_="check")
        batch.create_check_constraint(
            "ck_stored_files_kind", "kind IN ('service', 'banner', 'avatar')"
        )
    with op.batch_alter_table("business_settings") as batch:
        batch.drop_column("travel_minutes")
        batch.drop_column("depot_municipality")
    with op.batch_alter_table("bookings") as batch:
        for column in (
            "weather_offered_at",
            "set_up_photo",
            "received_by",
            "set_up_by_name",
            "set_up_at",
        ):
            batch.drop_column(column)
    op.drop_table("van_job_crew")
    op.drop_table("van_jobs")
    op.drop_table("vans")
