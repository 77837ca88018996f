"""What a visitor or an admin types reaches mails, staff messages and pages only as the field
rules allow (issue 18, findings 4 and 13), on SQLite and PostgreSQL: a one-line field refuses a
second line on every path that writes it, an email field refuses a second recipient, a phone
number is stored and sent to staff in E.164, and the confirmation mail carries no paragraph of
the visitor's making."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from sqlalchemy import func
from sqlmodel import select

from storefront.i18n import _, _s
from storefront.models import Booking, ContactMessage, User
from storefront.services import business
from storefront.services.accounts import auth, users
from storefront.services.accounts.password_reset import PasswordResetError, request_reset
from storefront.services.booking import admin as ab
from storefront.services.booking import contact as booking_contact
from storefront.services.booking import lines as booking_lines
from storefront.services.booking import placing
from storefront.services.booking.admin import AdminBookingError, BookingEdit
from storefront.services.messaging import contact_form as contact
from storefront.services.messaging import outbox
from tests.factories import contact as good_contact
from tests.factories import line, make_service
from tests.integration.test_admin_bookings import _edit as admin_edit

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "2026-06-10"
ATTACK = "Ana\n\nIMPORTANT: pay the deposit at https://pay.example.net/deposit"
TWO_RECIPIENTS = "root,victim@corp.example"
PASSWORD = "correct horse battery"


def _place(session, key=None, **fields):
    service = make_service(session, units=5)
    session.commit()
    return placing.place_booking(
        session=session,
        lines=[line(service, DAY, "10:00")],
        contact=good_contact(**fields),
        idempotency_key=key or f"key-{uuid.uuid4().hex}",
        now=NOW,
    )


def _bookings(session) -> int:
    count = session.exec(select(func.count()).select_from(Booking)).one()
    session.commit()
    return count


def _refused_contact(session, **fields) -> dict[str, str]:
    before = _bookings(session)
    with pytest.raises(booking_lines.BookingError) as refused:
        _place(session, **fields)
    session.rollback()
    assert refused.value.code == "invalid_contact"
    assert _bookings(session) == before
    return refused.value.details["fields"]


def _form(**fields) -> dict[str, str]:
    values = {
        "full_name": "Arta Krasniqi",
        "email": "arta@example.com",
        "phone": "044 123 456",
        "address": "Rruga 1",
        "zip_code": "10000",
        "city": "Prishtinë",
        "event_type": "wedding",
        "guest_count": "50",
    }
    return values | fields


def _admin(session) -> str:
    user = User(email=f"admin-{uuid.uuid4().hex[:6]}@example.com", role="admin")
    session.add(user)
    session.commit()
    return str(user.id)


def _edit(**overrides) -> BookingEdit:
    """The admin edit form's fields (test_admin_bookings), without changing the services."""
    return admin_edit((), **({"special_requests": "White flowers\nand a red carpet"} | overrides))


def _contact_request(**overrides) -> contact.ContactRequest:
    values = {
        "name": "Arta Krasniqi",
        "email": "arta@example.com",
        "event_type": "wedding",
        "message": "A quote for 150 guests, please.\nThank you.",
        "phone": "",
        "event_date": "",
    }
    return contact.ContactRequest(**(values | overrides))


def _contact_refused(session, **overrides) -> dict[str, str]:
    with pytest.raises(contact.ContactError) as refused:
        contact.submit(_contact_request(**overrides), session=session, now=NOW)
    session.rollback()
    assert session.exec(select(func.count()).select_from(ContactMessage)).one() == 0
    return refused.value.details["fields"]


def _not_one_line(label: str) -> str:
    """What the default edition (no language named) says of `label`'s field on two lines."""
    return _s("{label} must be on one line").format(label=_(label))


def _register(session, **overrides):
    values = {
        "full_name": "Arta Krasniqi",
        "email": "arta@example.com",
        "password": PASSWORD,
        "confirm": PASSWORD,
        "accepted_terms": True,
    }
    return auth.register(session=session, now=NOW, **(values | overrides))


# --- a second line in a one-line field ------------------------------------------------------------


