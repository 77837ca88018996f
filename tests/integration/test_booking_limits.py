"""Issue 18, findings 3, 10 and part of 13, on SQLite and PostgreSQL: bookings limited per client
address, email and phone; at most a few mails a day to one recipient; the back office cancelling
the pending bookings of one address or email at once; every term of a booking read after the
lock; an idempotency key bound to the lines it placed; an overbooking override bound to the
conflicts the admin was shown."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from functools import partial

import pytest
from sqlalchemy import event, update
from sqlmodel import select

from storefront.i18n import _
from storefront.models import AuditLog, Booking, BookingItem, NotificationOutbox, Service, User
from storefront.services.booking import admin as ab
from storefront.services.booking import placing
from storefront.services.booking.admin import AdminBookingError
from storefront.services.booking.lines import BookingError
from storefront.services.messaging import outbox
from storefront.services.operations import dashboard
from tests.factories import booking_statuses, line, make_service, place

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)  # 08:00 in Prishtina
DAYS = [f"2026-06-{d:02d}" for d in range(8, 29)]


_place = partial(place, now=NOW)


def _guest(n: int) -> dict[str, str]:
    """A different customer each time: email and phone."""
    return {"email": f"guest{n}@example.com", "phone": f"+383 44 {100000 + n}"}


def _bookings(session) -> int:
    session.expire_all()
    found = len(session.exec(select(Booking.id)).all())
    session.commit()
    return found


# --- finding 3: bookings per address, email and phone -------------------------------------------


def test_one_address_places_five_bookings_an_hour_then_is_refused(session, limits):
    castle = make_service(session, units=50)
    for n in range(5):
        _place(session, [line(castle, DAYS[n], "10:00")], address="203.0.113.7", **_guest(n))
    with pytest.raises(BookingError) as refused:
        _place(session, [line(castle, DAYS[6], "10:00")], address="203.0.113.7", **_guest(6))
    assert refused.value.code == "too_many_bookings"
    assert refused.value.details["limit"] == "address"
    assert refused.value.message == _(placing.LIMIT_MESSAGE)  # no language named: the default's
    assert _bookings(session) == 5
    # Another address is not affected, and an hour later the first may book again.
    _place(session, [line(castle, DAYS[7], "10:00")], address="203.0.113.8", **_guest(7))
    later = NOW + timedelta(hours=1, minutes=1)
    _place(session, [line(castle, DAYS[8], "10:00")], address="203.0.113.7", now=later, **_guest(8))
    stored = session.exec(select(Booking.client_address)).all()
    session.commit()
    assert sorted(stored).count("203.0.113.7") == 6


def test_one_email_or_one_phone_places_three_bookings_a_day(session, limits):
    castle = make_service(session, units=50)
    for n in range(3):
        _place(session, [line(castle, DAYS[n], "10:00")], address=f"198.51.100.{n}")
    # The same address in another case is the same email; the same number written another way
    # is the same phone.
    for day, address, email, phone, limit in (
        (DAYS[4], "198.51.100.9", "ARTA.krasniqi@example.com", "+383 49 999 999", "email"),
        (DAYS[5], "198.51.100.10", "someone.else@example.com", "044 123 456", "phone"),
    ):
        with pytest.raises(BookingError) as refused:
            _place(session, [line(castle, day, "10:00")], address=address, email=email, phone=phone)
        assert (refused.value.code, refused.value.details["limit"]) == ("too_many_bookings", limit)
    assert _bookings(session) == 3
    _place(session, [line(castle, DAYS[6], "10:00")], now=NOW + timedelta(hours=24, minutes=1))


def test_a_wedding_of_five_services_in_one_cart_is_one_booking(session, limits):
    services = [make_service(session, title=f"Wedding part {n}", units=2) for n in range(5)]
    placed = _place(
        session,
        [line(s, DAYS[0], f"{10 + n}:00") for n, s in enumerate(services)],
        address="192.0.2.1",
    )
    assert placed.total == Decimal("500.00")
    # Two more of the same customer's weddings that day are still taken.
    for n in (1, 2):
        _place(session, [line(s, DAYS[n], "10:00") for s in services], address="192.0.2.1")
    assert _bookings(session) == 3


def test_a_retry_of_a_placed_booking_is_not_counted_again(session, limits):
    castle = make_service(session, units=50)
    for n in range(3):
        _place(session, [line(castle, DAYS[n], "10:00")], key=f"retry-key-{n:04d}")
    again = _place(session, [line(castle, DAYS[0], "10:00")], key="retry-key-0000")
    assert again.reference.startswith("MG-") and _bookings(session) == 3


# --- finding 3: at most a few mails a day to one recipient --------------------------------------
# (Issue 33, finding 5: only a new booking's confirmation counts and is held back, when it is
# queued; tests/integration/test_mail_cap_topics.py has the mails that always go.)


def test_a_mailbox_gets_at_most_five_confirmations_a_day_the_rest_are_held_back(
    session, engine, mailbox, webhook, limits, caplog
):
    limits.booking_limit_per_email = 0  # only the mail cap at work here
    limits.booking_limit_per_phone = 0
    castle = make_service(session, units=50)

    def book(n: int, email: str, now: datetime = NOW):
        return _place(session, [line(castle, DAYS[n], "10:00")], email=email, now=now)

    placed = [book(n, "victim@example.com") for n in range(7)]
    book(7, "other@example.com")
    assert [p.mail_held for p in placed] == [False] * 5 + [True] * 2

    report = outbox.run_once(now=NOW, engine=engine, limit=50)

    assert report.sent == 6 + 8  # and the staff's eight messages: the business's own, never capped
    got = sorted(m["To"] for m in mailbox.messages)
    assert got.count("victim@example.com") == 5 and got.count("other@example.com") == 1
    assert outbox.count(session, "suppressed") == 2
    held = session.exec(
        select(NotificationOutbox).where(NotificationOutbox.status == "suppressed")
    ).all()
    session.commit()
    assert {row.recipient for row in held} == {"victim@example.com"}
    assert all(row.sent_at is None and "held back" in row.last_error for row in held)
    assert "held back" in caplog.text
    checks = {c.name: c for c in dashboard.system_status(session=session, actor_id=_admin(session))}
    assert "2 held back by the mail cap" in checks["Notification Outbox"].detail

    # Later that day the mailbox is still full; the next day it may be written to again.
    assert book(8, "victim@example.com", NOW + timedelta(hours=1)).mail_held
    assert not book(9, "Victim@Example.com", NOW + timedelta(hours=25)).mail_held
    # The two staff messages and the next day's confirmation.
    assert outbox.run_once(now=NOW + timedelta(hours=25), engine=engine).sent == 3


# --- finding 3: cancelling the pending bookings of one address or email at once -----------------


def _admin(session) -> str:
    user = User(email=f"admin-{uuid.uuid4().hex[:6]}@example.com", role="admin")
    session.add(user)
    session.commit()
    return str(user.id)


def test_an_admin_cancels_the_pending_bookings_of_one_address_in_one_action(session):
    admin = _admin(session)
    castle = make_service(session, units=50)
    flood = [
        _place(session, [line(castle, DAYS[n], "10:00")], address="203.0.113.66", **_guest(n))
        for n in range(4)
    ]
    other = _place(session, [line(castle, DAYS[9], "10:00")], address="203.0.113.1")
    ab.set_status(session=session, actor_id=admin, booking_id=flood[3].id, status="confirmed")

    preview = ab.pending_from(session=session, actor_id=admin, booking_id=flood[0].id, by="address")
    assert (preview.by, preview.value, len(preview.references)) == ("address", "203.0.113.66", 3)

    done = ab.cancel_pending_from(
        session=session, actor_id=admin, booking_id=flood[0].id, by="address"
    )

    assert sorted(done.references) == sorted(p.reference for p in flood[:3])
    for placed in flood[:3]:
        assert booking_statuses(session, placed.id) == ("cancelled", {"cancelled"})
    assert booking_statuses(session, flood[3].id)[0] == "confirmed"  # only pending ones
    assert booking_statuses(session, other.id)[0] == "pending"
    [entry] = session.exec(select(AuditLog).where(AuditLog.action == "booking_bulk_cancel")).all()
    session.commit()
    assert entry.details["address"] == "203.0.113.66"
    assert sorted(entry.details["references"]) == sorted(done.references)
    assert str(entry.actor_user_id) == admin
    # The units are free again: the first day can be booked by someone else.
    _place(session, [line(castle, DAYS[0], "10:00")], address="192.0.2.9")


def test_an_admin_cancels_the_pending_bookings_of_one_email(session):
    admin = _admin(session)
    castle = make_service(session, units=50)
    mine = [
        _place(session, [line(castle, DAYS[n], "10:00")], email="Spam@Example.com")
        for n in range(2)
    ]
    theirs = _place(session, [line(castle, DAYS[5], "10:00")], email="real@example.com")
    done = ab.cancel_pending_from(
        session=session, actor_id=admin, booking_id=mine[0].id, by="email"
    )
    assert sorted(done.references) == sorted(p.reference for p in mine)
    assert booking_statuses(session, theirs.id)[0] == "pending"
    [entry] = session.exec(select(AuditLog).where(AuditLog.action == "booking_bulk_cancel")).all()
    session.commit()
    assert entry.details["email"] == "spam@example.com"


def test_only_an_admin_may_cancel_in_bulk(session):
    castle = make_service(session, units=5)
    placed = _place(session, [line(castle, DAYS[0], "10:00")], address="203.0.113.5")
    user = User(email="plain@example.com", role="user")
    session.add(user)
    session.commit()
    for actor in (str(user.id), None, "not-a-uuid"):
        with pytest.raises(AdminBookingError):
            ab.cancel_pending_from(
                session=session, actor_id=actor, booking_id=placed.id, by="address"
            )
    with pytest.raises(AdminBookingError) as unknown:
        ab.cancel_pending_from(
            session=session, actor_id=_admin(session), booking_id=placed.id, by="phone"
        )
    assert unknown.value.code == "invalid_filter"
    assert booking_statuses(session, placed.id)[0] == "pending"


# --- finding 10: what a booking depends on is read after the lock -------------------------------


def _change_at_the_lock(engine, service_id, **values):
    """Change the service on another connection just before the booking's lock statement."""
    done = []

    def before(_conn, _cursor, statement, *_args):
        if done or not ("BEGIN IMMEDIATE" in statement or "advisory_xact_lock" in statement):
            return
        done.append(statement)
        with engine.begin() as other:  # committed before the lock statement runs
            other.execute(update(Service).where(Service.id == service_id).values(**values))

    event.listen(engine, "before_cursor_execute", before)
    return lambda: event.remove(engine, "before_cursor_execute", before)


