"""Each page's head: its description and picture (declared with the page in
storefront/routes.py), for search results and link previews. pages/registry.py passes
`head_for(...)` to `app.add_page` for every public page."""

from __future__ import annotations

import reflex as rx

from storefront import i18n, routes
from storefront.components.footer import TAGLINE
from storefront.components.head import page_head
from storefront.i18n import _
from storefront.services import business
from storefront.services.catalog import seo
from storefront.state.theme import ThemeState


def head_for(route: str, title: str | rx.Var, *, description: str = "", image: str = "") -> dict:
    """The head of the page at `route` titled `title` (as its tab shows it), in the edition of
    the moment: its description (a msgid; the site's tagline when it has none), its own
    canonical address, and its address in every language (hreflang)."""
    has_address = "[" not in route and route not in ("404", routes.NOT_FOUND)
    return page_head(
        title=title,
        description=_(description or TAGLINE),
        url=seo.canonical_url(i18n.href(route)) if has_address else None,
        alternates=seo.alternate_urls(route) if has_address else None,
        image=seo.absolute(image or seo.share_image()),
        site_name=business.SITE_NAME,
    )


def theme_head() -> dict:
    """The head of a service's page: the service's own title, text, address and picture, as
    its state reads them (state/theme.py)."""
    return page_head(
        title=ThemeState.page_title,
        description=ThemeState.meta_description,
        url=ThemeState.canonical_url,
        alternates=ThemeState.alternate_urls,
        image=ThemeState.share_image,
        site_name=business.SITE_NAME,
    )
