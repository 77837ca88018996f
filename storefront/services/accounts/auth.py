"""Accounts and signing in: argon2id password hashes, server-side login sessions, failed-attempt
backoff, and the one-time tickets that carry a sign-in from an event to the cookie route.

A session's token is 256 random bits; the database keeps only its SHA-256. The browser holds the
token in an HttpOnly cookie set by a plain HTTP route (api/auth.py), never in page state."""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from urllib.parse import quote, urlencode

import jwt
from pwdlib import PasswordHash
from sqlalchemy import delete, func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from storefront import i18n, routes
from storefront.i18n import N_, _
from storefront.models import LoginSession, UsedSignInTicket, User, utcnow
from storefront.services import fields, limit_keys, locks, permissions, throttle
from storefront.services.errors import ServiceError
from storefront.services.fields import normalize_email
from storefront.settings import get_settings

PASSWORD_MIN_LENGTH = 8
PASSWORD_MAX_LENGTH = 256
# The 30,000 most common passwords, lowercased (provenance: data/README-common-passwords.txt).
COMMON_PASSWORDS_FILE = Path(__file__).resolve().parents[2] / "data" / "common-passwords.txt"
# Shown on the sign-up and reset screens (state/sign_in.py translates it).
COMMON_PASSWORD_MESSAGE = N_("This password is too common. Please choose another.")
COOKIE_NAME = "sf_session"

# Lifetimes: a session ends when unused for IDLE or, in any case, after ABSOLUTE.
IDLE = timedelta(hours=8)
ABSOLUTE = timedelta(hours=24)
REMEMBER_IDLE = timedelta(days=14)
REMEMBER_ABSOLUTE = timedelta(days=60)
TOUCH_EVERY = timedelta(minutes=1)
TICKET_LIFETIME = timedelta(seconds=60)

# Sign-in attempts, counted before the password is checked (services/throttle.py), so a parallel
# burst cannot try more than allowed; a success takes its attempt back, so only failures add up.
# Per address and per account at an address they back off up to 15 minutes. Per account (whatever the
# address) they only slow down, by at most ACCOUNT_MAX_DELAY, and never in a browser the owner
# has signed in from before: a stranger cannot lock an owner out (OWASP ASVS 6.3.1).
THROTTLE_WINDOW = timedelta(minutes=15)
ACCOUNT_MAX_DELAY = timedelta(seconds=30)
THROTTLE_RULES = (("ip", 20), ("account-ip", 5), ("account", 50))
_SIGN_IN_RULES = {
    "ip": throttle.Rule(20, THROTTLE_WINDOW, backoff=True),
    "account-ip": throttle.Rule(5, THROTTLE_WINDOW, backoff=True),
    "account": throttle.Rule(50, THROTTLE_WINDOW, backoff=True, max_delay=ACCOUNT_MAX_DELAY),
}
# Sign-ups: (allowed, window) per address (an IPv6 /64) and per mailbox asked for.
SIGN_UP_LIMIT = (10, timedelta(hours=1))
SIGN_UP_LIMIT_PER_EMAIL = (5, timedelta(hours=1))
DEVICE_COOKIE = "sf_device"
DEVICE_LIFETIME = timedelta(days=365)
BIND_COOKIE = "sf_bind"

_hasher = PasswordHash.recommended()
_DUMMY_HASH = _hasher.hash("not-a-real-password-only-for-timing")


class AuthError(ServiceError):
    """Codes: missing_fields, invalid_name (the message says why), invalid_email,
    weak_password, common_password, password_too_long, passwords_mismatch, terms_required,
    email_taken, invalid_credentials, rate_limited (`details['retry_after']` seconds),
    invalid_ticket."""

    CODES = {
        "common_password": "Common password",
        "email_taken": "An account with this email already exists",
        "invalid_credentials": "Invalid login credentials",
        "invalid_email": "Email is invalid",
        "invalid_name": "Invalid name",
        "invalid_ticket": "This sign-in link is invalid or has expired",
        "missing_fields": "Please fill in all fields",
        "password_too_long": "Password is too long",
        "passwords_mismatch": "Passwords do not match",
        "rate_limited": "Too many attempts",
        "terms_required": "Please accept the Terms of Service and Privacy Policy",
        "weak_password": "Password must be at least 8 characters long",
    }


@dataclass(frozen=True)
class SignedInUser:
    """Who is calling, as the server knows it."""

    user_id: str
    email: str
    full_name: str
    role: str
    avatar_url: str
    session_id: str
    # An admin who must set up two-factor sign-in before the admin screens serve them.
    two_factor_setup_needed: bool = False
    # The language of the back office they chose ('' : its default, English).
    language: str = ""

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"

    @property
    def is_staff(self) -> bool:
        """Staff, or an admin: the event-day screens open to them."""
        return self.role in ("staff", "admin")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


