"""The calendar subscription of admins and staff (services/accounts/calendar_feed.py) on SQLite and
PostgreSQL: the feed parsed with icalendar lists the day's bookings at Europe/Belgrade times with
the zone's VTIMEZONE; a revoked, replaced, demoted or deleted member's address is None (the
route's 404)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
from icalendar import Calendar
from sqlmodel import select

from storefront.models import (
    AuditLog,
    Booking,
    BookingItem,
    BusinessSettings,
    CalendarFeed,
    TwoFactor,
    User,
)
from storefront.services.accounts import calendar_feed
from storefront.services.accounts.calendar_feed import CalendarFeedError

NOW = datetime(2026, 7, 1, 8, 0, tzinfo=UTC)  # a Wednesday, 10:00 in Prishtina
DAY = "2026-07-04"


def _member(session, role="staff", language=None) -> str:
    user = User(email=f"{role}-{uuid.uuid4().hex[:8]}@example.com", role=role, language=language)
    session.add(user)
    session.commit()
    return str(user.id)


def _booking(session, *lines, status="pending", name="Arta Krasniqi", **fields) -> Booking:
    """A booking with one item per (service, start, hours, quantity[, status]); starts in UTC."""
    booking = Booking(
        idempotency_key=uuid.uuid4().hex,
        status=status,
        contact_name=name,
        contact_email="arta@example.com",
        contact_phone="+383 44 123 456",
        venue_address="Rruga Agim Ramadani 15",
        city="Prishtina",
        guest_count=40,
        special_requests="Gate code 1234",
        **fields,
    )
    session.add(booking)
    session.flush()
    for service, start, hours, quantity, *item_status in lines:
        session.add(
            BookingItem(
                booking_id=booking.id,
                service_name=service,
                service_price=Decimal("100"),
                quantity=quantity,
                start_datetime=start,
                end_datetime=start + timedelta(hours=hours),
                status=item_status[0] if item_status else status,
            )
        )
    session.commit()
    return booking


def _token(address: calendar_feed.FeedAddress) -> str:
    return urlsplit(address.url).path.rsplit("/", 1)[-1].removesuffix(".ics")


def _read(session, token, now=NOW) -> Calendar | None:
    body = calendar_feed.feed(session=session, token=token, now=now)
    session.commit()
    return None if body is None else Calendar.from_ical(body)


def _on_day(calendar: Calendar, day: str):
    return [e for e in calendar.events if e.decoded("DTSTART").date().isoformat() == day]


def test_the_feed_lists_the_days_bookings_at_belgrade_times_with_the_zone(session):
    session.add(BusinessSettings(id=1, business_name="Magic Events"))
    admin = _member(session, "admin")
    party = _booking(
        session,
        ("Bouncy castle", datetime(2026, 7, 4, 13, 0, tzinfo=UTC), 3, 2),  # 15:00 CEST
        ("Mascot Elsa", datetime(2026, 7, 4, 8, 30, tzinfo=UTC), 1, 1),  # 10:30 CEST
        status="confirmed",
    )
    pending = _booking(
        session, ("Popcorn machine", datetime(2026, 7, 4, 16, 0, tzinfo=UTC), 2, 1), name="Besa"
    )
    # Not listed: a cancelled booking that day, a cancelled line of a listed one, one long
    # gone, one beyond the months ahead.
    _booking(
        session, ("Candy floss", datetime(2026, 7, 4, 9, 0, tzinfo=UTC), 2, 1), status="cancelled"
    )
    _booking(
        session,
        ("Face painting", datetime(2026, 7, 4, 11, 0, tzinfo=UTC), 1, 1, "cancelled"),
        ("Balloons", datetime(2026, 7, 4, 11, 0, tzinfo=UTC), 1, 1),
        status="confirmed",
    )
    _booking(session, ("Old job", NOW - timedelta(days=20), 2, 1), status="completed")
    _booking(session, ("Far job", NOW + timedelta(days=400), 2, 1), status="confirmed")
    # Listed: the last days' work, done.
    _booking(session, ("Done job", NOW - timedelta(days=2), 2, 1), status="completed")

    address = calendar_feed.turn_on(session=session, user_id=admin, now=NOW)
    session.commit()
    assert address.url.startswith("http") and address.url.endswith(".ics")
    assert address.webcal_url == "webcal://" + address.url.split("://", 1)[1]
    calendar = _read(session, _token(address))

    assert str(calendar["X-WR-CALNAME"]) == "Magic Events: bookings"
    assert calendar["REFRESH-INTERVAL"].dt == timedelta(hours=1)
    assert [str(tz["TZID"]) for tz in calendar.walk("VTIMEZONE")] == ["Europe/Belgrade"]
    assert {c.name for c in calendar.walk("VTIMEZONE")[0].subcomponents} == {
        "STANDARD",
        "DAYLIGHT",
    }
    day = _on_day(calendar, DAY)
    assert [str(e["SUMMARY"]) for e in day] == [
        "Mascot Elsa for Arta Krasniqi",
        "Balloons for Arta Krasniqi",
        "Bouncy castle x2 for Arta Krasniqi",
        "Pending: Popcorn machine for Besa",
    ]
    starts = [e.decoded("DTSTART") for e in day]
    assert [(s.strftime("%H:%M"), str(s.tzinfo)) for s in starts] == [
        ("10:30", "Europe/Belgrade"),
        ("13:00", "Europe/Belgrade"),
        ("15:00", "Europe/Belgrade"),
        ("18:00", "Europe/Belgrade"),
    ]
    assert "DTSTART;TZID=Europe/Belgrade:20260704T150000" in calendar.to_ical().decode()
    assert day[2].decoded("DTEND").strftime("%H:%M") == "18:00"
    castle = day[2]
    assert str(castle["LOCATION"]) == "Rruga Agim Ramadani 15, Prishtina"
    description = str(castle["DESCRIPTION"])
    for part in (party.reference, "+383 44 123 456", "40 guests", "Gate code 1234"):
        assert part in description
    assert str(castle["URL"]).endswith(f"/admin/bookings/edit/{party.id}")
    assert str(castle["URL"]) in description
    assert [str(e["STATUS"]) for e in day] == ["CONFIRMED", "CONFIRMED", "CONFIRMED", "TENTATIVE"]
    assert pending.reference in str(day[3]["DESCRIPTION"])
    summaries = {str(e["SUMMARY"]) for e in calendar.events}
    assert "Done job for Arta Krasniqi" in summaries
    assert not summaries & {f"{s} for Arta Krasniqi" for s in ("Old job", "Far job")}
    assert not any("Candy floss" in s or "Face painting" in s for s in summaries)

    again = _read(session, _token(address), now=NOW + timedelta(minutes=5))
    assert [str(e["UID"]) for e in again.events] == [str(e["UID"]) for e in calendar.events]
    assert len({str(e["UID"]) for e in calendar.events}) == len(calendar.events)


def test_staff_read_it_in_their_language_with_links_to_the_day_sheet(session):
    staff = _member(session, "staff", language="sq")
    booking = _booking(
        session, ("Bouncy castle", datetime(2026, 7, 4, 21, 30, tzinfo=UTC), 2, 1)
    )  # 23:30 on the 4th in Prishtina
    address = calendar_feed.turn_on(session=session, user_id=staff, now=NOW)
    session.commit()
    [event] = _read(session, _token(address)).events
    assert f"Rezervimi {booking.reference}" in str(event["DESCRIPTION"])
    assert str(event["URL"]).endswith("/sq/admin/day/2026-07-04")


def test_turning_it_off_or_on_again_kills_the_old_address(session):
    staff = _member(session)
    first = _token(calendar_feed.turn_on(session=session, user_id=staff, now=NOW))
    session.commit()
    assert _read(session, first) is not None
    second = _token(calendar_feed.turn_on(session=session, user_id=staff, now=NOW))
    session.commit()
    assert second != first
    assert _read(session, first) is None
    assert _read(session, second) is not None
    assert calendar_feed.status(session=session, user_id=staff).enabled

    calendar_feed.turn_off(session=session, user_id=staff)
    session.commit()
    assert _read(session, second) is None
    assert not calendar_feed.status(session=session, user_id=staff).enabled
    actions = session.exec(select(AuditLog.action).order_by(AuditLog.created_at)).all()
    assert actions.count("calendar_feed_on") == 2 and actions.count("calendar_feed_off") == 1


def test_only_the_hash_is_stored(session):
    admin = _member(session, "admin")
    token = _token(calendar_feed.turn_on(session=session, user_id=admin, now=NOW))
    session.commit()
    row = session.get(CalendarFeed, uuid.UUID(admin))
    assert token not in row.token_hash and len(row.token_hash) == 64


@pytest.mark.parametrize("new_role", ["user", "admin"])
def test_a_member_whose_role_changed_gets_404_for_good(session, new_role):
    staff = _member(session, "staff")
    token = _token(calendar_feed.turn_on(session=session, user_id=staff, now=NOW))
    session.commit()
    user = session.get(User, uuid.UUID(staff))
    user.role = new_role
    session.add(user)
    session.commit()
    assert _read(session, token) is None
    # The address does not come back with the role.
    user.role = "staff"
    session.add(user)
    session.commit()
    assert _read(session, token) is None
    assert session.get(CalendarFeed, uuid.UUID(staff)) is None


def test_a_deleted_account_and_tokens_that_never_were_get_404(session):
    admin = _member(session, "admin")
    token = _token(calendar_feed.turn_on(session=session, user_id=admin, now=NOW))
    session.commit()
    for other in ("", "x", token[:-1], token + "a", "A" * 43, "../" + token, token.upper()):
        assert _read(session, other) is None, other
    session.delete(session.get(User, uuid.UUID(admin)))
    session.commit()
    assert _read(session, token) is None


def test_users_cannot_turn_it_on(session):
    user = _member(session, "user")
    assert calendar_feed.status(session=session, user_id=user) == calendar_feed.FeedStatus(
        allowed=False, enabled=False
    )
    with pytest.raises(CalendarFeedError) as refused:
        calendar_feed.turn_on(session=session, user_id=user, now=NOW)
    assert refused.value.code == "not_allowed"
    with pytest.raises(CalendarFeedError) as nobody:
        calendar_feed.turn_on(session=session, user_id=str(uuid.uuid4()), now=NOW)
    assert nobody.value.code == "no_user"
    assert session.exec(select(CalendarFeed)).all() == []


def test_an_admin_who_must_set_up_two_factor_first_gets_no_feed_until_then(session):
    admin = _member(session, "admin")
    token = _token(calendar_feed.turn_on(session=session, user_id=admin, now=NOW))
    session.add(BusinessSettings(id=1, admin_two_factor_required=True))
    session.commit()
    assert _read(session, token) is None
    with pytest.raises(CalendarFeedError) as refused:
        calendar_feed.turn_on(session=session, user_id=admin, now=NOW)
    assert refused.value.code == "two_factor_required"
    session.add(TwoFactor(user_id=uuid.UUID(admin), secret="JBSWY3DPEHPK3PXP", enabled_at=NOW))
    session.commit()
    assert _read(session, token) is not None


def test_its_last_use_is_written_at_most_once_an_hour(session):
    staff = _member(session)
    token = _token(calendar_feed.turn_on(session=session, user_id=staff, now=NOW))
    session.commit()
    _read(session, token, now=NOW + timedelta(minutes=1))
    _read(session, token, now=NOW + timedelta(minutes=30))
    session.expire_all()
    row = session.get(CalendarFeed, uuid.UUID(staff))
    assert row.last_used_at == NOW + timedelta(minutes=1)
    _read(session, token, now=NOW + timedelta(minutes=90))
    session.expire_all()
    assert session.get(CalendarFeed, uuid.UUID(staff)).last_used_at == NOW + timedelta(minutes=90)
    assert calendar_feed.status(session=session, user_id=staff).last_used_at == NOW + timedelta(
        minutes=90
    )


def test_the_role_change_can_end_the_address_at_once(session):
    admin = _member(session, "admin")
    token = _token(calendar_feed.turn_on(session=session, user_id=admin, now=NOW))
    session.commit()
    calendar_feed.end_for(session, admin)
    session.commit()
    assert not calendar_feed.status(session=session, user_id=admin).enabled
    assert _read(session, token) is None
