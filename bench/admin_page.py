"""The admin bookings page as the admin's browser opens it, while the bookings grow: does its
time grow with them, or with how deep the admin pages? (issue 38: the soak's admin line).

Starts what `make soak` starts (`make run-prod WORKERS=4` on PostgreSQL, Redis, S3 and a mail
server, bench/soak.py's `site`), with no other traffic, and bulk-inserts bookings in steps
(bench/admin_bookings.py's rows: 3 items each) to 150, 450 and 2,000. At each step one signed-in
admin tab opens the bookings page, then its first, second and fifth page and its last, in turn,
`ROUNDS` times each (in turn, so a slower minute of the machine falls on all of them), each
timed as the browser's navigation (the on-load events until the page is hydrated again, the
soak's `Visitor.visit`). Prints the p50 and p95 of each page at each step. A page whose work
grew with the bookings or the offset would show as the last column or the last row climbing.

Run: `TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test .venv/bin/python
bench/admin_page.py` (about 3 minutes).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import drift, soak  # noqa: E402
from bench.admin_bookings import insert_bookings  # noqa: E402

STEPS = (150, 450, 2000)
ROUNDS = 100
PAUSE = 0.02  # seconds between two visits


def _fill_to(database_url: str, have: int, want: int, rng: random.Random) -> None:
    from sqlmodel import Session, create_engine, select

    from storefront.models import Service

    engine = create_engine(database_url)
    with Session(engine) as session:
        services = session.exec(select(Service).order_by(Service.display_order)).all()[:12]
        insert_bookings(session, services, have, want - have, rng)
    engine.dispose()


async def _pages(url: str, cookie: str, names: dict, pages: list[int]) -> dict[int, list[float]]:
    from storefront.services.accounts import auth

    record = soak.Record()
    tab = soak.Visitor(url, record, names, {"Cookie": f"{auth.COOKIE_NAME}={cookie}"})
    took: dict[int, list[float]] = {page: [] for page in pages}
    try:
        await tab.open("open", "/admin/bookings")
        for _ in range(ROUNDS):
            for page in pages:
                started = time.perf_counter()
                await tab.visit(
                    "page", "/admin/bookings", {"page": str(page)} if page > 1 else None
                )
                took[page].append((time.perf_counter() - started) * 1000)
                await asyncio.sleep(PAUSE)
    finally:
        await tab.close()
    return took


def main() -> None:
    from storefront.services.booking.admin_list import PER_PAGE

    names = soak.event_names()
    rng = random.Random(7)
    with soak.site(Path(tempfile.mkdtemp(prefix="admin-page-"))) as running:
        have = 0
        print(f"the admin bookings page, {ROUNDS} visits of each page in turn, p50 / p95 in ms:")
        for want in STEPS:
            _fill_to(running.database_url, have, want, rng)
            have = want
            last = -(-have // PER_PAGE)
            pages = sorted({1, 2, 5, last})
            took = asyncio.run(_pages(running.url, running.admin_cookie, names, pages))
            print(
                f"  {have:5d} bookings: "
                + ", ".join(
                    f"page {page}: {statistics.median(ms):.1f} / {drift.percentile(ms, 0.95):.1f}"
                    for page, ms in took.items()
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
