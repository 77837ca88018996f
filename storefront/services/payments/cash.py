"""The day's cash (docs/payments.md): for one day, what each member of staff collected, by
method, against what the day's bookings owed, the bookings left unpaid, and the cash each has
handed over to the business.

A member of staff's day is the payments they recorded that day (local time, the business's zone)
less those reversed since; the cash they hold is that day's cash less what they handed over for
it. An admin marks a handover: the amount they held at that moment, audited; payments are never
touched."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

from sqlalchemy import func
from sqlmodel import Session, col, select

from storefront.models import Booking, BookingItem, CashHandover, Payment, User, utcnow
from storefront.services import audit, dates, locks, permissions
from storefront.services.errors import ServiceError
from storefront.services.money import CENT
from storefront.services.payments import ledger

ZERO = Decimal("0.00")
# The statuses whose bookings the day counts as owing (a cancelled one owes nothing).
OWING_STATUSES = ("pending", "confirmed", "on_the_way", "completed")


class CashError(ServiceError):
    """Codes: the admin check's (and the staff check's), invalid_day, not_staff, nothing_held
    (no cash left to hand over), busy."""

    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "invalid_day": "Please give the day as DD.MM.YYYY.",
        "not_staff": "No such member of staff",
        "nothing_held": "There is no cash to hand over",
        "busy": "Please try again",
    }


@dataclass(frozen=True)
class StaffDay:
    """One member of staff's collections of the day."""

    staff_id: str
    name: str
    by_method: dict[str, Decimal]  # method -> net amount
    total: Decimal
    cash: Decimal
    handed_over: Decimal
    held: Decimal  # cash still with them
    handovers: list[str] = field(default_factory=list)  # 'HH:MM · amount · by Name'


@dataclass(frozen=True)
class UnpaidBooking:
    booking_id: str
    reference: str
    customer: str
    due: Decimal
    paid: Decimal
    balance: Decimal


@dataclass(frozen=True)
class DayCash:
    day: date
    previous: date
    next: date
    due: Decimal  # what the day's bookings owe
    paid: Decimal  # what was paid on them (any day, any method)
    collected: Decimal  # what staff and admins recorded this day
    staff: list[StaffDay]
    unpaid: list[UnpaidBooking]
    currency: str


def _day(value: object, now: datetime | None) -> date:
    if value in (None, ""):
        return dates.today(now)
    picked = dates.typed_day(value)
    if picked is None:
        raise CashError("invalid_day")
    return picked


def _recorded_on(day: date):
    start, end = dates.day_start_utc(day), dates.day_start_utc(day + timedelta(days=1))
    return (Payment.recorded_at >= start) & (Payment.recorded_at < end)


def _collections(
    session: Session, day: date, staff_id: uuid.UUID | None = None
) -> dict[uuid.UUID | None, dict[str, Decimal]]:
    """{recorder: {method: net}}: the payments recorded on `day`, less the reversals of them
    (whenever made): money reversed was not collected."""
    reversed_ids = select(Payment.reverses_id).where(col(Payment.reverses_id).is_not(None))
    query = (
        select(Payment.recorded_by_id, Payment.method, func.sum(Payment.amount))
        .where(
            _recorded_on(day),
            Payment.kind == "payment",
            col(Payment.id).not_in(reversed_ids),
        )
        .group_by(col(Payment.recorded_by_id), col(Payment.method))
    )
    if staff_id is not None:
        query = query.where(Payment.recorded_by_id == staff_id)
    found: dict[uuid.UUID | None, dict[str, Decimal]] = {}
    for recorder, method, amount in session.exec(query).all():
        found.setdefault(recorder, {})[method] = Decimal(amount).quantize(CENT)
    return found


def _handed(session: Session, day: date) -> dict[uuid.UUID | None, list[CashHandover]]:
    rows = session.exec(
        select(CashHandover).where(CashHandover.day == day).order_by(col(CashHandover.created_at))
    ).all()
    found: dict[uuid.UUID | None, list[CashHandover]] = {}
    for row in rows:
        found.setdefault(row.staff_id, []).append(row)
    return found


def my_day(*, session: Session, actor_id: object, day: date) -> dict[str, Decimal]:
    """What the caller recorded on `day`, by method (the day sheet's own total)."""
    actor = permissions.require_staff(session, actor_id, CashError)
    return _collections(session, day, actor.id).get(actor.id, {})


