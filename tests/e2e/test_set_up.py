"""Proof of delivery on a phone (issue 37, item 5): a driver marks today's job 'Set up' with who
received it and a photo; a file that is not an image is refused beside the field and the typed
name stays; the owner sees the name and the photo on the booking; the customer's page says
'Set up at HH:MM'. All at 390 px."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect
from sqlmodel import Session

from storefront.db import make_engine
from storefront.models import Booking, User, Van, VanJob, VanJobCrew
from storefront.services import dates
from storefront.services.messaging import links as booking_links
from storefront.state.set_up import SetUpState
from tests.e2e.helpers import PASSWORD
from tests.e2e.socket_client import Tab
from tests.e2e.socket_client import run as _run
from tests.e2e.test_staff_day import _admin, _signed_in, _staff, _todays_booking
from tests.factories import image_bytes, signed_in_account

pytestmark = pytest.mark.e2e


def _set_up(server, booking_id: str) -> Booking:
    engine = make_engine(server.database_url)
    with Session(engine, expire_on_commit=False) as session:
        booking = session.get(Booking, uuid.UUID(booking_id))
    engine.dispose()
    return booking


def test_a_driver_marks_a_job_set_up_with_a_photo_and_the_owner_sees_it(phone, server):
    booking_id, reference = _todays_booking(server)
    _staff_id, token, _email = _staff(server)
    _signed_in(phone, server, token)
    phone.goto(f"{server.url}/admin/day")
    sheet = phone.get_by_test_id("sheet-booking").filter(has_text=reference)
    expect(sheet).to_be_visible(timeout=15000)
    opener = sheet.get_by_test_id("set-up-open")
    assert opener.bounding_box()["height"] >= 44
    opener.click()

    name = sheet.get_by_test_id("set-up-received-by")
    name.fill("Besa Krasniqi")
    picker = sheet.get_by_test_id("set-up-photo").locator("input[type=file]")
    expect(picker).to_have_attribute("capture", "environment")
    # Not an image, though it says it is: refused by the server, beside the field.
    picker.set_input_files(
        {"name": "photo.png", "mimeType": "image/png", "buffer": b"just some text, no pixels"}
    )
    expect(sheet.get_by_test_id("set-up-photo-error")).to_have_text(
        "Please choose a photo (JPEG, PNG or WebP)."
    )
    expect(name).to_have_value("Besa Krasniqi")  # nothing typed is lost

    picker.set_input_files(
        {"name": "venue.jpg", "mimeType": "image/jpeg", "buffer": image_bytes("JPEG", (800, 600))}
    )
    expect(sheet.get_by_test_id("set-up-preview")).to_be_visible()
    expect(sheet.get_by_test_id("set-up-photo-error")).to_have_count(0)
    expect(name).to_have_value("Besa Krasniqi")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    sheet.get_by_test_id("set-up-save").click()

    said = sheet.get_by_test_id("sheet-set-up")
    expect(said).to_contain_text("received by Besa Krasniqi")
    booking = _set_up(server, booking_id)
    at = dates.local_time(booking.set_up_at)
    expect(said).to_have_text(f"Set up at {at} · received by Besa Krasniqi")
    assert booking.set_up_photo and booking.set_up_photo.startswith("deliveries/")
    assert booking.set_up_by_name == "Driton"

    # The owner, on the booking's detail: who received it, and the photo linking to itself.
    phone.context.clear_cookies()
    _admin_id, admin_token = _admin(server)
    _signed_in(phone, server, admin_token)
    phone.goto(f"{server.url}/admin/bookings?q={reference}")
    row = phone.get_by_test_id("booking-row")
    expect(row).to_have_count(1, timeout=15000)
    row.get_by_role("button", name=f"View booking {reference}").click()
    proof = phone.get_by_test_id("set-up-proof")
    expect(proof).to_contain_text("Besa Krasniqi")
    expect(proof).to_contain_text(at)
    expect(proof).to_contain_text("Driton")
    photo = proof.get_by_test_id("set-up-proof-photo")
    expect(photo).to_have_attribute("href", re.compile(re.escape(booking.set_up_photo) + "$"))
    expect(photo.locator("img")).to_have_js_property("complete", True)
    assert photo.locator("img").evaluate("img => img.naturalWidth") == 800

    # The customer's page.
    phone.context.clear_cookies()
    phone.goto(
        server.url + booking_links.view_path(booking_id, booking_links.sign_view_key(booking_id))
    )
    expect(phone.get_by_test_id("confirmation-set-up")).to_have_text(f"Montuar në orën {at}")


def test_a_blank_name_is_refused_and_the_photo_kept(phone, server):
    _booking_id, reference = _todays_booking(server)
    _staff_id, token, _email = _staff(server)
    _signed_in(phone, server, token)
    phone.goto(f"{server.url}/admin/day")
    sheet = phone.get_by_test_id("sheet-booking").filter(has_text=reference)
    expect(sheet).to_be_visible(timeout=15000)
    sheet.get_by_test_id("set-up-open").click()
    sheet.get_by_test_id("set-up-photo").locator("input[type=file]").set_input_files(
        {"name": "venue.png", "mimeType": "image/png", "buffer": image_bytes()}
    )
    expect(sheet.get_by_test_id("set-up-preview")).to_be_visible()
    sheet.get_by_test_id("set-up-save").click()
    expect(sheet.get_by_test_id("set-up-name-error")).to_contain_text("Received by")
    expect(sheet.get_by_test_id("set-up-preview")).to_be_visible()
    expect(sheet.get_by_test_id("sheet-set-up")).to_have_count(0)


def _another_vans(server, booking_id: str) -> None:
    """Give the booking's delivery to a van whose crew is someone else."""
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        other = User(email=f"crew-{uuid.uuid4().hex[:8]}@example.com", role="staff")
        van = Van(name=f"Van {uuid.uuid4().hex[:6]}")
        session.add_all([other, van])
        session.flush()
        run = VanJob(
            booking_id=uuid.UUID(booking_id), leg="delivery", day=dates.today(), van_id=van.id
        )
        session.add(run)
        session.flush()
        session.add(VanJobCrew(job_id=run.id, user_id=other.id))
        session.commit()
    engine.dispose()


def test_forged_set_up_events_change_nothing(server):
    """Another van's job today, and a job of tomorrow: a member of staff's forged 'Save' marks
    neither; a signed-in customer's is refused by the guard."""
    vans_id, _ref = _todays_booking(server)
    _another_vans(server, vans_id)
    later_id, _later = _todays_booking(server, days=1)
    _staff_id, token, _email = _staff(server)
    name = SetUpState.get_full_name()

    async def forged(caller_token):
        async with Tab(server.url, caller_token) as tab:
            path = "/admin/day"
            for booking_id in (vans_id, later_id):
                await tab.send_event(f"{name}.open", path, {"booking_id": booking_id})
                await tab.send_event(f"{name}.save", path, {"form": {"received_by": "Forged"}})
            return tab.states_text()

    text = _run(forged(token))
    assert "This job is another van's" in text  # said beside the field
    _cid, customer_token, _e = signed_in_account(
        server.database_url, role="user", password=PASSWORD, full_name="Guest"
    )
    _run(forged(customer_token))
    for booking_id in (vans_id, later_id):
        booking = _set_up(server, booking_id)
        assert (booking.set_up_at, booking.received_by) == (None, "")
