"""The Mascots and Bouncers pages in a real browser: carousels, tabs, modals and the cart."""

import re

import pytest
from playwright.sync_api import expect

from storefront.seed import catalog
from storefront.services.catalog import showcase
from tests.e2e.helpers import alive, sq
from tests.e2e.helpers import read as _read
from tests.e2e.helpers import still as _still

pytestmark = pytest.mark.e2e

MASCOTS = "/services/mascots"
BOUNCERS = "/services/bouncers"


def _per_event(euros: int) -> str:
    """A package's price as the default edition writes it ('150,00 € per event')."""
    return f"{euros},00 € {sq('per event')}"


def _active(page, carousel: str):
    return page.locator(f'[data-testid="{carousel}-slide"][data-active="true"]')


def test_mascot_carousel_previous_next_and_dots_change_the_character(page, server):
    mascots = _read(server, showcase.mascot_characters)
    assert len(mascots) == 41
    _still(page)
    page.goto(MASCOTS)
    carousel = page.get_by_test_id("mascot-carousel")
    expect(carousel.get_by_test_id("mascot-carousel-slide")).to_have_count(41)
    expect(carousel.get_by_test_id("mascot-carousel-dot")).to_have_count(41)
    active = _active(page, "mascot-carousel").get_by_test_id("mascot-name")
    expect(active).to_have_text(mascots[0].name)

    carousel.get_by_test_id("mascot-carousel-next").click()
    expect(active).to_have_text(mascots[1].name)
    carousel.get_by_test_id("mascot-carousel-prev").click()
    expect(active).to_have_text(mascots[0].name)
    # Previous from the first wraps to the last.
    carousel.get_by_test_id("mascot-carousel-prev").click()
    expect(active).to_have_text(mascots[-1].name)
    carousel.get_by_test_id("mascot-carousel-next").click()
    expect(active).to_have_text(mascots[0].name)

    carousel.get_by_test_id("mascot-carousel-dot").nth(9).click()
    expect(active).to_have_text(mascots[9].name)
    expect(carousel.get_by_test_id("mascot-carousel-dot").nth(9)).to_have_attribute(
        "aria-current", "true"
    )


def _swipe(page, dx: int):
    page.get_by_test_id("mascot-carousel-track").evaluate(
        """(el, dx) => {
          const r = el.getBoundingClientRect();
          const x = r.left + r.width / 2, y = r.top + 50;
          const touch = (cx) => new Touch({identifier: 1, target: el, clientX: cx, clientY: y});
          el.dispatchEvent(new TouchEvent('touchstart', {bubbles: true, touches: [touch(x)],
            changedTouches: [touch(x)]}));
          el.dispatchEvent(new TouchEvent('touchend', {bubbles: true, touches: [],
            changedTouches: [touch(x + dx)]}));
        }""",
        dx,
    )


def test_a_swipe_over_50px_changes_the_character(phone, server):
    mascots = _read(server, showcase.mascot_characters)
    _still(phone)
    phone.goto(MASCOTS)
    active = _active(phone, "mascot-carousel").get_by_test_id("mascot-name")
    expect(active).to_have_text(mascots[0].name)
    _swipe(phone, -30)
    expect(active).to_have_text(mascots[0].name)
    _swipe(phone, -80)  # left goes next
    expect(active).to_have_text(mascots[1].name)
    _swipe(phone, 80)
    expect(active).to_have_text(mascots[0].name)


def test_the_mascot_carousel_advances_by_itself(page, server):
    mascots = _read(server, showcase.mascot_characters)
    page.goto(MASCOTS)
    page.mouse.move(0, 0)
    active = _active(page, "mascot-carousel").get_by_test_id("mascot-name")
    expect(active).to_have_text(mascots[0].name)
    expect(active).to_have_text(mascots[1].name, timeout=9000)


def _details_of(modal):
    """The description of the detail dialog, once MascotsState.show_details has read it."""
    description = modal.get_by_test_id("mascot-modal-description")
    expect(description).to_have_attribute("aria-busy", "false")
    return description


