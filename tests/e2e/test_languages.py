"""Every page has an address per language, served prerendered in that language, linking the
other (issue 21): `<html lang>`, the canonical address and the `hreflang` alternates of each
page, the sitemap, and the header's switch that keeps the page and remembers the choice.

The HTTP tests need only the server (they run without Chromium); the switch is tried in the
browser."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import httpx
import pytest
from playwright.sync_api import expect

from storefront import i18n, routes
from tests.e2e.helpers import sq

# Every page with one address of its own, public and sign-in, and the account's, as the registry
# declares them (storefront/routes.py: plain data, so the test process builds nothing of the
# app). The not-found page's own address answers 404 (api/addresses.py).
STATIC_PAGES = [
    page.route
    for page in routes.pages(access="public", own_address=True)
    if page.route != routes.NOT_FOUND
]
ACCOUNT_ROUTES = [page.route for page in routes.pages(access="account", own_address=True)]
LANG = re.compile(r'<html[^>]*\blang="([^"]+)"')
LINK = re.compile(r"<link\b[^>]*>")


def _links(html: str) -> list[dict[str, str]]:
    return [dict(re.findall(r'([\w-]+)="([^"]*)"', tag)) for tag in LINK.findall(html)]


def _get(server, path: str) -> httpx.Response:
    return httpx.get(server.url + path, timeout=30)


def _absolute(base: str, path: str) -> str:
    return base.rstrip("/") + path


@pytest.mark.parametrize("route", STATIC_PAGES)
def test_every_page_has_both_addresses_with_its_language_and_alternates(server, route):
    expected = {lang: _absolute(server.site_url, i18n.href(route, lang)) for lang in i18n.LANGUAGES}
    expected["x-default"] = expected[i18n.DEFAULT]
    for lang in i18n.LANGUAGES:
        path = i18n.href(route, lang)
        answer = _get(server, path)
        assert answer.status_code == 200, path
        html = answer.text
        assert LANG.search(html).group(1) == lang, path
        links = _links(html)
        canonical = [link["href"] for link in links if link.get("rel") == "canonical"]
        assert canonical == [expected[lang]], path
        alternates = {
            link["hreflang"]: link["href"] for link in links if link.get("rel") == "alternate"
        }
        assert alternates == expected, path


@pytest.mark.parametrize("route", ACCOUNT_ROUTES)
def test_account_pages_exist_in_both_languages(server, route):
    for lang in i18n.LANGUAGES:
        answer = _get(server, i18n.href(route, lang))
        assert answer.status_code == 200
        assert LANG.search(answer.text).group(1) == lang


def test_the_english_edition_is_english_before_any_script_runs(server):
    """Static text is compiled into each language's page: no flash of the other language."""
    english = _get(server, "/en/services").text
    default = _get(server, "/services").text
    assert ">English<" in default and ">Shqip<" in english  # the switch names the other
    assert sq("Event Tables") in default and "Event Tables" in english


def test_the_sitemap_lists_every_page_in_both_languages(server):
    answer = _get(server, "/sitemap.xml")
    assert answer.status_code == 200
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    root = ElementTree.fromstring(answer.content)
    entries = {
        url.findtext("s:loc", namespaces=ns): {
            link.get("hreflang"): link.get("href") for link in url.findall("x:link", ns)
        }
        for url in root.findall("s:url", ns)
    }
    base = server.url
    for default, english in (
        ("/", "/en"),
        ("/contact", "/en/contact"),
        ("/services/mascots", "/en/services/mascots"),
        ("/services/enchanted-princess", "/en/services/enchanted-princess"),
    ):
        pair = {"sq": _absolute(base, default), "en": _absolute(base, english)}
        pair["x-default"] = pair["sq"]
        assert entries[pair["sq"]] == pair
        assert entries[pair["en"]] == pair


def test_the_switch_keeps_the_page_and_remembers_the_choice(page, server):
    page.goto("/services/mascots")
    page.get_by_test_id("language-en").first.click()
    expect(page).to_have_url(re.compile(r"/en/services/mascots$"))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    # A bookmark of the default edition opens in the chosen language...
    page.goto("/contact")
    expect(page).to_have_url(re.compile(r"/en/contact$"))
    # ...until the visitor switches back.
    page.get_by_test_id("language-sq").first.click()
    expect(page).to_have_url(re.compile(r"/contact$"))
    expect(page.locator("html")).to_have_attribute("lang", "sq")
    page.goto("/services")
    expect(page).to_have_url(re.compile(r"/services$"))


