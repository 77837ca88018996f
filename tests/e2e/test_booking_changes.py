"""A customer changes or cancels their own booking (issue 22, item 4), on a phone (390 px): through
the signed link of the confirmation mail they cancel it (a step that asks first) and see it
cancelled, or move it (a taken time is refused, naming the service; a free one is taken and the
old one freed at once); after the cutoff the page offers no change and says to call; the
account's orders link to it. Forged events: a tab without the link's key cannot cancel someone's
booking."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

import pytest
from playwright.sync_api import expect
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import Booking, NotificationOutbox
from storefront.services import availability, booking, booking_links, dates
from storefront.state.booking_view import BookingViewState
from tests.e2e.helpers import read, sq
from tests.e2e.socket_client import Tab, run
from tests.e2e.test_admin_catalogue import _signed_in
from tests.factories import contact, line, make_service

pytestmark = pytest.mark.e2e


def _service(server, *, units: int = 1) -> tuple[str, str]:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        service = make_service(session, title=f"Castle {uuid.uuid4().hex[:6]}", units=units)
        session.commit()
        found = (str(service.id), service.title)
    engine.dispose()
    return found


def _place(
    server, service_id: str, day: date, start: str, *, now=None, user_id=None, **fields
) -> booking.PlacedBooking:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        placed = booking.place_booking(
            session=session,
            lines=[line(service_id, day.isoformat(), start, hours=2)],
            contact=contact(**fields),
            idempotency_key=f"changes-{uuid.uuid4().hex}",
            user_id=user_id,
            now=now,
        )
    engine.dispose()
    return placed


def _status(server, booking_id: str) -> str:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        status = session.get(Booking, uuid.UUID(booking_id)).status
    engine.dispose()
    return status


def _topics(server, booking_id: str) -> list[str]:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        topics = session.exec(
            select(NotificationOutbox.topic).where(
                NotificationOutbox.booking_id == uuid.UUID(booking_id)
            )
        ).all()
    engine.dispose()
    return sorted(topics)


def _free(server, service_id: str, day: date, start: str) -> bool:
    slots = read(
        server,
        availability.day_slots,
        service_id=service_id,
        day=day.isoformat(),
        duration_hours=2,
        quantity=1,
    )
    return {slot.start_time: slot.available for slot in slots}[start]


def _link(placed: booking.PlacedBooking) -> str:
    return booking_links.view_path(placed.id, booking_links.sign_view_key(placed.id))


def _open(phone, placed) -> None:
    phone.goto(_link(placed))
    expect(phone.get_by_test_id("confirmation-reference")).to_contain_text(placed.reference)


def test_a_guest_cancels_through_the_signed_link_and_sees_it_cancelled(phone, server):
    service_id, _title = _service(server)
    day = date.today() + timedelta(days=30)
    placed = _place(server, service_id, day, "10:00")
    assert not _free(server, service_id, day, "10:00")

    _open(phone, placed)
    change = phone.get_by_test_id("booking-change")
    expect(change).to_be_visible()
    expect(phone.get_by_test_id("change-deadline")).to_contain_text(
        dates.display_day(day - timedelta(days=2))
    )
    change.get_by_role("button", name=sq("Cancel booking")).click()
    step = phone.get_by_test_id("change-cancel-step")
    expect(step).to_contain_text(placed.reference)
    # Asked first: 'Keep booking' leaves it as it is.
    step.get_by_role("button", name=sq("Keep booking")).click()
    expect(step).to_have_count(0)
    assert _status(server, placed.id) == "pending"

    change.get_by_role("button", name=sq("Cancel booking")).click()
    phone.get_by_test_id("change-cancel-confirm").click()

    expect(phone.get_by_test_id("change-notice")).to_have_text(sq("Your booking is cancelled."))
    expect(phone.get_by_test_id("confirmation-status")).to_have_text(sq("cancelled"))
    expect(phone.get_by_test_id("confirmation-headline")).to_have_text(sq("Booking Cancelled"))
    expect(phone.get_by_test_id("booking-change")).to_have_count(0)
    expect(phone.get_by_test_id("change-call").locator("a")).to_have_attribute(
        "href", "tel:+38344000000"
    )
    assert _status(server, placed.id) == "cancelled"
    assert _free(server, service_id, day, "10:00")  # at once
    assert _topics(server, placed.id) == [
        "booking_change",
        "booking_change_staff",
        "booking_confirmation",
        "booking_placed",
    ]
    # Nothing runs sideways on a phone.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_guest_moves_the_booking_to_a_free_time(phone, server):
    service_id, title = _service(server)
    day = date.today() + timedelta(days=31)
    placed = _place(server, service_id, day, "10:00")
    _place(server, service_id, day + timedelta(days=1), "14:00", email="other@example.com")

    _open(phone, placed)
    phone.get_by_test_id("change-move").click()
    form = phone.get_by_test_id("change-move-form")
    expect(form.get_by_label(sq("New date"))).to_have_value(dates.display_day(day))
    expect(form.get_by_label(sq("New start time"))).to_have_value("10:00")
    new_day = dates.display_day(day + timedelta(days=1))

    # A time someone else holds is refused, naming the service; nothing moves.
    form.get_by_label(sq("New date")).fill(new_day)
    form.get_by_label(sq("New start time")).fill("13:00")
    form.get_by_role("button", name=sq("Move booking")).click()
    expect(phone.get_by_test_id("change-error")).to_have_text(
        sq("{service} is already booked at {time} on {date}. Please choose another time.").format(
            service=title, time="13:00", date=new_day
        )
    )
    assert not _free(server, service_id, day, "10:00")

    form.get_by_label(sq("New start time")).fill("16:00")
    form.get_by_role("button", name=sq("Move booking")).click()

    expect(phone.get_by_test_id("change-notice")).to_have_text(
        sq("Your booking is moved. The new times are below.")
    )
    expect(phone.get_by_test_id("confirmation-line")).to_contain_text(f"{new_day} · 16:00–18:00")
    expect(phone.get_by_test_id("change-move-form")).to_have_count(0)
    assert _free(server, service_id, day, "10:00")
    assert not _free(server, service_id, day + timedelta(days=1), "16:00")
    assert _status(server, placed.id) == "pending"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_after_the_cutoff_the_page_offers_no_change_and_says_to_call(phone, server):
    service_id, _title = _service(server)
    tomorrow = dates.today() + timedelta(days=1)
    # Placed a week ago for tomorrow: inside the 48-hour cutoff now.
    placed = _place(
        server, service_id, tomorrow, "10:00", now=datetime.now(UTC) - timedelta(days=7)
    )

    _open(phone, placed)
    call = phone.get_by_test_id("change-call")
    expect(call).to_contain_text(sq("To change this booking, please call us:"))
    expect(call.locator("a")).to_have_attribute("href", "tel:+38344000000")
    expect(phone.get_by_test_id("booking-change")).to_have_count(0)
    expect(phone.get_by_role("button", name=sq("Cancel booking"))).to_have_count(0)


def test_the_account_orders_link_a_changeable_booking_to_its_page(phone, server):
    user_id = _signed_in(phone, server, "user")
    service_id, _title = _service(server)
    placed = _place(server, service_id, date.today() + timedelta(days=32), "10:00", user_id=user_id)

    phone.goto("/account/orders")
    row = phone.get_by_test_id("order-row").filter(has_text=placed.reference)
    row.get_by_test_id("order-change").click()
    # The owner needs no link's key.
    expect(phone.get_by_test_id("booking-change")).to_be_visible()
    phone.get_by_test_id("change-cancel").click()
    phone.get_by_test_id("change-cancel-confirm").click()
    expect(phone.get_by_test_id("confirmation-status")).to_have_text(sq("cancelled"))
    phone.goto("/account/orders")
    row = phone.get_by_test_id("order-row").filter(has_text=placed.reference)
    expect(row.get_by_test_id("order-status")).to_have_text(sq("cancelled").capitalize())
    expect(row.get_by_test_id("order-change")).to_have_count(0)


def test_a_tab_without_the_key_cannot_cancel_someone_elses_booking(server):
    service_id, _title = _service(server, units=2)
    day = date.today() + timedelta(days=33)
    theirs = _place(server, service_id, day, "10:00", email="their.booking@example.com")
    mine = _place(server, service_id, day, "12:00")
    path = f"/booking-confirmation/{theirs.id}"
    load = f"{BookingViewState.get_full_name()}.load"
    cancel = f"{BookingViewState.get_full_name()}.cancel_booking"
    move = f"{BookingViewState.get_full_name()}.move_booking"
    seen: list[str] = []

    async def scenario():
        # Straight to the handlers, with no page loaded; then after loading their booking
        # without a key, with a wrong key, and with the key of one's own booking.
        async with Tab(server.url, None) as tab:
            await tab.send_name(cancel, path)
            await tab.send_event(move, path, {"form": {"day": "01.01.2040", "start_time": "10:00"}})
            for key in (None, "forged", booking_links.sign_view_key(mine.id)):
                query = {"booking_id": theirs.id} | ({"key": key} if key else {})
                await tab.send_name(load, path, query=query)
                await tab.send_name(cancel, path, query=query)
                await tab.send_event(
                    move, path, {"form": {"day": "01.01.2040", "start_time": "10:00"}}, query
                )
            seen.append(tab.text())

    run(scenario())
    assert _status(server, theirs.id) == "pending"
    assert _topics(server, theirs.id) == ["booking_confirmation", "booking_placed"]
    assert "their.booking@example.com" not in seen[0]
