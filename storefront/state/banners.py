"""Banner strips shown on public pages."""

from __future__ import annotations

import reflex as rx

from storefront.services import banners
from storefront.state.base import call_service


class HomeBannerState(rx.State):
    """The cards of 'Home Page Main Banner'."""

    cards: list[dict[str, str]] = []
    loaded: bool = False

    @rx.event
    async def load(self):
        items = await call_service(banners.active_banner_items, name=banners.HOME_BANNER)
        self.cards = [{k: v or "" for k, v in item.as_dict().items()} for item in items]
        self.loaded = True
