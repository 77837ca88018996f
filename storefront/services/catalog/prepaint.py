"""The content of the catalogue's pages as HTML, for the server to send before the page's
scripts run (docs/architecture.md §3, 'Catalogue pages painted from their HTML').

The build makes ahead every page whose content is fixed; the services page (its cards), a
service's page (`/services/{slug}`, `/themes/{slug}`), its booking screen and a blog post get
their content only once the scripts ran, the websocket opened and the page's load answered
(about 3 s on a slow phone). `main_html` writes the first screen of such a page, in the
language of the moment, from the same cached reads and the same shapes as the live page
(services/catalog/pages.py), with the live page's own classes so that it looks the same;
api/prepaint.py puts it in the page the build made and the live page takes over once it has its
content. It is a worker-cached read: a catalogue change (or a service added after the build) is
written at its next request."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from sqlmodel import Session

from storefront import i18n, routes
from storefront.i18n import _
from storefront.services.cache import cached
from storefront.services.catalog import addresses, pages, seo
from storefront.services.catalog import public as catalog
from storefront.services.media.storage import RESIZED_WIDTHS
from storefront.services.money import format_price_with_unit
from storefront.settings import get_settings

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "prepaint"

# The kinds of page, and what tells that the live page has its content (a CSS selector inside
# the live page): then it takes the place of the HTML written here.
SERVICES, THEME, BOOK, BLOG_POST = "services", "theme", "book", "blog_post"
LIVE_WHEN = {
    SERVICES: '[aria-busy="false"]',
    THEME: '[data-testid="theme"],[data-testid="theme-not-found"]',
    BOOK: '[data-testid="book-screen"],[data-testid="book-not-found"],'
    '[data-testid="book-error-page"],[data-testid="book-submitted"]',
    BLOG_POST: "main h1",
}


@dataclass(frozen=True)
class Target:
    """A page of `kind` in `lang`'s edition; `key` the service's id or slug (else '')."""

    kind: str
    lang: str
    key: str = ""


def target_of(path: str) -> Target | None:
    """Which page `path` asks for, when it is one written here; None for any other."""
    entry = addresses.entry_of(path)
    if isinstance(entry, addresses.Entry):
        return Target(BOOK if entry.booking else THEME, entry.lang, entry.key)
    if entry is not None:
        return None
    lang, rest = i18n.split(path)
    rest = rest.rstrip("/") or "/"
    if i18n.href(rest, lang) != (path.rstrip("/") or "/"):
        return None
    if rest == routes.SERVICES:
        return Target(SERVICES, lang)
    parts = rest.split("/")
    if len(parts) == 3 and "/" + parts[1] == routes.BLOG and parts[2]:
        return Target(BLOG_POST, lang)
    return None


@cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(_=lambda text: _(text), src_set=src_set)
    return env


def src_set(src: str) -> str:
    """The srcset the live page gives a stored photo (components/photo.src_set)."""
    prefix = get_settings().media_url_prefix.rstrip("/") + "/"
    if not src or not src.startswith(prefix):
        return ""
    return ", ".join(f"{src}?w={width} {width}w" for width in RESIZED_WIDTHS)


def render(target: Target, *, session: Session) -> str | None:
    """`main_html` in the language of `target`'s edition."""
    with i18n.using(target.lang):
        return main_html(target.kind, target.key, session=session)


@cached
def main_html(kind: str, key: str, *, session: Session) -> str | None:
    """The inside of the page's <main> (see the module's docstring); None when the page has
    nothing to say ahead (no such service: the live page says so)."""
    env = environment()
    home, services = i18n.href(routes.HOME), i18n.href(routes.SERVICES)
    if kind == SERVICES:
        themes = catalog.list_public_services(session=session, kind="theme")
        others = catalog.list_public_services(session=session, kind="service")
        categories = [
            {"name": c.name, "description": c.description or "", "href": i18n.href(page)}
            for c in catalog.list_categories(session=session)
            if (page := seo.category_page(c.slug))
        ]
        return env.get_template("services.html").render(
            subtitle=_(routes.declared(routes.SERVICES).description),
            categories=categories,
            themes=[pages.card(t, from_price=True) for t in themes],
            others=[pages.card(s) for s in others],
        )
    if kind == THEME:
        view = catalog.get_public_service(session=session, service_id=key)
        if view is None or view.kind not in catalog.detail_page_kinds():
            return None
        theme = pages.theme_fields(view)
        book = f"{i18n.prefix()}/services/{view.id}/book"
        return env.get_template("theme.html").render(
            theme=theme, home=home, services=services, book=book
        )
    if kind == BOOK:
        try:
            view = catalog.service_to_book(session=session, service_ref=key)
        except catalog.ServiceRefError:
            return None
        price = (
            format_price_with_unit(view.price, view.price_unit) if view.price is not None else ""
        )
        return env.get_template("book.html").render(
            title=view.title,
            description=view.description,
            price=price,
            image=view.image_url or "",
        )
    if kind == BLOG_POST:
        record = routes.declared(routes.BLOG_POST)
        return env.get_template("placeholder.html").render(
            title=_(record.title), text=_(record.description)
        )
    return None
