"""The cart's rules. The cart itself lives in the browser (localStorage `cartItems`); these pure
functions take the list of items and return the new list, so the same rules run wherever the
cart is changed. Prices always come from the catalogue, never from the browser."""

from __future__ import annotations

import functools
import json
import re
import uuid
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlmodel import Session

from storefront.i18n import N_, _, ngettext
from storefront.services import dates
from storefront.services.booking import availability, placing, pricing
from storefront.services.booking.lines import BookingError, BookingLine
from storefront.services.cache import from_caches
from storefront.services.catalog import public as catalog
from storefront.services.money import format_price, format_price_with_unit, to_amount

# Stored in the browser's cart as it is (a key, not words): translated where it is shown
# (services/checkout's cart lines).
DEFAULT_DESCRIPTION = N_("No description provided")
MAX_ITEMS = 50
# The browser's localStorage key of the cart (state/CartState.cart_json).
STORAGE_KEY = "cartItems"
MAX_QUANTITY = 1000
# A stored cart longer than this is not read (MAX_ITEMS lines fit many times over).
MAX_CART_JSON = 200_000


def parse(raw: str | None) -> list[dict[str, Any]]:
    """The stored cart, keeping only well-formed items (the browser can hold anything). Each
    call returns fresh dicts: callers may change them."""
    if not isinstance(raw, str):
        return []
    if len(raw) > PARSED_CARTS_UP_TO:
        return _read(raw)
    return [dict(item) for item in _read_recent(raw)]


# A tab sends the same cart back with each of its events (an add, a day picked), usually the
# very text the last answer gave it: carts up to this length are read once and remembered.
PARSED_CARTS_UP_TO = 20_000
_RECENT_CARTS = 512


@functools.lru_cache(maxsize=_RECENT_CARTS)
def _read_recent(raw: str) -> tuple[dict[str, Any], ...]:
    return tuple(_read(raw))


def _read(raw: str) -> list[dict[str, Any]]:
    try:
        data = json.loads(raw or "[]")
    except (TypeError, ValueError):
        return []
    if not isinstance(data, list):
        return []
    items = []
    for entry in data[:MAX_ITEMS]:
        if not isinstance(entry, dict) or not all(entry.get(k) for k in ("id", "name", "image")):
            continue
        item = dict(entry)
        item["price"] = f"{to_amount(entry.get('price')):.2f}"  # shown only: money is never a float
        item["quantity"] = _clamp_int(entry.get("quantity"), 1, 1, MAX_QUANTITY)
        item["duration"] = _clamp_int(entry.get("duration"), 1, 1, 8)
        item["serviceId"] = _uuid_text(entry.get("serviceId")) or _uuid_text(entry.get("id"))
        item["date"] = _date_text(entry.get("date"))
        item["startTime"] = _clock_text(entry.get("startTime"))
        item.setdefault("description", DEFAULT_DESCRIPTION)
        items.append(item)
    return items


# ASCII digits only, as the browser writes them (and as the checkout page's own first check,
# `checkout_leave_script`, reads them with the same patterns).
_CLOCK = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$", re.ASCII)
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$", re.ASCII)


def checkout_leave_script() -> str:
    """The browser's half of 'checkout redirects to the cart if the cart is empty or any item
    lacks a date or start time' (docs/product.md), run at the top of the prerendered checkout
    page before anything is drawn (rxconfig.leave_incomplete_checkout): it goes to the cart only
    when the server's rule (`checkout.cart_view(...).complete`) is certain to say so too: no
    cart, not a list, an empty list, or a line `parse` keeps (an object with an id, a name and an
    image as non-empty text, among the first MAX_ITEMS) whose day or time `_date_text` /
    `_clock_text` would blank. Anything less certain (unreadable text, lines `parse` would drop)
    is left to the server. Built from this module's own key, limit and patterns."""
    return (
        "(function(){var raw;try{raw=localStorage.getItem(" + json.dumps(STORAGE_KEY) + ")}"
        "catch(e){return}var c;try{c=JSON.parse(raw===null?'[]':raw)}catch(e){return}"
        "var day=new RegExp(" + json.dumps(_DATE.pattern) + "),"
        "clock=new RegExp(" + json.dumps(_CLOCK.pattern) + ");"
        "function s(x){return typeof x==='string'&&x.length>0}"
        "function kept(i){return i!==null&&typeof i==='object'&&!Array.isArray(i)"
        "&&s(i.id)&&s(i.name)&&s(i.image)}"
        "function timed(i){return typeof i.date==='string'&&day.test(i.date.slice(0,10))"
        "&&typeof i.startTime==='string'&&clock.test(i.startTime.slice(0,5))}"
        "if(!Array.isArray(c)||c.length===0||c.slice(0," + str(MAX_ITEMS) + ").some("
        "function(i){return kept(i)&&!timed(i)}))"
        "location.replace(location.pathname.replace(/checkout\\/?$/,'cart'))})()"
    )


