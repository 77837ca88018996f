"""The owner's reports (services/operations/reports.py) at 10,000 bookings over a year: server
time of each report of one month, median and 95th percentile of RUNS calls, each in its own
session as a request makes it. Aim: each under 300 ms (issue 36, item 6).

The database: PostgreSQL when TEST_DATABASE_URL is set (a throwaway database on that server,
dropped afterwards), else a throwaway SQLite file. 10,000 bookings over 2026 with one to three
lines each across 15 services in 4 categories (weekly hours, capacity, blocked days), about one
in ten cancelled; payments on most of the rest (some part-paid, some reversed). Rows are
bulk-inserted, not placed through the booking engine (that would measure the engine).

Run: `make bench-reports`, or `TEST_DATABASE_URL=postgresql://... .venv/bin/python
bench/reports.py [--runs 30]`.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402
from sqlmodel import Session  # noqa: E402

from storefront.db import make_engine  # noqa: E402
from storefront.models import (  # noqa: E402
    BlockedDate,
    Booking,
    BookingItem,
    Payment,
    ServiceAvailability,
    ServiceCategory,
    User,
    booking_reference,
)
from storefront.services.operations import reports  # noqa: E402
from tests.conftest import create_database, migrate  # noqa: E402
from tests.factories import make_service  # noqa: E402

BOOKINGS = 10_000
SERVICES = 15
YEAR_START = datetime(2026, 1, 1, 8, 0, tzinfo=UTC)
MONTH = "2026-06"
NOW = datetime(2026, 12, 31, 12, 0, tzinfo=UTC)
FILL_LIMIT_S = 300  # the fill stops (and says so) if it takes longer than this


def _fill(session: Session) -> str:
    """The rows; returns an admin's id."""
    admin = User(email="bench-admin@example.com", role="admin")
    session.add(admin)
    categories = [ServiceCategory(name=f"Category {n}", slug=f"category-{n}") for n in range(4)]
    session.add_all(categories)
    session.flush()
    services = []
    for n in range(SERVICES):
        service = make_service(
            session,
            title=f"Service {n}",
            units=1 + n % 4,
            hours=[(day, "09:00", "21:00", 60, 5) for day in range(7) if day != n % 7],
        )
        service.category_id = categories[n % len(categories)].id
        services.append(service)
    session.add(BlockedDate(start_date=date(2026, 6, 15), end_date=date(2026, 6, 16)))
    session.add(
        BlockedDate(
            service_id=services[0].id,
            start_date=date(2026, 12, 24),
            end_date=date(2026, 12, 26),
            is_recurring_yearly=True,
        )
    )
    session.add(
        ServiceAvailability(
            service_id=services[1].id,
            day_of_week=0,
            start_time=clock(9),
            end_time=clock(12),
            is_available=False,
        )
    )
    session.commit()
    rng = random.Random(36)
    began = time.perf_counter()
    bookings, items, payments = [], [], []
    for n in range(BOOKINGS):
        if time.perf_counter() - began > FILL_LIMIT_S:
            print(f"fill stopped at {n} bookings after {FILL_LIMIT_S} s")
            break
        booking_id = uuid.uuid4()
        event = YEAR_START + timedelta(days=rng.randrange(365), hours=rng.randrange(12))
        created = event - timedelta(days=rng.randint(2, 60))
        status = "cancelled" if rng.random() < 0.1 else rng.choice(("confirmed", "completed"))
        lines_total = Decimal("0")
        for k in range(rng.randint(1, 3)):
            service = services[rng.randrange(SERVICES)]
            hours = rng.randint(1, 4)
            quantity = rng.randint(1, 2)
            price = Decimal(rng.choice((40, 60, 75, 120, 150))) * hours
            lines_total += price * quantity
            start = event + timedelta(minutes=30 * k)
            items.append(
                {
                    "id": uuid.uuid4(),
                    "booking_id": booking_id,
                    "service_id": service.id,
                    "service_name": service.title,
                    "service_price": price,
                    "unit_price": price / hours,
                    "price_unit": "per_hour",
                    "quantity": quantity,
                    "start_datetime": start,
                    "end_datetime": start + timedelta(hours=hours),
                    "status": status,
                    "created_at": created,
                    "updated_at": created,
                }
            )
        transport = Decimal(rng.choice((0, 0, 10, 25)))
        total = lines_total + transport
        bookings.append(
            {
                "id": booking_id,
                "reference": booking_reference(booking_id),
                "idempotency_key": f"bench-{n:08d}",
                "status": status,
                "contact_name": f"Guest {n}",
                "contact_email": f"guest.{n}@example.com",
                "contact_phone": f"+383 44 {n:06d}",
                "venue_address": "Prishtina",
                "total_amount": total,
                "transport_amount": transport,
                "currency": "EUR",
                "created_at": created,
                "updated_at": created,
            }
        )
        if status == "cancelled" or rng.random() < 0.15:
            continue  # unpaid
        paid_at = event + timedelta(hours=rng.randint(2, 30))
        amount = total if rng.random() < 0.8 else (total / 2).quantize(Decimal("0.01"))
        payment_id = uuid.uuid4()
        payments.append(_payment(payment_id, booking_id, amount, paid_at, None))
        if rng.random() < 0.05:
            payments.append(
                _payment(uuid.uuid4(), booking_id, -amount, paid_at + timedelta(days=3), payment_id)
            )
    session.execute(Booking.__table__.insert(), bookings)
    session.execute(BookingItem.__table__.insert(), items)
    session.execute(Payment.__table__.insert(), [p for p in payments if p["kind"] == "payment"])
    session.execute(Payment.__table__.insert(), [p for p in payments if p["kind"] == "reversal"])
    session.commit()
    session.exec(text("ANALYZE"))
    session.commit()
    print(
        f"filled {len(bookings)} bookings, {len(items)} lines, {len(payments)} payments "
        f"in {time.perf_counter() - began:.1f} s"
    )
    return str(admin.id)


