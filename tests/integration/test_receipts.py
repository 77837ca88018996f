"""Receipts (issue 36, item 4; docs/payments.md 'Receipts'): numbers per year without gaps or
doubles, kept on a reissue, given under the year's lock by parallel issuers on PostgreSQL; the
PDF read back with pypdf in the booking's language; the mail after a full payment through a
real SMTP server with the PDF attached."""

from __future__ import annotations

import io
import os
import threading
import uuid
from datetime import UTC, datetime
from decimal import Decimal

import httpx
import pytest
from pypdf import PdfReader
from sqlmodel import Session, select

import storefront.db
from storefront import i18n
from storefront.api import create_api
from storefront.db import in_transaction
from storefront.models import (
    AuditLog,
    Booking,
    BookingItem,
    BusinessSettings,
    Receipt,
    User,
)
from storefront.services import locks
from storefront.services.accounts import auth
from storefront.services.messaging import links, outbox
from storefront.services.payments import ledger, receipt_pdf, receipts
from tests.factories import make_user

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
NB = "\u00a0"


def make_booking(
    session: Session,
    *,
    language: str = "sq",
    lines: int = 2,
    transport: str = "15.00",
    city: str = "Gjakovë",
    name: str = "Arbër Çeliku",
    status: str = "confirmed",
) -> Booking:
    """A booking with `lines` lines: per hour (2 h at 50.00) and per event (30 x 7.00), in turn;
    its total is the lines plus transport."""
    booking = Booking(
        language=language,
        status=status,
        idempotency_key=f"key-{os.urandom(6).hex()}",
        contact_name=name,
        contact_email="arber.celiku@example.com",
        contact_phone="+38344123456",
        venue_address="Rruga Nëna Terezë 4",
        city=city,
        event_type="wedding",
        created_at=NOW,
        updated_at=NOW,
    )
    session.add(booking)
    session.flush()
    total = Decimal("0")
    for n in range(lines):
        per_hour = n % 2 == 0
        rate = Decimal("50.00") if per_hour else Decimal("7.00")
        hours = 2 if per_hour else 4
        quantity = 1 if per_hour else 30
        price = rate * hours if per_hour else rate
        total += price * quantity
        start = datetime(2027, 6, 12, 8 + (n % 8), 0, tzinfo=UTC)
        session.add(
            BookingItem(
                booking_id=booking.id,
                service_name=f"Dekor me çadër {n + 1}"
                if per_hour
                else f"Tavolina të bardha {n + 1}",
                service_price=price,
                unit_price=rate,
                price_unit="per_hour" if per_hour else "per_event",
                quantity=quantity,
                start_datetime=start,
                end_datetime=start.replace(hour=start.hour + hours),
                status=status,
            )
        )
    booking.transport_amount = Decimal(transport)
    booking.total_amount = total + Decimal(transport)
    session.add(booking)
    session.flush()
    return booking


def business(session: Session) -> BusinessSettings:
    row = session.get(BusinessSettings, 1) or BusinessSettings(id=1)
    row.business_name = "Magic Events Prishtinë"
    row.address = "Rruga Fehmi Agani 12, Prishtinë"
    row.phone = "+383 44 111 222"
    row.fiscal_number = "811234567"
    session.add(row)
    session.flush()
    return row


def pay(session, admin, booking, amount, method="cash"):
    return ledger.record_payment(
        session=session,
        actor_id=admin.id,
        booking_id=booking.id,
        amount=amount,
        method=method,
        key=uuid.uuid4().hex,
    )


def pdf_text(content: bytes) -> str:
    reader = PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text() for page in reader.pages).replace(NB, " ")


# --- numbers ----------------------------------------------------------------------------------


