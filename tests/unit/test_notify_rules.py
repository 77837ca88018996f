"""Rules of the notifications that need no database: names, phones, retries, links, .ics."""

import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import jwt
import pytest
from icalendar import Calendar

from storefront.models import Booking, BookingItem, BusinessSettings
from storefront.services.messaging.ics import ics_for_booking
from storefront.services.messaging.links import sign_view_key, verify_view_key, view_url
from storefront.services.messaging.notify import customer_name, name_from_email, with_plus
from storefront.services.messaging.outbox import retry_delay
from storefront.settings import get_settings

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
BELGRADE = ZoneInfo("Europe/Belgrade")


@pytest.mark.parametrize(
    ("email", "name"),
    [
        ("arta.krasniqi@example.com", "Arta Krasniqi"),
        ("john_doe-smith@example.com", "John Doe Smith"),
        ("ARTA@example.com", "Arta"),
        ("a..b__c@example.com", "A B C"),
    ],
)
def test_a_customer_name_comes_from_the_email_local_part(email, name):
    assert name_from_email(email) == name


def test_a_stored_contact_name_wins_over_the_email():
    booking = Booking(idempotency_key="k", contact_email="a.b@x.com", contact_phone="1")
    assert customer_name(booking) == "A B"
    booking.contact_name = "Arta Krasniqi"
    assert customer_name(booking) == "Arta Krasniqi"


@pytest.mark.parametrize(
    ("phone", "expected"),
    [
        ("38344123456", "+38344123456"),
        ("+38344123456", "+38344123456"),
        (" 383 44 123 456 ", "+38344123456"),
        ("044 123 456", "+38344123456"),
        ("12-34", "+12-34"),  # a row from before numbers were checked: as docs/product.md §7 did
        ("", ""),
    ],
)
def test_customer_phone_is_e164_or_gets_a_leading_plus(phone, expected):
    assert with_plus(phone) == expected


def test_retries_back_off_exponentially_up_to_a_cap():
    delays = [retry_delay(n).total_seconds() for n in range(1, 10)]
    assert delays[:4] == [30, 60, 120, 240]
    assert delays[-1] == 5 * 60 and max(delays) == 5 * 60
    # A message retried through a long outage: no overflow however many attempts it had.
    assert retry_delay(1000).total_seconds() == 5 * 60


def test_a_view_key_opens_its_own_booking_only():
    booking_id, other = uuid.uuid4(), uuid.uuid4()
    key = sign_view_key(booking_id, now=NOW)
    assert verify_view_key(booking_id, key, now=NOW + timedelta(days=179))
    assert verify_view_key(str(booking_id), key, now=NOW)
    assert not verify_view_key(other, key, now=NOW)
    assert not verify_view_key(booking_id, key, now=NOW + timedelta(days=181))
    assert not verify_view_key(booking_id, key[:-2] + "xx", now=NOW)
    assert not verify_view_key(booking_id, "", now=NOW)


def test_a_token_signed_for_another_purpose_is_no_view_key():
    booking_id = uuid.uuid4()
    claims = {"sub": str(booking_id), "purpose": "sign-in", "exp": NOW + timedelta(days=1)}
    key = jwt.encode(claims, get_settings().secret_key, algorithm="HS256")
    assert not verify_view_key(booking_id, key, now=NOW)


def test_the_view_url_carries_a_key_that_verifies():
    booking_id = uuid.uuid4()
    url = view_url(booking_id)
    prefix = f"{get_settings().public_url}/booking-confirmation/{booking_id}?key="
    assert url.startswith(prefix)
    assert verify_view_key(booking_id, url.removeprefix(prefix))


def _booking_with_items():
    booking = Booking(
        idempotency_key="k",
        contact_email="arta@example.com",
        contact_phone="+38344123456",
        venue_address="Rruga UCK 1",
        city="Prishtina",
        total_amount=Decimal("300"),
        created_at=NOW,
        updated_at=NOW,
    )
    summer = BookingItem(
        booking_id=booking.id,
        service_name="Bubble house",
        service_price=Decimal("200"),
        start_datetime=datetime(2027, 6, 12, 16, 0, tzinfo=UTC),  # 18:00 CEST
        end_datetime=datetime(2027, 6, 12, 19, 0, tzinfo=UTC),
    )
    winter = BookingItem(
        booking_id=booking.id,
        service_name="Mascot",
        service_price=Decimal("100"),
        quantity=2,
        status="confirmed",
        start_datetime=datetime(2027, 1, 15, 9, 0, tzinfo=UTC),  # 10:00 CET
        end_datetime=datetime(2027, 1, 15, 10, 0, tzinfo=UTC),
    )
    return booking, [summer, winter]


def test_the_ics_has_one_event_per_item_at_local_times_with_its_time_zone():
    booking, items = _booking_with_items()
    data = ics_for_booking(booking, items, business=BusinessSettings())
    calendar = Calendar.from_ical(data)
    assert [tz.tz_name for tz in calendar.timezones] == ["Europe/Belgrade"]
    events = calendar.events
    assert [str(e["SUMMARY"]) for e in events] == ["Mascot x2", "Bubble house"]
    starts = [e.decoded("DTSTART") for e in events]
    assert [(s.hour, str(s.tzinfo)) for s in starts] == [
        (10, "Europe/Belgrade"),
        (18, "Europe/Belgrade"),
    ]
    assert events[1].decoded("DTEND").astimezone(BELGRADE).hour == 21
    assert all(booking.reference in str(e["DESCRIPTION"]) for e in events)
    assert [str(e["STATUS"]) for e in events] == ["CONFIRMED", "TENTATIVE"]
    assert str(events[0]["LOCATION"]) == "Rruga UCK 1, Prishtina"


def test_an_items_uid_is_the_same_every_time_the_file_is_made():
    booking, items = _booking_with_items()
    first = Calendar.from_ical(ics_for_booking(booking, items, business=BusinessSettings()))
    again = Calendar.from_ical(ics_for_booking(booking, items[::-1], business=BusinessSettings()))
    uids = [str(e["UID"]) for e in first.events]
    assert uids == [str(e["UID"]) for e in again.events]
    assert len(set(uids)) == 2 and str(items[0].id) in uids[1]
