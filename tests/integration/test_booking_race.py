"""Twenty guests press 'Complete Booking' for the same slot at once: the lock lets exactly as
many through as there are units, on both databases."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import UTC, datetime

from sqlalchemy import func
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import BookingItem
from storefront.services import booking
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
                    booking.place_booking(
                        session=own,
                        lines=lines,
                        contact=contact(),
                        idempotency_key=f"race-attempt-{number:04d}",
                        now=NOW,
                    )
                    outcomes.append("booked")
                except booking.BookingError as error:
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
                    booking.place_booking(
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
