"""The services index: every category and the themed decorations."""

from __future__ import annotations

import reflex as rx

from storefront import i18n
from storefront.services.catalog import pages, seo
from storefront.services.catalog import public as catalog
from storefront.state.access import access
from storefront.state.base import call_service, set_changed


@access("public", catalogue_only=True)
class ServicesIndexState(rx.State):
    categories: list[dict[str, str]] = []
    themes: list[dict[str, str]] = []
    # Published services of no particular kind (made in the back office): each has its page.
    others: list[dict[str, str]] = []
    # False until the first load has answered: the page shows cards' skeletons meanwhile.
    loaded: bool = False

    @rx.event
    async def load(self):
        categories = await call_service(catalog.list_categories)
        themes = await call_service(catalog.list_public_services, kind="theme")
        others = await call_service(catalog.list_public_services, kind="service")
        # Categories with a page of their own; the others are listed by their services.
        set_changed(
            self,
            categories=[
                {"name": c.name, "description": c.description or "", "href": i18n.href(page)}
                for c in categories
                if (page := seo.category_page(c.slug))
            ],
            themes=[pages.card(t, from_price=True) for t in themes],
            others=[pages.card(s) for s in others],
            loaded=True,
        )
