"""Quote requests from the contact page: validated, stored, and announced to staff through the
notification outbox in the same transaction."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from storefront.i18n import N_, _
from storefront.models import CONTACT_EVENT_TYPES, ContactMessage, utcnow
from storefront.services import business, dates, fields, throttle
from storefront.services.errors import ServiceError
from storefront.services.messaging import outbox

# Each text field: its label, its kind of text (services/fields.rule) and whether it is
# required; its limit is the column's (models.ContactMessage).
TEXT_FIELDS = {
    "name": (N_("Name"), "line", True),
    "email": (N_("Email"), "email", True),
    "phone": (N_("Phone number"), "phone", False),
    "message": (N_("Message"), "text", True),
}
LIMITS = {name: fields.max_length(ContactMessage, name) for name in TEXT_FIELDS}
# (messages allowed, window) per address (an IPv6 /64) and per mailbox given.
CONTACT_LIMIT_PER_ADDRESS = (5, timedelta(minutes=10))
CONTACT_LIMIT_PER_EMAIL = (5, timedelta(hours=1))


class ContactError(ServiceError):
    """`details['fields']` maps each bad field to its error code, `details['messages']` to its
    message."""

    CODES = {
        "invalid": "Please check the form",
        "rate_limited": "Too many messages",
    }


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


def check(request: ContactRequest, *, today: date) -> fields.Checked:
    """The request under the field rules: clean values (the email normalised, the phone in
    E.164 or blank) and each refused field's code and message."""
    checked = fields.check(
        {
            name: fields.rule(
                kind, getattr(request, name), _(label), LIMITS[name], required=required
            )
            for name, (label, kind, required) in TEXT_FIELDS.items()
        }
    )
    if request.event_type not in CONTACT_EVENT_TYPES:
        checked.refuse("event_type", "required", _("Please choose an event type"))
    day = str(request.event_date or "").strip()
    if day:
        event_date = dates.typed_day(day)
        if event_date is None:
            checked.refuse("event_date", "invalid", _("The event date is invalid"))
        else:
            checked.values["event_date"] = event_date
            if event_date < today:
                checked.refuse("event_date", "past", _("The event date cannot be in the past"))
    return checked


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
    checked = check(request, today=dates.today(now))
    if checked.codes:
        raise ContactError(
            "invalid", "Please check the form", fields=checked.codes, messages=checked.messages
        )
    wait = throttle.take(
        session,
        [
            (throttle.per_address("contact-ip", ip), throttle.Rule(*CONTACT_LIMIT_PER_ADDRESS)),
            (
                throttle.per_mailbox("contact-email", checked.values["email"]),
                throttle.Rule(*CONTACT_LIMIT_PER_EMAIL),
            ),
        ],
        now=now,
    )
    if wait:
        raise ContactError("rate_limited", "Too many messages", retry_after=wait)
    try:
        with session.begin_nested():
            message = _store(request, checked.values, key, session=session, now=now)
    except IntegrityError:
        # The same form arrived twice at once and the other copy was stored first.
        if (earlier := _sent_before(session, key)) is not None:
            return earlier
        raise
    return message


def _store(
    request: ContactRequest,
    clean: dict,
    key: str | None,
    *,
    session: Session,
    now: datetime,
) -> ContactMessage:
    message = ContactMessage(
        name=clean["name"],
        email=clean["email"],
        phone=clean["phone"] or None,
        event_type=request.event_type,
        event_date=clean.get("event_date"),
        message=clean["message"],
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
