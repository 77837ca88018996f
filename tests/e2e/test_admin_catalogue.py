"""The admin catalogue in Chromium, as a new admin and a new user would use it: create a service
with two images and find it on its public page; a user's service stays off the public pages
until an admin publishes it; the list's toggles, search and delete say the spec's words."""

from __future__ import annotations

import re
import uuid
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from storefront import i18n
from tests.e2e.helpers import sq
from tests.e2e.test_forged_events import _account
from tests.factories import image_bytes

pytestmark = pytest.mark.e2e


def _signed_in(page, server, role: str) -> str:
    """Put a fresh account's session cookie in the page's browser; returns the user id."""
    user_id, token, _ = _account(server, role)
    page.context.add_cookies([{"name": "sf_session", "value": token, "url": server.url}])
    return user_id


def _upload(page, name: str, color) -> None:
    before = page.get_by_test_id("form-image").count()
    page.get_by_test_id("service-image-input").locator("input[type=file]").set_input_files(
        {"name": name, "mimeType": "image/png", "buffer": image_bytes("PNG", (1200, 700), color)}
    )
    page.get_by_test_id("service-image-upload").click()
    expect(page.get_by_test_id("form-image")).to_have_count(before + 1, timeout=15000)
    # The picker is emptied just after the image shows (the upload's last step): a file chosen
    # before that would be emptied with it.
    expect(page.get_by_test_id("service-image-chosen")).to_have_text("")


def _fill(page, title: str, description: str, price: str, language: str = "en") -> None:
    """Fill the service form, whose labels are in `language`: English in the back office of an
    admin without a language of their own, the default edition's on the account's form."""
    form = page.get_by_test_id("service-form")
    # The categories arrive with the form's load (what is typed before it answers is kept:
    # tests/e2e/test_forms_keep_input.py).
    expect(form.get_by_label(sq("Category", language)).locator("option")).not_to_have_count(1)
    form.get_by_label(sq("Title", language)).fill(title)
    form.get_by_label(sq("Description", language)).fill(description)
    form.get_by_label(sq("Price (EUR)", language)).fill(price)
    form.get_by_label(sq("Title", language)).press("Tab")


def test_an_admin_creates_a_service_with_two_images_and_sees_it_on_its_page(page, server):
    _signed_in(page, server, "admin")
    title = f"Photo Booth {uuid.uuid4().hex[:5]}"
    slug = title.lower().replace(" ", "-")
    page.goto("/admin/services")
    expect(page.get_by_test_id("services-table")).to_be_visible()
    page.get_by_role("link", name="Add New Service").click()
    expect(page).to_have_url(re.compile(r"/admin/services/create/?$"))
    _fill(page, title, "A photo booth with props for every guest.", "80")
    # made from the title (docs/product.md §5)
    expect(page.get_by_label("Slug")).to_have_value(slug)
    _upload(page, "booth.png", (30, 120, 200))
    _upload(page, "props.png", (220, 160, 20))
    page.get_by_test_id("save-service").click()
    expect(page).to_have_url(re.compile(r"/admin/services/?$"), timeout=15000)

    page.get_by_label("Search").fill(title)
    row = page.get_by_test_id("service-row").filter(has_text=title)
    expect(row).to_have_count(1)
    expect(row).to_contain_text("€80.00")  # the back office in English
    expect(row).to_contain_text("Active")

    page.goto(f"/services/{slug}")
    expect(page.get_by_role("heading", level=1, name=title)).to_be_visible()
    gallery = page.get_by_test_id("service-gallery").locator("img")
    expect(gallery).to_have_count(1)
    page.set_viewport_size({"width": 1281, "height": 900})  # nudge lazy images to paint
    for image in (page.locator("main img").first, gallery.first):
        image.scroll_into_view_if_needed()
        expect(image).to_have_js_property("complete", True)
        assert image.evaluate("i => i.naturalWidth") > 0


