"""Event-day operations on SQLite and PostgreSQL (issue 22, issue 34 item 11): the staff role, the
day sheet (who leaves when, what to load, who to call, where to go, what comes back), staff
notes, and the statuses staff may set (on the way for a confirmed booking on its day in the
business's zone, then completed), with the customer's short message through the outbox in their
language, once; an admin's undo of a status, with its reason, audited."""

import uuid
from datetime import UTC, date, datetime, timedelta
from functools import partial

import pytest
from sqlmodel import select

from storefront import i18n
from storefront.models import (
    AuditLog,
    Booking,
    BookingItem,
    BookingNote,
    NotificationOutbox,
    Service,
    User,
)
from storefront.services.accounts import auth, users
from storefront.services.booking import admin as ab
from storefront.services.booking import admin_list as admin_booking_list
from storefront.services.booking.admin import AdminBookingError
from storefront.services.fields import FieldError
from storefront.services.messaging import notify, outbox
from storefront.services.operations import day_sheet, reminders
from storefront.services.operations import week as admin_week
from tests.factories import booking_statuses, line, make_service, place

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "2026-06-10"
ON_THE_DAY = datetime(2026, 6, 10, 6, 0, tzinfo=UTC)  # 08:00 in Belgrade on DAY
_place = partial(place, now=NOW)


def _confirmed(session, lines, **contact_fields):
    """A booking placed a while ago and confirmed by an admin: what the crew sets out for."""
    placed = _place(session, lines, **contact_fields)
    ab.set_status(
        session=session,
        actor_id=_user(session, "admin"),
        booking_id=placed.id,
        status="confirmed",
        now=NOW,
    )
    return placed


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
    # Local times (Europe/Belgrade, summer: UTC+2). The van leaves the depot the lead and the
    # drive before (issue 37): the depot and the venues are in Prishtinë, 15 min apart.
    assert (castle.leave, castle.start, castle.end) == ("09:45", "13:00", "16:00")
    assert (table_job.leave, table_job.start) == ("10:15", "12:00")
    assert (elsa.leave, elsa.start, elsa.end) == ("11:15", "12:00", "14:00")
    assert [(x.service, x.quantity) for x in table_job.lines] == [("Round table", 6)]
    assert table_job.customer == "Arta Krasniqi"
    assert table_job.special_requests == "Gate code 1234"
    assert table_job.phone_link == "tel:+38344123456"
    assert castle.phone_link == "tel:+38344555666"
    assert table_job.venue == "Rruga Agim Ramadani 15, Prishtinë"
    assert table_job.maps_link.startswith("https://www.google.com/maps/search/?api=1&query=Rruga")
    assert table_job.guests == "40"
    # What comes back is collected when the event ends; a mascot's actor comes home alone.
    assert (table_job.pickup, table_job.pickup_load) == ("16:00", "Round table × 6")
    assert (elsa.pickup, elsa.pickup_load) == ("", "")
    assert table_job.phone == "+383 44 123 456"
    # Pending bookings, and a sheet opened days before: no status to set yet.
    assert table_job.next_statuses == []
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
    placed = _confirmed(session, [line(bouncer, DAY, "10:00")])
    booking = session.get(Booking, uuid.UUID(placed.id))
    booking.language = "en"
    session.add(booking)
    session.commit()
    set_by_staff = partial(
        ab.set_status, session=session, actor_id=staff, booking_id=placed.id, now=ON_THE_DAY
    )

    set_by_staff(status="on_the_way")
    assert booking_statuses(session, placed.id) == ("on_the_way", {"on_the_way"})
    set_by_staff(status="completed")
    assert booking_statuses(session, placed.id) == ("completed", {"completed"})

    order = ["confirmed", "on_the_way", "completed"]
    # Both of the day's changes were made at ON_THE_DAY: same created_at, so their order is
    # the statuses' own.
    mails = sorted(
        session.exec(
            select(NotificationOutbox).where(NotificationOutbox.topic == "booking_status")
        ).all(),
        key=lambda m: (m.created_at, order.index(m.payload["status"])),
    )
    assert [m.payload["status"] for m in mails] == order
    on_the_way = notify.render(outbox._detached(mails[1]), session=session)
    assert on_the_way.subject == f"We are on our way: booking {placed.reference}"
    assert "We are on our way to Rruga Agim Ramadani 15, Prishtinë." in on_the_way.text
    audited = session.exec(
        select(AuditLog).where(AuditLog.action == "booking_status").order_by(AuditLog.created_at)
    ).all()
    assert [str(a.actor_user_id) for a in audited][1:] == [staff, staff]


