"""Checkout: Information, Review, Confirmation (docs/product.md §2, 4, 5). The booking is placed by
the
booking service in one transaction; a retry or a double click returns the same booking (the
idempotency key is made once per checkout, on the server)."""

from __future__ import annotations

import logging
import secrets
from decimal import Decimal

import reflex as rx

import storefront.models.municipalities as places
from storefront import i18n, routes
from storefront.db import error_summary, is_outage
from storefront.i18n import N_, _
from storefront.services import fields
from storefront.services.booking import cart, placing, transport
from storefront.services.booking import contact as booking_contact
from storefront.services.booking import lines as booking_lines
from storefront.services.messaging import links as booking_links
from storefront.state.access import access
from storefront.state.auth import AuthState
from storefront.state.base import call_service
from storefront.state.cart import SLOT_GONE, CartState

log = logging.getLogger(__name__)

# Marked for translation; `field_messages` says them in the visitor's language.
FIELD_MESSAGES = {
    ("full_name", "required"): N_("Full name is required"),
    ("email", "required"): N_("Email is required"),
    ("email", "invalid"): N_("Email is invalid"),
    ("phone", "required"): N_("Phone number is required"),
    ("address", "required"): N_("Address is required"),
    ("zip_code", "required"): N_("ZIP code is required"),
    ("event_type", "required"): N_("Event type is required"),
    ("city", "required"): N_("Choose your municipality"),
    # the guests' messages and every field's limit are the booking's own (booking/contact.py)
}
INVALID = N_("This field is invalid")
PLACE_FAILED = N_("Failed to place booking. Please try again.")
# The booking was placed but its confirmation mail was held back by the mail cap
# (MAIL_CAP_PER_RECIPIENT): the checkout's last step and the booking screen say so.
MAIL_HELD = N_(
    "We did not send you a confirmation email: this address has had too many emails about new bookings today. Your booking is placed; keep its reference and its link."
)
# The information step's fields as the page shows them (the first in error gets the focus).
PAGE_ORDER = (
    "full_name",
    "email",
    "phone",
    "event_type",
    "guest_count",
    "special_requests",
    "address",
    "city",
    "state",
    "zip_code",
    # then the declared fields the page draws after these (models/contact_fields.py)
    *(f.name for f in booking_contact.fields_for("checkout", added=True)),
)
SLOT_GONE_LINE = N_(
    "{name} on {when} is no longer available. Its time was cleared in your cart: "
    "please choose another time there."
)
# Every field starts empty: the event type and the guests are asked for, not assumed.
DEFAULT_FORM = dict.fromkeys(booking_contact.FORM_FIELDS, "")


def field_messages(codes: dict[str, str], messages: dict[str, str]) -> dict[str, str]:
    """The spec's text where the spec names one, else the field rule's own message (in the
    language of the moment)."""
    words = {key: _(text) for key, text in FIELD_MESSAGES.items()}
    return fields.in_words(codes, messages, words, _(INVALID))


