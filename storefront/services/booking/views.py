"""Bookings as people see them: the confirmation page and the account's orders
(docs/product.md §2). Placing a booking is services/booking/placing.py."""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, select

from storefront import i18n
from storefront.i18n import N_, _
from storefront.models import (
    HOLD_STATUSES,
    Booking,
    BookingItem,
    utcnow,
)
from storefront.models.municipalities import shown_name
from storefront.services import business, dates, permissions
from storefront.services.booking import changes as booking_changes
from storefront.services.booking.contact import event_type_label, fields_for
from storefront.services.messaging import links as booking_links
from storefront.services.messaging.ics import ics_for_booking
from storefront.services.money import CENT, deposit_due, format_price
from storefront.services.payments import ledger
from storefront.settings import get_settings

# A booking's status as a person reads it (the stored code stays as it is).
STATUS_WORDS = {
    "pending": N_("pending"),
    "confirmed": N_("confirmed"),
    "on_the_way": N_("on the way"),
    "completed": N_("completed"),
    "cancelled": N_("cancelled"),
}


def status_words(status: str) -> str:
    """'on_the_way' -> 'on the way', in the language of the moment."""
    words = STATUS_WORDS.get(status)
    return _(words) if words else status.replace("_", " ")


# The statuses whose page still offers the calendar file and says how payment is collected:
# the ones still ahead (those that hold their time, models.bookings.HOLD_STATUSES).
UPCOMING_STATUSES = HOLD_STATUSES


def is_upcoming(status: str) -> bool:
    return status in UPCOMING_STATUSES


@dataclass(frozen=True)
class BookingViewLine:
    service_id: str | None
    service_name: str
    quantity: int
    date: str  # DD.MM.YYYY local
    start_time: str  # HH:MM local
    end_time: str  # HH:MM local
    duration_hours: int
    unit_price: Decimal  # one unit for the booked time
    line_total: Decimal
    line_total_label: str
    status: str


@dataclass(frozen=True)
class BookingView:
    id: str
    reference: str
    status: str
    created_at: str  # DD.MM.YYYY local
    total: Decimal
    total_label: str
    currency: str
    contact_name: str
    contact_email: str
    contact_phone: str
    venue_address: str
    city: str
    state: str
    zip_code: str
    event_type: str
    guest_count: int | None
    special_requests: str
    user_id: str | None
    lines: tuple[BookingViewLine, ...]
    # The declared fields the detail view shows after these (contact.fields_for("detail",
    # added=True)): name -> value.
    extra: dict[str, str] = field(default_factory=dict)
    # What was paid on it and what is left (issue 36); unpaid / part_paid / paid.
    paid: Decimal = Decimal("0.00")
    paid_label: str = ""
    balance: Decimal = Decimal("0.00")
    balance_label: str = ""
    money_state: str = "unpaid"
    # What it owes (issue 36): the lines' subtotal, the transport to its municipality (its
    # name in the language of the moment; '' for a booking placed before the transport was),
    # and what is due when (`due_words`).
    subtotal_label: str = ""
    transport_label: str = ""
    municipality: str = ""
    deposit_label: str = ""
    due: str = ""
    # The weather's offer (issue 37): said while the booking waits for the customer's choice.
    weather: str = ""
    # When the crew marked it set up at the venue (issue 37), local HH:MM; '' until then.
    set_up_at: str = ""


@dataclass(frozen=True)
class BookingSummary:
    """One row of the account's orders list."""

    id: str
    reference: str
    status: str
    created_at: str  # DD.MM.YYYY local
    event_date: str  # DD.MM.YYYY local, the first service's
    total_label: str
    services: str
    changeable: bool  # its customer may still cancel or move it (booking_changes.can_change)
    balance_label: str = ""  # what is left to pay ('' when nothing is)
    money_state: str = "unpaid"


# --- showing --------------------------------------------------------------------------------


