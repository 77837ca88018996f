"""The back office in both languages (issue 21): English at /admin by default, Albanian at
/sq/admin once the admin chooses it on their profile; the admin pages send an admin to the
language they chose, and its messages answer in it."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect
from sqlmodel import Session

from storefront.db import make_engine
from storefront.models import User
from storefront.services import auth

pytestmark = pytest.mark.e2e


def _signed_in_admin(page, server) -> None:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        user = User(email=f"admin-{uuid.uuid4().hex[:8]}@example.com", role="admin")
        session.add(user)
        session.flush()
        token = auth.create_session(session=session, user_id=user.id, remember=False)
        session.commit()
    engine.dispose()
    host = server.url.split("//")[1].split(":")[0]
    page.context.add_cookies(
        [{"name": auth.COOKIE_NAME, "value": token, "domain": host, "path": "/"}]
    )


def test_an_admin_screen_in_english_then_in_albanian(page, server):
    _signed_in_admin(page, server)
    page.goto("/admin/users")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page).to_have_title(re.compile(r"^User Management"))

    # The Albanian edition of an admin page sends an admin who chose English to English...
    page.goto("/sq/admin/bookings")
    expect(page).to_have_url(re.compile(r"/admin/bookings$"))
    expect(page).not_to_have_url(re.compile(r"/sq/admin"))

    # ...until they choose Albanian on their profile.
    page.goto("/account/profile")
    page.get_by_test_id("back-office-language").select_option("sq")
    expect(page.get_by_text("Profile updated successfully!")).to_be_visible()
    page.goto("/admin/users")
    expect(page).to_have_url(re.compile(r"/sq/admin/users$"))
    expect(page.locator("html")).to_have_attribute("lang", "sq")
    expect(page).to_have_title(re.compile(r"^Menaxhimi i përdoruesve"))