def test_numbers_run_per_year_and_a_reissue_keeps_its_number(session):
    admin = make_user(session, role="admin")
    first, second, third = (make_booking(session) for _ in range(3))
    session.commit()

    assert (
        receipts.issue_receipt(session=session, actor_id=admin.id, booking_id=first.id, now=NOW)
        == "2026-0001"
    )
    assert (
        receipts.issue_receipt(session=session, actor_id=admin.id, booking_id=second.id, now=NOW)
        == "2026-0002"
    )
    # A reissue draws the same number again.
    assert (
        receipts.issue_receipt(session=session, actor_id=admin.id, booking_id=first.id, now=NOW)
        == "2026-0001"
    )
    # The business's new year starts at local midnight: 23:30 UTC on 31 December is 2027 in
    # Prishtina, and the year's numbers start again at 1.
    new_year = datetime(2026, 12, 31, 23, 30, tzinfo=UTC)
    assert (
        receipts.issue_receipt(
            session=session, actor_id=admin.id, booking_id=third.id, now=new_year
        )
        == "2027-0001"
    )
    fourth = make_booking(session)
    session.commit()
    assert receipts.give_number(session, fourth, now=NOW).number == "2026-0003"
    session.commit()

    rows = session.exec(
        select(Receipt.year, Receipt.sequence).order_by(Receipt.year, Receipt.sequence)
    ).all()
    assert rows == [(2026, 1), (2026, 2), (2026, 3), (2027, 1)]
    actions = session.exec(select(AuditLog.action).where(AuditLog.entity_id == str(first.id))).all()
    assert sorted(actions) == ["receipt_issue", "receipt_reissue"]
    assert receipts.number_of(session=session, booking_id=second.id) == "2026-0002"
    assert receipts.number_of(session=session, booking_id=uuid.uuid4()) == ""


def test_issuing_is_for_admins_and_not_for_a_cancelled_booking_with_nothing_paid(session):
    admin = make_user(session, role="admin")
    staff = make_user(session, role="staff")
    booking = make_booking(session)
    cancelled = make_booking(session, status="cancelled")
    session.commit()

    with pytest.raises(receipts.ReceiptError) as refused:
        receipts.issue_receipt(session=session, actor_id=staff.id, booking_id=booking.id)
    assert refused.value.code == "not_allowed"
    with pytest.raises(receipts.ReceiptError) as refused:
        receipts.issue_receipt(session=session, actor_id=admin.id, booking_id=cancelled.id)
    assert refused.value.code == "cancelled"
    with pytest.raises(receipts.ReceiptError) as refused:
        receipts.issue_receipt(session=session, actor_id=admin.id, booking_id=uuid.uuid4())
    assert refused.value.code == "not_found"
    assert session.exec(select(Receipt)).all() == []

    # Paid, then cancelled: the money was taken, so it gets its receipt.
    paid = make_booking(session)
    session.commit()
    pay(session, admin, paid, "20.00")
    paid.status = "cancelled"
    session.add(paid)
    session.commit()
    assert receipts.issue_receipt(session=session, actor_id=admin.id, booking_id=paid.id).endswith(
        "-0001"
    )


@pytest.fixture
def parallel_engine(engine):
    """The test's database: PostgreSQL's advisory lock, or SQLite's one write lock."""
    return engine


def _at_once(count: int, work) -> list:
    """Run `work(n)` in `count` threads released together; their results, or their errors."""
    start = threading.Barrier(count)
    results: list = [None] * count

    def run(n: int) -> None:
        start.wait()
        try:
            results[n] = work(n)
        except Exception as error:  # noqa: BLE001 - the test reads it
            results[n] = error

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_parallel_issuers_give_each_number_once_without_gaps(session, parallel_engine):
    admin = make_user(session, role="admin")
    bookings = [make_booking(session) for _ in range(8)]
    session.commit()

    def issue(n: int) -> str:
        # As the screens call it (state/base.call_service): SQLite's lost write races retried.
        return in_transaction(
            lambda own: receipts.issue_receipt(
                session=own, actor_id=admin.id, booking_id=bookings[n].id, now=NOW
            ),
            parallel_engine,
        )

    numbers = _at_once(8, issue)
    assert all(isinstance(n, str) for n in numbers), numbers
    assert sorted(numbers) == [f"2026-{n:04d}" for n in range(1, 9)]

    # And give_number inside callers' own transactions (as record_payment calls it).
    more = [make_booking(session) for _ in range(8)]
    session.commit()

    def give(n: int) -> str:
        def work(own) -> str:
            locks.begin_write(own)  # as record_payment: the write lock before the first read
            return receipts.give_number(own, own.get(Booking, more[n].id), now=NOW).number

        return in_transaction(work, parallel_engine)

    numbers = _at_once(8, give)
    assert sorted(numbers) == [f"2026-{n:04d}" for n in range(9, 17)]


