"""A driver's day on a phone (issue 22): a staff member signs in, opens today's sheet, sees whom
to call and where to go, marks the booking on the way (the customer's message waits in the
outbox) and completed, writes a note, and cannot open the back office's other screens; forged
events of theirs to the admin handlers change nothing."""

from __future__ import annotations

import re
import uuid
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import Booking, BookingNote, NotificationOutbox, User
from storefront.services import auth, booking, dates
from storefront.state.day_sheet import DaySheetState
from tests.e2e.helpers import PASSWORD, sign_in, sq
from tests.e2e.socket_client import Tab
from tests.e2e.socket_client import run as _run
from tests.e2e.test_admin_ops_forged import STATES, _forged_events, _snapshot
from tests.factories import contact, line, make_service

pytestmark = pytest.mark.e2e


def _staff(server) -> tuple[str, str, str]:
    """A staff member with a password and a session: (id, token, email)."""
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        user = User(
            email=f"driver-{uuid.uuid4().hex[:8]}@example.com",
            role="staff",
            full_name="Driton",
            password_hash=auth.hash_password(PASSWORD),
        )
        session.add(user)
        session.flush()
        token = auth.create_session(session=session, user_id=user.id, remember=False)
        session.commit()
        result = (str(user.id), token, user.email)
    engine.dispose()
    return result


def _todays_booking(server) -> tuple[str, str]:
    """A booking of a fresh service today at 12:00 (local), placed two days ago: (id, ref)."""
    engine = make_engine(server.database_url)
    today = dates.today()
    with Session(engine, expire_on_commit=False) as session:
        service = make_service(session, title=f"Castle {uuid.uuid4().hex[:6]}", units=3)
        session.commit()
        placed = booking.place_booking(
            session=session,
            lines=[line(service, today.isoformat(), "12:00", hours=2)],
            contact=contact(email="day.guest@example.com", full_name="Vjosa Hoxha"),
            idempotency_key=f"day-{uuid.uuid4().hex}",
            now=datetime.now(dates.business_zone()) - timedelta(days=2),
        )
    engine.dispose()
    return placed.id, placed.reference


def _stored(server, booking_id: str):
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        status = session.get(Booking, uuid.UUID(booking_id)).status
        mails = session.exec(
            select(NotificationOutbox.payload).where(
                NotificationOutbox.booking_id == uuid.UUID(booking_id),
                NotificationOutbox.topic == "booking_status",
            )
        ).all()
        notes = session.exec(
            select(BookingNote.text).where(BookingNote.booking_id == uuid.UUID(booking_id))
        ).all()
    engine.dispose()
    return status, sorted(m["status"] for m in mails), list(notes)


def test_a_driver_runs_the_day_from_a_phone(phone, server):
    booking_id, reference = _todays_booking(server)
    _staff_id, _token, email = _staff(server)
    # Signed in from the form (its default is the back office): staff land on today's sheet.
    sign_in(phone, email)
    expect(phone).to_have_url(re.compile(r"/admin/day/?$"), timeout=15000)
    sheet = phone.get_by_test_id("sheet-booking").filter(has_text=reference)
    expect(sheet).to_be_visible()
    expect(sheet).to_contain_text("Vjosa Hoxha")
    expect(sheet.get_by_test_id("sheet-leave")).to_have_text("Leave at 11:00")
    expect(sheet.get_by_test_id("sheet-call")).to_have_attribute("href", "tel:+38344123456")
    expect(sheet.get_by_test_id("sheet-map")).to_have_attribute(
        "href", re.compile(r"^https://www\.google\.com/maps/search/\?api=1&query=Rruga")
    )
    expect(sheet.get_by_test_id("sheet-pickup")).to_contain_text("Pick up at 14:00")
    # Made for a thumb: the buttons are big, and nothing runs off the side of the phone.
    on_the_way = sheet.get_by_test_id("sheet-on_the_way")
    assert on_the_way.bounding_box()["height"] >= 44
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    on_the_way.click()
    expect(sheet.get_by_test_id("sheet-status")).to_have_text("on the way")
    expect(phone.get_by_test_id("admin-notice")).to_have_text(
        f"Booking {reference} is now on the way."
    )
    sheet.get_by_test_id("sheet-completed").click()
    expect(sheet.get_by_test_id("sheet-status")).to_have_text("completed")
    expect(sheet.get_by_test_id("sheet-on_the_way")).to_have_count(0)

    sheet.get_by_test_id("sheet-note-open").click()
    phone.get_by_label("Note").fill("All packed, gate code 4411")
    phone.get_by_test_id("sheet-note-save").click()
    expect(phone.get_by_test_id("admin-notice")).to_have_text("Note saved.")
    expect(sheet.locator("li", has_text="All packed, gate code 4411")).to_contain_text("Driton")
    assert _stored(server, booking_id) == (
        "completed",
        ["completed", "on_the_way"],
        ["All packed, gate code 4411"],
    )

    phone.goto("/admin")  # the back office's entry sends staff to their screen too
    expect(phone).to_have_url(re.compile(r"/admin/day/?$"))

    # The other days are a tap away.
    phone.get_by_test_id("sheet-next").click()
    expect(phone).to_have_url(re.compile(r"/admin/day/\d{4}-\d\d-\d\d$"))
    expect(phone.get_by_test_id("sheet-booking").filter(has_text=reference)).to_have_count(0)

    # Nothing else of the back office: settings, users, prices.
    for screen in ("/admin/settings", "/admin/users", "/admin/services", "/admin/bookings"):
        phone.goto(screen)
        expect(phone.get_by_test_id("access-denied")).to_be_visible()
    nav = phone.get_by_test_id("admin-sidebar")
    expect(nav.get_by_test_id("admin-nav-day")).to_be_visible()
    expect(nav.get_by_test_id("admin-nav-settings")).to_have_count(0)


