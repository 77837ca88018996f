"""Accounts and signing in: argon2id password hashes, server-side login sessions, failed-attempt
backoff, and the one-time tickets that carry a sign-in from an event to the cookie route.

A session's token is 256 random bits; the database keeps only its SHA-256. The browser holds the
token in an HttpOnly cookie set by a plain HTTP route (api/auth.py), never in page state."""

from __future__ import annotations

import hashlib
import re
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlencode

import jwt
from pwdlib import PasswordHash
from sqlalchemy import func, text
from sqlmodel import Session, col, select

from storefront import routes
from storefront.models import LoginSession, SignInThrottle, User, utcnow
from storefront.services.errors import ServiceError
from storefront.settings import get_settings

PASSWORD_MIN_LENGTH = 8
PASSWORD_MAX_LENGTH = 256
EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
COOKIE_NAME = "sf_session"

# Lifetimes: a session ends when unused for IDLE or, in any case, after ABSOLUTE.
IDLE = timedelta(hours=8)
ABSOLUTE = timedelta(hours=24)
REMEMBER_IDLE = timedelta(days=14)
REMEMBER_ABSOLUTE = timedelta(days=60)
TOUCH_EVERY = timedelta(minutes=1)
TICKET_LIFETIME = timedelta(seconds=60)

# Failed sign-ins: (key kind, failures allowed in the window before backoff starts).
# The per-account limit counts only from one address, so a stranger elsewhere cannot lock a
# person out; the looser account-wide limit only slows a distributed attack down.
THROTTLE_WINDOW = timedelta(minutes=15)
THROTTLE_MAX_DELAY = timedelta(minutes=15)
THROTTLE_RULES = (("ip", 20), ("account-ip", 5), ("account", 50))

_hasher = PasswordHash.recommended()
_DUMMY_HASH = _hasher.hash("not-a-real-password-only-for-timing")


class AuthError(ServiceError):
    """Codes: missing_fields, invalid_email, weak_password, password_too_long,
    passwords_mismatch, terms_required, email_taken, invalid_credentials, rate_limited,
    invalid_ticket, no_password."""


@dataclass(frozen=True)
class SignedInUser:
    """Who is calling, as the server knows it."""

    user_id: str
    email: str
    full_name: str
    role: str
    avatar_url: str
    session_id: str

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


@dataclass(frozen=True)
class SignInResult:
    user: User | None = None
    error: str | None = None  # invalid_credentials | rate_limited | missing_fields
    retry_after: int = 0  # seconds, when rate limited


def normalize_email(email: str) -> str:
    return str(email).strip().lower()[:255]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_password_rules(password: str, confirm: str | None = None) -> None:
    if len(password) < PASSWORD_MIN_LENGTH:
        raise AuthError("weak_password", "Password must be at least 8 characters long")
    if len(password) > PASSWORD_MAX_LENGTH:
        raise AuthError("password_too_long", "Password is too long")
    if confirm is not None and password != confirm:
        raise AuthError("passwords_mismatch", "Passwords do not match")


def _lock_first_admin_decision(session: Session) -> None:
    """Serialise sign-ups so two first accounts cannot both become admin."""
    if session.get_bind().dialect.name == "postgresql":
        session.exec(text("SELECT pg_advisory_xact_lock(727001)"))  # type: ignore[call-overload]


def role_for_new_account(session: Session) -> str:
    """'admin' for the very first account on an empty system, 'user' otherwise (DESIGN 9.1).
    Every way of creating an account asks here, before it checks that the email is free, and
    inserts the account in the same transaction (the lock lasts until it ends)."""
    _lock_first_admin_decision(session)
    first = session.exec(select(func.count()).select_from(User)).one() == 0
    return "admin" if first else "user"


def register(
    *,
    session: Session,
    full_name: str,
    email: str,
    password: str,
    confirm: str,
    accepted_terms: bool,
    now: datetime | None = None,
) -> tuple[User, bool]:
    """A new account. Returns it and whether it became the first admin (only on an empty
    system; DESIGN 9.1)."""
    full_name, email = str(full_name).strip()[:255], normalize_email(email)
    if not full_name or not email or not password or not confirm:
        raise AuthError("missing_fields", "Please fill in all fields")
    if not EMAIL_PATTERN.match(email):
        raise AuthError("invalid_email", "Email is invalid")
    if password != confirm:
        raise AuthError("passwords_mismatch", "Passwords do not match")
    check_password_rules(password)
    if not accepted_terms:
        raise AuthError("terms_required", "Please accept the Terms of Service and Privacy Policy")
    role = role_for_new_account(session)
    if session.exec(select(User.id).where(User.email == email)).first() is not None:
        raise AuthError("email_taken", "An account with this email already exists")
    now = now or utcnow()
    user = User(
        email=email,
        full_name=full_name,
        password_hash=hash_password(password),
        role=role,
        created_at=now,
        updated_at=now,
    )
    session.add(user)
    session.flush()
    return user, role == "admin"


