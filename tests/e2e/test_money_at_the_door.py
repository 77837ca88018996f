"""Money at the door in a real browser at 390 px (issue 36): a driver collects the balance on
the day sheet (the amount starts as the balance and can be changed; a double press is one
payment), sees their own day's total; the owner sees it on the day's cash page and marks it
handed over; on the booking's detail the owner records a bank transfer and reverses it with a
reason, and the list filters by what is paid."""

from __future__ import annotations

import re
import uuid
from decimal import Decimal

import pytest
from playwright.sync_api import expect
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import AuditLog, CashHandover, Payment
from tests.e2e.helpers import sign_in
from tests.e2e.test_staff_day import _admin, _signed_in, _staff, _todays_booking

pytestmark = pytest.mark.e2e


def _amount(whole: str) -> re.Pattern:
    """An amount as either edition writes it: '150,00 €' or '€150.00'."""
    return re.compile(rf"{whole}[.,]00")


def _payments(server, booking_id: str) -> list[tuple[str, Decimal, str]]:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        rows = session.exec(
            select(Payment)
            .where(Payment.booking_id == uuid.UUID(booking_id))
            .order_by(Payment.recorded_at)
        ).all()
        found = [(r.kind, Decimal(r.amount), r.method) for r in rows]
    engine.dispose()
    return found


def _handovers(server) -> list[Decimal]:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        found = [Decimal(h.amount) for h in session.exec(select(CashHandover)).all()]
        audited = session.exec(select(AuditLog).where(AuditLog.action == "cash_handover")).all()
    engine.dispose()
    return found if audited else []


def test_a_driver_collects_and_the_owner_takes_the_cash(phone, server):
    # A castle for 2 h at 100.00 an hour: 200.00 to collect.
    booking_id, reference = _todays_booking(server)
    _staff_id, _token, email = _staff(server)
    sign_in(phone, email)
    expect(phone).to_have_url(re.compile(r"/admin/day/?$"), timeout=15000)
    sheet = phone.get_by_test_id("sheet-booking").filter(has_text=reference)
    expect(sheet.get_by_test_id("sheet-to-collect")).to_contain_text(_amount("200"))
    sheet.get_by_test_id("sheet-collect-open").click()
    amount = sheet.locator("#collect-amount")
    expect(amount).to_have_value("200.00")
    # Too much is refused with the message, and what was typed stays.
    amount.fill("250")
    sheet.get_by_test_id("sheet-collect-save").click()
    expect(sheet.get_by_test_id("sheet-collect-error")).to_contain_text(_amount("200"))
    expect(amount).to_have_value("250")
    # The customer pays 150 in cash now: a double press records it once.
    amount.fill("150")
    sheet.get_by_test_id("sheet-collect-save").dblclick()
    expect(sheet.get_by_test_id("sheet-to-collect")).to_contain_text(_amount("50"), timeout=15000)
    expect(phone.get_by_test_id("sheet-my-day")).to_contain_text(_amount("150"))
    assert _payments(server, booking_id) == [("payment", Decimal("150.00"), "cash")]
    # Then the rest by card.
    sheet.get_by_test_id("sheet-collect-open").click()
    expect(sheet.locator("#collect-amount")).to_have_value("50.00")
    sheet.locator("#collect-method").select_option("card")
    sheet.get_by_test_id("sheet-collect-save").click()
    expect(sheet.get_by_test_id("sheet-paid")).to_contain_text(_amount("200"), timeout=15000)
    expect(sheet.get_by_test_id("sheet-collect-open")).to_have_count(0)
    assert [p[2] for p in _payments(server, booking_id)] == ["cash", "card"]
    # Nothing runs off the phone's screen.
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width

    # The owner, on the same phone width: the day's cash.
    _admin_id, admin_token = _admin(server)
    phone.context.clear_cookies()
    _signed_in(phone, server, admin_token)
    phone.goto("/admin/cash")
    row = phone.get_by_test_id("cash-staff-row").filter(has_text="Driton")
    expect(row).to_contain_text(_amount("200"), timeout=15000)
    expect(row.get_by_test_id("cash-held")).to_contain_text(_amount("150"))
    row.get_by_test_id("cash-hand-over").click()
    expect(row.get_by_test_id("cash-held")).to_contain_text(_amount("0"), timeout=15000)
    expect(row.get_by_test_id("cash-hand-over")).to_have_count(0)
    assert _handovers(server) == [Decimal("150.00")]
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width