def test_mascot_details_open_in_a_modal(page, server):
    first = _read(server, showcase.mascot_characters)[0]
    details = _read(server, showcase.mascot_details, mascot_id=first.id)
    _still(page)
    page.goto(MASCOTS)
    _active(page, "mascot-carousel").get_by_test_id("mascot-details").click()
    modal = page.get_by_test_id("mascot-modal")
    expect(modal.get_by_role("heading", name=first.name)).to_be_visible()
    expect(_details_of(modal)).to_have_text(details.full_description)
    expect(modal.get_by_test_id("mascot-modal-suitable-for").get_by_role("listitem")).to_have_text(
        details.suitable_for
    )
    modal.get_by_test_id("mascot-modal-close").click()
    expect(modal).to_be_hidden()


def _hold_details(page) -> list:
    """Hold back the page's MascotsState.show_details events until they are sent on
    (`send()` of the list's entries); every other message passes."""
    held: list = []

    def route(ws):
        to_server = ws.connect_to_server()

        def from_page(message):
            if isinstance(message, str) and "show_details" in message:
                held.append(lambda: to_server.send(message))
            else:
                to_server.send(message)

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r"/_event"), route)
    return held


def test_the_dialog_opens_at_once_and_its_texts_arrive_in_the_space_kept_for_them(page, server):
    """The page load carries no character's full description: the dialog opens with its
    slide's name, photo, price and button, shows grey lines and chips of their size while
    MascotsState.show_details reads them, then that character's texts."""
    second = _read(server, showcase.mascot_characters)[1]
    details = _read(server, showcase.mascot_details, mascot_id=second.id)
    held = _hold_details(page)
    _still(page)
    page.goto(MASCOTS)
    page.get_by_test_id("mascot-carousel-next").click()
    expect(_active(page, "mascot-carousel").get_by_test_id("mascot-name")).to_have_text(second.name)
    _active(page, "mascot-carousel").get_by_test_id("mascot-details").click()
    modal = page.get_by_test_id("mascot-modal")
    expect(modal.get_by_role("heading", name=second.name)).to_be_visible()
    expect(modal).to_contain_text(second.price_label)
    expect(modal.get_by_test_id("mascot-modal-add")).to_be_enabled()
    description = modal.get_by_test_id("mascot-modal-description")
    expect(description).to_have_attribute("aria-busy", "true")
    expect(modal.get_by_test_id("mascot-modal-chips-loading")).to_be_visible()
    expect(modal).not_to_contain_text(details.full_description)
    waiting = modal.bounding_box()["height"]

    assert len(held) == 1
    held.pop()()
    expect(_details_of(modal)).to_have_text(details.full_description)
    chips = modal.get_by_test_id("mascot-modal-suitable-for").get_by_role("listitem")
    expect(chips).to_have_text(details.suitable_for)
    expect(modal.get_by_test_id("mascot-modal-chips-loading")).to_have_count(0)
    # The texts take the place of the grey ones: the dialog grows or shrinks by a line at most.
    assert abs(modal.bounding_box()["height"] - waiting) <= 24


def _prices(panel):
    """The shown prices, read with an ordinary space where the page joins amount and symbol."""
    return [
        t.replace("\u00a0", " ") for t in panel.get_by_test_id("package-price").all_inner_texts()
    ]


