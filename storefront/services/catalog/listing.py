"""Service Management's list (docs/product.md §2, 4): every service, searched, sorted and paged
on the server, its toggles, its status and delete. The service form (create, edit, the review of
owners' changes, images) is services/catalog/admin.py, whose admin check and error this uses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import func, or_
from sqlmodel import Session, col, delete, select

from storefront.i18n import _
from storefront.models import (
    BookingItem,
    Service,
    ServiceAvailability,
    ServiceCapacity,
    ServiceCategory,
    User,
    utcnow,
)
from storefront.models.catalog import ServiceRevision
from storefront.services import audit, paging, permissions
from storefront.services.catalog.admin import (
    CatalogError,
    _audited,
    _paths,
    _service,
    kind_label,
)
from storefront.services.media import storage
from storefront.services.money import format_price_with_unit

PAGE_SIZE = 20
# The most of a title or slug the list is searched by.
SEARCH_MAX = 100
SORTS = ("title", "category", "price", "created_at")


# --- the admins' list ----------------------------------------------------------------------


@dataclass(frozen=True)
class ServiceRow:
    id: str
    title: str
    slug: str
    category: str
    price_label: str
    active: bool
    featured: bool
    status: str
    kind: str
    kind_label: str  # models/kinds.py's word for the kind
    # Its owner changed it after it was published; the change waits for an admin.
    pending_review: bool = False


@dataclass(frozen=True)
class ServicePage:
    rows: list[ServiceRow]
    total: int
    page: int
    pages: int


def list_services(
    *,
    session: Session,
    actor_id: object,
    search: str = "",
    sort: str = "title",
    descending: bool = False,
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> ServicePage:
    """One page of every service (drafts and inactive ones too), searched by title or slug."""
    permissions.require_admin(session, actor_id, CatalogError)
    query = select(Service, ServiceCategory.name).join(ServiceCategory, isouter=True)
    text = str(search).strip()[:SEARCH_MAX]
    if text:
        pattern = f"%{text.lower()}%"
        query = query.where(
            or_(func.lower(Service.title).like(pattern), func.lower(Service.slug).like(pattern))
        )
    total = session.exec(select(func.count()).select_from(query.subquery())).one()
    shown = paging.window(total=total, page=page, per_page=page_size)
    key = {
        "title": func.lower(Service.title),
        "category": func.lower(func.coalesce(ServiceCategory.name, "")),
        "price": Service.price,
        "created_at": Service.created_at,
    }[sort if sort in SORTS else "title"]
    order = key.desc() if descending else key.asc()
    rows = session.exec(shown.of(query.order_by(order, col(Service.id)))).all()
    pending = set(
        session.exec(
            select(ServiceRevision.service_id).where(
                col(ServiceRevision.service_id).in_([s.id for s, _ in rows])
            )
        ).all()
    )
    return ServicePage(
        rows=[
            ServiceRow(
                id=str(s.id),
                title=s.title,
                slug=s.slug,
                category=category or _("Unknown"),
                price_label=format_price_with_unit(s.price, s.price_unit)
                if s.price is not None
                else "—",
                active=s.active,
                featured=s.featured,
                status=s.status,
                kind=s.kind,
                kind_label=kind_label(s.kind),
                pending_review=s.id in pending,
            )
            for s, category in rows
        ],
        total=total,
        page=shown.page,
        pages=shown.pages,
    )


def _change(
    session: Session, actor: User, service: Service, action: str, **changes: Any
) -> Service:
    with audit.changing(session, service, actor_id=actor.id, action=action, entity_type="service"):
        for name, value in changes.items():
            setattr(service, name, value)
        service.updated_at = utcnow()
    return service


def toggle_active(*, session: Session, actor_id: object, service_id: object) -> bool:
    """Activate or deactivate; returns the new state."""
    actor = permissions.require_admin(session, actor_id, CatalogError)
    service = _service(session, service_id, lock=True)
    return _change(session, actor, service, "toggle_active", active=not service.active).active


def toggle_featured(*, session: Session, actor_id: object, service_id: object) -> bool:
    actor = permissions.require_admin(session, actor_id, CatalogError)
    service = _service(session, service_id, lock=True)
    return _change(
        session, actor, service, "toggle_featured", featured=not service.featured
    ).featured


def set_status(*, session: Session, actor_id: object, service_id: object, status: str) -> str:
    """Publish a draft (or take a service back to draft)."""
    actor = permissions.require_admin(session, actor_id, CatalogError)
    if status not in ("published", "draft"):
        raise CatalogError("invalid", "Unknown status", field="status", reason="choice")
    service = _service(session, service_id, lock=True)
    return _change(session, actor, service, f"set_status_{status}", status=status).status


def delete_service(
    *, session: Session, actor_id: object, service_id: object
) -> Literal["deleted", "deactivated"]:
    """Delete a service; one that has bookings is deactivated instead, so its bookings keep
    their service."""
    actor = permissions.require_admin(session, actor_id, CatalogError)
    service = _service(session, service_id, lock=True)
    booked = session.exec(
        select(BookingItem.id).where(BookingItem.service_id == service.id).limit(1)
    ).first()
    if booked is not None:
        if service.active:
            _change(session, actor, service, "deactivate_instead_of_delete", active=False)
        return "deactivated"
    before = audit.snapshot(service)
    revision = session.get(ServiceRevision, service.id)
    proposed = _paths(revision.values.get("images", [])) if revision else set()
    if revision is not None:
        session.delete(revision)
    session.exec(
        delete(ServiceAvailability).where(col(ServiceAvailability.service_id) == service.id)
    )
    session.exec(delete(ServiceCapacity).where(col(ServiceCapacity.service_id) == service.id))
    session.delete(service)
    session.flush()
    storage.release(session, _paths(service.images) | proposed)
    _audited(session, actor, service, "delete", before, None)
    return "deleted"
