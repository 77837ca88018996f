"""Event-day operations on SQLite and PostgreSQL (issue 22): the staff role, the day sheet (who
leaves when, what to load, who to call, where to go, what comes back), staff notes, and the
statuses staff may set (on the way, completed), with the customer's short message through the
outbox in their language."""

import uuid
from datetime import UTC, datetime
from functools import partial

import pytest
from sqlmodel import select

from storefront.models import AuditLog, Booking, BookingNote, NotificationOutbox, Service, User
from storefront.services import admin_bookings as ab
from storefront.services import admin_week, auth, day_sheet, notify, outbox, users
from storefront.services.admin_bookings import AdminBookingError
from storefront.services.fields import FieldError
from tests.factories import booking_statuses, line, make_service, place

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "2026-06-10"
_place = partial(place, now=NOW)


def _user(session, role="staff", name=None) -> str:
    user = User(email=f"{role}-{uuid.uuid4().hex[:6]}@example.com", role=role, full_name=name)
    session.add(user)
    session.commit()
    return str(user.id)


def _kind(session, service: Service, kind: str, lead: int | None = None) -> Service:
    service.kind, service.setup_lead_minutes = kind, lead
    session.add(service)
    session.commit()
    return service


def test_the_sheet_lists_the_days_bookings_in_the_order_the_crew_leaves(session):
    staff = _user(session, name="Driton Driver")
    tables = _kind(session, make_service(session, title="Round table", units=10), "table")
    mascot = _kind(session, make_service(session, title="Elsa", units=1), "mascot")
    bouncer = _kind(session, make_service(session, title="Castle", units=2), "service", lead=180)
    # The mascot at 12:00 leaves 30 min before (its kind's lead); the tables at 12:00 leave 90
    # min before; the bouncer at 13:00 leaves 180 min before (its own lead), so first.
    late = _place(session, [line(mascot, DAY, "12:00", hours=2)], full_name="Besa Gashi")
    early = _place(
        session,
        [line(tables, DAY, "12:00", hours=4, quantity=6)],
        full_name="Arta Krasniqi",
        special_requests="Gate code 1234",
    )
    first = _place(session, [line(bouncer, DAY, "13:00", hours=3)], phone="044 555 666")
    other_day = _place(session, [line(bouncer, "2026-06-11", "10:00")])
    gone = _place(session, [line(tables, DAY, "09:00")])
    ab.set_status(
        session=session, actor_id=_user(session, "admin"), booking_id=gone.id, status="cancelled"
    )

    sheet = day_sheet.day_sheet(session=session, actor_id=staff, day=DAY)

    assert [b.reference for b in sheet.bookings] == [
        first.reference,
        early.reference,
        late.reference,
    ]
    assert other_day.reference not in {b.reference for b in sheet.bookings}
    castle, table_job, elsa = sheet.bookings
    # Local times (Europe/Belgrade, summer: UTC+2).
    assert (castle.leave, castle.start, castle.end) == ("10:00", "13:00", "16:00")
    assert (table_job.leave, table_job.start) == ("10:30", "12:00")
    assert (elsa.leave, elsa.start, elsa.end) == ("11:30", "12:00", "14:00")
    assert [(x.service, x.quantity) for x in table_job.lines] == [("Round table", 6)]
    assert table_job.customer == "Arta Krasniqi"
    assert table_job.special_requests == "Gate code 1234"
    assert table_job.phone_link == "tel:+38344123456"
    assert castle.phone_link == "tel:+38344555666"
    assert table_job.venue == "Rruga Agim Ramadani 15, Prishtina"
    assert table_job.maps_link.startswith("https://www.google.com/maps/search/?api=1&query=Rruga")
    assert table_job.guests == "40"
    # What comes back is collected when the event ends; a mascot's actor comes home alone.
    assert (table_job.pickup, table_job.pickup_load) == ("16:00", "Round table × 6")
    assert (elsa.pickup, elsa.pickup_load) == ("", "")
    assert table_job.phone == "+383 44 123 456"
    assert table_job.next_statuses == ["on_the_way", "completed"]
    assert (sheet.previous.isoformat(), sheet.next.isoformat()) == ("2026-06-09", "2026-06-11")


