"""`/metrics`'s answer (docs/operations.md, 'Metrics'): what the workers counted
(services/metrics.py), then what the database says at the moment of the scrape, read by the
health check's one function (services/operations/health.py: the database's answer, the
outbox's backlog and its oldest message, the messages given up) and the backups' rows (the age
of the last one that finished). Read when scraped, never kept in a worker's memory: every
worker answers the same."""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator
from datetime import datetime

from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy.engine import Engine
from sqlmodel import Session

from storefront.db import error_summary
from storefront.models import utcnow
from storefront.services import metrics
from storefront.services.operations import backup, health

logger = logging.getLogger(__name__)


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


class DatabaseReadings(Collector):
    """The gauges read from the database when a scrape asks."""

    def __init__(self, engine: Engine, *, now: datetime | None = None) -> None:
        self.engine = engine
        self.now = now

    def collect(self) -> Iterator[Metric]:
        now = self.now or utcnow()
        report = health.check(engine=self.engine, now=now)
        yield _gauge(
            "storefront_database_up",
            "1 when the database answered the scrape's health check, else 0",
            1 if report.database.reachable else 0,
        )
        if report.outbox is None:
            return
        outbox = report.outbox
        yield _gauge(
            "storefront_outbox_backlog",
            "Notifications waiting to be sent (pending), retries included",
            outbox.pending,
        )
        yield _gauge(
            "storefront_outbox_oldest_pending_age_seconds",
            "How long the oldest waiting notification has waited; 0 when none waits",
            outbox.oldest_pending_age_seconds or 0,
        )
        yield _gauge(
            "storefront_outbox_failed",
            "Notifications given up for good (status failed), still kept",
            outbox.failed,
        )
        age = last_backup_age(self.engine, now=now)
        if age is not None:
            yield _gauge(
                "storefront_last_backup_age_seconds",
                "Seconds since the last backup that finished; +Inf when none has",
                age,
            )


def last_backup_age(engine: Engine, *, now: datetime) -> float | None:
    """Seconds since the last finished backup (+Inf when none finished); None when the
    backups could not be read."""
    try:
        with Session(engine) as session:
            done = backup.last_backups(session=session).done
    except Exception as exc:  # the scrape still answers with what it has
        logger.warning("/metrics could not read the backups: %s", error_summary(exc))
        return None
    if done is None or done.finished_at is None:
        return math.inf
    return max((now - done.finished_at).total_seconds(), 0.0)


def scrape(*, engine: Engine, now: datetime | None = None) -> bytes:
    """The whole answer of `/metrics`, in Prometheus's text format."""
    return metrics.exposition(DatabaseReadings(engine, now=now))
