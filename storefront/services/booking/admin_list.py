"""The back office's list of bookings: the filters, the page of rows, the CSV export and one
booking's detail (docs/product.md §2). Changes to a booking are services/booking/admin.py; the
week calendar is services/operations/week.py."""

from __future__ import annotations

import re
import unicodedata
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import exists, func, or_
from sqlmodel import Session, col, select

from storefront.models import BOOKING_STATUSES, Booking, BookingItem
from storefront.services import dates, fields, paging, permissions
from storefront.services.booking.admin import (
    AdminBookingError,
    _booking_id,
    _moment,
    undo_target,
)
from storefront.services.booking.contact import added_values, event_type_label, fields_for
from storefront.services.booking.views import BookingView, booking_for_view
from storefront.services.messaging.notify import customer_name
from storefront.services.money import format_price
from storefront.services.payments import ledger

PER_PAGE = 20
STATUSES = BOOKING_STATUSES  # docs/product.md §4, in the order the status buttons show them
MAX_PER_PAGE = 200
SEARCH_MAX = 100
EXPORT_BATCH = 500
_REFERENCE = re.compile(r"^MG-[0-9A-F]{8}$")


# --- the list -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BookingFilter:
    """What the admin narrowed the list to; blank means everything."""

    status: str = ""
    search: str = ""  # an MG- reference, part of an email or a phone number
    date_from: str = ""  # YYYY-MM-DD, local: bookings with a service on or after this day
    date_to: str = ""  # YYYY-MM-DD, local: ... on or before this day
    payment: str = ""  # one of ledger.PAYMENT_STATES: unpaid, part_paid, paid


def check_filter(
    *,
    status: object = "",
    search: object = "",
    date_from: object = "",
    date_to: object = "",
    payment: object = "",
) -> BookingFilter:
    """A filter from what a browser sent, or `invalid_filter`."""
    status = str(status or "").strip().lower()
    if status in ("", "all"):
        status = ""
    elif status not in BOOKING_STATUSES:
        raise AdminBookingError("invalid_filter", "Unknown status", field="status")
    try:
        first, last = dates.typed_days(date_from, date_to)
    except ValueError as bad:
        raise AdminBookingError("invalid_filter", "Bad date", field=str(bad)) from None
    payment = str(payment or "").strip().lower()
    if payment in ("", "all"):
        payment = ""
    elif payment not in ledger.PAYMENT_STATES:
        raise AdminBookingError("invalid_filter", "Unknown payment state", field="payment")
    return BookingFilter(
        status=status,
        search=str(search or "").strip()[:SEARCH_MAX],
        date_from=first.isoformat() if first else "",
        date_to=last.isoformat() if last else "",
        payment=payment,
    )


def _where(filters: BookingFilter) -> list[Any]:
    clauses: list[Any] = []
    if filters.status:
        clauses.append(Booking.status == filters.status)
    if filters.payment:
        clauses.append(ledger.state_clause(filters.payment))
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
        first, last = (
            date.fromisoformat(d) if d else None for d in (filters.date_from, filters.date_to)
        )
        span = dates.within_days(BookingItem.start_datetime, first, last)
        clauses.append(exists().where(BookingItem.booking_id == Booking.id, *span))
    return clauses


