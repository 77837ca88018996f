"""The outbox sender against a real database (SQLite and PostgreSQL), a real HTTP server as the
staff webhook and a real SMTP server as the customer's mail."""

import asyncio
import logging
import os
import signal
import subprocess
import sys
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from icalendar import Calendar
from sqlmodel import select

from storefront.db import make_engine
from storefront.models import Booking, BookingItem, NotificationOutbox, utcnow
from storefront.services.messaging import contact_form as contact
from storefront.services.messaging import outbox
from storefront.services.messaging.links import verify_view_key
from storefront.settings import get_settings
from tests.webhook_server import WebhookServer

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[2]


def place_booking(session, *, now=NOW, **overrides):
    """A booking as checkout commits it: the booking, its items and its two outbox rows."""
    values = {
        "idempotency_key": f"key-{os.urandom(6).hex()}",
        "contact_email": "arta.krasniqi@example.com",
        "contact_phone": "38344123456",
        "venue_address": "Rruga UCK 1",
        "city": "Prishtina",
        "event_type": "wedding",
        "guest_count": 150,
        "special_requests": "Pink balloons,\nplease",
        "total_amount": Decimal("650"),
        "created_at": now,
        "updated_at": now,
    }
    booking = Booking(**(values | overrides))
    session.add(booking)
    session.flush()
    items = [
        BookingItem(
            booking_id=booking.id,
            service_name="Wedding offer for 100 people",
            service_price=Decimal("650"),
            start_datetime=datetime(2027, 6, 12, 16, 0, tzinfo=UTC),  # 18:00 in Belgrade
            end_datetime=datetime(2027, 6, 12, 20, 0, tzinfo=UTC),
        ),
        BookingItem(
            booking_id=booking.id,
            service_name="Tiffany chairs",
            service_price=Decimal("0"),
            start_datetime=datetime(2027, 6, 12, 14, 30, tzinfo=UTC),  # 16:30
            end_datetime=datetime(2027, 6, 12, 22, 0, tzinfo=UTC),
        ),
    ]
    session.add_all(items)
    booking_id = {"booking_id": str(booking.id)}
    outbox.enqueue(
        session=session,
        channel="whatsapp",
        topic="booking_placed",
        recipient=get_settings().staff_phone,
        payload=booking_id,
        booking_id=booking.id,
        now=now,
    )
    outbox.enqueue(
        session=session,
        channel="email",
        topic="booking_confirmation",
        recipient=booking.contact_email,
        payload=booking_id,
        booking_id=booking.id,
        now=now,
    )
    session.commit()
    return booking


def enqueue_contact(session, name, *, now=NOW):
    return outbox.enqueue(
        session=session,
        channel="whatsapp",
        topic="contact_request",
        recipient="+38344000000",
        payload={"name": name, "email": "a@example.com", "phone": "", "message": "Hi"},
        now=now,
    )


def rows(session):
    session.rollback()  # a new transaction, to see what the sender committed since
    return session.exec(select(NotificationOutbox).order_by(NotificationOutbox.topic)).all()


def test_a_booking_reaches_staff_and_customer(session, engine, webhook, mailbox):
    booking = place_booking(session)

    report = outbox.run_once(now=NOW, engine=engine)

    assert (report.claimed, report.sent) == (2, 2)
    [body] = webhook.requests
    params = body["templateParams"]
    assert len(params) == 5 and all(isinstance(p, str) and "\n" not in p for p in params)
    # In the staff's language (Albanian unless the settings say otherwise).
    assert params == [
        booking.reference,
        "Arta Krasniqi, 38344123456, arta.krasniqi@example.com",
        "Dasmë, 12.06.2027, 150 mysafirë, Rruga UCK 1, Prishtina",
        "650,00 €",
        "Tiffany chairs, 12.06.2027, 16:30, 0,00 €; "
        "Wedding offer for 100 people, 12.06.2027, 18:00, 650,00 € | "
        "Kërkesa të veçanta: Pink balloons, please",
    ]
    assert body["customerPhone"] == "+38344123456"
    assert [(r.status, r.attempts, r.sent_at) for r in rows(session)] == [("sent", 1, NOW)] * 2


