"""Transport by municipality (issue 36), in Chromium at 390 px: a guest chooses Gjakovë in the
cart and sees its transport line there and on checkout, places the booking, and the
confirmation shows the transport, the total with it and what is due; the booking stores it."""

from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal

import pytest
from playwright.sync_api import expect
from sqlmodel import select

from storefront import i18n
from storefront.models import Booking, BusinessSettings
from storefront.services.money import format_price
from tests.e2e.helpers import calendar_day, event_details, read, sq
from tests.e2e.test_money_at_the_door import pay_in_full_and_read_the_mailed_receipt

pytestmark = pytest.mark.e2e
CART_ANSWER = 15000
FEE = Decimal("27.50")


def _price(amount) -> str:
    with i18n.using(i18n.DEFAULT):
        return format_price(amount)


def _a_bookable_day() -> date:
    day = date.today() + timedelta(days=24)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def _set_fees(session) -> None:
    row = session.get(BusinessSettings, 1) or BusinessSettings(id=1)
    row.transport_fees = {**(row.transport_fees or {}), "gjakove": str(FEE), "dragash": None}
    row.deposit_percent = 0
    session.add(row)
    session.commit()


def stored_line_name(server, reference: str) -> str:
    from storefront.models import BookingItem

    def name(session, reference: str) -> str:
        booking = _booking(session, reference)
        return session.exec(
            select(BookingItem.service_name).where(BookingItem.booking_id == booking.id)
        ).first()

    return read(server, name, reference=reference)


def _booking(session, reference: str) -> Booking:
    return session.exec(select(Booking).where(Booking.reference == reference)).one()


