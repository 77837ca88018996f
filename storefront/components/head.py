"""What a page tells browsers, search engines and link previews besides its title: the site's
icons and manifest (every page), and each page's description, canonical address, Open Graph
and Twitter card tags, and its structured data (JSON-LD)."""

from __future__ import annotations

import json

import reflex as rx
from reflex.utils.imports import ImportVar

from storefront import i18n
from storefront.i18n import N_s
from storefront.state.seo import SeoState

THEME_COLOR = "#c026d3"
# Open Graph names locales with a country.
OG_LOCALES = {"sq": "sq_AL", "en": "en_GB"}


def document_language() -> rx.Var:
    """`<html lang>` of every page, for `rx.App(html_lang=...)`: the language of its edition,
    read from the address (storefront/i18n.py: '/en/...' is English). Reflex's document root
    takes no hooks as components; React Router's `useLocation` is read where the attribute is
    rendered, so the prerendered HTML of each page has its own language and a navigation to the
    other edition changes it."""
    office = i18n.BACK_OFFICE.strip("/")
    office_prefixes = "|".join(
        head.strip("/") for head in i18n.BACK_OFFICE_PREFIXES.values() if head
    )
    prefixes = "|".join(
        i18n.PREFIXES[lang].lstrip("/") for lang in i18n.LANGUAGES if lang != i18n.DEFAULT
    )
    # The back office: '/admin' is its default edition's language, '/sq/admin' Albanian; the
    # site: '/en/...' English, the rest the default edition's.
    return rx.Var(
        _js_expr=(
            "((p) => (p.match(/^\\/(" + office_prefixes + ")\\/" + office + "(?=\\/|$)/) || [])[1]"
            " || (/^\\/"
            + office
            + '(?=\\/|$)/.test(p) ? "'
            + i18n.BACK_OFFICE_DEFAULT
            + '" : null)'
            " || (p.match(/^\\/(" + prefixes + ")(?=\\/|$)/) || [])[1]"
            ' || "' + i18n.DEFAULT + '")(useLocation().pathname)'
        ),
        _var_type=str,
        _var_data=rx.vars.VarData(imports={"react-router": [ImportVar(tag="useLocation")]}),
    )


# The toasts' region, as a screen reader names it (Sonner adds its hotkey: 'Njoftimet alt+T').
TOASTS_LABEL = N_s("Notifications")


def toaster() -> rx.Component:
    """For `rx.App(toaster=...)`: Reflex's toast provider, its region named in the page's
    language (it said 'Notifications' on every page)."""
    from reflex_components_sonner.toast import toast

    words = {}
    for lang in i18n.LANGUAGES:
        with i18n.using(lang):
            words[lang] = i18n.shared_gettext(TOASTS_LABEL)
    label = rx.Var(
        _js_expr=f"({json.dumps(words)}[{document_language()!s}] || {json.dumps(words[i18n.DEFAULT])})",
        _var_type=str,
        _var_data=document_language()._get_all_var_data(),
    )
    return toast.provider(custom_attrs={"containerAriaLabel": label})


def site_head() -> list[rx.Component]:
    """For `rx.App(head_components=...)`."""
    return [
        rx.el.link(rel="icon", href="/favicon.ico", sizes="48x48"),
        rx.el.link(rel="icon", href="/icon-192.png", type="image/png", sizes="192x192"),
        rx.el.link(rel="apple-touch-icon", href="/apple-touch-icon.png"),
        rx.el.link(rel="manifest", href="/manifest.webmanifest"),
        rx.el.meta(name="theme-color", content=THEME_COLOR),
    ]


def _property(name: str, content) -> rx.Component:
    return rx.el.meta(property=name, content=content)


def _name(name: str, content) -> rx.Component:
    return rx.el.meta(name=name, content=content)


def _alternates(alternates) -> list[rx.Component]:
    """A link to the page in each language (`hreflang`), and `x-default` (the default edition)
    for a visitor whose language is neither. `alternates`: {lang: address}, or a state var of
    that shape (a theme's page)."""
    links = [_alternate(lang, alternates[lang]) for lang in i18n.LANGUAGES]
    return [*links, _alternate("x-default", alternates[i18n.DEFAULT])]


def _alternate(hreflang: str, href) -> rx.Component:
    # Reflex's <link> has no `hreflang` prop (an unknown one would become a style).
    return rx.el.link(rel="alternate", href=href, custom_attrs={"hreflang": hreflang})


def page_head(*, title, description, url, alternates, image, site_name: str) -> dict:
    """`app.add_page` arguments: `description` and `image` (og:image, absolute) plus the rest
    as `meta`. Each value may be text or a state var (a theme's page). A page with no one
    address (`url` None: a booking, a 404) gets no canonical link and no alternates."""
    address = (
        []
        if url is None
        else [
            rx.el.link(rel="canonical", href=url),
            _property("og:url", url),
            *([] if alternates is None else _alternates(alternates)),
        ]
    )
    return {
        "description": description,
        "image": image,
        "meta": [
            *address,
            _property("og:type", "website"),
            _property("og:site_name", site_name),
            _property("og:locale", OG_LOCALES[i18n.language()]),
            _property("og:title", title),
            _property("og:description", description),
            _name("twitter:card", "summary_large_image"),
            _name("twitter:title", title),
            _name("twitter:description", description),
            _name("twitter:image", image),
        ],
    }


def structured_data() -> rx.Component:
    """The page's JSON-LD (SeoState.load builds it); data for crawlers, never run."""
    return rx.cond(
        SeoState.json_ld != "",
        rx.el.script(
            type="application/ld+json",
            custom_attrs={"dangerouslySetInnerHTML": rx.Var.create({"__html": SeoState.json_ld})},
            data_testid="json-ld",
        ),
    )
