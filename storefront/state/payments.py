"""A booking's payments on its admin detail (issue 36): the balance, the payments and their
reversals, 'Record payment' and 'Reverse'. An AdminState: the guard refuses its events to anyone
else, each handler asks again who is calling, and the ledger checks the role in the database.
`payment_message` is the one reading of the ledger's refusals (the day sheet's 'Collected' uses
it too)."""

from __future__ import annotations

import uuid

import reflex as rx

from storefront.i18n import N_o, _o, _s
from storefront.services import dates
from storefront.services.money import format_price, to_amount
from storefront.services.payments import ledger
from storefront.state.admin_receipt import AdminReceiptState
from storefront.state.auth import AdminState
from storefront.state.base import call_service
from storefront.state.errors import log_failure

LOAD_FAILED = N_o("Failed to load the payments. Please try again.")
SAVE_FAILED = N_o("Failed to record the payment. Please try again.")
RECORDED = N_o("Payment of {amount} recorded.")
REVERSED = N_o("Payment of {amount} reversed.")
# The ledger's refusals in the back office's words.
MESSAGES = {
    "not_found": N_o("Booking not found"),
    "cancelled": N_o("A cancelled booking takes no payment."),
    "invalid_amount": N_o("Amount: enter an amount above 0 with at most two decimals."),
    "too_much": N_o("Amount: at most {most} can be recorded (the balance is {balance})."),
    "over_balance": N_o(
        "This is more than the balance of {balance} (at most {most}). Record it anyway?"
    ),
    "invalid_method": N_o("Choose how it was paid."),
    "note_too_long": N_o("Note: at most 500 characters."),
    "reason_required": N_o("Reason: say why the payment is reversed."),
    "already_reversed": N_o("This payment was already reversed."),
    "not_a_payment": N_o("Payment not found"),
    "key_reused": N_o("Please try again"),
    "busy": N_o("Please try again"),
}
KIND_WORDS = {"payment": N_o("Payment"), "reversal": N_o("Reversal")}


def payment_message(exc: ledger.PaymentError) -> str:
    """A refusal of the ledger as the screens say it."""
    template = MESSAGES.get(exc.code)
    if template is None:
        return _o(exc.message)
    details = {key: format_price(to_amount(value)) for key, value in exc.details.items() if value}
    try:
        return _o(template).format(**details)
    except KeyError:
        return _o(template)


def _row(row: ledger.PaymentRow) -> dict[str, str]:
    return {
        "id": row.id,
        "kind": row.kind,
        "kind_label": _o(KIND_WORDS[row.kind]),
        "amount": format_price(row.amount, row.currency),
        "method": _s(ledger.METHOD_WORDS.get(row.method, row.method)),
        "note": row.note,
        "by": row.recorded_by,
        "when": f"{dates.local_date(row.recorded_at)} {dates.local_time(row.recorded_at)}",
        "reversible": "yes" if row.kind == "payment" and not row.reversed else "",
        "reversed": "yes" if row.reversed else "",
    }


