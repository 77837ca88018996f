"""A van's load list (/admin/day/load/{date}, issue 37): what to load for a van's day and what
comes back. A StaffState: the guard refuses its events to anyone else; the day-sheet service
decides which vans the caller may see (staff their own, admins any)."""

from __future__ import annotations

import reflex as rx

from storefront.i18n import N_o, _o
from storefront.services import dates
from storefront.services.booking.admin import AdminBookingError
from storefront.services.operations import day_sheet
from storefront.state.auth import StaffState
from storefront.state.base import call_service
from storefront.state.day_sheet import BAD_DAY, day_url
from storefront.state.errors import log_failure

LOAD_FAILED = N_o("Failed to load the load list. Please try again.")


class LoadListState(StaffState):
    day: str = ""  # YYYY-MM-DD
    title: str = ""  # 'Saturday, 13.06.2026'
    business_name: str = ""
    sheet_url: str = ""  # back to the day sheet
    van_id: str = ""
    van_name: str = ""
    vans: list[day_sheet.SheetVan] = []
    load_lines: list[str] = []
    back_lines: list[str] = []
    stops: int = 0
    loaded: bool = False
    error: str = ""

    async def _show(self, caller: str, day: object, van: str) -> None:
        try:
            found = await call_service(day_sheet.van_load, actor_id=caller, day=day, van=van)
        except AdminBookingError as exc:
            if exc.code != "invalid_filter":
                self.error = _o(LOAD_FAILED)
                return
            self.error = _o(BAD_DAY)
            found = await call_service(day_sheet.van_load, actor_id=caller, day="", van=van)
        except Exception as exc:
            log_failure("LoadListState._show", exc)
            self.error = _o(LOAD_FAILED)
            return
        self.day = found.day.isoformat()
        self.title = f"{_o(dates.OFFICE_DAY_NAMES[(found.day.weekday() + 1) % 7])}, " + (
            dates.display_day(found.day)
        )
        self.business_name = found.business_name
        self.sheet_url = day_url(found.day)
        self.van_id, self.van_name, self.vans = found.van_id, found.van_name, found.vans
        self.load_lines, self.back_lines = found.load, found.comes_back
        self.stops = found.stops
        self.loaded = True

    @rx.event
    async def load(self):
        """on_load: the load list of the day in the address (today's at /admin/day/load)."""
        self.error, self.loaded = "", False
        caller = await self._staff_id()
        if caller:
            day = str(self.router.page.params.get("day") or "")[:10]
            await self._show(caller, day, "")

    @rx.event
    async def pick_van(self, van_id: str):
        caller = await self._staff_id()
        if caller:
            await self._show(caller, self.day, str(van_id)[:64])
