"""The back office's bookings on SQLite and PostgreSQL: the filtered list and its CSV, a status
change of a booking and all its items, the capacity re-check and its logged override, editing
and deleting in one transaction, and refusals for anyone but an admin."""

import csv
import io
import uuid
from datetime import UTC, datetime
from decimal import Decimal
from functools import partial

import pytest
from sqlmodel import select

from storefront.i18n import _s
from storefront.models import AuditLog, Booking, BookingItem, NotificationOutbox, User
from storefront.services.booking import admin as ab
from storefront.services.booking import admin_list as abl
from storefront.services.booking import lines as booking_lines
from storefront.services.booking.admin import AdminBookingError, BookingEdit, ItemEdit
from tests.factories import booking_statuses, line, make_service, place

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "2026-06-10"


def _user(session, role="admin", email=None) -> str:
    user = User(email=email or f"{role}-{uuid.uuid4().hex[:6]}@example.com", role=role)
    session.add(user)
    session.commit()
    return str(user.id)


_place = partial(place, now=NOW)
# The bookings of these tests are in June 2026: edits are made as of then.
_update = partial(ab.update_booking, now=NOW)


def test_a_status_change_sets_the_booking_and_all_its_items_and_mails_the_customer(session):
    admin = _user(session)
    bouncer = make_service(session, units=2)
    mascot = make_service(session, title="Mascot", units=1)
    placed = _place(session, [line(bouncer, DAY, "10:00"), line(mascot, DAY, "12:00")])

    change = ab.set_status(
        session=session, actor_id=admin, booking_id=placed.id, status="confirmed", now=NOW
    )

    assert change.status == "confirmed" and change.overridden == ()
    assert booking_statuses(session, placed.id) == ("confirmed", {"confirmed"})
    mails = session.exec(
        select(NotificationOutbox).where(NotificationOutbox.topic == "booking_status")
    ).all()
    assert [(m.recipient, m.payload["status"]) for m in mails] == [
        ("arta.krasniqi@example.com", "confirmed")
    ]
    entry = session.exec(select(AuditLog).where(AuditLog.action == "booking_status")).one()
    assert entry.details["before"] == {"status": "pending"}
    assert entry.details["after"] == {"status": "confirmed"}
    assert str(entry.actor_user_id) == admin


def test_a_confirm_that_would_overbook_is_refused_unless_overridden_and_logged(session):
    admin = _user(session)
    bouncer = make_service(session, units=1, buffer_minutes=60)
    first = _place(session, [line(bouncer, DAY, "10:00", hours=2)])
    ab.set_status(session=session, actor_id=admin, booking_id=first.id, status="cancelled")
    # The unit is free again, so a second guest takes 11:00 (inside the first's span).
    second = _place(session, [line(bouncer, DAY, "11:00")])

    with pytest.raises(AdminBookingError) as refused:
        ab.set_status(session=session, actor_id=admin, booking_id=first.id, status="confirmed")
    assert refused.value.code == "over_capacity"
    assert refused.value.details["conflicts"] == ["Bouncy castle, 10.06.2026 10:00"]
    assert booking_statuses(session, first.id) == ("cancelled", {"cancelled"})

    change = ab.set_status(
        session=session,
        actor_id=admin,
        booking_id=first.id,
        status="confirmed",
        override=refused.value.details["fingerprint"],
    )
    assert change.overridden == ("Bouncy castle, 10.06.2026 10:00",)
    assert booking_statuses(session, first.id) == ("confirmed", {"confirmed"})
    assert booking_statuses(session, second.id) == ("pending", {"pending"})
    logged = session.exec(select(AuditLog).where(AuditLog.action == "booking_status")).all()
    assert [e.details.get("override") for e in logged] == [None, True]