class AdminPaymentsState(AdminState):
    booking_id: str = ""
    loaded: bool = False
    due: str = ""
    paid: str = ""
    balance: str = ""
    over: str = ""
    deposit: str = ""
    money_state: str = ""
    cancelled: bool = False
    rows: list[dict[str, str]] = []
    # 'Record payment'.
    amount: str = ""
    method: str = "cash"
    note: str = ""
    error: str = ""
    notice: str = ""
    over_question: str = ""
    busy: bool = False
    # Changed when the form should start again empty (after a payment is recorded).
    form_key: str = ""
    _key: str = ""
    # 'Reverse' of one payment.
    reverse_for: str = ""
    reason: str = ""
    reverse_error: str = ""
    _reverse_key: str = ""

    async def _read(self, caller: str) -> None:
        try:
            found = await call_service(
                ledger.booking_money, actor_id=caller, booking_id=self.booking_id
            )
        except ledger.PaymentError as exc:
            self.error, self.loaded = payment_message(exc), False
            return
        except Exception as exc:
            log_failure("AdminPaymentsState._read", exc, booking=self.booking_id)
            self.error, self.loaded = _o(LOAD_FAILED), False
            return
        money, currency = found.money, found.currency
        self.due = format_price(money.due, currency)
        self.paid = format_price(money.paid, currency)
        self.balance = format_price(money.balance, currency)
        self.over = format_price(money.over, currency) if money.over > 0 else ""
        self.deposit = format_price(money.deposit, currency) if money.deposit > 0 else ""
        self.money_state = money.state
        self.cancelled = found.status == "cancelled"
        self.rows = [_row(r) for r in found.rows]
        if not self.amount:
            self.amount = f"{money.balance:.2f}" if money.balance > 0 else ""
        self.loaded = True

    @rx.event
    async def show(self, booking_id: str):
        """The detail opened on a booking: its money, and an empty form (the balance in it)."""
        caller = await self._admin_id()
        if not caller:
            return
        self.booking_id = str(booking_id)[:64]
        self.amount, self.method, self.note = "", "cash", ""
        self.error = self.notice = self.over_question = ""
        self.reverse_for = self.reason = self.reverse_error = ""
        self._key = uuid.uuid4().hex
        self.form_key = self._key
        await self._read(caller)

    @rx.event
    def clear_question(self):
        """The amount is being changed: the question about the last one is gone."""
        self.over_question = ""

    @rx.event
    async def record(self, form: dict | None = None):
        form = form if isinstance(form, dict) else {}
        self.amount = str(form.get("amount", ""))[:16]
        method = str(form.get("method", "cash"))
        self.method = method if method in ledger.METHODS else "cash"
        self.note = str(form.get("note", ""))[: ledger.MAX_NOTE * 2]
        async for update in self._record(confirmed=False):
            yield update

    @rx.event
    async def record_anyway(self):
        """The admin confirmed an amount above the balance (within the tolerance)."""
        async for update in self._record(confirmed=True):
            yield update

    async def _record(self, *, confirmed: bool):
        if self.busy or not self.booking_id:
            return
        caller = await self._admin_id()
        if not caller:
            return
        self.busy, self.error, self.notice = True, "", ""
        if not confirmed:
            self.over_question = ""
        yield
        try:
            payment = await call_service(
                ledger.record_payment,
                actor_id=caller,
                booking_id=self.booking_id,
                amount=self.amount,
                method=self.method,
                note=self.note,
                key=self._key,
                over_confirmed=confirmed,
            )
        except ledger.PaymentError as exc:
            if exc.code == "over_balance":
                self.over_question = payment_message(exc)
            else:
                self.error = payment_message(exc)
        except Exception as exc:
            log_failure("AdminPaymentsState.record", exc, booking=self.booking_id)
            self.error = _o(SAVE_FAILED)
        else:
            self.notice = _o(RECORDED).format(amount=format_price(payment.amount))
            self.amount, self.note, self.over_question = "", "", ""
            self._key = uuid.uuid4().hex
            self.form_key = self._key
            await self._read(caller)
            # The first payment gave the booking its receipt number: the section shows it.
            yield AdminReceiptState.load(self.booking_id)
        finally:
            self.busy = False

    @rx.event
    def open_reverse(self, payment_id: str):
        self.reverse_for, self.reason, self.reverse_error = str(payment_id)[:64], "", ""
        self._reverse_key = uuid.uuid4().hex

    @rx.event
    def close_reverse(self):
        self.reverse_for = self.reason = self.reverse_error = ""

    @rx.event
    async def reverse(self, form: dict | None = None):
        if self.busy or not self.reverse_for:
            return
        form = form if isinstance(form, dict) else {}
        self.reason = str(form.get("reason", ""))[: ledger.MAX_NOTE * 2]
        caller = await self._admin_id()
        if not caller:
            return
        self.busy, self.reverse_error, self.notice = True, "", ""
        yield
        try:
            reversal = await call_service(
                ledger.reverse_payment,
                actor_id=caller,
                payment_id=self.reverse_for,
                reason=self.reason,
                key=self._reverse_key,
            )
        except ledger.PaymentError as exc:
            self.reverse_error = payment_message(exc)
        except Exception as exc:
            log_failure("AdminPaymentsState.reverse", exc, payment=self.reverse_for)
            self.reverse_error = _o(SAVE_FAILED)
        else:
            self.notice = _o(REVERSED).format(amount=format_price(-reversal.amount))
            self.reverse_for = self.reason = ""
            await self._read(caller)
        finally:
            self.busy = False
