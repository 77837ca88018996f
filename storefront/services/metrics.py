"""What the app counts as it works, for an operator's Prometheus (docs/operations.md, 'Metrics'):
each event's time by the area of the app it belongs to, bookings placed and refused (by the
refusal's code), the outbox's sends by outcome, mail cap hits, Redis errors and the database
connections in use. What is read from the database (the outbox's backlog, the last backup's
age) is read when scraped: services/operations/metrics.py, which `/metrics` (api/metrics.py)
answers with.

Several worker processes (granian's GRANIAN_WORKERS): with PROMETHEUS_MULTIPROC_DIR set before
this module is first imported, every process writes its values to files of its own in that
folder and a scrape sums them (prometheus-client's multiprocess mode; storefront/prod.py makes
a fresh folder when the operator names none). Without it (one process, `make run`), a scrape
reads this process's values. Label values are bounded: the groups below, the refusal codes a
service declares, the outbox's channels and outcomes; never a text that comes from a visitor."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager

from prometheus_client import (
    CONTENT_TYPE_PLAIN_0_0_4,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
    values,
)
from prometheus_client.registry import Collector
from sqlalchemy import event
from sqlalchemy.engine import Engine

from storefront.db import get_engine

CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4
# The areas an event's time is told by (state/timing.py decides which a state belongs to).
EVENT_GROUPS = (
    "page",
    "catalog",
    "cart",
    "checkout",
    "contact",
    "account",
    "staff",
    "admin",
    "other",
)
OUTBOX_CHANNELS = ("email", "whatsapp")
# services/messaging/outbox.SendReport's outcomes of one attempt.
OUTBOX_OUTCOMES = ("sent", "printed", "retried", "failed", "suppressed")
# Where a Redis error was seen: an event's state (Reflex's state manager), the health check.
REDIS_PLACES = ("events", "health")

REGISTRY = CollectorRegistry(auto_describe=True)
# No `_created` series beside each counter (the multiprocess mode has none either).
disable_created_metrics()

EVENT_SECONDS = Histogram(
    "storefront_event_duration_seconds",
    "Time one Reflex event took, from taking its tab's state to its last update, by the area "
    "of the app its handler belongs to",
    ["group"],
    registry=REGISTRY,
)
BOOKINGS_PLACED = Counter(
    "storefront_bookings_placed",
    "New bookings placed (a retry of one is not counted)",
    registry=REGISTRY,
)
BOOKINGS_REFUSED = Counter(
    "storefront_bookings_refused",
    "Bookings refused, by the refusal's code (services/booking/lines.BookingError)",
    ["reason"],
    registry=REGISTRY,
)
OUTBOX_SENDS = Counter(
    "storefront_outbox_sends",
    "Attempts to send a notification, by outcome: sent, printed (no mail server or webhook), "
    "retried (failed, tried again later), failed (given up), suppressed (held back: stale)",
    ["channel", "outcome"],
    registry=REGISTRY,
)
MAIL_CAP_HITS = Counter(
    "storefront_mail_cap_hits",
    "Booking confirmations held back by the mail cap (MAIL_CAP_PER_RECIPIENT)",
    registry=REGISTRY,
)
REDIS_ERRORS = Counter(
    "storefront_redis_errors",
    "Redis errors: an event whose state could not be read or written, a failed health check",
    ["place"],
    registry=REGISTRY,
)
DB_POOL_IN_USE = Gauge(
    "storefront_db_pool_connections_in_use",
    "Database connections checked out of the pools of every live worker",
    multiprocess_mode="livesum",
    registry=REGISTRY,
)


def _start_at_zero() -> None:
    """Every known label value from 0, so a scrape shows each family and rate() sees the first
    increase."""
    for group in EVENT_GROUPS:
        EVENT_SECONDS.labels(group=group)
    for channel in OUTBOX_CHANNELS:
        for outcome in OUTBOX_OUTCOMES:
            OUTBOX_SENDS.labels(channel=channel, outcome=outcome)
    for place in REDIS_PLACES:
        REDIS_ERRORS.labels(place=place)


_start_at_zero()


def event_took(group: str, seconds: float) -> None:
    EVENT_SECONDS.labels(group=group if group in EVENT_GROUPS else "other").observe(seconds)


def refusal_codes(codes: Iterable[str]) -> None:
    """The codes a booking may be refused with, each counted from 0."""
    for code in codes:
        BOOKINGS_REFUSED.labels(reason=code)


def booking_placed(*, mail_held: bool) -> None:
    BOOKINGS_PLACED.inc()
    if mail_held:
        MAIL_CAP_HITS.inc()


def booking_refused(code: str) -> None:
    BOOKINGS_REFUSED.labels(reason=code).inc()


def outbox_attempt(channel: str, outcome: str) -> None:
    OUTBOX_SENDS.labels(channel=channel, outcome=outcome).inc()


def redis_error(place: str) -> None:
    REDIS_ERRORS.labels(place=place).inc()


def watch_pool(engine: Engine) -> None:
    """Follow `engine`'s pool: a connection checked out counts until it is checked in (an
    invalidated one too: SQLAlchemy checks it in without its DB-API connection)."""
    if event.contains(engine, "checkout", _checked_out):
        return
    event.listen(engine, "checkout", _checked_out)
    event.listen(engine, "checkin", _checked_in)


def _checked_out(_dbapi_connection, _record, _proxy) -> None:
    DB_POOL_IN_USE.inc()


def _checked_in(_dbapi_connection, _record) -> None:
    DB_POOL_IN_USE.dec()


def multiprocess_dir() -> str | None:
    """The folder every process writes its values to, when this one writes there too (the
    variable was set before prometheus-client was first imported)."""
    if values.ValueClass is values.MutexValue:
        return None
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def process_ended() -> None:
    """This worker's live gauges leave the sums (the pool's connections it held)."""
    if multiprocess_dir():
        multiprocess.mark_process_dead(os.getpid())


@asynccontextmanager
async def worker_metrics() -> AsyncIterator[None]:
    """A lifespan task of every worker: its pool is followed while it serves, and its live
    gauges leave the sums when it stops."""
    watch_pool(get_engine())
    try:
        yield
    finally:
        process_ended()


class _ThisProcess(Collector):
    def collect(self) -> Iterator:
        return REGISTRY.collect()


def exposition(*collectors: Collector) -> bytes:
    """Prometheus's text format of every process's values (or this one's), and then what
    `collectors` read when asked."""
    registry = CollectorRegistry(auto_describe=False)
    if multiprocess_dir():
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ThisProcess())
    for collector in collectors:
        registry.register(collector)
    return generate_latest(registry)