def test_a_confirm_that_fits_needs_no_override_and_other_statuses_are_never_checked(session):
    admin = _user(session)
    bouncer = make_service(session, units=1)
    first = _place(session, [line(bouncer, DAY, "10:00")])
    ab.set_status(session=session, actor_id=admin, booking_id=first.id, status="cancelled")
    _place(session, [line(bouncer, DAY, "10:00")])
    # Completing or cancelling never needs capacity, even where the slot is taken.
    ab.set_status(session=session, actor_id=admin, booking_id=first.id, status="completed")
    assert booking_statuses(session, first.id) == ("completed", {"completed"})
    other = _place(session, [line(bouncer, DAY, "15:00")])
    ab.set_status(session=session, actor_id=admin, booking_id=other.id, status="confirmed")
    assert booking_statuses(session, other.id)[0] == "confirmed"


@pytest.mark.parametrize("role", [None, "user"])
def test_only_admins_change_a_status(session, role):
    bouncer = make_service(session)
    placed = _place(session, [line(bouncer, DAY, "10:00")])
    caller = _user(session, role) if role else None
    with pytest.raises(AdminBookingError) as refused:
        ab.set_status(session=session, actor_id=caller, booking_id=placed.id, status="confirmed")
    assert refused.value.code in ("no_user", "not_allowed")
    assert booking_statuses(session, placed.id) == ("pending", {"pending"})
    with pytest.raises(AdminBookingError):
        abl.list_bookings(session=session, actor_id=caller)


def test_a_bad_status_or_id_is_refused(session):
    admin = _user(session)
    with pytest.raises(AdminBookingError) as bad:
        ab.set_status(session=session, actor_id=admin, booking_id=str(uuid.uuid4()), status="x")
    assert bad.value.code == "invalid_status"
    with pytest.raises(AdminBookingError) as missing:
        ab.set_status(
            session=session, actor_id=admin, booking_id=str(uuid.uuid4()), status="confirmed"
        )
    assert missing.value.code == "not_found"
    with pytest.raises(AdminBookingError) as garbage:
        ab.set_status(session=session, actor_id=admin, booking_id="../1", status="confirmed")
    assert garbage.value.code == "not_found"


def _edit(view, **overrides) -> BookingEdit:
    items = overrides.pop(
        "items",
        tuple(
            ItemEdit(
                id=line_id,
                unit_price="80.00",
                quantity=1,
                date=DAY,
                start_time="14:00",
                duration_hours=2,
            )
            for line_id in view
        ),
    )
    values = {
        "contact_email": "new.owner@example.com",
        "contact_phone": "+383 44 999 888",
        "venue_address": "Hotel Emerald",
        "event_type": "wedding",
        "guest_count": "120",
        "special_requests": "White flowers",
    }
    return BookingEdit(**(values | overrides), items=items)


def _item_ids(session, booking_id) -> list[str]:
    ids = session.exec(
        select(BookingItem.id).where(BookingItem.booking_id == uuid.UUID(booking_id))
    ).all()
    session.commit()
    return [str(i) for i in ids]


def test_an_edit_saves_the_booking_and_its_services_in_one_transaction(session):
    admin = _user(session)
    bouncer = make_service(session, units=1)
    placed = _place(session, [line(bouncer, DAY, "10:00")])
    ids = _item_ids(session, placed.id)

    _update(session=session, actor_id=admin, booking_id=placed.id, edit=_edit(ids))

    detail = abl.booking_detail(session=session, actor_id=admin, booking_id=placed.id)
    view = detail.view
    assert (view.contact_email, view.contact_phone, view.venue_address) == (
        "new.owner@example.com",
        "+38344999888",  # as typed '+383 44 999 888', stored in E.164
        "Hotel Emerald",
    )
    assert (view.event_type, view.guest_count, view.special_requests) == (
        _s("Wedding"),  # its label in the language of the moment (none named: the default's)
        120,
        "White flowers",
    )
    # The name typed at checkout was cleared on the form: the one made from the email shows.
    assert detail.customer == "New Owner"
    (only,) = view.lines
    # Priced as checkout prices a per-hour line: 80.00 an hour for 2 hours.
    assert (only.date, only.start_time, only.end_time, only.unit_price) == (
        "10.06.2026",
        "14:00",
        "16:00",
        Decimal("160.00"),
    )
    assert view.total == Decimal("160.00")
    assert session.exec(select(AuditLog).where(AuditLog.action == "booking_update")).one()


