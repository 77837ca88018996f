"""Weddings (Tiffany chairs), wedding tables and the cart in a real browser."""

import re

import pytest
from playwright.sync_api import expect

from storefront import i18n
from tests.e2e.helpers import sq

pytestmark = pytest.mark.e2e


def _total(euros: int) -> str:
    """The Tiffany chairs' total as the default edition writes it (SPEC's 'TOTAL = {n}€')."""
    return sq("TOTAL = {total}€").format(total=euros)


def _tables(count: int) -> str:
    """'12 tables' as the default edition counts them in the cart (a plural form, which
    helpers.sq does not read)."""
    with i18n.using(i18n.DEFAULT):
        return i18n.ngettext("{count} table", "{count} tables", count).format(count=count)


def test_wedding_tables_count_rules_and_total(page):
    page.goto("/services/wedding-tables")
    count = page.get_by_test_id("table-count")
    expect(count).to_have_value("1")
    expect(page.get_by_test_id("table-price")).to_have_text("7,00 €")
    expect(page.get_by_test_id("table-total")).to_have_count(0)  # no total for one table

    count.fill("")
    expect(count).to_have_value("")  # blank is tolerated while typing
    expect(page.get_by_test_id("add-tables")).to_be_disabled()
    count.blur()
    expect(count).to_have_value("1")  # and becomes 1 on blur

    count.fill("2500")
    expect(count).to_have_value("1000")  # at most 1000
    expect(page.get_by_test_id("table-total")).to_have_text("7 000,00 €")

    count.fill("12")
    page.get_by_test_id("color-black").click()
    page.get_by_test_id("size").get_by_text("80cm").click()
    expect(page.get_by_test_id("table-total")).to_have_text("84,00 €")


def test_add_to_cart_stays_put_when_a_typed_counts_total_arrives(page):
    """The total line of a count over one is kept free while there is none, so the button under
    it does not move while the visitor reaches for it (a click that met the button's old place
    added nothing)."""
    page.goto("/services/wedding-tables")
    add = page.get_by_test_id("add-tables")
    expect(add).to_be_enabled(timeout=15000)
    before = add.bounding_box()
    page.get_by_test_id("table-count").fill("12")
    expect(page.get_by_test_id("table-total")).to_have_text("84,00 €")
    assert add.bounding_box() == before


def test_adding_tables_updates_the_floating_cart_and_survives_a_reload(page):
    page.goto("/services/wedding-tables")
    page.get_by_test_id("table-count").fill("12")
    add = page.get_by_test_id("add-tables")
    add.click()
    expect(add).to_have_text(sq("Adding..."))
    expect(add).to_be_disabled()
    expect(page.get_by_test_id("cart-count")).to_have_text("12")
    expect(add).to_have_text(sq("Add to Cart"))
    page.reload()
    expect(page.get_by_test_id("cart-count")).to_have_text("12")
    page.get_by_test_id("floating-cart").click()
    expect(page).to_have_url(re.compile(r"/cart/?$"))
    item = page.get_by_test_id("cart-item")
    expect(item).to_have_count(1)
    expect(item).to_contain_text(f"({_tables(12)})")
    expect(item).to_contain_text(sq("No time selected"))
    expect(page.get_by_test_id("cart-total")).to_have_text("84,00 €")
    item.get_by_test_id("cart-remove").click()
    expect(page.get_by_test_id("cart-empty")).to_contain_text(sq("Browse Services"))
    expect(page.get_by_test_id("cart-count")).to_have_count(0)


def test_tiffany_chairs_total_and_disabled_button(page):
    page.goto("/services/magic-weddings")
    card = page.get_by_test_id("tiffany-card")
    people = card.get_by_test_id("tiffany-people")
    total = card.get_by_test_id("tiffany-total")
    add = card.get_by_test_id("tiffany-add")
    expect(total).to_have_text(_total(0))
    expect(add).to_be_disabled()
    people.fill("abc")
    expect(total).to_have_text(_total(0))
    expect(add).to_be_disabled()
    people.fill("120")
    expect(total).to_have_text(_total(600))
    expect(add).to_be_enabled()
    add.click()
    expect(page.get_by_test_id("cart-count")).to_have_text("120")


