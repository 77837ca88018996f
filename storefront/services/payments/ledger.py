"""What a booking owes and what was paid on it (docs/payments.md).

The amount due is the booking's total (its lines plus transport, `Booking.total_amount`); the
balance is that less the sum of its payments (a reversal is a negative row). A payment is never
edited or deleted: an admin reverses a mistaken one with a reason. Both are checked and written
under the booking's money lock (services/locks.py), so two people recording the same collection
at once record it once: the second finds no balance left (and one press, sent twice, is one row by
its idempotency key). Every write is audited and commits its own transaction.

    ledger.record_payment(session=s, actor_id=staff, booking_id=b, amount="40.00",
                          method="cash", key=press_key)
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, col, select

from storefront.i18n import N_s
from storefront.models import PAYMENT_METHODS, Booking, Payment, Receipt, User, utcnow
from storefront.services import audit, locks, money, permissions
from storefront.services.errors import ServiceError
from storefront.services.money import CENT
from storefront.services.payments import receipts

ZERO = Decimal("0.00")
# What an amount may be typed as (after spaces go and a decimal comma becomes a point).
AMOUNT = re.compile(r"[0-9]{1,8}(\.[0-9]{1,2})?")
# Above the balance, an admin may record at most this share of the booking's total more (a
# customer who rounds up, a tip), and only after confirming it; staff never.
OVERPAY_SHARE = Decimal("0.10")
MAX_NOTE = 500
METHOD_WORDS = {
    "cash": N_s("Cash"),
    "bank_transfer": N_s("Bank transfer"),
    "card": N_s("Card at the door"),
}
# What staff may record at the door (a bank transfer reaches the owner's account).
METHODS = PAYMENT_METHODS
STAFF_METHODS = ("cash", "card")
# The balance filter of the bookings list.
PAYMENT_STATES = ("unpaid", "part_paid", "paid")
STATE_WORDS = {
    "unpaid": N_s("Unpaid"),
    "part_paid": N_s("Part-paid"),
    "paid": N_s("Paid"),
}


class PaymentError(ServiceError):
    """Codes: the admin check's, not_found, cancelled, invalid_amount, over_balance (details
    `balance`, `most`: confirm, within the tolerance, to record it), too_much, invalid_method,
    note_too_long, reason_required, already_reversed, not_a_payment, key_reused, busy."""

    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "not_found": "Booking not found",
        "cancelled": "A cancelled booking takes no payment",
        "invalid_amount": "Enter an amount above 0 with at most two decimals",
        "over_balance": "This is more than the balance: confirm to record it",
        "too_much": "This is more than the balance allows",
        "invalid_method": "Choose how it was paid",
        "note_too_long": "The note is too long",
        "reason_required": "Say why the payment is reversed",
        "already_reversed": "This payment was already reversed",
        "not_a_payment": "Payment not found",
        "key_reused": "This press was already used for another payment",
        "busy": "Please try again",
    }


@dataclass(frozen=True)
class Balance:
    """A booking's money: `due` (its total), `paid` (net of reversals), `balance` (due less
    paid, never below 0 as shown; `over` is what was paid beyond), `deposit` (asked before the
    day) and `state` (PAYMENT_STATES)."""

    due: Decimal
    paid: Decimal
    balance: Decimal
    over: Decimal
    deposit: Decimal
    state: str

    @property
    def deposit_left(self) -> Decimal:
        """What is still to pay of the deposit."""
        return max(self.deposit - self.paid, ZERO)


def balance_of(booking: Booking, paid: Decimal) -> Balance:
    due = Decimal(booking.total_amount).quantize(CENT)
    paid = Decimal(paid).quantize(CENT)
    left = due - paid
    if paid <= 0:
        state = "unpaid" if due > 0 else "paid"
    else:
        state = "paid" if left <= 0 else "part_paid"
    return Balance(
        due=due,
        paid=paid,
        balance=max(left, ZERO),
        over=max(-left, ZERO),
        deposit=Decimal(booking.deposit_amount or 0).quantize(CENT),
        state=state,
    )


# What was paid on bookings, net of reversals: {id: amount} (services/money.py, which the mails
# read too).
paid_of = money.paid_of


def balance(session: Session, booking: Booking) -> Balance:
    return balance_of(booking, paid_of(session, [booking.id])[booking.id])


def has_money(session: Session, booking_id: uuid.UUID) -> bool:
    """Whether a booking has a payment or a receipt number: it is kept (cancelled, never
    deleted), as a receipt's number must never go missing."""
    paid = session.exec(select(Payment.id).where(Payment.booking_id == booking_id)).first()
    numbered = session.exec(select(Receipt.id).where(Receipt.booking_id == booking_id)).first()
    return paid is not None or numbered is not None


