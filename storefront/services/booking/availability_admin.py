"""The back office's side of availability: a service's weekly schedule rows and the blocked
dates (of one service, or of all). The booking calendar (services/booking/availability.py) reads the
same rows at every load, so a change here shows there at once.

Every function takes the caller's id, checks in the database that it is an admin, and writes
the audit log in the transaction of the change."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, time

from sqlmodel import Session, col, select

from storefront.models import BlockedDate, Service, ServiceAvailability, utcnow
from storefront.services import audit, dates, locks, permissions
from storefront.services.booking.availability import AvailabilityError, parse_clock
from storefront.services.errors import ServiceError

# docs/product.md §3: day_of_week 0 Sunday .. 6 Saturday.
DAY_NAMES = dates.DAY_NAMES
SLOT_MINUTES_MIN, SLOT_MINUTES_MAX = 1, 480
MAX_BOOKINGS_MIN, MAX_BOOKINGS_MAX = 1, 1000
REASON_MAX = 255
FIRST_YEAR, LAST_YEAR = 2000, 2100


class AvailabilityAdminError(ServiceError):
    """Codes: no_user, not_allowed (the caller), service_not_found, availability_not_found,
    blocked_date_not_found, invalid_day, invalid_time, invalid_span (start not before end),
    invalid_slot_duration, invalid_max_bookings, overlap (`details['day']`, `details['hours']`
    of the row in the way), invalid_date, invalid_range (end before start), reason_too_long."""

    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "availability_not_found": "No such availability",
        "blocked_date_not_found": "No such blocked date",
        "invalid_date": "Dates are YYYY-MM-DD",
        "invalid_day": "Day is 0 (Sunday) to 6 (Saturday)",
        "invalid_max_bookings": "Max bookings per slot is at least 1",
        "invalid_range": "The end date is before the start date",
        "invalid_slot_duration": "Slot duration is 1 to 480 minutes",
        "invalid_span": "The start must be before the end",
        "invalid_time": "Times are HH:MM",
        "overlap": "This time overlaps another schedule on the same day",
        "reason_too_long": "The reason is too long",
        "service_not_found": "No such service",
    }


@dataclass(frozen=True)
class Schedule:
    """One weekly row as the form gives it, checked."""

    day_of_week: int
    start_time: time
    end_time: time
    max_bookings_per_slot: int = 1
    slot_duration_minutes: int = 60
    is_available: bool = True


@dataclass(frozen=True)
class ScheduleRow:
    """A weekly row ready for the screen (hours HH:MM, seconds trimmed)."""

    id: str
    day_of_week: int
    day: str
    start_time: str
    end_time: str
    slot_duration_minutes: int
    max_bookings_per_slot: int
    is_available: bool


@dataclass(frozen=True)
class BlockedRow:
    id: str
    start_date: str  # YYYY-MM-DD
    end_date: str
    dates: str  # DD.MM.YYYY, or 'DD.MM.YYYY – DD.MM.YYYY'
    reason: str
    recurring_yearly: bool
    all_services: bool


@dataclass(frozen=True)
class ServiceHeader:
    id: str
    title: str


# A new schedule row as the form first shows it (docs/product.md §9 and 5): Monday, 09:00 to
# 17:00, 1 booking, 60 minutes (the model's defaults), available.
NEW_SCHEDULE = {
    "day_of_week": "1",
    "start_time": "09:00",
    "end_time": "17:00",
    "max_bookings_per_slot": str(ServiceAvailability.model_fields["max_bookings_per_slot"].default),
    "slot_duration_minutes": str(ServiceAvailability.model_fields["slot_duration_minutes"].default),
}


# --- arguments -------------------------------------------------------------------------------


def _whole(value: object, low: int, high: int, code: str, message: str) -> int:
    """An int in [low, high] from an int or a string of digits (forms send strings)."""
    if isinstance(value, bool):
        raise AvailabilityAdminError(code, message)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or not low <= value <= high:
        raise AvailabilityAdminError(code, message)
    return value


def _clock(value: object) -> time:
    """HH:MM (a time input may add seconds, which are trimmed)."""
    raw = value.strftime("%H:%M") if isinstance(value, time) else str(value).strip()[:8]
    if len(raw) == 8 and raw[5] == ":":
        raw = raw[:5]
    try:
        return parse_clock(raw)
    except AvailabilityError:
        raise AvailabilityAdminError("invalid_time", "Times are HH:MM") from None


def check_schedule(
    *,
    day_of_week: object,
    start_time: object,
    end_time: object,
    max_bookings_per_slot: object = 1,
    slot_duration_minutes: object = 60,
    is_available: object = True,
) -> Schedule:
    """docs/product.md §5's rules for a weekly row; whatever a client sends is checked here."""
    day = _whole(day_of_week, 0, 6, "invalid_day", "Day is 0 (Sunday) to 6 (Saturday)")
    start, end = _clock(start_time), _clock(end_time)
    if start >= end:
        raise AvailabilityAdminError("invalid_span", "The start must be before the end")
    slot = _whole(
        slot_duration_minutes,
        SLOT_MINUTES_MIN,
        SLOT_MINUTES_MAX,
        "invalid_slot_duration",
        "Slot duration is 1 to 480 minutes",
    )
    most = _whole(
        max_bookings_per_slot,
        MAX_BOOKINGS_MIN,
        MAX_BOOKINGS_MAX,
        "invalid_max_bookings",
        "Max bookings per slot is at least 1",
    )
    if not isinstance(is_available, bool):
        raise AvailabilityAdminError("invalid_day", "is_available is true or false")
    return Schedule(day, start, end, most, slot, is_available)