def test_an_edit_onto_a_taken_time_changes_nothing_unless_overridden(session):
    admin = _user(session)
    bouncer = make_service(session, units=1)
    placed = _place(session, [line(bouncer, DAY, "10:00")])
    _place(session, [line(bouncer, DAY, "14:00")])
    ids = _item_ids(session, placed.id)

    with pytest.raises(AdminBookingError) as refused:
        _update(session=session, actor_id=admin, booking_id=placed.id, edit=_edit(ids))
    assert refused.value.code == "over_capacity"
    view = abl.booking_detail(session=session, actor_id=admin, booking_id=placed.id).view
    # Neither the fields nor the services moved: the whole edit was rolled back.
    assert view.contact_email == "arta.krasniqi@example.com"
    assert view.lines[0].start_time == "10:00"
    assert session.exec(select(AuditLog).where(AuditLog.action == "booking_update")).all() == []

    _update(
        session=session,
        actor_id=admin,
        booking_id=placed.id,
        edit=_edit(ids),
        override=refused.value.details["fingerprint"],
    )
    view = abl.booking_detail(session=session, actor_id=admin, booking_id=placed.id).view
    assert view.lines[0].start_time == "14:00"
    entry = session.exec(select(AuditLog).where(AuditLog.action == "booking_update")).one()
    assert entry.details["override"] is True


def test_an_edit_needs_the_required_fields_and_sane_numbers(session):
    admin = _user(session)
    bouncer = make_service(session)
    placed = _place(session, [line(bouncer, DAY, "10:00")])
    ids = _item_ids(session, placed.id)
    bad_item = ItemEdit(ids[0], "-1", 0, "2026-13-40", "25:00", 9, status="lost")
    with pytest.raises(AdminBookingError) as refused:
        _update(
            session=session,
            actor_id=admin,
            booking_id=placed.id,
            edit=_edit(
                ids,
                contact_phone=" ",
                contact_email="not-an-email",
                guest_count=0,
                total_amount="-5",
                items=(bad_item,),
            ),
        )
    fields = refused.value.details["fields"]
    messages = refused.value.details["messages"]
    assert fields["contact_phone"] == "required"
    assert fields["contact_email"] == "invalid"
    assert "email" in messages["contact_email"].lower()
    assert fields["guest_count"] == "out_of_range"
    assert fields["total_amount"] == "invalid"
    assert {k for k in fields if k.startswith("items.0.")} == {
        "items.0.unit_price",
        "items.0.quantity",
        "items.0.date",
        "items.0.duration_hours",
        "items.0.status",
    }
    # The booking has an address: it may be changed, not removed.
    with pytest.raises(AdminBookingError) as no_address:
        _update(
            session=session,
            actor_id=admin,
            booking_id=placed.id,
            edit=_edit(ids, venue_address=""),
        )
    assert no_address.value.details["fields"] == {"venue_address": "required"}


def test_a_booking_placed_without_an_address_is_edited_without_one(session):
    admin = _user(session)
    bouncer = make_service(session)
    placed = _place(session, [line(bouncer, DAY, "10:00")], zip_code="")
    # As the booking screen places it: no address asked (docs/product.md §5).
    placed_row = session.get(Booking, uuid.UUID(placed.id))
    placed_row.venue_address = ""
    session.add(placed_row)
    session.commit()
    ids = _item_ids(session, placed.id)
    _update(
        session=session,
        actor_id=admin,
        booking_id=placed.id,
        edit=_edit(ids, venue_address="", contact_name="Bora Berisha", city="Prizren"),
    )
    row = session.get(Booking, uuid.UUID(placed.id))
    session.refresh(row)
    assert (row.venue_address, row.contact_name, row.city) == ("", "Bora Berisha", "Prizren")
    detail = abl.booking_detail(session=session, actor_id=admin, booking_id=placed.id)
    assert detail.customer == "Bora Berisha"


