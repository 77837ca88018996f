"""A driver's day on a phone (issue 22, issue 34 item 11): a staff member signs in, opens today's
sheet, sees whom to call and where to go, marks a confirmed booking on the way (the customer's
message waits in the outbox) and then completed, writes a note, and cannot open the back
office's other screens; a pending booking, or tomorrow's, offers no status and a forged 'On
the way' for it changes nothing; forged events of theirs to the admin handlers change nothing.
An admin undoes a status with a reason, in both editions; the printed sheet is headed with its
title, the business's name and the day, and lists no pickup for a mascot visit."""

from __future__ import annotations

import re
import uuid
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect
from sqlmodel import Session, select

from storefront import i18n
from storefront.db import make_engine
from storefront.models import (
    AuditLog,
    Booking,
    BookingItem,
    BookingNote,
    BusinessSettings,
    NotificationOutbox,
    User,
)
from storefront.services import dates
from storefront.services.accounts import auth
from storefront.services.booking import admin as admin_bookings
from storefront.services.booking import placing
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


def _admin(server, language: str | None = None) -> tuple[str, str]:
    """An admin with a session (and the back office's language): (id, token)."""
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        user = User(
            email=f"boss-{uuid.uuid4().hex[:8]}@example.com", role="admin", language=language
        )
        session.add(user)
        session.flush()
        token = auth.create_session(session=session, user_id=user.id, remember=False)
        session.commit()
        result = (str(user.id), token)
    engine.dispose()
    return result


def _signed_in(page, server, token: str) -> None:
    host = server.url.split("//")[1].split(":")[0]
    page.context.add_cookies(
        [{"name": auth.COOKIE_NAME, "value": token, "domain": host, "path": "/"}]
    )


