"""What each outbox topic sends, and sending it: the staff WhatsApp webhook (docs/product.md §7's
message
handler) or the customer's email. Messages about a booking are rendered from its rows at send
time, so the outbox row only names the booking.

Topics and their payloads:
- booking_placed (whatsapp): {"booking_id"}; to the staff webhook.
- contact_request (whatsapp): {"name", "email", "phone", "event_type", "event_date", "message"}.
- booking_confirmation (email): {"booking_id"}; with the .ics and the signed booking link.
- booking_status (email): {"booking_id", "status", "by"}; `by` is who set it (the day sheet's
  'On the way' gives the customer that staff member's phone when their profile has one).
- booking_change_staff (whatsapp), booking_change (email): {"booking_id", "change", "before",
  "reconfirm"}; a customer cancelled ("cancelled") or moved ("moved") their own booking
  (services/booking/changes.py); `before` (a move) holds each line's earlier times, `reconfirm`
  that it had been confirmed and waits to be confirmed again.
- booking_paid (email): {"booking_id"}; 'Paid in full, thank you', with the receipt PDF
  (services/payments/receipts.py queues it and draws the PDF: `ATTACHMENTS`).
- booking_weather (email): {"booking_id", "day"}; the weather on `day` (YYYY-MM-DD): a move or a
  cancellation offered (services/operations/weather.py); stale once the booking is cancelled
  or no longer has a line that day.
- mail (email): {"subject", "text", optional "html"}; any other mail (password reset).

The mail cap (MAIL_CAP_PER_RECIPIENT, services/messaging/outbox.py) counts and holds back only
CAPPED_TOPICS: what a stranger can cause by typing someone's address.

Languages (storefront/i18n.py): a customer's mail speaks the language the booking was made in
(`Booking.language`), the staff's WhatsApp messages the staff's (business settings), whatever the
customer's. Their text is written in English and marked `_o()` (the `office` catalog)."""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

import httpx
from sqlalchemy.orm import object_session
from sqlmodel import Session, col, select

from storefront import i18n
from storefront.i18n import N_o, _o, office_ngettext
from storefront.models import Booking, BookingItem, BusinessSettings, User, utcnow
from storefront.models.contact_fields import added_values
from storefront.models.municipalities import shown_name
from storefront.services import dates, fields, money
from storefront.services.business import settings_row as business_settings_row
from storefront.services.errors import ServiceError
from storefront.services.messaging import mail, mail_templates
from storefront.services.messaging.ics import MIME_TYPE, ics_for_booking, mail_method
from storefront.services.messaging.links import view_url
from storefront.services.money import CENT, deposit_due, format_price, format_price_with_unit
from storefront.settings import get_settings

logger = logging.getLogger(__name__)

TOPIC_CHANNELS = {
    "booking_placed": "whatsapp",
    "contact_request": "whatsapp",
    "booking_confirmation": "email",
    "booking_status": "email",
    "booking_change_staff": "whatsapp",
    "booking_change": "email",
    "booking_reminder": "email",
    "staff_digest": "whatsapp",
    "staff_digest_mail": "email",
    "booking_paid": "email",
    "booking_weather": "email",
    "mail": "email",
}
# What a mail attaches that a domain above messaging draws (the domain order forbids importing
# it here): topic -> f(session, booking) -> attachments, registered by that domain when it is
# imported (services/payments/receipts.py: the receipt PDF of `booking_paid`). It may raise
# NotifyError('stale') when the mail is no longer true.
ATTACHMENTS: dict[str, Callable[[Session, Booking], tuple[mail.Attachment, ...]]] = {}
# Mails a stranger can cause by typing someone's address: a new booking's confirmation. Only
# these count toward the mail cap and are held back over it; a mail about an existing booking
# (its change, status, reminder, 'on the way') always goes (issue 33, finding 5). Reset links
# have their own limit per mailbox (services/accounts/password_reset.py).
CAPPED_TOPICS = frozenset({"booking_confirmation"})
# Failures that another attempt cannot mend.
PERMANENT_CODES = {"unknown_topic", "bad_payload", "booking_missing", "invalid_message", "stale"}
ERROR_TEXT_LIMIT = 500