def test_an_edit_reprices_by_the_hours_and_a_total_set_by_hand_is_logged(session):
    admin = _user(session)
    mascot = make_service(session, price="599.00", price_unit="per_hour")
    tables = make_service(session, price="7.00", price_unit="per_event", units=500)
    placed = _place(
        session, [line(mascot, DAY, "10:00", hours=2), line(tables, DAY, "10:00", quantity=30)]
    )
    form = ab.edit_form(session=session, actor_id=admin, booking_id=placed.id)
    by_name = {line.unit_price: line for line in form.lines}
    assert set(by_name) == {"599.00", "7.00"}
    assert (by_name["599.00"].price_unit, by_name["599.00"].line_price) == ("per_hour", "1198.00")
    assert (by_name["7.00"].price_unit, by_name["7.00"].line_price) == ("per_event", "7.00")
    assert form.lines_total == form.total_amount == "1408.00"
    items = tuple(
        ItemEdit(
            line.id,
            line.unit_price,
            line.quantity,
            line.date,
            line.start_time,
            4 if line.price_unit == "per_hour" else line.duration_hours,
        )
        for line in form.lines
    )
    _update(session=session, actor_id=admin, booking_id=placed.id, edit=_edit([], items=items))
    row = session.get(Booking, uuid.UUID(placed.id))
    session.refresh(row)
    assert row.total_amount == Decimal("2606.00")  # 599 x 4 h + 7 x 30
    assert (
        not session.exec(select(AuditLog).where(AuditLog.action == "booking_update"))
        .one()
        .details.get("total_set_by_hand")
    )
    _update(
        session=session,
        actor_id=admin,
        booking_id=placed.id,
        edit=_edit([], items=items, total_amount="2500"),
    )
    session.refresh(row)
    assert row.total_amount == Decimal("2500.00")
    entries = session.exec(select(AuditLog).where(AuditLog.action == "booking_update")).all()
    by_hand = [e.details.get("total_set_by_hand") for e in entries]
    assert {"lines_total": "2606.00"} in by_hand


def test_moving_a_booking_into_the_past_needs_a_confirmation(session):
    admin = _user(session)
    bouncer = make_service(session)
    placed = _place(session, [line(bouncer, DAY, "10:00")])
    ids = _item_ids(session, placed.id)
    past = _edit(ids, items=(ItemEdit(ids[0], "80.00", 1, "2026-05-20", "10:00", 2),))
    with pytest.raises(AdminBookingError) as refused:
        _update(session=session, actor_id=admin, booking_id=placed.id, edit=past, now=NOW)
    assert refused.value.code == "in_past"
    assert refused.value.details["lines"] == [bouncer_name(session, bouncer)]
    _update(
        session=session, actor_id=admin, booking_id=placed.id, edit=past, now=NOW, confirm_past=True
    )
    view = abl.booking_detail(session=session, actor_id=admin, booking_id=placed.id).view
    assert view.lines[0].date == "20.05.2026"


def bouncer_name(session, service) -> str:
    from storefront.models import Service

    found = session.get(Service, uuid.UUID(str(getattr(service, "id", service))))
    return found.title


def test_delete_removes_the_booking_and_its_items_together(session):
    admin = _user(session)
    bouncer = make_service(session, units=2)
    placed = _place(session, [line(bouncer, DAY, "10:00"), line(bouncer, DAY, "12:00")])
    plain = _user(session, "user")
    with pytest.raises(AdminBookingError):
        ab.delete_booking(session=session, actor_id=plain, booking_id=placed.id)
    assert len(_item_ids(session, placed.id)) == 2

    ab.delete_booking(session=session, actor_id=admin, booking_id=placed.id)

    session.expire_all()
    assert session.get(Booking, uuid.UUID(placed.id)) is None
    assert _item_ids(session, placed.id) == []
    entry = session.exec(select(AuditLog).where(AuditLog.action == "booking_delete")).one()
    assert entry.details["reference"] == placed.reference
    assert len(entry.details["before"]["items"]) == 2


