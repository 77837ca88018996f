import dataclasses
import json
from datetime import date, time
from decimal import Decimal

import pytest

from storefront import i18n
from storefront.services.booking import cart
from storefront.services.money import format_price, to_amount


def _item(item_id="a", price="7", quantity=1):
    return cart.make_item(
        item_id=item_id, name="Tables", price=price, image="/x.webp", quantity=quantity
    )


def test_one_formatter_two_decimals_one_currency():
    """Written as each language writes a price (Babel's sq_XK and en, issue 21). The default
    edition joins the symbol to the amount by a no-break space and groups thousands with one:
    a price never wraps in two."""
    assert format_price(7) == "7,00\u00a0€"
    assert format_price("1300") == "1\u00a0300,00\u00a0€"
    assert format_price(Decimal("249.99"), "USD") == "249,99\u00a0US$"
    with i18n.using("en"):
        assert format_price(7) == "€7.00"
        assert format_price("1300") == "€1,300.00"
        assert format_price(Decimal("249.99"), "USD") == "$249.99"


def test_price_parsing_defaults_when_not_numeric():
    assert to_amount("abc", Decimal("7")) == Decimal("7")
    assert to_amount("NaN", Decimal("249.99")) == Decimal("249.99")
    assert to_amount("199.999") == Decimal("200.00")


def test_make_item_requires_id_name_price_and_image():
    assert cart.make_item(item_id="", name="x", price=1, image="/i") is None
    assert cart.make_item(item_id="a", name="", price=1, image="/i") is None
    assert cart.make_item(item_id="a", name="x", price=None, image="/i") is None
    assert cart.make_item(item_id="a", name="x", price=1, image="") is None
    assert _item().description == "No description provided"


def test_adding_an_existing_item_raises_its_quantity():
    items = cart.add(cart.EMPTY, _item())
    items = cart.add(items, _item())
    assert len(items) == 1 and items[0].quantity == 2
    items = cart.add(items, _item("b", "5", quantity=10))
    assert cart.count(items) == 12


def test_parse_drops_garbage_and_clamps_numbers():
    raw = '[{"id":"a","name":"x","image":"/i","price":"oops","quantity":99999},{"bad":1},3]'
    items = cart.parse(raw)
    assert len(items) == 1
    assert items[0].price == "0.00" and items[0].quantity == cart.MAX_QUANTITY
    assert cart.parse("not json") == cart.EMPTY and cart.parse('{"a":1}') == cart.EMPTY


def test_a_remembered_cart_is_read_once_and_cannot_be_changed():
    """A cart's text is read once and remembered (each event of a tab sends it back): the cart
    is frozen, so what one caller does with it never reaches the next caller."""
    raw = cart.dump(cart.add(cart.EMPTY, _item("a", quantity=2)))
    first = cart.parse(raw)
    with pytest.raises(dataclasses.FrozenInstanceError):
        first[0].quantity = 999  # type: ignore[misc]
    changed = cart.add(first, _item("b"))
    again = cart.parse(raw)
    assert again is first and len(again) == 1 and again[0].quantity == 2 and len(changed) == 2
    assert cart.parse(None) == cart.EMPTY and cart.parse(b"[]") == cart.EMPTY
    # Past the remembered length, the text is still read, with the same rules.
    line = _item(quantity=3).as_json() | {"description": "x" * 400}
    long = json.dumps([line | {"id": f"id-{n}"} for n in range(cart.MAX_ITEMS + 10)])
    assert len(long) > cart.PARSED_CARTS_UP_TO
    assert len(cart.parse(long)) == cart.MAX_ITEMS


def test_remove_and_round_trip():
    items = cart.add(cart.add(cart.EMPTY, _item("a")), _item("b"))
    assert [i.id for i in cart.remove(items, "a")] == ["b"]
    assert cart.parse(cart.dump(items)) == items


def test_table_count_field_rules():
    assert cart.table_count_input("", on_blur=False) == ""
    assert cart.table_count_input("", on_blur=True) == "1"
    assert cart.table_count_input("0", on_blur=True) == "1"
    assert cart.table_count_input("-5", on_blur=False) == "5"
    assert cart.table_count_input("2500", on_blur=False) == "1000"
    assert cart.table_count_input("12abc", on_blur=False) == "12"


def test_people_count_and_counted_names():
    assert cart.people_count("120") == 120
    assert cart.people_count("0") == 0
    assert cart.people_count("1.5") == 0
    assert cart.people_count("abc") == 0
    assert cart.people_count("1000") == 1000
    assert cart.counted_name("Tavolina", 12, "table") == "Tavolina (12 tavolina)"
    assert cart.counted_name("Karriget", 80, "person") == "Karriget (80 persona)"
    # English counts in the singular and the plural; the default edition keeps SPEC's words.
    from storefront import i18n

    assert cart.counted_name("Tavolina", 1, "table") == "Tavolina (1 tavolina)"
    with i18n.using("en"):
        assert cart.counted_name("Tables", 1, "table") == "Tables (1 table)"
        assert cart.counted_name("Tables", 12, "table") == "Tables (12 tables)"
        assert cart.counted_name("Chairs", 1, "person") == "Chairs (1 person)"
        assert cart.counted_name("Chairs", 80, "person") == "Chairs (80 people)"
    assert cart.counted_name("Bouncer", 2, None) == "Bouncer"