def test_a_price_changed_before_the_lock_is_the_price_charged(session, engine):
    castle = make_service(session, price="100.00", units=5)
    session.commit()
    stop = _change_at_the_lock(engine, castle.id, price=Decimal("250.00"), title="Castle XL")
    try:
        placed = _place(session, [line(castle, DAYS[0], "10:00", hours=2)])
    finally:
        stop()
    assert placed.total == Decimal("500.00")
    item = session.exec(
        select(BookingItem).where(BookingItem.booking_id == uuid.UUID(placed.id))
    ).one()
    session.commit()
    assert (item.service_price, item.service_name) == (Decimal("500.00"), "Castle XL")


def test_a_service_deactivated_before_the_lock_is_not_sold(session, engine):
    castle = make_service(session, units=5)
    session.commit()
    stop = _change_at_the_lock(engine, castle.id, active=False)
    try:
        with pytest.raises(BookingError) as refused:
            _place(session, [line(castle, DAYS[0], "10:00")])
    finally:
        stop()
    assert refused.value.code == "service_not_found"
    assert _bookings(session) == 0


# --- finding 13: the idempotency key is bound to the lines it placed ----------------------------


def test_a_key_used_again_with_other_lines_is_refused_and_says_so(session):
    castle = make_service(session, units=5)
    mascot = make_service(session, title="Mascot", units=5)
    first = _place(session, [line(castle, DAYS[0], "10:00")], key="lost-answer-key")
    # The same lines again (a retry after a lost answer): the same booking.
    assert _place(session, [line(castle, DAYS[0], "10:00")], key="lost-answer-key") == first
    # The cart changed before the retry: not the old booking, and nothing new placed.
    for lines in (
        [line(castle, DAYS[0], "10:00"), line(mascot, DAYS[0], "12:00")],
        [line(castle, DAYS[0], "11:00")],
        [line(castle, DAYS[0], "10:00", quantity=2)],
    ):
        with pytest.raises(BookingError) as refused:
            _place(session, lines, key="lost-answer-key")
        assert refused.value.code == "key_reused"
        assert refused.value.details["reference"] == first.reference
    assert _bookings(session) == 1


