"""Placing bookings on SQLite and PostgreSQL: pricing, the re-check, idempotency, and nothing
half-written on a refusal."""

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from sqlalchemy import event, func, text
from sqlmodel import select

from storefront.models import BlockedDate, Booking, BookingItem, NotificationOutbox, User
from storefront.services.booking import placing, pricing
from storefront.services.booking import views as booking_views
from storefront.services.booking.lines import BookingError
from storefront.settings import get_settings
from tests.factories import contact, line, make_service, set_min_notice

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)  # 08:00 in Prishtina
DAY = "2026-06-10"  # a Wednesday


def counts(session) -> tuple[int, int, int]:
    result = tuple(
        session.exec(select(func.count()).select_from(model)).one()
        for model in (Booking, BookingItem, NotificationOutbox)
    )
    session.commit()
    return result


def place(session, lines, key="checkout-key-0001", **kwargs):
    """place_booking owns its transaction: end the test's reads first, as a request would."""
    session.commit()
    kwargs.setdefault("contact", contact())
    kwargs.setdefault("now", NOW)
    return placing.place_booking(session=session, lines=lines, idempotency_key=key, **kwargs)


def refused(session, lines, key="checkout-key-0002", **kwargs) -> BookingError:
    with pytest.raises(BookingError) as error:
        place(session, lines, key=key, **kwargs)
    return error.value


def test_a_booking_is_written_with_its_items_and_two_notifications(session):
    bouncer = make_service(session, price="100.00", units=2)
    user = User(email="arta@example.com", full_name="Arta")
    session.add(user)
    session.commit()

    placed = place(session, [line(bouncer, DAY, "10:00", hours=3, quantity=2)], user_id=user.id)

    assert placed.total == Decimal("600.00")
    assert placed.reference == "MG-" + placed.id[:8].upper()
    stored = session.get(Booking, uuid.UUID(placed.id))
    assert (stored.status, stored.reference, stored.user_id) == (
        "pending",
        placed.reference,
        user.id,
    )
    assert (stored.contact_email, stored.event_type, stored.zip_code) == (
        "arta.krasniqi@example.com",
        "birthday",
        "10000",
    )
    item = session.exec(select(BookingItem)).one()
    assert item.start_datetime == datetime(2026, 6, 10, 8, 0, tzinfo=UTC)  # 10:00 CEST
    assert item.end_datetime == datetime(2026, 6, 10, 11, 0, tzinfo=UTC)
    assert (item.status, item.quantity, item.service_price) == ("pending", 2, Decimal("300.00"))
    outbox = {o.channel: o for o in session.exec(select(NotificationOutbox)).all()}
    assert set(outbox) == {"whatsapp", "email"}
    assert (outbox["whatsapp"].topic, outbox["whatsapp"].recipient) == (
        "booking_placed",
        get_settings().staff_phone,
    )
    assert (outbox["email"].topic, outbox["email"].recipient) == (
        "booking_confirmation",
        "arta.krasniqi@example.com",
    )
    assert all(o.payload == {"booking_id": placed.id} for o in outbox.values())


def test_per_hour_prices_multiply_by_the_hours_and_per_event_prices_do_not(session):
    bouncer = make_service(session, price="100.00", units=5)
    offer = make_service(session, title="Wedding offer", price="650.00", price_unit="per_event")
    session.commit()
    lines = [line(bouncer, DAY, "10:00", hours=4, quantity=2), line(offer, DAY, "12:00", hours=4)]

    quoted = pricing.quote(session=session, lines=lines)
    assert [(q.name, q.price_unit, q.unit_price, q.line_total) for q in quoted.lines] == [
        ("Bouncy castle", "per_hour", Decimal("100.00"), Decimal("800.00")),
        ("Wedding offer", "per_event", Decimal("650.00"), Decimal("650.00")),
    ]
    assert quoted.total == Decimal("1450.00")
    session.rollback()

    placed = place(session, lines)
    assert placed.total == quoted.total
    assert session.get(Booking, uuid.UUID(placed.id)).total_amount == Decimal("1450.00")


