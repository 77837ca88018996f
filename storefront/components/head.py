"""What a page tells browsers, search engines and link previews besides its title: the site's
icons and manifest (every page), and each page's description, canonical address, Open Graph
and Twitter card tags, and its structured data (JSON-LD)."""

from __future__ import annotations

import reflex as rx

from storefront.state.seo import SeoState

THEME_COLOR = "#c026d3"


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


def page_head(*, title, description, url, image, site_name: str) -> dict:
    """`app.add_page` arguments: `description` and `image` (og:image, absolute) plus the rest
    as `meta`. Each value may be text or a state var (a theme's page). A page with no one
    address (`url` None: a booking, a 404) gets no canonical link."""
    address = (
        [] if url is None else [rx.el.link(rel="canonical", href=url), _property("og:url", url)]
    )
    return {
        "description": description,
        "image": image,
        "meta": [
            *address,
            _property("og:type", "website"),
            _property("og:site_name", site_name),
            _property("og:locale", "sq_AL"),
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
