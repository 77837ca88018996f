"""Crews and vans (issue 37): the business's vans, and which van and crew take a booking's
delivery and its pickup on a day (services/operations/vans.py)."""

from __future__ import annotations

import uuid
from datetime import date, datetime

from sqlalchemy import CheckConstraint, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from storefront.models.base import UTCDateTime, new_id, utcnow

# A booking's two runs: the delivery (set up before it starts) and the pickup (collected after
# it ends). A visit (a mascot) has a delivery only.
LEGS = ("delivery", "pickup")


class Van(SQLModel, table=True):
    """One of the business's vans: what admins call it, its plate, what fits in it."""

    __tablename__ = "vans"

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    name: str = Field(max_length=80, unique=True)
    plate: str = Field(default="", max_length=20)
    note: str = Field(default="", max_length=500)
    # A van sold or in the garage is set aside, never deleted while runs name it.
    active: bool = Field(default=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class VanJob(SQLModel, table=True):
    """One run of a booking (its delivery or its pickup) given to a van on `day` (the run's local
    day): one row per booking and leg, whoever assigned it last."""

    __tablename__ = "van_jobs"
    __table_args__ = (
        CheckConstraint("leg IN ('delivery', 'pickup')", name="ck_van_jobs_leg"),
        UniqueConstraint("booking_id", "leg", name="uq_van_jobs_booking_leg"),
        Index("ix_van_jobs_day_van", "day", "van_id"),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    booking_id: uuid.UUID = Field(foreign_key="bookings.id", ondelete="CASCADE")
    leg: str = Field(max_length=16)
    day: date
    van_id: uuid.UUID = Field(foreign_key="vans.id", ondelete="RESTRICT")
    assigned_by_id: uuid.UUID | None = Field(
        default=None, foreign_key="users.id", ondelete="SET NULL"
    )
    assigned_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class VanJobCrew(SQLModel, table=True):
    """A member of staff on a run (one or more per run)."""

    __tablename__ = "van_job_crew"
    __table_args__ = (Index("ix_van_job_crew_user_id", "user_id"),)

    job_id: uuid.UUID = Field(foreign_key="van_jobs.id", ondelete="CASCADE", primary_key=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
