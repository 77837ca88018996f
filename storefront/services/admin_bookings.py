"""The back office's bookings: the filtered list (and its CSV), one booking's detail, changing
its status, editing it and deleting it (docs/product.md §2, 4, 5; docs/architecture.md §5).

Every write is one transaction that first takes the booking engine's per-service locks
(`services/locks.py`), checks the caller is an admin in the database, re-checks capacity
with the one capacity rule (`availability.fits_capacity`) when the booking holds units, writes
the booking with all its items, and records the change in the audit log. An admin may override
a refusal for capacity only explicitly; the override is logged."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import exists, func, or_
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, col, select

from storefront.models import BOOKING_STATUSES, HOLD_STATUSES, Booking, BookingItem, utcnow
from storefront.services import audit, availability, dates, fields, locks, outbox, permissions
from storefront.services.auth import normalize_email
from storefront.services.booking import (
    EVENT_TYPES,
    MAX_GUESTS,
    BookingView,
    booking_for_view,
)
from storefront.services.errors import ServiceError
from storefront.services.money import CENT, format_price, to_amount
from storefront.services.notify import name_from_email

PER_PAGE = 20
STATUSES = BOOKING_STATUSES  # docs/product.md §4, in the order the status buttons show them
MAX_PER_PAGE = 200
SEARCH_MAX = 100
EXPORT_BATCH = 500
MAX_PRICE = Decimal("1000000")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_REFERENCE = re.compile(r"^MG-[0-9A-F]{8}$")
# The edit form's required fields (docs/product.md §5).
REQUIRED_FIELDS = ("contact_email", "contact_phone", "venue_address")
# The edit form's text fields: the label their messages use and their kind of text
# (services/fields.rule); the limit is the column's.
FIELD_KINDS = {
    "contact_email": ("Email", "email"),
    "contact_phone": ("Phone", "phone"),
    "venue_address": ("Venue address", "line"),
    "special_requests": ("Special requests", "text"),
}
FIELD_LIMITS = {name: fields.max_length(Booking, name) for name in FIELD_KINDS}


class AdminBookingError(ServiceError):
    """Codes: no_user, not_allowed, not_found, invalid_status, invalid_filter,
    invalid (details `fields`: {field: code}, `messages`: {field: message}), over_capacity
    (details `conflicts`: the items that would not fit; `fingerprint`: what an override must
    send back to confirm exactly these; `changed`: an override was sent for conflicts that are
    no longer the ones there are), busy (the lock could not be had in time)."""

    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "busy": "Please try again",
        "invalid": "Please fill in all required fields",
        "invalid_filter": "Cancel by email or by address",
        "invalid_status": "Unknown status",
        "not_found": "Booking not found",
        "over_capacity": "This would overbook",
    }


# --- who may ----------------------------------------------------------------------------------


def _require_admin(session: Session, actor_id: object) -> uuid.UUID:
    return permissions.require_admin(session, actor_id, AdminBookingError).id


def _booking_id(value: object) -> uuid.UUID:
    try:
        return uuid.UUID(str(value)[:64])
    except ValueError:
        raise AdminBookingError("not_found", "Booking not found") from None


# --- the list -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BookingFilter:
    """What the admin narrowed the list to; blank means everything."""

    status: str = ""
    search: str = ""  # an MG- reference, part of an email or a phone number
    date_from: str = ""  # YYYY-MM-DD, local: bookings with a service on or after this day
    date_to: str = ""  # YYYY-MM-DD, local: ... on or before this day


def check_filter(
    *, status: object = "", search: object = "", date_from: object = "", date_to: object = ""
) -> BookingFilter:
    """A filter from what a browser sent, or `invalid_filter`."""
    status = str(status or "").strip().lower()
    if status in ("", "all"):
        status = ""
    elif status not in BOOKING_STATUSES:
        raise AdminBookingError("invalid_filter", "Unknown status", field="status")
    for name, value in (("date_from", date_from), ("date_to", date_to)):
        if value and (not _DAY.match(str(value)) or _parse_day(str(value)) is None):
            raise AdminBookingError("invalid_filter", "Bad date", field=name)
    return BookingFilter(
        status=status,
        search=str(search or "").strip()[:SEARCH_MAX],
        date_from=str(date_from or ""),
        date_to=str(date_to or ""),
    )


def _parse_day(value: str) -> date | None:
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def _day_start_utc(day: date) -> datetime:
    zone = dates.business_zone()
    return datetime.combine(day, datetime.min.time(), tzinfo=zone).astimezone(UTC)


def _where(filters: BookingFilter) -> list[Any]:
    clauses: list[Any] = []
    if filters.status:
        clauses.append(Booking.status == filters.status)
    term = filters.search
    if term:
        upper = term.upper()
        if _REFERENCE.match(upper):
            clauses.append(Booking.reference == upper)
        else:
            options = [
                col(Booking.reference).icontains(term, autoescape=True),
                col(Booking.contact_email).icontains(term, autoescape=True),
                col(Booking.contact_phone).icontains(term, autoescape=True),
            ]
            digits = re.sub(r"\D", "", term)
            if len(digits) >= 3:
                # A number as typed without its spaces or dashes: '044123456' finds '+383 44 ...'
                bare = func.replace(func.replace(col(Booking.contact_phone), " ", ""), "-", "")
                options.append(bare.contains(digits.lstrip("0") or digits, autoescape=True))
            clauses.append(or_(*options))
    if filters.date_from or filters.date_to:
        span = [BookingItem.booking_id == Booking.id]
        if filters.date_from:
            span.append(
                BookingItem.start_datetime >= _day_start_utc(date.fromisoformat(filters.date_from))
            )
        if filters.date_to:
            end = date.fromisoformat(filters.date_to) + timedelta(days=1)
            span.append(BookingItem.start_datetime < _day_start_utc(end))
        clauses.append(exists().where(*span))
    return clauses


@dataclass(frozen=True)
class AdminBookingRow:
    id: str
    short_id: str  # the first 8 characters of the id (docs/product.md §9)
    reference: str
    customer: str  # derived from the email (docs/product.md §3)
    email: str
    phone: str
    event_type: str
    guest_count: int | None
    event_date: str  # DD.MM.YYYY HH:MM local, the first service's start; '' without services
    total: Decimal
    total_label: str
    status: str
    created_at: str  # DD.MM.YYYY HH:MM local


@dataclass(frozen=True)
class BookingPage:
    rows: tuple[AdminBookingRow, ...]
    total: int
    page: int
    pages: int


def _ordered(filters: BookingFilter):
    return (
        select(Booking)
        .where(*_where(filters))
        .order_by(col(Booking.created_at).desc(), col(Booking.id).desc())
    )


def _rows(session: Session, bookings: Sequence[Booking]) -> list[AdminBookingRow]:
    if not bookings:
        return []
    first_start = dict(
        session.exec(
            select(BookingItem.booking_id, func.min(BookingItem.start_datetime))
            .where(col(BookingItem.booking_id).in_([b.id for b in bookings]))
            .group_by(BookingItem.booking_id)
        ).all()
    )
    zone = dates.business_zone()
    result = []
    for b in bookings:
        start = first_start.get(b.id)
        result.append(
            AdminBookingRow(
                id=str(b.id),
                short_id=str(b.id)[:8],
                reference=b.reference,
                customer=name_from_email(b.contact_email),
                email=b.contact_email,
                phone=b.contact_phone,
                event_type=b.event_type or "",
                guest_count=b.guest_count,
                event_date=_moment(start, zone) if start else "",
                total=Decimal(b.total_amount),
                total_label=format_price(b.total_amount, b.currency),
                status=b.status,
                created_at=_moment(b.created_at, zone),
            )
        )
    return result


def _moment(moment: datetime, zone) -> str:
    return f"{dates.local_date(moment, zone)} {dates.local_time(moment, zone)}"


def list_bookings(
    *,
    session: Session,
    actor_id: object,
    filters: BookingFilter = BookingFilter(),
    page: int = 1,
    per_page: int = PER_PAGE,
) -> BookingPage:
    """One page of the bookings the filter keeps, newest first."""
    _require_admin(session, actor_id)
    per_page = max(1, min(int(per_page), MAX_PER_PAGE))
    total = session.exec(select(func.count()).select_from(Booking).where(*_where(filters))).one()
    pages = max(1, -(-total // per_page))
    page = max(1, min(int(page), pages))
    bookings = session.exec(_ordered(filters).offset((page - 1) * per_page).limit(per_page)).all()
    return BookingPage(tuple(_rows(session, bookings)), total, page, pages)


def export_rows(
    *, session: Session, actor_id: object, filters: BookingFilter
) -> Iterator[AdminBookingRow]:
    """Every booking the filter keeps, in the list's order, read in batches (the CSV)."""
    _require_admin(session, actor_id)
    offset = 0
    while True:
        batch = session.exec(_ordered(filters).offset(offset).limit(EXPORT_BATCH)).all()
        yield from _rows(session, batch)
        if len(batch) < EXPORT_BATCH:
            return
        offset += EXPORT_BATCH


