"""Initial Admin Setup on a public address (issue 18, finding 1; docs/architecture.md §9.10): the
one-time setup
code the server logs, against a real database (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import logging
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from threading import Barrier

import pytest
from sqlalchemy import text
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import AuditLog, FirstAdminSetup, User
from storefront.services.accounts import first_admin
from tests.factories import make_user

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
ADDRESS = "203.0.113.9"


@pytest.fixture
def public(monkeypatch):
    """The app as served at a public address (PUBLIC_URL not loopback)."""
    from storefront.settings import get_settings

    monkeypatch.setattr(get_settings(), "public_url", "https://events.example.com")


def _issued(session, now=NOW) -> str:
    """The code the app logs at start (current_code, committed as the start-up task does)."""
    issued = first_admin.current_code(session=session, now=now)
    session.commit()
    return issued.code


def _attempt(session, actor: User, *, code: str, email: str | None = None, ip=ADDRESS, now=NOW):
    """One submit of Initial Admin Setup: 'promoted' or the error code."""
    try:
        first_admin.set_first_admin(
            session=session,
            actor_id=str(actor.id),
            email=email or actor.email,
            code=code,
            ip=ip,
            now=now,
        )
        session.commit()
        return "promoted"
    except first_admin.SetupError as exc:
        session.rollback()
        return exc.code


def _role(session, user: User) -> str:
    session.expire_all()
    return session.get(User, user.id).role


def test_a_stranger_without_the_code_cannot_become_admin(session, public):
    stranger = make_user(session, email="stranger@example.com")
    session.commit()
    _issued(session)
    assert _attempt(session, stranger, code="") == "code_invalid"
    assert _attempt(session, stranger, code="AAAA-BBBB-CCCC-DDDD") == "code_invalid"
    assert _role(session, stranger) == "user"
    assert first_admin.code_required()


def test_the_right_code_works_once(session, public):
    owner = make_user(session, email="owner@example.com")
    other = make_user(session, email="other@example.com")
    session.commit()
    code = _issued(session)
    # As read off the log: lower case and spaces instead of dashes are the same code.
    assert _attempt(session, owner, code=code.lower().replace("-", " ")) == "promoted"
    assert _role(session, owner) == "admin"
    assert session.exec(select(AuditLog).where(AuditLog.action == "set_first_admin")).one()
    assert _attempt(session, other, code=code) == "admin_exists"
    # Even once there is no admin again, a used code stays used.
    owner.role = "user"
    session.add(owner)
    session.commit()
    assert _attempt(session, other, code=code) == "code_invalid"
    assert _role(session, other) == "user"
    # The next start logs a new code, which works.
    fresh = _issued(session)
    assert fresh != code
    assert _attempt(session, other, code=fresh) == "promoted"


def test_an_admin_existing_refuses_even_the_right_code(session, public):
    user = make_user(session, email="late@example.com")
    session.commit()
    code = _issued(session)
    make_user(session, email="boss@example.com", role="admin")
    session.commit()
    assert _attempt(session, user, code=code) == "admin_exists"
    assert first_admin.current_code(session=session, now=NOW) is None


def test_wrong_codes_are_throttled_per_account_and_per_address(session, public):
    stranger = make_user(session, email="guesser@example.com")
    session.commit()
    code = _issued(session)
    allowed, window = first_admin.ATTEMPTS_PER_ACCOUNT
    for n in range(allowed):
        assert _attempt(session, stranger, code=f"WRONG-{n}", ip=f"198.51.100.{n}") == (
            "code_invalid"
        )
    # Beyond the limit even the right code is not looked at until the window has passed.
    assert _attempt(session, stranger, code=code, ip="198.51.100.99") == "throttled"
    assert _role(session, stranger) == "user"

    per_address, _ = first_admin.ATTEMPTS_PER_ADDRESS
    guessers = [make_user(session, email=f"g{n}@example.com") for n in range(per_address + 1)]
    session.commit()
    results = [_attempt(session, g, code="NOPE", ip="192.0.2.77") for g in guessers]
    assert results == ["code_invalid"] * per_address + ["throttled"]

    later = NOW + window + timedelta(seconds=1)
    assert _attempt(session, stranger, code=code, ip="198.51.100.99", now=later) == "promoted"


def test_an_expired_code_is_refused_and_replaced(session, public):
    user = make_user(session, email="slow@example.com")
    session.commit()
    code = _issued(session)
    expired = NOW + first_admin.CODE_LIFETIME + timedelta(seconds=1)
    assert _attempt(session, user, code=code, now=expired) == "code_invalid"
    assert _issued(session, now=expired) != code


def test_the_email_is_checked_only_after_the_code(session, public):
    """A stranger learns nothing about which accounts exist without the code."""
    user = make_user(session, email="probe@example.com")
    session.commit()
    code = _issued(session)
    assert _attempt(session, user, code="X", email="nobody@example.com") == "code_invalid"
    assert _attempt(session, user, code=code, email="nobody@example.com") == "unknown_user"
    assert _attempt(session, user, code=code, email="  ") == "missing_email"
    assert _attempt(session, user, code=code) == "promoted"


def test_on_loopback_no_code_is_asked(session):
    """The spec's Initial Admin Setup stays as it is on a developer's machine."""
    user = make_user(session, email="dev@example.com")
    session.commit()
    assert not first_admin.code_required()
    assert _attempt(session, user, code="") == "promoted"


def test_every_worker_derives_the_same_single_code_and_the_database_holds_no_code(
    session, engine, public
):
    """Workers starting at once (each its own engine and pool, as separate processes) agree
    on one code; the database keeps a nonce the code cannot be read from."""
    make_user(session, email="someone@example.com")
    session.commit()
    workers = 4
    start = Barrier(workers)

    def worker_start(_n):
        own = make_engine(str(engine.url.render_as_string(hide_password=False)))
        try:
            with Session(own) as s:
                start.wait()
                issued = first_admin.current_code(session=s, now=NOW)
                s.commit()
                return issued.code
        finally:
            own.dispose()

    with ThreadPoolExecutor(max_workers=workers) as pool:
        codes = set(pool.map(worker_start, range(workers)))
    assert len(codes) == 1
    (code,) = codes
    rows = session.exec(select(FirstAdminSetup)).all()
    assert len(rows) == 1
    stored = " ".join(str(v) for v in rows[0].model_dump().values())
    assert code not in stored and code.replace("-", "") not in stored.upper()
    # Another SECRET_KEY (another deployment reading the same rows) gets another code.
    from storefront.settings import get_settings

    settings = get_settings()
    original = settings.secret_key
    settings.secret_key = "another-key-" + "x" * 40
    try:
        assert first_admin.derive(rows[0].nonce) != code
    finally:
        settings.secret_key = original


def test_the_start_up_task_logs_the_code_and_ends_once_an_admin_exists(
    session, engine, public, caplog
):
    user = make_user(session, email="reader@example.com")
    session.commit()
    caplog.set_level(logging.WARNING, logger="storefront.services.accounts.first_admin")

    async def run():
        task = asyncio.create_task(
            first_admin.announce_setup_code(recheck_seconds=0.2, engine=engine)
        )
        for _ in range(100):
            if "setup code" in caplog.text:
                break
            await asyncio.sleep(0.05)
        logged = caplog.text.split("First-admin setup code: ")[1].split(" ")[0]
        with Session(engine) as own:
            assert _attempt(own, user, code=logged, now=datetime.now(UTC)) == "promoted"
        await asyncio.wait_for(task, 10)  # an admin exists: the task ends by itself

    asyncio.run(run())
    assert caplog.text.count("First-admin setup code") == 1


@pytest.fixture
def manage(engine, monkeypatch):
    """`python -m storefront.manage` working on the test's database."""
    from contextlib import contextmanager

    from storefront import manage
    from storefront.db import session_scope

    @contextmanager
    def scope():
        with session_scope(engine) as s:
            yield s

    monkeypatch.setattr(manage, "session_scope", scope)
    return manage


