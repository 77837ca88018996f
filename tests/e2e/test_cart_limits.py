"""Issue 20, item 2: the cart never holds more of a service than one time slot of it can (its
units). An add past that says so where the visitor is; the cart's - and + change a quantity within
1 and that bound; a cart kept from before is brought within it."""

from __future__ import annotations

import json
import re
import uuid

from playwright.sync_api import expect
from sqlmodel import Session

from storefront.db import make_engine
from storefront.state.cart import FULL
from storefront.state.slot_picker import NO_DAY
from tests.e2e.helpers import sq, still
from tests.factories import make_service


def _words(message: str, unknown: str, **known) -> re.Pattern:
    """`message` with `known` filled in and any text in place of `unknown`."""
    before, after = message.format(**known, **{unknown[1:-1]: "\0"}).split("\0")
    return re.compile(re.escape(before) + ".+" + re.escape(after))


def test_a_one_unit_mascot_is_added_once_and_the_second_add_says_why(page, server):
    still(page)
    page.goto("/services/mascots")
    page.locator('[data-testid="mascot-carousel-slide"][data-active="true"]').get_by_test_id(
        "mascot-details"
    ).click()
    modal = page.get_by_test_id("mascot-modal")
    button = modal.get_by_test_id("mascot-modal-add")
    button.click()
    expect(page.get_by_test_id("cart-count")).to_have_text("1")
    expect(button).to_have_text(sq("Add to Cart"), timeout=5000)
    button.click()
    # The mascot's name ({title}) is whichever the carousel shows first.
    full = _words(sq(FULL), "{title}", most=1, held=1)
    expect(page.get_by_text(full)).to_be_visible()
    toasts = sq("Notifications") + " alt+T"  # the toasts' region, named in the page's language
    expect(page.get_by_role("region", name=toasts)).to_contain_text(full)
    expect(page.get_by_test_id("cart-count")).to_have_text("1")

    page.goto("/cart")
    item = page.get_by_test_id("cart-item")
    expect(item.get_by_test_id("cart-quantity")).to_have_text("1")
    expect(item.get_by_test_id("cart-more")).to_be_disabled()
    expect(item.get_by_test_id("cart-less")).to_be_disabled()


def test_the_cart_changes_a_quantity_within_the_services_units(page, server):
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        service = make_service(session, title=f"Castle {uuid.uuid4().hex[:6]}", units=3)
        session.commit()
        service_id, title = str(service.id), service.title
    engine.dispose()
    kept = [
        {
            "id": service_id,
            "serviceId": service_id,
            "name": title,
            "image": "/placeholder.svg",
            "price": 100,
            "quantity": 5,  # kept from before: more than the 3 units there are
            "duration": 1,
            "date": "",
            "startTime": "",
        }
    ]
    page.add_init_script(f"localStorage.setItem('cartItems', {json.dumps(json.dumps(kept))})")
    page.goto("/cart")
    item = page.get_by_test_id("cart-item")
    quantity = item.get_by_test_id("cart-quantity")
    expect(quantity).to_have_text("3")
    expect(item.get_by_test_id("cart-more")).to_be_disabled()
    item.get_by_test_id("cart-less").click()
    expect(quantity).to_have_text("2")
    item.get_by_test_id("cart-less").click()
    expect(quantity).to_have_text("1")
    expect(item.get_by_test_id("cart-less")).to_be_disabled()
    item.get_by_test_id("cart-more").click()
    expect(quantity).to_have_text("2")
    stored = json.loads(page.evaluate("localStorage.getItem('cartItems')"))
    assert [i["quantity"] for i in stored] == [2]


def test_a_picker_with_no_free_day_says_why(page, server):
    from datetime import time

    from storefront.models import ServiceAvailability

    engine = make_engine(server.database_url)
    with Session(engine) as session:
        service = make_service(session, title=f"Closed {uuid.uuid4().hex[:6]}", units=1)
        for weekday in range(7):  # every weekday closed
            session.add(
                ServiceAvailability(
                    service_id=service.id,
                    day_of_week=weekday,
                    start_time=time(9),
                    end_time=time(17),
                    is_available=False,
                )
            )
        session.commit()
        service_id, title = str(service.id), service.title
    engine.dispose()
    item = {
        "id": service_id,
        "serviceId": service_id,
        "name": title,
        "image": "/placeholder.svg",
        "price": 100,
        "quantity": 1,
        "duration": 1,
        "date": "",
        "startTime": "",
    }
    page.add_init_script(f"localStorage.setItem('cartItems', {json.dumps(json.dumps([item]))})")
    page.goto("/cart")
    page.get_by_test_id("cart-select-time").click()
    expect(page.get_by_test_id("picker-no-day")).to_contain_text(_words(sq(NO_DAY), "{month}"))
