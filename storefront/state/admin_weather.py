"""A rainy day (/admin/rainy-day, issue 37): the admin picks a day and the kinds of service the
weather stops (bouncers by default), sees the bookings affected, and offers them all a move or a
cancellation in one press. An AdminState: the guard refuses its events to anyone else, and the
service checks again."""

from __future__ import annotations

import secrets
from datetime import timedelta

import reflex as rx

from storefront.i18n import N_o, _o
from storefront.services import dates
from storefront.services.operations import weather
from storefront.state.auth import AdminState
from storefront.state.base import call_service
from storefront.state.errors import log_failure

LOAD_FAILED = N_o("Failed to load the bookings. Please try again.")
OFFER_FAILED = N_o("Failed to send the offers. Please try again.")
OFFERED = N_o("Offered a move or a cancellation to the customers of: {references}.")
NONE_LEFT = N_o("Every affected customer has already been offered a move.")
# What the service's refusals say on this screen.
REFUSALS = {
    "invalid_day": N_o("Please give the day as DD.MM.YYYY."),
    "past_day": N_o("Choose today or a day to come."),
    "no_categories": N_o("Choose at least one kind of service."),
}


class AdminWeatherState(AdminState):
    # The form as last looked up (what the offer acts on) and as the fields start.
    day: str = ""
    typed_day: str = ""
    categories: list[dict[str, str]] = []
    chosen: list[str] = []
    form_key: str = ""
    # The bookings the offer reaches, and how many have not been offered yet.
    affected: list[dict[str, str]] = []
    to_offer: int = 0
    looked: bool = False
    loaded: bool = False
    confirming: bool = False
    busy: bool = False
    notice: str = ""
    error: str = ""

    @rx.event
    async def load(self):
        """on_load: the categories, tomorrow's day in the field, nothing looked up yet."""
        self.notice = self.error = ""
        self.loaded = self.looked = self.confirming = self.busy = False
        self.affected, self.to_offer = [], 0
        caller = await self._admin_id()
        if not caller:
            return
        try:
            found = await call_service(weather.categories)
        except Exception as exc:
            log_failure("AdminWeatherState.load", exc)
            self.error = _o(LOAD_FAILED)
            return
        self.categories = [
            {"slug": slug, "name": name, "checked": "yes" if default else ""}
            for slug, name, default in found
        ]
        self.chosen = [c["slug"] for c in self.categories if c["checked"]]
        self.typed_day = dates.display_day(dates.today() + timedelta(days=1))
        self.form_key = secrets.token_hex(6)
        self.loaded = True

    async def _look_up(self, caller: str) -> bool:
        try:
            found = await call_service(
                weather.affected, actor_id=caller, day=self.day, categories=self.chosen
            )
        except weather.WeatherError as exc:
            self.error = _o(REFUSALS.get(exc.code, LOAD_FAILED))
            return False
        except Exception as exc:
            log_failure("AdminWeatherState._look_up", exc)
            self.error = _o(LOAD_FAILED)
            return False
        self.affected = [
            {
                "id": a.booking_id,
                "reference": a.reference,
                "customer": a.customer,
                "start": a.start,
                "services": a.services,
                "offered": "yes" if a.offered else "",
            }
            for a in found
        ]
        self.to_offer = sum(1 for a in found if not a.offered)
        self.looked = True
        return True

    @rx.event
    async def look_up(self, form_data: dict):
        """'Show the bookings': the day and the kinds as the form holds them."""
        self.notice = self.error = ""
        caller = await self._admin_id()
        if not caller:
            return
        self.typed_day = self.day = str(form_data.get("day") or "")[:10]
        slugs = {c["slug"] for c in self.categories}
        self.chosen = [s for s in slugs if form_data.get(f"category-{s}") in ("on", True, "true")]
        self.categories = [
            c | {"checked": "yes" if c["slug"] in self.chosen else ""} for c in self.categories
        ]
        self.looked = False
        await self._look_up(caller)

    @rx.event
    def ask(self):
        if self.to_offer:
            self.confirming = True

    @rx.event
    def keep(self, _open: bool = False):
        self.confirming = False

    @rx.event
    async def offer(self):
        """'Offer a move or a cancellation' to the bookings looked up (after 'are you sure')."""
        self.confirming = False
        if self.busy or not self.looked:
            return
        caller = await self._admin_id()
        if not caller:
            return
        self.busy = True
        yield
        try:
            offered = await call_service(
                weather.offer_moves, actor_id=caller, day=self.day, categories=self.chosen
            )
        except weather.WeatherError as exc:
            self.error = _o(REFUSALS.get(exc.code, OFFER_FAILED))
            self.busy = False
            return
        except Exception as exc:
            log_failure("AdminWeatherState.offer", exc)
            self.error = _o(OFFER_FAILED)
            self.busy = False
            return
        self.notice = (
            _o(OFFERED).format(references=", ".join(offered)) if offered else _o(NONE_LEFT)
        )
        await self._look_up(caller)
        self.busy = False