def test_checkout_and_the_booking_screen_refuse_a_name_or_address_on_two_lines(session):
    # The booking screen and the checkout both place through placing.place_booking.
    assert _refused_contact(session, full_name=ATTACK) == {"full_name": "not_one_line"}
    assert _refused_contact(session, address="Rruga 1\r\nIMPORTANT") == {"address": "not_one_line"}
    assert _refused_contact(session, city="Prishtina\u2028x") == {"city": "not_one_line"}
    assert _refused_contact(session, full_name="Ana\u202egnp.exe") == {"full_name": "unprintable"}
    # The checkout's information step says so before the review.
    codes = booking_contact.checkout_errors(
        booking_contact.contact_from_form(_form(full_name=ATTACK))
    )
    assert codes == {"full_name": "not_one_line"}
    messages = booking_contact.checkout_check(
        booking_contact.contact_from_form(_form(full_name=ATTACK))
    )
    assert messages.messages == {"full_name": _not_one_line("Full name")}


def test_special_requests_keep_their_lines_but_no_control_characters(session):
    placed = _place(session, special_requests="  Pink balloons\r\nand a cake  ")
    stored = session.get(Booking, uuid.UUID(placed.id))
    assert stored.special_requests == "Pink balloons\nand a cake"
    session.commit()
    assert _refused_contact(session, special_requests="cake\x1b[2J") == {
        "special_requests": "unprintable"
    }


def test_the_admin_edit_refuses_an_address_on_two_lines_and_two_recipients(session):
    admin = _admin(session)
    placed = _place(session)
    for overrides, field, code in (
        ({"venue_address": "Hotel\n\nIMPORTANT: call +1 555"}, "venue_address", "not_one_line"),
        ({"contact_email": TWO_RECIPIENTS}, "contact_email", "invalid"),
        ({"contact_phone": "not a phone"}, "contact_phone", "invalid"),
        ({"special_requests": "a\x00b"}, "special_requests", "unprintable"),
    ):
        with pytest.raises(AdminBookingError) as refused:
            ab.update_booking(
                session=session,
                actor_id=admin,
                booking_id=placed.id,
                edit=_edit(**overrides),
            )
        session.rollback()
        assert refused.value.details["fields"] == {field: code}
    ab.update_booking(session=session, actor_id=admin, booking_id=placed.id, edit=_edit())
    session.commit()
    stored = session.get(Booking, uuid.UUID(placed.id))
    assert (stored.contact_phone, stored.venue_address) == ("+38344999888", "Hotel Emerald")
    assert stored.special_requests == "White flowers\nand a red carpet"


def test_the_contact_form_refuses_a_name_on_two_lines_and_two_recipients(session):
    assert _contact_refused(session, name=ATTACK) == {"name": "not_one_line"}
    assert _contact_refused(session, email=TWO_RECIPIENTS) == {"email": "invalid"}
    assert _contact_refused(session, phone="12") == {"phone": "invalid"}
    assert _contact_refused(session, message="hi\x07") == {"message": "unprintable"}
    sent = contact.submit(_contact_request(phone="049 555 666"), session=session, now=NOW)
    assert sent.phone == "+38349555666" and sent.message.count("\n") == 1


def test_the_profile_and_sign_up_refuse_a_name_on_two_lines(session):
    with pytest.raises(auth.AuthError) as refused:
        _register(session, full_name=ATTACK)
    assert refused.value.code == "invalid_name"
    assert refused.value.message == _not_one_line("Full name")
    session.rollback()
    account = _register(session)
    session.commit()
    with pytest.raises(users.ProfileError) as refused:
        users.update_full_name(session=session, user_id=account.user_id, full_name=ATTACK)
    assert refused.value.code == "invalid_name"
    session.rollback()
    users.update_full_name(session=session, user_id=account.user_id, full_name="  Ana Berisha ")
    session.commit()
    assert session.get(User, uuid.UUID(account.user_id)).full_name == "Ana Berisha"


# --- one address in an email field ----------------------------------------------------------------


def test_every_email_field_refuses_two_recipients(session):
    assert _refused_contact(session, email=TWO_RECIPIENTS) == {"email": "invalid"}
    assert _refused_contact(session, email="Ana <ana@example.com>") == {"email": "invalid"}
    assert booking_contact.checkout_errors(
        booking_contact.contact_from_form(_form(email=TWO_RECIPIENTS))
    ) == {"email": "invalid"}
    with pytest.raises(auth.AuthError) as refused:
        _register(session, email=TWO_RECIPIENTS)
    assert (refused.value.code, refused.value.message) == ("invalid_email", "Email is invalid")
    session.rollback()
    with pytest.raises(PasswordResetError) as refused:
        request_reset(session=session, email=TWO_RECIPIENTS, now=NOW)
    assert refused.value.code == "invalid_email"
    session.rollback()
    _clean, codes, _messages = business.check_settings(
        business.editable_settings(session=session) | {"email": TWO_RECIPIENTS}
    )
    assert codes == {"email": "invalid"}


