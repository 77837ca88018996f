"""How long the calendar takes: `month_days` and `day_slots` for a service with 5,000 booking
items over two years, on SQLite and PostgreSQL, warm (aim < 20 ms a call). Two months far apart
in the history cost the same: the work grows with the month shown, not with the history.

Runs on throwaway databases it creates and drops. Run: `.venv/bin/python bench/availability.py`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
import uuid
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlmodel import Session  # noqa: E402

from storefront.db import make_engine  # noqa: E402
from storefront.models import Booking, BookingItem, utcnow  # noqa: E402
from storefront.services.booking import availability  # noqa: E402
from tests.conftest import create_database, migrate  # noqa: E402
from tests.factories import make_service  # noqa: E402

ITEMS = 5_000
FIRST_DAY = date(2025, 1, 1)
DAYS = 730
NOW = datetime(2024, 12, 1, tzinfo=UTC)  # before the history, so every slot is checked
MONTHS = [(2025, 2), (2026, 11)]
CALLS = 30


def _fill(session: Session, service_id: uuid.UUID) -> None:
    rng = random.Random(7)
    bookings, items = [], []
    for n in range(ITEMS):
        booking_id = uuid.uuid4()
        day = FIRST_DAY + timedelta(days=rng.randrange(DAYS))
        start = datetime(day.year, day.month, day.day, rng.randrange(6, 16), tzinfo=UTC)
        bookings.append(
            {
                "id": booking_id,
                "reference": "MG-" + str(booking_id)[:8].upper(),
                "idempotency_key": f"bench-{n:06d}",
                "status": "confirmed",
                "contact_email": "bench@example.com",
                "contact_phone": "+38344000000",
                "venue_address": "",
                "total_amount": Decimal("100.00"),
                "currency": "EUR",
                "created_at": utcnow(),
                "updated_at": utcnow(),
            }
        )
        items.append(
            {
                "id": uuid.uuid4(),
                "booking_id": booking_id,
                "service_id": service_id,
                "service_name": "Castle",
                "service_price": Decimal("100.00"),
                "quantity": 1,
                "start_datetime": start,
                "end_datetime": start + timedelta(hours=rng.randint(1, 4)),
                "status": rng.choice(["pending", "confirmed", "completed", "cancelled"]),
                "created_at": utcnow(),
                "updated_at": utcnow(),
            }
        )
    session.execute(Booking.__table__.insert(), bookings)
    session.execute(BookingItem.__table__.insert(), items)
    session.commit()


def _ms_per_call(call) -> float:
    call()  # warm: compiled statements, zone data, connection in the pool
    timings = []
    for _ in range(CALLS):
        began = time.perf_counter()
        call()
        timings.append((time.perf_counter() - began) * 1000)
    return statistics.median(timings)


def _bench(backend: str) -> None:
    url, drop = create_database(backend)
    try:
        migrate(url)
        engine = make_engine(url)
        with Session(engine) as session:
            service = make_service(session, title="Castle", units=3, buffer_minutes=60)
            service_id = service.id
            session.commit()
            _fill(session, service_id)
        print(f"\n{backend}: {ITEMS} booking items over {DAYS} days, median of {CALLS} warm calls")
        for year, month in MONTHS:

            def month_view(year=year, month=month):
                with Session(engine) as session:
                    return availability.month_days(
                        session=session, service_id=service_id, year=year, month=month, now=NOW
                    )

            def day_view(year=year, month=month):
                with Session(engine) as session:
                    return availability.day_slots(
                        session=session,
                        service_id=service_id,
                        day=date(year, month, 15),
                        duration_hours=2,
                        quantity=1,
                        now=NOW,
                    )

            free_days = sum(d.available for d in month_view())
            print(
                f"  {year}-{month:02d}  month_days {_ms_per_call(month_view):6.1f} ms"
                f"  ({free_days} days free)   day_slots {_ms_per_call(day_view):5.1f} ms"
            )
        engine.dispose()
    finally:
        drop()


def main() -> None:
    for backend in ("sqlite", "postgresql"):
        _bench(backend)


if __name__ == "__main__":
    main()