def test_a_guest_sees_the_transport_to_gjakove_from_cart_to_confirmation(
    phone, server, mail_server
):
    page = phone
    read(server, _set_fees)
    day = _a_bookable_day()
    page.goto("/services/bouncers")
    page.get_by_test_id("bouncer-option").first.click()
    page.get_by_test_id("product-add").click()
    expect(page.get_by_test_id("cart-count")).to_have_text("1", timeout=CART_ANSWER)

    page.goto("/cart")
    page.get_by_test_id("cart-select-time").click()
    picker = page.get_by_test_id("slot-picker")
    picker.locator("#picker-duration").select_option("2")
    calendar_day(page, day).click()
    picker.get_by_test_id("picker-slot").filter(has_text="10:00").click()
    page.get_by_test_id("cart-time-set").click()
    expect(page.get_by_test_id("cart-time-modal")).to_have_count(0)
    subtotal_text = page.get_by_test_id("cart-subtotal").inner_text()
    # No transport line until the municipality is known; then its line, and the total with it.
    expect(page.get_by_test_id("cart-transport")).to_have_count(0)
    page.get_by_test_id("cart-city").select_option("gjakove")
    expect(page.get_by_test_id("cart-transport")).to_have_text(_price(FEE))
    subtotal = Decimal(re.sub(r"[^\d,]", "", subtotal_text).replace(",", "."))
    expect(page.get_by_test_id("cart-total")).to_have_text(_price(subtotal + FEE))
    # One not served online is said at once, with the business's phone.
    page.get_by_test_id("cart-city").select_option("dragash")
    expect(page.get_by_test_id("cart-transport-refusal")).to_be_visible()
    expect(page.get_by_test_id("cart-transport")).to_have_count(0)
    page.get_by_test_id("cart-city").select_option("gjakove")
    expect(page.get_by_test_id("cart-transport")).to_have_text(_price(FEE))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    page.get_by_test_id("cart-checkout").click()
    expect(page).to_have_url(re.compile(r"/checkout/?$"))
    # Checkout starts from the cart's municipality, its transport in the summary.
    expect(page.get_by_test_id("checkout-city")).to_have_value("gjakove")
    expect(page.get_by_test_id("checkout-transport")).to_have_text(_price(FEE))
    expect(page.get_by_test_id("checkout-total")).to_have_text(_price(subtotal + FEE))
    page.locator("#full_name").fill("Arta Krasniqi")
    page.locator("#email").fill("arta.transport@example.com")
    page.locator("#phone").fill("+383 44 123 456")
    page.locator("#address").fill("Rruga e Qytetit 3")
    page.locator("#zip_code").fill("50000")
    event_details(page, city=None)
    page.get_by_test_id("checkout-continue").click()
    expect(page.get_by_test_id("checkout-review")).to_be_visible()
    expect(page.get_by_test_id("review-city")).to_contain_text("Gjakovë")
    page.get_by_test_id("checkout-complete").click()
    reference = page.get_by_test_id("checkout-reference")
    expect(reference).to_have_text(re.compile(r"^MG-[0-9A-F]{8}$"))
    ref = reference.inner_text()

    stored = read(server, _booking, reference=ref)
    assert stored.city == "Gjakovë" and stored.transport_amount == FEE
    assert stored.total_amount == subtotal + FEE and stored.deposit_amount == 0

    page.get_by_test_id("checkout-booking-link").click()
    expect(page.get_by_test_id("confirmation-reference")).to_contain_text(ref)
    expect(page.get_by_test_id("confirmation-transport")).to_have_text(_price(FEE))
    expect(page.get_by_test_id("confirmation-total")).to_contain_text(_price(subtotal + FEE))
    expect(page.get_by_test_id("confirmation-payment")).to_have_text(
        sq("Pay {amount} at the service.").format(amount=_price(subtotal + FEE))
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # Paid in full at the door: the receipt comes by mail, and from the mailed link it reads
    # back with the reference, the line, the transport to Gjakovë, the payment and the balance.
    text = pay_in_full_and_read_the_mailed_receipt(page, server, mail_server, ref)
    with i18n.using(i18n.DEFAULT, office=True):
        words = {
            "transport": i18n._o("Transport ({municipality})").format(municipality="Gjakovë"),
            "cash": i18n._s("Cash"),
            "balance": i18n._o("Balance"),
        }
    for expected in (
        ref,
        stored_line_name(server, ref),
        words["transport"],
        _price(FEE),
        words["cash"],
        _price(subtotal + FEE),
        words["balance"],
        _price(0),
    ):
        assert expected.replace("\u00a0", " ") in text, (expected, text)


def _fees(session) -> dict:
    return dict((session.get(BusinessSettings, 1) or BusinessSettings()).transport_fees or {})


def test_the_owner_sets_the_fees_on_a_phone(phone, server):
    """The Transport card of Settings at 390 px: a bad fee is refused beside its field and what
    was typed stays; a fee and a 'not served online' are saved together."""
    from tests.e2e.test_staff_day import _admin, _signed_in

    _admin_id, token = _admin(server, language="en")
    _signed_in(phone, server, token)
    before = read(server, _fees)
    phone.goto("/admin/settings")
    card = phone.get_by_test_id("transport-setting")
    fee = card.get_by_test_id("transport-gjakove")
    expect(fee).to_be_enabled(timeout=15000)
    fee.fill("12,5x")
    card.get_by_test_id("transport-podujeve").fill("8")
    card.get_by_test_id("transport-kacanik-not-served").check()
    card.get_by_test_id("transport-save").click()
    expect(card.get_by_text("Gjakova")).to_have_count(2)  # its label and its message
    expect(fee).to_have_value("12,5x")
    expect(card.get_by_test_id("transport-podujeve")).to_have_value("8")
    assert read(server, _fees) == before  # nothing saved while one is refused
    fee.fill("12.50")
    card.get_by_test_id("transport-save").click()
    expect(card.get_by_test_id("transport-setting-notice-notice")).to_be_visible(timeout=15000)
    fees = read(server, _fees)
    assert (fees["gjakove"], fees["podujeve"], fees["kacanik"]) == ("12.50", "8.00", None)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.reload()
    expect(card.get_by_test_id("transport-gjakove")).to_have_value("12.50", timeout=15000)
    expect(card.get_by_test_id("transport-kacanik-not-served")).to_be_checked()
    phone.screenshot(path="/tmp/shots/transport_card_390.png", full_page=True)


def _ask_a_deposit(session) -> None:
    row = session.get(BusinessSettings, 1) or BusinessSettings(id=1)
    row.transport_fees = {**(row.transport_fees or {}), "gjakove": str(FEE)}
    row.deposit_percent, row.deposit_above = 30, Decimal("100")
    session.add(row)
    session.commit()


def _no_deposit(session) -> None:
    row = session.get(BusinessSettings, 1)
    row.deposit_percent = 0
    session.add(row)
    session.commit()


def test_a_deposit_is_said_before_the_guest_books(phone, server):
    """With the owner's deposit rule, the cart and checkout say the deposit under the total,
    and the confirmation when it is due."""
    page = phone
    read(server, _ask_a_deposit)
    try:
        page.goto("/services/bouncers")
        page.get_by_test_id("bouncer-option").first.click()
        page.get_by_test_id("product-add").click()
        expect(page.get_by_test_id("cart-count")).to_have_text("1", timeout=CART_ANSWER)
        page.goto("/cart")
        page.get_by_test_id("cart-select-time").click()
        picker = page.get_by_test_id("slot-picker")
        picker.locator("#picker-duration").select_option("2")
        # The first test's bouncer holds 10:00 of the same day.
        calendar_day(page, _a_bookable_day()).click()
        picker.get_by_test_id("picker-slot").filter(has_text="14:00").click()
        page.get_by_test_id("cart-time-set").click()
        page.get_by_test_id("cart-city").select_option("gjakove")
        total = page.get_by_test_id("cart-total")
        expect(page.get_by_test_id("cart-transport")).to_have_text(_price(FEE))
        amount = Decimal(re.sub(r"[^\d,]", "", total.inner_text()).replace(",", "."))
        deposit = _price((amount * Decimal("0.30")).quantize(Decimal("0.01")))
        expect(page.get_by_test_id("cart-deposit")).to_contain_text(deposit)
        page.get_by_test_id("cart-checkout").click()
        expect(page.get_by_test_id("checkout-deposit")).to_contain_text(deposit)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        read(server, _no_deposit)