def test_only_staff_and_admins_open_the_sheet_and_the_calendar(session):
    plain = _user(session, "user")
    for call in (
        partial(day_sheet.day_sheet, session=session, day=DAY),
        partial(admin_week.week_calendar, session=session, day=DAY),
    ):
        with pytest.raises(AdminBookingError) as refused:
            call(actor_id=plain)
        assert refused.value.code == "not_allowed"
        with pytest.raises(AdminBookingError):
            call(actor_id=str(uuid.uuid4()))
        call(actor_id=_user(session, "staff"))
        call(actor_id=_user(session, "admin"))
    with pytest.raises(AdminBookingError) as bad:
        day_sheet.day_sheet(session=session, actor_id=_user(session), day="31.02.2026")
    assert bad.value.code == "invalid_filter"


def test_staff_set_a_booking_on_its_way_and_completed_and_the_customer_hears_of_it(session):
    staff = _user(session)
    bouncer = make_service(session, units=1)
    placed = _place(session, [line(bouncer, DAY, "10:00")])
    booking = session.get(Booking, uuid.UUID(placed.id))
    booking.language = "en"
    session.add(booking)
    session.commit()

    ab.set_status(session=session, actor_id=staff, booking_id=placed.id, status="on_the_way")
    assert booking_statuses(session, placed.id) == ("on_the_way", {"on_the_way"})
    ab.set_status(session=session, actor_id=staff, booking_id=placed.id, status="completed")
    assert booking_statuses(session, placed.id) == ("completed", {"completed"})

    mails = session.exec(
        select(NotificationOutbox)
        .where(NotificationOutbox.topic == "booking_status")
        .order_by(NotificationOutbox.created_at)
    ).all()
    assert [m.payload["status"] for m in mails] == ["on_the_way", "completed"]
    on_the_way = notify.render(outbox._detached(mails[0]), session=session)
    assert on_the_way.subject == f"We are on our way: booking {placed.reference}"
    assert "We are on our way to Rruga Agim Ramadani 15, Prishtina." in on_the_way.text
    audited = session.exec(select(AuditLog).where(AuditLog.action == "booking_status")).all()
    assert {str(a.actor_user_id) for a in audited} == {staff}


def test_the_on_the_way_message_speaks_the_customers_language(session):
    staff = _user(session)
    placed = _place(session, [line(make_service(session), DAY, "10:00")])
    ab.set_status(session=session, actor_id=staff, booking_id=placed.id, status="on_the_way")
    row = session.exec(
        select(NotificationOutbox).where(NotificationOutbox.topic == "booking_status")
    ).one()
    message = notify.render(outbox._detached(row), session=session)
    assert message.subject.startswith("Jemi rrugës")


def test_on_the_way_greets_says_when_the_crew_arrives_and_whom_to_call(session):
    """Issue 34, item 7: the mail greets the customer, expects the crew by the start of the
    booking, and gives the phone of the member of staff who marked it when their profile has
    one, else the business's."""
    with_phone = _user(session)
    user = session.get(User, uuid.UUID(with_phone))
    user.phone = "+38349555666"
    session.add(user)
    session.commit()
    without_phone = _user(session)
    morning = datetime(2026, 6, 10, 6, 30, tzinfo=UTC)  # 08:30 in Prishtina, the day itself
    rendered = {}
    for staff in (with_phone, without_phone):
        placed = _place(session, [line(make_service(session), DAY, "10:00")])
        booking = session.get(Booking, uuid.UUID(placed.id))
        booking.language = "en"
        session.add(booking)
        session.commit()
        ab.set_status(
            session=session, actor_id=staff, booking_id=placed.id, status="on_the_way", now=morning
        )
        row = session.exec(
            select(NotificationOutbox).where(
                NotificationOutbox.topic == "booking_status",
                NotificationOutbox.booking_id == uuid.UUID(placed.id),
            )
        ).one()
        assert row.payload["by"] == staff
        rendered[staff] = notify.render(outbox._detached(row), session=session)

    mail = rendered[with_phone]
    assert mail.text.startswith("Hello Arta Krasniqi,\n\nWe are on our way to ")
    assert "We expect to arrive by 10:00." in mail.text
    assert "To reach the driver, call +383 49 555 666." in mail.text
    assert "Hello Arta Krasniqi," in mail.html and "We expect to arrive by 10:00." in mail.html
    assert "To reach the driver, call +383 44 000 000." in rendered[without_phone].text


