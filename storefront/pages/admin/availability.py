"""Service Availability: the weekly schedule of one service and the dates blocked for it (or
for every service)."""

from __future__ import annotations

import reflex as rx

from storefront import i18n, routes
from storefront.components.admin_layout import (
    CARD,
    DANGER_BUTTON,
    INPUT,
    LABEL,
    SMALL_BUTTON,
    admin_frame,
    admin_table,
    cancel_save,
    cell,
    checkbox,
    notices,
)
from storefront.components.modal import modal
from storefront.components.ui import (
    PRIMARY_BUTTON,
    date_input,
    error_box,
    loaded_for_this_visit,
    time_input,
)
from storefront.i18n import N_o, _o
from storefront.pages import registry
from storefront.services.booking.availability_admin import (
    MAX_BOOKINGS_MIN,
    REASON_MAX,
    SLOT_MINUTES_MAX,
    SLOT_MINUTES_MIN,
)
from storefront.state.admin_availability import (
    CONFIRM_DELETE,
    DAY_OPTIONS,
    AdminAvailabilityState,
)

S = AdminAvailabilityState
EMPTY = N_o("No availabilities found. Add your first availability schedule!")


def _status(row: dict) -> rx.Component:
    return rx.el.span(
        row["status"],
        class_name=rx.cond(
            row["is_available"] == "yes",
            "inline-block px-2 py-0.5 rounded-full text-xs font-semibold bg-green-100 "
            "text-green-800",
            "inline-block px-2 py-0.5 rounded-full text-xs font-semibold bg-slate-200 "
            "text-slate-700",
        ),
        data_testid="availability-status",
    )


def _schedule_row(row: dict) -> rx.Component:
    what = row["day"] + " " + row["hours"]
    return rx.el.tr(
        cell(_o("Day"), row["day"], class_name="font-medium"),
        cell(_o("Hours"), row["hours"]),
        cell(
            _o("Slot Duration"),
            _o("{minutes} min").format(minutes=row["slot_duration_minutes"]),
        ),
        cell(_o("Max Bookings"), row["max_bookings_per_slot"]),
        cell(_o("Status"), _status(row)),
        cell(
            _o("Actions"),
            rx.el.div(
                rx.el.button(
                    _o("Edit"),
                    on_click=S.open_edit(row["id"]),
                    type="button",
                    aria_label=_o("Edit {what}").format(what=what),
                    class_name=SMALL_BUTTON,
                    data_testid="availability-edit",
                ),
                rx.el.button(
                    rx.cond(row["is_available"] == "yes", _o("Disable"), _o("Enable")),
                    on_click=S.toggle(row["id"]),
                    type="button",
                    aria_label=rx.cond(
                        row["is_available"] == "yes",
                        _o("Disable {what}").format(what=what),
                        _o("Enable {what}").format(what=what),
                    ),
                    class_name=SMALL_BUTTON,
                    data_testid="availability-toggle",
                ),
                rx.el.button(
                    _o("Delete"),
                    on_click=S.ask_delete(row["id"]),
                    type="button",
                    aria_label=_o("Delete {what}").format(what=what),
                    class_name=DANGER_BUTTON,
                    data_testid="availability-delete",
                ),
                class_name="flex flex-wrap gap-2 justify-end md:justify-start",
            ),
        ),
        data_testid="availability-row",
    )


def _schedule() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h2(_o("Weekly Schedule"), class_name="text-xl font-semibold"),
            _add_button(),
            class_name="flex flex-wrap items-center justify-between gap-3",
        ),
        rx.el.p(
            _o(
                "Days without rows are open 08:00-20:00 in one-hour slots; a day whose rows are "
                "all unavailable is closed."
            ),
            class_name="mt-1 text-sm text-slate-600",
        ),
        rx.cond(
            S.rows.length() == 0,
            rx.el.p(
                _o(EMPTY),
                class_name=CARD + " mt-4 p-6 text-center text-slate-600",
                data_testid="availability-empty",
            ),
            admin_table(
                [
                    _o("Day"),
                    _o("Hours"),
                    _o("Slot Duration"),
                    _o("Max Bookings"),
                    _o("Status"),
                    _o("Actions"),
                ],
                rx.foreach(S.rows, _schedule_row),
                test_id="availability-table",
            ),
        ),
        class_name="mt-8",
    )


