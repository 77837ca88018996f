"""Issue 33, finding 4, on SQLite and PostgreSQL: the limits and the mail cap are not walked
around by writing one mailbox another way (`+tags`, capitals, Gmail's dots) nor by taking a new
address of one IPv6 /64 network; a cancelled booking no longer counts toward a limit."""

from __future__ import annotations

import uuid
from datetime import timedelta
from functools import partial

import pytest
from sqlalchemy import text
from sqlmodel import select

from storefront.db import make_engine
from storefront.models import Booking, NotificationOutbox, User
from storefront.services.accounts import auth, first_admin, password_reset
from storefront.services.booking import admin as admin_bookings
from storefront.services.booking import changes
from storefront.services.booking.lines import BookingError
from storefront.services.messaging import contact_form as contact
from storefront.services.messaging import outbox
from storefront.services.messaging.links import sign_view_key
from storefront.settings import get_settings
from tests.conftest import BACKENDS, create_database, migrate
from tests.factories import line, make_service, make_user, place
from tests.integration.test_booking_limits import DAYS, NOW

PASSWORD = "correct horse battery"

_place = partial(place, now=NOW)


def _phone(n: int) -> str:
    return f"+383 44 {200000 + n}"


def _refusal(session, lines, **kwargs) -> str | None:
    """The limit that refused the booking, or None when it was placed."""
    try:
        _place(session, lines, **kwargs)
    except BookingError as error:
        assert error.code == "too_many_bookings"
        return error.details["limit"]
    return None


def _stored(session, column) -> list:
    session.expire_all()
    found = list(session.exec(select(column)).all())
    session.commit()
    return found


# --- bookings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spellings",
    [
        [
            "victim+1@example.com",
            "Victim+2@Example.com",
            "victim@example.com",
            "VICTIM+x@example.com",
        ],
        [
            "v.i.c.t.i.m@gmail.com",
            "victim+a@googlemail.com",
            "Vic.Tim@gmail.com",
            "victim@gmail.com",
        ],
    ],
)
def test_one_mailbox_written_four_ways_places_three_bookings(session, limits, spellings):
    castle = make_service(session, units=50)
    for n, email in enumerate(spellings[:3]):
        assert (
            _refusal(
                session,
                [line(castle, DAYS[n], "10:00")],
                address=f"198.51.100.{n}",
                email=email,
                phone=_phone(n),
            )
            is None
        )
    assert (
        _refusal(
            session,
            [line(castle, DAYS[4], "10:00")],
            address="198.51.100.9",
            email=spellings[3],
            phone=_phone(9),
        )
        == "email"
    )
    # What is stored and mailed is the address as typed (lower case).
    assert sorted(_stored(session, Booking.contact_email)) == sorted(
        e.strip().lower() for e in spellings[:3]
    )


def test_one_ipv6_network_places_five_bookings_an_hour(session, limits):
    castle = make_service(session, units=50)
    for n in range(5):
        assert (
            _refusal(
                session,
                [line(castle, DAYS[n], "10:00")],
                address=f"2001:db8:7:1::{n + 1:x}",
                email=f"guest{n}@example.com",
                phone=_phone(n),
            )
            is None
        )
    # A new address of the same /64 is the same visitor; the next /64 is another.
    assert (
        _refusal(
            session,
            [line(castle, DAYS[6], "10:00")],
            address="2001:db8:7:1:ffff:1:2:3",
            email="guest6@example.com",
            phone=_phone(6),
        )
        == "address"
    )
    assert (
        _refusal(
            session,
            [line(castle, DAYS[7], "10:00")],
            address="2001:db8:7:2::1",
            email="guest7@example.com",
            phone=_phone(7),
        )
        is None
    )
    assert "2001:db8:7:1::1" in _stored(session, Booking.client_address)  # stored as it came


