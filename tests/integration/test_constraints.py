"""The database itself keeps bad data out, on both backends."""

import uuid
from datetime import UTC, datetime, time, timedelta
from decimal import Decimal

import pytest
from sqlalchemy.exc import IntegrityError

from storefront.models import (
    Booking,
    BookingItem,
    Service,
    ServiceAvailability,
    ServiceCapacity,
    User,
)

NOW = datetime(2026, 12, 5, 10, 0, tzinfo=UTC)


def _service(session, slug="bouncer") -> Service:
    service = Service(title="Bouncer", slug=slug, price=Decimal("199.99"))
    session.add(service)
    session.commit()
    return service


def _booking(session, **overrides) -> Booking:
    values = {
        "idempotency_key": uuid.uuid4().hex,
        "contact_email": "guest@example.com",
        "contact_phone": "+38344111222",
    }
    booking = Booking(**(values | overrides))
    session.add(booking)
    session.commit()
    return booking


def _rejects(session, row) -> None:
    session.add(row)
    with pytest.raises(IntegrityError):
        session.commit()
    session.rollback()


def test_good_rows_are_accepted_and_times_stay_aware(session):
    service = _service(session)
    booking = _booking(session)
    session.add(
        BookingItem(
            booking_id=booking.id,
            service_id=service.id,
            service_name=service.title,
            service_price=service.price,
            quantity=2,
            start_datetime=NOW,
            end_datetime=NOW + timedelta(hours=3),
        )
    )
    session.commit()
    session.expire_all()
    item = session.get(Booking, booking.id)
    assert item.created_at.tzinfo is not None
    assert booking.reference == "MG-" + str(booking.id)[:8].upper()


def test_status_values_are_checked(session):
    _rejects(
        session,
        Booking(
            idempotency_key="k1",
            contact_email="a@example.com",
            contact_phone="1",
            status="shipped",
        ),
    )


def test_idempotency_key_is_unique(session):
    _booking(session, idempotency_key="same")
    _rejects(
        session,
        Booking(idempotency_key="same", contact_email="b@example.com", contact_phone="2"),
    )


@pytest.mark.parametrize(
    "overrides",
    [
        {"quantity": 0},
        {"end_datetime": NOW},  # start < end
        {"status": "lost"},
        {"service_price": Decimal("-1")},
    ],
)
def test_booking_items_reject_bad_values(session, overrides):
    service = _service(session)
    booking = _booking(session)
    values = {
        "booking_id": booking.id,
        "service_id": service.id,
        "service_name": "Bouncer",
        "service_price": Decimal("10"),
        "quantity": 1,
        "start_datetime": NOW,
        "end_datetime": NOW + timedelta(hours=1),
    }
    _rejects(session, BookingItem(**(values | overrides)))


@pytest.mark.parametrize(
    "overrides",
    [
        {"day_of_week": 7},
        {"day_of_week": -1},
        {"start_time": time(17, 0), "end_time": time(9, 0)},
        {"slot_duration_minutes": 0},
        {"slot_duration_minutes": 481},
        {"max_bookings_per_slot": 0},
    ],
)
def test_availability_rejects_bad_values(session, overrides):
    service = _service(session)
    values = {
        "service_id": service.id,
        "day_of_week": 1,
        "start_time": time(9, 0),
        "end_time": time(17, 0),
    }
    _rejects(session, ServiceAvailability(**(values | overrides)))


def test_slugs_and_emails_are_unique(session):
    _service(session, slug="castle")
    _rejects(session, Service(title="Other", slug="castle"))
    session.add(User(email="a@example.com"))
    session.commit()
    _rejects(session, User(email="a@example.com"))


def test_capacity_needs_at_least_one_unit(session):
    service = _service(session)
    _rejects(session, ServiceCapacity(service_id=service.id, total_units=0))


def test_roles_are_checked(session):
    _rejects(session, User(email="x@example.com", role="superuser"))


def test_naive_datetimes_are_refused(session):
    service = _service(session)
    booking = _booking(session)
    session.add(
        BookingItem(
            booking_id=booking.id,
            service_id=service.id,
            service_name="x",
            service_price=Decimal("1"),
            start_datetime=datetime(2026, 12, 5, 10, 0),
            end_datetime=datetime(2026, 12, 5, 11, 0),
        )
    )
    with pytest.raises(Exception, match="naive datetime"):
        session.commit()
    session.rollback()
