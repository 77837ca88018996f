"""Load the demo catalogue idempotently: rows are matched by slug or name and only missing
ones are inserted, so seeding twice changes nothing and an admin's edits are never overwritten."""

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
from storefront.seed import catalog
from storefront.services import storage
from storefront.services.banners import GALLERY_PREFIX
from storefront.services.catalog import default_price_unit
from storefront.services.placeholders import placeholder_image

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
            "description": f"Photos of the {name} gallery",
            "display_order": 100,
            "items": [{"title": c, "description": None, "link_url": None} for c in captions],
        }
        _banner(session, banner, report, folder=f"galleries/{name}", size=GALLERY_SIZE)
    if session.get(BusinessSettings, 1) is None:
        session.add(BusinessSettings(id=1))
        report.add("business_settings")
    session.flush()
    return report


def _categories(session: Session, report: SeedReport) -> dict[str, ServiceCategory]:
    existing = {c.slug: c for c in session.exec(select(ServiceCategory)).all()}
    for spec in catalog.CATEGORIES:
        if spec["slug"] not in existing:
            category = ServiceCategory(**spec)
            session.add(category)
            existing[spec["slug"]] = category
            report.add("service_categories")
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
    if session.exec(select(Banner).where(Banner.name == spec["name"])).first() is not None:
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
        session.add(
            BannerItem(
                banner_id=banner.id,
                title=item["title"],
                description=item["description"],
                image_url=image.url,
                link_url=item["link_url"],
                display_order=order,
            )
        )
        report.add("banner_items")


def _slug(text: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split())