def test_the_on_the_way_mail_gives_the_drivers_phone_from_their_profile(phone, server, mail_server):
    """Issue 34, item 7: a driver puts their phone on their profile; 'On the way' then mails
    the customer a greeting, when the crew expects to arrive and that phone."""
    booking_id, reference = _todays_booking(server)
    _staff_id, token, _email = _staff(server)
    phone.context.add_cookies([{"name": "sf_session", "value": token, "url": server.url}])
    phone.goto("/account/profile")
    field = phone.get_by_label(sq("Phone for customers on the event day"))
    expect(field).to_be_enabled(timeout=15000)
    field.fill("call me maybe")
    phone.get_by_role("button", name=sq("Save Changes")).click()
    expect(phone.get_by_test_id("profile-error")).to_contain_text("+383")
    field.fill("049 555 666")
    phone.get_by_role("button", name=sq("Save Changes")).click()
    expect(phone.get_by_test_id("profile-notice")).to_be_visible()
    phone.reload()
    expect(phone.get_by_label(sq("Phone for customers on the event day"))).to_have_value(
        "+383 49 555 666"
    )

    phone.goto("/admin/day")
    sheet = phone.get_by_test_id("sheet-booking").filter(has_text=reference)
    sheet.get_by_test_id("sheet-on_the_way").click()
    expect(sheet.get_by_test_id("sheet-status")).to_have_text("on the way")

    def arrived():
        return next(
            (
                m
                for m in mail_server.messages
                if m["Subject"].startswith("Jemi rrugës") and reference in m["Subject"]
            ),
            None,
        )

    for _ in range(300):  # the outbox's sender runs on its own
        if arrived():
            break
        phone.wait_for_timeout(100)
    mail = arrived()
    assert mail is not None, [m["Subject"] for m in mail_server.messages]
    text = mail.get_body(("plain",)).get_content()
    assert text.startswith("Përshëndetje Vjosa Hoxha,")
    assert "12:00" in text or "shpejti" in text  # by the start, or shortly once it has passed
    assert "+383 49 555 666" in text
    assert _stored(server, booking_id)[0] == "on_the_way"


def test_forged_admin_events_from_staff_change_nothing(server):
    from tests.e2e.test_admin_ops_forged import _booking

    booking_id, reference = _booking(server)
    staff_id, token, _email = _staff(server)
    before = _snapshot(server, booking_id)
    events = [e for e in _forged_events(booking_id, staff_id) if "calendar" not in e[0].lower()]
    assert len(events) > 40 and len(STATES) == 8
    seen: list[str] = []

    async def scenario():
        async with Tab(server.url, token) as tab:
            for name, path, payload in events:
                await tab.send_event(name, path, payload)
            seen.append(tab.states_text())

    _run(scenario())
    assert _snapshot(server, booking_id) == before
    assert reference not in "\n".join(seen)

    # A guest cannot set a booking on its way through the day sheet's own handler either.
    async def as_guest():
        async with Tab(server.url, None) as tab:
            await tab.send_event(
                f"{DaySheetState.get_full_name()}.mark",
                "/admin/day",
                {"booking_id": booking_id, "status": "on_the_way"},
            )

    _run(as_guest())
    assert _snapshot(server, booking_id) == before