def test_the_on_the_way_message_speaks_the_customers_language(session):
    staff = _user(session)
    placed = _confirmed(session, [line(make_service(session), DAY, "10:00")])
    ab.set_status(
        session=session,
        actor_id=staff,
        booking_id=placed.id,
        status="on_the_way",
        now=ON_THE_DAY,
    )
    [row] = [
        r
        for r in session.exec(
            select(NotificationOutbox).where(NotificationOutbox.topic == "booking_status")
        ).all()
        if r.payload["status"] == "on_the_way"
    ]
    message = notify.render(outbox._detached(row), session=session)
    assert message.subject.startswith("Jemi rrugës")


def _refusal(session, actor, placed, status, now) -> str:
    with pytest.raises(AdminBookingError) as refused:
        ab.set_status(session=session, actor_id=actor, booking_id=placed.id, status=status, now=now)
    assert refused.value.code == "invalid_status"
    return refused.value.message


def test_staff_set_on_the_way_only_a_confirmed_booking_on_its_day(session):
    """The reviewer's case: tomorrow's sheet, a pending booking, 'On the way' then 'Completed';
    the customer was told 'Jemi rrugës' a day early. Now neither is offered nor accepted."""
    staff = _user(session)
    service = make_service(session, units=3)
    pending = _place(session, [line(service, DAY, "10:00")])
    confirmed = _confirmed(session, [line(service, DAY, "12:00")])
    day_before = datetime(2026, 6, 9, 15, 0, tzinfo=UTC)  # 17:00 on the 9th in Belgrade

    sheet = day_sheet.day_sheet(session=session, actor_id=staff, day=DAY, now=day_before)
    assert {b.reference: b.next_statuses for b in sheet.bookings} == {
        pending.reference: [],
        confirmed.reference: [],
    }
    assert _refusal(session, staff, pending, "on_the_way", day_before) == ab.NOT_CONFIRMED
    assert _refusal(session, staff, pending, "completed", day_before) == ab.NOT_ON_ITS_WAY
    assert _refusal(session, staff, confirmed, "on_the_way", day_before) == ab.NOT_ITS_DAY
    assert _refusal(session, staff, confirmed, "completed", day_before) == ab.NOT_ON_ITS_WAY
    # On the day a pending booking is still not set out for; the confirmed one is, and only
    # then may it be completed.
    assert _refusal(session, staff, pending, "on_the_way", ON_THE_DAY) == ab.NOT_CONFIRMED
    assert _refusal(session, staff, confirmed, "completed", ON_THE_DAY) == ab.NOT_ON_ITS_WAY
    sheet = day_sheet.day_sheet(session=session, actor_id=staff, day=DAY, now=ON_THE_DAY)
    assert {b.reference: b.next_statuses for b in sheet.bookings} == {
        pending.reference: [],
        confirmed.reference: ["on_the_way"],
    }
    ab.set_status(
        session=session,
        actor_id=staff,
        booking_id=confirmed.id,
        status="on_the_way",
        now=ON_THE_DAY,
    )
    sheet = day_sheet.day_sheet(session=session, actor_id=staff, day=DAY, now=ON_THE_DAY)
    assert {b.reference: b.next_statuses for b in sheet.bookings}[confirmed.reference] == [
        "completed"
    ]
    # A driver who forgot may still complete it the morning after.
    ab.set_status(
        session=session,
        actor_id=staff,
        booking_id=confirmed.id,
        status="completed",
        now=ON_THE_DAY + timedelta(days=1),
    )
    assert booking_statuses(session, pending.id) == ("pending", {"pending"})
    assert booking_statuses(session, confirmed.id) == ("completed", {"completed"})
    statuses = session.exec(
        select(NotificationOutbox.payload).where(NotificationOutbox.topic == "booking_status")
    ).all()
    assert sorted(p["status"] for p in statuses) == ["completed", "confirmed", "on_the_way"]