def _field(label: str, control: rx.Component, field_id: str) -> rx.Component:
    return rx.el.div(rx.el.label(label, html_for=field_id, class_name=LABEL), control)


def _availability_form() -> rx.Component:
    values = S.form_values
    return rx.el.form(
        rx.dialog.title(
            rx.cond(S.editing_id != "", _o("Edit Availability"), _o("Add Availability")),
            class_name="text-xl font-bold pr-8",
        ),
        rx.el.div(
            _field(
                _o("Day"),
                rx.el.select(
                    *[rx.el.option(_o(name), value=value) for value, name in DAY_OPTIONS],
                    id="availability-day",
                    name="day_of_week",
                    default_value=values["day_of_week"],
                    class_name=INPUT,
                ),
                "availability-day",
            ),
            rx.el.div(
                _field(
                    _o("Start Time"),
                    time_input(
                        id="availability-start",
                        name="start_time",
                        default_value=values["start_time"],
                        required=True,
                        class_name=INPUT,
                    ),
                    "availability-start",
                ),
                _field(
                    _o("End Time"),
                    time_input(
                        id="availability-end",
                        name="end_time",
                        default_value=values["end_time"],
                        required=True,
                        class_name=INPUT,
                    ),
                    "availability-end",
                ),
                class_name="grid grid-cols-2 gap-3",
            ),
            rx.el.div(
                _field(
                    _o("Slot Duration (minutes)"),
                    rx.el.input(
                        type="number",
                        id="availability-slot",
                        name="slot_duration_minutes",
                        min=SLOT_MINUTES_MIN,
                        max=SLOT_MINUTES_MAX,
                        step=1,
                        default_value=values["slot_duration_minutes"],
                        required=True,
                        class_name=INPUT,
                    ),
                    "availability-slot",
                ),
                _field(
                    _o("Max Bookings per Slot"),
                    rx.el.input(
                        type="number",
                        id="availability-max",
                        name="max_bookings_per_slot",
                        min=MAX_BOOKINGS_MIN,
                        step=1,
                        default_value=values["max_bookings_per_slot"],
                        required=True,
                        class_name=INPUT,
                    ),
                    "availability-max",
                ),
                class_name="grid grid-cols-2 gap-3",
            ),
            checkbox(
                _o("Available"),
                id="availability-available",
                name="is_available",
                checked=S.form_available,
            ),
            error_box(S.form_error, "availability-form-error"),
            cancel_save(S.close_form, save_test_id="availability-save"),
            class_name="mt-4 flex flex-col gap-4",
        ),
        on_submit=S.save,
        reset_on_submit=False,
    )


def _confirm(text: str, *, open: rx.Var, on_confirm, test_id: str) -> rx.Component:
    return modal(
        rx.dialog.title(_o("Please confirm"), class_name="text-xl font-bold pr-8"),
        rx.dialog.description(text, class_name="mt-3 text-slate-700"),
        rx.el.div(
            rx.el.button(
                _o("Cancel"), type="button", on_click=S.cancel_delete, class_name=SMALL_BUTTON
            ),
            rx.el.button(
                _o("Delete"),
                type="button",
                on_click=on_confirm,
                class_name="inline-flex items-center min-h-[32px] px-4 py-1 rounded-lg text-sm "
                "font-semibold bg-red-600 text-white hover:bg-red-700",
                data_testid=f"{test_id}-yes",
            ),
            class_name="mt-6 flex justify-end gap-2",
        ),
        open=open,
        on_close=S.cancel_delete,
        test_id=test_id,
    )


def _blocked_row(row: dict) -> rx.Component:
    return rx.el.tr(
        cell(_o("Dates"), row["dates"], class_name="font-medium"),
        cell(_o("Reason"), row["reason"]),
        cell(_o("Repeats"), row["repeats"]),
        cell(_o("Applies To"), row["scope"]),
        cell(
            _o("Actions"),
            rx.el.button(
                _o("Remove"),
                on_click=S.ask_unblock(row["id"]),
                type="button",
                aria_label=_o("Remove blocked dates {dates}").format(dates=row["dates"]),
                class_name=DANGER_BUTTON,
                data_testid="blocked-remove",
            ),
        ),
        data_testid="blocked-row",
    )


