"""The day sheet: what the crew does on one day (docs/product.md §7), for staff and admins.

Every booking with an item that starts that day (pending, confirmed, on its way or completed;
never a cancelled one), in the order the crew leaves: when to leave (the earliest start less
the setup lead of its services, `Service.setup_lead_minutes` or its kind's), what to load, who to
call, where to go, and when to collect what comes back (`comes_back`). Staff set a confirmed
booking on its way on its day and then completed (admin_bookings.set_status, whose one rule the
buttons follow: the customer is told through the outbox) and write notes. Printed, the sheet is
headed with the business's name and the day."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

from sqlmodel import Session, col, select

from storefront.i18n import _o, _s
from storefront.models import (
    Booking,
    BookingItem,
    BookingNote,
    BusinessSettings,
    Service,
    utcnow,
)
from storefront.services import audit, dates, fields, permissions
from storefront.services.booking.admin import AdminBookingError, service_days, staff_statuses
from storefront.services.booking.contact import event_type_label, fields_for
from storefront.services.messaging.notify import customer_name, with_plus
from storefront.services.money import format_price
from storefront.services.operations import delivery
from storefront.services.operations.runs import comes_back, maps_link, setup_lead
from storefront.services.payments import cash, ledger

# The statuses a sheet shows (a cancelled booking is off it).
SHOWN_STATUSES = ("pending", "confirmed", "on_the_way", "completed")
NOTE_MAX = fields.max_length(BookingNote, "text")


@dataclass(frozen=True)
class SheetLine:
    service: str
    quantity: int
    start: str  # HH:MM local
    end: str


@dataclass(frozen=True)
class SheetNote:
    author: str
    written: str  # DD.MM.YYYY HH:MM local
    text: str


@dataclass(frozen=True)
class SheetBooking:
    booking_id: str
    reference: str
    status: str
    start: str  # HH:MM local, the earliest item's
    end: str  # HH:MM local, the latest item's
    leave: str  # HH:MM local: start less the longest setup lead
    customer: str
    phone: str
    phone_link: str  # tel:+383...
    venue: str
    maps_link: str  # opens the address in a maps app ('' without an address)
    guests: str
    event_type: str
    special_requests: str
    lines: list[SheetLine]
    pickup: str  # HH:MM local, when to collect what comes back ('' when nothing does)
    pickup_load: str  # 'Bouncer × 2 · Tables × 8': what comes back
    notes: list[SheetNote]
    # The status buttons the caller may press now (admin_bookings.staff_statuses).
    next_statuses: list[str]
    # The declared fields the sheet shows after the others (contact.fields_for("day_sheet",
    # added=True)): name -> value ('' when left empty).
    details: dict[str, str] = field(default_factory=dict)
    # What is left to collect (issue 36): the balance as typed into 'Collected' ('40.00', '0.00'
    # when paid) and as read ('40,00 €'), what it owed and what was paid.
    balance: str = "0.00"
    balance_label: str = ""
    due_label: str = ""
    paid_label: str = ""
    set_up: str = ""  # proof of delivery, issue 37: 'Set up at 14:05 · received by Besa'


@dataclass(frozen=True)
class DaySheet:
    day: date
    previous: date
    next: date
    bookings: list[SheetBooking]
    business_name: str  # the printout's header
    # What the caller recorded on this day, by method ('Cash: 200,00 €'), and its total.
    mine: list[str] = field(default_factory=list)
    mine_total: str = ""


def _day(value: object, now: datetime | None) -> date:
    if value in (None, ""):
        return dates.today(now)
    picked = dates.typed_day(value)
    if picked is None:
        raise AdminBookingError("invalid_filter", "Bad date", field="day")
    return picked


def day_sheet(
    *, session: Session, actor_id: object, day: object = None, now: datetime | None = None
) -> DaySheet:
    """The sheet of `day` (YYYY-MM-DD or DD.MM.YYYY; today, in the business's zone, when blank)."""
    actor = permissions.require_staff(session, actor_id, AdminBookingError)
    picked = _day(day, now)
    settings = session.get(BusinessSettings, 1) or BusinessSettings()
    mine = cash.my_day(session=session, actor_id=actor.id, day=picked)
    return DaySheet(
        day=picked,
        previous=picked - timedelta(days=1),
        next=picked + timedelta(days=1),
        bookings=jobs(session, picked, now=now),
        business_name=settings.business_name,
        mine=[
            f"{_s(ledger.METHOD_WORDS[method])}: {format_price(amount)}"
            for method, amount in sorted(mine.items())
        ],
        mine_total=format_price(sum(mine.values(), Decimal("0"))) if mine else "",
    )


def jobs(session: Session, day: date, *, now: datetime | None = None) -> list[SheetBooking]:
    """The bookings of `day`'s sheet in the order the crew leaves, each with the statuses staff
    may set at `now` (no caller check: for the sheet above and the staff's digest,
    services/operations/reminders.py)."""
    zone = dates.business_zone()
    today = dates.today(now)
    start, end = dates.day_start_utc(day), dates.day_start_utc(day + timedelta(days=1))
    booking_ids = session.exec(
        select(BookingItem.booking_id)
        .join(Booking, col(Booking.id) == BookingItem.booking_id)
        .where(
            BookingItem.start_datetime >= start,
            BookingItem.start_datetime < end,
            col(Booking.status).in_(SHOWN_STATUSES),
        )
        .distinct()
    ).all()
    sheets = [_sheet(session, zone, booking_id, today) for booking_id in booking_ids]
    sheets.sort(key=lambda s: (s[0], s[1].start, s[1].reference))
    return [sheet for _leave, sheet in sheets]


def _sheet(
    session: Session, zone, booking_id: uuid.UUID, today: date
) -> tuple[datetime, SheetBooking]:
    booking = session.get(Booking, booking_id)
    assert booking is not None
    rows = session.exec(
        select(BookingItem, Service)
        .join(Service, col(Service.id) == BookingItem.service_id, isouter=True)
        .where(BookingItem.booking_id == booking_id, BookingItem.status != "cancelled")
        .order_by(col(BookingItem.start_datetime), col(BookingItem.id))
    ).all()
    items = [item for item, _service in rows]
    leave_at = min(item.start_datetime - setup_lead(service) for item, service in rows)
    back = [(item, service) for item, service in rows if comes_back(service)]
    pickup_at = max((item.end_datetime for item, _service in back), default=None)
    venue = ", ".join(p for p in (booking.venue_address, booking.city) if p)
    phone = fields.readable_phone(booking.contact_phone)
    money = ledger.balance(session, booking)
    notes = session.exec(
        select(BookingNote)
        .where(BookingNote.booking_id == booking_id)
        .order_by(col(BookingNote.created_at))
    ).all()
    sheet = SheetBooking(
        booking_id=str(booking.id),
        reference=booking.reference,
        status=booking.status,
        start=dates.local_time(items[0].start_datetime, zone),
        end=dates.local_time(max(i.end_datetime for i in items), zone),
        leave=dates.local_time(leave_at, zone),
        customer=customer_name(booking),
        phone=phone,
        phone_link="tel:" + with_plus(booking.contact_phone) if booking.contact_phone else "",
        venue=venue,
        maps_link=maps_link(venue),
        guests="" if booking.guest_count is None else str(booking.guest_count),
        event_type=event_type_label(booking.event_type) if booking.event_type else "",
        special_requests=booking.special_requests or "",
        details={
            f.name: str(getattr(booking, f.column) or "")
            for f in fields_for("day_sheet", added=True)
        },
        lines=[
            SheetLine(
                service=item.service_name,
                quantity=item.quantity,
                start=dates.local_time(item.start_datetime, zone),
                end=dates.local_time(item.end_datetime, zone),
            )
            for item in items
        ],
        pickup=dates.local_time(pickup_at, zone) if pickup_at else "",
        pickup_load=" · ".join(f"{item.service_name} × {item.quantity}" for item, _service in back),
        notes=[
            SheetNote(
                author=note.author_name or _o("Someone"),
                written=f"{dates.local_date(note.created_at, zone)} "
                f"{dates.local_time(note.created_at, zone)}",
                text=note.text,
            )
            for note in notes
        ],
        next_statuses=staff_statuses(booking.status, service_days(items, zone), today),
        balance=f"{money.balance:.2f}",
        balance_label=format_price(money.balance, booking.currency),
        due_label=format_price(money.due, booking.currency),
        paid_label=format_price(money.paid, booking.currency),
        set_up=delivery.sheet_line(delivery.set_up_of(booking)),
    )
    return leave_at, sheet


def add_note(
    *,
    session: Session,
    actor_id: object,
    booking_id: object,
    text: object,
    now: datetime | None = None,
) -> SheetNote:
    """Write a note on a booking (staff or admin), audited. Refused when blank or too long
    (fields.FieldError, its message naming the field)."""
    actor = permissions.require_staff(session, actor_id, AdminBookingError)
    try:
        target = uuid.UUID(str(booking_id))
    except ValueError:
        raise AdminBookingError("not_found", "Booking not found") from None
    booking = session.get(Booking, target)
    if booking is None:
        raise AdminBookingError("not_found", "Booking not found")
    written = fields.multi_line(text, _o("Note"), NOTE_MAX, required=True)
    author = " ".join((actor.full_name or "").split()) or actor.email.split("@")[0]
    written_at = now or utcnow()
    note = BookingNote(
        booking_id=booking.id,
        author_id=actor.id,
        author_name=author,
        text=written,
        created_at=written_at,
    )
    session.add(note)
    audit.record(
        session,
        actor_id=actor.id,
        action="booking_note",
        entity_type="booking",
        entity_id=booking.id,
        after={"note": written},
        reference=booking.reference,
    )
    zone = dates.business_zone()
    return SheetNote(
        author=author,
        written=f"{dates.local_date(written_at, zone)} {dates.local_time(written_at, zone)}",
        text=written,
    )
