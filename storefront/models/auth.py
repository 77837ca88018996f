"""What signing in needs besides accounts: reset links, OAuth identities, failed-attempt counters."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from storefront.models.base import UTCDateTime, new_id, utcnow


class PasswordResetToken(SQLModel, table=True):
    """A single-use password reset link; only the hash of its secret is stored."""

    __tablename__ = "password_reset_tokens"
    __table_args__ = (Index("ix_password_reset_tokens_user_id", "user_id"),)

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE")
    token_hash: str = Field(max_length=128, unique=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    expires_at: datetime = Field(sa_type=UTCDateTime)
    used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class OAuthAccount(SQLModel, table=True):
    """An identity at Google or GitHub linked to an account."""

    __tablename__ = "oauth_accounts"
    __table_args__ = (
        UniqueConstraint("provider", "subject", name="uq_oauth_accounts_provider_subject"),
        Index("ix_oauth_accounts_user_id", "user_id"),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE")
    provider: str = Field(max_length=32)
    subject: str = Field(max_length=255)
    email: str = Field(max_length=255)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class SignInThrottle(SQLModel, table=True):
    """Attempts counted per key in a window: failed sign-ins (per address, account at an address,
    account), sign-ups, reset requests and contact messages (services/throttle.py)."""

    __tablename__ = "sign_in_throttles"

    key: str = Field(primary_key=True, max_length=320)
    failures: int = Field(default=0)
    window_started_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    blocked_until: datetime | None = Field(default=None, sa_type=UTCDateTime)


class UsedSignInTicket(SQLModel, table=True):
    """A single-use signed token already used (`services/accounts/auth.use_once`): a sign-in
    ticket turned into a session, or an OAuth sign-in's state ('oauth:' and its id). Kept until
    the token expires, so it works once even after what it made has ended."""

    __tablename__ = "used_sign_in_tickets"

    ticket_id: str = Field(primary_key=True, max_length=64)
    expires_at: datetime = Field(sa_type=UTCDateTime, index=True)
