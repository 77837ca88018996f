"""The admin dashboard's figures (docs/product.md §2): the four counts, bookings and booked value
per week,
upcoming bookings by service, and a System Status read from real checks."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy import func
from sqlmodel import Session, col, select

from storefront.i18n import _o
from storefront.models import (
    HOLD_STATUSES,
    Booking,
    BookingItem,
    NotificationOutbox,
    Service,
    User,
    utcnow,
)
from storefront.services import dates, permissions
from storefront.services.errors import ServiceError
from storefront.services.media import storage
from storefront.services.messaging import outbox
from storefront.services.operations import backup, health
from storefront.settings import get_settings

WEEKS = 12
UPCOMING_SERVICES = 10


class DashboardError(ServiceError):
    """Codes: those of permissions.require_admin."""

    CODES = permissions.ADMIN_CHECK_CODES


@dataclass(frozen=True)
class Counts:
    users: int
    admins: int
    services: int
    bookings: int


# docs/product.md §8: what the dashboard shows, marked as samples, when the statistics cannot be
# read.
SAMPLE_COUNTS = Counts(users=25, admins=2, services=15, bookings=42)


@dataclass(frozen=True)
class WeekFigure:
    week: str  # DD.MM. of the week's Monday, local
    bookings: int
    value: float  # booked value that week (cancelled bookings left out)


@dataclass(frozen=True)
class ServiceFigure:
    service: str
    bookings: int


@dataclass(frozen=True)
class Statistics:
    counts: Counts
    weeks: tuple[WeekFigure, ...]
    upcoming: tuple[ServiceFigure, ...]


def counts(*, session: Session) -> Counts:
    def count(model, *where) -> int:
        return session.exec(select(func.count()).select_from(model).where(*where)).one()

    return Counts(
        users=count(User),
        admins=count(User, User.role == "admin"),
        services=count(Service),
        bookings=count(Booking),
    )


def _monday(moment: datetime):
    local = moment.astimezone(dates.business_zone()).date()
    return local - timedelta(days=local.weekday())


def weekly(*, session: Session, now: datetime, weeks: int = WEEKS) -> tuple[WeekFigure, ...]:
    """Bookings placed per local week (Monday first) over the last `weeks` weeks, this one
    included, with their value; a week without bookings shows 0."""
    this_monday = _monday(now)
    first = this_monday - timedelta(weeks=weeks - 1)
    zone = dates.business_zone()
    since = datetime.combine(first, datetime.min.time(), tzinfo=zone)
    rows = session.exec(
        select(Booking.created_at, Booking.total_amount, Booking.status).where(
            Booking.created_at >= since
        )
    ).all()
    per_week = {first + timedelta(weeks=n): [0, Decimal("0")] for n in range(weeks)}
    for created_at, total, status in rows:
        monday = _monday(created_at)
        if monday in per_week:
            per_week[monday][0] += 1
            if status != "cancelled":
                per_week[monday][1] += Decimal(total)
    return tuple(
        WeekFigure(monday.strftime("%d.%m."), n, float(value))
        for monday, (n, value) in sorted(per_week.items())
    )


def upcoming_by_service(
    *, session: Session, now: datetime, limit: int = UPCOMING_SERVICES
) -> tuple[ServiceFigure, ...]:
    """Bookings still to come (holding units), per service, most booked first."""
    booked = func.count(func.distinct(BookingItem.booking_id))
    rows = session.exec(
        select(BookingItem.service_name, booked)
        .where(BookingItem.start_datetime >= now, col(BookingItem.status).in_(HOLD_STATUSES))
        .group_by(BookingItem.service_name)
        .order_by(booked.desc(), BookingItem.service_name)
        .limit(limit)
    ).all()
    return tuple(ServiceFigure(name, n) for name, n in rows)


def statistics(*, session: Session, actor_id: object, now: datetime | None = None) -> Statistics:
    permissions.require_admin(session, actor_id, DashboardError)
    now = now or utcnow()
    return Statistics(
        counts=counts(session=session),
        weeks=weekly(session=session, now=now),
        upcoming=upcoming_by_service(session=session, now=now),
    )


# --- System Status ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


def _health(session: Session) -> list[Check]:
    """The database row, and what `/_health` knows but tells only as a status: its reasons."""
    report = health.check(engine=session.get_bind())
    name = _o("Database Connection")
    if report.database.reachable and report.ok:
        database = Check(
            name, True, _o("Connected ({ms} ms)").format(ms=report.database.latency_ms)
        )
    else:
        database = Check(
            name, False, _o("Not answering: {reason}").format(reason=report.database.reason)
        )
    return [
        database,
        Check(_o("Health Check (/_health)"), report.ok and not report.warnings, report.summary()),
    ]


def _storage() -> Check:
    root = storage.media_root()
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=root)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return Check(
            _o("Storage Service"),
            False,
            _o("Not writable ({reason})").format(reason=exc.strerror or exc),
        )
    return Check(_o("Storage Service"), True, _o("Online (writable)"))


# A backup older than this is shown as a problem (backups are expected daily).
BACKUP_MAX_AGE = timedelta(hours=36)


def _when(moment: datetime) -> str:
    return f"{dates.local_date(moment)} {dates.local_time(moment)}"


def _backup(session: Session, *, now: datetime) -> Check:
    """docs/product.md §2 'Last Backup': when the last backup (services/operations/backup.py) finished;
    a failed last one as such, with its reason; 'Not configured' while no target is set, the
    daily backup is off and none has run."""
    name = _o("Last Backup")
    last = backup.last_backups(session=session)
    if last.ended is None:
        if not last.configured:
            return Check(name, False, _o("Not configured"))
        return Check(name, False, _o("No backup yet"))
    if last.ended.status == "failed":
        failed = _o("Failed {when}: {reason}").format(
            when=_when(last.ended.finished_at or last.ended.started_at),
            reason=last.ended.error or "",
        )
        if last.done is not None and last.done.finished_at is not None:
            failed += _o("; the last good one {when}").format(when=_when(last.done.finished_at))
        return Check(name, False, failed)
    finished = last.ended.finished_at or last.ended.started_at
    if now - finished > BACKUP_MAX_AGE:
        hours = int(BACKUP_MAX_AGE.total_seconds() // 3600)
        return Check(
            name,
            False,
            _o("{when} (more than {hours} hours ago)").format(when=_when(finished), hours=hours),
        )
    return Check(name, True, _when(finished))


def _whatsapp(session: Session) -> Check:
    """Not configured says only that (messages are logged, none is delivered); configured, the
    last staff message the webhook accepted."""
    name = _o("WhatsApp API")
    if not get_settings().notify_webhook_url:
        return Check(name, False, _o("Not configured (messages are logged)"))
    last = session.exec(
        select(func.max(NotificationOutbox.sent_at)).where(
            NotificationOutbox.channel == "whatsapp", NotificationOutbox.status == "sent"
        )
    ).one()
    if last is None:
        return Check(name, True, _o("Active; nothing delivered yet"))
    return Check(
        name,
        True,
        _o("Active; last delivered {when}").format(when=_when(last)),
    )


def _notifications(session: Session) -> list[Check]:
    settings = get_settings()
    waiting = outbox.count(session, "pending")
    failed = outbox.count(session, "failed")
    printed = outbox.count(session, "printed")
    held = outbox.count(session, "suppressed")  # over MAIL_CAP_PER_RECIPIENT: never sent
    return [
        _whatsapp(session),
        Check(
            _o("Email"),
            bool(settings.smtp_host),
            _o("SMTP configured") if settings.smtp_host else _o("Not configured (mail is printed)"),
        ),
        Check(
            _o("Notification Outbox"),
            failed == 0,
            _o("{waiting} waiting, {failed} failed").format(waiting=waiting, failed=failed)
            + (_o(", {printed} printed, not delivered").format(printed=printed) if printed else "")
            + (_o(", {held} held back by the mail cap").format(held=held) if held else ""),
        ),
    ]


def system_status(
    *, session: Session, actor_id: object, now: datetime | None = None
) -> tuple[Check, ...]:
    permissions.require_admin(session, actor_id, DashboardError)
    database, health_check = _health(session)
    whatsapp, *messages = _notifications(session)
    last_backup = _backup(session, now=now or utcnow())
    # The spec's order (Database Connection, Storage Service, WhatsApp API, Last Backup), then
    # the checks it does not name.
    return (database, _storage(), whatsapp, last_backup, *messages, health_check)