def _block_form() -> rx.Component:
    return rx.el.form(
        rx.el.h3(_o("Block Dates"), class_name="text-lg font-semibold"),
        rx.el.div(
            _field(
                _o("From"),
                date_input(
                    id="block-start",
                    name="start_date",
                    required=True,
                    class_name=INPUT,
                ),
                "block-start",
            ),
            _field(
                _o("To (optional)"),
                date_input(id="block-end", name="end_date", class_name=INPUT),
                "block-end",
            ),
            _field(
                _o("Reason (optional)"),
                rx.el.input(
                    type="text",
                    id="block-reason",
                    name="reason",
                    max_length=REASON_MAX,
                    class_name=INPUT,
                ),
                "block-reason",
            ),
            class_name="mt-3 grid gap-3 md:grid-cols-3",
        ),
        rx.el.div(
            checkbox(_o("Every year"), id="block-yearly", name="recurring_yearly"),
            checkbox(_o("For all services"), id="block-all", name="all_services"),
            rx.el.button(
                _o("Block Dates"),
                type="submit",
                class_name=PRIMARY_BUTTON + " py-2 md:ml-auto",
                data_testid="block-submit",
            ),
            class_name="mt-3 flex flex-wrap items-center gap-4",
        ),
        rx.el.div(error_box(S.block_error, "block-error"), class_name="mt-3"),
        key=S.block_form_key,
        on_submit=S.block,
        reset_on_submit=False,
        class_name=CARD + " mt-4 p-4",
        data_testid="block-form",
    )


def _blocked() -> rx.Component:
    return rx.el.section(
        rx.el.h2(_o("Blocked Dates"), class_name="text-xl font-semibold"),
        rx.el.p(
            _o("Whole days on which this service (or every service) cannot be booked."),
            class_name="mt-1 text-sm text-slate-600",
        ),
        _block_form(),
        rx.cond(
            S.blocked.length() == 0,
            rx.el.p(
                _o("No blocked dates."),
                class_name="mt-4 text-sm text-slate-600",
                data_testid="blocked-empty",
            ),
            admin_table(
                [_o("Dates"), _o("Reason"), _o("Repeats"), _o("Applies To"), _o("Actions")],
                rx.foreach(S.blocked, _blocked_row),
                test_id="blocked-table",
            ),
        ),
        class_name="mt-10",
    )


def _add_button() -> rx.Component:
    return rx.el.button(
        rx.icon("plus", size=16),
        _o("Add Availability"),
        on_click=S.open_new,
        type="button",
        class_name=PRIMARY_BUTTON + " py-2",
        data_testid="availability-add",
    )


@registry.page(routes.ADMIN_SERVICE_AVAILABILITY, loaders=[AdminAvailabilityState.load])
def admin_availability() -> rx.Component:
    return admin_frame(
        _o("Service Availability"),
        rx.el.div(
            rx.cond(
                S.service_title != "",
                rx.el.p(S.service_title, class_name="text-lg", data_testid="service-title"),
            ),
            rx.link(
                rx.icon("arrow-left", size=16),
                _o("Back to Services"),
                href=i18n.href(routes.ADMIN_SERVICES),
                class_name="inline-flex items-center gap-1 min-h-[24px] text-sm text-fuchsia-700 "
                "font-medium",
            ),
            class_name="mt-1 flex flex-wrap items-center justify-between gap-3",
        ),
        notices(S.notice, S.error, prefix="availability"),
        rx.cond(
            loaded_for_this_visit(S.loaded),
            rx.fragment(
                _schedule(),
                _blocked(),
                modal(
                    _availability_form(),
                    open=S.form_open,
                    on_close=S.close_form,
                    test_id="availability-modal",
                ),
                _confirm(
                    _o(CONFIRM_DELETE),
                    open=S.confirm_id != "",
                    on_confirm=S.delete,
                    test_id="availability-confirm",
                ),
                _confirm(
                    _o(
                        "Are you sure you want to remove these blocked dates? This action "
                        "cannot be undone."
                    ),
                    open=S.confirm_block_id != "",
                    on_confirm=S.unblock,
                    test_id="blocked-confirm",
                ),
            ),
        ),
        current="services",
    )
