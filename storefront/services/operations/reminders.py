"""Reminders (issue 22): the customer's mail a day before the event and the staff's digest of
tomorrow's jobs, queued in the outbox by a periodic job and sent once.

`queue_due` runs every few minutes (the housekeeping worker, under a lease of its own so one
runner of the cluster queues per period). It queues:
- for each pending or confirmed booking whose first service starts within the reminder lead
  (`BusinessSettings.reminder_lead_hours`) and that was booked before that window opened, one
  reminder mail (topic `booking_reminder`);
- once the business's local time has passed `BusinessSettings.digest_hour`, one digest of the
  next day's jobs for the staff, by WhatsApp (`staff_digest`) and by mail to the business's
  address (`staff_digest_mail`).

Each row carries a `dedupe_key` the outbox holds once (a unique index): the reminder of one
booking at one start, the digest of one day and channel. A second runner, a retry or a restart
inserts nothing more. A booking cancelled or moved after its reminder was queued is checked
again when the mail is rendered (services/messaging/notify.py): the stale reminder is never sent, and a
moved booking gets a reminder of its new start (another key)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from storefront import i18n
from storefront.db import error_summary, get_engine, is_outage, session_scope
from storefront.i18n import N_o, _o, office_ngettext
from storefront.models import (
    Booking,
    BookingItem,
    BusinessSettings,
    NotificationOutbox,
    utcnow,
)
from storefront.services import dates
from storefront.services.messaging import outbox
from storefront.services.operations import day_sheet
from storefront.services.operations.housekeeping import take_lease

log = logging.getLogger(__name__)

# The statuses a reminder goes to (and that a queued one must still have when it is sent).
REMINDED_STATUSES = ("pending", "confirmed")
LEASE_NAME = "reminders"
PERIOD = timedelta(minutes=5)


@dataclass
class QueueReport:
    reminders: int = 0
    digests: int = 0


def reminder_key(booking_id: object, start: datetime) -> str:
    return f"reminder:{booking_id}:{start.astimezone(UTC).isoformat()}"


def digest_key(day: object, channel: str) -> str:
    return f"digest:{day}:{channel}"


def _queue_once(session: Session, key: str, **row) -> bool:
    """Queue an outbox row under `key` unless one holds it already; whether this call did."""
    if session.exec(
        select(NotificationOutbox.id).where(NotificationOutbox.dedupe_key == key)
    ).first():
        return False
    try:
        with session.begin_nested():
            queued = outbox.enqueue(session=session, **row)
            queued.dedupe_key = key
            session.add(queued)
    except IntegrityError:  # another runner queued it a moment ago
        return False
    return True


def queue_due(*, session: Session, now: datetime | None = None) -> QueueReport:
    """Queue the reminders and the digest that are due at `now` (see the module's docstring)."""
    now = now or utcnow()
    settings = session.get(BusinessSettings, 1) or BusinessSettings()
    report = QueueReport()
    lead = timedelta(hours=settings.reminder_lead_hours)
    # Bookings whose first service starts between now and now + lead.
    starts = session.exec(
        select(Booking, func.min(BookingItem.start_datetime))
        .join(BookingItem, col(BookingItem.booking_id) == Booking.id)
        .where(
            col(Booking.status).in_(REMINDED_STATUSES),
            BookingItem.status != "cancelled",
        )
        .group_by(col(Booking.id))
        .having(func.min(BookingItem.start_datetime) > now)
        .having(func.min(BookingItem.start_datetime) <= now + lead)
    ).all()
    for booking, start in starts:
        if booking.created_at >= start - lead:
            continue  # booked inside the window: the confirmation said it all a moment ago
        if _queue_once(
            session,
            reminder_key(booking.id, start),
            channel="email",
            topic="booking_reminder",
            recipient=booking.contact_email,
            payload={
                "booking_id": str(booking.id),
                "start": start.astimezone(UTC).isoformat(),
            },
            booking_id=booking.id,
            now=now,
        ):
            report.reminders += 1
    report.digests = _queue_digest(session, settings, now)
    return report


def _queue_digest(session: Session, settings: BusinessSettings, now: datetime) -> int:
    """Tomorrow's jobs for the staff, once the digest hour has come (local time); nothing on an
    evening before a day without jobs (a booking made later that evening still brings one)."""
    local = now.astimezone(dates.business_zone())
    if local.hour < settings.digest_hour:
        return 0
    tomorrow = (local + timedelta(days=1)).date()
    keys = {c: digest_key(tomorrow.isoformat(), c) for c in ("whatsapp", "email")}
    if session.exec(
        select(func.count())
        .select_from(NotificationOutbox)
        .where(col(NotificationOutbox.dedupe_key).in_(list(keys.values())))
    ).one() == len(keys):
        return 0
    jobs = day_sheet.jobs(session, tomorrow)
    if not jobs:
        return 0
    with i18n.using(settings.staff_language):
        mail, params = digest(tomorrow, jobs)
    queued = 0
    for channel, topic, recipient, payload in (
        ("whatsapp", "staff_digest", settings.whatsapp_number, {"params": params}),
        ("email", "staff_digest_mail", settings.email, mail),
    ):
        if recipient and _queue_once(
            session,
            keys[channel],
            channel=channel,
            topic=topic,
            recipient=recipient,
            payload={"day": tomorrow.isoformat(), **payload},
            now=now,
        ):
            queued += 1
    return queued


# How the digest marks a job not confirmed yet: the crew calls the office before loading.
PENDING_MARK = N_o("NOT CONFIRMED")
PENDING_NOTE = N_o("Pending: not confirmed yet; check with the office before loading.")


def digest(day, jobs: list[day_sheet.SheetBooking]) -> tuple[dict, list[str]]:
    """The digest of `day`'s jobs in the language of the moment: the mail ({subject, lines})
    and the WhatsApp template's five parameters. A pending job is marked in both, and counted
    in the heading."""
    shown = dates.display_day(day)
    pending = sum(1 for job in jobs if job.status == "pending")
    heading = _o("Jobs for {day}: {count}").format(day=shown, count=len(jobs))
    if pending:
        heading += " " + office_ngettext(
            "({count} not confirmed)", "({count} not confirmed)", pending
        ).format(count=pending)
    lines = [heading, ""]
    summary = []
    for job in jobs:
        load = ", ".join(f"{line.service} × {line.quantity}" for line in job.lines)
        mark = f"[{_o(PENDING_MARK)}] " if job.status == "pending" else ""
        lines.append(
            mark
            + _o("{leave} leave · {start}–{end} · {reference}").format(
                leave=job.leave, start=job.start, end=job.end, reference=job.reference
            )
        )
        if job.status == "pending":
            lines.append("  " + _o(PENDING_NOTE))
        lines += [
            "  "
            + _o("Customer: {name}, {phone}").format(name=job.customer, phone=job.phone or "-"),
            "  " + _o("Where: {venue}").format(venue=job.venue or "-"),
            "  " + _o("Load: {load}").format(load=load),
        ]
        if job.pickup:
            lines.append("  " + _o("Pick up at {time}").format(time=job.pickup))
        if job.special_requests:
            lines.append(
                "  "
                + _o("Special requests: {text}").format(text=" ".join(job.special_requests.split()))
            )
        lines.append("")
        summary.append(f"{mark}{job.leave} {job.reference} {job.venue or '-'}: {load}")
    mail = {"subject": _o("Tomorrow's jobs: {day}").format(day=shown), "lines": lines}
    params = [
        _o("Tomorrow's jobs"),
        shown,
        heading,
        "-",
        "; ".join(summary),
    ]
    return mail, params


def run_once(*, engine=None, now: datetime | None = None, holder: str = "") -> QueueReport | None:
    """Queue what is due when this caller takes the period's lease (one runner of the cluster
    per period; the dedupe keys keep a second one harmless anyway); None when another has it."""
    engine = engine or get_engine()
    now = now or utcnow()
    if not take_lease(engine=engine, now=now, period=PERIOD, name=LEASE_NAME, holder=holder):
        return None
    with session_scope(engine) as session:
        report = queue_due(session=session, now=now)
    if report.reminders or report.digests:
        log.info("reminders: queued %d reminder(s), %d digest(s)", report.reminders, report.digests)
    return report


async def reminders_worker(*, engine=None) -> None:
    """Every app worker asks for the period's lease until cancelled; the one that gets it
    queues what is due."""
    while True:
        try:
            await asyncio.to_thread(run_once, engine=engine)
        except Exception as exc:
            if is_outage(exc):
                log.warning("reminders: database unavailable (%s)", error_summary(exc))
            else:
                log.exception("reminders failed; again in %s s", PERIOD.total_seconds())
        await asyncio.sleep(PERIOD.total_seconds())
