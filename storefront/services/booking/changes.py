"""A customer's own changes to their booking: cancelling it, or moving it to another date and
time for the same services, until the business's cutoff before it starts
(`BusinessSettings.change_cutoff_hours`; docs/architecture.md §5, and §9.18 for why).

Who may: whoever holds the booking's signed link (services/messaging/links.py) or the signed-in
account that placed it, checked here from what the server knows (the key's signature, the
caller's id as the session row says), never from what the browser claims. Anyone else is told
the booking does not exist, as the confirmation page tells them.

Each change is one transaction under the booking engine's locks on the booking's services
(`booking.lock_services_of`, the path the back office's edits take): the booking and its items,
the audit entry (the account, or no account for a guest, and `by`), the staff's WhatsApp message
and the customer's mail (the outbox) are committed together or not at all. A move keeps every
line's service, quantity and duration and shifts the whole booking so its first service starts
at the time asked for; each line is re-checked by the engine's one check with the booking
screen's rules (`booking.check_lines_free`: opening hours, notice, capacity, the slot maximum),
this booking's own items left out. One line that does not fit refuses the move whole. The move
is chosen on the cart's slot picker: `move_days` and `move_slots` offer the days and start times
at which every line of the booking fits, by that same check. A move to a time inside the cutoff
is taken only once the customer has been told that the booking can then no longer be changed
online (`accept_cutoff`); a confirmed booking that moves waits for the business's confirmation
again (pending).

A second click of the same change finds it done and changes nothing more."""

from __future__ import annotations

import calendar as calendar_module
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import TypeVar

from sqlalchemy.exc import OperationalError
from sqlmodel import Session, col, select

from storefront.models import HOLD_STATUSES, Booking, BookingItem, BusinessSettings, utcnow
from storefront.services import audit, business, dates
from storefront.services.booking import availability
from storefront.services.booking.lines import BookingError, BookingLine
from storefront.services.booking.placing import check_lines_free
from storefront.services.booking.placing import lock_services_of as lock_booking_services
from storefront.services.errors import ServiceError
from storefront.services.locks import is_lock_timeout
from storefront.services.messaging import links as booking_links
from storefront.services.messaging import outbox

# The statuses a customer may still change; on the way, completed and cancelled they may not.
CHANGEABLE_STATUSES = ("pending", "confirmed")
T = TypeVar("T")


class BookingChangeError(ServiceError):
    """Codes: not_found (no such booking, or the caller may not change it), too_late (past the
    cutoff, or a status that is no longer changed online), invalid_time (the date or time
    asked for cannot be read), slot_taken and slot_unavailable (details `service`, `date`
    DD.MM.YYYY, `time` HH:MM: the first line that does not fit, and for slot_unavailable the
    `reason`: blocked, closed, too_soon), inside_cutoff (details `hours`: the new time starts
    within the cutoff and the customer has not yet accepted that it can then no longer be
    changed online), busy (the lock could not be had in time)."""

    CODES = {
        "busy": "Please try again",
        "inside_cutoff": "After this move the booking can no longer be changed online",
        "invalid_time": "Choose a date and a time",
        "not_found": "Booking not found",
        "slot_taken": "This time slot is no longer available",
        "slot_unavailable": "This time cannot be booked",
        "too_late": "This booking can no longer be changed online",
    }


@dataclass(frozen=True)
class ChangeResult:
    reference: str
    status: str  # the booking's status afterwards
    changed: bool  # False: the change had already been made (a second click)


@dataclass(frozen=True)
class ChangeOptions:
    """What the confirmation page offers the one who opened it."""

    allowed: bool  # cancel and move are offered
    deadline: str  # 'DD.MM.YYYY HH:MM' local: the last moment a change is taken ('' if none)
    first_date: str  # DD.MM.YYYY local of the earliest service
    first_day: str  # YYYY-MM-DD, the same day: the move's picker opens there
    first_time: str  # HH:MM local
    first_hours: int  # how long the earliest service lasts (the picker shows its end)
    cutoff_hours: int  # the business's cutoff (the warning before a move into it names it)
    phone: str  # the business's, to call once the page offers no change
    phone_href: str  # 'tel:+38344000000'


# --- the rule -------------------------------------------------------------------------------------


def first_start(items: Sequence[BookingItem]) -> datetime | None:
    """When the booking's earliest service starts (None for a booking without services)."""
    return min((item.start_datetime for item in items), default=None)


