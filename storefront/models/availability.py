"""When services can be booked: weekly hours and blocked dates."""

from __future__ import annotations

import uuid
from datetime import date, datetime, time

from sqlalchemy import CheckConstraint, Index
from sqlmodel import Field, SQLModel

from storefront.models.base import UTCDateTime, new_id, utcnow


class ServiceAvailability(SQLModel, table=True):
    """Opening hours of a service on one weekday (0 Sunday .. 6 Saturday), local time."""

    __tablename__ = "service_availability"
    __table_args__ = (
        CheckConstraint("day_of_week BETWEEN 0 AND 6", name="ck_service_availability_day"),
        CheckConstraint("start_time < end_time", name="ck_service_availability_span"),
        CheckConstraint(
            "slot_duration_minutes BETWEEN 1 AND 480", name="ck_service_availability_slot"
        ),
        CheckConstraint("max_bookings_per_slot >= 1", name="ck_service_availability_max"),
        Index("ix_service_availability_service_day", "service_id", "day_of_week", "start_time"),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    service_id: uuid.UUID = Field(foreign_key="services.id", ondelete="CASCADE")
    day_of_week: int
    start_time: time
    end_time: time
    slot_duration_minutes: int = Field(default=60)
    max_bookings_per_slot: int = Field(default=1)
    is_available: bool = Field(default=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class BlockedDate(SQLModel, table=True):
    """Whole days with no bookings; `service_id` None blocks every service."""

    __tablename__ = "blocked_dates"
    __table_args__ = (
        CheckConstraint("start_date <= end_date", name="ck_blocked_dates_span"),
        Index("ix_blocked_dates_service_start", "service_id", "start_date"),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    service_id: uuid.UUID | None = Field(
        default=None, foreign_key="services.id", ondelete="CASCADE"
    )
    start_date: date
    end_date: date
    is_recurring_yearly: bool = Field(default=False)
    reason: str | None = Field(default=None, max_length=255)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