def test_wedding_offers_show_spec_prices(page):
    page.goto("/services/magic-weddings")
    expect(page.get_by_role("heading", name=sq("Our Services"))).to_be_visible()
    offers = page.get_by_test_id("wedding-offer")
    expect(offers).to_have_count(2)
    expect(offers.nth(0)).to_contain_text("650,00 €")
    expect(offers.nth(1)).to_contain_text("1 300,00 €")
    offers.nth(0).get_by_role("button", name=sq("Details")).click()
    expect(page.get_by_test_id("wedding-modal")).to_be_visible()
    # The dialog's own 'Close' button (its corner's cross is named so too, without words).
    page.get_by_role("button", name=sq("Close")).filter(has_text=sq("Close")).click()
    expect(page.get_by_test_id("wedding-modal")).to_be_hidden()


def test_adding_the_same_offer_twice_raises_its_quantity(page):
    page.goto("/services/magic-weddings")
    add = page.get_by_test_id("wedding-offer").nth(0).get_by_role("button", name=sq("Add to Cart"))
    add.click()
    expect(page.get_by_test_id("cart-count")).to_have_text("1")
    expect(add).to_be_enabled(timeout=5000)
    add.click()
    expect(page.get_by_test_id("cart-count")).to_have_text("2")
    page.goto("/cart")
    expect(page.get_by_test_id("cart-item")).to_have_count(1)
    expect(page.get_by_test_id("cart-total")).to_have_text("1 300,00 €")


def test_contact_form_is_stored_and_shows_spec_success(page, server):
    from sqlmodel import Session, select

    from storefront.db import make_engine
    from storefront.models import ContactMessage

    page.goto("/contact")
    form = page.get_by_test_id("contact-form")
    form.get_by_label(sq("Name *")).fill("Blerta Hoxha")
    form.get_by_label(sq("Email *")).fill("blerta@example.com")
    form.get_by_label(sq("Event Type *")).select_option("birthday")
    form.get_by_label(sq("Message *")).fill("Mascots for a 6th birthday")
    form.get_by_role("button", name=sq("Send Message")).click()
    expect(page.get_by_test_id("contact-success")).to_contain_text(
        sq("Your message was sent successfully. We will be in touch soon.")
    )
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        stored = session.exec(
            select(ContactMessage).where(ContactMessage.email == "blerta@example.com")
        ).one()
    engine.dispose()
    assert stored.message == "Mascots for a 6th birthday"
    page.get_by_role("button", name=sq("Send another message")).click()
    expect(page.get_by_test_id("contact-form")).to_be_visible()


def _theme_id(server, slug):
    from sqlmodel import Session, select

    from storefront.db import make_engine
    from storefront.models import Service

    engine = make_engine(server.database_url)
    with Session(engine) as session:
        service_id = session.exec(select(Service.id).where(Service.slug == slug)).one()
    engine.dispose()
    return str(service_id)


def test_theme_page_tiles_and_tabs(page, server):
    theme_id = _theme_id(server, "enchanted-princess")
    page.goto(f"/services/{theme_id}")
    theme = page.get_by_test_id("theme")
    expect(theme.get_by_role("heading", level=1)).to_be_visible()
    expect(page.get_by_test_id("breadcrumb")).to_contain_text(sq("Services"))
    expect(theme).to_contain_text("599,00 €")
    for tile in ("Price", "Age Range", "Duration", "Capacity"):
        expect(theme.get_by_text(sq(tile), exact=True)).to_be_visible()
    panel = page.get_by_role("tabpanel")
    expect(panel.locator("p")).to_have_count(3)  # the long text, split at blank lines
    page.get_by_role("tab", name=sq("Features")).click()
    expect(panel.locator("li").first).to_be_visible()
    page.get_by_role("tab", name=sq("Add-Ons")).click()
    expect(panel.locator("tbody tr").first).to_contain_text("€")
    page.get_by_role("tab", name=sq("Description")).click()
    expect(panel.locator("p").first).to_be_visible()
    expect(theme.get_by_role("link", name=sq("Book Now")).first).to_have_attribute(
        "href", f"/services/{theme_id}/book"
    )


def test_unknown_theme_is_answered_with_the_not_found_page(page):
    """The server answers it with a 404 and the site's not-found page (issue 34, item 9;
    tests/e2e/test_catalogue_addresses.py), before any theme page starts."""
    response = page.goto("/services/00000000-0000-4000-8000-000000000000")
    assert response is not None and response.status == 404
    missing = page.get_by_test_id("not-found")
    expect(missing.get_by_role("heading", name=sq("Page Not Found"))).to_be_visible()
    expect(missing.get_by_role("link", name=sq("Back to Home"))).to_have_attribute("href", "/")
    expect(page.get_by_test_id("theme-not-found")).to_have_count(0)


def test_themed_decoration_by_slug(page):
    page.goto("/themes/jungle-safari")
    expect(page.get_by_test_id("theme")).to_contain_text("579,00 €")
