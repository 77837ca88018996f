"""Accounts in a real browser: sign up, sign out, sign in with redirectTo, reset password by
mail, avatar upload, and the guard on /admin."""

import io
import os
import re
import uuid

import pytest
from PIL import Image
from playwright.sync_api import expect
from sqlalchemy import text
from sqlmodel import Session

from storefront.db import make_engine
from tests.e2e.helpers import sign_in as _sign_in
from tests.e2e.helpers import sign_up as _sign_up
from tests.e2e.helpers import sq

pytestmark = pytest.mark.e2e


def _sql(server, statement: str) -> None:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        session.exec(text(statement))
        session.commit()
    engine.dispose()


def _email() -> str:
    return f"guest-{uuid.uuid4().hex[:8]}@example.com"


def test_admin_as_a_guest_lands_on_sign_in(page):
    page.goto("/admin")
    expect(page).to_have_url(re.compile(r"/sign-in\?redirectTo=/admin$"))
    expect(page.get_by_role("heading", name=sq("Admin Login"))).to_be_visible()


def test_first_sign_up_becomes_admin_then_sign_out_and_in_with_redirect(page, server):
    _sql(server, "DELETE FROM users")
    email = _email()
    _sign_up(page, email)
    expect(page.get_by_test_id("auth-success")).to_have_text(
        sq("Registration successful! You are now an admin.")
    )
    expect(page).to_have_url(re.compile(r"/admin/?$"), timeout=10000)
    expect(page.get_by_test_id("admin-home")).to_be_visible()

    page.get_by_test_id("desktop-nav").get_by_test_id("sign-out").click()
    expect(
        page.get_by_test_id("desktop-nav").get_by_role("link", name=sq("Sign In"))
    ).to_be_visible()
    page.goto("/account")
    expect(page).to_have_url(re.compile(r"/sign-in\?redirectTo=/account$"))

    _sign_in(page, email, redirect="/account")
    expect(page).to_have_url(re.compile(r"/account/?$"))
    expect(page.get_by_test_id("account-overview")).to_contain_text(email)
    expect(
        page.get_by_test_id("desktop-nav").get_by_role("link", name=sq("Dashboard"))
    ).to_be_visible()
    expect(page.get_by_test_id("desktop-nav").get_by_role("link", name=sq("Admin"))).to_be_visible()


def _ensure_an_admin(server) -> None:
    """So that the next sign-up is not the very first account."""
    _sql(
        server,
        "INSERT INTO users (id, email, role, created_at, updated_at) "
        f"SELECT '{uuid.uuid4().hex}', 'owner-{uuid.uuid4().hex[:6]}@example.com', 'admin', "
        "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP "
        "WHERE NOT EXISTS (SELECT 1 FROM users WHERE role = 'admin')",
    )


def test_second_account_is_not_admin(page, server):
    _ensure_an_admin(server)
    email = _email()
    _sign_up(page, email)
    expect(page.get_by_test_id("auth-success")).to_have_text(sq("Registration successful!"))
    expect(page).to_have_url(re.compile(r"/account/?$"), timeout=10000)
    page.goto("/admin")
    # Signed in but not an admin: the spec's 'Access Denied', and nothing of the back office.
    expect(page.get_by_text("You must be an admin to view this page.")).to_be_visible()
    expect(page.get_by_role("link", name="Back to Site")).to_be_visible()
    expect(page.get_by_text("Total Users")).to_have_count(0)


def test_wrong_password_and_unknown_email_show_the_same_red_box(page, server):
    _ensure_an_admin(server)
    email = _email()
    _sign_up(page, email)
    expect(page).to_have_url(re.compile(r"/account/?$"), timeout=10000)
    page.get_by_test_id("desktop-nav").get_by_test_id("sign-out").click()
    expect(
        page.get_by_test_id("desktop-nav").get_by_role("link", name=sq("Sign In"))
    ).to_be_visible()
    _sign_in(page, email, "wrong password!")
    expect(page.get_by_test_id("auth-error")).to_have_text(sq("Invalid login credentials"))
    _sign_in(page, _email(), "wrong password!")
    expect(page.get_by_test_id("auth-error")).to_have_text(sq("Invalid login credentials"))


