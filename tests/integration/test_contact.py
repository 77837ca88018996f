from datetime import UTC, datetime

import pytest
from sqlalchemy import func
from sqlmodel import select

from storefront.models import ContactMessage, NotificationOutbox
from storefront.services.messaging import contact_form as contact

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


def test_a_form_sent_twice_is_stored_and_announced_once(session):
    key = contact.new_submission_key()
    first = contact.submit(_request(submission_key=key), session=session, now=NOW)
    session.commit()
    again = contact.submit(_request(submission_key=key), session=session, now=NOW)
    session.commit()
    assert again.id == first.id
    assert session.exec(select(func.count()).select_from(ContactMessage)).one() == 1
    assert session.exec(select(func.count()).select_from(NotificationOutbox)).one() == 1
    # Another form (another key), or a client that sends none, is a new message.
    contact.submit(_request(submission_key=contact.new_submission_key()), session=session, now=NOW)
    contact.submit(_request(), session=session, now=NOW)
    contact.submit(_request(), session=session, now=NOW)
    session.commit()
    assert session.exec(select(func.count()).select_from(ContactMessage)).one() == 4


def test_the_submission_key_is_unique_in_the_database(session):
    """Two copies racing past the first look-up still make one row: the second insert fails."""
    from sqlalchemy.exc import IntegrityError

    for _ in range(2):
        session.add(
            ContactMessage(
                name="A",
                email="a@example.com",
                event_type="other",
                message="m",
                submission_key="same-key",
            )
        )
    with pytest.raises(IntegrityError):
        session.commit()
    session.rollback()
