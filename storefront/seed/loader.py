"""Load the demo catalogue idempotently: rows are matched by slug or name and only missing
ones are inserted, so seeding twice changes nothing and an admin's edits are never overwritten.

Every row gets its English text (seed/catalog_en.py) in `translations["en"]`, when it is created
and, for rows an earlier seed created, on the next run: a field is filled in only where English
lacks it and the row still has the seed's own default text for it (the English of a text an
admin rewrote would be the English of something else; a wedding offer's English `lines` carry
its amounts)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import time
from decimal import Decimal

from sqlmodel import Session, select

from storefront.models import (
    Banner,
    BannerItem,
    BusinessSettings,
    Service,
    ServiceAvailability,
    ServiceCapacity,
    ServiceCategory,
)
from storefront.models.kinds import validate_details
from storefront.models.service_details import dump_details
from storefront.seed import catalog, catalog_en
from storefront.services import content
from storefront.services.catalog.banners import GALLERY_PREFIX
from storefront.services.catalog.public import default_price_unit
from storefront.services.media import storage
from storefront.services.media.placeholders import placeholder_image

# Image sizes fit their slots at 2x for sharp screens: banner cards are 280x350.
CARD_SIZE = (560, 700)
SERVICE_SIZE = (800, 600)
GALLERY_SIZE = (800, 600)

# Every day of the week, 09:00-20:00 in one-hour slots (0 is Sunday).
DEMO_HOURS = (time(9, 0), time(20, 0))
DEMO_SLOT_MINUTES = 60
DEMO_MAX_BOOKINGS_PER_SLOT = 2


@dataclass
class SeedReport:
    inserted: dict[str, int] = field(default_factory=dict)

    def add(self, what: str, n: int = 1) -> None:
        self.inserted[what] = self.inserted.get(what, 0) + n

    @property
    def total(self) -> int:
        return sum(self.inserted.values())


def load_demo(*, session: Session) -> SeedReport:
    report = SeedReport()
    categories = _categories(session, report)
    _services(session, categories, report)
    for banner in catalog.BANNERS:
        _banner(session, banner, report, folder=_banner_folder(banner["name"]))
    for name, captions in catalog.GALLERIES.items():
        banner = {
            "name": GALLERY_PREFIX + name,
            "description": f"Fotot e galerisë {name}",
            "display_order": 100,
            "items": [{"title": c, "description": None, "link_url": None} for c in captions],
        }
        _banner(session, banner, report, folder=f"galleries/{name}", size=GALLERY_SIZE)
    if session.get(BusinessSettings, 1) is None:
        # The demo's transport fees and fiscal number (issue 36); an owner's own stay.
        session.add(
            BusinessSettings(
                id=1,
                transport_fees=dict(catalog.TRANSPORT_FEES),
                fiscal_number=catalog.FISCAL_NUMBER,
            )
        )
        report.add("business_settings")
    session.flush()
    return report


def _categories(session: Session, report: SeedReport) -> dict[str, ServiceCategory]:
    existing = {c.slug: c for c in session.exec(select(ServiceCategory)).all()}
    for spec in catalog.CATEGORIES:
        category = existing.get(spec["slug"])
        if category is None:
            category = ServiceCategory(**spec)
            session.add(category)
            existing[spec["slug"]] = category
            report.add("service_categories")
        _in_english(category, catalog_en.CATEGORIES.get(spec["slug"], {}), spec, report)
    session.flush()
    return existing


def _services(session: Session, categories: dict[str, ServiceCategory], report: SeedReport) -> None:
    existing = {s.slug: s for s in session.exec(select(Service)).all()}
    for spec in catalog.SERVICES:
        service = existing.get(spec["slug"])
        if service is None:
            image = storage.save_bytes(
                "services",
                f"{spec['slug']}.webp",
                placeholder_image(spec["title"], width=SERVICE_SIZE[0], height=SERVICE_SIZE[1]),
            )
            service = Service(
                title=spec["title"],
                slug=spec["slug"],
                description=spec["description"],
                price=Decimal(spec["price"]),
                price_unit=default_price_unit(kind=spec["kind"], slug=spec["slug"]),
                kind=spec["kind"],
                category_id=categories[spec["category"]].id,
                images=[{"path": image.path, "url": image.url}],
                # Checked against the kind's schema like every other write.
                meta=dump_details(validate_details(spec["kind"], spec["meta"])),
                featured=spec.get("featured", False),
                display_order=spec.get("display_order", 0),
            )
            session.add(service)
            session.flush()
            report.add("services")
        _in_english(service, _english_service(spec), _seeded_service(spec), report)
        if session.get(ServiceCapacity, service.id) is None:
            session.add(ServiceCapacity(service_id=service.id, **spec["capacity"]))
            report.add("service_capacity")
        has_hours = session.exec(
            select(ServiceAvailability.id).where(ServiceAvailability.service_id == service.id)
        ).first()
        if has_hours is None:
            for day in range(7):
                session.add(
                    ServiceAvailability(
                        service_id=service.id,
                        day_of_week=day,
                        start_time=DEMO_HOURS[0],
                        end_time=DEMO_HOURS[1],
                        slot_duration_minutes=DEMO_SLOT_MINUTES,
                        max_bookings_per_slot=DEMO_MAX_BOOKINGS_PER_SLOT,
                    )
                )
            report.add("service_availability", 7)
    session.flush()


def _banner_folder(name: str) -> str:
    folder = f"banners/{name}"
    return folder if folder in storage.FOLDERS else "banners"


def _banner(
    session: Session,
    spec: dict,
    report: SeedReport,
    *,
    folder: str,
    size: tuple[int, int] = CARD_SIZE,
) -> None:
    existing = session.exec(select(Banner).where(Banner.name == spec["name"])).first()
    if existing is not None:
        seeded = {item["title"]: item for item in spec["items"]}
        for row in session.exec(select(BannerItem).where(BannerItem.banner_id == existing.id)):
            if row.title in seeded:
                _in_english(row, _english_banner_item(seeded[row.title]), seeded[row.title], report)
        return
    banner = Banner(
        name=spec["name"], description=spec["description"], display_order=spec["display_order"]
    )
    session.add(banner)
    session.flush()
    report.add("banners")
    for order, item in enumerate(spec["items"], start=1):
        image = storage.save_bytes(
            folder,
            f"{_slug(spec['name'])}-{order}.webp",
            placeholder_image(item["title"], width=size[0], height=size[1]),
        )
        row = BannerItem(
            banner_id=banner.id,
            title=item["title"],
            description=item["description"],
            image_url=image.url,
            link_url=item["link_url"],
            display_order=order,
        )
        session.add(row)
        report.add("banner_items")
        _in_english(row, _english_banner_item(item), item, report)


def _slug(text: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def _english_service(spec: dict) -> dict:
    """The English of a service of the seed, its details checked against the kind's schema like
    every other write (the keys given replace the default's: services/content.details)."""
    english = dict(catalog_en.SERVICES.get(spec["slug"], {}))
    written = english.get("details")
    if written:
        checked = dump_details(validate_details(spec["kind"], {**spec["meta"], **written}))
        english["details"] = {key: checked[key] for key in written}
    return english


def _seeded_service(spec: dict) -> dict:
    """What the seed writes in a service's own columns, with its details as stored."""
    meta = dump_details(validate_details(spec["kind"], spec["meta"]))
    return {"title": spec["title"], "description": spec["description"], "details": meta}


def _english_banner_item(spec: dict) -> dict:
    return {
        "title": catalog_en.BANNER_ITEMS.get(spec["title"]),
        "description": catalog_en.BANNER_ITEM_DESCRIPTIONS.get(spec["description"] or ""),
    }


def _in_english(row, english: dict, seeded: dict, report: SeedReport) -> None:
    """Gives `row` the English texts of the seed it lacks (see the module's docstring): a field
    (a key of `details`, one of the service's meta) is written when `translations["en"]` has
    nothing for it and `row` still holds the seed's default text (`seeded`) for it."""
    own = content.written(row.translations, "en")
    texts: dict = {}
    for name, value in english.items():
        if name == "details":
            continue
        if value and not _has(own.get(name)) and getattr(row, name) == seeded.get(name):
            texts[name] = value
    before = own.get("details") if isinstance(own.get("details"), dict) else {}
    details = dict(before)
    meta = getattr(row, "meta", None) or {}
    for key, value in (english.get("details") or {}).items():
        if not _has(details.get(key)) and meta.get(key) == seeded["details"].get(key):
            details[key] = value
    if details != before:
        texts["details"] = details
    if texts:
        row.translations = content.with_texts(row.translations, "en", texts)
        report.add("english_texts")


def _has(value) -> bool:
    """Whether a text (or a list, a dict of details) was written: services/content.py shows a
    blank one as missing."""
    if isinstance(value, str):
        return bool(value.strip())
    return value not in (None, [], {})