@access("public", caller_bound=True)
class CheckoutState(rx.State):
    step: str = "information"  # information | review | confirmation
    # What the information step was last sent with (and a signed-in guest's known details):
    # its fields start from it, but what is typed stays in the browser's fields until the
    # form is sent (components/ui.py, 'What is typed stays typed').
    form: dict[str, str] = DEFAULT_FORM
    # New at each visit's load: the fields are drawn again, from `form`, when it has answered.
    form_key: str = ""
    errors: dict[str, str] = {}
    lines: list[dict[str, str]] = []
    total_label: str = ""  # with the transport, once the municipality is known
    # What it owes (transport.owed: subtotal, transport, total, deposit, municipality, refusal).
    owed: dict[str, str] = {}
    _subtotal: str = "0"
    reference: str = ""
    # The placed booking's page (the mail's signed link) and calendar file, for the last step.
    booking_href: str = ""
    ics_href: str = ""
    mail_held: bool = False  # its confirmation mail was held back (MAIL_HELD)
    placing: bool = False
    place_error: str = ""
    slot_gone: bool = False  # a line's time was taken meanwhile: the review offers the cart
    _key: str = ""

    @rx.var
    def event_type_label(self) -> str:
        return booking_contact.event_type_label(self.form.get("event_type"))

    @rx.var
    def city_label(self) -> str:
        """The municipality chosen, in the page's language (the review shows it)."""
        return places.shown_name(self.form.get("city", ""), i18n.language())

    async def _price_transport(self, city: str) -> None:
        owed = await call_service(
            transport.owed, subtotal=Decimal(self._subtotal or "0"), city=city
        )
        self.owed, self.total_label = owed.labels, owed.labels["total"]

    @rx.event
    async def choose_city(self, key: str):
        """The municipality chosen on the information step: its transport at once in the
        summary (and kept with the cart); typing elsewhere stays typed."""
        key = key if places.by_key(key) else ""
        if "city" in self.errors:
            self.errors = {k: v for k, v in self.errors.items() if k != "city"}
        self.form = self.form | {"city": key}
        cart_state = await self.get_state(CartState)
        cart_state.city = key
        await self._price_transport(key)
        if self.owed.get("refusal"):
            self.errors = self.errors | {"city": self.owed["refusal"]}

    @rx.event
    async def load(self):
        """on_load: the summary from the cart; an empty or incomplete cart goes back to it,
        unless the order was just placed."""
        self.slot_gone = False
        if self.step == "confirmation":
            self.step, self.reference, self.form = "information", "", dict(DEFAULT_FORM)
        cart_state = await self.get_state(CartState)
        view = await call_service(cart.cart_view, cart=cart.parse(cart_state.cart_json))
        if not view.complete:
            return rx.redirect(i18n.href(routes.CART))
        self.lines = [
            {
                "name": line.name,
                "when": _("{date} · {start} · {hours} h").format(
                    date=line.date_label, start=line.start_time, hours=line.duration
                ),
                "total": line.line_total_label,
            }
            for line in view.lines
        ]
        self.total_label, self.errors, self.place_error = view.total_label, {}, ""
        self._subtotal = str(view.subtotal)
        auth_state = await self.get_state(AuthState)
        self.form = await auth_state.with_known_contact(self.form)
        # The municipality starts from the cart's (kept with it in the browser).
        if not self.form.get("city") and places.by_key(cart_state.city):
            self.form = self.form | {"city": cart_state.city}
        await self._price_transport(self.form.get("city", ""))
        self.form_key = secrets.token_hex(6)
        self._key = self._key or secrets.token_urlsafe(24)

    @rx.event
    def clear_error(self, field: str):
        """Typing in a field clears its error (docs/product.md §5); the text stays in the field."""
        if field in self.errors:
            self.errors = {k: v for k, v in self.errors.items() if k != field}

    @rx.event
    async def continue_to_review(self, form_data: dict):
        """The information step, sent with every field as the browser holds it."""
        self.form = {f: str(form_data.get(f) or "")[:5000] for f in booking_contact.FORM_FIELDS}
        checked = booking_contact.checkout_check(booking_contact.contact_from_form(self.form))
        self.errors = field_messages(checked.codes, checked.messages)
        city = places.find(self.form.get("city", ""))
        await self._price_transport(city.key if city else "")
        if city is not None:
            self.form = self.form | {"city": city.key}
            (await self.get_state(CartState)).city = city.key
        if self.owed.get("refusal") and "city" not in self.errors:
            # Not served online: the guest is asked to call (what was typed stays).
            self.errors = self.errors | {"city": self.owed["refusal"]}
        if not self.errors:
            self.step, self.place_error = "review", ""
            return None
        # On a phone the first field in error may be screens above the button: go to it.
        first = next((f for f in PAGE_ORDER if f in self.errors), None)
        return rx.set_focus(first) if first else None

    @rx.event
    def back(self):
        self.step = "information"

    @rx.event
    async def complete(self):
        if self.placing or self.step != "review":
            return
        self.placing, self.place_error, self.slot_gone = True, "", False
        yield
        cart_state = await self.get_state(CartState)
        auth_state = await self.get_state(AuthState)
        typed = cart.parse(cart_state.cart_json)  # read once, where the browser's cart comes in
        lines = cart.booking_lines(typed).lines
        try:
            # Inside the try: during a database outage even reading who is signed in fails,
            # and the guest must get the button back with the spec's message, not a dead spinner.
            user_id, _role = await auth_state._caller()
            placed = await call_service(
                placing.place_booking,
                lines=lines,
                contact=booking_contact.contact_from_form(self.form),
                idempotency_key=self._key,
                user_id=user_id or None,
                client_address=self.router.session.client_ip,
            )
        except booking_lines.BookingError as exc:
            # 'unavailable' (the database is down or restarting) and 'busy' get the spec's generic
            # text too: true, and the same key makes the guest's retry place it once.
            self.placing = False
            if exc.code == "invalid_contact":  # the form changed after the review: say where
                self.step = "information"
                self.errors = field_messages(
                    exc.details.get("fields", {}), exc.details.get("messages", {})
                )
                return
            if exc.code in placing.GUEST_MESSAGE_CODES:
                # The booking limit, or a key already used for another cart: said as it is, the
                # cart kept; a new key lets the changed cart be placed as a booking of its own.
                self.place_error = exc.message
                if exc.code == "key_reused":
                    self._key = secrets.token_urlsafe(24)
                return
            if exc.code in ("slot_taken", "slot_unavailable"):
                # Say which line, and clear its time so the cart asks for another.
                taken = cart.release_taken_line(typed, exc.details.get("line"))
                if taken is None:
                    self.place_error = _(SLOT_GONE)
                    return
                self.place_error = _(SLOT_GONE_LINE).format(name=taken.name, when=taken.when)
                cart_state.cart_json, self.slot_gone = cart.dump(taken.cart), True
                return
            self.place_error = _(PLACE_FAILED)
            return
        except Exception as exc:
            if is_outage(exc):
                log.warning(
                    "placing a booking failed, the database is unavailable: %s", error_summary(exc)
                )
                self.placing, self.place_error = False, _(PLACE_FAILED)
                return
            log.exception("placing a booking failed")
            self.placing, self.place_error = False, _(PLACE_FAILED)
            return
        self.reference, self.step, self.placing = placed.reference, "confirmation", False
        self.mail_held = placed.mail_held
        key = booking_links.sign_view_key(placed.id)
        self.booking_href = i18n.href(booking_links.view_path(placed.id, key))
        self.ics_href = booking_links.ics_path(placed.id, key)
        self._key, self.form = "", dict(DEFAULT_FORM)  # the details are stored; the tab forgets
        cart_state.cart_json = "[]"
        cart_state.lines, cart_state.complete = [], False
