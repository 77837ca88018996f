"""Issue 34, item 10: what a customer meets at 390 and 1280 px. The floating cart sat over
'Change or cancel' on a booking's page; the hero's 'Filloni Tani' sat its words higher in its
button than 'Shikoni Shërbimet'; a cart line's price wrapped as '100,00 € per / event ×'."""

from __future__ import annotations

from datetime import date, timedelta

from playwright.sync_api import expect

from tests.e2e.helpers import still
from tests.e2e.test_booking_changes import _link, _place, _service

UNCOVERED = """(element) => {
    const box = element.getBoundingClientRect();
    const points = [];
    // Inside the rounded corners: the floating button sat at the right, over the words.
    for (let y = box.top + 16; y < box.bottom - 16; y += 12) {
        for (const x of [box.left + 16, box.left + box.width / 2, box.right - 16]) {
            if (y > 0 && y < window.innerHeight) points.push([x, y]);
        }
    }
    return points
        .filter(([x, y]) => !element.contains(document.elementFromPoint(x, y)))
        .map(([x, y]) => [x, y, (document.elementFromPoint(x, y) || {}).outerHTML?.slice(0, 200)]);
}"""


def test_nothing_floats_over_change_or_cancel_on_a_phone(phone, server):
    service_id, _title = _service(server)
    placed = _place(server, service_id, date.today() + timedelta(days=21), "12:00")
    for edition in ("", "/en"):
        phone.goto(edition + _link(placed))
        change = phone.get_by_test_id("booking-change")
        expect(change).to_be_visible()
        expect(phone.get_by_test_id("floating-cart")).to_have_count(0)
        for block in ("center", "end"):  # (at the start, under the sticky navigation bar)
            change.evaluate(f"(e) => e.scrollIntoView({{block: '{block}'}})")
            assert change.evaluate(UNCOVERED) == [], (edition, block)


def test_the_heros_two_buttons_hold_their_words_at_the_same_height(page):
    for edition in ("/", "/en/"):
        page.goto(edition)
        boxes = []
        for test_id in ("hero-start", "hero-services"):
            button = page.get_by_test_id(test_id)
            expect(button).to_be_visible()
            boxes.append(
                button.evaluate(
                    """(e) => {
                        const b = e.getBoundingClientRect();
                        const range = document.createRange();
                        range.selectNodeContents(e);
                        const t = range.getBoundingClientRect();
                        return [b.top, b.height, t.top + t.height / 2 - (b.top + b.height / 2)];
                    }"""
                )
            )
        (top_a, height_a, off_a), (top_b, height_b, off_b) = boxes
        assert abs(top_a - top_b) < 1 and abs(height_a - height_b) < 1, (edition, boxes)
        assert abs(off_a) < 1.5 and abs(off_b) < 1.5, (edition, boxes)


def test_a_cart_lines_price_and_unit_stay_on_one_line_on_a_phone(phone):
    still(phone)
    phone.goto("/services/mascots")
    phone.get_by_test_id("mascot-packages-panel-mascot").get_by_test_id("package-add").first.click()
    expect(phone.get_by_test_id("cart-count")).to_have_text("1")
    for edition in ("", "/en"):
        phone.goto(f"{edition}/cart")
        price = phone.get_by_test_id("cart-item-price")
        expect(price).to_be_visible()
        lines = price.evaluate(
            """(e) => {
                const range = document.createRange();
                range.selectNodeContents(e);
                return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
            }"""
        )
        assert lines == 1, (edition, price.inner_text())