def test_more_people_than_a_cart_line_holds_are_refused_not_cut_down():
    """Field, total and cart agree: 1234 is not quietly booked as 1000."""
    assert cart.people_count("1234") == 0
    assert cart.people_problem("1234") == "too_many"
    assert cart.people_problem("1000") == cart.people_problem("abc") == ""
    assert cart.tiffany_total_label("5", cart.people_count("1234")) == "TOTALI = 0€"


def test_tiffany_total_label_is_specs_copy():
    assert cart.tiffany_total_label("5.00", 120) == "TOTALI = 600€"
    assert cart.tiffany_total_label("5.00", 0) == "TOTALI = 0€"
    assert cart.tiffany_total_label("2.50", 3) == "TOTALI = 7.50€"


SERVICE = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"


def test_parse_keeps_well_formed_service_date_time_and_duration():
    raw = json.dumps(
        [
            {
                "id": SERVICE,
                "serviceId": SERVICE.upper(),
                "name": "Bouncer",
                "image": "/b.webp",
                "price": 199.99,
                "date": "2026-07-04",
                "startTime": "14:00",
                "duration": 3,
            }
        ]
    )
    (item,) = cart.parse(raw)
    assert (item.service_id, item.date, item.start_time, item.duration) == (
        SERVICE,
        date(2026, 7, 4),
        time(14, 0),
        3,
    )
    # Written back as the browser keeps it.
    stored = json.loads(cart.dump(cart.parse(raw)))[0]
    assert (stored["serviceId"], stored["date"], stored["startTime"]) == (
        SERVICE,
        "2026-07-04",
        "14:00",
    )


def test_parse_blanks_malformed_service_date_and_time():
    bad = [
        {"serviceId": "'; drop table", "date": "2026-02-30", "startTime": "24:00"},
        {"serviceId": 42, "date": "04.07.2026", "startTime": "9:00"},
        {"serviceId": None, "date": ["2026-07-04"], "startTime": {"h": 9}, "duration": "x"},
    ]
    items = cart.parse(
        json.dumps([{"id": "tables-white", "name": "T", "image": "/t", **b} for b in bad])
    )
    assert [(i.service_id, i.date, i.start_time) for i in items] == [("", None, None)] * 3
    assert [i.duration for i in items] == [1, 1, 1]


def test_booking_lines_say_whether_every_line_has_a_date_and_time():
    chosen = {"id": SERVICE, "name": "B", "image": "/b", "price": 1, "quantity": 2}
    timed = {**chosen, "date": "2026-07-04", "startTime": "14:00", "duration": 2}
    result = cart.booking_lines(cart.parse(json.dumps([timed])))
    assert result.complete
    (line,) = result.lines
    assert (line.service_id, line.quantity, line.date, line.start_time, line.duration_hours) == (
        SERVICE,
        2,
        date(2026, 7, 4),
        time(14, 0),
        2,
    )
    assert not cart.booking_lines(cart.parse(json.dumps([timed, chosen]))).complete
    assert not cart.booking_lines(cart.EMPTY).complete


def test_a_price_says_its_unit():
    """Issue 20, item 8: one formatter for every public price with its unit."""
    from storefront.services.money import format_price_with_unit

    assert format_price_with_unit(599, "per_hour") == "599,00\u00a0€\u00a0/\u00a0orë"
    assert format_price_with_unit("150", "per_event") == "150,00\u00a0€\u00a0për event"
    assert format_price_with_unit(7, None) == "7,00\u00a0€"  # unknown unit: the price alone
    with i18n.using("en"):
        assert format_price_with_unit(599, "per_hour") == "€599.00\u00a0/\u00a0h"


def test_a_package_with_a_length_starts_with_that_many_hours():
    """Issue 20, item 8: 'a bubble house for 3 hours' goes into the cart for 3 hours."""
    from storefront.models.kinds import read_details
    from storefront.services.catalog.public import ServiceView, default_hours

    def view(kind, meta):
        return ServiceView(
            id="x",
            title="t",
            slug="s",
            description="",
            price=Decimal("150"),
            kind=kind,
            category_slug=None,
            image_url="/i",
            details=read_details(kind, meta),
        )

    assert default_hours(view("package", {"type": "bouncer", "hours": 3})) == 3
    assert default_hours(view("package", {"type": "mascot"})) == 1
    assert default_hours(view("package", {"type": "bouncer", "hours": 99})) == 1  # out of range
    assert default_hours(view("mascot", {})) == 1  # its kind has no length
    item = cart.make_item(item_id="a", name="x", price=150, image="/i", duration=3)
    assert item.duration == 3
    assert _item().duration == 1
