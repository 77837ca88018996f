"""Rows the booking tests and benchmarks need: a bookable service with its capacity and hours,
and a contact who books."""

from __future__ import annotations

import uuid
from datetime import time, timedelta
from decimal import Decimal

from sqlmodel import Session

from storefront.models import (
    BusinessSettings,
    NotificationOutbox,
    Service,
    ServiceAvailability,
    ServiceCapacity,
    utcnow,
)
from storefront.services.booking.contact import Contact
from storefront.services.booking.lines import BookingLine


def make_service(
    session: Session,
    *,
    title: str = "Bouncy castle",
    price: str = "100.00",
    price_unit: str = "per_hour",
    units: int | None = 1,
    buffer_minutes: int = 0,
    hours: list[tuple[int, str, str, int, int]] | None = None,
    active: bool = True,
    status: str = "published",
) -> Service:
    """A service; `units` None leaves out the capacity row; `hours` are availability rows
    (day_of_week, start, end, slot minutes, max bookings per slot)."""
    service = Service(
        title=title,
        slug=f"{title.lower().replace(' ', '-')}-{uuid.uuid4().hex[:6]}",
        price=Decimal(price),
        price_unit=price_unit,
        active=active,
        status=status,
    )
    session.add(service)
    session.flush()
    if units is not None:
        session.add(
            ServiceCapacity(
                service_id=service.id, total_units=units, buffer_time_minutes=buffer_minutes
            )
        )
    for day, start, end, slot, max_per_slot in hours or []:
        session.add(
            ServiceAvailability(
                service_id=service.id,
                day_of_week=day,
                start_time=time.fromisoformat(start),
                end_time=time.fromisoformat(end),
                slot_duration_minutes=slot,
                max_bookings_per_slot=max_per_slot,
            )
        )
    session.flush()
    return service


def set_min_notice(session: Session, hours: int) -> None:
    settings = session.get(BusinessSettings, 1) or BusinessSettings(id=1)
    settings.min_notice_hours = hours
    session.add(settings)
    session.flush()


def contact(**overrides) -> Contact:
    values = {
        "full_name": "Arta Krasniqi",
        "email": "Arta.Krasniqi@Example.com",
        "phone": "+383 44 123 456",
        "address": "Rruga Agim Ramadani 15",
        "city": "Prishtina",
        "state": "",
        "zip_code": "10000",
        "event_type": "Birthday",
        "guest_count": 40,
        "special_requests": "",
    }
    return Contact(**(values | overrides))


def line(service: Service | str, day: str, start: str, hours: int = 1, quantity: int = 1):
    service_id = str(service.id) if isinstance(service, Service) else service
    return BookingLine(service_id, quantity, day, start, hours)


def place(session: Session, lines, *, now, key=None, address=None, **contact_fields):
    """Place a booking of `lines` for the factory's customer (`contact_fields` change it) at
    `now`, under a fresh idempotency key unless `key` is given, from `address` if one is."""
    from storefront.services.booking import placing

    session.commit()
    return placing.place_booking(
        session=session,
        lines=lines,
        contact=contact(**contact_fields),
        idempotency_key=key or f"key-{uuid.uuid4().hex}",
        now=now,
        **({"client_address": address} if address else {}),
    )


def booking_statuses(session: Session, booking_id: str) -> tuple[str, set[str]]:
    """A booking's stored status and the set of its items' statuses, read afresh."""
    from sqlmodel import select

    from storefront.models import Booking, BookingItem

    session.expire_all()
    stored = session.get(Booking, uuid.UUID(booking_id))
    items = set(session.exec(select(BookingItem.status).where(BookingItem.booking_id == stored.id)))
    session.commit()
    return stored.status, items


def make_user(session: Session, *, role: str = "user", email: str | None = None):
    """An account (no password) with `role`."""
    from storefront.models import User

    user = User(email=email or f"{role}-{uuid.uuid4().hex[:8]}@example.com", role=role)
    session.add(user)
    session.flush()
    return user


def signed_in_account(
    database_url: str, *, role: str = "user", password: str, full_name: str
) -> tuple[str, str, str]:
    """A new account of `role` with a signed-in session, written straight to the database of a
    running app: (user id, email, session token for the `sf_session` cookie)."""
    from storefront.db import make_engine
    from storefront.models import User
    from storefront.services.accounts import auth

    engine = make_engine(database_url)
    try:
        with Session(engine) as session:
            user = User(
                email=f"{role}-{uuid.uuid4().hex[:8]}@example.com",
                full_name=full_name,
                password_hash=auth.hash_password(password),
                role=role,
            )
            session.add(user)
            session.flush()
            token = auth.create_session(session=session, user_id=user.id, remember=False)
            session.commit()
            return str(user.id), user.email, token
    finally:
        engine.dispose()


def image_bytes(fmt: str = "PNG", size: tuple[int, int] = (64, 48), color=(200, 40, 160)) -> bytes:
    """A small real image."""
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format=fmt)
    return out.getvalue()


def settings_form(**overrides) -> dict[str, object]:
    """The admin Settings form as a browser sends it, valid unless `overrides` say otherwise."""
    return {
        "business_name": "Magic Events Prishtina",
        "phone": "+383 44 111 222",
        "whatsapp_number": "+383 44 111 222",
        "instagram": "@magic.ks",
        "facebook": "magic.ks",
        "address": "Rruga B, Prishtina",
        "email": "hello@magic.example",
        "opening_hours": "Mon-Sat 9-19",
        "min_notice_hours": "48",
        "reminder_lead_hours": "24",
        "digest_hour": "19",
        "change_cutoff_hours": "48",
        "deposit_percent": "0",
        "deposit_above": "0",
        "fiscal_number": "",
    } | overrides


def outbox_row(session, *, status, age, error=None):
    """A WhatsApp row of the outbox, queued `age` ago in `status` (a failed attempt when `error`)."""
    now = utcnow()
    session.add(
        NotificationOutbox(
            channel="whatsapp",
            topic="contact_request",
            recipient="+38344000000",
            payload={"name": "Arta"},
            status=status,
            attempts=1 if error else 0,
            last_error=error,
            created_at=now - age,
            next_attempt_at=now + timedelta(seconds=30) if error else now - age,
        )
    )