def test_price_line_is_the_one_rule():
    assert pricing.price_line(
        price=Decimal("7.00"), price_unit="per_event", quantity=12, duration_hours=5
    ) == Decimal("84.00")
    assert pricing.price_line(
        price=Decimal("99.99"), price_unit="per_hour", quantity=2, duration_hours=3
    ) == Decimal("599.94")


@pytest.mark.parametrize("kind", ["unknown", "inactive", "draft", "unpriced"])
def test_quote_and_booking_refuse_services_that_cannot_be_booked(session, kind):
    good = make_service(session)
    bad = {
        "unknown": "5b1f3c6e-0000-4000-8000-000000000000",
        "inactive": make_service(session, active=False),
        "draft": make_service(session, status="draft"),
        "unpriced": make_service(session),
    }[kind]
    if kind == "unpriced":
        bad.price = None
        session.add(bad)
    session.commit()
    lines = [line(good, DAY, "10:00"), line(bad, DAY, "10:00")]
    with pytest.raises(BookingError) as error:
        pricing.quote(session=session, lines=lines)
    assert (error.value.code, error.value.details["line"]) == ("service_not_found", 1)
    session.rollback()
    error = refused(session, lines)
    assert (error.code, error.details["line"]) == ("service_not_found", 1)
    assert counts(session) == (0, 0, 0)


def test_a_taken_slot_is_refused_and_nothing_is_written(session):
    bouncer = make_service(session, units=1)
    other = make_service(session, title="Mascot", units=3)
    session.commit()
    place(session, [line(bouncer, DAY, "10:00", hours=2)], key="first-checkout")
    assert counts(session) == (1, 1, 2)

    error = refused(
        session, [line(other, DAY, "10:00"), line(bouncer, DAY, "11:00")], key="second-checkout"
    )
    assert error.code == "slot_taken"
    assert (error.details["line"], error.details["start_time"]) == (1, "11:00")
    assert counts(session) == (1, 1, 2)
    # the hour after the first booking is free
    place(session, [line(bouncer, DAY, "12:00")], key="third-checkout")
    assert counts(session) == (2, 2, 4)


def test_two_lines_of_one_service_in_a_cart_count_against_each_other(session):
    chairs = make_service(session, title="Chairs", price="5.00", price_unit="per_event", units=100)
    session.commit()
    error = refused(
        session,
        [line(chairs, DAY, "10:00", hours=3, quantity=60), line(chairs, DAY, "12:00", quantity=50)],
    )
    assert (error.code, error.details["line"]) == ("slot_taken", 1)
    assert counts(session) == (0, 0, 0)
    placed = place(
        session,
        [line(chairs, DAY, "10:00", hours=3, quantity=60), line(chairs, DAY, "13:00", quantity=50)],
    )
    assert placed.total == Decimal("550.00")


def test_cancelled_and_completed_bookings_free_their_units(session):
    bouncer = make_service(session, units=1)
    session.commit()
    first = place(session, [line(bouncer, DAY, "10:00")], key="first-checkout")
    assert refused(session, [line(bouncer, DAY, "10:00")]).code == "slot_taken"
    item = session.exec(
        select(BookingItem).where(BookingItem.booking_id == uuid.UUID(first.id))
    ).one()
    item.status = "cancelled"
    session.add(item)
    session.commit()
    place(session, [line(bouncer, DAY, "10:00")], key="second-checkout")


def test_a_retry_with_the_same_key_returns_the_same_booking(session):
    bouncer = make_service(session, units=1)
    session.commit()
    lines = [line(bouncer, DAY, "10:00")]
    first = place(session, lines, key="double-click-key")
    again = place(session, lines, key="double-click-key")  # the slot is now full: still no error
    assert again == first
    assert counts(session) == (1, 1, 2)


@contextmanager
def statements(session) -> Iterator[list[str]]:
    """The SQL this session's engine runs inside the block."""
    seen: list[str] = []
    engine = session.get_bind()

    def listener(_conn, _cursor, statement, *_rest) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", listener)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", listener)


