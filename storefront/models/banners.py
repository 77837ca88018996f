"""Homepage and page banners: a named strip of cards."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, Column, Index
from sqlmodel import Field, SQLModel

from storefront.models.base import UTCDateTime, new_id, utcnow


class Banner(SQLModel, table=True):
    __tablename__ = "banners"

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    name: str = Field(max_length=120, unique=True)
    description: str | None = Field(default=None, max_length=1000)
    is_active: bool = Field(default=True)
    display_order: int = Field(default=0)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class BannerItem(SQLModel, table=True):
    __tablename__ = "banner_items"
    __table_args__ = (
        CheckConstraint("display_order >= 0", name="ck_banner_items_order"),
        Index("ix_banner_items_banner_order", "banner_id", "display_order"),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    banner_id: uuid.UUID = Field(foreign_key="banners.id", ondelete="CASCADE")
    title: str = Field(max_length=200)
    description: str | None = Field(default=None, max_length=2000)
    image_url: str = Field(max_length=1024)
    link_url: str | None = Field(default=None, max_length=1024)
    # The English text of fields an admin filled in ({"en": {"title": ...}}); the rest shows
    # the default edition's (services/content.py).
    translations: dict[str, Any] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )
    display_order: int = Field(default=1)
    is_active: bool = Field(default=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
