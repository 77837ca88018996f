"""Run by tests/integration/test_recipe_booking_field.py inside a copy of the project to which
the recipe 'Add a field to bookings' (docs/extending.md) was applied: it migrates the copy's
database to head and prints, as JSON, where the new field shows (or what failed). Not a test
module: it imports the copy's `storefront`, with the new column and declaration in it.

    python -m tests.integration._booking_field_probe <field> <database url>
"""

from __future__ import annotations

import json
import sys
import traceback
import uuid
from datetime import UTC, datetime

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "2026-06-10"
PLACED, EDITED = "Dock B, behind the hall", "Dock C"
FORM = {
    "full_name": "Arta Krasniqi",
    "email": "arta@example.com",
    "phone": "+383 44 123 456",
    "address": "Rruga Agim Ramadani 15",
    "city": "Prishtina",
    "state": "",
    "zip_code": "10000",
    "event_type": "birthday",
    "guest_count": "40",
    "special_requests": "",
}


def probe(name: str, url: str) -> dict[str, object]:
    from alembic.config import Config

    from alembic import command

    config = Config("alembic.ini")
    config.attributes["database_url"] = url
    config.attributes["configure_logger"] = False
    command.upgrade(config, "head")

    from sqlmodel import Session, select

    from storefront.db import make_engine
    from storefront.models import Booking, NotificationOutbox
    from storefront.services.booking import admin as admin_bookings
    from storefront.services.booking import admin_list
    from storefront.services.booking import contact as booking_contact
    from storefront.services.booking.admin import AdminBookingError, BookingEdit
    from storefront.services.messaging import notify
    from storefront.services.operations import day_sheet
    from tests.factories import line, make_service, make_user, place

    declared = {f.name: f for f in booking_contact.CONTACT_FIELDS}[name]
    found: dict[str, object] = {"label": declared.label, "limit": declared.limit}
    too_long = "x" * (declared.limit + 1)
    form = FORM | {name: too_long}
    found["checkout"] = booking_contact.checkout_errors(booking_contact.contact_from_form(form))
    found["booking_screen"] = booking_contact.check_contact(
        booking_contact.contact_from_form(form)
    ).codes
    contact = booking_contact.contact_from_form(FORM | {name: PLACED})
    found["contact"] = booking_contact.contact_value(contact, name)

    engine = make_engine(url)
    with Session(engine) as session:
        admin = str(make_user(session, role="admin").id)
        service = make_service(session, title="Castle", units=2)
        placed = place(session, [line(service, DAY, "12:00")], now=NOW, extra={name: PLACED})
        booking_id = uuid.UUID(str(placed.id))
        session.expire_all()
        found["row"] = getattr(session.get(Booking, booking_id), declared.column, None)
        outbox = session.exec(
            select(NotificationOutbox).where(NotificationOutbox.topic == "booking_confirmation")
        ).first()
        mail = notify.render(outbox, session=session)
        found["mail_text"] = PLACED in mail.text
        found["mail_html"] = PLACED in (mail.html or "")

        edit_form = admin_bookings.edit_form(
            session=session, actor_id=admin, booking_id=str(booking_id)
        )
        found["admin_form"] = edit_form.extra.get(declared.column)

        def edit(value: str) -> BookingEdit:
            return BookingEdit(
                contact_email=edit_form.contact_email,
                contact_phone=edit_form.contact_phone,
                venue_address=edit_form.venue_address,
                event_type=edit_form.event_type,
                guest_count=edit_form.guest_count,
                special_requests=edit_form.special_requests,
                contact_name=edit_form.contact_name,
                city=edit_form.city,
                zip_code=edit_form.zip_code,
                extra={declared.column: value},
            )

        try:
            admin_bookings.update_booking(
                session=session, actor_id=admin, booking_id=str(booking_id), edit=edit(too_long)
            )
            found["admin_refuses"] = None
        except AdminBookingError as exc:
            session.rollback()
            found["admin_refuses"] = exc.details.get("fields", {}).get(declared.column)
        admin_bookings.update_booking(
            session=session, actor_id=admin, booking_id=str(booking_id), edit=edit(EDITED)
        )
        session.commit()
        session.expire_all()
        found["admin_saved"] = getattr(session.get(Booking, booking_id), declared.column, None)

        rows = list(
            admin_list.export_rows(
                session=session, actor_id=admin, filters=admin_list.BookingFilter()
            )
        )
        header = admin_list.CSV_HEADER
        cells = admin_list.csv_cells(rows[0])
        found["csv"] = dict(zip(header, cells, strict=True)).get(declared.label)
        detail = admin_list.booking_detail(
            session=session, actor_id=admin, booking_id=str(booking_id)
        )
        found["detail"] = detail.view.extra.get(name)
        sheet = day_sheet.day_sheet(session=session, actor_id=admin, day=DAY)
        found["day_sheet"] = sheet.bookings[0].details.get(name)
    engine.dispose()

    # The screens draw an input (and the detail and the sheet a fact) from the declaration.
    from storefront.i18n import _, _o, _s
    from storefront.pages.admin import booking_edit, bookings
    from storefront.pages.admin import day_sheet as day_sheet_page
    from storefront.pages.public import book_service, checkout

    def labelled(component: object) -> bool:
        """The label, in any of its words (the page's language is the default one here)."""
        text = str(component)
        return any(
            words in text for words in {_(declared.label), _o(declared.label), _s(declared.label)}
        )

    from storefront.state import admin_booking_edit
    from storefront.state import checkout as checkout_state

    found["states"] = {
        "admin_edit_limit": admin_booking_edit.EDIT_LIMITS.get(declared.column) == declared.limit,
        "admin_edit_added": declared.column in admin_booking_edit.ADDED,
        "checkout_order": name in checkout_state.PAGE_ORDER,
        "forms": name in booking_contact.FORM_FIELDS,
    }
    from storefront.services import audit

    # The audit log names the column (tests/unit/test_audit_words.py asks it of every column).
    found["audit"] = audit.FIELD_LABELS.get(declared.column)
    found["pages"] = {
        "checkout": f'"{name}"' in str(checkout._information()),
        "review": labelled(checkout._review()),
        "booking_screen": f'"{name}"' in str(book_service._details()),
        "admin_edit": f'"edit-{declared.column}"' in str(booking_edit._form()),
        "detail": labelled(bookings._detail()),
        "day_sheet": labelled(day_sheet_page._booking(day_sheet_page.S.bookings[0])),
    }
    return found


if __name__ == "__main__":
    try:
        result = probe(sys.argv[1], sys.argv[2])
    except Exception:
        result = {"failed": traceback.format_exc()}
    print("PROBE " + json.dumps(result, default=str))
