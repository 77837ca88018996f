"""The one price formatter: every price on the site goes through `format_price`."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from babel.numbers import format_currency, format_decimal
from sqlalchemy import func
from sqlmodel import Session, col, select

from storefront import i18n
from storefront.i18n import N_, _
from storefront.models import Payment
from storefront.settings import get_settings

CENT = Decimal("0.01")


def to_amount(value: object, default: Decimal = Decimal("0")) -> Decimal:
    """A price as a two-decimal Decimal; `default` when it is not a number (the spec's price parsing)."""
    try:
        amount = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        return default
    if not amount.is_finite():
        return default
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def format_price(value: object, currency: str | None = None) -> str:
    """A price as the language of the moment writes it (storefront/i18n.py), by Babel's
    locale data: `1999` -> '1 999,00 €' (sq_XK), '€1,999.00' (en). Two decimals, the site's
    one currency; Babel joins amount and symbol with a no-break space where the locale puts
    one, so a narrow line never leaves the '€' on a line of its own."""
    amount = to_amount(value)
    code = currency or get_settings().currency
    return format_currency(amount, code, locale=i18n.locale(), format_type="standard")


def format_number(value: object) -> str:
    """A count or amount as the language of the moment groups it: 1200 -> '1 200' / '1,200'."""
    return format_decimal(value, locale=i18n.locale())


# How a price's unit is written after it (docs/architecture.md §9.9): the cart's '/ h' for a
# rate per hour, 'per event' for a price that the hours do not multiply.
UNIT_WORDS = {"per_hour": N_("/\u00a0h"), "per_event": N_("per event")}


def format_price_with_unit(value: object, unit: str | None, currency: str | None = None) -> str:
    """`599, 'per_hour'` -> '599,00 € / h'; `150, 'per_event'` -> '150,00 € per event'. Every
    public price goes through here, so a visitor always reads what the price is for; an unknown
    unit shows the price alone. The unit stays on the amount's line (no-break space)."""
    words = _(UNIT_WORDS[unit]) if unit in UNIT_WORDS else None
    price = format_price(value, currency)
    return f"{price}\u00a0{words}" if words else price


def price_line(*, price: Decimal, price_unit: str, quantity: int, duration_hours: int) -> Decimal:
    """Per hour: price x quantity x hours. Per event: price x quantity (docs/architecture.md
    §9.9)."""
    hours = duration_hours if price_unit == "per_hour" else 1
    return (Decimal(price) * quantity * hours).quantize(CENT)


def paid_of(session: Session, booking_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, Decimal]:
    """{booking id: what was paid on it, net of reversals} in one query (0 for none): the one
    sum of payments (services/payments/ledger.py reads balances from it, the mails too)."""
    ids = list(booking_ids)
    if not ids:
        return {}
    rows = session.exec(
        select(Payment.booking_id, func.coalesce(func.sum(Payment.amount), 0))
        .where(col(Payment.booking_id).in_(ids))
        .group_by(col(Payment.booking_id))
    ).all()
    paid = {booking_id: Decimal(total).quantize(CENT) for booking_id, total in rows}
    return {booking_id: paid.get(booking_id, Decimal("0.00")) for booking_id in ids}


# --- what a booking owes, and when (issue 36; the rules: services/booking/transport.py) ------

# A deposit is paid by bank transfer this many days after the booking is placed, and never
# later than the day before its first service.
DEPOSIT_DAYS = 3


def deposit_due(placed, first_day):
    """The day a deposit is due by (a `date`): DEPOSIT_DAYS after the booking was placed (a
    datetime: its day in the business's time zone, or a date), never later than the day before
    its first service (`first_day`, a date or None), never before the day it was placed. Here,
    among the basics, so the mails (messaging) and the booking's pages say the same day."""
    from datetime import datetime, timedelta

    from storefront.services import dates

    start = (
        placed.astimezone(dates.business_zone()).date() if isinstance(placed, datetime) else placed
    )
    due = start + timedelta(days=DEPOSIT_DAYS)
    if first_day is not None:
        due = min(due, first_day - timedelta(days=1))
    return max(due, start)