def day_cash(
    *, session: Session, actor_id: object, day: object = None, now: datetime | None = None
) -> DayCash:
    """The day's cash page (admins only)."""
    permissions.require_admin(session, actor_id, CashError)
    picked = _day(day, now)
    collections = _collections(session, picked)
    handovers = _handed(session, picked)
    people = {
        u.id: u
        for u in session.exec(
            select(User).where(col(User.id).in_([k for k in collections if k is not None]))
        ).all()
    }
    names = {
        row.recorded_by_id: row.recorded_by_name
        for row in session.exec(
            select(Payment).where(
                _recorded_on(picked), col(Payment.recorded_by_id).in_(list(collections))
            )
        ).all()
    }
    staff: list[StaffDay] = []
    for recorder, by_method in collections.items():
        done = handovers.get(recorder, [])
        cash = by_method.get("cash", ZERO)
        handed = sum((Decimal(h.amount) for h in done), ZERO)
        person = people.get(recorder) if recorder else None
        staff.append(
            StaffDay(
                staff_id=str(recorder or ""),
                name=(person.full_name or person.email) if person else names.get(recorder, ""),
                by_method=by_method,
                total=sum(by_method.values(), ZERO),
                cash=cash,
                handed_over=handed,
                held=max(cash - handed, ZERO),
                handovers=[
                    f"{dates.local_time(h.created_at)} · {h.amount} · {h.received_by_name}"
                    for h in done
                ],
            )
        )
    staff.sort(key=lambda s: s.name.lower())
    due, paid, unpaid = _the_days_bookings(session, picked)
    return DayCash(
        day=picked,
        previous=picked - timedelta(days=1),
        next=picked + timedelta(days=1),
        due=due,
        paid=paid,
        collected=sum((s.total for s in staff), ZERO),
        staff=staff,
        unpaid=unpaid,
        currency=_currency(),
    )


def _currency() -> str:
    from storefront.settings import get_settings

    return get_settings().currency


def _the_days_bookings(session: Session, day: date) -> tuple[Decimal, Decimal, list[UnpaidBooking]]:
    """What the bookings with a line starting on `day` owe, what was paid on them, and those
    with a balance left."""
    start, end = dates.day_start_utc(day), dates.day_start_utc(day + timedelta(days=1))
    ids = select(BookingItem.booking_id).where(
        BookingItem.start_datetime >= start, BookingItem.start_datetime < end
    )
    bookings = session.exec(
        select(Booking)
        .where(col(Booking.id).in_(ids), col(Booking.status).in_(OWING_STATUSES))
        .order_by(col(Booking.reference))
    ).all()
    paid = ledger.paid_of(session, [b.id for b in bookings])
    unpaid: list[UnpaidBooking] = []
    for booking in bookings:
        money = ledger.balance_of(booking, paid[booking.id])
        if money.balance > 0:
            unpaid.append(
                UnpaidBooking(
                    booking_id=str(booking.id),
                    reference=booking.reference,
                    customer=booking.contact_name or booking.contact_email,
                    due=money.due,
                    paid=money.paid,
                    balance=money.balance,
                )
            )
    due = sum((Decimal(b.total_amount) for b in bookings), ZERO).quantize(CENT)
    return due, sum(paid.values(), ZERO), unpaid


def hand_over(*, session: Session, actor_id: object, staff_id: object, day: object) -> CashHandover:
    """An admin took `staff_id`'s cash of `day`: a handover of what they held, audited. Nothing
    held: refused (a second press finds nothing left)."""
    picked = _day(day, None)
    try:
        member = uuid.UUID(str(staff_id))
    except (TypeError, ValueError):
        raise CashError("not_staff") from None
    locks.take(session, locks.cash(member))
    admin = permissions.require_admin(session, actor_id, CashError)
    person = session.get(User, member)
    if person is None:
        raise CashError("not_staff")
    cash = _collections(session, picked, member).get(member, {}).get("cash", ZERO)
    handed = sum((Decimal(h.amount) for h in _handed(session, picked).get(member, [])), ZERO)
    held = cash - handed
    if held <= 0:
        raise CashError("nothing_held")
    row = CashHandover(
        day=picked,
        staff_id=member,
        staff_name=(person.full_name or person.email or "")[:255],
        amount=held,
        currency=_currency(),
        received_by_id=admin.id,
        received_by_name=(admin.full_name or admin.email or "")[:255],
        created_at=utcnow(),
    )
    session.add(row)
    session.flush()
    audit.record(
        session,
        actor_id=admin.id,
        action="cash_handover",
        entity_type="user",
        entity_id=member,
        after=audit.snapshot(row),
    )
    return row
