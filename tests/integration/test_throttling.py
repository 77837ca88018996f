"""Sign-in throttling that slows attackers without locking owners out, counted atomically, and
limits on sign-up, reset requests and the contact form (SQLite and PostgreSQL)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, select

from storefront.models import NotificationOutbox, User
from storefront.services.accounts import auth, password_reset
from storefront.services.messaging import contact_form as contact

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
PASSWORD = "correct horse battery"


def _owner(session, email="owner@example.com") -> User:
    user = User(email=email, full_name="Owner", password_hash=auth.hash_password(PASSWORD))
    session.add(user)
    session.commit()
    return user


def _attempt(session, email, password, ip, now=NOW, **extra):
    """'ok', 'invalid' or ('limited', seconds)."""
    try:
        auth.sign_in(session=session, email=email, password=password, ip=ip, now=now, **extra)
    except auth.AuthError as exc:
        if exc.code == "rate_limited":
            return ("limited", exc.details["retry_after"])
        return "invalid"
    session.commit()
    return "ok"


def test_failures_spread_over_addresses_never_lock_the_owner_out(session):
    _owner(session)
    now = NOW
    for n in range(80):  # a distributed guesser: 16 addresses, 5 tries each
        _attempt(session, "owner@example.com", "guess", f"10.0.{n % 16}.1", now=now)
        now += timedelta(seconds=1)
    first = _attempt(session, "owner@example.com", PASSWORD, "192.0.2.50", now=now)
    if first != "ok":
        assert first[0] == "limited" and first[1] <= auth.ACCOUNT_MAX_DELAY.total_seconds()
        now += timedelta(seconds=first[1])
        assert _attempt(session, "owner@example.com", PASSWORD, "192.0.2.50", now=now) == "ok"


def test_a_browser_the_owner_signed_in_from_is_never_slowed_down(session):
    owner = _owner(session)
    device = auth.device_key(owner.id)
    now = NOW
    for n in range(80):
        _attempt(session, "owner@example.com", "guess", f"10.1.{n % 16}.1", now=now)
        now += timedelta(seconds=1)
    assert (
        _attempt(session, "owner@example.com", PASSWORD, "192.0.2.51", now=now, device=device)
        == "ok"
    )


def test_parallel_guesses_are_counted_before_they_are_checked(engine):
    with Session(engine) as session:
        _owner(session, "burst@example.com")

    def guess(_n):
        with Session(engine, expire_on_commit=False) as session:
            return _attempt(session, "burst@example.com", "wrong guess", "203.0.113.9")

    with ThreadPoolExecutor(max_workers=12) as pool:
        results = list(pool.map(guess, range(24)))
    checked = results.count("invalid")
    allowed = dict(auth.THROTTLE_RULES)["account-ip"]
    assert checked <= allowed + 1, results
    assert all(r == "invalid" or r[0] == "limited" for r in results)
    with Session(engine) as session:
        for row in session.exec(select(User).where(User.email == "burst@example.com")).all():
            session.delete(row)
        session.commit()


def test_sign_up_is_limited_per_address(session):
    def sign_up(n, ip="198.51.100.1"):
        auth.register(
            session=session,
            full_name="Someone",
            email=f"new-{n}@example.com",
            password=PASSWORD,
            confirm=PASSWORD,
            accepted_terms=True,
            ip=ip,
            now=NOW,
        )
        session.commit()

    for n in range(auth.SIGN_UP_LIMIT[0]):
        sign_up(n)
    with pytest.raises(auth.AuthError) as error:
        sign_up(99)
    assert error.value.code == "rate_limited"
    sign_up(100, ip="198.51.100.2")  # another visitor is not affected


def test_reset_requests_are_queued_and_limited_per_address_and_per_account(session):
    _owner(session, "reset@example.com")
    for _ in range(6):
        password_reset.request_reset(
            session=session, email="reset@example.com", ip="198.51.100.9", now=NOW
        )
        session.commit()
    rows = session.exec(
        select(NotificationOutbox).where(NotificationOutbox.recipient == "reset@example.com")
    ).all()
    assert 1 <= len(rows) <= password_reset.RESET_LIMIT_PER_ACCOUNT[0]
    assert all(row.channel == "email" and row.topic == "mail" for row in rows)
    assert "reset-password?" in rows[-1].payload["text"]


def test_the_contact_form_is_limited_per_address(session):
    request = contact.ContactRequest(
        name="Arta", email="arta@example.com", event_type="wedding", message="Hello"
    )
    for _ in range(contact.CONTACT_LIMIT_PER_ADDRESS[0]):
        contact.submit(request, session=session, ip="198.51.100.7", now=NOW)
        session.commit()
    with pytest.raises(contact.ContactError) as error:
        contact.submit(request, session=session, ip="198.51.100.7", now=NOW)
    assert error.value.code == "rate_limited"


def test_correct_sign_ins_from_one_address_are_never_refused(session):
    """An office or a mobile network behind one address: only failures count (issue 18)."""
    owners = [_owner(session, f"staff{n}@example.com") for n in range(5)]
    now = NOW
    for n in range(25):
        email = owners[n % 5].email
        assert _attempt(session, email, PASSWORD, "198.51.100.7", now=now) == "ok", n
        now += timedelta(seconds=1)


def test_failures_still_back_off_after_successes(session):
    _owner(session)
    now = NOW
    for _ in range(25):
        assert _attempt(session, "owner@example.com", PASSWORD, "198.51.100.8", now=now) == "ok"
    results = [
        _attempt(session, "owner@example.com", "wrong", "198.51.100.8", now=now) for _ in range(8)
    ]
    allowed = dict(auth.THROTTLE_RULES)["account-ip"]
    assert results[:allowed] == ["invalid"] * allowed
    assert results[-1][0] == "limited"
