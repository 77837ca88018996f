"""When a service can be booked (docs/architecture.md §5).

The rules are pure functions of a `ServiceCalendar` (opening hours, capacity, blocked dates,
the booking items that hold units, the minimum notice, the time zone) and `now`, so tests pin
the clock, daylight-saving days included. `month_days` and `day_slots` read one calendar from
the database for the dates shown and apply the rules; `place_booking` re-checks with the same
rules under its lock.

Times: opening hours are local wall-clock times in the business's zone; everything stored is UTC.
A local time that does not exist (the spring-forward hour) is never offered; an ambiguous one
(the autumn hour that happens twice) always means its first occurrence (summer time).
"""

from __future__ import annotations

import bisect
import calendar as calendar_module
import re
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, select

from storefront.models import (
    HOLD_STATUSES,
    BlockedDate,
    BookingItem,
    BusinessSettings,
    Service,
    ServiceAvailability,
    ServiceCapacity,
    utcnow,
)
from storefront.services.cache import OCCUPANCY, cached, from_caches
from storefront.services.errors import ServiceError
from storefront.settings import get_settings

MIN_DURATION_HOURS = 1
MAX_DURATION_HOURS = 8
MAX_QUANTITY = 1000
DEFAULT_MIN_NOTICE_HOURS = 24
# With no rows for a weekday the service is open 08:00-20:00 in one-hour slots (docs/product.md §9).
DEFAULT_OPEN = time(8, 0)
DEFAULT_CLOSE = time(20, 0)
DEFAULT_SLOT_MINUTES = 60
# How far before a window a holding item may start and still reach into it. Items last at most
# a day (the booking screen offers 8 hours); the buffer is added on top.
HOLD_LOOKBACK = timedelta(days=1)
_HHMM = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


class AvailabilityError(ServiceError):
    """Bad input. Codes: service_not_found, invalid_date, invalid_month, invalid_time,
    invalid_duration, invalid_quantity, invalid_cart_hold."""

    CODES = {
        "invalid_cart_hold": "A cart line starts at a time that skips",
        "invalid_date": "Date is YYYY-MM-DD",
        "invalid_duration": "Duration is 1 to 8 hours",
        "invalid_month": "No such month",
        "invalid_quantity": "Quantity is at least 1",
        "invalid_time": "Start time is HH:MM",
        "service_not_found": "No such service",
    }


@dataclass(frozen=True)
class OpeningHours:
    """One availability row: local start and end on a weekday (0 Sunday .. 6 Saturday)."""

    day_of_week: int
    start: time
    end: time
    slot_minutes: int = DEFAULT_SLOT_MINUTES
    max_bookings_per_slot: int | None = None  # None: only capacity limits the slot
    is_available: bool = True


@dataclass(frozen=True)
class Capacity:
    """A missing capacity row is one unit with no buffer (docs/product.md §8)."""

    total_units: int = 1
    buffer_minutes: int = 0


@dataclass(frozen=True)
class BlockedRange:
    start: date
    end: date
    recurring_yearly: bool = False


@dataclass(frozen=True)
class Hold:
    """Units out of stock from `start` to `end` (UTC), before the buffer."""

    start: datetime
    end: datetime
    quantity: int = 1


@dataclass(frozen=True)
class CartHold:
    """Another line of the same service in this cart: counted like a booking (docs/product.md
    §5)."""

    date: date  # local
    start_time: time  # local
    duration_hours: int
    quantity: int = 1


@dataclass(frozen=True)
class ServiceCalendar:
    hours: tuple[OpeningHours, ...] = ()
    capacity: Capacity = Capacity()
    blocked: tuple[BlockedRange, ...] = ()
    holds: tuple[Hold, ...] = ()  # sorted by start (see `service_calendar`)
    min_notice: timedelta = timedelta(hours=DEFAULT_MIN_NOTICE_HOURS)
    zone: ZoneInfo = field(default_factory=lambda: ZoneInfo("Europe/Belgrade"))
    hold_starts: tuple[datetime, ...] = field(default=(), compare=False, repr=False)

    def with_holds(self, extra: Iterable[Hold]) -> ServiceCalendar:
        return service_calendar(
            hours=self.hours,
            capacity=self.capacity,
            blocked=self.blocked,
            holds=(*self.holds, *extra),
            min_notice=self.min_notice,
            zone=self.zone,
        )


