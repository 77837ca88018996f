from datetime import UTC, datetime

import pytest
from sqlalchemy import func
from sqlmodel import select

from storefront.models import ContactMessage, NotificationOutbox
from storefront.services import contact

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def _request(**overrides):
    values = {
        "name": "Arta Krasniqi",
        "email": "Arta@Example.com",
        "event_type": "wedding",
        "message": "A quote for 150 guests, please.",
        "phone": "+383 44 123 456",
        "event_date": "2027-06-12",
    }
    return contact.ContactRequest(**(values | overrides))


def test_a_request_is_stored_and_announced_to_staff(session):
    message = contact.submit(_request(), session=session, now=NOW)
    session.commit()
    stored = session.get(ContactMessage, message.id)
    assert stored.email == "arta@example.com" and stored.event_date.isoformat() == "2027-06-12"
    outbox = session.exec(select(NotificationOutbox)).one()
    assert outbox.topic == "contact_request" and outbox.status == "pending"
    assert outbox.payload["message"] == "A quote for 150 guests, please."


@pytest.mark.parametrize(
    ("overrides", "field", "code"),
    [
        ({"name": " "}, "name", "required"),
        ({"email": "not-an-email"}, "email", "invalid"),
        ({"event_type": "rave"}, "event_type", "required"),
        ({"message": ""}, "message", "required"),
        ({"event_date": "2020-01-01"}, "event_date", "past"),
        ({"event_date": "12/06/2027"}, "event_date", "invalid"),
    ],
)
def test_a_bad_request_writes_nothing(session, overrides, field, code):
    with pytest.raises(contact.ContactError) as error:
        contact.submit(_request(**overrides), session=session, now=NOW)
    session.rollback()
    assert error.value.details["fields"][field] == code
    assert session.exec(select(func.count()).select_from(ContactMessage)).one() == 0
    assert session.exec(select(func.count()).select_from(NotificationOutbox)).one() == 0


def test_phone_and_date_are_optional(session):
    contact.submit(_request(phone="", event_date=""), session=session, now=NOW)
    session.commit()
    assert session.exec(select(ContactMessage)).one().event_date is None
