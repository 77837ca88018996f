"""The transport and deposit rules (services/booking/transport.py), without a database."""

from datetime import date, datetime
from decimal import Decimal

import pytest

from storefront.services.booking import transport


def test_fee_of_reads_the_stored_fees():
    fees = {"prizren": "25.00", "dragash": None, "peje": "oops"}
    assert transport.fee_of(fees, "prizren") == Decimal("25.00")
    assert transport.fee_of(fees, "dragash") is None
    assert transport.fee_of(fees, "prishtine") == Decimal("0.00")  # not named: nothing
    assert transport.fee_of(fees, "peje") == Decimal("0.00")
    assert transport.fee_of(None, "prizren") == Decimal("0.00")


@pytest.mark.parametrize(
    ("typed", "amount"),
    [
        ("15", Decimal("15.00")),
        ("15.5", Decimal("15.50")),
        ("15,50", Decimal("15.50")),
        (" 0 ", Decimal("0.00")),
        ("1000", Decimal("1000.00")),
        ("-1", None),
        ("1000.01", None),
        ("15.555", None),
        ("abc", None),
        ("", None),
        ("NaN", None),
        ("Infinity", None),
    ],
)
def test_parse_fee(typed, amount):
    assert transport.parse_fee(typed) == amount


def test_check_fees_names_each_refused_municipality():
    clean, codes, messages = transport.check_fees(
        {"prizren": "25", "dragash": transport.NOT_SERVED, "peje": "-3", "gjakove": "1.234"}
    )
    assert clean["prizren"] == "25.00" and clean["dragash"] is None
    assert clean["prishtine"] == "0.00"  # left out: nothing
    assert codes == {"peje": "invalid", "gjakove": "invalid"}
    assert "Pejë" in messages["peje"] and "Gjakovë" in messages["gjakove"]


@pytest.mark.parametrize(
    ("total", "percent", "above", "deposit"),
    [
        (Decimal("300.00"), 30, Decimal("200"), Decimal("90.00")),
        (Decimal("200.00"), 30, Decimal("200"), Decimal("0.00")),  # not above: none
        (Decimal("200.01"), 30, Decimal("200"), Decimal("60.00")),  # 60.003 -> 60.00
        (Decimal("100.05"), 25, Decimal("0"), Decimal("25.01")),  # 25.0125 half up
        (Decimal("99.98"), 25, Decimal("0"), Decimal("25.00")),  # 24.995 -> 25.00
        (Decimal("500.00"), 0, Decimal("0"), Decimal("0.00")),  # 0 %: no deposit
        (Decimal("500.00"), 100, Decimal("0"), Decimal("500.00")),
    ],
)
def test_deposit_for(total, percent, above, deposit):
    assert transport.deposit_for(total, percent, above) == deposit


def test_deposit_due_is_before_the_event():
    placed = datetime(2026, 6, 1, 10, 0)
    assert transport.deposit_due(placed, date(2026, 7, 1)) == date(2026, 6, 4)
    assert transport.deposit_due(placed, date(2026, 6, 3)) == date(2026, 6, 2)
    assert transport.deposit_due(placed, date(2026, 6, 1)) == date(2026, 6, 1)


def test_the_demo_fees_name_every_municipality_and_pass_the_card_checks():
    from storefront.models import municipalities as places
    from storefront.seed import catalog

    assert set(catalog.TRANSPORT_FEES) == set(places.BY_KEY)
    clean, codes, _messages = transport.check_fees(
        {k: transport.NOT_SERVED if v is None else v for k, v in catalog.TRANSPORT_FEES.items()}
    )
    assert codes == {} and clean == catalog.TRANSPORT_FEES
    assert catalog.TRANSPORT_FEES[places.HOME] == "0.00"
    assert [k for k, v in catalog.TRANSPORT_FEES.items() if v is None] == ["dragash"]
