"""A prerendered page paints before it asks for a single script (issue 23, rxconfig.FirstPaintPlugin),
then comes alive as before: its chunks are fetched after the first contentful paint, every one of
them under the Content-Security-Policy (no violation in the console), and the server sends the
tab its state. Measured on a network with 150 ms of latency and a 4x slower processor, where the
first paint and the scripts are far enough apart to tell which came first."""

import json
import re

import pytest
from playwright.sync_api import expect

from storefront.services.booking import cart
from tests.e2e.helpers import slow_down, sq

pytestmark = pytest.mark.e2e

PAGES = ["/", "/terms", "/services/mascots", "/en/contact", "/sign-in"]
TIMINGS = """() => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  const scripts = performance.getEntriesByType("resource")
    .filter((entry) => entry.name.endsWith(".js"));
  return {
    paint: paint ? paint.startTime : null,
    first_script: Math.min(...scripts.map((entry) => entry.startTime)),
    scripts: scripts.length,
  };
}"""


def _answers(page) -> list[str]:
    """The frames the server sends the page's websockets, as they arrive."""
    answers: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: answers.append(frame)))
    return answers


def _wait_until_alive(page, answers: list[str]) -> None:
    """Alive: React has mounted and opened the websocket, and the server has sent the tab its
    state (its answer to the page's hydrate)."""
    for _ in range(100):
        if any("delta" in str(answer) for answer in answers):
            break
        page.wait_for_timeout(100)
    assert any("delta" in str(answer) for answer in answers), answers


@pytest.mark.parametrize("path", PAGES)
def test_a_prerendered_page_paints_before_it_fetches_its_scripts_then_comes_alive(phone, path):
    problems: list[str] = []
    phone.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    phone.on("pageerror", lambda error: problems.append(str(error)))
    answers = _answers(phone)
    slow_down(phone)
    phone.goto(path)
    _wait_until_alive(phone, answers)
    timings = phone.evaluate(TIMINGS)
    assert timings["paint"] is not None and timings["scripts"] > 5
    assert timings["first_script"] >= timings["paint"], timings
    assert problems == []


# A tab opened in the background: hidden, and its frames and its first paint never come until
# it is shown.
HIDDEN_TAB = """
Object.defineProperty(document, "hidden", {get: () => true});
Object.defineProperty(document, "visibilityState", {get: () => "hidden"});
window.requestAnimationFrame = () => 0;
window.PerformanceObserver = class {
  static get supportedEntryTypes() { return ["paint"]; }
  observe() {}
  disconnect() {}
};
"""


def test_a_tab_opened_in_the_background_comes_alive_without_being_shown(page):
    """Its scripts cannot wait for a frame that comes only when it is shown: they load after
    500 ms, and the server sends the tab its state. (A tab on the screen waits for its first
    frame however long the first paint takes: the 500 ms are not a deadline for it.)"""
    answers = _answers(page)
    page.add_init_script(HIDDEN_TAB)
    page.goto("/terms")
    _wait_until_alive(page, answers)
    first_script = page.evaluate(TIMINGS)["first_script"]
    assert first_script >= 500, first_script


ENTRY = "**/assets/entry.client-*.js"


def _line(**fields) -> dict:
    line = {"id": "a", "name": "Tables", "image": "/x.webp", "price": 7, "quantity": 1}
    return line | fields


# The browser's cart, and whether checkout must send it back to the cart before its scripts run:
# only when the server is certain to say so too (services/cart.checkout_leave_script).
CHECKOUT_CARTS = [
    (None, True),  # no cart yet
    ("[]", True),
    ('{"id": "a"}', True),  # not a list: the server reads no lines
    (json.dumps([_line(date="2026-12-01")]), True),  # a line without its time
    (json.dumps([_line(date="2026-12-01", startTime="10:00"), _line(id="b")]), True),
    (json.dumps([_line(date="2026-12-01", startTime="10:00")]), False),  # the server decides
    (json.dumps([{"id": [], "name": "x", "image": "/x"}]), False),  # a line the server drops
    ("not json", False),  # unreadable: left to the server
    (json.dumps([_line(date="2026-12-01", startTime="1\u0662:30")]), True),  # not ASCII digits
]


@pytest.mark.parametrize("edition", ["", "/en"])
def test_checkout_with_a_cart_it_cannot_take_goes_back_before_its_scripts_run(page, edition):
    """The checkout page reads the browser's cart before anything is drawn and goes straight to
    the cart when the server would send it there anyway (docs/product.md: checkout redirects to
    the cart if the cart is empty or any item lacks a date or start time). The app's scripts are
    held back throughout: what moves the page is the page's own first check, not the app."""
    page.route(ENTRY, lambda route: None)  # never answered: the app stays asleep
    for stored, leaves in CHECKOUT_CARTS:
        page.goto(f"{edition}/terms", wait_until="commit")
        if stored is None:
            page.evaluate("localStorage.removeItem('cartItems')")
        else:
            page.evaluate("(raw) => localStorage.setItem('cartItems', raw)", stored)
        page.goto(f"{edition}/checkout", wait_until="commit")
        if leaves:
            expect(page, stored).to_have_url(re.compile(rf"{edition}/cart/?$"))
            # Never where the server would let the visitor check out.
            items = cart.parse(stored or "[]")
            assert not items or any(not (i["date"] and i["startTime"]) for i in items), stored
        else:
            page.wait_for_timeout(700)
            expect(page, stored).to_have_url(re.compile(rf"{edition}/checkout/?$"))
            language = "en" if edition else "sq"
            expect(page.get_by_role("heading", name=sq("Checkout", language))).to_be_visible()
