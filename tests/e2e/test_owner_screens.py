"""The owner's screens in words (issue 34, item 13): the audit log names every action, field and
booking line in the admin's back-office language; the review dialog writes both prices one way
with their currency; the services list shows each price's unit; the CSV holds what was booked
and where, with phones as people read them; the account's orders say their status in words;
the bulk cancel counts in the language's plural and says which address it means; the recovery
codes can be copied and downloaded. In the default (Albanian) edition and in English."""

from __future__ import annotations

import csv
import dataclasses
import io
import re
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect
from sqlmodel import Session

from storefront import i18n
from storefront.db import make_engine
from storefront.models import User
from storefront.services import business
from storefront.services.accounts import auth
from storefront.services.booking import admin as admin_bookings
from storefront.services.booking import placing
from storefront.services.booking.admin import BookingEdit, ItemEdit
from storefront.services.catalog import admin as catalog_admin
from storefront.services.catalog import listing as catalog_list
from tests.e2e.helpers import sq
from tests.factories import contact, line, make_service, signed_in_account

pytestmark = pytest.mark.e2e


def so(text: str, language: str = "sq") -> str:
    """A back-office string (`_o`) in `language`: what /sq/admin shows."""
    with i18n.using(language):
        return i18n.office_gettext(text)


def _committed(server, fn, **kwargs):
    engine = make_engine(server.database_url)
    try:
        with Session(engine) as session:
            result = fn(session=session, **kwargs)
            session.commit()
            return result
    finally:
        engine.dispose()


def _admin(page, server, language: str | None) -> tuple[str, str]:
    """A fresh admin whose back office is in `language`, signed in in `page`: (id, email)."""
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        user = User(
            email=f"owner-{uuid.uuid4().hex[:8]}@example.com", role="admin", language=language
        )
        session.add(user)
        session.flush()
        token = auth.create_session(session=session, user_id=user.id, remember=False)
        session.commit()
        found = str(user.id), user.email
    engine.dispose()
    page.context.add_cookies([{"name": auth.COOKIE_NAME, "value": token, "url": server.url}])
    return found


def _placed(server, *titles: str, email: str | None = None, **details) -> tuple[str, str]:
    """A pending booking of a fresh service per title, a week from now: (id, reference)."""
    day = (datetime.now(UTC) + timedelta(days=7)).date().isoformat()
    # A visitor of its own unless named: the per-address limit counts each.
    n = uuid.uuid4().int
    address = details.pop("client_address", None) or f"10.{n % 250}.{n // 250 % 250}.{n % 7 + 1}"

    def place(session):
        services = [str(make_service(session, title=t, units=5).id) for t in titles]
        session.commit()
        placed = placing.place_booking(
            session=session,
            lines=[line(s, day, f"{10 + 2 * n}:00") for n, s in enumerate(services)],
            contact=contact(email=email or f"guest-{uuid.uuid4().hex[:6]}@example.com", **details),
            idempotency_key=f"owner-{uuid.uuid4().hex}",
            client_address=address,
        )
        return placed.id, placed.reference

    return _committed(server, lambda session: place(session))


# --- the audit log --------------------------------------------------------------------------


def _changes_by_admin(server, admin_id: str) -> str:
    """A booking edited (one line's quantity), a flood cancelled and a setting changed by the
    admin: the issue's 'booking_bulk_cancel', 'settings_update' and 'Item 1 Start'."""
    tag = uuid.uuid4().hex[:5]
    castle = f"Kështjellë {tag}"
    booking_id, _reference = _placed(server, castle, f"Maskota {tag}")
    form = _committed(server, admin_bookings.edit_form, actor_id=admin_id, booking_id=booking_id)
    items = tuple(
        ItemEdit(
            id=ln.id,
            unit_price=ln.unit_price,
            quantity=ln.quantity + (1 if ln.service_name == castle else 0),
            date=ln.date,
            start_time=ln.start_time,
            duration_hours=ln.duration_hours,
        )
        for ln in form.lines
    )
    edit = BookingEdit(
        contact_email=form.contact_email,
        contact_phone=form.contact_phone,
        venue_address=form.venue_address,
        event_type=form.event_type,
        guest_count=form.guest_count,
        special_requests=form.special_requests,
        items=items,
        contact_name=form.contact_name,
        city=form.city,
        zip_code=form.zip_code,
    )
    _committed(
        server, admin_bookings.update_booking, actor_id=admin_id, booking_id=booking_id, edit=edit
    )
    flood = f"flood-{tag}@example.com"
    first, _ = _placed(server, f"Flluska {tag}", email=flood)
    _placed(server, f"Flluska 2 {tag}", email=flood)
    _committed(
        server, admin_bookings.cancel_pending_from, actor_id=admin_id, booking_id=first, by="email"
    )
    values = _committed(server, business.editable_settings)
    old_lead = values["reminder_lead_hours"]
    try:
        changed = dict(values, reminder_lead_hours=str(int(old_lead) + 1))
        _committed(server, business.update_settings, actor_id=admin_id, values=changed)
    finally:
        _committed(server, business.update_settings, actor_id=admin_id, values=values)
    return castle


