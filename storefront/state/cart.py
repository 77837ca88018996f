"""The cart: kept in the browser under `cartItems`; every change goes through services.cart,
and prices are looked up in the catalogue, never taken from the browser."""

from __future__ import annotations

import asyncio

import reflex as rx

from storefront.services import cart, catalog
from storefront.services.money import format_price
from storefront.state.base import call_service

ADD_BUSY_SECONDS = 1.0
# SPEC 4: the theme page's button comes back sooner.
THEME_ADD_BUSY_SECONDS = 0.5
LAST_ADDED_SECONDS = 2.0
MAX_COUNT = 1000


class CartState(rx.State):
    cart_json: str = rx.LocalStorage("[]", name="cartItems", sync=True)
    # The service whose add button shows 'Adding...'.
    adding_id: str = ""
    # The item just added (drives the floating button's animation); cleared after 2 s.
    last_added_id: str = ""
    _busy_seconds: float = ADD_BUSY_SECONDS

    @rx.var
    def items(self) -> list[dict[str, str]]:
        return [
            {
                "id": item["id"],
                "name": cart.counted_name(item["name"], item["quantity"], item.get("unit")),
                "description": item["description"],
                "image": item["image"],
                "quantity": str(item["quantity"]),
                "price_label": format_price(item["price"]),
                "line_total_label": format_price(cart.line_total(item)),
                "date": str(item.get("date") or ""),
                "start_time": str(item.get("startTime") or ""),
                "duration": str(item.get("duration") or 1),
            }
            for item in cart.parse(self.cart_json)
        ]

    @rx.var
    def count(self) -> int:
        return cart.count(cart.parse(self.cart_json))

    @rx.var
    def total_label(self) -> str:
        return format_price(cart.total(cart.parse(self.cart_json)))

    @rx.event
    async def add_service(self, service_id: str, count: int = 1):
        """Add one service (or `count` of it: tables, chairs per person) to the cart."""
        if self.adding_id or not isinstance(service_id, str) or len(service_id) > 200:
            return
        try:
            count = int(count)
        except (TypeError, ValueError):
            return
        if not 1 <= count <= MAX_COUNT:
            return
        service = await call_service(catalog.get_public_service, service_id=service_id)
        if service is None or service.price is None:
            return
        item = cart.make_item(
            item_id=service.id,
            name=service.title,
            price=service.price,
            image=service.image_url or "",
            description=service.description,
            quantity=count,
            unit="table" if service.kind == "table" else service.meta.get("unit"),
        )
        if item is None:
            return
        self.cart_json = cart.dump(cart.add(cart.parse(self.cart_json), item))
        self.adding_id = service.id
        self.last_added_id = service.id
        self._busy_seconds = THEME_ADD_BUSY_SECONDS if service.kind == "theme" else ADD_BUSY_SECONDS
        # The fly-to-cart animation (components/cart_button.py), from where the visitor clicked.
        return [CartState.finish_adding, rx.call_script("window.flyToCart?.()")]

    @rx.event(background=True)
    async def finish_adding(self):
        busy = self._busy_seconds
        await asyncio.sleep(busy)
        async with self:
            self.adding_id = ""
        await asyncio.sleep(LAST_ADDED_SECONDS - busy)
        async with self:
            self.last_added_id = ""

    @rx.event
    def remove(self, item_id: str):
        if isinstance(item_id, str):
            self.cart_json = cart.dump(cart.remove(cart.parse(self.cart_json), item_id))

    @rx.event
    def clear(self):
        self.cart_json = "[]"
