"""The theme detail page (services/{serviceId}) and the themed decoration page by slug."""

from __future__ import annotations

import logging

import reflex as rx

from storefront import i18n
from storefront.i18n import _
from storefront.models.service_details import ThemeDetails, details_as
from storefront.services import business
from storefront.services.catalog import pages, seo
from storefront.services.catalog import public as catalog
from storefront.services.money import format_price
from storefront.state.access import access
from storefront.state.base import call_service

log = logging.getLogger(__name__)


@access("public")
class ThemeState(rx.State):
    status: str = "loading"  # loading | found | missing
    theme: dict[str, str] = {}
    paragraphs: list[str] = []
    features: list[str] = []
    add_ons: list[dict[str, str]] = []
    # Every image of the service, the main one first.
    gallery: list[str] = []
    # The tabs this service has something for (catalog.page_tabs), the first one open.
    tabs: list[str] = []
    tab: str = "description"
    # 'View More Themes' at the bottom: on themes only.
    more_themes: bool = False
    # The language of the address that shows it, set at load: a computed var that reads the
    # router is loaded with every event of every tab (docs/architecture.md §3).
    language: str = i18n.DEFAULT

    @rx.event
    async def load(self):
        """The last part of the address is the theme's id (or its slug)."""
        self.status, self.tab = "loading", "description"
        self.language = i18n.language_of(self.router.url.path)
        yield
        key = self.router.url.path.rstrip("/").rsplit("/", 1)[-1]
        try:
            view = await call_service(catalog.get_public_service, service_id=key)
        except Exception:
            log.exception("loading theme %r failed", key)
            view = None
        if view is None or view.kind not in catalog.detail_page_kinds():
            self.status, self.theme, self.gallery = "missing", {}, []
            return
        moved = catalog.moved_to(key, view)
        if moved is not None:  # an old address of a service whose slug changed
            yield rx.redirect(i18n.href(seo.detail_path(moved)), replace=True)
            return
        self.gallery = list(view.image_urls)
        details = details_as(view.details, ThemeDetails)
        self.theme = pages.theme_fields(view)
        long_text = details.long_description or view.description
        self.paragraphs = [p.strip() for p in long_text.split("\n\n") if p.strip()]
        self.features = list(details.features)
        self.add_ons = [{"name": a.name, "price": format_price(a.price)} for a in details.add_ons]
        self.tabs = list(catalog.page_tabs(view))
        self.tab = self.tabs[0] if self.tabs else "description"
        self.more_themes = catalog.more_themes(view)
        self.status = "found"

    @rx.var
    def page_title(self) -> str:
        """The browser tab's title: the theme's name, or the spec's 'Theme Not Found'."""
        if self.status == "missing":
            return business.page_title(_("Theme Not Found"))
        if self.status == "found":
            return business.page_title(self.theme.get("title") or _("Theme"))
        return business.page_title(_("Theme"))

    @rx.var
    def alternate_urls(self) -> dict[str, str]:
        """The page's one address (by slug) in every language, whichever address showed it."""
        slug = self.theme.get("slug", "")
        return seo.alternate_urls(seo.detail_path(slug) if slug else "/services")

    @rx.var
    def canonical_url(self) -> str:
        """The page's one address in the language of the page that shows it."""
        return self.alternate_urls.get(self.language, "")

    @rx.var
    def share_image(self) -> str:
        """The theme's picture as an absolute address, for link previews."""
        return seo.absolute(self.theme.get("image", "")) or seo.absolute(seo.share_image())

    @rx.var
    def meta_description(self) -> str:
        return self.theme.get("description", "")

    @rx.event
    def show_tab(self, tab: str):
        if tab in self.tabs:
            self.tab = tab
