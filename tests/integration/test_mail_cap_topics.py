"""Issue 33, finding 5, on SQLite and PostgreSQL with a real SMTP server: the mail cap
(MAIL_CAP_PER_RECIPIENT) holds back only what a stranger can cause, a mail about a new booking to
an address, and says so to the booking's screen when it does; a mail about an existing booking
(its change, its status, its reminder, 'on the way') always goes, however many came before."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial

import pytest
from icalendar import Calendar
from sqlmodel import select

from storefront.models import BusinessSettings, NotificationOutbox
from storefront.services.booking import admin as admin_bookings
from storefront.services.booking import changes
from storefront.services.messaging import outbox
from storefront.services.messaging.links import sign_view_key
from storefront.services.operations import reminders
from storefront.settings import get_settings
from tests.factories import line, make_service, make_user, place

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)  # 08:00 in Prishtina
DAYS = [f"2026-06-{d:02d}" for d in range(8, 29)]
CUSTOMER = "arta.krasniqi@example.com"  # tests/factories.contact's, lower case

_place = partial(place, now=NOW)


@pytest.fixture
def cap(monkeypatch):
    """The documented cap of 5; the booking limits out of the way."""
    settings = get_settings()
    monkeypatch.setattr(settings, "mail_cap_per_recipient", 5)
    monkeypatch.setattr(settings, "booking_limit_per_address", 0)
    monkeypatch.setattr(settings, "booking_limit_per_email", 0)
    monkeypatch.setattr(settings, "booking_limit_per_phone", 0)
    return settings


def _send(engine, now=NOW) -> outbox.SendReport:
    return outbox.run_once(now=now, engine=engine, limit=100)


def _mails_to(mailbox, address: str = CUSTOMER) -> list:
    return [m for m in mailbox.messages if m["To"] == address]


def _statuses(session, topic: str) -> list[str]:
    session.expire_all()
    found = session.exec(
        select(NotificationOutbox.status)
        .where(NotificationOutbox.topic == topic)
        # Rows queued at one moment (a test's fixed clock) keep their recipients' order.
        .order_by(NotificationOutbox.created_at, NotificationOutbox.recipient)
    ).all()
    session.commit()
    return list(found)


def _starts(message) -> list[str]:
    [attachment] = [
        p for p in message.iter_attachments() if p.get_content_type() == "text/calendar"
    ]
    events = Calendar.from_ical(attachment.get_content()).events
    return [e.decoded("DTSTART").strftime("%d.%m.%Y %H:%M") for e in events]


def test_a_customers_own_booking_mails_are_never_held_back(session, engine, cap, mailbox):
    """The walk-through's customer: a booking moved from the mailed link again and again in one
    day, confirmed, reminded and on its way: every mail goes, the last one with the last time."""
    settings = session.get(BusinessSettings, 1) or BusinessSettings(id=1)
    settings.reminder_lead_hours = 110  # the reminder is due at NOW, not when it was placed
    session.add(settings)
    castle = make_service(session, units=1)
    admin = make_user(session, role="admin")
    placed_at = NOW - timedelta(hours=23)  # its confirmation is one of the day's mails
    placed = place(session, [line(castle, "2026-06-05", "10:00")], now=placed_at)
    _send(engine, placed_at)
    key = sign_view_key(placed.id, now=NOW)

    def move(start: str) -> None:
        changes.move_own(
            session=session,
            booking_id=placed.id,
            key=key,
            day="05.06.2026",
            start_time=start,
            now=NOW,
        )
        _send(engine)

    for start in ("11:00", "12:00", "13:00"):
        move(start)
    admin_bookings.set_status(
        session=session, actor_id=admin.id, booking_id=placed.id, status="confirmed", now=NOW
    )
    _send(engine)
    move("14:00")  # the sixth mail of the day: the one the walk-through never got
    last_move = mailbox.messages[-1]
    assert reminders.queue_due(session=session, now=NOW).reminders == 1
    session.commit()
    _send(engine)
    admin_bookings.set_status(
        session=session, actor_id=admin.id, booking_id=placed.id, status="on_the_way", now=NOW
    )
    _send(engine)

    got = _mails_to(mailbox)
    assert len(got) == 1 + 4 + 1 + 1 + 1  # placed, moved 4 times, confirmed, reminded, on its way
    assert outbox.count(session, "suppressed") == 0
    assert _starts(last_move) == ["05.06.2026 14:00"]
    assert "05.06.2026, 14:00" in last_move.get_body(("plain",)).get_content()


def test_other_mails_to_an_address_leave_its_new_bookings_confirmations_alone(
    session, engine, cap, mailbox
):
    castle = make_service(session, units=5)
    admin = make_user(session, role="admin")
    earlier = _place(session, [line(castle, DAYS[0], "10:00")], now=NOW - timedelta(days=2))
    _send(engine, NOW - timedelta(days=2))
    for status in ("confirmed", "pending", "confirmed", "pending", "confirmed", "pending"):
        admin_bookings.set_status(
            session=session, actor_id=admin.id, booking_id=earlier.id, status=status, now=NOW
        )
    # Other mails (a reset link, the notice of a locked second step) are not capped either.
    for n in range(3):
        outbox.enqueue(
            session=session,
            channel="email",
            topic="mail",
            recipient=CUSTOMER,
            payload={"subject": f"Notice {n}", "text": "..."},
            now=NOW,
        )
    session.commit()
    placed = _place(session, [line(castle, DAYS[1], "10:00")])
    assert placed.mail_held is False
    _send(engine)
    assert len(_mails_to(mailbox)) == 1 + 6 + 3 + 1
    assert outbox.count(session, "suppressed") == 0


def test_a_held_confirmation_is_known_when_the_booking_is_placed(session, engine, cap, mailbox):
    cap.mail_cap_per_recipient = 2
    castle = make_service(session, units=5)
    placed = [
        _place(
            session,
            [line(castle, DAYS[n], "10:00")],
            key=f"held-key-{n:04d}",
            email=f"Victim+{n}@example.com",
            address=f"198.51.100.{n}",
        )
        for n in range(3)
    ]
    assert [p.mail_held for p in placed] == [False, False, True]
    # Held back at once, not when a sender gets to it: the screen can say so truthfully.
    assert _statuses(session, "booking_confirmation") == ["pending", "pending", "suppressed"]
    # A retry of the held one (a lost answer, a double click) is told the same.
    again = _place(session, [line(castle, DAYS[2], "10:00")], key="held-key-0002")
    assert again.id == placed[2].id and again.mail_held is True
    first_again = _place(session, [line(castle, DAYS[0], "10:00")], key="held-key-0000")
    assert first_again.mail_held is False

    _send(engine)
    assert sorted(m["To"] for m in mailbox.messages) == [
        "victim+0@example.com",
        "victim+1@example.com",
    ]
    # A day later the mailbox may be written to again.
    later = _place(
        session,
        [line(castle, DAYS[3], "10:00")],
        email="victim@example.com",
        now=NOW + timedelta(hours=25),
    )
    assert later.mail_held is False


def test_without_a_cap_nothing_is_held(session, engine, cap, mailbox):
    cap.mail_cap_per_recipient = 0
    castle = make_service(session, units=10)
    placed = [_place(session, [line(castle, DAYS[n], "10:00")]) for n in range(7)]
    assert not any(p.mail_held for p in placed)
    _send(engine)
    assert len(_mails_to(mailbox)) == 7
