"""What a booking owes besides its lines (issue 36): the transport to its municipality and the
deposit asked before the day. The rules live here and the settings are read through here:
the cart and checkout show them, placing a booking stores them (services/booking/placing.py),
the admin edit reprices the transport when the municipality changes (services/booking/admin.py).

The fees are `BusinessSettings.transport_fees`: {municipality key: '15.00', or null: not served
online (the guest is asked to call)}; a municipality not named costs nothing (the home town,
Prishtinë, by default). The deposit: `deposit_percent` % of the total, rounded to the cent, of
a booking whose total is above `deposit_above` (0 %: no deposit)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from types import MappingProxyType

from sqlmodel import Session

from storefront import i18n
from storefront.i18n import N_s, _s
from storefront.models import BusinessSettings
from storefront.models import municipalities as places
from storefront.models.municipalities import Municipality
from storefront.services import business, permissions
from storefront.services.cache import cached, from_caches
from storefront.services.errors import ServiceError

# The day a deposit is due by is a basic (services/money.py), so the mails say the same day.
from storefront.services.money import (  # noqa: F401 (DEPOSIT_DAYS, deposit_due: read here)
    CENT,
    DEPOSIT_DAYS,
    deposit_due,
    format_price,
)

# The most a transport fee may be (a typo of 1500 instead of 15.00 is refused).
MAX_FEE = Decimal("1000.00")

UNKNOWN_MESSAGE = N_s("Choose your municipality from the list")
NOT_SERVED_MESSAGE = N_s(
    "We do not take bookings to {municipality} online. Please call us on {phone} and we will "
    "arrange it with you."
)
FEE_MESSAGE = N_s(
    "{municipality}: enter an amount from 0 to {most} with up to two decimals, or choose "
    "'not served online'"
)


class TransportError(ServiceError):
    """Codes: not_allowed (not an admin), invalid (details `fields`: {municipality key: code},
    `messages`: {municipality key: message})."""

    CODES = {
        "invalid": "Please check the transport fees",
        "not_allowed": "Only admins may do this",
    }


class _AdminCheck(ServiceError):
    CODES = permissions.ADMIN_CHECK_CODES


# --- the rules, without a database ---------------------------------------------------------


def fee_of(fees: Mapping[str, object] | None, key: str) -> Decimal | None:
    """The fee of municipality `key` in the stored `fees`: its amount, None when it is not
    served online, 0 when it is not named (or the stored text is not an amount)."""
    fees = fees if isinstance(fees, Mapping) else {}
    if key in fees and fees[key] is None:
        return None
    amount = parse_fee(fees.get(key, "0"))
    return amount if amount is not None else Decimal("0.00")


def parse_fee(value: object) -> Decimal | None:
    """'15', '15.5', '15,50' -> Decimal('15.50'); None for anything that is not an amount from 0
    to MAX_FEE with at most two decimals."""
    text = str(value if value is not None else "").strip().replace(",", ".")
    if not text:
        return None
    try:
        amount = Decimal(text)
    except (InvalidOperation, ValueError):
        return None
    if not amount.is_finite() or amount < 0 or amount > MAX_FEE:
        return None
    if amount != amount.quantize(CENT):
        return None
    return amount.quantize(CENT)


def deposit_for(total: Decimal, percent: int, above: Decimal) -> Decimal:
    """`percent` % of `total`, rounded half up to the cent, when `total` is above `above`;
    0.00 otherwise (and with 0 %)."""
    total = Decimal(total)
    if not percent or percent <= 0 or total <= Decimal(above):
        return Decimal("0.00")
    return (total * Decimal(min(int(percent), 100)) / 100).quantize(CENT, rounding=ROUND_HALF_UP)


# --- read through the settings --------------------------------------------------------------


def _row(session: Session) -> BusinessSettings:
    return business.settings_row(session)


def transport_fee(session: Session, municipality_key: str) -> Decimal | None:
    """The transport to a municipality (by key) as the settings price it now; None when it is
    not served online."""
    return fee_of(_row(session).transport_fees, municipality_key)


def all_fees(session: Session) -> dict[str, Decimal | None]:
    """Every municipality's fee (key -> amount, None: not served online), as `transport_fee`."""
    fees = _row(session).transport_fees
    return {m.key: fee_of(fees, m.key) for m in places.MUNICIPALITIES}


def deposit_of(session: Session, total: Decimal) -> Decimal:
    """The deposit the settings ask of a booking of `total` (0.00: none)."""
    row = _row(session)
    return deposit_for(total, row.deposit_percent, Decimal(row.deposit_above))


@dataclass(frozen=True)
class Terms:
    """What the settings ask of every booking, as the pages price it: the transport fees
    (`BusinessSettings.transport_fees`, read-only) and the deposit rule."""

    fees: Mapping[str, object]
    deposit_percent: int
    deposit_above: Decimal


@cached
def terms(*, session: Session) -> Terms:
    """The settings' transport fees and deposit rule, from the catalogue's cache (the settings
    row is one of its tables, services/cache.py): the cart, the checkout and the booking screen
    price every change through `owed` without reading the row each time."""
    row = _row(session)
    fees = row.transport_fees if isinstance(row.transport_fees, dict) else {}
    return Terms(MappingProxyType(dict(fees)), row.deposit_percent, Decimal(row.deposit_above))


@dataclass(frozen=True)
class Served:
    """A municipality a booking may be placed to online, and its transport."""

    municipality: Municipality
    fee: Decimal