def test_on_the_way_in_albanian_greets_and_gives_the_arrival(session):
    staff = _user(session)
    placed = _place(session, [line(make_service(session), DAY, "10:00")])
    ab.set_status(
        session=session,
        actor_id=staff,
        booking_id=placed.id,
        status="on_the_way",
        now=datetime(2026, 6, 10, 6, 30, tzinfo=UTC),
    )
    row = session.exec(
        select(NotificationOutbox).where(NotificationOutbox.topic == "booking_status")
    ).one()
    message = notify.render(outbox._detached(row), session=session)
    assert message.text.startswith("Përshëndetje Arta Krasniqi,\n\n")
    assert "10:00" in message.text and "+383 44 000 000" in message.text


@pytest.mark.parametrize("status", ["confirmed", "cancelled", "pending"])
def test_staff_set_nothing_but_the_days_statuses(session, status):
    staff = _user(session)
    placed = _place(session, [line(make_service(session), DAY, "10:00")])
    with pytest.raises(AdminBookingError) as refused:
        ab.set_status(session=session, actor_id=staff, booking_id=placed.id, status=status)
    assert refused.value.code == "not_allowed"
    assert booking_statuses(session, placed.id) == ("pending", {"pending"})


def test_staff_never_bring_back_a_cancelled_or_completed_booking(session):
    staff, admin = _user(session), _user(session, "admin")
    placed = _place(session, [line(make_service(session), DAY, "10:00")])
    ab.set_status(session=session, actor_id=admin, booking_id=placed.id, status="cancelled")
    for status in ("on_the_way", "completed"):
        with pytest.raises(AdminBookingError) as refused:
            ab.set_status(session=session, actor_id=staff, booking_id=placed.id, status=status)
        assert refused.value.code == "invalid_status"
    assert booking_statuses(session, placed.id) == ("cancelled", {"cancelled"})
    # A plain user cannot either, whatever the status.
    with pytest.raises(AdminBookingError) as refused:
        ab.set_status(
            session=session,
            actor_id=_user(session, "user"),
            booking_id=placed.id,
            status="on_the_way",
        )
    assert refused.value.code == "not_allowed"


def test_staff_write_notes_that_the_sheet_shows_and_the_audit_log_keeps(session):
    staff = _user(session, name="Driton Driver")
    placed = _place(session, [line(make_service(session), DAY, "10:00")])
    with pytest.raises(FieldError) as blank:
        day_sheet.add_note(session=session, actor_id=staff, booking_id=placed.id, text="   ")
    assert blank.value.code == "required"
    with pytest.raises(FieldError) as long:
        day_sheet.add_note(
            session=session,
            actor_id=staff,
            booking_id=placed.id,
            text="x" * (day_sheet.NOTE_MAX + 1),
        )
    assert long.value.code == "too_long"
    with pytest.raises(AdminBookingError):
        day_sheet.add_note(
            session=session, actor_id=_user(session, "user"), booking_id=placed.id, text="hi"
        )

    note = day_sheet.add_note(
        session=session,
        actor_id=staff,
        booking_id=placed.id,
        text="Gate was locked\nCalled her",
        now=NOW,
    )
    session.commit()
    assert (note.author, note.text) == ("Driton Driver", "Gate was locked\nCalled her")
    sheet = day_sheet.day_sheet(session=session, actor_id=staff, day=DAY)
    assert [(n.author, n.text, n.written) for n in sheet.bookings[0].notes] == [
        ("Driton Driver", "Gate was locked\nCalled her", "01.06.2026 08:00")
    ]
    assert session.exec(select(BookingNote)).one().author_id == uuid.UUID(staff)
    entry = session.exec(select(AuditLog).where(AuditLog.action == "booking_note")).one()
    assert entry.details["after"] == {"note": "Gate was locked\nCalled her"}


