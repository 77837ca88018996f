"""Each page's head: its description (the page's own copy) and picture, for search results
and link previews. storefront.py passes `head_for(route, title)` to `app.add_page`."""

from __future__ import annotations

import reflex as rx

from storefront import i18n, routes
from storefront.components.footer import TAGLINE
from storefront.components.head import page_head
from storefront.i18n import _
from storefront.pages.auth.sign_in import RESET_SUBTITLE, SIGN_IN_SUBTITLE, SIGN_UP_SUBTITLE
from storefront.pages.public import (
    bouncers,
    cart,
    contact,
    home,
    legal,
    mascots,
    services_index,
    wedding_tables,
    weddings,
)
from storefront.pages.public.placeholders import PLACEHOLDERS
from storefront.services import business
from storefront.services.catalog import seo
from storefront.state.theme import ThemeState

DESCRIPTIONS = {
    routes.HOME: home.INTRO,
    routes.WEDDINGS: weddings.INTRO,
    routes.MASCOTS: mascots.INTRO,
    routes.BOUNCERS: bouncers.INTRO,
    routes.WEDDING_TABLES: wedding_tables.ABOUT,
    routes.SERVICES: services_index.SUBTITLE,
    routes.CONTACT: contact.SUBTITLE,
    routes.CART: cart.SLOTS_NOTICE,
    routes.TERMS: legal.TERMS[0][1],
    routes.PRIVACY: legal.PRIVACY[0][1],
    routes.SIGN_IN: SIGN_IN_SUBTITLE,
    routes.SIGN_UP: SIGN_UP_SUBTITLE,
    routes.RESET_PASSWORD: RESET_SUBTITLE,
    **{route: text for route, (_title, text) in PLACEHOLDERS.items()},
}
IMAGES = {routes.MASCOTS: mascots.HERO_IMAGE}
THEME_ROUTES = (routes.SERVICE_DETAIL, routes.THEMED_DECORATION)


def head_for(route: str, title: str | rx.Var) -> dict:
    """The head of the page at `route` titled `title` (as its tab shows it), in the edition of
    the moment: its own canonical address, and its address in every language (hreflang)."""
    if route in THEME_ROUTES:
        return page_head(
            title=ThemeState.page_title,
            description=ThemeState.meta_description,
            url=ThemeState.canonical_url,
            alternates=ThemeState.alternate_urls,
            image=ThemeState.share_image,
            site_name=business.SITE_NAME,
        )
    has_address = "[" not in route and route not in ("404", routes.NOT_FOUND)
    return page_head(
        title=title,
        description=_(DESCRIPTIONS.get(route, TAGLINE)),
        url=seo.canonical_url(i18n.href(route)) if has_address else None,
        alternates=seo.alternate_urls(route) if has_address else None,
        image=seo.absolute(IMAGES.get(route) or seo.share_image()),
        site_name=business.SITE_NAME,
    )