# --- finding 13: an override confirms the conflicts the admin was shown -------------------------


def test_an_override_is_refused_when_the_conflicts_changed_since_they_were_shown(session):
    admin = _admin(session)
    bouncer = make_service(session, units=1)
    first = _place(session, [line(bouncer, DAYS[0], "10:00", hours=2)], **_guest(1))
    ab.set_status(session=session, actor_id=admin, booking_id=first.id, status="cancelled")
    _place(session, [line(bouncer, DAYS[0], "10:00")], **_guest(2))

    with pytest.raises(AdminBookingError) as shown:
        ab.set_status(session=session, actor_id=admin, booking_id=first.id, status="confirmed")
    assert shown.value.code == "over_capacity"
    fingerprint = shown.value.details["fingerprint"]
    assert shown.value.details["conflicts"] == ["Bouncy castle, 08.06.2026 10:00"]

    # Meanwhile another guest takes 11:00, inside the same span: the line the admin was shown
    # reads the same, but confirming now overbooks two bookings instead of one.
    _place(session, [line(bouncer, DAYS[0], "11:00")], **_guest(3))

    with pytest.raises(AdminBookingError) as changed:
        ab.set_status(
            session=session,
            actor_id=admin,
            booking_id=first.id,
            status="confirmed",
            override=fingerprint,
        )
    assert changed.value.code == "over_capacity"
    assert changed.value.details["changed"] is True
    assert changed.value.details["fingerprint"] != fingerprint
    assert booking_statuses(session, first.id)[0] == "cancelled"
    for stale in (True, "", "not-the-fingerprint"):
        with pytest.raises(AdminBookingError):
            ab.set_status(
                session=session,
                actor_id=admin,
                booking_id=first.id,
                status="confirmed",
                override=stale,
            )

    change = ab.set_status(
        session=session,
        actor_id=admin,
        booking_id=first.id,
        status="confirmed",
        override=changed.value.details["fingerprint"],
    )
    assert change.status == "confirmed" and change.overridden
    entries = session.exec(select(AuditLog).where(AuditLog.action == "booking_status")).all()
    session.commit()
    assert [e.details.get("override") for e in entries].count(True) == 1