class NotifyError(ServiceError):
    """Codes: unknown_topic, bad_payload, booking_missing (permanent); webhook_failed,
    send_failed (worth another attempt); invalid_message (a mail that cannot be built); stale (a
    reminder of a booking cancelled or moved since: never sent, kept as 'suppressed')."""

    CODES = {
        "bad_payload": "A mail needs a subject and a text",
        "booking_missing": "Booking missing",
        "invalid_message": "Invalid message",
        "send_failed": "Send failed",
        "stale": "No longer due",
        "unknown_topic": "Unknown topic",
        "webhook_failed": "Webhook failed",
    }

    @property
    def permanent(self) -> bool:
        return self.code in PERMANENT_CODES


@dataclass(frozen=True)
class Notification:
    """An outbox row as the sender hands it over, detached from any session."""

    id: uuid.UUID
    channel: str
    topic: str
    recipient: str
    payload: dict[str, Any]
    booking_id: uuid.UUID | None = None
    created_at: datetime | None = None  # when it was queued: how long it may still be retried


@dataclass(frozen=True)
class WebhookMessage:
    template_params: tuple[str, ...]
    customer_phone: str

    def body(self) -> dict[str, Any]:
        return {"templateParams": list(self.template_params), "customerPhone": self.customer_phone}


@dataclass(frozen=True)
class MailMessage:
    to: str
    subject: str
    text: str
    html: str | None = None
    attachments: tuple[mail.Attachment, ...] = field(default_factory=tuple)


Message = WebhookMessage | MailMessage


# Sending


def send(message: Message) -> bool:
    """Raises NotifyError when the message did not go out. True when it was delivered (the
    webhook or an SMTP server took it), False when it was only logged or printed because no
    webhook or mail server is configured (development)."""
    if isinstance(message, WebhookMessage):
        return post_webhook(message)
    try:
        return mail.send_mail(
            to=message.to,
            subject=message.subject,
            text=message.text,
            html=message.html,
            attachments=message.attachments,
        )
    except mail.MailError as exc:
        raise NotifyError(exc.code, exc.message, **exc.details) from exc


def post_webhook(message: WebhookMessage) -> bool:
    """True when the webhook took the message, False when it was only logged (no webhook)."""
    settings = get_settings()
    if not settings.notify_webhook_url:
        if settings.environment == "prod":
            logger.warning("NOTIFY_WEBHOOK_URL is not set: staff messages are logged, not sent")
        logger.info("NOTIFY_WEBHOOK_URL is not set; staff message: %s", message.body())
        return False
    try:
        response = httpx.post(
            settings.notify_webhook_url, json=message.body(), timeout=settings.notify_timeout
        )
    except httpx.HTTPError as exc:
        raise NotifyError("webhook_failed", f"The webhook could not be reached: {exc!r}") from exc
    problem = _webhook_problem(response.status_code, response.text)
    if problem:
        raise NotifyError("webhook_failed", problem)
    return True


def _webhook_problem(status: int, text: str) -> str | None:
    """docs/product.md §7: the answer is read as text, then as JSON that may carry an `error`
    field."""
    try:
        answer = json.loads(text) if text.strip() else None
    except ValueError:
        answer = None
    error = answer.get("error") if isinstance(answer, dict) else None
    if not 200 <= status < 300 or error:
        return f"Webhook answered {status}: {error or text[:ERROR_TEXT_LIMIT]}"
    return None


# Rendering


def render(notification: Notification, *, session: Session) -> Message:
    renderer = RENDERERS.get(notification.topic)
    if renderer is None:
        raise NotifyError("unknown_topic", f"No renderer for topic {notification.topic!r}")
    return renderer(notification, session)


def render_booking_placed(notification: Notification, session: Session) -> WebhookMessage:
    booking, items = _booking(notification, session)
    with i18n.using(_business(session).staff_language):
        return _booking_placed(booking, items)


def _booking_placed(booking: Booking, items: list[BookingItem]) -> WebhookMessage:
    when = dates.local_date(items[0].start_datetime) if items else "-"
    guests = (
        office_ngettext("{count} guest", "{count} guests", booking.guest_count).format(
            count=booking.guest_count
        )
        if booking.guest_count is not None
        else ""
    )
    services = "; ".join(_service_line(item, booking.currency) for item in items)
    if booking.special_requests:
        services += " | " + _o("Special requests: {text}").format(text=booking.special_requests)
    return _webhook(
        [
            booking.reference,
            _joined(customer_name(booking), booking.contact_phone, booking.contact_email),
            _joined(_label(booking.event_type), when, guests, _venue(booking)),
            _total_with_transport(booking),
            services,
        ],
        phone=booking.contact_phone,
    )


