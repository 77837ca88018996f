"""What the Mascots and Bouncers pages show: characters, packages, bouncer options and photos,
read from the catalogue and shaped for display (docs/product.md §3: Mascot, Package, Bouncer
option)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from decimal import Decimal

from sqlmodel import Session, select

from storefront.i18n import N_, _
from storefront.models import ServiceCategory, kinds
from storefront.models.service_details import (
    TABLE_COLORS,
    TABLE_DIAMETERS,
    BouncerOptionDetails,
    MascotDetails,
    PackageDetails,
    TableDetails,
    WeddingOfferDetails,
    details_as,
)
from storefront.services.cache import cached
from storefront.services.catalog.banners import BannerCard, active_banner_items, gallery_items
from storefront.services.catalog.public import ServiceView, get_public_service, list_public_services
from storefront.services.errors import ServiceError
from storefront.services.money import format_price, format_price_with_unit, price_line, to_amount

MASCOTS_CATEGORY = "mascots"
BOUNCERS_CATEGORY = "bouncers"
MASCOTS_BANNER = "banner-mascots"
BOUNCERS_BANNER = "banner-bouncers"

# The mascot shown without a photo says so instead of a broken image.
NO_IMAGE = "NO_IMAGE"
DEFAULT_SUITABLE_FOR = (N_("Birthday Parties"), N_("School Events"))

MASCOT_PACKAGE_TYPES = ("mascot", "mascot-activities")
BOUNCER_PACKAGE_TYPES = ("bouncer", "castle", "combo")

# docs/product.md §9's default bouncer options, shown when the catalogue holds none. They are not in
# the
# catalogue, so they cannot be added to a cart (`id` is empty).
FALLBACK_BOUNCER_OPTIONS = (
    ("bouncer-jungle", N_("Jungle Bouncer"), "199.99", "#2e7d32"),
    ("bouncer-pirate-ship", N_("Pirate Ship Bouncer"), "219.99", "#8d5524"),
    ("bouncer-castle", N_("Castle Bouncer"), "249.99", "#1e88e5"),
    ("castle-redblue", N_("Red & Blue Castle"), "249.99", "#d32f2f"),
    ("castle-pink", N_("Pink Castle"), "249.99", "#ec4899"),
    ("castle-white", N_("White Castle"), "249.99", "#f5f5f5"),
)
CASTLE_DEFAULT_PRICE = Decimal("249.99")


class ShowcaseError(ServiceError):
    """`category_missing`: the page's category is not in the catalogue; `mascot_missing`: no
    published mascot of the page has that id."""

    CODES = {
        "category_missing": "Category missing",
        "mascot_missing": "Mascot missing",
    }


@dataclass(frozen=True)
class Mascot:
    """A character as its carousel slide shows it. The detail dialog's longer texts are read
    when it opens (`mascot_details`): the page load carries only what the slides show."""

    id: str
    number: int
    name: str
    short_description: str
    image: str
    price_label: str


@dataclass(frozen=True)
class MascotDescription:
    """What the detail dialog adds to a character's slide ('Shiko detajet')."""

    id: str
    full_description: str
    suitable_for: list[str]


@dataclass(frozen=True)
class Package:
    id: str
    name: str
    type: str
    features: list[str]
    price_label: str


@dataclass(frozen=True)
class BouncerOption:
    id: str
    type: str
    title: str
    description: str
    image: str
    color: str
    price_label: str


@dataclass(frozen=True)
class Photo:
    title: str
    image_url: str
    description: str = ""


@dataclass(frozen=True)
class MascotsPage:
    mascots: list[Mascot]
    packages: dict[str, list[Package]]
    banner: list[Photo]
    works: list[Photo]


@dataclass(frozen=True)
class BouncersPage:
    options: list[BouncerOption]
    packages: dict[str, list[Package]]
    banner: list[Photo]
    strip: list[Photo]
    bubbles: list[Photo]
    bouncers: list[Photo]


def _require_category(session: Session, slug: str) -> None:
    found = session.exec(select(ServiceCategory.id).where(ServiceCategory.slug == slug)).first()
    if found is None:
        raise ShowcaseError("category_missing", _("Category '{slug}' not found").format(slug=slug))


def to_mascot(service: ServiceView) -> Mascot:
    details = details_as(service.details, MascotDetails)
    return Mascot(
        id=service.id,
        number=details.number or 0,
        name=service.title,
        short_description=details.short_description or service.description,
        image=service.image_url or NO_IMAGE,
        price_label=format_price_with_unit(service.price, service.price_unit),
    )