class NotServed(ServiceError):
    """A municipality refused for an online booking; `message` says so in the language of the
    moment (with the business's phone for one not served)."""

    CODES = {
        "unknown": "Not one of Kosovo's municipalities",
        "not_served": "Not served online: call the business",
    }


def served(session: Session, city: object) -> Served:
    """The municipality a guest chose (any spelling, services/booking/contact.py has stored its
    Albanian name) and its fee, or NotServed: as the settings row says now (placing a booking
    reads it under its lock)."""
    return _served_by(
        _row(session).transport_fees,
        city,
        phone=lambda: business.business_details(session=session).phone,
    )


def _served_by(fees: object, city: object, *, phone: Callable[[], str]) -> Served:
    """`served` with the stored `fees`; `phone` gives the business's phone for the refusal."""
    found = places.find(city) if isinstance(city, str) else None
    if found is None:
        raise NotServed("unknown", _s(UNKNOWN_MESSAGE))
    fee = fee_of(fees, found.key)  # type: ignore[arg-type]
    if fee is None:
        name = found.name(i18n.language())
        message = _s(NOT_SERVED_MESSAGE).format(municipality=name, phone=phone())
        raise NotServed("not_served", message)
    return Served(found, fee)


@dataclass(frozen=True)
class Owed:
    """What a cart or a booking owes: its lines, the transport, the total, the deposit."""

    subtotal: Decimal
    transport: Decimal | None  # None: no municipality chosen yet, or not served
    total: Decimal
    deposit: Decimal
    municipality: str = ""  # its name in the language of the moment ('' until chosen)
    refusal: str = ""  # why it cannot be booked online ('' when it can)

    @property
    def labels(self) -> dict[str, str]:
        """The amounts as the pages write them ('' for a transport not known)."""
        return {
            "subtotal": format_price(self.subtotal),
            "transport": "" if self.transport is None else format_price(self.transport),
            "total": format_price(self.total),
            "deposit": format_price(self.deposit) if self.deposit else "",
            "municipality": self.municipality,
            "refusal": self.refusal,
        }


@from_caches
def owed(*, session: Session, subtotal: Decimal, city: object) -> Owed:
    """What a cart of `subtotal` owes when taken to `city` (a key or any spelling; empty: not
    chosen yet): the transport line as soon as the municipality is known (the cart and the
    checkout show it), the total with it, and the deposit the settings ask. Read through the
    catalogue's cache only (`terms`, the business's details): a page's change of municipality,
    quantity or hours is priced in the event loop while the cache is current."""
    subtotal = Decimal(subtotal).quantize(CENT)
    rules = terms(session=session)
    if not str(city or "").strip():
        return Owed(subtotal, None, subtotal, _deposit(rules, subtotal))
    found = places.by_key(city) or places.find(city)
    try:
        place = _served_by(
            rules.fees,
            found.key if found else city,
            phone=lambda: business.business_details(session=session).phone,
        )
    except NotServed as refused:
        name = found.name(i18n.language()) if found else ""
        return Owed(subtotal, None, subtotal, Decimal("0.00"), name, refused.message)
    total = subtotal + place.fee
    return Owed(
        subtotal,
        place.fee,
        total,
        _deposit(rules, total),
        place.municipality.name(i18n.language()),
    )


def _deposit(rules: Terms, total: Decimal) -> Decimal:
    return deposit_for(total, rules.deposit_percent, rules.deposit_above)


# --- the admin's Transport card -------------------------------------------------------------

NOT_SERVED = "not_served"  # the card's value of a municipality not served online


def editable_fees(*, session: Session) -> dict[str, str]:
    """Each municipality's fee as the card shows it: '15.00', or NOT_SERVED."""
    return {key: NOT_SERVED if fee is None else str(fee) for key, fee in all_fees(session).items()}


def check_fees(
    values: dict[str, object],
) -> tuple[dict[str, str | None], dict[str, str], dict[str, str]]:
    """The card's values ({key: amount text or NOT_SERVED}; a municipality left out keeps 0)
    as stored ({key: '15.00' or None}), with {key: code} and {key: message} of those refused."""
    clean: dict[str, str | None] = {}
    codes: dict[str, str] = {}
    messages: dict[str, str] = {}
    language = i18n.language()
    for m in places.MUNICIPALITIES:
        value = values.get(m.key, "0") if isinstance(values, dict) else "0"
        if value is None or str(value).strip() == NOT_SERVED:
            clean[m.key] = None
            continue
        amount = parse_fee(value)
        if amount is None:
            codes[m.key] = "invalid"
            messages[m.key] = _s(FEE_MESSAGE).format(municipality=m.name(language), most=MAX_FEE)
            continue
        clean[m.key] = str(amount)
    return clean, codes, messages


def update_transport_fees(*, session: Session, actor_id: object, values: dict[str, object]) -> None:
    """Save every municipality's transport fee (admins only): each value checked (TransportError
    `invalid` names each refused one), audited as a settings change, the other settings kept.
    The caller commits."""
    try:
        permissions.require_admin(session, actor_id, _AdminCheck)
    except _AdminCheck:
        raise TransportError("not_allowed") from None
    clean, codes, messages = check_fees(values if isinstance(values, dict) else {})
    if codes:
        raise TransportError("invalid", fields=codes, messages=messages)
    business.set_settings(session, actor_id, transport_fees=clean)
