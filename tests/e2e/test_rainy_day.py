"""A rainy day on a phone (issue 37): the owner picks a day and what the weather stops
(bouncers), sees the bookings affected, and in one press offers their customers a move or a
cancellation. The customer's mail arrives through the real SMTP server with the booking's link;
the booking's page says the offer; nothing was cancelled, and the day's tables were left alone."""

from __future__ import annotations

import re
import time
import uuid
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import Booking, NotificationOutbox, ServiceCategory, User
from storefront.services import dates
from storefront.services.booking import placing
from tests.e2e.test_staff_day import _admin, _signed_in
from tests.factories import contact, line, make_service

pytestmark = pytest.mark.e2e


def _booked(server, day, slug: str, email: str) -> tuple[str, str]:
    """A booking on `day` at 12:00 of a fresh service in the category `slug`: (id, ref)."""
    engine = make_engine(server.database_url)
    with Session(engine, expire_on_commit=False) as session:
        category = session.exec(select(ServiceCategory).where(ServiceCategory.slug == slug)).first()
        if category is None:
            category = ServiceCategory(name=slug.title(), slug=slug)
            session.add(category)
            session.commit()
        service = make_service(session, title=f"Castle {uuid.uuid4().hex[:6]}", units=3)
        service.category_id = category.id
        session.add(service)
        session.commit()
        placed = placing.place_booking(
            session=session,
            lines=[line(service, day.isoformat(), "12:00", hours=2)],
            contact=contact(email=email, full_name="Vjosa Hoxha"),
            idempotency_key=f"rain-{uuid.uuid4().hex}",
            now=datetime.now(dates.business_zone()),
        )
    engine.dispose()
    return placed.id, placed.reference


def _stored(server, booking_id: str) -> tuple[str, bool, int]:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        booking = session.get(Booking, uuid.UUID(booking_id))
        mails = session.exec(
            select(NotificationOutbox).where(
                NotificationOutbox.booking_id == booking.id,
                NotificationOutbox.topic == "booking_weather",
            )
        ).all()
        result = (booking.status, booking.weather_offered_at is not None, len(mails))
    engine.dispose()
    return result


def test_the_owner_offers_a_rainy_days_bouncers_a_move_from_a_phone(phone, server, mail_server):
    # A day no other browser test books.
    day = dates.today() + timedelta(days=73)
    mailbox = f"rain-{uuid.uuid4().hex[:8]}@example.com"
    castle_id, castle = _booked(server, day, "bouncers", mailbox)
    tables_id, tables = _booked(server, day, "wedding-tables", mailbox)
    _admin_id, token = _admin(server, language="en")
    _signed_in(phone, server, token)

    # From the day sheet, as the owner finds it.
    phone.goto("/admin/day")
    phone.get_by_test_id("sheet-rainy-day").click()
    expect(phone).to_have_url(re.compile(r"/admin/rainy-day/?$"), timeout=15000)
    form_day = phone.get_by_test_id("rainy-day")
    expect(form_day).to_be_visible(timeout=15000)
    form_day.fill(dates.display_day(day))
    expect(phone.locator("#category-bouncers")).to_be_checked()
    expect(phone.locator("#category-wedding-tables")).not_to_be_checked()
    phone.get_by_test_id("rainy-look-up").click()

    rows = phone.get_by_test_id("rainy-row")
    expect(rows.filter(has_text=castle)).to_have_count(1)
    expect(rows.filter(has_text=tables)).to_have_count(0)
    expect(rows.filter(has_text=castle)).to_contain_text("Not yet")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    phone.get_by_test_id("rainy-offer").click()
    phone.get_by_test_id("rainy-confirm-send").click()
    expect(phone.get_by_test_id("admin-notice")).to_contain_text(castle)
    expect(rows.filter(has_text=castle)).to_contain_text("Offered")
    expect(phone.get_by_test_id("rainy-offer")).to_be_disabled()

    deadline, mail = time.monotonic() + 30, None
    while mail is None and time.monotonic() < deadline:
        mail = next(
            (
                m
                for m in mail_server.messages
                if castle in m["Subject"]
                and "weather" in m["Subject"]
                or castle in m["Subject"]
                and "moti" in m["Subject"]
            ),
            None,
        )
        time.sleep(0.2)
    assert mail is not None, "the weather mail did not arrive"
    link = re.search(
        r"https?://\S+/booking-confirmation/\S+\?key=\S+", mail.get_body(("plain",)).get_content()
    )
    assert link, "the mail has the booking's signed link"

    # Nothing was cancelled; the tables were neither marked nor mailed.
    assert _stored(server, castle_id) == ("pending", True, 1)
    assert _stored(server, tables_id) == ("pending", False, 0)

    # The day sheet marks the job offered, and only it.
    phone.goto(f"/admin/day/{day.isoformat()}")
    jobs = phone.get_by_test_id("sheet-booking")
    expect(jobs.filter(has_text=castle).get_by_test_id("sheet-weather")).to_be_visible(
        timeout=15000
    )
    expect(jobs.filter(has_text=tables).get_by_test_id("sheet-weather")).to_have_count(0)

    phone.goto(link.group(0))
    notice = phone.get_by_test_id("confirmation-weather")
    expect(notice).to_be_visible(timeout=15000)
    expect(notice).to_contain_text(dates.display_day(day))


def test_only_an_admin_may_open_the_rainy_day(phone, server):
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        from storefront.services.accounts import auth

        staff = User(email=f"d-{uuid.uuid4().hex[:8]}@example.com", role="staff")
        session.add(staff)
        session.flush()
        token = auth.create_session(session=session, user_id=staff.id, remember=False)
        session.commit()
    engine.dispose()
    _signed_in(phone, server, token)
    phone.goto("/admin/rainy-day")
    expect(phone.get_by_test_id("rainy-day")).to_have_count(0)


def test_forged_rainy_day_events_offer_nothing_but_for_an_admin(server):
    """Every handler of the screen, sent over the real websocket by a guest, a member of staff
    and a customer, with the day and the bouncers in its form: nothing is offered, no reference
    reaches them; an admin's offer is made."""
    from storefront.services.accounts import auth
    from storefront.state.admin_weather import AdminWeatherState as S
    from tests.e2e.socket_client import Tab, run

    day = dates.today() + timedelta(days=75)
    booking_id, reference = _booked(server, day, "bouncers", "forged-rain@example.com")
    form = {"form_data": {"day": dates.display_day(day), "category-bouncers": "on"}}

    def token(role: str) -> str:
        engine = make_engine(server.database_url)
        with Session(engine) as session:
            user = User(email=f"{role}-{uuid.uuid4().hex[:8]}@example.com", role=role)
            session.add(user)
            session.flush()
            made = auth.create_session(session=session, user_id=user.id, remember=False)
            session.commit()
        engine.dispose()
        return made

    seen: dict[str, str] = {}
    offered: dict[str, bool] = {}

    async def scenario():
        for who, cookie in (
            ("guest", None),
            ("staff", token("staff")),
            ("user", token("user")),
            ("admin", token("admin")),
        ):
            async with Tab(server.url, cookie) as tab:
                await tab.send(S.load, "/admin/rainy-day")
                await tab.send(S.look_up, "/admin/rainy-day", **form)
                await tab.send(S.ask, "/admin/rainy-day")
                await tab.send(S.offer, "/admin/rainy-day")
                seen[who] = "\n".join(tab.received)
            offered[who] = _stored(server, booking_id)[1]

    run(scenario())
    for who in ("guest", "staff", "user"):
        assert reference not in seen[who], who
        assert not offered[who], who
    assert reference in seen["admin"] and offered["admin"]
