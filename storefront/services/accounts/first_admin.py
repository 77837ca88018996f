"""Initial Admin Setup (docs/product.md §2, 4; docs/architecture.md §9.10): naming the first admin
while none exists.

On a loopback address (a developer's laptop) any signed-in account may do it, as the spec says. On a
public address it also takes a one-time setup code, the proof that the caller runs the server:
while no admin exists, every app worker writes the code to its log at start
(`announce_setup_code`), and `python -m storefront.manage setup-code` prints it.

The code is never stored: the database keeps one row with a random nonce and the code is an HMAC
of it under SECRET_KEY, so every worker and host derives the same code, only one is valid at a
time, and a copy of the database alone does not reveal it. A code lasts `CODE_LIFETIME`, works
once (it is spent in the transaction that makes the admin), is compared in constant time, and
attempts are throttled per address and per account before it is looked at."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from storefront.db import error_summary, in_transaction
from storefront.models import FirstAdminSetup, User, utcnow
from storefront.services import throttle
from storefront.services.accounts import users
from storefront.services.accounts.auth import lock_admin_decisions
from storefront.services.errors import ServiceError
from storefront.services.fields import normalize_email
from storefront.settings import get_settings

logger = logging.getLogger(__name__)

CODE_LIFETIME = timedelta(hours=24)
# 16 characters of base32 (80 bits), shown in groups of four: ABCD-EFGH-JKLM-NPQR.
CODE_CHARACTERS = 16
# Attempts with a code, counted before it is checked (whether right or wrong).
ATTEMPTS_PER_ADDRESS = (10, timedelta(minutes=15))
ATTEMPTS_PER_ACCOUNT = (5, timedelta(minutes=15))
# How often a worker looks again while no admin exists, so a code that expired is replaced and
# the new one logged without a restart.
RECHECK_SECONDS = 3600.0
_ROW = 1


class SetupError(ServiceError):
    """Codes: missing_email, no_user (no signed-in caller), throttled (`details['wait']` seconds),
    code_invalid (missing, wrong, used or expired: never which), admin_exists, unknown_user."""

    CODES = {
        "admin_exists": "An admin exists already",
        "code_invalid": "The setup code is not valid",
        "missing_email": "Please enter an email address",
        "no_user": "No user logged in",
        "throttled": "Too many attempts",
        "unknown_user": "No such account",
    }


@dataclass(frozen=True)
class SetupCode:
    code: str
    expires_at: datetime


def code_required() -> bool:
    """Whether Initial Admin Setup asks for the setup code: on a public PUBLIC_URL."""
    return get_settings().is_public


def derive(nonce: str) -> str:
    """The code of a nonce under SECRET_KEY, grouped for reading."""
    digest = hmac.new(
        get_settings().secret_key.encode(), f"first-admin-setup:{nonce}".encode(), hashlib.sha256
    ).digest()
    plain = base64.b32encode(digest).decode()[:CODE_CHARACTERS]
    return "-".join(plain[i : i + 4] for i in range(0, CODE_CHARACTERS, 4))


def _normalised(code: str) -> str:
    """What was typed, without spaces or dashes and in capitals (a code read off a log)."""
    return "".join(ch for ch in str(code).upper() if ch.isalnum())[: CODE_CHARACTERS * 2]


def _valid_row(session: Session, now: datetime) -> FirstAdminSetup | None:
    row = session.get(FirstAdminSetup, _ROW)
    if row is None or row.used_at is not None or row.expires_at <= now:
        return None
    return row


def current_code(
    *, session: Session, now: datetime | None = None, renew: bool = False
) -> SetupCode | None:
    """The valid setup code while no admin exists, issuing a new one when there is none (or
    when `renew`, which voids the old one); None once an admin exists. Decided under the lock
    that serialises admin decisions, so workers starting together agree on one code."""
    now = now or utcnow()
    lock_admin_decisions(session)
    if users.admin_count(session=session) > 0:
        return None
    row = None if renew else _valid_row(session, now)
    if row is None:
        row = session.get(FirstAdminSetup, _ROW) or FirstAdminSetup(
            id=_ROW, nonce="", expires_at=now
        )
        row.nonce, row.created_at = secrets.token_hex(32), now
        row.expires_at, row.used_at = now + CODE_LIFETIME, None
        session.add(row)
        session.flush()
    return SetupCode(code=derive(row.nonce), expires_at=row.expires_at)


def retire_code(*, session: Session, now: datetime | None = None) -> None:
    """Spend the code whatever it is (an admin was made another way: `make make-admin`)."""
    row = session.get(FirstAdminSetup, _ROW)
    if row is not None and row.used_at is None:
        row.used_at = now or utcnow()
        session.add(row)


def _spend_code(session: Session, code: str, now: datetime) -> None:
    """Check `code` against the valid one in constant time and mark it used; the caller holds
    the admin lock, and the mark commits with the promotion or not at all."""
    row = _valid_row(session, now)
    typed = _normalised(code or "")
    expected = _normalised(derive(row.nonce)) if row is not None else secrets.token_hex(8)
    if not hmac.compare_digest(typed.encode(), expected.encode()) or row is None:
        raise SetupError("code_invalid", "The setup code is not valid")
    row.used_at = now
    session.add(row)


def set_first_admin(
    *,
    session: Session,
    actor_id: str | None,
    email: str,
    code: str = "",
    ip: str = "",
    now: datetime | None = None,
) -> None:
    """Name the first admin by the email of an existing account: a signed-in caller, while no
    admin exists, and on a public address with the valid setup code. The count and the code are
    checked under the lock that serialises admin decisions (PostgreSQL advisory lock, SQLite
    write lock), in the transaction that promotes, so two requests cannot both succeed."""
    now = now or utcnow()
    email = normalize_email(email)
    if not email:
        raise SetupError("missing_email", "Please enter an email address")
    required = code_required()
    if required:
        wait = throttle.take(
            session,
            [
                (throttle.per_address("first-admin-ip", ip), throttle.Rule(*ATTEMPTS_PER_ADDRESS)),
                (f"first-admin-account:{actor_id}", throttle.Rule(*ATTEMPTS_PER_ACCOUNT)),
            ],
            now=now,
        )
        if wait:
            raise SetupError("throttled", "Too many attempts", wait=wait)
    lock_admin_decisions(session)
    if users.get_role(session=session, user_id=actor_id) is None:
        raise SetupError("no_user", "No user logged in")
    if users.admin_count(session=session) > 0:
        raise SetupError("admin_exists", "An admin exists already")
    if required:
        _spend_code(session, code, now)
    target = session.exec(select(User).where(User.email == email)).first()
    if target is None:
        raise SetupError("unknown_user", "No such account")
    users.promote(session, actor_id=actor_id, target=target, action="set_first_admin")


def log_code(issued: SetupCode) -> None:
    """One block in the log that an operator can find: the code and until when it works."""
    url = get_settings().public_url.rstrip("/")
    logger.warning(
        "No admin exists yet. First-admin setup code: %s (valid until %s UTC, once). "
        "Sign in at %s/admin and enter it in Initial Admin Setup, or run "
        "`make make-admin EMAIL=...` on the server.",
        issued.code,
        issued.expires_at.strftime("%Y-%m-%d %H:%M"),
        url,
    )


async def announce_setup_code(
    *, recheck_seconds: float = RECHECK_SECONDS, engine: Engine | None = None
) -> None:
    """A start-up task of every app worker on a public address: while no admin exists, log the
    valid setup code (the same one in every worker), and log the next one when it expires.
    Ends once an admin exists."""
    if not code_required():
        return
    logged = None
    while True:
        try:
            issued = await asyncio.to_thread(
                in_transaction, lambda s: current_code(session=s), engine
            )
        except Exception as exc:  # the database not reachable yet: one line, try again
            logger.warning("The first-admin setup code could not be read: %s", error_summary(exc))
            await asyncio.sleep(min(recheck_seconds, 30.0))
            continue
        if issued is None:
            return
        if issued != logged:
            log_code(issued)
            logged = issued
        left = (issued.expires_at - utcnow()).total_seconds()
        await asyncio.sleep(max(1.0, min(recheck_seconds, left + 1)))