def _uuid_text(value: object) -> str:
    try:
        return str(uuid.UUID(str(value)[:40]))
    except ValueError:
        return ""


def _date_text(value: object) -> str:
    """YYYY-MM-DD of a real date, else blank."""
    text = str(value or "")[:10]
    if not _DATE.match(text):
        return ""
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        return ""


def _clock_text(value: object) -> str:
    """HH:MM on a 24-hour clock, else blank."""
    text = str(value or "")[:5]
    return text if _CLOCK.match(text) else ""


@dataclass(frozen=True)
class CartLines:
    lines: list[BookingLine]
    complete: bool  # every line has a service, a date and a start time (checkout may start)


def booking_lines(items: list[dict[str, Any]]) -> CartLines:
    """The parsed cart as booking lines, in cart order."""
    lines = [
        BookingLine(
            service_id=item["serviceId"],
            quantity=item["quantity"],
            date=item["date"],
            start_time=item["startTime"],
            duration_hours=item["duration"],
        )
        for item in items
    ]
    complete = bool(lines) and all(
        line.service_id and line.date and line.start_time for line in lines
    )
    return CartLines(lines, complete)


def dump(items: list[dict[str, Any]]) -> str:
    return json.dumps(items, separators=(",", ":"), ensure_ascii=False)


def _clamp_int(value: object, default: int, low: int, high: int) -> int:
    try:
        number = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return default
    return max(low, min(high, number))


def make_item(
    *,
    item_id: str,
    name: str,
    price: Decimal | float | str,
    image: str,
    description: str | None = None,
    quantity: int = 1,
    service_id: str | None = None,
    unit: str | None = None,
    duration: int = 1,
) -> dict[str, Any] | None:
    """A cart line, or None unless id, name, price and image are all present (docs/product.md
    §5). `duration`: the hours it starts with (a package's own length, catalog.default_hours)."""
    if not item_id or not name or price is None or price == "" or not image:
        return None
    item = {
        "id": item_id,
        "serviceId": _uuid_text(service_id or item_id),
        "name": name,
        "description": description or DEFAULT_DESCRIPTION,
        "price": f"{to_amount(price):.2f}",  # as text: the catalogue prices every line again
        "image": image,
        "quantity": _clamp_int(quantity, 1, 1, MAX_QUANTITY),
        "duration": _clamp_int(duration, 1, 1, 8),
        "date": "",
        "startTime": "",
    }
    if unit in COUNTED:
        item["unit"] = unit
    return item


def add(items: list[dict[str, Any]], new: dict[str, Any]) -> list[dict[str, Any]]:
    """Add `new`; an item already in the cart has its quantity raised by `new`'s quantity
    (1 for an ordinary add)."""
    out = [dict(i) for i in items]
    for item in out:
        if item["id"] == new["id"]:
            item["quantity"] = min(MAX_QUANTITY, item["quantity"] + new.get("quantity", 1))
            return out
    if len(out) >= MAX_ITEMS:
        return out
    return [*out, dict(new)]


def clear_time(items: list[dict[str, Any]], index: object) -> list[dict[str, Any]]:
    """The cart with line `index`'s date and time cleared (a slot taken meanwhile): the guest
    picks another; any other index changes nothing."""
    out = [dict(i) for i in items]
    if isinstance(index, int) and 0 <= index < len(out):
        out[index]["date"], out[index]["startTime"] = "", ""
    return out


def remove(items: list[dict[str, Any]], item_id: str) -> list[dict[str, Any]]:
    return [dict(i) for i in items if i["id"] != item_id]


def count(items: list[dict[str, Any]]) -> int:
    """The badge: total quantity."""
    return sum(int(i["quantity"]) for i in items)


# Counted lines: wedding tables (one unit a table) and Tiffany chairs (one unit a guest). The
# default edition says the same for one as for many (SPEC's words); English says 'table(s)'.
COUNTED = {"table", "person"}
TABLE_COUNT_MAX = 1000


def counted_name(name: str, quantity: int, unit: str | None) -> str:
    """The cart shows a counted line with its count: 'White tables 60cm (12 tavolina)'."""
    if unit == "table":
        counted = ngettext("{count} table", "{count} tables", quantity)
    elif unit == "person":
        counted = ngettext("{count} person", "{count} people", quantity)
    else:
        return name
    return f"{name} ({counted.format(count=quantity)})"