def cutoff(settings: BusinessSettings) -> timedelta:
    return timedelta(hours=max(0, settings.change_cutoff_hours))


def can_change(
    booking: Booking, first: datetime | None, *, now: datetime, settings: BusinessSettings
) -> bool:
    """The one rule: a pending or confirmed booking whose earliest service (`first`) starts
    more than the cutoff from `now`; one offered a move because of the weather
    (services/operations/weather.py) until it starts."""
    if booking.status not in CHANGEABLE_STATUSES or first is None:
        return False
    if booking.weather_offered_at is not None:
        return first > now
    return first - now > cutoff(settings)


# --- who may ----------------------------------------------------------------------------------------


def _booking_id(value: object) -> uuid.UUID:
    try:
        return uuid.UUID(str(value)[:64])
    except ValueError:
        raise BookingChangeError("not_found") from None


def _items(session: Session, booking_id: uuid.UUID) -> list[BookingItem]:
    return list(
        session.exec(
            select(BookingItem)
            .where(BookingItem.booking_id == booking_id)
            .order_by(col(BookingItem.start_datetime), col(BookingItem.id))
        ).all()
    )


def changer(booking: Booking, *, key: str | None, viewer_id: object, now: datetime) -> str | None:
    """'owner' for the signed-in account that placed the booking, 'link' for whoever holds its
    signed link; None for anyone else. `viewer_id` is the caller's id as the session row says
    (the state reads it at the event), `key` the link's signature, checked here."""
    if viewer_id and booking.user_id is not None and str(booking.user_id) == str(viewer_id):
        return "owner"
    if booking_links.verify_view_key(booking.id, key, now=now):
        return "link"
    return None


def _own_booking(
    session: Session, target: uuid.UUID, key: str | None, viewer_id: object, now: datetime
) -> tuple[Booking, list[BookingItem], str]:
    booking = session.get(Booking, target)
    by = changer(booking, key=key, viewer_id=viewer_id, now=now) if booking else None
    if booking is None or by is None:
        raise BookingChangeError("not_found")
    return booking, _items(session, booking.id), by


def change_options(
    *,
    session: Session,
    booking_id: object,
    key: str | None = None,
    viewer_id: object = "",
    now: datetime | None = None,
) -> ChangeOptions | None:
    """What the page offers: None when the caller may not change this booking at all (an admin
    looking, a stranger); else whether the cutoff and the status still allow a change."""
    now = now or utcnow()
    try:
        booking, items, _by = _own_booking(session, _booking_id(booking_id), key, viewer_id, now)
    except BookingChangeError:
        return None
    settings = business.settings_row(session)
    first = first_start(items)
    zone = dates.business_zone()
    deadline = first - cutoff(settings) if first is not None else None
    return ChangeOptions(
        allowed=can_change(booking, first, now=now, settings=settings),
        deadline=f"{dates.local_date(deadline, zone)} {dates.local_time(deadline, zone)}"
        if deadline
        else "",
        first_date=dates.local_date(first, zone) if first else "",
        first_day=first.astimezone(zone).date().isoformat() if first else "",
        first_time=dates.local_time(first, zone) if first else "",
        first_hours=_hours(items[0]) if items else 1,
        cutoff_hours=max(0, settings.change_cutoff_hours),
        phone=settings.phone,
        phone_href=phone_link(settings.phone),
    )


def phone_link(phone: str) -> str:
    """'+383 44 000 000' -> 'tel:+38344000000' (what a phone dials)."""
    dialled = "".join(c for c in phone if c.isdigit() or c == "+")
    return f"tel:{dialled}" if dialled else ""


def _check_open(session: Session, booking: Booking, items: list[BookingItem], now: datetime):
    if not can_change(
        booking, first_start(items), now=now, settings=business.settings_row(session)
    ):
        raise BookingChangeError("too_late")


# --- changing ---------------------------------------------------------------------------------------