def test_a_full_slot_refuses_each_guest_of_a_burst_in_one_statement(session):
    """The first look reads the public calendar's cached bookings and, in the statement that
    looks up the key, that nothing has been committed since: a burst meeting a full slot costs
    one round trip per guest, not a query of the bookings each."""
    bouncer = make_service(session, units=1)
    session.commit()
    place(session, [line(bouncer, DAY, "10:00", hours=2)], key="first-checkout")
    assert refused(session, [line(bouncer, DAY, "10:00")], key="burst-0001").code == "slot_taken"
    lines = [line(bouncer, DAY, "11:00")]
    session.commit()
    with statements(session) as seen:
        error = refused(session, lines, key="burst-0002")
    assert (error.code, error.details["start_time"]) == ("slot_taken", "11:00")
    queries = [statement for statement in seen if statement != "BEGIN"]  # SQLite's own
    assert len(queries) == 1 and "booking_items" not in queries[0], queries
    assert counts(session) == (1, 1, 2)


def stored_id(session, booking_id: str) -> str:
    """A booking id as a plain SQL parameter: SQLite keeps UUIDs as 32 hex digits."""
    sqlite = session.get_bind().dialect.name == "sqlite"
    return uuid.UUID(booking_id).hex if sqlite else booking_id


def test_the_first_look_sees_a_slot_freed_by_another_worker_at_once(session):
    """Another worker's cancellation reaches this worker's calendars only within
    CATALOGUE_CACHE_SECONDS, but the first look checks the versions in its own statement: a
    guest is never refused on bookings read before a change that has since been committed."""
    bouncer = make_service(session, units=1)
    session.commit()
    first = place(session, [line(bouncer, DAY, "10:00")], key="first-checkout")
    assert refused(session, [line(bouncer, DAY, "10:00")]).code == "slot_taken"
    # As another process would: the item cancelled and the version raised, by plain SQL that
    # passes by this process's hooks, so its cache still holds the full slot.
    with session.get_bind().begin() as conn:
        conn.execute(
            text("UPDATE booking_items SET status = 'cancelled' WHERE booking_id = :id"),
            {"id": stored_id(session, first.id)},
        )
        conn.execute(
            text("UPDATE cache_versions SET version = version + 1 WHERE name = 'bookings'")
        )
    again = place(session, [line(bouncer, DAY, "10:00")], key="after-the-cancel")
    assert again.reference != first.reference
    assert counts(session) == (2, 2, 4)


@pytest.mark.parametrize(
    ("setup", "when", "reason"),
    [
        ("none", ("2026-05-31", "10:00"), "too_soon"),  # yesterday
        ("none", ("2026-06-02", "07:00"), "closed"),  # before opening (08:00 default)
        ("none", ("2026-06-01", "20:00"), "closed"),  # a booking must end by 20:00
        ("notice48", ("2026-06-02", "19:00"), "too_soon"),  # 35 hours ahead, 48 needed
        ("none", ("2026-06-01", "19:00"), "too_soon"),  # 11 hours ahead, 24 needed
        ("blocked_all", (DAY, "10:00"), "blocked"),
        ("blocked_service", (DAY, "10:00"), "blocked"),
        ("none", (DAY, "10:30"), "closed"),  # not a start time of the hourly slots
    ],
)
def test_past_notice_blocked_and_closed_times_are_refused(session, setup, when, reason):
    bouncer = make_service(session, units=3)
    if setup == "notice48":
        set_min_notice(session, 48)
    if setup.startswith("blocked"):
        session.add(
            BlockedDate(
                service_id=bouncer.id if setup == "blocked_service" else None,
                start_date=datetime(2026, 6, 9).date(),
                end_date=datetime(2026, 6, 11).date(),
            )
        )
    session.commit()
    error = refused(session, [line(bouncer, *when)])
    assert (error.code, error.details["reason"]) == ("slot_unavailable", reason)
    assert counts(session) == (0, 0, 0)


def test_the_minimum_notice_comes_from_the_business_settings(session):
    bouncer = make_service(session, units=3)
    set_min_notice(session, 0)
    session.commit()
    place(session, [line(bouncer, "2026-06-01", "09:00")])  # one hour ahead