def test_the_operators_command_prints_a_valid_code(session, public, manage, capsys):
    user = make_user(session, email="ops@example.com")
    session.commit()
    assert manage.main(["setup-code"]) == 0
    printed = capsys.readouterr().out.strip()
    assert manage.main(["setup-code"]) == 0
    assert capsys.readouterr().out.strip() == printed  # the same one while it is valid
    assert manage.main(["setup-code", "--new"]) == 0
    renewed = capsys.readouterr().out.strip()
    assert renewed != printed
    assert _attempt(session, user, code=printed, now=datetime.now(UTC)) == "code_invalid"
    assert _attempt(session, user, code=renewed, now=datetime.now(UTC)) == "promoted"
    assert manage.main(["setup-code"]) == 1  # an admin exists


def test_make_admin_spends_the_code(session, engine, public, manage):
    boss = make_user(session, email="boss@example.com")
    other = make_user(session, email="other@example.com")
    session.commit()
    code = _issued(session, now=datetime.now(UTC))
    assert manage.main(["make-admin", "boss@example.com"]) == 0
    assert _role(session, boss) == "admin"
    with engine.begin() as conn:
        conn.execute(text("UPDATE users SET role = 'user'"))
    assert _attempt(session, other, code=code, now=datetime.now(UTC)) == "code_invalid"
    assert uuid.UUID(str(other.id))