def test_an_ipv4_address_written_as_ipv6_is_that_address(session, limits):
    castle = make_service(session, units=50)
    for n in range(5):
        address = "203.0.113.40" if n % 2 else "::ffff:203.0.113.40"
        _place(
            session,
            [line(castle, DAYS[n], "10:00")],
            address=address,
            email=f"guest{n}@example.com",
            phone=_phone(n),
        )
    assert (
        _refusal(
            session,
            [line(castle, DAYS[6], "10:00")],
            address="203.0.113.40",
            email="guest6@example.com",
            phone=_phone(6),
        )
        == "address"
    )


def test_a_cancelled_booking_no_longer_counts_toward_a_limit(session, limits):
    admin = make_user(session, role="admin")
    castle = make_service(session, units=50)
    placed = [
        _place(session, [line(castle, DAYS[n], "10:00")], address=f"192.0.2.{n}") for n in range(3)
    ]
    assert _refusal(session, [line(castle, DAYS[5], "10:00")], address="192.0.2.9") == "email"
    # The customer cancels one through the mailed link, the business another.
    changes.cancel_own(
        session=session, booking_id=placed[0].id, key=sign_view_key(placed[0].id, now=NOW), now=NOW
    )
    admin_bookings.set_status(
        session=session, actor_id=admin.id, booking_id=placed[1].id, status="cancelled", now=NOW
    )
    for n in (5, 6):
        assert _refusal(session, [line(castle, DAYS[n], "10:00")], address=f"192.0.2.{n}") is None
    assert _refusal(session, [line(castle, DAYS[7], "10:00")], address="192.0.2.7") == "email"

    # The same for a visitor's address: five an hour, not counting the cancelled.
    for n in range(5):
        _place(
            session,
            [line(castle, DAYS[n], "12:00")],
            address="198.51.100.77",
            email=f"guest{n}@example.com",
            phone=_phone(n),
        )
    other = {"email": "guest9@example.com", "phone": _phone(9)}
    assert (
        _refusal(session, [line(castle, DAYS[8], "12:00")], address="198.51.100.77", **other)
        == "address"
    )
    mine = session.exec(select(Booking.id).where(Booking.client_address == "198.51.100.77")).first()
    session.commit()
    admin_bookings.set_status(
        session=session, actor_id=admin.id, booking_id=mine, status="cancelled", now=NOW
    )
    assert (
        _refusal(session, [line(castle, DAYS[8], "12:00")], address="198.51.100.77", **other)
        is None
    )


# --- the mail cap ----------------------------------------------------------------------------


def test_the_mail_cap_counts_one_mailbox_however_it_is_written(
    session, engine, limits, mailbox, webhook
):
    limits.booking_limit_per_email = 0  # only the cap at work here
    castle = make_service(session, units=50)
    spellings = [f"victim+{n}@example.com" for n in range(4)] + [
        "Victim@example.com",
        "VICTIM+x@Example.com",
        "victim@example.com",
    ]
    for n, email in enumerate(spellings):
        _place(
            session,
            [line(castle, DAYS[n], "10:00")],
            address=f"198.51.100.{n}",
            email=email,
            phone=_phone(n),
        )
    report = outbox.run_once(now=NOW, engine=engine, limit=50)
    mails = [m["To"] for m in mailbox.messages]
    assert len(mails) == 5 and report.sent == 5 + 7  # and the staff's seven messages
    assert outbox.count(session, "suppressed") == 2


# --- throttles per address and per mailbox ---------------------------------------------------


def _sign_up(session, n: int, *, ip: str, email: str | None = None) -> str:
    try:
        auth.register(
            session=session,
            full_name="Someone",
            email=email or f"new-{n}@example.com",
            password=PASSWORD,
            confirm=PASSWORD,
            accepted_terms=True,
            ip=ip,
            now=NOW,
        )
    except auth.AuthError as error:
        session.rollback()
        return error.code
    session.commit()
    return "ok"


