"""Pages that later work fills in; each already has its route and frame."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.layout import page_layout, placeholder_page
from storefront.i18n import _
from storefront.pages import registry


def make_placeholder(route: str):
    """The placeholder of the page at `route`: its title, and its description as its text."""
    record = routes.declared(route)

    def page() -> rx.Component:
        return placeholder_page(_(record.title), _(record.description))

    return page


for _route in (routes.BLOG, routes.BLOG_POST):
    registry.page(_route)(make_placeholder(_route))


def not_found() -> rx.Component:
    """Reflex has one 404 page for every address, compiled once: it is drawn in every language
    and shows the one of the address it answers ('/en/...': English), the default edition
    until the page knows its address."""
    path = rx.State.router.url.path
    page = _not_found_in(i18n.DEFAULT)
    for lang in (lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT):
        head = i18n.prefix(lang)
        page = rx.cond((path == head) | path.startswith(head + "/"), _not_found_in(lang), page)
    return page


@registry.page(routes.NOT_FOUND)
def not_found_page() -> rx.Component:
    """The not-found page at its own address in each edition (routes.NOT_FOUND), built ahead in
    the edition's language: what the server sends, with a 404, for an address of the catalogue
    that leads nowhere (storefront/api/addresses.py)."""
    return _not_found()


def _not_found_in(lang: str) -> rx.Component:
    with i18n.using(lang):
        return _not_found()


def _not_found() -> rx.Component:
    return page_layout(
        rx.el.section(
            rx.el.p("404", class_name="text-7xl font-extrabold text-fuchsia-200"),
            rx.el.h1(_("Page Not Found"), class_name="mt-2 text-3xl font-bold"),
            rx.el.p(
                _("Sorry, the page you are looking for does not exist or has been moved."),
                class_name="mt-4 text-slate-600",
            ),
            rx.link(
                _("Back to Home"),
                href=i18n.href(routes.HOME),
                underline="none",
                class_name="inline-block mt-8 px-6 py-3 rounded-full bg-fuchsia-600 text-white font-semibold",
            ),
            class_name="max-w-xl mx-auto px-4 py-24 text-center",
            data_testid="not-found",
        )
    )


def redirecting() -> rx.Component:
    return page_layout(rx.el.div(rx.spinner(size="3"), class_name="flex justify-center py-24"))