# --- signing in -----------------------------------------------------------------------------


def _throttle_keys(email: str, ip: str) -> list[tuple[str, int]]:
    values = {"ip": ip, "account-ip": f"{email}|{ip}", "account": email}
    return [(f"{kind}:{values[kind]}"[:320], allowed) for kind, allowed in THROTTLE_RULES]


def _blocked_for(session: Session, keys: list[tuple[str, int]], now: datetime) -> int:
    wait = 0
    for key, _allowed in keys:
        row = session.get(SignInThrottle, key)
        if row and row.blocked_until and row.blocked_until > now:
            wait = max(wait, int((row.blocked_until - now).total_seconds()) + 1)
    return wait


def _record_failure(session: Session, keys: list[tuple[str, int]], now: datetime) -> None:
    for key, allowed in keys:
        row = session.get(SignInThrottle, key)
        if row is None or now - row.window_started_at > THROTTLE_WINDOW:
            row = row or SignInThrottle(key=key)
            row.failures, row.window_started_at, row.blocked_until = 0, now, None
        row.failures += 1
        if row.failures > allowed:
            delay = timedelta(seconds=2 ** min(row.failures - allowed, 10))
            row.blocked_until = now + min(delay, THROTTLE_MAX_DELAY)
        session.add(row)


def sign_in(
    *, session: Session, email: str, password: str, ip: str, now: datetime | None = None
) -> SignInResult:
    """Check the credentials. A wrong password and an unknown email take the same time and give
    the same answer. Failures are recorded (so the caller must commit on failure too)."""
    now = now or utcnow()
    email = normalize_email(email)
    if not email or not password:
        return SignInResult(error="missing_fields")
    keys = _throttle_keys(email, str(ip)[:64] or "unknown")
    wait = _blocked_for(session, keys, now)
    if wait:
        return SignInResult(error="rate_limited", retry_after=wait)
    user = session.exec(select(User).where(User.email == email)).first()
    stored = user.password_hash if user and user.password_hash else _DUMMY_HASH
    valid, new_hash = _hasher.verify_and_update(str(password)[:PASSWORD_MAX_LENGTH], stored)
    if not valid or user is None or not user.password_hash:
        _record_failure(session, keys, now)
        return SignInResult(error="invalid_credentials")
    if new_hash:
        user.password_hash = new_hash
        session.add(user)
    account_ip_key = keys[1][0]
    row = session.get(SignInThrottle, account_ip_key)
    if row is not None:
        session.delete(row)
    return SignInResult(user=user)


# --- tickets: from a sign-in event to the cookie route ----------------------------------------


def completion_url(ticket: str, redirect_to: str) -> str:
    """Where the browser takes its ticket: the cookie route, then `redirect_to`."""
    return f"{routes.AUTH_COMPLETE}?{urlencode({'ticket': ticket, 'redirectTo': redirect_to})}"


def issue_ticket(user_id: uuid.UUID | str, *, remember: bool, now: datetime | None = None) -> str:
    """A signed, 60-second, single-use ticket the browser carries to the cookie route."""
    now = now or utcnow()
    claims = {
        "sub": str(user_id),
        "remember": bool(remember),
        "jti": secrets.token_hex(16),
        "purpose": "sign-in",
        "iat": now,
        "exp": now + TICKET_LIFETIME,
    }
    return jwt.encode(claims, get_settings().secret_key, algorithm="HS256")


def redeem_ticket(
    *,
    session: Session,
    ticket: str,
    user_agent: str = "",
    ip: str = "",
    now: datetime | None = None,
) -> str:
    """Turn a ticket into a login session; returns the session token for the cookie."""
    now = now or utcnow()
    try:
        claims = jwt.decode(
            str(ticket)[:2048],
            get_settings().secret_key,
            algorithms=["HS256"],
            # Expiry is checked against `now` below, so tests can set the clock.
            options={"require": ["exp", "jti", "sub"], "verify_exp": False, "verify_iat": False},
        )
        user_id = uuid.UUID(claims["sub"])
        expired = float(claims["exp"]) <= now.timestamp()
    except (jwt.PyJWTError, ValueError, KeyError, TypeError) as exc:
        raise AuthError("invalid_ticket", "This sign-in link is invalid or has expired") from exc
    if expired or claims.get("purpose") != "sign-in" or session.get(User, user_id) is None:
        raise AuthError("invalid_ticket", "This sign-in link is invalid or has expired")
    if session.exec(select(LoginSession.id).where(LoginSession.ticket_id == claims["jti"])).first():
        raise AuthError("invalid_ticket", "This sign-in link is invalid or has expired")
    return create_session(
        session=session,
        user_id=user_id,
        remember=bool(claims.get("remember")),
        ticket_id=claims["jti"],
        user_agent=user_agent,
        ip=ip,
        now=now,
    )


