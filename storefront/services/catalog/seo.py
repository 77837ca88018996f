"""What search engines and link previews read: canonical addresses, the sitemap, the robots
rules and the structured data (schema.org JSON-LD) of a page. Plain Python; the page heads,
the SEO state and the `/sitemap.xml` and `/robots.txt` routes call it."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from xml.sax.saxutils import escape

from sqlmodel import Session

from storefront import i18n, routes
from storefront.services import business
from storefront.services.cache import cached
from storefront.services.catalog import public as catalog
from storefront.services.money import to_amount
from storefront.settings import get_settings


def sitemap_routes() -> tuple[str, ...]:
    """The pages worth finding, declared with `sitemap=True` in storefront/routes.py, in the
    order declared there. The cart, checkout, booking and sign-in screens hold nothing to find;
    the design-system page is a demo for the team."""
    return tuple(page.route for page in routes.PAGES.values() if page.sitemap)


# Kept out of search results: private areas, the buying steps and the API.
_PRIVATE = (
    "/admin",
    "/account",
    "/checkout",
    "/booking-confirmation/",
    "/services/create",
    "/services/edit/",
    "/services/*/book",
)
DISALLOWED = (
    *dict.fromkeys(i18n.href(path, lang) for lang in i18n.LANGUAGES for path in _PRIVATE),
    "/api/",
)


def category_pages() -> dict[str, str]:
    """{route: category slug} of the pages that show the catalogue of one category (declared
    with `category=` in storefront/routes.py)."""
    return {page.route: page.category for page in routes.PAGES.values() if page.category}


def category_page(slug: str) -> str | None:
    """The route of the page of the category `slug`; None when it has none (its services
    are listed one by one)."""
    return next((route for route, shown in category_pages().items() if shown == slug), None)


# The picture of a shared link when a page has none of its own (a static asset), per edition:
# its words are in the edition's language.
SHARE_IMAGES = {"sq": "/og-image.png", "en": "/og-image-en.png"}


def share_image() -> str:
    """The shared link's picture of the edition of the moment."""
    return SHARE_IMAGES[i18n.language()]


BUSINESS_PAGES = (routes.HOME, routes.CONTACT)
# A theme or a plain service has a page of its own: /services/{id or slug} (and a theme also
# /themes/{slug}).
_DETAIL_PATH = re.compile(r"^/(?:services|themes)/([^/]+)/?$")


def site_url() -> str:
    return get_settings().public_url.rstrip("/")


def canonical_url(path: str, base: str | None = None) -> str:
    """The one address of a page: its route, without a trailing slash (`/contact`). A page
    built ahead is answered there directly (api/media.static_files), with no redirect."""
    base = (base if base is not None else site_url()).rstrip("/")
    return base + "/" + path.strip("/")


def detail_path(slug: str) -> str:
    """A service page's one address is by its slug (the id form shows the same page)."""
    return f"/services/{slug}"


def detail_url(slug: str, base: str | None = None) -> str:
    base = (base if base is not None else site_url()).rstrip("/")
    return base + detail_path(slug)


def absolute(url: str | None, base: str | None = None) -> str:
    """`/media/x.webp` -> `https://site/media/x.webp`; absolute addresses stay as they are."""
    if not url:
        return ""
    if url.startswith(("http://", "https://")):
        return url
    base = (base if base is not None else site_url()).rstrip("/")
    return base + "/" + url.lstrip("/")


# --- sitemap and robots ---------------------------------------------------------------------


def alternate_urls(path: str, base: str | None = None) -> dict[str, str]:
    """The page at `path` (a route of the default edition) in every language: {'sq': ..., 'en':
    ...}, for its `hreflang` links and the sitemap."""
    return {lang: canonical_url(i18n.href(path, lang), base) for lang in i18n.LANGUAGES}