CSV_HEADER = (
    "Booking ID",
    "Reference",
    "Customer",
    "Email",
    "Phone",
    "Event Type",
    "Guests",
    "Date",
    "Total",
    "Status",
    "Created At",
)
# A spreadsheet runs a cell that starts with one of these as a formula; their full-width and
# small forms ('＝', '＋', '－', '＠', '﹦', ...) too, which `_formula_start` folds into these.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _formula_start(text: str) -> bool:
    first = text[:1]
    return first.startswith(FORMULA_START) or unicodedata.normalize("NFKC", first).startswith(
        FORMULA_START
    )


def spreadsheet_safe(value: object) -> str:
    """A cell's text that no spreadsheet runs as a formula: a leading `'` when it would."""
    text = "" if value is None else str(value)
    return "'" + text if _formula_start(text) else text


def csv_cells(row: AdminBookingRow) -> list[str]:
    return [
        spreadsheet_safe(v)
        for v in (
            row.short_id,
            row.reference,
            row.customer,
            row.email,
            row.phone,
            row.event_type,
            "" if row.guest_count is None else row.guest_count,
            row.event_date,
            f"{row.total:.2f}",
            row.status,
            row.created_at,
        )
    ]


# --- one booking ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BookingDetail:
    view: BookingView
    customer: str  # derived from the email
    client_address: str  # the visitor's address when it was placed; '' when not recorded