def booking_for_view(*, session: Session, booking_id: str | uuid.UUID) -> BookingView | None:
    """The booking as the confirmation page and the account show it; None if there is none.
    Whoever calls decides who may see it (`user_id` is in the view)."""
    try:
        parsed = uuid.UUID(str(booking_id))
    except ValueError:
        return None
    booking = session.get(Booking, parsed)
    if booking is None:
        return None
    zone = ZoneInfo(get_settings().timezone)
    items = session.exec(
        select(BookingItem)
        .where(BookingItem.booking_id == booking.id)
        .order_by(col(BookingItem.start_datetime), col(BookingItem.created_at))
    ).all()
    money = ledger.balance(session, booking)
    return BookingView(
        id=str(booking.id),
        reference=booking.reference,
        status=booking.status,
        created_at=dates.local_date(booking.created_at, zone),
        set_up_at=dates.local_time(booking.set_up_at, zone) if booking.set_up_at else "",
        total=Decimal(booking.total_amount),
        total_label=format_price(booking.total_amount, booking.currency),
        currency=booking.currency,
        contact_name=booking.contact_name or "",
        contact_email=booking.contact_email,
        contact_phone=booking.contact_phone,
        venue_address=booking.venue_address,
        city=booking.city or "",
        state=booking.state or "",
        zip_code=booking.zip_code or "",
        event_type=event_type_label(booking.event_type),
        guest_count=booking.guest_count,
        special_requests=booking.special_requests or "",
        user_id=str(booking.user_id) if booking.user_id else None,
        lines=tuple(_view_line(item, zone, booking.currency) for item in items),
        extra={
            f.name: str(getattr(booking, f.column) or "") for f in fields_for("detail", added=True)
        },
        paid=money.paid,
        paid_label=format_price(money.paid, booking.currency),
        balance=money.balance,
        balance_label=format_price(money.balance, booking.currency),
        money_state=money.state,
        weather=_weather_words(booking, items),
        **_owed_words(booking, items),
    )


WEATHER_OFFER = N_(
    "The forecast for {day} is rain or strong wind, and inflatables cannot be set up safely in "
    "it. You may move this booking to another day or cancel it at no cost; nothing changes "
    "until you choose."
)


def _weather_words(booking: Booking, items: list[BookingItem]) -> str:
    """The weather's offer while it waits (services/operations/weather.py), in the language of
    the moment; '' when none was made or the booking is no longer open."""
    if booking.weather_offered_at is None or booking.status not in ("pending", "confirmed"):
        return ""
    start = min((i.start_datetime for i in items if i.status != "cancelled"), default=None)
    return _(WEATHER_OFFER).format(day=dates.local_date(start)) if start else ""


def _owed_words(booking: Booking, items: list[BookingItem]) -> dict[str, str]:
    """The subtotal, the transport and its municipality, the deposit and `due_words`."""
    transport = Decimal(booking.transport_amount or 0)
    deposit = Decimal(booking.deposit_amount or 0)
    return {
        "subtotal_label": format_price(Decimal(booking.total_amount) - transport, booking.currency),
        "transport_label": format_price(transport, booking.currency) if booking.city else "",
        "municipality": shown_name(booking.city, i18n.language()) if booking.city else "",
        "deposit_label": format_price(deposit, booking.currency) if deposit > 0 else "",
        "due": due_words(booking, items),
    }


DUE_DEPOSIT = N_("Deposit of {deposit} by {date} by bank transfer, the rest {rest} at the service.")
DUE_AT_SERVICE = N_("Pay {amount} at the service.")


def due_words(booking: Booking, items: list[BookingItem]) -> str:
    """What is due when, in the language of the moment (the mails say it in theirs:
    messaging/notify.payment_due): 'Deposit of 97,50 € by 04.06.2026 by bank transfer, the
    rest 227,50 € at the service.' or 'Pay 325,00 € at the service.'"""
    total = Decimal(booking.total_amount)
    deposit = Decimal(booking.deposit_amount or 0)
    if deposit <= 0:
        return _(DUE_AT_SERVICE).format(amount=format_price(total, booking.currency))
    first = min((item.start_datetime for item in items), default=None)
    first_day = first.astimezone(dates.business_zone()).date() if first else None
    return _(DUE_DEPOSIT).format(
        deposit=format_price(deposit, booking.currency),
        date=dates.display_day(deposit_due(booking.created_at, first_day)),
        rest=format_price(total - deposit, booking.currency),
    )


