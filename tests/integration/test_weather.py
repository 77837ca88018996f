"""A rainy day (issue 37) on SQLite and PostgreSQL: an admin offers every customer of a day's
inflatables a move or a cancellation in one action. Each gets a mail in the booking's language
with its link (read back from a real SMTP server); nothing is cancelled; a second press mails
nobody again; the customer may then change the booking inside the usual cutoff; audited."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from functools import partial

import pytest
from sqlmodel import select

from storefront import i18n
from storefront.models import AuditLog, Booking, NotificationOutbox, ServiceCategory, User
from storefront.services.booking import changes
from storefront.services.messaging import links as booking_links
from storefront.services.messaging import outbox
from storefront.services.operations import weather
from storefront.services.operations.weather import WeatherError
from tests.factories import booking_statuses, line, make_service, place

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "10.06.2026"
# The evening before the day: inside the 48-hour cutoff, when the forecast is known.
EVE = datetime(2026, 6, 9, 16, 0, tzinfo=UTC)
_place = partial(place, now=NOW)


def _category(session, slug: str) -> ServiceCategory:
    found = session.exec(select(ServiceCategory).where(ServiceCategory.slug == slug)).first()
    if found is None:
        found = ServiceCategory(name=slug.title(), slug=slug)
        session.add(found)
        session.commit()
    return found


def _in(session, service, slug: str):
    service.category_id = _category(session, slug).id
    session.add(service)
    session.commit()
    return service


def _user(session, role: str) -> str:
    user = User(email=f"{role}-{uuid.uuid4().hex[:6]}@example.com", role=role)
    session.add(user)
    session.commit()
    return str(user.id)


def _day(session):
    castle = _in(session, make_service(session, title="Castle", units=3), "bouncers")
    tables = _in(session, make_service(session, title="Round table", units=20), "wedding-tables")
    with i18n.using("en"):
        english = _place(session, [line(castle, "2026-06-10", "10:00")], full_name="Jane Doe")
    albanian = _place(
        session,
        [line(castle, "2026-06-10", "14:00"), line(tables, "2026-06-10", "14:00", quantity=4)],
        full_name="Besa Gashi",
    )
    dry = _place(session, [line(tables, "2026-06-10", "10:00", quantity=8)])
    other_day = _place(session, [line(castle, "2026-06-11", "10:00")])
    return english, albanian, dry, other_day


def test_the_offer_reaches_the_days_inflatables_in_their_language_and_cancels_nothing(
    session, engine, mailbox
):
    admin = _user(session, "admin")
    english, albanian, dry, other_day = _day(session)
    session.commit()
    outbox.run_once(now=NOW, engine=engine)  # the confirmations
    mailbox.messages.clear()

    shown = weather.affected(
        session=session, actor_id=admin, day=DAY, categories=["bouncers"], now=EVE
    )
    assert [(a.reference, a.offered) for a in shown] == [
        (english.reference, False),
        (albanian.reference, False),
    ]
    assert shown[1].services == "Castle × 1"  # the tables are not what the weather stops

    offered = weather.offer_moves(
        session=session, actor_id=admin, day=DAY, categories=["bouncers"], now=EVE
    )
    session.commit()
    assert offered == [english.reference, albanian.reference]
    outbox.run_once(now=EVE, engine=engine)
    mails = list(mailbox.messages)
    assert len(mails) == 2
    by_subject = sorted(m["Subject"] for m in mails)
    assert by_subject == sorted(
        [
            f"Booking {english.reference}: the weather on 10.06.2026",
            f"Rezervimi {albanian.reference}: moti më 10.06.2026",
        ]
    )
    for mail in mails:
        text = mail.get_body(("plain",)).get_content()
        reference = english.reference if "weather" in mail["Subject"] else albanian.reference
        booking_id = english.id if reference == english.reference else albanian.id
        assert f"/bookings/{booking_id}" in text or booking_id in text  # the signed link
        assert ("Move or cancel" in mail.get_body(("html",)).get_content()) == (
            reference == english.reference
        )

    # Nothing was cancelled or moved; the bookings are marked; one audit entry each.
    for placed in (english, albanian, dry, other_day):
        assert booking_statuses(session, placed.id)[0] == "pending"
    marked = {
        b.reference
        for b in session.exec(select(Booking).where(Booking.weather_offered_at.is_not(None)))
    }
    assert marked == {english.reference, albanian.reference}
    entries = session.exec(select(AuditLog).where(AuditLog.action == "booking_weather_offer")).all()
    assert sorted(e.details["reference"] for e in entries) == sorted(offered)

    # A second press mails nobody again.
    assert (
        weather.offer_moves(
            session=session, actor_id=admin, day=DAY, categories=["bouncers"], now=EVE
        )
        == []
    )
    session.commit()
    queued = session.exec(
        select(NotificationOutbox).where(NotificationOutbox.topic == "booking_weather")
    ).all()
    assert len(queued) == 2


def test_an_offered_customer_may_cancel_or_move_inside_the_cutoff(session):
    admin = _user(session, "admin")
    english, albanian, dry, _other = _day(session)
    weather.offer_moves(session=session, actor_id=admin, day=DAY, categories=["bouncers"], now=EVE)
    session.commit()

    def key(placed):
        return booking_links.sign_view_key(placed.id, now=EVE)

    # The one not offered is past the cutoff, as before.
    with pytest.raises(changes.BookingChangeError) as refused:
        changes.cancel_own(session=session, booking_id=dry.id, key=key(dry), now=EVE)
    assert refused.value.code == "too_late"
    done = changes.cancel_own(session=session, booking_id=english.id, key=key(english), now=EVE)
    assert done.status == "cancelled"
    moved = changes.move_own(
        session=session,
        booking_id=albanian.id,
        key=key(albanian),
        day="2026-06-17",
        start_time="14:00",
        now=EVE,
    )
    assert moved.changed
    session.expire_all()
    row = session.get(Booking, uuid.UUID(albanian.id))
    assert row.weather_offered_at is None  # the new day is an ordinary one


def test_only_an_admin_offers_and_bad_input_is_refused(session):
    _day(session)
    staff = _user(session, "staff")
    with pytest.raises(WeatherError) as refused:
        weather.offer_moves(
            session=session, actor_id=staff, day=DAY, categories=["bouncers"], now=EVE
        )
    assert refused.value.code == "not_allowed"
    admin = _user(session, "admin")
    for day, categories, code in (
        ("31.02.2026", ["bouncers"], "invalid_day"),
        ("01.06.2026", ["bouncers"], "past_day"),
        (DAY, [], "no_categories"),
        (DAY, ["", " "], "no_categories"),
    ):
        with pytest.raises(WeatherError) as refused:
            weather.offer_moves(
                session=session, actor_id=admin, day=day, categories=categories, now=EVE
            )
        assert refused.value.code == code
    assert session.exec(select(Booking).where(Booking.weather_offered_at.is_not(None))).all() == []


def test_a_weather_mail_for_a_booking_cancelled_since_is_not_sent(session, engine, mailbox):
    admin = _user(session, "admin")
    english, *_rest = _day(session)
    session.commit()
    outbox.run_once(now=NOW, engine=engine)
    mailbox.messages.clear()
    weather.offer_moves(session=session, actor_id=admin, day=DAY, categories=["bouncers"], now=EVE)
    session.commit()
    changes.cancel_own(
        session=session,
        booking_id=english.id,
        key=booking_links.sign_view_key(english.id, now=EVE),
        now=EVE,
    )
    session.commit()
    outbox.run_once(now=EVE, engine=engine)
    assert all(
        english.reference not in m["Subject"] or "weather" not in m["Subject"]
        for m in mailbox.messages
    )