def test_the_confirmation_mail_carries_the_ics_and_a_signed_link(session, engine, webhook, mailbox):
    """A booking made in English gets its mail, its calendar file and its link in English; the
    staff's message stays in the staff's language."""
    booking = place_booking(session, language="en")
    outbox.run_once(now=NOW, engine=engine)

    [message] = mailbox.messages
    assert mailbox.recipients == [["arta.krasniqi@example.com"]]
    assert message["Subject"] == f"Booking {booking.reference} received"
    text = message.get_body(("plain",)).get_content()
    assert "- Wedding offer for 100 people: €650.00 x 1 = €650.00 (12.06.2027, 18:00)" in text
    assert "Total: €650.00" in text and "Pay €650.00 at the service." in text
    # Its subtotal and the transport to its municipality before the total (issue 36).
    assert "Subtotal: €650.00\nTransport (Pristina): €0.00\nTotal: €650.00" in text.replace(
        "\r\n", "\n"
    )
    assert "info@magicevents.example" in text
    assert "Dasmë" in webhook.requests[0]["templateParams"][2]

    link = next(line for line in text.splitlines() if "/booking-confirmation/" in line)
    url = urlsplit(link)
    assert url.path == f"/en/booking-confirmation/{booking.id}"
    assert verify_view_key(booking.id, parse_qs(url.query)["key"][0])

    [attachment] = list(message.iter_attachments())
    assert attachment.get_content_type() == "text/calendar"
    events = Calendar.from_ical(attachment.get_content()).events
    local = [(str(e["SUMMARY"]), e.decoded("DTSTART").strftime("%d.%m.%Y %H:%M")) for e in events]
    assert local == [
        ("Tiffany chairs", "12.06.2027 16:30"),
        ("Wedding offer for 100 people", "12.06.2027 18:00"),
    ]
    assert all(f"Booking {booking.reference}" in str(e["DESCRIPTION"]) for e in events)


def test_a_booking_made_in_the_default_edition_is_answered_in_albanian(
    session, engine, webhook, mailbox
):
    booking = place_booking(session)
    assert booking.language == "sq"
    outbox.run_once(now=NOW, engine=engine)

    [message] = mailbox.messages
    assert message["Subject"] == f"Morëm rezervimin {booking.reference}"
    text = message.get_body(("plain",)).get_content()
    assert "Përshëndetje" in text and "Paguani 650,00\u00a0€ në shërbim." in text
    assert "Transporti (Prishtinë): 0,00\u00a0€" in text
    assert "Totali: 650,00\u00a0€" in text
    link = next(line for line in text.splitlines() if "/booking-confirmation/" in line)
    assert urlsplit(link).path == f"/booking-confirmation/{booking.id}"
    [attachment] = list(message.iter_attachments())
    events = Calendar.from_ical(attachment.get_content()).events
    assert all(f"Rezervimi {booking.reference}" in str(e["DESCRIPTION"]) for e in events)


def test_webhook_failures_are_retried_with_backoff_then_sent_once(session, engine, webhook):
    enqueue_contact(session, "Arta")
    session.commit()
    webhook.fail_next(2)

    assert outbox.run_once(now=NOW, engine=engine).retried == 1
    [row] = rows(session)
    assert row.next_attempt_at == NOW + timedelta(seconds=30)
    assert "Failed to send WhatsApp notification" in row.last_error

    assert outbox.run_once(now=NOW + timedelta(seconds=29), engine=engine).claimed == 0
    assert outbox.run_once(now=NOW + timedelta(seconds=30), engine=engine).retried == 1
    assert rows(session)[0].next_attempt_at == NOW + timedelta(seconds=90)
    assert outbox.run_once(now=NOW + timedelta(seconds=90), engine=engine).sent == 1
    assert outbox.run_once(now=NOW + timedelta(days=1), engine=engine).claimed == 0

    [row] = rows(session)
    assert (row.status, row.attempts, row.last_error) == ("sent", 3, None)
    assert webhook.calls == 3 and len(webhook.requests) == 1


