"""The cart's rules. The cart itself lives in the browser (localStorage `cartItems`); the states
read its text once where it comes in (`parse`, a typed `Cart`), these functions take that cart
and return the new one, and the state writes it back (`dump`) only when the browser's copy must
change. Prices always come from the catalogue, never from the browser."""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

from sqlmodel import Session

from storefront.i18n import N_, _, ngettext
from storefront.services import dates
from storefront.services.booking import availability, placing, pricing
from storefront.services.booking.lines import (
    CLOCK_PATTERN,
    DATE_PATTERN,
    BookingError,
    BookingLine,
    clock_text,
    day_text,
    parse_date,
    parse_time,
)
from storefront.services.cache import from_caches
from storefront.services.catalog import public as catalog
from storefront.services.money import format_price, format_price_with_unit, to_amount

# Stored in the browser's cart as it is (a key, not words): translated where it is shown
# (services/checkout's cart lines).
DEFAULT_DESCRIPTION = N_("No description provided")
MAX_ITEMS = 50
# The browser's localStorage key of the cart (state/CartState.cart_json).
STORAGE_KEY = "cartItems"
# The municipality the cart is taken to (a key of models/municipalities.py), kept beside it:
# the cart shows its transport and checkout starts from it.
CITY_STORAGE_KEY = "cartCity"
MAX_QUANTITY = 1000
# A stored cart longer than this is not read (MAX_ITEMS lines fit many times over).
MAX_CART_JSON = 200_000


@dataclass(frozen=True)
class CartItem:
    """One line of the cart, typed: read once from the browser's text (`parse`), written back
    once when the browser's copy must change (`dump`). Frozen, so a cart is hashable and one
    parse may be shared by every caller."""

    id: str
    service_id: str  # a UUID's text, blank when the browser's was not one
    name: str
    description: str
    price: str  # '7.00': shown only, the catalogue prices every line again
    image: str
    quantity: int = 1
    duration: int = 1
    date: date | None = None  # local; None until chosen
    start_time: time | None = None  # local; None until chosen
    unit: str | None = None  # 'table' or 'person' for a counted line

    def as_json(self) -> dict[str, Any]:
        """The item as the browser keeps it (the format of `cartItems`)."""
        item: dict[str, Any] = {
            "id": self.id,
            "serviceId": self.service_id,
            "name": self.name,
            "description": self.description,
            "price": self.price,
            "image": self.image,
            "quantity": self.quantity,
            "duration": self.duration,
            "date": day_text(self.date),
            "startTime": clock_text(self.start_time),
        }
        if self.unit is not None:
            item["unit"] = self.unit
        return item

    def __getitem__(self, key: str) -> Any:
        """A field by the browser's name and in its form ('startTime' -> '14:00'), for a
        script or a test that reads the cart as the browser keeps it."""
        return self.as_json()[key]


@dataclass(frozen=True)
class Cart:
    """The browser's cart, read at the door (`parse`): what the cart's services take."""

    items: tuple[CartItem, ...] = ()

    def __iter__(self) -> Iterator[CartItem]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> CartItem:
        return self.items[index]

    def index_of(self, item_id: str) -> int | None:
        return next((i for i, item in enumerate(self.items) if item.id == item_id), None)


EMPTY = Cart()


def parse(raw: str | None) -> Cart:
    """The browser's cart text, read once where it comes in, keeping only well-formed items (the
    browser can hold anything): quantities and hours clamped, a day or a time that is not one
    blanked (`lines.parse_date` / `parse_time`)."""
    if not isinstance(raw, str):
        return EMPTY
    if len(raw) > PARSED_CARTS_UP_TO:
        return _read(raw)
    return _read_recent(raw)


# A tab sends the same cart back with each of its events (an add, a day picked), usually the
# very text the last answer gave it: carts up to this length are read once and remembered
# (a Cart is frozen: callers share it safely).
PARSED_CARTS_UP_TO = 20_000
_RECENT_CARTS = 512


@functools.lru_cache(maxsize=_RECENT_CARTS)
def _read_recent(raw: str) -> Cart:
    return _read(raw)


def _read(raw: str) -> Cart:
    try:
        data = json.loads(raw or "[]")
    except (TypeError, ValueError):
        return EMPTY
    if not isinstance(data, list):
        return EMPTY
    items = []
    for entry in data[:MAX_ITEMS]:
        if not isinstance(entry, dict) or not all(entry.get(k) for k in ("id", "name", "image")):
            continue
        description = entry.get("description", DEFAULT_DESCRIPTION)
        unit = entry.get("unit")
        items.append(
            CartItem(
                id=str(entry["id"]),
                service_id=_uuid_text(entry.get("serviceId")) or _uuid_text(entry.get("id")),
                name=str(entry["name"]),
                description=description if isinstance(description, str) else DEFAULT_DESCRIPTION,
                price=f"{to_amount(entry.get('price')):.2f}",  # money is never a float
                image=str(entry["image"]),
                quantity=_clamp_int(entry.get("quantity"), 1, 1, MAX_QUANTITY),
                duration=_clamp_int(entry.get("duration"), 1, 1, 8),
                date=_date_of(entry.get("date")),
                start_time=_clock_of(entry.get("startTime")),
                unit=unit if isinstance(unit, str) else None,
            )
        )
    return Cart(tuple(items))


