"""The admin dashboard's figures. An AdminState: the guard refuses its events to anyone but an
admin; the dashboard service checks the role again."""

from __future__ import annotations

import logging

import reflex as rx

from storefront.i18n import _o
from storefront.services.operations import dashboard
from storefront.state.auth import AdminState
from storefront.state.base import call_service

log = logging.getLogger(__name__)


def _counts(counts: dashboard.Counts) -> dict[str, int]:
    return {
        "users": counts.users,
        "admins": counts.admins,
        "services": counts.services,
        "bookings": counts.bookings,
    }


class AdminDashboardState(AdminState):
    counts: dict[str, int] = {}
    # docs/product.md §8: the sample numbers, shown only when the statistics query failed.
    sample: bool = False
    weeks: list[dict[str, str | int | float]] = []
    upcoming: list[dict[str, str | int]] = []
    checks: list[dict[str, str]] = []
    loaded: bool = False

    @rx.event
    async def load(self):
        caller = await self._admin_id()
        if not caller:
            return
        try:
            stats = await call_service(dashboard.statistics, actor_id=caller)
        except Exception:
            log.exception("the dashboard statistics failed")
            self.counts, self.sample = _counts(dashboard.SAMPLE_COUNTS), True
            self.weeks, self.upcoming = [], []
        else:
            self.counts, self.sample = _counts(stats.counts), False
            self.weeks = [
                {"week": w.week, "bookings": w.bookings, "value": round(w.value, 2)}
                for w in stats.weeks
            ]
            self.upcoming = [{"service": s.service, "bookings": s.bookings} for s in stats.upcoming]
        try:
            checks = await call_service(dashboard.system_status, actor_id=caller)
        except Exception:
            log.exception("the system status failed")
            checks = (dashboard.Check(_o("Database Connection"), False, _o("Not answering")),)
        self.checks = [
            {"name": c.name, "ok": "yes" if c.ok else "no", "detail": c.detail} for c in checks
        ]
        self.loaded = True