def _many(session):
    bouncer = make_service(session, units=50)
    placed = {}
    for n, (email, phone, day) in enumerate(
        [
            ("ana.berisha@example.com", "+383 44 111 222", "2026-06-10"),
            ("blerim_gashi@example.com", "+383 45 333 444", "2026-06-11"),
            ("=cmd@example.com", "+383 49 555 666", "2026-06-12"),
            ("dita-hoxha@example.com", "044 777 888", "2026-06-13"),
        ]
    ):
        placed[email] = _place(
            session, [line(bouncer, day, "10:00")], email=email, phone=phone, key=f"many-{n:04d}"
        )
    return placed


def test_the_list_filters_by_status_reference_email_phone_and_date(session):
    admin = _user(session)
    placed = _many(session)
    ab.set_status(
        session=session,
        actor_id=admin,
        booking_id=placed["blerim_gashi@example.com"].id,
        status="confirmed",
    )

    def emails(**kwargs):
        page = abl.list_bookings(
            session=session, actor_id=admin, filters=abl.check_filter(**kwargs), per_page=2
        )
        rows = list(page.rows)
        while page.page < page.pages:
            page = abl.list_bookings(
                session=session,
                actor_id=admin,
                filters=abl.check_filter(**kwargs),
                page=page.page + 1,
                per_page=2,
            )
            rows += page.rows
        return {r.email for r in rows}

    assert len(emails()) == 4
    assert emails(status="confirmed") == {"blerim_gashi@example.com"}
    reference = placed["ana.berisha@example.com"].reference
    assert emails(search=reference.lower()) == {"ana.berisha@example.com"}
    assert emails(search="gashi") == {"blerim_gashi@example.com"}
    assert emails(search="44777888") == {"dita-hoxha@example.com"}
    assert emails(search="49 555") == {"=cmd@example.com"}
    assert emails(search="%") == set()
    assert emails(date_from="2026-06-11", date_to="2026-06-12") == {
        "blerim_gashi@example.com",
        "=cmd@example.com",
    }
    first = abl.list_bookings(session=session, actor_id=admin, per_page=2)
    assert (first.total, first.pages, len(first.rows)) == (4, 2, 2)
    row = next(
        r
        for r in abl.list_bookings(session=session, actor_id=admin).rows
        if r.email == "blerim_gashi@example.com"
    )
    assert row.customer == "Arta Krasniqi"  # the name typed at checkout, not the email's
    assert row.short_id == row.id[:8] and row.reference == "MG-" + row.id[:8].upper()
    assert row.event_date == "11.06.2026 10:00"
    with pytest.raises(AdminBookingError):
        abl.check_filter(status="lost")
    with pytest.raises(AdminBookingError):
        abl.check_filter(date_from="2026-02-30")


def test_the_csv_is_the_filtered_list_and_neutralises_formulas(session):
    from storefront.api.admin_export import csv_chunks

    admin = _user(session)
    _many(session)
    filters = abl.check_filter(date_from="2026-06-11")
    session.commit()

    text = "".join(csv_chunks(session=session, actor_id=admin, filters=filters))

    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == abl.CSV_HEADER
    listed = abl.list_bookings(session=session, actor_id=admin, filters=filters).rows
    assert [r[1] for r in rows[1:]] == [r.reference for r in listed]
    assert [r[0] for r in rows[1:]] == [r.short_id for r in listed]
    cells = {r[3] for r in rows[1:]}
    assert "'=cmd@example.com" in cells and "=cmd@example.com" not in cells
    # Phones are written as people read them, with no visible ' (issue 34): nothing in them
    # can run; every other cell that a spreadsheet would run is neutralised.
    assert {r[4] for r in rows[1:]} == {"+383 45 333 444", "+383 49 555 666", "+383 44 777 888"}
    assert all(
        not cell.startswith(abl.FORMULA_START) or abl.PLAIN_PHONE.match(cell)
        for r in rows[1:]
        for cell in r
    )
    with pytest.raises(AdminBookingError):
        "".join(csv_chunks(session=session, actor_id=_user(session, "user"), filters=filters))


