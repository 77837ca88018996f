"""`/metrics` (api/metrics.py, services/metrics.py, services/operations/metrics.py) through the
API app the production build serves before Reflex's own routes, on SQLite and PostgreSQL: who
may scrape, that a scrape parses with Prometheus's own parser and holds every family, that
placing and refusing bookings, the outbox's rows, the backups and the pool move what it shows;
and prometheus-client's multiprocess mode, two real processes summed in one scrape."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from storefront.api import create_api
from storefront.models import Backup, utcnow
from storefront.services.booking.lines import BookingError
from storefront.settings import get_settings
from tests.factories import line, make_service, outbox_row, place

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"
PRIVATE = "10.20.30.40"
PUBLIC = "93.184.216.34"
TOKEN = "scrape-token-for-the-tests-0123456789abcdef"
FAMILIES = {
    "storefront_event_duration_seconds",
    "storefront_bookings_placed",
    "storefront_bookings_refused",
    "storefront_outbox_sends",
    "storefront_mail_cap_hits",
    "storefront_redis_errors",
    "storefront_db_pool_connections_in_use",
    "storefront_database_up",
    "storefront_outbox_backlog",
    "storefront_outbox_oldest_pending_age_seconds",
    "storefront_outbox_failed",
    "storefront_last_backup_age_seconds",
}
NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "2026-06-10"


@pytest.fixture
def client_from(monkeypatch, engine):
    """A client of the API app at `address` (the ASGI scope's client), whose scrape reads
    `engine`."""
    monkeypatch.setattr("storefront.api.metrics.get_engine", lambda: engine)

    def make(address: str = LOOPBACK) -> TestClient:
        return TestClient(create_api(), client=(address, 40000))

    return make


@pytest.fixture
def token(monkeypatch) -> str:
    monkeypatch.setattr(get_settings(), "metrics_token", TOKEN)
    return TOKEN


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def scraped(client: TestClient) -> dict[tuple[str, frozenset], float]:
    answer = client.get("/metrics")
    assert answer.status_code == 200, answer.text
    return samples(answer.text)


def value(found: dict, name: str, **labels: str) -> float:
    return found[(name, frozenset(labels.items()))]


def test_a_scrape_from_loopback_parses_and_holds_every_family(session, client_from):
    answer = client_from(LOOPBACK).get("/metrics")

    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    assert answer.headers["cache-control"] == "no-store"
    families = {family.name for family in text_string_to_metric_families(answer.text)}
    assert families >= FAMILIES, FAMILIES - families
    found = samples(answer.text)
    assert value(found, "storefront_database_up") == 1
    for code in BookingError.CODES:
        assert ("storefront_bookings_refused_total", frozenset({("reason", code)})) in found


def test_who_may_scrape(session, client_from, token, monkeypatch):
    assert client_from(PRIVATE).get("/metrics").status_code == 200
    public = client_from(PUBLIC)
    assert public.get("/metrics").status_code == 403
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    assert public.get("/metrics", headers=bearer).status_code == 200
    assert public.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert public.get("/metrics", headers={"Authorization": f"Basic {TOKEN}"}).status_code == 403
    # A wrong token is refused from a private address too.
    wrong = {"Authorization": "Bearer wrong"}
    assert client_from(LOOPBACK).get("/metrics", headers=wrong).status_code == 403
    # No METRICS_TOKEN: no token opens it, an empty one included.
    monkeypatch.setattr(get_settings(), "metrics_token", "")
    assert public.get("/metrics", headers=bearer).status_code == 403
    assert public.get("/metrics", headers={"Authorization": "Bearer "}).status_code == 403
    assert public.get("/metrics", headers={"Authorization": "Bearer"}).status_code == 403


def test_behind_a_proxy_the_visitors_address_decides(session, client_from, monkeypatch):
    """The proxy is on loopback; the visitor is who TRUSTED_PROXY_HOPS says (api/auth)."""
    proxy = client_from(LOOPBACK)
    settings = get_settings()
    monkeypatch.setattr(settings, "trusted_proxy_hops", 1)
    assert proxy.get("/metrics", headers={"X-Forwarded-For": PUBLIC}).status_code == 403
    assert proxy.get("/metrics", headers={"X-Forwarded-For": PRIVATE}).status_code == 200
    # A visitor who writes a private address first is still the address the proxy added.
    forged = {"X-Forwarded-For": f"{PRIVATE}, {PUBLIC}"}
    assert proxy.get("/metrics", headers=forged).status_code == 403
    # A proxy that TRUSTED_PROXY_HOPS does not count still names the public visitor.
    monkeypatch.setattr(settings, "trusted_proxy_hops", 0)
    assert proxy.get("/metrics", headers={"X-Forwarded-For": PUBLIC}).status_code == 403
    # Documentation ranges, which Python calls private, are not.
    assert client_from("203.0.113.7").get("/metrics").status_code == 403


def test_bookings_placed_refused_and_held_back_move_their_counters(
    session, client_from, monkeypatch
):
    monkeypatch.setattr(get_settings(), "mail_cap_per_recipient", 1)
    client = client_from()
    service = make_service(session, units=5)
    session.commit()
    before = scraped(client)

    place(session, [line(service, DAY, "10:00")], now=NOW)
    place(session, [line(service, DAY, "12:00")], now=NOW)  # its confirmation over the cap
    with pytest.raises(BookingError) as refused:
        place(session, [line(service, "2026-05-01", "10:00")], now=NOW)  # a day gone by
    assert refused.value.code == "slot_unavailable"
    with pytest.raises(BookingError):
        place(session, [], now=NOW)
    after = scraped(client)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("storefront_bookings_placed_total") == 2
    assert moved("storefront_mail_cap_hits_total") == 1
    assert moved("storefront_bookings_refused_total", reason="slot_unavailable") == 1
    assert moved("storefront_bookings_refused_total", reason="empty_cart") == 1
    assert moved("storefront_bookings_refused_total", reason="slot_taken") == 0


def test_the_outbox_backlog_and_the_last_backup_are_read_when_scraped(session, client_from):
    client = client_from()
    empty = scraped(client)
    assert value(empty, "storefront_outbox_backlog") == 0
    assert value(empty, "storefront_last_backup_age_seconds") == float("inf")

    for minutes in (1, 2, 30):
        outbox_row(session, status="pending", age=timedelta(minutes=minutes))
    outbox_row(session, status="sent", age=timedelta(minutes=5))
    outbox_row(session, status="failed", age=timedelta(hours=3))
    now = utcnow()
    session.add(
        Backup(
            started_at=now - timedelta(hours=5),
            finished_at=now - timedelta(hours=4),
            status="done",
            location="x",
        )
    )
    session.add(
        Backup(
            started_at=now - timedelta(hours=1),
            finished_at=now,
            status="failed",
            location="x",
            error="disk full",
        )
    )
    session.commit()
    found = scraped(client)

    assert value(found, "storefront_outbox_backlog") == 3
    assert value(found, "storefront_outbox_failed") == 1
    assert 30 * 60 <= value(found, "storefront_outbox_oldest_pending_age_seconds") < 32 * 60
    # The last backup that finished, not the failed one after it.
    assert 4 * 3600 <= value(found, "storefront_last_backup_age_seconds") < 4 * 3600 + 120


def test_the_pool_gauge_counts_connections_checked_out(session, client_from, engine):
    from storefront.services import metrics

    metrics.watch_pool(engine)
    client = client_from()
    idle = value(scraped(client), "storefront_db_pool_connections_in_use")
    with engine.connect(), engine.connect():
        held = value(scraped(client), "storefront_db_pool_connections_in_use")
    assert held == idle + 2
    assert value(scraped(client), "storefront_db_pool_connections_in_use") == idle


WRITER = textwrap.dedent(
    """
    import sys
    from storefront.services import metrics
    for _ in range(int(sys.argv[1])):
        metrics.booking_refused("slot_taken")
    metrics.event_took("cart", 0.2)
    metrics.DB_POOL_IN_USE.inc(int(sys.argv[1]))
    print(metrics.multiprocess_dir())
    """
)
READER = textwrap.dedent(
    """
    import sys
    from storefront.services import metrics
    sys.stdout.write(metrics.exposition().decode())
    """
)


def _run(code: str, folder: Path, *args: str) -> str:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


def test_two_processes_are_summed_in_one_scrape(tmp_path):
    """Each granian worker is a process of its own; a scrape, answered by any of them, sums
    what they all wrote to PROMETHEUS_MULTIPROC_DIR (storefront/prod.py sets it)."""
    assert _run(WRITER, tmp_path, "2").strip() == str(tmp_path)
    _run(WRITER, tmp_path, "3")
    found = samples(_run(READER, tmp_path))

    assert value(found, "storefront_bookings_refused_total", reason="slot_taken") == 5
    assert value(found, "storefront_event_duration_seconds_count", group="cart") == 2
    assert value(found, "storefront_db_pool_connections_in_use") == 5
    # A worker gone leaves the live sums.
    from prometheus_client import multiprocess

    for pid in {p.stem.rsplit("_", 1)[-1] for p in tmp_path.glob("gauge_livesum_*.db")}:
        multiprocess.mark_process_dead(int(pid), str(tmp_path))
    found = samples(_run(READER, tmp_path))
    assert value(found, "storefront_db_pool_connections_in_use") == 0
    assert value(found, "storefront_bookings_refused_total", reason="slot_taken") == 5


def test_prod_starts_each_run_with_fresh_counts(tmp_path, monkeypatch):
    from storefront import prod

    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "")  # restored, unset, after the test
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR")
    made = prod.metrics_folder()
    try:
        assert made is not None and made.is_dir() and not any(made.iterdir())
        assert os.environ["PROMETHEUS_MULTIPROC_DIR"] == str(made)
    finally:
        made.rmdir()
    named = tmp_path / "metrics"
    named.mkdir()
    (named / "counter_123.db").write_bytes(b"old")
    (named / "notes.txt").write_text("kept")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(named))
    assert prod.metrics_folder() is None
    assert sorted(p.name for p in named.iterdir()) == ["notes.txt"]
