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
from storefront.services.accounts import auth
from tests.e2e.helpers import sq

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
    expect(page.get_by_text(sq("Profile updated successfully!"))).to_be_visible()
    page.goto("/admin/users")
    expect(page).to_have_url(re.compile(r"/sq/admin/users$"))
    expect(page.locator("html")).to_have_attribute("lang", "sq")
    expect(page).to_have_title(re.compile(r"^Menaxhimi i përdoruesve"))


def _english_words() -> dict[str, str]:
    """What the back office says in English where the Albanian one has words of its own: every
    string of the back office's catalog (and the shared ones) whose Albanian differs, with it."""
    from babel.messages.pofile import read_po

    from storefront import i18n

    with i18n.po_path("sq", "office").open("rb") as source:
        catalog = read_po(source, locale="sq_XK", domain="office")
    return {
        m.id: m.string
        for m in catalog
        if isinstance(m.id, str) and m.id and m.string and m.string != m.id and len(m.id) > 2
    }


TEXTS = """() => {
  const seen = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!el || el.closest('script,style,noscript')) continue;
    const text = walker.currentNode.textContent.trim();
    if (text) seen.push(text);
  }
  for (const el of document.querySelectorAll('[aria-label],[placeholder],[title]')) {
    for (const name of ['aria-label', 'placeholder', 'title']) {
      const value = (el.getAttribute(name) || '').trim();
      if (value) seen.push(value);
    }
  }
  return seen;
}"""


def test_the_albanian_back_office_has_no_english_left(page, server):
    """Every screen of the back office at /sq/admin, read as a person would (text, labels,
    placeholders, menus): no string of the back office's catalog is left in English."""
    from tests.e2e.test_admin_ops_forged import _booking

    booking_id, _reference = _booking(server)
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        from sqlmodel import select

        from storefront.models import BookingItem

        service_id = session.exec(
            select(BookingItem.service_id).where(BookingItem.booking_id == uuid.UUID(booking_id))
        ).first()
    engine.dispose()
    _signed_in_admin(page, server)
    page.goto("/account/profile")
    page.get_by_test_id("back-office-language").select_option("sq")
    expect(page.get_by_text(sq("Profile updated successfully!"))).to_be_visible()
    english = _english_words()
    _forget_data_words(english, server)
    screens = [
        "/sq/admin",
        "/sq/admin/users",
        "/sq/admin/services",
        "/sq/admin/services/create",
        f"/sq/admin/services/edit/{service_id}",
        f"/sq/admin/services/availability/{service_id}",
        "/sq/admin/bookings",
        "/sq/admin/bookings/calendar",
        f"/sq/admin/bookings/edit/{booking_id}",
        "/sq/admin/banners",
        "/sq/admin/settings",
        "/sq/admin/audit",
    ]
    left: dict[str, list[str]] = {}
    for screen in screens:
        page.goto(screen)
        expect(page.locator("html")).to_have_attribute("lang", "sq")
        expect(page.locator("main")).to_be_visible()
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(300)  # what the page's first events fill in
        found = sorted({t for t in page.evaluate(TEXTS) if t in english})
        if found:
            left[screen] = found
    # Tests of other files may add services and bookings on this server meanwhile: their
    # names are data too.
    _forget_data_words(english, server)
    left = {screen: [t for t in found if t in english] for screen, found in left.items()}
    left = {screen: found for screen, found in left.items() if found}
    assert not left, f"English on the Albanian back office: {left}"


def _forget_data_words(english: dict, server) -> None:
    """The catalogue's own content (category names such as 'Mascots') is data in the default
    edition's words, not a string of the catalogs: it is not English left over. So are
    services' titles and booked lines' names (kept in the language a booking was placed in: an
    English customer's 'Package' is their booking's own word), word by word too."""
    from sqlmodel import select

    from storefront.models import BookingItem, Service, ServiceCategory

    engine = make_engine(server.database_url)
    with Session(engine) as session:
        for column in (ServiceCategory.name, Service.title, BookingItem.service_name):
            for name in session.exec(select(column)).all():
                english.pop(name, None)
                # The dashboard's chart wraps a long name on its axis, a word a line.
                for word in str(name or "").split():
                    english.pop(word, None)
    engine.dispose()