def sitemap_pages(*, session: Session, base: str | None = None) -> list[dict[str, str]]:
    """Every public page and every service page of the catalogue (themes and plain services),
    each with its address in every language."""
    services = [
        service
        for kind in catalog.detail_page_kinds()
        for service in catalog.list_public_services(session=session, kind=kind)
    ]
    paths = [*sitemap_routes(), *(detail_path(service.slug) for service in services)]
    return [alternate_urls(path, base) for path in paths]


def sitemap_urls(*, session: Session, base: str | None = None) -> list[str]:
    """Every address of `sitemap_pages`, all languages."""
    return [url for page in sitemap_pages(session=session, base=base) for url in page.values()]


def sitemap_xml(pages: list[dict[str, str]] | list[str]) -> str:
    """The sitemap: one <url> per address; a page known in several languages lists, under each
    of its addresses, every language's address (`xhtml:link` alternates, x-default too)."""
    entries = []
    for page in pages:
        group = page if isinstance(page, dict) else {}
        for url in group.values() if group else [page]:
            links = "".join(
                f'    <xhtml:link rel="alternate" hreflang="{lang}" href="{escape(address)}"/>\n'
                for lang, address in [
                    *group.items(),
                    *([("x-default", group[i18n.DEFAULT])] if group else []),
                ]
            )
            entries.append(f"  <url>\n    <loc>{escape(url)}</loc>\n{links}  </url>\n")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        f"{''.join(entries)}</urlset>\n"
    )


def robots_txt(base: str | None = None) -> str:
    base = (base if base is not None else site_url()).rstrip("/")
    rules = "".join(f"Disallow: {path}\n" for path in DISALLOWED)
    return f"User-agent: *\n{rules}Allow: /\n\nSitemap: {base}/sitemap.xml\n"


# --- structured data ----------------------------------------------------------------------

_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# Each day's first letters, in English and in Albanian (written with or without ë: 'e hënë',
# 'e hene', 'Hën'); an Albanian day may come with its article ('e premte', 'të shtunën').
_DAY_STEMS = {
    **{day[:3].lower(): index for index, day in enumerate(_DAYS)},
    **{
        stem: index
        for index, stems in enumerate(
            (("hën", "hen"), ("mar",), ("mër", "mer"), ("enj",), ("pre",), ("sht",), ("die",))
        )
        for stem in stems
    },
}
_DAY = r"(?:\b(?:e|të|te)\s+)?\b(" + "|".join(_DAY_STEMS) + r")[a-zë]*\.?"
_TIME = r"(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)?"
_TO = r"(?:-|–|to|deri(?:\s+(?:në|ne|më|me))?|në)"
_HOURS = re.compile(
    rf"{_DAY}(?:\s*{_TO}\s*{_DAY})?[\s,:]*(?:ora\s+)?{_TIME}\s*{_TO}\s*{_TIME}",
    re.IGNORECASE,
)


def _clock(hour: str, minute: str | None, half: str | None) -> str | None:
    h, m = int(hour), int(minute or 0)
    if half:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if half.lower() == "pm" else 0)
    if h > 24 or m > 59:
        return None
    return f"{h:02d}:{m:02d}"


def opening_hours(text: str) -> list[dict]:
    """'Monday to Friday 9AM-6PM' (or 'Mon-Fri 09:00-18:00; Sat 10:00-14:00'), and the same
    in Albanian ('E hënë - e premte 9:00-18:00', 'Hën-Pre 08:30-17:00; E shtunë 10-14'), as
    schema.org opening hours; what cannot be read is left out rather than guessed."""
    found = []
    for first, last, h1, m1, p1, h2, m2, p2 in _HOURS.findall(text or ""):
        start = _DAY_STEMS[first.lower()]
        end = _DAY_STEMS[last.lower()] if last else start
        days = [_DAYS[(start + i) % 7] for i in range((end - start) % 7 + 1)]
        opens, closes = _clock(h1, m1, p1 or p2), _clock(h2, m2, p2)
        if not p1 and p2 and opens and closes and opens >= closes:
            opens = _clock(h1, m1, "am")  # '10-2pm' opens in the morning
        if opens and closes:
            found.append(
                {
                    "@type": "OpeningHoursSpecification",
                    "dayOfWeek": days,
                    "opens": opens,
                    "closes": closes,
                }
            )
    return found


