"""Issue 20, items 18 and 19, in Chromium: changing a published service's title warns that its
public address moves (old and new) and the old address then redirects to the new one; a plain
service's page shows only the tabs it has content for, and 'View More Themes' only on themes."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from storefront.services.catalog.admin import slugify
from tests.e2e.helpers import read, sq
from tests.e2e.test_admin_catalogue import _signed_in
from tests.factories import make_service

pytestmark = pytest.mark.e2e


def _plain_service(title: str, description: str):
    """A published plain service (no features, no add-ons) whose slug is made from its title,
    as the form makes it; returns (id, slug)."""

    def make(*, session):
        service = make_service(session, title=title)
        service.slug, service.description = slugify(title), description
        session.add(service)
        session.commit()
        return str(service.id), service.slug

    return make


def test_a_new_title_warns_before_saving_and_the_old_address_redirects(page, server):
    _signed_in(page, server, "admin")
    title = f"Bubble Dome {uuid.uuid4().hex[:5]}"
    service_id, old_slug = read(server, _plain_service(title, "A dome full of bubbles."))
    new_title = title + " Deluxe"
    new_slug = slugify(new_title)

    page.goto(f"/admin/services/edit/{service_id}")
    form = page.get_by_test_id("service-form")
    expect(form.get_by_label("Title")).to_have_value(title)
    warning = page.get_by_test_id("service-address-warning")
    expect(warning).to_have_count(0)  # nothing moves yet
    form.get_by_label("Title").fill(new_title)
    form.get_by_label("Title").press("Tab")
    expect(form.get_by_label("Slug")).to_have_value(new_slug)
    expect(warning).to_contain_text(f"/services/{old_slug} to ")
    expect(warning).to_contain_text(f"/services/{new_slug}.")
    expect(warning).to_contain_text("The old address will redirect to the new one.")
    page.get_by_test_id("save-service").click()
    expect(page).to_have_url(re.compile(r"/admin/services/?$"), timeout=15000)

    page.goto(f"/services/{old_slug}")
    expect(page).to_have_url(re.compile(rf"/services/{new_slug}$"))
    expect(page.get_by_role("heading", level=1, name=new_title)).to_be_visible()
    expect(page.locator('link[rel="canonical"]')).to_have_attribute(
        "href", re.compile(rf"/services/{new_slug}$")
    )


def test_a_plain_service_page_shows_only_what_the_service_has(page, server):
    title = f"Face Painting {uuid.uuid4().hex[:5]}"
    _id, slug = read(server, _plain_service(title, "Colourful faces for every guest."))

    page.goto(f"/services/{slug}")
    shown = page.get_by_test_id("theme")
    expect(shown.get_by_role("heading", level=1, name=title)).to_be_visible()
    expect(page.get_by_role("tabpanel")).to_contain_text("Colourful faces for every guest.")
    expect(page.get_by_role("tab", name=sq("Description"))).to_be_visible()
    expect(page.get_by_role("tab", name=sq("Features"))).to_have_count(0)
    expect(page.get_by_role("tab", name=sq("Add-Ons"))).to_have_count(0)
    expect(shown.get_by_role("link", name=sq("View More Themes"))).to_have_count(0)
    expect(shown.get_by_role("link", name=sq("Book Now")).first).to_be_visible()


def test_a_theme_page_keeps_its_tabs_and_more_themes(page):
    page.goto("/services/enchanted-princess")
    shown = page.get_by_test_id("theme")
    expect(shown.get_by_role("heading", level=1)).to_be_visible()
    for tab in ("Description", "Features", "Add-Ons"):
        expect(page.get_by_role("tab", name=sq(tab))).to_be_visible()
    expect(shown.get_by_role("link", name=sq("View More Themes"))).to_have_attribute(
        "href", "/services"
    )