@pytest.mark.parametrize("language", ["sq", None])
def test_the_audit_log_names_actions_fields_and_lines_in_the_back_office_language(
    page, server, language
):
    admin_id, email = _admin(page, server, language)
    castle = _changes_by_admin(server, admin_id)
    words = "sq" if language else "en"
    page.goto("/sq/admin/audit" if language else "/admin/audit")
    page.get_by_label(so("Actor email", words)).fill(email)
    page.get_by_role("button", name=so("Filter", words)).click()
    rows = page.get_by_test_id("audit-row")
    expect(rows).to_have_count(4)  # the edit, the bulk cancel, two settings changes

    edited = rows.filter(has_text=so("Booking edited", words))
    expect(edited).to_have_count(1)
    # The line by its service's name, the field as the booking edit names it.
    expect(edited.get_by_test_id("audit-changes")).to_contain_text(
        f"{castle} / {so('Quantity', words)}: 1 -> 2"
    )
    expect(rows.filter(has_text=so("Pending bookings cancelled together", words))).to_have_count(1)
    settings = rows.filter(has_text=so("Settings changed", words))
    expect(settings).to_have_count(2)
    expect(settings.first.get_by_test_id("audit-changes")).to_contain_text(
        f"{so('Reminder before the event (hours)', words)}: "
    )
    text = page.get_by_test_id("audit-table").inner_text()
    for code in ("booking_update", "booking_bulk_cancel", "settings_update", "Item 1"):
        assert code not in text
    if language:  # no English setting name in the Albanian back office
        assert "Reminder" not in text and "lead hours" not in text.lower()


# --- the review dialog and the services list -----------------------------------------------


def test_the_review_writes_both_prices_with_their_currency_and_the_list_their_unit(page, server):
    owner_id, _owner_email, _token = signed_in_account(
        server.database_url, role="user", password="a long enough password", full_name="Owner"
    )
    admin_id, _email = _admin(page, server, None)
    title = f"Candy cart {uuid.uuid4().hex[:5]}"
    form = catalog_admin.ServiceForm(
        title=title,
        slug=f"candy-{uuid.uuid4().hex[:8]}",
        description="Candy for every guest.",
        price="80.00",
        price_unit="per_event",
        kind="service",
    )
    service_id = _committed(server, catalog_admin.save_service, actor_id=owner_id, form=form)
    _committed(
        server,
        catalog_list.set_status,
        actor_id=admin_id,
        service_id=service_id,
        status="published",
    )
    _committed(
        server,
        catalog_admin.save_service,
        actor_id=owner_id,
        form=dataclasses.replace(form, price="95"),
        service_id=service_id,
    )

    page.goto("/admin/services")
    page.get_by_label("Search").fill(title)
    row = page.get_by_test_id("service-row").filter(has_text=title)
    # The list shows the unit as the public site does.
    expect(row).to_contain_text("€80.00\u00a0per event")
    row.get_by_test_id("review-changes").click()
    change = page.get_by_test_id("review-dialog").get_by_test_id("review-change")
    expect(change).to_have_count(1)
    # Before and after, each as the site writes a price (it read '80.00' and '95').
    expect(change.locator("dd p")).to_have_text(["Before", "€80.00", "After", "€95.00"])


def test_the_albanian_services_list_writes_prices_with_their_unit(page, server):
    _admin(page, server, "sq")
    title = f"Shtëpi me flluska {uuid.uuid4().hex[:5]}"
    _committed(server, lambda session: make_service(session, title=title, price="150.00"))
    page.goto("/sq/admin/services")
    page.get_by_label(so("Search")).fill(title)
    row = page.get_by_test_id("service-row").filter(has_text=title)
    per_hour = sq("/\u00a0h")
    expect(row).to_contain_text(f"150,00\u00a0€\u00a0{per_hour}")


# --- the CSV --------------------------------------------------------------------------------


def test_the_csv_has_services_venue_and_requests_and_phones_without_a_quote(page, server):
    _admin(page, server, None)
    tag = uuid.uuid4().hex[:5]
    _booking_id, reference = _placed(
        server,
        f"Castle {tag}",
        f"Mascot {tag}",
        phone="+383 44 123 456",
        address="Hotel Emerald, Rruga B",
        city="Prizren",
        zip_code="20000",
        special_requests="Blue balloons",
    )
    page.goto(f"/admin/bookings?q={reference}")
    expect(page.get_by_test_id("booking-row")).to_have_count(1)
    with page.expect_download() as download:
        page.get_by_test_id("booking-csv").click()
    header, *rows = list(
        csv.reader(io.StringIO(download.value.path().read_text(encoding="utf-8-sig")))
    )
    assert len(rows) == 1
    row = dict(zip(header, rows[0], strict=True))
    assert row["Phone"] == "+383 44 123 456"  # no visible ' before it
    assert re.fullmatch(
        rf"Castle {tag} × 1, \d\d\.\d\d\.\d{{4}} 10:00-11:00; "
        rf"Mascot {tag} × 1, \d\d\.\d\d\.\d{{4}} 12:00-13:00",
        row["Services"],
    ), row["Services"]
    assert row["Venue Address"] == "Hotel Emerald, Rruga B"
    assert (row["City"], row["ZIP Code"]) == ("Prizren", "20000")
    assert row["Special Requests"] == "Blue balloons"