def booking_detail(*, session: Session, actor_id: object, booking_id: object) -> BookingDetail:
    _require_admin(session, actor_id)
    view = booking_for_view(session=session, booking_id=_booking_id(booking_id))
    if view is None:
        raise AdminBookingError("not_found", "Booking not found")
    row = session.get(Booking, uuid.UUID(view.id))
    return BookingDetail(
        view=view,
        customer=name_from_email(view.contact_email),
        client_address=(row.client_address if row else None) or "",
    )


# --- capacity ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Span:
    service_id: uuid.UUID | None
    service_name: str
    start: datetime
    end: datetime
    quantity: int


@dataclass(frozen=True)
class _Conflicts:
    labels: list[str]  # 'Service, DD.MM.YYYY HH:MM' of each span that would not fit
    # A digest of those spans and of every other holding item they meet (booking, times,
    # quantity): what the admin was shown, which an override must send back.
    fingerprint: str


def _conflicts(session: Session, booking_id: uuid.UUID, spans: Sequence[_Span]) -> _Conflicts:
    """The spans that would not fit beside every other holding booking (this one's stored items
    left out, its other spans counted), by the one capacity check (availability.check_in_order,
    capacity alone: an admin may book outside the opening hours), and the fingerprint of what
    they conflict with."""
    zone = dates.business_zone()
    wants = [
        availability.Want(span, span.service_id, span.start, span.end, span.quantity)
        for span in sorted(spans, key=lambda s: s.start)
        if span.service_id is not None
    ]
    refused: list[str] = []
    met: list[list[str]] = []
    for want, _reason in availability.check_in_order(session, wants, exclude_booking=booking_id):
        span = want.key
        rules = availability.load_rules(session=session, service_id=span.service_id)
        refused.append(f"{span.service_name}, {_moment(span.start, zone)}")
        met.extend(_items_met(session, booking_id, span.service_id, span, rules))
    if not refused:
        return _Conflicts([], "")
    shown = json.dumps([refused, sorted(met)])
    return _Conflicts(refused, hashlib.sha256(shown.encode()).hexdigest())


