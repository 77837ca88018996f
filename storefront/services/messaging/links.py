"""The signed link that lets a guest open their booking without an account."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

import jwt

from storefront import i18n
from storefront.models import utcnow
from storefront.settings import get_settings

VIEW_KEY_LIFETIME = timedelta(days=180)
PURPOSE = "booking-view"
KEY_MAX_LENGTH = 1024


def sign_view_key(booking_id: uuid.UUID | str, *, now: datetime | None = None) -> str:
    now = now or utcnow()
    claims = {
        "sub": str(booking_id),
        "purpose": PURPOSE,
        "iat": now,
        "exp": now + VIEW_KEY_LIFETIME,
    }
    return jwt.encode(claims, get_settings().secret_key, algorithm="HS256")


def verify_view_key(
    booking_id: uuid.UUID | str, key: str | None, *, now: datetime | None = None
) -> bool:
    """True when `key` was signed here for this very booking and has not expired."""
    if not key or len(key) > KEY_MAX_LENGTH:
        return False
    now = now or utcnow()
    try:
        claims = jwt.decode(
            key,
            get_settings().secret_key,
            algorithms=["HS256"],
            # Expiry is checked against `now` below, so tests can set the clock.
            options={"require": ["exp", "sub"], "verify_exp": False, "verify_iat": False},
        )
        expired = float(claims["exp"]) <= now.timestamp()
    except (jwt.PyJWTError, ValueError, KeyError, TypeError):
        return False
    return not expired and claims.get("purpose") == PURPOSE and claims["sub"] == str(booking_id)


def view_path(booking_id: uuid.UUID | str, key: str | None = None) -> str:
    """`/booking-confirmation/{id}`, with `?key=` when a key is given."""
    return f"/booking-confirmation/{booking_id}" + (f"?key={key}" if key else "")


def ics_path(booking_id: uuid.UUID | str, key: str | None = None) -> str:
    """`/api/bookings/{id}.ics` (api/bookings.py), with `?key=` when a key is given."""
    return f"/api/bookings/{booking_id}.ics" + (f"?key={key}" if key else "")


def receipt_path(booking_id: uuid.UUID | str, key: str | None = None) -> str:
    """`/api/bookings/{id}/receipt.pdf` (api/bookings.py), with `?key=` when a key is given."""
    return f"/api/bookings/{booking_id}/receipt.pdf" + (f"?key={key}" if key else "")


def view_url(booking_id: uuid.UUID | str, *, now: datetime | None = None) -> str:
    """`{PUBLIC_URL}/booking-confirmation/{id}?key=...`, in the edition of the language of the
    moment (a mail written in English links to `/en/booking-confirmation/...`)."""
    base = get_settings().public_url.rstrip("/")
    return base + i18n.href(view_path(booking_id, sign_view_key(booking_id, now=now)))