def test_two_issuers_of_one_booking_get_one_number(session, parallel_engine):
    admin = make_user(session, role="admin")
    booking = make_booking(session)
    session.commit()

    def issue(_n: int) -> str:
        return in_transaction(
            lambda own: receipts.issue_receipt(
                session=own, actor_id=admin.id, booking_id=booking.id, now=NOW
            ),
            parallel_engine,
        )

    assert _at_once(4, issue) == ["2026-0001"] * 4
    assert len(session.exec(select(Receipt)).all()) == 1


# --- the PDF ----------------------------------------------------------------------------------


def test_the_pdf_reads_back_in_albanian(session):
    business(session)
    admin = make_user(session, role="admin")
    admin.full_name = "Drita Berisha"
    booking = make_booking(session)  # 100.00 + 210.00 + 15.00 transport = 325.00
    session.commit()
    assert receipt_pdf.receipt_pdf(session, booking.id) is None  # no number yet: no receipt

    first = pay(session, admin, booking, "100.00")
    pay(session, admin, booking, "50.00", method="bank_transfer")
    ledger.reverse_payment(
        session=session, actor_id=admin.id, payment_id=first.id, reason="Gabim", key="r1"
    )
    receipts.issue_receipt(session=session, actor_id=admin.id, booking_id=booking.id, now=NOW)
    content = receipt_pdf.receipt_pdf(session, booking.id)
    assert content.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(content))
    assert len(reader.pages) == 1
    text = pdf_text(content)
    with i18n.using("sq"):
        words = {
            key: i18n._o(key)
            for key in ("Receipt {number}", "Transport ({municipality})", "Balance", "Cash")
        }
    assert "Faturë" in words["Receipt {number}"]
    for expected in (
        words["Receipt {number}"].format(number="2026-0001"),
        "Magic Events Prishtinë",
        "811234567",
        booking.reference,
        "12.06.2027",
        "Arbër Çeliku",
        "Dekor me çadër 1",
        "Tavolina të bardha 2",
        "50,00 €",  # the per-hour rate
        "100,00 €",  # its line
        "210,00 €",  # 30 tables
        words["Transport ({municipality})"].format(municipality="Gjakovë"),
        "15,00 €",
        "325,00 €",  # the total
        "-100,00 €",  # the reversal, shown as one
        "Gabim",
        words["Cash"],
        "275,00 €",  # the balance: 325 - 50
        words["Balance"],
    ):
        assert expected in text, expected
    assert "ë" in text and "ç" in text and "Ç" in text


def test_the_pdf_speaks_english_for_an_english_booking(session):
    business(session)
    admin = make_user(session, role="admin")
    booking = make_booking(session, language="en", name="Jane Doe", city="Prizren")
    session.commit()
    pay(session, admin, booking, "325.00", method="card")
    # Numbered when paid (the ledger) or by the admin: issuing again keeps the number.
    receipts.issue_receipt(session=session, actor_id=admin.id, booking_id=booking.id)
    text = pdf_text(receipt_pdf.receipt_pdf(session, booking.id))
    for expected in (
        "Receipt 20",
        booking.reference,
        "Transport (Prizren)",
        "€15.00",
        "€325.00",
        "Card at the door",
        "Balance",
        "€0.00",
        "Paid in full. Thank you!",
    ):
        assert expected in text, expected


def test_a_long_booking_flows_onto_more_pages(session):
    business(session)
    admin = make_user(session, role="admin")
    booking = make_booking(session, lines=60)
    session.commit()
    receipts.issue_receipt(session=session, actor_id=admin.id, booking_id=booking.id)
    content = receipt_pdf.receipt_pdf(session, booking.id)
    reader = PdfReader(io.BytesIO(content))
    assert len(reader.pages) >= 2
    text = pdf_text(content)
    assert "Dekor me çadër 1" in text and "Tavolina të bardha 60" in text
    assert booking.reference in text


# --- the mail after a full payment ------------------------------------------------------------