@dataclass(frozen=True)
class AdminBookingRow:
    id: str
    short_id: str  # the first 8 characters of the id (docs/product.md §9)
    reference: str
    customer: str  # as typed, else derived from the email (docs/product.md §3)
    email: str
    phone: str
    event_type: str
    guest_count: int | None
    event_date: str  # DD.MM.YYYY HH:MM local, the first service's start; '' without services
    total: Decimal
    total_label: str
    status: str
    created_at: str  # DD.MM.YYYY HH:MM local
    # For the CSV: what was booked, one line per service in the order of their start, and where.
    services: tuple[str, ...] = ()  # 'Bouncy castle × 2, 10.06.2026 10:00-12:00'
    venue_address: str = ""
    city: str = ""
    zip_code: str = ""
    special_requests: str = ""
    # What it owes besides its lines (issue 36): the transport to its municipality (in the
    # total) and the deposit asked before the day.
    transport: Decimal = Decimal("0")
    deposit: Decimal = Decimal("0")
    # The declared fields the CSV writes after these (contact.fields_for("csv", added=True)).
    extra: tuple[str, ...] = ()
    # Its money (issue 36): what was paid, the balance, and unpaid / part_paid / paid.
    paid: Decimal = Decimal("0.00")
    balance: Decimal = Decimal("0.00")
    balance_label: str = ""
    money_state: str = ""


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


def _service_line(item: BookingItem, zone) -> str:
    """One booked service as the CSV writes it: 'Bouncy castle × 2, 10.06.2026 10:00-12:00'."""
    start, end = item.start_datetime, item.end_datetime
    return (
        f"{item.service_name} \u00d7 {item.quantity}, {dates.local_date(start, zone)} "
        f"{dates.local_time(start, zone)}-{dates.local_time(end, zone)}"
    )


def _rows(session: Session, bookings: Sequence[Booking]) -> list[AdminBookingRow]:
    if not bookings:
        return []
    zone = dates.business_zone()
    lines: dict[uuid.UUID, list[BookingItem]] = {}
    for item in session.exec(
        select(BookingItem)
        .where(col(BookingItem.booking_id).in_([b.id for b in bookings]))
        .order_by(col(BookingItem.start_datetime), col(BookingItem.id))
    ).all():
        lines.setdefault(item.booking_id, []).append(item)
    paid = ledger.paid_of(session, [b.id for b in bookings])
    result = []
    for b in bookings:
        items = lines.get(b.id, [])
        money = ledger.balance_of(b, paid[b.id])
        start = items[0].start_datetime if items else None
        result.append(
            AdminBookingRow(
                id=str(b.id),
                short_id=str(b.id)[:8],
                reference=b.reference,
                customer=customer_name(b),
                email=b.contact_email,
                phone=b.contact_phone,
                event_type=event_type_label(b.event_type),
                guest_count=b.guest_count,
                event_date=_moment(start, zone) if start else "",
                total=Decimal(b.total_amount),
                total_label=format_price(b.total_amount, b.currency),
                status=b.status,
                created_at=_moment(b.created_at, zone),
                services=tuple(_service_line(i, zone) for i in items),
                venue_address=b.venue_address or "",
                city=b.city or "",
                zip_code=b.zip_code or "",
                special_requests=b.special_requests or "",
                transport=Decimal(b.transport_amount or 0),
                deposit=Decimal(b.deposit_amount or 0),
                extra=tuple(value for _label, value in added_values(b, "csv")),
                paid=money.paid,
                balance=money.balance,
                balance_label=format_price(money.balance, b.currency),
                money_state=money.state,
            )
        )
    return result


def list_bookings(
    *,
    session: Session,
    actor_id: object,
    filters: BookingFilter = BookingFilter(),
    page: int = 1,
    per_page: int = PER_PAGE,
) -> BookingPage:
    """One page of the bookings the filter keeps, newest first."""
    permissions.require_admin(session, actor_id, AdminBookingError)
    total = session.exec(select(func.count()).select_from(Booking).where(*_where(filters))).one()
    shown = paging.window(total=total, page=page, per_page=per_page, most=MAX_PER_PAGE)
    bookings = session.exec(shown.of(_ordered(filters))).all()
    return BookingPage(tuple(_rows(session, bookings)), total, shown.page, shown.pages)


