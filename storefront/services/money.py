"""The one price formatter: every price on the site goes through `format_price`."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from storefront.settings import get_settings

SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}
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
    """`7` -> '7.00 €' (two decimals, the site's one currency). Amount and symbol are joined
    by a no-break space, so a narrow line never leaves the '€' on a line of its own."""
    amount = to_amount(value)
    code = currency or get_settings().currency
    symbol = SYMBOLS.get(code, code)
    return f"{amount:,.2f}\u00a0{symbol}"


# How a price's unit is written after it (docs/architecture.md §9.9): the cart's '/ h' for a
# rate per hour, 'per event' for a price that the hours do not multiply.
UNIT_WORDS = {"per_hour": "/\u00a0h", "per_event": "per event"}


def format_price_with_unit(value: object, unit: str | None, currency: str | None = None) -> str:
    """`599, 'per_hour'` -> '599.00 € / h'; `150, 'per_event'` -> '150.00 € per event'. Every
    public price goes through here, so a visitor always reads what the price is for; an unknown
    unit shows the price alone. The unit stays on the amount's line (no-break space)."""
    words = UNIT_WORDS.get(unit or "")
    price = format_price(value, currency)
    return f"{price}\u00a0{words}" if words else price
