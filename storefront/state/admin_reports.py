"""The owner's reports, one month at a time (services/operations/reports.py). An AdminState: the
guard refuses its events to anyone but an admin, and the service checks the role again. Amounts
arrive as Decimal and are shown through money.format_price; the chart alone gets numbers (the
chart library draws numbers), turned from the Decimal at the last step."""

from __future__ import annotations

import reflex as rx

from storefront import i18n, routes
from storefront.i18n import N_o, _o
from storefront.services import dates
from storefront.services.money import format_number, format_price
from storefront.services.operations import reports
from storefront.state.auth import AdminState
from storefront.state.base import call_service
from storefront.state.errors import log_failure

LOAD_FAILED = N_o("Failed to load the reports")
BAD_MONTH = N_o("No such month")


def _share(value) -> str:
    return "" if value is None else f"{format_number(value)} %"


def _hours(value) -> str:
    return format_number(value)


def _revenue_rows(rows) -> list[dict[str, str]]:
    return [
        {
            "key": r.key,
            "name": r.name,
            "category": r.category,
            "booked": format_price(r.booked),
            "collected": format_price(r.collected),
        }
        for r in rows
    ]


def _csv_href(table: str, month: str) -> str:
    return routes.ADMIN_REPORTS_CSV.format(table=table) + f"?month={month}"


class AdminReportsState(AdminState):
    month: str = ""  # YYYY-MM
    month_label: str = ""
    categories: list[dict[str, str]] = []
    services: list[dict[str, str]] = []
    # Booked and collected per category for the chart: numbers, and their labels as text.
    chart: list[dict[str, str | float]] = []
    chart_height: int = 0
    booked_total: str = ""
    collected_total: str = ""
    utilisation: list[dict[str, str]] = []  # the services with bookings this month
    idle: list[dict[str, str]] = []  # the others (the screen folds them away)
    cancellations: dict[str, str] = {}
    unpaid: list[dict[str, str]] = []
    unpaid_count: int = 0
    unpaid_shown: int = 0
    unpaid_total: str = ""
    csv: dict[str, str] = {}
    error: str = ""
    loaded: bool = False

    @rx.event
    async def load(self):
        """On opening the page: this month."""
        self.month = ""
        await self._show()

    @rx.event
    async def previous_month(self):
        await self._step(-1)

    @rx.event
    async def next_month(self):
        await self._step(1)

    @rx.event
    async def this_month(self):
        self.month = ""
        await self._show()

    async def _step(self, step: int):
        try:
            self.month = reports.shift_month(self.month, step)
        except reports.ReportError:
            self.month = ""
        await self._show()

    async def _show(self):
        self.error = ""
        caller = await self._admin_id()
        if not caller:
            return
        try:
            found = await call_service(reports.monthly_report, actor_id=caller, month=self.month)
        except reports.ReportError as exc:
            self.error = _o(BAD_MONTH) if exc.code == "invalid_month" else _o(LOAD_FAILED)
            return
        except Exception as exc:
            log_failure("AdminReportsState.load", exc)
            self.error = _o(LOAD_FAILED)
            return
        self.month = found.month.key
        self.month_label = found.month.label()
        revenue = found.revenue
        self.categories = _revenue_rows(revenue.by_category)
        self.services = _revenue_rows(revenue.by_service)
        self.chart = [
            {
                "name": r.name,
                # the chart's numbers, from the Decimal at the last step
                "booked": float(r.booked),
                "collected": float(r.collected),
                "booked_label": format_price(r.booked),
                "collected_label": format_price(r.collected),
            }
            for r in revenue.by_category
        ]
        self.chart_height = 90 + 56 * len(self.chart)
        self.booked_total = format_price(revenue.booked)
        self.collected_total = format_price(revenue.collected)
        rows = [
            {
                "service": r.service,
                "units": str(r.units),
                "booked": _hours(r.booked_hours),
                "open": _hours(r.open_hours),
                "share": _share(r.share) if r.share is not None else _o("Not open"),
                # the bar's width, 0-100 (a share above 100 % fills it)
                "width": f"{min(r.share or 0, 100)}%",
            }
            for r in found.utilisation
        ]
        booked = [r.booked_hours > 0 for r in found.utilisation]
        self.utilisation = [row for row, some in zip(rows, booked, strict=True) if some]
        self.idle = [row for row, some in zip(rows, booked, strict=True) if not some]
        c = found.cancellations
        self.cancellations = {
            "bookings": str(c.bookings),
            "cancelled": str(c.cancelled),
            "share": _share(c.share) if c.share is not None else "–",
            "value": format_price(c.cancelled_value),
        }
        self.unpaid = [
            {
                "href": i18n.href(routes.with_id(routes.ADMIN_BOOKING_EDIT, r.booking_id)),
                "reference": r.reference,
                "customer": r.customer,
                "event_day": dates.display_day(r.event_day),
                "total": format_price(r.total),
                "paid": format_price(r.paid),
                "balance": format_price(r.balance),
                "days": str(r.days),
            }
            for r in found.unpaid.rows
        ]
        self.unpaid_count = found.unpaid.count
        self.unpaid_shown = len(found.unpaid.rows)
        self.unpaid_total = format_price(found.unpaid.balance)
        self.csv = {table: _csv_href(table, self.month) for table in reports.TABLES}
        self.loaded = True