def paid_sum():
    """The SQL of what was paid on `Booking` (a correlated subquery): the bookings list filters
    by it (`state_clause`)."""
    return (
        select(func.coalesce(func.sum(Payment.amount), 0))
        .where(Payment.booking_id == Booking.id)
        .correlate(Booking)
        .scalar_subquery()
    )


def state_clause(state: str):
    """The SQL condition of one of PAYMENT_STATES on `Booking`."""
    paid = paid_sum()
    if state == "unpaid":
        return (paid <= 0) & (Booking.total_amount > 0)
    if state == "part_paid":
        return (paid > 0) & (paid < Booking.total_amount)
    if state == "paid":
        return paid >= Booking.total_amount
    raise PaymentError("invalid_amount")  # pragma: no cover - callers pass PAYMENT_STATES


@dataclass(frozen=True)
class PaymentRow:
    """A payment as the screens and the receipt show it."""

    id: str
    kind: str  # payment, reversal
    amount: Decimal
    currency: str
    method: str
    note: str
    recorded_by: str
    recorded_at: datetime
    reverses_id: str
    reversed: bool  # a payment that a reversal answered


def payments_of(session: Session, booking_id: uuid.UUID) -> list[PaymentRow]:
    """The booking's payments and reversals, oldest first."""
    rows = session.exec(
        select(Payment)
        .where(Payment.booking_id == booking_id)
        .order_by(col(Payment.recorded_at), col(Payment.id))
    ).all()
    reversed_ids = {row.reverses_id for row in rows if row.reverses_id}
    return [
        PaymentRow(
            id=str(row.id),
            kind=row.kind,
            amount=Decimal(row.amount).quantize(CENT),
            currency=row.currency,
            method=row.method,
            note=row.note,
            recorded_by=row.recorded_by_name,
            recorded_at=row.recorded_at,
            reverses_id=str(row.reverses_id or ""),
            reversed=row.id in reversed_ids,
        )
        for row in rows
    ]


def parse_amount(value: object) -> Decimal:
    """A typed amount ('40', '40.5', '40,50', ' 1 200.00 ') as a Decimal above 0 with at most
    two decimals, or PaymentError('invalid_amount')."""
    text = str(value if value is not None else "").strip().replace("\u00a0", "").replace(" ", "")
    if text.count(",") == 1 and "." not in text:
        text = text.replace(",", ".")
    if not AMOUNT.fullmatch(text):
        raise PaymentError("invalid_amount")
    try:
        amount = Decimal(text)
    except (InvalidOperation, ValueError):
        raise PaymentError("invalid_amount") from None
    if not amount.is_finite() or amount <= 0 or amount != amount.quantize(CENT):
        raise PaymentError("invalid_amount")
    if amount >= Decimal("100000000"):
        raise PaymentError("invalid_amount")
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def most_over(booking: Booking) -> Decimal:
    """How much above the balance an admin may confirm."""
    return (Decimal(booking.total_amount) * OVERPAY_SHARE).quantize(CENT)


def _key(value: object) -> str:
    key = str(value or "").strip()
    if not key or len(key) > 64:
        raise PaymentError("key_reused", "Please try again")
    return key


def _booking_id(value: object) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except (TypeError, ValueError):
        raise PaymentError("not_found") from None


def _in_transaction(session: Session, work):
    try:
        result = work()
        session.commit()
        return result
    except OperationalError as error:
        session.rollback()
        if locks.is_lock_timeout(error):
            raise PaymentError("busy") from None
        raise
    except BaseException:
        session.rollback()
        raise


def _existing(session: Session, key: str) -> Payment | None:
    return session.exec(select(Payment).where(Payment.idempotency_key == key)).first()


