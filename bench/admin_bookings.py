"""The admin bookings list with 10,000 bookings (30,000 items) on PostgreSQL: server time of
the first page, the last (the deepest offset), a filtered page (status and event dates) and a
reference search, as the admin screen asks for them
(`services/booking/admin_list.list_bookings`, count included), plus the full CSV export. Aim:
each page under 300 ms. The page as the browser opens it, at a growing number of bookings:
bench/admin_page.py.

Runs on a throwaway database it creates and drops. Run: `.venv/bin/python bench/admin_bookings.py`.
Rows are bulk-inserted (not through place_booking: that would measure the booking engine).
"""

from __future__ import annotations

import random
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
from storefront.models import Booking, BookingItem, User, booking_reference  # noqa: E402
from storefront.services.booking import admin_list as admin_booking_list  # noqa: E402
from tests.conftest import create_database, migrate  # noqa: E402
from tests.factories import make_service  # noqa: E402

BOOKINGS = 10_000
ITEMS_PER_BOOKING = 3
RUNS = 15
STATUSES = ("pending", "confirmed", "on_the_way", "completed", "cancelled")
START = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)


def booking_rows(services, first: int, count: int, rng: random.Random) -> tuple[list, list]:
    """Bookings number `first` to `first + count - 1` (created 37 minutes apart, statuses
    at random) and their ITEMS_PER_BOOKING items on `services` (rows with .id and .title),
    as dicts for a bulk insert."""
    bookings, items = [], []
    for n in range(first, first + count):
        booking_id = uuid.uuid4()
        created = START + timedelta(minutes=37 * n)
        status = rng.choice(STATUSES)
        bookings.append(
            {
                "id": booking_id,
                "reference": booking_reference(booking_id),
                "idempotency_key": f"bench-{n:08d}",
                "status": status,
                "contact_email": f"guest.{n}@example.com",
                "contact_phone": f"+383 44 {n:06d}",
                "venue_address": "Prishtina",
                "event_type": "birthday",
                "guest_count": 40,
                "total_amount": Decimal("300.00"),
                "currency": "EUR",
                "created_at": created,
                "updated_at": created,
            }
        )
        event = created + timedelta(days=rng.randint(3, 60), hours=rng.randint(0, 8))
        for k in range(ITEMS_PER_BOOKING):
            service = services[(n + k) % len(services)]
            items.append(
                {
                    "id": uuid.uuid4(),
                    "booking_id": booking_id,
                    "service_id": service.id,
                    "service_name": service.title,
                    "service_price": Decimal("100.00"),
                    "quantity": 1,
                    "start_datetime": event + timedelta(hours=k),
                    "end_datetime": event + timedelta(hours=k + 1),
                    "status": status,
                    "created_at": created,
                    "updated_at": created,
                }
            )
    return bookings, items


def insert_bookings(session: Session, services, first: int, count: int, rng) -> list[dict]:
    """`booking_rows` inserted and analysed; returns the bookings' rows."""
    bookings, items = booking_rows(services, first, count, rng)
    if bookings:
        session.execute(Booking.__table__.insert(), bookings)
        session.execute(BookingItem.__table__.insert(), items)
    session.commit()
    session.exec(text("ANALYZE"))
    session.commit()
    return bookings


def _fill(session: Session) -> tuple[str, str]:
    """The rows; returns an admin's id and one booking's reference."""
    admin = User(email="bench-admin@example.com", role="admin")
    session.add(admin)
    services = [make_service(session, title=f"Service {n}", units=50) for n in range(12)]
    session.commit()
    bookings = insert_bookings(session, services, 0, BOOKINGS, random.Random(7))
    return str(admin.id), bookings[BOOKINGS // 2]["reference"]


def _time(engine, fn) -> tuple[float, float, object]:
    """p50 and max of RUNS calls, each in its own session (as a request), in ms."""
    timings, result = [], None
    for _ in range(RUNS):
        with Session(engine) as session:
            began = time.perf_counter()
            result = fn(session)
            timings.append((time.perf_counter() - began) * 1000)
    return statistics.median(timings), max(timings), result


def main() -> None:
    url, drop = create_database("postgresql")
    try:
        migrate(url)
        engine = make_engine(url)
        with Session(engine, expire_on_commit=False) as session:
            began = time.perf_counter()
            admin, reference = _fill(session)
            print(
                f"filled {BOOKINGS} bookings, {BOOKINGS * ITEMS_PER_BOOKING} items in "
                f"{time.perf_counter() - began:.1f} s"
            )
        last = -(-BOOKINGS // admin_booking_list.PER_PAGE)
        cases = {
            "first page (newest 20, count)": (admin_booking_list.BookingFilter(), 1),
            f"last page ({last}: the oldest 20, count)": (admin_booking_list.BookingFilter(), last),
            "filtered page (confirmed, event dates in March)": (
                admin_booking_list.check_filter(
                    status="confirmed", date_from="2026-03-01", date_to="2026-03-31"
                ),
                1,
            ),
            f"reference search ({reference})": (
                admin_booking_list.check_filter(search=reference),
                1,
            ),
            "email search ('guest.42')": (admin_booking_list.check_filter(search="guest.42"), 1),
        }
        print(f"server time per request, median and max of {RUNS} (aim < 300 ms):")
        for label, (filters, number) in cases.items():
            p50, worst, page = _time(
                engine,
                lambda s, f=filters, n=number: admin_booking_list.list_bookings(
                    session=s, actor_id=admin, filters=f, page=n
                ),
            )
            print(f"  {label:55s} {p50:7.1f} ms  (max {worst:6.1f})  {page.total} matching")
        with Session(engine) as session:
            began = time.perf_counter()
            rows = sum(
                1
                for _ in admin_booking_list.export_rows(
                    session=session, actor_id=admin, filters=admin_booking_list.BookingFilter()
                )
            )
            print(
                f"  {'CSV rows of every booking (' + str(rows) + ')':55s} "
                f"{(time.perf_counter() - began) * 1000:7.1f} ms"
            )
        engine.dispose()
    finally:
        drop()


if __name__ == "__main__":
    main()
