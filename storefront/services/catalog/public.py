"""Reading the catalogue: categories and the services shown on the public pages."""

from __future__ import annotations

import re
import uuid
from dataclasses import asdict, dataclass, field
from decimal import Decimal

from sqlmodel import Session, col, select

from storefront.models import (
    PER_EVENT_SLUGS,
    Service,
    ServiceCategory,
    ServiceSlugRedirect,
    kinds,
)
from storefront.models.kinds import read_details
from storefront.models.service_details import (
    Details,
    PlainDetails,
    ThemeDetails,
    details_as,
    own_hours,
)
from storefront.services import content
from storefront.services.cache import cached, from_caches
from storefront.services.errors import ServiceError


def default_price_unit(*, kind: str, slug: str) -> str:
    """How a new service is priced unless an admin says otherwise (docs/architecture.md §9.9)."""
    return "per_event" if slug in PER_EVENT_SLUGS else kinds.kind(kind).price_unit


@dataclass(frozen=True)
class CategoryView:
    id: str
    name: str
    slug: str
    description: str | None

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class ServiceView:
    id: str
    title: str
    slug: str
    description: str
    price: Decimal | None
    kind: str
    category_slug: str | None
    image_url: str | None
    # The kind's own fields (models/service_details.py), read once here.
    details: Details = field(default_factory=PlainDetails)
    price_unit: str = "per_hour"
    image_urls: list[str] = field(default_factory=list)


def line_name(service: ServiceView) -> str:
    """What a cart or booking line of `service` is called (content.line_name)."""
    return content.line_name(service.title, service.kind, getattr(service.details, "type", None))


def default_hours(service: ServiceView) -> int:
    """The hours a cart line of `service` starts with: its own length when its details give one
    ('a bubble house for 3 hours', PackageDetails.hours: then the line keeps it, `own_hours`),
    else 1."""
    return own_hours(service.details) or 1


@from_caches
def own_hours_of(*, session: Session, service_id: object) -> int | None:
    """The own length of a public service (service_details.own_hours: it is booked for exactly
    that long and no duration is offered), from the catalogue's cache; None when the guest
    chooses the hours, or for no such service."""
    view = get_public_service(session=session, service_id=str(service_id)[:200])
    return own_hours(view.details) if view is not None else None


@cached
def list_categories(*, session: Session) -> list[CategoryView]:
    rows = session.exec(select(ServiceCategory).order_by(col(ServiceCategory.name))).all()
    return [
        CategoryView(
            str(r.id),
            content.text(r.translations, "name", r.name),
            r.slug,
            content.text(r.translations, "description", r.description),
        )
        for r in rows
    ]


def _view(service: Service, category_slug: str | None) -> ServiceView:
    image = service.images[0]["url"] if service.images else None
    return ServiceView(
        id=str(service.id),
        title=content.text(service.translations, "title", service.title),
        slug=service.slug,
        description=content.text(service.translations, "description", service.description),
        price=service.price,
        kind=service.kind,
        category_slug=category_slug,
        image_url=image,
        details=read_details(service.kind, content.details(service.translations, service.meta)),
        price_unit=service.price_unit,
        image_urls=[i["url"] for i in service.images if i.get("url")],
    )


@cached
def list_public_services(
    *, session: Session, category_slug: str | None = None, kind: str | None = None
) -> list[ServiceView]:
    """Active, published services, optionally of one category and kind, in display order."""
    query = (
        select(Service, ServiceCategory.slug)
        .join(ServiceCategory, isouter=True)
        .where(col(Service.active), Service.status == "published")
    )
    if category_slug is not None:
        query = query.where(ServiceCategory.slug == category_slug)
    if kind is not None:
        query = query.where(Service.kind == kind)
    query = query.order_by(col(Service.display_order), col(Service.title))
    return [_view(service, slug) for service, slug in session.exec(query).all()]


def detail_page_kinds() -> tuple[str, ...]:
    """The kinds with a page of their own at services/{id or slug} (models/kinds.py)."""
    return kinds.detail_page_kinds()


# The tabs of a service's page, in order (pages/public/theme.py).
PAGE_TABS = ("description", "features", "addons")


def page_tabs(view: ServiceView) -> tuple[str, ...]:
    """The tabs a service's page shows: only those it has something for (issue 20, item 19),
    so a plain service shows no empty Features or Add-Ons."""
    details = details_as(view.details, ThemeDetails)
    content = {
        "description": (details.long_description or view.description).strip(),
        "features": details.features,
        "addons": details.add_ons,
    }
    return tuple(tab for tab in PAGE_TABS if content[tab])


def more_themes(view: ServiceView) -> bool:
    """Whether a service's page offers 'View More Themes': on themes only (issue 20, item 19)."""
    return view.kind == "theme"


@cached
def get_public_service(*, session: Session, service_id: str) -> ServiceView | None:
    """An active, published service by id, by slug, or by a slug it had before (its old
    addresses keep answering, issue 20, item 18; `moved_to` says where they lead); None for
    anything else. A service that has a slug now wins over another's old address."""
    query = (
        select(Service, ServiceCategory.slug)
        .join(ServiceCategory, isouter=True)
        .where(col(Service.active), Service.status == "published")
    )
    try:
        return _first(session, query.where(Service.id == uuid.UUID(str(service_id))))
    except ValueError:
        slug = str(service_id)[:200]
    if session.exec(select(Service.id).where(Service.slug == slug)).first() is not None:
        return _first(session, query.where(Service.slug == slug))
    old = select(ServiceSlugRedirect.service_id).where(ServiceSlugRedirect.old_slug == slug)
    return _first(session, query.where(col(Service.id).in_(old)))


def _first(session: Session, query) -> ServiceView | None:
    row = session.exec(query).first()
    return _view(*row) if row else None


def moved_to(key: str, view: ServiceView) -> str | None:
    """The slug a service page asked for by `key` moves to: the service's slug now when `key`
    is an old one of it (get_public_service found it through a redirect); None when `key` is
    its id or its slug."""
    try:
        uuid.UUID(str(key))
    except ValueError:
        return view.slug if key != view.slug else None
    return None


# --- the service a booking screen names ---------------------------------------------------------------------

UUID_PATTERN = re.compile(
    r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE
)


class ServiceRefError(ServiceError):
    """Codes: missing_id ('No service ID provided'), bad_format (details['given']),
    not_found."""

    CODES = {
        "bad_format": "Invalid service ID",
        "missing_id": "No service ID provided",
        "not_found": "Service not found",
    }


def service_to_book(*, session: Session, service_ref: str) -> ServiceView:
    """docs/product.md §5's id rules for `/services/{serviceId}/book`: trimmed; without a hyphen it
    is a slug; then it must be a UUID of an active, published service. A slug with hyphens (the
    service pages' own Book links use them) is looked up too before the id is called malformed
    (issue 20, item 9; docs/product.md, 'Bookings')."""
    ref = str(service_ref or "").strip()[:200]
    if not ref:
        raise ServiceRefError("missing_id", "No service ID provided")
    if "-" not in ref:
        found = get_public_service(session=session, service_id=ref)
        if found is None:
            raise ServiceRefError("not_found", "Service not found")
        return found
    if not UUID_PATTERN.match(ref):
        found = get_public_service(session=session, service_id=ref)
        if found is not None:
            return found
        raise ServiceRefError("bad_format", "Invalid service ID", given=ref)
    found = get_public_service(session=session, service_id=ref)
    if found is None:
        raise ServiceRefError("not_found", "Service not found")
    return found