def render_contact_request(notification: Notification, session: Session) -> WebhookMessage:
    with i18n.using(_business(session).staff_language):
        return _contact_request(notification.payload)


def _contact_request(p: dict[str, Any]) -> WebhookMessage:
    event_date = dates.display_day(p.get("event_date") or "")
    return _webhook(
        [
            _o("Contact"),
            _joined(p.get("name", ""), p.get("phone", ""), p.get("email", "")),
            _joined(_label(p.get("event_type")), event_date),
            "-",
            p.get("message", ""),
        ],
        phone=p.get("phone") or "",
    )


def _booking_confirmation(
    notification: Notification,
    booking: Booking,
    items: list[BookingItem],
    business: BusinessSettings,
) -> MailMessage:
    subject = _o("Booking {reference} received").format(reference=booking.reference)
    text, html = mail_templates.render(
        "booking_confirmation",
        booking.language,
        subject=subject,
        business=business,
        greeting=_greeting(booking),
        thanks=_o("Thank you for your booking at {business}.").format(
            business=business.business_name
        ),
        payment=payment_due(booking, items),
        view_label=_o("View your booking:"),
        **_booking_words(booking, items),
    )
    return _with_calendar(notification, booking, items, business, subject, text, html)


# A booking's statuses as its mails name them.
STATUS_WORDS = {
    "pending": N_o("pending"),
    "confirmed": N_o("confirmed"),
    "on_the_way": N_o("on the way"),
    "completed": N_o("completed"),
    "cancelled": N_o("cancelled"),
}


# A status mail carries the calendar file when the event's STATUS changes with it.
CALENDAR_STATUSES = ("confirmed", "cancelled")


def render_booking_status(notification: Notification, session: Session) -> MailMessage:
    """A status mail, in the booking's language; 'on the way' names the phone of whoever
    marked it (`by` in the payload, services/admin_bookings.set_status), read now."""
    booking, items = _booking(notification, session)
    business = _business(session)
    code = str(notification.payload.get("status") or booking.status)
    with i18n.using(booking.language):
        if code == "on_the_way":
            phone = _marker_phone(session, notification.payload.get("by")) or business.phone
            return _on_the_way(notification, booking, items, business, phone)
        return _booking_status(notification, booking, items, business)


def _marker_phone(session: Session, user_id: object) -> str:
    """The phone on the profile of the member of staff (or admin) who set the status, as a
    person dials it; '' if none (services/users.update_profile keeps it)."""
    try:
        user = session.get(User, uuid.UUID(str(user_id)))
    except (TypeError, ValueError):
        return ""
    if user is None or user.role not in ("staff", "admin") or not user.phone:
        return ""
    return fields.readable_phone(user.phone)


def _booking_status(
    notification: Notification,
    booking: Booking,
    items: list[BookingItem],
    business: BusinessSettings,
) -> MailMessage:
    code = str(notification.payload.get("status") or booking.status)
    status = _o(STATUS_WORDS[code]) if code in STATUS_WORDS else code.replace("_", " ")
    subject = _o("Booking {reference}: status updated to {status}").format(
        reference=booking.reference, status=status
    )
    text, html = mail_templates.render(
        "booking_status",
        booking.language,
        subject=subject,
        business=business,
        greeting=_greeting(booking),
        headline=_o("Booking status updated to {status}").format(status=status),
        view_line=_o("View your booking: {address}"),
        **_booking_words(booking, items),
    )
    if code in CALENDAR_STATUSES:  # the calendar's event turns CONFIRMED, or is cancelled
        return _with_calendar(notification, booking, items, business, subject, text, html)
    return MailMessage(
        to=notification.recipient,
        subject=subject,
        text=text,
        html=html,
    )