def to_mascot_description(service: ServiceView) -> MascotDescription:
    details = details_as(service.details, MascotDetails)
    return MascotDescription(
        id=service.id,
        full_description=details.full_description or service.description,
        suitable_for=details.suitable_for or [_(text) for text in DEFAULT_SUITABLE_FOR],
    )


def to_package(service: ServiceView) -> Package:
    details = details_as(service.details, PackageDetails)
    return Package(
        id=service.id,
        name=service.title,
        type=details.type,
        features=details.features,
        price_label=format_price_with_unit(service.price, service.price_unit),
    )


def to_bouncer_option(service: ServiceView) -> BouncerOption:
    details = details_as(service.details, BouncerOptionDetails)
    return BouncerOption(
        id=service.id,
        type=details.type or "",
        title=service.title,
        description=service.description,
        image=service.image_url or "",
        color=details.color,
        price_label=format_price_with_unit(
            to_amount(service.price, CASTLE_DEFAULT_PRICE), service.price_unit
        ),
    )


def fallback_bouncer_options() -> list[BouncerOption]:
    return [
        BouncerOption(
            id="",
            type=kind,
            title=_(title),
            description="",
            image="",
            color=color,
            # Priced as a new bouncer option is (models/kinds.py).
            price_label=format_price_with_unit(price, kinds.kind("bouncer_option").price_unit),
        )
        for kind, title, price, color in FALLBACK_BOUNCER_OPTIONS
    ]


def packages_by_type(
    *, session: Session, category_slug: str, types: tuple[str, ...]
) -> dict[str, list[Package]]:
    """The category's packages grouped by the spec's package type, every type present (maybe empty)."""
    grouped: dict[str, list[Package]] = {t: [] for t in types}
    for service in list_public_services(
        session=session, category_slug=category_slug, kind="package"
    ):
        package = to_package(service)
        if package.type in grouped:
            grouped[package.type].append(package)
    return grouped


def mascot_characters(*, session: Session) -> list[Mascot]:
    """The mascot characters in display order; ShowcaseError when there is no mascots category."""
    _require_category(session, MASCOTS_CATEGORY)
    services = list_public_services(session=session, category_slug=MASCOTS_CATEGORY, kind="mascot")
    return [to_mascot(s) for s in services]


@cached
def mascot_details(*, session: Session, mascot_id: str) -> MascotDescription:
    """The detail dialog's texts of one character of the page, in the language of the moment;
    ShowcaseError `mascot_missing` for anything but the id of a published mascot of the
    mascots category (a refusal is not cached: nothing is kept for ids that name nothing)."""
    try:
        service_id = str(uuid.UUID(mascot_id))
    except (TypeError, ValueError, AttributeError):
        raise ShowcaseError("mascot_missing") from None
    service = get_public_service(session=session, service_id=service_id)
    if service is None or service.kind != "mascot" or service.category_slug != MASCOTS_CATEGORY:
        raise ShowcaseError("mascot_missing")
    return to_mascot_description(service)


def bouncer_options(*, session: Session) -> list[BouncerOption]:
    """The bouncer options of the catalogue, or the spec's built-in castle options when it has none."""
    services = list_public_services(
        session=session, category_slug=BOUNCERS_CATEGORY, kind="bouncer_option"
    )
    return [to_bouncer_option(s) for s in services] or fallback_bouncer_options()


def _photos(cards: list[BannerCard]) -> list[Photo]:
    return [Photo(c.title, c.image_url, c.description or "") for c in cards]


@cached
def mascots_page(*, session: Session) -> MascotsPage:
    """The page in the language of the moment (the cache keeps one per language)."""
    return MascotsPage(
        mascots=mascot_characters(session=session),
        packages=packages_by_type(
            session=session, category_slug=MASCOTS_CATEGORY, types=MASCOT_PACKAGE_TYPES
        ),
        banner=_photos(active_banner_items(MASCOTS_BANNER, session=session)),
        works=_photos(gallery_items("mascot-works", session=session)),
    )


@cached
def bouncers_page(*, session: Session) -> BouncersPage:
    """The page in the language of the moment (the cache keeps one per language)."""
    return BouncersPage(
        options=bouncer_options(session=session),
        packages=packages_by_type(
            session=session, category_slug=BOUNCERS_CATEGORY, types=BOUNCER_PACKAGE_TYPES
        ),
        banner=_photos(active_banner_items(BOUNCERS_BANNER, session=session)),
        strip=_photos(gallery_items("bouncer-strip", session=session)),
        bubbles=_photos(gallery_items("bubbles", session=session)),
        bouncers=_photos(gallery_items("bouncers", session=session)),
    )


