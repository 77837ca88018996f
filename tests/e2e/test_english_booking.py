"""A guest books in English, end to end (issue 21): the English pages from the tables page to the
confirmation, prices as English writes them, links that stay under /en; the customer's mail and
calendar file in English, the staff's WhatsApp message in the staff's language (Albanian)."""

from __future__ import annotations

import re
import time
from datetime import date, timedelta

import icalendar
import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import calendar_day, event_details, sq

pytestmark = pytest.mark.e2e
CART_ANSWER = 15000


def _a_bookable_day() -> date:
    """A weekday well ahead, apart from the other booking tests' days."""
    day = date.today() + timedelta(days=45)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def _wait_for(found, what: str, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"no {what} within {seconds} s")


def test_a_guest_books_in_english(page, server, mail_server, webhook_server):
    day = _a_bookable_day()
    page.goto("/en/services/wedding-tables")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_test_id("table-price")).to_have_text("€7.00")
    page.get_by_test_id("table-count").fill("5")
    expect(page.get_by_test_id("table-total")).to_have_text("€35.00")
    page.get_by_test_id("add-tables").click()
    expect(page.get_by_test_id("cart-count")).to_have_text("5", timeout=CART_ANSWER)

    # The header's cart link stays in the English edition.
    page.get_by_test_id("desktop-nav").get_by_role("link", name="Cart").click()
    expect(page).to_have_url(re.compile(r"/en/cart/?$"))
    item = page.get_by_test_id("cart-item")
    item.get_by_test_id("cart-select-time").click()
    picker = page.get_by_test_id("slot-picker")
    picker.locator("#picker-duration").select_option("2")
    calendar_day(page, day, language="en").click()
    picker.get_by_test_id("picker-slot").filter(has_text="10:00").click()
    page.get_by_test_id("cart-time-modal").get_by_test_id("cart-time-set").click()
    expect(item.get_by_test_id("cart-item-when")).to_contain_text(f"{day:%d.%m.%Y} · 10:00")
    expect(page.get_by_test_id("cart-total")).to_have_text("€35.00")
    page.get_by_test_id("cart-checkout").click()

    expect(page).to_have_url(re.compile(r"/en/checkout/?$"))
    page.get_by_test_id("checkout-continue").click()
    expect(page.get_by_test_id("error-full_name")).to_have_text("Full name is required")
    page.locator("#full_name").fill("Arta Krasniqi")
    page.locator("#email").fill("arta.english@example.com")
    page.locator("#phone").fill("+383 44 123 456")
    page.locator("#address").fill("Rruga Agim Ramadani 12")
    page.locator("#zip_code").fill("10000")
    event_details(page)
    page.get_by_test_id("checkout-continue").click()
    expect(page.get_by_test_id("checkout-review")).to_be_visible()
    page.get_by_test_id("checkout-complete").click()
    reference = page.get_by_test_id("checkout-reference")
    expect(reference).to_have_text(re.compile(r"^MG-[0-9A-F]{8}$"))
    ref = reference.inner_text()

    # The customer's mail and its calendar file are in English, and link the English page.
    mail = _wait_for(
        lambda: next((m for m in mail_server.messages if ref in m["Subject"]), None), "mail"
    )
    assert mail["Subject"] == f"Booking {ref} received"
    text = mail.get_body(("plain",)).get_content()
    assert text.startswith("Hello Arta Krasniqi,")
    assert "Total: €35.00" in text and "Pay €35.00 at the service." in text
    [ics] = [p for p in mail.iter_attachments() if p.get_content_type() == "text/calendar"]
    [event] = icalendar.Calendar.from_ical(ics.get_payload(decode=True)).walk("VEVENT")
    assert str(event["DESCRIPTION"]).startswith(f"Booking {ref}")
    link = re.search(r"https?://\S+/en/booking-confirmation/\S+", text)
    assert link, text

    # The staff hear of it in Albanian, whatever the customer's language.
    call = _wait_for(
        lambda: next((r for r in webhook_server.requests if ref in str(r)), None), "staff message"
    )
    assert "mysafirë" in call["templateParams"][2] and "guests" not in call["templateParams"][2]
    assert call["templateParams"][3] == "35,00 €"

    # The mail's link opens the confirmation page in English.
    page.goto(link.group(0))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_test_id("confirmation-reference")).to_contain_text(ref)
    expect(page.get_by_test_id("confirmation-line")).to_contain_text(f"{day:%d.%m.%Y}")


def test_the_english_pages_say_in_english_what_the_default_edition_says_in_albanian(page):
    """Strings whose English differs from the default edition's are English under /en."""
    # The default edition's word for 'TOTAL' ('TOTAL = {total}€' in its Albanian).
    total = sq("TOTAL = {total}€").split()[0]
    assert total != "TOTAL"
    page.goto("/services/magic-weddings")
    expect(page.get_by_test_id("tiffany-total")).to_contain_text(total)
    page.goto("/en/services/magic-weddings")
    expect(page.get_by_test_id("tiffany-total")).to_contain_text("TOTAL =")
    expect(page.get_by_test_id("tiffany-total")).not_to_contain_text(total)