def _on_the_way(
    notification: Notification,
    booking: Booking,
    items: list[BookingItem],
    business: BusinessSettings,
    driver_phone: str,
) -> MailMessage:
    """The short message of the day (the day sheet's 'On the way'): the crew has left, when
    they expect to arrive (by the start of the booking's next service) and the number to call
    them on (`render_booking_status`: the phone of the staff member who marked it, if their
    profile has one, else the business's)."""
    venue = _venue(booking)
    subject = _o("We are on our way: booking {reference}").format(reference=booking.reference)
    text, html = mail_templates.render(
        "booking_on_the_way",
        booking.language,
        subject=subject,
        business=business,
        greeting=_greeting(booking),
        headline=_o("We are on our way to {venue}.").format(venue=venue)
        if venue
        else _o("We are on our way."),
        arrival=_arrival(items, notification.created_at or utcnow()),
        driver=_o("To reach the driver, call {phone}.").format(phone=driver_phone),
        **_booking_words(booking, items),
    )
    return MailMessage(to=notification.recipient, subject=subject, text=text, html=html)


def _arrival(items: Sequence[BookingItem], now: datetime) -> str:
    """When the crew expects to arrive: by the start of the booking's first service that has
    not ended yet (the crew sets up before it), or shortly once that start has passed."""
    running = [item for item in items if item.status != "cancelled" and item.end_datetime > now]
    start = min((item.start_datetime for item in running), default=None)
    if start is None or start <= now:
        return _o("We expect to arrive shortly.")
    if dates.local_date(start) != dates.local_date(now):
        return _o("We expect to arrive by {time} on {day}.").format(
            time=dates.local_time(start), day=dates.local_date(start)
        )
    return _o("We expect to arrive by {time}.").format(time=dates.local_time(start))


def _greeting(booking: Booking) -> str:
    """'Hello Arta,' ('Hello,' without a name), in the language of the moment."""
    name = customer_name(booking)
    return _o("Hello {name},").format(name=name) if name else _o("Hello,")


def _with_calendar(
    notification: Notification,
    booking: Booking,
    items: list[BookingItem],
    business: BusinessSettings,
    subject: str,
    text: str,
    html: str,
) -> MailMessage:
    """A booking's mail with its calendar file attached: an RFC 5546 update of the events a
    calendar took from an earlier one (same UIDs, a higher SEQUENCE), or their cancellation."""
    method = mail_method(booking)
    ics = ics_for_booking(booking, items, business=business, method=method)
    return MailMessage(
        to=notification.recipient,
        subject=subject,
        text=text,
        html=html,
        attachments=((f"booking-{booking.reference}.ics", ics, MIME_TYPE.format(method=method)),),
    )


def _booking_words(booking: Booking, items: Sequence[BookingItem]) -> dict[str, Any]:
    """What every mail about a booking shows (templates/mail/_booking.txt and _macros.html),
    in the language of the moment: the reference and its sentence, the booked lines (`lines`:
    the service, its price as `line_price` writes it, the local date and start time), the
    declared fields shown in mails (`details`: label, value), the total, and the signed link to the booking with its button's words."""
    return {
        "reference_line": _o("Booking reference: {reference}"),  # filled by the template
        "reference": booking.reference,
        "lines": [
            {
                "name": item.service_name,
                "price": line_price(item, booking.currency),
                "when": f"{dates.local_date(item.start_datetime)}, "
                f"{dates.local_time(item.start_datetime)}",
            }
            for item in items
        ],
        "total": _o("Total: {amount}").format(
            amount=format_price(booking.total_amount, booking.currency)
        ),
        # Once something was paid (issue 36): what was and what is left.
        "balance": _balance_words(booking),
        # Its subtotal and transport before the total (issue 36), once it has a municipality.
        "money": _money_lines(booking),
        "view_url": view_url(booking.id),
        "view_button": _o("View your booking"),
        # The declared fields the mails show after the lines, where filled in
        # (services/booking/contact.py).
        "details": [
            {"label": _o(label), "value": value}
            for label, value in added_values(booking, "mail")
            if value
        ],
    }


def _balance_words(booking: Booking) -> str:
    session = object_session(booking)
    paid = money.paid_of(session, [booking.id])[booking.id] if session is not None else 0
    if paid <= 0:
        return ""
    left = max(Decimal(booking.total_amount) - paid, Decimal("0"))
    return _o("Paid: {paid} · Left to pay: {balance}").format(
        paid=format_price(paid, booking.currency), balance=format_price(left, booking.currency)
    )


def _money_lines(booking: Booking) -> list[str]:
    """'Subtotal: 300,00 €' and 'Transport (Gjakovë): 25,00 €', in the language of the moment
    (the municipality by its name in the booking's language); none for a booking without a
    municipality (placed before the transport was)."""
    if not booking.city:
        return []
    transport = Decimal(booking.transport_amount or 0)
    subtotal = Decimal(booking.total_amount) - transport
    return [
        _o("Subtotal: {amount}").format(amount=format_price(subtotal, booking.currency)),
        _o("Transport ({municipality}): {amount}").format(
            municipality=shown_name(booking.city, booking.language),
            amount=format_price(transport, booking.currency),
        ),
    ]