def _view_line(item: BookingItem, zone: ZoneInfo, currency: str) -> BookingViewLine:
    start = item.start_datetime.astimezone(zone)
    end = item.end_datetime.astimezone(zone)
    line_total = (Decimal(item.service_price) * item.quantity).quantize(CENT)
    return BookingViewLine(
        service_id=str(item.service_id) if item.service_id else None,
        service_name=item.service_name,
        quantity=item.quantity,
        date=dates.local_date(start, zone),
        start_time=dates.local_time(start, zone),
        end_time=dates.local_time(end, zone),
        duration_hours=round((item.end_datetime - item.start_datetime) / timedelta(hours=1)),
        unit_price=Decimal(item.service_price),
        line_total=line_total,
        line_total_label=format_price(line_total, currency),
        status=item.status,
    )


def bookings_for_user(
    *, session: Session, user_id: str | uuid.UUID | None, now: datetime | None = None
) -> list[BookingSummary]:
    """A user's own bookings, newest first (nobody else's)."""
    try:
        owner = uuid.UUID(str(user_id))
    except ValueError:
        return []
    bookings = session.exec(
        select(Booking).where(Booking.user_id == owner).order_by(col(Booking.created_at).desc())
    ).all()
    if not bookings:
        return []
    zone = ZoneInfo(get_settings().timezone)
    settings, now = business.settings_row(session), now or utcnow()
    items: dict[uuid.UUID, list[BookingItem]] = defaultdict(list)
    for item in session.exec(
        select(BookingItem)
        .where(col(BookingItem.booking_id).in_([b.id for b in bookings]))
        .order_by(col(BookingItem.start_datetime))
    ).all():
        items[item.booking_id].append(item)
    paid = ledger.paid_of(session, [b.id for b in bookings])
    money = {b.id: ledger.balance_of(b, paid[b.id]) for b in bookings}
    return [
        BookingSummary(
            id=str(b.id),
            reference=b.reference,
            status=b.status,
            created_at=dates.local_date(b.created_at, zone),
            event_date=dates.local_date(items[b.id][0].start_datetime, zone) if items[b.id] else "",
            total_label=format_price(b.total_amount, b.currency),
            services=", ".join(i.service_name for i in items[b.id]),
            changeable=booking_changes.can_change(
                b, booking_changes.first_start(items[b.id]), now=now, settings=settings
            ),
            balance_label=format_price(money[b.id].balance, b.currency)
            if money[b.id].balance > 0
            else "",
            money_state=money[b.id].state,
        )
        for b in bookings
    ]


# --- after the booking ------------------------------------------------------------------------


def viewable_booking(
    *,
    session: Session,
    booking_id: str,
    viewer_id: str = "",
    key: str | None = None,
) -> BookingView | None:
    """The booking for its owner, an admin (the admin check of every admin path: an admin who
    must set up two-factor sign-in first is not one yet), or whoever holds the signed link of
    the confirmation mail; None for anyone else (they see 'not found', not 'forbidden')."""
    view = booking_for_view(session=session, booking_id=booking_id)
    if view is None:
        return None
    owner = bool(viewer_id) and view.user_id == viewer_id
    if owner or booking_links.verify_view_key(view.id, key):
        return view
    if viewer_id and permissions.acts_as_admin(session, viewer_id):
        return view
    return None


def booking_ics(
    *,
    session: Session,
    booking_id: str,
    viewer_id: str = "",
    key: str | None = None,
) -> bytes | None:
    """The booking's calendar file, under the same rule as the confirmation page."""
    view = viewable_booking(session=session, booking_id=booking_id, viewer_id=viewer_id, key=key)
    if view is None:
        return None
    row = session.get(Booking, uuid.UUID(view.id))
    items = session.exec(select(BookingItem).where(BookingItem.booking_id == row.id)).all()
    return ics_for_booking(row, items, business=business.settings_row(session))
