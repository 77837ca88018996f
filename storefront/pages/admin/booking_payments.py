"""The payments section of the admin booking detail (issue 36): what the booking owes, what was
paid and by whom, 'Record payment' (an amount above the balance is asked about), and 'Reverse'
with a reason. Not a page of its own: pages/admin/bookings.py draws it in its modal."""

import reflex as rx

from storefront.components.admin_layout import (
    DANGER_BUTTON,
    INPUT,
    LABEL,
    SMALL_BUTTON,
    confirm_or_keep,
)
from storefront.components.ui import error_box, kept_input, kept_select
from storefront.i18n import _o, _s
from storefront.services.payments import ledger
from storefront.state.payments import AdminPaymentsState as P

STATE_LOOK = {
    "unpaid": "bg-red-100 text-red-800",
    "part_paid": "bg-amber-100 text-amber-900",
    "paid": "bg-green-100 text-green-900",
}


def money_badge(state, test_id: str = "money-badge") -> rx.Component:
    """Unpaid / part-paid / paid, in the back office's words and colours."""
    return rx.el.span(
        rx.match(state, *[(code, _s(word)) for code, word in ledger.STATE_WORDS.items()], state),
        class_name=rx.match(
            state,
            *[
                (code, f"px-2 py-0.5 rounded-full text-xs font-semibold whitespace-nowrap {look}")
                for code, look in STATE_LOOK.items()
            ],
            "px-2 py-0.5 rounded-full text-xs font-semibold bg-slate-100",
        ),
        data_testid=test_id,
    )


def _figure(label: str, value, test_id: str) -> rx.Component:
    return rx.el.div(
        rx.el.dt(label, class_name="text-xs font-semibold uppercase text-slate-500"),
        rx.el.dd(value, class_name="text-base font-semibold", data_testid=test_id),
    )


def _payment(row: dict) -> rx.Component:
    return rx.el.li(
        rx.el.div(
            rx.el.span(row["kind_label"], " · ", row["amount"], class_name="font-medium"),
            rx.el.span(" · ", row["method"], class_name="text-slate-700"),
            rx.cond(
                row["reversed"] != "",
                rx.el.span(
                    _o("reversed"),
                    class_name="ml-2 px-2 rounded-full bg-slate-200 text-xs font-semibold",
                ),
            ),
        ),
        rx.el.div(row["when"], " · ", row["by"], class_name="text-xs text-slate-600 break-words"),
        rx.cond(row["note"] != "", rx.el.p(row["note"], class_name="text-sm italic")),
        rx.cond(
            row["reversible"] != "",
            rx.cond(
                P.reverse_for == row["id"],
                rx.el.form(
                    rx.el.label(_o("Reason"), html_for="reverse-reason", class_name=LABEL),
                    kept_input(
                        id="reverse-reason",
                        name="reason",
                        default_value="",
                        class_name=INPUT,
                        auto_complete="off",
                    ),
                    error_box(P.reverse_error, "reverse-error"),
                    rx.el.div(
                        rx.el.button(
                            _o("Reverse this payment"),
                            type="submit",
                            disabled=P.busy,
                            class_name=DANGER_BUTTON,
                            data_testid="reverse-confirm",
                        ),
                        rx.el.button(
                            _o("Keep it"),
                            on_click=P.close_reverse,
                            class_name=SMALL_BUTTON,
                            type="button",
                        ),
                        class_name="mt-2 flex flex-wrap gap-2",
                    ),
                    on_submit=P.reverse,
                    class_name="mt-2",
                ),
                rx.el.button(
                    _o("Reverse"),
                    on_click=P.open_reverse(row["id"]),
                    type="button",
                    class_name=f"{SMALL_BUTTON} mt-1",
                    data_testid="payment-reverse",
                ),
            ),
        ),
        class_name="py-2 border-t border-slate-100",
        data_testid="payment-row",
    )


def _record_form() -> rx.Component:
    return rx.el.form(
        rx.el.div(
            rx.el.div(
                rx.el.label(_o("Amount"), html_for="payment-amount", class_name=LABEL),
                kept_input(
                    id="payment-amount",
                    name="amount",
                    default_value=P.amount,
                    on_change=P.clear_question,
                    input_mode="decimal",
                    auto_complete="off",
                    class_name=INPUT,
                ),
            ),
            rx.el.div(
                rx.el.label(_o("Method"), html_for="payment-method", class_name=LABEL),
                kept_select(
                    *[rx.el.option(_s(ledger.METHOD_WORDS[m]), value=m) for m in ledger.METHODS],
                    id="payment-method",
                    name="method",
                    default_value="cash",
                    class_name=INPUT,
                ),
            ),
            class_name="grid grid-cols-2 gap-3",
        ),
        rx.el.label(_o("Note"), html_for="payment-note", class_name=f"{LABEL} mt-2"),
        kept_input(
            id="payment-note",
            name="note",
            default_value="",
            auto_complete="off",
            class_name=INPUT,
        ),
        error_box(P.error, "payment-error"),
        rx.cond(
            P.over_question != "",
            rx.el.div(
                rx.el.p(P.over_question, role="alert", class_name="text-sm text-amber-900"),
                confirm_or_keep(
                    _o("Record it anyway"),
                    P.record_anyway,
                    test_id="payment-over-confirm",
                    keep=_o("Change the amount"),
                    on_keep=P.clear_question,
                ),
                class_name="mt-2 rounded-lg bg-amber-50 border border-amber-300 p-3",
            ),
            rx.el.button(
                _o("Record payment"),
                type="submit",
                disabled=P.busy,
                class_name=f"{SMALL_BUTTON} mt-3",
                data_testid="payment-record",
            ),
        ),
        on_submit=P.record,
        key=P.form_key,
        class_name="mt-3",
    )


def payments_section() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h3(_o("Payments"), class_name="font-semibold"),
            money_badge(P.money_state),
            class_name="mt-4 flex items-center gap-2",
        ),
        rx.cond(
            P.loaded,
            rx.fragment(
                rx.el.dl(
                    _figure(_o("Due"), P.due, "money-due"),
                    _figure(_o("Paid"), P.paid, "money-paid"),
                    _figure(_o("Balance"), P.balance, "money-balance"),
                    rx.cond(P.deposit != "", _figure(_o("Deposit"), P.deposit, "money-deposit")),
                    rx.cond(P.over != "", _figure(_o("Paid over"), P.over, "money-over")),
                    class_name="mt-2 grid grid-cols-3 gap-3",
                ),
                rx.cond(
                    P.notice != "",
                    rx.el.p(
                        P.notice,
                        role="status",
                        class_name="mt-2 text-sm text-green-800",
                        data_testid="payment-notice",
                    ),
                ),
                rx.el.ul(rx.foreach(P.rows, _payment), class_name="mt-2"),
                rx.cond(~P.cancelled, _record_form()),
            ),
            error_box(P.error, "payments-load-error"),
        ),
        data_testid="booking-payments",
    )
