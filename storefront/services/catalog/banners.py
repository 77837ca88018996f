"""Banners: named strips of cards shown on the home page and the service pages."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from sqlmodel import Session, col, select

from storefront.models import Banner, BannerItem
from storefront.services import content
from storefront.services.cache import cached

HOME_BANNER = "Home Page Main Banner"
# Photo galleries are stored as banners named "gallery-<name>" (see seed/loader.py).
GALLERY_PREFIX = "gallery-"
# The home page's three photo galleries.
HOME_WEDDINGS_GALLERY = f"{GALLERY_PREFIX}home-weddings"
HOME_BOUNCERS_GALLERY = f"{GALLERY_PREFIX}home-bouncers"
HOME_MASCOTS_GALLERY = f"{GALLERY_PREFIX}home-mascots"
ITEMS_LIMIT = 20


@dataclass(frozen=True)
class BannerCard:
    id: str
    title: str
    description: str | None
    image_url: str
    link_url: str | None

    def as_dict(self) -> dict:
        return asdict(self)


@cached
def active_banner_items(
    name: str, *, session: Session, limit: int = ITEMS_LIMIT
) -> list[BannerCard]:
    """The active items of the active banner `name`, in display order (empty when none)."""
    rows = session.exec(
        select(BannerItem)
        .join(Banner, col(Banner.id) == col(BannerItem.banner_id))
        .where(Banner.name == name, col(Banner.is_active), col(BannerItem.is_active))
        .order_by(col(BannerItem.display_order), col(BannerItem.created_at))
        .limit(limit)
    ).all()
    return [
        BannerCard(
            id=str(row.id),
            title=content.text(row.translations, "title", row.title),
            description=content.text(row.translations, "description", row.description),
            image_url=row.image_url,
            link_url=row.link_url,
        )
        for row in rows
    ]


def gallery_items(name: str, *, session: Session) -> list[BannerCard]:
    """The photos of gallery `name` (stored as the banner "gallery-<name>")."""
    return active_banner_items(GALLERY_PREFIX + name, session=session)


# docs/product.md §9: the weddings film strip runs 12 items (its photos repeated in turn when
# fewer).
FILM_STRIP_ITEMS = 12


def film_strip(cards: list[BannerCard], length: int = FILM_STRIP_ITEMS) -> list[BannerCard]:
    """`cards` repeated in order until there are `length` of them (none when there are none)."""
    return [cards[i % len(cards)] for i in range(length)] if cards else []