def test_sign_ups_from_one_ipv6_network_are_limited_together(session):
    allowed = auth.SIGN_UP_LIMIT[0]
    results = [_sign_up(session, n, ip=f"2001:db8:5:1::{n + 1:x}") for n in range(allowed + 1)]
    assert results == ["ok"] * allowed + ["rate_limited"]
    assert _sign_up(session, 99, ip="2001:db8:5:2::1") == "ok"


def test_sign_ups_for_one_mailbox_are_limited_together(session):
    allowed = auth.SIGN_UP_LIMIT_PER_EMAIL[0]
    results = [
        _sign_up(session, n, ip=f"198.51.100.{n}", email=f"Victim+{n}@example.com")
        for n in range(allowed + 1)
    ]
    assert results == ["ok"] * allowed + ["rate_limited"]


def test_sign_in_failures_from_one_ipv6_network_back_off_together(session):
    for n in range(30):
        try:
            auth.sign_in(
                session=session,
                email=f"nobody{n}@example.com",
                password="guess",
                ip=f"2001:db8:6:1:{n:x}::1",
                now=NOW,
            )
        except auth.AuthError as error:
            session.commit()
            if error.code == "rate_limited":
                break
    else:
        pytest.fail("30 failures from one /64 were never slowed down")
    assert n <= 22
    # Two-factor codes share the sign-in's per-address count (auth.address_attempt).
    assert auth.address_attempt("2001:db8:6:1::1")[0] == auth.address_attempt("2001:db8:6:1::2")[0]
    assert auth.address_attempt("2001:db8:6:1::1")[0] != auth.address_attempt("2001:db8:6:2::1")[0]


def _reset_mails(session, email: str) -> int:
    session.expire_all()
    found = session.exec(
        select(NotificationOutbox.id).where(NotificationOutbox.recipient == email)
    ).all()
    session.commit()
    return len(found)


def test_reset_requests_from_one_ipv6_network_are_limited_together(session):
    allowed = password_reset.RESET_LIMIT_PER_ADDRESS[0]
    for n in range(allowed):
        password_reset.request_reset(
            session=session, email=f"x{n}@example.com", ip=f"2001:db8:8:1::{n + 1:x}", now=NOW
        )
        session.commit()
    with pytest.raises(password_reset.PasswordResetError) as refused:
        password_reset.request_reset(
            session=session, email="y@example.com", ip="2001:db8:8:1::ffff", now=NOW
        )
    assert refused.value.code == "rate_limited"
    session.rollback()


def test_reset_links_asked_for_other_spellings_of_a_mailbox_count_toward_its_limit(session):
    session.add(User(email="owner@example.com", full_name="Owner"))
    session.commit()
    for n in range(password_reset.RESET_LIMIT_PER_ACCOUNT[0]):
        password_reset.request_reset(
            session=session, email=f"Owner+{n}@example.com", ip=f"198.51.100.{n}", now=NOW
        )
        session.commit()
    password_reset.request_reset(
        session=session, email="owner@example.com", ip="198.51.100.50", now=NOW
    )
    session.commit()
    assert _reset_mails(session, "owner@example.com") == 0


def test_reset_links_to_one_mailbox_are_limited_per_day_too(session):
    """The mail cap no longer counts reset links (finding 5): their own limit keeps a stranger
    from sending one an hour all day."""
    session.add(User(email="owner@example.com", full_name="Owner"))
    session.commit()
    for hour in range(12):
        password_reset.request_reset(
            session=session,
            email="owner@example.com",
            ip=f"198.51.101.{hour}",
            now=NOW + timedelta(hours=hour, minutes=1),
        )
        session.commit()
    assert _reset_mails(session, "owner@example.com") == 5


def _contact(session, *, ip: str, email: str) -> str:
    request = contact.ContactRequest(
        name="Arta", email=email, event_type="wedding", message="Hello"
    )
    try:
        contact.submit(request, session=session, ip=ip, now=NOW)
    except contact.ContactError as error:
        session.rollback()
        return error.code
    session.commit()
    return "ok"


