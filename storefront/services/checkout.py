"""The cart on its way to a booking: lines priced from the catalogue, a time set on a line only
when the server says the slot is free, and the checkout form read into a booking's contact.

The cart itself stays in the browser (`cartItems`); these functions take its JSON and give back
shapes for the pages, or a new JSON."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlmodel import Session, col, select

from storefront.i18n import _
from storefront.models import Booking, BookingItem, User
from storefront.models.service_details import own_hours
from storefront.services import (
    availability,
    booking,
    booking_links,
    booking_views,
    business,
    cart,
    catalog,
    dates,
    fields,
    permissions,
)
from storefront.services.booking import BookingError, BookingLine, Contact
from storefront.services.booking_calendar import ics_for_booking
from storefront.services.catalog_cache import from_caches
from storefront.services.errors import ServiceError
from storefront.services.money import format_price, format_price_with_unit

FORM_FIELDS = (
    "full_name",
    "email",
    "phone",
    "address",
    "city",
    "state",
    "zip_code",
    "event_type",
    "guest_count",
    "special_requests",
)


@dataclass(frozen=True)
class CartLineView:
    id: str
    service_id: str
    name: str
    description: str
    image: str
    quantity: int
    unit_price_label: str  # with its unit: '599.00 € / h', '7.00 € per event'
    line_total_label: str
    date: str  # YYYY-MM-DD, blank until chosen
    date_label: str  # DD.MM.YYYY
    start_time: str  # HH:MM
    duration: int
    available: bool  # False when the service can no longer be booked
    max_quantity: int  # the most one time slot can hold (the service's units; capped by the cart)


@dataclass(frozen=True)
class CartView:
    lines: list[CartLineView]
    total_label: str
    complete: bool  # every line bookable and with a date and a time
    # Set when a line held more than its service can, or other hours than its package's own
    # length: the cart to keep.
    fitted_cart: str = ""


@from_caches
def cart_view(*, session: Session, raw_cart: str) -> CartView:
    """The browser's cart priced from the catalogue (never from what the browser holds), each
    line held to what one time slot of its service can hold and to its package's own length
    (`fitted_cart`, when that changed a line: a cart kept from before, a forged one, or a
    service whose units or length changed). Catalogue data only,
    so an empty cart, or one whose services are cached, is answered in the event loop (the
    cart's every event refreshes it)."""
    items = cart.parse(raw_cart)
    fitted = False
    for item in items:
        most = most_per_line(session=session, service_id=item["serviceId"])
        if item["quantity"] > most:
            item["quantity"], fitted = most, True
        # A package of a known length is booked for that length, whatever the cart holds.
        hours = catalog.own_hours_of(session=session, service_id=item["serviceId"])
        if hours and item["duration"] != hours:
            item["duration"], fitted = hours, True
    lines = cart.booking_lines(items).lines
    views, total = [], Decimal("0")
    for item, line in zip(items, lines, strict=True):
        found = _price(session, line)
        priced = found[0] if found else None
        if priced is not None:
            total += priced.line_total
        views.append(
            _line_view(
                item,
                line,
                priced,
                most_per_line(session=session, service_id=line.service_id),
                description=found[1] if found else None,
            )
        )
    complete = bool(views) and all(v.available and v.date and v.start_time for v in views)
    return CartView(
        lines=views,
        total_label=format_price(total),
        complete=complete,
        fitted_cart=cart.dump(items) if fitted else "",
    )


def most_per_line(*, session: Session, service_id: str) -> int:
    """The most of a service one cart line (one booking of it) may hold: its units (at least 1),
    at most the cart's MAX_QUANTITY."""
    units = availability.service_units(session=session, service_id=service_id)
    return max(1, min(cart.MAX_QUANTITY, units))


def _price(session: Session, line: BookingLine) -> tuple[booking.QuoteLine, str] | None:
    """The line priced from the catalogue's cache (the cart's view only: placing a booking
    quotes from the database), with the service's description in the page's language; None
    when its service cannot be booked now."""
    service = catalog.get_public_service(session=session, service_id=line.service_id)
    if service is None or service.price is None:
        return None
    try:
        quoted = booking.quote_line(
            service_id=service.id,
            name=catalog.line_name(service),
            price=service.price,
            price_unit=service.price_unit,
            line=line,
        )
    except BookingError:
        return None
    return quoted, service.description


def _line_view(
    item: dict[str, Any],
    line: BookingLine,
    priced: booking.QuoteLine | None,
    most: int,
    *,
    description: str | None = None,
) -> CartLineView:
    return CartLineView(
        id=item["id"],
        service_id=line.service_id,
        # The catalogue's name now, in the page's language (the one kept in the browser is
        # the language and the name of the moment it was added).
        name=cart.counted_name(
            priced.name if priced else item["name"], item["quantity"], item.get("unit")
        ),
        description=description
        if description
        else _(cart.DEFAULT_DESCRIPTION)
        if item["description"] == cart.DEFAULT_DESCRIPTION
        else item["description"],
        image=item["image"],
        quantity=line.quantity,
        unit_price_label=(
            format_price_with_unit(priced.unit_price, priced.price_unit) if priced else ""
        ),
        line_total_label=format_price(priced.line_total) if priced else "",
        date=line.date,
        date_label=dates.display_day(line.date) if line.date else "",
        start_time=line.start_time,
        duration=line.duration_hours,
        available=priced is not None,
        max_quantity=most,
    )


def counted(kind: str) -> bool:
    """A service booked by the piece (tables): its screens ask how many."""
    return kind == "table"


@dataclass(frozen=True)
class TakenLine:
    """A cart line whose time was taken while the guest checked out: its name and time as
    shown, and the cart with that line's time cleared so the guest picks another."""

    name: str
    when: str  # 'DD.MM.YYYY HH:MM'
    raw_cart: str


def release_taken_line(raw_cart: str, index: object) -> TakenLine | None:
    """The line `index` (a booking refusal's `line`) of the cart, its time cleared; None when
    there is no such line."""
    items = cart.parse(raw_cart)
    if not isinstance(index, int) or not 0 <= index < len(items):
        return None
    line = items[index]
    when = f"{dates.display_day(line['date'])} {line['startTime']}".strip()
    return TakenLine(line["name"], when, cart.dump(cart.clear_time(items, index)))


@dataclass(frozen=True)
class Added:
    """What an add to the cart did: the new cart, the service, how many the cart now holds of
    it and the most it may (its units), and how many of those asked for did not fit."""

    raw_cart: str
    service_id: str
    title: str
    kind: str
    held: int
    most: int
    refused: int


@from_caches
def add_to_cart(*, session: Session, raw_cart: str, service_ref: str, count: int) -> Added | None:
    """Add `count` of a public service (by id or slug) to the cart, never past what one time
    slot of it can hold (its units): what does not fit is refused and counted in `refused`.
    None when the service cannot be booked."""
    service = catalog.get_public_service(session=session, service_id=service_ref)
    if service is None or service.price is None:
        return None
    item = cart.make_item(
        item_id=service.id,
        name=catalog.line_name(service),
        price=service.price,
        image=service.image_url or "",
        description=service.description,
        quantity=count,
        unit="table" if counted(service.kind) else getattr(service.details, "unit", None),
        # A package the spec gives a length ('for 3 hours') goes in for that length.
        duration=catalog.default_hours(service),
    )
    if item is None:
        return None
    most = most_per_line(session=session, service_id=service.id)
    items = cart.parse(raw_cart)
    held = next((i["quantity"] for i in items if i["id"] == item["id"]), 0)
    fits = max(0, min(count, most - held))
    if fits:
        items = cart.add(items, item | {"quantity": fits})
    return Added(
        raw_cart=cart.dump(items),
        service_id=service.id,
        title=service.title,
        kind=service.kind,
        held=held + fits,
        most=most,
        refused=count - fits,
    )


def set_quantity(*, session: Session, raw_cart: str, line_id: str, quantity: int) -> str:
    """The cart with `line_id`'s quantity set, within 1 and what one time slot of its service
    can hold. A changed quantity keeps the line's date and time (checkout checks them again)."""
    items = cart.parse(raw_cart)
    for item in items:
        if item["id"] == line_id:
            item["quantity"] = max(
                1, min(int(quantity), most_per_line(session=session, service_id=item["serviceId"]))
            )
    return cart.dump(items)


def set_line_time(
    *,
    session: Session,
    raw_cart: str,
    line_id: str,
    day: str,
    start_time: str,
    duration_hours: int,
    now: datetime | None = None,
) -> str:
    """The cart with `line_id` set to that date, time and duration, if the slot is free for the
    line's quantity, counting the cart's other lines of the same service. A package of a known
    length is set for that length whatever `duration_hours` says (the picker offers none; a
    forged event changes nothing: docs/architecture.md §5). Raises BookingError `slot_taken`
    (the spec's clash message) or `invalid_line`."""
    items = cart.parse(raw_cart)
    index = next((i for i, item in enumerate(items) if item["id"] == line_id), None)
    if index is None:
        raise BookingError("invalid_line", "No such line in the cart")
    lines = cart.booking_lines(items).lines
    line = lines[index]
    own = catalog.own_hours_of(session=session, service_id=line.service_id)
    duration_hours = own or duration_hours
    try:
        slots = availability.day_slots(
            session=session,
            service_id=line.service_id,
            day=day,
            duration_hours=duration_hours,
            quantity=line.quantity,
            cart_holds=booking.other_cart_holds(
                lines, service_id=line.service_id, except_index=index, hours=own
            ),
            now=now,
        )
    except availability.AvailabilityError as exc:
        raise BookingError("invalid_line", exc.message, field=exc.code) from exc
    if not any(slot.start_time == start_time and slot.available for slot in slots):
        raise BookingError("slot_taken", "This time slot is no longer available")
    items[index] |= {
        "date": date.fromisoformat(day).isoformat(),
        "startTime": start_time,
        "duration": duration_hours,
    }
    return cart.dump(items)


def contact_from_form(form: dict[str, Any]) -> Contact:
    """The checkout form's fields as a booking contact (strings trimmed and bounded)."""
    text = {f: str(form.get(f) or "").strip()[:5000] for f in FORM_FIELDS}
    try:
        guests = int(text["guest_count"]) if text["guest_count"] else None  # None: required
    except ValueError:
        guests = -1  # refused by validation as out of range
    return Contact(
        full_name=text["full_name"],
        email=text["email"],
        phone=text["phone"],
        address=text["address"],
        city=text["city"],
        state=text["state"],
        zip_code=text["zip_code"],
        event_type=text["event_type"],  # asked for: empty is refused as required
        guest_count=guests,
        special_requests=text["special_requests"],
    )


def checkout_check(contact: Contact) -> fields.Checked:
    """The information step's fields: the booking's own rules (`booking.check_contact`), plus
    the address and ZIP code, which the checkout asks for (the booking screen does not)."""
    checked = booking.check_contact(contact)
    for name in ("address", "zip_code"):
        if not str(getattr(contact, name)).strip() and name not in checked.codes:
            label = _(booking.CONTACT_COLUMNS[name][1])
            required = fields.MESSAGES["required"]
            checked.refuse(name, "required", _(required).format(label=label))
    return checked


def checkout_errors(contact: Contact) -> dict[str, str]:
    """Field -> code for the information step (see `checkout_check`)."""
    return checkout_check(contact).codes


# --- after the booking ------------------------------------------------------------------------


def viewable_booking(
    *,
    session: Session,
    booking_id: str,
    viewer_id: str = "",
    key: str | None = None,
) -> booking_views.BookingView | None:
    """The booking for its owner, an admin (the admin check of every admin path: an admin who
    must set up two-factor sign-in first is not one yet), or whoever holds the signed link of
    the confirmation mail; None for anyone else (they see 'not found', not 'forbidden')."""
    view = booking_views.booking_for_view(session=session, booking_id=booking_id)
    if view is None:
        return None
    owner = bool(viewer_id) and view.user_id == viewer_id
    if owner or booking_links.verify_view_key(view.id, key):
        return view
    if viewer_id and permissions.acts_as_admin(session, viewer_id):
        return view
    return None


def booking_ics(
    *,
    session: Session,
    booking_id: str,
    viewer_id: str = "",
    key: str | None = None,
) -> bytes | None:
    """The booking's calendar file, under the same rule as the confirmation page."""
    view = viewable_booking(session=session, booking_id=booking_id, viewer_id=viewer_id, key=key)
    if view is None:
        return None
    row = session.get(Booking, uuid.UUID(view.id))
    items = session.exec(select(BookingItem).where(BookingItem.booking_id == row.id)).all()
    return ics_for_booking(row, items, business=business.settings_row(session))


# --- the month grid of the date picker ----------------------------------------------------------


@dataclass(frozen=True)
class GridDay:
    date: str  # YYYY-MM-DD; blank for the padding before the 1st
    day: str  # '1'..'31'
    available: bool


def month_grid(statuses: list[availability.DayStatus]) -> list[GridDay]:
    """The days of a month as a Monday-first grid: blanks before the 1st, then each day."""
    if not statuses:
        return []
    first = date.fromisoformat(statuses[0].date)
    padding = [GridDay("", "", False)] * first.weekday()
    return padding + [
        GridDay(s.date, str(date.fromisoformat(s.date).day), s.available) for s in statuses
    ]


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


def known_contact(*, session: Session, user_id: object) -> dict[str, str]:
    """What a signed-in customer's forms start with: their name and email from the account and
    the phone of their latest booking ({} for no such user)."""
    try:
        user = session.get(User, uuid.UUID(str(user_id)[:64]))
    except ValueError:
        return {}
    if user is None:
        return {}
    latest = session.exec(
        select(Booking)
        .where(Booking.user_id == user.id)
        .order_by(col(Booking.created_at).desc())
        .limit(1)
    ).first()
    known = {
        "full_name": user.full_name or (latest.contact_name if latest else "") or "",
        "email": user.email or "",
        "phone": latest.contact_phone if latest else "",
    }
    return {k: v for k, v in known.items() if v}


def fill_known(form: dict[str, str], known: dict[str, str]) -> dict[str, str]:
    """`form` with the empty fields that `known` has filled in; what was typed stays."""
    return form | {k: v for k, v in known.items() if k in form and not str(form[k]).strip()}


def service_to_book(*, session: Session, service_ref: str) -> catalog.ServiceView:
    """docs/product.md §5's id rules for `/services/{serviceId}/book`: trimmed; without a hyphen it
    is a slug; then it must be a UUID of an active, published service. A slug with hyphens (the
    service pages' own Book links use them) is looked up too before the id is called malformed
    (issue 20, item 9; docs/product.md, 'Bookings')."""
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
        booking.price_line(
            price=service.price,
            price_unit=service.price_unit,
            quantity=1,
            duration_hours=own_hours(service.details) or duration_hours,
        )
    )