def test_its_day_is_the_business_days_not_the_servers(session):
    """A job at 00:30 in Belgrade is on the 10th there while it is still the 9th in UTC."""
    staff = _user(session)
    placed = _confirmed(session, [line(make_service(session), DAY, "10:00")])
    item = session.exec(
        select(BookingItem).where(BookingItem.booking_id == uuid.UUID(placed.id))
    ).one()
    item.start_datetime = datetime(2026, 6, 9, 22, 30, tzinfo=UTC)  # moved by hand to 00:30
    item.end_datetime = item.start_datetime + timedelta(hours=2)
    session.add(item)
    session.commit()
    late_on_the_9th = datetime(2026, 6, 9, 21, 30, tzinfo=UTC)  # 23:30 on the 9th in Belgrade
    just_after_midnight = datetime(2026, 6, 9, 22, 10, tzinfo=UTC)  # 00:10 on the 10th there
    assert _refusal(session, staff, placed, "on_the_way", late_on_the_9th) == ab.NOT_ITS_DAY
    ab.set_status(
        session=session,
        actor_id=staff,
        booking_id=placed.id,
        status="on_the_way",
        now=just_after_midnight,
    )
    assert booking_statuses(session, placed.id) == ("on_the_way", {"on_the_way"})


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
        placed = _confirmed(session, [line(make_service(session), DAY, "10:00")])
        booking = session.get(Booking, uuid.UUID(placed.id))
        booking.language = "en"
        session.add(booking)
        session.commit()
        ab.set_status(
            session=session, actor_id=staff, booking_id=placed.id, status="on_the_way", now=morning
        )
        (row,) = [
            r
            for r in session.exec(
                select(NotificationOutbox).where(
                    NotificationOutbox.topic == "booking_status",
                    NotificationOutbox.booking_id == uuid.UUID(placed.id),
                )
            )
            if r.payload["status"] == "on_the_way"
        ]
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
    placed = _confirmed(session, [line(make_service(session), DAY, "10:00")])
    ab.set_status(
        session=session,
        actor_id=staff,
        booking_id=placed.id,
        status="on_the_way",
        now=datetime(2026, 6, 10, 6, 30, tzinfo=UTC),
    )
    (row,) = [
        r
        for r in session.exec(
            select(NotificationOutbox).where(NotificationOutbox.topic == "booking_status")
        )
        if r.payload["status"] == "on_the_way"
    ]
    message = notify.render(outbox._detached(row), session=session)
    assert message.text.startswith("Përshëndetje Arta Krasniqi,\n\n")
    assert "10:00" in message.text and "+383 44 000 000" in message.text


def test_an_admin_still_sets_any_status_any_day(session):
    admin = _user(session, "admin")
    placed = _place(session, [line(make_service(session), DAY, "10:00")])
    for status in ("on_the_way", "completed", "pending"):
        ab.set_status(session=session, actor_id=admin, booking_id=placed.id, status=status, now=NOW)
        assert booking_statuses(session, placed.id)[0] == status


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


def _package(session, title: str, kind_type: str) -> Service:
    service = make_service(session, title=title, units=3)
    service.kind, service.meta = "package", {"type": kind_type, "features": []}
    session.add(service)
    session.commit()
    return service


def test_what_comes_back_is_decided_in_one_place_a_mascot_visit_brings_nothing_back(session):
    staff = _user(session)
    mascot_package = _package(session, "Paketa maskota", "mascot")
    activities = _package(session, "Paketa aktivitete", "mascot-activities")
    bouncer_package = _package(session, "Paketa bouncer", "bouncer")
    mascot = _kind(session, make_service(session, title="Elsa"), "mascot")
    visit = _place(
        session,
        [
            line(mascot_package, DAY, "10:00"),
            line(activities, DAY, "10:00"),
            line(mascot, DAY, "10:00"),
        ],
    )
    mixed = _place(
        session, [line(mascot_package, DAY, "14:00"), line(bouncer_package, DAY, "14:00", hours=3)]
    )
    jobs = {
        b.reference: b
        for b in day_sheet.day_sheet(session=session, actor_id=staff, day=DAY).bookings
    }
    assert (jobs[visit.reference].pickup, jobs[visit.reference].pickup_load) == ("", "")
    # Only the bouncer is collected, when it ends.
    assert (jobs[mixed.reference].pickup, jobs[mixed.reference].pickup_load) == (
        "17:00",
        "Paketa bouncer × 1",
    )
    assert [day_sheet.comes_back(s) for s in (mascot_package, activities, mascot)] == [False] * 3
    assert day_sheet.comes_back(bouncer_package) and day_sheet.comes_back(None)
    assert day_sheet.comes_back(_kind(session, make_service(session), "table"))