def _payment(payment_id, booking_id, amount, when, reverses):
    return {
        "id": payment_id,
        "booking_id": booking_id,
        "kind": "reversal" if reverses else "payment",
        "amount": amount,
        "currency": "EUR",
        "method": "cash",
        "note": "bench",
        "reverses_id": reverses,
        "recorded_by_name": "Bench",
        "recorded_at": when,
        "idempotency_key": uuid.uuid4().hex,
    }


def _time(engine, runs: int, fn) -> tuple[float, float, object]:
    """Median and 95th percentile of `runs` calls in ms, each in its own session."""
    timings, result = [], None
    for _ in range(runs):
        with Session(engine) as session:
            began = time.perf_counter()
            result = fn(session)
            timings.append((time.perf_counter() - began) * 1000)
    timings.sort()
    p95 = timings[min(len(timings) - 1, round(0.95 * (len(timings) - 1)))]
    return statistics.median(timings), p95, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    backend = "postgresql" if os.environ.get("TEST_DATABASE_URL") else "sqlite"
    url, drop = create_database(backend)
    try:
        migrate(url)
        engine = make_engine(url)
        with Session(engine, expire_on_commit=False) as session:
            admin = _fill(session)
        month = reports.parse_month(MONTH)
        cases = {
            "revenue (booked and collected)": lambda s: reports.revenue(session=s, month=month),
            "utilisation per service": lambda s: reports.utilisation(session=s, month=month),
            "cancellations": lambda s: reports.cancellations(session=s, month=month),
            "unpaid after the event (oldest 200)": lambda s: reports.unpaid(session=s, now=NOW),
            "unpaid after the event (all, the CSV)": lambda s: reports.unpaid(
                session=s, now=NOW, limit=None
            ),
            "the whole screen (monthly_report)": lambda s: reports.monthly_report(
                session=s, actor_id=admin, month=MONTH, now=NOW
            ),
        }
        print(
            f"{backend}, month {MONTH}: server time per report, median and p95 of {runs} runs "
            "(aim < 300 ms):"
        )
        worst = 0.0
        for n, (label, fn) in enumerate(cases.items()):
            p50, p95, _ = _time(engine, runs, fn)
            if n < 4:  # the four reports the aim is about (not their sum, not the whole CSV)
                worst = max(worst, p95)
            print(f"  {label:42s} {p50:7.1f} ms  (p95 {p95:6.1f})")
        verdict = "within" if worst < 300 else "OVER"
        print(f"slowest report's p95: {worst:.1f} ms ({verdict} the aim of 300 ms)")
        engine.dispose()
    finally:
        drop()


if __name__ == "__main__":
    main()