@cache
def common_passwords() -> frozenset[str]:
    """The bundled list of common passwords, read once, at the first password set."""
    lines = COMMON_PASSWORDS_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip())


def check_password_rules(password: str, confirm: str | None = None) -> None:
    """The rules of every password set (sign-up, reset): 8 to 256 characters, not one of the
    most common passwords whatever its case (OWASP ASVS 2.1.7)."""
    if len(password) < PASSWORD_MIN_LENGTH:
        raise AuthError("weak_password", "Password must be at least 8 characters long")
    if len(password) > PASSWORD_MAX_LENGTH:
        raise AuthError("password_too_long", "Password is too long")
    if password.strip().lower() in common_passwords():
        raise AuthError("common_password", COMMON_PASSWORD_MESSAGE)
    if confirm is not None and password != confirm:
        raise AuthError("passwords_mismatch", "Passwords do not match")


def lock_admin_decisions(session: Session) -> None:
    """Serialise the decisions that make a first admin (a sign-up on an empty system, Initial
    Admin Setup) until the transaction ends."""
    locks.take(session, locks.ADMIN_DECISIONS)


def role_for_new_account(session: Session, email: str) -> str:
    """'admin' for the first account of a new system, 'user' otherwise (docs/architecture.md §9.1,
    9.8).

    With OWNER_EMAIL set, only that address becomes admin, and only while no admin exists. On a
    public address without it, nobody does (operators run `make make-admin`): a stranger must
    not win the race to sign up first. Every way of creating an account asks here, before it
    checks that the email is free, and inserts the account in the same transaction (the lock
    lasts until it ends)."""
    lock_admin_decisions(session)
    settings = get_settings()
    if settings.owner_email:
        if normalize_email(settings.owner_email) != normalize_email(email):
            return "user"
        admins = session.exec(select(func.count()).select_from(User).where(User.role == "admin"))
        return "admin" if admins.one() == 0 else "user"
    if settings.is_public:
        return "user"
    first = session.exec(select(func.count()).select_from(User)).one() == 0
    return "admin" if first else "user"


def _account(user: User, session_id: str = "", *, setup_needed: bool = False) -> SignedInUser:
    return SignedInUser(
        user_id=str(user.id),
        email=user.email,
        full_name=user.full_name or "",
        role=user.role,
        avatar_url=user.avatar_url or "",
        session_id=session_id,
        two_factor_setup_needed=setup_needed,
        language=user.language or "",
    )


def account_of(session: Session, user: User, session_id: str = "") -> SignedInUser:
    """Who `user` is as a caller, with what the admin check asks of them now."""
    return _account(
        user, session_id, setup_needed=permissions.two_factor_setup_needed(session, user)
    )


def password_matches(password: str, password_hash: str) -> bool:
    """Whether `password` is the one `password_hash` was made from (argon2; constant time)."""
    return _hasher.verify(str(password)[:PASSWORD_MAX_LENGTH], password_hash)


def register(
    *,
    session: Session,
    full_name: str,
    email: str,
    password: str,
    confirm: str,
    accepted_terms: bool,
    ip: str = "",
    now: datetime | None = None,
) -> SignedInUser:
    """A new account (`is_admin` tells whether it became the first admin; docs/architecture.md
    §9.1).
    Limited per address and per email; the check runs before the slow password hash."""
    if (
        not str(full_name or "").strip()
        or not normalize_email(email)
        or not password
        or not confirm
    ):
        raise AuthError("missing_fields", "Please fill in all fields")
    try:
        full_name = fields.single_line(
            full_name, _("Full name"), fields.max_length(User, "full_name"), required=True
        )
    except fields.FieldError as error:
        raise AuthError("invalid_name", error.message) from None
    try:
        email = fields.email(email)
    except fields.FieldError:
        raise AuthError("invalid_email", "Email is invalid") from None
    if password != confirm:
        raise AuthError("passwords_mismatch", "Passwords do not match")
    check_password_rules(password)
    if not accepted_terms:
        raise AuthError("terms_required", "Please accept the Terms of Service and Privacy Policy")
    now = now or utcnow()
    wait = throttle.take(
        session,
        [
            (throttle.per_address("signup-ip", ip), throttle.Rule(*SIGN_UP_LIMIT)),
            (throttle.per_mailbox("signup-email", email), throttle.Rule(*SIGN_UP_LIMIT_PER_EMAIL)),
        ],
        now=now,
    )
    if wait:
        raise AuthError("rate_limited", "Too many attempts", retry_after=wait)
    password_hash = hash_password(password)
    role = role_for_new_account(session, email)
    if session.exec(select(User.id).where(User.email == email)).first() is not None:
        raise AuthError("email_taken", "An account with this email already exists")
    user = User(
        email=email,
        full_name=full_name,
        password_hash=password_hash,
        role=role,
        created_at=now,
        updated_at=now,
    )
    session.add(user)
    session.flush()
    return _account(user)


