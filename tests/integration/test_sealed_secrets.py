"""TOTP secrets sealed at rest on SQLite and PostgreSQL (issue 33, finding 3): the two_factor
row and a backup's copy of the database hold no plain secret; a legacy plain row still signs in
and `reseal-secrets` seals it; after a key change, `reseal-secrets --old-key` brings every
secret to the new key."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyotp
import pytest
from sqlmodel import Session, select

from storefront.models import TwoFactor, User
from storefront.services.accounts import auth, sealed, two_factor
from storefront.services.media import storage
from storefront.services.operations import backup
from storefront.settings import PROJECT_ROOT, get_settings

NOW = datetime(2026, 11, 28, 12, 0, 5, tzinfo=UTC)
KEY_A = "first-key-q3V9rX2mKp7TzL4wN8cB1fH6jD0sG5yA"
KEY_B = "second-key-Zr1Lk0sXw6Jc9HfT2bYp5Ge7UoRm4DaQi"
LEGACY = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


@pytest.fixture
def key_a(monkeypatch):
    settings = get_settings()
    monkeypatch.setattr(settings, "secret_key", KEY_A)
    monkeypatch.setattr(settings, "secrets_key", None)
    return settings


def _admin(session: Session) -> User:
    user = User(
        email=f"admin-{uuid.uuid4().hex[:6]}@example.com",
        password_hash=auth.hash_password("correct horse battery"),
        role="admin",
    )
    session.add(user)
    session.commit()
    return user


def _stored(session: Session, user: User) -> str:
    """The column as the database holds it (a column read, not the session's copy)."""
    session.commit()
    return session.exec(select(TwoFactor.secret).where(TwoFactor.user_id == user.id)).one()


def _enable(session: Session, user: User) -> str:
    setup = two_factor.begin_setup(session=session, user_id=user.id, now=NOW)
    session.commit()
    two_factor.confirm_setup(
        session=session, user_id=user.id, code=pyotp.TOTP(setup.secret).at(NOW), now=NOW
    )
    session.commit()
    return setup.secret


def _signs_in(session: Session, user: User, secret: str, at: datetime) -> bool:
    ticket = two_factor.pending_ticket(user.id, remember=False, now=at)
    try:
        two_factor.complete_sign_in(
            session=session, ticket=ticket, code=pyotp.TOTP(secret).at(at), ip="192.0.2.7", now=at
        )
    except two_factor.TwoFactorError:
        session.rollback()
        return False
    session.commit()
    return True


def test_a_new_secret_is_stored_sealed_and_still_signs_in(session, key_a):
    user = _admin(session)
    secret = _enable(session, user)
    stored = _stored(session, user)
    assert stored.startswith("v1:") and secret not in stored
    assert sealed.unseal(stored) == secret
    assert _signs_in(session, user, secret, NOW + timedelta(minutes=1))


def test_a_backup_holds_no_plain_secret(session, engine, key_a, tmp_path):
    user = _admin(session)
    secret = _enable(session, user)
    previous = storage.use_backend(storage.LocalStorage(tmp_path / "media"))
    try:
        made = backup.make_backup(engine=engine, target=str(tmp_path / "backups"), now=NOW)
    finally:
        storage.use_backend(previous)
    folder = Path(made.location)
    if engine.dialect.name == "sqlite":
        copy = (folder / backup.SQLITE_FILE).read_bytes()
    else:  # the dump's data as the SQL text pg_restore would run
        copy = subprocess.run(
            [
                backup._tool("pg_restore"),
                "--data-only",
                "--file=-",
                str(folder / "database.pgdump"),
            ],
            capture_output=True,
            check=True,
        ).stdout
    assert user.email.encode() in copy  # the copy is readable as it is...
    assert secret.encode() not in copy  # ...and holds the secret only sealed
    assert b"v1:" in copy


def test_a_legacy_plain_secret_still_signs_in_and_is_sealed_by_reseal(session, key_a):
    user = _admin(session)
    session.add(TwoFactor(user_id=user.id, secret=LEGACY, enabled_at=NOW))
    session.commit()
    assert _signs_in(session, user, LEGACY, NOW)

    report = sealed.reseal_two_factor_secrets(session=session)
    session.commit()
    assert (report.sealed_plain, report.resealed, report.current) == (1, 0, 0)
    stored = _stored(session, user)
    assert stored.startswith("v1:") and LEGACY not in stored
    assert _signs_in(session, user, LEGACY, NOW + timedelta(minutes=1))

    again = sealed.reseal_two_factor_secrets(session=session)
    assert (again.sealed_plain, again.resealed, again.current) == (0, 0, 1)


def test_after_a_key_change_reseal_with_the_old_key_brings_the_secrets_back(
    session, key_a, monkeypatch
):
    user = _admin(session)
    secret = _enable(session, user)
    monkeypatch.setattr(key_a, "secret_key", KEY_B)
    with pytest.raises(sealed.SealError):
        _signs_in(session, user, secret, NOW + timedelta(minutes=1))
    session.rollback()

    wrong = sealed.reseal_two_factor_secrets(session=session, old_keys=["not-the-old-key"])
    session.commit()
    assert wrong.unreadable == [user.id] and wrong.resealed == 0

    report = sealed.reseal_two_factor_secrets(session=session, old_keys=["x", KEY_A])
    session.commit()
    assert (report.resealed, report.unreadable) == (1, [])
    assert sealed.unseal(_stored(session, user)) == secret
    assert _signs_in(session, user, secret, NOW + timedelta(minutes=2))


def _manage(*args: str, database_url: str, stdin: str = "", **env: str):
    return subprocess.run(
        [sys.executable, "-m", "storefront.manage", *args],
        cwd=PROJECT_ROOT,
        env={**os.environ, "DATABASE_URL": database_url, **env},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_reseal_command_after_secret_key_was_rotated(session, database_url, key_a):
    user = _admin(session)
    secret = _enable(session, user)
    legacy = _admin(session)
    session.add(TwoFactor(user_id=legacy.id, secret=LEGACY, enabled_at=NOW))
    session.commit()

    refused = _manage("reseal-secrets", database_url=database_url, SECRET_KEY=KEY_B)
    assert refused.returncode == 1
    assert "1 could not be opened" in refused.stderr and "--old-key" in refused.stderr

    # The old key on standard input, so `ps` does not show it.
    done = _manage(
        "reseal-secrets",
        "--old-key",
        "-",
        database_url=database_url,
        stdin=f"{KEY_A}\n",
        SECRET_KEY=KEY_B,
    )
    assert done.returncode == 0, done.stderr
    assert "re-sealed 1" in done.stdout
    assert sealed.unseal(_stored(session, user), material=KEY_B) == secret
    assert sealed.unseal(_stored(session, legacy), material=KEY_B) == LEGACY