def export_rows(
    *, session: Session, actor_id: object, filters: BookingFilter
) -> Iterator[AdminBookingRow]:
    """Every booking the filter keeps, in the list's order, read in batches (the CSV)."""
    permissions.require_admin(session, actor_id, AdminBookingError)
    offset = 0
    while True:
        batch = session.exec(_ordered(filters).offset(offset).limit(EXPORT_BATCH)).all()
        yield from _rows(session, batch)
        if len(batch) < EXPORT_BATCH:
            return
        offset += EXPORT_BATCH


# The columns a spreadsheet that read earlier exports finds where it did; what was booked and
# where follow (issue 34): one row per booking, its services in one cell.
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
    "Services",
    "Venue Address",
    "City",
    "ZIP Code",
    "Special Requests",
    # What it owes besides its lines (issue 36): the transport (in the total), the deposit.
    "Transport",
    "Deposit",
    # then the declared fields no screen lays out by hand, headed by their words in English
    *(f.label for f in fields_for("csv", added=True)),
    # then its money (issue 36)
    "Paid",
    "Balance",
)
# The services of a booking in their one cell.
CSV_LINES_JOINED = "; "
# A spreadsheet runs a cell that starts with one of these as a formula; their full-width and
# small forms ('＝', '＋', '－', '＠', '﹦', ...) too, which `_formula_start` folds into these.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# A phone number as the CSV writes it (`fields.readable_phone`: '+383 44 123 456'): a '+', the
# country code, then groups of digits (and dashes) after spaces. It starts with '+', yet holds
# no letter, so no function, reference or DDE call a spreadsheet could run, and the spaces make
# it neither a number nor a formula one could compute: every spreadsheet shows it as written.
# So it is written as it is; a `'` before it would show in the cell (issue 34).
PLAIN_PHONE = re.compile(r"^\+\d{1,3}(?: [0-9-]+)+$")


def _formula_start(text: str) -> bool:
    first = text[:1]
    return first.startswith(FORMULA_START) or unicodedata.normalize("NFKC", first).startswith(
        FORMULA_START
    )


def spreadsheet_safe(value: object) -> str:
    """A cell's text that no spreadsheet runs as a formula: a leading `'` when it would (the
    one way every spreadsheet reads as 'this is text'); anything else, a phone number written
    as people write it among them (`PLAIN_PHONE`), as it is."""
    text = "" if value is None else str(value)
    if PLAIN_PHONE.match(text):
        return text
    return "'" + text if _formula_start(text) else text


def csv_cells(row: AdminBookingRow) -> list[str]:
    return [
        spreadsheet_safe(v)
        for v in (
            row.short_id,
            row.reference,
            row.customer,
            row.email,
            fields.readable_phone(row.phone),
            row.event_type,
            "" if row.guest_count is None else row.guest_count,
            row.event_date,
            f"{row.total:.2f}",
            row.status,
            row.created_at,
            CSV_LINES_JOINED.join(row.services),
            row.venue_address,
            row.city,
            row.zip_code,
            row.special_requests,
            f"{row.transport:.2f}",
            f"{row.deposit:.2f}",
            *row.extra,
            f"{row.paid:.2f}",
            f"{row.balance:.2f}",
        )
    ]


# --- one booking ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BookingDetail:
    view: BookingView
    customer: str  # as typed, else derived from the email
    client_address: str  # the visitor's address when it was placed; '' when not recorded
    undo_to: str = ""  # the status 'Undo' sets it back to; '' when there is nothing to undo


def booking_detail(*, session: Session, actor_id: object, booking_id: object) -> BookingDetail:
    permissions.require_admin(session, actor_id, AdminBookingError)
    view = booking_for_view(session=session, booking_id=_booking_id(booking_id))
    if view is None:
        raise AdminBookingError("not_found", "Booking not found")
    row = session.get(Booking, uuid.UUID(view.id))
    return BookingDetail(
        view=view,
        customer=customer_name(row) if row else view.contact_name or view.contact_email,
        client_address=(row.client_address if row else None) or "",
        undo_to=undo_target(session, row) if row else "",
    )
