"""Housekeeping (issue 18, finding 12): a periodic task of the app that purges what no one needs
any more, once per cluster and period, not once per worker.

Every app worker runs `housekeeping_worker` in the background; every `POLL_SECONDS` (or the
period, when shorter) it tries to take the lease row `housekeeping_leases['housekeeping']`. The
lease is taken by one conditional UPDATE (`expires_at <= now`) that moves `expires_at` a whole
period ahead, so the first worker of any host that finds it expired runs the jobs and every
other one finds it taken until the next period. On PostgreSQL the UPDATE waits for a
concurrent one's row lock and then sees the new expiry; on SQLite it runs under `BEGIN
IMMEDIATE`. A missing row is created with INSERT ... ON CONFLICT DO NOTHING, so two first
runners cannot both win either. A run that dies half-way simply leaves the rest to the next
period: every job is an idempotent DELETE in its own transaction.

What goes (retention in docs/operations.md, 'Housekeeping'):
- sign-in sessions past their absolute or idle expiry (they can never be used again);
- used sign-in tickets past their expiry (a ticket is refused after it anyway);
- password reset links expired more than HOUSEKEEPING_RETENTION_DAYS ago;
- throttle counters whose window began more than THROTTLE_RETENTION ago and that block
  nothing (longer than any rule's window, so such a row counts as no row);
- outbox rows sent (or printed) more than HOUSEKEEPING_RETENTION_DAYS ago;
- uploaded files no row points to (`storage.sweep_orphans`).
Each job logs one line with what it removed."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import delete, func, or_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlmodel import Session, col

from storefront.db import error_summary, get_engine, is_outage, session_scope
from storefront.models import (
    LoginSession,
    NotificationOutbox,
    PasswordResetToken,
    SignInThrottle,
    UsedSignInTicket,
    utcnow,
)
from storefront.models.operations import HousekeepingLease
from storefront.services.media import storage
from storefront.settings import get_settings

log = logging.getLogger(__name__)

LEASE_NAME = "housekeeping"
# How often each worker asks for the lease (at most; a shorter period asks as often).
POLL_SECONDS = 60.0
# Longer than the longest window of any throttle rule (today 24 hours), so a row this old
# counts nothing any rule would still read.
THROTTLE_RETENTION = timedelta(days=7)
DONE_OUTBOX_STATUSES = ("sent", "printed", "suppressed")

Job = Callable[..., int]


def _holder() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"[:200]


def take_lease(
    *, engine: Engine, now: datetime, period: timedelta, name: str = LEASE_NAME, holder: str = ""
) -> bool:
    """Whether this caller runs the period that starts `now`: True for exactly one caller
    among all workers and hosts until `now + period`."""
    holder = holder or _holder()
    locking = engine.execution_options(sqlite_begin="BEGIN IMMEDIATE")
    with session_scope(locking) as session:
        taken = session.exec(
            update(HousekeepingLease)
            .where(col(HousekeepingLease.name) == name, col(HousekeepingLease.expires_at) <= now)
            .values(holder=holder, expires_at=now + period, last_run_at=now)
        )
        if taken.rowcount == 1:
            return True
        if session.get(HousekeepingLease, name) is not None:
            return False
        dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
        created = session.connection().execute(
            dialect.insert(HousekeepingLease)
            .values(name=name, holder=holder, expires_at=now + period, last_run_at=now)
            .on_conflict_do_nothing(index_elements=["name"])
            .returning(col(HousekeepingLease.name))
        )
        return created.first() is not None  # no row back: another runner created it first


# --- the jobs: each deletes what is past its retention and returns how many rows went ------


def purge_sessions(*, session: Session, now: datetime) -> int:
    return session.exec(
        delete(LoginSession).where(
            or_(col(LoginSession.expires_at) <= now, col(LoginSession.idle_expires_at) <= now)
        )
    ).rowcount


def purge_used_tickets(*, session: Session, now: datetime) -> int:
    return session.exec(
        delete(UsedSignInTicket).where(col(UsedSignInTicket.expires_at) < now)
    ).rowcount


def purge_reset_tokens(*, session: Session, now: datetime) -> int:
    cutoff = now - timedelta(days=get_settings().housekeeping_retention_days)
    return session.exec(
        delete(PasswordResetToken).where(col(PasswordResetToken.expires_at) < cutoff)
    ).rowcount


def purge_throttles(*, session: Session, now: datetime) -> int:
    return session.exec(
        delete(SignInThrottle).where(
            col(SignInThrottle.window_started_at) < now - THROTTLE_RETENTION,
            or_(
                col(SignInThrottle.blocked_until).is_(None),
                col(SignInThrottle.blocked_until) < now,
            ),
        )
    ).rowcount


def purge_outbox(*, session: Session, now: datetime) -> int:
    cutoff = now - timedelta(days=get_settings().housekeeping_retention_days)
    return session.exec(
        delete(NotificationOutbox).where(
            col(NotificationOutbox.status).in_(DONE_OUTBOX_STATUSES),
            # a mail held back by the cap was never sent: its age is its creation's
            func.coalesce(col(NotificationOutbox.sent_at), col(NotificationOutbox.created_at))
            < cutoff,
        )
    ).rowcount


def sweep_orphans(*, session: Session, now: datetime) -> int:
    """Uploaded files no row points to (services/media/storage.py owns the rule)."""
    return storage.sweep_orphans(session=session, now=now)


JOBS: tuple[tuple[str, str, Job], ...] = (
    ("sessions", "expired sign-in sessions", purge_sessions),
    ("used_tickets", "used sign-in tickets past their expiry", purge_used_tickets),
    ("reset_tokens", "expired password reset links", purge_reset_tokens),
    ("throttles", "old throttle counters", purge_throttles),
    ("outbox", "sent outbox messages", purge_outbox),
    ("orphan_files", "uploaded files no row points to", sweep_orphans),
)


def run_jobs(*, engine: Engine | None = None, now: datetime | None = None) -> dict[str, int]:
    """Run every job, each in its own transaction; one log line each. A job that fails is
    logged and the others still run; it is missing from the result."""
    engine = engine or get_engine()
    now = now or utcnow()
    removed: dict[str, int] = {}
    for key, what, job in JOBS:
        try:
            with session_scope(engine) as session:
                removed[key] = int(job(session=session, now=now))
        except Exception as exc:
            log.warning("housekeeping: removing %s failed: %s", what, error_summary(exc))
            continue
        log.info("housekeeping: removed %d %s", removed[key], what)
    return removed


def run_once(
    *, engine: Engine | None = None, now: datetime | None = None, holder: str = ""
) -> dict[str, int] | None:
    """Run the jobs when this caller takes the period's lease; None when another runner has
    it (already ran this period)."""
    engine = engine or get_engine()
    now = now or utcnow()
    period = timedelta(minutes=get_settings().housekeeping_interval_minutes)
    if not take_lease(engine=engine, now=now, period=period, holder=holder):
        return None
    return run_jobs(engine=engine, now=now)


async def housekeeping_worker(*, engine: Engine | None = None) -> None:
    """Ask for the lease until cancelled; the worker that gets it runs the jobs."""
    poll = min(POLL_SECONDS, get_settings().housekeeping_interval_minutes * 60)
    while True:
        try:
            await asyncio.to_thread(run_once, engine=engine)
        except Exception as exc:
            if is_outage(exc):  # one line while the database is down, no traceback
                log.warning(
                    "housekeeping: database unavailable (%s); again in %s s",
                    error_summary(exc),
                    poll,
                )
            else:
                log.exception("housekeeping failed; again in %s s", poll)
        await asyncio.sleep(poll)
