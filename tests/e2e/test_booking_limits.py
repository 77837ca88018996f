"""The booking limit as a guest meets it, in Chromium (issue 18, finding 3): a visitor whose
address has placed its allowance of bookings this hour is refused at checkout and on the booking
screen with the limit's message, and keeps the cart."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from storefront.models import Booking, utcnow
from storefront.services.booking import placing
from tests.e2e.conftest import visitor_address
from tests.e2e.helpers import read, sq
from tests.e2e.test_booking_flow import (
    _a_bookable_day,
    _book_on_screen,
    _bouncer_in_cart,
    _checkout_form,
    _pick,
)

pytestmark = pytest.mark.e2e


def _booked_from(session, *, address: str, count: int) -> None:
    """`count` bookings placed from `address` a minute ago (completed: they hold nothing, and
    unlike cancelled ones they count toward the limit)."""
    for _ in range(count):
        key = uuid.uuid4().hex
        session.add(
            Booking(
                idempotency_key=key,
                status="completed",
                contact_email=f"{key[:8]}@example.com",
                contact_phone="+38344000000",
                client_address=address,
                created_at=utcnow() - timedelta(minutes=1),
            )
        )
    session.commit()


def test_a_visitor_over_the_booking_limit_is_told_and_keeps_the_cart(browser, server):
    address = visitor_address()
    context = browser.new_context(
        viewport={"width": 1280, "height": 900},
        base_url=server.url,
        extra_http_headers={"X-Forwarded-For": address},
    )
    page = context.new_page()
    try:
        read(server, _booked_from, address=address, count=5)
        # A day no other browser test books (they share the database): the booking screen's
        # 11:00 must be free for the refusal to be the limit's.
        day = _a_bookable_day() + timedelta(days=35)

        _bouncer_in_cart(page, count="1")
        page.goto("/cart")
        page.get_by_test_id("cart-select-time").click()
        _pick(page, day, "10:00")
        page.get_by_test_id("cart-time-set").click()
        page.get_by_test_id("cart-checkout").click()
        expect(page).to_have_url(re.compile(r"/checkout/?$"))
        _checkout_form(page)
        page.get_by_test_id("checkout-continue").click()
        page.get_by_test_id("checkout-complete").click()

        expect(page.get_by_test_id("checkout-error")).to_have_text(sq(placing.LIMIT_MESSAGE))
        expect(page.get_by_test_id("cart-count")).to_have_text("1")  # the cart is kept
        page.goto("/cart")
        expect(page.get_by_test_id("cart-item")).to_have_count(1)

        # The booking screen says the same.
        _book_on_screen(page, day, email="drita.limit@example.com", phone="+383 45 000 222")
        expect(page.get_by_test_id("book-error")).to_have_text(sq(placing.LIMIT_MESSAGE))
    finally:
        context.close()
