"""The owner's reports (issue 36, item 6; docs/payments.md 'Reports'): for one month, booked and
collected revenue by category and by service, utilisation per service, cancellations, and, as of
now, the balances still unpaid after the event.

Every figure is an aggregate query (GROUP BY) over the month's rows, never a loop over bookings
in Python: at 10,000 bookings each report answers in well under 300 ms on PostgreSQL
(`bench/reports.py`). Money is `Decimal` throughout, quantized to cents once summed.

- Booked: the lines of bookings that are not cancelled, by the month of the line's start (local
  time), each line's total being its price x quantity (transport is not a line).
- Collected: the payments recorded in the month, reversals subtracted. A payment is spread over
  its booking's lines in proportion to their totals (over lines + transport); the share of
  transport, and whatever cannot be spread (a booking without lines), is the row 'Transport and
  other', so the rows always add up to what was collected.
- Utilisation: booked unit-hours (quantity x hours of the month's lines that are not cancelled)
  over open unit-hours (each day's opening hours as availability shows them, none on a blocked
  day, times the service's units).
- Cancellations: the month's bookings (by their first line's start) and how many were cancelled.
- Unpaid after the event: bookings not cancelled whose last line has ended and whose total is
  more than what was paid on them; oldest event first.

    report = reports.monthly_report(session=s, actor_id=admin, month="2026-11")
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import Integer, Numeric, and_, case, cast, func, type_coerce
from sqlmodel import Session, col, select

from storefront.i18n import N_o, _o
from storefront.models import (
    BlockedDate,
    Booking,
    BookingItem,
    Payment,
    Service,
    ServiceAvailability,
    ServiceCapacity,
    ServiceCategory,
    utcnow,
)
from storefront.services import dates, permissions
from storefront.services.booking import availability
from storefront.services.errors import ServiceError
from storefront.services.money import CENT

ZERO = Decimal("0.00")
TENTH = Decimal("0.1")
HOURS = Decimal("0.01")  # unit-hours are shown with two decimals at most
# The screen lists the oldest this many unpaid bookings (the count and the sum are of all of
# them; the CSV has every row).
UNPAID_SHOWN = 200
# The row of collected money that no line takes: transport, and a booking without lines.
OTHER_KEY = "other"
NO_CATEGORY_KEY = "none"
NO_CATEGORY = N_o("No category")
TRANSPORT_AND_OTHER = N_o("Transport and other")
# The tables an admin may download (`table_rows`), as the CSV's address names them.
TABLES = ("revenue_by_category", "revenue_by_service", "utilisation", "cancellations", "unpaid")


class ReportError(ServiceError):
    """Codes: the admin check's, invalid_month, invalid_table."""

    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "invalid_month": "No such month",
        "invalid_table": "No such report",
    }


