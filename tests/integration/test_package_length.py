"""Packages with their own length (issue 34, item 3), on SQLite and PostgreSQL: a package whose
length is known (`PackageDetails.hours`) is booked for exactly that length, whatever a cart line,
a forged event or a retry says; a per-hour service keeps its 1-8 hour choice; and the day sheet
plans a pickup only for what comes back (`day_sheet.comes_back`: not a mascot visit)."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from reflex.state import State
from sqlmodel import select

import storefront.storefront  # noqa: F401  (registers every page and state)
from storefront.models import BookingItem, Service
from storefront.services.booking import availability, cart
from storefront.services.booking import lines as booking_lines
from storefront.services.operations import day_sheet
from storefront.state.cart import CartState
from storefront.state.slot_picker import SlotPickerState
from tests.factories import line, make_service, make_user, place

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "2026-06-10"
ZONE = ZoneInfo("Europe/Belgrade")


def _package(
    session, *, hours: int | None, title: str = "Paketa maskota", price_unit: str = "per_event"
) -> Service:
    """A mascot visit of `hours` (None: no length of its own), two of which fit one time."""
    service = make_service(session, title=title, price="100.00", price_unit=price_unit, units=2)
    service.kind = "package"
    service.meta = {"type": "mascot", "features": []} | ({"hours": hours} if hours else {})
    service.images = [{"url": "/media/services/paketa.webp"}]  # a cart line needs a picture
    session.add(service)
    session.commit()
    return service


def _items(session, booking_id: str) -> dict[str, BookingItem]:
    session.expire_all()
    rows = session.exec(
        select(BookingItem).where(BookingItem.booking_id == uuid.UUID(booking_id))
    ).all()
    return {row.service_name: row for row in rows}


def _span(item: BookingItem) -> tuple[str, ...]:
    """The item's local start and end, HH:MM."""
    return tuple(f"{at.astimezone(ZONE):%H:%M}" for at in (item.start_datetime, item.end_datetime))


def _cart(*items: dict) -> str:
    return json.dumps(list(items))


def _item(service: Service, **extra) -> dict:
    return {
        "id": str(service.id),
        "serviceId": str(service.id),
        "name": service.title,
        "price": "1",
        "image": "/x.webp",
        "quantity": 1,
    } | extra


def test_a_package_of_a_known_length_is_booked_for_it_whatever_the_line_says(session):
    visit = _package(session, hours=1)
    castle = make_service(session, title="Castle", units=2)  # per hour: the guest chooses
    staff = make_user(session, role="staff")
    # The reviewer's case: 'Duration 3 h' chosen for a 40-minute mascot visit at 14:00.
    placed = place(
        session, [line(visit, DAY, "14:00", hours=3), line(castle, DAY, "14:00", hours=3)], now=NOW
    )
    items = _items(session, placed.id)
    assert _span(items["Paketa maskota"]) == ("14:00", "15:00")
    assert _span(items["Castle"]) == ("14:00", "17:00")
    assert placed.total == Decimal("100.00") + Decimal("300.00")
    # 15:00 is free again for both units of the visit: nothing holds it until 17:00.
    slots = availability.day_slots(
        session=session, service_id=str(visit.id), day=DAY, duration_hours=1, quantity=2, now=NOW
    )
    free = {slot.start_time for slot in slots if slot.available}
    assert "15:00" in free and "14:00" not in free

    # The day sheet collects only what comes back: the castle, when it ends; no mascot pickup.
    alone = place(session, [line(visit, DAY, "10:00", hours=5)], now=NOW)
    jobs = {
        job.reference: job
        for job in day_sheet.day_sheet(session=session, actor_id=str(staff.id), day=DAY).bookings
    }
    assert (jobs[alone.reference].pickup, jobs[alone.reference].pickup_load) == ("", "")
    assert (jobs[placed.reference].pickup, jobs[placed.reference].pickup_load) == (
        "17:00",
        "Castle × 1",
    )


def test_a_retry_with_other_hours_is_the_same_booking_and_per_hour_packages_are_priced_so(
    session,
):
    visit = _package(session, hours=1)
    first = place(session, [line(visit, DAY, "12:00", hours=1)], now=NOW, key="package-key-01")
    again = place(session, [line(visit, DAY, "12:00", hours=6)], now=NOW, key="package-key-01")
    assert again.id == first.id and again.reference == first.reference
    # A package priced per hour is priced by its own length, not by what the line asks.
    hourly = _package(session, hours=2, title="Paketa me orë", price_unit="per_hour")
    placed = place(session, [line(hourly, DAY, "16:00", hours=8)], now=NOW)
    [item] = _items(session, placed.id).values()
    assert _span(item) == ("16:00", "18:00")
    assert placed.total == item.service_price == Decimal("200.00")