def record_payment(
    *,
    session: Session,
    actor_id: object,
    booking_id: object,
    amount: object,
    method: str,
    key: object,
    note: object = "",
    over_confirmed: bool = False,
) -> Payment:
    """Record money received on a booking: an admin by any method, staff ('Collected' on the
    day sheet) cash or card. Refused: a cancelled booking, an amount that is not above 0 with two
    decimals, more than the balance (an admin may confirm up to OVERPAY_SHARE of the total
    more), a note over MAX_NOTE. The same `key` again returns the payment it recorded."""
    target = _booking_id(booking_id)
    press = _key(key)
    text = str(note or "").strip()

    def work() -> Payment:
        locks.take(session, locks.booking_money(target))
        # Staff collect only on their van's jobs once a van has the booking (issue 37).
        actor = permissions.require_crew(session, actor_id, target, PaymentError)
        if method not in PAYMENT_METHODS or (actor.role != "admin" and method not in STAFF_METHODS):
            raise PaymentError("invalid_method")
        value = parse_amount(amount)
        if len(text) > MAX_NOTE:
            raise PaymentError("note_too_long")
        earlier = _existing(session, press)
        if earlier is not None:
            if earlier.booking_id != target or earlier.amount != value:
                raise PaymentError("key_reused")
            return earlier
        booking = session.get(Booking, target)
        if booking is None:
            raise PaymentError("not_found")
        if booking.status == "cancelled":
            raise PaymentError("cancelled")
        now = balance(session, booking)
        if value > now.balance:
            most = now.balance + most_over(booking)
            if actor.role != "admin" or value > most:
                raise PaymentError(
                    "too_much",
                    balance=str(now.balance),
                    most=str(most if actor.role == "admin" else now.balance),
                )
            if not over_confirmed:
                raise PaymentError("over_balance", balance=str(now.balance), most=str(most))
        payment = Payment(
            booking_id=booking.id,
            kind="payment",
            amount=value,
            currency=booking.currency,
            method=method,
            note=text,
            recorded_by_id=actor.id,
            recorded_by_name=_name(actor),
            recorded_at=utcnow(),
            idempotency_key=press,
        )
        session.add(payment)
        session.flush()
        # The first payment gives the booking its receipt number (under the year's lock, taken
        # after this booking's: always in that order); the one that pays it in full mails the
        # receipt.
        receipts.give_number(session, booking, actor_id=actor.id)
        if now.balance > 0 and value >= now.balance:
            receipts.queue_booking_paid(session, booking)
        audit.record(
            session,
            actor_id=actor.id,
            action="payment_record",
            entity_type="booking",
            entity_id=booking.id,
            after=audit.snapshot(payment, exclude=("idempotency_key",)),
            reference=booking.reference,
        )
        return payment

    return _committed(session, work, press)


def reverse_payment(
    *,
    session: Session,
    actor_id: object,
    payment_id: object,
    reason: object,
    key: object,
) -> Payment:
    """An admin answers a mistaken payment with its reversal (the same amount, negated), with a
    reason; the payment itself stays as it was."""
    press = _key(key)
    text = str(reason or "").strip()
    try:
        target = uuid.UUID(str(payment_id))
    except (TypeError, ValueError):
        raise PaymentError("not_a_payment") from None

    def work() -> Payment:
        locks.begin_write(session)  # SQLite: the write lock before the first read
        actor = permissions.require_admin(session, actor_id, PaymentError)
        if not text:
            raise PaymentError("reason_required")
        if len(text) > MAX_NOTE:
            raise PaymentError("note_too_long")
        original = session.get(Payment, target)
        if original is None or original.kind != "payment":
            raise PaymentError("not_a_payment")
        locks.take(session, locks.booking_money(original.booking_id))
        earlier = _existing(session, press)
        if earlier is not None:
            if earlier.reverses_id != original.id:
                raise PaymentError("key_reused")
            return earlier
        done = session.exec(select(Payment).where(Payment.reverses_id == original.id)).first()
        if done is not None:
            raise PaymentError("already_reversed")
        booking = session.get(Booking, original.booking_id)
        reversal = Payment(
            booking_id=original.booking_id,
            kind="reversal",
            amount=-Decimal(original.amount),
            currency=original.currency,
            method=original.method,
            note=text,
            reverses_id=original.id,
            recorded_by_id=actor.id,
            recorded_by_name=_name(actor),
            recorded_at=utcnow(),
            idempotency_key=press,
        )
        session.add(reversal)
        session.flush()
        audit.record(
            session,
            actor_id=actor.id,
            action="payment_reverse",
            entity_type="booking",
            entity_id=original.booking_id,
            before=audit.snapshot(original, exclude=("idempotency_key",)),
            after=audit.snapshot(reversal, exclude=("idempotency_key",)),
            reference=booking.reference if booking else "",
        )
        return reversal

    return _committed(session, work, press)


def _committed(session: Session, work, press: str) -> Payment:
    """`work` in its own transaction; a press that raced its twin to the unique key returns the
    twin's row."""
    try:
        return _in_transaction(session, work)
    except IntegrityError:
        earlier = _existing(session, press)
        if earlier is None:
            raise
        return earlier


def _name(user: User) -> str:
    return (user.full_name or user.email or "")[:255]


@dataclass(frozen=True)
class BookingMoney:
    """A booking's money as its admin detail shows it."""

    booking_id: str
    reference: str
    currency: str
    status: str
    money: Balance
    rows: list[PaymentRow]


def booking_money(*, session: Session, actor_id: object, booking_id: object) -> BookingMoney:
    """The admin detail's payments section (admins only)."""
    permissions.require_admin(session, actor_id, PaymentError)
    booking = session.get(Booking, _booking_id(booking_id))
    if booking is None:
        raise PaymentError("not_found")
    return BookingMoney(
        booking_id=str(booking.id),
        reference=booking.reference,
        currency=booking.currency,
        status=booking.status,
        money=balance(session, booking),
        rows=payments_of(session, booking.id),
    )