def _id(value: object, code: str) -> uuid.UUID:
    try:
        return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value)[:64])
    except ValueError:
        raise AvailabilityAdminError(code, "No such row") from None


def _service(session: Session, service_id: object) -> Service:
    service = session.get(Service, _id(service_id, "service_not_found"))
    if service is None:
        raise AvailabilityAdminError("service_not_found", "No such service")
    return service


# --- reading --------------------------------------------------------------------------------


def _hhmm(clock: time) -> str:
    return clock.strftime("%H:%M")


def _row(row: ServiceAvailability) -> ScheduleRow:
    return ScheduleRow(
        id=str(row.id),
        day_of_week=row.day_of_week,
        day=DAY_NAMES[row.day_of_week],
        start_time=_hhmm(row.start_time),
        end_time=_hhmm(row.end_time),
        slot_duration_minutes=row.slot_duration_minutes,
        max_bookings_per_slot=row.max_bookings_per_slot,
        is_available=row.is_available,
    )


def service_header(*, session: Session, actor_id: object, service_id: object) -> ServiceHeader:
    """The service whose availability is shown (any status: drafts get schedules too)."""
    permissions.require_admin(session, actor_id, AvailabilityAdminError)
    service = _service(session, service_id)
    return ServiceHeader(str(service.id), service.title)


def list_schedule(*, session: Session, actor_id: object, service_id: object) -> list[ScheduleRow]:
    """The weekly rows of a service, by day (Sunday first) and start."""
    permissions.require_admin(session, actor_id, AvailabilityAdminError)
    service = _service(session, service_id)
    rows = session.exec(
        select(ServiceAvailability)
        .where(ServiceAvailability.service_id == service.id)
        .order_by(col(ServiceAvailability.day_of_week), col(ServiceAvailability.start_time))
    ).all()
    return [_row(r) for r in rows]


# --- writing the weekly rows ----------------------------------------------------------------


def _check_no_overlap(
    session: Session, service_id: uuid.UUID, schedule: Schedule, ignore: uuid.UUID | None
) -> None:
    """Rows of one weekday may touch (09:00-12:00 and 12:00-17:00) but not overlap, switched
    off or not: switching one on must not make two periods of the same hours."""
    query = select(ServiceAvailability).where(
        ServiceAvailability.service_id == service_id,
        ServiceAvailability.day_of_week == schedule.day_of_week,
        col(ServiceAvailability.start_time) < schedule.end_time,
        col(ServiceAvailability.end_time) > schedule.start_time,
    )
    if ignore is not None:
        query = query.where(ServiceAvailability.id != ignore)
    other = session.exec(query.limit(1)).first()
    if other is not None:
        raise AvailabilityAdminError(
            "overlap",
            "This time overlaps another schedule on the same day",
            day=DAY_NAMES[other.day_of_week],
            hours=f"{_hhmm(other.start_time)}-{_hhmm(other.end_time)}",
        )


def create_availability(
    *, session: Session, actor_id: object, service_id: object, schedule: Schedule
) -> ScheduleRow:
    locks.begin_write(session)
    permissions.require_admin(session, actor_id, AvailabilityAdminError)
    service = _service(session, service_id)
    locks.take(session, locks.service(service.id))
    _check_no_overlap(session, service.id, schedule, ignore=None)
    row = ServiceAvailability(
        service_id=service.id,
        day_of_week=schedule.day_of_week,
        start_time=schedule.start_time,
        end_time=schedule.end_time,
        max_bookings_per_slot=schedule.max_bookings_per_slot,
        slot_duration_minutes=schedule.slot_duration_minutes,
        is_available=schedule.is_available,
    )
    audit.saved(
        session,
        row,
        actor_id=actor_id,
        action="create_availability",
        entity_type="service_availability",
    )
    return _row(row)


def _availability(session: Session, availability_id: object) -> ServiceAvailability:
    row = session.get(ServiceAvailability, _id(availability_id, "availability_not_found"))
    if row is None:
        raise AvailabilityAdminError("availability_not_found", "No such availability")
    return row


