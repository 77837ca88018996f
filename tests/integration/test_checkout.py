"""The cart on its way to a booking, against a real database (SQLite and PostgreSQL): catalogue
prices, a time set only when the slot is free, the booking screen's id rules, and who may see a
booking."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, date, datetime, time

import pytest

from storefront.models import User
from storefront.services.booking import cart, placing
from storefront.services.booking import views as booking_views
from storefront.services.booking.lines import BookingError
from storefront.services.catalog import public as catalog
from storefront.services.messaging import links as booking_links
from tests.factories import contact, line, make_service

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)  # 08:00 in Prishtina
DAY = "2026-06-10"  # a Wednesday


def _cart(*lines: dict) -> cart.Cart:
    """The browser's cart, read as the states read it where it comes in."""
    return cart.parse(json.dumps(list(lines)))


def _item(service, quantity=1, **extra) -> dict:
    return {
        "id": str(service.id),
        "serviceId": str(service.id),
        "name": service.title,
        "price": "999",  # what the browser holds is never used
        "image": "/x.webp",
        "quantity": quantity,
    } | extra


def test_the_cart_is_priced_from_the_catalogue_per_hour_and_per_event(session):
    bouncer = make_service(session, title="Bouncer", price="100.00", units=2)
    offer = make_service(session, title="Offer", price="650.00", price_unit="per_event")
    session.commit()
    raw = _cart(
        _item(bouncer, 1, date=DAY, startTime="10:00", duration=3),
        _item(offer, 1, date=DAY, startTime="12:00", duration=4),
    )
    view = cart.cart_view(session=session, cart=raw)
    assert [line.line_total_label for line in view.lines] == ["300,00\u00a0€", "650,00\u00a0€"]
    assert view.total_label == "950,00\u00a0€" and view.complete
    assert view.lines[0].date_label == "10.06.2026"
    missing_time = cart.cart_view(session=session, cart=_cart(_item(bouncer)))
    assert not missing_time.complete


def test_a_time_is_set_only_while_the_slot_is_free(session):
    bouncer = make_service(session, title="Bouncer", units=1)
    session.commit()
    placing.place_booking(
        session=session,
        lines=[line(bouncer, DAY, "10:00", hours=2)],
        contact=contact(),
        idempotency_key="taken-slot-key-1",
        now=NOW,
    )
    raw = _cart(_item(bouncer))
    with pytest.raises(BookingError) as taken:
        cart.set_line_time(
            session=session,
            cart=raw,
            line_id=str(bouncer.id),
            day=date.fromisoformat(DAY),
            start_time=time(11, 0),
            duration_hours=1,
            now=NOW,
        )
    assert taken.value.code == "slot_taken"
    updated = cart.set_line_time(
        session=session,
        cart=raw,
        line_id=str(bouncer.id),
        day=date.fromisoformat(DAY),
        start_time=time(15, 0),
        duration_hours=2,
        now=NOW,
    )
    [item] = json.loads(cart.dump(updated))
    assert (item["date"], item["startTime"], item["duration"]) == (DAY, "15:00", 2)


def test_the_booking_screen_id_rules(session):
    offer = make_service(session, title="Offer")
    session.commit()
    assert catalog.service_to_book(session=session, service_ref=f"  {offer.id} ").id == str(
        offer.id
    )
    for ref, code in (
        ("", "missing_id"),
        ("   ", "missing_id"),
        ("not-a-uuid", "bad_format"),
        (str(uuid.uuid4()), "not_found"),
        ("noslughere", "not_found"),
    ):
        with pytest.raises(catalog.ServiceRefError) as error:
            catalog.service_to_book(session=session, service_ref=ref)
        assert error.value.code == code


def test_a_booking_is_shown_to_its_owner_an_admin_or_the_mails_link(session):
    bouncer = make_service(session, title="Bouncer", units=1)
    owner = User(email="owner@example.com")
    session.add(owner)
    session.commit()
    owner_id = str(owner.id)
    placed = placing.place_booking(
        session=session,
        lines=[line(bouncer, DAY, "10:00")],
        contact=contact(),
        idempotency_key="view-rule-key-1",
        user_id=owner_id,
        now=NOW,
    )

    def sees(**viewer) -> bool:
        return (
            booking_views.viewable_booking(session=session, booking_id=placed.id, **viewer)
            is not None
        )

    assert sees(viewer_id=owner_id)
    admin = User(email="admin-view@example.com", full_name="Admin", role="admin")
    session.add(admin)
    session.commit()
    assert sees(viewer_id=str(admin.id))
    assert sees(key=booking_links.sign_view_key(placed.id))
    assert not sees()
    assert not sees(viewer_id=str(uuid.uuid4()))
    assert not sees(key=booking_links.sign_view_key(str(uuid.uuid4())))  # another booking's key
    ics = booking_views.booking_ics(session=session, booking_id=placed.id, viewer_id=owner_id)
    assert ics and b"BEGIN:VEVENT" in ics
    assert booking_views.booking_ics(session=session, booking_id=placed.id) is None


def test_the_cart_never_holds_more_than_a_service_has_units(session):
    """Issue 20, item 2: an add past the units is refused and counted; the quantity is set within
    1 and the units; a cart kept from before is brought within them."""
    castle = make_service(session, units=2)
    castle.images = [{"url": "/media/services/castle.webp"}]  # a cart line needs a picture
    session.add(castle)
    session.commit()
    first = cart.add_to_cart(session=session, cart=cart.EMPTY, service_ref=str(castle.id), count=1)
    assert (first.held, first.most, first.refused) == (1, 2, 0)
    second = cart.add_to_cart(session=session, cart=first.cart, service_ref=castle.slug, count=3)
    assert (second.held, second.refused) == (2, 2)
    assert [i["quantity"] for i in json.loads(cart.dump(second.cart))] == [2]
    line_id = second.cart[0].id
    assert (
        cart.set_quantity(session=session, cart=second.cart, line_id=line_id, quantity=9)[
            0
        ].quantity
        == 2
    )
    assert (
        cart.set_quantity(session=session, cart=second.cart, line_id=line_id, quantity=0)[
            0
        ].quantity
        == 1
    )
    kept = json.loads(cart.dump(second.cart))
    kept[0]["quantity"] = 7
    view = cart.cart_view(session=session, cart=cart.parse(json.dumps(kept)))
    assert view.lines[0].quantity == 2 and view.lines[0].max_quantity == 2
    assert json.loads(cart.dump(view.fitted_cart))[0]["quantity"] == 2
    assert cart.cart_view(session=session, cart=second.cart).fitted_cart is None
    hidden = make_service(session, status="draft")
    session.commit()
    assert (
        cart.add_to_cart(session=session, cart=cart.EMPTY, service_ref=str(hidden.id), count=1)
        is None
    )


def test_a_picker_with_no_free_day_says_why():
    from storefront.i18n import _
    from storefront.state.slot_picker import NO_DAY, TOO_MANY, _no_day_reason

    closed = [{"date": "2026-12-01", "day": "1", "available": "no"}]
    # No language named: the default edition's words, with the numbers or the month they name.
    too_many = _(TOO_MANY).format(units=1, quantity=2)
    assert _no_day_reason(closed, 2, 1, "December 2026") == too_many
    assert _no_day_reason(closed, 1, 1, "December 2026") == _(NO_DAY).format(month="December 2026")
    assert _no_day_reason(closed + [{"date": "x", "day": "2", "available": "yes"}], 2, 1, "") == ""
