"""The staff webhook and the SMTP server down for a while: bookings still go through, the outbox
keeps every message (none given up within a realistic outage), and once both are back every
message is delivered exactly once, also with two senders at once on PostgreSQL."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from sqlmodel import Session

from storefront.db import make_engine
from storefront.models import NotificationOutbox
from storefront.services.messaging import outbox
from tests.conftest import create_database, migrate
from tests.faults.scenarios import (
    NOW,
    endpoints_down,
    outbox_outage_two_senders,
    outbox_outage_virtual_clock,
    outbox_rows,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def fault_engine(request):
    """A migrated database: SQLite, or one on the private PostgreSQL cluster."""
    if request.param == "sqlite":
        url, drop = create_database("sqlite")
    else:
        pg = request.getfixturevalue("running_pg")
        url, drop = pg.create_database(f"notify_{uuid.uuid4().hex[:8]}"), lambda: None
    migrate(url)
    engine = make_engine(url)
    yield engine
    engine.dispose()
    drop()


def test_six_hours_without_webhook_and_smtp_lose_nothing(fault_engine, report):
    result = outbox_outage_virtual_clock(
        fault_engine, bookings=5, outage=timedelta(hours=6), out=report
    )

    during = result["during"]
    assert during["failed"] == 0 and during["sent"] == 0
    assert during["pending"] == during["rows"] == 2 * len(result["references"])
    assert result["statuses"] == {"sent": during["rows"]}
    assert result["staff"] == dict.fromkeys(result["references"], 1)
    assert result["mails"] == dict.fromkeys(result["references"], 1)
    assert result["catch_up"] <= outbox.LONGEST_RETRY


def test_two_senders_catch_up_once_the_servers_are_back(running_pg, report):
    url = running_pg.create_database(f"senders_{uuid.uuid4().hex[:8]}")
    migrate(url)

    result = outbox_outage_two_senders(url, out=report)

    assert result["failures"] == []
    assert result["statuses"] == {"sent": 2 * len(result["references"])}
    assert result["staff"] == dict.fromkeys(result["references"], 1)
    assert result["mails"] == dict.fromkeys(result["references"], 1)
    assert result["webhook_calls"] == len(result["references"])  # no failed call once up
    # The longest wait between attempts (1 s on this clock) plus a poll and the sending.
    assert result["caught_up"] < 5


def test_a_message_is_given_up_only_after_its_attempts_and_the_retry_window(fault_engine, report):
    """OUTBOX_MAX_ATTEMPTS (8) attempts are not enough on their own: the message must also be
    OUTBOX_RETRY_HOURS (48 h) old; a permanent failure still fails at once."""
    with endpoints_down():
        with Session(fault_engine) as session:
            for name, age, attempts in (
                ("young", timedelta(hours=1), 30),
                ("old, few attempts", timedelta(hours=60), 2),
                ("old", timedelta(hours=49), 8),
            ):
                session.add(
                    NotificationOutbox(
                        channel="whatsapp",
                        topic="contact_request",
                        recipient="+38344000000",
                        payload={"name": name, "email": "a@example.com", "message": "Hi"},
                        attempts=attempts,
                        created_at=NOW - age,
                        next_attempt_at=NOW,
                    )
                )
            session.commit()
        outcome = outbox.run_once(now=NOW, engine=fault_engine)
    rows = {r.payload["name"]: (r.status, r.attempts) for r in outbox_rows(fault_engine)}
    report(f"run: {outcome}; rows {rows}")
    assert rows == {
        "young": ("pending", 31),
        "old, few attempts": ("pending", 3),
        "old": ("failed", 9),
    }
