"""Contact: the quote request form and the ways to reach the business."""

import reflex as rx

from storefront import routes
from storefront.components.layout import page_layout
from storefront.components.ui import (
    NOT_READY,
    PRIMARY_BUTTON,
    SECONDARY_BUTTON,
    date_input,
    error_box,
    page_title,
)
from storefront.i18n import N_, _
from storefront.pages import registry
from storefront.state.business import BusinessState
from storefront.state.contact import FAILURE, SUCCESS, ContactState

SUBTITLE = routes.declared(routes.CONTACT).description  # its meta description too
EVENT_TYPES = [
    ("birthday", N_("Birthday")),
    ("wedding", N_("Wedding")),
    ("corporate", N_("Corporate")),
    ("baby-shower", N_("Baby Shower")),
    ("anniversary", N_("Anniversary")),
    ("other", N_("Other")),
]
# Disables the send button within the click that sends (the server's 'Sending...' follows a
# round trip later), so a double click sends once. React turns it back on with the status.
DISABLE_ON_SUBMIT = rx.Var(
    "(event) => { const button = event.currentTarget.querySelector('button[type=submit]');"
    " if (button) button.disabled = true; }"
)
INPUT = "mt-1 w-full px-4 py-2 rounded-lg border-2 border-slate-200 focus:border-fuchsia-500 outline-none"


def _field(label: str, name: str, control: rx.Component) -> rx.Component:
    return rx.el.div(
        rx.el.label(label, html_for=name, class_name="block text-sm font-semibold"),
        control,
        rx.cond(
            ContactState.errors.contains(name),
            # Read out as it appears.
            rx.el.p(
                ContactState.errors[name], role="alert", class_name="mt-1 text-sm text-red-600"
            ),
        ),
    )


def _input(name: str, type_: str = "text", required: bool = False) -> rx.Component:
    return rx.el.input(id=name, name=name, type=type_, required=required, class_name=INPUT)


def _form() -> rx.Component:
    return rx.el.form(
        rx.el.div(
            _field(_("Name *"), "name", _input("name", required=True)),
            _field(_("Email *"), "email", _input("email", "email", required=True)),
            class_name="grid gap-4 md:grid-cols-2",
        ),
        rx.el.div(
            _field(_("Phone"), "phone", _input("phone", "tel")),
            _field(
                _("Event Type *"),
                "event_type",
                rx.el.select(
                    rx.el.option(_("Select an event type"), value=""),
                    *[rx.el.option(_(label), value=value) for value, label in EVENT_TYPES],
                    id="event_type",
                    name="event_type",
                    required=True,
                    class_name=INPUT,
                ),
            ),
            _field(
                _("Event Date"),
                "event_date",
                date_input(id="event_date", name="event_date", class_name=INPUT),
            ),
            class_name="grid gap-4 md:grid-cols-3 mt-4",
        ),
        rx.el.div(
            _field(
                _("Message *"),
                "message",
                rx.el.textarea(
                    id="message", name="message", rows=5, required=True, class_name=INPUT
                ),
            ),
            class_name="mt-4",
        ),
        rx.el.div(
            error_box(
                rx.cond(
                    ContactState.status == "error",
                    _(FAILURE),
                    rx.cond(ContactState.errors.contains("form"), ContactState.errors["form"], ""),
                ),
                "contact-error",
            ),
            class_name="mt-4",
        ),
        rx.el.input(type="hidden", name="submission_key", value=ContactState.form_key),
        rx.el.button(
            rx.cond(ContactState.status == "submitting", _("Sending..."), _("Send Message")),
            type="submit",
            # Not before the page is alive: the browser would send the form as a page load.
            disabled=(ContactState.status == "submitting") | NOT_READY,
            class_name=PRIMARY_BUTTON + " mt-6",
        ),
        on_submit=ContactState.submit,
        reset_on_submit=False,
        custom_attrs={"onSubmitCapture": DISABLE_ON_SUBMIT},
        class_name="rounded-3xl border border-slate-100 shadow-lg p-6 md:p-8 bg-white",
        data_testid="contact-form",
    )


def _success() -> rx.Component:
    return rx.el.div(
        rx.icon("circle-check", size=48, class_name="mx-auto text-green-600"),
        rx.el.p(_(SUCCESS), class_name="mt-4 text-lg font-semibold"),
        rx.el.button(
            _("Send another message"),
            on_click=ContactState.send_another,
            class_name=SECONDARY_BUTTON + " mt-6",
        ),
        class_name="rounded-3xl border border-green-100 bg-green-50 p-8 text-center",
        data_testid="contact-success",
    )


def _card(icon: str, title: str, *lines: rx.Component | rx.Var | str) -> rx.Component:
    return rx.el.div(
        rx.icon(icon, size=28, class_name="text-fuchsia-600"),
        rx.el.h2(title, class_name="mt-3 font-bold"),
        *[rx.el.p(line, class_name="text-sm text-slate-600") for line in lines],
        class_name="rounded-2xl border border-slate-100 p-5 bg-white shadow-sm",
    )


def _cards() -> rx.Component:
    details = BusinessState.details
    return rx.el.div(
        _card("phone", _("Phone"), details["phone"], details["opening_hours"]),
        _card(
            "camera",
            "Instagram",
            rx.el.a(
                details["instagram_handle"],
                href=details["instagram_url"],
                target="_blank",
                rel="noopener noreferrer",
                class_name="font-semibold text-fuchsia-700 hover:underline",
            ),
            _("We reply within 24 hours"),
        ),
        _card("map-pin", _("Visit"), details["address"]),
        class_name="grid gap-4 content-start",
    )


@registry.page(routes.CONTACT, loaders=[ContactState.open_form])
def contact() -> rx.Component:
    return page_layout(
        page_title(_("Contact"), _(SUBTITLE)),
        rx.el.div(
            rx.cond(ContactState.status == "success", _success(), _form()),
            _cards(),
            class_name="max-w-6xl mx-auto px-4 grid gap-8 md:grid-cols-[1fr_320px]",
        ),
    )
