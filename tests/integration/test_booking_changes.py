"""A customer cancels or moves their own booking (issue 22, item 4), on SQLite and PostgreSQL,
with a fixed clock: through the booking's signed link or as the account that placed it, until
the business's cutoff before the event; availability follows at once; every change writes its
audit entry, the staff's WhatsApp message and the customer's mail (in the booking's language);
a refused change changes nothing."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest
from sqlmodel import select

from storefront.models import AuditLog, Booking, BookingItem, BusinessSettings, NotificationOutbox
from storefront.services import audit
from storefront.services.booking import availability, changes
from storefront.services.booking.changes import BookingChangeError
from storefront.services.messaging import links as booking_links
from storefront.services.messaging import outbox
from tests.factories import booking_statuses, line, make_service, make_user, place

# 1 June 2026, 08:00 in Prishtina; the bookings are on 10 June (UTC+2 in summer).
NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY, NEXT_DAY = "2026-06-10", "2026-06-11"
# 47 hours before the 10:00 (local) start: inside the default 48-hour cutoff.
LATE = datetime(2026, 6, 8, 9, 0, tzinfo=UTC)

_place = partial(place, now=NOW)


def _key(booking_id: str) -> str:
    return booking_links.sign_view_key(booking_id, now=NOW)


def _free(session, service, day: str, start: str, *, hours: int = 1, now=NOW) -> bool:
    """Whether the public picker offers `start` on `day` (what a visitor sees at once)."""
    session.commit()
    slots = availability.day_slots(
        session=session,
        service_id=str(service.id),
        day=day,
        duration_hours=hours,
        quantity=1,
        now=now,
    )
    session.commit()
    return {slot.start_time: slot.available for slot in slots}[start]


def _starts(session, booking_id: str) -> list[tuple[str, datetime]]:
    session.expire_all()
    rows = session.exec(
        select(BookingItem)
        .where(BookingItem.booking_id == uuid.UUID(booking_id))
        .order_by(BookingItem.start_datetime)
    ).all()
    session.commit()
    return [(row.service_name, row.start_datetime) for row in rows]


def _topics(session, booking_id: str) -> list[str]:
    rows = session.exec(
        select(NotificationOutbox.topic)
        .where(NotificationOutbox.booking_id == uuid.UUID(booking_id))
        .order_by(NotificationOutbox.created_at, NotificationOutbox.topic)
    ).all()
    return sorted(rows)


def _audit(session, action: str) -> list[AuditLog]:
    return list(session.exec(select(AuditLog).where(AuditLog.action == action)).all())


PLACED = ["booking_confirmation", "booking_placed"]
CHANGED = ["booking_change", "booking_change_staff"]


def test_a_guest_cancels_through_the_link_and_the_slot_is_free_at_once(session):
    castle = make_service(session, units=1)
    placed = _place(session, [line(castle, DAY, "10:00", hours=2)])
    assert not _free(session, castle, DAY, "10:00")

    result = changes.cancel_own(session=session, booking_id=placed.id, key=_key(placed.id), now=NOW)

    assert (result.status, result.changed, result.reference) == (
        "cancelled",
        True,
        placed.reference,
    )
    assert booking_statuses(session, placed.id) == ("cancelled", {"cancelled"})
    assert _free(session, castle, DAY, "10:00") and _free(session, castle, DAY, "11:00")
    assert _topics(session, placed.id) == sorted(PLACED + CHANGED)
    [entry] = _audit(session, "booking_cancelled_by_customer")
    assert entry.actor_user_id is None and entry.details["by"] == "link"
    assert entry.details["before"] == {"status": "pending"}
    assert entry.details["after"] == {"status": "cancelled"}
    # The audit log names the guest for what they are.
    admin = make_user(session, role="admin")
    session.commit()
    [shown] = audit.entries(session=session, actor_id=admin.id).entries
    assert shown.actor == "customer (booking link)"
    assert shown.changes == ("Status: pending -> cancelled",)

    # A second click finds it done: nothing more is written.
    again = changes.cancel_own(session=session, booking_id=placed.id, key=_key(placed.id), now=NOW)
    assert (again.status, again.changed) == ("cancelled", False)
    assert len(_audit(session, "booking_cancelled_by_customer")) == 1
    assert _topics(session, placed.id) == sorted(PLACED + CHANGED)


def test_after_the_cutoff_nothing_is_changed_online(session):
    castle = make_service(session, units=1)
    placed = _place(session, [line(castle, DAY, "10:00")])
    key = _key(placed.id)
    options = changes.change_options(session=session, booking_id=placed.id, key=key, now=LATE)
    assert options is not None and not options.allowed
    assert options.deadline == "08.06.2026 10:00"

    with pytest.raises(BookingChangeError) as refused:
        changes.cancel_own(session=session, booking_id=placed.id, key=key, now=LATE)
    assert refused.value.code == "too_late"
    with pytest.raises(BookingChangeError) as refused:
        changes.move_own(
            session=session,
            booking_id=placed.id,
            key=key,
            day="11.06.2026",
            start_time="14:00",
            now=LATE,
        )
    assert refused.value.code == "too_late"

    assert booking_statuses(session, placed.id) == ("pending", {"pending"})
    assert _starts(session, placed.id) == [
        ("Bouncy castle", datetime(2026, 6, 10, 8, 0, tzinfo=UTC))
    ]
    assert _topics(session, placed.id) == sorted(PLACED)
    assert session.exec(select(AuditLog)).all() == []


def test_the_cutoff_is_the_business_setting_and_only_open_statuses_change(session):
    castle = make_service(session, units=1)
    placed = _place(session, [line(castle, DAY, "10:00")])
    booking = session.get(Booking, uuid.UUID(placed.id))
    first = datetime(2026, 6, 10, 8, 0, tzinfo=UTC)
    settings = BusinessSettings(change_cutoff_hours=48)

    assert changes.can_change(booking, first, now=first - timedelta(hours=49), settings=settings)
    assert not changes.can_change(
        booking, first, now=first - timedelta(hours=48), settings=settings
    )
    shorter = BusinessSettings(change_cutoff_hours=24)
    assert changes.can_change(booking, first, now=LATE, settings=shorter)
    for status in ("on_the_way", "completed", "cancelled"):
        booking.status = status
        assert not changes.can_change(booking, first, now=NOW, settings=settings), status
    booking.status = "confirmed"
    assert changes.can_change(booking, first, now=NOW, settings=settings)
    session.rollback()

    # A completed booking offers no change, however far away.
    row = session.get(Booking, uuid.UUID(placed.id))
    row.status = "completed"
    session.add(row)
    session.commit()
    with pytest.raises(BookingChangeError) as refused:
        changes.cancel_own(session=session, booking_id=placed.id, key=_key(placed.id), now=NOW)
    assert refused.value.code == "too_late"


def test_a_move_to_free_times_shifts_every_line_and_frees_the_old_slots(session):
    castle = make_service(session, units=1)
    mascot = make_service(session, title="Mascot", units=1)
    placed = _place(session, [line(castle, DAY, "10:00", hours=2), line(mascot, DAY, "12:00")])
    key = _key(placed.id)

    result = changes.move_own(
        session=session,
        booking_id=placed.id,
        key=key,
        day="11.06.2026",
        start_time="14:00",
        now=NOW,
    )

    assert (result.status, result.changed) == ("pending", True)
    # The first line starts at the time asked; the second keeps its two hours' distance.
    assert _starts(session, placed.id) == [
        ("Bouncy castle", datetime(2026, 6, 11, 12, 0, tzinfo=UTC)),
        ("Mascot", datetime(2026, 6, 11, 14, 0, tzinfo=UTC)),
    ]
    assert _free(session, castle, DAY, "10:00") and _free(session, mascot, DAY, "12:00")
    assert not _free(session, castle, NEXT_DAY, "14:00")
    assert not _free(session, mascot, NEXT_DAY, "16:00")
    assert _topics(session, placed.id) == sorted(PLACED + CHANGED)
    staff = session.exec(
        select(NotificationOutbox).where(NotificationOutbox.topic == "booking_change_staff")
    ).one()
    assert staff.payload["change"] == "moved"
    assert [b["start_datetime"] for b in staff.payload["before"]] == [
        "2026-06-10T08:00:00+00:00",
        "2026-06-10T10:00:00+00:00",
    ]
    [entry] = _audit(session, "booking_moved_by_customer")
    assert entry.details["by"] == "link"
    assert entry.details["after"]["items"][0]["start_datetime"] == "2026-06-11T12:00:00+00:00"

    # The same move again (a double click) changes nothing more.
    again = changes.move_own(
        session=session,
        booking_id=placed.id,
        key=key,
        day="11.06.2026",
        start_time="14:00",
        now=NOW,
    )
    assert not again.changed
    assert len(_audit(session, "booking_moved_by_customer")) == 1


def test_a_move_onto_a_taken_slot_names_the_service_and_changes_nothing(session):
    castle = make_service(session, units=1)
    mascot = make_service(session, title="Mascot", units=1)
    placed = _place(session, [line(castle, DAY, "10:00"), line(mascot, DAY, "11:00")])
    # Someone else has the mascot at 15:00 the next day: the castle would fit at 14:00, the
    # mascot (an hour later) would not.
    _place(session, [line(mascot, NEXT_DAY, "15:00")], email="other@example.com")
    before = _starts(session, placed.id)

    with pytest.raises(BookingChangeError) as refused:
        changes.move_own(
            session=session,
            booking_id=placed.id,
            key=_key(placed.id),
            day="11.06.2026",
            start_time="14:00",
            now=NOW,
        )

    assert refused.value.code == "slot_taken"
    assert refused.value.details == {"service": "Mascot", "date": "11.06.2026", "time": "15:00"}
    assert _starts(session, placed.id) == before
    assert not _free(session, castle, DAY, "10:00")  # still held
    assert _free(session, castle, NEXT_DAY, "14:00")  # nothing half-moved
    assert _topics(session, placed.id) == sorted(PLACED)
    assert session.exec(select(AuditLog)).all() == []


def test_a_move_outside_the_hours_or_into_the_notice_is_refused(session):
    castle = make_service(session, units=1)
    placed = _place(session, [line(castle, DAY, "10:00")])
    key = _key(placed.id)
    for day, start, reason in (
        ("11.06.2026", "19:30", "closed"),  # not a start the day offers
        ("11.06.2026", "21:00", "closed"),
        ("01.06.2026", "12:00", "too_soon"),  # within the 24 hours' notice
    ):
        with pytest.raises(BookingChangeError) as refused:
            changes.move_own(
                session=session, booking_id=placed.id, key=key, day=day, start_time=start, now=NOW
            )
        assert refused.value.code == "slot_unavailable", (day, start)
        assert refused.value.details["reason"] == reason
        assert refused.value.details["service"] == "Bouncy castle"
    for day, start in (("2026-13-01", "10:00"), ("11.06.2026", "25:00"), ("", "")):
        with pytest.raises(BookingChangeError) as refused:
            changes.move_own(
                session=session, booking_id=placed.id, key=key, day=day, start_time=start, now=NOW
            )
        assert refused.value.code == "invalid_time"
    assert _starts(session, placed.id) == [
        ("Bouncy castle", datetime(2026, 6, 10, 8, 0, tzinfo=UTC))
    ]


def test_only_the_link_or_the_owner_may_change_a_booking(session):
    castle = make_service(session, units=2)
    owner = make_user(session)
    stranger = make_user(session)
    session.commit()
    mine = _place(session, [line(castle, DAY, "10:00")])
    other = _place(session, [line(castle, DAY, "12:00")], email="other@example.com")
    expired = booking_links.sign_view_key(mine.id, now=NOW - timedelta(days=200))
    for key, viewer in (
        (None, ""),
        ("", ""),
        ("not-a-key", ""),
        (_key(other.id), ""),  # another booking's link
        (expired, ""),
        (None, str(stranger.id)),
        (_key(mine.id)[:-2] + "xx", ""),  # a forged signature
    ):
        for act in (
            partial(changes.cancel_own),
            partial(changes.move_own, day="11.06.2026", start_time="14:00"),
        ):
            with pytest.raises(BookingChangeError) as refused:
                act(session=session, booking_id=mine.id, key=key, viewer_id=viewer, now=NOW)
            assert refused.value.code == "not_found"
        assert (
            changes.change_options(
                session=session, booking_id=mine.id, key=key, viewer_id=viewer, now=NOW
            )
            is None
        )
    assert booking_statuses(session, mine.id) == ("pending", {"pending"})
    for bad_id in ("nope", str(uuid.uuid4())):
        with pytest.raises(BookingChangeError):
            changes.cancel_own(session=session, booking_id=bad_id, key=_key(mine.id), now=NOW)

    # The account that placed a booking needs no link.
    session.commit()
    owned = place(session, [line(castle, DAY, "14:00")], now=NOW)
    row = session.get(Booking, uuid.UUID(owned.id))
    row.user_id = owner.id
    session.add(row)
    session.commit()
    done = changes.cancel_own(
        session=session, booking_id=owned.id, viewer_id=str(owner.id), now=NOW
    )
    assert done.changed
    [entry] = _audit(session, "booking_cancelled_by_customer")
    assert entry.actor_user_id == owner.id and entry.details["by"] == "owner"


def _sent(engine, session, mailbox, now=NOW):
    session.commit()
    outbox.run_once(now=now, engine=engine)
    return list(mailbox.messages)


@pytest.mark.parametrize(
    ("language", "greeting", "subject"),
    [
        ("en", "Hello Arta Krasniqi,", "cancelled"),
        ("sq", "Përshëndetje Arta Krasniqi,", None),
    ],
)
def test_the_customer_mail_speaks_the_booking_language_and_staff_theirs(
    session, engine, mailbox, webhook, language, greeting, subject
):
    from storefront import i18n

    castle = make_service(session, units=1)
    with i18n.using(language):  # the page it was placed on
        placed = _place(session, [line(castle, DAY, "10:00")])
    _sent(engine, session, mailbox)  # the confirmation
    mailbox.messages.clear()
    webhook.requests.clear()

    changes.move_own(
        session=session,
        booking_id=placed.id,
        key=_key(placed.id),
        day="11.06.2026",
        start_time="14:00",
        now=NOW,
    )
    [mail] = _sent(engine, session, mailbox)
    text = mail.get_body(("plain",)).get_content()
    assert greeting in text
    assert "(11.06.2026, 14:00)" in text and "10.06.2026 10:00" in text  # new and earlier times
    assert placed.id in text  # the signed link to the booking
    assert any(part.get_filename() == f"booking-{placed.reference}.ics" for part in mail.walk())
    if subject:
        assert mail["Subject"] == f"Booking {placed.reference} moved"
    # The staff's message is in the staff's language (Albanian by default), whatever the
    # customer's.
    [request] = webhook.requests
    params = request["templateParams"]
    assert params[0] == placed.reference
    with i18n.using("sq"):
        assert params[2].startswith(i18n.office_gettext("Moved by the customer"))

    mailbox.messages.clear()
    changes.cancel_own(session=session, booking_id=placed.id, key=_key(placed.id), now=NOW)
    [mail] = _sent(engine, session, mailbox)
    assert greeting in mail.get_body(("plain",)).get_content()
    if subject:
        assert mail["Subject"] == f"Booking {placed.reference} cancelled"


def test_the_account_orders_say_which_bookings_can_still_be_changed(session):
    from storefront.services.booking import views as booking_views

    castle = make_service(session, units=2)
    owner = make_user(session)
    session.commit()
    placed = _place(session, [line(castle, DAY, "10:00")])
    row = session.get(Booking, uuid.UUID(placed.id))
    row.user_id = owner.id
    session.add(row)
    session.commit()

    def changeable(now):
        [summary] = booking_views.bookings_for_user(session=session, user_id=owner.id, now=now)
        return summary.changeable

    assert changeable(NOW) and not changeable(LATE)
    changes.cancel_own(session=session, booking_id=placed.id, viewer_id=str(owner.id), now=NOW)
    assert not changeable(NOW)


# --- issue 34, item 5: the move's picker, the cutoff's question, a confirmed booking ----------


def _confirm(session, booking_id: str) -> None:
    from storefront.services.booking import admin as admin_bookings

    admin = make_user(session, role="admin")
    session.commit()
    admin_bookings.set_status(
        session=session, actor_id=admin.id, booking_id=booking_id, status="confirmed", now=NOW
    )


def test_a_moved_confirmed_booking_is_pending_again_and_the_staff_are_told(
    session, engine, mailbox, webhook
):
    from storefront import i18n

    castle = make_service(session, units=1)
    placed = _place(session, [line(castle, DAY, "10:00", hours=2)])
    _confirm(session, placed.id)
    assert booking_statuses(session, placed.id) == ("confirmed", {"confirmed"})
    _sent(engine, session, mailbox)
    webhook.requests.clear()

    result = changes.move_own(
        session=session,
        booking_id=placed.id,
        key=_key(placed.id),
        day="2026-06-11",  # as the picker gives it
        start_time="14:00",
        now=NOW,
    )

    assert (result.status, result.changed) == ("pending", True)
    assert booking_statuses(session, placed.id) == ("pending", {"pending"})
    [entry] = _audit(session, "booking_moved_by_customer")
    assert (entry.details["before"]["status"], entry.details["after"]["status"]) == (
        "confirmed",
        "pending",
    )
    staff = session.exec(
        select(NotificationOutbox).where(NotificationOutbox.topic == "booking_change_staff")
    ).one()
    assert staff.payload["reconfirm"] is True
    _sent(engine, session, mailbox)
    [request] = webhook.requests
    with i18n.using("sq"):
        said = i18n.office_gettext("It was confirmed: now pending, confirm the new time again")
    assert said in request["templateParams"][2]


def test_a_move_into_the_cutoff_is_asked_about_first_and_then_taken(session):
    castle = make_service(session, units=1)
    placed = _place(session, [line(castle, DAY, "10:00")])
    key = _key(placed.id)
    # 2 June 14:00 is 30 hours after NOW: past the notice (24 h), inside the cutoff (48 h).
    with pytest.raises(BookingChangeError) as asked:
        changes.move_own(
            session=session,
            booking_id=placed.id,
            key=key,
            day="02.06.2026",
            start_time="14:00",
            now=NOW,
        )
    assert asked.value.code == "inside_cutoff"
    assert asked.value.details == {"hours": 48}
    assert _starts(session, placed.id) == [
        ("Bouncy castle", datetime(2026, 6, 10, 8, 0, tzinfo=UTC))
    ]
    assert _topics(session, placed.id) == sorted(PLACED)

    moved = changes.move_own(
        session=session,
        booking_id=placed.id,
        key=key,
        day="02.06.2026",
        start_time="14:00",
        accept_cutoff=True,
        now=NOW,
    )
    assert moved.changed
    assert _starts(session, placed.id) == [
        ("Bouncy castle", datetime(2026, 6, 2, 12, 0, tzinfo=UTC))
    ]
    # From now on the page offers no change: it says to call.
    options = changes.change_options(session=session, booking_id=placed.id, key=key, now=NOW)
    assert options is not None and not options.allowed


def test_the_moves_picker_offers_the_times_at_which_the_whole_booking_fits(session):
    castle = make_service(session, units=1)
    mascot = make_service(session, title="Mascot", units=1)
    placed = _place(session, [line(castle, DAY, "10:00"), line(mascot, DAY, "11:00")])
    # Someone else has the mascot at 15:00 the next day: the castle alone would fit at 14:00,
    # the booking (its mascot an hour later) does not.
    _place(session, [line(mascot, NEXT_DAY, "15:00")], email="other@example.com")
    key = _key(placed.id)
    session.commit()

    slots = {
        s.start_time: s.available
        for s in changes.move_slots(
            session=session, booking_id=placed.id, day=NEXT_DAY, key=key, now=NOW
        )
    }
    assert _free(session, castle, NEXT_DAY, "14:00")
    assert not slots["14:00"] and slots["12:00"] and slots["16:00"]
    # Its own times stay on offer: the booking does not stand in its own way.
    own = changes.move_slots(session=session, booking_id=placed.id, day=DAY, key=key, now=NOW)
    assert {s.start_time: s.available for s in own}["10:00"]
    # A time offered is one the move takes; one not offered, the move refuses.
    with pytest.raises(BookingChangeError) as refused:
        changes.move_own(
            session=session,
            booking_id=placed.id,
            key=key,
            day=NEXT_DAY,
            start_time="14:00",
            now=NOW,
        )
    assert refused.value.code == "slot_taken"

    days = {
        d.date: d.available
        for d in changes.move_days(
            session=session, booking_id=placed.id, year=2026, month=6, key=key, now=NOW
        )
    }
    assert len(days) == 30
    assert days[NEXT_DAY] and days[DAY]
    assert not days["2026-06-01"]  # within the notice

    # Only the one who may change it is answered; after the cutoff, nobody.
    for act in (
        partial(changes.move_slots, day=NEXT_DAY),
        partial(changes.move_days, year=2026, month=6),
    ):
        with pytest.raises(BookingChangeError) as stranger:
            act(session=session, booking_id=placed.id, key="forged", now=NOW)
        assert stranger.value.code == "not_found"
        with pytest.raises(BookingChangeError) as late:
            act(session=session, booking_id=placed.id, key=key, now=LATE)
        assert late.value.code == "too_late"
