"""What the catalogue's public pages show of a service, in the language of the moment: one
shape for the live page (state/services_index.py, state/theme.py) and for the HTML the server
sends before the page's scripts run (services/catalog/prepaint.py)."""

from __future__ import annotations

from storefront import i18n
from storefront.i18n import _
from storefront.models.service_details import ThemeDetails, details_as
from storefront.services.catalog import public as catalog
from storefront.services.catalog import seo
from storefront.services.money import format_price_with_unit


def card(view: catalog.ServiceView, *, from_price: bool = False) -> dict[str, str]:
    """A service's card on the services page; a theme's price reads 'From ...' (its packages
    cost more)."""
    price = format_price_with_unit(view.price, view.price_unit) if view.price is not None else ""
    return {
        "id": view.id,
        "title": view.title,
        "description": view.description,
        "image": view.image_url or "",
        "price": _("From {price}").format(price=price) if from_price and price else price,
        "href": i18n.href(seo.detail_path(view.slug)),
    }


def theme_fields(view: catalog.ServiceView) -> dict[str, str]:
    """The head of a service's own page: title, words, main image, price and the four tiles."""
    details = details_as(view.details, ThemeDetails)
    return {
        "id": view.id,
        "title": view.title,
        "slug": view.slug,
        "description": view.description,
        "image": view.image_url or "",
        "price": format_price_with_unit(view.price, view.price_unit),
        "age": details.age,
        "duration": details.duration,
        "capacity": details.capacity,
    }
