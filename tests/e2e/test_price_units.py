"""Every public price says what it is for (issue 20, item 8): '599,00 € / h' for a service priced
per hour, '150,00 € per event' for one the hours do not multiply (services/money.
format_price_with_unit); and a package the spec gives a length ('a bubble house for 3 hours')
goes into the cart for that length."""

import json

import pytest
from playwright.sync_api import expect

from storefront.services.catalog import showcase
from tests.e2e.helpers import read as _read
from tests.e2e.helpers import sq
from tests.e2e.helpers import still as _still

pytestmark = pytest.mark.e2e

MASCOTS = "/services/mascots"
BOUNCERS = "/services/bouncers"
# The units after a price in the default edition's words (services/money.UNIT_WORDS), with an
# ordinary space where the page keeps the words together.
PER_HOUR = sq("/\u00a0h").replace("\u00a0", " ")
PER_EVENT = sq("per event")


def _texts(locator) -> list[str]:
    """Shown texts with an ordinary space where the page keeps words together."""
    return [t.replace("\u00a0", " ") for t in locator.all_inner_texts()]


def test_the_services_list_and_a_theme_page_show_the_hourly_unit(page):
    page.goto("/services")
    card = page.locator('[data-testid="theme-card"][href="/services/enchanted-princess"]')
    expect(card).to_contain_text(sq("From {price}").format(price=f"599,00 € {PER_HOUR}"))

    page.goto("/services/enchanted-princess")
    theme = page.get_by_test_id("theme")
    price = theme.get_by_text(sq("Price"), exact=True).locator("xpath=following-sibling::p")
    expect(price).to_have_text(f"599,00 € {PER_HOUR}")


def test_mascots_show_the_hourly_unit_and_packages_per_event(page):
    _still(page)
    page.goto(MASCOTS)
    slide = page.locator('[data-testid="mascot-carousel-slide"][data-active="true"]')
    expect(slide).to_contain_text(f"250,00 € {PER_HOUR}")
    slide.get_by_test_id("mascot-add").click()
    expect(page.get_by_test_id("character-price")).to_have_text(f"250,00 € {PER_HOUR}")
    page.keyboard.press("Escape")

    panel = page.get_by_test_id("mascot-packages-panel-mascot")
    expect(panel.get_by_test_id("package-card")).to_have_count(6)
    assert _texts(panel.get_by_test_id("package-price")) == [
        f"{n},00 € {PER_EVENT}" for n in (100, 120, 140, 150, 180, 200)
    ]


def test_bouncer_options_show_the_hourly_unit_and_packages_per_event(page):
    _still(page)
    page.goto(BOUNCERS)
    option = page.get_by_test_id("bouncer-option").filter(has_text="Pink Castle")
    expect(option).to_contain_text(f"249,99 € {PER_HOUR}")
    option.click()
    expect(page.get_by_test_id("product-price")).to_have_text(f"249,99 € {PER_HOUR}")
    page.get_by_test_id("product-modal-close").click()

    panel = page.get_by_test_id("bouncer-packages-panel-bouncer")
    expect(panel.get_by_test_id("package-card")).to_have_count(6)
    assert _texts(panel.get_by_test_id("package-price")) == [
        f"{n},00 € {PER_EVENT}" for n in (150, 200, 230, 250, 300, 350)
    ]


def _cart(page) -> list[dict]:
    return json.loads(page.evaluate("localStorage.getItem('cartItems') || '[]'"))


def test_a_package_with_a_length_goes_into_the_cart_for_that_length(page, server):
    bubbles = _read(
        server, showcase.packages_by_type, category_slug="bouncers", types=("bouncer",)
    )["bouncer"]
    _still(page)
    page.goto(BOUNCERS)
    panel = page.get_by_test_id("bouncer-packages-panel-bouncer")
    # 'Shtëpi me flluska për 3 orë': a bubble house for 3 hours.
    expect(panel.get_by_test_id("package-card").first).to_contain_text("për 3 orë")
    panel.get_by_test_id("package-add").first.click()
    expect(page.get_by_test_id("cart-count")).to_have_text("1")
    [item] = _cart(page)
    assert (item["id"], item["duration"]) == (bubbles[0].id, 3)

    # A mascot visit's own length: 40 minutes, one hourly slot (issue 34, item 3).
    page.goto(MASCOTS)
    page.get_by_test_id("mascot-packages-panel-mascot").get_by_test_id("package-add").first.click()
    expect(page.get_by_test_id("cart-count")).to_have_text("2")
    assert [i["duration"] for i in _cart(page)] == [3, 1]
