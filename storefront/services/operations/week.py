"""The back office's week calendar of holding bookings (docs/product.md §2)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from sqlmodel import Session, col, select

from storefront.i18n import N_o, _o
from storefront.models import HOLD_STATUSES, Booking, BookingItem, utcnow
from storefront.services import dates, permissions
from storefront.services.booking.admin import AdminBookingError

# --- the week calendar -----------------------------------------------------------------------

# The days' names in the calendar's head, Monday first (the admin's language, not the server's).
WEEKDAYS = (
    N_o("Mon"),
    N_o("Tue"),
    N_o("Wed"),
    N_o("Thu"),
    N_o("Fri"),
    N_o("Sat"),
    N_o("Sun"),
)


@dataclass(frozen=True)
class CalendarEntry:
    booking_id: str
    reference: str
    status: str
    start: str  # HH:MM local
    end: str  # HH:MM local
    buffer_until: str  # HH:MM local, when the buffer ends ('' without a buffer)
    quantity: int


@dataclass(frozen=True)
class CalendarRow:
    service: str
    days: tuple[tuple[CalendarEntry, ...], ...]  # Monday .. Sunday


@dataclass(frozen=True)
class WeekCalendar:
    monday: date
    days: tuple[str, ...]  # 'Mon 08.06.'
    rows: tuple[CalendarRow, ...]


def week_calendar(*, session: Session, actor_id: object, day: object = None) -> WeekCalendar:
    """Which service is booked when in the local week (Monday first) holding `day` (YYYY-MM-DD,
    today when blank): holding bookings only, with each service's buffer after them."""
    from storefront.models import ServiceCapacity

    permissions.require_staff(session, actor_id, AdminBookingError)
    zone = dates.business_zone()
    picked = dates.typed_day(day) if day else None
    if day and picked is None:
        raise AdminBookingError("invalid_filter", "Bad date", field="day")
    picked = picked or utcnow().astimezone(zone).date()
    monday = picked - timedelta(days=picked.weekday())
    start, end = dates.day_start_utc(monday), dates.day_start_utc(monday + timedelta(days=7))
    rows = session.exec(
        select(BookingItem, Booking.reference, ServiceCapacity.buffer_time_minutes)
        .join(Booking, col(Booking.id) == BookingItem.booking_id)
        .join(
            ServiceCapacity,
            col(ServiceCapacity.service_id) == BookingItem.service_id,
            isouter=True,
        )
        .where(
            BookingItem.start_datetime >= start,
            BookingItem.start_datetime < end,
            col(BookingItem.status).in_(HOLD_STATUSES),
        )
        .order_by(col(BookingItem.start_datetime))
    ).all()
    by_service: dict[str, list[list[CalendarEntry]]] = {}
    for item, reference, buffer in rows:
        local = item.start_datetime.astimezone(zone)
        days = by_service.setdefault(item.service_name, [[] for _ in range(7)])
        buffer_end = item.end_datetime + timedelta(minutes=buffer or 0)
        days[(local.date() - monday).days].append(
            CalendarEntry(
                booking_id=str(item.booking_id),
                reference=reference,
                status=item.status,
                start=dates.local_time(item.start_datetime, zone),
                end=dates.local_time(item.end_datetime, zone),
                buffer_until=dates.local_time(buffer_end, zone) if buffer else "",
                quantity=item.quantity,
            )
        )
    return WeekCalendar(
        monday=monday,
        days=tuple(f"{_o(WEEKDAYS[n])} {monday + timedelta(days=n):%d.%m.}" for n in range(7)),
        rows=tuple(
            CalendarRow(name, tuple(tuple(d) for d in days))
            for name, days in sorted(by_service.items())
        ),
    )
