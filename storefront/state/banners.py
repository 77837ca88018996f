"""Banner strips shown on public pages."""

from __future__ import annotations

import reflex as rx

from storefront.services.catalog import banners
from storefront.state.access import access
from storefront.state.base import call_service, set_changed


@access("public", catalogue_only=True)
class HomeBannerState(rx.State):
    """The cards of 'Home Page Main Banner' and the home page's three photo galleries."""

    cards: list[dict[str, str]] = []
    weddings: list[dict[str, str]] = []
    bouncers: list[dict[str, str]] = []
    mascots: list[dict[str, str]] = []

    @rx.event
    async def load(self):
        set_changed(
            self,
            cards=await banner_cards(banners.HOME_BANNER),
            weddings=await banner_cards(banners.HOME_WEDDINGS_GALLERY),
            bouncers=await banner_cards(banners.HOME_BOUNCERS_GALLERY),
            mascots=await banner_cards(banners.HOME_MASCOTS_GALLERY),
        )


async def banner_cards(name: str) -> list[dict[str, str]]:
    """The cards of banner `name` as plain strings, ready for a state var."""
    return _plain(await call_service(banners.active_banner_items, name=name))


async def film_strip_cards(name: str) -> list[dict[str, str]]:
    """Banner `name` as the spec's film strip of 12 items."""
    return _plain(banners.film_strip(await call_service(banners.active_banner_items, name=name)))


def _plain(items: list[banners.BannerCard]) -> list[dict[str, str]]:
    return [{k: v or "" for k, v in item.as_dict().items()} for item in items]
