"""Issue 20, items 3, 4, 5, 7 and 17: the admin's Edit Booking as the owner uses it. A booking
placed on the booking screen without an address is edited without inventing one; its event type
shows as placed (one list of six, by label); a per-hour line is repriced by the hours on every
change, with the rate and the line total apart, and a total set by hand is logged; the name the
customer typed shows in the list, the detail and the CSV and can be edited with city and ZIP;
a malformed email says so beside its field; a move into the past asks first."""

from __future__ import annotations

import csv
import io
import re
import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from playwright.sync_api import expect
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import AuditLog, Booking
from storefront.services.booking import placing, transport
from tests.e2e.helpers import read, sq
from tests.e2e.test_admin_catalogue import _signed_in
from tests.factories import contact, line, make_service


def _placed(server, *, address: str = "", hours: int = 2) -> tuple[str, str]:
    """A booking as the booking screen places it: a per-hour service (599.00 an hour) for
    `hours`, a graduation, the name typed 'Bora Berisha' (the email would give 'Bora K
    Berisha'), no address unless given."""
    engine = make_engine(server.database_url)
    with Session(engine, expire_on_commit=False) as session:
        service = make_service(
            session, title=f"Ice Princess {uuid.uuid4().hex[:6]}", price="599.00", units=1
        )
        day = (datetime.now(UTC) + timedelta(days=9)).date().isoformat()
        session.commit()
        placed = placing.place_booking(
            session=session,
            lines=[line(service, day, "12:00", hours=hours)],
            contact=contact(
                full_name="Bora Berisha",
                email="bora.k.berisha@example.com",
                address=address,
                city="Prishtinë",  # the home town: no transport (issue 36)
                zip_code="",
                event_type="graduation",
            ),
            idempotency_key=f"edit-{uuid.uuid4().hex}",
        )
    engine.dispose()
    return placed.id, placed.reference


def _stored(server, booking_id: str) -> Booking:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        row = session.get(Booking, uuid.UUID(booking_id))
        session.expunge(row)
    engine.dispose()
    return row


def _open_edit(page, booking_id: str, reference: str):
    page.goto(f"/admin/bookings/edit/{booking_id}")
    form = page.get_by_test_id("booking-edit-form")
    expect(form).to_contain_text(reference, timeout=15000)
    return form


def test_a_booking_without_an_address_keeps_its_event_type_and_reprices_by_the_hour(page, server):
    booking_id, reference = _placed(server)
    _signed_in(page, server, "admin")
    form = _open_edit(page, booking_id, reference)

    expect(form.get_by_label("Event Type")).to_have_value("graduation")
    expect(form.get_by_label("Event Type").locator("option:checked")).to_have_text("Graduation")
    expect(form.get_by_label("Customer name")).to_have_value("Bora Berisha")
    price = form.locator("#line-rate-0")
    expect(price).to_have_value("599.00")
    expect(form.get_by_test_id("line-unit")).to_have_text("per hour")
    expect(form.get_by_test_id("line-subtotal")).to_have_text("€1,198.00")

    form.get_by_label("Duration (hours)").select_option("4")
    expect(form.get_by_test_id("line-subtotal")).to_have_text("€2,396.00")
    expect(form.get_by_test_id("edit-total")).to_contain_text("€2,396.00")
    form.get_by_label("Customer name").fill("Bora Berisha-Krasniqi")
    # The municipality is a choice; another one reprices the transport when saved (issue 36).
    form.get_by_label("Municipality").select_option("Prizren")
    form.get_by_label("ZIP Code").fill("20000")
    form.get_by_test_id("edit-save").click()
    expect(page.get_by_test_id("admin-notice")).to_have_text("Booking updated successfully")

    row = _stored(server, booking_id)
    assert row.venue_address == ""
    assert (row.contact_name, row.city, row.zip_code) == (
        "Bora Berisha-Krasniqi",
        "Prizren",
        "20000",
    )
    assert row.event_type == "graduation"
    fee = read(server, lambda session: transport.transport_fee(session, "prizren"))
    assert row.transport_amount == fee
    assert row.total_amount == Decimal("2396.00") + fee


def test_a_total_set_by_hand_overrides_the_sum_and_is_logged(page, server):
    booking_id, reference = _placed(server, address="Hotel Emerald")
    _signed_in(page, server, "admin")
    form = _open_edit(page, booking_id, reference)
    form.get_by_label("Total set by hand (optional)").fill("1000")
    expect(form.get_by_test_id("edit-total")).to_contain_text("€1,000.00")
    expect(form.get_by_test_id("lines-total")).to_have_text("€1,198.00")
    form.get_by_test_id("edit-save").click()
    expect(page.get_by_test_id("admin-notice")).to_have_text("Booking updated successfully")
    assert str(_stored(server, booking_id).total_amount) == "1000.00"
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        entry = session.exec(
            select(AuditLog).where(
                AuditLog.entity_id == booking_id, AuditLog.action == "booking_update"
            )
        ).first()
        assert entry is not None and entry.details.get("total_set_by_hand") == {
            "lines_total": "1198.00"
        }
    engine.dispose()


