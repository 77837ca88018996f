"""Each page's address per language, and the switch that remembers the choice
(storefront/i18n.py, storefront/api/language.py)."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from storefront import i18n
from storefront.api import language


def test_every_page_has_an_address_per_language():
    assert i18n.href("/cart", "en") == "/en/cart"
    assert i18n.href("/", "en") == "/en"
    assert i18n.href("/?a=1", "en") == "/en?a=1"
    assert i18n.href("/cart", "sq") == "/cart"
    assert i18n.split("/en/services/mascots") == ("en", "/services/mascots")
    assert i18n.split("/en") == ("en", "/")
    assert i18n.split("/entertainment") == ("sq", "/entertainment")
    assert i18n.in_language("/en/booking-confirmation/x?key=k", "sq") == (
        "/booking-confirmation/x?key=k"
    )
    assert i18n.in_language("/services/x", "en") == "/en/services/x"


def test_addresses_that_are_not_pages_of_an_edition_stay():
    for path in ("/api/auth/sign-out", "/media/a.webp", "/sitemap.xml", "/admin/users", "/admin"):
        assert i18n.href(path, "en") == path
    with i18n.using("en"):
        assert i18n.href("/contact") == "/en/contact"
    assert i18n.href("/contact") == "/contact"


def _app() -> TestClient:
    async def page(request):
        return PlainTextResponse(request.url.path)

    app = Starlette(routes=[*language.routes, Route("/{path:path}", page)])
    return TestClient(language.remembered_language(app), follow_redirects=False)


def test_the_switch_remembers_the_choice_and_keeps_the_page():
    client = _app()
    answer = client.get("/api/language/en", params={"next": "/services/mascots"})
    assert answer.status_code == 303
    assert answer.headers["location"] == "/en/services/mascots"
    assert "sf_lang=en" in answer.headers["set-cookie"]
    back = client.get("/api/language/sq", params={"next": "/en/cart"})
    assert back.headers["location"] == "/cart"
    assert "sf_lang=sq" in back.headers["set-cookie"]


def test_the_switch_finds_the_page_from_where_it_was_clicked_and_never_leaves_the_site():
    client = _app()
    came_from = "http://testserver/booking-confirmation/abc?key=k1"
    answer = client.get("/api/language/en", headers={"referer": came_from})
    assert answer.headers["location"] == "/en/booking-confirmation/abc?key=k1"
    elsewhere = client.get("/api/language/en", headers={"referer": "https://evil.example/x"})
    assert elsewhere.headers["location"] == "/en"
    for target in ("//evil.example/x", "https://evil.example", "/\\evil"):
        assert client.get("/api/language/en", params={"next": target}).headers["location"] == "/en"
    assert client.get("/api/language/xx").headers["location"] == "/"


def test_a_chosen_language_is_followed_and_a_first_visit_is_not_moved():
    client = _app()
    first = client.get("/services", headers={"accept-language": "en-US,en;q=0.9"})
    assert first.status_code == 200 and first.text == "/services"
    client.cookies.set("sf_lang", "en")
    moved = client.get("/services/mascots?x=1")
    assert moved.status_code == 307
    assert moved.headers["location"] == "/en/services/mascots?x=1"
    assert client.get("/en/cart").status_code == 200
    # The back office and the API have one address for every language.
    assert client.get("/admin/users").status_code == 200
    assert client.get("/api/health").status_code == 200
    client.cookies.set("sf_lang", "sq")
    assert client.get("/en/cart").headers["location"] == "/cart"


def test_a_page_the_build_could_not_make_ahead_gets_its_language():
    """A service's page is answered by the build's fallback page, prerendered in the default
    edition: under /en its <html lang> is set on the way out, gzip or not."""
    import gzip

    from starlette.responses import Response

    fallback = b'<!DOCTYPE html><html lang="sq"><head></head><body>x</body></html>'

    async def page(request):
        if request.query_params.get("gz"):
            return Response(
                gzip.compress(fallback),
                media_type="text/html",
                headers={"content-encoding": "gzip"},
            )
        return Response(fallback, media_type="text/html")

    app = Starlette(routes=[Route("/{path:path}", page)])
    client = TestClient(language.remembered_language(app), follow_redirects=False)
    assert '<html lang="en">' in client.get("/en/services/enchanted-princess").text
    assert '<html lang="en">' in client.get("/en/services/x", params={"gz": 1}).text
    assert '<html lang="sq">' in client.get("/services/enchanted-princess").text


def test_the_back_office_has_its_own_editions():
    """English (the product's copy) at /admin, Albanian at /sq/admin; the site's editions do
    not move it."""
    assert i18n.href("/admin/users", "en") == "/admin/users"
    assert i18n.href("/admin/users", "sq") == "/sq/admin/users"
    assert i18n.split("/sq/admin/bookings?page=2") == ("sq", "/admin/bookings?page=2")
    assert i18n.split("/admin") == ("en", "/admin")
    assert i18n.in_language("/sq/admin", "en") == "/admin"
    assert i18n.language_of("/administrator") == i18n.DEFAULT  # a page of the site, not /admin
    client = _app()
    client.cookies.set("sf_lang", "en")
    assert client.get("/sq/admin/users").status_code == 200  # the site's cookie: not here
