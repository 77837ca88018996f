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