def test_admins_give_and_take_the_staff_role_and_it_ends_at_once(session):
    admin = _user(session, "admin")
    member = _user(session, "user")
    users.set_staff_role(session=session, actor_id=admin, target_user_id=member, staff=True)
    session.commit()
    assert session.get(User, uuid.UUID(member)).role == "staff"
    day_sheet.day_sheet(session=session, actor_id=member, day=DAY)

    users.set_staff_role(session=session, actor_id=admin, target_user_id=member, staff=False)
    session.commit()
    assert session.get(User, uuid.UUID(member)).role == "user"
    with pytest.raises(AdminBookingError):
        day_sheet.day_sheet(session=session, actor_id=member, day=DAY)
    actions = session.exec(
        select(AuditLog.action).where(AuditLog.entity_id == member).order_by(AuditLog.created_at)
    ).all()
    assert actions == ["set_staff_role", "remove_staff_role"]

    # An admin stays an admin; staff cannot hand out the role.
    with pytest.raises(users.RoleError) as stays:
        users.set_staff_role(session=session, actor_id=admin, target_user_id=admin, staff=True)
    assert stays.value.code == "admin_stays"
    staff = _user(session, "staff")
    with pytest.raises(users.RoleError) as refused:
        users.set_staff_role(session=session, actor_id=staff, target_user_id=member, staff=True)
    assert refused.value.code == "not_allowed"


def test_staff_land_on_the_day_sheet_after_signing_in():
    assert auth.landing_after_sign_in(None, is_admin=False, is_staff=True) == "/admin/day"
    assert auth.landing_after_sign_in("/admin/users", is_admin=False, is_staff=True) == "/admin/day"
    assert (
        auth.landing_after_sign_in("/admin/day/2026-06-10", is_admin=False, is_staff=True)
        == "/admin/day/2026-06-10"
    )
    assert (
        auth.landing_after_sign_in("/admin/bookings/calendar", is_admin=False, is_staff=True)
        == "/admin/bookings/calendar"
    )
    assert auth.landing_after_sign_in("/cart", is_admin=False, is_staff=True) == "/cart"
    assert auth.landing_after_sign_in(None, is_admin=True, is_staff=True) == "/admin"


def test_staff_keep_a_phone_on_their_profile_and_only_staff(session):
    staff, customer = _user(session, name="Driton"), _user(session, "user", name="Arta")
    users.update_profile(session=session, user_id=staff, full_name="Driton", phone="049 555 666")
    session.commit()
    assert session.get(User, uuid.UUID(staff)).phone == "+38349555666"
    assert users.staff_phone(session=session, user_id=staff) == "+383 49 555 666"
    with pytest.raises(users.ProfileError) as refused:
        users.update_profile(session=session, user_id=staff, full_name="Dritan", phone="call me")
    assert refused.value.code == "invalid_phone"
    session.rollback()
    assert session.get(User, uuid.UUID(staff)).full_name == "Driton"  # nothing half-saved
    users.update_profile(session=session, user_id=staff, full_name="Driton", phone="")
    session.commit()
    assert session.get(User, uuid.UUID(staff)).phone is None
    # A customer's profile has no such phone, whatever is sent.
    users.update_profile(session=session, user_id=customer, full_name="Arta", phone="049 555 666")
    session.commit()
    assert session.get(User, uuid.UUID(customer)).phone is None
    assert users.staff_phone(session=session, user_id=customer) == ""