# --- the account's orders -------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["", "/en"])
def test_the_orders_say_their_status_in_words(page, server, prefix):
    user_id, _email, token = signed_in_account(
        server.database_url, role="user", password="a long enough password", full_name="Orders"
    )
    day = (datetime.now(UTC) + timedelta(days=30)).date().isoformat()

    def place(session):
        service = str(make_service(session, title=f"Orders {uuid.uuid4().hex[:5]}", units=3).id)
        session.commit()
        placing.place_booking(
            session=session,
            lines=[line(service, day, "10:00")],
            contact=contact(),
            idempotency_key=f"orders-{uuid.uuid4().hex}",
            user_id=user_id,
        )

    _committed(server, lambda session: place(session))
    page.context.add_cookies([{"name": "sf_session", "value": token, "url": server.url}])
    page.goto(f"{prefix}/account/orders")
    status = page.get_by_test_id("order-status")
    words = sq("pending", "sq" if not prefix else "en")
    # 'Pending', 'Në pritje': the site's word for it, as a label, never the code 'pending'.
    expect(status).to_have_text(words[:1].upper() + words[1:])


# --- the bulk cancel ------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["sq", None])
def test_the_bulk_cancel_counts_in_words_and_names_the_internet_address(page, server, language):
    _admin(page, server, language)
    words = "sq" if language else "en"
    address = f"203.0.113.{uuid.uuid4().int % 200 + 20}"
    first, reference = _placed(server, f"Flood {uuid.uuid4().hex[:5]}", client_address=address)
    _placed(server, f"Flood {uuid.uuid4().hex[:5]}", client_address=address)
    _placed(server, f"Flood {uuid.uuid4().hex[:5]}", client_address=address)

    page.goto(("/sq" if language else "") + f"/admin/bookings?q={reference}")
    row = page.get_by_test_id("booking-row")
    expect(row).to_have_count(1)
    row.get_by_test_id("booking-view").click()
    button = page.get_by_test_id("cancel-from-address")
    expect(button).to_have_text(so("Cancel pending from this internet address (IP)", words))
    button.click()
    question = page.get_by_test_id("cancel-from-question")
    with i18n.using(words):
        asked = (
            i18n.office_ngettext(
                "Cancel {count} pending booking placed from the internet address (IP) {value}: "
                "{references}?",
                "Cancel {count} pending bookings placed from the internet address (IP) {value}: "
                "{references}?",
                3,
            )
            .split("{value}")[0]
            .format(count=3)
        )
    expect(question).to_contain_text(asked + address)
    assert "booking(s)" not in question.inner_text()
    page.get_by_test_id("cancel-from-confirm").click()
    with i18n.using(words):
        done = i18n.office_ngettext(
            "Cancelled {count} pending booking placed from the internet address (IP) {value}.",
            "Cancelled {count} pending bookings placed from the internet address (IP) {value}.",
            3,
        ).format(count=3, value=address)
    expect(page.get_by_test_id("admin-notice")).to_have_text(done)


# --- the recovery codes ---------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["", "/en"])
def test_the_recovery_codes_can_be_copied_and_downloaded(page, server, prefix):
    import pyotp

    _admin(page, server, None)
    language = "en" if prefix else "sq"
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page.goto(f"{prefix}/account/security")
    card = page.get_by_test_id("two-factor")
    card.get_by_role("button", name=sq("Set up two-factor sign-in", language)).click()
    secret = page.get_by_test_id("two-factor-secret").inner_text().replace(" ", "")
    form = page.get_by_test_id("two-factor-confirm")
    form.get_by_label(sq("Code", language)).fill(pyotp.TOTP(secret).now())
    form.get_by_role("button", name=sq("Turn on", language)).click()
    listed = page.get_by_test_id("recovery-codes").get_by_role("listitem")
    expect(listed).to_have_count(10, timeout=30000)
    codes = listed.all_inner_texts()

    copy = page.get_by_test_id("recovery-codes-copy")
    expect(copy).to_have_text(sq("Copy codes", language))
    copy.click()
    expect(page.get_by_test_id("recovery-codes-copied")).to_have_text(
        sq("Copied to the clipboard.", language)
    )
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.split("\n\n", 1)[1].split() == codes

    download_button = page.get_by_test_id("recovery-codes-download")
    expect(download_button).to_have_text(sq("Download (.txt)", language))
    with page.expect_download() as download:
        download_button.click()
    assert download.value.suggested_filename == "recovery-codes.txt"
    saved = download.value.path().read_text(encoding="utf-8")
    assert saved == copied
    assert saved.startswith(
        sq("Recovery codes: each signs you in once if you lose your phone.", language)
    )