def table_count_input(text: str, *, on_blur: bool) -> str:
    """The tables count field: digits only, at most 1000; blank is tolerated while typing,
    and on blur a blank or a value below 1 becomes 1."""
    digits = "".join(ch for ch in str(text)[:12] if ch.isdigit())
    if not digits:
        return "1" if on_blur else ""
    number = min(int(digits), TABLE_COUNT_MAX)
    if number < 1:
        return "1" if on_blur else "0"
    return str(number)


def tiffany_total_label(price_per_person: object, people: int) -> str:
    """The spec's copy for Tiffany chairs: 'TOTALI = {n*5}€' (whole euros shown without decimals)."""
    total = to_amount(price_per_person) * max(0, int(people))
    shown = total.quantize(Decimal(1)) if total == total.to_integral_value() else total
    return _("TOTAL = {total}€").format(total=shown)


TIFFANY_PEOPLE_MAX = MAX_QUANTITY


def people_count(text: str, most: int = TIFFANY_PEOPLE_MAX) -> int:
    """Tiffany chairs: a whole number of people from 1 to `most` (the chairs there are, at most
    the 1000 a cart line holds), else 0 (invalid).

    The spec sets no upper limit. A larger count is refused rather than cut down, so the field,
    the total and the cart never show three different numbers; `people_problem` says why."""
    text = str(text).strip()[:12]
    if not text.isdigit():
        return 0
    number = int(text)
    return number if 1 <= number <= min(most, TIFFANY_PEOPLE_MAX) else 0


def people_problem(text: str, most: int = TIFFANY_PEOPLE_MAX) -> str:
    """'too_many' when more people are typed than one booking takes; '' otherwise."""
    text = str(text).strip()[:12]
    return "too_many" if text.isdigit() and int(text) > min(most, TIFFANY_PEOPLE_MAX) else ""


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
    items = parse(raw_cart)
    fitted = False
    for item in items:
        most = most_per_line(session=session, service_id=item["serviceId"])
        if item["quantity"] > most:
            item["quantity"], fitted = most, True
        # A package of a known length is booked for that length, whatever the cart holds.
        hours = catalog.own_hours_of(session=session, service_id=item["serviceId"])
        if hours and item["duration"] != hours:
            item["duration"], fitted = hours, True
    lines = booking_lines(items).lines
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
        fitted_cart=dump(items) if fitted else "",
    )


def most_per_line(*, session: Session, service_id: str) -> int:
    """The most of a service one cart line (one booking of it) may hold: its units (at least 1),
    at most the cart's MAX_QUANTITY."""
    units = availability.service_units(session=session, service_id=service_id)
    return max(1, min(MAX_QUANTITY, units))


def _price(session: Session, line: BookingLine) -> tuple[pricing.QuoteLine, str] | None:
    """The line priced from the catalogue's cache (the cart's view only: placing a booking
    quotes from the database), with the service's description in the page's language; None
    when its service cannot be booked now."""
    service = catalog.get_public_service(session=session, service_id=line.service_id)
    if service is None or service.price is None:
        return None
    try:
        quoted = pricing.quote_line(
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
    priced: pricing.QuoteLine | None,
    most: int,
    *,
    description: str | None = None,
) -> CartLineView:
    return CartLineView(
        id=item["id"],
        service_id=line.service_id,
        # The catalogue's name now, in the page's language (the one kept in the browser is
        # the language and the name of the moment it was added).
        name=counted_name(
            priced.name if priced else item["name"], item["quantity"], item.get("unit")
        ),
        description=description
        if description
        else _(DEFAULT_DESCRIPTION)
        if item["description"] == DEFAULT_DESCRIPTION
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
    items = parse(raw_cart)
    if not isinstance(index, int) or not 0 <= index < len(items):
        return None
    line = items[index]
    when = f"{dates.display_day(line['date'])} {line['startTime']}".strip()
    return TakenLine(line["name"], when, dump(clear_time(items, index)))


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
    item = make_item(
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
    items = parse(raw_cart)
    held = next((i["quantity"] for i in items if i["id"] == item["id"]), 0)
    fits = max(0, min(count, most - held))
    if fits:
        items = add(items, item | {"quantity": fits})
    return Added(
        raw_cart=dump(items),
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
    items = parse(raw_cart)
    for item in items:
        if item["id"] == line_id:
            item["quantity"] = max(
                1, min(int(quantity), most_per_line(session=session, service_id=item["serviceId"]))
            )
    return dump(items)


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
    items = parse(raw_cart)
    index = next((i for i, item in enumerate(items) if item["id"] == line_id), None)
    if index is None:
        raise BookingError("invalid_line", "No such line in the cart")
    lines = booking_lines(items).lines
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
            cart_holds=placing.other_cart_holds(
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
    return dump(items)