def test_the_cart_keeps_a_packages_own_length_whatever_the_browser_holds(session):
    visit = _package(session, hours=1)
    castle = make_service(session, title="Castle", units=2)
    session.commit()
    forged = cart.parse(_cart(_item(visit, duration=4), _item(castle, duration=4)))
    view = cart.cart_view(session=session, cart=forged)
    assert [line.duration for line in view.lines] == [1, 4]
    assert [item["duration"] for item in json.loads(cart.dump(view.fitted_cart))] == [1, 4]

    # A time set with another duration is set for the package's length: 19:00 fits one hour
    # before the 20:00 closing, where five hours would not.
    updated = cart.set_line_time(
        session=session,
        cart=forged,
        line_id=str(visit.id),
        day=date.fromisoformat(DAY),
        start_time=time(19, 0),
        duration_hours=5,
        now=NOW,
    )
    set_line = json.loads(cart.dump(updated))[0]
    assert (set_line["date"], set_line["startTime"], set_line["duration"]) == (DAY, "19:00", 1)
    with pytest.raises(booking_lines.BookingError) as too_long:
        cart.set_line_time(
            session=session,
            cart=forged,
            line_id=str(castle.id),
            day=date.fromisoformat(DAY),
            start_time=time(19, 0),
            duration_hours=5,
            now=NOW,
        )
    assert too_long.value.code == "slot_taken"


@pytest.fixture
def app_database(engine, monkeypatch):
    """The app's own calls (state/base.call_service) on the test database."""
    import storefront.db
    import storefront.state.base

    monkeypatch.setattr(storefront.db, "get_engine", lambda: engine)
    monkeypatch.setattr(storefront.state.base, "get_engine", lambda: engine)


def _tab() -> tuple[CartState, SlotPickerState]:
    root = State(_reflex_internal_init=True)
    path = lambda state: state.get_full_name().split(".")[1:]  # noqa: E731
    return root.get_substate(path(CartState)), root.get_substate(path(SlotPickerState))


def _future_day() -> date:
    """A day a few weeks ahead (the notice is a day), in this month or the next."""
    return date.today() + timedelta(days=20)


async def test_forged_picker_events_do_not_give_a_package_another_length(session, app_database):
    visit = _package(session, hours=1)
    castle = make_service(session, title="Castle", units=2)
    session.commit()
    cart_tab, picker = _tab()
    cart_tab.cart_json = _cart(_item(visit, duration=1), _item(castle, duration=1))
    await CartState.refresh.fn(cart_tab)
    day = _future_day()

    # Opened for 5 hours (as a forged open_for would say): the package's own hour, shown as text.
    await SlotPickerState.open_for.fn(
        picker, str(visit.id), 1, str(visit.id), "", "", 5, cart_tab.cart_json
    )
    assert (picker.own_length, picker.duration) == (True, "1")
    await SlotPickerState.pick_duration.fn(picker, "3")  # no select is shown; sent anyway
    assert picker.duration == "1"
    cart_tab.editing_id = str(visit.id)
    if picker.month != day.month:
        await SlotPickerState.next_month.fn(picker)
    await SlotPickerState.pick_day.fn(picker, day.isoformat())
    SlotPickerState.pick_time.fn(picker, "14:00")
    picker.duration = "3"  # even a duration that got into the state is not what is set
    await CartState.apply_time.fn(cart_tab)
    assert cart_tab.time_error == ""
    stored = {item["id"]: item for item in json.loads(cart_tab.cart_json)}
    assert (stored[str(visit.id)]["startTime"], stored[str(visit.id)]["duration"]) == ("14:00", 1)

    # A per-hour service keeps its choice of 1 to 8 hours.
    await SlotPickerState.open_for.fn(
        picker, str(castle.id), 1, str(castle.id), "", "", 2, cart_tab.cart_json
    )
    assert (picker.own_length, picker.duration) == (False, "2")
    await SlotPickerState.pick_duration.fn(picker, "3")
    assert picker.duration == "3"