# --- signing in -----------------------------------------------------------------------------


def address_attempt(ip: str) -> tuple[str, throttle.Rule]:
    """The per-address count every sign-in step shares (password, two-factor code)."""
    return throttle.per_address("ip", ip), _SIGN_IN_RULES["ip"]


def _sign_in_attempts(
    email: str, ip: str, *, known_device: bool
) -> list[tuple[str, throttle.Rule]]:
    # The address as its network (an IPv6 /64); the account by its exact email, the name of
    # one account (another spelling is another account, whose password is checked on its own).
    network = limit_keys.network(ip) or "unknown"
    values = {"ip": network, "account-ip": f"{email}|{network}", "account": email}
    return [
        (f"{kind}:{values[kind]}", rule)
        for kind, rule in _SIGN_IN_RULES.items()
        if not (kind == "account" and known_device)
    ]


def _sign_in_succeeded(session: Session, attempts: list[tuple[str, throttle.Rule]]) -> None:
    """Only failures count: the address gets its attempt back, the account's counts (at that
    address and overall) are forgotten."""
    throttle.release(session, [(key, rule) for key, rule in attempts if key.startswith("ip:")])
    throttle.forgive(session, [key for key, _rule in attempts if not key.startswith("ip:")])


def sign_in(
    *,
    session: Session,
    email: str,
    password: str,
    ip: str,
    device: str | None = None,
    now: datetime | None = None,
) -> SignedInUser:
    """Check the credentials; returns the account. A wrong password and an unknown email take
    the same time and raise the same `invalid_credentials`. The attempt is counted (and
    committed) before the password is checked; `device` is the browser's `sf_device` cookie,
    which spares the owner's own browsers the per-account slowdown."""
    now = now or utcnow()
    email = normalize_email(email)
    if not email or not password:
        raise AuthError("missing_fields", "Please enter your email and password")
    ip = str(ip)[:64] or "unknown"
    user = session.exec(select(User).where(User.email == email)).first()
    known = user is not None and device_owner(device) == str(user.id)
    attempts = _sign_in_attempts(email, ip, known_device=known)
    wait = throttle.take(session, attempts, now=now)
    if wait:
        raise AuthError("rate_limited", "Too many sign-in attempts", retry_after=wait)
    user = session.exec(select(User).where(User.email == email)).first()
    stored = user.password_hash if user and user.password_hash else _DUMMY_HASH
    valid, new_hash = _hasher.verify_and_update(str(password)[:PASSWORD_MAX_LENGTH], stored)
    if not valid or user is None or not user.password_hash:
        raise AuthError("invalid_credentials", "Invalid login credentials")
    if new_hash:
        user.password_hash = new_hash
        session.add(user)
    _sign_in_succeeded(session, attempts)
    return account_of(session, user)


def device_key(user_id: uuid.UUID | str, *, now: datetime | None = None) -> str:
    """The `sf_device` cookie: this browser has signed in to this account before."""
    now = now or utcnow()
    claims = {"sub": str(user_id), "purpose": "device", "iat": now, "exp": now + DEVICE_LIFETIME}
    return jwt.encode(claims, get_settings().secret_key, algorithm="HS256")


def device_owner(key: str | None) -> str | None:
    """The account id a device cookie vouches for, if it is genuine and current."""
    if not key or len(key) > 1024:
        return None
    try:
        claims = jwt.decode(key, get_settings().secret_key, algorithms=["HS256"])
    except jwt.PyJWTError:
        return None
    return str(claims.get("sub")) if claims.get("purpose") == "device" else None


# --- tickets: from a sign-in event to the cookie route ----------------------------------------


def completion_url(ticket: str, redirect_to: str) -> str:
    """Where the browser takes its ticket: the cookie route, then `redirect_to`."""
    return f"{routes.AUTH_COMPLETE}?{urlencode({'ticket': ticket, 'redirectTo': redirect_to})}"


def new_binding() -> str:
    """A random value the browser keeps in the short-lived `sf_bind` cookie while it carries
    its ticket: the ticket holds its hash, so it works only in that browser."""
    return secrets.token_urlsafe(24)


def issue_ticket(
    user_id: uuid.UUID | str, *, remember: bool, binding: str, now: datetime | None = None
) -> str:
    """A signed, 60-second, single-use ticket the browser carries to the cookie route."""
    now = now or utcnow()
    claims = {
        "sub": str(user_id),
        "remember": bool(remember),
        "jti": secrets.token_hex(16),
        "purpose": "sign-in",
        "bind": hash_token(binding),
        "iat": now,
        "exp": now + TICKET_LIFETIME,
    }
    return jwt.encode(claims, get_settings().secret_key, algorithm="HS256")


