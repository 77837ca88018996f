"""Accounts, sign-in, sessions and roles against a real database (SQLite and PostgreSQL)."""

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

from storefront.models import AuditLog, LoginSession, User
from storefront.services import auth, users

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
PASSWORD = "correct horse battery"


def _register(session, email="first@example.com", **overrides):
    values = {
        "full_name": "Arta Krasniqi",
        "email": email,
        "password": PASSWORD,
        "confirm": PASSWORD,
        "accepted_terms": True,
    }
    user, first = auth.register(session=session, now=NOW, **(values | overrides))
    session.commit()
    return user, first


def test_first_account_is_admin_and_the_second_is_not(session):
    first, became_admin = _register(session)
    second, second_admin = _register(session, "second@example.com")
    assert (first.role, became_admin) == ("admin", True)
    assert (second.role, second_admin) == ("user", False)
    assert first.password_hash.startswith("$argon2id$")


@pytest.mark.parametrize(
    ("overrides", "code", "message"),
    [
        ({"confirm": "something else"}, "passwords_mismatch", "Passwords do not match"),
        (
            {"password": "short", "confirm": "short"},
            "weak_password",
            "Password must be at least 8 characters long",
        ),
        ({"accepted_terms": False}, "terms_required", None),
        ({"full_name": " "}, "missing_fields", None),
        ({"email": "no-at-sign"}, "invalid_email", None),
    ],
)
def test_sign_up_validation(session, overrides, code, message):
    with pytest.raises(auth.AuthError) as error:
        _register(session, **overrides)
    assert error.value.code == code
    if message:
        assert error.value.message == message


def test_an_email_is_taken_once_whatever_its_case(session):
    _register(session)
    with pytest.raises(auth.AuthError) as error:
        _register(session, "FIRST@example.com")
    assert error.value.code == "email_taken"


def test_wrong_password_and_unknown_email_answer_the_same(session):
    _register(session)
    wrong = auth.sign_in(
        session=session, email="first@example.com", password="nope", ip="1.1.1.1", now=NOW
    )
    unknown = auth.sign_in(
        session=session, email="ghost@example.com", password="nope", ip="1.1.1.1", now=NOW
    )
    assert wrong == unknown == auth.SignInResult(error="invalid_credentials")
    ok = auth.sign_in(
        session=session, email=" First@Example.com ", password=PASSWORD, ip="1.1.1.1", now=NOW
    )
    assert ok.user is not None and ok.error is None


def test_repeated_failures_back_off_without_locking_the_owner_out_elsewhere(session):
    _register(session)
    for _ in range(5):
        result = auth.sign_in(
            session=session, email="first@example.com", password="bad", ip="6.6.6.6", now=NOW
        )
        assert result.error == "invalid_credentials"
    session.commit()
    blocked = auth.sign_in(
        session=session, email="first@example.com", password="bad", ip="6.6.6.6", now=NOW
    )
    assert blocked.error == "invalid_credentials"  # the 6th failure starts the backoff
    session.commit()
    limited = auth.sign_in(
        session=session, email="first@example.com", password=PASSWORD, ip="6.6.6.6", now=NOW
    )
    assert limited.error == "rate_limited" and limited.retry_after >= 1
    # The owner, from their own address, still gets in.
    owner = auth.sign_in(
        session=session, email="first@example.com", password=PASSWORD, ip="10.0.0.2", now=NOW
    )
    assert owner.user is not None
    # And the attacker's backoff ends.
    later = NOW + timedelta(seconds=limited.retry_after + 1)
    again = auth.sign_in(
        session=session, email="first@example.com", password=PASSWORD, ip="6.6.6.6", now=later
    )
    assert again.user is not None


def test_a_ticket_makes_one_session_only(session):
    user, _ = _register(session)
    ticket = auth.issue_ticket(user.id, remember=False, now=NOW)
    token = auth.redeem_ticket(session=session, ticket=ticket, now=NOW)
    session.commit()
    with pytest.raises(auth.AuthError) as error:
        auth.redeem_ticket(session=session, ticket=ticket, now=NOW)
    assert error.value.code == "invalid_ticket"
    stored = session.exec(select(LoginSession)).one()
    assert stored.token_hash == auth.hash_token(token) and token not in stored.token_hash
    signed_in = auth.session_user(session=session, token=token, now=NOW)
    assert signed_in.email == "first@example.com" and signed_in.is_admin


