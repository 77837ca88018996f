"""/booking-confirmation/{bookingId}: the booking as placed, with its calendar file."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.layout import page_layout
from storefront.components.ui import PRIMARY_BUTTON, calendar_link, loading_spinner
from storefront.i18n import _
from storefront.state.booking_view import BookingViewState


def _row(label: str, key: str) -> rx.Component:
    """A detail of the booking, left out when the booking has none."""
    return rx.cond(
        BookingViewState.booking[key] != "",
        rx.el.div(
            rx.el.dt(label, class_name="text-sm text-slate-500"),
            rx.el.dd(BookingViewState.booking[key], class_name="font-medium break-words"),
            data_testid=f"confirmation-{key}",
        ),
    )


def _found() -> rx.Component:
    return rx.el.div(
        rx.el.p(
            BookingViewState.headline,
            class_name=rx.cond(
                BookingViewState.booking["status_code"] == "cancelled",
                "text-sm font-semibold text-red-700",
                "text-sm font-semibold text-green-700",
            ),
            data_testid="confirmation-headline",
        ),
        rx.el.h1(
            _("Booking {reference}").format(reference=BookingViewState.booking["reference"]),
            class_name="mt-1 text-3xl font-bold",
            data_testid="confirmation-reference",
        ),
        rx.el.p(
            _("Status:"),
            " ",
            rx.el.span(BookingViewState.booking["status"], data_testid="confirmation-status"),
            class_name="mt-2 text-slate-600 capitalize",
        ),
        rx.el.ul(
            rx.foreach(
                BookingViewState.lines,
                lambda line: rx.el.li(
                    rx.el.div(
                        rx.el.span(
                            line["name"], " × ", line["quantity"], class_name="font-semibold"
                        ),
                        rx.el.span(line["total"], class_name="whitespace-nowrap"),
                        class_name="flex justify-between gap-3",
                    ),
                    rx.el.p(line["when"], class_name="text-sm text-slate-600"),
                    class_name="py-3",
                    data_testid="confirmation-line",
                ),
            ),
            class_name="mt-6 divide-y rounded-2xl border border-slate-100 bg-white px-5",
        ),
        rx.el.p(
            _("Total: {total}").format(total=BookingViewState.booking["total"]),
            class_name="mt-4 text-lg font-bold",
            data_testid="confirmation-total",
        ),
        rx.el.dl(
            _row(_("Name"), "name"),
            _row(_("Email"), "email"),
            _row(_("Phone"), "phone"),
            _row(_("Venue"), "address"),
            _row(_("Event"), "event"),
            _row(_("Special requests"), "requests"),
            class_name="mt-6 grid gap-3 sm:grid-cols-2",
        ),
        rx.el.p(
            _("Payment is collected at the time of service."), class_name="mt-6 text-slate-600"
        ),
        rx.el.div(
            calendar_link(BookingViewState.ics_href, "confirmation-ics"),
            rx.link(
                _("Return to Home"),
                href=i18n.href(routes.HOME),
                underline="none",
                class_name=PRIMARY_BUTTON,
            ),
            class_name="mt-8 flex flex-wrap gap-3",
        ),
        data_testid="booking-confirmation",
    )


def _not_found() -> rx.Component:
    return rx.el.div(
        rx.el.h1(_("Booking Not Found"), class_name="text-3xl font-bold"),
        rx.el.p(
            _("This booking does not exist, or this link does not open it."),
            class_name="mt-4 text-slate-600",
        ),
        rx.link(
            _("Back to Home"),
            href=i18n.href(routes.HOME),
            underline="none",
            class_name=PRIMARY_BUTTON + " mt-6",
        ),
        data_testid="booking-not-found",
    )


def booking_confirmation() -> rx.Component:
    return page_layout(
        rx.el.div(
            rx.cond(
                BookingViewState.loading,
                loading_spinner(),
                rx.cond(BookingViewState.found, _found(), _not_found()),
            ),
            class_name="max-w-3xl mx-auto px-4 py-10",
        )
    )
