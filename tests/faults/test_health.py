"""`/_health` (storefront/api/health.py) through Starlette's test client on the API app, the same
app whose routes the production build serves before Reflex's own (docs/operations.md, 'Faults'):
200 when the database answers and 503 when it does not, with the status only (issue 18, finding
8: it used to tell anyone the database's host, port and role during an outage); the reasons go
to the log and the admin dashboard."""

from __future__ import annotations

import logging
import time
import uuid
from datetime import timedelta

import pytest
from sqlmodel import Session
from starlette.testclient import TestClient

from storefront.api import create_api
from storefront.db import make_engine
from storefront.models import User
from storefront.services.operations import dashboard, health
from tests.conftest import create_database, migrate
from tests.factories import outbox_row


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


PUBLIC_OK = {"status": True}
PUBLIC_DOWN = {"status": False}


def test_health_answers_the_status_only_and_the_dashboard_has_the_reasons(
    sqlite_engine, client_for, report
):
    with Session(sqlite_engine) as session:
        outbox_row(session, status="pending", age=timedelta(minutes=20), error="webhook_failed")
        outbox_row(session, status="pending", age=timedelta(seconds=5))
        outbox_row(session, status="failed", age=timedelta(days=3), error="booking_missing")
        outbox_row(session, status="sent", age=timedelta(days=1))
        admin = User(email="boss@example.com", role="admin")
        session.add(admin)
        session.commit()
        admin_id = str(admin.id)

    answer = client_for(sqlite_engine).get("/_health")
    report(f"HTTP {answer.status_code} {answer.text}")

    assert answer.status_code == 200
    assert answer.headers["cache-control"] == "no-store"
    assert answer.json() == PUBLIC_OK

    # The figures are the service's (and the admin dashboard's), not the public answer's.
    found = health.check(engine=sqlite_engine)
    outbox = found.outbox
    assert (outbox.pending, outbox.due, outbox.retrying, outbox.failed) == (2, 1, 1, 1)
    assert 20 * 60 - 5 <= outbox.oldest_pending_age_seconds <= 20 * 60 + 60
    assert found.warnings == [
        "1 notification(s) failed for good",
        f"the oldest waiting notification is {int(outbox.oldest_pending_age_seconds)} s old",
    ]
    with Session(sqlite_engine) as session:
        checks = {c.name: c for c in dashboard.system_status(session=session, actor_id=admin_id)}
    row = checks["Health Check (/_health)"]
    report(f"dashboard: {row}")
    assert not row.ok and "database (sqlite) answers" in row.detail
    assert "1 notification(s) failed for good" in row.detail
    assert checks["Database Connection"].ok


def test_an_unmigrated_database_is_unhealthy(tmp_path, client_for, caplog):
    engine = make_engine(f"sqlite:///{tmp_path / 'empty.db'}")
    with caplog.at_level(logging.WARNING, logger="storefront.api.health"):
        answer = client_for(engine).get("/_health")
    engine.dispose()
    assert answer.status_code == 503
    assert answer.json() == PUBLIC_DOWN
    assert "no such table" not in answer.text
    [line] = [r.getMessage() for r in caplog.records if r.name == "storefront.api.health"]
    assert line.startswith("/_health answers 503: database (sqlite)")
    assert "no such table" in line


def test_health_is_503_while_postgresql_is_stopped_and_200_again_after(
    running_pg, client_for, report, caplog
):
    url = running_pg.create_database(f"health_{uuid.uuid4().hex[:8]}")
    migrate(url)
    engine = make_engine(url)  # one engine throughout, as one app process
    client = client_for(engine)
    port = str(engine.url.port)

    def ask(label):
        began = time.perf_counter()
        answer = client.get("/_health")
        took = (time.perf_counter() - began) * 1000
        report(f"{label}: HTTP {answer.status_code} in {took:.0f} ms, {answer.text}")
        return answer.status_code, answer

    try:
        status, answer = ask("running")
        assert status == 200 and answer.json() == PUBLIC_OK
        running_pg.stop("fast")
        with caplog.at_level(logging.WARNING, logger="storefront.api.health"):
            status, answer = ask("stopped")
            ask("stopped, asked again")
            ask("stopped, asked a third time")
        assert status == 503 and answer.json() == PUBLIC_DOWN
        # Nothing of the backend, its host, port or role reaches whoever asks ...
        for secret in (port, "127.0.0.1", "postgres", "5432", "Operational"):
            assert secret not in answer.text
        # ... the log has it, once for a repeated reason.
        lines = [r.getMessage() for r in caplog.records if r.name == "storefront.api.health"]
        report(f"log: {lines}")
        # The first answer after the stop may meet a pooled connection the server closed
        # ('server closed the connection unexpectedly'), the next ones a refused connection:
        # two reasons at most, each logged once however often it is asked.
        assert 1 <= len(lines) <= 2 and len(set(lines)) == len(lines), lines
        assert all("database (postgresql) unreachable" in line for line in lines)
        assert port in lines[0]
        running_pg.start()
        status, answer = ask("started again, same engine")
        assert status == 200 and answer.json() == PUBLIC_OK
    finally:
        engine.dispose()