def test_the_csv_has_one_row_per_booking_with_its_services_venue_and_requests(session):
    """Issue 34: the export had no services, venue or special requests; one row per booking,
    its services joined in one cell, in the order they start, in the business's time."""
    from storefront.api.admin_export import csv_chunks
    from storefront.services.booking import placing
    from tests.factories import contact

    admin = _user(session)
    bouncer = make_service(session, title="Bouncy castle", units=5)
    mascot = make_service(session, title="Mascot Elsa", units=5)
    session.commit()
    placed = placing.place_booking(
        session=session,
        lines=[line(mascot, DAY, "14:00", hours=2), line(bouncer, DAY, "10:00", quantity=2)],
        contact=contact(
            address="Hotel Emerald, Rruga B",
            city="Prizren",
            zip_code="20000",
            special_requests="=Blue balloons\nNo glitter",
            phone="+383 44 123 456",
        ),
        idempotency_key="csv-columns",
        now=NOW,
    )
    session.commit()

    text = "".join(
        csv_chunks(
            session=session, actor_id=admin, filters=abl.check_filter(search=placed.reference)
        )
    )

    header, *rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) == 1
    row = dict(zip(header, rows[0], strict=True))
    # Times are the business's (Europe/Belgrade, summer: UTC+2): 10:00 typed is 10:00 shown.
    assert row["Services"] == (
        "Bouncy castle \u00d7 2, 10.06.2026 10:00-11:00; Mascot Elsa \u00d7 1, 10.06.2026 14:00-16:00"
    )
    assert (row["Venue Address"], row["City"], row["ZIP Code"]) == (
        "Hotel Emerald, Rruga B",
        "Prizren",
        "20000",
    )
    # A request that would run as a formula is still made text; its lines stay in its cell.
    assert row["Special Requests"] == "'=Blue balloons\nNo glitter"
    assert row["Phone"] == "+383 44 123 456"
    assert header[:11] == list(abl.CSV_HEADER[:11])  # the earlier columns where they were


def test_checkout_and_an_admin_change_ask_the_one_capacity_check(session, monkeypatch):
    """docs/architecture.md §5: one capacity rule for checkout, the booking screen and every
    admin change (availability.check_in_order); the same full slot is refused by both."""
    from storefront.services.booking import availability

    asked: list[str] = []
    real = availability.check_in_order

    def spy(session, wants, **kwargs):
        asked.append("admin" if kwargs.get("exclude_booking") else "checkout")
        return real(session, wants, **kwargs)

    monkeypatch.setattr(availability, "check_in_order", spy)
    admin = _user(session)
    bouncer = make_service(session, units=1, buffer_minutes=0)
    first = _place(session, [line(bouncer, DAY, "10:00")])
    ab.set_status(session=session, actor_id=admin, booking_id=first.id, status="cancelled")
    _place(session, [line(bouncer, DAY, "10:00")])  # the unit is taken again
    with pytest.raises(booking_lines.BookingError) as by_checkout:
        _place(session, [line(bouncer, DAY, "10:00")])
    assert by_checkout.value.code == "slot_taken"
    with pytest.raises(AdminBookingError) as by_admin:
        ab.set_status(session=session, actor_id=admin, booking_id=first.id, status="confirmed")
    assert by_admin.value.code == "over_capacity"
    assert {"checkout", "admin"} <= set(asked)