def payment_due(booking: Booking, items: Sequence[BookingItem]) -> str:
    """What is due when, in the language of the moment: with a deposit 'Deposit of 97,50 € by
    04.06.2026 by bank transfer, the rest 227,50 € at the service.', without one 'Pay 325,00 €
    at the service.'"""
    total = Decimal(booking.total_amount)
    deposit = Decimal(booking.deposit_amount or 0)
    if deposit <= 0:
        return _o("Pay {amount} at the service.").format(
            amount=format_price(total, booking.currency)
        )
    first = min((item.start_datetime for item in items), default=None)
    first_day = first.astimezone(dates.business_zone()).date() if first else None
    due = deposit_due(booking.created_at, first_day)
    return _o(
        "Deposit of {deposit} by {date} by bank transfer, the rest {rest} at the service."
    ).format(
        deposit=format_price(deposit, booking.currency),
        date=dates.display_day(due),
        rest=format_price(total - deposit, booking.currency),
    )


def render_mail(notification: Notification, _session: Session) -> MailMessage:
    p = notification.payload
    if not p.get("subject") or not p.get("text"):
        raise NotifyError("bad_payload", "A mail needs a subject and a text")
    return MailMessage(
        to=notification.recipient, subject=p["subject"], text=p["text"], html=p.get("html")
    )


# A customer's own change (services/booking/changes.py): the staff's message and the mail.
CHANGE_WORDS = {
    "cancelled": N_o("Cancelled by the customer"),
    "moved": N_o("Moved by the customer"),
}


def render_booking_change_staff(notification: Notification, session: Session) -> WebhookMessage:
    booking, items = _booking(notification, session)
    with i18n.using(_business(session).staff_language):
        return _booking_change_staff(notification.payload, booking, items)


def _booking_change_staff(
    payload: dict[str, Any], booking: Booking, items: list[BookingItem]
) -> WebhookMessage:
    change = str(payload.get("change") or "")
    what = _o(CHANGE_WORDS[change]) if change in CHANGE_WORDS else change
    if change == "moved":
        what += " | " + _o("Before: {times}").format(times=_earlier_times(payload))
        # A moved booking waits for the business again (services/booking_changes.move_own).
        what += " | " + (
            _o("It was confirmed: now pending, confirm the new time again")
            if payload.get("reconfirm")
            else _o("Pending: confirm the new time")
        )
    return _webhook(
        [
            booking.reference,
            _joined(customer_name(booking), booking.contact_phone, booking.contact_email),
            what,
            format_price(booking.total_amount, booking.currency),
            "; ".join(_service_line(item, booking.currency) for item in items),
        ],
        phone=booking.contact_phone,
    )


def _earlier_times(payload: dict[str, Any]) -> str:
    """A move's earlier times, from its payload: 'Bouncy castle, 10.06.2026 10:00; ...'."""
    shown = []
    for line in payload.get("before") or []:
        try:
            start = datetime.fromisoformat(str(line["start_datetime"]))
        except (KeyError, TypeError, ValueError):
            continue
        shown.append(
            _joined(str(line.get("service_name") or ""), dates.local_date(start))
            + f" {dates.local_time(start)}"
        )
    return "; ".join(shown) or "-"


def _booking_change(
    notification: Notification,
    booking: Booking,
    items: list[BookingItem],
    business: BusinessSettings,
) -> MailMessage:
    moved = notification.payload.get("change") == "moved"
    if moved:
        subject = _o("Booking {reference} moved").format(reference=booking.reference)
        news = _o(
            "Your booking {reference} has been moved, as you asked. We will confirm the new "
            "time soon. Its new times:"
        )
        before = _o("Before: {times}").format(times=_earlier_times(notification.payload))
    else:
        subject = _o("Booking {reference} cancelled").format(reference=booking.reference)
        news = _o("Your booking {reference} has been cancelled, as you asked.")
        before = ""
    text, html = mail_templates.render(
        "booking_change",
        booking.language,
        subject=subject,
        business=business,
        greeting=_greeting(booking),
        news=news.format(reference=booking.reference),
        before=before,
        view_line=_o("View your booking: {address}"),
        **_booking_words(booking, items),
    )
    return _with_calendar(notification, booking, items, business, subject, text, html)


