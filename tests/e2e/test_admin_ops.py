"""The back office in Chromium, as a new admin would use it: find a guest's booking by its MG-
reference, open it, confirm it, see the status in the list and on the customer's confirmation
page, export the CSV; promote a user, who sees the Admin link after signing in again; every
admin screen fits a phone."""

import csv
import dataclasses
import io
import re
import time
import uuid

import httpx
import pytest
from playwright.sync_api import expect
from sqlalchemy import func
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import NotificationOutbox, User
from storefront.services.accounts import auth
from storefront.services.booking import admin as admin_bookings
from storefront.services.catalog import admin as catalog_admin
from storefront.services.messaging.links import sign_view_key
from tests.e2e.helpers import PASSWORD, sq
from tests.e2e.helpers import sign_in as _sign_in
from tests.e2e.helpers import sign_up as _sign_up
from tests.e2e.test_accounts import _email
from tests.e2e.test_admin_ops_forged import _booking
from tests.factories import make_service, signed_in_account

pytestmark = pytest.mark.e2e


def _admin(server) -> str:
    """A fresh admin account with a password; returns its email."""
    email = f"boss-{uuid.uuid4().hex[:8]}@example.com"
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        session.add(
            User(
                email=email,
                full_name="Boss",
                password_hash=auth.hash_password(PASSWORD),
                role="admin",
            )
        )
        session.commit()
    engine.dispose()
    return email


def _role(server, email: str) -> str | None:
    engine = make_engine(server.database_url)
    try:
        with Session(engine) as session:
            return session.exec(select(User.role).where(User.email == email)).first()
    finally:
        engine.dispose()


def _outbox_sent(server) -> None:
    """Wait until the server's outbox has sent what is due. On SQLite a sign-in's transaction
    that meets the outbox worker's write fails with 'database is locked' (reported; the
    sign-in and ticket transactions read before they write without taking the write lock)."""
    engine = make_engine(server.database_url)
    try:
        for _ in range(100):
            with Session(engine) as session:
                waiting = session.exec(
                    select(func.count())
                    .select_from(NotificationOutbox)
                    .where(NotificationOutbox.status == "pending")
                ).one()
            if not waiting:
                return
            time.sleep(0.2)
    finally:
        engine.dispose()