def test_the_switch_on_a_service_page_opens_the_same_service(page, server):
    """A service page's address holds its slug: the switch finds it from where it was clicked."""
    page.goto("/services/enchanted-princess")
    expect(page.get_by_test_id("theme")).to_be_visible()
    page.get_by_test_id("language-en").first.click()
    expect(page).to_have_url(re.compile(r"/en/services/enchanted-princess$"))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_test_id("theme")).to_be_visible()


def _catalogue_texts(lang: str) -> dict:
    """What the demo catalogue's /services, mascots and theme pages say in `lang`: the seed's
    texts (seed/catalog.py in the default edition, seed/catalog_en.py in English)."""
    from storefront.seed import catalog, catalog_en

    services = {s["slug"]: s for s in catalog.SERVICES}
    # The four with a page of their own, by their name in the default edition (the order of
    # services/catalog.list_categories, in both editions).
    categories = sorted(
        (c for c in catalog.CATEGORIES if c["slug"] != "themed-decorations"),
        key=lambda c: c["name"],
    )
    princess, theme = services["mascot-ice-princess"], services["enchanted-princess"]
    if lang == i18n.DEFAULT:
        return {
            "categories": [c["name"] for c in categories],
            "theme": theme["description"],
            "short": princess["meta"]["short_description"],
            "full": princess["meta"]["full_description"],
            "suitable_for": princess["meta"]["suitable_for"],
            "age": theme["meta"]["age"],
            "features": theme["meta"]["features"],
        }
    english = catalog_en.SERVICES
    return {
        "categories": [catalog_en.CATEGORIES[c["slug"]]["name"] for c in categories],
        "theme": english["enchanted-princess"]["description"],
        "short": english["mascot-ice-princess"]["details"]["short_description"],
        "full": english["mascot-ice-princess"]["details"]["full_description"],
        "suitable_for": english["mascot-ice-princess"]["details"]["suitable_for"],
        "age": english["enchanted-princess"]["details"]["age"],
        "features": english["enchanted-princess"]["details"]["features"],
    }


@pytest.mark.parametrize("lang", [i18n.DEFAULT, "en"])
def test_the_catalogue_reads_in_the_language_of_the_edition(page, server, lang):
    """Issue 34: the default edition's /services, mascots and theme pages are Albanian (the
    categories, a mascot's texts, a theme's description, tiles and features), and /en shows
    the same pages in English."""
    texts = _catalogue_texts(lang)
    prefix = "" if lang == i18n.DEFAULT else "/en"
    if lang == i18n.DEFAULT:
        assert texts["categories"] == ["Bouncerë", "Dasma magjike", "Maskotat", "Tavolina dasme"]
        assert texts["suitable_for"][0] == sq("Birthday Parties")
    else:
        assert texts["full"].startswith("Our Ice Princess")

    page.goto(prefix + "/services")
    expect(page.get_by_test_id("category-card").locator("h2")).to_have_text(texts["categories"])
    theme_card = page.get_by_test_id("theme-card").filter(has_text="Enchanted Princess")
    expect(theme_card).to_contain_text(texts["theme"])

    page.goto(prefix + "/services/mascots")
    slide = page.locator('[data-testid="mascot-carousel-slide"][data-active="true"]')
    expect(slide.get_by_test_id("mascot-name")).to_have_text("Ice Princess")
    expect(slide).to_contain_text(texts["short"])
    slide.get_by_test_id("mascot-details").click()
    modal = page.get_by_test_id("mascot-modal")
    expect(modal.get_by_test_id("mascot-modal-description")).to_have_text(texts["full"])
    expect(modal.get_by_test_id("mascot-modal-suitable-for").get_by_role("listitem")).to_have_text(
        texts["suitable_for"]
    )
    modal.get_by_test_id("mascot-modal-close").click()

    page.goto(prefix + "/services/enchanted-princess")
    theme = page.get_by_test_id("theme")
    expect(theme.get_by_role("heading", level=1)).to_have_text("Enchanted Princess")
    expect(theme).to_contain_text(texts["theme"])
    expect(theme.get_by_text(texts["age"], exact=True)).to_be_visible()
    theme.get_by_role("tab", name=sq("Features", lang)).click()
    expect(theme.get_by_test_id("theme-tab-panel").get_by_role("listitem")).to_have_text(
        [f"✓ {feature}" for feature in texts["features"]]
    )
