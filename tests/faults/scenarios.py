"""The fault scenarios, shared by tests/faults and bench/faults.py. Each returns what happened
and prints it through `out` as it goes.

`booking_load_with_restarts`: N threads place bookings through the booking service as checkout
does (`in_transaction` + `place_booking` on the app's engine), each booking with its own
idempotency key and, when refused, retried with the SAME key (a guest pressing 'Complete
Booking' again). Meanwhile the private PostgreSQL cluster is restarted (`pg_ctl restart -m
fast`), then stopped for a few seconds and started again. Every slot has exactly as many
bookings asked of it as it has units, so a lost key shows as a missing booking and a doubled one
as a refusal (slot_taken) or an overbooked slot."""

from __future__ import annotations

import asyncio
import re
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, text
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from bench.booking_race import OVERBOOKED
from storefront.db import in_transaction, make_engine
from storefront.models import Booking, BookingItem, NotificationOutbox, utcnow
from storefront.services.booking import lines as booking_lines
from storefront.services.booking import placing
from storefront.services.messaging import outbox
from storefront.services.operations import health
from storefront.settings import get_settings
from tests.conftest import migrate
from tests.factories import contact, line, make_service
from tests.faults.private_pg import PrivatePostgres
from tests.mail_server import MailServer, free_port
from tests.webhook_server import WebhookServer

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAYS = ["2026-06-10", "2026-06-11", "2026-06-12"]
HOURS = [f"{h:02d}:00" for h in range(8, 20)]
REFUSED = {"unavailable", "busy"}  # worth pressing the button again
RETRY_PAUSE = 0.05
KEY_DEADLINE = 90.0  # seconds one key may keep being retried


@dataclass
class LoadResult:
    keys: int = 0
    units: int = 0
    placed: int = 0  # keys that got a booking
    attempts: int = 0
    refused: Counter = field(default_factory=Counter)  # code -> count
    refused_in_outage: int = 0  # refusals between a stop/restart and the first success after
    unexpected: Counter = field(default_factory=Counter)  # "Type: message" -> count
    reasons: Counter = field(default_factory=Counter)  # what the driver said, behind a refusal
    refused_keys: set = field(default_factory=set)
    lost: list[str] = field(default_factory=list)  # keys without a booking
    doubled: list[str] = field(default_factory=list)  # keys with more than one booking
    overbooked: list[tuple] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    recovery_seconds: list[float] = field(default_factory=list)  # start done -> next success
    engine_ok_after: bool = False
    health_after: dict | None = None
    seconds: float = 0.0


