"""The catalogue: categories, services and how many of each can be out at once."""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import JSON, CheckConstraint, Column, Index
from sqlmodel import Field, SQLModel

from storefront.models import kinds
from storefront.models.base import MONEY, UTCDateTime, new_id, utcnow

SERVICE_STATUSES = ("published", "draft")
# Per hour: the hours booked multiply the price (the spec). Per event: one price however long
# (docs/architecture.md §9.9): the kinds priced per event (models/kinds.py) and the Tiffany chairs.
PRICE_UNITS = ("per_hour", "per_event")
PER_EVENT_SLUGS = ("tiffany-chairs",)


class ServiceCategory(SQLModel, table=True):
    __tablename__ = "service_categories"

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    name: str = Field(max_length=120)
    slug: str = Field(max_length=120, unique=True)
    description: str | None = Field(default=None, max_length=2000)
    # The English text of fields an admin filled in ({"en": {"title": ...}}); the rest shows
    # the default edition's (services/content.py).
    translations: dict[str, Any] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class Service(SQLModel, table=True):
    __tablename__ = "services"
    __table_args__ = (
        # What a service is on the storefront: the kinds of models/kinds.py. A new kind needs a
        # migration of this constraint too (docs/extending.md); tests compare the two.
        CheckConstraint(kinds.check_sql(), name="ck_services_kind"),
        CheckConstraint("status IN ('published', 'draft')", name="ck_services_status"),
        CheckConstraint("price IS NULL OR price >= 0", name="ck_services_price"),
        CheckConstraint("price_unit IN ('per_hour', 'per_event')", name="ck_services_price_unit"),
        Index("ix_services_category_kind", "category_id", "kind", "display_order"),
        Index("ix_services_user_id", "user_id"),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    title: str = Field(max_length=200)
    slug: str = Field(max_length=200, unique=True)
    description: str = Field(default="", max_length=10000)
    price: Decimal | None = Field(default=None, sa_type=MONEY)
    price_unit: str = Field(
        default="per_hour", max_length=16, sa_column_kwargs={"server_default": "per_hour"}
    )
    kind: str = Field(default="service", max_length=32)
    # How long before the start the crew leaves for it (the day sheet); None: its kind's.
    setup_lead_minutes: int | None = Field(default=None)
    category_id: uuid.UUID | None = Field(
        default=None, foreign_key="service_categories.id", ondelete="SET NULL"
    )
    # [{"path": "services/<uuid>.webp", "url": "/media/services/<uuid>.webp"}, ...]
    images: list[dict[str, Any]] = Field(
        default_factory=list, sa_column=Column(JSON, nullable=False)
    )
    # Kind-specific attributes (features, colour, table size, theme tiles, ...).
    meta: dict[str, Any] = Field(
        default_factory=dict, sa_column=Column("metadata", JSON, nullable=False)
    )
    # The English text of fields an admin filled in ({"en": {"title": ...}}); the rest shows
    # the default edition's (services/content.py).
    translations: dict[str, Any] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )
    featured: bool = Field(default=False)
    active: bool = Field(default=True)
    status: str = Field(default="published", max_length=16)
    display_order: int = Field(default=0)
    user_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class ServiceCapacity(SQLModel, table=True):
    """How many units of a service exist, and the pause each booking needs after it."""

    __tablename__ = "service_capacity"
    __table_args__ = (
        CheckConstraint("total_units >= 1", name="ck_service_capacity_units"),
        CheckConstraint("buffer_time_minutes >= 0", name="ck_service_capacity_buffer"),
    )

    service_id: uuid.UUID = Field(primary_key=True, foreign_key="services.id", ondelete="CASCADE")
    total_units: int = Field(default=1)
    buffer_time_minutes: int = Field(default=120)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class ServiceRevision(SQLModel, table=True):
    """An owner's change to their published service, waiting for an admin (issue 18, finding
    5). The published row in `services` stays what the public pages show until an admin
    approves the change; one revision per service at most (a later edit replaces it).

    `values` holds the checked form: title, slug, description, price (text or null),
    price_unit, kind, category_id (text or null), images, meta, total_units and
    buffer_time_minutes. Not a catalogue table: writing it changes nothing public."""

    __tablename__ = "service_revisions"

    service_id: uuid.UUID = Field(primary_key=True, foreign_key="services.id", ondelete="CASCADE")
    values: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    submitted_by: uuid.UUID | None = Field(
        default=None, foreign_key="users.id", ondelete="SET NULL"
    )
    submitted_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class ServiceSlugRedirect(SQLModel, table=True):
    """An address a published service answered at before its slug changed (issue 20, item 18):
    `/services/{old_slug}` redirects to the service's page under its current slug. A service
    that takes the slug later wins: its save deletes the row. Written by services/catalog_admin,
    read only through services/catalog.get_public_service."""

    __tablename__ = "service_slug_redirects"
    __table_args__ = (Index("ix_service_slug_redirects_service_id", "service_id"),)

    old_slug: str = Field(max_length=200, primary_key=True)
    service_id: uuid.UUID = Field(foreign_key="services.id", ondelete="CASCADE")
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
