"""Twenty guests press 'Complete Booking' for the same slot at once: the lock lets exactly as
many through as there are units, on both databases."""

from __future__ import annotations

import threading
import time
from collections import Counter
from datetime import UTC, datetime

import pytest
from sqlalchemy import func
from sqlmodel import Session, select

from storefront.db import make_engine, reads_one_by_one
from storefront.models import BookingItem
from storefront.services import locks
from storefront.services.booking import lines as booking_lines
from storefront.services.booking import placing
from tests.factories import contact, line, make_service

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
ATTEMPTS = 20


def test_twenty_concurrent_attempts_at_a_two_unit_slot(session, database_url):
    bouncer = make_service(session, units=2)
    session.commit()
    lines = [line(bouncer, "2026-06-10", "10:00", hours=2)]
    start = threading.Barrier(ATTEMPTS)
    outcomes: list[str] = []

    def attempt(number: int) -> None:
        engine = make_engine(database_url)  # its own pool and connection
        try:
            with Session(engine, expire_on_commit=False) as own:
                start.wait()
                try:
                    placing.place_booking(
                        session=own,
                        lines=lines,
                        contact=contact(),
                        idempotency_key=f"race-attempt-{number:04d}",
                        now=NOW,
                    )
                    outcomes.append("booked")
                except booking_lines.BookingError as error:
                    outcomes.append(error.code)
                except Exception as error:  # counted, so the assertion shows it
                    outcomes.append(f"error: {type(error).__name__}: {error}")
        finally:
            engine.dispose()

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(ATTEMPTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert Counter(outcomes) == {"booked": 2, "slot_taken": 18}
    session.rollback()
    held = session.exec(
        select(func.sum(BookingItem.quantity)).where(BookingItem.service_id == bouncer.id)
    ).one()
    assert held == 2


def test_a_double_click_racing_itself_gets_one_booking(session, database_url):
    """Two requests with the same key at once: both answer with the one booking placed."""
    bouncer = make_service(session, units=5)
    session.commit()
    lines = [line(bouncer, "2026-06-10", "10:00")]
    start = threading.Barrier(2)
    answers: list[object] = []

    def attempt() -> None:
        engine = make_engine(database_url)
        try:
            with Session(engine, expire_on_commit=False) as own:
                start.wait()
                answers.append(
                    placing.place_booking(
                        session=own,
                        lines=lines,
                        contact=contact(),
                        idempotency_key="same-double-click",
                        now=NOW,
                    )
                )
        except Exception as error:
            answers.append(error)
        finally:
            engine.dispose()

    threads = [threading.Thread(target=attempt) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(answers) == 2 and answers[0] == answers[1], answers
    session.rollback()
    assert session.exec(select(func.count()).select_from(BookingItem)).one() == 1


# --- waiting for the lock: refused at once once the slot is full (issue 23) ---------------------


def _hold_the_lock(database_url: str, service_id):
    """Another transaction holding the service's booking lock (PostgreSQL), and its release."""
    engine = make_engine(database_url)
    holder = Session(engine)
    locks.take(holder, locks.service(service_id))

    def release() -> None:
        holder.rollback()
        holder.close()
        engine.dispose()

    return release


def _place_in_thread(database_url: str, lines, key: str, outcome: dict) -> threading.Thread:
    def run() -> None:
        engine = make_engine(database_url)
        began = time.monotonic()
        try:
            with Session(engine, expire_on_commit=False) as own:
                outcome["placed"] = placing.place_booking(
                    session=own, lines=lines, contact=contact(), idempotency_key=key, now=NOW
                )
        except booking_lines.BookingError as error:
            outcome["code"] = error.code
        finally:
            outcome["seconds"] = time.monotonic() - began
            engine.dispose()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _castle_held_elsewhere(session, database_url: str, units: int):
    """A service of `units`, a cart line of it, and another transaction holding its lock
    (PostgreSQL only: SQLite has one write lock and no queue to look again from)."""
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite has one write lock and no queue to look again from")
    castle = make_service(session, units=units)
    session.commit()
    lines = [line(castle, "2026-06-10", "10:00", hours=2)]
    return castle, lines, _hold_the_lock(database_url, castle.id)


def test_a_guest_queueing_for_the_lock_is_refused_as_soon_as_the_slot_fills(session, database_url):
    castle, lines, release = _castle_held_elsewhere(session, database_url, units=1)
    try:
        outcome: dict = {}
        waiting = _place_in_thread(database_url, lines, "queued-guest-key", outcome)
        time.sleep(0.3)  # it has looked (room) and is waiting for the lock
        assert waiting.is_alive()
        # Meanwhile the slot is taken (a booking the holder's turn placed, say), and committed.
        with Session(make_engine(database_url)) as other:
            other.add(_item_of(other, castle, "2026-06-10 08:00", "2026-06-10 10:00"))
            other.commit()
        waiting.join(timeout=3)
        # Refused while the lock is still held by the other transaction, not after a turn.
        assert not waiting.is_alive()
        assert outcome["code"] == "slot_taken"
        assert outcome["seconds"] < locks.LOCK_TIMEOUT_SECONDS
    finally:
        release()


def test_a_guest_queueing_at_a_slot_with_room_books_once_the_lock_is_free(session, database_url):
    castle, lines, release = _castle_held_elsewhere(session, database_url, units=2)
    outcome: dict = {}
    try:
        waiting = _place_in_thread(database_url, lines, "patient-guest-key", outcome)
        time.sleep(0.4)
        assert waiting.is_alive()  # room, so it keeps waiting rather than giving up
    finally:
        release()
    waiting.join(timeout=5)
    assert "placed" in outcome, outcome
    assert _placed_units(session, castle) == 1


def _item_of(session, service, start: str, end: str):
    """A confirmed booking of one unit of `service` from `start` to `end` (UTC)."""
    from storefront.models import Booking

    taken = Booking(
        reference="MG-TAKEN001",
        idempotency_key="taken-elsewhere-key",
        status="confirmed",
        contact_name="Someone Else",
        contact_email="else@example.com",
        contact_phone="+38344000000",
        venue_address="Somewhere",
        event_type="other",
        guest_count=10,
        total_amount=100,
        currency="EUR",
    )
    session.add(taken)
    session.flush()
    return BookingItem(
        booking_id=taken.id,
        service_id=service.id,
        service_name=service.title,
        service_price=100,
        unit_price=100,
        price_unit="per_event",
        quantity=1,
        start_datetime=datetime.fromisoformat(start).replace(tzinfo=UTC),
        end_datetime=datetime.fromisoformat(end).replace(tzinfo=UTC),
        status="confirmed",
    )


def _placed_units(session, service) -> int:
    session.rollback()
    return session.exec(
        select(func.sum(BookingItem.quantity)).where(BookingItem.service_id == service.id)
    ).one()


def _autocommit(session: Session) -> bool:
    """Whether the session's PostgreSQL connection runs each statement on its own (the
    driver's flag); SQLite's is never switched."""
    if session.get_bind().dialect.name != "postgresql":
        return False
    dbapi = session.connection().connection.dbapi_connection
    return bool(getattr(dbapi, "autocommit", False))


def test_the_first_look_reads_outside_a_transaction_and_the_lock_is_taken_inside_one(
    session, database_url
):
    """The first look's reads run one by one (PostgreSQL: autocommit, no BEGIN and ROLLBACK
    around them); what follows in the same session, the lock and the booking, is one
    transaction again: an advisory transaction lock taken in autocommit would be let go at once."""
    engine = make_engine(database_url)
    postgres = engine.dialect.name == "postgresql"
    try:
        with Session(engine) as own:
            reads_one_by_one(own)
            assert _autocommit(own) is postgres
            own.rollback()
            assert _autocommit(own) is False
            own.rollback()

        # A booking placed after a first look holds its lock until it commits: a second guest
        # at the same one-unit slot, racing it, is refused, never booked beside it.
        bouncer = make_service(session, units=1)
        session.commit()
        outcomes: list[str] = []

        def attempt(number: int) -> None:
            with Session(engine, expire_on_commit=False) as own:
                try:
                    placing.place_booking(
                        session=own,
                        lines=[line(bouncer, "2026-06-10", "10:00")],
                        contact=contact(email=f"first-look{number}@example.com"),
                        idempotency_key=f"first-look-{number:04d}",
                        now=NOW,
                    )
                    outcomes.append("booked")
                except booking_lines.BookingError as error:
                    outcomes.append(error.code)

        threads = [threading.Thread(target=attempt, args=(n,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert Counter(outcomes)["booked"] == 1, outcomes
        held = session.exec(
            select(func.count()).select_from(BookingItem).where(BookingItem.status == "pending")
        ).one()
        assert held == 1
    finally:
        engine.dispose()