def service_calendar(
    *,
    hours: Iterable[OpeningHours] = (),
    capacity: Capacity = Capacity(),
    blocked: Iterable[BlockedRange] = (),
    holds: Iterable[Hold] = (),
    min_notice: timedelta = timedelta(hours=DEFAULT_MIN_NOTICE_HOURS),
    zone: ZoneInfo | None = None,
) -> ServiceCalendar:
    ordered = tuple(sorted(holds, key=lambda h: h.start))
    return ServiceCalendar(
        hours=tuple(hours),
        capacity=capacity,
        blocked=tuple(blocked),
        holds=ordered,
        min_notice=min_notice,
        zone=zone or ZoneInfo(get_settings().timezone),
        hold_starts=tuple(h.start for h in ordered),
    )


@dataclass(frozen=True)
class Slot:
    start_time: str  # HH:MM local
    end_time: str  # HH:MM local
    available: bool


@dataclass(frozen=True)
class DayStatus:
    date: str  # YYYY-MM-DD
    available: bool


# --- the rules (pure) -------------------------------------------------------------------------


def day_of_week(day: date) -> int:
    """0 Sunday .. 6 Saturday, as the availability rows count."""
    return day.isoweekday() % 7


def hours_for_day(day: date, hours: Sequence[OpeningHours]) -> list[OpeningHours]:
    """The open periods of that day; the default day when the weekday has no rows at all,
    none when all its rows are switched off."""
    rows = [h for h in hours if h.day_of_week == day_of_week(day)]
    if not rows:
        return [OpeningHours(day_of_week(day), DEFAULT_OPEN, DEFAULT_CLOSE)]
    return [h for h in rows if h.is_available]


def is_blocked(day: date, blocked: Iterable[BlockedRange]) -> bool:
    return any(_blocks(b, day) for b in blocked)


def _blocks(block: BlockedRange, day: date) -> bool:
    if not block.recurring_yearly:
        return block.start <= day <= block.end
    if (block.end - block.start).days >= 365:
        return True
    start = (block.start.month, block.start.day)
    end = (block.end.month, block.end.day)
    if start == (2, 29) and not calendar_module.isleap(day.year):
        start = (2, 28)  # a yearly block from 29 February starts on the 28th in common years
    today = (day.month, day.day)
    if start <= end:
        return start <= today <= end
    return today >= start or today <= end  # the range crosses New Year


def local_to_utc(day: date, clock: time, zone: ZoneInfo) -> datetime | None:
    """The UTC instant of a local wall-clock time; None when that time does not exist that day.
    An ambiguous time is its first occurrence (fold 0)."""
    local = datetime.combine(day, clock, tzinfo=zone)
    instant = local.astimezone(UTC)
    if instant.astimezone(zone).replace(tzinfo=None) != local.replace(tzinfo=None):
        return None
    return instant


def slots_for_day(
    calendar: ServiceCalendar,
    day: date,
    *,
    duration_hours: int,
    quantity: int,
    now: datetime,
) -> list[Slot]:
    """Every start offered that day (sorted, HH:MM local) and whether it is free."""
    if is_blocked(day, calendar.blocked):
        return []
    duration = timedelta(hours=duration_hours)
    earliest = now + calendar.min_notice
    slots: dict[str, Slot] = {}
    for period in hours_for_day(day, calendar.hours):
        close = _period_close(day, period, calendar.zone)
        for clock in _starts(period):
            start = local_to_utc(day, clock, calendar.zone)
            if start is None or start + duration > close:
                continue
            label = clock.strftime("%H:%M")
            free = start >= earliest and _slot_is_free(calendar, start, duration, quantity, period)
            if label not in slots or free:
                end_label = (start + duration).astimezone(calendar.zone).strftime("%H:%M")
                slots[label] = Slot(label, end_label, free)
    return [slots[k] for k in sorted(slots)]


