"""The booking screen, /services/{serviceId}/book (docs/product.md §2, 4, 5): the service, the
picker, 'Your
Details', and one booking placed by the booking service. A signed-in caller's id is attached
(read on the server). After 'Booking Submitted!' the page goes to the confirmation after 2 s,
with the signed link, so a guest can open it too; when the confirmation mail was held back by the
mail cap, the screen stays and says so, with the link."""

from __future__ import annotations

import asyncio
import logging
import secrets
from decimal import Decimal

import reflex as rx

import storefront.models.municipalities as places
from storefront import i18n, routes
from storefront.i18n import N_, _
from storefront.services import fields
from storefront.services.booking import cart, placing, pricing, transport
from storefront.services.booking import contact as booking_contact
from storefront.services.booking import lines as booking_lines
from storefront.services.catalog import public as catalog
from storefront.services.messaging import links as booking_links
from storefront.services.money import format_price, format_price_with_unit
from storefront.state.access import access
from storefront.state.auth import AuthState
from storefront.state.base import call_service
from storefront.state.cart import SLOT_GONE, CartState
from storefront.state.slot_picker import SlotPickerState

log = logging.getLogger(__name__)

REDIRECT_SECONDS = 2.0
# Messages, marked for translation and said with `_()` where they are shown.
QUANTITY_MESSAGE = N_("Quantity must be between 1 and {most}")
NO_TIME = N_("Please select a date and time for your booking")
FIELD_MESSAGES = {
    ("full_name", "required"): N_("Name is required"),
    ("email", "required"): N_("Email is required"),
    ("email", "invalid"): N_("Email is invalid"),
    ("phone", "required"): N_("Phone number is required"),
    ("event_type", "required"): N_("Event type is required"),
    ("city", "required"): N_("Choose your municipality"),
    # the guests' messages and every field's limit are the booking's own (booking/contact.py)
}
CHECK_FORM = N_("Please check the fields marked below.")
FAILED = N_("Error creating booking: please try again.")


def _in_words(codes: dict[str, str], messages: dict[str, str]) -> dict[str, str]:
    """Each refused field's message in the visitor's language (services/fields.in_words)."""
    words = {key: _(text) for key, text in FIELD_MESSAGES.items()}
    return fields.in_words(codes, messages, words, _(CHECK_FORM))


