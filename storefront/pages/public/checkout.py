"""Checkout: Information, Review, Confirmation, beside the order summary."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.layout import page_layout
from storefront.components.municipality import deposit_note, municipality_options, transport_rows
from storefront.components.ui import (
    NOT_READY,
    PRIMARY_BUTTON,
    SECONDARY_BUTTON,
    calendar_link,
    field_error,
    kept_input,
    kept_select,
    kept_textarea,
    not_ready_note,
    page_title,
)
from storefront.i18n import N_, _, _s
from storefront.pages import registry
from storefront.services.booking.contact import (
    EVENT_TYPE_LABELS,
    INPUT_KINDS,
    MAX_GUESTS,
    MIN_GUESTS,
    fields_for,
)
from storefront.services.money import format_price
from storefront.state.checkout import MAIL_HELD, CheckoutState

INPUT = "mt-1 w-full px-4 py-2 rounded-lg border-2 border-slate-200 focus:border-fuchsia-500"
STEPS = (
    ("information", N_("Information")),
    ("review", N_("Review")),
    ("confirmation", N_("Confirmation")),
)


def _error(field: str) -> rx.Component:
    return field_error(CheckoutState.errors, field, f"{field}-error", f"error-{field}")


def _field(
    label: str, field: str, *, kind: str = "text", wide: bool = False, auto: str = ""
) -> rx.Component:
    return rx.el.div(
        rx.el.label(label, html_for=field, class_name="text-sm font-semibold"),
        kept_input(
            id=field,
            name=field,
            type=kind,
            default_value=CheckoutState.form[field],
            auto_complete=auto or None,
            on_change=CheckoutState.clear_error(field),
            aria_invalid=rx.cond(CheckoutState.errors.contains(field), "true", "false"),
            aria_describedby=f"{field}-error",
            class_name=INPUT,
        ),
        _error(field),
        class_name="sm:col-span-2" if wide else "",
    )


def _information() -> rx.Component:
    # The fields hold what is typed; the form sends them all with 'Continue to Review'. Drawn
    # again (key) when this visit's load has answered, before they take keys (NOT_READY).
    return rx.el.form(
        not_ready_note(),
        rx.el.h2(_("Contact"), class_name="text-lg font-bold"),
        rx.el.div(
            _field(_("Full Name *"), "full_name", wide=True, auto="name"),
            _field(_("Email *"), "email", kind="email", auto="email"),
            _field(_("Phone *"), "phone", kind="tel", auto="tel"),
            class_name="mt-3 grid gap-4 sm:grid-cols-2",
        ),
        rx.el.h2(_("Event"), class_name="mt-8 text-lg font-bold"),
        rx.el.div(
            rx.el.div(
                rx.el.label(
                    _("Event Type *"), html_for="event_type", class_name="text-sm font-semibold"
                ),
                kept_select(
                    rx.el.option(_("Choose the event type"), value="", disabled=True),
                    *[
                        rx.el.option(_(label), value=value)
                        for value, label in EVENT_TYPE_LABELS.items()
                    ],
                    id="event_type",
                    name="event_type",
                    default_value=CheckoutState.form["event_type"],
                    on_change=CheckoutState.clear_error("event_type"),
                    aria_invalid=rx.cond(
                        CheckoutState.errors.contains("event_type"), "true", "false"
                    ),
                    aria_describedby="event_type-error",
                    class_name=INPUT,
                ),
                _error("event_type"),
            ),
            rx.el.div(
                rx.el.label(
                    _("Guests *"), html_for="guest_count", class_name="text-sm font-semibold"
                ),
                kept_input(
                    id="guest_count",
                    name="guest_count",
                    type="number",
                    min=MIN_GUESTS,
                    max=MAX_GUESTS,
                    default_value=CheckoutState.form["guest_count"],
                    on_change=CheckoutState.clear_error("guest_count"),
                    aria_invalid=rx.cond(
                        CheckoutState.errors.contains("guest_count"), "true", "false"
                    ),
                    aria_describedby="guest_count-error",
                    class_name=INPUT,
                ),
                _error("guest_count"),
            ),
            rx.el.div(
                rx.el.label(
                    _("Special Requests"),
                    html_for="special_requests",
                    class_name="text-sm font-semibold",
                ),
                kept_textarea(
                    id="special_requests",
                    name="special_requests",
                    rows=3,
                    default_value=CheckoutState.form["special_requests"],
                    on_change=CheckoutState.clear_error("special_requests"),
                    class_name=INPUT,
                ),
                _error("special_requests"),
                class_name="sm:col-span-2",
            ),
            class_name="mt-3 grid gap-4 sm:grid-cols-2",
        ),
        rx.el.h2(_("Address"), class_name="mt-8 text-lg font-bold"),
        rx.el.div(
            _field(_("Address *"), "address", wide=True, auto="street-address"),
            rx.el.div(
                rx.el.label(
                    _("Municipality *"), html_for="city", class_name="text-sm font-semibold"
                ),
                kept_select(
                    *municipality_options(),
                    id="city",
                    name="city",
                    default_value=CheckoutState.form["city"],
                    on_change=CheckoutState.choose_city,
                    aria_invalid=rx.cond(CheckoutState.errors.contains("city"), "true", "false"),
                    aria_describedby="city-error",
                    class_name=INPUT,
                    data_testid="checkout-city",
                ),
                _error("city"),
            ),
            _field(_("State"), "state", auto="address-level1"),
            _field(_("ZIP Code *"), "zip_code", auto="postal-code"),
            # The declared fields laid out by no screen by hand (models/contact_fields.py).
            *[
                _field(
                    _s(f.label) + (" *" if "checkout" in f.required else ""),
                    f.name,
                    kind=INPUT_KINDS.get(f.kind, "text"),
                )
                for f in fields_for("checkout", added=True)
            ],
            class_name="mt-3 grid gap-4 sm:grid-cols-2",
        ),
        rx.el.button(
            _("Continue to Review"),
            type="submit",
            disabled=NOT_READY,
            class_name=PRIMARY_BUTTON + " mt-8",
            data_testid="checkout-continue",
        ),
        key=CheckoutState.form_key,
        on_submit=CheckoutState.continue_to_review,
        reset_on_submit=False,
        no_validate=True,
        data_testid="checkout-information",
    )


def _review_row(label: str, field: str) -> rx.Component:
    """A detail as it will be booked; left out when it was left empty (City, Special Requests)."""
    shown = {"event_type": CheckoutState.event_type_label, "city": CheckoutState.city_label}
    value = shown.get(field, CheckoutState.form[field])
    return rx.cond(
        value != "",
        rx.el.div(
            rx.el.dt(label, class_name="text-sm text-slate-500"),
            rx.el.dd(value, class_name="font-medium break-words"),
            data_testid=f"review-{field}",
        ),
    )


def _review() -> rx.Component:
    return rx.el.div(
        rx.el.h2(_("Review"), class_name="text-lg font-bold"),
        rx.el.dl(
            _review_row(_("Full Name"), "full_name"),
            _review_row(_("Email"), "email"),
            _review_row(_("Phone"), "phone"),
            _review_row(_("Event Type"), "event_type"),
            _review_row(_("Guests"), "guest_count"),
            _review_row(_("Address"), "address"),
            _review_row(_("Municipality"), "city"),
            _review_row(_("ZIP Code"), "zip_code"),
            _review_row(_("Special Requests"), "special_requests"),
            *[_review_row(_s(f.label), f.name) for f in fields_for("checkout", added=True)],
            class_name="mt-4 grid gap-3 sm:grid-cols-2",
        ),
        rx.el.p(
            _("Payment is collected at the time of service."),
            class_name="mt-6 text-sm text-slate-600",
        ),
        rx.cond(
            CheckoutState.place_error != "",
            rx.el.p(
                CheckoutState.place_error,
                role="alert",
                class_name="mt-4 rounded-xl border border-red-200 bg-red-50 p-3 text-red-700",
                data_testid="checkout-error",
            ),
        ),
        rx.cond(
            CheckoutState.slot_gone,
            rx.link(
                _("Choose another time in your cart"),
                href=i18n.href(routes.CART),
                class_name="mt-2 inline-block font-semibold text-fuchsia-700 underline",
                data_testid="checkout-to-cart",
            ),
        ),
        rx.el.div(
            rx.el.button(
                _("Back"), type="button", on_click=CheckoutState.back, class_name=SECONDARY_BUTTON
            ),
            rx.el.button(
                rx.cond(CheckoutState.placing, _("Placing..."), _("Complete Booking")),
                type="button",
                on_click=CheckoutState.complete,
                disabled=CheckoutState.placing,
                class_name=PRIMARY_BUTTON,
                data_testid="checkout-complete",
            ),
            class_name="mt-8 flex gap-3",
        ),
        data_testid="checkout-review",
    )


def mail_held_notice(test_id: str) -> rx.Component:
    """The mail cap held the booking's confirmation back (state/checkout.MAIL_HELD); the
    booking screen says it too."""
    return rx.el.p(
        _(MAIL_HELD), role="status", class_name="mt-4 text-amber-800", data_testid=test_id
    )


def _mail_news() -> rx.Component:
    """That the confirmation was mailed, or that the mail cap held it back."""
    return rx.cond(
        CheckoutState.mail_held,
        rx.el.div(
            mail_held_notice("checkout-mail-held"),
            rx.el.p(
                _("Payment is collected at the time of service."), class_name="mt-2 text-slate-600"
            ),
        ),
        rx.el.p(
            _("We sent a confirmation to your email. Payment is collected at the time of service."),
            class_name="mt-4 text-slate-600",
        ),
    )


def _confirmation() -> rx.Component:
    return rx.el.div(
        rx.icon("circle-check", size=48, class_name="text-green-600"),
        # Placed, not yet confirmed by the business: the status says so (docs/product.md §5).
        rx.el.h2(_("Booking Submitted!"), class_name="mt-4 text-2xl font-bold"),
        rx.el.p(
            _("Status: pending. We will confirm your booking soon."),
            class_name="mt-2 text-slate-600",
            data_testid="checkout-status",
        ),
        rx.el.p(_("Your booking reference:"), class_name="mt-2 text-slate-600"),
        rx.el.p(
            CheckoutState.reference,
            class_name="mt-1 text-2xl font-mono font-bold text-fuchsia-700",
            data_testid="checkout-reference",
        ),
        _mail_news(),
        rx.el.div(
            rx.el.a(
                _("View your booking"),
                href=CheckoutState.booking_href,
                class_name=SECONDARY_BUTTON,
                data_testid="checkout-booking-link",
            ),
            calendar_link(CheckoutState.ics_href, "checkout-ics"),
            rx.link(
                _("Return to Home"),
                href=i18n.href(routes.HOME),
                underline="none",
                class_name=PRIMARY_BUTTON,
            ),
            class_name="mt-6 flex flex-wrap justify-center gap-3",
        ),
        class_name="text-center py-6",
        data_testid="checkout-confirmation",
    )


def _steps() -> rx.Component:
    return rx.el.ol(
        *[
            rx.el.li(
                _(label),
                aria_current=rx.cond(CheckoutState.step == key, "step", None),
                class_name=rx.cond(
                    CheckoutState.step == key,
                    "px-3 py-1 rounded-full bg-fuchsia-600 text-white text-sm font-semibold",
                    "px-3 py-1 rounded-full bg-slate-100 text-slate-600 text-sm",
                ),
            )
            for key, label in STEPS
        ],
        class_name="flex flex-wrap gap-2",
    )


def _summary() -> rx.Component:
    # docs/product.md §9: no service fee and no tax; payment at the time of service
    zero = format_price(0)
    return rx.el.aside(
        rx.el.h2(_("Order Summary"), class_name="text-xl font-bold"),
        rx.el.ul(
            rx.foreach(
                CheckoutState.lines,
                lambda line: rx.el.li(
                    rx.el.div(
                        rx.el.span(line["name"], class_name="min-w-0 break-words"),
                        rx.el.span(line["total"], class_name="shrink-0 whitespace-nowrap"),
                        class_name="flex justify-between gap-3",
                    ),
                    rx.el.p(line["when"], class_name="text-xs text-slate-500"),
                    class_name="text-sm",
                ),
            ),
            class_name="mt-4 space-y-3",
        ),
        rx.el.dl(
            *[
                rx.el.div(
                    rx.el.dt(_(label)),
                    rx.el.dd(value),
                    class_name="flex justify-between text-sm",
                )
                for label, value in (
                    (N_("Subtotal"), CheckoutState.owed["subtotal"]),
                    (N_("Service fee"), zero),
                    (N_("Tax"), zero),
                )
            ],
            # The transport to the municipality, once it is chosen (issue 36).
            transport_rows(CheckoutState.owed, "checkout"),
            rx.el.div(
                rx.el.dt(_("Total")),
                rx.el.dd(CheckoutState.total_label, data_testid="checkout-total"),
                class_name="flex justify-between font-bold text-lg pt-3 border-t",
            ),
            class_name="mt-4 pt-4 border-t space-y-2",
        ),
        deposit_note(CheckoutState.owed, "checkout"),
        class_name="rounded-2xl border border-slate-100 shadow-lg p-5 sm:p-6 bg-white h-fit min-w-0",
    )


@registry.page(routes.CHECKOUT, loaders=[CheckoutState.load])
def checkout_page() -> rx.Component:
    return page_layout(
        page_title(_("Checkout")),
        rx.el.div(
            rx.el.div(
                _steps(),
                rx.el.div(
                    rx.match(
                        CheckoutState.step,
                        ("review", _review()),
                        ("confirmation", _confirmation()),
                        _information(),
                    ),
                    class_name="mt-6 rounded-2xl border border-slate-100 bg-white p-5 sm:p-6",
                ),
                class_name="min-w-0",
            ),
            rx.cond(CheckoutState.step != "confirmation", _summary()),
            class_name="max-w-6xl mx-auto px-4 grid gap-8 md:grid-cols-[minmax(0,1fr)_360px]",
        ),
    )
