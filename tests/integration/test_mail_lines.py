"""The customer's mails price every line the same way, from what the booking stored (issue 20,
item 13): its rate with its unit, its hours or its quantity, and its total ('Ice Princess:
599,00 € / orë x 2 orë = 1 198,00 €'; 'White tables 60cm: 7,00 € x 30 = 210,00 €'), with the
prices and words as the booking's language writes them (issue 21). Sent by the outbox to a
real SMTP server."""

import os
from datetime import UTC, datetime
from decimal import Decimal

from storefront import i18n
from storefront.models import Booking, BookingItem
from storefront.services.messaging import outbox

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
NB = "\u00a0"  # prices keep amount, symbol and unit on one line


def _item(booking, name, *, rate, unit, hours, quantity, start_hour=16):
    per_unit = Decimal(rate) * (hours if unit == "per_hour" else 1)
    return BookingItem(
        booking_id=booking.id,
        service_name=name,
        service_price=per_unit,  # one unit for the booked hours, as checkout stores it
        unit_price=Decimal(rate),
        price_unit=unit,
        quantity=quantity,
        start_datetime=datetime(2027, 6, 12, start_hour, 0, tzinfo=UTC),
        end_datetime=datetime(2027, 6, 12, start_hour + hours, 0, tzinfo=UTC),
    )


def _booking(session, language="sq"):
    booking = Booking(
        language=language,
        idempotency_key=f"key-{os.urandom(6).hex()}",
        contact_email="arta.krasniqi@example.com",
        contact_phone="+38344123456",
        venue_address="Rruga UCK 1",
        city="Prishtina",
        event_type="birthday",
        guest_count=30,
        total_amount=Decimal("2907.94"),
        created_at=NOW,
        updated_at=NOW,
    )
    session.add(booking)
    session.flush()
    session.add_all(
        [
            _item(booking, "Ice Princess", rate="599", unit="per_hour", hours=2, quantity=1),
            _item(booking, "White tables 60cm", rate="7", unit="per_event", hours=4, quantity=30),
            _item(booking, "Pink Castle", rate="249.99", unit="per_hour", hours=3, quantity=2),
        ]
    )
    return booking


def _albanian_lines() -> list[str]:
    """The lines as a booking of the default edition (Albanian) reads them: its prices, and its
    words for the rate's unit (the site's catalog) and the hours (the mails' catalog)."""
    with i18n.using("sq"):
        per_hour, hours = i18n._(f"/{NB}h"), i18n._o("{hours} h")
    return [
        f"Ice Princess: 599,00{NB}€{NB}{per_hour} x {hours.format(hours=2)} = 1{NB}198,00{NB}€",
        f"White tables 60cm: 7,00{NB}€ x 30 = 210,00{NB}€",
        f"Pink Castle: 249,99{NB}€{NB}{per_hour} x {hours.format(hours=3)} x 2 = 1{NB}499,94{NB}€",
    ]


ENGLISH_LINES = [
    f"Ice Princess: €599.00{NB}/{NB}h x 2 h = €1,198.00",
    "White tables 60cm: €7.00 x 30 = €210.00",
    f"Pink Castle: €249.99{NB}/{NB}h x 3 h x 2 = €1,499.94",
]


def _mailed_text(mailbox) -> str:
    [message] = mailbox.messages
    return message.get_body(("plain",)).get_content()


def test_the_confirmation_prices_each_line_with_its_unit(session, engine, mailbox):
    booking = _booking(session)
    outbox.enqueue(
        session=session,
        channel="email",
        topic="booking_confirmation",
        recipient=booking.contact_email,
        payload={"booking_id": str(booking.id)},
        booking_id=booking.id,
        now=NOW,
    )
    session.commit()

    assert outbox.run_once(now=NOW, engine=engine).sent == 1
    text = _mailed_text(mailbox)
    lines = _albanian_lines()
    for line in lines:
        assert line in text, (line, text)
    # Each line still says when: the local date and start time.
    assert f"- {lines[0]} (12.06.2027, 18:00)" in text
    assert f"Totali: 2{NB}907,94{NB}€" in text


def test_the_status_mail_lists_the_same_lines(session, engine, mailbox):
    booking = _booking(session, language="en")
    outbox.enqueue(
        session=session,
        channel="email",
        topic="booking_status",
        recipient=booking.contact_email,
        payload={"booking_id": str(booking.id), "status": "confirmed"},
        booking_id=booking.id,
        now=NOW,
    )
    session.commit()

    assert outbox.run_once(now=NOW, engine=engine).sent == 1
    text = _mailed_text(mailbox)
    assert "Booking status updated to confirmed" in text and booking.reference in text
    for line in ENGLISH_LINES:
        assert line in text, (line, text)
    assert "Total: €2,907.94" in text