# --- a rainy day (services/operations/weather.py queues it) ---------------------------------------


def render_booking_weather(notification: Notification, session: Session) -> MailMessage:
    """The weather on the booking's day: a move or a cancellation offered, in the booking's
    language. Checked again now: a booking cancelled or moved off that day gets nothing."""
    booking, items = _booking(notification, session)
    items = [item for item in items if item.status != "cancelled"]
    try:
        day = date.fromisoformat(str(notification.payload.get("day") or ""))
    except ValueError as exc:
        raise NotifyError("bad_payload", "A weather mail needs its day") from exc
    zone = dates.business_zone()
    if booking.status not in REMINDED_STATUSES or not any(
        item.start_datetime.astimezone(zone).date() == day for item in items
    ):
        raise NotifyError("stale", f"Booking {booking.reference} was cancelled or moved")
    with i18n.using(booking.language):
        return _booking_weather(notification, booking, items, day, _business(session))


def _booking_weather(
    notification: Notification,
    booking: Booking,
    items: list[BookingItem],
    day: date,
    business: BusinessSettings,
) -> MailMessage:
    shown_day = day.strftime(dates.DATE_FORMAT)
    subject = _o("Booking {reference}: the weather on {day}").format(
        reference=booking.reference, day=shown_day
    )
    text, html = mail_templates.render(
        "booking_weather",
        booking.language,
        subject=subject,
        business=business,
        greeting=_greeting(booking),
        news=_o(
            "The forecast for {day} is rain or strong wind, and inflatables cannot be set up "
            "safely in it. We are sorry: you may move your booking to another day, or cancel it "
            "at no cost."
        ).format(day=shown_day),
        choose=_o("Nothing changes until you choose. Move or cancel it on your booking's page:"),
        move_button=_o("Move or cancel"),
        **_booking_words(booking, items),
    )
    return MailMessage(to=notification.recipient, subject=subject, text=text, html=html)


# --- reminders (services/operations/reminders.py queues them) ---------------------------------------------

# The statuses a reminder still goes to when it is sent.
REMINDED_STATUSES = ("pending", "confirmed")


def render_booking_reminder(notification: Notification, session: Session) -> MailMessage:
    """The customer's reminder, a day before (the lead in business settings). Checked again
    now: a booking cancelled or moved since it was queued gets no stale reminder."""
    booking, items = _booking(notification, session)
    items = [item for item in items if item.status != "cancelled"]
    start = min((item.start_datetime for item in items), default=None)
    queued_for = str(notification.payload.get("start") or "")
    if (
        booking.status not in REMINDED_STATUSES
        or start is None
        or start.astimezone(UTC).isoformat() != queued_for
    ):
        raise NotifyError("stale", f"Booking {booking.reference} was cancelled or moved")
    with i18n.using(booking.language):
        return _booking_reminder(notification, booking, items, start, _business(session))


def _booking_reminder(
    notification: Notification,
    booking: Booking,
    items: list[BookingItem],
    start: datetime,
    business: BusinessSettings,
) -> MailMessage:
    day, time = dates.local_date(start), dates.local_time(start)
    subject = _o("Reminder: booking {reference} on {day} at {time}").format(
        reference=booking.reference, day=day, time=time
    )
    text, html = mail_templates.render(
        "booking_reminder",
        booking.language,
        subject=subject,
        business=business,
        greeting=_greeting(booking),
        reminder=_o("A reminder of your booking at {business}: {day} at {time}.").format(
            business=business.business_name, day=day, time=time
        ),
        where=_o("Where: {venue}").format(venue=_venue(booking) or "-"),
        payment=_o("Payment is collected at the time of service."),
        view_label=_o("View your booking:"),
        **_booking_words(booking, items),
    )
    return MailMessage(to=notification.recipient, subject=subject, text=text, html=html)


def render_staff_digest(notification: Notification, _session: Session) -> WebhookMessage:
    """The staff's WhatsApp digest of tomorrow's jobs, written when it was queued (in the staff
    language, services/operations/reminders.py)."""
    p = notification.payload
    try:
        params = [str(x) for x in p["params"]]
    except (KeyError, TypeError) as exc:
        raise NotifyError("bad_payload", "A digest needs its lines") from exc
    return _webhook(params, phone=notification.recipient)