def test_mascot_package_tabs_switch(page, server):
    packages = _read(
        server,
        showcase.packages_by_type,
        category_slug="mascots",
        types=showcase.MASCOT_PACKAGE_TYPES,
    )
    _still(page)
    page.goto(MASCOTS)
    tabs = page.get_by_test_id("mascot-packages")
    expect(tabs.get_by_role("tab", name=sq("Mascots"))).to_have_attribute("aria-selected", "true")
    panel = page.get_by_test_id("mascot-packages-panel-mascot")
    expect(panel.get_by_test_id("package-card")).to_have_count(6)
    assert _prices(panel) == [p.price_label.replace("\u00a0", " ") for p in packages["mascot"]]
    assert _prices(panel) == [_per_event(n) for n in (100, 120, 140, 150, 180, 200)]

    alive(page, '[data-testid="mascot-packages"]')
    tabs.get_by_role("tab", name=sq("Circumcision parties")).click()
    panel = page.get_by_test_id("mascot-packages-panel-mascot-activities")
    expect(panel.get_by_test_id("package-card")).to_have_count(6)
    assert _prices(panel) == [_per_event(n) for n in (150, 200, 230, 230, 250, 300)]
    expect(page.get_by_test_id("mascot-packages-panel-mascot")).to_be_hidden()


BOUNCER_TABS = [
    ("Bubbles", "bouncer", (150, 200, 230, 250, 300, 350)),
    ("Bouncers", "castle", (150, 200, 230, 250, 300, 350)),
    ("Bubble & Bouncer", "combo", (250, 350, 400, 450, 500)),
]


def test_bouncer_package_tabs_show_the_right_packages(page, server):
    packages = _read(
        server,
        showcase.packages_by_type,
        category_slug="bouncers",
        types=showcase.BOUNCER_PACKAGE_TYPES,
    )
    _still(page)
    page.goto(BOUNCERS)
    tabs = page.get_by_test_id("bouncer-packages")
    expect(tabs.get_by_role("tab", name=sq("Bubbles"))).to_have_attribute("aria-selected", "true")
    alive(page, '[data-testid="bouncer-packages"]')
    for label, kind, prices in BOUNCER_TABS:
        tabs.get_by_role("tab", name=sq(label), exact=True).click()
        expect(tabs.get_by_role("tab", name=sq(label), exact=True)).to_have_attribute(
            "aria-selected", "true"
        )
        panel = page.get_by_test_id(f"bouncer-packages-panel-{kind}")
        cards = panel.get_by_test_id("package-card")
        expect(cards).to_have_count(len(prices))
        assert _prices(panel) == [_per_event(n) for n in prices]
        # Bubbles and Bouncers cost the same: the contents tell them apart.
        for card, package in zip(cards.all(), packages[kind], strict=True):
            for feature in package.features:
                expect(card).to_contain_text(feature)


def test_adding_a_package_updates_the_floating_cart_and_survives_a_reload(page):
    _still(page)
    page.goto(BOUNCERS)
    cart = page.get_by_test_id("floating-cart")
    expect(cart).to_be_visible()
    expect(cart.get_by_test_id("cart-count")).to_have_count(0)
    alive(page, '[data-testid="bouncer-packages"]')  # the tabs answer once the page is alive
    page.get_by_test_id("bouncer-packages").get_by_role("tab", name=sq("Bubble & Bouncer")).click()
    button = page.get_by_test_id("bouncer-packages-panel-combo").get_by_test_id("package-add").first
    button.click()
    expect(cart.get_by_test_id("cart-count")).to_have_text("1")
    # The button says it is busy for about a second, then is ready again.
    expect(button).to_have_text(sq("Add to Cart"), timeout=5000)
    expect(button).to_be_enabled()
    button.click()
    expect(cart.get_by_test_id("cart-count")).to_have_text("2")
    page.reload()
    expect(page.get_by_test_id("floating-cart").get_by_test_id("cart-count")).to_have_text("2")


def test_add_button_shows_adding_while_busy(page):
    _still(page)
    page.goto(MASCOTS)
    _active(page, "mascot-carousel").get_by_test_id("mascot-details").click()
    _details_of(page.get_by_test_id("mascot-modal"))
    button = page.get_by_test_id("mascot-modal").get_by_test_id("mascot-modal-add")
    button.click()
    expect(button).to_have_text(sq("Adding..."))
    expect(button).to_be_disabled()
    expect(button).to_have_text(sq("Add to Cart"), timeout=5000)
    expect(page.get_by_test_id("cart-count")).to_have_text("1")