def test_the_owner_records_and_reverses_a_payment_on_the_detail(page, server):
    booking_id, reference = _todays_booking(server)
    _admin_id, token = _admin(server, language="en")
    _signed_in(page, server, token)
    page.goto(f"/admin/bookings?q={reference}")
    page.get_by_test_id("booking-view").first.click()
    section = page.get_by_test_id("booking-payments")
    expect(section.get_by_test_id("money-balance")).to_contain_text("200.00", timeout=15000)
    # More than the balance is asked about first; within the tolerance it may be confirmed.
    section.locator("#payment-amount").fill("210")
    section.locator("#payment-method").select_option("bank_transfer")
    section.get_by_test_id("payment-record").click()
    expect(section.get_by_test_id("payment-over-confirm")).to_have_text("Record it anyway")
    assert _payments(server, booking_id) == []
    section.get_by_test_id("payment-over-confirm").click()
    expect(section.get_by_test_id("money-badge")).to_have_text("Paid", timeout=15000)
    assert _payments(server, booking_id) == [("payment", Decimal("210.00"), "bank_transfer")]
    # Reversed with a reason: the payment stays, the balance is back.
    section.get_by_test_id("payment-reverse").click()
    section.get_by_test_id("reverse-confirm").click()
    expect(section.get_by_test_id("reverse-error")).to_contain_text("Reason")
    section.locator("#reverse-reason").fill("Transfer bounced")
    section.get_by_test_id("reverse-confirm").click()
    expect(section.get_by_test_id("money-balance")).to_contain_text("200.00", timeout=15000)
    assert [p[0] for p in _payments(server, booking_id)] == ["payment", "reversal"]
    # The list's filter: the booking is unpaid again.
    page.keyboard.press("Escape")
    page.goto(f"/admin/bookings?paid=unpaid&q={reference}")
    expect(page.get_by_test_id("booking-row")).to_have_count(1, timeout=15000)
    page.goto(f"/admin/bookings?paid=paid&q={reference}")
    expect(page.get_by_test_id("bookings-empty")).to_be_visible(timeout=15000)


def pay_in_full_and_read_the_mailed_receipt(phone, server, mail_server, reference: str) -> str:
    """An admin records the whole balance of the booking `reference` (as at the door); the
    customer's 'paid in full' mail arrives through the real SMTP server with the receipt
    attached and the booking's signed link; the customer opens the link on the phone and
    downloads the receipt. Its text, read back."""
    import io
    import time

    from pypdf import PdfReader

    from storefront.models import Booking, User
    from storefront.services.payments import ledger

    engine = make_engine(server.database_url)
    try:
        with Session(engine) as session:
            booking = session.exec(select(Booking).where(Booking.reference == reference)).one()
            admin = User(email=f"till-{uuid.uuid4().hex[:8]}@example.com", role="admin")
            session.add(admin)
            session.commit()
            owed = ledger.balance(session, booking).balance
            ledger.record_payment(
                session=session,
                actor_id=admin.id,
                booking_id=booking.id,
                amount=f"{owed:.2f}",
                method="cash",
                key=uuid.uuid4().hex,
            )
    finally:
        engine.dispose()
    deadline, mail = time.monotonic() + 30, None
    while mail is None and time.monotonic() < deadline:
        mail = next(
            (
                m
                for m in mail_server.messages
                if reference in m["Subject"]
                and any(a.get_content_type() == "application/pdf" for a in m.iter_attachments())
            ),
            None,
        )
        time.sleep(0.2)
    assert mail is not None, "the paid mail with the receipt did not arrive"
    [attachment] = list(mail.iter_attachments())
    assert attachment.get_content_type() == "application/pdf"
    link = re.search(
        r"https?://\S+/booking-confirmation/\S+\?key=\S+", mail.get_body(("plain",)).get_content()
    )
    assert link, "the mail has the booking's signed link"
    phone.goto(link.group(0))
    download_link = phone.get_by_test_id("confirmation-receipt")
    expect(download_link).to_be_visible(timeout=15000)
    with phone.expect_download() as download:
        download_link.click()
    with open(download.value.path(), "rb") as file:
        reader = PdfReader(io.BytesIO(file.read()))
    return "\n".join(page.extract_text() for page in reader.pages).replace("\u00a0", " ")
