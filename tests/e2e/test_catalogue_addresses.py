"""Issue 34, item 9, over HTTP against the production build: an old slug of a service answers
301 from the server, before any page, to the service's address now (same edition, query kept);
an address of a service, theme or booking screen that leads nowhere answers 404 with the site's
own not-found page in the edition's language; the current addresses answer 200 as before; the
sitemap names no old slug. And in Chromium, the 404 page reads right in Albanian."""

from __future__ import annotations

import re
import uuid

import httpx
import pytest
from playwright.sync_api import expect

from storefront.models import ServiceSlugRedirect
from tests.e2e.helpers import read, sq
from tests.factories import make_service
from tests.open_redirects import OFF_SITE, stays_on_site

pytestmark = pytest.mark.e2e
THEME = "jungle-safari"  # a theme of the demo catalogue


def _renamed(*, session):
    """A published plain service that had another slug before; returns (id, old, new)."""
    service = make_service(session, title=f"Bubble dome {uuid.uuid4().hex[:6]}")
    old = service.slug
    service.slug = old + "-renamed"
    session.add(service)
    session.add(ServiceSlugRedirect(old_slug=old, service_id=service.id))
    session.commit()
    return str(service.id), old, service.slug


def _draft(*, session):
    service = make_service(session, title=f"Unpublished dome {uuid.uuid4().hex[:6]}")
    service.status = "draft"
    session.add(service)
    session.commit()
    return str(service.id), service.slug


@pytest.fixture(scope="module")
def renamed(server):
    return read(server, _renamed)


def _get(server, path: str, method: str = "GET", params=None) -> httpx.Response:
    with httpx.Client(base_url=server.url, follow_redirects=False, timeout=20) as client:
        return client.request(method, path, params=params)


@pytest.mark.parametrize("edition", ["", "/en"])
def test_an_old_slug_answers_301_to_the_address_of_now(server, renamed, edition):
    _id, old, new = renamed
    for asked, moved_to in [
        (f"{edition}/services/{old}", f"{edition}/services/{new}"),
        (
            f"{edition}/services/{old}?utm_source=mail&a=1",
            f"{edition}/services/{new}?utm_source=mail&a=1",
        ),
        (f"{edition}/services/{old}/book", f"{edition}/services/{new}/book"),
        (
            f"{edition}/services/{old}/book?x=%2F%2Fevil",
            f"{edition}/services/{new}/book?x=%2F%2Fevil",
        ),
        (f"{edition}/themes/{old}", f"{edition}/services/{new}"),
    ]:
        for method in ("GET", "HEAD"):
            response = _get(server, asked, method)
            assert response.status_code == 301, (method, asked, response.status_code)
            assert response.headers["location"] == moved_to, (method, asked)
            assert "max-age" in response.headers["cache-control"]
        # Where it leads is served.
        assert _get(server, moved_to).status_code == 200, moved_to


@pytest.mark.parametrize("edition", ["", "/en"])
def test_current_addresses_answer_200_as_before(server, renamed, edition):
    service_id, _old, new = renamed
    for path in [
        f"{edition}/services/{new}",
        f"{edition}/services/{service_id}",
        f"{edition}/services/{new}/book",
        f"{edition}/services/{service_id}/book",
        f"{edition}/themes/{THEME}",
        f"{edition}/services/{THEME}",
        f"{edition}/services/mascots",
        f"{edition}/services",
    ]:
        response = _get(server, path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].startswith("text/html")
    # The old spellings of the category pages still move to them (api/redirects.py).
    assert _get(server, "/services/Mascots").status_code == 301


@pytest.mark.parametrize(
    ("edition", "heading"),
    [("", sq("Page Not Found")), ("/en", "Page Not Found")],
)
def test_an_address_that_leads_nowhere_answers_404_with_the_not_found_page(
    server, edition, heading
):
    _draft_id, draft = read(server, _draft)
    for path in [
        f"{edition}/services/no-such-service",
        f"{edition}/services/00000000-0000-4000-8000-000000000000",
        f"{edition}/themes/no-such-theme",
        f"{edition}/services/no-such-service/book",
        f"{edition}/services/{draft}",
        f"{edition}/services/{draft}/book",
        f"{edition}/services/not-a-uuid-%3Cb%3E/book",
        f"{edition}/services/bad%20id",
        f"{edition}/not-found",
    ]:
        response = _get(server, path)
        assert response.status_code == 404, (path, response.status_code)
        assert response.headers["content-type"].startswith("text/html")
        html = response.text
        lang = "en" if edition else "sq"
        assert f'<html lang="{lang}"' in html, path
        assert f">{heading}</h1>" in html, path
        assert "content-security-policy" in response.headers
        head = _get(server, path, "HEAD")
        assert head.status_code == 404 and head.content == b"", path


def test_the_sitemap_names_no_old_slug(server, renamed):
    _id, old, new = renamed
    sitemap = _get(server, "/sitemap.xml").text
    assert f"/services/{new}<" in sitemap
    assert f"/services/{old}<" not in sitemap


def test_a_catalogue_address_never_redirects_off_the_site(server, renamed):
    _id, old, _new = renamed
    for target in OFF_SITE:
        for path in (f"/services/{old}", f"/en/services/{old}/book", f"/themes/{old}"):
            response = _get(server, path, params={"next": target})
            assert response.status_code == 301
            assert stays_on_site(response.headers["location"], server.url), target
        # An address made of the list itself is no entry of the catalogue's to move.
        for path in ("/services/" + target, "/en/themes/" + target):
            try:
                response = _get(server, path)
            except httpx.InvalidURL:
                continue
            if response.is_redirect:
                assert stays_on_site(response.headers["location"], server.url), path


def test_the_not_found_page_reads_in_albanian_and_leads_home(page):
    page.goto("/services/no-such-service")
    missing = page.get_by_test_id("not-found")
    expect(missing.get_by_role("heading", name=sq("Page Not Found"))).to_be_visible()
    expect(
        missing.get_by_text(
            sq("Sorry, the page you are looking for does not exist or has been moved.")
        )
    ).to_be_visible()
    expect(page).to_have_title(re.compile("^" + re.escape(sq("Page Not Found"))))
    assert page.evaluate("document.documentElement.lang") == "sq"
    # The address asked for stays in the address bar: the page is the server's answer to it.
    expect(page).to_have_url(re.compile(r"/services/no-such-service$"))
    missing.get_by_role("link", name=sq("Back to Home")).click()
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_test_id("not-found")).to_have_count(0)


def test_the_english_not_found_page_reads_in_english(page):
    page.goto("/en/themes/no-such-theme")
    expect(page.get_by_role("heading", name="Page Not Found")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "en"
    expect(page.get_by_role("link", name="Back to Home")).to_have_attribute("href", "/en")
