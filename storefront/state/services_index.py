"""The services index: every category and the themed decorations."""

from __future__ import annotations

import reflex as rx

from storefront.services import catalog, seo
from storefront.services.money import format_price
from storefront.state.base import call_service

# Categories with a page of their own; the others are listed by their services.
CATEGORY_PAGES = {
    "magic-weddings": "/services/magic-weddings",
    "mascots": "/services/mascots",
    "bouncers": "/services/bouncers",
    "wedding-tables": "/services/wedding-tables",
}


class ServicesIndexState(rx.State):
    categories: list[dict[str, str]] = []
    themes: list[dict[str, str]] = []

    @rx.event
    async def load(self):
        categories = await call_service(catalog.list_categories)
        themes = await call_service(catalog.list_public_services, kind="theme")
        self.categories = [
            {"name": c.name, "description": c.description or "", "href": CATEGORY_PAGES[c.slug]}
            for c in categories
            if c.slug in CATEGORY_PAGES
        ]
        self.themes = [
            {
                "id": t.id,
                "title": t.title,
                "description": t.description,
                "image": t.image_url or "",
                "price": "From " + format_price(t.price),
                "href": seo.theme_path(t.slug),
            }
            for t in themes
        ]