def cancel_own(
    *,
    session: Session,
    booking_id: object,
    key: str | None = None,
    viewer_id: object = "",
    now: datetime | None = None,
) -> ChangeResult:
    """Cancel the booking and all its lines (their units are free at once), before the cutoff.
    Already cancelled: nothing more happens (a second click)."""
    target = _booking_id(booking_id)
    now = now or utcnow()

    def work() -> ChangeResult:
        booking, items, by = _own_booking(session, target, key, viewer_id, now)
        if booking.status == "cancelled":
            return ChangeResult(booking.reference, booking.status, changed=False)
        _check_open(session, booking, items, now)
        before = booking.status
        booking.status, booking.updated_at = "cancelled", now
        session.add(booking)
        for item in items:
            item.status, item.updated_at = "cancelled", now
            session.add(item)
        audit.record(
            session,
            actor_id=viewer_id if by == "owner" else None,
            action="booking_cancelled_by_customer",
            entity_type="booking",
            entity_id=booking.id,
            before={"status": before},
            after={"status": "cancelled"},
            reference=booking.reference,
            by=by,
        )
        _announce(session, booking, "cancelled", items, now)
        return ChangeResult(booking.reference, booking.status, changed=True)

    return _locked(session, target, work)


def move_own(
    *,
    session: Session,
    booking_id: object,
    day: object,
    start_time: object,
    key: str | None = None,
    viewer_id: object = "",
    accept_cutoff: bool = False,
    now: datetime | None = None,
) -> ChangeResult:
    """Move the whole booking so that its earliest service starts on `day` (YYYY-MM-DD as the
    picker gives it, or DD.MM.YYYY) at `start_time` (HH:MM), local; every other line keeps its
    distance from it, its service, its quantity and its hours. All lines fit or nothing changes.
    A new start inside the cutoff is refused (`inside_cutoff`) unless `accept_cutoff`: the
    customer has been told that the booking can then no longer be changed online. A confirmed
    booking goes back to pending, for the business to confirm the new time. Already there:
    nothing more happens (a second click)."""
    target = _booking_id(booking_id)
    now = now or utcnow()
    wanted = _wanted(day, start_time)

    def work() -> ChangeResult:
        booking, items, by = _own_booking(session, target, key, viewer_id, now)
        try:
            spans = _shifted(items, wanted)
        except BookingChangeError:
            _check_open(session, booking, items, now)  # past the cutoff says so first
            raise
        if all(spans[item.id][0] == item.start_datetime for item in items):
            return ChangeResult(booking.reference, booking.status, changed=False)
        settings = business.settings_row(session)
        _check_open(session, booking, items, now)
        _check_free(booking, items, spans, now, rules=_rules(session, items), session=session)
        new_first = min(start for start, _end in spans.values())
        if not accept_cutoff and new_first - now <= cutoff(settings):
            raise BookingChangeError("inside_cutoff", hours=cutoff_hours(settings))
        before = [_line_snapshot(item) for item in items]
        status_before = booking.status
        # Confirmed for the old time, not the new one: the business confirms it again.
        status = "pending" if status_before == "confirmed" else status_before
        for item in items:
            item.start_datetime, item.end_datetime = spans[item.id]
            if item.status == status_before:
                item.status = status
            item.updated_at = now
            session.add(item)
        booking.status, booking.updated_at = status, now
        # A move answers the weather's offer: the new day is an ordinary one.
        booking.weather_offered_at = None
        session.add(booking)
        session.flush()
        audit.record(
            session,
            actor_id=viewer_id if by == "owner" else None,
            action="booking_moved_by_customer",
            entity_type="booking",
            entity_id=booking.id,
            before={"items": before, "status": status_before},
            after={"items": [_line_snapshot(item) for item in items], "status": status},
            reference=booking.reference,
            by=by,
        )
        _announce(session, booking, "moved", before, now, reconfirm=status_before == "confirmed")
        return ChangeResult(booking.reference, booking.status, changed=True)

    return _locked(session, target, work)


def cutoff_hours(settings: BusinessSettings) -> int:
    return max(0, settings.change_cutoff_hours)


def _wanted(day: object, start_time: object) -> datetime:
    """The local wall-clock start asked for, or `invalid_time`."""
    wanted_day = dates.typed_day(day)
    try:
        clock = availability.parse_clock(str(start_time or "").strip()[:5])
    except availability.AvailabilityError:
        clock = None
    if wanted_day is None or clock is None:
        raise BookingChangeError("invalid_time")
    return datetime.combine(wanted_day, clock)


def _hours(item: BookingItem) -> int:
    """A line's booked hours, as the engine counts them (at least one)."""
    return max(1, round((item.end_datetime - item.start_datetime) / timedelta(hours=1)))


def _line_snapshot(item: BookingItem) -> dict[str, str]:
    return {
        "service_name": item.service_name,
        "start_datetime": item.start_datetime.isoformat(),
        "end_datetime": item.end_datetime.isoformat(),
    }