def test_an_admin_finds_confirms_and_exports_a_guests_booking(page, server):
    _outbox_sent(server)
    _sign_in(page, _admin(server), redirect="/admin")
    expect(page.get_by_test_id("admin-home")).to_be_visible(timeout=10000)
    booking_id, reference = _booking(server)
    page.get_by_test_id("admin-nav-bookings").click()

    page.get_by_label("Reference, email or phone").fill(reference)
    page.get_by_role("button", name="Search").click()
    # Search opens the filtered list's address; its on_load closes any open detail, so the
    # detail is opened only once that page is there (a fresh database may already show one row).
    expect(page).to_have_url(re.compile(r"/admin/bookings\?q=" + reference + "$"))
    row = page.get_by_test_id("booking-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(reference)
    expect(row).to_contain_text("Arta Krasniqi")  # the name typed at checkout
    expect(row.get_by_test_id("status-badge")).to_have_text("pending")

    row.get_by_role("button", name=f"View booking {reference}").click()
    detail = page.get_by_test_id("booking-detail")
    expect(detail).to_contain_text(reference)
    expect(detail.get_by_test_id("status-pending")).to_be_disabled()
    detail.get_by_test_id("status-confirmed").click()
    expect(page.get_by_test_id("admin-notice")).to_have_text("Booking status updated to confirmed")
    expect(detail.get_by_test_id("status-confirmed")).to_be_disabled()
    page.keyboard.press("Escape")
    expect(detail).to_have_count(0)
    expect(row.get_by_test_id("status-badge")).to_have_text("confirmed")

    # The CSV holds exactly the filtered list: this one booking.
    with page.expect_download() as download:
        page.get_by_test_id("booking-csv").click()
    rows = list(csv.reader(io.StringIO(open(download.value.path(), encoding="utf-8").read())))
    assert rows[0][:2] == ["Booking ID", "Reference"]
    assert [r[1] for r in rows[1:]] == [reference]
    assert rows[1][0] == booking_id[:8] and rows[1][9] == "confirmed"
    # The export is decided on the server: without an admin's cookie it answers 403.
    assert httpx.get(f"{server.url}/api/admin/bookings.csv").status_code == 403

    # The customer's confirmation page (the mail's signed link) shows the new status.
    customer = page.context.browser.new_context(base_url=server.url).new_page()
    customer.goto(f"/booking-confirmation/{booking_id}?key={sign_view_key(booking_id)}")
    expect(customer.get_by_test_id("confirmation-reference")).to_contain_text(reference)
    expect(customer.get_by_test_id("confirmation-status")).to_contain_text(sq("confirmed"))
    customer.context.close()


def test_a_promoted_user_sees_the_admin_link_after_signing_in_again(page, server, browser):
    email = _email()
    # An admin exists first: the first account of an empty system would be made admin itself.
    boss = _admin(server)
    _outbox_sent(server)
    _sign_up(page, email)
    expect(page).to_have_url(re.compile(r"/account/?$"), timeout=10000)
    nav = page.get_by_test_id("desktop-nav")
    expect(nav.get_by_role("link", name=sq("Admin"))).to_have_count(0)

    admin = browser.new_context(base_url=server.url, viewport={"width": 1280, "height": 900})
    admin_page = admin.new_page()
    _outbox_sent(server)
    _sign_in(admin_page, boss, redirect="/admin/users")
    admin_page.get_by_label("Search users").fill(email)
    admin_page.get_by_role("button", name="Search").click()
    row = admin_page.get_by_test_id("user-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Arta Krasniqi")
    # 'Make Admin' asks first, saying what it does (there is no demotion on screen).
    row.get_by_role("button", name="Make Admin").click()
    dialog = admin_page.get_by_test_id("make-admin-confirm")
    expect(dialog).to_contain_text(f"Make {email} an admin?")
    expect(dialog).to_contain_text("cannot take the admin role away again")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(row).to_contain_text("user")
    assert _role(server, email) == "user"
    row.get_by_role("button", name="Make Admin").click()
    expect(dialog).to_be_visible()
    dialog.get_by_test_id("make-admin-confirm-yes").click()
    expect(admin_page.get_by_test_id("admin-notice")).to_have_text(
        "User has been set as admin successfully!"
    )
    expect(dialog).to_have_count(0)
    assert _role(server, email) == "admin"
    expect(row.get_by_role("button", name="Make Admin")).to_have_count(0)
    admin.close()

    nav.get_by_test_id("sign-out").click()
    expect(nav.get_by_role("link", name=sq("Sign In"))).to_be_visible()
    _outbox_sent(server)
    _sign_in(page, email, redirect="/account")
    expect(page).to_have_url(re.compile(r"/account/?$"), timeout=10000)
    expect(nav.get_by_role("link", name=sq("Admin"))).to_be_visible()


ADMIN_SCREENS = [
    "/admin",
    "/admin/users",
    "/admin/bookings",
    "/admin/bookings/calendar",
    "/admin/settings",
    "/admin/role-debug",
    "/admin/audit",
]


def test_every_admin_screen_fits_a_phone(phone, server):
    _outbox_sent(server)
    _sign_in(phone, _admin(server), redirect="/admin")
    expect(phone.get_by_test_id("admin-home")).to_be_visible(timeout=10000)
    _booking(server)
    for path in ADMIN_SCREENS:
        phone.goto(path)
        expect(phone.locator("h1")).to_have_count(1)
        phone.wait_for_load_state("networkidle")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{path} is {width} px wide"


def test_an_admin_edits_then_deletes_a_booking(page, server):
    _outbox_sent(server)
    _sign_in(page, _admin(server), redirect="/admin")
    expect(page.get_by_test_id("admin-home")).to_be_visible(timeout=10000)
    booking_id, reference = _booking(server)
    page.goto(f"/admin/bookings/edit/{booking_id}")
    form = page.get_by_test_id("booking-edit-form")
    expect(form).to_contain_text(reference, timeout=10000)

    page.get_by_label("Phone *").fill("")
    form.get_by_test_id("edit-save").click()
    expect(page.get_by_test_id("admin-error")).to_have_text("Please fill in all required fields")

    page.get_by_label("Phone *").fill("+383 45 987 654")
    page.get_by_label("Quantity").fill("2")
    expect(form.get_by_test_id("line-subtotal")).to_have_text(re.compile(r"^€[\d,]+\.\d\d$"))
    form.get_by_test_id("edit-save").click()
    expect(page.get_by_test_id("admin-notice")).to_have_text("Booking updated successfully")
    expect(page).to_have_url(re.compile(r"/admin/bookings/?$"), timeout=5000)

    page.get_by_label("Reference, email or phone").fill("45 987 654")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_test_id("booking-row")).to_have_count(1)
    expect(page.get_by_test_id("booking-row")).to_contain_text(reference)

    page.goto(f"/admin/bookings/edit/{booking_id}")
    page.get_by_test_id("edit-delete").click()
    dialog = page.get_by_test_id("delete-dialog")
    expect(dialog).to_contain_text(
        "Are you sure you want to delete this booking? This action cannot be undone."
    )
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    page.get_by_test_id("edit-delete").click()
    page.get_by_test_id("confirm-delete").click()
    expect(page).to_have_url(re.compile(r"/admin/bookings/?$"), timeout=5000)
    page.get_by_label("Reference, email or phone").fill(reference)
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_test_id("bookings-empty")).to_be_visible()


