"""/booking-confirmation/{bookingId}: the booking as it is now (its status said first; the
calendar file and the payment line while it is upcoming); until the business's cutoff its
customer cancels it, or moves it on the cart's slot picker (services/booking/changes.py)."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.layout import page_layout
from storefront.components.slot_picker import slot_picker
from storefront.components.ui import (
    PRIMARY_BUTTON,
    SECONDARY_BUTTON,
    calendar_link,
    error_box,
    loaded_for_this_visit,
    loading_spinner,
    success_box,
)
from storefront.i18n import _
from storefront.pages import registry
from storefront.state.booking_view import BookingViewState
from storefront.state.slot_picker import SlotPickerState

CANCEL_BUTTON = (
    "inline-flex items-center justify-center gap-2 px-6 py-3 rounded-full border-2 "
    "border-red-600 text-red-700 font-semibold hover:bg-red-50"
)
DANGER_BUTTON = (
    "inline-flex items-center justify-center gap-2 px-6 py-3 rounded-full bg-red-600 text-white "
    "font-semibold hover:bg-red-700 disabled:opacity-50 disabled:cursor-not-allowed"
)
HEADLINE_COLOURS = {
    "pending": "text-amber-700",
    "cancelled": "text-red-700",
    "completed": "text-slate-600",
}


def _around(text: str, placeholder: str, component: rx.Component) -> list:
    """`text` with `component` where `placeholder` stands (the words of each language around
    it)."""
    before, _sep, after = text.partition(placeholder)
    return [part for part in (before, component, after) if not isinstance(part, str) or part]


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
            class_name=rx.match(
                BookingViewState.booking["status_code"],
                *[(code, f"text-sm font-semibold {c}") for code, c in HEADLINE_COLOURS.items()],
                "text-sm font-semibold text-green-700",
            ),
            data_testid="confirmation-headline",
        ),
        rx.el.h1(
            # The reference kept whole: at 390 px it broke after 'MG-'.
            *_around(
                _("Booking {reference}"),
                "{reference}",
                rx.el.span(BookingViewState.booking["reference"], class_name="whitespace-nowrap"),
            ),
            class_name="mt-1 text-3xl font-bold",
            data_testid="confirmation-reference",
        ),
        rx.el.p(
            _("Status:"),
            " ",
            rx.el.span(BookingViewState.booking["status"], data_testid="confirmation-status"),
            class_name="mt-2 text-slate-600",  # 'Statusi: në pritje', not 'Në Pritje'
        ),
        rx.cond(
            BookingViewState.booking["set_up"],
            rx.el.p(
                rx.icon("circle-check", size=18, class_name="text-emerald-700 shrink-0"),
                BookingViewState.booking["set_up"],
                class_name="mt-1 flex items-center gap-2 font-semibold text-emerald-800",
                data_testid="confirmation-set-up",
            ),
        ),
        rx.el.p(
            BookingViewState.status_note,
            class_name="mt-1 text-slate-700",
            data_testid="confirmation-status-note",
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
        # Its subtotal and transport (issue 36), for a booking with a municipality.
        rx.cond(
            BookingViewState.booking["transport"] != "",
            rx.el.dl(
                rx.el.div(
                    rx.el.dt(_("Subtotal")),
                    rx.el.dd(BookingViewState.booking["subtotal"]),
                    class_name="flex justify-between gap-3",
                ),
                rx.el.div(
                    rx.el.dt(
                        _("Transport ({municipality})").format(
                            municipality=BookingViewState.booking["municipality"]
                        )
                    ),
                    rx.el.dd(
                        BookingViewState.booking["transport"],
                        data_testid="confirmation-transport",
                    ),
                    class_name="flex justify-between gap-3",
                ),
                class_name="mt-4 space-y-1 text-slate-700",
            ),
        ),
        rx.el.p(
            _("Total: {total}").format(total=BookingViewState.booking["total"]),
            class_name="mt-4 text-lg font-bold",
            data_testid="confirmation-total",
        ),
        rx.cond(
            BookingViewState.booking["paid"] != "",
            rx.el.p(
                _("Paid: {paid} · Left to pay: {balance}").format(
                    paid=BookingViewState.booking["paid"],
                    balance=BookingViewState.booking["balance"],
                ),
                class_name="mt-1 text-slate-700",
                data_testid="confirmation-balance",
            ),
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
        # The weather's offer (issue 37): move or cancel below, past the usual cutoff.
        rx.cond(
            BookingViewState.booking["weather"] != "",
            rx.el.p(
                rx.icon("cloud-rain", size=18, class_name="inline mr-2 -mt-1"),
                BookingViewState.booking["weather"],
                class_name="mt-6 rounded-xl border border-sky-200 bg-sky-50 p-4 text-sky-900",
                role="status",
                data_testid="confirmation-weather",
            ),
        ),
        success_box(BookingViewState.change_notice, "change-notice"),
        _change(),
        # A cancelled or completed booking has nothing left to pay or to put in a calendar.
        rx.cond(
            BookingViewState.upcoming,
            rx.el.p(
                BookingViewState.booking["due"],
                class_name="mt-6 text-slate-600",
                data_testid="confirmation-payment",
            ),
        ),
        rx.el.div(
            rx.cond(
                BookingViewState.upcoming,
                calendar_link(BookingViewState.ics_href, "confirmation-ics"),
            ),
            # The numbered receipt, once it has one (services/payments/receipts.py).
            rx.cond(
                BookingViewState.receipt_href != "",
                rx.el.a(
                    _("Download receipt"),
                    href=BookingViewState.receipt_href,
                    download=True,
                    custom_attrs={"reloadDocument": True},  # a file, not a page of the app
                    class_name=SECONDARY_BUTTON,
                    data_testid="confirmation-receipt",
                ),
            ),
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


# --- changing it (services/booking/changes.py) --------------------------------------------------


def _change() -> rx.Component:
    """Cancel or move, for the link's holder and the booking's account until the cutoff; after
    it (or on its way, completed, cancelled), a line saying to call."""
    return rx.cond(
        BookingViewState.can_change,
        rx.el.section(
            rx.el.h2(_("Change or cancel"), class_name="text-xl font-bold"),
            rx.el.p(
                _(
                    "You can cancel this booking, or move it to another date or time, "
                    "until {deadline}."
                ).format(deadline=BookingViewState.change_deadline),
                class_name="mt-2 text-slate-600",
                data_testid="change-deadline",
            ),
            rx.cond(
                BookingViewState.confirming_cancel,
                _cancel_step(),
                rx.cond(BookingViewState.moving, _move_form(), _change_buttons()),
            ),
            id="change",
            class_name="mt-8 rounded-2xl border border-slate-200 bg-white p-5",
            data_testid="booking-change",
        ),
        rx.cond(BookingViewState.change_closed & BookingViewState.upcoming, _call_us()),
    )


def _change_buttons() -> rx.Component:
    return rx.el.div(
        error_box(BookingViewState.change_error, "change-error"),
        rx.el.div(
            rx.el.button(
                _("Change date or time"),
                type="button",
                on_click=BookingViewState.open_move,
                class_name=SECONDARY_BUTTON,
                data_testid="change-move",
            ),
            rx.el.button(
                _("Cancel booking"),
                type="button",
                on_click=BookingViewState.ask_cancel,
                class_name=CANCEL_BUTTON,
                data_testid="change-cancel",
            ),
            class_name="flex flex-wrap gap-3",
        ),
        class_name="mt-4 grid gap-3",
    )


def _cancel_step() -> rx.Component:
    return rx.el.div(
        rx.el.p(
            _("Cancel booking {reference}? This cannot be undone online.").format(
                reference=BookingViewState.booking["reference"]
            ),
            class_name="font-semibold",
        ),
        error_box(BookingViewState.change_error, "change-error"),
        _choice(
            (_("Yes, cancel it"), BookingViewState.cancel_booking, "change-cancel-confirm"),
            (_("Keep booking"), BookingViewState.keep_booking, "change-cancel-keep"),
            disabled=BookingViewState.changing,
            button=DANGER_BUTTON,
        ),
        role="alertdialog",
        aria_live="polite",
        class_name="mt-4 grid gap-3 rounded-xl bg-red-50 p-4",
        data_testid="change-cancel-step",
    )


def _move_form() -> rx.Component:
    """The cart's slot picker on the days and times the whole booking fits: its first service
    starts at the time chosen and the others keep their place after it. The choice lives in the
    picker's state on the server ('Move booking' reads it there), so nothing picked is lost to
    a refusal or the cutoff's question."""
    chosen = SlotPickerState.selected_date + " " + SlotPickerState.selected_time
    unchanged = (SlotPickerState.selected_date == BookingViewState.move_day) & (
        SlotPickerState.selected_time == BookingViewState.move_time
    )
    return rx.el.div(
        rx.el.p(
            _(
                "All the services of this booking move together and keep their hours: the first "
                "one starts at the new time. The days and times shown are those at which all of "
                "them are free."
            ),
            class_name="text-sm text-slate-600",
        ),
        slot_picker(choose_duration=False),
        error_box(BookingViewState.change_error, "change-error"),
        rx.cond(
            (BookingViewState.late_warning != "") & (BookingViewState.late_for == chosen),
            _late_step(),
            _choice(
                (_("Move booking"), BookingViewState.move_booking, "change-move-confirm"),
                (_("Keep the current time"), BookingViewState.close_move, "change-move-keep"),
                disabled=BookingViewState.changing
                | (SlotPickerState.selected_time == "")
                | unchanged,
            ),
        ),
        class_name="mt-4 grid gap-3",
        data_testid="change-move-form",
    )


