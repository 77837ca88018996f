"""A customer changes or cancels their own booking (issue 22, item 4), on a phone (390 px): through
the signed link of the confirmation mail they cancel it (a step that asks first) and see it
cancelled, or move it on the cart's slot picker (issue 34, item 5: only free times are offered,
a time taken meanwhile is refused naming the service and the day picked stays, a move into the
cutoff is warned about first, a confirmed booking moved waits for confirmation again); after
the cutoff the page offers no change and says to call; the account's orders link to it. Forged
events: a tab without the link's key cannot cancel or move someone's booking."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

import pytest
from playwright.sync_api import expect
from sqlmodel import Session, select

from storefront import i18n
from storefront.db import make_engine
from storefront.models import Booking, NotificationOutbox
from storefront.services import business, dates
from storefront.services.booking import availability, placing
from storefront.services.messaging import links as booking_links
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
) -> placing.PlacedBooking:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        placed = placing.place_booking(
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


def _link(placed: placing.PlacedBooking) -> str:
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
    # Cancelled: nothing to change, to put in a calendar or to pay (issue 34, item 7).
    expect(phone.get_by_test_id("change-call")).to_have_count(0)
    expect(phone.get_by_test_id("confirmation-ics")).to_have_count(0)
    expect(phone.get_by_test_id("confirmation-payment")).to_have_count(0)
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


def _month_label(day: date) -> str:
    with i18n.using(i18n.DEFAULT):
        return f"{dates.month_name(day.month)} {day.year}"


def _picker_on(phone, day: date, opened: date):
    """The move's picker, shown on `day`'s month: it opens on `opened`'s (the booking's own
    first day), and the month buttons go from there."""
    picker = phone.get_by_test_id("change-move-form").get_by_test_id("slot-picker")
    label = picker.get_by_test_id("picker-month-label")
    expect(label).to_have_text(_month_label(opened))
    steps = (day.year - opened.year) * 12 + day.month - opened.month
    button = sq("Next month") if steps > 0 else sq("Previous month")
    for _ in range(abs(steps)):
        shown = label.inner_text()
        picker.get_by_role("button", name=button).click()
        expect(label).not_to_have_text(shown)
    expect(label).to_have_text(_month_label(day))
    return picker


def _slot(picker, start: str):
    return picker.get_by_test_id("picker-slot").filter(has_text=start)


def _set_status(server, booking_id: str, status: str) -> None:
    from storefront.services.booking import admin as admin_bookings
    from tests.factories import make_user

    engine = make_engine(server.database_url)
    with Session(engine) as session:
        admin = make_user(session, role="admin")
        session.commit()
        admin_bookings.set_status(
            session=session, actor_id=admin.id, booking_id=booking_id, status=status
        )
    engine.dispose()


def _cutoff(server, hours: int) -> None:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        row = business.settings_row(session)
        row.change_cutoff_hours = hours
        session.add(row)
        session.commit()
    engine.dispose()


def test_a_guest_moves_the_booking_on_the_slot_picker(phone, server):
    """Issue 34, item 5: the move offers the free days and times (the cart's picker), a time
    someone holds is not offered, and a confirmed booking moved waits for confirmation again."""
    service_id, _title = _service(server)
    day = date.today() + timedelta(days=31)
    new_day = day + timedelta(days=1)
    placed = _place(server, service_id, day, "10:00")
    _place(server, service_id, new_day, "14:00", email="other@example.com")
    _set_status(server, placed.id, "confirmed")

    _open(phone, placed)
    expect(phone.get_by_test_id("confirmation-headline")).to_have_text(sq("Booking Confirmed!"))
    phone.get_by_test_id("change-move").click()
    form = phone.get_by_test_id("change-move-form")
    # No free-text boxes: the picker, on the booking's own day and time, no duration to change.
    expect(form.locator("input")).to_have_count(0)
    expect(form.locator("#picker-duration")).to_have_count(0)
    picker = _picker_on(phone, day, day)
    expect(picker.get_by_role("button", name=day.isoformat(), exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(_slot(picker, "10:00")).to_have_attribute("aria-pressed", "true")
    # Its own time is no move: the button waits for another choice.
    expect(form.get_by_test_id("change-move-confirm")).to_be_disabled()

    picker = _picker_on(phone, new_day, day)
    picker.get_by_role("button", name=new_day.isoformat(), exact=True).click()
    # Someone else's 14:00-16:00 (2 hours): 13:00, 14:00 and 15:00 are not offered.
    for taken in ("13:00", "14:00", "15:00"):
        expect(_slot(picker, taken)).to_be_disabled()
    _slot(picker, "16:00").click()
    form.get_by_test_id("change-move-confirm").click()

    expect(phone.get_by_test_id("change-notice")).to_have_text(
        sq(
            "Your booking is moved and waits for our confirmation of the new time. The new "
            "times are below."
        )
    )
    shown = dates.display_day(new_day)
    expect(phone.get_by_test_id("confirmation-line")).to_contain_text(f"{shown} · 16:00–18:00")
    expect(phone.get_by_test_id("change-move-form")).to_have_count(0)
    expect(phone.get_by_test_id("confirmation-headline")).to_have_text(
        sq("Waiting for confirmation")
    )
    expect(phone.get_by_test_id("confirmation-status")).to_have_text(sq("pending"))
    assert _free(server, service_id, day, "10:00")
    assert not _free(server, service_id, new_day, "16:00")
    assert _status(server, placed.id) == "pending"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_time_taken_meanwhile_is_refused_and_the_picked_day_stays(phone, server):
    service_id, title = _service(server)
    day = date.today() + timedelta(days=34)
    new_day = day + timedelta(days=2)
    placed = _place(server, service_id, day, "10:00")

    _open(phone, placed)
    phone.get_by_test_id("change-move").click()
    picker = _picker_on(phone, new_day, day)
    picker.get_by_role("button", name=new_day.isoformat(), exact=True).click()
    _slot(picker, "12:00").click()
    expect(_slot(picker, "12:00")).to_have_attribute("aria-pressed", "true")
    # Someone books 12:00 before the customer presses 'Move booking'.
    _place(server, service_id, new_day, "12:00", email="quicker@example.com")
    phone.get_by_test_id("change-move-confirm").click()

    expect(phone.get_by_test_id("change-error")).to_have_text(
        sq("{service} is already booked at {time} on {date}. Please choose another time.").format(
            service=title, time="12:00", date=dates.display_day(new_day)
        )
    )
    # The day picked is still shown, the time now taken is no longer offered.
    expect(picker.get_by_role("button", name=new_day.isoformat(), exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(_slot(picker, "12:00")).to_be_disabled()
    assert not _free(server, service_id, day, "10:00")  # nothing moved


def test_a_move_into_the_cutoff_is_warned_about_before_it_is_made(phone, server):
    service_id, _title = _service(server)
    day = date.today() + timedelta(days=35)
    near = date.today() + timedelta(days=5)
    placed = _place(server, service_id, day, "10:00")
    _cutoff(server, 240)  # ten days: a move to five days from now falls inside it
    try:
        _open(phone, placed)
        phone.get_by_test_id("change-move").click()
        picker = _picker_on(phone, near, day)
        picker.get_by_role("button", name=near.isoformat(), exact=True).click()
        _slot(picker, "12:00").click()
        phone.get_by_test_id("change-move-confirm").click()

        warning = phone.get_by_test_id("change-late-warning")
        expect(warning).to_contain_text(
            sq(
                "The new time is less than {hours} hours away. After this move you can no longer "
                "change or cancel the booking online: only by calling us."
            ).format(hours=240)
        )
        assert _status(server, placed.id) == "pending" and not _free(
            server, service_id, day, "10:00"
        )
        # 'Choose another time' goes back to the picker, the choice kept.
        warning.get_by_test_id("change-late-back").click()
        expect(warning).to_have_count(0)
        expect(_slot(picker, "12:00")).to_have_attribute("aria-pressed", "true")
        phone.get_by_test_id("change-move-confirm").click()
        phone.get_by_test_id("change-late-confirm").click()

        expect(phone.get_by_test_id("confirmation-line")).to_contain_text(
            f"{dates.display_day(near)} · 12:00–14:00"
        )
        # Now inside the cutoff: no change offered, the phone to call instead.
        expect(phone.get_by_test_id("booking-change")).to_have_count(0)
        expect(phone.get_by_test_id("change-call")).to_be_visible()
        assert _free(server, service_id, day, "10:00")
    finally:
        _cutoff(server, 48)


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
    move_anyway = f"{BookingViewState.get_full_name()}.move_booking_anyway"
    open_move = f"{BookingViewState.get_full_name()}.open_move"
    seen: list[str] = []

    async def scenario():
        # Straight to the handlers, with no page loaded; then after loading their booking
        # without a key, with a wrong key, and with the key of one's own booking.
        async with Tab(server.url, None) as tab:
            await tab.send_name(cancel, path)
            await tab.send_name(open_move, path)
            await tab.send_name(move, path)
            await tab.send_name(move_anyway, path)
            for key in (None, "forged", booking_links.sign_view_key(mine.id)):
                query = {"booking_id": theirs.id} | ({"key": key} if key else {})
                await tab.send_name(load, path, query=query)
                await tab.send_name(cancel, path, query=query)
                await tab.send_name(open_move, path, query=query)
                await tab.send_name(move, path, query=query)
                await tab.send_name(move_anyway, path, query=query)
            seen.append(tab.text())

    run(scenario())
    assert _status(server, theirs.id) == "pending"
    assert _topics(server, theirs.id) == ["booking_confirmation", "booking_placed"]
    assert "their.booking@example.com" not in seen[0]
