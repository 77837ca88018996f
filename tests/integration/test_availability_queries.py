"""month_days and day_slots read the right rows from SQLite and PostgreSQL."""

from datetime import UTC, date, datetime, time, timedelta

import pytest
from sqlalchemy import event
from sqlmodel import select

from storefront.models import BlockedDate, BookingItem
from storefront.services.booking import availability, placing
from storefront.services.booking.availability import AvailabilityError, CartHold
from tests.factories import contact, line, make_service

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = date(2026, 6, 10)  # a Wednesday


def free(session, service, day=DAY, duration=1, quantity=1, **kwargs) -> list[str]:
    slots = availability.day_slots(
        session=session,
        service_id=str(service.id),
        day=day,
        duration_hours=duration,
        quantity=quantity,
        now=NOW,
        **kwargs,
    )
    return [s.start_time for s in slots if s.available]


def book(session, service, start: str, hours=1, quantity=1, key="k-000000001"):
    session.commit()
    return placing.place_booking(
        session=session,
        lines=[line(service, DAY.isoformat(), start, hours, quantity)],
        contact=contact(),
        idempotency_key=key,
        now=NOW,
    )


def test_the_service_rows_give_the_slots_and_bookings_take_them(session):
    bouncer = make_service(
        session, units=1, buffer_minutes=60, hours=[(3, "09:00", "13:00", 60, 2)]
    )
    make_service(session, title="Other", units=1)  # another service's bookings do not count
    session.commit()
    assert free(session, bouncer) == ["09:00", "10:00", "11:00", "12:00"]
    book(session, bouncer, "10:00")
    assert free(session, bouncer) == ["12:00"]  # 09:00 would run into it; 11:00 is its buffer


def test_only_holding_statuses_hold(session):
    bouncer = make_service(session, units=1)
    session.commit()
    placed = book(session, bouncer, "10:00")
    for status, held in (
        ("confirmed", True),
        ("on_the_way", True),
        ("completed", False),
        ("cancelled", False),
    ):
        item = session.exec(select(BookingItem)).one()
        item.status = status
        session.add(item)
        session.commit()
        assert ("10:00" not in free(session, bouncer)) is held, (status, placed)


def test_a_missing_capacity_row_is_one_unit(session):
    bouncer = make_service(session, units=None)
    session.commit()
    assert "10:00" in free(session, bouncer)
    assert free(session, bouncer, quantity=2) == []
    book(session, bouncer, "10:00")
    assert "10:00" not in free(session, bouncer)


def test_blocked_dates_for_the_service_and_for_all(session):
    bouncer = make_service(session)
    mascot = make_service(session, title="Mascot")
    session.add(BlockedDate(service_id=bouncer.id, start_date=DAY, end_date=DAY))
    session.add(
        BlockedDate(
            service_id=None,
            start_date=date(2020, 6, 12),
            end_date=date(2020, 6, 12),
            is_recurring_yearly=True,
        )
    )
    session.commit()
    june = {
        (s.title, d.date): d.available
        for s in (bouncer, mascot)
        for d in availability.month_days(
            session=session, service_id=s.id, year=2026, month=6, now=NOW
        )
    }
    assert (
        june[(bouncer.title, "2026-06-10")] is False and june[(mascot.title, "2026-06-10")] is True
    )
    assert (
        june[(bouncer.title, "2026-06-12")] is False and june[(mascot.title, "2026-06-12")] is False
    )
    assert june[(bouncer.title, "2026-06-01")] is False  # today, within the 24 h notice
    assert june[(bouncer.title, "2026-06-11")] is True


def test_a_day_is_unavailable_when_no_slot_fits_the_duration_and_quantity(session):
    bouncer = make_service(session, units=2, hours=[(3, "10:00", "14:00", 60, 5)])
    session.commit()
    book(session, bouncer, "10:00", hours=4)

    def wednesday(**kwargs):
        days = availability.month_days(
            session=session, service_id=bouncer.id, year=2026, month=6, now=NOW, **kwargs
        )
        return next(d.available for d in days if d.date == "2026-06-10")

    assert wednesday(duration_hours=4) is True
    assert wednesday(duration_hours=4, quantity=2) is False
    assert wednesday(duration_hours=5) is False  # longer than the day's hours


def test_cart_lines_count_like_bookings(session):
    bouncer = make_service(session, units=2)
    session.commit()
    holds = [CartHold(DAY, time(10, 0), 2, 1)]
    assert "11:00" in free(session, bouncer, cart_holds=holds)
    assert "11:00" not in free(session, bouncer, quantity=2, cart_holds=holds)
    days = availability.month_days(
        session=session,
        service_id=bouncer.id,
        year=2026,
        month=6,
        quantity=2,
        cart_holds=[CartHold(DAY, time(h, 0), 1, 1) for h in range(8, 20)],
        now=NOW,
    )
    assert next(d.available for d in days if d.date == "2026-06-10") is False


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"service_id": "5b1f3c6e-0000-4000-8000-000000000000"}, "service_not_found"),
        ({"service_id": "not-a-uuid"}, "service_not_found"),
        ({"duration_hours": 0}, "invalid_duration"),
        ({"duration_hours": 9}, "invalid_duration"),
        ({"quantity": 0}, "invalid_quantity"),
        ({"day": "2026-02-30"}, "invalid_date"),
        ({"cart_holds": [CartHold(date(2026, 6, 10), "9am", 1)]}, "invalid_cart_hold"),
    ],
)
def test_bad_arguments_are_refused_with_a_code(session, kwargs, code):
    bouncer = make_service(session)
    session.commit()
    arguments = {
        "service_id": str(bouncer.id),
        "day": DAY,
        "duration_hours": 1,
        "quantity": 1,
        "now": NOW,
    } | kwargs
    with pytest.raises(AvailabilityError) as error:
        availability.day_slots(session=session, **arguments)
    assert error.value.code == code


def test_inactive_and_draft_services_have_no_calendar(session):
    for service in (make_service(session, active=False), make_service(session, status="draft")):
        with pytest.raises(AvailabilityError) as error:
            availability.month_days(session=session, service_id=service.id, year=2026, month=6)
        assert error.value.code == "service_not_found"
    with pytest.raises(AvailabilityError) as error:
        availability.month_days(session=session, service_id=service.id, year=2026, month=13)
    assert error.value.code == "invalid_month"


def test_the_month_query_reads_a_bounded_range_of_booking_items(session, engine):
    """The holds are read by service and a start-time range (the index), never all history."""
    bouncer = make_service(session)
    session.commit()
    statements: list[tuple[str, object]] = []

    def record(_conn, _cursor, statement, parameters, _context, _many):
        if "FROM booking_items" in statement:
            statements.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", record)
    try:
        availability.month_days(session=session, service_id=bouncer.id, year=2026, month=6)
    finally:
        event.remove(engine, "before_cursor_execute", record)
    ((statement, parameters),) = statements
    assert "booking_items.service_id =" in statement
    assert "booking_items.start_datetime >=" in statement
    assert "booking_items.start_datetime <" in statement
    values = list(parameters.values()) if isinstance(parameters, dict) else list(parameters)
    bounds = [v for v in values if isinstance(v, datetime)]
    if not bounds:  # SQLite receives the timestamps as naive UTC strings or datetimes
        bounds = [datetime.fromisoformat(str(v)) for v in values if str(v).startswith("2026")]
    low, high = min(bounds), max(bounds)
    assert high - low < timedelta(days=36)