@pytest.mark.parametrize("language", ["sq", "en"])
def test_the_paid_mail_carries_the_receipt(session, engine, mailbox, language):
    business(session)
    admin = make_user(session, role="admin")
    booking = make_booking(session, language=language)
    session.commit()
    # The payment that pays it in full numbers it and queues the mail (ledger.record_payment).
    pay(session, admin, booking, "325.00")
    number = receipts.number_of(session=session, booking_id=booking.id)

    assert outbox.run_once(engine=engine).sent == 1
    [message] = mailbox.messages
    with i18n.using(language):
        headline = i18n._o("Paid in full, thank you")
    assert booking.reference in message["Subject"]
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert headline in html
    assert f"/booking-confirmation/{booking.id}?key=" in text
    assert ("/en/booking-confirmation/" in text) == (language == "en")
    [attachment] = list(message.iter_attachments())
    assert attachment.get_content_type() == "application/pdf"
    assert attachment.get_filename() == f"receipt-{number}.pdf"
    read = pdf_text(attachment.get_content())
    assert booking.reference in read and "325" in read


def test_the_paid_mail_is_not_sent_once_a_payment_was_reversed(session, engine, mailbox):
    business(session)
    admin = make_user(session, role="admin")
    booking = make_booking(session)
    session.commit()
    payment = pay(session, admin, booking, "325.00")  # queues the paid mail
    ledger.reverse_payment(
        session=session, actor_id=admin.id, payment_id=payment.id, reason="Gabim", key="r2"
    )

    report = outbox.run_once(engine=engine)
    assert report.suppressed == 1 and report.sent == 0
    assert mailbox.messages == []


# --- downloads ----------------------------------------------------------------------------------


@pytest.fixture
def app_on_test_database(engine, monkeypatch):
    monkeypatch.setattr(storefront.db, "get_engine", lambda: engine)


def _signed_in(session, role: str, **fields) -> tuple[User, str]:
    user = User(email=f"{role}-{uuid.uuid4().hex[:6]}@example.com", role=role, **fields)
    session.add(user)
    session.commit()
    token = auth.create_session(session=session, user_id=user.id, remember=False)
    session.commit()
    return user, token


async def _download(booking_id, *, key: str | None = None, token: str | None = None):
    transport = httpx.ASGITransport(app=create_api())
    cookies = {auth.COOKIE_NAME: token} if token else None
    async with httpx.AsyncClient(
        transport=transport, base_url="http://testserver", cookies=cookies
    ) as client:
        return await client.get(links.receipt_path(booking_id, key))


async def test_the_receipt_downloads_by_the_bookings_own_rules(session, app_on_test_database):
    business(session)
    admin, admin_token = _signed_in(session, "admin")
    owner, owner_token = _signed_in(session, "user")
    _stranger, stranger_token = _signed_in(session, "user")
    booking = make_booking(session)
    booking.user_id = owner.id
    other = make_booking(session)
    session.commit()
    key = links.sign_view_key(booking.id)

    # No number yet: nothing to download, for anyone.
    assert (await _download(booking.id, key=key)).status_code == 404
    assert (await _download(booking.id, token=admin_token)).status_code == 404

    receipts.issue_receipt(session=session, actor_id=admin.id, booking_id=booking.id)
    receipts.issue_receipt(session=session, actor_id=admin.id, booking_id=other.id)
    signed = await _download(booking.id, key=key)
    assert signed.status_code == 200
    assert signed.headers["content-type"] == "application/pdf"
    assert 'filename="receipt-2026-0001.pdf"' in signed.headers["content-disposition"]
    assert signed.headers["cache-control"] == "private, no-store"
    assert booking.reference in pdf_text(signed.content)
    assert (await _download(booking.id, token=owner_token)).status_code == 200
    assert (await _download(booking.id, token=admin_token)).status_code == 200

    # Another booking's key, a forged one, a stranger, nobody: not found.
    assert (await _download(booking.id, key=links.sign_view_key(other.id))).status_code == 404
    assert (await _download(booking.id, key=key[:-2] + "xx")).status_code == 404
    assert (await _download(booking.id, token=stranger_token)).status_code == 404
    assert (await _download(booking.id)).status_code == 404
    assert (await _download("not-an-id", key=key)).status_code == 404
