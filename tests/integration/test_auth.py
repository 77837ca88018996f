"""Accounts, sign-in, sessions and roles against a real database (SQLite and PostgreSQL)."""

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, select

from storefront.models import AuditLog, LoginSession, User
from storefront.services.accounts import auth, first_admin, users

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
    account = auth.register(session=session, now=NOW, **(values | overrides))
    session.commit()
    return session.get(User, uuid.UUID(account.user_id)), account.is_admin


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


def _sign_in(session, email, password, ip, now=NOW, **extra):
    """The account's email, or the error code (and the wait when rate limited)."""
    try:
        account = auth.sign_in(
            session=session, email=email, password=password, ip=ip, now=now, **extra
        )
    except auth.AuthError as exc:
        session.commit()
        return (exc.code, exc.details.get("retry_after", 0))
    session.commit()
    return account.email


def test_wrong_password_and_unknown_email_answer_the_same(session):
    _register(session)
    wrong = _sign_in(session, "first@example.com", "nope", "1.1.1.1")
    unknown = _sign_in(session, "ghost@example.com", "nope", "1.1.1.1")
    assert wrong == unknown == ("invalid_credentials", 0)
    assert _sign_in(session, " First@Example.com ", PASSWORD, "1.1.1.1") == "first@example.com"


def test_sign_in_hands_states_a_public_shape_without_the_hash(session):
    _register(session)
    account = auth.sign_in(
        session=session, email="first@example.com", password=PASSWORD, ip="1.1.1.1", now=NOW
    )
    assert isinstance(account, auth.SignedInUser)
    assert "argon2" not in repr(account)


def test_repeated_failures_back_off_without_locking_the_owner_out_elsewhere(session):
    _register(session)
    for _ in range(6):  # the 6th failure starts the backoff
        assert _sign_in(session, "first@example.com", "bad", "6.6.6.6")[0] == "invalid_credentials"
    code, wait = _sign_in(session, "first@example.com", PASSWORD, "6.6.6.6")
    assert code == "rate_limited" and wait >= 1
    # The owner, from their own address, still gets in.
    assert _sign_in(session, "first@example.com", PASSWORD, "10.0.0.2") == "first@example.com"
    # And the attacker's backoff ends.
    later = NOW + timedelta(seconds=wait + 1)
    assert _sign_in(session, "first@example.com", PASSWORD, "6.6.6.6", now=later) == (
        "first@example.com"
    )


def test_a_ticket_makes_one_session_only(session):
    user, _ = _register(session)
    ticket = auth.issue_ticket(user.id, remember=False, binding="browser-a", now=NOW)
    token, remember = auth.redeem_ticket(
        session=session, ticket=ticket, binding="browser-a", now=NOW
    )
    session.commit()
    assert remember is False
    with pytest.raises(auth.AuthError) as error:
        auth.redeem_ticket(session=session, ticket=ticket, binding="browser-a", now=NOW)
    assert error.value.code == "invalid_ticket"
    stored = session.exec(select(LoginSession)).one()
    assert stored.token_hash == auth.hash_token(token) and token not in stored.token_hash
    signed_in = auth.session_user(session=session, token=token, now=NOW)
    assert signed_in.email == "first@example.com" and signed_in.is_admin


def test_a_ticket_is_used_once_even_after_its_session_ended(session):
    user, _ = _register(session)
    ticket = auth.issue_ticket(user.id, remember=False, binding="browser-a", now=NOW)
    token, _ = auth.redeem_ticket(session=session, ticket=ticket, binding="browser-a", now=NOW)
    session.commit()
    auth.sign_out(session=session, token=token)
    session.commit()
    with pytest.raises(auth.AuthError):
        auth.redeem_ticket(session=session, ticket=ticket, binding="browser-a", now=NOW)


