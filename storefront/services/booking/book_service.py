"""The booking screen's service (docs/product.md §5): which service `/services/{serviceId}/book` names, and its total for the hours chosen."""

from __future__ import annotations

import re

from sqlmodel import Session

from storefront.models.service_details import own_hours
from storefront.services.booking import pricing
from storefront.services.catalog import public as catalog
from storefront.services.errors import ServiceError
from storefront.services.money import format_price

# --- the booking screen ---------------------------------------------------------------------

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


def service_to_book(*, session: Session, service_ref: str) -> catalog.ServiceView:
    """docs/product.md §5's id rules for `/services/{serviceId}/book`: trimmed; without a hyphen it
    is a slug; then it must be a UUID of an active, published service. A slug with hyphens (the
    service pages' own Book links use them) is looked up too before the id is called malformed
    (issue 20, item 9; README 'Bookings')."""
    ref = str(service_ref or "").strip()[:200]
    if not ref:
        raise ServiceRefError("missing_id", "No service ID provided")
    if "-" not in ref:
        found = catalog.get_public_service(session=session, service_id=ref)
        if found is None:
            raise ServiceRefError("not_found", "Service not found")
        return found
    if not UUID_PATTERN.match(ref):
        found = catalog.get_public_service(session=session, service_id=ref)
        if found is not None:
            return found
        raise ServiceRefError("bad_format", "Invalid service ID", given=ref)
    found = catalog.get_public_service(session=session, service_id=ref)
    if found is None:
        raise ServiceRefError("not_found", "Service not found")
    return found


def booking_total_label(service: catalog.ServiceView, duration_hours: int) -> str:
    """The booking screen's total: price x hours for a service priced per hour (the spec's
    reading; a package's own length, when it has one), the price for one priced per event
    (docs/architecture.md §9.9)."""
    if service.price is None:
        return ""
    return format_price(
        pricing.price_line(
            price=service.price,
            price_unit=service.price_unit,
            quantity=1,
            duration_hours=own_hours(service.details) or duration_hours,
        )
    )
