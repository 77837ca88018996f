"""What a booking owes (issue 36): the transport to its municipality and the deposit, priced
from the settings when it is placed, on SQLite and PostgreSQL; the refusals of a municipality
not in the list and of one not served online; the Settings page's transport card and its
deposit and fiscal number checks."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from sqlmodel import select

from storefront import i18n
from storefront.models import AuditLog, Booking, BusinessSettings
from storefront.services import business
from storefront.services.booking import transport
from storefront.services.booking.lines import BookingError
from tests.factories import line, make_service, make_user, place, settings_form

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "2026-06-10"


def _settings(session, **values) -> None:
    row = session.get(BusinessSettings, 1) or BusinessSettings(id=1)
    for name, value in values.items():
        setattr(row, name, value)
    session.add(row)
    session.commit()


def _booking(session, placed) -> Booking:
    session.expire_all()
    row = session.get(Booking, uuid.UUID(placed.id))
    session.commit()
    return row


def test_a_booking_stores_its_transport_total_and_deposit(session):
    bouncer = make_service(session, title="Bouncer", price="100.00")
    _settings(
        session,
        transport_fees={"gjakove": "25.00", "prizren": "20.00"},
        deposit_percent=30,
        deposit_above=Decimal("200.00"),
    )
    # 3 h x 100 = 300 + 25 transport = 325, above 200: a deposit of 30 % = 97.50.
    placed = place(session, [line(bouncer, DAY, "10:00", 3)], now=NOW, city="Đakovica")
    row = _booking(session, placed)
    assert row.city == "Gjakovë"
    assert row.transport_amount == Decimal("25.00")
    assert row.total_amount == Decimal("325.00") == placed.total
    assert row.deposit_amount == Decimal("97.50")
    # At the home town nothing is added, and a total not above the threshold asks no deposit.
    home = place(session, [line(bouncer, DAY, "15:00", 2)], now=NOW, city="Prishtina")
    row = _booking(session, home)
    assert (row.city, row.transport_amount, row.total_amount, row.deposit_amount) == (
        "Prishtinë",
        Decimal("0.00"),
        Decimal("200.00"),
        Decimal("0.00"),
    )


def test_the_fee_is_the_one_of_the_moment_it_was_placed(session):
    bouncer = make_service(session, title="Bouncer", price="50.00")
    _settings(session, transport_fees={"prizren": "20.00"})
    placed = place(session, [line(bouncer, DAY, "10:00", 1)], now=NOW, city="Prizren")
    _settings(session, transport_fees={"prizren": "35.00"})
    row = _booking(session, placed)
    assert row.transport_amount == Decimal("20.00") and row.total_amount == Decimal("70.00")
    assert transport.transport_fee(session, "prizren") == Decimal("35.00")
    session.rollback()


def test_a_municipality_not_served_online_is_refused_with_the_phone(session):
    bouncer = make_service(session, title="Bouncer", price="50.00")
    _settings(session, transport_fees={"dragash": None}, phone="+383 44 555 666")
    with i18n.using("en"), pytest.raises(BookingError) as refused:
        place(session, [line(bouncer, DAY, "10:00", 1)], now=NOW, city="Dragash")
    assert refused.value.code == "invalid_contact"
    assert refused.value.details["fields"] == {"city": "not_served"}
    message = refused.value.details["messages"]["city"]
    assert "Dragash" in message and "+383 44 555 666" in message
    session.rollback()
    assert session.exec(select(Booking)).all() == []


def test_a_place_that_is_not_a_municipality_is_refused(session):
    bouncer = make_service(session, title="Bouncer", price="50.00")
    session.commit()
    with i18n.using("en"), pytest.raises(BookingError) as refused:
        place(session, [line(bouncer, DAY, "10:00", 1)], now=NOW, city="Tirana")
    assert refused.value.code == "invalid_contact"
    assert refused.value.details["fields"] == {"city": "invalid"}
    assert refused.value.details["messages"]["city"] == "Choose your municipality from the list"
    with pytest.raises(BookingError) as missing:
        place(session, [line(bouncer, DAY, "10:00", 1)], now=NOW, city="")
    assert missing.value.details["fields"] == {"city": "required"}
    session.rollback()
    assert session.exec(select(Booking)).all() == []


def test_owed_shows_the_transport_once_the_municipality_is_known(session):
    _settings(
        session,
        transport_fees={"gjakove": "25.00", "dragash": None},
        deposit_percent=50,
        deposit_above=Decimal("100.00"),
    )
    with i18n.using("en"):
        unknown = transport.owed(session=session, subtotal=Decimal("100"), city="")
        assert unknown.transport is None and unknown.total == Decimal("100.00")
        gjakove = transport.owed(session=session, subtotal=Decimal("100"), city="gjakove")
        assert gjakove.transport == Decimal("25.00") and gjakove.total == Decimal("125.00")
        assert gjakove.deposit == Decimal("62.50") and gjakove.municipality == "Gjakova"
        assert gjakove.labels["transport"] == "€25.00"
        far = transport.owed(session=session, subtotal=Decimal("100"), city="dragash")
        assert far.transport is None and "call us" in far.refusal
    session.rollback()


def test_the_transport_card_is_checked_audited_and_keeps_the_other_settings(session):
    admin = make_user(session, role="admin")
    user = make_user(session)
    _settings(session, business_name="Kept Name", deposit_percent=20)
    with pytest.raises(transport.TransportError) as not_admin:
        transport.update_transport_fees(session=session, actor_id=user.id, values={})
    assert not_admin.value.code == "not_allowed"
    session.rollback()
    with i18n.using("en"), pytest.raises(transport.TransportError) as refused:
        transport.update_transport_fees(
            session=session,
            actor_id=admin.id,
            values={"prizren": "-5", "peje": "12.345", "gjakove": "25"},
        )
    assert refused.value.code == "invalid"
    assert refused.value.details["fields"] == {"prizren": "invalid", "peje": "invalid"}
    assert refused.value.details["messages"]["peje"].startswith("Peja: enter an amount")
    session.rollback()
    transport.update_transport_fees(
        session=session,
        actor_id=admin.id,
        values={"prizren": "20", "dragash": transport.NOT_SERVED},
    )
    session.commit()
    session.expire_all()
    row = session.get(BusinessSettings, 1)
    assert row.transport_fees["prizren"] == "20.00" and row.transport_fees["dragash"] is None
    assert row.transport_fees["prishtine"] == "0.00"
    assert row.business_name == "Kept Name" and row.deposit_percent == 20
    assert transport.editable_fees(session=session)["dragash"] == transport.NOT_SERVED
    entry = session.exec(select(AuditLog).where(AuditLog.action == "settings_update")).all()[-1]
    assert entry.details["after"]["transport_fees"]["prizren"] == "20.00"
    session.rollback()


def test_the_settings_form_checks_the_deposit_and_the_fiscal_number(session):
    admin = make_user(session, role="admin")
    session.commit()
    with i18n.using("en"), pytest.raises(business.SettingsError) as refused:
        business.update_settings(
            session=session,
            actor_id=admin.id,
            values=settings_form(deposit_percent="120", deposit_above="-1", fiscal_number="NUI-81"),
        )
    assert refused.value.details["fields"] == {
        "deposit_percent": "out_of_range",
        "deposit_above": "invalid",
        "fiscal_number": "invalid",
    }
    messages = refused.value.details["messages"]
    assert messages["deposit_percent"] == "Deposit (%): enter a whole number from 0 to 100"
    assert messages["fiscal_number"].startswith("Fiscal number (NUI): digits only")
    session.rollback()
    business.update_settings(
        session=session,
        actor_id=admin.id,
        values=settings_form(
            deposit_percent="30", deposit_above="200,5", fiscal_number="811 234 567"
        ),
    )
    session.commit()
    session.expire_all()
    row = session.get(BusinessSettings, 1)
    assert (row.deposit_percent, row.deposit_above, row.fiscal_number) == (
        30,
        Decimal("200.50"),
        "811234567",
    )
    assert business.editable_settings(session=session)["deposit_above"] == "200.50"
    session.rollback()


def _edit(session, admin, placed, **overrides):
    from storefront.services.booking import admin as admin_bookings

    form = admin_bookings.edit_form(session=session, actor_id=admin.id, booking_id=placed.id)
    session.rollback()
    items = tuple(
        admin_bookings.ItemEdit(
            id=line.id,
            unit_price=line.unit_price,
            quantity=line.quantity,
            date=line.date,
            start_time=line.start_time,
            duration_hours=line.duration_hours,
        )
        for line in form.lines
    )
    values = {
        "contact_email": form.contact_email,
        "contact_phone": form.contact_phone,
        "venue_address": form.venue_address,
        "event_type": form.event_type,
        "guest_count": str(form.guest_count),
        "special_requests": form.special_requests,
        "contact_name": form.contact_name,
        "city": form.city,
        "zip_code": form.zip_code,
    }
    admin_bookings.update_booking(
        session=session,
        actor_id=admin.id,
        booking_id=placed.id,
        edit=admin_bookings.BookingEdit(**(values | overrides), items=items),
        now=NOW,
    )
    session.commit()
    return form


def test_the_admin_edit_totals_lines_and_transport_and_reprices_a_new_municipality(session):
    admin = make_user(session, role="admin")
    bouncer = make_service(session, title="Bouncer", price="100.00")
    _settings(session, transport_fees={"prizren": "20.00", "gjakove": "30.00", "dragash": None})
    placed = place(session, [line(bouncer, DAY, "10:00", 2)], now=NOW, city="Prizren")
    form = _edit(session, admin, placed)
    # The form shows the transport, and a total that is lines + transport is not 'by hand'.
    assert (form.city, form.transport_amount, form.lines_total) == ("Prizren", "20.00", "200.00")
    # Settings changed since: an edit that keeps the municipality keeps its transport.
    _settings(session, transport_fees={"prizren": "50.00", "gjakove": "30.00", "dragash": None})
    _edit(session, admin, placed, guest_count="60")
    row = _booking(session, placed)
    assert (row.transport_amount, row.total_amount) == (Decimal("20.00"), Decimal("220.00"))
    # Another municipality: its transport as priced now, in the total.
    _edit(session, admin, placed, city="Gjakovë")
    row = _booking(session, placed)
    assert (row.city, row.transport_amount, row.total_amount) == (
        "Gjakovë",
        Decimal("30.00"),
        Decimal("230.00"),
    )
    # One not served online keeps what was agreed (by phone).
    _edit(session, admin, placed, city="Dragash")
    row = _booking(session, placed)
    assert (row.city, row.transport_amount, row.total_amount) == (
        "Dragash",
        Decimal("30.00"),
        Decimal("230.00"),
    )


def test_the_confirmation_and_the_csv_show_the_transport_and_what_is_due(session):
    from storefront.services.booking import admin_list, views

    admin = make_user(session, role="admin")
    bouncer = make_service(session, title="Bouncer", price="100.00")
    _settings(
        session,
        transport_fees={"gjakove": "25.00"},
        deposit_percent=30,
        deposit_above=Decimal("200.00"),
    )
    placed = place(session, [line(bouncer, DAY, "10:00", 3)], now=NOW, city="Gjakova")
    with i18n.using("en"):
        view = views.booking_for_view(session=session, booking_id=placed.id)
        # Placed on 1 June, the event on 10 June: the deposit is due three days later.
        assert (view.subtotal_label, view.transport_label, view.municipality) == (
            "€300.00",
            "€25.00",
            "Gjakova",
        )
        assert view.due == (
            "Deposit of €97.50 by 04.06.2026 by bank transfer, the rest €227.50 at the service."
        )
    rows = list(
        admin_list.export_rows(
            session=session, actor_id=admin.id, filters=admin_list.BookingFilter()
        )
    )
    header = admin_list.CSV_HEADER
    cells = dict(zip(header, admin_list.csv_cells(rows[0]), strict=False))
    assert (cells["City"], cells["Transport"], cells["Deposit"], cells["Total"]) == (
        "Gjakovë",
        "25.00",
        "97.50",
        "325.00",
    )
    session.rollback()
