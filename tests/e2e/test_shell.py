"""The application shell in a real browser: home banner, navigation, footer, 404."""

import re

import pytest
from playwright.sync_api import expect
from sqlmodel import Session

from storefront.db import make_engine
from storefront.services.catalog import banners
from tests.e2e.helpers import alive, sq

pytestmark = pytest.mark.e2e

NAV_PAGES = [
    ("Magic Weddings", "/services/magic-weddings", "Magic Weddings"),
    ("Mascots", "/services/mascots", "Mascots"),
    ("Bouncers", "/services/bouncers", "Magic Bouncers"),
    ("Event Tables", "/services/wedding-tables", "Wedding Tables"),
    ("Contact", "/contact", "Contact"),
]


def _home_cards(server):
    engine = make_engine(server.database_url)
    try:
        with Session(engine) as session:
            return banners.active_banner_items(banners.HOME_BANNER, session=session)
    finally:
        engine.dispose()


def test_home_renders_the_seeded_banner_cards(page, server):
    cards = _home_cards(server)
    page.goto("/")
    strip = page.get_by_test_id("home-banner")
    expect(strip.get_by_test_id("banner-card")).to_have_count(len(cards))
    # The strip is drawn three times for a seamless loop.
    expect(strip.get_by_test_id("banner-card-copy")).to_have_count(2 * len(cards))
    for card in cards:
        expect(strip.get_by_test_id("banner-card").filter(has_text=card.title)).to_have_count(1)
    expect(page.get_by_role("link", name=sq("Get Started"))).to_have_attribute("href", "/contact")


def test_banner_card_opens_and_closes_its_modal(page, server):
    card = next(c for c in _home_cards(server) if c.description is None)
    # A moving card never holds still for a click; visitors who ask for less motion get a
    # still strip, and so does this test.
    page.emulate_media(reduced_motion="reduce")
    page.goto("/")
    page.get_by_test_id("banner-card").filter(has_text=card.title).click()
    modal = page.get_by_test_id("banner-modal")
    expect(modal).to_be_visible()
    expect(modal.get_by_role("heading", name=card.title)).to_be_visible()
    expect(modal).to_contain_text(sq("No description available."))
    modal.get_by_test_id("banner-modal-close").click()
    expect(modal).to_be_hidden()


@pytest.mark.parametrize(("label", "path", "heading"), NAV_PAGES)
def test_each_desktop_nav_link_opens_its_page(page, label, path, heading):
    page.goto("/")
    page.get_by_test_id("desktop-nav").get_by_role("link", name=sq(label), exact=True).click()
    expect(page).to_have_url(re.compile(re.escape(path) + "/?$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(sq(heading))


def test_mobile_menu_labels_tables_wedding_tables(phone):
    phone.goto("/")
    expect(phone.get_by_test_id("desktop-nav")).to_be_hidden()
    alive(phone, '[data-testid="mobile-menu-button"]')
    phone.get_by_test_id("mobile-menu-button").click()
    menu = phone.get_by_test_id("mobile-nav")
    expect(menu.get_by_role("link", name=sq("Wedding Tables"))).to_be_visible()
    expect(menu.get_by_role("link", name=sq("Event Tables"))).to_have_count(0)
    menu.get_by_role("link", name=sq("Wedding Tables")).click()
    expect(phone).to_have_url(re.compile(r"/services/wedding-tables/?$"))
    expect(phone.get_by_test_id("mobile-nav")).to_have_count(0)


def test_unknown_path_shows_page_not_found(page):
    page.goto("/no-such-page")
    expect(page.get_by_role("heading", name=sq("Page Not Found"))).to_be_visible()
    expect(
        page.get_by_text(
            sq("Sorry, the page you are looking for does not exist or has been moved.")
        )
    ).to_be_visible()
    page.get_by_role("link", name=sq("Back to Home")).click()
    expect(page).to_have_url(re.compile(r"/$"))


FOOTER_LINKS = [
    ("Wedding Tables", "/services/WeddingTables", "/services/wedding-tables", "Wedding Tables"),
    ("Magic Weddings", "/services/MagicWeddings", "/services/magic-weddings", "Magic Weddings"),
    ("Mascots", "/services/Mascots", "/services/mascots", "Mascots"),
    ("Bouncers", "/services/Bouncers", "/services/bouncers", "Magic Bouncers"),
]


@pytest.mark.parametrize(("label", "href", "canonical", "heading"), FOOTER_LINKS)
def test_footer_link_with_odd_casing_lands_on_the_right_page(page, label, href, canonical, heading):
    page.goto("/")
    link = page.get_by_test_id("site-footer").get_by_role("link", name=sq(label))
    expect(link).to_have_attribute("href", href)
    link.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(sq(heading))
    # The router ignores case, so a case-only variant may keep its spelling in the address bar.
    expect(page).to_have_url(re.compile(re.escape(canonical) + "/?$", re.IGNORECASE))


@pytest.mark.parametrize(("label", "href", "canonical", "heading"), FOOTER_LINKS)
def test_odd_casing_typed_directly_redirects_to_the_canonical_page(
    page, label, href, canonical, heading
):
    page.goto(href)
    expect(page).to_have_url(re.compile(re.escape(canonical) + "/?$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(sq(heading))