@access("public", caller_bound=True)
class BookServiceState(rx.State):
    status: str = "loading"  # loading | ready | missing | bad_id | not_found | error | done
    bad_id: str = ""
    service: dict[str, str] = {}
    images: list[str] = []
    # What 'Your Details' was last sent with (and a signed-in guest's known details): the
    # fields start from it and keep what is typed until Book Now sends them (components/ui.py).
    form: dict[str, str] = dict.fromkeys(booking_contact.FORM_FIELDS, "")
    form_key: str = ""  # new at each load: the fields are drawn again from `form`
    error: str = ""
    errors: dict[str, str] = {}  # field -> its message, shown beside it
    counted: bool = False  # booked by the piece (tables): the page asks how many
    quantity: str = "1"  # counted services: how many
    placing: bool = False
    # Its confirmation mail was held back (state/checkout.MAIL_HELD): the screen stays, says
    # so and links the booking instead of going on to it.
    mail_held: bool = False
    booking_href: str = ""
    # Back to this screen after signing in. Set at load, not computed from the router: a
    # computed var that reads the router is loaded with every event of every tab
    # (docs/architecture.md §3).
    sign_in_href: str = ""
    _key: str = ""

    # What it owes with the transport to the municipality chosen (transport.owed's labels).
    owed: dict[str, str] = {}

    @rx.var
    def total_label(self) -> str:
        return self.owed.get("total") or self.service.get("total", "")

    async def _price_transport(self) -> None:
        owed = await call_service(
            transport.owed,
            subtotal=Decimal(self.service.get("subtotal", "0")),
            city=self.form.get("city", ""),
        )
        self.owed = owed.labels

    @rx.event
    async def choose_city(self, key: str):
        """The municipality chosen: its transport at once in the summary (kept with the cart
        too); one not served online is said beside it."""
        key = key if places.by_key(key) else ""
        self.form = self.form | {"city": key}
        self.errors = {k: v for k, v in self.errors.items() if k != "city"}
        (await self.get_state(CartState)).city = key
        await self._price_transport()
        if self.owed.get("refusal"):
            self.errors = self.errors | {"city": self.owed["refusal"]}

    @rx.event
    async def load(self):
        self.status, self.error, self.placing = "loading", "", False
        self.mail_held, self.booking_href = False, ""
        self.sign_in_href = i18n.href(f"{routes.SIGN_IN}?redirectTo={self.router.url.path}")
        ref = str(self.router.page.params.get("service_id") or "")
        try:
            found = await call_service(catalog.service_to_book, service_ref=ref)
        except catalog.ServiceRefError as exc:
            self.status = {"missing_id": "missing", "bad_format": "bad_id"}.get(
                exc.code, "not_found"
            )
            self.bad_id = str(exc.details.get("given", ""))
            return
        except Exception:
            log.exception("loading the booking screen failed")
            self.status = "error"
            return
        self.service = {
            "id": found.id,
            "title": found.title,
            "description": found.description,
            "price": format_price_with_unit(found.price, found.price_unit)
            if found.price is not None
            else "",
            "total": pricing.booking_total_label(found, 1),
            "price_unit": found.price_unit,
            "raw_price": str(found.price or 0),
            "subtotal": str(pricing.booking_total(found, 1)),
        }
        self.counted = cart.counted(found.kind)
        self.errors, self.quantity = {}, "1"
        auth_state = await self.get_state(AuthState)
        self.form = await auth_state.with_known_contact(self.form)
        cart_state = await self.get_state(CartState)
        if not self.form.get("city") and places.by_key(cart_state.city):
            self.form = self.form | {"city": cart_state.city}
        await self._price_transport()
        self.form_key = secrets.token_hex(6)
        self.images = [found.image_url] if found.image_url else []
        self._key = secrets.token_urlsafe(24)
        self.status = "ready"
        return SlotPickerState.open_for(found.id, 1, cart_json=cart_state.cart_json)

    @rx.event
    def clear_error(self, field: str):
        """Typing in a field clears its error; the text stays in the field."""
        if field in self.errors:
            self.errors = {k: v for k, v in self.errors.items() if k != field}

    @rx.event
    async def set_quantity(self, value: str):
        self.quantity = "".join(ch for ch in str(value)[:6] if ch.isdigit())
        self.errors = {k: v for k, v in self.errors.items() if k != "quantity"}
        await self.refresh_total()

    def _quantity(self) -> int:
        return int(self.quantity) if self.counted and self.quantity.isdigit() else 1

    @rx.event
    async def refresh_total(self, _value: str = ""):
        picker = await self.get_state(SlotPickerState)
        hours = int(picker.duration)
        price = Decimal(self.service.get("raw_price", "0"))
        total = pricing.price_line(
            price=price,
            price_unit=self.service.get("price_unit", "per_hour"),
            quantity=max(1, self._quantity()),
            duration_hours=hours,
        )
        self.service = self.service | {"total": format_price(total), "subtotal": str(total)}
        await self._price_transport()

    @rx.event
    async def submit(self, form_data: dict):
        """Book Now, with 'Your Details' as the browser holds them."""
        if self.placing or self.status != "ready":
            return
        self.form = {f: str(form_data.get(f) or "")[:5000] for f in booking_contact.FORM_FIELDS}
        picker = await self.get_state(SlotPickerState)
        chosen = picker._chosen()  # the picked day and time as typed values
        if chosen is None:
            self.error = _(NO_TIME)
            return
        contact = booking_contact.contact_from_form(self.form)
        checked = booking_contact.check_contact(contact)
        self.errors = _in_words(checked.codes, checked.messages)
        await self._price_transport()
        if self.owed.get("refusal") and "city" not in self.errors:
            # Not served online: the guest is asked to call (what was typed stays).
            self.errors = self.errors | {"city": self.owed["refusal"]}
        if self.counted and not 1 <= self._quantity() <= cart.MAX_QUANTITY:
            self.errors = self.errors | {
                "quantity": _(QUANTITY_MESSAGE).format(most=cart.MAX_QUANTITY)
            }
        if self.errors:
            self.error = _(CHECK_FORM)
            return
        self.placing, self.error = True, ""
        yield
        auth_state = await self.get_state(AuthState)
        user_id, _role = await auth_state._caller()
        line = booking_lines.BookingLine(
            service_id=self.service["id"],
            quantity=self._quantity(),
            date=chosen[0],
            start_time=chosen[1],
            duration_hours=int(picker.duration),
        )
        try:
            placed = await call_service(
                placing.place_booking,
                lines=[line],
                contact=contact,
                idempotency_key=self._key,
                user_id=user_id or None,
                client_address=self.router.session.client_ip,
            )
        except booking_lines.BookingError as exc:
            self.placing = False
            if exc.code in placing.GUEST_MESSAGE_CODES:
                self.error = exc.message  # the booking limit, or a key used for another time
                if exc.code == "key_reused":
                    self._key = secrets.token_urlsafe(24)
            elif exc.code in ("slot_taken", "slot_unavailable"):
                self.error = _(SLOT_GONE)
            elif exc.code == "invalid_contact":
                self.errors = _in_words(
                    exc.details.get("fields", {}), exc.details.get("messages", {})
                )
                self.error = _(CHECK_FORM)
            else:
                self.error = _(FAILED)
            return
        except Exception:
            log.exception("booking from the service screen failed")
            self.placing, self.error = False, _(FAILED)
            return
        key = booking_links.sign_view_key(placed.id)
        self.booking_href = i18n.href(booking_links.view_path(placed.id, key))
        self.status, self.mail_held = "done", placed.mail_held
        if self.mail_held:
            return
        yield
        await asyncio.sleep(REDIRECT_SECONDS)
        yield rx.redirect(self.booking_href)