@pytest.mark.parametrize(
    ("overrides", "field", "code"),
    [
        ({"full_name": " "}, "full_name", "required"),
        ({"email": ""}, "email", "required"),
        ({"email": "arta@"}, "email", "invalid"),
        ({"phone": ""}, "phone", "required"),
        ({"zip_code": "1" * 21}, "zip_code", "too_long"),
        ({"special_requests": "x" * 5001}, "special_requests", "too_long"),
        ({"guest_count": 0}, "guest_count", "out_of_range"),
        ({"guest_count": 501}, "guest_count", "out_of_range"),
        ({"guest_count": "40"}, "guest_count", "invalid"),
        ({"event_type": "rave"}, "event_type", "invalid"),
    ],
)
def test_a_bad_contact_is_refused_field_by_field(session, overrides, field, code):
    bouncer = make_service(session)
    session.commit()
    error = refused(session, [line(bouncer, DAY, "10:00")], contact=contact(**overrides))
    assert error.code == "invalid_contact"
    assert error.details["fields"][field] == code
    assert counts(session) == (0, 0, 0)


@pytest.mark.parametrize("event_type", ["Wedding", "anniversary", "Graduation", "OTHER"])
def test_both_screens_event_types_are_stored_lowercase(session, event_type):
    bouncer = make_service(session)
    session.commit()
    placed = place(session, [line(bouncer, DAY, "10:00")], contact=contact(event_type=event_type))
    assert session.get(Booking, uuid.UUID(placed.id)).event_type == event_type.lower()


@pytest.mark.parametrize(
    ("lines", "code", "field"),
    [
        ([], "empty_cart", None),
        ([("svc", DAY, "10:00", 1, 1)], "invalid_line", "service_id"),
        ([("ok", DAY, "10:00", 9, 1)], "invalid_line", "duration_hours"),
        ([("ok", DAY, "10:00", 1, 0)], "invalid_line", "quantity"),
        ([("ok", "", "", 1, 1)], "invalid_line", "date"),
        ([("ok", "10.06.2026", "10:00", 1, 1)], "invalid_line", "date"),
        ([("ok", DAY, "10h", 1, 1)], "invalid_line", "start_time"),
    ],
)
def test_malformed_lines_are_refused(session, lines, code, field):
    bouncer = make_service(session)
    session.commit()
    built = [
        line(bouncer if sid == "ok" else sid, day, start, hours, quantity)
        for sid, day, start, hours, quantity in lines
    ]
    error = refused(session, built)
    assert error.code == code
    if field:
        assert error.details["field"] == field


def test_the_booking_view_shows_local_dates_and_times(session):
    bouncer = make_service(session, price="100.00", units=2)
    offer = make_service(session, title="Wedding offer", price="650.00", price_unit="per_event")
    user = User(email="arta@example.com")
    session.add(user)
    session.commit()
    placed = place(
        session,
        [line(offer, "2026-10-25", "14:00", hours=4), line(bouncer, DAY, "10:00", hours=2)],
        user_id=str(user.id),
        contact=contact(special_requests="Pink balloons"),
    )
    view = booking_views.booking_for_view(session=session, booking_id=placed.id)
    assert (view.reference, view.status, view.total, view.total_label) == (
        placed.reference,
        "pending",
        Decimal("850.00"),
        "850,00\u00a0€",
    )
    assert [
        (v.service_name, v.date, v.start_time, v.end_time, v.line_total) for v in view.lines
    ] == [
        ("Bouncy castle", "10.06.2026", "10:00", "12:00", Decimal("200.00")),
        ("Wedding offer", "25.10.2026", "14:00", "18:00", Decimal("650.00")),  # after DST ends
    ]
    assert (view.contact_name, view.special_requests, view.user_id) == (
        "Arta Krasniqi",
        "Pink balloons",
        str(user.id),
    )
    assert booking_views.booking_for_view(session=session, booking_id="nope") is None

    (summary,) = booking_views.bookings_for_user(session=session, user_id=user.id)
    assert (summary.reference, summary.event_date, summary.total_label) == (
        placed.reference,
        "10.06.2026",
        "850,00\u00a0€",
    )
    assert summary.services == "Bouncy castle, Wedding offer"


def test_an_unknown_user_is_refused(session):
    bouncer = make_service(session)
    session.commit()
    error = refused(session, [line(bouncer, DAY, "10:00")], user_id="5b1f3c6e-0000-4000-8000-0")
    assert error.code == "invalid_user"
