"""A rainy day (issue 37): inflatables cannot be set up in rain or strong wind. An admin picks a
day and the kinds of service affected (the categories: bouncers by default) and, in one action,
offers every affected customer a move or a cancellation.

Each affected booking (pending or confirmed, with a line of those categories starting that day)
gets `weather_offered_at` and a mail in its language with its signed link (topic
'booking_weather', services/messaging/notify.py); nothing is cancelled or moved: the customer
chooses on the booking's page, where the change cutoff no longer applies to it
(services/booking/changes.py `can_change`), or the admin does. A booking already offered is not
mailed twice. The day sheet marks those jobs. One audit entry per booking offered."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlmodel import Session, col, select

from storefront.models import Booking, BookingItem, Service, ServiceCategory, utcnow
from storefront.services import audit, content, dates, permissions
from storefront.services.errors import ServiceError
from storefront.services.messaging import outbox
from storefront.services.messaging.notify import customer_name

# The categories (by slug) an admin's choice starts with.
DEFAULT_CATEGORIES = ("bouncers",)
# The bookings still to be driven: what an offer is made for.
OFFERED_STATUSES = ("pending", "confirmed")


class WeatherError(ServiceError):
    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "invalid_day": "Enter the day as DD.MM.YYYY",
        "past_day": "Choose today or a day to come",
        "no_categories": "Choose at least one kind of service",
    }


@dataclass(frozen=True)
class Affected:
    booking_id: str
    reference: str
    customer: str
    start: str  # HH:MM local, the earliest affected line's
    services: str  # 'Castle × 1 · Bubble house × 2': the affected lines
    offered: bool  # already offered (on an earlier press): not mailed again


def categories(*, session: Session) -> list[tuple[str, str, bool]]:
    """The categories an admin may choose: (slug, name in the language of the moment, chosen
    by default)."""
    rows = session.exec(select(ServiceCategory).order_by(col(ServiceCategory.name))).all()
    return [
        (row.slug, content.text(row.translations, "name", row.name), row.slug in DEFAULT_CATEGORIES)
        for row in rows
    ]


def _day(value: object, now: datetime) -> date:
    picked = dates.typed_day(value)
    if picked is None:
        raise WeatherError("invalid_day")
    if picked < dates.today(now):
        raise WeatherError("past_day")
    return picked


def _affected(
    session: Session, day: date, chosen: list[str]
) -> list[tuple[Booking, list[BookingItem]]]:
    start, end = dates.day_start_utc(day), dates.day_start_utc(day + timedelta(days=1))
    rows = session.exec(
        select(Booking, BookingItem)
        .join(BookingItem, col(BookingItem.booking_id) == Booking.id)
        .join(Service, col(Service.id) == BookingItem.service_id)
        .join(ServiceCategory, col(ServiceCategory.id) == Service.category_id)
        .where(
            BookingItem.start_datetime >= start,
            BookingItem.start_datetime < end,
            col(BookingItem.status).in_(OFFERED_STATUSES),
            col(Booking.status).in_(OFFERED_STATUSES),
            col(ServiceCategory.slug).in_(chosen),
        )
        .order_by(col(BookingItem.start_datetime), col(Booking.reference))
    ).all()
    found: dict[uuid.UUID, tuple[Booking, list[BookingItem]]] = {}
    for booking, item in rows:
        found.setdefault(booking.id, (booking, []))[1].append(item)
    return list(found.values())


def _chosen(values: object) -> list[str]:
    chosen = [str(v)[:120] for v in (values or []) if str(v).strip()]
    if not chosen:
        raise WeatherError("no_categories")
    return chosen


def affected(
    *,
    session: Session,
    actor_id: object,
    day: object,
    categories: object,
    now: datetime | None = None,
) -> list[Affected]:
    """The bookings the offer would reach (admins only): what the screen lists before the
    admin presses."""
    permissions.require_admin(session, actor_id, WeatherError)
    picked, chosen = _day(day, now or utcnow()), _chosen(categories)
    zone = dates.business_zone()
    return [
        Affected(
            booking_id=str(booking.id),
            reference=booking.reference,
            customer=customer_name(booking),
            start=dates.local_time(items[0].start_datetime, zone),
            services=" · ".join(f"{i.service_name} × {i.quantity}" for i in items),
            offered=booking.weather_offered_at is not None,
        )
        for booking, items in _affected(session, picked, chosen)
    ]


def offer_moves(
    *,
    session: Session,
    actor_id: object,
    day: object,
    categories: object,
    now: datetime | None = None,
) -> list[str]:
    """Offer every affected customer not offered yet a move or a cancellation (admins only):
    the mark, the mail in their language, an audit entry, in the caller's transaction. The
    references offered now (none on a second press)."""
    actor = permissions.require_admin(session, actor_id, WeatherError)
    now = now or utcnow()
    picked, chosen = _day(day, now), _chosen(categories)
    offered: list[str] = []
    for booking, items in _affected(session, picked, chosen):
        if booking.weather_offered_at is not None:
            continue
        booking.weather_offered_at = now
        session.add(booking)
        outbox.enqueue(
            session=session,
            channel="email",
            topic="booking_weather",
            recipient=booking.contact_email,
            payload={"booking_id": str(booking.id), "day": picked.isoformat()},
            booking_id=booking.id,
            now=now,
        )
        audit.record(
            session,
            actor_id=actor.id,
            action="booking_weather_offer",
            entity_type="booking",
            entity_id=booking.id,
            after={"day": picked.isoformat(), "categories": chosen},
            reference=booking.reference,
            services=[item.service_name for item in items],
        )
        offered.append(booking.reference)
    return offered
