"""The weddings page: the two offers, Tiffany chairs priced per person, the detail modal."""

from __future__ import annotations

import dataclasses
import logging

import reflex as rx

from storefront.services import cart, catalog
from storefront.services.money import format_price, to_amount
from storefront.state.banners import banner_cards
from storefront.state.base import call_service

log = logging.getLogger(__name__)
TIFFANY_SLUG = "tiffany-chairs"


@dataclasses.dataclass
class WeddingOffer:
    id: str = ""
    title: str = ""
    description: str = ""
    image: str = ""
    price_label: str = ""
    lines: list[str] = dataclasses.field(default_factory=list)


class WeddingsState(rx.State):
    banner: list[dict[str, str]] = []
    filmstrip: list[dict[str, str]] = []
    offers: list[WeddingOffer] = []
    tiffany: WeddingOffer = WeddingOffer()
    tiffany_price: str = "5"
    people_text: str = ""
    detail: WeddingOffer = WeddingOffer()
    detail_open: bool = False

    @rx.event
    async def load(self):
        self.banner = await banner_cards("banner-weddings")
        self.filmstrip = await banner_cards("gallery-wedding-filmstrip")
        try:
            views = await call_service(
                catalog.list_public_services, category_slug="magic-weddings", kind="wedding_offer"
            )
        except Exception:
            log.exception("loading wedding offers failed")
            views = []
        offers = []
        for view in views:
            offer = WeddingOffer(
                id=view.id,
                title=view.title,
                description=view.description,
                image=view.image_url or "",
                price_label=format_price(view.price),
                lines=[
                    f"{line['label']}: {format_price(line['amount'])}"
                    for line in view.meta.get("lines", [])
                ],
            )
            if view.slug == TIFFANY_SLUG:
                self.tiffany = offer
                self.tiffany_price = str(to_amount(view.price))
            else:
                offers.append(offer)
        self.offers = offers

    @rx.var
    def people(self) -> int:
        return cart.people_count(self.people_text)

    @rx.var
    def tiffany_total(self) -> str:
        """SPEC's copy: 'TOTALI = {n*5}€', and 0 when the count is not valid."""
        total = to_amount(self.tiffany_price) * self.people
        shown = total.quantize(1) if total == total.to_integral_value() else total
        return f"TOTALI = {shown}€"

    @rx.event
    def type_people(self, text: str):
        self.people_text = str(text)[:6]

    @rx.event
    def add_tiffany(self):
        from storefront.state.cart import CartState

        if self.tiffany.id and self.people >= 1:
            return CartState.add_service(self.tiffany.id, self.people)

    @rx.event
    def show_detail(self, offer_id: str):
        for offer in [*self.offers, self.tiffany]:
            if offer.id == offer_id:
                self.detail, self.detail_open = offer, True

    @rx.event
    def close_detail(self, _open: bool = False):
        self.detail_open = False