WEDDINGS_CATEGORY = "magic-weddings"
WEDDINGS_BANNER = "banner-weddings"
WEDDINGS_FILM_STRIP = "gallery-wedding-filmstrip"
TIFFANY_SLUG = "tiffany-chairs"
# docs/product.md §8: with no wedding offers (or a failing catalogue) the page shows four built-in
# packages at 1999 each. They are not in the catalogue, so they cannot go into a cart.
FALLBACK_WEDDING_PRICE = Decimal("1999")
FALLBACK_WEDDING_PACKAGES = (
    N_("Classic Package"),
    N_("Romantic Package"),
    N_("Elegant Package"),
    N_("Royal Package"),
)


@dataclass(frozen=True)
class WeddingOffer:
    id: str  # empty for a built-in package
    title: str
    description: str
    image: str
    price: str  # two decimals, for arithmetic in the page (Tiffany chairs)
    price_label: str
    lines: list[str]


@dataclass(frozen=True)
class WeddingsPage:
    offers: list[WeddingOffer]
    tiffany: WeddingOffer | None


def to_wedding_offer(service: ServiceView) -> WeddingOffer:
    lines = details_as(service.details, WeddingOfferDetails).lines
    return WeddingOffer(
        id=service.id,
        title=service.title,
        description=service.description,
        image=service.image_url or "",
        price=str(to_amount(service.price)),
        price_label=format_price_with_unit(service.price, service.price_unit),
        lines=[f"{line.label}: {format_price(line.amount)}" for line in lines],
    )


def fallback_wedding_offers() -> list[WeddingOffer]:
    return [
        WeddingOffer(
            id="",
            title=_(title),
            description=_("Full decoration for your wedding. Contact us for details."),
            image="",
            price=str(FALLBACK_WEDDING_PRICE),
            price_label=format_price_with_unit(
                FALLBACK_WEDDING_PRICE, kinds.kind("wedding_offer").price_unit
            ),
            lines=[],
        )
        for title in FALLBACK_WEDDING_PACKAGES
    ]


@cached
def weddings_page(*, session: Session) -> WeddingsPage:
    """The page in the language of the moment (the cache keeps one per language)."""
    services = list_public_services(
        session=session, category_slug=WEDDINGS_CATEGORY, kind="wedding_offer"
    )
    offers = [to_wedding_offer(s) for s in services if s.slug != TIFFANY_SLUG]
    tiffany = next((to_wedding_offer(s) for s in services if s.slug == TIFFANY_SLUG), None)
    return WeddingsPage(offers=offers or fallback_wedding_offers(), tiffany=tiffany)


# --- wedding tables -------------------------------------------------------------------------

TABLES_CATEGORY = "wedding-tables"
# What a table costs when its service has no price (docs/product.md §9: 7 € a table).
TABLE_DEFAULT_PRICE = Decimal("7.00")
# The sizes the page offers: the diameters a table's details allow, as text.
TABLE_SIZES = tuple(str(diameter) for diameter in TABLE_DIAMETERS)


@dataclass(frozen=True)
class WeddingTable:
    id: str
    title: str
    color: str
    size: str
    price: str  # two decimals; the default price when the service has none


def to_table(service: ServiceView) -> WeddingTable:
    details = details_as(service.details, TableDetails)
    return WeddingTable(
        id=service.id,
        title=service.title,
        color=details.color,
        size=str(details.diameter),
        price=str(to_amount(service.price, TABLE_DEFAULT_PRICE)),
    )


def wedding_tables(*, session: Session) -> list[WeddingTable]:
    """The tables of the wedding tables page."""
    services = list_public_services(session=session, category_slug=TABLES_CATEGORY, kind="table")
    return [to_table(s) for s in services]


def is_table_choice(*, color: str | None = None, size: str | None = None) -> bool:
    """Whether the page offers this colour (or size): the ones a table's details allow."""
    if color is not None:
        return color in TABLE_COLORS
    return size in TABLE_SIZES


def table_price(price: object = None) -> Decimal:
    """A table's price as the page holds it, the default price for none."""
    return to_amount(TABLE_DEFAULT_PRICE if price is None else price)


def table_total(price: object, count: int) -> Decimal:
    """`count` tables at `price` each, priced as the cart's line will be
    (booking.pricing.price_line: one table is one unit of a per-event line)."""
    return price_line(
        price=table_price(price), price_unit="per_event", quantity=count, duration_hours=1
    )