def _shifted(
    items: Sequence[BookingItem], wanted: datetime
) -> dict[uuid.UUID, tuple[datetime, datetime]]:
    """Each item's new (start, end) in UTC: the earliest moved to the local `wanted`, the others
    by the same distance on the wall clock, each as long as before. A start the clocks skip
    (the spring change) is refused with the item's service."""
    first = first_start(items)
    if first is None:
        raise BookingChangeError("not_found")
    zone = dates.business_zone()
    shift = wanted - first.astimezone(zone).replace(tzinfo=None)
    spans: dict[uuid.UUID, tuple[datetime, datetime]] = {}
    for item in items:
        local = item.start_datetime.astimezone(zone).replace(tzinfo=None) + shift
        start = availability.local_to_utc(local.date(), local.time(), zone)
        if start is None:
            raise _refused(item, local, "closed")
        spans[item.id] = (start, start + (item.end_datetime - item.start_datetime))
    return spans


def _holding(items: Sequence[BookingItem]) -> list[BookingItem]:
    """The lines that hold units and still have their service: the ones a move checks."""
    return [i for i in items if i.status in HOLD_STATUSES and i.service_id is not None]


def _rules(
    session: Session, items: Sequence[BookingItem]
) -> dict[uuid.UUID, availability.ServiceCalendar]:
    return {
        item.service_id: availability.load_rules(session=session, service_id=item.service_id)
        for item in _holding(items)
        if item.service_id is not None
    }


def _check_free(
    booking: Booking,
    items: Sequence[BookingItem],
    spans: dict[uuid.UUID, tuple[datetime, datetime]],
    now: datetime,
    *,
    rules: dict[uuid.UUID, availability.ServiceCalendar],
    session: Session,
    booked: dict[uuid.UUID, availability.ServiceCalendar] | None = None,
) -> None:
    """The engine's check of every line that holds units at its new time, this booking's own
    items left out (booking.check_lines_free); the first refused line names its service.
    `booked`: calendars already holding the other bookings of the days concerned (the move's
    picker), which are then not read again."""
    zone = dates.business_zone()
    holding = _holding(items)
    lines = []
    for item in holding:
        start, _end = spans[item.id]
        local = start.astimezone(zone)
        lines.append(
            BookingLine(
                str(item.service_id),
                item.quantity,
                local.date(),
                time(local.hour, local.minute),
                _hours(item),
            )
        )
    try:
        check_lines_free(session, lines, rules, now, booked=booked, exclude_booking=booking.id)
    except BookingError as error:
        if error.code not in ("slot_taken", "slot_unavailable"):
            raise
        item = holding[int(str(error.details["line"]))]
        local = spans[item.id][0].astimezone(zone).replace(tzinfo=None)
        reason = "taken" if error.code == "slot_taken" else str(error.details.get("reason"))
        raise _refused(item, local, reason) from None


# --- the move's picker: the days and times the whole booking fits ---------------------------


def move_days(
    *,
    session: Session,
    booking_id: object,
    year: int,
    month: int,
    key: str | None = None,
    viewer_id: object = "",
    now: datetime | None = None,
) -> list[availability.DayStatus]:
    """Each date of a month, available when the booking can move to one of its start times
    (`move_slots`): for the one who may change it, before the cutoff; else `not_found` or
    `too_late`. The month of the slot picker (state/slot_picker.py) while a booking moves."""
    if not isinstance(year, int) or not isinstance(month, int) or not 1 <= month <= 12:
        raise BookingChangeError("invalid_time")
    if not 2000 <= year <= 2100:
        raise BookingChangeError("invalid_time")
    now = now or utcnow()
    first = date(year, month, 1)
    last = date(year, month, calendar_module.monthrange(year, month)[1])
    mover = _Mover.open(session, booking_id, key, viewer_id, now, first, last)
    return [
        availability.DayStatus(day.isoformat(), any(slot.available for slot in mover.slots(day)))
        for day in (first + timedelta(days=n) for n in range((last - first).days + 1))
    ]


def move_slots(
    *,
    session: Session,
    booking_id: object,
    day: object,
    key: str | None = None,
    viewer_id: object = "",
    now: datetime | None = None,
) -> list[availability.Slot]:
    """The start times the booking's first service offers on `day` (YYYY-MM-DD), each free
    when every line of the booking, moved with it, passes the move's own check (`move_own`
    asks again, under the lock)."""
    try:
        wanted_day = availability.parse_day(day)
    except availability.AvailabilityError:
        raise BookingChangeError("invalid_time") from None
    now = now or utcnow()
    mover = _Mover.open(session, booking_id, key, viewer_id, now, wanted_day, wanted_day)
    return mover.slots(wanted_day)