def update_availability(
    *, session: Session, actor_id: object, availability_id: object, schedule: Schedule
) -> ScheduleRow:
    locks.begin_write(session)
    permissions.require_admin(session, actor_id, AvailabilityAdminError)
    row = _availability(session, availability_id)
    locks.take(session, locks.service(row.service_id))
    session.refresh(row)  # as it is now that this transaction holds the lock
    _check_no_overlap(session, row.service_id, schedule, ignore=row.id)
    with audit.changing(
        session,
        row,
        actor_id=actor_id,
        action="update_availability",
        entity_type="service_availability",
    ):
        row.day_of_week = schedule.day_of_week
        row.start_time, row.end_time = schedule.start_time, schedule.end_time
        row.max_bookings_per_slot = schedule.max_bookings_per_slot
        row.slot_duration_minutes = schedule.slot_duration_minutes
        row.is_available = schedule.is_available
        row.updated_at = utcnow()
    return _row(row)


def toggle_availability(*, session: Session, actor_id: object, availability_id: object) -> bool:
    """Switch a row on or off; returns whether it is available now."""
    permissions.require_admin(session, actor_id, AvailabilityAdminError)
    row = _availability(session, availability_id)
    with audit.changing(
        session,
        row,
        actor_id=actor_id,
        action="toggle_availability",
        entity_type="service_availability",
    ):
        row.is_available, row.updated_at = not row.is_available, utcnow()
    return row.is_available


def delete_availability(*, session: Session, actor_id: object, availability_id: object) -> None:
    permissions.require_admin(session, actor_id, AvailabilityAdminError)
    row = _availability(session, availability_id)
    audit.removed(
        session,
        row,
        actor_id=actor_id,
        action="delete_availability",
        entity_type="service_availability",
    )


# --- blocked dates ---------------------------------------------------------------------------


def _blocked_row(row: BlockedDate) -> BlockedRow:
    first, last = dates.display_day(row.start_date), dates.display_day(row.end_date)
    return BlockedRow(
        id=str(row.id),
        start_date=row.start_date.isoformat(),
        end_date=row.end_date.isoformat(),
        dates=first if first == last else f"{first} – {last}",
        reason=row.reason or "",
        recurring_yearly=row.is_recurring_yearly,
        all_services=row.service_id is None,
    )


def list_blocked_dates(
    *, session: Session, actor_id: object, service_id: object
) -> list[BlockedRow]:
    """The dates blocked for this service and those blocked for all services, by start."""
    permissions.require_admin(session, actor_id, AvailabilityAdminError)
    service = _service(session, service_id)
    rows = session.exec(
        select(BlockedDate)
        .where((BlockedDate.service_id == service.id) | col(BlockedDate.service_id).is_(None))
        .order_by(col(BlockedDate.start_date), col(BlockedDate.created_at))
    ).all()
    return [_blocked_row(r) for r in rows]


def _day(value: object) -> date:
    day = dates.typed_day(value)
    if day is None or not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise AvailabilityAdminError("invalid_date", "Dates are DD.MM.YYYY")
    return day


def block_dates(
    *,
    session: Session,
    actor_id: object,
    service_id: object,
    start_date: object,
    end_date: object = "",
    reason: object = "",
    recurring_yearly: object = False,
    all_services: object = False,
) -> BlockedRow:
    """Block whole days for `service_id`, or for every service with `all_services`. An empty
    end blocks the start day only."""
    first = _day(start_date)
    last = _day(end_date) if str(end_date or "").strip() else first
    if last < first:
        raise AvailabilityAdminError("invalid_range", "The end date is before the start date")
    note = str(reason or "").strip()
    if len(note) > REASON_MAX:
        raise AvailabilityAdminError("reason_too_long", "The reason is too long", max=REASON_MAX)
    if not isinstance(recurring_yearly, bool) or not isinstance(all_services, bool):
        raise AvailabilityAdminError("invalid_date", "Flags are true or false")
    permissions.require_admin(session, actor_id, AvailabilityAdminError)
    service = _service(session, service_id)
    row = BlockedDate(
        service_id=None if all_services else service.id,
        start_date=first,
        end_date=last,
        is_recurring_yearly=recurring_yearly,
        reason=note or None,
    )
    audit.saved(
        session,
        row,
        actor_id=actor_id,
        action="block_dates",
        entity_type="blocked_date",
    )
    return _blocked_row(row)


def unblock_dates(*, session: Session, actor_id: object, blocked_id: object) -> None:
    permissions.require_admin(session, actor_id, AvailabilityAdminError)
    row = session.get(BlockedDate, _id(blocked_id, "blocked_date_not_found"))
    if row is None:
        raise AvailabilityAdminError("blocked_date_not_found", "No such blocked date")
    audit.removed(
        session, row, actor_id=actor_id, action="unblock_dates", entity_type="blocked_date"
    )