def test_an_error_field_in_a_success_answer_is_a_failure(session, engine, webhook):
    enqueue_contact(session, "Arta")
    session.commit()
    webhook.fail_next(1, (200, {"error": "Failed to send notification"}))

    assert outbox.run_once(now=NOW, engine=engine).retried == 1
    assert "Failed to send notification" in rows(session)[0].last_error


def test_after_the_last_attempt_a_row_fails_and_is_logged(
    session, engine, webhook, monkeypatch, caplog
):
    monkeypatch.setattr(get_settings(), "outbox_max_attempts", 3)
    monkeypatch.setattr(get_settings(), "outbox_retry_hours", 0)
    enqueue_contact(session, "Arta")
    session.commit()
    webhook.fail_next(10)

    when = NOW
    outcomes = []
    with caplog.at_level(logging.WARNING, logger="storefront.services.messaging.outbox"):
        for attempt in range(1, 4):
            report = outbox.run_once(now=when, engine=engine)
            outcomes.append((report.retried, report.failed))
            when += outbox.retry_delay(attempt)
    assert outcomes == [(1, 0), (1, 0), (0, 1)]
    assert outbox.run_once(now=when + timedelta(days=1), engine=engine).claimed == 0
    [row] = rows(session)
    assert (row.status, row.attempts) == ("failed", 3)
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and str(row.id) in errors[0].getMessage()


def test_a_message_about_a_deleted_booking_fails_at_once(session, engine, webhook, mailbox):
    booking = place_booking(session)
    session.delete(booking)
    session.commit()

    report = outbox.run_once(now=NOW, engine=engine)

    assert (report.failed, report.retried) == (2, 0)
    assert all("booking_missing" in row.last_error for row in rows(session))
    assert webhook.calls == 0 and mailbox.messages == []


CRASHING_SENDER = """
import os, signal, sys
from datetime import datetime
from storefront.db import make_engine
from storefront.services.messaging import notify, outbox

def crash(message):
    os.kill(os.getpid(), signal.SIGKILL)

notify.send = crash
outbox.run_once(now=datetime.fromisoformat(sys.argv[2]), engine=make_engine(sys.argv[1]))
"""