def checkout_leave_script() -> str:
    """The browser's half of 'checkout redirects to the cart if the cart is empty or any item
    lacks a date or start time' (docs/product.md), run at the top of the prerendered checkout
    page before anything is drawn (rxconfig.leave_incomplete_checkout): it goes to the cart only
    when the server's rule (`checkout.cart_view(...).complete`) is certain to say so too: no
    cart, not a list, an empty list, or a line `parse` keeps (an object with an id, a name and an
    image as non-empty text, among the first MAX_ITEMS) whose day or time `_date_of` /
    `_clock_of` would blank. Anything less certain (unreadable text, lines `parse` would drop)
    is left to the server. Built from this module's own key, limit and patterns."""
    return (
        "(function(){var raw;try{raw=localStorage.getItem(" + json.dumps(STORAGE_KEY) + ")}"
        "catch(e){return}var c;try{c=JSON.parse(raw===null?'[]':raw)}catch(e){return}"
        "var day=new RegExp(" + json.dumps(DATE_PATTERN.pattern) + "),"
        "clock=new RegExp(" + json.dumps(CLOCK_PATTERN.pattern) + ");"
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


def _date_of(value: object) -> date | None:
    """The day of a stored line (its first ten characters), else None."""
    return parse_date(str(value or "")[:10])


def _clock_of(value: object) -> time | None:
    """The start time of a stored line (its first five characters), else None."""
    return parse_time(str(value or "")[:5])


@dataclass(frozen=True)
class CartLines:
    lines: list[BookingLine]
    complete: bool  # every line has a service, a date and a start time (checkout may start)


def booking_lines(cart: Cart) -> CartLines:
    """The cart as booking lines, in cart order."""
    lines = [
        BookingLine(
            service_id=item.service_id,
            quantity=item.quantity,
            date=item.date,
            start_time=item.start_time,
            duration_hours=item.duration,
        )
        for item in cart
    ]
    complete = bool(lines) and all(
        line.service_id and line.date and line.start_time for line in lines
    )
    return CartLines(lines, complete)


def dump(cart: Cart) -> str:
    """The cart as the browser keeps it: written once, when the browser's copy must change."""
    return json.dumps([item.as_json() for item in cart], separators=(",", ":"), ensure_ascii=False)


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
) -> CartItem | None:
    """A cart line, or None unless id, name, price and image are all present (docs/product.md
    §5). `duration`: the hours it starts with (a package's own length, catalog.default_hours)."""
    if not item_id or not name or price is None or price == "" or not image:
        return None
    return CartItem(
        id=item_id,
        service_id=_uuid_text(service_id or item_id),
        name=name,
        description=description or DEFAULT_DESCRIPTION,
        price=f"{to_amount(price):.2f}",  # as text: the catalogue prices every line again
        image=image,
        quantity=_clamp_int(quantity, 1, 1, MAX_QUANTITY),
        duration=_clamp_int(duration, 1, 1, 8),
        unit=unit if unit in COUNTED else None,
    )


def add(cart: Cart, new: CartItem) -> Cart:
    """Add `new`; an item already in the cart has its quantity raised by `new`'s quantity
    (1 for an ordinary add)."""
    index = cart.index_of(new.id)
    if index is not None:
        raised = min(MAX_QUANTITY, cart[index].quantity + new.quantity)
        return _with_item(cart, index, quantity=raised)
    if len(cart) >= MAX_ITEMS:
        return cart
    return Cart((*cart.items, new))


def _with_item(cart: Cart, index: int, **changes: Any) -> Cart:
    items = list(cart.items)
    items[index] = replace(items[index], **changes)
    return Cart(tuple(items))


def clear_time(cart: Cart, index: object) -> Cart:
    """The cart with line `index`'s date and time cleared (a slot taken meanwhile): the guest
    picks another; any other index changes nothing."""
    if isinstance(index, int) and 0 <= index < len(cart):
        return _with_item(cart, index, date=None, start_time=None)
    return cart


def remove(cart: Cart, item_id: str) -> Cart:
    return Cart(tuple(item for item in cart if item.id != item_id))


def count(cart: Cart) -> int:
    """The badge: total quantity."""
    return sum(item.quantity for item in cart)


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
    # length: the cart to keep (the browser's copy must change).
    fitted_cart: Cart | None = None
    # The lines' total as a number: the transport is added to it (services/booking/transport.py).
    subtotal: Decimal = Decimal("0")


