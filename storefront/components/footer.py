"""The site footer. Its service links use the old casing, which the router maps to the
canonical pages (see routes.ALIASES); those aliases exist in the default edition only, so the
other editions link to the canonical pages."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.brand import logo
from storefront.i18n import N_, _
from storefront.state.business import BusinessState

FOOTER_SERVICES = [
    (N_("Magic Weddings"), "/services/MagicWeddings"),
    (N_("Wedding Tables"), "/services/WeddingTables"),
    (N_("Mascots"), "/services/Mascots"),
    (N_("Bouncers"), "/services/Bouncers"),
]
TAGLINE = N_("Wedding decorations, mascots, bouncers and tables for every party in Kosovo.")
FOOTER_COMPANY = [
    (N_("Contact"), routes.CONTACT),
    (N_("Terms"), routes.TERMS),
    (N_("Privacy"), routes.PRIVACY),
]


def _edition_href(href: str) -> str:
    """`href` in the edition of the moment: an old address (routes.ALIASES) as it is in the
    default edition, its canonical page in the others."""
    if i18n.language() == i18n.DEFAULT:
        return href
    return i18n.href(routes.ALIASES.get(href, href))


def _column(title: str, links: list[tuple[str, str]]) -> rx.Component:
    return rx.el.div(
        rx.el.h2(title, class_name="text-sm font-semibold text-white mb-3"),
        rx.el.ul(
            *[
                rx.el.li(
                    rx.link(
                        _(label),
                        href=_edition_href(href),
                        underline="none",
                        class_name="text-slate-300 hover:text-white",
                    )
                )
                for label, href in links
            ],
            class_name="space-y-2 text-sm",
        ),
    )


def _social(icon: str, href: rx.Var, label: str) -> rx.Component:
    return rx.link(
        rx.icon(icon, size=18),
        rx.el.span(label),
        href=href,
        is_external=True,
        underline="none",
        class_name="flex items-center gap-2 text-sm text-slate-300 hover:text-white",
    )


def footer() -> rx.Component:
    return rx.el.footer(
        rx.el.div(
            rx.el.div(
                rx.el.div(logo(), class_name="bg-white rounded-lg px-3 py-2 inline-block"),
                rx.el.p(
                    _(TAGLINE),
                    class_name="text-slate-300 text-sm mt-4 max-w-xs",
                ),
                rx.el.div(
                    _social("camera", BusinessState.details["instagram_url"], "Instagram"),
                    _social("thumbs-up", BusinessState.details["facebook_url"], "Facebook"),
                    class_name="flex gap-4 mt-4",
                ),
            ),
            _column(_("Services"), FOOTER_SERVICES),
            _column(_("Company"), FOOTER_COMPANY),
            class_name="max-w-7xl mx-auto px-4 py-12 grid gap-10 md:grid-cols-3",
        ),
        rx.el.div(
            _("© Magic Events, Prishtina"),
            class_name="border-t border-slate-800 text-center text-xs text-slate-400 py-4",
        ),
        class_name="bg-slate-900 mt-16",
        data_testid="site-footer",
    )
