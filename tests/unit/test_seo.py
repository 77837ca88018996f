"""What search engines read (services/catalog/seo.py): addresses, robots rules, opening hours and the
structured data's offers."""

import json
from decimal import Decimal
from xml.etree import ElementTree

from storefront.services import business
from storefront.services.catalog import seo
from storefront.services.catalog.public import ServiceView

BASE = "https://events.example"


def _service(price, image="/media/a.webp", title="Enchanted Princess"):
    return ServiceView(
        id="id-1",
        title=title,
        slug="enchanted-princess",
        description="A castle of pink.",
        price=Decimal(price) if price is not None else None,
        kind="theme",
        category_slug="themes",
        image_url=image,
    )


def test_a_pages_canonical_address_is_its_route_without_a_trailing_slash():
    assert seo.canonical_url("/", BASE) == BASE + "/"
    assert seo.canonical_url("/contact", BASE) == BASE + "/contact"
    assert seo.canonical_url("/services/magic-weddings/", BASE + "/") == (
        BASE + "/services/magic-weddings"
    )
    assert seo.detail_url("enchanted-princess", BASE) == BASE + "/services/enchanted-princess"


def test_robots_keeps_private_buying_and_api_addresses_out_and_names_the_sitemap():
    text = seo.robots_txt(BASE)
    for path in ("/admin", "/account", "/checkout", "/api/", "/booking-confirmation/"):
        assert f"Disallow: {path}\n" in text
    assert "Disallow: /services/*/book\n" in text
    assert "Disallow: /services\n" not in text
    assert text.endswith(f"Sitemap: {BASE}/sitemap.xml\n")


def test_sitemap_xml_is_valid_and_escapes_addresses():
    xml = seo.sitemap_xml([BASE + "/", BASE + "/a?b=1&c=2"])
    root = ElementTree.fromstring(xml.encode())
    locs = [el.text for el in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert locs == [BASE + "/", BASE + "/a?b=1&c=2"]


def test_opening_hours_are_read_from_the_settings_text():
    assert seo.opening_hours("Monday to Friday 9AM-6PM") == [
        {
            "@type": "OpeningHoursSpecification",
            "dayOfWeek": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
            "opens": "09:00",
            "closes": "18:00",
        }
    ]
    both = seo.opening_hours("Mon-Fri 08:30-17:00; Sat 10-2pm")
    assert [(h["dayOfWeek"][0], h["dayOfWeek"][-1], h["opens"], h["closes"]) for h in both] == [
        ("Monday", "Friday", "08:30", "17:00"),
        ("Saturday", "Saturday", "10:00", "14:00"),
    ]
    # What cannot be read is left out rather than guessed.
    assert seo.opening_hours("by appointment") == []
    assert seo.opening_hours("Monday 25:00-26:00") == []


def test_opening_hours_are_read_in_albanian_too():
    """The default edition's settings say the hours in Albanian (models.BusinessSettings); the
    search engines read the same hours as from the English."""
    english = seo.opening_hours("Monday to Friday 9AM-6PM")
    for text in (
        "E hënë - e premte 9:00-18:00",
        "e hene - e premte 09.00-18.00",
        "nga e hëna në të premten 9:00-18:00",
        "Nga e hëna deri të premten, ora 9:00 deri në 18:00",
    ):
        assert seo.opening_hours(text) == english, text
    both = seo.opening_hours("Hën-Pre 08:30-17:00; E shtunë 10-14")
    assert [(h["dayOfWeek"][0], h["dayOfWeek"][-1], h["opens"], h["closes"]) for h in both] == [
        ("Monday", "Friday", "08:30", "17:00"),
        ("Saturday", "Saturday", "10:00", "14:00"),
    ]
    assert seo.opening_hours("E diel: 10:00-14:00")[0]["dayOfWeek"] == ["Sunday"]
    assert seo.opening_hours("me termin") == []


def test_the_default_hours_of_both_editions_are_read():
    from storefront.models import BusinessSettings
    from storefront.models.operations import DEFAULT_ENGLISH

    row = BusinessSettings()
    assert row.opening_hours != DEFAULT_ENGLISH["opening_hours"]
    assert row.translations == {"en": DEFAULT_ENGLISH}
    assert (
        seo.opening_hours(row.opening_hours)
        == seo.opening_hours(row.translations["en"]["opening_hours"])
        != []
    )


def test_local_business_comes_from_the_business_settings():
    details = business.default_details()
    data = seo.local_business(details, BASE)
    assert data["@type"] == "LocalBusiness"
    assert (data["name"], data["telephone"]) == (details.name, details.phone)
    assert data["address"]["streetAddress"] == details.address
    assert data["openingHoursSpecification"][0]["opens"] == "09:00"


def test_one_service_has_an_offer_and_several_a_price_range_in_the_site_currency():
    page = seo.ProductPage("Princess", "Pink.", BASE + "/services/enchanted-princess")
    one = seo.product(page, [_service("599")], BASE)
    assert one["offers"] == {
        "@type": "Offer",
        "price": "599.00",
        "priceCurrency": "EUR",
        "availability": "https://schema.org/InStock",
        "url": page.url,
    }
    assert one["image"] == BASE + "/media/a.webp"
    many = seo.product(page, [_service("7"), _service("650"), _service(None)], BASE)
    assert many["offers"]["@type"] == "AggregateOffer"
    assert (many["offers"]["lowPrice"], many["offers"]["highPrice"]) == ("7.00", "650.00")
    assert many["offers"]["offerCount"] == 2
    assert seo.product(page, [_service(None)], BASE) is None


def test_json_ld_cannot_close_its_script():
    text = seo.json_ld([{"name": "</script><script>alert(1)</script>"}])
    assert "</script>" not in text
    assert json.loads(text)["name"] == "</script><script>alert(1)</script>"
    assert seo.json_ld([]) == ""
