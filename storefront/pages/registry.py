"""Where a page's record (storefront/routes.py) gets its component and its own on-load events,
and how every declared page is added to the app, in each of its languages.

A page module draws its page and attaches it to its record:

    @registry.page(routes.PARTY_THEMES, loaders=[PartyThemesState.load])
    def party_themes() -> rx.Component: ...

`register_all(app)` (storefront/storefront.py) imports every module of the pages' folders, so
nothing else names a page, and refuses to start while a declared page has no component.
Each page's on-load runs the events its access shares (`SHARED_LOADS`), then its own."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

import reflex as rx

from storefront import i18n, routes
from storefront.i18n import _, _o
from storefront.pages.editions import in_language
from storefront.pages.head import head_for
from storefront.services import business
from storefront.state.auth import AuthState
from storefront.state.business import BusinessState
from storefront.state.seo import SeoState

# What each page of an access runs first. A public page first reads the session, so the
# navigation knows who is signed in, then the business's details and the page's structured data;
# a private page sends away whoever may not see it (the event guard is what protects its data).
SHARED_LOADS = {
    "public": (AuthState.check_session, BusinessState.load, SeoState.load),
    "account": (AuthState.require_account, BusinessState.load),
    "admin": (AuthState.require_admin,),
}
# The folders whose modules draw pages (imported by `register_all`).
PAGE_PACKAGES = (
    "storefront.pages.public",
    "storefront.pages.auth",
    "storefront.pages.account",
    "storefront.pages.admin",
)


def page(
    *page_routes: str,
    loaders=(),
    on_load=None,
    title: rx.Var | None = None,
    head: Callable[[], dict] | None = None,
):
    """Attach the decorated page function to the record of each of `page_routes`, with its own
    on-load events (`loaders`, run after the shared ones of its access). `on_load` replaces the
    whole list for a page that reads the caller itself (the sign-in screens, the admin entry);
    `title` and `head` are for a page that titles and describes itself from its state."""

    def attach(component: Callable[[], rx.Component]) -> Callable[[], rx.Component]:
        for route in page_routes:
            record = routes.declared(route)
            if record.component is not None:
                raise ValueError(
                    f"{route} is drawn twice: {record.component.__name__} and {component.__name__}"
                )
            record.component = component
            record.loaders = tuple(loaders)
            record.on_load = tuple(on_load) if on_load is not None else None
            record.shown_title = title
            record.head = head
        return component

    return attach


def on_load_of(record: routes.Page) -> list:
    """The page's on-load events: its access's shared ones, then its own."""
    if record.on_load is not None:
        return list(record.on_load)
    return [*SHARED_LOADS[record.access], *record.loaders]


def title_of(record: routes.Page) -> str | rx.Var:
    """The page's tab title in the language of the moment: 'Mascots | Magic Events'."""
    if record.shown_title is not None:
        return record.shown_title
    if record.back_office:
        return business.page_title(_o(record.title))
    return business.page_title(_(record.title or business.SITE_NAME))


def register(app: rx.App, record: routes.Page) -> None:
    """The page of `record` in each of its languages: '/cart' and '/en/cart',
    '/admin/users' and '/sq/admin/users' (pages/editions.py)."""
    if record.component is None:
        raise LookupError(
            f"{record.route} is declared in storefront/routes.py but no page draws it: "
            f"decorate its page function with @registry.page(...) (storefront/pages/registry.py)"
        )
    for lang in record.languages:
        with i18n.using(lang):
            title = title_of(record)
            extra = {}
            if record.head is not None:
                extra = record.head()
            elif record.access == "public":
                extra = head_for(
                    record.route, title, description=record.description, image=record.image
                )
            app.add_page(
                in_language(lang, record.component, record.route),
                route=i18n.href(record.route),
                title=title,
                on_load=on_load_of(record),
                **extra,
            )


def import_pages() -> None:
    """Import every module of the pages' folders: each attaches its pages to their records."""
    for package in PAGE_PACKAGES:
        folder = importlib.import_module(package)
        for module in pkgutil.iter_modules(folder.__path__):
            importlib.import_module(f"{package}.{module.name}")


def register_all(app: rx.App) -> None:
    """Every declared page, in the order storefront/routes.py declares them."""
    import_pages()
    for record in routes.PAGES.values():
        register(app, record)
