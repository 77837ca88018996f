"""Prices of a cart's lines from the catalogue (docs/architecture.md §9.9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from sqlmodel import Session, col, select

from storefront.models import (
    Service,
)
from storefront.models.service_details import own_hours
from storefront.services import content
from storefront.services.booking import availability
from storefront.services.booking.lines import (
    BookingError,
    BookingLine,
    check_line_count,
    check_line_shape,
)
from storefront.services.catalog.public import ServiceView
from storefront.services.money import format_price, price_line
from storefront.settings import get_settings


@dataclass(frozen=True)
class QuoteLine:
    service_id: str
    name: str
    unit_price: Decimal
    price_unit: str
    quantity: int
    duration_hours: int
    line_total: Decimal


@dataclass(frozen=True)
class Quote:
    lines: tuple[QuoteLine, ...]
    total: Decimal
    currency: str


# --- prices ---------------------------------------------------------------------------------


def quote(*, session: Session, lines: Sequence[BookingLine]) -> Quote:
    """Each line priced from the catalogue; dates and times are not needed."""
    check_line_count(lines)
    for index, line in enumerate(lines):
        check_line_shape(index, line)
    services = bookable_services(session, lines)
    quoted = tuple(_quote_line(services[index], line) for index, line in enumerate(lines))
    return Quote(
        lines=quoted,
        total=sum((q.line_total for q in quoted), Decimal("0.00")),
        currency=get_settings().currency,
    )


def _quote_line(service: Service, line: BookingLine) -> QuoteLine:
    return _priced(str(service.id), line_name(service), service.price, service.price_unit, line)


def quote_line(
    *, service_id: str, name: str, price: Decimal, price_unit: str, line: BookingLine
) -> QuoteLine:
    """One line priced as `quote` prices it, for a caller that found its service itself (the
    cart's view, from the catalogue's cache: checkout.cart_view); BookingError for a line of a
    wrong shape. Placing a booking quotes from the database (`quote`)."""
    check_line_shape(0, line)
    return _priced(service_id, name, price, price_unit, line)


def _priced(
    service_id: str, name: str, price: Decimal, price_unit: str, line: BookingLine
) -> QuoteLine:
    return QuoteLine(
        service_id=service_id,
        name=name,
        unit_price=Decimal(price),
        price_unit=price_unit,
        quantity=line.quantity,
        duration_hours=line.duration_hours,
        line_total=price_line(
            price=price,
            price_unit=price_unit,
            quantity=line.quantity,
            duration_hours=line.duration_hours,
        ),
    )


def bookable_services(session: Session, lines: Sequence[BookingLine]) -> dict[int, Service]:
    """The service of each line: active, published and priced, else `service_not_found`."""
    ids = {availability.service_id_of(line.service_id) for line in lines}
    found = {
        s.id: s for s in session.exec(select(Service).where(col(Service.id).in_(sorted(ids)))).all()
    }
    result = {}
    for index, line in enumerate(lines):
        service = found.get(availability.service_id_of(line.service_id))
        if (
            service is None
            or not service.active
            or service.status != "published"
            or service.price is None
        ):
            raise BookingError("service_not_found", "No such service", line=index)
        result[index] = service
    return result


def line_name(service: Service) -> str:
    """The line's name as the booking keeps it, in the language it is placed in (its mails,
    calendar file and page are in that language): content.line_name."""
    meta = service.meta if isinstance(service.meta, dict) else {}
    title = content.text(service.translations, "title", service.title)
    return content.line_name(title, service.kind, meta.get("type"))


def booking_total(service: ServiceView, duration_hours: int) -> Decimal:
    """The booking screen's total as a number (`booking_total_label`); 0 for no price."""
    if service.price is None:
        return Decimal("0.00")
    return price_line(
        price=service.price,
        price_unit=service.price_unit,
        quantity=1,
        duration_hours=own_hours(service.details) or duration_hours,
    )


def booking_total_label(service: ServiceView, duration_hours: int) -> str:
    """The booking screen's total: price x hours for a service priced per hour (the spec's
    reading; a package's own length, when it has one), the price for one priced per event
    (docs/architecture.md §9.9)."""
    if service.price is None:
        return ""
    return format_price(booking_total(service, duration_hours))