def test_a_sender_dying_after_the_claim_loses_nothing_and_sends_once(
    session, engine, database_url, webhook, mailbox
):
    place_booking(session)
    env = os.environ | {"DATABASE_URL": database_url, "NOTIFY_WEBHOOK_URL": webhook.url}
    child = subprocess.run(
        [sys.executable, "-c", CRASHING_SENDER, database_url, NOW.isoformat()],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()
    # Claimed and committed, never sent.
    assert [(r.status, r.attempts) for r in rows(session)] == [("pending", 1)] * 2
    assert webhook.calls == 0 and mailbox.messages == []

    # Its lease keeps the rows from other senders for a while, then they go out once.
    assert outbox.run_once(now=NOW + timedelta(minutes=1), engine=engine).claimed == 0
    assert outbox.run_once(now=NOW + outbox.LEASE, engine=engine).sent == 2
    assert outbox.run_once(now=NOW + timedelta(days=1), engine=engine).claimed == 0
    assert len(webhook.requests) == 1 and len(mailbox.messages) == 1


def test_rows_given_back_unsent_are_due_again_with_their_attempt_uncounted(session, engine):
    enqueue_contact(session, "Arta")
    session.commit()
    claimed = outbox.claim(engine=engine, now=NOW, limit=5)
    assert outbox.claim(engine=engine, now=NOW, limit=5) == []

    assert outbox.release(claimed, engine=engine, now=NOW) == 1

    [row] = rows(session)
    assert (row.status, row.attempts, row.next_attempt_at) == ("pending", 0, NOW)
    assert [n.id for n, _ in outbox.claim(engine=engine, now=NOW, limit=5)] == [row.id]


def test_two_senders_at_once_send_every_row_exactly_once(session, engine, webhook):
    names = [f"Guest {n}" for n in range(30)]
    for name in names:
        enqueue_contact(session, name)
    session.commit()
    webhook.delay = 0.01
    start = threading.Barrier(2)
    errors = []

    def sender():
        start.wait()
        try:
            while outbox.run_once(now=NOW, limit=3, engine=engine).claimed:
                pass
        except Exception as exc:  # reported below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=sender) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert errors == []
    sent = Counter(body["templateParams"][1] for body in webhook.requests)
    assert sent == Counter({f"{name}, a@example.com": 1 for name in names})
    assert {(r.status, r.attempts) for r in rows(session)} == {("sent", 1)}


def test_a_contact_request_goes_out_through_the_same_sender(session, engine, webhook):
    request = contact.ContactRequest(
        name="Arta Krasniqi",
        email="Arta@Example.com",
        event_type="baby-shower",
        message="A quote for\n150 guests, please.",
        phone="+383 44 123 456",
        event_date="2027-06-12",
    )
    contact.submit(request, session=session, now=NOW)
    session.commit()

    assert outbox.run_once(now=NOW, engine=engine).sent == 1
    assert webhook.requests == [
        {
            "templateParams": [
                "Kontakt",
                "Arta Krasniqi, +38344123456, arta@example.com",
                "Baby shower, 12.06.2027",
                "-",
                "A quote for 150 guests, please.",
            ],
            "customerPhone": "+38344123456",  # stored and sent in E.164
        }
    ]


def test_a_mail_row_is_redacted_once_sent(session, engine, mailbox):
    link = "http://localhost:3000/reset-password?type=recovery&token=secret-token"
    outbox.enqueue(
        session=session,
        channel="email",
        topic="mail",
        recipient="arta@example.com",
        payload={"subject": "Reset your password", "text": f"Open {link}\n", "html": "<p>x</p>"},
        now=NOW,
    )
    session.commit()

    assert outbox.run_once(now=NOW, engine=engine).sent == 1

    [message] = mailbox.messages
    assert message["Subject"] == "Reset your password"
    assert link in message.get_body(("plain",)).get_content()
    assert message.get_body(("html",)).get_content().strip() == "<p>x</p>"
    [row] = rows(session)
    assert row.payload == {"redacted": True}


def test_a_mail_row_that_fails_for_good_is_redacted_too(session, engine, mailbox, monkeypatch):
    monkeypatch.setattr(get_settings(), "outbox_max_attempts", 1)
    monkeypatch.setattr(get_settings(), "outbox_retry_hours", 0)
    mailbox.refuse("nobody@example.com")
    outbox.enqueue(
        session=session,
        channel="email",
        topic="mail",
        recipient="nobody@example.com",
        payload={"subject": "Reset your password", "text": "secret link"},
        now=NOW,
    )
    session.commit()

    assert outbox.run_once(now=NOW, engine=engine).failed == 1
    [row] = rows(session)
    assert (row.status, row.payload) == ("failed", {"redacted": True})
    assert "send_failed" in row.last_error


def test_a_status_change_mails_the_customer(session, engine, mailbox):
    booking = place_booking(session, language="en")
    for row in rows(session):
        session.delete(row)
    outbox.enqueue(
        session=session,
        channel="email",
        topic="booking_status",
        recipient=booking.contact_email,
        payload={"booking_id": str(booking.id), "status": "completed"},
        booking_id=booking.id,
        now=NOW,
    )
    session.commit()

    assert outbox.run_once(now=NOW, engine=engine).sent == 1
    [message] = mailbox.messages
    text = message.get_body(("plain",)).get_content()
    # (On the way has a message of its own: tests/integration/test_day_sheet.py.)
    assert "Booking status updated to completed" in text and booking.reference in text


def test_without_a_webhook_address_the_staff_message_is_logged(session, engine, caplog):
    assert get_settings().notify_webhook_url is None
    enqueue_contact(session, "Arta")
    session.commit()
    with caplog.at_level(logging.INFO, logger="storefront.services.messaging.notify"):
        report = outbox.run_once(now=NOW, engine=engine)
    assert (report.sent, report.printed) == (0, 1)  # logged is not delivered
    assert "Kontakt" in caplog.text
    [row] = rows(session)
    assert row.status == "printed"


def test_a_printed_mail_is_never_counted_as_delivered(session, engine, capsys):
    """Issue 18, finding 9: without SMTP_HOST a mail (a reset link) is printed to the console;
    it used to be marked 'sent', as if the customer had it."""
    from storefront.services.operations import dashboard, health

    assert get_settings().smtp_host is None
    link = "http://localhost:3000/reset-password?type=recovery&token=printed-token"
    outbox.enqueue(
        session=session,
        channel="email",
        topic="mail",
        recipient="arta@example.com",
        payload={"subject": "Reset your password", "text": f"Open {link}\n"},
        now=NOW,
    )
    session.commit()

    report = outbox.run_once(now=NOW, engine=engine)
    assert (report.sent, report.printed) == (0, 1)
    assert link in capsys.readouterr().out  # a developer can still follow it
    [row] = rows(session)
    assert (row.status, row.payload) == ("printed", {"redacted": True})
    assert outbox.count(session, "sent") == 0 and outbox.count(session, "pending") == 0
    assert outbox.run_once(now=NOW + timedelta(hours=1), engine=engine).claimed == 0
    checks = {c.name: c for c in dashboard._notifications(session)}
    assert "delivered" not in checks["WhatsApp API"].detail
    assert "1 printed, not delivered" in checks["Notification Outbox"].detail
    assert health.check(engine=engine, now=NOW).ok


def test_enqueue_refuses_a_topic_it_cannot_send(session):
    with pytest.raises(outbox.OutboxError) as error:
        outbox.enqueue(session=session, channel="email", topic="fax", recipient="x", payload={})
    assert error.value.code == "unknown_topic"
    with pytest.raises(outbox.OutboxError) as error:
        outbox.enqueue(
            session=session, channel="email", topic="booking_placed", recipient="x", payload={}
        )
    assert error.value.code == "wrong_channel"


async def test_the_worker_sends_in_the_background(session, engine, webhook, monkeypatch):
    monkeypatch.setattr(get_settings(), "outbox_poll_seconds", 0.05)
    enqueue_contact(session, "Arta", now=utcnow())
    session.commit()
    worker = asyncio.create_task(outbox.outbox_worker(engine=engine))
    try:
        for _ in range(200):
            if webhook.requests:
                break
            await asyncio.sleep(0.05)
    finally:
        worker.cancel()
        await asyncio.gather(worker, return_exceptions=True)
    assert len(webhook.requests) == 1


async def test_the_worker_survives_a_failing_run(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(get_settings(), "outbox_poll_seconds", 0.02)
    unmigrated = make_engine(f"sqlite:///{tmp_path / 'empty.db'}")
    worker = asyncio.create_task(outbox.outbox_worker(engine=unmigrated))

    def failures() -> list:
        return [r for r in caplog.records if "outbox run failed" in r.getMessage()]

    # Two failed runs and still going; on a loaded machine the second may take a while.
    for _ in range(100):
        if len(failures()) >= 2:
            break
        await asyncio.sleep(0.05)
    assert not worker.done()
    worker.cancel()
    assert len(failures()) >= 2
    unmigrated.dispose()


def test_the_webhook_server_counts_what_it_is_sent():
    """The stand-in itself: failures first, then successes recorded."""
    import httpx

    with WebhookServer() as server:
        server.fail_next(1)
        assert httpx.post(server.url, json={"a": 1}).status_code == 500
        assert httpx.post(server.url, json={"a": 2}).json() == {"success": True}
    assert server.calls == 2 and server.requests == [{"a": 2}]