@dataclass
class _Mover:
    """A booking being moved, with its services' rules and the other bookings of the days
    shown (read once): judges every start its first service offers by `_check_free`, the
    move's own check."""

    session: Session
    booking: Booking
    items: list[BookingItem]
    rules: dict[uuid.UUID, availability.ServiceCalendar]
    booked: dict[uuid.UUID, availability.ServiceCalendar]
    now: datetime

    @classmethod
    def open(
        cls,
        session: Session,
        booking_id: object,
        key: str | None,
        viewer_id: object,
        now: datetime,
        first_day: date,
        last_day: date,
    ) -> _Mover:
        booking, items, _by = _own_booking(session, _booking_id(booking_id), key, viewer_id, now)
        _check_open(session, booking, items, now)
        rules = _rules(session, items)
        first = first_start(items)
        # The lines after the first reach this many days further than the days shown.
        reach = max((item.end_datetime - first for item in items), default=timedelta(0))
        booked = {
            service_id: availability.with_booked_holds(
                calendar,
                session=session,
                service_id=service_id,
                first_day=first_day,
                last_day=last_day + timedelta(days=reach.days + 1),
                exclude_booking=booking.id,
            )
            for service_id, calendar in rules.items()
        }
        return cls(session, booking, items, rules, booked, now)

    def slots(self, day: date) -> list[availability.Slot]:
        anchor = self.items[0] if self.items else None
        if anchor is None or anchor.service_id not in self.booked:
            return []
        offered = availability.slots_for_day(
            self.booked[anchor.service_id],
            day,
            duration_hours=_hours(anchor),
            quantity=anchor.quantity,
            now=self.now,
        )
        return [
            availability.Slot(
                slot.start_time,
                slot.end_time,
                slot.available
                and self._fits(datetime.combine(day, availability.parse_clock(slot.start_time))),
            )
            for slot in offered
        ]

    def _fits(self, wanted: datetime) -> bool:
        try:
            spans = _shifted(self.items, wanted)
            _check_free(
                self.booking,
                self.items,
                spans,
                self.now,
                rules=self.rules,
                session=self.session,
                booked=self.booked,
            )
        except BookingChangeError:
            return False
        return True


def _refused(item: BookingItem, local: datetime, reason: str) -> BookingChangeError:
    details = {
        "service": item.service_name,
        "date": local.strftime(dates.DATE_FORMAT),
        "time": local.strftime("%H:%M"),
    }
    if reason == "taken":
        return BookingChangeError("slot_taken", **details)
    return BookingChangeError("slot_unavailable", reason=reason, **details)


# --- the transaction and its messages ---------------------------------------------------------


def _locked(session: Session, target: uuid.UUID, work: Callable[[], T]) -> T:
    """`work` in one transaction that starts by taking the engine's locks on the booking's
    services, committed when it returns; a lock not had in time is `busy`."""
    try:
        lock_booking_services(session, target)
        result = work()
        session.commit()
        return result
    except OperationalError as error:
        session.rollback()
        if is_lock_timeout(error):
            raise BookingChangeError("busy") from None
        raise
    except BaseException:
        session.rollback()
        raise


def _announce(
    session: Session,
    booking: Booking,
    change: str,
    before: Sequence[BookingItem] | Sequence[dict[str, str]],
    now: datetime,
    *,
    reconfirm: bool = False,
) -> None:
    """The staff's WhatsApp message and the customer's mail, in the change's transaction
    (services/messaging/notify.py renders them when they are sent: `change` is 'cancelled' or 'moved',
    `before` the lines' times before a move, `reconfirm` that a confirmed booking moved and
    waits to be confirmed again)."""
    payload: dict[str, object] = {"booking_id": str(booking.id), "change": change}
    if change == "moved":
        payload["before"] = list(before)
        payload["reconfirm"] = reconfirm
    for channel, topic, recipient in (
        ("whatsapp", "booking_change_staff", business.staff_whatsapp(session)),
        ("email", "booking_change", booking.contact_email),
    ):
        outbox.enqueue(
            session=session,
            channel=channel,
            topic=topic,
            recipient=recipient,
            payload=payload,
            booking_id=booking.id,
            now=now,
        )
