"""Every image a user uploaded, with its owner and size: what an account's quota counts, what a
form may point at, and what the orphan sweep may remove (services/media/storage.py)."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import CheckConstraint, Index
from sqlmodel import Field, SQLModel

from storefront.models.base import UTCDateTime, utcnow

UPLOAD_KINDS = ("service", "banner", "avatar", "delivery")


class StoredUpload(SQLModel, table=True):
    """One stored upload. `referenced` is true while a saved row (a service's images, a banner
    item, an avatar) points at it; `draft` names the unsaved form it was uploaded for."""

    __tablename__ = "stored_files"
    __table_args__ = (
        CheckConstraint(
            "kind IN ('service', 'banner', 'avatar', 'delivery')", name="ck_stored_files_kind"
        ),
        CheckConstraint("bytes >= 0", name="ck_stored_files_bytes"),
        Index("ix_stored_files_owner_id", "owner_id"),
        Index("ix_stored_files_referenced_created", "referenced", "created_at"),
    )

    path: str = Field(primary_key=True, max_length=255)
    owner_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    kind: str = Field(max_length=16)
    bytes: int = Field(default=0)
    referenced: bool = Field(default=False)
    draft: str | None = Field(default=None, max_length=64)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