def _todays_booking(
    server, *, status: str = "confirmed", days: int = 0, kind: str = "service", meta=None
) -> tuple[str, str]:
    """A booking of a fresh service today (or `days` later) at 12:00 (local), placed two days
    ago and set to `status` by an admin: (id, ref)."""
    engine = make_engine(server.database_url)
    day = dates.today() + timedelta(days=days)
    with Session(engine, expire_on_commit=False) as session:
        service = make_service(session, title=f"Castle {uuid.uuid4().hex[:6]}", units=3)
        service.kind, service.meta = kind, meta or {}
        session.add(service)
        session.commit()
        placed = placing.place_booking(
            session=session,
            lines=[line(service, day.isoformat(), "12:00", hours=2)],
            contact=contact(email="day.guest@example.com", full_name="Vjosa Hoxha"),
            idempotency_key=f"day-{uuid.uuid4().hex}",
            now=datetime.now(dates.business_zone()) - timedelta(days=2),
        )
        if status != "pending":
            admin = User(email=f"office-{uuid.uuid4().hex[:8]}@example.com", role="admin")
            session.add(admin)
            session.commit()
            admin_bookings.set_status(
                session=session, actor_id=admin.id, booking_id=placed.id, status=status
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
    _pending_id, pending = _todays_booking(server, status="pending")
    _staff_id, _token, email = _staff(server)
    # Signed in from the form (its default is the back office): staff land on today's sheet.
    sign_in(phone, email)
    expect(phone).to_have_url(re.compile(r"/admin/day/?$"), timeout=15000)
    sheet = phone.get_by_test_id("sheet-booking").filter(has_text=reference)
    expect(sheet).to_be_visible()
    expect(sheet).to_contain_text("Vjosa Hoxha")
    # The van leaves the depot the setup lead and the drive (15 min within Prishtinë) before.
    expect(sheet.get_by_test_id("sheet-leave")).to_have_text("Leave the depot at 10:45")
    expect(sheet.get_by_test_id("sheet-call")).to_have_attribute("href", "tel:+38344123456")
    expect(sheet.get_by_test_id("sheet-map")).to_have_attribute(
        "href", re.compile(r"^https://www\.google\.com/maps/search/\?api=1&query=Rruga")
    )
    expect(sheet.get_by_test_id("sheet-pickup")).to_contain_text("Pick up at 14:00")
    # A booking not confirmed yet is not set out for; a confirmed one is, and only then done.
    not_confirmed = phone.get_by_test_id("sheet-booking").filter(has_text=pending)
    expect(not_confirmed.get_by_test_id("sheet-status")).to_have_text("pending")
    expect(not_confirmed.get_by_test_id("sheet-on_the_way")).to_have_count(0)
    expect(not_confirmed.get_by_test_id("sheet-completed")).to_have_count(0)
    expect(sheet.get_by_test_id("sheet-completed")).to_have_count(0)
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
        ["completed", "confirmed", "on_the_way"],
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
    assert len(events) > 60 and len(STATES) == 12
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


def test_tomorrows_sheet_sets_nothing_out_and_a_forged_on_the_way_is_refused(phone, server):
    """The reviewer's case: a driver opened tomorrow's sheet and set a pending booking on its
    way, then completed; the customer was mailed 'Jemi rrugës' a day early."""
    tomorrow = (dates.today() + timedelta(days=1)).isoformat()
    pending_id, pending = _todays_booking(server, status="pending", days=1)
    confirmed_id, confirmed = _todays_booking(server, days=1)
    staff_id, token, _email = _staff(server)
    _signed_in(phone, server, token)
    phone.goto(f"/admin/day/{tomorrow}")
    for reference in (pending, confirmed):
        job = phone.get_by_test_id("sheet-booking").filter(has_text=reference)
        expect(job).to_be_visible()
        expect(job.get_by_test_id("sheet-on_the_way")).to_have_count(0)
        expect(job.get_by_test_id("sheet-completed")).to_have_count(0)
    before = [_stored(server, b) for b in (pending_id, confirmed_id)]

    # Forged from a staff tab that has tomorrow's sheet: nothing moves, no mail goes.
    mark = f"{DaySheetState.get_full_name()}.mark"

    async def forged():
        async with Tab(server.url, token) as tab:
            path = f"/admin/day/{tomorrow}"
            await tab.send_name(
                f"{DaySheetState.get_full_name()}.load", path, query={"day": tomorrow}
            )
            for booking_id in (pending_id, confirmed_id):
                for status in ("on_the_way", "completed"):
                    await tab.send_event(mark, path, {"booking_id": booking_id, "status": status})

    _run(forged())
    assert [_stored(server, b) for b in (pending_id, confirmed_id)] == before

    # A sheet opened when the booking was confirmed, which an admin has since set back to
    # pending: the tab still shows the button, the server refuses and says why.
    today_id, today_ref = _todays_booking(server)
    today = dates.today().isoformat()

    async def stale():
        async with Tab(server.url, token) as tab:
            path = f"/admin/day/{today}"
            await tab.send_name(f"{DaySheetState.get_full_name()}.load", path, query={"day": today})
            assert today_ref in tab.states_text()
            _set_back_to_pending(server, today_id)
            await tab.send_event(mark, path, {"booking_id": today_id, "status": "on_the_way"})
            return tab.states_text()

    text = _run(stale())
    assert "Only a confirmed booking can be set on the way." in text
    assert _stored(server, today_id)[:2] == ("pending", ["confirmed"])
    assert staff_id  # the member of staff whose tab it was


def _set_back_to_pending(server, booking_id: str) -> None:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        stored = session.get(Booking, uuid.UUID(booking_id))
        stored.status = "pending"
        session.add(stored)
        for item in session.exec(
            select(BookingItem).where(BookingItem.booking_id == stored.id)
        ).all():
            item.status = "pending"
            session.add(item)
        session.commit()
    engine.dispose()


def _undo_entry(server, booking_id: str) -> dict | None:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        entry = session.exec(
            select(AuditLog).where(
                AuditLog.action == "booking_status_undo", AuditLog.entity_id == booking_id
            )
        ).first()
        result = None if entry is None else entry.details
    engine.dispose()
    return result


def _office(text: str, language: str) -> str:
    with i18n.using(language):
        return i18n.office_gettext(text)


@pytest.mark.parametrize("language", ["en", "sq"])
def test_an_admin_undoes_on_the_way_with_a_reason(page, server, language):
    """The driver pressed 'On the way' too early: the admin sets it back, saying why; the audit
    log keeps from, to and the reason; the customer is not mailed again, not even when the crew
    does set out."""
    booking_id, reference = _todays_booking(server)
    staff_id, staff_token, _email = _staff(server)
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        admin_bookings.set_status(
            session=session, actor_id=staff_id, booking_id=booking_id, status="on_the_way"
        )
    engine.dispose()
    _admin_id, token = _admin(server, language if language == "sq" else None)
    _signed_in(page, server, token)
    t = (lambda text: _office(text, language)) if language == "sq" else (lambda text: text)
    prefix = "/sq" if language == "sq" else ""
    page.goto(f"{prefix}/admin/bookings?q={reference}")
    row = page.get_by_test_id("booking-row")
    expect(row).to_have_count(1)
    row.get_by_test_id("booking-view").click()
    detail = page.get_by_test_id("booking-detail")
    expect(detail.get_by_test_id("status-badge")).to_have_text(t("on the way"))
    undo = detail.get_by_test_id("undo-form")
    expect(undo).to_contain_text(t("Undo the last status change"))
    button = detail.get_by_test_id("status-undo")
    expect(button).to_have_text(t("Undo: back to {status}").format(status=t("confirmed")))

    # Without a reason, nothing happens but a message beside it.
    button.click()
    expect(detail.get_by_test_id("undo-error")).to_contain_text(t("Reason"))
    assert _stored(server, booking_id)[0] == "on_the_way"

    detail.get_by_label(t("Reason (required)")).fill("Pressed before leaving the depot")
    button.click()
    expect(page.get_by_test_id("admin-notice")).to_have_text(
        t("Booking {reference} is back to {status}.").format(
            reference=reference, status=t("confirmed")
        )
    )
    expect(detail.get_by_test_id("status-badge")).to_have_text(t("confirmed"))
    # The next undo would go back to pending: the form is there again, empty.
    expect(button).to_have_text(t("Undo: back to {status}").format(status=t("pending")))
    expect(detail.get_by_label(t("Reason (required)"))).to_have_value("")
    details = _undo_entry(server, booking_id)
    assert details["before"] == {"status": "on_the_way"}
    assert details["after"] == {"status": "confirmed"}
    assert details["reason"] == "Pressed before leaving the depot"

    # The crew sets out for real: no second 'on the way' for the customer.
    async def set_out():
        async with Tab(server.url, staff_token) as tab:
            today = dates.today().isoformat()
            path = f"/admin/day/{today}"
            await tab.send_name(f"{DaySheetState.get_full_name()}.load", path, query={"day": today})
            await tab.send_event(
                f"{DaySheetState.get_full_name()}.mark",
                path,
                {"booking_id": booking_id, "status": "on_the_way"},
            )

    _run(set_out())
    assert _stored(server, booking_id)[:2] == ("on_the_way", ["confirmed", "on_the_way"])


def _business_name(server) -> str:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        row = session.get(BusinessSettings, 1) or BusinessSettings()
        name = row.business_name
    engine.dispose()
    return name


@pytest.mark.parametrize("language", ["en", "sq"])
def test_the_printed_sheet_is_headed_and_a_mascot_visit_has_no_pickup(page, server, language):
    _visit_id, visit = _todays_booking(
        server, kind="package", meta={"type": "mascot", "features": []}
    )
    _castle_id, castle = _todays_booking(server)
    _admin_id, token = _admin(server, language if language == "sq" else None)
    _signed_in(page, server, token)
    t = (lambda text: _office(text, language)) if language == "sq" else (lambda text: text)
    prefix = "/sq" if language == "sq" else ""
    today = dates.today()
    page.goto(f"{prefix}/admin/day/{today.isoformat()}")
    jobs = page.get_by_test_id("sheet-booking")
    expect(jobs.filter(has_text=visit)).to_be_visible()
    expect(jobs.filter(has_text=visit).get_by_test_id("sheet-pickup")).to_have_count(0)
    expect(jobs.filter(has_text=castle).get_by_test_id("sheet-pickup")).to_contain_text(
        t("Pick up at {time}").format(time="14:00")
    )
    header = page.get_by_test_id("sheet-print-header")
    expect(header).to_be_hidden()  # the screen has the frame's title

    page.emulate_media(media="print")
    weekday = t(dates.OFFICE_DAY_NAMES[(today.weekday() + 1) % 7])
    expect(header).to_be_visible()
    expect(header.locator("h1")).to_have_text(f"{t('Day Sheet')} · {_business_name(server)}")
    expect(header).to_contain_text(f"{weekday}, {today.strftime('%d.%m.%Y')}")
    expect(page.get_by_test_id("admin-sidebar")).to_be_hidden()
    expect(jobs.filter(has_text=visit).get_by_test_id("sheet-pickup")).to_have_count(0)
