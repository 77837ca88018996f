"""Forgotten passwords against a real database (SQLite and PostgreSQL) and a real SMTP server:
the mailed link sets a new password once, within 30 minutes, and signs every browser out."""

import uuid
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlmodel import select

from storefront.models import NotificationOutbox, PasswordResetToken, User
from storefront.services.accounts import auth
from storefront.services.accounts.password_reset import (
    PasswordResetError,
    complete_reset,
    request_reset,
)
from storefront.services.messaging import outbox
from storefront.settings import get_settings
from tests.mail_server import free_port

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
OLD_PASSWORD = "correct horse battery"
NEW_PASSWORD = "staple in the stable"


@pytest.fixture
def user(session):
    account = auth.register(
        session=session,
        full_name="Arta Krasniqi",
        email="arta@example.com",
        password=OLD_PASSWORD,
        confirm=OLD_PASSWORD,
        accepted_terms=True,
        now=NOW,
    )
    session.commit()
    return session.get(User, uuid.UUID(account.user_id))


def _token_from(message) -> str:
    """The token of the reset link in a mail's text part, checking the link's shape."""
    text = message.get_body(("plain",)).get_content()
    [link] = [word for word in text.split() if "/reset-password?" in word]
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}" == get_settings().public_url
    assert parts.path == "/reset-password"
    query = parse_qs(parts.query)
    assert query["type"] == ["recovery"]
    [token] = query["token"]
    assert token in message.get_body(("html",)).get_content()
    return token


def _deliver(session, now=NOW) -> None:
    """Commit, then let the outbox sender send what is due (as the app's worker does)."""
    session.commit()
    outbox.run_once(now=now, engine=session.get_bind())


def _mailed_token(session, mailbox, email="arta@example.com", now=NOW) -> str:
    request_reset(session=session, email=email, now=now)
    _deliver(session, now)
    return _token_from(mailbox.messages[-1])


def _reset(session, token, password=NEW_PASSWORD, confirm=None, now=NOW):
    user_id = complete_reset(
        session=session,
        token=token,
        password=password,
        confirm=password if confirm is None else confirm,
        now=now,
    )
    session.commit()
    return user_id


def _signs_in(session, password) -> bool:
    try:
        auth.sign_in(
            session=session, email="arta@example.com", password=password, ip="10.0.0.1", now=NOW
        )
    except auth.AuthError:
        session.commit()
        return False
    session.commit()
    return True


def test_the_mailed_link_sets_a_new_password(session, mailbox, user):
    from storefront import i18n

    with i18n.using("sq"):  # asked on the default edition's page
        request_reset(session=session, email="  Arta@Example.com ", now=NOW)
    _deliver(session)
    [message] = mailbox.messages
    assert mailbox.recipients == [["arta@example.com"]]
    assert message["To"] == "arta@example.com"
    assert message["Subject"] == "Rivendosni fjalëkalimin tuaj"  # asked in the default edition
    token = _token_from(message)

    assert _reset(session, token) == user.id
    assert not _signs_in(session, OLD_PASSWORD)
    assert _signs_in(session, NEW_PASSWORD)
    assert session.get(User, user.id).password_hash.startswith("$argon2id$")


def test_only_the_hash_of_the_token_is_stored(session, mailbox, user):
    token = _mailed_token(session, mailbox)
    stored = session.exec(select(PasswordResetToken)).one()
    assert stored.token_hash == auth.hash_token(token) and token not in stored.token_hash
    assert stored.expires_at == NOW + timedelta(minutes=30) and stored.used_at is None


def test_a_link_works_once(session, mailbox, user):
    token = _mailed_token(session, mailbox)
    _reset(session, token)
    with pytest.raises(PasswordResetError) as error:
        _reset(session, token, password="a third password")
    assert error.value.code == "invalid_or_expired"
    assert "invalid or has expired" in error.value.message
    assert _signs_in(session, NEW_PASSWORD)


def test_a_link_expires_after_30_minutes(session, mailbox, user):
    token = _mailed_token(session, mailbox)
    with pytest.raises(PasswordResetError) as error:
        _reset(session, token, now=NOW + timedelta(minutes=31))
    assert error.value.code == "invalid_or_expired"
    assert _signs_in(session, OLD_PASSWORD)
    # Refused for its age, not for anything else: within the 30 minutes it still works.
    assert _reset(session, token, now=NOW + timedelta(minutes=29)) == user.id