def local_business(details: business.BusinessDetails, base: str | None = None) -> dict:
    data = {
        "@context": "https://schema.org",
        "@type": "LocalBusiness",
        "name": details.name,
        "url": canonical_url(routes.HOME, base),
        "telephone": details.phone,
        "email": details.email,
        "address": {"@type": "PostalAddress", "streetAddress": details.address},
        "sameAs": [details.instagram_url, details.facebook_url],
    }
    hours = opening_hours(details.opening_hours)
    if hours:
        data["openingHoursSpecification"] = hours
    return data


def _price(value: Decimal | None) -> str:
    return f"{to_amount(value):.2f}"


@dataclass(frozen=True)
class ProductPage:
    """What a page says about what it sells: its name, text, picture and address."""

    name: str
    description: str
    url: str
    image: str = ""


def product(page: ProductPage, services: list[catalog.ServiceView], base: str | None = None):
    """A Product with an Offer in the site's currency: one price for one service, the range
    (an AggregateOffer) for a page of several. None when nothing on it has a price."""
    priced = [s for s in services if s.price is not None and s.price > 0]
    if not priced:
        return None
    currency = get_settings().currency
    if len(priced) == 1:
        offer = {
            "@type": "Offer",
            "price": _price(priced[0].price),
            "priceCurrency": currency,
            "availability": "https://schema.org/InStock",
            "url": page.url,
        }
    else:
        prices = [to_amount(s.price) for s in priced]
        offer = {
            "@type": "AggregateOffer",
            "lowPrice": _price(min(prices)),
            "highPrice": _price(max(prices)),
            "offerCount": len(priced),
            "priceCurrency": currency,
            "availability": "https://schema.org/InStock",
            "url": page.url,
        }
    image = page.image or next((s.image_url for s in priced if s.image_url), "")
    data = {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": page.name,
        "description": page.description,
        "url": page.url,
        "brand": {"@type": "Brand", "name": business.SITE_NAME},
        "offers": offer,
    }
    if image:
        data["image"] = absolute(image, base)
    return data


def detail_for_path(path: str, *, session: Session) -> catalog.ServiceView | None:
    match = _DETAIL_PATH.match(path)
    if not match:
        return None
    view = catalog.get_public_service(session=session, service_id=match.group(1))
    return view if view is not None and view.kind in catalog.detail_page_kinds() else None


def _category_page(path: str, *, session: Session) -> ProductPage:
    slug = category_pages()[path]
    category = next((c for c in catalog.list_categories(session=session) if c.slug == slug), None)
    name = category.name if category else slug.replace("-", " ").title()
    return ProductPage(name, (category.description if category else "") or "", canonical_url(path))


@cached
def structured_data(path: str, *, session: Session) -> list[dict]:
    """The JSON-LD objects of the page at `path`: the business on home and contact, a Product
    on a category page (named and described by its catalogue category) and on a service page
    (a theme or a plain service)."""
    path = "/" + path.strip("/") if path.strip("/") else "/"
    if path in BUSINESS_PAGES:
        return [local_business(business.business_details(session=session))]
    categories = category_pages()
    if path in categories:
        services = catalog.list_public_services(session=session, category_slug=categories[path])
        found = product(_category_page(path, session=session), services)
        return [found] if found else []
    service = detail_for_path(path, session=session)
    if service is not None:
        url = detail_url(service.slug)
        page = ProductPage(service.title, service.description, url, service.image_url or "")
        found = product(page, [service])
        return [found] if found else []
    return []


def json_ld(objects: list[dict]) -> str:
    """The text of a `<script type="application/ld+json">`; `<` is escaped so no value can
    close the script."""
    if not objects:
        return ""
    data = objects[0] if len(objects) == 1 else objects
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
