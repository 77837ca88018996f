"""Issue 34: the default edition speaks Albanian in what a screen reader hears too. The toasts'
region was named 'Notifications alt+T' on every page."""

from playwright.sync_api import expect


def test_the_toasts_region_is_named_in_the_pages_language(page):
    for edition, words in (("/", "Njoftimet"), ("/en/", "Notifications")):
        page.goto(edition)
        # Sonner adds its hotkey after the name: 'Njoftimet alt+T'.
        expect(page.locator(f"section[aria-label^='{words} ']")).to_have_count(1)
