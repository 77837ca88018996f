"""Fault tolerance, printed: what the app does when PostgreSQL, the staff webhook and the SMTP
server go away and come back. The same scenarios as tests/faults (tests/faults/scenarios.py),
with bigger numbers where it helps.

1. A private PostgreSQL cluster (never the shared server) restarted (`pg_ctl restart -m fast`)
   and stopped for a few seconds under a booking load: clean refusals, retries with the same
   idempotency key, one booking per key, no slot overbooked, the same engine afterwards.
2. The webhook and SMTP down for 6 simulated hours (one sender, real backoff schedule), then
   back: nothing given up, every message once, how long until caught up.
3. Two live senders on PostgreSQL while both servers are down for a few seconds (backoff 300x
   faster), then back: every message once, wall-clock time until caught up.
4. With `--prod`: the production build (`reflex run --env prod`, port 3340) on the private
   cluster; `curl /_health` while it runs, while the cluster is stopped, and after.

Run: `.venv/bin/python bench/faults.py [--prod]`. Needs PostgreSQL's server binaries
(/usr/lib/postgresql/*/bin) and, as root, the `postgres` OS user; otherwise it says why and
stops.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
_TMP = Path(tempfile.mkdtemp(prefix="storefront-bench-faults-"))
os.environ.setdefault("ENVIRONMENT", "test")
os.environ.setdefault("MEDIA_DIR", str(_TMP / "media"))
os.environ["DATABASE_URL"] = f"sqlite:///{_TMP / 'default.db'}"

import logging  # noqa: E402

from storefront.db import make_engine  # noqa: E402
from tests.conftest import migrate  # noqa: E402
from tests.faults.private_pg import PrivatePostgres, unavailable_reason  # noqa: E402
from tests.faults.scenarios import (  # noqa: E402
    booking_load_with_restarts,
    outbox_outage_two_senders,
    outbox_outage_virtual_clock,
    print_load,
)

PROD_PORT = 3340


def section(title: str) -> None:
    print(f"\n{title}\n{'-' * len(title)}", flush=True)


def prod_health(pg: PrivatePostgres) -> None:
    from tests.e2e.server import prod_server, venv_env

    url = pg.create_database(f"prod_{uuid.uuid4().hex[:8]}")
    migrate(url)
    env = venv_env(
        PROD_PORT,
        {"ENVIRONMENT": "test", "DATABASE_URL": url, "MEDIA_DIR": str(_TMP / "prod-media")},
    )
    subprocess.run([sys.executable, "-m", "storefront.seed"], cwd=ROOT, env=env, check=True)
    began = time.monotonic()
    with prod_server(ROOT, PROD_PORT, env, _TMP / "prod-server.log") as base:
        print(f"production build up in {time.monotonic() - began:.0f} s at {base}")

        def curl(label: str) -> None:
            answer = subprocess.run(
                ["curl", "-s", "-w", "\nHTTP %{http_code} in %{time_total} s", base + "/_health"],
                capture_output=True,
                text=True,
            )
            print(f"{label}: curl -s {base}/_health\n  " + answer.stdout.replace("\n", "\n  "))

        curl("running")
        pg.stop("fast")
        curl("cluster stopped")
        pg.start()
        curl("cluster started again (same server process)")


def main() -> None:
    logging.disable(logging.WARNING)  # the outbox logs every failed attempt; figures only here
    reason = unavailable_reason()
    if reason:
        print(f"SKIPPED: private PostgreSQL cluster unavailable: {reason}")
        return
    with PrivatePostgres() as pg:
        print(f"private PostgreSQL cluster on port {pg.port} ({pg.bin})")

        section("1. PostgreSQL restarted and stopped under a booking load")
        result = booking_load_with_restarts(pg, threads=12, keys_per_thread=40, units=20)
        print_load(result)

        section("2. Webhook and SMTP down for 6 simulated hours, one sender (PostgreSQL)")
        url = pg.create_database(f"virtual_{uuid.uuid4().hex[:8]}")
        migrate(url)
        engine = make_engine(url)
        outbox_outage_virtual_clock(engine, bookings=10, outage=timedelta(hours=6))
        engine.dispose()

        section("3. Webhook and SMTP down for 4 s, two live senders (PostgreSQL)")
        url = pg.create_database(f"live_{uuid.uuid4().hex[:8]}")
        migrate(url)
        outbox_outage_two_senders(url, bookings=40, outage_seconds=4.0)

        if "--prod" in sys.argv:
            section("4. /_health on the production build")
            prod_health(pg)


if __name__ == "__main__":
    main()