def test_expired_or_forged_tickets_are_refused(session):
    user, _ = _register(session)
    old = auth.issue_ticket(user.id, remember=False, now=NOW - timedelta(minutes=5))
    for ticket in (old, "garbage", old[:-2] + "xx"):
        with pytest.raises(auth.AuthError):
            auth.redeem_ticket(session=session, ticket=ticket, now=NOW)


def test_sessions_expire_when_idle_and_remember_me_lasts_longer(session):
    user, _ = _register(session)
    short = auth.create_session(session=session, user_id=user.id, remember=False, now=NOW)
    long = auth.create_session(session=session, user_id=user.id, remember=True, now=NOW)
    session.commit()
    nine_hours = NOW + timedelta(hours=9)
    assert auth.session_user(session=session, token=short, now=nine_hours) is None
    assert auth.session_user(session=session, token=long, now=nine_hours) is not None
    # Use keeps it alive, up to the absolute limit.
    assert auth.session_user(session=session, token=long, now=NOW + timedelta(days=61)) is None


def test_sign_out_ends_the_session(session):
    user, _ = _register(session)
    token = auth.create_session(session=session, user_id=user.id, remember=False, now=NOW)
    session.commit()
    auth.sign_out(session=session, token=token)
    session.commit()
    assert auth.session_user(session=session, token=token, now=NOW) is None
    assert auth.session_user(session=session, token="made-up", now=NOW) is None


def test_roles_come_from_the_database(session):
    admin, _ = _register(session)
    plain, _ = _register(session, "plain@example.com")
    assert users.check_role(session=session, user_id=str(admin.id))
    assert not users.check_role(session=session, user_id=str(plain.id))
    assert not users.check_role(session=session, user_id="not-a-uuid")

    refused = users.set_admin_role(
        session=session, actor_id=str(plain.id), target_user_id=str(plain.id)
    )
    assert refused == users.RoleResult(False, "Unknown error setting admin role")
    assert users.set_admin_role(session=session, actor_id=None, target_user_id=str(plain.id)) == (
        users.RoleResult(False, "No user logged in")
    )
    granted = users.set_admin_role(
        session=session, actor_id=str(admin.id), target_user_id=str(plain.id)
    )
    session.commit()
    assert granted.success and session.get(User, plain.id).role == "admin"
    assert session.exec(select(AuditLog).where(AuditLog.action == "set_admin_role")).one()


def test_first_admin_only_while_there_is_none(session):
    admin, _ = _register(session)
    other, _ = _register(session, "other@example.com")
    admin.role = "user"
    session.add(admin)
    session.commit()
    assert users.admin_count(session=session) == 0
    result = users.set_first_admin(
        session=session, actor_id=str(other.id), email="OTHER@example.com"
    )
    session.commit()
    assert result.success and session.get(User, other.id).role == "admin"
    again = users.set_first_admin(
        session=session, actor_id=str(other.id), email="first@example.com"
    )
    assert again == users.RoleResult(False, "Unknown error setting first admin")


def test_make_admin_command(session, engine, monkeypatch, capsys):
    from storefront import db, manage

    _register(session)
    _register(session, "staff@example.com")
    monkeypatch.setattr(db, "get_engine", lambda: engine)
    assert manage.main(["make-admin", "staff@example.com"]) == 0
    assert manage.main(["make-admin", "nobody@example.com"]) == 1
    session.expire_all()
    assert session.exec(select(User).where(User.email == "staff@example.com")).one().role == "admin"


def test_the_account_area_shows_only_the_callers_own_bookings(session):
    from decimal import Decimal

    from storefront.models import Booking, BookingItem

    mine, _ = _register(session, "mine@example.com")
    theirs, _ = _register(session, "theirs@example.com")
    for owner, key in ((mine, "a"), (theirs, "b")):
        booking = Booking(
            idempotency_key=key,
            contact_email=owner.email,
            contact_phone="+38344111222",
            total_amount=Decimal("84.00"),
            user_id=owner.id,
        )
        session.add(booking)
        session.flush()
        session.add(
            BookingItem(
                booking_id=booking.id,
                service_name=f"Tables for {owner.email}",
                service_price=Decimal("7"),
                quantity=12,
                start_datetime=NOW,
                end_datetime=NOW + timedelta(hours=3),
            )
        )
    session.commit()
    own = users.bookings_of(session=session, user_id=str(mine.id))
    assert [b.services for b in own] == ["Tables for mine@example.com"]
    assert own[0].reference.startswith("MG-") and own[0].total_label == "84.00\u00a0€"
    assert users.bookings_of(session=session, user_id="not-a-uuid") == []
