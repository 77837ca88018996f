"""Accounts and their server-side login sessions."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from sqlalchemy import CheckConstraint, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from storefront.models.base import UTCDateTime, new_id, utcnow

# 'staff' (drivers, decorators) see the day sheet and the week calendar of the back office and
# change a booking's status to on the way or completed; nothing else (docs/architecture.md §4).
ROLES = ("admin", "staff", "user")
Role = Literal["admin", "staff", "user"]


class UserBase(SQLModel):
    email: str = Field(max_length=255)
    full_name: str | None = Field(default=None, max_length=255)
    avatar_url: str | None = Field(default=None, max_length=1024)


class User(UserBase, table=True):
    __tablename__ = "users"
    __table_args__ = (CheckConstraint("role IN ('admin', 'staff', 'user')", name="ck_users_role"),)

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    email: str = Field(max_length=255, unique=True, index=True)
    password_hash: str | None = Field(default=None, max_length=255)
    role: str = Field(default="user", max_length=16)
    # The language of the back office for this account (storefront/i18n.py); None: English.
    language: str | None = Field(default=None, max_length=8)
    # A member of staff's phone (E.164), set on their profile: the customer's 'on the way' mail
    # gives it (services/messaging/notify.py); without it the business's phone.
    phone: str | None = Field(default=None, max_length=64)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class UserPublic(UserBase):
    """What leaves the server about a user."""

    id: uuid.UUID
    role: str
    created_at: datetime


class LoginSession(SQLModel, table=True):
    """A signed-in browser. Only the hash of its token is stored."""

    __tablename__ = "login_sessions"
    __table_args__ = (
        Index("ix_login_sessions_user_id", "user_id"),
        UniqueConstraint("ticket_id", name="uq_login_sessions_ticket_id"),
    )

    id: uuid.UUID = Field(default_factory=new_id, primary_key=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE")
    token_hash: str = Field(max_length=128, unique=True)
    remember_me: bool = Field(default=False)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    last_seen_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    idle_expires_at: datetime = Field(sa_type=UTCDateTime)
    expires_at: datetime = Field(sa_type=UTCDateTime)
    # The single-use sign-in ticket this session was made from (see services/accounts/auth.py).
    ticket_id: str | None = Field(default=None, max_length=64)
    user_agent: str | None = Field(default=None, max_length=512)
    ip_address: str | None = Field(default=None, max_length=64)


class FirstAdminSetup(SQLModel, table=True):
    """The one-time code of Initial Admin Setup on a public address (docs/architecture.md §9.10):
    one row at
    most (id 1). Only a random nonce is stored; the code is an HMAC of it under SECRET_KEY, so
    every worker derives (and logs) the same code and the database alone does not reveal it."""

    __tablename__ = "first_admin_setup"
    __table_args__ = (CheckConstraint("id = 1", name="ck_first_admin_setup_single"),)

    id: int = Field(default=1, primary_key=True)
    nonce: str = Field(max_length=64)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    expires_at: datetime = Field(sa_type=UTCDateTime)
    used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class CalendarFeed(SQLModel, table=True):
    """The private iCalendar address of an admin or staff member (services/accounts/calendar_feed.py).
    Only the hash of its secret is stored; turning it off deletes the row."""

    __tablename__ = "calendar_feeds"

    user_id: uuid.UUID = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
    token_hash: str = Field(max_length=128, unique=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    last_used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