def create_session(
    *,
    session: Session,
    user_id: uuid.UUID,
    remember: bool,
    ticket_id: str | None = None,
    user_agent: str = "",
    ip: str = "",
    now: datetime | None = None,
) -> str:
    now = now or utcnow()
    token = secrets.token_urlsafe(32)
    idle, absolute = (REMEMBER_IDLE, REMEMBER_ABSOLUTE) if remember else (IDLE, ABSOLUTE)
    session.add(
        LoginSession(
            user_id=user_id,
            token_hash=hash_token(token),
            remember_me=remember,
            ticket_id=ticket_id,
            created_at=now,
            last_seen_at=now,
            idle_expires_at=now + idle,
            expires_at=now + absolute,
            user_agent=str(user_agent)[:512] or None,
            ip_address=str(ip)[:64] or None,
        )
    )
    session.flush()
    return token


def session_user(
    *, session: Session, token: str | None, now: datetime | None = None
) -> SignedInUser | None:
    """The account behind a session token, or None when it is unknown or expired. Using a
    session pushes its idle expiry forward (at most once a minute)."""
    if not token or len(token) > 128:
        return None
    now = now or utcnow()
    row = session.exec(
        select(LoginSession, User)
        .join(User, col(User.id) == col(LoginSession.user_id))
        .where(LoginSession.token_hash == hash_token(token))
    ).first()
    if row is None:
        return None
    login, user = row
    if login.expires_at <= now or login.idle_expires_at <= now:
        session.delete(login)
        return None
    if now - login.last_seen_at >= TOUCH_EVERY:
        idle = REMEMBER_IDLE if login.remember_me else IDLE
        login.last_seen_at = now
        login.idle_expires_at = min(now + idle, login.expires_at)
        session.add(login)
    return SignedInUser(
        user_id=str(user.id),
        email=user.email,
        full_name=user.full_name or "",
        role=user.role,
        avatar_url=user.avatar_url or "",
        session_id=str(login.id),
    )


def sign_out(*, session: Session, token: str | None) -> None:
    if not token:
        return
    login = session.exec(
        select(LoginSession).where(LoginSession.token_hash == hash_token(token[:128]))
    ).first()
    if login is not None:
        session.delete(login)


def end_all_sessions(*, session: Session, user_id: uuid.UUID) -> None:
    """After a password change every other browser must sign in again."""
    for login in session.exec(select(LoginSession).where(LoginSession.user_id == user_id)).all():
        session.delete(login)


def cookie_max_age(token_remember: bool) -> int | None:
    """Remembered sessions outlive the browser; others end with it."""
    return int(REMEMBER_ABSOLUTE.total_seconds()) if token_remember else None


def token_from_cookie_header(header: str | None) -> str | None:
    """Our session token out of a raw `Cookie:` header."""
    for part in (header or "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE_NAME and value:
            return value
    return None


DEFAULT_AFTER_SIGN_IN = "/admin"


def safe_redirect(target: str | None, default: str = DEFAULT_AFTER_SIGN_IN) -> str:
    """`redirectTo` limited to paths of this site ('/account', never '//evil.example')."""
    target = str(target or "").strip()
    if (
        not target.startswith("/")
        or target.startswith(("//", "/\\"))
        or "\\" in target
        or any(ord(c) < 32 or ord(c) == 0x7F for c in target)
        or len(target) > 1024
    ):
        return default
    return target


def session_is_remembered(*, session: Session, token: str) -> bool:
    login = session.exec(
        select(LoginSession).where(LoginSession.token_hash == hash_token(token))
    ).first()
    return bool(login and login.remember_me)


def after_sign_up(redirect_to: str | None, *, is_admin: bool) -> str:
    """Where a new account goes: `redirectTo`, except that the admin area (the default) makes
    no sense for a plain user, who goes to their account instead."""
    target = safe_redirect(redirect_to)
    if not is_admin and target.startswith(routes.ADMIN):
        return routes.ACCOUNT
    return target