def test_reset_password_by_mail(page, server, mail_server):
    _ensure_an_admin(server)
    email = _email()
    _sign_up(page, email)
    expect(page).to_have_url(re.compile(r"/account/?$"), timeout=10000)
    page.get_by_test_id("desktop-nav").get_by_test_id("sign-out").click()
    expect(
        page.get_by_test_id("desktop-nav").get_by_role("link", name=sq("Sign In"))
    ).to_be_visible()

    before = len(mail_server.messages)
    page.goto("/reset-password")
    page.get_by_test_id("reset-request-form").get_by_label(sq("Email")).fill(email)
    page.get_by_role("button", name=sq("Send Reset Link")).click()
    expect(page.get_by_test_id("auth-success")).to_have_text(
        sq("Password reset link sent! Please check your email.")
    )
    expect(page.get_by_role("button", name=sq("Try a different email"))).to_be_visible()
    message = mail_server.wait_for(before + 1)[-1]
    assert message["To"] == email
    body = message.get_body(("plain",)).get_content()
    link = re.search(r"https?://\S+/reset-password\?type=recovery&token=\S+", body).group(0)

    new_password = "another long password"
    page.goto(link)
    form = page.get_by_test_id("new-password-form")
    form.get_by_label(sq("New Password"), exact=True).fill(new_password)
    form.get_by_label(sq("Confirm New Password")).fill(new_password)
    form.get_by_role("button", name=sq("Update Password")).click()
    expect(page.get_by_test_id("auth-success")).to_have_text(sq("Password updated successfully!"))
    expect(page).to_have_url(re.compile(r"/sign-in/?$"), timeout=10000)

    _sign_in(page, email, new_password, redirect="/account")
    expect(page).to_have_url(re.compile(r"/account/?$"))

    # The link works once only.
    page.get_by_test_id("desktop-nav").get_by_test_id("sign-out").click()
    expect(
        page.get_by_test_id("desktop-nav").get_by_role("link", name=sq("Sign In"))
    ).to_be_visible()
    page.goto(link)
    form = page.get_by_test_id("new-password-form")
    form.get_by_label(sq("New Password"), exact=True).fill("yet another password")
    form.get_by_label(sq("Confirm New Password")).fill("yet another password")
    form.get_by_role("button", name=sq("Update Password")).click()
    expect(page.get_by_test_id("auth-error")).to_be_visible()


def _png(size=(64, 64), colour=(200, 30, 120)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, format="PNG")
    return buffer.getvalue()


def test_profile_avatar_upload(page, server):
    _ensure_an_admin(server)
    email = _email()
    _sign_up(page, email, redirect="/account/profile")
    expect(page).to_have_url(re.compile(r"/account(/profile)?/?$"), timeout=10000)
    page.goto("/account/profile")
    page.get_by_test_id("avatar-input").locator("input[type=file]").set_input_files(
        {"name": "me.png", "mimeType": "image/png", "buffer": _png()}
    )
    page.get_by_test_id("avatar-upload").click()
    expect(page.get_by_test_id("profile-notice")).to_have_text(sq("Avatar updated successfully!"))
    expect(page.get_by_test_id("avatar-image")).to_have_attribute(
        "src", re.compile(r"/media/avatars/avatar-")
    )
    # the sent file leaves the picker before the next is chosen
    expect(page.get_by_test_id("avatar-chosen")).to_have_text("")
    page.get_by_test_id("avatar-input").locator("input[type=file]").set_input_files(
        {"name": "notes.png", "mimeType": "image/png", "buffer": b"this is not an image"}
    )
    page.get_by_test_id("avatar-upload").click()
    expect(page.get_by_test_id("avatar-error")).to_have_text(sq("Please upload an image file"))


def _noise_png(side: int = 800) -> bytes:
    """A real image of about 1.9 MB (noise does not compress), under the 2 MB avatar cap."""
    buffer = io.BytesIO()
    Image.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(buffer, format="PNG")
    return buffer.getvalue()


def _signed_up_on_profile(page, server) -> None:
    _ensure_an_admin(server)
    _sign_up(page, _email(), redirect="/account/profile")
    expect(page).to_have_url(re.compile(r"/account(/profile)?/?$"), timeout=10000)
    page.goto("/account/profile")


def test_avatar_progress_rises_while_the_file_is_sent(page, server):
    data = _noise_png()
    assert 1_800_000 < len(data) < 2 * 1024 * 1024
    _signed_up_on_profile(page, server)
    page.get_by_test_id("avatar-input").locator("input[type=file]").set_input_files(
        {"name": "big.png", "mimeType": "image/png", "buffer": data}
    )
    # About 6 seconds to send it.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": 320_000},
    )
    button = page.get_by_test_id("avatar-upload")
    button.click()
    bar = page.get_by_test_id("avatar-progress")
    expect(bar).to_be_visible(timeout=1500)
    expect(button).to_be_disabled()
    expect(page.get_by_test_id("profile-notice")).to_have_count(0)  # still sending
    first = int(bar.get_attribute("value"))
    page.wait_for_function(
        "([el, v]) => Number(el.value) > v", arg=[bar.element_handle(), first], timeout=3000
    )
    expect(page.get_by_test_id("profile-notice")).to_have_count(0)
    assert int(bar.get_attribute("value")) <= 90  # held at 90% until done
    expect(page.get_by_test_id("profile-notice")).to_have_text(
        sq("Avatar updated successfully!"), timeout=20000
    )
    expect(bar).to_have_count(0)
    expect(button).to_be_disabled()  # nothing chosen any more


