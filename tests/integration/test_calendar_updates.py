"""A booking's calendar file follows the booking (issue 34, item 6), on SQLite and PostgreSQL,
mailed through a real SMTP server and read with `icalendar` as a calendar would: RFC 5546
scheduling messages (METHOD:REQUEST with an ORGANIZER and an ATTENDEE, METHOD:CANCEL once
cancelled), the same UID each time with a SEQUENCE that rises with every change, STATUS following
the booking (TENTATIVE while pending, CONFIRMED once confirmed), and the attachment's MIME type
declaring UTF-8 (so 'Prishtinë' reads right) and the method. The confirmation of a booking mails
the confirmed file."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from icalendar import Calendar

from storefront.services.booking import admin as admin_bookings
from storefront.services.booking import changes
from storefront.services.messaging import links as booking_links
from storefront.services.messaging import outbox
from tests.factories import line, make_service, make_user, place

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)  # 08:00 in Prishtina
MINUTE = timedelta(minutes=1)


def _calendar_of_last_mail(session, engine, mailbox):
    session.commit()
    outbox.run_once(now=NOW + 5 * MINUTE, engine=engine)
    [attachment] = list(mailbox.messages[-1].iter_attachments())
    assert attachment.get_content_type() == "text/calendar"
    assert attachment.get_content_charset() == "utf-8"
    calendar = Calendar.from_ical(attachment.get_payload(decode=True))
    assert attachment.get_param("method") == str(calendar["method"])
    [event] = calendar.walk("VEVENT")
    return calendar, event


def test_every_change_mails_an_update_of_the_same_event(session, engine, mailbox, webhook):
    castle = make_service(session, title="Kështjellë", units=2)
    placed = place(
        session, [line(castle, "2026-06-10", "10:00", hours=2)], now=NOW, city="Prishtinë"
    )
    session.commit()
    key = booking_links.sign_view_key(placed.id, now=NOW)

    calendar, first = _calendar_of_last_mail(session, engine, mailbox)
    assert str(calendar["method"]) == "REQUEST"
    assert str(first["status"]) == "TENTATIVE" and int(first["sequence"]) == 0
    assert str(first["organizer"]).startswith("mailto:")
    assert str(first["attendee"]) == "mailto:arta.krasniqi@example.com"
    assert "Prishtinë" in str(first["location"])
    uid = str(first["uid"])

    changes.move_own(
        session=session,
        booking_id=placed.id,
        key=key,
        day="11.06.2026",
        start_time="14:00",
        now=NOW + MINUTE,
    )
    calendar, moved = _calendar_of_last_mail(session, engine, mailbox)
    assert str(calendar["method"]) == "REQUEST" and str(moved["uid"]) == uid
    assert int(moved["sequence"]) > int(first["sequence"])
    assert moved.decoded("dtstart").hour == 14

    admin = make_user(session, role="admin")
    session.commit()
    admin_bookings.set_status(
        session=session,
        actor_id=admin.id,
        booking_id=placed.id,
        status="confirmed",
        now=NOW + 2 * MINUTE,
    )
    calendar, confirmed = _calendar_of_last_mail(session, engine, mailbox)
    assert str(confirmed["status"]) == "CONFIRMED" and str(confirmed["uid"]) == uid
    assert int(confirmed["sequence"]) > int(moved["sequence"])

    changes.cancel_own(session=session, booking_id=placed.id, key=key, now=NOW + 3 * MINUTE)
    calendar, cancelled = _calendar_of_last_mail(session, engine, mailbox)
    assert str(calendar["method"]) == "CANCEL" and str(cancelled["status"]) == "CANCELLED"
    assert str(cancelled["uid"]) == uid
    assert int(cancelled["sequence"]) > int(confirmed["sequence"])
