"""The calendar subscription of admins and staff through the production build (issue 22, item
5): the feed over real HTTP (no browser needed), a forged event of a plain user, and the
profile's section in Chromium."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from urllib.parse import urlsplit

import httpx
import pytest
from icalendar import Calendar
from playwright.sync_api import expect
from sqlmodel import Session, select

from storefront.db import in_transaction, make_engine
from storefront.models import Booking, BookingItem, CalendarFeed, User
from storefront.services import dates
from storefront.services.accounts import auth, calendar_feed
from storefront.state.account import CalendarFeedState
from tests.e2e.helpers import sq
from tests.e2e.socket_client import Tab, run

pytestmark = pytest.mark.e2e


def _write(server, fn):
    engine = make_engine(server.database_url)
    try:
        return in_transaction(fn, engine)
    finally:
        engine.dispose()


def _member(server, role: str) -> tuple[str, str]:
    """A signed-in account of `role`: (user id, session token)."""

    def make(session: Session) -> tuple[str, str]:
        user = User(email=f"{role}-{uuid.uuid4().hex[:8]}@example.com", role=role)
        session.add(user)
        session.flush()
        return str(user.id), auth.create_session(session=session, user_id=user.id, remember=False)

    return _write(server, make)


def _tomorrows_booking(server) -> tuple[str, datetime]:
    """A confirmed booking tomorrow at 15:00 in Prishtina: (reference, its start)."""
    day = dates.today() + timedelta(days=1)
    start = datetime(day.year, day.month, day.day, 15, tzinfo=dates.business_zone())

    def make(session: Session) -> str:
        booking = Booking(
            idempotency_key=uuid.uuid4().hex,
            status="confirmed",
            contact_name="Feed Customer",
            contact_email="feed@example.com",
            contact_phone="+383 44 765 432",
            venue_address="Rruga B 7",
            city="Prizren",
        )
        session.add(booking)
        session.flush()
        session.add(
            BookingItem(
                booking_id=booking.id,
                service_name="Feed bouncer",
                service_price=Decimal("80"),
                quantity=1,
                status="confirmed",
                start_datetime=start.astimezone(UTC),
                end_datetime=(start + timedelta(hours=3)).astimezone(UTC),
            )
        )
        return booking.reference

    return _write(server, make), start


def _feed_path(url: str) -> str:
    """The address's path: the server under test has its own PUBLIC_URL."""
    return urlsplit(url).path


def _turn_on(server, user_id: str) -> str:
    address = _write(server, lambda s: calendar_feed.turn_on(session=s, user_id=user_id))
    return _feed_path(address.url)


def _get(server, path: str) -> httpx.Response:
    return httpx.get(server.url + path, timeout=30)


def test_the_feed_over_http_and_its_404s(server):
    reference, start = _tomorrows_booking(server)
    staff_id, _token = _member(server, "staff")
    path = _turn_on(server, staff_id)

    answer = _get(server, path)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/calendar; charset=utf-8"
    assert "no-store" in answer.headers["cache-control"]
    assert "private" in answer.headers["cache-control"]
    calendar = Calendar.from_ical(answer.content)
    assert [str(tz["TZID"]) for tz in calendar.walk("VTIMEZONE")] == ["Europe/Belgrade"]
    [event] = [e for e in calendar.events if reference in str(e["DESCRIPTION"])]
    assert event.decoded("DTSTART") == start
    assert str(event.decoded("DTSTART").tzinfo) == "Europe/Belgrade"
    assert str(event["SUMMARY"]) == "Feed bouncer for Feed Customer"
    assert str(event["LOCATION"]) == "Rruga B 7, Prizren"
    assert "+383 44 765 432" in str(event["DESCRIPTION"])
    used = _write(server, lambda s: s.get(CalendarFeed, uuid.UUID(staff_id)).last_used_at)
    assert used is not None

    never = _get(server, "/api/calendar/" + "A" * 43 + ".ics")
    assert never.status_code == 404

    def same_404(response: httpx.Response) -> None:
        assert response.status_code == 404
        assert response.content == never.content
        assert response.headers["cache-control"] == never.headers["cache-control"]

    # A new address kills the old one.
    newer = _turn_on(server, staff_id)
    same_404(_get(server, path))
    assert _get(server, newer).status_code == 200

    # Demoted to a plain user: 404, and it stays so.
    def demote(session: Session) -> None:
        session.get(User, uuid.UUID(staff_id)).role = "user"

    _write(server, demote)
    same_404(_get(server, newer))

    # Turned off: 404.
    admin_id, _token = _member(server, "admin")
    admins = _turn_on(server, admin_id)
    assert _get(server, admins).status_code == 200
    _write(server, lambda s: calendar_feed.turn_off(session=s, user_id=admin_id))
    same_404(_get(server, admins))


def test_a_plain_user_cannot_turn_it_on_by_a_forged_event(server):
    user_id, token = _member(server, "user")

    async def scenario() -> str:
        async with Tab(server.url, token) as tab:
            await tab.send(CalendarFeedState.turn_on, "/account/profile")
            return tab.states_text()

    seen = run(scenario())
    assert "/api/calendar/" not in seen
    # The states arrive as JSON, which writes the Albanian letters as escapes.
    assert json.dumps(sq("The calendar subscription is for admins and staff."))[1:-1] in seen
    mine = select(CalendarFeed).where(CalendarFeed.user_id == uuid.UUID(user_id))
    assert _write(server, lambda s: s.exec(mine).all()) == []


def _signed_in(page, server, role: str) -> str:
    user_id, token = _member(server, role)
    host = urlsplit(server.url).hostname
    page.context.add_cookies(
        [{"name": auth.COOKIE_NAME, "value": token, "domain": host, "path": "/"}]
    )
    return user_id


# 'On since {date}.' up to its date, in the default edition's words.
ON_SINCE = sq("On since {date}.").partition("{date}")[0].strip()


def test_staff_turn_the_subscription_on_and_off_on_their_profile(phone, server):
    _signed_in(phone, server, "staff")
    phone.goto("/account/profile")
    section = phone.get_by_test_id("calendar-feed")
    expect(section).to_be_visible(timeout=15000)
    expect(section.get_by_test_id("calendar-feed-status")).to_have_text(sq("Off."))
    section.get_by_role("button", name=sq("Turn on"), exact=True).click()
    url_field = section.get_by_test_id("calendar-feed-url")
    expect(url_field).to_be_visible()
    url = url_field.input_value()
    assert url.endswith(".ics") and "/api/calendar/" in url
    webcal = section.get_by_test_id("calendar-feed-webcal")
    expect(webcal).to_have_attribute("href", "webcal://" + url.split("://", 1)[1])
    expect(section.get_by_test_id("calendar-feed-status")).to_contain_text(ON_SINCE)
    assert _get(server, _feed_path(url)).status_code == 200

    # Shown once: a new page load no longer has it.
    phone.reload()
    expect(section.get_by_test_id("calendar-feed-status")).to_contain_text(ON_SINCE)
    expect(section.get_by_test_id("calendar-feed-url")).to_have_count(0)

    section.get_by_role("button", name=sq("Turn off"), exact=True).click()
    expect(section.get_by_test_id("calendar-feed-status")).to_have_text(sq("Off."))
    assert _get(server, _feed_path(url)).status_code == 404


def test_plain_users_do_not_see_the_section(page, server):
    _signed_in(page, server, "user")
    page.goto("/account/profile")
    expect(page.get_by_label(sq("Full Name"))).to_be_visible(timeout=15000)
    expect(page.get_by_test_id("calendar-feed")).to_have_count(0)