def test_the_product_modal_opens_and_closes(page, server):
    option = next(o for o in _read(server, showcase.bouncer_options) if o.title == "Pink Castle")
    _still(page)
    page.goto(BOUNCERS)
    page.get_by_test_id("bouncer-option").filter(has_text="Pink Castle").click()
    modal = page.get_by_test_id("product-modal")
    expect(modal).to_be_visible()
    expect(modal.get_by_role("heading", name="Pink Castle")).to_be_visible()
    expect(modal).to_contain_text(option.description)
    expect(modal.get_by_test_id("product-price")).to_have_text(
        "249,99 € " + sq("/\u00a0h")  # the unit of a rate per hour
    )
    expect(modal.get_by_test_id("color-swatch")).to_have_css(
        "background-color", "rgb(236, 72, 153)"
    )
    expect(modal.get_by_test_id("product-add")).to_be_enabled()
    modal.get_by_test_id("product-modal-close").click()
    expect(modal).to_be_hidden()
    # A click beside the modal closes it too.
    page.get_by_test_id("bouncer-option").filter(has_text="Jungle Bouncer").click()
    expect(modal.get_by_role("heading", name="Jungle Bouncer")).to_be_visible()
    page.mouse.click(5, 5)
    expect(modal).to_be_hidden()


def test_a_photo_enlarges_and_the_backdrop_closes_it(page):
    _still(page)
    page.goto(BOUNCERS)
    steps = page.get_by_test_id("step-card")
    expect(steps).to_have_count(3)
    expect(steps.nth(2)).to_have_css("animation-delay", "0.4s")
    page.get_by_test_id("strip-photo").filter(has_text="Montimi").click()
    lightbox = page.get_by_test_id("lightbox")
    expect(lightbox).to_be_visible()
    expect(lightbox.get_by_role("img", name="Montimi")).to_be_visible()
    lightbox.click(position={"x": 5, "y": 5})
    expect(lightbox).to_have_count(0)


def test_bouncers_page_carousels_and_strip_show_their_galleries(page):
    _still(page)
    page.goto(BOUNCERS)
    expect(page.get_by_role("heading", level=1)).to_have_text(sq("Magic Bouncers"))
    expect(page.get_by_test_id("strip-photo")).to_have_count(10)
    expect(page.get_by_test_id("bubbles-carousel-slide")).to_have_count(8)
    expect(page.get_by_test_id("bouncers-carousel-slide")).to_have_count(6)
    expect(page.get_by_test_id("bouncer-option")).to_have_count(6)
    expect(page.get_by_test_id("bouncers-banner").get_by_test_id("banner-card")).to_have_count(6)
    # Every photo keeps its box before it loads, so nothing jumps.
    for img in page.locator("main img").all():
        html = img.evaluate("el => el.outerHTML")
        assert img.get_attribute("width") and img.get_attribute("height"), html
    page.get_by_test_id("bubbles-carousel-next").click()
    expect(_active(page, "bubbles-carousel").get_by_role("button")).to_have_accessible_name(
        re.compile(catalog.GALLERIES["bubbles"][1])
    )


def test_mascots_page_shows_works_and_the_mascot_banner(page):
    _still(page)
    page.goto(MASCOTS)
    expect(page.get_by_role("heading", level=1)).to_have_text(sq("Mascots"))
    works = page.get_by_test_id("works-photo")
    expect(works).to_have_count(5)
    # The seed's captions, in the default edition's words ('Festë Ditëlindjeje', ...).
    captions = catalog.GALLERIES["mascot-works"]
    assert captions[0] == "Festë Ditëlindjeje"
    for title in captions:
        expect(works.filter(has_text=title)).to_have_count(1)
    expect(page.get_by_test_id("mascots-banner").get_by_test_id("banner-card")).to_have_count(6)
    works.first.click()
    lightbox = page.get_by_test_id("lightbox")
    expect(lightbox.get_by_role("img", name=captions[0])).to_be_visible()
    lightbox.get_by_test_id("lightbox-close").click()
    expect(lightbox).to_have_count(0)
