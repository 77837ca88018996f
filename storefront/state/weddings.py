"""The weddings page: the two offers, Tiffany chairs priced per person, the detail modal."""

from __future__ import annotations

import dataclasses
import logging

import reflex as rx

from storefront.i18n import _
from storefront.services.booking import cart
from storefront.services.catalog import showcase
from storefront.state.access import access
from storefront.state.banners import banner_cards, film_strip_cards
from storefront.state.base import call_service

log = logging.getLogger(__name__)
# The field takes at most this many characters (the input says so too), so the server's copy
# is always what the field shows.
PEOPLE_FIELD_LENGTH = 6


@dataclasses.dataclass
class WeddingOffer:
    id: str = ""
    title: str = ""
    description: str = ""
    image: str = ""
    price: str = "0"
    price_label: str = ""
    lines: list[str] = dataclasses.field(default_factory=list)


def _offer(offer: showcase.WeddingOffer | None) -> WeddingOffer:
    return WeddingOffer(**dataclasses.asdict(offer)) if offer else WeddingOffer()


@access("public")
class WeddingsState(rx.State):
    banner: list[dict[str, str]] = []
    filmstrip: list[dict[str, str]] = []
    offers: list[WeddingOffer] = []
    tiffany: WeddingOffer = WeddingOffer()
    people_text: str = ""
    detail: WeddingOffer = WeddingOffer()
    detail_open: bool = False
    tiffany_most: int = cart.TIFFANY_PEOPLE_MAX  # the chairs there are, read at load

    @rx.event
    async def load(self):
        self.banner = await banner_cards(showcase.WEDDINGS_BANNER)
        self.filmstrip = await film_strip_cards(showcase.WEDDINGS_FILM_STRIP)
        try:
            page = await call_service(showcase.weddings_page)
        except Exception:
            log.exception("loading wedding offers failed; showing the built-in packages")
            page = showcase.WeddingsPage(offers=showcase.fallback_wedding_offers(), tiffany=None)
        self.offers = [_offer(o) for o in page.offers]
        self.tiffany = _offer(page.tiffany)
        if self.tiffany.id:
            # The chairs there are: one booking takes no more (the cart holds to it too).
            self.tiffany_most = await call_service(cart.most_per_line, service_id=self.tiffany.id)

    @rx.var
    def people(self) -> int:
        return cart.people_count(self.people_text, self.tiffany_most)

    @rx.var
    def people_limit_message(self) -> str:
        """Beside the field when more people are typed than one booking takes."""
        if cart.people_problem(self.people_text, self.tiffany_most) == "too_many":
            return _("Up to {most} guests; for more, please contact us.").format(
                most=self.tiffany_most
            )
        return ""

    @rx.var
    def tiffany_total(self) -> str:
        """The spec's copy: 'TOTALI = {n*5}€', and 0 when the count is not valid."""
        return cart.tiffany_total_label(self.tiffany.price, self.people)

    @rx.event
    def type_people(self, text: str):
        self.people_text = str(text)[:PEOPLE_FIELD_LENGTH]

    @rx.event
    def add_tiffany(self):
        from storefront.state.cart import CartState

        if self.tiffany.id and self.people >= 1:
            return CartState.add_service(self.tiffany.id, self.people)

    @rx.event
    def show_detail(self, title: str):
        for offer in [*self.offers, self.tiffany]:
            if offer.title == title:
                self.detail, self.detail_open = offer, True

    @rx.event
    def close_detail(self, _open: bool = False):
        self.detail_open = False