def test_expired_forged_or_unbound_tickets_are_refused(session):
    user, _ = _register(session)
    old = auth.issue_ticket(user.id, remember=False, binding="b", now=NOW - timedelta(minutes=5))
    fresh = auth.issue_ticket(user.id, remember=False, binding="b", now=NOW)
    for ticket, binding in (
        (old, "b"),
        ("garbage", "b"),
        (old[:-2] + "xx", "b"),
        (fresh, None),  # another browser: no binding cookie
        (fresh, "other-browser"),
    ):
        with pytest.raises(auth.AuthError):
            auth.redeem_ticket(session=session, ticket=ticket, binding=binding, now=NOW)
    assert session.exec(select(LoginSession)).all() == []


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

    with pytest.raises(users.RoleError) as refused:
        users.set_admin_role(session=session, actor_id=str(plain.id), target_user_id=str(plain.id))
    assert refused.value.code == "not_allowed"
    with pytest.raises(users.RoleError) as nobody:
        users.set_admin_role(session=session, actor_id=None, target_user_id=str(plain.id))
    assert nobody.value.code == "no_user"
    users.set_admin_role(session=session, actor_id=str(admin.id), target_user_id=str(plain.id))
    session.commit()
    assert session.get(User, plain.id).role == "admin"
    assert session.exec(select(AuditLog).where(AuditLog.action == "set_admin_role")).one()


def test_first_admin_only_while_there_is_none(session):
    admin, _ = _register(session)
    other, _ = _register(session, "other@example.com")
    admin.role = "user"
    session.add(admin)
    session.commit()
    assert users.admin_count(session=session) == 0
    first_admin.set_first_admin(session=session, actor_id=str(other.id), email="OTHER@example.com")
    session.commit()
    assert session.get(User, other.id).role == "admin"
    with pytest.raises(first_admin.SetupError) as again:
        first_admin.set_first_admin(
            session=session, actor_id=str(other.id), email="first@example.com"
        )
    assert again.value.code == "admin_exists"
    session.rollback()
    with pytest.raises(first_admin.SetupError) as blank:
        first_admin.set_first_admin(session=session, actor_id=str(other.id), email="  ")
    assert blank.value.code == "missing_email"


def test_two_first_admin_requests_at_once_make_one_admin(session, engine):
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    accounts = [_register(session, f"racer-{n}@example.com")[0] for n in range(4)]
    for account in accounts:
        account.role = "user"
        session.add(account)
    session.commit()
    start = Barrier(len(accounts))

    def promote(account):
        with Session(engine) as own:
            start.wait()
            try:
                first_admin.set_first_admin(
                    session=own, actor_id=str(account.id), email=account.email
                )
                own.commit()
                return "promoted"
            except first_admin.SetupError as exc:
                own.rollback()
                return exc.code

    with ThreadPoolExecutor(max_workers=len(accounts)) as pool:
        results = list(pool.map(promote, accounts))
    assert sorted(results) == ["admin_exists"] * 3 + ["promoted"]
    session.rollback()
    assert users.admin_count(session=session) == 1


def test_make_admin_command(session, engine, monkeypatch, capsys):
    from storefront import db, manage

    _register(session)
    _register(session, "staff@example.com")
    monkeypatch.setattr(db, "get_engine", lambda: engine)
    assert manage.main(["make-admin", "staff@example.com"]) == 0
    assert manage.main(["make-admin", "nobody@example.com"]) == 1
    session.rollback()  # a new transaction sees what the command committed
    assert session.exec(select(User).where(User.email == "staff@example.com")).one().role == "admin"


def test_the_account_area_shows_only_the_callers_own_bookings(session):
    from decimal import Decimal

    from storefront.models import Booking, BookingItem
    from storefront.services.booking import views as booking_views

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
    own = booking_views.bookings_for_user(session=session, user_id=str(mine.id))
    assert [b.services for b in own] == ["Tables for mine@example.com"]
    assert own[0].reference.startswith("MG-") and own[0].total_label == "84,00\u00a0€"
    assert booking_views.bookings_for_user(session=session, user_id="not-a-uuid") == []


def test_on_a_public_address_only_the_owner_email_becomes_admin(session, monkeypatch):
    from storefront.settings import get_settings

    settings = get_settings()
    monkeypatch.setattr(settings, "public_url", "https://events.example.com")
    stranger, stranger_admin = _register(session, "stranger@example.com")
    assert (stranger.role, stranger_admin) == ("user", False)
    monkeypatch.setattr(settings, "owner_email", "Owner@Example.com")
    owner, owner_admin = _register(session, "owner@example.com")
    late, late_admin = _register(session, "late@example.com")
    assert (owner.role, owner_admin) == ("admin", True)
    assert (late.role, late_admin) == ("user", False)