def test_the_digest_marks_the_jobs_not_confirmed_yet(session):
    service = make_service(session, title="Castle", units=3)
    pending = _place(session, [line(service, DAY, "09:00")])
    confirmed = _confirmed(session, [line(service, DAY, "12:00")])
    jobs = day_sheet.jobs(session, date(2026, 6, 10))
    with i18n.using("en"):
        mail, params = reminders.digest(date(2026, 6, 10), jobs)
    text = "\n".join(mail["lines"])
    assert mail["lines"][0] == "Jobs for 10.06.2026: 2 (1 not confirmed)"
    [pending_line] = [x for x in mail["lines"] if pending.reference in x]
    [confirmed_line] = [x for x in mail["lines"] if confirmed.reference in x]
    assert pending_line.startswith("[NOT CONFIRMED] ")
    assert not confirmed_line.startswith("[")
    assert "Pending: not confirmed yet; check with the office before loading." in text
    assert params[2] == "Jobs for 10.06.2026: 2 (1 not confirmed)"
    # Leaves the depot the lead and the 15 min drive within Prishtinë before (issue 37).
    assert f"[NOT CONFIRMED] 07:45 {pending.reference}" in params[4]
    assert f"[NOT CONFIRMED] 10:45 {confirmed.reference}" not in params[4]
    with i18n.using("sq"):
        mail, params = reminders.digest(date(2026, 6, 10), jobs)
    assert mail["lines"][0] == "Punët për 10.06.2026: 2 (1 e pakonfirmuar)"
    assert f"[PA KONFIRMIM] 07:45 {pending.reference}" in params[4]


# --- an admin's undo -----------------------------------------------------------------------


def _undo(
    session, admin, placed, *, reason="The driver pressed it by mistake", seen=None, now=None
):
    session.expire_all()
    return ab.undo_status(
        session=session,
        actor_id=admin,
        booking_id=placed.id,
        reason=reason,
        seen=seen or session.get(Booking, uuid.UUID(placed.id)).status,
        now=now or ON_THE_DAY,
    )


def _status_mails(session, placed) -> list[str]:
    """The status mails queued for the booking, by status in the order of the lifecycle: two
    set in one test's same instant have no order of their own on PostgreSQL."""
    rows = session.exec(
        select(NotificationOutbox)
        .where(
            NotificationOutbox.topic == "booking_status",
            NotificationOutbox.booking_id == uuid.UUID(placed.id),
        )
        .order_by(NotificationOutbox.created_at)
    ).all()
    order = ("pending", "confirmed", "cancelled", "on_the_way", "completed")
    rows = sorted(rows, key=lambda r: (r.created_at, order.index(r.payload["status"])))
    return [r.payload["status"] for r in rows]


def test_an_admin_undoes_on_the_way_with_a_reason_and_the_customer_is_not_told_twice(session):
    staff, admin = _user(session), _user(session, "admin")
    placed = _confirmed(session, [line(make_service(session), DAY, "10:00")])
    set_by_staff = partial(
        ab.set_status, session=session, actor_id=staff, booking_id=placed.id, now=ON_THE_DAY
    )
    set_by_staff(status="on_the_way")
    session.expire_all()
    detail = admin_booking_list.booking_detail(
        session=session, actor_id=admin, booking_id=placed.id
    )
    assert detail.undo_to == "confirmed"

    # A reason is required, the status must be the one the admin saw, and only admins undo.
    with pytest.raises(FieldError) as blank:
        _undo(session, admin, placed, reason="  ")
    assert blank.value.code == "required"
    with pytest.raises(AdminBookingError) as stale:
        _undo(session, admin, placed, seen="confirmed")
    assert stale.value.code == "changed"
    with pytest.raises(AdminBookingError) as refused:
        _undo(session, staff, placed)
    assert refused.value.code == "not_allowed"
    assert booking_statuses(session, placed.id) == ("on_the_way", {"on_the_way"})

    assert _undo(session, admin, placed).status == "confirmed"
    assert booking_statuses(session, placed.id) == ("confirmed", {"confirmed"})
    entry = session.exec(select(AuditLog).where(AuditLog.action == "booking_status_undo")).one()
    assert str(entry.actor_user_id) == admin
    assert entry.details["before"] == {"status": "on_the_way"}
    assert entry.details["after"] == {"status": "confirmed"}
    assert entry.details["reason"] == "The driver pressed it by mistake"
    assert entry.entity_id == placed.id
    # No mail for the undo; when the crew does set out, no second 'on the way' either.
    assert _status_mails(session, placed) == ["confirmed", "on_the_way"]
    set_by_staff(status="on_the_way")
    set_by_staff(status="completed")
    assert _status_mails(session, placed) == ["confirmed", "on_the_way", "completed"]


