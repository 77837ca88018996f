"""Issue 18, finding 12, on SQLite and PostgreSQL: the housekeeping task purges what is past its
retention and keeps what is within it, and runs once per period for the whole cluster however
many workers (engines) ask at the same moment."""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import (
    LoginSession,
    NotificationOutbox,
    PasswordResetToken,
    SignInThrottle,
    UsedSignInTicket,
)
from storefront.services.operations import housekeeping
from tests.factories import make_user

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def _login(user, token: str, *, expires_at, idle_expires_at) -> LoginSession:
    return LoginSession(
        user_id=user.id,
        token_hash=token,
        expires_at=expires_at,
        idle_expires_at=idle_expires_at,
        created_at=NOW - 2 * DAY,
    )


def _outbox(recipient: str, status: str, sent_at=None, created_at=NOW - 40 * DAY):
    return NotificationOutbox(
        channel="email",
        topic="contact_request",
        recipient=recipient,
        payload={},
        status=status,
        sent_at=sent_at,
        created_at=created_at,
        next_attempt_at=created_at,
    )


def _keys(session, model, attribute) -> set[str]:
    return {str(v) for v in session.exec(select(getattr(model, attribute))).all()}


def test_what_is_past_retention_goes_and_what_is_within_stays(session, engine, caplog):
    user = make_user(session)
    session.add_all(
        [
            _login(user, "absolute-past", expires_at=NOW - DAY, idle_expires_at=NOW - DAY),
            _login(user, "idle-past", expires_at=NOW + DAY, idle_expires_at=NOW - 1 * DAY / 24),
            _login(user, "live", expires_at=NOW + DAY, idle_expires_at=NOW + DAY / 3),
            UsedSignInTicket(ticket_id="used-expired", expires_at=NOW - timedelta(minutes=5)),
            UsedSignInTicket(ticket_id="used-live", expires_at=NOW + timedelta(seconds=30)),
            PasswordResetToken(user_id=user.id, token_hash="reset-old", expires_at=NOW - 31 * DAY),
            PasswordResetToken(user_id=user.id, token_hash="reset-recent", expires_at=NOW - DAY),
            SignInThrottle(key="ip:old", failures=3, window_started_at=NOW - 8 * DAY),
            SignInThrottle(
                key="ip:old-but-blocked",
                failures=30,
                window_started_at=NOW - 8 * DAY,
                blocked_until=NOW + timedelta(minutes=5),
            ),
            SignInThrottle(key="ip:recent", failures=3, window_started_at=NOW - DAY),
            _outbox("sent-old@example.com", "sent", sent_at=NOW - 31 * DAY),
            _outbox("sent-recent@example.com", "sent", sent_at=NOW - 29 * DAY),
            _outbox("pending-old@example.com", "pending"),
            _outbox("failed-old@example.com", "failed"),
            _outbox("held-old@example.com", "suppressed", created_at=NOW - 31 * DAY),
            _outbox("held-recent@example.com", "suppressed", created_at=NOW - 29 * DAY),
        ]
    )
    session.commit()

    with caplog.at_level(logging.INFO, logger=housekeeping.log.name):
        removed = housekeeping.run_jobs(engine=engine, now=NOW)

    assert removed["sessions"] == 2
    assert removed["used_tickets"] == 1
    assert removed["reset_tokens"] == 1
    assert removed["throttles"] == 1
    assert removed["outbox"] == 2
    with Session(engine) as fresh:
        assert _keys(fresh, LoginSession, "token_hash") == {"live"}
        assert _keys(fresh, UsedSignInTicket, "ticket_id") == {"used-live"}
        assert _keys(fresh, PasswordResetToken, "token_hash") == {"reset-recent"}
        assert _keys(fresh, SignInThrottle, "key") == {"ip:old-but-blocked", "ip:recent"}
        assert _keys(fresh, NotificationOutbox, "recipient") == {
            "sent-recent@example.com",
            "pending-old@example.com",
            "failed-old@example.com",
            "held-recent@example.com",
        }
    # One line per job with what it removed (the orphan sweep's line is its own or a failure).
    lines = [r.getMessage() for r in caplog.records if r.name == housekeeping.log.name]
    assert len(lines) == len(housekeeping.JOBS)
    assert "housekeeping: removed 2 expired sign-in sessions" in lines
    assert "housekeeping: removed 2 sent outbox messages" in lines
    assert "orphan_files" in removed

    # A second run finds nothing more to do.
    again = housekeeping.run_jobs(engine=engine, now=NOW)
    assert {k: v for k, v in again.items() if k != "orphan_files"} == {
        "sessions": 0,
        "used_tickets": 0,
        "reset_tokens": 0,
        "throttles": 0,
        "outbox": 0,
    }


def test_two_runners_at_once_run_the_jobs_once_per_period(session, database_url):
    """Two workers (each with its own engine, as two processes or hosts have) ask at the same
    moment: one runs the jobs; the period's other asks find the lease taken."""
    engines = [make_engine(database_url) for _ in range(2)]
    start = threading.Barrier(len(engines))
    results: list[dict | None] = [None, None]

    def runner(i: int) -> None:
        start.wait()
        results[i] = housekeeping.run_once(engine=engines[i], now=NOW, holder=f"worker-{i}")

    try:
        threads = [threading.Thread(target=runner, args=(i,)) for i in range(len(engines))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sum(r is not None for r in results) == 1, results

        half = timedelta(minutes=30)
        assert housekeeping.run_once(engine=engines[0], now=NOW + half) is None
        assert housekeeping.run_once(engine=engines[1], now=NOW + half) is None
        # The next period: again exactly one runner.
        later = NOW + timedelta(minutes=61)
        first = housekeeping.run_once(engine=engines[1], now=later)
        second = housekeeping.run_once(engine=engines[0], now=later)
        assert first is not None and second is None
    finally:
        for e in engines:
            e.dispose()


@pytest.mark.parametrize("runners", [4])
def test_many_simultaneous_first_runs_create_the_lease_once(session, database_url, runners):
    """No lease row yet (a fresh database): several first runners cannot all win."""
    engines = [make_engine(database_url) for _ in range(runners)]
    start = threading.Barrier(runners)
    won: list[bool] = []
    lock = threading.Lock()

    def runner(i: int) -> None:
        start.wait()
        got = housekeeping.take_lease(
            engine=engines[i], now=NOW, period=timedelta(hours=1), holder=f"w{i}"
        )
        with lock:
            won.append(got)

    try:
        threads = [threading.Thread(target=runner, args=(i,)) for i in range(runners)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sorted(won) == [False] * (runners - 1) + [True]
    finally:
        for e in engines:
            e.dispose()
