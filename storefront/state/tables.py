"""The wedding tables page: pick a colour and a size, type how many, add to the cart."""

from __future__ import annotations

import dataclasses
import logging

import reflex as rx

from storefront.i18n import N_, _
from storefront.services.booking import cart
from storefront.services.catalog import showcase
from storefront.services.money import format_price
from storefront.state.access import access
from storefront.state.base import call_service, set_changed

log = logging.getLogger(__name__)
LOAD_FAILED = N_("Unknown error occurred")
NOT_ADDED = N_("Choose a table and how many (1-1000).")


@access("public")
class TablesState(rx.State):
    tables: list[dict[str, str]] = []
    loading: bool = True
    error: str = ""
    color: str = "white"
    size: str = "60"
    count_text: str = "1"

    @rx.event
    async def load(self):
        """The tables of the page. Shown again (a later visit of this tab), the ones held stay
        on screen and the button stays live while they are read afresh: a click in that moment
        is added, not dropped by a button that went busy under the pointer."""
        self.error = ""
        if not self.tables:
            self.loading = True
            yield
        await self._fetch()
        self.loading = False

    async def _fetch(self) -> None:
        try:
            tables = await call_service(showcase.wedding_tables)
        except Exception:  # the log gets the exception; the visitor the spec's load-error text
            log.exception("loading table services failed")
            self.tables, self.error = [], _(LOAD_FAILED)
        else:
            set_changed(self, tables=[dataclasses.asdict(table) for table in tables])

    @rx.var
    def selected(self) -> dict[str, str]:
        for table in self.tables:
            if table["color"] == self.color and table["size"] == self.size:
                return table
        return {}

    @rx.var
    def count(self) -> int:
        return int(self.count_text) if self.count_text.isdigit() else 0

    @rx.var
    def price_label(self) -> str:
        return format_price(showcase.table_price(self.selected.get("price")))

    @rx.var
    def total_label(self) -> str:
        return format_price(showcase.table_total(self.selected.get("price"), self.count))

    @rx.event
    def pick_color(self, color: str):
        if showcase.is_table_choice(color=color):
            self.color = color

    @rx.event
    def pick_size(self, size: str):
        if showcase.is_table_choice(size=size):
            self.size = size

    @rx.event
    def type_count(self, text: str):
        typed = str(text)[:12]
        yield from self._show(typed, cart.table_count_input(typed, on_blur=False))

    @rx.event
    def leave_count(self, text: str = ""):
        typed = str(text)[:12] if isinstance(text, str) and text else self.count_text
        yield from self._show(typed, cart.table_count_input(typed, on_blur=True))

    def _show(self, typed: str, count_text: str):
        """Set the field to `count_text`. The field keeps what was typed and takes a new value
        only when it changes: when the rule turns `typed` back into the value held already
        ('3000' -> '1000' twice), the typed text is sent first, so the field sees the change."""
        if count_text != typed and count_text == self.count_text:
            self.count_text = typed
            yield
        self.count_text = count_text

    @rx.event
    async def add_to_cart(self):
        """The table chosen, `count` of it. A press that comes before this tab's tables are
        read (the page's load still on its way) reads them first; one that finds no table
        says so instead of doing nothing."""
        from storefront.state.cart import CartState

        if not self.tables:
            await self._fetch()
        table_id = self.selected.get("id")
        if not table_id or self.count < 1:
            return rx.toast.warning(_(NOT_ADDED), duration=6000)
        return CartState.add_service(table_id, self.count)
