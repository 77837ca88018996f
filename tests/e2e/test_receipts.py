"""Receipts in the browser (issue 36, item 4): an admin issues a booking's receipt on its detail
and downloads it; the customer, on a phone (390 px) through the mailed signed link, finds
'Download receipt' only once there is a number, downloads it, and its text reads back with the
reference, the lines, transport, the payments and the balance."""

from __future__ import annotations

import io
import re
import uuid
from datetime import date, timedelta
from decimal import Decimal

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader
from sqlmodel import Session

from storefront import i18n
from storefront.db import make_engine
from storefront.models import Booking
from storefront.services.money import format_price
from storefront.services.payments import ledger
from tests.e2e.helpers import sq
from tests.e2e.test_admin_catalogue import _signed_in
from tests.e2e.test_booking_changes import _link, _open, _place, _service

pytestmark = pytest.mark.e2e
NB = "\u00a0"


def _with_transport(server, booking_id: str) -> None:
    """Transport to Gjakovë on the booking (15.00 on its total)."""
    engine = make_engine(server.database_url)
    try:
        with Session(engine) as session:
            booking = session.get(Booking, uuid.UUID(booking_id))
            booking.city = "Gjakovë"
            booking.transport_amount = Decimal("15.00")
            booking.total_amount = Decimal(booking.total_amount) + Decimal("15.00")
            session.add(booking)
            session.commit()
    finally:
        engine.dispose()


def _with_payment(server, booking_id: str, admin_id: str) -> None:
    """50.00 paid in cash (the ledger keeps the receipt's number, or gives it)."""
    engine = make_engine(server.database_url)
    try:
        with Session(engine) as session:
            ledger.record_payment(
                session=session,
                actor_id=admin_id,
                booking_id=booking_id,
                amount="50.00",
                method="cash",
                key=uuid.uuid4().hex,
            )
    finally:
        engine.dispose()


def _pdf_text(download) -> str:
    with open(download.value.path(), "rb") as file:
        reader = PdfReader(io.BytesIO(file.read()))
    return "\n".join(page.extract_text() for page in reader.pages).replace(NB, " ")


def test_an_admin_issues_the_receipt_and_the_customer_downloads_it(page, phone, server):
    admin_id = _signed_in(page, server, "admin")
    service_id, title = _service(server)
    placed = _place(server, service_id, date.today() + timedelta(days=30), "10:00")
    _with_transport(server, placed.id)

    # Before a number is given (an admin's 'Issue receipt' or the first payment) there is no
    # receipt to download.
    _open(phone, placed)
    expect(phone.get_by_test_id("confirmation-total")).to_be_visible()
    expect(phone.get_by_test_id("confirmation-receipt")).to_have_count(0)

    page.goto(f"/admin/bookings?q={placed.reference}")
    row = page.get_by_test_id("booking-row")
    expect(row).to_have_count(1)
    row.get_by_role("button", name=f"View booking {placed.reference}").click()
    section = page.get_by_test_id("booking-detail").get_by_test_id("receipt-section")
    expect(section.get_by_test_id("receipt-download")).to_have_count(0)
    section.get_by_test_id("receipt-issue").click()
    number = section.get_by_test_id("receipt-number")
    expect(number).to_have_text(re.compile(r"^Receipt \d{4}-\d{4,}$"))
    expect(page.get_by_test_id("receipt-notice")).to_contain_text("issued")
    with page.expect_download() as download:
        section.get_by_test_id("receipt-download").click()
    shown = number.inner_text().removeprefix("Receipt ")
    assert download.value.suggested_filename == f"receipt-{shown}.pdf"
    assert placed.reference in _pdf_text(download)
    _with_payment(server, placed.id, admin_id)  # reissued with it, under the same number

    # The customer's page offers it now; its text reads back in the booking's language.
    phone.goto(_link(placed))
    receipt = phone.get_by_test_id("confirmation-receipt")
    expect(receipt).to_have_text(sq("Download receipt"))
    with phone.expect_download() as download:
        receipt.click()
    text = _pdf_text(download)
    with i18n.using("sq"):  # the booking's language: the PDF's words and prices
        words = [
            i18n._o("Receipt {number}").format(number=shown),
            i18n._o("Transport ({municipality})").format(municipality="Gjakovë"),
            i18n._o("Cash"),  # the payment
            i18n._o("Balance"),
            format_price(Decimal("15.00")).replace(NB, " "),
            format_price(Decimal("50.00")).replace(NB, " "),
        ]
    for expected in (placed.reference, title, *words):
        assert expected in text, expected
    with i18n.using("sq"):
        balance = format_price(read_total(server, placed.id) - Decimal("50.00"))
    assert balance.replace(NB, " ") in text
    # Nothing runs sideways on a phone.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def read_total(server, booking_id: str) -> Decimal:
    engine = make_engine(server.database_url)
    try:
        with Session(engine) as session:
            return Decimal(session.get(Booking, uuid.UUID(booking_id)).total_amount)
    finally:
        engine.dispose()
