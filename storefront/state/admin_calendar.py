"""The week calendar: which service is booked when. A StaffState (staff see it too, to plan their
week); the calendar service checks the role again."""

from __future__ import annotations

from datetime import date, timedelta

import reflex as rx

from storefront.i18n import N_o, _o
from storefront.services.operations import week as admin_week
from storefront.state.auth import StaffState
from storefront.state.base import call_service
from storefront.state.day_sheet import day_url
from storefront.state.errors import log_failure

LOAD_FAILED = N_o("Failed to load bookings. Please try again later.")


class AdminCalendarState(StaffState):
    monday: str = ""  # YYYY-MM-DD
    day_labels: list[str] = []
    services: list[str] = []
    # cells[row][day] = that service's bookings that day
    cells: list[list[list[dict[str, str]]]] = []
    error: str = ""

    async def _show(self, day: str) -> None:
        caller = await self._staff_id()
        if not caller:
            return
        try:
            week = await call_service(admin_week.week_calendar, actor_id=caller, day=day)
        except Exception as exc:
            log_failure("AdminCalendarState._show", exc)
            self.error = _o(LOAD_FAILED)
            return
        self.error = ""
        self.monday = week.monday.isoformat()
        self.day_labels = list(week.days)
        self.services = [row.service for row in week.rows]
        self.cells = [
            [
                [
                    {
                        "booking_id": e.booking_id,
                        "reference": e.reference,
                        "status": e.status,
                        "time": f"{e.start}–{e.end}",
                        "buffer": (
                            _o("buffer until {time}").format(time=e.buffer_until)
                            if e.buffer_until
                            else ""
                        ),
                        "quantity": f"× {e.quantity}" if e.quantity > 1 else "",
                        "day_url": day_url(week.monday + timedelta(days=index)),
                    }
                    for e in entries
                ]
                for index, entries in enumerate(row.days)
            ]
            for row in week.rows
        ]

    @rx.event
    async def load(self):
        await self._show("")

    def _shifted(self, weeks: int) -> str:
        try:
            monday = date.fromisoformat(self.monday)
        except ValueError:
            return ""
        return (monday + timedelta(weeks=weeks)).isoformat()

    @rx.event
    async def previous_week(self):
        await self._show(self._shifted(-1))

    @rx.event
    async def next_week(self):
        await self._show(self._shifted(1))

    @rx.event
    async def this_week(self):
        await self._show("")
