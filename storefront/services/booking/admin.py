"""Changes to the back office's bookings: a booking's status (and cancelling a flood of pending
ones), editing it and deleting it (docs/product.md §2, 4, 5; docs/architecture.md §5). The list,
its CSV and one booking's detail are services/booking/admin_list.py; the week calendar is
services/operations/week.py; both use this module's admin check and error.

Every write is one transaction that first takes the booking engine's per-service locks
(`services/locks.py`), checks the caller is an admin in the database, re-checks capacity
with the one capacity check (`availability.check_in_order`) when the booking holds units, writes
the booking with all its items, and records the change in the audit log. An admin may override
a refusal for capacity only explicitly; the override is logged."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy.exc import OperationalError
from sqlmodel import Session, col, select

from storefront.i18n import N_o, _o
from storefront.models import (
    BOOKING_STATUSES,
    HOLD_STATUSES,
    AuditLog,
    Booking,
    BookingItem,
    User,
    utcnow,
)
from storefront.models.municipalities import find as find_municipality
from storefront.services import audit, dates, fields, locks, permissions
from storefront.services.booking import availability, transport
from storefront.services.booking.contact import (
    check_fields,
    fields_for,
    required_on,
    stored,
)
from storefront.services.booking.placing import lock_services_of
from storefront.services.booking.pricing import price_line
from storefront.services.errors import ServiceError
from storefront.services.fields import normalize_email
from storefront.services.messaging import outbox
from storefront.services.money import CENT, to_amount
from storefront.services.payments import ledger

MAX_PRICE = Decimal("1000000")
# The edit form's fields: the booking's column -> its name in the booking's one validation
# (booking.check_fields), with this screen's labels for its messages.
# The declared fields the admin edits (contact.fields_for("admin")), and the guests.
EDIT_FIELDS = {f.column: f.name for f in fields_for("admin")} | {"guest_count": "guest_count"}
# Required on every booking (docs/product.md §5); the venue address too when the booking has one
# (`update_booking`): a booking placed on the booking screen may have none.
REQUIRED_FIELDS = required_on("admin")
EDIT_LABELS = {
    "full_name": N_o("Customer name"),
    "phone": N_o("Phone"),
    "address": N_o("Venue address"),
}
TOTAL_MESSAGE = N_o("Total must be a number of 0 or more")
PAST_MESSAGE = "This would move the booking into the past"
NOTES_MAX = 2000


class AdminBookingError(ServiceError):
    """Codes: no_user, not_allowed, not_found, invalid_status (staff: why not now, in
    `message`), changed (the status changed since the admin saw it), nothing_to_undo,
    invalid_filter,
    invalid (details `fields`: {field: code}, `messages`: {field: message}), in_past (details
    `lines`: the services a save would move into the past), over_capacity
    (details `conflicts`: the items that would not fit; `fingerprint`: what an override must
    send back to confirm exactly these; `changed`: an override was sent for conflicts that are
    no longer the ones there are), busy (the lock could not be had in time), has_payments (a
    booking with payments or a receipt number is kept: cancel it instead)."""

    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "busy": "Please try again",
        "changed": "The status changed meanwhile",
        "invalid": "Please fill in all required fields",
        "invalid_filter": "Cancel by email or by address",
        "invalid_status": "Unknown status",
        "in_past": PAST_MESSAGE,
        "not_found": "Booking not found",
        "nothing_to_undo": "There is no status change to undo",
        "over_capacity": "This would overbook",
        "has_payments": "A booking with payments or a receipt is cancelled, not deleted",
    }


# --- who may ----------------------------------------------------------------------------------


# What staff (drivers, decorators) may set, and from which status (docs/architecture.md §9.17):
# 'on the way' a confirmed booking on a day one of its services starts, 'completed' a booking on
# its way, from its first day on (`staff_statuses`). Admins set any status (the booking detail)
# and undo a change (`undo_status`).
STAFF_STATUSES = {
    "on_the_way": ("confirmed",),
    "completed": ("on_the_way",),
}
# Why staff may not set a status now: shown as it is, translated by the state that calls.
NOT_CONFIRMED = N_o("Only a confirmed booking can be set on the way.")
NOT_ITS_DAY = N_o("A booking is set on the way only on its day.")
NOT_ON_ITS_WAY = N_o("Only a booking on its way can be set completed.")
BEFORE_ITS_DAY = N_o("A booking is set completed only from its day on.")


def service_days(items: Sequence[BookingItem], zone=None) -> set[date]:
    """The days (the business's zone) on which the booking's services that still count start."""
    zone = zone or dates.business_zone()
    return {i.start_datetime.astimezone(zone).date() for i in items if i.status != "cancelled"}


def _staff_refusal(status: str, before: str, days: set[date], today: date) -> str:
    """Why staff may not set `status` today on a booking that is `before` whose services start
    on `days`; '' when they may. The one rule of the server and of the day sheet's buttons."""
    if status not in STAFF_STATUSES:
        return "Only admins may do this"
    if before not in STAFF_STATUSES[status]:
        return NOT_CONFIRMED if status == "on_the_way" else NOT_ON_ITS_WAY
    if status == "on_the_way" and today not in days:
        return NOT_ITS_DAY
    if status == "completed" and (not days or today < min(days)):
        return BEFORE_ITS_DAY
    return ""


def staff_statuses(before: str, days: set[date], today: date) -> list[str]:
    """The statuses staff may set `today` on a booking that is `before` whose services start
    on `days` (the day sheet's buttons)."""
    return [s for s in STAFF_STATUSES if not _staff_refusal(s, before, days, today)]


def _require_for_status(
    session: Session, actor_id: object, status: str, booking_id: uuid.UUID
) -> User:
    """The caller when they may set `status` at all: an admin any, a member of staff only on
    the way or completed (whether this booking may go there now: `_staff_refusal`), and only
    on a job of their van once a van has it (permissions.require_crew, issue 37)."""
    if status not in STAFF_STATUSES:
        return permissions.require_admin(session, actor_id, AdminBookingError)
    return permissions.require_crew(session, actor_id, booking_id, AdminBookingError)


def _booking_id(value: object) -> uuid.UUID:
    try:
        return uuid.UUID(str(value)[:64])
    except ValueError:
        raise AdminBookingError("not_found", "Booking not found") from None


def _moment(moment: datetime, zone) -> str:
    return f"{dates.local_date(moment, zone)} {dates.local_time(moment, zone)}"


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
    lock_services_of(session, booking_id)


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


# Statuses the customer is mailed about once per booking: a second 'on the way' after an undo
# (the crew sets out again) or a second 'completed' would only confuse them.
MAILED_ONCE = ("on_the_way", "completed")
STATUS_ACTION = "booking_status"
UNDO_ACTION = "booking_status_undo"
REASON_MAX = 500


def _status_entries(session: Session, booking_id: uuid.UUID) -> list[AuditLog]:
    """The booking's status changes made in the back office (set and undone), newest first."""
    return list(
        session.exec(
            select(AuditLog)
            .where(
                AuditLog.entity_type == "booking",
                AuditLog.entity_id == str(booking_id),
                col(AuditLog.action).in_((STATUS_ACTION, UNDO_ACTION)),
            )
            .order_by(col(AuditLog.created_at).desc(), col(AuditLog.id))
        ).all()
    )


def _moved(entry: AuditLog) -> tuple[str, str]:
    """(from, to) of a status entry."""
    details = entry.details or {}
    before = (details.get("before") or {}).get("status")
    after = (details.get("after") or {}).get("status")
    return str(before or ""), str(after or "")


def _announced(session: Session, booking_id: uuid.UUID, status: str) -> bool:
    """Whether the booking was set to `status` before from the back office (and so mailed)."""
    return any(
        e.action == STATUS_ACTION and (moved := _moved(e))[1] == status and moved[0] != status
        for e in _status_entries(session, booking_id)
    )


def _undo_step(session: Session, booking: Booking) -> tuple[AuditLog, str] | None:
    """The change an undo takes back and the status it restores; None when there is none.

    The back office's status changes of a booking form a stack: an undo takes back the latest
    change not undone yet (a second undo the one before it, and so on). When the booking's
    status is not the one that change left (a customer cancelled since, or a flood was
    cancelled), there is nothing to undo: the admin sets the status by hand."""
    undone = 0
    for entry in _status_entries(session, booking.id):
        before, after = _moved(entry)
        if before == after:
            continue
        if entry.action == UNDO_ACTION:
            undone += 1
        elif undone:
            undone -= 1
        else:
            return (entry, before) if after == booking.status and before else None
    return None


def undo_target(session: Session, booking: Booking) -> str:
    """The status an undo would set the booking back to; '' when nothing can be undone."""
    step = _undo_step(session, booking)
    return step[1] if step else ""


def _spans(items: Sequence[BookingItem]) -> list[_Span]:
    return [
        _Span(i.service_id, i.service_name, i.start_datetime, i.end_datetime, i.quantity)
        for i in items
    ]


def set_status(
    *,
    session: Session,
    actor_id: object,
    booking_id: object,
    status: object,
    override: str = "",
    now: datetime | None = None,
) -> StatusChange:
    """Set the booking and all its items to `status` (docs/product.md §4), re-checking capacity
    when the new status holds units again, and mail the customer through the outbox (on the way
    and completed once per booking, `MAILED_ONCE`). An admin sets any status; staff set on the
    way and completed, on the booking's day (`_staff_refusal`, the day sheet). `override` is the
    fingerprint of the conflicts the admin was shown and confirms (see `_confirm_override`)."""
    status = str(status)
    if status not in BOOKING_STATUSES:
        raise AdminBookingError("invalid_status", "Unknown status")
    target = _booking_id(booking_id)
    now = now or utcnow()

    def work() -> StatusChange:
        booking = session.get(Booking, target)
        actor = _require_for_status(session, actor_id, status, target)
        if booking is None:
            raise AdminBookingError("not_found", "Booking not found")
        items = _items(session, booking.id)
        if actor.role != "admin":
            refusal = _staff_refusal(status, booking.status, service_days(items), dates.today(now))
            if refusal:
                raise AdminBookingError("invalid_status", refusal)
        conflicts: list[str] = []
        # Units are checked when the booking starts holding them again; on its way from pending
        # or confirmed it holds them already.
        already_held = status == "on_the_way" and booking.status in HOLD_STATUSES
        if status in HOLD_STATUSES and status != booking.status and not already_held:
            found = _conflicts(session, booking.id, _spans(items))
            _confirm_override(found, override)
            conflicts = found.labels
        before = booking.status
        mail = before != status and not (
            status in MAILED_ONCE and _announced(session, booking.id, status)
        )
        # Lines whose own status differed (the edit page sets a line's): what an undo restores.
        lines_before = {str(i.id): i.status for i in items if i.status != before}
        booking.status, booking.updated_at = status, now
        session.add(booking)
        for item in items:
            item.status, item.updated_at = status, now
            session.add(item)
        extra: dict[str, Any] = {"override": True, "conflicts": conflicts} if conflicts else {}
        if lines_before:
            extra["lines_before"] = lines_before
        audit.record(
            session,
            actor_id=actor.id,
            action=STATUS_ACTION,
            entity_type="booking",
            entity_id=booking.id,
            before={"status": before},
            after={"status": status},
            reference=booking.reference,
            **extra,
        )
        if mail:
            _mail_status(session, booking, status, now, by=actor.id)
        return StatusChange(status, tuple(conflicts))

    _locked(session, target)
    return _in_transaction(session, work)


def _mail_status(
    session: Session, booking: Booking, status: str, now: datetime, *, by: object = None
) -> None:
    """The customer's status mail; `by`, who set it: the 'on the way' mail gives their phone."""
    payload = {"booking_id": str(booking.id), "status": status}
    if by:
        payload["by"] = str(by)
    outbox.enqueue(
        session=session,
        channel="email",
        topic="booking_status",
        recipient=booking.contact_email,
        payload=payload,
        booking_id=booking.id,
        now=now,
    )


def undo_status(
    *,
    session: Session,
    actor_id: object,
    booking_id: object,
    reason: object,
    seen: object,
    now: datetime | None = None,
) -> StatusChange:
    """Set the booking back to the status before its latest status change (`_undo_step`), with
    the admin's reason, audited (`booking_status_undo`: from, to, reason). `seen` is the status
    the admin was shown: when it changed meanwhile, nothing is undone (`changed`). What an undo
    means for each status is docs/architecture.md §5 ('Undoing a status'):
    - the lines go back with the booking (each to its own status when it had one);
    - back from cancelled (or completed) to a status that holds units, capacity is checked
      again (`over_capacity`: the admin sets the status by hand to override);
    - the customer is mailed only when a cancelled booking stands again; undoing on the way,
      completed or confirmed mails nothing, and the crew setting out again mails no second
      'on the way' (`MAILED_ONCE`)."""
    target = _booking_id(booking_id)
    now = now or utcnow()

    def work() -> StatusChange:
        actor = permissions.require_admin(session, actor_id, AdminBookingError).id
        booking = session.get(Booking, target)
        if booking is None:
            raise AdminBookingError("not_found", "Booking not found")
        said = fields.multi_line(reason, _o("Reason"), REASON_MAX, required=True)
        if str(seen) != booking.status:
            raise AdminBookingError("changed", "The status changed meanwhile")
        step = _undo_step(session, booking)
        if step is None:
            raise AdminBookingError("nothing_to_undo", "There is no status change to undo")
        entry, status = step
        items = _items(session, booking.id)
        lines_before = (entry.details or {}).get("lines_before") or {}
        back = {i.id: str(lines_before.get(str(i.id)) or status) for i in items}
        if status in HOLD_STATUSES and booking.status not in HOLD_STATUSES:
            held = [i for i in items if back[i.id] in HOLD_STATUSES]
            found = _conflicts(session, booking.id, _spans(held))
            _confirm_override(found, "")
        before = booking.status
        booking.status, booking.updated_at = status, now
        session.add(booking)
        for item in items:
            item.status, item.updated_at = back[item.id], now
            session.add(item)
        audit.record(
            session,
            actor_id=actor,
            action=UNDO_ACTION,
            entity_type="booking",
            entity_id=booking.id,
            before={"status": before},
            after={"status": status},
            reason=said,
            undoes=str(entry.id),
            reference=booking.reference,
        )
        if before == "cancelled" and status in ("pending", "confirmed"):
            _mail_status(session, booking, status, now)  # it stands again: they must know
        return StatusChange(status, ())

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
        raise AdminBookingError("not_found", N_o("Booking not found"))
    if by == "email":
        return Booking.contact_email, found.contact_email
    if not found.client_address:
        # Shown to the admin as it is, translated there (state/admin_bookings.py).
        raise AdminBookingError(
            "not_found", N_o("No internet address (IP) was recorded for this booking")
        )
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
    permissions.require_admin(session, actor_id, AdminBookingError)
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
    permissions.require_admin(session, actor_id, AdminBookingError)
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
        actor = permissions.require_admin(session, actor_id, AdminBookingError).id
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
    """One booked service as the edit form sends it: its rate (per hour or per event, as the
    line was booked), quantity, date, time, hours, and its own status and notes."""

    id: str
    unit_price: object
    quantity: object
    date: object  # YYYY-MM-DD local
    start_time: object  # HH:MM local
    duration_hours: object
    status: object = ""  # '' keeps the line's status
    notes: object = None  # None keeps the line's notes


@dataclass(frozen=True)
class BookingEdit:
    contact_email: object
    contact_phone: object
    venue_address: object
    event_type: object
    guest_count: object
    special_requests: object
    items: tuple[ItemEdit, ...] = ()
    contact_name: object = ""
    city: object = ""
    zip_code: object = ""
    # The declared fields the admin edits that have no attribute above, by column.
    extra: Mapping[str, object] = field(default_factory=dict)
    # An explicit total instead of the sum of the lines ('' or None: the sum); the audit log
    # records that it was set by hand.
    total_amount: object = ""


def _text(value: object) -> str | None:
    return value.strip() if isinstance(value, str) else None


def _check_edit(
    edit: BookingEdit, *, address_required: bool
) -> tuple[dict[str, Any], dict[str, str], dict[str, str]]:
    """The clean values, {field: code} (required, invalid, too_long, not_one_line,
    unprintable, out_of_range) and {field: message}: the booking's one validation
    (booking.check_fields, the same rules and limits as checkout), with this screen's labels.
    The venue address is required when the booking has one."""
    values = {
        name: getattr(edit, column) if hasattr(edit, column) else edit.extra.get(column, "")
        for column, name in EDIT_FIELDS.items()
    }
    values["event_type"] = _text(edit.event_type) or ""
    values["guest_count"] = _integer(edit.guest_count)
    required = REQUIRED_FIELDS + (("address",) if address_required else ())
    labels = {name: _o(label) for name, label in EDIT_LABELS.items()}
    checked = check_fields(values, required=required, labels=labels)
    column = {name: col for col, name in EDIT_FIELDS.items()}
    clean = {column[name]: value for name, value in checked.values.items()}
    codes = {column[name]: code for name, code in checked.codes.items()}
    messages = {column[name]: text for name, text in checked.messages.items()}
    total = _text(edit.total_amount) if edit.total_amount is not None else ""
    if total is None and isinstance(edit.total_amount, int | float | Decimal):
        total = str(edit.total_amount)
    if total:
        amount = to_amount(total, default=Decimal("-1"))
        if not Decimal("0") <= amount <= MAX_PRICE:
            codes["total_amount"] = "invalid"
            messages["total_amount"] = _o(TOTAL_MESSAGE)
        else:
            clean["total_amount"] = amount.quantize(CENT)
    elif total is None:
        codes["total_amount"], messages["total_amount"] = "invalid", _o(TOTAL_MESSAGE)
    return clean, codes, messages


def _repriced_transport(session: Session, booking: Booking) -> Decimal:
    """The transport to a booking's new municipality as the settings price it now; one not
    served online keeps what the booking had (the business agreed it by phone), none costs
    nothing."""
    found = find_municipality(booking.city)
    if found is None:
        return Decimal("0.00")
    fee = transport.transport_fee(session, found.key)
    return Decimal(booking.transport_amount or 0) if fee is None else fee


def _integer(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _check_item(
    index: int, edit: ItemEdit, errors: dict[str, str], messages: dict[str, str]
) -> dict[str, Any] | None:
    def fail(field: str, message: str) -> None:
        errors[f"items.{index}.{field}"] = "invalid"
        messages[f"items.{index}.{field}"] = message

    rate = to_amount(edit.unit_price, default=Decimal("-1"))
    if not isinstance(edit.unit_price, int | float | str | Decimal) or isinstance(
        edit.unit_price, bool
    ):
        rate = Decimal("-1")
    if not Decimal("0") <= rate <= MAX_PRICE:
        fail("unit_price", _o("Price must be a number of 0 or more"))
    quantity = _integer(edit.quantity)
    if quantity is None or not 1 <= quantity <= availability.MAX_QUANTITY:
        fail(
            "quantity",
            _o("Quantity must be between 1 and {most}").format(most=availability.MAX_QUANTITY),
        )
    hours = _integer(edit.duration_hours)
    low, high = availability.MIN_DURATION_HOURS, availability.MAX_DURATION_HOURS
    if hours is None or not low <= hours <= high:
        fail(
            "duration_hours",
            _o("Duration must be between {least} and {most} hours").format(least=low, most=high),
        )
    start = None
    try:
        day = dates.typed_day(edit.date)
        if day is None:
            raise availability.AvailabilityError("invalid_date")
        clock = availability.parse_clock(str(edit.start_time))
        start = availability.local_to_utc(day, clock, dates.business_zone())
    except availability.AvailabilityError:
        pass
    if start is None:
        fail("date", _o("Choose a date and a time"))
    status = _text(edit.status) or ""
    if status and status not in BOOKING_STATUSES:
        fail("status", _o("Unknown status"))
    notes = edit.notes
    if notes is not None:
        notes = _text(notes)
        if notes is None or len(notes) > NOTES_MAX:
            fail("notes", _o("Notes are at most {most} characters").format(most=NOTES_MAX))
    if any(key.startswith(f"items.{index}.") for key in errors):
        return None
    return {
        "rate": rate.quantize(CENT),
        "quantity": quantity,
        "hours": hours,
        "start": start,
        "end": start + timedelta(hours=hours),
        "status": status,
        "notes": notes,
    }


def line_price(rate: Decimal, price_unit: str, hours: int) -> Decimal:
    """The price of one unit of a line for its hours: the checkout's pricing (booking.price_line)."""
    return price_line(price=rate, price_unit=price_unit, quantity=1, duration_hours=hours)


def update_booking(
    *,
    session: Session,
    actor_id: object,
    booking_id: object,
    edit: BookingEdit,
    override: str = "",
    confirm_past: bool = False,
    now: datetime | None = None,
) -> None:
    """'Save Changes' (docs/product.md §5): the booking's fields and its services in one
    transaction. Each line is priced as checkout prices it (rate x hours x quantity per hour,
    rate x quantity per event) and the total is their sum, unless the admin set one by hand; the
    new times are re-checked for capacity while the booking holds units; a line moved into the
    past needs `confirm_past`. The address is required when the booking has one (the booking
    screen does not ask for it; docs/product.md, 'Bookings without an address')."""
    target = _booking_id(booking_id)
    now = now or utcnow()

    def work() -> None:
        actor = permissions.require_admin(session, actor_id, AdminBookingError).id
        booking = session.get(Booking, target)
        if booking is None:
            raise AdminBookingError("not_found", "Booking not found")
        clean, errors, messages = _check_edit(
            edit, address_required=bool(booking.venue_address.strip())
        )
        if not isinstance(edit.items, tuple | list):
            errors["items"] = "invalid"
        items_by_id: dict[str, dict[str, Any]] = {}
        for index, item in enumerate(edit.items if isinstance(edit.items, tuple | list) else ()):
            if not isinstance(item, ItemEdit):
                errors[f"items.{index}"] = "invalid"
                continue
            checked = _check_item(index, item, errors, messages)
            if checked is not None:
                items_by_id[str(item.id)] = checked
        if errors:
            raise AdminBookingError(
                "invalid", "Please fill in all required fields", fields=errors, messages=messages
            )
        items = _items(session, booking.id)
        if set(items_by_id) - {str(i.id) for i in items}:
            raise AdminBookingError("invalid", "Unknown service line", fields={"items": "invalid"})
        moved_past = [
            i.service_name
            for i in items
            if (change := items_by_id.get(str(i.id)))
            and change["start"] != i.start_datetime
            and change["start"] < now
        ]
        if moved_past and not confirm_past:
            raise AdminBookingError("in_past", PAST_MESSAGE, lines=moved_past)
        before = {"booking": audit.snapshot(booking), "items": [audit.snapshot(i) for i in items]}
        for item in items:
            change = items_by_id.get(str(item.id))
            if change is None:
                continue
            item.unit_price = change["rate"]
            item.service_price = line_price(change["rate"], item.price_unit, change["hours"])
            item.quantity = change["quantity"]
            item.start_datetime, item.end_datetime = change["start"], change["end"]
            if change["status"]:
                item.status = change["status"]
            if change["notes"] is not None:
                item.notes = change["notes"] or None
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
                    if i.status in HOLD_STATUSES
                ],
            )
            _confirm_override(found, override)
            conflicts = found.labels
        city_before = booking.city
        for declared in fields_for("admin"):  # models/contact_fields.py
            setattr(booking, declared.column, stored(declared, clean[declared.column]))
        if booking.city != city_before:
            booking.transport_amount = _repriced_transport(session, booking)
        booking.contact_email = normalize_email(clean["contact_email"])
        booking.guest_count = clean["guest_count"]
        lines_total = sum(
            (Decimal(i.service_price) * i.quantity for i in items), Decimal("0")
        ).quantize(CENT)
        by_hand = clean.get("total_amount")
        # What it owes: its lines and the transport to its municipality (issue 36).
        owed = lines_total + Decimal(booking.transport_amount or 0)
        booking.total_amount = owed if by_hand is None else by_hand
        booking.updated_at = now
        session.add(booking)
        for item in items:
            session.add(item)
        session.flush()
        extra: dict[str, Any] = {"override": True, "conflicts": conflicts} if conflicts else {}
        if by_hand is not None and by_hand != owed:
            extra["total_set_by_hand"] = {"lines_total": f"{lines_total:.2f}"}
        if moved_past:
            extra["moved_into_past"] = moved_past
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
        actor = permissions.require_admin(session, actor_id, AdminBookingError).id
        booking = session.get(Booking, target)
        if booking is None:
            raise AdminBookingError("not_found", "Booking not found")
        if ledger.has_money(session, booking.id):
            raise AdminBookingError("has_payments")
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
    unit_price: str  # '80.00': the rate, per hour or per event
    price_unit: str  # per_hour | per_event
    line_price: str  # '160.00': one unit for the booked hours (the rate x hours per hour)
    quantity: int
    date: str  # YYYY-MM-DD local, for a date field
    start_time: str  # HH:MM local
    duration_hours: int
    status: str
    notes: str


