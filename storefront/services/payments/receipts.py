"""A booking's receipt number (docs/payments.md, 'Receipts'); its PDF is `receipt_pdf.py`.

Numbers run per year of the business's calendar without gaps or doubles (2026-0001, 2026-0002,
...): the next one is the year's highest plus one, read and written under the year's lock
(`locks.receipts(year)`), and a booking keeps the number it was given for ever (a reissue draws
the PDF again under the same number). A number is given when the first payment is recorded
(`ledger.record_payment` calls `give_number` in its transaction) or when an admin issues it
(`issue_receipt`, which commits its own transaction). This module imports no other module of
payments, so `ledger` may import it.

    receipt = receipts.give_number(session, booking, actor_id=staff_id)  # caller's transaction
    number = receipts.issue_receipt(session=s, actor_id=admin_id, booking_id=b)  # commits
    receipts.queue_booking_paid(session, booking)  # the paid mail, in the caller's transaction
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, select

from storefront.models import Booking, Payment, Receipt, utcnow
from storefront.services import audit, dates, locks, permissions
from storefront.services.errors import ServiceError
from storefront.services.messaging import outbox


class ReceiptError(ServiceError):
    """Codes: the admin check's, not_found, cancelled (a cancelled booking with nothing paid
    gets no receipt), busy (the year's lock was not had in time)."""

    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "not_found": "Booking not found",
        "cancelled": "A cancelled booking with no payment gets no receipt",
        "busy": "Please try again",
    }


# --- numbers ----------------------------------------------------------------------------------


def receipt_year(now: datetime | None = None) -> int:
    """The year a number given at `now` belongs to: the business's calendar year (Europe/
    Belgrade), so a receipt given at 00:30 on 1 January local time is the new year's."""
    return dates.today(now or utcnow()).year


def receipt_of(session: Session, booking_id: uuid.UUID) -> Receipt | None:
    return session.exec(select(Receipt).where(Receipt.booking_id == booking_id)).first()


def number_of(*, session: Session, booking_id: object) -> str:
    """The booking's receipt number ('2026-0001'), or '' when it has none yet (or no such id)."""
    try:
        target = uuid.UUID(str(booking_id))
    except (TypeError, ValueError):
        return ""
    receipt = receipt_of(session, target)
    return receipt.number if receipt else ""


def give_number(
    session: Session,
    booking: Booking,
    *,
    actor_id: object = None,
    now: datetime | None = None,
) -> Receipt:
    """The booking's receipt, in the caller's transaction: the one it has (a reissue keeps its
    number), else the next number of `now`'s year (the business's calendar), taken under the
    year's lock: the year's highest sequence plus one. The caller commits; its transaction
    holds the year's lock until then, so the next issuer reads this number as the highest."""
    locks.begin_write(session)  # SQLite: the write lock before the first read
    found = receipt_of(session, booking.id)
    if found is not None:
        return found
    moment = now or utcnow()
    year = receipt_year(moment)
    locks.take(session, locks.receipts(year))
    # Another issuer of the same booking may have committed while this one waited.
    found = receipt_of(session, booking.id)
    if found is not None:
        return found
    highest = session.exec(select(func.max(Receipt.sequence)).where(Receipt.year == year)).one()
    receipt = Receipt(
        booking_id=booking.id,
        year=year,
        sequence=int(highest or 0) + 1,
        issued_at=moment,
        issued_by_id=_user_id(actor_id),
    )
    session.add(receipt)
    session.flush()
    return receipt


def _user_id(value: object) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value)) if value else None
    except (TypeError, ValueError):
        return None


def issue_receipt(
    *, session: Session, actor_id: object, booking_id: object, now: datetime | None = None
) -> str:
    """The admin's 'Issue receipt': the booking's number (given now if it has none; a reissue
    keeps it), audited, in a transaction of its own (committed here: the year's lock is held no
    longer than the insert). Refused: a cancelled booking on which nothing was paid."""
    try:
        target = uuid.UUID(str(booking_id))
    except (TypeError, ValueError):
        raise ReceiptError("not_found") from None

    def work() -> str:
        locks.begin_write(session)
        actor = permissions.require_admin(session, actor_id, ReceiptError)
        booking = session.get(Booking, target)
        if booking is None:
            raise ReceiptError("not_found")
        had = receipt_of(session, booking.id)
        if had is None and booking.status == "cancelled" and not _has_payments(session, target):
            raise ReceiptError("cancelled")
        receipt = give_number(session, booking, actor_id=actor.id, now=now)
        audit.record(
            session,
            actor_id=actor.id,
            action="receipt_reissue" if had is not None else "receipt_issue",
            entity_type="booking",
            entity_id=booking.id,
            after={"number": receipt.number},
            reference=booking.reference,
        )
        return receipt.number

    try:
        number = work()
        session.commit()
        return number
    except OperationalError as error:
        session.rollback()
        if locks.is_lock_timeout(error):
            raise ReceiptError("busy") from None
        raise
    except IntegrityError:
        # Two issuers of one booking across a change of year: the other's number stands.
        session.rollback()
        number = number_of(session=session, booking_id=target)
        if not number:
            raise
        return number
    except BaseException:
        session.rollback()
        raise


def _has_payments(session: Session, booking_id: uuid.UUID) -> bool:
    return (
        session.exec(select(Payment.id).where(Payment.booking_id == booking_id)).first() is not None
    )


# --- the mail after a full payment -----------------------------------------------------------


def queue_booking_paid(session: Session, booking: Booking) -> None:
    """Queue the customer's 'Paid in full, thank you' mail with the receipt attached, in the
    caller's transaction (`ledger` calls it when a payment brings the balance to 0). The mail
    is drawn when it is sent (notify.render_booking_paid, with `receipt_pdf.paid_attachments`)."""
    outbox.enqueue(
        session=session,
        channel="email",
        topic="booking_paid",
        recipient=booking.contact_email,
        payload={"booking_id": str(booking.id)},
        booking_id=booking.id,
    )