def test_a_users_service_stays_a_draft_until_an_admin_publishes_it(browser, server):
    user_context = browser.new_context(base_url=server.url, viewport={"width": 390, "height": 844})
    admin_context = browser.new_context(base_url=server.url)
    try:
        user_page, admin_page = user_context.new_page(), admin_context.new_page()
        _signed_in(user_page, server, "user")
        _signed_in(admin_page, server, "admin")
        title = f"Face Painting {uuid.uuid4().hex[:5]}"
        slug = title.lower().replace(" ", "-")

        user_page.goto("/account")
        user_page.get_by_role("link", name=sq("Create New Service")).click()
        expect(user_page).to_have_url(re.compile(r"/services/create/?$"))
        expect(user_page.get_by_label(sq("Kind"))).to_have_count(0)  # users make plain drafts
        _fill(
            user_page, title, "Colourful face painting for children.", "40", language=i18n.DEFAULT
        )
        user_page.get_by_test_id("save-service").click()
        expect(user_page).to_have_url(re.compile(r"/account/?$"), timeout=15000)
        expect(user_page.get_by_text(title)).to_be_visible()
        assert user_page.evaluate("document.documentElement.scrollWidth") <= 390

        user_page.goto(f"/services/{slug}")
        # Not published: the server answers 404 with the site's not-found page.
        expect(user_page.get_by_role("heading", name=sq("Page Not Found"))).to_be_visible()

        admin_page.goto("/admin/services")
        admin_page.get_by_label("Search").fill(title)
        row = admin_page.get_by_test_id("service-row").filter(has_text=title)
        expect(row.get_by_test_id("draft-badge")).to_be_visible()
        row.get_by_test_id("publish").click()
        expect(admin_page.get_by_test_id("admin-notice")).to_have_text(
            "Service published successfully"
        )
        expect(row.get_by_test_id("draft-badge")).to_have_count(0)

        user_page.goto(f"/services/{slug}")
        expect(user_page.get_by_role("heading", level=1, name=title)).to_be_visible()
    finally:
        user_context.close()
        admin_context.close()


def test_the_list_toggles_and_deletes_with_specs_words(page, server):
    _signed_in(page, server, "admin")
    title = f"Balloon Arch {uuid.uuid4().hex[:5]}"
    page.goto("/admin/services/create")
    _fill(page, title, "An arch of balloons.", "60")
    page.get_by_test_id("save-service").click()
    expect(page).to_have_url(re.compile(r"/admin/services/?$"), timeout=15000)
    page.get_by_label("Search").fill(title)
    row = page.get_by_test_id("service-row").filter(has_text=title)
    notice = page.get_by_test_id("admin-notice")

    row.get_by_test_id("toggle-active").click()
    expect(notice).to_have_text("Service deactivated successfully")
    expect(row).to_contain_text("Inactive")
    row.get_by_test_id("toggle-active").click()
    expect(notice).to_have_text("Service activated successfully")
    row.get_by_test_id("toggle-featured").click()
    expect(notice).to_have_text("Service featured successfully")
    row.get_by_test_id("toggle-featured").click()
    expect(notice).to_have_text("Service unfeatured successfully")

    row.get_by_test_id("delete-service").click()
    dialog = page.get_by_test_id("delete-dialog")
    expect(dialog).to_contain_text(
        "Are you sure you want to delete this service? This action cannot be undone."
    )
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(row).to_have_count(1)
    row.get_by_test_id("delete-service").click()
    page.get_by_test_id("confirm-delete").click()
    expect(notice).to_have_text("Service deleted successfully")
    expect(page.get_by_test_id("services-empty")).to_have_text(
        "No services found. Create your first service!"
    )