DROP_FILES = """
([zone, files]) => {
  const transfer = new DataTransfer();
  for (const [name, type] of files) transfer.items.add(new File(["not an image"], name, {type}));
  for (const kind of ["dragenter", "dragover", "drop"]) {
    zone.dispatchEvent(new DragEvent(kind, {bubbles: true, cancelable: true, dataTransfer: transfer}));
  }
}
"""


def test_avatar_picker_takes_one_image_and_names_what_is_wrong(page, server):
    _signed_up_on_profile(page, server)
    zone = page.get_by_test_id("avatar-input")
    picker = zone.locator("input[type=file]")
    assert picker.evaluate("el => el.multiple") is False
    button = page.get_by_test_id("avatar-upload")
    expect(button).to_be_disabled()  # nothing chosen yet

    picker.set_input_files({"name": "notes.txt", "mimeType": "text/plain", "buffer": b"hello"})
    error = page.get_by_test_id("avatar-error")
    expect(error).to_have_text(sq("Please upload an image file"))
    expect(page.get_by_text("Files not Accepted")).to_have_count(0)
    expect(button).to_be_disabled()

    page.evaluate(DROP_FILES, [zone.element_handle(), [["cv.pdf", "application/pdf"]]])
    expect(error).to_have_text(sq("Please upload an image file"))
    page.evaluate(
        DROP_FILES, [zone.element_handle(), [["a.png", "image/png"], ["b.png", "image/png"]]]
    )
    expect(error).to_have_text(sq("Please upload only one image at a time"))
    expect(page.get_by_text("Files not Accepted")).to_have_count(0)

    picker.set_input_files({"name": "me.png", "mimeType": "image/png", "buffer": _png()})
    expect(error).to_have_count(0)
    expect(button).to_be_enabled()


def test_the_account_tabs_mark_the_page_shown(page, server):
    _ensure_an_admin(server)
    _sign_up(page, _email())
    expect(page).to_have_url(re.compile(r"/account/?$"), timeout=10000)
    tabs = page.get_by_test_id("account-tabs")
    expect(tabs.get_by_role("link", name=sq("Dashboard"))).to_have_attribute("aria-current", "page")
    tabs.get_by_role("link", name=sq("Profile")).click()
    expect(page).to_have_url(re.compile(r"/account/profile/?$"))
    expect(tabs.get_by_role("link", name=sq("Profile"))).to_have_attribute("aria-current", "page")
    expect(tabs.get_by_role("link", name=sq("Dashboard"))).not_to_have_attribute(
        "aria-current", "page"
    )


def test_with_no_admin_a_signed_in_user_names_the_first_admin(page, server):
    _ensure_an_admin(server)
    email = _email()
    _sign_up(page, email)
    expect(page).to_have_url(re.compile(r"/account/?$"), timeout=10000)
    page.goto("/admin")
    # An admin exists: the admin area is closed, and says so (docs/product.md §6).
    expect(page.get_by_test_id("access-denied")).to_contain_text(
        "You must be an admin to view this page."
    )
    expect(page.get_by_test_id("first-admin-setup")).to_have_count(0)
    _sql(server, "UPDATE users SET role = 'user' WHERE role = 'admin'")
    page.goto("/admin")
    setup = page.get_by_test_id("first-admin-setup")
    expect(setup.get_by_label("Setup code")).to_have_count(0)  # loopback: the spec's screen
    setup.get_by_role("button", name="Make First Admin").click()
    expect(page.get_by_test_id("first-admin-error")).to_have_text("Please enter an email address")
    setup.get_by_placeholder("Email of an existing user").fill(email)
    setup.get_by_role("button", name="Make First Admin").click()
    expect(page.get_by_test_id("first-admin-notice")).to_have_text("First admin set successfully!")
    expect(page.get_by_test_id("admin-home")).to_be_visible()
    expect(page.get_by_test_id("desktop-nav").get_by_role("link", name="Admin")).to_be_visible()
