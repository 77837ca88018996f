"""The cart: kept in the browser under `cartItems`; every change goes through services.cart,
and prices are looked up in the catalogue, never taken from the browser."""

from __future__ import annotations

import functools
import json
import time
from decimal import Decimal

import reflex as rx
from reflex.experimental.client_state import ClientStateVar

import storefront.models.municipalities as places
from storefront import i18n, routes
from storefront.i18n import N_, _
from storefront.services.booking import cart, transport
from storefront.services.booking.lines import BookingError
from storefront.state.access import access
from storefront.state.base import call_service
from storefront.state.slot_picker import SlotPickerState

ADD_BUSY_SECONDS = 1.0
# docs/product.md §4: the theme page's button comes back sooner.
THEME_ADD_BUSY_SECONDS = 0.5
LAST_ADDED_SECONDS = 2.0
clock = time.monotonic  # what the busy time is measured by; tests move their own (tests/clock.py)
# What an add marks, kept in the browser (client-side state, like the carousels' slide): the
# service whose button says 'Adding...' (disabled), and the one just added (the floating
# button's hop). The server sets them with its one answer to an add (`_after_add`), and the
# browser clears them itself after their time: an add costs the server no further update.
adding = ClientStateVar.create("cart_adding", default="", global_ref=True)
just_added = ClientStateVar.create("cart_just_added", default="", global_ref=True)

MAX_COUNT = 1000
# An add past what one time slot of a service can hold (its units).
# Messages, marked for translation and said with `_()` where they are shown.
FULL = N_("{title}: only {most} can be booked for one time, and your cart already holds {held}.")
NOTHING_SELECTED = N_("Please select a date and time before setting")
SLOT_GONE = N_("This time slot is no longer available. Please select another time.")
CHECK_FAILED = N_("There was an error checking availability. Please try again.")
INCOMPLETE = N_(
    "Please select a date and time for all services in your cart before proceeding to checkout."
)


def _line_dict(line: cart.CartLineView) -> dict[str, str]:
    return {
        "id": line.id,
        "service_id": line.service_id,
        "name": line.name,
        "description": line.description,
        "image": line.image,
        "quantity": str(line.quantity),
        "price_label": line.unit_price_label,
        "line_total_label": line.line_total_label,
        "date": line.date,
        "date_label": line.date_label,
        "start_time": line.start_time,
        "duration": str(line.duration),
        "available": "yes" if line.available else "no",
        "max_quantity": str(line.max_quantity),
        "at_most": "yes" if line.quantity >= line.max_quantity else "no",
        "at_least": "yes" if line.quantity <= 1 else "no",
    }


def _after_add(service_id: str, busy_seconds: float) -> str:
    """The one script an add answers with: mark `service_id` as being added for `busy_seconds`
    and as just added for LAST_ADDED_SECONDS (a later add restarts a mark's time), then start
    the fly-to-cart animation (components/cart_button.py) from where the visitor clicked.
    Reflex keeps each client-side state's setter and value in `refs`; before a component using
    a mark has mounted, the value waits there for the first one that does."""
    marks = [
        [f"_client_state_{mark._getter_name}", f"_client_state_{mark._setter_name}", ms]
        for mark, ms in (
            (adding, round(busy_seconds * 1000)),
            (just_added, round(LAST_ADDED_SECONDS * 1000)),
        )
    ]
    return (
        "((id, marks) => { const timers = (window.__cartMarks ??= {});"
        " for (const [value, setter, ms] of marks) {"
        " const put = (v) => (refs[setter] ?? ((x) => { refs[value] = x; }))(v);"
        " put(id); clearTimeout(timers[value]); timers[value] = setTimeout(() => put(''), ms); }"
        f" window.flyToCart?.(); }})({json.dumps(service_id)}, {json.dumps(marks)})"
    )


@functools.lru_cache(maxsize=1024)
def _after_add_event(service_id: str, busy_seconds: float) -> rx.event.EventSpec:
    """`_after_add` as the event an add returns, built once per service and busy time: Reflex
    builds `rx.call_script`'s event anew on each call (a signature and a literal of the script,
    about a tenth of an add's time in the event loop under load), and the event is immutable."""
    return rx.call_script(_after_add(service_id, busy_seconds))


