"""Two-factor sign-in with an authenticator app (services/accounts/two_factor.py)."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from storefront.models.base import UTCDateTime, new_id, utcnow


class TwoFactor(SQLModel, table=True):
    """An account's TOTP secret: being set up while `enabled_at` is empty, on once a code from
    the app has confirmed it. `last_used_step` is the 30-second step of the last code accepted,
    so a code works once. The secret stays on the server (never in page state after setup)."""

    __tablename__ = "two_factor"

    user_id: uuid.UUID = Field(primary_key=True, foreign_key="users.id", ondelete="CASCADE")
    secret: str = Field(max_length=255)
    enabled_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_used_step: int | None = Field(default=None)
    failed_codes: int = Field(default=0)
    locked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class RecoveryCode(SQLModel, table=True):
    """A one-time recovery code; only its argon2 hash is stored."""

    __tablename__ = "two_factor_recovery_codes"
    __table_args__ = (Index("ix_two_factor_recovery_codes_user_id", "user_id"),)

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE")
    code_hash: str = Field(max_length=255)
    used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