def _items_met(
    session: Session,
    booking_id: uuid.UUID,
    service_id: uuid.UUID,
    span: _Span,
    rules: availability.ServiceCalendar,
) -> list[list[str]]:
    """The other bookings' holding items of the service that `span` meets (with the buffer)."""
    buffer = timedelta(minutes=rules.capacity.buffer_minutes)
    rows = session.exec(
        select(
            BookingItem.booking_id,
            BookingItem.start_datetime,
            BookingItem.end_datetime,
            BookingItem.quantity,
        ).where(
            BookingItem.service_id == service_id,
            BookingItem.booking_id != booking_id,
            col(BookingItem.status).in_(HOLD_STATUSES),
            col(BookingItem.start_datetime) < span.end + buffer,
            col(BookingItem.end_datetime) > span.start - buffer,
        )
    ).all()
    return [[str(b), s.isoformat(), e.isoformat(), str(q)] for b, s, e, q in rows]


def _confirm_override(found: _Conflicts, override: object) -> None:
    """Go ahead only when there is nothing to override, or the override names exactly the
    conflicts there are now (the fingerprint the admin was shown); else `over_capacity` with
    the conflicts of this moment."""
    if found.labels and override != found.fingerprint:
        raise AdminBookingError(
            "over_capacity",
            "This would overbook",
            conflicts=found.labels,
            fingerprint=found.fingerprint,
            changed=isinstance(override, str) and bool(override),
        )


def _locked(session: Session, booking_id: uuid.UUID) -> None:
    """Take the booking engine's locks on this booking's services (sorted), starting the
    transaction every write of this module runs in."""
    session.rollback()
    service_ids = sorted(
        {
            sid
            for sid in session.exec(
                select(BookingItem.service_id).where(BookingItem.booking_id == booking_id)
            ).all()
            if sid is not None
        }
    )
    session.rollback()
    locks.take(session, *map(locks.service, service_ids))


def _in_transaction(session: Session, work):
    try:
        result = work()
        session.commit()
        return result
    except OperationalError as error:
        session.rollback()
        if locks.is_lock_timeout(error):
            raise AdminBookingError("busy", "Please try again") from None
        raise
    except BaseException:
        session.rollback()
        raise


def _items(session: Session, booking_id: uuid.UUID) -> list[BookingItem]:
    return list(
        session.exec(
            select(BookingItem)
            .where(BookingItem.booking_id == booking_id)
            .order_by(col(BookingItem.start_datetime), col(BookingItem.id))
        ).all()
    )


# --- status ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StatusChange:
    status: str
    overridden: tuple[str, ...]  # the conflicts the admin overrode; empty when none


def set_status(
    *,
    session: Session,
    actor_id: object,
    booking_id: object,
    status: object,
    override: str = "",
    now: datetime | None = None,
) -> StatusChange:
    """Set the booking and all its items to `status` (docs/product.md §4), re-checking capacity when
    the
    new status holds units, and mail the customer through the outbox. `override` is the
    fingerprint of the conflicts the admin was shown and confirms (see `_confirm_override`)."""
    status = str(status)
    if status not in BOOKING_STATUSES:
        raise AdminBookingError("invalid_status", "Unknown status")
    target = _booking_id(booking_id)
    now = now or utcnow()

    def work() -> StatusChange:
        actor = _require_admin(session, actor_id)
        booking = session.get(Booking, target)
        if booking is None:
            raise AdminBookingError("not_found", "Booking not found")
        items = _items(session, booking.id)
        conflicts: list[str] = []
        if status in HOLD_STATUSES and status != booking.status:
            spans = [
                _Span(i.service_id, i.service_name, i.start_datetime, i.end_datetime, i.quantity)
                for i in items
            ]
            found = _conflicts(session, booking.id, spans)
            _confirm_override(found, override)
            conflicts = found.labels
        before = booking.status
        booking.status, booking.updated_at = status, now
        session.add(booking)
        for item in items:
            item.status, item.updated_at = status, now
            session.add(item)
        extra = {"override": True, "conflicts": conflicts} if conflicts else {}
        audit.record(
            session,
            actor_id=actor,
            action="booking_status",
            entity_type="booking",
            entity_id=booking.id,
            before={"status": before},
            after={"status": status},
            reference=booking.reference,
            **extra,
        )
        if before != status:
            outbox.enqueue(
                session=session,
                channel="email",
                topic="booking_status",
                recipient=booking.contact_email,
                payload={"booking_id": str(booking.id), "status": status},
                booking_id=booking.id,
                now=now,
            )
        return StatusChange(status, tuple(conflicts))

    _locked(session, target)
    return _in_transaction(session, work)


