"""Quote requests from the contact page: validated, stored, and announced to staff through the
notification outbox in the same transaction."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from storefront.models import CONTACT_EVENT_TYPES, ContactMessage, utcnow
from storefront.services import business, outbox, throttle
from storefront.services.errors import ServiceError

EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
LIMITS = {"name": 255, "email": 255, "phone": 64, "message": 5000}
# (messages allowed, window) per address and per email address given.
CONTACT_LIMIT_PER_ADDRESS = (5, timedelta(minutes=10))
CONTACT_LIMIT_PER_EMAIL = (5, timedelta(hours=1))


class ContactError(ServiceError):
    """`details['fields']` maps each bad field to its error code."""


@dataclass(frozen=True)
class ContactRequest:
    name: str
    email: str
    event_type: str
    message: str
    phone: str = ""
    event_date: str = ""  # YYYY-MM-DD or blank
    # Names one filled-in form: sending it again returns the first result (see `submit`).
    submission_key: str = ""


SUBMISSION_KEY_LENGTH = 64


def new_submission_key() -> str:
    """A key for a newly shown form."""
    return secrets.token_urlsafe(24)


def validate(request: ContactRequest, *, today: date) -> dict[str, str]:
    """Field -> error code; empty when the request is good."""
    errors: dict[str, str] = {}
    for field in ("name", "email", "message"):
        value = getattr(request, field).strip()
        if not value:
            errors[field] = "required"
        elif len(value) > LIMITS[field]:
            errors[field] = "too_long"
    if "email" not in errors and not EMAIL_PATTERN.match(request.email.strip()):
        errors["email"] = "invalid"
    if request.event_type not in CONTACT_EVENT_TYPES:
        errors["event_type"] = "required"
    if len(request.phone.strip()) > LIMITS["phone"]:
        errors["phone"] = "too_long"
    if request.event_date.strip():
        try:
            if date.fromisoformat(request.event_date.strip()) < today:
                errors["event_date"] = "past"
        except ValueError:
            errors["event_date"] = "invalid"
    return errors


def _sent_before(session: Session, key: str | None) -> ContactMessage | None:
    if not key:
        return None
    return session.exec(select(ContactMessage).where(ContactMessage.submission_key == key)).first()


def submit(
    request: ContactRequest, *, session: Session, ip: str = "", now: datetime | None = None
) -> ContactMessage:
    """Store the request and its staff notification. A request whose `submission_key` was
    stored already (a double click, a retry) returns that message and writes nothing. Limited
    per address and per email, so nobody can fill the staff's WhatsApp. Codes: invalid
    (`details['fields']`), rate_limited (`details['retry_after']` seconds)."""
    now = now or utcnow()
    key = request.submission_key.strip()[:SUBMISSION_KEY_LENGTH] or None
    if (earlier := _sent_before(session, key)) is not None:
        return earlier
    errors = validate(request, today=now.date())
    if errors:
        raise ContactError("invalid", "Please check the form", fields=errors)
    wait = throttle.take(
        session,
        [
            (f"contact-ip:{ip or 'unknown'}", throttle.Rule(*CONTACT_LIMIT_PER_ADDRESS)),
            (
                f"contact-email:{request.email.strip().lower()}",
                throttle.Rule(*CONTACT_LIMIT_PER_EMAIL),
            ),
        ],
        now=now,
    )
    if wait:
        raise ContactError("rate_limited", "Too many messages", retry_after=wait)
    try:
        with session.begin_nested():
            message = _store(request, key, session=session, now=now)
    except IntegrityError:
        # The same form arrived twice at once and the other copy was stored first.
        if (earlier := _sent_before(session, key)) is not None:
            return earlier
        raise
    return message


def _store(
    request: ContactRequest, key: str | None, *, session: Session, now: datetime
) -> ContactMessage:
    message = ContactMessage(
        name=request.name.strip(),
        email=request.email.strip().lower(),
        phone=request.phone.strip() or None,
        event_type=request.event_type,
        event_date=date.fromisoformat(request.event_date.strip())
        if request.event_date.strip()
        else None,
        message=request.message.strip(),
        submission_key=key,
        created_at=now,
    )
    session.add(message)
    outbox.enqueue(
        session=session,
        channel="whatsapp",
        topic="contact_request",
        recipient=business.staff_whatsapp(session),
        payload={
            "name": message.name,
            "email": message.email,
            "phone": message.phone or "",
            "event_type": message.event_type,
            "event_date": message.event_date.isoformat() if message.event_date else "",
            "message": message.message,
        },
        now=now,
    )
    session.flush()
    return message