def slot_refusal(
    calendar: ServiceCalendar,
    day: date,
    clock: time,
    *,
    duration_hours: int,
    quantity: int,
    now: datetime,
) -> str | None:
    """Why this start cannot be booked: 'blocked', 'closed' (not a start time offered that day,
    or the booking would end after closing), 'too_soon' (past or within the notice), 'taken'
    (capacity or the slot maximum); None when it is free."""
    if is_blocked(day, calendar.blocked):
        return "blocked"
    start = local_to_utc(day, clock, calendar.zone)
    if start is None:
        return "closed"
    duration = timedelta(hours=duration_hours)
    periods = [
        period
        for period in hours_for_day(day, calendar.hours)
        if clock in _starts(period)
        and start + duration <= _period_close(day, period, calendar.zone)
    ]
    if not periods:
        return "closed"
    if start < now + calendar.min_notice:
        return "too_soon"
    if any(_slot_is_free(calendar, start, duration, quantity, p) for p in periods):
        return None
    return "taken"


def days_of_month(
    calendar: ServiceCalendar,
    year: int,
    month: int,
    *,
    duration_hours: int,
    quantity: int,
    now: datetime,
) -> list[DayStatus]:
    """Each date of the month; available when at least one slot is free for the asked
    duration and quantity."""
    days = calendar_module.monthrange(year, month)[1]
    result = []
    for number in range(1, days + 1):
        day = date(year, month, number)
        slots = slots_for_day(
            calendar, day, duration_hours=duration_hours, quantity=quantity, now=now
        )
        result.append(DayStatus(day.isoformat(), any(s.available for s in slots)))
    return result