def render_staff_digest_mail(notification: Notification, _session: Session) -> MailMessage:
    p = notification.payload
    subject, lines = p.get("subject"), p.get("lines")
    if not subject or not isinstance(lines, list):
        raise NotifyError("bad_payload", "A digest needs a subject and lines")
    return MailMessage(
        to=notification.recipient, subject=str(subject), text="\n".join(map(str, lines)) + "\n"
    )


def _to_customer(
    build: Callable[[Notification, Booking, list[BookingItem], BusinessSettings], MailMessage],
) -> Callable[[Notification, Session], MailMessage]:
    """The renderer of a mail about a booking: `build` from its rows, in the booking's language."""

    def render_booking_mail(notification: Notification, session: Session) -> MailMessage:
        booking, items = _booking(notification, session)
        with i18n.using(booking.language):
            return build(notification, booking, items, _business(session))

    return render_booking_mail


def render_booking_paid(notification: Notification, session: Session) -> MailMessage:
    """'Paid in full, thank you', in the booking's language, with the receipt PDF that
    services/payments/receipts.py draws now (stale when the booking is no longer paid)."""
    attach = ATTACHMENTS.get("booking_paid")
    if attach is None:  # the payments domain is not loaded in this process: try again later
        raise NotifyError("send_failed", "The receipt's drawer is not loaded")
    booking, items = _booking(notification, session)
    with i18n.using(booking.language):
        attachments = attach(session, booking)
        message = _booking_paid(notification, booking, items, _business(session))
    return dataclasses.replace(message, attachments=attachments)


def _booking_paid(
    notification: Notification,
    booking: Booking,
    items: list[BookingItem],
    business: BusinessSettings,
) -> MailMessage:
    subject = _o("Booking {reference}: paid in full, thank you").format(reference=booking.reference)
    text, html = mail_templates.render(
        "booking_paid",
        booking.language,
        subject=subject,
        business=business,
        greeting=_greeting(booking),
        headline=_o("Paid in full, thank you"),
        thanks=_o(
            "We have received the full payment of {amount} for your booking. Thank you! "
            "Your receipt is attached to this mail."
        ).format(amount=format_price(booking.total_amount, booking.currency)),
        view_label=_o("View your booking:"),
        **_booking_words(booking, items),
    )
    return MailMessage(to=notification.recipient, subject=subject, text=text, html=html)


RENDERERS: dict[str, Callable[[Notification, Session], Message]] = {
    "booking_placed": render_booking_placed,
    "contact_request": render_contact_request,
    "booking_confirmation": _to_customer(_booking_confirmation),
    "booking_status": render_booking_status,
    "booking_change_staff": render_booking_change_staff,
    "booking_change": _to_customer(_booking_change),
    "booking_reminder": render_booking_reminder,
    "staff_digest": render_staff_digest,
    "staff_digest_mail": render_staff_digest_mail,
    "booking_paid": render_booking_paid,
    "booking_weather": render_booking_weather,
    "mail": render_mail,
}


# Shared rules


def customer_name(booking: Booking) -> str:
    """The stored contact name, else one derived from the email (docs/product.md §3). On one line
    even for
    a row stored before names were checked (services/fields.py): a name never starts a
    paragraph of its own in a mail."""
    name = " ".join((booking.contact_name or "").split())
    return name or name_from_email(booking.contact_email)


def name_from_email(email: str) -> str:
    """'arta.krasniqi_b-x@example.com' -> 'Arta Krasniqi B X'."""
    local = email.partition("@")[0]
    return " ".join(part.capitalize() for part in re.split(r"[._-]+", local) if part)


def with_plus(phone: str) -> str:
    """docs/product.md §7's customerPhone: the number in E.164, as bookings store it; a number
    stored
    before numbers were checked that cannot be read gets a leading '+' if missing."""
    phone = (phone or "").strip()
    if not phone:
        return phone
    e164 = fields.e164_or_none(phone)
    if e164 is not None:
        return e164
    return phone if phone.startswith("+") else f"+{phone}"


def _webhook(params: Sequence[str], *, phone: str) -> WebhookMessage:
    return WebhookMessage(tuple(_template_param(p) for p in params), with_plus(phone))