def booking_load_with_restarts(
    pg: PrivatePostgres,
    *,
    threads: int = 8,
    keys_per_thread: int = 30,
    units: int = 10,
    pause: float = 0.02,
    outage_seconds: float = 3.0,
    out: Callable[[str], None] = print,
) -> LoadResult:
    url = pg.create_database(f"load_{uuid.uuid4().hex[:8]}")
    migrate(url)
    engine = make_engine(url)  # the app's engine: pool_pre_ping, recycle; used throughout
    with Session(engine) as session:
        service = make_service(session, title="Castle", units=units)
        session.commit()
        service_id = str(service.id)
    total = threads * keys_per_thread
    slots = [(day, hour) for day in DAYS for hour in HOURS][: -(-total // units)]
    assert len(slots) * units >= total, "not enough slots for the keys"
    keys = [f"fault-{n:05d}-{uuid.uuid4().hex[:6]}" for n in range(total)]
    slot_of = {key: slots[n % len(slots)] for n, key in enumerate(keys)}
    result = LoadResult(keys=total, units=units)
    lock = threading.Lock()
    done = Counter()
    state = {"down_since": None, "awaiting_success": None}
    began = time.monotonic()

    def stamp() -> str:
        return f"{time.monotonic() - began:6.2f}s"

    def place(key: str) -> None:
        day, hour = slot_of[key]
        deadline = time.monotonic() + KEY_DEADLINE
        while True:
            with lock:
                result.attempts += 1
            try:
                in_transaction(
                    lambda session: placing.place_booking(
                        session=session,
                        lines=[line(service_id, day, hour)],
                        contact=contact(),
                        idempotency_key=key,
                        now=NOW,
                    ),
                    engine,
                )
            except booking_lines.BookingError as error:
                if error.code in REFUSED and time.monotonic() < deadline:
                    with lock:
                        result.refused[error.code] += 1
                        result.reasons[_reason(error)] += 1
                        result.refused_keys.add(key)
                        if state["down_since"] is not None:
                            result.refused_in_outage += 1
                    time.sleep(RETRY_PAUSE)
                    continue
                with lock:
                    result.unexpected[f"BookingError: {error.code}"] += 1
                return
            except Exception as error:  # counted: the test fails on any of these
                with lock:
                    first = str(error).strip().splitlines()[0][:160] if str(error) else ""
                    result.unexpected[f"{type(error).__name__}: {first}"] += 1
                if time.monotonic() >= deadline:
                    return
                time.sleep(RETRY_PAUSE)
                continue
            with lock:
                result.placed += 1
                done["keys"] += 1
                if state["awaiting_success"] is not None:
                    since = time.monotonic() - state["awaiting_success"]
                    result.recovery_seconds.append(since)
                    result.events.append(
                        f"{stamp()} first booking after the restart ({since:.2f} s)"
                    )
                    state["awaiting_success"] = None
                    state["down_since"] = None
            return

    def worker(share: list[str]) -> None:
        for key in share:
            place(key)
            time.sleep(pause)

    def progress() -> int:
        with lock:
            return done["keys"]

    def wait_for(count: int, timeout: float = 120) -> None:
        end = time.monotonic() + timeout
        while progress() < count and time.monotonic() < end:
            time.sleep(0.01)

    def event(text_: str) -> None:
        with lock:
            result.events.append(f"{stamp()} {text_}")
        out(f"  {stamp()} {text_}")

    shares = [keys[n::threads] for n in range(threads)]
    workers = [threading.Thread(target=worker, args=(share,)) for share in shares]
    out(
        f"{threads} threads, {total} keys, a {units}-unit service, {len(slots)} slots of exactly "
        f"{units} bookings each; PostgreSQL {pg.url()}"
    )
    for thread in workers:
        thread.start()

    wait_for(total // 4)
    event(f"{progress()} booked; pg_ctl restart -m fast")
    with lock:
        state["down_since"] = time.monotonic()
    took = pg.restart("fast")
    with lock:
        state["awaiting_success"] = time.monotonic()
    event(f"restart done in {took:.2f} s")

    wait_for(total * 55 // 100)
    event(f"{progress()} booked; pg_ctl stop -m fast")
    with lock:
        state["down_since"] = time.monotonic()
        state["awaiting_success"] = None
    took = pg.stop("fast")
    event(f"stopped in {took:.2f} s; down for {outage_seconds:g} s")
    time.sleep(outage_seconds)
    took = pg.start()
    with lock:
        state["awaiting_success"] = time.monotonic()
    event(f"started in {took:.2f} s")

    for thread in workers:
        thread.join(timeout=KEY_DEADLINE * 3)
    result.seconds = time.monotonic() - began
    event(f"all threads done ({progress()} keys booked)")

    # What the database holds now, read with the same engine the load used.
    with Session(engine) as session:
        counts = dict(
            session.exec(
                select(Booking.idempotency_key, func.count()).group_by(Booking.idempotency_key)
            ).all()
        )
        result.lost = [k for k in keys if counts.get(k, 0) == 0]
        result.doubled = [k for k, n in counts.items() if n > 1]
        per_slot = session.exec(
            select(BookingItem.start_datetime, func.sum(BookingItem.quantity))
            .where(BookingItem.service_id == uuid.UUID(service_id))
            .group_by(BookingItem.start_datetime)
        ).all()
        result.overbooked = [(str(s), int(n)) for s, n in per_slot if n > units]
        result.overbooked += [tuple(r) for r in session.execute(text(OVERBOOKED)).all()]
    # The same engine and process again: a new booking on a free day, and the health check.
    try:
        in_transaction(
            lambda session: placing.place_booking(
                session=session,
                lines=[line(service_id, "2026-06-20", "10:00")],
                contact=contact(),
                idempotency_key=f"after-{uuid.uuid4().hex}",
                now=NOW,
            ),
            engine,
        )
        result.engine_ok_after = True
    except Exception as error:
        out(f"  the engine did not work again: {error!r}")
    result.health_after = health.check(engine=engine).as_dict()
    engine.dispose()
    return result


def _reason(error: BaseException) -> str:
    """The database driver's words behind a refusal (its first line, without addresses)."""
    cause = error.__cause__ or error.__context__
    text_ = str(getattr(cause, "orig", None) or cause or error.code).strip()
    first = text_.splitlines()[0] if text_ else ""
    if "Connection refused" in first:
        return "connection refused"
    return re.sub(
        r'^(connection failed: )?connection to server at "[^"]*", port \d+ failed: ', "", first
    )[:90]


def print_load(result: LoadResult, out: Callable[[str], None] = print) -> None:
    out(f"keys {result.keys}, booked {result.placed}, attempts {result.attempts}")
    out(
        f"refused cleanly and retried with the same key: {sum(result.refused.values())} "
        f"({dict(result.refused)}), {result.refused_in_outage} of them while the database was "
        "down or restarting"
    )
    out(f"keys that were refused at least once: {len(result.refused_keys)}")
    for reason, count in result.reasons.most_common():
        out(f"  {count:5d} x {reason}")
    out(f"unexpected exceptions: {sum(result.unexpected.values())} {dict(result.unexpected)}")
    out(f"keys without a booking: {len(result.lost)}; keys with two or more: {len(result.doubled)}")
    out(f"overbooked slots: {len(result.overbooked)} {result.overbooked or ''}")
    out(
        "recovery (database back -> next booking): "
        + ", ".join(f"{s:.2f} s" for s in result.recovery_seconds)
    )
    health_ = result.health_after or {}
    out(
        f"same engine afterwards: booking {'ok' if result.engine_ok_after else 'FAILED'}, "
        f"health {health_.get('status')} ({(health_.get('database') or {}).get('latency_ms')} ms)"
    )
    out(f"total {result.seconds:.1f} s")


# --- the webhook and the mail server down ------------------------------------------------------


@contextmanager
def patched(target: object, **values: object) -> Iterator[None]:
    """Set attributes for a while (settings, module constants), then put them back."""
    old = {name: getattr(target, name) for name in values}
    for name, value in values.items():
        setattr(target, name, value)
    try:
        yield
    finally:
        for name, value in old.items():
            setattr(target, name, value)


@contextmanager
def endpoints_down() -> Iterator[tuple[int, MailServer]]:
    """The app's webhook address and SMTP server point at ports where nothing listens yet;
    yields the webhook's port and the (unstarted) mail server to start later."""
    webhook_port = free_port()
    mail = MailServer()
    with patched(
        get_settings(),
        notify_webhook_url=f"http://127.0.0.1:{webhook_port}/message-handler",
        notify_timeout=5.0,
        smtp_host=mail.host,
        smtp_port=mail.port,
        smtp_starttls=False,
        smtp_user=None,
        smtp_password=None,
    ):
        try:
            yield webhook_port, mail
        finally:
            with suppress(Exception):
                mail.stop()


def place_some(engine: Engine, count: int, *, day: str, now: datetime | None) -> list[str]:
    """`count` bookings through the booking service; their references."""
    with Session(engine) as session:
        service = make_service(session, title="Bubble house", units=count)
        session.commit()
        service_id = str(service.id)
    references = []
    for n in range(count):
        placed = in_transaction(
            lambda session, n=n: placing.place_booking(
                session=session,
                lines=[line(service_id, day, "10:00")],
                contact=contact(email=f"guest{n}@example.com"),
                idempotency_key=f"notify-{n:03d}-{uuid.uuid4().hex[:8]}",
                now=now,
            ),
            engine,
        )
        references.append(placed.reference)
    return references


def outbox_rows(engine: Engine) -> list[NotificationOutbox]:
    with Session(engine) as session:
        return list(session.exec(select(NotificationOutbox)).all())


def delivered(webhook: WebhookServer | None, mail: MailServer) -> tuple[Counter, Counter]:
    """Deliveries per booking reference: staff messages and customer mails."""
    staff = Counter(body["templateParams"][0] for body in (webhook.requests if webhook else []))
    mails = Counter(
        re.search(r"MG-[0-9A-F]{8}", str(m["Subject"])).group(0) for m in list(mail.messages)
    )
    return staff, mails


def outbox_outage_virtual_clock(
    engine: Engine,
    *,
    bookings: int = 10,
    outage: timedelta = timedelta(hours=6),
    out: Callable[[str], None] = print,
) -> dict:
    """One sender, as the app runs it (`run_once`), on a simulated clock: every run happens at
    the moment the next row is due, through an outage of `outage`, then the servers return."""
    started = NOW
    with endpoints_down() as (webhook_port, mail):
        references = place_some(engine, bookings, day="2026-06-20", now=started)
        runs, clock = 0, started
        tally = Counter()
        while True:
            report = outbox.run_once(now=clock, limit=500, engine=engine)
            runs += 1
            tally.update(retried=report.retried, failed=report.failed, sent=report.sent)
            due = _next_due(engine)
            if due is None or due >= started + outage:
                break
            clock = due
        rows = outbox_rows(engine)
        during = {
            "rows": len(rows),
            "runs": runs,
            "attempts_per_row": sorted({r.attempts for r in rows}),
            "failed": sum(r.status == "failed" for r in rows),
            "pending": sum(r.status == "pending" for r in rows),
            "sent": tally["sent"],
        }
        out(
            f"{bookings} bookings -> {len(rows)} outbox rows; webhook and SMTP down for "
            f"{outage}; {runs} sender runs at the moments rows were due"
        )
        out(
            f"during the outage: attempts per row {during['attempts_per_row']}, "
            f"pending {during['pending']}, failed {during['failed']}, sent {during['sent']}"
        )
        back = started + outage
        with WebhookServer(port=webhook_port) as webhook:
            mail.start()
            last = back
            while (due := _next_due(engine)) is not None:
                clock = max(due, back)
                outbox.run_once(now=clock, limit=500, engine=engine)
                last = clock
            staff, mails = delivered(webhook, mail)
        rows = outbox_rows(engine)
    result = {
        "references": references,
        "during": during,
        "catch_up": last - back,
        "statuses": Counter(r.status for r in rows),
        "staff": staff,
        "mails": mails,
        "max_attempts": max(r.attempts for r in rows),
    }
    out(
        f"servers back at +{outage}: every row sent {result['catch_up'].total_seconds():.0f} s "
        f"later (simulated; the longest wait between attempts is "
        f"{outbox.LONGEST_RETRY.total_seconds():.0f} s); statuses {dict(result['statuses'])}"
    )
    out(
        f"staff messages per booking {sorted(set(staff.values()))}, mails per booking "
        f"{sorted(set(mails.values()))}, most attempts of one row {result['max_attempts']}"
    )
    return result


def _next_due(engine: Engine) -> datetime | None:
    with Session(engine) as session:
        return session.exec(
            select(func.min(NotificationOutbox.next_attempt_at)).where(
                NotificationOutbox.status == "pending"
            )
        ).one()


# The live scenario's clock: retries 300 times faster than in production (30 s -> 0.1 s,
# 5 min -> 1 s), so seconds of outage stand for the minutes the backoff is built for.
LIVE_FIRST_RETRY = timedelta(seconds=0.1)
LIVE_LONGEST_RETRY = timedelta(seconds=1)


def outbox_outage_two_senders(
    url: str,
    *,
    bookings: int = 20,
    outage_seconds: float = 4.0,
    senders: int = 2,
    out: Callable[[str], None] = print,
) -> dict:
    """Two app workers' background senders (`outbox_worker`, each with its own engine and event
    loop) run while bookings are placed and the webhook and SMTP server are down; then both
    servers start and the time until the outbox has caught up is measured (wall clock)."""
    day = (utcnow() + timedelta(days=30)).date().isoformat()
    engines = [make_engine(url) for _ in range(senders + 1)]
    stop = threading.Event()
    failures: list[BaseException] = []

    def sender(engine: Engine) -> None:
        async def run() -> None:
            task = asyncio.create_task(outbox.outbox_worker(engine=engine))
            while not stop.is_set() and not task.done():
                await asyncio.sleep(0.02)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

        try:
            asyncio.run(run())
        except BaseException as exc:  # reported by the caller
            failures.append(exc)

    with (
        endpoints_down() as (webhook_port, mail),
        patched(get_settings(), outbox_poll_seconds=0.1),
        patched(outbox, FIRST_RETRY=LIVE_FIRST_RETRY, LONGEST_RETRY=LIVE_LONGEST_RETRY),
    ):
        threads = [threading.Thread(target=sender, args=(e,)) for e in engines[1:]]
        began = time.monotonic()
        for thread in threads:
            thread.start()
        references = place_some(engines[0], bookings, day=day, now=None)
        placed_in = time.monotonic() - began
        time.sleep(max(0.0, outage_seconds - (time.monotonic() - began)))
        during = health.check(engine=engines[0]).as_dict()["outbox"]
        rows = outbox_rows(engines[0])
        attempts_down = sum(r.attempts for r in rows)
        out(
            f"{senders} senders running; {bookings} bookings placed in {placed_in:.2f} s with the "
            f"webhook and SMTP down; retries 300x faster than production "
            f"(first {LIVE_FIRST_RETRY.total_seconds()} s, at most "
            f"{LIVE_LONGEST_RETRY.total_seconds()} s apart)"
        )
        out(
            f"after {time.monotonic() - began:.1f} s down: {len(rows)} rows, {attempts_down} "
            f"failed attempts, /_health outbox {during}"
        )
        with WebhookServer(port=webhook_port) as webhook:
            mail.start()
            back = time.monotonic()
            first_delivery = None
            deadline = back + 60
            while time.monotonic() < deadline:
                if first_delivery is None and (webhook.requests or mail.messages):
                    first_delivery = time.monotonic() - back
                rows = outbox_rows(engines[0])
                if all(r.status != "pending" for r in rows):
                    break
                time.sleep(0.02)
            caught_up = time.monotonic() - back
            time.sleep(0.5)  # anything sent twice would arrive now
            stop.set()
            for thread in threads:
                thread.join(timeout=30)
            staff, mails = delivered(webhook, mail)
            calls = webhook.calls
    rows = outbox_rows(engines[0])
    for engine in engines:
        engine.dispose()
    result = {
        "references": references,
        "caught_up": caught_up,
        "first_delivery": first_delivery,
        "statuses": Counter(r.status for r in rows),
        "staff": staff,
        "mails": mails,
        "webhook_calls": calls,
        "attempts": Counter(r.attempts for r in rows),
        "failures": failures,
    }
    out(
        f"servers back: first delivery after {first_delivery or 0:.2f} s, all "
        f"{len(rows)} sent after {caught_up:.2f} s; statuses {dict(result['statuses'])}"
    )
    out(
        f"deliveries per booking: staff {sorted(set(staff.values()))}, mail "
        f"{sorted(set(mails.values()))}; webhook calls {calls} for {len(staff)} messages; "
        f"attempts per row {dict(sorted(result['attempts'].items()))}"
    )
    return result
