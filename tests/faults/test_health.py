"""`/_health` (storefront/api/health.py) through Starlette's test client on the API app, the
same app whose routes the production build serves before Reflex's own (README, Faults): the
database and the outbox as JSON, 200 when the database answers and 503 when it does not."""

from __future__ import annotations

import time
import uuid
from datetime import timedelta

import pytest
from sqlmodel import Session
from starlette.testclient import TestClient

from storefront.api import create_api
from storefront.db import make_engine
from storefront.models import NotificationOutbox, utcnow
from tests.conftest import create_database, migrate


@pytest.fixture
def client_for(monkeypatch):
    """A test client of the API app whose health check reads `engine`."""

    def make(engine):
        monkeypatch.setattr("storefront.api.health.get_engine", lambda: engine)
        return TestClient(create_api())

    return make


@pytest.fixture
def sqlite_engine():
    url, drop = create_database("sqlite")
    migrate(url)
    engine = make_engine(url)
    yield engine
    engine.dispose()
    drop()


def _outbox_row(session, *, status, age, error=None):
    now = utcnow()
    session.add(
        NotificationOutbox(
            channel="whatsapp",
            topic="contact_request",
            recipient="+38344000000",
            payload={"name": "Arta"},
            status=status,
            attempts=1 if error else 0,
            last_error=error,
            created_at=now - age,
            next_attempt_at=now + timedelta(seconds=30) if error else now - age,
        )
    )


def test_health_reports_the_database_and_the_outbox(sqlite_engine, client_for, report):
    with Session(sqlite_engine) as session:
        _outbox_row(session, status="pending", age=timedelta(minutes=20), error="webhook_failed")
        _outbox_row(session, status="pending", age=timedelta(seconds=5))
        _outbox_row(session, status="failed", age=timedelta(days=3), error="booking_missing")
        _outbox_row(session, status="sent", age=timedelta(days=1))
        session.commit()

    answer = client_for(sqlite_engine).get("/_health")
    report(f"HTTP {answer.status_code} {answer.text}")

    assert answer.status_code == 200
    assert answer.headers["cache-control"] == "no-store"
    body = answer.json()
    assert body["status"] is True and body["redis"] == "NA"
    assert body["database"]["reachable"] is True and body["database"]["backend"] == "sqlite"
    assert 0 <= body["database"]["latency_ms"] < 1000
    outbox = body["outbox"]
    assert (outbox["pending"], outbox["due"], outbox["retrying"], outbox["failed"]) == (2, 1, 1, 1)
    assert 20 * 60 - 5 <= outbox["oldest_pending_age_seconds"] <= 20 * 60 + 60
    assert body["warnings"] == [
        "1 notification(s) failed for good",
        f"the oldest waiting notification is {int(outbox['oldest_pending_age_seconds'])} s old",
    ]


def test_an_unmigrated_database_is_unhealthy(tmp_path, client_for):
    engine = make_engine(f"sqlite:///{tmp_path / 'empty.db'}")
    answer = client_for(engine).get("/_health")
    engine.dispose()
    assert answer.status_code == 503
    body = answer.json()
    assert body["status"] is False and body["database"]["reachable"] is True
    assert "no such table" in body["database"]["reason"]


def test_health_is_503_while_postgresql_is_stopped_and_200_again_after(
    running_pg, client_for, report
):
    url = running_pg.create_database(f"health_{uuid.uuid4().hex[:8]}")
    migrate(url)
    engine = make_engine(url)  # one engine throughout, as one app process
    client = client_for(engine)

    def ask(label):
        began = time.perf_counter()
        answer = client.get("/_health")
        took = (time.perf_counter() - began) * 1000
        body = answer.json()
        report(f"{label}: HTTP {answer.status_code} in {took:.0f} ms, database {body['database']}")
        return answer.status_code, body

    try:
        status, body = ask("running")
        assert status == 200 and body["outbox"]["pending"] == 0
        running_pg.stop("fast")
        status, body = ask("stopped")
        assert status == 503 and body["status"] is False
        assert body["database"]["reachable"] is False and body["outbox"] is None
        assert "database unreachable" in body["warnings"]
        running_pg.start()
        status, body = ask("started again, same engine")
        assert status == 200 and body["database"]["reachable"] is True
    finally:
        engine.dispose()
