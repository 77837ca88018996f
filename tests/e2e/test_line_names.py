"""Issue 34, item 2: the mascot, activity, bubble-house, castle and combo packages are all
'Paketa 1' ... 'Paketa 6' on their pages (the tab says which); in the cart, and in everything the
booking makes from it (tests/integration/test_line_names.py), a line says what it is, in the
page's language."""

from playwright.sync_api import expect

from tests.e2e.helpers import still


def test_the_cart_names_each_package_with_what_it_is_in_both_editions(page, server):
    still(page)
    page.goto("/services/mascots")
    page.get_by_test_id("mascot-packages-panel-mascot").get_by_test_id("package-add").first.click()
    expect(page.get_by_test_id("cart-count")).to_have_text("1")
    page.goto("/services/bouncers")
    page.get_by_test_id("bouncer-packages-panel-bouncer").get_by_test_id(
        "package-add"
    ).first.click()
    expect(page.get_by_test_id("cart-count")).to_have_text("2")

    page.goto("/cart")
    names = page.get_by_test_id("cart-item").locator("h2")
    expect(names).to_have_text(["Paketa maskotash 1", "Paketa me shtëpi flluskash 1"])
    page.goto("/en/cart")
    expect(names).to_have_text(["Mascot package 1", "Bubble house package 1"])
