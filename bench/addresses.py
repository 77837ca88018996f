"""What answering old and unknown addresses of the catalogue (api/addresses.py) costs a current
one: requests per second for a service's page at its slug (`/services/jungle-safari`), served
from the production build in `.web` through the app's own ASGI layers, without the layer
(before) and with it (after), in one process on a fresh SQLite database with the demo
catalogue. The layer's lookup is the catalogue cache's, as the page's own: each round reads the
catalogue's version at most once a second (CATALOGUE_CACHE_SECONDS), as a worker does.

Needs the build (`python -m storefront.prod build`, or any browser test run).
Run: `.venv/bin/python bench/addresses.py [requests per round]`.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)  # Reflex finds `.web` from the working folder

from tests.conftest import create_database, migrate  # noqa: E402

PATH = "/services/jungle-safari"  # a theme of the demo catalogue, at its slug
ROUNDS = 5


async def _rate(app, count: int) -> float:
    import httpx

    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        for _ in range(50):  # warm: the page's file, the cache's entry
            assert (await client.get(PATH)).status_code == 200
        start = time.perf_counter()
        for _ in range(count):
            response = await client.get(PATH)
            assert response.status_code == 200, response.status_code
        return count / (time.perf_counter() - start)


def _own_work(count: int = 20_000) -> float:
    """The layer's work for a current address, alone (µs): read the address, answer it from
    the cache in the event loop. The rates above share the machine with whatever else runs."""
    from storefront.db import get_engine, session_scope
    from storefront.services import cache as catalog_cache
    from storefront.services.catalog import addresses

    with session_scope() as session:  # the version read just now: the cache may answer
        addresses.answer(addresses.entry_of(PATH), session=session)
    start = time.perf_counter()
    for _ in range(count):
        entry = addresses.entry_of(PATH)
        found = catalog_cache.fresh(
            addresses.answer, {"entry": entry}, database=str(get_engine().url)
        )
        assert found == addresses.SERVE, found
    return (time.perf_counter() - start) / count * 1e6


def main(count: int) -> None:
    database_url, drop = create_database("sqlite")
    try:
        migrate(database_url)
        env = os.environ | {"DATABASE_URL": database_url, "ENVIRONMENT": "test"}
        subprocess.run([sys.executable, "-m", "storefront.seed"], cwd=ROOT, env=env, check=True)
        os.environ.update({"DATABASE_URL": database_url, "ENVIRONMENT": "test"})

        from reflex.utils.exec import get_frontend_mount
        from starlette.applications import Starlette

        from storefront.api.addresses import catalogue_addresses
        from storefront.api.media import static_files
        from storefront.services import cache as catalog_cache

        served = static_files(Starlette(routes=[get_frontend_mount()]))
        apps = {"before": served, "after": catalogue_addresses(served)}
        rates: dict[str, list[float]] = {name: [] for name in apps}
        for round_ in range(ROUNDS):  # alternate, so both meet the same machine
            for name in sorted(apps, reverse=round_ % 2 == 1):
                rates[name].append(asyncio.run(_rate(apps[name], count)))
        builds = catalog_cache.CACHE.builds
        own = _own_work()
        print(f"GET {PATH}, {count} requests a round, median of {ROUNDS} rounds:")
        for name, found in rates.items():
            rounds = " ".join(f"{rate:.0f}" for rate in found)
            print(f"  {name:>6}: {statistics.median(found):8.0f} requests/s  ({rounds})")
        before, after = (statistics.median(rates[n]) for n in ("before", "after"))
        print(f"  difference of the medians: {(1 / after - 1 / before) * 1e6:.0f} µs a request")
        print(f"  the layer's own work: {own:.1f} µs a request (reading the address, the cache)")
        print(f"  catalogue reads built during the run: {builds} (the one lookup, then cached)")
    finally:
        drop()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