def test_edit_errors_say_what_is_wrong_beside_their_field_and_the_past_asks_first(page, server):
    booking_id, reference = _placed(server, address="Hotel Emerald")
    _signed_in(page, server, "admin")
    form = _open_edit(page, booking_id, reference)
    form.get_by_label("Email *").fill("bora at example")
    form.get_by_label("Venue address *").fill("")
    form.get_by_test_id("edit-save").click()
    email_error = form.locator("#edit-contact_email-error")
    expect(email_error).to_contain_text("Email")
    expect(email_error).not_to_have_text("Please fill in all required fields")
    expect(form.locator("#edit-venue_address-error")).to_have_text("Venue address is required")

    form.get_by_label("Email *").fill("bora@example.com")
    form.get_by_label("Venue address *").fill("Hotel Emerald")
    yesterday = (datetime.now(UTC) - timedelta(days=1)).date().isoformat()
    form.locator("#line-date-0").fill(yesterday)
    form.get_by_label("Status").select_option("confirmed")
    form.get_by_label("Notes").fill("Bring the spare costume")
    form.get_by_test_id("edit-save").click()
    dialog = page.get_by_test_id("past-dialog")
    expect(dialog).to_contain_text("This would move the booking into the past")
    dialog.get_by_role("button", name="Keep editing").click()
    expect(dialog).to_have_count(0)
    assert _stored(server, booking_id).contact_email == "bora.k.berisha@example.com"
    form.get_by_test_id("edit-save").click()
    page.get_by_test_id("confirm-past").click()
    expect(page.get_by_test_id("admin-notice")).to_have_text("Booking updated successfully")
    assert _stored(server, booking_id).contact_email == "bora@example.com"


def test_the_typed_name_shows_in_the_list_the_detail_and_the_csv(page, server):
    booking_id, reference = _placed(server)
    _signed_in(page, server, "admin")
    page.goto("/admin/bookings")
    page.get_by_label("Reference, email or phone").fill(reference)
    page.get_by_role("button", name="Search").click()
    # The filtered list's own page (its on_load would close a detail opened before it).
    expect(page).to_have_url(re.compile(r"/admin/bookings\?q=" + reference + "$"))
    row = page.get_by_test_id("booking-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Bora Berisha")
    expect(row).not_to_contain_text("Bora K Berisha")
    expect(row).to_contain_text("Graduation")
    row.get_by_test_id("booking-view").click()
    detail = page.get_by_role("dialog")
    expect(detail).to_contain_text("Bora Berisha")
    expect(detail).not_to_contain_text("Bora K Berisha")
    page.keyboard.press("Escape")
    expect(detail).to_have_count(0)
    with page.expect_download() as download:
        page.get_by_test_id("booking-csv").click()
    rows = list(csv.reader(io.StringIO(download.value.path().read_text(encoding="utf-8-sig"))))
    mine = [r for r in rows if reference in r]
    assert mine and "Bora Berisha" in mine[0] and "Graduation" in mine[0]


def test_the_export_is_the_list_shown_and_the_filter_lives_in_the_address(page, server):
    booking_id, reference = _placed(server)
    _signed_in(page, server, "admin")
    page.goto("/admin/bookings")
    rows = page.get_by_test_id("booking-row")
    expect(rows.first).to_be_visible(timeout=15000)
    search = page.get_by_label("Reference, email or phone")
    search.fill(reference)  # typed, not applied: the list still shows every booking
    export = page.get_by_test_id("booking-csv")
    expect(export).to_have_attribute("href", "/api/admin/bookings.csv")

    page.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"/admin/bookings\?q=" + reference + "$"))
    expect(rows).to_have_count(1)
    expect(export).to_have_attribute("href", f"/api/admin/bookings.csv?q={reference}")
    search.fill("someone-else")
    expect(export).to_have_attribute("href", f"/api/admin/bookings.csv?q={reference}")

    page.reload()
    expect(page.get_by_label("Reference, email or phone")).to_have_value(reference)
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text(reference)
    with page.expect_download() as download:
        page.get_by_test_id("booking-csv").click()
    lines = list(csv.reader(io.StringIO(download.value.path().read_text(encoding="utf-8-sig"))))
    assert len(lines) == 2 and reference in lines[1]


def test_dates_are_typed_as_the_site_shows_them(page, server):
    """Item 22: DD.MM.YYYY in every date field, whatever the browser's language."""
    booking_id, reference = _placed(server)
    day = (datetime.now(UTC) + timedelta(days=9)).date()
    _signed_in(page, server, "admin")
    form = _open_edit(page, booking_id, reference)
    expect(form.locator("#line-date-0")).to_have_value(f"{day:%d.%m.%Y}")
    page.goto("/admin/bookings")
    page.get_by_label("Reference, email or phone").fill(reference)
    expect(page.get_by_label("From")).to_have_attribute("placeholder", "DD.MM.YYYY")
    page.get_by_label("From").fill(f"{day:%d.%m.%Y}")
    page.get_by_label("To").fill(f"{day:%d.%m.%Y}")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_test_id("booking-row")).to_have_count(1)
    page.get_by_label("From").fill(f"{day + timedelta(days=1):%d.%m.%Y}")
    page.get_by_label("To").fill(f"{day + timedelta(days=2):%d.%m.%Y}")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_test_id("bookings-empty")).to_be_visible()
    page.goto("/contact")
    expect(page.get_by_label(sq("Event Date"))).to_have_attribute("placeholder", "DD.MM.YYYY")
