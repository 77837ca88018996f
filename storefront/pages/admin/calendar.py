"""The admin week calendar: one row per service, one column per day; pending and confirmed
bookings told apart by colour and word, each service's buffer shown after its bookings."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.admin_layout import (
    CARD,
    SMALL_BUTTON,
    TABLE_HEAD,
    admin_frame,
    notices,
)
from storefront.i18n import _o
from storefront.pages import registry
from storefront.state.admin_bookings import STATUS_CODES, STATUS_LABELS
from storefront.state.admin_calendar import AdminCalendarState as S
from storefront.state.auth import AuthState

LOOK = {
    "pending": "border-amber-300 bg-amber-50 border-dashed",
    "confirmed": "border-green-400 bg-green-50",
    "on_the_way": "border-sky-400 bg-sky-50",
}


def _entry(entry: dict) -> rx.Component:
    return rx.link(
        rx.el.p(entry["time"], " ", entry["quantity"], class_name="font-semibold"),
        rx.el.p(entry["reference"]),
        rx.el.p(
            rx.match(
                entry["status"],
                *[(code, _o(word)) for code, word in STATUS_CODES.items()],
                entry["status"],
            ),
            class_name="uppercase text-[10px] tracking-wide",
        ),
        rx.cond(entry["buffer"] != "", rx.el.p(entry["buffer"], class_name="text-slate-500")),
        # An admin opens the booking; staff open the day's sheet.
        href=rx.cond(
            AuthState.is_admin,
            i18n.href(routes.ADMIN_BOOKING_EDIT.replace("[booking_id]", "")) + entry["booking_id"],
            entry["day_url"],
        ),
        underline="none",
        class_name=rx.match(
            entry["status"],
            *[
                (k, f"block rounded-md border px-2 py-1 text-xs text-slate-900 {v}")
                for k, v in LOOK.items()
            ],
            "block rounded-md border px-2 py-1 text-xs text-slate-900",
        ),
        data_testid="calendar-entry",
    )


def _row(days: list, index) -> rx.Component:
    return rx.el.tr(
        rx.el.th(
            S.services[index],
            scope="row",
            data_label=_o("Service"),
            class_name="px-3 py-3 text-left text-sm align-top",
        ),
        rx.foreach(
            days,
            lambda entries, day: rx.el.td(
                rx.el.div(rx.foreach(entries, _entry), class_name="space-y-1"),
                data_label=S.day_labels[day],
                class_name="px-2 py-2 align-top min-w-[7rem]",
            ),
        ),
        data_testid="calendar-row",
    )


@registry.page(routes.ADMIN_CALENDAR, loaders=[S.load])
def admin_calendar_page() -> rx.Component:
    return admin_frame(
        _o("Week Calendar"),
        notices(rx.Var.create(""), S.error),
        rx.el.div(
            rx.el.button(
                _o("Previous week"),
                on_click=S.previous_week,
                class_name=SMALL_BUTTON,
                type="button",
            ),
            rx.el.button(
                _o("This week"), on_click=S.this_week, class_name=SMALL_BUTTON, type="button"
            ),
            rx.el.button(
                _o("Next week"), on_click=S.next_week, class_name=SMALL_BUTTON, type="button"
            ),
            rx.el.span(
                rx.el.span(
                    _o(STATUS_LABELS["pending"]),
                    class_name="ml-2 rounded border border-dashed border-amber-300 bg-amber-50 px-2 text-xs",
                ),
                rx.el.span(
                    _o(STATUS_LABELS["confirmed"]),
                    class_name="rounded border border-green-400 bg-green-50 px-2 text-xs",
                ),
                rx.el.span(
                    _o(STATUS_LABELS["on_the_way"]),
                    class_name="rounded border border-sky-400 bg-sky-50 px-2 text-xs",
                ),
                class_name="flex gap-2 items-center",
            ),
            class_name="mt-6 flex flex-wrap gap-2 items-center",
        ),
        rx.cond(
            S.services.length() == 0,
            rx.el.p(
                _o("No bookings this week."),
                class_name="mt-6 text-slate-600",
                data_testid="calendar-empty",
            ),
            rx.el.div(
                rx.el.table(
                    rx.el.thead(
                        rx.el.tr(
                            rx.el.th(_o("Service"), scope="col", class_name=TABLE_HEAD),
                            rx.foreach(
                                S.day_labels,
                                lambda d: rx.el.th(d, scope="col", class_name=TABLE_HEAD),
                            ),
                        )
                    ),
                    rx.el.tbody(rx.foreach(S.cells, _row)),
                    class_name="admin-table w-full",
                    data_testid="calendar-table",
                ),
                class_name=CARD + " mt-6 overflow-x-auto",
            ),
        ),
        current="calendar",
        actions=rx.cond(
            AuthState.is_admin,
            rx.link(
                rx.icon("arrow-left", size=16),
                _o("Back to Bookings"),
                href=i18n.href(routes.ADMIN_BOOKINGS),
                class_name=SMALL_BUTTON,
                underline="none",
            ),
        ),
        open_to_staff=True,
    )
