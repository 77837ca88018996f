"""The notification outbox: rows written in the caller's transaction (`enqueue`), sent later by
`run_once`, which every app worker runs in the background (`outbox_worker`).

A run claims due rows in one short transaction that leases them (pushes `next_attempt_at` past
the lease and counts the attempt), commits, sends each row outside any transaction, then marks
it sent or schedules a retry. A row a worker claimed is invisible to every other worker until
its lease ends, so N workers never send it twice; a worker that dies after claiming leaves the
row to be sent by the next run once the lease has ended, so nothing is lost. The claim takes
`FOR UPDATE SKIP LOCKED` on PostgreSQL and runs under `BEGIN IMMEDIATE` on SQLite.

The mail cap (MAIL_CAP_PER_RECIPIENT) is decided when a mail is queued, in the transaction of
what caused it, so the screen that caused it can say so: a mail of `notify.CAPPED_TOPICS` over
its mailbox's cap is written as 'suppressed' and never sent. Every other mail always goes."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from storefront.db import error_summary, get_engine, is_outage, session_scope
from storefront.models import NotificationOutbox, utcnow
from storefront.services import limit_keys, metrics
from storefront.services.errors import ServiceError
from storefront.services.messaging import notify
from storefront.settings import get_settings

logger = logging.getLogger(__name__)

LEASE = timedelta(minutes=5)
# A run stops sending once half the lease is spent, so no row is sent after its lease ended.
SEND_BUDGET_SECONDS = LEASE.total_seconds() / 2
FIRST_RETRY = timedelta(seconds=30)
# At most 5 minutes between attempts, so a message goes out at most ~5 minutes after the
# webhook or the mail server is back (a 30-minute cap left staff waiting half an hour).
LONGEST_RETRY = timedelta(minutes=5)
# Topics whose payload holds secrets (reset links): emptied once the row is done with.
REDACTED_TOPICS = {"mail"}
REDACTED = {"redacted": True}
# The mail cap (MAIL_CAP_PER_RECIPIENT): mails of notify.CAPPED_TOPICS queued for one mailbox
# within this window and not held back themselves.
MAIL_CAP_WINDOW = timedelta(hours=24)
HELD = "suppressed"


class OutboxError(ServiceError):
    """Codes: unknown_topic, wrong_channel."""

    CODES = {
        "unknown_topic": "Unknown topic",
        "wrong_channel": "Wrong channel",
    }


@dataclass
class SendReport:
    claimed: int = 0
    sent: int = 0
    printed: int = 0  # only printed or logged (no mail server or webhook): not delivered
    retried: int = 0
    failed: int = 0
    released: int = 0
    suppressed: int = 0  # a stale reminder: never sent (the mail cap holds back when queued)


def count(session: Session, status: str) -> int:
    """How many messages have `status` ('pending', 'sent', 'printed', 'failed' or
    'suppressed')."""
    return int(
        session.exec(
            select(func.count())
            .select_from(NotificationOutbox)
            .where(NotificationOutbox.status == status)
        ).one()
    )


def enqueue(
    *,
    session: Session,
    channel: str,
    topic: str,
    recipient: str,
    payload: dict[str, Any],
    booking_id: uuid.UUID | None = None,
    now: datetime | None = None,
) -> NotificationOutbox:
    """Add a message to send; it leaves only if the caller's transaction commits. A mail of
    notify.CAPPED_TOPICS over its mailbox's cap is written held back instead (`is_held`); the
    caller holds the mailbox's lock (services/booking/placing.py `_limit_lock_keys`), so two such mails
    are counted one after the other."""
    expected = notify.TOPIC_CHANNELS.get(topic)
    if expected is None:
        raise OutboxError("unknown_topic", f"No renderer for topic {topic!r}")
    if channel != expected:
        raise OutboxError("wrong_channel", f"Topic {topic!r} goes by {expected}, not {channel}")
    now = now or utcnow()
    row = NotificationOutbox(
        channel=channel,
        topic=topic,
        recipient=recipient,
        recipient_mailbox=(limit_keys.mailbox(recipient) or None) if channel == "email" else None,
        payload=payload,
        booking_id=booking_id,
        created_at=now,
        next_attempt_at=now,
    )
    cap = get_settings().mail_cap_per_recipient
    capped = cap and topic in notify.CAPPED_TOPICS and row.recipient_mailbox
    if capped and _over_mail_cap(session, row, cap, now=now):
        _hold_back(row, cap)
    session.add(row)
    return row


def is_held(row: NotificationOutbox) -> bool:
    """Whether `row` was held back by the mail cap when it was queued."""
    return row.status == HELD


def held_back(session: Session, *, booking_id: uuid.UUID) -> bool:
    """Whether a mail about this booking was held back by the mail cap (its confirmation)."""
    found = session.exec(
        select(NotificationOutbox.id).where(
            NotificationOutbox.booking_id == booking_id,
            col(NotificationOutbox.topic).in_(sorted(notify.CAPPED_TOPICS)),
            NotificationOutbox.status == HELD,
        )
    ).first()
    return found is not None


def run_once(
    *, now: datetime | None = None, limit: int = 20, engine: Engine | None = None
) -> SendReport:
    """Claim up to `limit` due rows and send them; returns what happened."""
    engine = engine or get_engine()
    now = now or utcnow()
    report = SendReport()
    claimed = claim(engine=engine, now=now, limit=limit)
    report.claimed = len(claimed)
    started = time.monotonic()
    for position, (notification, attempts) in enumerate(claimed):
        if time.monotonic() - started > SEND_BUDGET_SECONDS:
            report.released += release(claimed[position:], engine=engine, now=now)
            break
        outcome = _send_one(notification, attempts, engine=engine, now=now)
        setattr(report, outcome, getattr(report, outcome) + 1)
        metrics.outbox_attempt(notification.channel, outcome)
    return report


def claim(*, engine: Engine, now: datetime, limit: int) -> list[tuple[notify.Notification, int]]:
    """Lease the due rows in one committed transaction; each with its attempt number."""
    # On SQLite the write lock is taken at BEGIN, so two claims run one after the other.
    locking = engine.execution_options(sqlite_begin="BEGIN IMMEDIATE")
    with session_scope(locking) as session:
        rows = session.exec(
            select(NotificationOutbox)
            .where(
                NotificationOutbox.status == "pending",
                col(NotificationOutbox.next_attempt_at) <= now,
            )
            .order_by(col(NotificationOutbox.next_attempt_at))
            .limit(limit)
            .with_for_update(skip_locked=True)
        ).all()
        for row in rows:
            row.attempts += 1
            row.next_attempt_at = now + LEASE
            session.add(row)
        return [(_detached(row), row.attempts) for row in rows]


def _over_mail_cap(session: Session, row: NotificationOutbox, cap: int, *, now: datetime) -> bool:
    """Whether `cap` mails of notify.CAPPED_TOPICS were queued for this row's mailbox within
    MAIL_CAP_WINDOW and not held back themselves (sent, printed, failed or on their way)."""
    outbox = NotificationOutbox
    used = session.exec(
        select(func.count())
        .select_from(outbox)
        .where(
            outbox.recipient_mailbox == row.recipient_mailbox,
            col(outbox.created_at) > now - MAIL_CAP_WINDOW,
            col(outbox.topic).in_(sorted(notify.CAPPED_TOPICS)),
            outbox.status != HELD,
        )
    ).one()
    return used >= cap


def _hold_back(row: NotificationOutbox, cap: int) -> None:
    """Over the cap: never sent, kept as 'suppressed' (a secret in its text erased) and
    logged."""
    row.status = HELD
    row.last_error = f"held back: {cap} mails to this mailbox in 24 hours (MAIL_CAP_PER_RECIPIENT)"
    if row.topic in REDACTED_TOPICS:
        row.payload = REDACTED
    logger.warning(
        "Mail %s (%s to %s) held back: the recipient had %s mails in 24 hours",
        row.id,
        row.topic,
        row.recipient,
        cap,
    )


def release(
    claimed: list[tuple[notify.Notification, int]], *, engine: Engine, now: datetime
) -> int:
    """Give claimed rows back unsent, so the next run takes them at once."""
    with session_scope(engine) as session:
        for notification, attempts in claimed:
            session.exec(
                _owned(notification.id, attempts).values(attempts=attempts - 1, next_attempt_at=now)
            )
    return len(claimed)


def _send_one(
    notification: notify.Notification, attempts: int, *, engine: Engine, now: datetime
) -> str:
    try:
        with session_scope(engine) as session:
            message = notify.render(notification, session=session)
        delivered = notify.send(message)
    except Exception as exc:
        if isinstance(exc, notify.NotifyError) and exc.code == "stale":
            # A reminder of a booking cancelled or moved since: not a failure, never sent.
            _finish(
                notification,
                attempts,
                {"status": "suppressed", "last_error": _describe(exc)[:2000]},
                engine=engine,
            )
            return "suppressed"
        permanent = isinstance(exc, notify.NotifyError) and exc.permanent
        return _record_failure(
            notification,
            attempts,
            error=_describe(exc),
            permanent=permanent,
            engine=engine,
            now=now,
        )
    outcome = "sent" if delivered else "printed"
    _mark_sent(notification, attempts, engine=engine, now=now, status=outcome)
    return outcome


def _mark_sent(
    notification: notify.Notification,
    attempts: int,
    *,
    engine: Engine,
    now: datetime,
    status: str = "sent",
) -> None:
    """Done with: 'sent' (delivered) or 'printed' (only printed or logged, never counted as
    delivered); either way it is not sent again."""
    values: dict[str, Any] = {"status": status, "sent_at": now, "last_error": None}
    if notification.topic in REDACTED_TOPICS:
        values["payload"] = REDACTED
    _finish(notification, attempts, values, engine=engine)


def _record_failure(
    notification: notify.Notification,
    attempts: int,
    *,
    error: str,
    permanent: bool,
    engine: Engine,
    now: datetime,
) -> str:
    values: dict[str, Any] = {"last_error": error[:2000]}
    if permanent or gives_up(notification, attempts, now=now):
        values["status"] = "failed"
        if notification.topic in REDACTED_TOPICS:
            values["payload"] = REDACTED
        logger.error(
            "Notification %s (%s to %s) failed after %s attempt(s): %s",
            notification.id,
            notification.topic,
            notification.recipient,
            attempts,
            error,
        )
        outcome = "failed"
    else:
        values["next_attempt_at"] = now + retry_delay(attempts)
        logger.warning(
            "Notification %s (%s) attempt %s failed, retrying: %s",
            notification.id,
            notification.topic,
            attempts,
            error,
        )
        outcome = "retried"
    _finish(notification, attempts, values, engine=engine)
    return outcome


def retry_delay(attempts: int) -> timedelta:
    """30 s after the first failed attempt, doubling each time, at most 5 minutes. The
    exponent is capped: 2**42 times 30 s no longer fits a timedelta (OverflowError)."""
    return min(FIRST_RETRY * 2 ** min(max(attempts, 1) - 1, 20), LONGEST_RETRY)


def gives_up(notification: notify.Notification, attempts: int, *, now: datetime) -> bool:
    """A failure worth another attempt (the webhook or mail server down, a timeout) marks the
    message failed only once it has had OUTBOX_MAX_ATTEMPTS attempts AND has waited
    OUTBOX_RETRY_HOURS since it was queued. Attempts alone ran out after about an hour (8
    attempts, 30 s doubling), so a webhook down over a night lost every booking's message;
    age alone would fail a message queued while no sender ran on its first failure."""
    settings = get_settings()
    if attempts < settings.outbox_max_attempts:
        return False
    queued = notification.created_at
    return queued is None or now - queued >= timedelta(hours=settings.outbox_retry_hours)


def _finish(
    notification: notify.Notification, attempts: int, values: dict[str, Any], *, engine: Engine
) -> None:
    with session_scope(engine) as session:
        result = session.exec(_owned(notification.id, attempts).values(**values))
    if result.rowcount != 1:
        logger.warning("Notification %s was claimed again before it was marked", notification.id)


def _owned(row_id: uuid.UUID, attempts: int):
    """An UPDATE of the row that applies only while this run's claim is the latest."""
    return update(NotificationOutbox).where(
        col(NotificationOutbox.id) == row_id,
        col(NotificationOutbox.attempts) == attempts,
        col(NotificationOutbox.status) == "pending",
    )


def _detached(row: NotificationOutbox) -> notify.Notification:
    return notify.Notification(
        id=row.id,
        channel=row.channel,
        topic=row.topic,
        recipient=row.recipient,
        payload=dict(row.payload or {}),
        booking_id=row.booking_id,
        created_at=row.created_at,
    )


def _describe(exc: Exception) -> str:
    if isinstance(exc, ServiceError):
        return f"{exc.code}: {exc.message}"
    return repr(exc)


async def outbox_worker(*, batch: int = 20, engine: Engine | None = None) -> None:
    """Send due notifications until cancelled; a full batch is followed at once by the next."""
    poll = get_settings().outbox_poll_seconds
    while True:
        claimed = 0
        try:
            report = await asyncio.to_thread(run_once, limit=batch, engine=engine)
            claimed = report.claimed
        except Exception as exc:
            if is_outage(exc):  # one line each poll while the database is down, no traceback
                logger.warning(
                    "The outbox run failed, database unavailable (%s); again in %s s",
                    error_summary(exc),
                    poll,
                )
            else:
                logger.exception("The outbox run failed; trying again in %s s", poll)
        if claimed < batch:
            await asyncio.sleep(poll)