def test_undo_steps_back_through_the_changes_and_then_has_nothing_left(session):
    staff, admin = _user(session), _user(session, "admin")
    placed = _place(session, [line(make_service(session), DAY, "10:00")])
    with pytest.raises(AdminBookingError) as nothing:
        _undo(session, admin, placed)  # pending is where a booking starts
    assert nothing.value.code == "nothing_to_undo"
    ab.set_status(
        session=session, actor_id=admin, booking_id=placed.id, status="confirmed", now=NOW
    )
    for status in ("on_the_way", "completed"):
        ab.set_status(
            session=session, actor_id=staff, booking_id=placed.id, status=status, now=ON_THE_DAY
        )
    assert [_undo(session, admin, placed).status for _ in range(3)] == [
        "on_the_way",
        "confirmed",
        "pending",
    ]
    with pytest.raises(AdminBookingError) as done:
        _undo(session, admin, placed)
    assert done.value.code == "nothing_to_undo"
    assert _status_mails(session, placed) == ["confirmed", "on_the_way", "completed"]
    # A new change after the undos is the next one undone.
    ab.set_status(
        session=session, actor_id=admin, booking_id=placed.id, status="cancelled", now=NOW
    )
    assert _undo(session, admin, placed).status == "pending"


def test_undoing_a_cancellation_checks_capacity_restores_lines_and_tells_the_customer(session):
    admin = _user(session, "admin")
    castle = make_service(session, units=1)
    tables = make_service(session, title="Round table", units=5)
    placed = _confirmed(session, [line(castle, DAY, "10:00"), line(tables, DAY, "10:00")])
    # One line was cancelled on the edit page; then the whole booking.
    table_item = session.exec(
        select(BookingItem).where(
            BookingItem.booking_id == uuid.UUID(placed.id), BookingItem.service_id == tables.id
        )
    ).one()
    table_item.status = "cancelled"
    session.add(table_item)
    session.commit()
    ab.set_status(
        session=session, actor_id=admin, booking_id=placed.id, status="cancelled", now=NOW
    )
    # Meanwhile the castle was booked by someone else: the undo would overbook.
    other = _place(session, [line(castle, DAY, "10:00")])
    with pytest.raises(AdminBookingError) as full:
        _undo(session, admin, placed)
    assert full.value.code == "over_capacity"
    assert booking_statuses(session, placed.id) == ("cancelled", {"cancelled"})
    ab.set_status(session=session, actor_id=admin, booking_id=other.id, status="cancelled", now=NOW)

    assert _undo(session, admin, placed).status == "confirmed"
    assert booking_statuses(session, placed.id) == ("confirmed", {"confirmed", "cancelled"})
    # It stands again: the customer, who was told it was cancelled, is told so.
    assert _status_mails(session, placed) == ["confirmed", "cancelled", "confirmed"]


def test_a_customers_own_cancellation_is_not_undone_from_the_status_history(session):
    admin = _user(session, "admin")
    placed = _confirmed(session, [line(make_service(session), DAY, "10:00")])
    booking = session.get(Booking, uuid.UUID(placed.id))
    booking.status = "cancelled"  # as services/booking/changes.py does, audited there
    session.add(booking)
    session.commit()
    assert (
        admin_booking_list.booking_detail(
            session=session, actor_id=admin, booking_id=placed.id
        ).undo_to
        == ""
    )
    with pytest.raises(AdminBookingError) as nothing:
        _undo(session, admin, placed)
    assert nothing.value.code == "nothing_to_undo"


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
