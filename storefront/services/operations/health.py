"""What `/_health` checks: can the database be reached (and how fast), and is the notification
outbox keeping up (messages waiting, how long the oldest has waited, messages given up). The
public answer is the status only; the reasons go to the log and the admin dashboard.

Only an unreachable database makes the app unhealthy (HTTP 503 from the route): without it no
page, booking or sign-in works. A slow or failing outbox is reported, not fatal: bookings still
go through and the messages wait in the outbox until the webhook or mail server is back."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from datetime import datetime

from sqlalchemy import func, text
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from storefront.db import error_summary, get_engine
from storefront.models import NotificationOutbox, utcnow
from storefront.services.messaging import outbox as outbox_service

# A message waiting longer than this is worth a warning (several retries have failed).
OUTBOX_LAG_WARNING_SECONDS = 15 * 60
STATEMENT_TIMEOUT = "3s"


@dataclass(frozen=True)
class DatabaseHealth:
    reachable: bool
    latency_ms: float | None
    backend: str
    reason: str | None = None  # why it is not reachable (or not usable)


@dataclass(frozen=True)
class OutboxHealth:
    pending: int
    due: int  # pending and due now (not leased, not waiting for a retry)
    retrying: int  # pending after at least one failed attempt
    oldest_pending_age_seconds: float | None
    failed: int  # given up for good (dead letters)


@dataclass(frozen=True)
class Health:
    ok: bool
    database: DatabaseHealth
    outbox: OutboxHealth | None
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """The reasons in one line, for the log and the admin dashboard (never the public
        answer: they name the backend, the host and the role)."""
        database = self.database
        if not database.reachable:
            state = f"database ({database.backend}) unreachable"
        else:
            state = f"database ({database.backend}) answers in {database.latency_ms} ms"
        parts = [state + (f": {database.reason}" if database.reason else "")]
        parts += [w for w in self.warnings if w != "database unreachable"]
        return "; ".join(parts)

    def as_dict(self) -> dict:
        return {
            "status": self.ok,
            "database": asdict(self.database),
            "outbox": asdict(self.outbox) if self.outbox else None,
            "warnings": list(self.warnings),
        }


def unreachable(backend: str, reason: str) -> Health:
    """The report of a database that did not answer."""
    return Health(
        ok=False,
        database=DatabaseHealth(False, None, backend, reason),
        outbox=None,
        warnings=["database unreachable"],
    )


def check(*, engine: Engine | None = None, now: datetime | None = None) -> Health:
    """One round trip for the latency, then the outbox counts; never raises."""
    engine = engine or get_engine()
    now = now or utcnow()
    backend = engine.dialect.name
    started = time.perf_counter()
    try:
        with Session(engine) as session:
            if backend == "postgresql":
                session.connection().exec_driver_sql(
                    f"SET LOCAL statement_timeout = '{STATEMENT_TIMEOUT}'"
                )
            session.exec(select(text("1"))).one()
            latency = round((time.perf_counter() - started) * 1000, 2)
            try:
                outbox = _outbox(session, now)
            except Exception as exc:  # reachable, but not the schema the app needs
                return Health(
                    ok=False,
                    database=DatabaseHealth(True, latency, backend, error_summary(exc)),
                    outbox=None,
                    warnings=["the outbox cannot be read (is the database migrated?)"],
                )
            finally:
                session.rollback()
    except Exception as exc:  # the point is to report it, whatever it is
        return unreachable(backend, error_summary(exc))
    warnings = []
    if outbox.failed:
        warnings.append(f"{outbox.failed} notification(s) failed for good")
    age = outbox.oldest_pending_age_seconds
    if age is not None and age > OUTBOX_LAG_WARNING_SECONDS:
        warnings.append(f"the oldest waiting notification is {int(age)} s old")
    return Health(
        ok=True,
        database=DatabaseHealth(reachable=True, latency_ms=latency, backend=backend),
        outbox=outbox,
        warnings=warnings,
    )


def _outbox(session: Session, now: datetime) -> OutboxHealth:
    pending = NotificationOutbox.status == "pending"
    count, retrying, due, oldest = session.exec(
        select(
            func.count(),
            func.count().filter(col(NotificationOutbox.last_error).is_not(None)),
            func.count().filter(col(NotificationOutbox.next_attempt_at) <= now),
            func.min(NotificationOutbox.created_at),
        ).where(pending)
    ).one()
    failed = outbox_service.count(session, "failed")
    if oldest is not None and oldest.tzinfo is None:
        oldest = oldest.replace(tzinfo=now.tzinfo)
    return OutboxHealth(
        pending=int(count),
        due=int(due),
        retrying=int(retrying),
        oldest_pending_age_seconds=(
            round(max((now - oldest).total_seconds(), 0.0), 1) if oldest is not None else None
        ),
        failed=int(failed),
    )
