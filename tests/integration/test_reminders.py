"""Reminders and the staff's digest with a fixed clock, on SQLite and PostgreSQL (issue 22): a
booking's reminder is queued once, a day before, and sent once; a cancelled or moved booking
never gets a stale one (a moved one gets its new start's); the digest lists tomorrow's jobs, by
WhatsApp and mail, once."""

from datetime import UTC, datetime, timedelta
from functools import partial

import pytest
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from storefront.models import BookingItem, BusinessSettings, NotificationOutbox, User
from storefront.services.booking import admin as admin_bookings
from storefront.services.messaging import outbox
from storefront.services.operations import reminders
from tests.factories import line, make_service, place, set_min_notice

PLACED = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "2026-06-10"
START = datetime(2026, 6, 10, 8, 0, tzinfo=UTC)  # 10:00 in Belgrade
_place = partial(place, now=PLACED)


def _rows(session, topic: str | None = None) -> list[NotificationOutbox]:
    query = select(NotificationOutbox).order_by(NotificationOutbox.created_at)
    if topic:
        query = query.where(NotificationOutbox.topic == topic)
    return list(session.exec(query).all())


def _admin(session) -> str:
    user = User(email="boss@example.com", role="admin")
    session.add(user)
    session.commit()
    return str(user.id)


def _settings(session, **values) -> None:
    row = session.get(BusinessSettings, 1) or BusinessSettings(id=1)
    for name, value in values.items():
        setattr(row, name, value)
    session.add(row)
    session.commit()


def _queue(session, now):
    report = reminders.queue_due(session=session, now=now)
    session.commit()
    return report


def test_a_reminder_is_queued_once_a_day_before_and_sent_once(session, engine, mailbox):
    placed = _place(session, [line(make_service(session), DAY, "10:00")])
    assert _queue(session, START - timedelta(hours=25)).reminders == 0
    assert _queue(session, START - timedelta(hours=23, minutes=55)).reminders == 1
    # Every later run (another worker, a restart) finds it queued already.
    assert _queue(session, START - timedelta(hours=23, minutes=50)).reminders == 0
    assert _queue(session, START - timedelta(hours=2)).reminders == 0
    [row] = _rows(session, "booking_reminder")
    assert row.recipient == "arta.krasniqi@example.com"
    assert row.dedupe_key == reminders.reminder_key(placed.id, START)

    now = START - timedelta(hours=23)
    assert outbox.run_once(now=now, engine=engine).sent >= 1
    assert outbox.run_once(now=now + timedelta(minutes=1), engine=engine).sent == 0
    [message] = [m for m in mailbox.messages if "Kujtesë" in m["Subject"]]
    text = message.get_body(("plain",)).get_content()
    assert placed.reference in text and "10.06.2026" in text and "10:00" in text
    assert "Rruga Agim Ramadani 15, Prishtinë" in text
    assert "/booking-confirmation/" in text
    session.rollback()  # a fresh read of what the sender wrote
    assert session.get(NotificationOutbox, row.id).status == "sent"


def test_the_outbox_holds_a_dedupe_key_once(session):
    placed = _place(session, [line(make_service(session), DAY, "10:00")])
    _queue(session, START - timedelta(hours=20))
    [row] = _rows(session, "booking_reminder")
    twin = outbox.enqueue(
        session=session,
        channel="email",
        topic="booking_reminder",
        recipient="x@example.com",
        payload={"booking_id": placed.id, "start": START.isoformat()},
    )
    twin.dedupe_key = row.dedupe_key
    with pytest.raises(IntegrityError):
        session.commit()
    session.rollback()


def test_a_booking_made_inside_the_lead_gets_no_reminder(session):
    set_min_notice(session, 0)
    _place(session, [line(make_service(session), DAY, "10:00")], now=START - timedelta(hours=30))
    late = place(
        session,
        [line(make_service(session, title="Late"), DAY, "10:00")],
        now=START - timedelta(hours=20),
    )
    assert late.reference
    assert _queue(session, START - timedelta(hours=10)).reminders == 1


def test_a_cancelled_booking_never_gets_its_queued_reminder(session, engine, mailbox):
    placed = _place(session, [line(make_service(session), DAY, "10:00")])
    _queue(session, START - timedelta(hours=20))
    admin_bookings.set_status(
        session=session, actor_id=_admin(session), booking_id=placed.id, status="cancelled"
    )
    session.commit()
    report = outbox.run_once(now=START - timedelta(hours=19), engine=engine)
    assert report.suppressed >= 1
    session.rollback()  # a fresh read of what the sender wrote
    [row] = _rows(session, "booking_reminder")
    assert row.status == "suppressed" and "cancelled or moved" in row.last_error
    assert not [m for m in mailbox.messages if "Kujtesë" in m["Subject"]]
    # Nor is another queued for it.
    assert _queue(session, START - timedelta(hours=5)).reminders == 0


def test_a_moved_booking_gets_the_reminder_of_its_new_start_only(session, engine, mailbox):
    _place(session, [line(make_service(session), DAY, "10:00")])
    _queue(session, START - timedelta(hours=20))
    # It is moved two hours later (the admin's edit or the customer's own change).
    for item in session.exec(select(BookingItem)).all():
        item.start_datetime += timedelta(hours=2)
        item.end_datetime += timedelta(hours=2)
        session.add(item)
    session.commit()
    assert _queue(session, START - timedelta(hours=19)).reminders == 1
    outbox.run_once(now=START - timedelta(hours=19), engine=engine)
    session.rollback()  # a fresh read of what the sender wrote
    old, new = _rows(session, "booking_reminder")
    assert old.status == "suppressed"
    assert new.status == "sent"
    [message] = [m for m in mailbox.messages if "Kujtesë" in m["Subject"]]
    assert "12:00" in message["Subject"]


def test_the_digest_lists_tomorrows_jobs_once_in_the_evening(session, engine, webhook, mailbox):
    _settings(session, digest_hour=19, staff_language="sq", email="crew@example.com")
    bouncer = make_service(session, title="Castle", units=3)
    first = _place(session, [line(bouncer, DAY, "10:00", quantity=2)], special_requests="Gate 4")
    second = _place(session, [line(make_service(session, title="Round table"), DAY, "12:00")])
    evening = datetime(2026, 6, 9, 16, 59, tzinfo=UTC)  # 18:59 in Belgrade
    assert _queue(session, evening).digests == 0
    assert _queue(session, evening + timedelta(minutes=1)).digests == 2
    assert _queue(session, evening + timedelta(minutes=6)).digests == 0
    whatsapp, mail = _rows(session, "staff_digest"), _rows(session, "staff_digest_mail")
    assert len(whatsapp) == 1 and len(mail) == 1
    lines = "\n".join(mail[0].payload["lines"])
    assert first.reference in lines and second.reference in lines
    assert lines.index(first.reference) < lines.index(second.reference)  # who leaves first
    assert "Castle × 2" in lines and "Gate 4" in lines

    outbox.run_once(now=evening + timedelta(minutes=2), engine=engine)
    [params] = [
        r["templateParams"] for r in webhook.requests if r["templateParams"][0] == "Punët e nesërme"
    ]
    assert params[1] == "10.06.2026" and first.reference in params[4]
    [message] = [m for m in mailbox.messages if m["To"] == "crew@example.com"]
    assert "10.06.2026" in message["Subject"]


def test_no_digest_before_a_day_without_jobs(session):
    _settings(session, digest_hour=19)
    assert _queue(session, datetime(2026, 6, 9, 18, 0, tzinfo=UTC)).digests == 0
    assert _rows(session) == []