def _template_param(text: str) -> str:
    """WhatsApp template parameters may hold no line breaks or runs of spaces, nor be empty."""
    return " ".join(str(text or "").split()) or "-"


def _joined(*parts: str | None) -> str:
    return ", ".join(p.strip() for p in parts if p and p.strip())


# Event types as the staff's messages name them (checkout's and the contact form's).
EVENT_WORDS = {
    "wedding": N_o("Wedding"),
    "birthday": N_o("Birthday"),
    "corporate": N_o("Corporate"),
    "anniversary": N_o("Anniversary"),
    "graduation": N_o("Graduation"),
    "baby-shower": N_o("Baby shower"),
    "other": N_o("Other"),
}


def _label(slug: str | None) -> str:
    if slug in EVENT_WORDS:
        return _o(EVENT_WORDS[slug])
    return (slug or "").replace("-", " ").replace("_", " ").capitalize()


def _total_with_transport(booking: Booking) -> str:
    """The staff's total: '325,00 € (transport 25,00 €)'; the total alone without one."""
    total = format_price(booking.total_amount, booking.currency)
    transport = Decimal(booking.transport_amount or 0)
    if not booking.city or transport <= 0:
        return total
    return _o("{total} (transport {transport})").format(
        total=total, transport=format_price(transport, booking.currency)
    )


def _venue(booking: Booking) -> str:
    return _joined(booking.venue_address, booking.city)


def _service_line(item: BookingItem, currency: str) -> str:
    name = item.service_name if item.quantity == 1 else f"{item.service_name} x{item.quantity}"
    start = item.start_datetime
    return _joined(
        name,
        dates.local_date(start),
        dates.local_time(start),
        format_price(item.service_price, currency),
    )


def price_sum(item: BookingItem, currency: str) -> str:
    """A booked line as the mails show it, from what the booking stored: the rate with its
    unit, the hours (per hour) or the quantity, and the line's total, the same way for every
    kind: 'Ice Princess: 599.00 € / h x 2 h = 1,198.00 €', 'White tables 60cm: 7.00 € x 30 =
    210.00 €', 'Pink Castle: 249.99 € / h x 3 h x 2 = 1,499.94 €'. The total is what the
    booking's total counts (service_price, one unit for the booked hours, x quantity)."""
    return f"{item.service_name}: {line_price(item, currency)}"


def line_price(item: BookingItem, currency: str) -> str:
    """`price_sum` without the service's name: '599.00 € / h x 2 h = 1,198.00 €'."""
    total = (Decimal(item.service_price) * item.quantity).quantize(CENT)
    rate = stored_rate(item)
    if item.price_unit == "per_hour":
        factors = f"{format_price_with_unit(rate, item.price_unit, currency)} x "
        factors += _o("{hours} h").format(hours=booked_hours(item))
        if item.quantity != 1:
            factors += f" x {item.quantity}"
    else:
        # Per event the quantity alone multiplies (tables, chairs, packages).
        factors = f"{format_price(rate, currency)} x {item.quantity}"
    return f"{factors} = {format_price(total, currency)}"


def stored_rate(item: BookingItem) -> Decimal:
    """The line's stored rate; a row written without one (a price but no rate) reads it back
    from its price, as migration 0013 did for older rows."""
    rate = Decimal(item.unit_price or 0)
    price = Decimal(item.service_price or 0)
    if rate or not price:
        return rate
    hours = booked_hours(item) if item.price_unit == "per_hour" else 1
    return (price / hours).quantize(CENT)


def booked_hours(item: BookingItem) -> int:
    return max(1, round((item.end_datetime - item.start_datetime) / timedelta(hours=1)))


def _booking(notification: Notification, session: Session) -> tuple[Booking, list[BookingItem]]:
    raw_id = notification.payload.get("booking_id") or notification.booking_id
    try:
        booking_id = uuid.UUID(str(raw_id))
    except ValueError as exc:
        raise NotifyError("bad_payload", f"No booking id in {notification.topic}") from exc
    booking = session.get(Booking, booking_id)
    if booking is None:
        raise NotifyError("booking_missing", f"Booking {booking_id} no longer exists")
    items = session.exec(
        select(BookingItem)
        .where(BookingItem.booking_id == booking_id)
        .order_by(col(BookingItem.start_datetime), col(BookingItem.service_name))
    ).all()
    return booking, list(items)


def _business(session: Session) -> BusinessSettings:
    return business_settings_row(session)