@access("public")
class CartState(rx.State):
    cart_json: str = rx.LocalStorage("[]", name=cart.STORAGE_KEY, sync=True)
    # The cart page: lines and total priced from the catalogue (refresh), the line whose date
    # and time are being chosen, and what went wrong with that choice.
    # The municipality it is taken to (a key, models/municipalities.py), kept with the cart.
    city: str = rx.LocalStorage("", name=cart.CITY_STORAGE_KEY, sync=True)
    lines: list[dict[str, str]] = []
    total_label: str = ""  # with the transport, once the municipality is known
    # What it owes (transport.owed): the lines, the transport ('' until the municipality is
    # known), and why it cannot be booked online ('' when it can).
    owed: dict[str, str] = {}
    complete: bool = False
    _subtotal: str = "0"
    editing_id: str = ""
    time_error: str = ""
    # The server's own copy of the 'Adding...' mark, so a second add of the same service while
    # its button is busy adds nothing whatever the browser sends: the service added, what its
    # button sent (an id or a slug), and until when (`clock()`).
    _adding_id: str = ""
    _adding_ref: str = ""
    _adding_until: float = 0.0

    @rx.var
    def count(self) -> int:
        return cart.count(cart.parse(self.cart_json))

    @rx.event
    async def add_service(self, service_id: str, count: int = 1):
        """Add one service (or `count` of it: tables, chairs per person) to the cart. A second
        click on the same button while it says 'Adding...' adds nothing; another service's
        button still adds at once."""
        if not isinstance(service_id, str) or len(service_id) > 200:
            return
        if service_id in (self._adding_id, self._adding_ref) and self._busy():
            return
        try:
            count = int(count)
        except (TypeError, ValueError):
            return
        if not 1 <= count <= MAX_COUNT:
            return
        added = await call_service(
            cart.add_to_cart, cart=cart.parse(self.cart_json), service_ref=service_id, count=count
        )
        if added is None:
            return
        self.cart_json = cart.dump(added.cart)
        if added.refused:
            # Nothing past what one time slot can hold goes in: say so where the visitor is.
            return rx.toast.warning(
                _(FULL).format(title=added.title, most=added.most, held=added.held),
                duration=8000,
            )
        busy = THEME_ADD_BUSY_SECONDS if added.kind == "theme" else ADD_BUSY_SECONDS
        self._adding_id, self._adding_ref = added.service_id, service_id
        self._adding_until = clock() + busy
        return _after_add_event(added.service_id, busy)

    def _busy(self) -> bool:
        """Whether the last add is still within its busy time. A deadline further off than any
        busy time (another host's clock, with several workers) counts as past."""
        return 0 < self._adding_until - clock() <= max(ADD_BUSY_SECONDS, THEME_ADD_BUSY_SECONDS)

    @rx.event
    async def refresh(self):
        """The cart page's lines and total, priced from the catalogue."""
        await self._show(cart.parse(self.cart_json))

    def _keep(self, changed: cart.Cart) -> cart.Cart:
        """Write a changed cart to the browser's copy (its one `dump`)."""
        self.cart_json = cart.dump(changed)
        return changed

    async def _show(self, typed: cart.Cart) -> None:
        """The page's lines and total of a cart already read (no second parse)."""
        view = await call_service(cart.cart_view, cart=typed)
        if view.fitted_cart is not None:
            self._keep(view.fitted_cart)
        self.lines = [_line_dict(line) for line in view.lines]
        self.complete, self._subtotal = view.complete, str(view.subtotal)
        await self._price_transport()

    async def _price_transport(self) -> None:
        """The transport line and the total with it, for the municipality chosen."""
        owed = await call_service(
            transport.owed, subtotal=Decimal(self._subtotal or "0"), city=self.city
        )
        self.owed = owed.labels
        self.total_label = owed.labels["total"]

    @rx.event
    async def choose_city(self, key: str):
        """The cart's municipality: its transport is shown at once, and checkout starts from
        it."""
        self.city = key if places.by_key(key) else ""
        await self._price_transport()

    @rx.event
    async def remove(self, item_id: str):
        if isinstance(item_id, str):
            await self._show(self._keep(cart.remove(cart.parse(self.cart_json), item_id)))

    @rx.event
    async def change_quantity(self, item_id: str, step: int):
        """The cart's - and + buttons: one less or one more, within 1 and the service's units."""
        line = next((line for line in self.lines if line["id"] == item_id), None)
        if line is None or step not in (-1, 1):
            return
        changed = await call_service(
            cart.set_quantity,
            cart=cart.parse(self.cart_json),
            line_id=item_id,
            quantity=int(line["quantity"]) + step,
        )
        await self._show(self._keep(changed))

    @rx.event
    def edit_time(self, item_id: str):
        """'Select Date/Time': open the modal with the line's current choice."""
        line = next((line for line in self.lines if line["id"] == item_id), None)
        if line is None:
            return
        self.editing_id, self.time_error = item_id, ""
        return SlotPickerState.open_for(
            line["service_id"],
            int(line["quantity"]),
            item_id,
            line["date"],
            line["start_time"],
            int(line["duration"]),
            self.cart_json,
        )

    @rx.event
    def close_time(self):
        """Cancel: the line keeps what it had."""
        self.editing_id, self.time_error = "", ""

    @rx.event
    def time_modal_changed(self, is_open: bool):
        """Escape or a click outside closes the modal as Cancel does."""
        if not is_open:
            self.editing_id, self.time_error = "", ""

    @rx.event
    async def apply_time(self):
        """Set: save the picker's date, time and duration into the line, if still free."""
        picker = await self.get_state(SlotPickerState)
        chosen = picker._chosen()
        if chosen is None:
            self.time_error = _(NOTHING_SELECTED)
            return
        day, start_time = chosen
        try:
            changed = await call_service(
                cart.set_line_time,
                cart=cart.parse(self.cart_json),
                line_id=self.editing_id,
                day=day,
                start_time=start_time,
                duration_hours=int(picker.duration),
            )
        except BookingError as exc:
            self.time_error = _(SLOT_GONE) if exc.code == "slot_taken" else _(CHECK_FAILED)
            return
        self.editing_id, self.time_error = "", ""
        await self._show(self._keep(changed))

    @rx.event
    def proceed(self):
        """'Proceed to Checkout' (disabled until every line has a date and time)."""
        if not self.complete:
            return rx.window_alert(_(INCOMPLETE))
        return rx.redirect(i18n.href(routes.CHECKOUT))

    @rx.event
    def clear(self):
        self.cart_json = "[]"