def test_the_contact_form_counts_ipv6_networks_and_mailboxes(session):
    allowed = contact.CONTACT_LIMIT_PER_ADDRESS[0]
    results = [
        _contact(session, ip=f"2001:db8:9:1::{n + 1:x}", email=f"a{n}@example.com")
        for n in range(allowed + 1)
    ]
    assert results == ["ok"] * allowed + ["rate_limited"]
    per_email = contact.CONTACT_LIMIT_PER_EMAIL[0]
    results = [
        _contact(session, ip=f"198.51.100.{n}", email=f"v.ictim+{n}@gmail.com")
        for n in range(per_email + 1)
    ]
    assert results == ["ok"] * per_email + ["rate_limited"]


def test_setup_code_guesses_from_one_ipv6_network_are_limited_together(session, monkeypatch):
    monkeypatch.setattr(get_settings(), "public_url", "https://events.example.com")
    per_address = first_admin.ATTEMPTS_PER_ADDRESS[0]
    guessers = [make_user(session, email=f"g{n}@example.com") for n in range(per_address + 1)]
    session.commit()
    results = []
    for n, guesser in enumerate(guessers):
        try:
            first_admin.set_first_admin(
                session=session,
                actor_id=str(guesser.id),
                email=guesser.email,
                code="NOPE",
                ip=f"2001:db8:a:1::{n + 1:x}",
                now=NOW,
            )
        except first_admin.SetupError as error:
            results.append(error.code)
        session.rollback()
    assert results == ["code_invalid"] * per_address + ["throttled"]


# --- migration 0018 --------------------------------------------------------------------------


@pytest.fixture(params=BACKENDS)
def blank_database(request):
    url, drop = create_database(request.param)
    yield url
    drop()


def test_0018_gives_rows_written_before_it_their_network_and_mailbox(blank_database):
    """A booking and a mail written before 0018 are counted the way new ones are."""
    migrate(blank_database, "0017")
    engine = make_engine(blank_database)
    booking_id = uuid.UUID("3f2a9c1e-0000-4000-8000-000000000018")
    as_stored = booking_id.hex if "sqlite" in blank_database else booking_id
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO bookings (id, reference, idempotency_key, status, contact_email, "
                    "contact_phone, venue_address, total_amount, currency, language, "
                    "client_address, created_at, updated_at) VALUES (:id, 'MG-3F2A9C1E', 'k1', "
                    "'pending', 'v.ictim+1@gmail.com', '+1', '', 0, 'EUR', 'sq', "
                    "'2001:db8:1:2::7', :now, :now)"
                ),
                {"id": as_stored, "now": NOW},
            )
            for channel, recipient in (("email", "Victim+2@Example.com"), ("whatsapp", "+3834")):
                conn.execute(
                    text(
                        "INSERT INTO notification_outbox (id, channel, topic, recipient, payload, "
                        "status, attempts, next_attempt_at, created_at) VALUES (:id, :channel, "
                        "'mail', :recipient, '{}', 'sent', 1, :now, :now)"
                    ),
                    {
                        "id": uuid.uuid4().hex if "sqlite" in blank_database else uuid.uuid4(),
                        "channel": channel,
                        "recipient": recipient,
                        "now": NOW,
                    },
                )
        migrate(blank_database)
        with engine.connect() as conn:
            booking_keys = conn.execute(
                text("SELECT client_network, contact_mailbox, client_address FROM bookings")
            ).one()
            mailboxes = dict(
                conn.execute(
                    text("SELECT channel, recipient_mailbox FROM notification_outbox")
                ).all()
            )
    finally:
        engine.dispose()
    assert tuple(booking_keys) == ("2001:db8:1:2::/64", "victim@gmail.com", "2001:db8:1:2::7")
    assert mailboxes == {"email": "victim@example.com", "whatsapp": None}
