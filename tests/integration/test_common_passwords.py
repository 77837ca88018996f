"""The most common passwords are refused wherever a password is set (sign-up, reset), whatever
their case, on SQLite and PostgreSQL (issue 18, finding 11)."""

import uuid
from datetime import UTC, datetime

import pytest

from storefront.models import PasswordResetToken, User
from storefront.services.accounts import auth, password_reset

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
COMMON = ["password123", "PASSWORD123", "Password123", "qwertyuiop"]
MESSAGE = "This password is too common. Please choose another."


def _register(session, password):
    return auth.register(
        session=session,
        full_name="Arta Krasniqi",
        email="arta@example.com",
        password=password,
        confirm=password,
        accepted_terms=True,
        now=NOW,
    )


@pytest.mark.parametrize("password", COMMON)
def test_sign_up_refuses_a_common_password(session, password):
    with pytest.raises(auth.AuthError) as error:
        _register(session, password)
    assert (error.value.code, error.value.message) == ("common_password", MESSAGE)
    assert session.query(User).count() == 0


@pytest.mark.parametrize("password", COMMON)
def test_a_reset_refuses_a_common_password(session, password):
    account = _register(session, "correct horse battery")
    session.commit()
    token = "t" * 43
    session.add(
        PasswordResetToken(
            user_id=uuid.UUID(account.user_id),
            token_hash=auth.hash_token(token),
            expires_at=datetime(2099, 1, 1, tzinfo=UTC),
        )
    )
    session.commit()
    with pytest.raises(password_reset.PasswordResetError) as error:
        password_reset.complete_reset(
            session=session, token=token, password=password, confirm=password, now=NOW
        )
    assert (error.value.code, error.value.message) == ("common_password", MESSAGE)


def test_an_uncommon_password_is_accepted(session):
    assert _register(session, "staple in the stable 42").email == "arta@example.com"


def test_the_list_is_loaded_once_and_holds_at_least_10000_entries():
    words = auth.common_passwords()
    assert words is auth.common_passwords()
    assert isinstance(words, frozenset) and len(words) >= 10_000
    assert "password123" in words