def _starts(period: OpeningHours) -> Iterable[time]:
    minute = period.start.hour * 60 + period.start.minute
    close = period.end.hour * 60 + period.end.minute
    while minute < close:
        yield time(minute // 60, minute % 60)
        minute += period.slot_minutes


def _period_close(day: date, period: OpeningHours, zone: ZoneInfo) -> datetime:
    close = local_to_utc(day, period.end, zone)
    if close is None:  # closing inside the skipped hour: the first existing instant after it
        close = datetime.combine(day, period.end, tzinfo=zone).astimezone(UTC)
    return close


def _slot_is_free(
    calendar: ServiceCalendar,
    start: datetime,
    duration: timedelta,
    quantity: int,
    period: OpeningHours,
) -> bool:
    if not fits_capacity(calendar, start, duration, quantity):
        return False
    buffer = timedelta(minutes=calendar.capacity.buffer_minutes)
    slot_end = start + timedelta(minutes=period.slot_minutes)
    nearby = _holds_near(calendar, start - buffer, max(start + duration + buffer, slot_end))
    if period.max_bookings_per_slot is not None:
        starting = sum(1 for h in nearby if start <= h.start < slot_end)
        if starting >= period.max_bookings_per_slot:
            return False
    return True


def fits_capacity(
    calendar: ServiceCalendar, start: datetime, duration: timedelta, quantity: int
) -> bool:
    """The capacity rule (docs/architecture.md §5): `quantity` more units from `start` for
    `duration`, plus the
    buffer, stay within `total_units` given the calendar's holds. Placing a booking also checks
    the opening hours and the slot maximum; an admin confirming or editing one checks only this."""
    capacity = calendar.capacity
    buffer = timedelta(minutes=capacity.buffer_minutes)
    if quantity > capacity.total_units:
        return False
    window_end = start + duration + buffer
    nearby = _holds_near(calendar, start - buffer, window_end)
    overlapping = [h for h in nearby if h.start < window_end and h.end + buffer > start]
    return _peak_units(overlapping, start, buffer) + quantity <= capacity.total_units


def _holds_near(calendar: ServiceCalendar, low: datetime, high: datetime) -> Sequence[Hold]:
    """Holds that start between a day before `low` and `high` (holds are sorted by start)."""
    first = bisect.bisect_left(calendar.hold_starts, low - HOLD_LOOKBACK)
    last = bisect.bisect_left(calendar.hold_starts, high)
    return calendar.holds[first:last]


def _peak_units(holds: Sequence[Hold], window_start: datetime, buffer: timedelta) -> int:
    """The most units in use at any moment of the window: usage only rises at a hold's start
    (or at the window's start)."""
    moments = [window_start, *(h.start for h in holds if h.start > window_start)]
    return max(
        (sum(h.quantity for h in holds if h.start <= m < h.end + buffer) for m in moments),
        default=0,
    )


# --- arguments ------------------------------------------------------------------------------


def check_duration(duration_hours: object) -> int:
    if (
        not isinstance(duration_hours, int)
        or isinstance(duration_hours, bool)
        or not MIN_DURATION_HOURS <= duration_hours <= MAX_DURATION_HOURS
    ):
        raise AvailabilityError("invalid_duration", "Duration is 1 to 8 hours")
    return duration_hours


def check_quantity(quantity: object) -> int:
    if (
        not isinstance(quantity, int)
        or isinstance(quantity, bool)
        or not 1 <= quantity <= MAX_QUANTITY
    ):
        raise AvailabilityError("invalid_quantity", "Quantity is at least 1")
    return quantity


def parse_day(value: object) -> date:
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise AvailabilityError("invalid_date", "Date is YYYY-MM-DD") from None


def parse_clock(value: object) -> time:
    match = _HHMM.match(str(value))
    if not match:
        raise AvailabilityError("invalid_time", "Start time is HH:MM")
    return time(int(match[1]), int(match[2]))


def cart_hold_to_hold(hold: CartHold, zone: ZoneInfo) -> Hold:
    """The hold of a cart line, whose day and time were read where the cart came in
    (services/booking/cart.py): typed values only."""
    day, clock = hold.date, hold.start_time
    if not isinstance(day, date) or isinstance(day, datetime) or not isinstance(clock, time):
        raise AvailabilityError("invalid_cart_hold", "A cart line is malformed")
    try:
        duration = check_duration(hold.duration_hours)
        quantity = check_quantity(hold.quantity)
    except AvailabilityError:
        raise AvailabilityError("invalid_cart_hold", "A cart line is malformed") from None
    start = local_to_utc(day, clock, zone)
    if start is None:
        raise AvailabilityError("invalid_cart_hold", "A cart line starts at a time that skips")
    return Hold(start, start + timedelta(hours=duration), quantity)


def _now(now: datetime | None) -> datetime:
    if now is None:
        return utcnow()
    if now.tzinfo is None:
        raise AvailabilityError("invalid_time", "now must carry a time zone")
    return now


# --- reading the database -----------------------------------------------------------------


def service_id_of(value: object) -> uuid.UUID:
    try:
        return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
    except ValueError:
        raise AvailabilityError("service_not_found", "No such service") from None


def bookable_service(*, session: Session, service_id: object) -> Service:
    """An active, published service, or `service_not_found`."""
    service = session.get(Service, service_id_of(service_id))
    if service is None or not service.active or service.status != "published":
        raise AvailabilityError("service_not_found", "No such service")
    return service


def min_notice(*, session: Session) -> timedelta:
    row = session.get(BusinessSettings, 1)
    hours = row.min_notice_hours if row is not None else DEFAULT_MIN_NOTICE_HOURS
    return timedelta(hours=hours)


@dataclass(frozen=True)
class Want:
    """One line that wants `quantity` units of `service_id` from `start` to `end` (UTC); `key`
    is the caller's name for it (a cart index, an admin's span)."""

    key: object
    service_id: uuid.UUID
    start: datetime
    end: datetime
    quantity: int


# How one want is judged against its service's calendar: why it is refused, or None.
Judge = Callable[[ServiceCalendar, "Want"], str | None]


def capacity_judge(calendar: ServiceCalendar, want: Want) -> str | None:
    """The capacity rule alone (an admin's change: it may fall outside the opening hours)."""
    fits = fits_capacity(calendar, want.start, want.end - want.start, want.quantity)
    return None if fits else "taken"


def check_in_order(
    session: Session,
    wants: Sequence[Want],
    *,
    judge: Judge = capacity_judge,
    rules: dict[uuid.UUID, ServiceCalendar] | None = None,
    booked: dict[uuid.UUID, ServiceCalendar] | None = None,
    exclude_booking: uuid.UUID | None = None,
) -> list[tuple[Want, str]]:
    """The one capacity check of checkout, the booking screen and every admin change: each
    service's wants, in the order given, judged against its bookings (leaving `exclude_booking`'s
    own items out) and against the wants before them; returns each refused want with the
    judge's reason (empty when every want fits). `rules` may hand in calendars already loaded;
    `booked`, calendars that already hold the service's bookings of the wants' days (the public
    calendar's month, checked current by the caller), which are then not read again."""
    by_service: dict[uuid.UUID, list[Want]] = defaultdict(list)
    for want in wants:
        by_service[want.service_id].append(want)
    refused: list[tuple[Want, str]] = []
    for service_id, own in sorted(by_service.items()):
        calendar = (booked or {}).get(service_id)
        if calendar is None:
            base = (rules or {}).get(service_id) or load_rules(
                session=session, service_id=service_id
            )
            days = [want.start.astimezone(base.zone).date() for want in own]
            calendar = with_booked_holds(
                base,
                session=session,
                service_id=service_id,
                first_day=min(days),
                last_day=max(days),
                exclude_booking=exclude_booking,
            )
        for want in own:
            reason = judge(calendar, want)
            if reason is not None:
                refused.append((want, reason))
            calendar = calendar.with_holds([Hold(want.start, want.end, want.quantity)])
    return refused


@cached
def service_units(*, session: Session, service_id: object) -> int:
    """How many units of a service exist: the most one time slot can ever hold (a missing
    capacity row is one unit, docs/product.md §8); 0 for an unknown id. Catalogue data, so
    cached: the carts' limits and the pickers' messages; a booking counts them fresh."""
    try:
        key = uuid.UUID(str(service_id)[:64])
    except ValueError:
        return 0
    row = session.get(ServiceCapacity, key)
    return row.total_units if row is not None else Capacity().total_units


def load_rules(*, session: Session, service_id: uuid.UUID) -> ServiceCalendar:
    """A service's hours, capacity, blocked dates and notice, without any holds."""
    capacity_row = session.get(ServiceCapacity, service_id)
    capacity = (
        Capacity(capacity_row.total_units, capacity_row.buffer_time_minutes)
        if capacity_row is not None
        else Capacity()
    )
    return service_calendar(
        hours=_opening_hours(session, service_id),
        capacity=capacity,
        blocked=_blocked_ranges(session, service_id),
        min_notice=min_notice(session=session),
        zone=ZoneInfo(get_settings().timezone),
    )


def with_booked_holds(
    rules: ServiceCalendar,
    *,
    session: Session,
    service_id: uuid.UUID,
    first_day: date,
    last_day: date,
    exclude_booking: uuid.UUID | None = None,
) -> ServiceCalendar:
    """`rules` plus the booking items that can touch `first_day`..`last_day`, read through the
    index on booking_items (service_id, start_datetime, end_datetime); `exclude_booking`'s own
    items are left out (an admin re-checking that booking)."""
    zone = rules.zone
    buffer = timedelta(minutes=rules.capacity.buffer_minutes)
    # The days shown, a day before (holds running into them) and a day after (a slot's buffer
    # and its booking count may reach past midnight), plus the buffer.
    window_start = datetime.combine(first_day, time(0), tzinfo=zone).astimezone(UTC)
    window_end = datetime.combine(last_day + timedelta(days=2), time(0), tzinfo=zone).astimezone(
        UTC
    )
    booked = holding_items(
        session=session,
        service_id=service_id,
        start=window_start - buffer - HOLD_LOOKBACK,
        end=window_end + buffer,
        exclude_booking=exclude_booking,
    )
    return rules.with_holds(booked)


def holding_items(
    *,
    session: Session,
    service_id: uuid.UUID,
    start: datetime,
    end: datetime,
    exclude_booking: uuid.UUID | None = None,
) -> list[Hold]:
    """Items of the service in a holding status that start in [start, end)."""
    query = select(
        BookingItem.start_datetime, BookingItem.end_datetime, BookingItem.quantity
    ).where(
        BookingItem.service_id == service_id,
        BookingItem.start_datetime >= start,
        BookingItem.start_datetime < end,
        col(BookingItem.status).in_(HOLD_STATUSES),
    )
    if exclude_booking is not None:
        query = query.where(BookingItem.booking_id != exclude_booking)
    rows = session.exec(query).all()
    return [Hold(s, e, q) for s, e, q in rows]


def _opening_hours(session: Session, service_id: uuid.UUID) -> list[OpeningHours]:
    rows = session.exec(
        select(ServiceAvailability).where(ServiceAvailability.service_id == service_id)
    ).all()
    return [
        OpeningHours(
            r.day_of_week,
            r.start_time,
            r.end_time,
            r.slot_duration_minutes,
            r.max_bookings_per_slot,
            r.is_available,
        )
        for r in rows
    ]


def _blocked_ranges(session: Session, service_id: uuid.UUID) -> list[BlockedRange]:
    rows = session.exec(
        select(BlockedDate).where(
            (BlockedDate.service_id == service_id) | col(BlockedDate.service_id).is_(None)
        )
    ).all()
    return [BlockedRange(r.start_date, r.end_date, r.is_recurring_yearly) for r in rows]


@cached
def shown_rules(*, session: Session, service_id: str) -> ServiceCalendar:
    """The rules of a published service as its public calendar shows them: from the catalogue
    cache (hours, capacity, blocked dates and notice are catalogue data), so a visitor's
    calendar reads only the bookings. Placing a booking reads them fresh (services/booking)."""
    service = bookable_service(session=session, service_id=service_id)
    return load_rules(session=session, service_id=service.id)


@cached(cache=OCCUPANCY)
def month_calendar(*, session: Session, service_id: str, year: int, month: int) -> ServiceCalendar:
    """A published service's public rules with the bookings that can touch the days of one
    month: built once per change of the catalogue or of any booking (catalog_cache.OCCUPANCY),
    so a visitor's calendar and slots are computed without a query."""
    rules = shown_rules(session=session, service_id=service_id)
    return with_booked_holds(
        rules,
        session=session,
        service_id=service_id_of(service_id),
        first_day=date(year, month, 1),
        last_day=date(year, month, calendar_module.monthrange(year, month)[1]),
    )


def _service_key(service_id: object) -> str:
    """A public calendar's service id as its caches key it, or `service_not_found`."""
    if not isinstance(service_id, str | uuid.UUID):
        raise AvailabilityError("service_not_found", "No such service")
    return str(service_id_of(str(service_id)[:64]))


def _shown_calendar(
    session: Session,
    service_id: object,
    *,
    first_day: date,
    last_day: date,
    cart_holds: Iterable[CartHold],
) -> ServiceCalendar:
    """The public calendar of `first_day`..`last_day` (days of one month), with the cart's
    other lines of the service counted as taken."""
    key = _service_key(service_id)
    if (first_day.year, first_day.month) != (last_day.year, last_day.month):
        raise AvailabilityError("invalid_month", "No such month")
    calendar = month_calendar(
        session=session, service_id=key, year=first_day.year, month=first_day.month
    )
    return calendar.with_holds(cart_hold_to_hold(h, calendar.zone) for h in cart_holds)


@from_caches
def month_days(
    *,
    session: Session,
    service_id: object,
    year: int,
    month: int,
    duration_hours: int = 1,
    quantity: int = 1,
    cart_holds: Iterable[CartHold] = (),
    now: datetime | None = None,
) -> list[DayStatus]:
    """The calendar of one month for the booking screen and the cart's date picker."""
    if not isinstance(year, int) or not isinstance(month, int) or not 1 <= month <= 12:
        raise AvailabilityError("invalid_month", "No such month")
    if not 2000 <= year <= 2100:
        raise AvailabilityError("invalid_month", "No such month")
    duration_hours = check_duration(duration_hours)
    quantity = check_quantity(quantity)
    first = date(year, month, 1)
    last = date(year, month, calendar_module.monthrange(year, month)[1])
    calendar = _shown_calendar(
        session, service_id, first_day=first, last_day=last, cart_holds=cart_holds
    )
    return days_of_month(
        calendar, year, month, duration_hours=duration_hours, quantity=quantity, now=_now(now)
    )


@from_caches
def day_slots(
    *,
    session: Session,
    service_id: object,
    day: date | str,
    duration_hours: int,
    quantity: int,
    cart_holds: Iterable[CartHold] = (),
    now: datetime | None = None,
) -> list[Slot]:
    """The start times of one day for a duration and quantity. Asked for now (no `now` given)
    and with no cart lines of the service, the answer is shared for the minute (`_shared_day`)."""
    day = parse_day(day)
    duration_hours = check_duration(duration_hours)
    quantity = check_quantity(quantity)
    holds = tuple(cart_holds)
    if now is None and not holds:
        moment = utcnow()
        # The end of this minute: a slot that becomes too soon within it is already refused.
        minute = moment.replace(second=0, microsecond=0) + timedelta(minutes=1)
        return _shared_day(
            session=session,
            service_id=_service_key(service_id),
            day=day,
            duration_hours=duration_hours,
            quantity=quantity,
            minute=minute,
        )
    calendar = _shown_calendar(session, service_id, first_day=day, last_day=day, cart_holds=holds)
    return slots_for_day(
        calendar, day, duration_hours=duration_hours, quantity=quantity, now=_now(now)
    )


@cached(cache=OCCUPANCY)
def _shared_day(
    *,
    session: Session,
    service_id: str,
    day: date,
    duration_hours: int,
    quantity: int,
    minute: datetime,
) -> list[Slot]:
    """`day_slots` of a day as anyone with an empty cart sees it in one minute, judged as at its
    end: computed once per minute and change, whoever asks (a popular day is asked often)."""
    calendar = _shown_calendar(session, service_id, first_day=day, last_day=day, cart_holds=())
    return slots_for_day(
        calendar, day, duration_hours=duration_hours, quantity=quantity, now=minute
    )


# --- the month grid of the date picker ----------------------------------------------------------


@dataclass(frozen=True)
class GridDay:
    date: str  # YYYY-MM-DD; blank for the padding before the 1st
    day: str  # '1'..'31'
    available: bool


def month_grid(statuses: list[DayStatus]) -> list[GridDay]:
    """The days of a month as a Monday-first grid: blanks before the 1st, then each day."""
    if not statuses:
        return []
    first = date.fromisoformat(statuses[0].date)
    padding = [GridDay("", "", False)] * first.weekday()
    return padding + [
        GridDay(s.date, str(date.fromisoformat(s.date).day), s.available) for s in statuses
    ]