@pytest.mark.parametrize("token", ["", "not-a-token", "x" * 500])
def test_unknown_tokens_are_refused(session, user, token):
    with pytest.raises(PasswordResetError) as error:
        _reset(session, token)
    assert error.value.code == "invalid_or_expired"


def test_an_unknown_email_sends_nothing_and_says_nothing(session, mailbox, user):
    assert request_reset(session=session, email="ghost@example.com", now=NOW) is None
    _deliver(session)
    assert mailbox.messages == []
    assert session.exec(select(PasswordResetToken)).all() == []


def test_an_account_without_a_password_can_set_one(session, mailbox):
    oauth_only = User(email="gent@example.com", full_name="Gent Berisha", password_hash=None)
    session.add(oauth_only)
    session.commit()
    token = _mailed_token(session, mailbox, email="gent@example.com")
    assert _reset(session, token) == oauth_only.id
    account = auth.sign_in(
        session=session, email="gent@example.com", password=NEW_PASSWORD, ip="10.0.0.1", now=NOW
    )
    assert account.email == "gent@example.com"


@pytest.mark.parametrize(
    ("password", "confirm", "code", "message"),
    [
        (NEW_PASSWORD, "something else", "passwords_mismatch", "Passwords do not match"),
        ("short", "short", "weak_password", "Password must be at least 8 characters long"),
    ],
)
def test_new_password_rules_give_specs_messages(
    session, mailbox, user, password, confirm, code, message
):
    token = _mailed_token(session, mailbox)
    with pytest.raises(PasswordResetError) as error:
        _reset(session, token, password=password, confirm=confirm)
    assert (error.value.code, error.value.message) == (code, message)
    # A typo does not spend the link.
    assert _reset(session, token) == user.id


def test_a_newer_request_invalidates_the_older_link(session, mailbox, user):
    older = _mailed_token(session, mailbox)
    newer = _mailed_token(session, mailbox, now=NOW + timedelta(minutes=5))
    assert older != newer and len(mailbox.messages) == 2
    with pytest.raises(PasswordResetError) as error:
        _reset(session, older, now=NOW + timedelta(minutes=6))
    assert error.value.code == "invalid_or_expired"
    assert _reset(session, newer, now=NOW + timedelta(minutes=6)) == user.id


def test_a_reset_ends_every_login_session(session, mailbox, user):
    browsers = [
        auth.create_session(session=session, user_id=user.id, remember=remember, now=NOW)
        for remember in (False, True)
    ]
    session.commit()
    token = _mailed_token(session, mailbox)
    _reset(session, token)
    for browser in browsers:
        assert auth.session_user(session=session, token=browser, now=NOW) is None


def test_a_mail_failure_is_retried_not_revealed(session, user, monkeypatch):
    settings = get_settings()
    monkeypatch.setattr(settings, "smtp_host", "127.0.0.1")
    monkeypatch.setattr(settings, "smtp_port", free_port())  # nothing listens there
    monkeypatch.setattr(settings, "smtp_starttls", False)
    assert request_reset(session=session, email="arta@example.com", now=NOW) is None
    _deliver(session)
    session.rollback()
    [row] = session.exec(select(NotificationOutbox)).all()
    assert (row.status, row.attempts) == ("pending", 1) and row.last_error
    assert row.next_attempt_at > NOW
    assert len(session.exec(select(PasswordResetToken)).all()) == 1


def test_the_link_is_queued_with_its_token_in_one_transaction(session, user):
    request_reset(session=session, email="arta@example.com", now=NOW)
    session.rollback()  # whatever goes wrong after, nothing is half-written
    assert session.exec(select(PasswordResetToken)).all() == []
    assert session.exec(select(NotificationOutbox)).all() == []


def test_a_blank_email_is_asked_for(session, mailbox):
    with pytest.raises(PasswordResetError) as error:
        request_reset(session=session, email="   ", now=NOW)
    assert error.value.code == "missing_email"
    assert mailbox.messages == []
