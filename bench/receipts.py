"""Receipts at 10,000 bookings (docs/payments.md, 'Receipts'): the time to give a booking its
number (`receipts.give_number` and the commit, as `ledger.record_payment` gives it; and the
admin's `issue_receipt`, audited) and to draw a receipt PDF (`receipt_pdf.receipt_pdf`: the
booking's rows, its payments and balance, three lines, fpdf2 with the bundled fonts), as
median and p95 of RUNS calls, each in its own session as a request is.

The database holds 10,000 bookings (30,000 items), half of them numbered (this year's highest is
5,000) and with a payment. PostgreSQL when TEST_DATABASE_URL is set, else SQLite; a throwaway
database, created and dropped. Rows are bulk-inserted. About a minute.

Run: `.venv/bin/python bench/receipts.py [runs]`.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402
from sqlmodel import Session  # noqa: E402

from storefront.db import make_engine  # noqa: E402
from storefront.models import (  # noqa: E402
    Booking,
    BookingItem,
    Payment,
    Receipt,
    User,
    booking_reference,
)
from storefront.services.payments import receipt_pdf, receipts  # noqa: E402
from tests.conftest import create_database, migrate  # noqa: E402

BOOKINGS = 10_000
ITEMS_PER_BOOKING = 3
NUMBERED = BOOKINGS // 2
START = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 11, 28, 10, 0, tzinfo=UTC)


def _fill(session: Session) -> tuple[str, list[uuid.UUID]]:
    """The rows; returns an admin's id and the bookings' ids, numbered ones first."""
    admin = User(email="bench-admin@example.com", role="admin", full_name="Bench Admin")
    session.add(admin)
    session.commit()
    bookings, items, numbers, payments, ids = [], [], [], [], []
    for n in range(BOOKINGS):
        booking_id = uuid.uuid4()
        ids.append(booking_id)
        created = START + timedelta(minutes=37 * n)
        bookings.append(
            {
                "id": booking_id,
                "reference": booking_reference(booking_id),
                "idempotency_key": f"bench-{n:08d}",
                "status": "confirmed",
                "contact_name": "Arbër Çeliku",
                "contact_email": f"guest.{n}@example.com",
                "contact_phone": f"+383 44 {n:06d}",
                "venue_address": "Rruga Nëna Terezë 4",
                "city": "Gjakovë",
                "event_type": "wedding",
                "guest_count": 40,
                "total_amount": Decimal("315.00"),
                "transport_amount": Decimal("15.00"),
                "deposit_amount": Decimal("0"),
                "currency": "EUR",
                "language": "sq" if n % 2 else "en",
                "created_at": created,
                "updated_at": created,
            }
        )
        event = created + timedelta(days=20)
        for k in range(ITEMS_PER_BOOKING):
            items.append(
                {
                    "id": uuid.uuid4(),
                    "booking_id": booking_id,
                    "service_name": f"Dekor me çadër {k + 1}",
                    "service_price": Decimal("100.00"),
                    "unit_price": Decimal("50.00"),
                    "price_unit": "per_hour",
                    "quantity": 1,
                    "start_datetime": event + timedelta(hours=2 * k),
                    "end_datetime": event + timedelta(hours=2 * k + 2),
                    "status": "confirmed",
                    "created_at": created,
                    "updated_at": created,
                }
            )
        if n < NUMBERED:
            numbers.append(
                {
                    "id": uuid.uuid4(),
                    "booking_id": booking_id,
                    "year": 2026,
                    "sequence": n + 1,
                    "issued_at": created,
                    "issued_by_id": admin.id,
                }
            )
            payments.append(
                {
                    "id": uuid.uuid4(),
                    "booking_id": booking_id,
                    "kind": "payment",
                    "amount": Decimal("100.00"),
                    "currency": "EUR",
                    "method": "cash",
                    "note": "",
                    "recorded_by_id": admin.id,
                    "recorded_by_name": "Bench Admin",
                    "recorded_at": created,
                    "idempotency_key": f"bench-pay-{n:08d}",
                }
            )
    session.execute(Booking.__table__.insert(), bookings)
    session.execute(BookingItem.__table__.insert(), items)
    session.execute(Receipt.__table__.insert(), numbers)
    session.execute(Payment.__table__.insert(), payments)
    session.commit()
    session.exec(text("ANALYZE"))
    session.commit()
    return str(admin.id), ids


def _summary(timings: list[float]) -> str:
    timings = sorted(timings)
    p95 = timings[min(len(timings) - 1, round(0.95 * (len(timings) - 1)))]
    return f"median {statistics.median(timings):7.1f} ms   p95 {p95:7.1f} ms   (n={len(timings)})"


def _timed(engine, ids, work) -> list[float]:
    timings = []
    for booking_id in ids:
        with Session(engine, expire_on_commit=False) as session:
            began = time.perf_counter()
            work(session, booking_id)
            timings.append((time.perf_counter() - began) * 1000)
    return timings


def main(runs: int) -> None:
    backend = "postgresql" if os.environ.get("TEST_DATABASE_URL") else "sqlite"
    url, drop = create_database(backend)
    try:
        migrate(url)
        engine = make_engine(url)
        with Session(engine, expire_on_commit=False) as session:
            began = time.perf_counter()
            admin, ids = _fill(session)
            print(
                f"{backend}: {BOOKINGS} bookings, {BOOKINGS * ITEMS_PER_BOOKING} items, "
                f"{NUMBERED} numbered, filled in {time.perf_counter() - began:.1f} s"
            )
        fresh = iter(ids[NUMBERED:])

        def give(session: Session, booking_id: uuid.UUID) -> None:
            receipts.give_number(session, session.get(Booking, booking_id), now=NOW)
            session.commit()

        def issue(session: Session, booking_id: uuid.UUID) -> None:
            receipts.issue_receipt(session=session, actor_id=admin, booking_id=booking_id, now=NOW)

        def draw(session: Session, booking_id: uuid.UUID) -> None:
            assert receipt_pdf.receipt_pdf(session, booking_id)

        _timed(engine, [next(fresh)], give)  # warm: the first connection, the imports
        _timed(engine, ids[:2], draw)  # warm: the fonts' first reading from disk
        print(
            "give a number (new, + commit)  ",
            _summary(_timed(engine, [next(fresh) for _ in range(runs)], give)),
        )
        print(
            "issue receipt (admin, audited) ",
            _summary(_timed(engine, [next(fresh) for _ in range(runs)], issue)),
        )
        print(
            "reissue (keeps its number)     ", _summary(_timed(engine, ids[10 : 10 + runs], issue))
        )
        print(
            "draw the receipt PDF           ", _summary(_timed(engine, ids[100 : 100 + runs], draw))
        )
        engine.dispose()
    finally:
        drop()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