# --- cancelling a flood ----------------------------------------------------------------------

CANCEL_BY = ("email", "address")


@dataclass(frozen=True)
class PendingFrom:
    by: str  # 'email' or 'address'
    value: str  # the email, or the visitor's address
    references: tuple[str, ...]  # the pending bookings' MG- references


def _source(session: Session, booking_id: object, by: object) -> tuple[Any, str]:
    """The column and value of `booking_id`'s email or visitor address."""
    if by not in CANCEL_BY:
        raise AdminBookingError("invalid_filter", "Cancel by email or by address", field="by")
    found = session.get(Booking, _booking_id(booking_id))
    if found is None:
        raise AdminBookingError("not_found", "Booking not found")
    if by == "email":
        return Booking.contact_email, found.contact_email
    if not found.client_address:
        raise AdminBookingError("not_found", "No address was recorded for this booking")
    return Booking.client_address, found.client_address


def _pending(session: Session, column: Any, value: str) -> list[Booking]:
    return list(
        session.exec(
            select(Booking)
            .where(column == value, Booking.status == "pending")
            .order_by(col(Booking.created_at), col(Booking.id))
        ).all()
    )


def pending_from(
    *, session: Session, actor_id: object, booking_id: object, by: object
) -> PendingFrom:
    """The pending bookings placed with this booking's email or from its visitor address: what
    'Cancel pending from this email / address' would cancel."""
    _require_admin(session, actor_id)
    column, value = _source(session, booking_id, by)
    return PendingFrom(str(by), value, tuple(b.reference for b in _pending(session, column, value)))


def cancel_pending_from(
    *,
    session: Session,
    actor_id: object,
    booking_id: object,
    by: object,
    now: datetime | None = None,
) -> PendingFrom:
    """Cancel, in one transaction under the booking engine's locks, every pending booking (and
    its items) placed with this booking's email or from its visitor address, with one audit
    entry naming the email or address and the bookings. No mail goes out: these are a flood's
    bookings, and their addresses may not be the bookers'."""
    now = now or utcnow()
    session.rollback()
    _require_admin(session, actor_id)
    column, value = _source(session, booking_id, by)
    chosen = {b.id for b in _pending(session, column, value)}
    service_ids = sorted(
        {
            sid
            for sid in session.exec(
                select(BookingItem.service_id).where(col(BookingItem.booking_id).in_(chosen))
            ).all()
            if sid is not None
        }
    )
    session.rollback()
    locks.take(session, *map(locks.service, service_ids))

    def work() -> PendingFrom:
        actor = _require_admin(session, actor_id)
        # Still pending under the lock, and among those whose services were locked.
        bookings = [b for b in _pending(session, column, value) if b.id in chosen]
        for booking in bookings:
            booking.status, booking.updated_at = "cancelled", now
            session.add(booking)
            for item in _items(session, booking.id):
                item.status, item.updated_at = "cancelled", now
                session.add(item)
        references = tuple(b.reference for b in bookings)
        if bookings:
            audit.record(
                session,
                actor_id=actor,
                action="booking_bulk_cancel",
                entity_type="booking",
                entity_id=_booking_id(booking_id),
                before={"status": "pending"},
                after={"status": "cancelled"},
                references=list(references),
                booking_ids=[str(b.id) for b in bookings],
                **{str(by): value},
            )
        return PendingFrom(str(by), value, references)

    return _in_transaction(session, work)


# --- editing -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ItemEdit:
    """One booked service as the edit form sends it."""

    id: str
    service_price: object
    quantity: object
    date: object  # YYYY-MM-DD local
    start_time: object  # HH:MM local
    duration_hours: object


@dataclass(frozen=True)
class BookingEdit:
    contact_email: object
    contact_phone: object
    venue_address: object
    event_type: object
    guest_count: object
    special_requests: object
    items: tuple[ItemEdit, ...] = ()


def _text(value: object) -> str | None:
    return value.strip() if isinstance(value, str) else None


