"""Concurrent bookings on PostgreSQL: does the lock hold, and how long do guests wait?

1. 200 attempts at the same slot of a service with 3 units, twice:
   a. as a burst of 200 guests reaches one worker: through its engine (storefront.db.make_engine,
      its pool) and at most as many at once as the worker has threads for service calls
      (state/base.call_service runs them with asyncio.to_thread: WORKER_THREADS); each
      attempt's time runs from the burst's start, its wait for a thread included;
   b. each attempt on a connection of its own, opened when it starts (at most MAX_OPEN at the
      same moment: PostgreSQL's max_connections, 100 here, is shared), timed from its start.
   Prints successes, refusals, errors, deadlocks and p50/p95 latency (aim: exactly 3
   successes, 0 errors in both; p95 < 500 ms through a worker, 1a: 1b measures PostgreSQL with
   60 guests arriving on new connections at once, docs/performance.md, 'A burst at one slot').
2. 20 carts of the same 3 services, each listing them in a different order, all at once:
   prints deadlocks (aim 0) and checks by query that no service is overbooked.

Runs on a throwaway database it creates and drops. Run: `.venv/bin/python bench/booking_race.py`.
"""

from __future__ import annotations

import itertools
import os
import statistics
import sys
import threading
import time
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402
from sqlalchemy.exc import OperationalError  # noqa: E402
from sqlalchemy.pool import NullPool  # noqa: E402
from sqlmodel import Session, create_engine  # noqa: E402

from storefront.db import POOL_OVERFLOW, POOL_SIZE, make_engine  # noqa: E402
from storefront.services.booking import lines as booking_lines  # noqa: E402
from storefront.services.booking import placing  # noqa: E402
from tests.conftest import create_database, migrate  # noqa: E402
from tests.factories import contact, line, make_service  # noqa: E402

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "2026-06-10"
NEXT_DAY = "2026-06-11"
ATTEMPTS = 200
UNITS = 3
CARTS = 20
MAX_OPEN = 60
# The threads of asyncio's default executor, which runs a worker's service calls.
WORKER_THREADS = min(32, (os.cpu_count() or 1) + 4)


def _pg_engine(url: str):
    """One connection per attempt, opened when the attempt starts and closed after it."""
    return create_engine(
        url.replace("postgresql://", "postgresql+psycopg://", 1), poolclass=NullPool
    )