def test_the_form_refuses_what_spec_refuses(page, server):
    _signed_in(page, server, "admin")
    page.goto("/admin/services/create")
    form = page.get_by_test_id("service-form")
    form.get_by_label("Title").fill("Only a title")
    form.get_by_label("Description").fill("Text")
    # The title's answer comes back with the slug made from it; clear the slug after that.
    expect(form.get_by_label("Slug")).to_have_value("only-a-title")
    form.get_by_label("Slug").fill("")
    page.get_by_test_id("save-service").click()
    # The browser's own 'required' check stops an empty slug; a bad one reaches the server.
    expect(page).to_have_url(re.compile(r"/admin/services/create$"))
    expect(form.get_by_label("Slug")).to_have_value("")
    form.get_by_label("Slug").fill("Bad Slug!")
    page.get_by_test_id("save-service").click()
    expect(page.get_by_test_id("service-form-error")).to_have_text(
        "Slug may hold only lowercase letters, digits and single hyphens"
    )
    page.get_by_test_id("service-image-input").locator("input[type=file]").set_input_files(
        {"name": "notes.jpg", "mimeType": "image/jpeg", "buffer": b"not really a picture"}
    )
    page.get_by_test_id("service-image-upload").click()
    expect(page.get_by_test_id("service-image-error")).to_have_text("File must be an image")
    expect(page.get_by_test_id("form-image")).to_have_count(0)


def test_a_plain_user_meets_access_denied_in_the_back_office(phone, server):
    _signed_in(phone, server, "user")
    phone.goto("/admin/services")
    expect(phone.get_by_test_id("access-denied")).to_contain_text(
        "You must be an admin to view this page."
    )
    expect(phone.get_by_test_id("services-table")).to_have_count(0)


def test_an_owners_change_to_a_published_service_waits_for_an_admin(browser, server):
    """Issue 18, finding 5: the owner's edit of their published service is kept for review;
    the public page shows the approved title until an admin approves the change."""
    from sqlmodel import Session

    from storefront.db import make_engine
    from storefront.models import Service, ServiceCapacity

    user_context = browser.new_context(base_url=server.url)
    admin_context = browser.new_context(base_url=server.url)
    try:
        user_page, admin_page = user_context.new_page(), admin_context.new_page()
        owner_id = _signed_in(user_page, server, "user")
        _signed_in(admin_page, server, "admin")
        title, slug = f"Candy Floss {uuid.uuid4().hex[:5]}", f"review-{uuid.uuid4().hex[:8]}"
        engine = make_engine(server.database_url)
        with Session(engine) as session:
            service = Service(
                title=title,
                slug=slug,
                description="Candy floss for every guest.",
                price=Decimal("60.00"),
                status="published",
                user_id=uuid.UUID(owner_id),
            )
            session.add(service)
            session.flush()
            session.add(ServiceCapacity(service_id=service.id, total_units=1))
            session.commit()
            service_id = str(service.id)
        engine.dispose()

        user_page.goto(f"/services/edit/{service_id}")
        form = user_page.get_by_test_id("service-form")
        expect(form.get_by_label(sq("Title"))).to_have_value(title)
        form.get_by_label(sq("Title")).fill(title + " Deluxe")
        form.get_by_label(sq("Title")).press("Tab")
        user_page.get_by_test_id("save-service").click()
        expect(user_page.get_by_test_id("service-form-notice")).to_contain_text(
            sq(
                "Your changes are saved and wait for an admin's review. Until they are "
                "approved, the site shows the published version."
            )
        )
        user_page.goto(f"/services/{slug}")
        expect(user_page.get_by_role("heading", level=1, name=title, exact=True)).to_be_visible()

        admin_page.goto("/admin/services")
        admin_page.get_by_label("Search").fill(title)
        row = admin_page.get_by_test_id("service-row").filter(has_text=title)
        row.get_by_test_id("review-changes").click()
        dialog = admin_page.get_by_test_id("review-dialog")
        change = dialog.get_by_test_id("review-change")
        expect(change).to_have_count(1)
        expect(change).to_contain_text("Title")
        expect(change).to_contain_text(title + " Deluxe")
        dialog.get_by_test_id("approve-changes").click()
        expect(admin_page.get_by_test_id("admin-notice")).to_have_text(
            "Changes approved: the service shows them now"
        )
        expect(row.get_by_test_id("review-changes")).to_have_count(0)

        user_page.goto(f"/services/{slug}")
        expect(user_page.get_by_role("heading", level=1, name=title + " Deluxe")).to_be_visible()
    finally:
        user_context.close()
        admin_context.close()