def _check_edit(edit: BookingEdit) -> tuple[dict[str, Any], dict[str, str], dict[str, str]]:
    """The clean values, {field: code} (required, invalid, too_long, not_one_line,
    unprintable, out_of_range) and {field: message}, under the field rules."""
    checked = fields.check(
        {
            name: fields.rule(
                kind,
                getattr(edit, name),
                label,
                FIELD_LIMITS[name],
                required=name in REQUIRED_FIELDS,
            )
            for name, (label, kind) in FIELD_KINDS.items()
        }
    )
    clean, errors = checked.values, checked.codes
    event_type = _text(edit.event_type)
    if event_type is None or event_type.lower() not in EVENT_TYPES:
        errors["event_type"] = "invalid"
    else:
        clean["event_type"] = event_type.lower()
    guests = _integer(edit.guest_count)
    if guests is None:
        errors["guest_count"] = "invalid"
    elif not 1 <= guests <= MAX_GUESTS:
        errors["guest_count"] = "out_of_range"
    else:
        clean["guest_count"] = guests
    return clean, errors, checked.messages


def _integer(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _check_item(index: int, edit: ItemEdit, errors: dict[str, str]) -> dict[str, Any] | None:
    def fail(field: str, code: str = "invalid") -> None:
        errors[f"items.{index}.{field}"] = code

    price = to_amount(edit.service_price, default=Decimal("-1"))
    if not isinstance(edit.service_price, int | float | str | Decimal) or isinstance(
        edit.service_price, bool
    ):
        price = Decimal("-1")
    if not Decimal("0") <= price <= MAX_PRICE:
        fail("service_price")
    quantity = _integer(edit.quantity)
    if quantity is None or not 1 <= quantity <= availability.MAX_QUANTITY:
        fail("quantity")
    hours = _integer(edit.duration_hours)
    if (
        hours is None
        or not availability.MIN_DURATION_HOURS <= hours <= availability.MAX_DURATION_HOURS
    ):
        fail("duration_hours")
    start = None
    try:
        if not _DAY.match(str(edit.date)):
            raise availability.AvailabilityError("invalid_date")
        day = availability.parse_day(str(edit.date))
        clock = availability.parse_clock(str(edit.start_time))
        start = availability.local_to_utc(day, clock, dates.business_zone())
    except availability.AvailabilityError:
        pass
    if start is None:
        fail("date")
    if any(key.startswith(f"items.{index}.") for key in errors):
        return None
    return {
        "service_price": price,
        "quantity": quantity,
        "start": start,
        "end": start + timedelta(hours=hours),
    }


def update_booking(
    *,
    session: Session,
    actor_id: object,
    booking_id: object,
    edit: BookingEdit,
    override: str = "",
    now: datetime | None = None,
) -> None:
    """'Save Changes' (docs/product.md §5): the booking's fields and its services, and the total as
    the sum
    of price x quantity, in one transaction; the new times are re-checked for capacity while
    the booking holds units."""
    clean, errors, messages = _check_edit(edit)
    target = _booking_id(booking_id)
    if not isinstance(edit.items, tuple | list):
        errors["items"] = "invalid"
    items_by_id: dict[str, dict[str, Any]] = {}
    for index, item in enumerate(edit.items if isinstance(edit.items, tuple | list) else ()):
        if not isinstance(item, ItemEdit):
            errors[f"items.{index}"] = "invalid"
            continue
        checked = _check_item(index, item, errors)
        if checked is not None:
            items_by_id[str(item.id)] = checked
    if errors:
        raise AdminBookingError(
            "invalid", "Please fill in all required fields", fields=errors, messages=messages
        )
    now = now or utcnow()

    def work() -> None:
        actor = _require_admin(session, actor_id)
        booking = session.get(Booking, target)
        if booking is None:
            raise AdminBookingError("not_found", "Booking not found")
        items = _items(session, booking.id)
        if set(items_by_id) - {str(i.id) for i in items}:
            raise AdminBookingError("invalid", "Unknown service line", fields={"items": "invalid"})
        before = {"booking": audit.snapshot(booking), "items": [audit.snapshot(i) for i in items]}
        for item in items:
            change = items_by_id.get(str(item.id))
            if change is None:
                continue
            item.service_price = change["service_price"]
            item.quantity = change["quantity"]
            item.start_datetime, item.end_datetime = change["start"], change["end"]
            item.updated_at = now
        conflicts: list[str] = []
        if booking.status in HOLD_STATUSES:
            found = _conflicts(
                session,
                booking.id,
                [
                    _Span(
                        i.service_id, i.service_name, i.start_datetime, i.end_datetime, i.quantity
                    )
                    for i in items
                ],
            )
            _confirm_override(found, override)
            conflicts = found.labels
        booking.contact_email = normalize_email(clean["contact_email"])
        booking.contact_phone = clean["contact_phone"]
        booking.venue_address = clean["venue_address"]
        booking.special_requests = clean["special_requests"] or None
        booking.event_type = clean["event_type"]
        booking.guest_count = clean["guest_count"]
        booking.total_amount = sum(
            (Decimal(i.service_price) * i.quantity for i in items), Decimal("0")
        ).quantize(CENT)
        booking.updated_at = now
        session.add(booking)
        for item in items:
            session.add(item)
        session.flush()
        extra = {"override": True, "conflicts": conflicts} if conflicts else {}
        audit.record(
            session,
            actor_id=actor,
            action="booking_update",
            entity_type="booking",
            entity_id=booking.id,
            before=before,
            after={"booking": audit.snapshot(booking), "items": [audit.snapshot(i) for i in items]},
            reference=booking.reference,
            **extra,
        )

    _locked(session, target)
    _in_transaction(session, work)


def delete_booking(*, session: Session, actor_id: object, booking_id: object) -> None:
    """'Delete Booking': its items, then the booking, with the audit entry, in one transaction."""
    target = _booking_id(booking_id)

    def work() -> None:
        actor = _require_admin(session, actor_id)
        booking = session.get(Booking, target)
        if booking is None:
            raise AdminBookingError("not_found", "Booking not found")
        items = _items(session, booking.id)
        before = {"booking": audit.snapshot(booking), "items": [audit.snapshot(i) for i in items]}
        for item in items:
            session.delete(item)
        session.flush()
        session.delete(booking)
        audit.record(
            session,
            actor_id=actor,
            action="booking_delete",
            entity_type="booking",
            entity_id=target,
            before=before,
            reference=before["booking"]["reference"],
        )

    _locked(session, target)
    _in_transaction(session, work)


@dataclass(frozen=True)
class EditLine:
    id: str
    service_name: str
    service_price: str  # '80.00'
    quantity: int
    date: str  # YYYY-MM-DD local, for a date field
    start_time: str  # HH:MM local
    duration_hours: int


@dataclass(frozen=True)
class EditForm:
    id: str
    reference: str
    status: str
    contact_email: str
    contact_phone: str
    venue_address: str
    event_type: str
    guest_count: int
    special_requests: str
    lines: tuple[EditLine, ...]


def edit_form(*, session: Session, actor_id: object, booking_id: object) -> EditForm:
    """The booking as the edit form fills its fields."""
    _require_admin(session, actor_id)
    found = session.get(Booking, _booking_id(booking_id))
    if found is None:
        raise AdminBookingError("not_found", "Booking not found")
    zone = dates.business_zone()
    return EditForm(
        id=str(found.id),
        reference=found.reference,
        status=found.status,
        contact_email=found.contact_email,
        contact_phone=found.contact_phone,
        venue_address=found.venue_address,
        event_type=found.event_type if found.event_type in EVENT_TYPES else "other",
        guest_count=found.guest_count or 1,
        special_requests=found.special_requests or "",
        lines=tuple(
            EditLine(
                id=str(item.id),
                service_name=item.service_name,
                service_price=f"{Decimal(item.service_price):.2f}",
                quantity=item.quantity,
                date=item.start_datetime.astimezone(zone).date().isoformat(),
                start_time=dates.local_time(item.start_datetime, zone),
                duration_hours=max(
                    1, round((item.end_datetime - item.start_datetime) / timedelta(hours=1))
                ),
            )
            for item in _items(session, found.id)
        ),
    )


# --- the week calendar -----------------------------------------------------------------------


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

    _require_admin(session, actor_id)
    zone = dates.business_zone()
    picked = _parse_day(str(day)) if day else None
    if day and picked is None:
        raise AdminBookingError("invalid_filter", "Bad date", field="day")
    picked = picked or utcnow().astimezone(zone).date()
    monday = picked - timedelta(days=picked.weekday())
    start, end = _day_start_utc(monday), _day_start_utc(monday + timedelta(days=7))
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
        days=tuple((monday + timedelta(days=n)).strftime("%a %d.%m.") for n in range(7)),
        rows=tuple(
            CalendarRow(name, tuple(tuple(d) for d in days))
            for name, days in sorted(by_service.items())
        ),
    )