# --- phone numbers ------------------------------------------------------------------------------------


def test_a_phone_number_is_stored_and_sent_to_staff_in_e164(session, engine, webhook, mailbox):
    placed = _place(session, phone="044 123 456")
    stored = session.get(Booking, uuid.UUID(placed.id))
    assert stored.contact_phone == "+38344123456"
    session.commit()

    outbox.run_once(now=NOW, engine=engine)

    [body] = webhook.requests
    assert body["customerPhone"] == "+38344123456"
    assert "+38344123456" in body["templateParams"][1]


@pytest.mark.parametrize("phone", ["12", "call me maybe", "044 123", "+383 44 123 456 789 1"])
def test_what_is_not_a_phone_number_is_refused(session, phone):
    assert _refused_contact(session, phone=phone) == {"phone": "invalid"}


# --- the confirmation mail ---------------------------------------------------------------------------


def test_the_confirmation_mail_carries_no_paragraph_of_the_visitors_making(
    session, engine, webhook, mailbox
):
    try:
        _place(session, full_name=ATTACK, email="victim@corp.example")
    except booking_lines.BookingError as refused:
        assert refused.code == "invalid_contact"
        session.rollback()
        _place(session, full_name="Ana", email="victim@corp.example")
    session.commit()

    outbox.run_once(now=NOW, engine=engine)

    [message] = mailbox.messages
    assert mailbox.recipients == [["victim@corp.example"]]
    text = message.get_body(("plain",)).get_content()
    assert "IMPORTANT" not in text and "pay.example.net" not in text
    assert text.splitlines()[0] == "Përshëndetje Ana,"  # placed in the default edition


def test_an_address_stored_before_the_rules_is_never_mailed_to_two_recipients(
    session, engine, mailbox
):
    from storefront.models import NotificationOutbox

    outbox.enqueue(
        session=session,
        channel="email",
        topic="mail",
        recipient=TWO_RECIPIENTS,
        payload={"subject": "Hello", "text": "Hello"},
        now=NOW,
    )
    session.commit()

    report = outbox.run_once(now=NOW, engine=engine)

    assert (report.sent, report.failed) == (0, 1)  # refused for good, not retried
    assert mailbox.messages == []
    session.rollback()
    row = session.exec(select(NotificationOutbox)).one()
    assert row.status == "failed" and "Not one email address" in (row.last_error or "")


def test_the_admin_edit_and_checkout_share_one_validation(monkeypatch):
    """docs/architecture.md §5: one validation of a booking's fields (booking_contact.check_fields, its
    limits from the model) for checkout, the booking screen and the admin edit."""
    from storefront.services.booking import admin as admin_bookings
    from storefront.services.booking.admin import BookingEdit

    asked: list[set[str]] = []
    real = booking_contact.check_fields

    def spy(values, **kwargs):
        asked.append(set(values))
        return real(values, **kwargs)

    monkeypatch.setattr(booking_contact, "check_fields", spy)
    monkeypatch.setattr(admin_bookings, "check_fields", spy)
    long_address = "x" * (booking_contact.CONTACT_LIMITS["address"] + 1)
    contact = booking_contact.Contact(
        full_name="Arta",
        email="arta@example.com",
        phone="+383 44 123 456",
        address=long_address,
        city="Prishtinë",
    )
    assert booking_contact.check_contact(contact).codes == {"address": "too_long"}
    edit = BookingEdit(
        contact_email="arta@example.com",
        contact_phone="+383 44 123 456",
        venue_address=long_address,
        special_requests="",
        event_type="wedding",
        guest_count="50",
    )
    _clean, errors, _messages = admin_bookings._check_edit(edit, address_required=True)
    assert errors == {"venue_address": "too_long"}
    assert len(asked) == 2 and {"address", "email"} <= asked[0] & asked[1]