@dataclass(frozen=True)
class EditForm:
    id: str
    reference: str
    status: str
    contact_name: str
    contact_email: str
    contact_phone: str
    venue_address: str
    address_required: bool  # the booking has an address, which may be changed, not removed
    city: str
    zip_code: str
    event_type: str
    guest_count: int
    special_requests: str
    total_amount: str  # '1198.00' as stored
    lines_total: str  # the sum of its lines as they are priced
    lines: tuple[EditLine, ...]
    # The transport to its municipality ('25.00'), part of the total (issue 36).
    transport_amount: str = "0.00"
    # The declared fields the admin edits that have no attribute above: column -> value.
    extra: dict[str, str] = field(default_factory=dict)


def edit_form(*, session: Session, actor_id: object, booking_id: object) -> EditForm:
    """The booking as the edit form fills its fields."""
    permissions.require_admin(session, actor_id, AdminBookingError)
    found = session.get(Booking, _booking_id(booking_id))
    if found is None:
        raise AdminBookingError("not_found", "Booking not found")
    zone = dates.business_zone()
    items = _items(session, found.id)
    return EditForm(
        id=str(found.id),
        reference=found.reference,
        status=found.status,
        contact_name=found.contact_name or "",
        contact_email=found.contact_email,
        contact_phone=found.contact_phone,
        venue_address=found.venue_address,
        address_required=bool(found.venue_address.strip()),
        city=found.city or "",
        zip_code=found.zip_code or "",
        event_type=(found.event_type or "other").lower(),
        guest_count=found.guest_count or 1,
        special_requests=found.special_requests or "",
        total_amount=f"{Decimal(found.total_amount):.2f}",
        lines_total=f"{sum((Decimal(i.service_price) * i.quantity for i in items), Decimal('0')):.2f}",
        transport_amount=f"{Decimal(found.transport_amount or 0):.2f}",
        lines=tuple(
            EditLine(
                id=str(item.id),
                service_name=item.service_name,
                unit_price=f"{Decimal(item.unit_price):.2f}",
                price_unit=item.price_unit,
                line_price=f"{Decimal(item.service_price):.2f}",
                quantity=item.quantity,
                date=item.start_datetime.astimezone(zone).date().isoformat(),
                start_time=dates.local_time(item.start_datetime, zone),
                duration_hours=max(
                    1, round((item.end_datetime - item.start_datetime) / timedelta(hours=1))
                ),
                status=item.status,
                notes=item.notes or "",
            )
            for item in items
        ),
        extra={
            f.column: str(getattr(found, f.column) or "") for f in fields_for("admin", added=True)
        },
    )