def _committed(server, fn, **kwargs):
    """Call a service against the server's database and commit, as a screen's event would."""
    engine = make_engine(server.database_url)
    try:
        with Session(engine) as session:
            result = fn(session=session, **kwargs)
            session.commit()
            return result
    finally:
        engine.dispose()


def _priced_service(session, *, title: str) -> str:
    service = make_service(session, title=title, price="150.00")
    service.description = "A castle that bounces"  # the form requires one
    return str(service.id)


def test_the_audit_log_says_what_changed_in_words_and_names_the_entity(page, server):
    admin_id, email, token = signed_in_account(
        server.database_url, role="admin", password=PASSWORD, full_name="Audit Reader"
    )
    page.context.add_cookies([{"name": "sf_session", "value": token, "url": server.url}])
    title = f"Audit castle {uuid.uuid4().hex[:6]}"
    service_id = _committed(server, _priced_service, title=title)
    form = _committed(server, catalog_admin.load_form, actor_id=admin_id, service_id=service_id)
    _committed(
        server,
        catalog_admin.save_service,
        actor_id=admin_id,
        form=dataclasses.replace(form, price="200.00"),
        service_id=service_id,
    )
    booking_id, reference = _booking(server)
    _committed(
        server,
        admin_bookings.set_status,
        actor_id=admin_id,
        booking_id=booking_id,
        status="confirmed",
    )

    page.goto("/admin/audit")
    page.get_by_label("Actor email").fill(email)
    page.get_by_role("button", name="Filter").click()
    rows = page.get_by_test_id("audit-row")
    expect(rows).to_have_count(2)
    booking_row = rows.filter(has_text="Booking status changed")  # the action in words
    expect(booking_row).to_contain_text(f"Booking: {reference}")
    expect(booking_row.get_by_test_id("audit-changes")).to_have_text("Status: pending -> confirmed")
    service_row = rows.filter(has_text=title)
    expect(service_row).to_contain_text(f"Service: {title}")
    expect(service_row.get_by_test_id("audit-changes")).to_have_text("Price: €150.00 -> €200.00")
    # No raw JSON and no bare ids: the row's text names neither.
    for row in (booking_row, service_row):
        text = row.inner_text()
        assert "{" not in text and booking_id not in text and service_id not in text


def test_a_refused_setting_says_its_field_and_its_rule_beside_it(page, server):
    _admin_id, _email_address, token = signed_in_account(
        server.database_url, role="admin", password=PASSWORD, full_name="Settings Keeper"
    )
    page.context.add_cookies([{"name": "sf_session", "value": token, "url": server.url}])
    page.goto("/admin/settings")
    form = page.get_by_test_id("settings-form")
    # The fields are the server's: wait for the saved values before typing over them.
    expect(form.get_by_label("Business name")).not_to_have_value("", timeout=10000)
    saved_name = form.get_by_label("Business name").input_value()
    form.get_by_label("Phone", exact=True).fill("call the office")
    form.get_by_label("Email").fill("ana@example")  # the browser lets it through; not an address
    form.get_by_label("Minimum notice (hours)").fill("-3")
    form.get_by_test_id("settings-save").click()

    expect(page.get_by_test_id("admin-error")).to_have_text("Failed to save settings")
    expect(page.locator("#settings-phone-hint")).to_have_text(
        "Phone: use digits, spaces and a leading +, like +383 44 123 456, up to 64 characters"
    )
    expect(page.locator("#settings-email-hint")).to_have_text(
        "Email: enter one email address like name@example.com, up to 255 characters"
    )
    expect(page.locator("#settings-min_notice_hours-hint")).to_have_text(
        "Minimum notice (hours): enter whole hours from 0 to 720"
    )
    expect(form.get_by_label("Phone", exact=True)).to_have_attribute("aria-invalid", "true")
    # A field that was accepted keeps its hint.
    expect(page.locator("#settings-whatsapp_number-hint")).to_have_text(
        "Digits with the country code, e.g. +38344000000"
    )
    expect(form).not_to_contain_text("This value is not valid")
    assert form.get_by_label("Business name").input_value() == saved_name