def _run_attempts(
    url: str, carts: list[list[booking_lines.BookingLine]], prefix: str, *, pooled: bool = False
):
    engine = make_engine(url) if pooled else _pg_engine(url)
    # One worker's threads (their wait is part of the time), or PostgreSQL's room for connections.
    gate = threading.Semaphore(WORKER_THREADS if pooled else MAX_OPEN)
    start = threading.Barrier(len(carts))
    results: list[tuple[str, float]] = []
    lock = threading.Lock()

    def attempt(number: int, lines: list[booking_lines.BookingLine]) -> None:
        start.wait()
        burst = time.perf_counter()
        with gate:
            began = burst if pooled else time.perf_counter()
            try:
                with Session(engine, expire_on_commit=False) as session:
                    placing.place_booking(
                        session=session,
                        lines=lines,
                        # 200 guests, not one guest 200 times: one email or phone may place
                        # only BOOKING_LIMIT_PER_EMAIL / _PHONE bookings a day.
                        contact=contact(
                            email=f"guest{number}@example.com",
                            phone=f"+383 44 {100000 + number}",
                        ),
                        idempotency_key=f"{prefix}-{number:05d}",
                        now=NOW,
                    )
                outcome = "booked"
            except booking_lines.BookingError as error:
                outcome = error.code
            except OperationalError as error:
                deadlock = getattr(error.orig, "sqlstate", "") == "40P01"
                outcome = "deadlock" if deadlock else f"error: {error.orig}"
            except Exception as error:
                outcome = f"error: {type(error).__name__}: {error}"
            elapsed = (time.perf_counter() - began) * 1000
        with lock:
            results.append((outcome, elapsed))

    threads = [threading.Thread(target=attempt, args=(n, cart)) for n, cart in enumerate(carts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    engine.dispose()
    return results


def _report(title: str, results: list[tuple[str, float]]) -> Counter:
    outcomes = Counter(o for o, _ in results)
    latencies = sorted(ms for _, ms in results)
    p95 = latencies[max(0, int(len(latencies) * 0.95) - 1)]
    errors = sum(n for o, n in outcomes.items() if o.startswith("error"))
    print(f"\n{title}")
    print(f"  attempts   {len(results)}")
    print(f"  successes  {outcomes['booked']}")
    print(f"  refusals   {outcomes['slot_taken']} (slot_taken)")
    print(f"  errors     {errors}")
    print(f"  deadlocks  {outcomes['deadlock']}")
    print(f"  latency    p50 {statistics.median(latencies):.0f} ms, p95 {p95:.0f} ms")
    for outcome, count in outcomes.items():
        if outcome.startswith("error"):
            print(f"    {count} x {outcome[:200]}")
    return outcomes


# Every holding item whose service, at its start, has more units out than it owns, counting
# overlaps and the buffer (tests/faults uses it too).
OVERBOOKED = """
SELECT s.title, SUM(o.quantity) AS out, COALESCE(c.total_units, 1) AS units
FROM booking_items i
JOIN services s ON s.id = i.service_id
LEFT JOIN service_capacity c ON c.service_id = i.service_id
JOIN booking_items o ON o.service_id = i.service_id
  AND o.start_datetime <= i.start_datetime
  AND o.end_datetime + make_interval(mins => COALESCE(c.buffer_time_minutes, 0))
      > i.start_datetime
  AND o.status IN ('pending', 'confirmed', 'on_the_way')
WHERE i.status IN ('pending', 'confirmed', 'on_the_way')
GROUP BY i.id, s.title, c.total_units
HAVING SUM(o.quantity) > COALESCE(c.total_units, 1)
"""


def _overbooked(url: str) -> list[tuple[str, int, int]]:
    """Every holding item whose service, at its start, has more units out than it owns."""
    engine = make_engine(url)
    with engine.connect() as conn:
        rows = [tuple(r) for r in conn.execute(text(OVERBOOKED)).all()]
    engine.dispose()
    return rows


def main() -> None:
    url, drop = create_database("postgresql")
    try:
        migrate(url)
        engine = make_engine(url)
        with Session(engine) as session:
            castle = make_service(session, title="Castle", units=UNITS)
            trio = [
                make_service(session, title=name, units=5)
                for name in ("Bubble house", "Mascot", "Popcorn")
            ]
            session.commit()
            castle_line = line(castle, DAY, "10:00", hours=2)
            trio_lines = [line(s, DAY, "14:00", hours=2) for s in trio]
        engine.dispose()

        print(f"PostgreSQL, {ATTEMPTS} attempts at one slot of a {UNITS}-unit service")
        first = _report(
            f"1a. through one worker ({WORKER_THREADS} threads, a pool of {POOL_SIZE} + "
            f"{POOL_OVERFLOW} connections), timed from the burst's start",
            _run_attempts(url, [[castle_line]] * ATTEMPTS, "pooled", pooled=True),
        )
        # The same slot a day later, so that this burst too starts with nothing booked.
        own_line = replace(castle_line, date=NEXT_DAY)
        first_own = _report(
            f"1b. each attempt its own connection (at most {MAX_OPEN} open), timed from its start",
            _run_attempts(url, [[own_line]] * ATTEMPTS, "same-slot"),
        )
        orders = list(itertools.permutations(trio_lines))
        carts = [list(orders[n % len(orders)]) for n in range(CARTS)]
        second = _report(
            f"2. {CARTS} carts of the same 3 services (5 units each) in {len(orders)} orders",
            _run_attempts(url, carts, "three-services"),
        )
        overbooked = _overbooked(url)
        print(f"  overbooked (by query): {len(overbooked)} {overbooked or ''}")
        ok = (
            first["booked"] == UNITS
            and first["deadlock"] == 0
            and first_own["booked"] == UNITS
            and first_own["deadlock"] == 0
            and second["deadlock"] == 0
            and second["booked"] == 5
            and not overbooked
        )
        print("\nresult:", "as expected" if ok else "NOT AS EXPECTED")
    finally:
        drop()


if __name__ == "__main__":
    main()