# --- the month -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Month:
    year: int
    month: int

    @property
    def key(self) -> str:
        """'2026-11': how the screen and the CSV's address name it."""
        return f"{self.year:04d}-{self.month:02d}"

    @property
    def first(self) -> date:
        return date(self.year, self.month, 1)

    @property
    def next_first(self) -> date:
        return date(self.year + self.month // 12, self.month % 12 + 1, 1)

    @property
    def days(self) -> list[date]:
        count = (self.next_first - self.first).days
        return [self.first + timedelta(days=n) for n in range(count)]

    @property
    def start_utc(self) -> datetime:
        """The month's first moment, local time, in UTC."""
        return dates.day_start_utc(self.first)

    @property
    def end_utc(self) -> datetime:
        return dates.day_start_utc(self.next_first)

    def shifted(self, step: int) -> Month:
        index = self.year * 12 + self.month - 1 + step
        return Month(index // 12, index % 12 + 1)

    def label(self) -> str:
        """'Nëntor 2026' / 'November 2026', in the language of the moment."""
        return f"{dates.month_name(self.month)} {self.year}"


def parse_month(value: object, *, now: datetime | None = None) -> Month:
    """'2026-11' as a Month; blank: this month (local time); anything else ReportError."""
    text = str(value or "").strip()
    if not text:
        today = dates.today(now)
        return Month(today.year, today.month)
    try:
        year_text, month_text = text.split("-")
        if len(year_text) != 4 or len(month_text) != 2:
            raise ValueError(text)
        year, month = int(year_text), int(month_text)
    except ValueError:
        raise ReportError("invalid_month") from None
    if not (2000 <= year <= 2999 and 1 <= month <= 12):
        raise ReportError("invalid_month")
    return Month(year, month)


def shift_month(value: object, step: int, *, now: datetime | None = None) -> str:
    """The key of the month `step` months from `value` ('' is this month)."""
    return parse_month(value, now=now).shifted(step).key


# --- the shapes --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RevenueRow:
    """One category's or one service's booked and collected money in the month."""

    key: str
    name: str
    category: str  # the service's category ('' on a category's row)
    booked: Decimal
    collected: Decimal


@dataclass(frozen=True)
class Revenue:
    by_category: tuple[RevenueRow, ...]
    by_service: tuple[RevenueRow, ...]
    booked: Decimal
    collected: Decimal


@dataclass(frozen=True)
class UtilisationRow:
    service_id: str
    service: str
    units: int
    booked_hours: Decimal  # unit-hours
    open_hours: Decimal  # unit-hours
    share: Decimal | None  # percent, one decimal; None when the service was never open


@dataclass(frozen=True)
class Cancellations:
    bookings: int
    cancelled: int
    share: Decimal | None  # percent, one decimal; None without bookings
    cancelled_value: Decimal  # the cancelled bookings' totals


@dataclass(frozen=True)
class UnpaidRow:
    booking_id: str
    reference: str
    customer: str
    event_day: date  # the first line's local day
    ended: date  # the last line's local day
    total: Decimal
    paid: Decimal
    balance: Decimal
    days: int  # days since the event ended


@dataclass(frozen=True)
class Unpaid:
    rows: tuple[UnpaidRow, ...]  # oldest event first; at most `limit` of them
    count: int  # all of them
    balance: Decimal  # the sum of all their balances


@dataclass(frozen=True)
class Report:
    month: Month
    revenue: Revenue
    utilisation: tuple[UtilisationRow, ...]
    cancellations: Cancellations
    unpaid: Unpaid


# --- the queries --------------------------------------------------------------------------------


def _money(value: object) -> Decimal:
    if value is None:
        return ZERO
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def _percent(part: Decimal, whole: Decimal) -> Decimal | None:
    if whole <= 0:
        return None
    return (Decimal(part) * 100 / Decimal(whole)).quantize(TENTH, rounding=ROUND_HALF_UP)


def _in_month(column, month: Month):
    return and_(column >= month.start_utc, column < month.end_utc)


def _seconds(session: Session, start, end):
    """SQL for the seconds from `start` to `end` (two timestamp columns), as an exact number."""
    if session.get_bind().dialect.name == "postgresql":
        return func.extract("epoch", end - start)
    # SQLite keeps UTC as 'YYYY-MM-DD HH:MM:SS[.ffffff]': whole seconds since 1970.
    return cast(func.strftime("%s", end), Integer) - cast(func.strftime("%s", start), Integer)


def _line_total():
    return BookingItem.service_price * BookingItem.quantity


_SERVICE_NAME_IF_GONE = case(
    (col(BookingItem.service_id).is_(None), BookingItem.service_name), else_=None
)


def _service_key(service_id: object, gone_name: str | None) -> str:
    return str(service_id) if service_id is not None else f"gone:{gone_name or ''}"


def _grouped_by_service(query):
    """`query` (over booking_items) with the service and its category, grouped by them: one row
    per service, and one per name of a service since deleted."""
    return (
        query.outerjoin(Service, col(Service.id) == BookingItem.service_id)
        .outerjoin(ServiceCategory, col(ServiceCategory.id) == Service.category_id)
        .group_by(
            BookingItem.service_id,
            Service.title,
            _SERVICE_NAME_IF_GONE,
            ServiceCategory.id,
            ServiceCategory.name,
        )
    )


_SERVICE_COLUMNS = (
    BookingItem.service_id,
    Service.title,
    _SERVICE_NAME_IF_GONE,
    ServiceCategory.id,
    ServiceCategory.name,
)


@dataclass
class _Cell:
    name: str
    category_key: str
    category: str
    booked: Decimal = ZERO
    collected: Decimal = ZERO


def _cell(cells: dict[str, _Cell], row) -> _Cell:
    service_id, title, gone_name, category_id, category_name = row[:5]
    key = _service_key(service_id, gone_name)
    if key not in cells:
        cells[key] = _Cell(
            name=title or gone_name or "",
            category_key=str(category_id) if category_id is not None else NO_CATEGORY_KEY,
            category=category_name if category_id is not None else _o(NO_CATEGORY),
        )
    return cells[key]


def _booked(session: Session, month: Month, cells: dict[str, _Cell]) -> None:
    total = func.sum(_line_total())
    query = _grouped_by_service(
        select(*_SERVICE_COLUMNS, total)
        .select_from(BookingItem)
        .join(Booking, col(Booking.id) == BookingItem.booking_id)
        .where(
            _in_month(BookingItem.start_datetime, month),
            col(BookingItem.status) != "cancelled",
            col(Booking.status) != "cancelled",
        )
    )
    for row in session.exec(query).all():
        _cell(cells, row).booked += _money(row[5])


def _collected(session: Session, month: Month, cells: dict[str, _Cell]) -> Decimal:
    """Spreads the month's payments over their bookings' lines (into `cells`); returns what was
    collected in all."""
    collected = _money(
        session.exec(
            select(func.coalesce(func.sum(Payment.amount), 0)).where(
                _in_month(Payment.recorded_at, month)
            )
        ).one()
    )
    # The month's payments per booking, and the lines' total of those bookings alone.
    paid = (
        select(
            Payment.booking_id.label("booking_id"),
            func.sum(Payment.amount).label("amount"),
        )
        .where(_in_month(Payment.recorded_at, month))
        .group_by(Payment.booking_id)
        .subquery()
    )
    lines = (
        select(
            BookingItem.booking_id.label("booking_id"),
            func.sum(_line_total()).label("lines_total"),
        )
        .where(col(BookingItem.booking_id).in_(select(paid.c.booking_id)))
        .group_by(BookingItem.booking_id)
        .subquery()
    )
    base = lines.c.lines_total + Booking.transport_amount
    share = type_coerce(
        func.sum(paid.c.amount * _line_total() / base),
        Numeric(20, 6, asdecimal=True),
    )
    query = _grouped_by_service(
        select(*_SERVICE_COLUMNS, share)
        .select_from(paid)
        .join(Booking, col(Booking.id) == paid.c.booking_id)
        .join(lines, lines.c.booking_id == Booking.id)
        .join(BookingItem, col(BookingItem.booking_id) == Booking.id)
        .where(base > 0)
    )
    for row in session.exec(query).all():
        _cell(cells, row).collected += _money(row[5])
    return collected


def _by_amount(row: RevenueRow) -> tuple:
    return (-row.booked, -row.collected, row.name.casefold())


def revenue(*, session: Session, month: Month) -> Revenue:
    """Booked and collected money of the month, by category and by service (most booked first),
    with the row 'Transport and other' for collected money no line takes."""
    cells: dict[str, _Cell] = {}
    _booked(session, month, cells)
    collected = _collected(session, month, cells)
    services = [
        RevenueRow(key, c.name, c.category, c.booked, c.collected) for key, c in cells.items()
    ]
    categories: dict[str, _Cell] = {}
    for c in cells.values():
        group = categories.setdefault(c.category_key, _Cell(c.category, c.category_key, ""))
        group.booked += c.booked
        group.collected += c.collected
    by_category = [
        RevenueRow(key, c.name, "", c.booked, c.collected) for key, c in categories.items()
    ]
    other = collected - sum((c.collected for c in cells.values()), ZERO)
    services.sort(key=_by_amount)
    by_category.sort(key=_by_amount)
    if other != 0:
        row = RevenueRow(OTHER_KEY, _o(TRANSPORT_AND_OTHER), "", ZERO, other)
        services.append(row)
        by_category.append(row)
    return Revenue(
        by_category=tuple(by_category),
        by_service=tuple(services),
        booked=sum((c.booked for c in cells.values()), ZERO),
        collected=collected,
    )


def _open_minutes(day: date, hours, blocked) -> int:
    if availability.is_blocked(day, blocked):
        return 0
    minutes = 0
    for period in availability.hours_for_day(day, hours):
        start = datetime.combine(day, period.start)
        end = datetime.combine(day, period.end)
        minutes += int((end - start).total_seconds() // 60)
    return minutes


def utilisation(*, session: Session, month: Month) -> tuple[UtilisationRow, ...]:
    """Per service: booked unit-hours over open unit-hours in the month, highest share first
    (services never open last). Listed: the active services, and any other with bookings."""
    booked_seconds = func.sum(
        BookingItem.quantity
        * _seconds(session, BookingItem.start_datetime, BookingItem.end_datetime)
    )
    booked = {
        service_id: Decimal(str(seconds or 0))
        for service_id, seconds in session.exec(
            select(BookingItem.service_id, booked_seconds)
            .join(Booking, col(Booking.id) == BookingItem.booking_id)
            .where(
                _in_month(BookingItem.start_datetime, month),
                col(BookingItem.status) != "cancelled",
                col(Booking.status) != "cancelled",
                col(BookingItem.service_id).is_not(None),
            )
            .group_by(BookingItem.service_id)
        ).all()
    }
    services = session.exec(
        select(Service.id, Service.title, Service.active, ServiceCapacity.total_units).outerjoin(
            ServiceCapacity, col(ServiceCapacity.service_id) == Service.id
        )
    ).all()
    hours: dict[uuid.UUID, list[availability.OpeningHours]] = {}
    for row in session.exec(
        select(
            ServiceAvailability.service_id,
            ServiceAvailability.day_of_week,
            ServiceAvailability.start_time,
            ServiceAvailability.end_time,
            ServiceAvailability.is_available,
        )
    ).all():
        hours.setdefault(row[0], []).append(
            availability.OpeningHours(row[1], row[2], row[3], is_available=row[4])
        )
    everywhere: list[availability.BlockedRange] = []
    blocked: dict[uuid.UUID, list[availability.BlockedRange]] = {}
    for service_id, start, end, yearly in session.exec(
        select(
            BlockedDate.service_id,
            BlockedDate.start_date,
            BlockedDate.end_date,
            BlockedDate.is_recurring_yearly,
        ).where(
            col(BlockedDate.is_recurring_yearly)
            | (
                (col(BlockedDate.start_date) < month.next_first)
                & (col(BlockedDate.end_date) >= month.first)
            )
        )
    ).all():
        target = everywhere if service_id is None else blocked.setdefault(service_id, [])
        target.append(availability.BlockedRange(start, end, yearly))
    rows = []
    for service_id, title, active, units in services:
        seconds = booked.get(service_id, Decimal(0))
        if not active and seconds == 0:
            continue
        units = units if units is not None else availability.Capacity().total_units
        ranges = [*everywhere, *blocked.get(service_id, [])]
        minutes = sum(_open_minutes(day, hours.get(service_id, []), ranges) for day in month.days)
        open_hours = (Decimal(minutes) * units / 60).quantize(HOURS)
        booked_hours = (seconds / 3600).quantize(HOURS, rounding=ROUND_HALF_UP)
        rows.append(
            UtilisationRow(
                service_id=str(service_id),
                service=title,
                units=units,
                booked_hours=booked_hours,
                open_hours=open_hours,
                share=_percent(seconds / 3600, Decimal(minutes) * units / 60),
            )
        )
    rows.sort(
        key=lambda r: (r.share is None, -(r.share or 0), -r.booked_hours, r.service.casefold())
    )
    return tuple(rows)


def _spans(*where):
    """Each booking's first start and last end (a subquery over booking_items), for the items
    that `where` keeps."""
    return (
        select(
            BookingItem.booking_id.label("booking_id"),
            func.min(BookingItem.start_datetime).label("first_start"),
            func.max(BookingItem.end_datetime).label("last_end"),
        )
        .where(*where)
        .group_by(BookingItem.booking_id)
        .subquery()
    )


def cancellations(*, session: Session, month: Month) -> Cancellations:
    """The bookings whose event (first line) starts in the month, and how many were cancelled."""
    # Only a booking with a line in the month can have its first line there.
    in_month = select(BookingItem.booking_id).where(_in_month(BookingItem.start_datetime, month))
    spans = _spans(col(BookingItem.booking_id).in_(in_month))
    is_cancelled = col(Booking.status) == "cancelled"
    total, cancelled, value = session.exec(
        select(
            func.count(),
            func.coalesce(func.sum(case((is_cancelled, 1), else_=0)), 0),
            func.coalesce(func.sum(case((is_cancelled, Booking.total_amount), else_=0)), 0),
        )
        .select_from(Booking)
        .join(spans, spans.c.booking_id == Booking.id)
        .where(_in_month(spans.c.first_start, month))
    ).one()
    return Cancellations(
        bookings=int(total),
        cancelled=int(cancelled),
        share=_percent(Decimal(int(cancelled)), Decimal(int(total))),
        cancelled_value=_money(value),
    )


def _customer(name: str | None, email: str | None) -> str:
    return (name or "").strip() or (email or "")


def unpaid(*, session: Session, now: datetime, limit: int | None = UNPAID_SHOWN) -> Unpaid:
    """Bookings not cancelled whose last line ended before `now` with a balance above 0: the
    oldest `limit` (None: all), their number and the sum of their balances."""
    # A cancelled booking's lines are cancelled with it: left out before grouping.
    spans = _spans(col(BookingItem.status) != "cancelled")
    paid = (
        select(
            Payment.booking_id.label("booking_id"),
            func.sum(Payment.amount).label("paid"),
        )
        .group_by(Payment.booking_id)
        .subquery()
    )
    paid_amount = func.coalesce(paid.c.paid, 0)
    balance = Booking.total_amount - paid_amount
    # One query: the rows, and (a window over all of them, before the limit) their number and
    # the sum of their balances.
    query = (
        select(
            Booking.id,
            Booking.reference,
            Booking.contact_name,
            Booking.contact_email,
            Booking.total_amount,
            type_coerce(paid_amount, Numeric(12, 2, asdecimal=True)),
            spans.c.first_start,
            spans.c.last_end,
            func.count().over(),
            type_coerce(func.sum(balance).over(), Numeric(14, 2, asdecimal=True)),
        )
        .select_from(Booking)
        .join(spans, spans.c.booking_id == Booking.id)
        .outerjoin(paid, paid.c.booking_id == Booking.id)
        .where(col(Booking.status) != "cancelled", spans.c.last_end < now, balance > 0)
        .order_by(spans.c.first_start, Booking.reference)
    )
    if limit is not None:
        query = query.limit(limit)
    zone = dates.business_zone()
    today = dates.today(now)
    rows = []
    count, owed = 0, ZERO
    for row in session.exec(query):
        booking_id, reference, name, email, total, paid_value, first, last, count, owed = row
        first, last = _aware(first), _aware(last)
        ended = last.astimezone(zone).date()
        total, paid_value = _money(total), _money(paid_value)
        rows.append(
            UnpaidRow(
                booking_id=str(booking_id),
                reference=reference,
                customer=_customer(name, email),
                event_day=first.astimezone(zone).date(),
                ended=ended,
                total=total,
                paid=paid_value,
                balance=total - paid_value,
                days=(today - ended).days,
            )
        )
    return Unpaid(rows=tuple(rows), count=int(count), balance=_money(owed))


def _aware(moment: datetime | str) -> datetime:
    """A subquery's min/max of a timestamp: SQLite may hand it back as its stored text (UTC)."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def monthly_report(
    *, session: Session, actor_id: object, month: object = "", now: datetime | None = None
) -> Report:
    """Every report of `month` ('YYYY-MM'; blank: this month) for an admin."""
    permissions.require_admin(session, actor_id, ReportError)
    now = now or utcnow()
    chosen = parse_month(month, now=now)
    return Report(
        month=chosen,
        revenue=revenue(session=session, month=chosen),
        utilisation=utilisation(session=session, month=chosen),
        cancellations=cancellations(session=session, month=chosen),
        unpaid=unpaid(session=session, now=now),
    )


# --- the CSV -------------------------------------------------------------------------------------


def _amount(value: Decimal) -> str:
    return f"{value:.2f}"


def _share(value: Decimal | None) -> str:
    return "" if value is None else f"{value:.1f}"


def _revenue_table(rows: Iterable[RevenueRow], booked: Decimal, collected: Decimal, service: bool):
    header = (
        [N_o("Service"), N_o("Category"), N_o("Booked"), N_o("Collected")]
        if service
        else [N_o("Category"), N_o("Booked"), N_o("Collected")]
    )
    body = [
        ([r.name, r.category] if service else [r.name]) + [_amount(r.booked), _amount(r.collected)]
        for r in rows
    ]
    body.append(
        ([_o("Total"), ""] if service else [_o("Total")]) + [_amount(booked), _amount(collected)]
    )
    return header, body


def table_rows(
    *,
    session: Session,
    actor_id: object,
    table: str,
    month: object = "",
    now: datetime | None = None,
) -> tuple[list[str], list[list[str]], Month]:
    """One report as a CSV table: its header (English, marked; the caller translates it), its
    rows as text (amounts '1234.50', shares '45.5'), and the month. The rows are the screen's;
    the unpaid table has every row, not only the first UNPAID_SHOWN."""
    permissions.require_admin(session, actor_id, ReportError)
    if table not in TABLES:
        raise ReportError("invalid_table")
    now = now or utcnow()
    chosen = parse_month(month, now=now)
    if table in ("revenue_by_category", "revenue_by_service"):
        found = revenue(session=session, month=chosen)
        by_service = table == "revenue_by_service"
        rows = found.by_service if by_service else found.by_category
        header, body = _revenue_table(rows, found.booked, found.collected, by_service)
    elif table == "utilisation":
        header = [
            N_o("Service"),
            N_o("Units"),
            N_o("Booked unit-hours"),
            N_o("Open unit-hours"),
            N_o("Utilisation %"),
        ]
        body = [
            [r.service, str(r.units), str(r.booked_hours), str(r.open_hours), _share(r.share)]
            for r in utilisation(session=session, month=chosen)
        ]
    elif table == "cancellations":
        found_c = cancellations(session=session, month=chosen)
        header = [N_o("Bookings"), N_o("Cancelled"), N_o("Share %"), N_o("Cancelled value")]
        body = [
            [
                str(found_c.bookings),
                str(found_c.cancelled),
                _share(found_c.share),
                _amount(found_c.cancelled_value),
            ]
        ]
    else:
        found_u = unpaid(session=session, now=now, limit=None)
        header = [
            N_o("Reference"),
            N_o("Customer"),
            N_o("Event date"),
            N_o("Total"),
            N_o("Paid"),
            N_o("Balance"),
            N_o("Days since"),
        ]
        body = [
            [
                r.reference,
                r.customer,
                dates.display_day(r.event_day),
                _amount(r.total),
                _amount(r.paid),
                _amount(r.balance),
                str(r.days),
            ]
            for r in found_u.rows
        ]
        body.append([_o("Total"), "", "", "", "", _amount(found_u.balance), ""])
    return [str(h) for h in header], body, chosen
