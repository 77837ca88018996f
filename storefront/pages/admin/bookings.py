"""Admin Booking Management (docs/product.md §2): the filtered list, its CSV, the detail modal with
the
status buttons, and the link to the edit page."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.admin_layout import (
    CARD,
    INPUT,
    LABEL,
    SMALL_BUTTON,
    admin_frame,
    admin_table,
    cell,
    confirm_or_keep,
    notices,
    pager,
)
from storefront.components.admin_receipt import receipt_section
from storefront.components.modal import modal
from storefront.components.set_up import set_up_proof
from storefront.components.ui import date_input, error_box
from storefront.i18n import N_o, _o, _s
from storefront.pages import registry
from storefront.pages.admin.booking_payments import money_badge, payments_section
from storefront.services.booking.contact import fields_for
from storefront.services.payments import ledger
from storefront.state.admin_bookings import (
    STATUSES,
    AdminBookingsState,
    status_code,
    status_label,
)

DENIED = N_o("You must be an admin to view this page.")
STATUS_LOOK = {
    "pending": "bg-amber-100 text-amber-900",
    "confirmed": "bg-green-100 text-green-900",
    "on_the_way": "bg-sky-100 text-sky-900",
    "completed": "bg-slate-200 text-slate-800",
    "cancelled": "bg-red-100 text-red-800",
}


def status_badge(status: rx.Var, label: rx.Var) -> rx.Component:
    return rx.el.span(
        label,
        class_name=rx.match(
            status,
            *[
                (key, f"px-2 py-0.5 rounded-full text-xs font-semibold {look}")
                for key, look in STATUS_LOOK.items()
            ],
            "px-2 py-0.5 rounded-full text-xs font-semibold bg-slate-100",
        ),
        data_testid="status-badge",
    )


def _row(row: dict) -> rx.Component:
    return rx.el.tr(
        cell(
            _o("Booking ID"),
            rx.el.div(
                rx.el.code(row["short_id"], class_name="text-xs"),
                rx.el.p(row["reference"], class_name="font-semibold whitespace-nowrap"),
            ),
        ),
        cell(
            _o("Customer"),
            rx.el.div(
                rx.el.p(row["customer"], class_name="font-medium"),
                rx.el.p(row["email"], class_name="text-xs text-slate-600 break-all"),
            ),
        ),
        cell(_o("Event Type"), row["event"]),
        cell(_o("Date"), row["date"]),
        cell(_o("Total"), row["total"], class_name="whitespace-nowrap"),
        cell(
            _o("Balance"),
            rx.el.div(
                rx.el.p(row["balance"], class_name="whitespace-nowrap"),
                money_badge(row["money_state"], "row-money"),
            ),
        ),
        cell(_o("Status"), status_badge(row["status"], row["status_label"])),
        cell(
            _o("Actions"),
            rx.el.div(
                rx.el.button(
                    rx.icon("eye", size=16),
                    _o("View"),
                    on_click=AdminBookingsState.open_detail(row["id"]),
                    class_name=SMALL_BUTTON,
                    type="button",
                    aria_label=_o("View booking {reference}").format(reference=row["reference"]),
                    data_testid="booking-view",
                ),
                rx.link(
                    rx.icon("pencil", size=16),
                    _o("Edit"),
                    href=row["edit_url"],
                    class_name=SMALL_BUTTON,
                    underline="none",
                    aria_label=_o("Edit booking {reference}").format(reference=row["reference"]),
                ),
                class_name="flex flex-wrap gap-2 justify-end md:justify-start",
            ),
        ),
        data_testid="booking-row",
    )


def _filters() -> rx.Component:
    return rx.el.form(
        rx.el.div(
            rx.el.label(_o("Status"), html_for="booking-status", class_name=LABEL),
            rx.el.select(
                rx.el.option(_o("All"), value="all"),
                *[rx.el.option(status_label(s), value=s) for s in STATUSES],
                id="booking-status",
                value=AdminBookingsState.status_filter,
                on_change=AdminBookingsState.choose_status,
                class_name=INPUT,
            ),
        ),
        rx.el.div(
            rx.el.label(_o("Payment"), html_for="booking-paid", class_name=LABEL),
            rx.el.select(
                rx.el.option(_o("All"), value="all"),
                *[
                    rx.el.option(_s(ledger.STATE_WORDS[state]), value=state)
                    for state in ledger.PAYMENT_STATES
                ],
                id="booking-paid",
                value=AdminBookingsState.payment_filter,
                on_change=AdminBookingsState.choose_payment,
                class_name=INPUT,
            ),
        ),
        rx.el.div(
            rx.el.label(
                _o("Reference, email or phone"), html_for="booking-search", class_name=LABEL
            ),
            rx.el.input(
                id="booking-search",
                type="search",
                value=AdminBookingsState.search,
                on_change=AdminBookingsState.type_search,
                placeholder="MG-1A2B3C4D",
                class_name=INPUT,
            ),
        ),
        rx.el.div(
            rx.el.label(_o("From"), html_for="booking-from", class_name=LABEL),
            date_input(
                id="booking-from",
                value=AdminBookingsState.date_from,
                on_change=AdminBookingsState.type_date_from,
                class_name=INPUT,
            ),
        ),
        rx.el.div(
            rx.el.label(_o("To"), html_for="booking-to", class_name=LABEL),
            date_input(
                id="booking-to",
                value=AdminBookingsState.date_to,
                on_change=AdminBookingsState.type_date_to,
                class_name=INPUT,
            ),
        ),
        rx.el.div(
            rx.el.button(_o("Search"), type="submit", class_name=SMALL_BUTTON),
            rx.el.button(
                _o("Clear"),
                type="button",
                on_click=AdminBookingsState.clear_filters,
                class_name=SMALL_BUTTON,
            ),
            class_name="flex gap-2 items-end",
        ),
        on_submit=AdminBookingsState.apply_filters,
        class_name=CARD + " mt-6 p-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-6",
        data_testid="booking-filters",
    )


def _actions() -> rx.Component:
    return rx.el.div(
        rx.el.button(
            rx.icon("refresh-cw", size=16),
            _o("Refresh"),
            on_click=AdminBookingsState.refresh,
            class_name=SMALL_BUTTON,
            type="button",
        ),
        rx.el.a(
            rx.icon("download", size=16),
            _o("Export CSV"),
            href=AdminBookingsState.csv_url,
            # A file from a plain HTTP route: Reflex renders this as a React Router link, which
            # would look the address up among the app's pages; the browser must fetch it.
            download=True,
            custom_attrs={"reloadDocument": True},
            class_name=SMALL_BUTTON,
            data_testid="booking-csv",
        ),
        rx.link(
            rx.icon("calendar-days", size=16),
            _o("Week calendar"),
            href=i18n.href(routes.ADMIN_CALENDAR),
            class_name=SMALL_BUTTON,
            underline="none",
        ),
        class_name="flex flex-wrap gap-2",
    )


def _fact(label: str, value) -> rx.Component:
    return rx.el.div(
        rx.el.dt(label, class_name="text-xs font-semibold uppercase text-slate-500"),
        rx.el.dd(value, class_name="text-sm break-words"),
    )


def _detail_line(line: dict) -> rx.Component:
    return rx.el.li(
        rx.el.div(
            rx.el.span(line["name"], class_name="font-medium"),
            rx.el.span(" × ", line["quantity"]),
        ),
        rx.el.div(
            line["when"],
            " · ",
            line["total"],
            " · ",
            line["status"],
            class_name="text-sm text-slate-600",
        ),
        class_name="py-2 border-t border-slate-100",
    )


def _status_button(status: str) -> rx.Component:
    return rx.el.button(
        status_label(status),
        on_click=AdminBookingsState.change_status(status),
        disabled=AdminBookingsState.detail["status"] == status,
        class_name=SMALL_BUTTON,
        type="button",
        data_testid=f"status-{status}",
    )


def _undo() -> rx.Component:
    """'Undo': the latest status change taken back, with a reason the admin must give (the
    server checks the admin, the reason and that the status is still the one shown). The
    browser keeps what is typed (a plain form read on submit); a new status remounts it."""
    d = AdminBookingsState.detail
    return rx.cond(
        d["undo_to"] != "",
        rx.el.form(
            rx.el.h3(_o("Undo the last status change"), class_name="font-semibold"),
            rx.el.p(
                _o(
                    "Sets the booking back to {status}. The customer is told only when a "
                    "cancelled booking stands again."
                ).format(status=d["undo_label"]),
                class_name="text-sm text-slate-600",
            ),
            rx.el.label(
                _o("Reason (required)"), html_for="undo-reason", class_name=LABEL + " mt-2"
            ),
            rx.el.textarea(
                id="undo-reason",
                name="reason",
                rows=2,
                class_name=INPUT,
            ),
            error_box(AdminBookingsState.undo_error, "undo-error"),
            rx.el.button(
                rx.icon("undo-2", size=16),
                _o("Undo: back to {status}").format(status=d["undo_label"]),
                type="submit",
                class_name=SMALL_BUTTON + " mt-2",
                data_testid="status-undo",
            ),
            key=d["status"],
            on_submit=AdminBookingsState.undo_status,
            class_name="mt-4",
            data_testid="undo-form",
        ),
    )


def _ask_cancel_from(by: str) -> rx.Component:
    return rx.el.button(
        _o("Cancel pending from this email")
        if by == "email"
        else _o("Cancel pending from this internet address (IP)"),
        on_click=AdminBookingsState.ask_cancel_from(by),
        class_name=SMALL_BUTTON,
        type="button",
        data_testid=f"cancel-from-{by}",
    )


def _cancel_from() -> rx.Component:
    """A flood of bookings: cancel, in one action, every pending booking with this booking's
    email or from its visitor address, after a confirmation (the server checks the admin)."""
    return rx.el.div(
        rx.el.h3(_o("Cancel a flood"), class_name="font-semibold"),
        rx.el.div(
            _ask_cancel_from("email"),
            rx.cond(
                AdminBookingsState.detail["client_address"] != "",
                _ask_cancel_from("address"),
            ),
            class_name="mt-2 flex flex-wrap gap-2",
        ),
        rx.cond(
            AdminBookingsState.cancel_by != "",
            rx.el.div(
                rx.el.p(
                    AdminBookingsState.cancel_question,
                    class_name="text-sm",
                    data_testid="cancel-from-question",
                ),
                confirm_or_keep(
                    _o("Cancel them"),
                    AdminBookingsState.confirm_cancel_from,
                    test_id="cancel-from-confirm",
                    keep=_o("Keep them"),
                    on_keep=AdminBookingsState.keep_pending,
                ),
                role="alert",
                class_name="mt-2 rounded-xl border border-red-200 bg-red-50 p-3",
            ),
        ),
        class_name="mt-4",
    )


def _detail() -> rx.Component:
    d = AdminBookingsState.detail
    return modal(
        rx.dialog.title(
            _o("Booking {reference}").format(reference=d["reference"]),
            class_name="text-xl font-bold pr-8",
        ),
        rx.dialog.description(
            _o("ID {id} · created {created}").format(id=d["short_id"], created=d["created_at"]),
            class_name="text-sm text-slate-600",
        ),
        rx.el.h3(_o("Customer"), class_name="mt-4 font-semibold"),
        rx.el.dl(
            _fact(_o("Name"), d["customer"]),
            _fact(_o("Email"), d["email"]),
            _fact(_o("Phone"), d["phone"]),
            _fact(_o("Venue"), d["venue"]),
            _fact(_o("Placed from"), rx.cond(d["client_address"] != "", d["client_address"], "—")),
            class_name="mt-2 grid grid-cols-2 gap-3",
        ),
        rx.el.h3(_o("Booking"), class_name="mt-4 font-semibold"),
        rx.el.dl(
            _fact(_o("Event Type"), d["event_type"]),
            _fact(_o("Guests"), d["guests"]),
            _fact(_o("Transport"), d["transport"]),
            _fact(_o("Total"), d["total"]),
            _fact(_o("Deposit"), d["deposit"]),
            _fact(_o("Status"), status_badge(d["status"], d["status_label"])),
            # The declared fields laid out by no screen by hand (models/contact_fields.py).
            *[_fact(_s(f.label), d[f"field_{f.name}"]) for f in fields_for("detail", added=True)],
            class_name="mt-2 grid grid-cols-2 gap-3",
        ),
        rx.el.h3(_o("Special Requests"), class_name="mt-4 font-semibold"),
        rx.el.p(d["special_requests"], class_name="text-sm whitespace-pre-wrap"),
        rx.el.h3(_o("Services"), class_name="mt-4 font-semibold"),
        rx.el.ul(rx.foreach(AdminBookingsState.detail_lines, _detail_line), class_name="mt-1"),
        payments_section(),
        set_up_proof(),
        receipt_section(d["id"]),
        rx.el.h3(_o("Update Status"), class_name="mt-4 font-semibold"),
        rx.el.div(*[_status_button(s) for s in STATUSES], class_name="mt-2 flex flex-wrap gap-2"),
        rx.el.div(
            error_box(AdminBookingsState.detail_error, "booking-detail-error"),
            rx.cond(
                AdminBookingsState.asked_status != "",
                confirm_or_keep(
                    _o("Override and set {status}").format(
                        status=rx.match(
                            AdminBookingsState.asked_status,
                            *[(s, status_code(s)) for s in STATUSES],
                            AdminBookingsState.asked_status,
                        )
                    ),
                    AdminBookingsState.override_status,
                    test_id="status-override",
                    keep=_o("Keep as it is"),
                    on_keep=AdminBookingsState.keep_status,
                ),
            ),
            class_name="mt-3",
        ),
        _undo(),
        _cancel_from(),
        rx.el.div(
            rx.link(
                _o("Edit booking"), href=d["edit_url"], class_name="text-fuchsia-700 underline"
            ),
            class_name="mt-4",
        ),
        open=AdminBookingsState.detail_open,
        on_close=AdminBookingsState.close_detail,
        test_id="booking-detail",
    )


@registry.page(routes.ADMIN_BOOKINGS, loaders=[AdminBookingsState.load])
def admin_bookings_page() -> rx.Component:
    return admin_frame(
        _o("Booking Management"),
        notices(AdminBookingsState.notice, AdminBookingsState.error),
        _filters(),
        rx.cond(
            (AdminBookingsState.total == 0) & ~AdminBookingsState.loading,
            rx.el.p(
                _o("No bookings found."),
                class_name="mt-6 text-slate-600",
                data_testid="bookings-empty",
            ),
            rx.fragment(
                admin_table(
                    [
                        _o("Booking ID"),
                        _o("Customer"),
                        _o("Event Type"),
                        _o("Date"),
                        _o("Total"),
                        _o("Balance"),
                        _o("Status"),
                        _o("Actions"),
                    ],
                    rx.foreach(AdminBookingsState.rows, _row),
                    test_id="bookings-table",
                ),
                pager(
                    AdminBookingsState.page,
                    AdminBookingsState.pages,
                    AdminBookingsState.total,
                    AdminBookingsState.previous_page,
                    AdminBookingsState.next_page,
                ),
            ),
        ),
        _detail(),
        current="bookings",
        actions=_actions(),
        denied=_o(DENIED),
    )
