"""Issue 34, item 1: what a guest types is never lost, however many guests check out at once.
Five browsers open `/checkout` at the same moment and each fills its form the instant its fields
take keys; the page's own opening (the cart's summary, a signed-in guest's known details) used to
arrive after the fields were enabled and put back the empty form over the name just typed."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import event_details, slow_down, sq
from tests.e2e.test_forms_keep_input import _cart_with_a_scheduled_mascot

GUESTS = 5
FIELDS = (
    ("#email", "guest{n}@example.com"),
    ("#phone", "044 100 10{n}"),
    ("#address", "Rr. Nëna Terezë {n}"),
    ("#zip_code", "1000{n}"),
)
TAKES_KEYS = """() => {
    const field = document.querySelector('#full_name');
    return !!field && !field.disabled;
}"""


# Arriving from the cart (a navigation inside the app) went the same way; one arrival keeps the
# suite inside its time (five browsers on a phone's processor take about 40 s).
@pytest.mark.parametrize("arrival", ["address"])
def test_five_guests_checking_out_at_once_each_reach_review_with_what_they_typed(
    browser, server, arrival
):
    from tests.e2e.conftest import visitor_address

    contexts, pages = [], []
    for _ in range(GUESTS):
        context = browser.new_context(
            viewport={"width": 1280, "height": 900},
            base_url=server.url,
            extra_http_headers={"X-Forwarded-For": visitor_address()},
        )
        page = context.new_page()
        slow_down(page)
        _cart_with_a_scheduled_mascot(page, server)
        contexts.append(context)
        pages.append(page)
    try:
        if arrival == "address":  # all five ask for the page before any has come alive
            for page in pages:
                page.goto("/checkout", wait_until="commit")
        else:  # all five press 'Proceed to Checkout' in their carts at once
            for page in pages:
                page.goto("/cart")
            for page in pages:
                expect(page.get_by_test_id("cart-checkout")).to_be_enabled(timeout=15000)
            for page in pages:
                page.get_by_test_id("cart-checkout").click(no_wait_after=True)
        named: set[int] = set()
        deadline = time.monotonic() + 60
        while len(named) < GUESTS and time.monotonic() < deadline:
            for n, page in enumerate(pages):
                if n not in named and page.evaluate(TAKES_KEYS):
                    page.locator("#full_name").press_sequentially(f"Guest Number {n}")
                    named.add(n)
        assert len(named) == GUESTS, "the checkout form never took keys"
        for n, page in enumerate(pages):
            for field, value in FIELDS:
                page.locator(field).fill(value.format(n=n))
            event_details(page, guests=str(20 + n))
        for page in pages:
            page.get_by_test_id("checkout-continue").click()
        for n, page in enumerate(pages):
            expect(page.get_by_test_id("checkout-review")).to_be_visible(timeout=15000)
            expect(page.get_by_test_id("review-full_name")).to_contain_text(f"Guest Number {n}")
            expect(page.get_by_test_id("review-email")).to_contain_text(f"guest{n}@example.com")
            expect(page.get_by_test_id("error-full_name")).to_have_count(0)
            assert sq("Full name is required") not in page.inner_text("main")
    finally:
        for context in contexts:
            context.close()
