"""The day's cash (/admin/cash/{date}, issue 36): the day's bookings' total against what was
collected, each member of staff's collections by method with their 'Handed over', and the
bookings left unpaid."""

import reflex as rx

from storefront import routes
from storefront.components.admin_layout import (
    CARD,
    SMALL_BUTTON,
    admin_frame,
    admin_table,
    cell,
    notices,
)
from storefront.components.ui import loaded_for_this_visit
from storefront.i18n import _o
from storefront.pages import registry
from storefront.state.admin_cash import AdminCashState as S


def _figure(label: str, value, test_id: str) -> rx.Component:
    return rx.el.div(
        rx.el.dt(label, class_name="text-xs font-semibold uppercase text-slate-500"),
        rx.el.dd(value, class_name="text-xl font-bold", data_testid=test_id),
        class_name=CARD + " p-4",
    )


def _staff_row(row: dict) -> rx.Component:
    return rx.el.tr(
        cell(_o("Staff"), rx.el.span(row["name"], class_name="font-semibold")),
        cell(
            _o("Collected"),
            rx.el.div(
                rx.el.p(row["total"], class_name="font-semibold"),
                rx.el.p(row["methods"], class_name="text-xs text-slate-600"),
            ),
        ),
        cell(_o("Cash handed over"), row["handed_over"]),
        cell(
            _o("Cash held"),
            rx.el.span(row["held"], class_name="font-semibold", data_testid="cash-held"),
        ),
        cell(
            _o("Actions"),
            rx.el.div(
                rx.cond(
                    row["holds"] != "",
                    rx.el.button(
                        rx.icon("hand-coins", size=16),
                        _o("Handed over"),
                        on_click=S.hand_over(row["id"]),
                        disabled=S.busy != "",
                        type="button",
                        class_name=SMALL_BUTTON,
                        data_testid="cash-hand-over",
                    ),
                ),
                rx.cond(
                    row["handovers"] != "",
                    rx.el.p(row["handovers"], class_name="text-xs text-slate-600"),
                ),
            ),
        ),
        data_testid="cash-staff-row",
    )


def _unpaid_row(row: dict) -> rx.Component:
    return rx.el.tr(
        cell(_o("Reference"), rx.el.span(row["reference"], class_name="font-semibold")),
        cell(_o("Customer"), row["customer"]),
        cell(_o("Due"), row["due"]),
        cell(_o("Paid"), row["paid"]),
        cell(_o("Balance"), rx.el.span(row["balance"], class_name="font-semibold")),
        data_testid="cash-unpaid-row",
    )


def _nav() -> rx.Component:
    return rx.el.nav(
        rx.el.a(
            rx.icon("chevron-left", size=16),
            _o("Previous day"),
            href=S.previous_url,
            class_name=SMALL_BUTTON,
        ),
        rx.el.a(_o("Today"), href=S.today_url, class_name=SMALL_BUTTON),
        rx.el.a(
            _o("Next day"),
            rx.icon("chevron-right", size=16),
            href=S.next_url,
            class_name=SMALL_BUTTON,
        ),
        aria_label=_o("Days"),
        class_name="mt-4 flex flex-wrap gap-2",
    )


@registry.page(routes.ADMIN_CASH, routes.ADMIN_CASH_OF, loaders=[S.load])
def admin_cash_page() -> rx.Component:
    return admin_frame(
        _o("Day's Cash"),
        rx.el.p(S.title, class_name="text-lg font-semibold", data_testid="cash-day"),
        _nav(),
        notices(S.notice, S.error),
        rx.cond(
            loaded_for_this_visit(S.loaded),
            rx.fragment(
                rx.el.dl(
                    _figure(_o("The day's bookings owe"), S.due, "cash-due"),
                    _figure(_o("Paid on them"), S.paid, "cash-paid"),
                    _figure(_o("Collected this day"), S.collected, "cash-collected"),
                    class_name="mt-4 grid gap-3 sm:grid-cols-3",
                ),
                rx.el.h2(_o("By staff"), class_name="mt-6 text-lg font-semibold"),
                rx.cond(
                    S.staff.length() > 0,
                    admin_table(
                        [
                            _o("Staff"),
                            _o("Collected"),
                            _o("Cash handed over"),
                            _o("Cash held"),
                            _o("Actions"),
                        ],
                        rx.foreach(S.staff, _staff_row),
                        test_id="cash-staff",
                    ),
                    rx.el.p(
                        _o("Nothing was collected on this day."), class_name="mt-2 text-slate-600"
                    ),
                ),
                rx.el.h2(_o("Left unpaid"), class_name="mt-6 text-lg font-semibold"),
                rx.cond(
                    S.unpaid.length() > 0,
                    admin_table(
                        [_o("Reference"), _o("Customer"), _o("Due"), _o("Paid"), _o("Balance")],
                        rx.foreach(S.unpaid, _unpaid_row),
                        test_id="cash-unpaid",
                    ),
                    rx.el.p(
                        _o("Every booking of this day is paid."),
                        class_name="mt-2 text-slate-600",
                        data_testid="cash-all-paid",
                    ),
                ),
            ),
            rx.el.p(_o("Loading the day..."), class_name="mt-6", role="status"),
        ),
        current="cash",
    )