@from_caches
def cart_view(*, session: Session, cart: Cart) -> CartView:
    """The browser's cart priced from the catalogue (never from what the browser holds), each
    line held to what one time slot of its service can hold and to its package's own length
    (`fitted_cart`, when that changed a line: a cart kept from before, a forged one, or a
    service whose units or length changed). Catalogue data only,
    so an empty cart, or one whose services are cached, is answered in the event loop (the
    cart's every event refreshes it)."""
    fitted = cart
    for index, item in enumerate(cart):
        most = most_per_line(session=session, service_id=item.service_id)
        if item.quantity > most:
            fitted = _with_item(fitted, index, quantity=most)
        # A package of a known length is booked for that length, whatever the cart holds.
        hours = catalog.own_hours_of(session=session, service_id=item.service_id)
        if hours and item.duration != hours:
            fitted = _with_item(fitted, index, duration=hours)
    lines = booking_lines(fitted).lines
    views, total = [], Decimal("0")
    for item, line in zip(fitted, lines, strict=True):
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
        fitted_cart=fitted if fitted is not cart else None,
        subtotal=total,
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
    item: CartItem,
    line: BookingLine,
    priced: pricing.QuoteLine | None,
    most: int,
    *,
    description: str | None = None,
) -> CartLineView:
    return CartLineView(
        id=item.id,
        service_id=line.service_id,
        # The catalogue's name now, in the page's language (the one kept in the browser is
        # the language and the name of the moment it was added).
        name=counted_name(priced.name if priced else item.name, item.quantity, item.unit),
        description=description
        if description
        else _(DEFAULT_DESCRIPTION)
        if item.description == DEFAULT_DESCRIPTION
        else item.description,
        image=item.image,
        quantity=line.quantity,
        unit_price_label=(
            format_price_with_unit(priced.unit_price, priced.price_unit) if priced else ""
        ),
        line_total_label=format_price(priced.line_total) if priced else "",
        date=day_text(line.date),
        date_label=dates.display_day(line.date) if line.date else "",
        start_time=clock_text(line.start_time),
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
    cart: Cart


def release_taken_line(cart: Cart, index: object) -> TakenLine | None:
    """The line `index` (a booking refusal's `line`) of the cart, its time cleared; None when
    there is no such line."""
    if not isinstance(index, int) or not 0 <= index < len(cart):
        return None
    line = cart[index]
    day = dates.display_day(line.date) if line.date else ""
    when = f"{day} {clock_text(line.start_time)}".strip()
    return TakenLine(line.name, when, clear_time(cart, index))


@dataclass(frozen=True)
class Added:
    """What an add to the cart did: the new cart, the service, how many the cart now holds of
    it and the most it may (its units), and how many of those asked for did not fit."""

    cart: Cart
    service_id: str
    title: str
    kind: str
    held: int
    most: int
    refused: int


@from_caches
def add_to_cart(*, session: Session, cart: Cart, service_ref: str, count: int) -> Added | None:
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
    held = next((i.quantity for i in cart if i.id == item.id), 0)
    fits = max(0, min(count, most - held))
    if fits:
        cart = add(cart, replace(item, quantity=fits))
    return Added(
        cart=cart,
        service_id=service.id,
        title=service.title,
        kind=service.kind,
        held=held + fits,
        most=most,
        refused=count - fits,
    )


def set_quantity(*, session: Session, cart: Cart, line_id: str, quantity: int) -> Cart:
    """The cart with `line_id`'s quantity set, within 1 and what one time slot of its service
    can hold. A changed quantity keeps the line's date and time (checkout checks them again)."""
    for index, item in enumerate(cart):
        if item.id == line_id:
            most = most_per_line(session=session, service_id=item.service_id)
            cart = _with_item(cart, index, quantity=max(1, min(int(quantity), most)))
    return cart


def set_line_time(
    *,
    session: Session,
    cart: Cart,
    line_id: str,
    day: date,
    start_time: time,
    duration_hours: int,
    now: datetime | None = None,
) -> Cart:
    """The cart with `line_id` set to that date, time and duration, if the slot is free for the
    line's quantity, counting the cart's other lines of the same service. A package of a known
    length is set for that length whatever `duration_hours` says (the picker offers none; a
    forged event changes nothing: docs/architecture.md §5). Raises BookingError `slot_taken`
    (the spec's clash message) or `invalid_line`."""
    index = cart.index_of(line_id)
    if index is None:
        raise BookingError("invalid_line", "No such line in the cart")
    lines = booking_lines(cart).lines
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
    chosen = clock_text(start_time)
    if not any(slot.start_time == chosen and slot.available for slot in slots):
        raise BookingError("slot_taken", "This time slot is no longer available")
    return _with_item(cart, index, date=day, start_time=start_time, duration=duration_hours)