def test_an_edit_override_is_bound_to_the_conflicts_shown_too(session):
    admin = _admin(session)
    bouncer = make_service(session, units=1)
    placed = _place(session, [line(bouncer, DAYS[0], "10:00")], **_guest(1))
    _place(session, [line(bouncer, DAYS[0], "14:00")], **_guest(2))
    [item] = session.exec(
        select(BookingItem.id).where(BookingItem.booking_id == uuid.UUID(placed.id))
    ).all()
    session.commit()
    edit = ab.BookingEdit(
        contact_email="guest1@example.com",
        contact_phone="+383 44 100001",
        venue_address="Rruga 1",
        event_type="birthday",
        guest_count=10,
        special_requests="",
        items=(ab.ItemEdit(str(item), "100.00", 1, DAYS[0], "14:00", 1),),
    )
    with pytest.raises(AdminBookingError) as shown:
        ab.update_booking(session=session, actor_id=admin, booking_id=placed.id, edit=edit, now=NOW)
    with pytest.raises(AdminBookingError):
        ab.update_booking(
            session=session,
            actor_id=admin,
            booking_id=placed.id,
            edit=edit,
            override="stale",
            now=NOW,
        )
    ab.update_booking(
        session=session,
        actor_id=admin,
        booking_id=placed.id,
        edit=edit,
        override=shown.value.details["fingerprint"],
        now=NOW,
    )