def _choice(go: tuple, back: tuple, *, disabled, button: str = PRIMARY_BUTTON) -> rx.Component:
    """A step's two answers, each (words, event, test id): go on (off while `disabled`) or back."""
    return rx.el.div(
        rx.el.button(
            go[0],
            type="button",
            on_click=go[1],
            disabled=disabled,
            class_name=button,
            data_testid=go[2],
        ),
        rx.el.button(
            back[0],
            type="button",
            on_click=back[1],
            class_name=SECONDARY_BUTTON,
            data_testid=back[2],
        ),
        class_name="flex flex-wrap gap-3",
    )


def _late_step() -> rx.Component:
    """Asked before a move into the cutoff: after it the booking is no longer changed online."""
    return rx.el.div(
        rx.el.p(BookingViewState.late_warning, class_name="font-semibold"),
        _choice(
            (_("Move it anyway"), BookingViewState.move_booking_anyway, "change-late-confirm"),
            (_("Choose another time"), BookingViewState.choose_another_time, "change-late-back"),
            disabled=BookingViewState.changing,
        ),
        role="alertdialog",
        aria_live="polite",
        class_name="grid gap-3 rounded-xl bg-amber-50 p-4 text-amber-900",
        data_testid="change-late-warning",
    )


def _call_us() -> rx.Component:
    return rx.el.p(
        _("To change this booking, please call us:"),
        " ",
        rx.el.a(
            BookingViewState.call_phone,
            href=BookingViewState.call_href,
            class_name="font-semibold text-fuchsia-700 underline",
        ),
        class_name="mt-8 text-slate-700",
        data_testid="change-call",
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


@registry.page(routes.BOOKING_CONFIRMATION, loaders=[BookingViewState.load])
def booking_confirmation() -> rx.Component:
    return page_layout(
        rx.el.div(
            # This visit's booking only: a tab's last visit arrives first (docs/architecture.md §3).
            rx.cond(
                loaded_for_this_visit(~BookingViewState.loading),
                rx.cond(BookingViewState.found, _found(), _not_found()),
                loading_spinner(),
            ),
            class_name="max-w-3xl mx-auto px-4 py-10",
        )
    )