def _invalid_ticket() -> AuthError:
    return AuthError("invalid_ticket", "This sign-in link is invalid or has expired")


def use_once(*, session: Session, token_id: str, expires_at: datetime, now: datetime) -> bool:
    """Record that the single-use signed token `token_id` (a sign-in ticket's id, an OAuth
    state's) has been used, in the caller's transaction; False when it already was. Kept until
    the token expires, so it works once even after what it made has ended."""
    session.exec(delete(UsedSignInTicket).where(col(UsedSignInTicket.expires_at) < now))
    if session.get(UsedSignInTicket, token_id) is not None:
        return False
    session.add(UsedSignInTicket(ticket_id=token_id, expires_at=expires_at))
    try:
        session.flush()
    except IntegrityError:  # the same token used at the same instant elsewhere
        return False
    return True


def redeem_ticket(
    *,
    session: Session,
    ticket: str,
    binding: str | None,
    user_agent: str = "",
    ip: str = "",
    now: datetime | None = None,
) -> tuple[str, bool]:
    """Turn a ticket into a login session, once, in the browser it was issued to (`binding` is
    that browser's `sf_bind` cookie). Returns the session token and whether it is remembered."""
    now = now or utcnow()
    try:
        claims = jwt.decode(
            str(ticket)[:2048],
            get_settings().secret_key,
            algorithms=["HS256"],
            # Expiry is checked against `now` below, so tests can set the clock.
            options={
                "require": ["exp", "jti", "sub", "bind"],
                "verify_exp": False,
                "verify_iat": False,
            },
        )
        user_id = uuid.UUID(claims["sub"])
        expires_at = datetime.fromtimestamp(float(claims["exp"]), tz=now.tzinfo)
    except (jwt.PyJWTError, ValueError, KeyError, TypeError) as exc:
        raise _invalid_ticket() from exc
    if (
        expires_at <= now
        or claims.get("purpose") != "sign-in"
        or not binding
        or not secrets.compare_digest(hash_token(str(binding)[:128]), str(claims["bind"]))
        or session.get(User, user_id) is None
    ):
        raise _invalid_ticket()
    if not use_once(
        session=session, token_id=str(claims["jti"])[:64], expires_at=expires_at, now=now
    ):
        raise _invalid_ticket()
    remember = bool(claims.get("remember"))
    token = create_session(
        session=session, user_id=user_id, remember=remember, user_agent=user_agent, ip=ip, now=now
    )
    return token, remember


def create_session(
    *,
    session: Session,
    user_id: uuid.UUID,
    remember: bool,
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
    return account_of(session, user, str(login.id))


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


DEFAULT_AFTER_SIGN_IN = "/admin"


def with_return(route: str, redirect_to: str) -> str:
    """The address of `route` (a sign-in screen, an OAuth start) that leads on to
    `redirect_to` afterwards: '/sign-up?redirectTo=%2Faccount'."""
    return f"{route}?redirectTo={quote(redirect_to)}"


def safe_redirect(target: str | None, default: str = DEFAULT_AFTER_SIGN_IN) -> str:
    """`redirectTo` limited to paths of this site ('/account', never '//evil.example'): the
    site's one rule (i18n.local_path), with the sign-in's default."""
    return i18n.local_path(target, default=default)


def landing_after_sign_in(
    redirect_to: str | None, *, is_admin: bool, is_staff: bool = False
) -> str:
    """Where an account goes after signing in or up: `redirectTo`, except that the admin area
    (the default) makes no sense for a plain user, who goes to their account instead, and of it
    a member of staff sees the event-day screens (the day sheet unless they asked for one)."""
    target = safe_redirect(redirect_to)
    if is_admin or not target.startswith(routes.ADMIN):
        return target
    if is_staff:
        path = target.split("?", 1)[0].rstrip("/")
        return target if path.startswith(routes.STAFF_PAGES) else routes.ADMIN_DAY
    return routes.ACCOUNT


def client_address(peer: str | None, forwarded_for: str | None, hops: int) -> str:
    """The visitor's address behind `hops` trusted proxies: the entry that many places from
    the end of X-Forwarded-For (what the last trusted proxy saw), else the peer. The same rule
    Reflex applies to the websocket with `trusted_proxy_hops`."""
    if hops > 0:
        entries = [e.strip() for e in str(forwarded_for or "").split(",") if e.strip()]
        if len(entries) >= hops:
            return entries[-hops][:64]
    return str(peer or "")[:64]
