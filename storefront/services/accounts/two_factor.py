"""Two-factor sign-in with an authenticator app (TOTP, RFC 6238), for admins (issue 18, 11).

Setup: `begin_setup` keeps a new secret on the server (row not yet enabled) and returns what
the app needs (an otpauth:// address as a QR code, and the secret as text); `confirm_setup` turns
it on once a code from the app matches, and returns ten one-time recovery codes, shown once and
stored as argon2 hashes. `disable` needs a current code, a recovery code or the password.

Signing in: when the password of an account with two-factor on is right, the sign-in does not
complete; `pending_ticket` is a signed 5-minute ticket for the second step (kept in the sign-in
form's server-side state, or for OAuth in an HttpOnly cookie), and `complete_sign_in` takes it
with a code. Codes are throttled like passwords (failures count, per account and per address)
and a code is accepted once: the 30-second step of the last code accepted is remembered.

An admin setting (`BusinessSettings.admin_two_factor_required`) makes it required for every
admin; the admin check (services/permissions.py) refuses an admin without it."""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlencode

import jwt
import pyotp
import segno
from sqlalchemy import delete, update
from sqlmodel import Session, col, select

from storefront import i18n, routes
from storefront.i18n import _o
from storefront.models import BusinessSettings, RecoveryCode, TwoFactor, User, utcnow
from storefront.services import audit, business, fields, permissions, throttle
from storefront.services.accounts import auth
from storefront.services.accounts.sealed import seal, unseal
from storefront.services.business import SITE_NAME
from storefront.services.errors import ServiceError
from storefront.services.messaging import mail_templates, outbox
from storefront.settings import get_settings

DIGITS = 6
INTERVAL = 30  # seconds per code
DRIFT_STEPS = 1  # a code of the step before or after is accepted too (clock drift)
RECOVERY_CODE_COUNT = 10
RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i
RECOVERY_CODE_LENGTH = 10  # about 49 bits each, shown as xxxxx-xxxxx
PENDING_LIFETIME = timedelta(minutes=5)
PENDING_PURPOSE = "two-factor"
# OAuth's second step: the callback leaves the ticket in this HttpOnly cookie (path /, so the
# sign-in page's websocket carries it) and sends the browser to /sign-in?step=two-factor.
PENDING_COOKIE = "sf_2fa"
SIGN_IN_STEP = "two-factor"
# Wrong codes per account (any address) back off like sign-in failures; per address they count
# with the sign-in failures of that address.
CODE_RULE = throttle.Rule(5, auth.THROTTLE_WINDOW, backoff=True)
# Wrong codes in a row at the second step, per account, counted from its last accepted code
# (no window, and a correct password does not reset it): at this many the second step locks
# until a recovery code is used or an operator runs `manage reset-2fa`. Rotating addresses and
# waiting out the backoff no longer add up to a guess: ~3 codes in a million are valid at once.
LOCK_AFTER = 10
# With two-factor required for every admin, an admin without it sets it up only from a link
# mailed to the account: a stolen password alone must not enrol the thief's authenticator.
SETUP_LINK_LIFETIME = timedelta(minutes=30)
SETUP_LINK_PURPOSE = "two-factor-setup"
SETUP_LINK_PARAM = "setup"
SETUP_LINK_RULE = throttle.Rule(3, timedelta(hours=1))


class TwoFactorError(ServiceError):
    """Codes: not_allowed (not an admin), no_user, already_enabled, no_setup, not_enabled,
    invalid_code, locked (LOCK_AFTER wrong codes in a row: only a recovery code signs in),
    link_needed (required for admins: setup starts from the mailed link, `send_setup_link`),
    expired (the sign-in's 5 minutes are over), rate_limited (`details['retry_after']`
    seconds), enable_first (require it for all before using it)."""

    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "already_enabled": "Two-factor sign-in is already on",
        "enable_first": "Turn on two-factor sign-in for your account first",
        "expired": "Your sign-in took too long. Please sign in again.",
        "invalid_code": "The code is not valid",
        "link_needed": "Open the setup link mailed to you",
        "locked": "Too many wrong codes: use a recovery code",
        "no_setup": "Start the setup again",
        "no_user": "No user logged in",
        "not_allowed": "Only admins may do this",
        "not_enabled": "Two-factor sign-in is off",
        "rate_limited": "Too many attempts",
    }


@dataclass(frozen=True)
class Setup:
    """What the authenticator app needs: the secret as text and as a QR code."""

    secret: str
    uri: str
    qr_data_uri: str

    @property
    def secret_text(self) -> str:
        """The secret in groups of four, for typing into the app."""
        return " ".join(self.secret[i : i + 4] for i in range(0, len(self.secret), 4))


@dataclass(frozen=True)
class Status:
    enabled: bool
    recovery_codes_left: int
    required: bool
    # Setting it up needs the link mailed to the account (required, and not on yet).
    setup_needs_link: bool = False


@dataclass(frozen=True)
class SignIn:
    """A second step that went well: who signs in, and whether the session is remembered."""

    account: auth.SignedInUser
    remember: bool


# --- reading ----------------------------------------------------------------------------------


def _user(session: Session, user_id: object) -> User:
    try:
        user = session.get(User, uuid.UUID(str(user_id)))
    except (TypeError, ValueError):
        user = None
    if user is None:
        raise TwoFactorError("no_user", "No user logged in")
    return user


def _enabled_row(session: Session, user_id: uuid.UUID) -> TwoFactor | None:
    row = session.get(TwoFactor, user_id)
    return row if row is not None and row.enabled_at is not None else None


def is_enabled(*, session: Session, user_id: object) -> bool:
    try:
        return _enabled_row(session, uuid.UUID(str(user_id))) is not None
    except (TypeError, ValueError):
        return False


def required_for_admins(*, session: Session) -> bool:
    row = session.get(BusinessSettings, 1)
    return bool(row and row.admin_two_factor_required)


def status(*, session: Session, user_id: object) -> Status:
    user = _user(session, user_id)
    left = 0
    enabled = _enabled_row(session, user.id) is not None
    if enabled:
        left = len(_unused_codes(session, user.id))
    required = required_for_admins(session=session)
    return Status(
        enabled=enabled,
        recovery_codes_left=left,
        required=required,
        setup_needs_link=required and not enabled,
    )


# --- codes ------------------------------------------------------------------------------------


def _totp(secret: str) -> pyotp.TOTP:
    return pyotp.TOTP(secret, digits=DIGITS, interval=INTERVAL)


def _clean(code: object) -> str:
    return "".join(str(code or "")[:64].split()).replace("-", "").lower()


def _matching_step(secret: str, code: str, now: datetime) -> int | None:
    """The time step whose code `code` is, within the drift allowed; None if none."""
    if len(code) != DIGITS or not code.isdigit():
        return None
    totp = _totp(secret)
    current = int(now.timestamp()) // INTERVAL
    found = None
    for step in range(current - DRIFT_STEPS, current + DRIFT_STEPS + 1):
        if secrets.compare_digest(totp.at(step * INTERVAL), code):  # all compared, same time
            found = step
    return found


def _use_totp(session: Session, row: TwoFactor, code: str, now: datetime) -> bool:
    """Accept a code once: its step must be later than the last accepted one. One conditional
    UPDATE, so two requests with the same code cannot both pass."""
    step = _matching_step(unseal(row.secret), code, now)
    if step is None:
        return False
    result = session.exec(  # type: ignore[call-overload]
        update(TwoFactor)
        .where(
            col(TwoFactor.user_id) == row.user_id,
            (col(TwoFactor.last_used_step).is_(None)) | (col(TwoFactor.last_used_step) < step),
        )
        .values(last_used_step=step)
    )
    session.expire(row)
    return result.rowcount == 1


def _unused_codes(session: Session, user_id: uuid.UUID) -> list[RecoveryCode]:
    return list(
        session.exec(
            select(RecoveryCode).where(
                RecoveryCode.user_id == user_id, col(RecoveryCode.used_at).is_(None)
            )
        ).all()
    )


def _use_recovery_code(session: Session, user_id: uuid.UUID, code: str, now: datetime) -> bool:
    if len(code) != RECOVERY_CODE_LENGTH:
        return False
    for stored in _unused_codes(session, user_id):
        if auth.password_matches(code, stored.code_hash):
            result = session.exec(  # type: ignore[call-overload]
                update(RecoveryCode)
                .where(col(RecoveryCode.id) == stored.id, col(RecoveryCode.used_at).is_(None))
                .values(used_at=now)
            )
            return result.rowcount == 1
    return False


def _new_recovery_codes(session: Session, user_id: uuid.UUID) -> list[str]:
    session.exec(delete(RecoveryCode).where(col(RecoveryCode.user_id) == user_id))
    codes = [
        "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(RECOVERY_CODE_LENGTH))
        for _ in range(RECOVERY_CODE_COUNT)
    ]
    for code in codes:
        session.add(RecoveryCode(user_id=user_id, code_hash=auth.hash_password(code)))
    return [f"{code[:5]}-{code[5:]}" for code in codes]


def _count_attempt(session: Session, keys: list[tuple[str, throttle.Rule]], now: datetime) -> None:
    wait = throttle.take(session, keys, now=now)
    if wait:
        raise TwoFactorError("rate_limited", "Too many attempts", retry_after=wait)


def _invalid_code() -> TwoFactorError:
    return TwoFactorError("invalid_code", "The code is not valid")


# --- setup (account area) ---------------------------------------------------------------------


def begin_setup(
    *, session: Session, user_id: object, link: str | None = None, now: datetime | None = None
) -> Setup:
    """A new secret, kept on the server until a code confirms it (an earlier unconfirmed one is
    replaced). While two-factor is required for every admin, only with `link`, the token of the
    setup link mailed to this account (`send_setup_link`)."""
    user = permissions.require_admin(session, user_id, TwoFactorError, setting_up_two_factor=True)
    if _enabled_row(session, user.id) is not None:
        raise TwoFactorError("already_enabled", "Two-factor sign-in is already on")
    if required_for_admins(session=session) and not _setup_link_names(
        link, user.id, now or utcnow()
    ):
        raise TwoFactorError("link_needed", "Open the setup link mailed to you")
    secret = pyotp.random_base32()
    stored = seal(
        secret
    )  # at rest sealed, with a key not in the database (services/accounts/sealed.py)
    row = session.get(TwoFactor, user.id) or TwoFactor(user_id=user.id, secret=stored)
    row.secret, row.enabled_at, row.last_used_step = stored, None, None
    row.created_at = now or utcnow()
    session.add(row)
    session.flush()
    uri = _totp(secret).provisioning_uri(name=user.email, issuer_name=SITE_NAME)
    qr = segno.make(uri, error="m").svg_data_uri(scale=5, border=2, dark="#0f172a")
    return Setup(secret=secret, uri=uri, qr_data_uri=qr)


def confirm_setup(
    *, session: Session, user_id: object, code: str, now: datetime | None = None
) -> list[str]:
    """Turn two-factor on with a first code from the app; returns the ten recovery codes (the
    only time they are shown). The caller commits."""
    now = now or utcnow()
    user = permissions.require_admin(session, user_id, TwoFactorError, setting_up_two_factor=True)
    _count_attempt(session, [(f"2fa:{user.id}", CODE_RULE)], now)
    row = session.get(TwoFactor, user.id)
    if row is None:
        raise TwoFactorError("no_setup", "Start the setup again")
    if row.enabled_at is not None:
        raise TwoFactorError("already_enabled", "Two-factor sign-in is already on")
    if not _use_totp(session, row, _clean(code), now):
        raise _invalid_code()
    row = session.get(TwoFactor, user.id)
    assert row is not None
    row.enabled_at = now
    session.add(row)
    codes = _new_recovery_codes(session, user.id)
    throttle.forgive(session, [f"2fa:{user.id}"])
    audit.record(
        session,
        actor_id=user.id,
        action="two_factor_on",
        entity_type="user",
        entity_id=str(user.id),
    )
    session.flush()
    return codes


def _proves_owner(session: Session, user: User, proof: str, now: datetime) -> bool:
    """A current code, an unused recovery code, or the account's password."""
    row = _enabled_row(session, user.id)
    code = _clean(proof)
    if row is not None and (
        _use_totp(session, row, code, now) or _use_recovery_code(session, user.id, code, now)
    ):
        return True
    return bool(user.password_hash) and auth.password_matches(str(proof)[:256], user.password_hash)


def disable(*, session: Session, user_id: object, proof: str, now: datetime | None = None) -> None:
    """Turn two-factor off: needs a current code, a recovery code or the password."""
    now = now or utcnow()
    user = _user(session, user_id)
    if _enabled_row(session, user.id) is None:
        raise TwoFactorError("not_enabled", "Two-factor sign-in is off")
    _count_attempt(session, [(f"2fa:{user.id}", CODE_RULE)], now)
    if not _proves_owner(session, user, str(proof or ""), now):
        raise _invalid_code()
    _turn_off(session, user, actor_id=user.id)


def _turn_off(session: Session, user: User, *, actor_id: object) -> None:
    session.exec(delete(RecoveryCode).where(col(RecoveryCode.user_id) == user.id))
    session.exec(delete(TwoFactor).where(col(TwoFactor.user_id) == user.id))
    throttle.forgive(session, [f"2fa:{user.id}"])
    audit.record(
        session,
        actor_id=actor_id,
        action="two_factor_off",
        entity_type="user",
        entity_id=str(user.id),
    )


def reset_by_operator(*, session: Session, email: str) -> None:
    """`python -m storefront.manage reset-2fa EMAIL`: an admin who lost both the authenticator
    and the recovery codes. Whoever runs the server may do it; the audit log records it with no
    actor."""
    user = session.exec(select(User).where(User.email == fields.normalize_email(email))).first()
    if user is None:
        raise TwoFactorError("no_user", f"No account with the email {email!r}")
    if _enabled_row(session, user.id) is None and session.get(TwoFactor, user.id) is None:
        raise TwoFactorError("not_enabled", "Two-factor sign-in is off for that account")
    _turn_off(session, user, actor_id=None)


def set_required(*, session: Session, actor_id: object, required: bool) -> None:
    """The admin setting that makes two-factor required for every admin. An admin turns it on
    only with two-factor on themselves (so the setting cannot shut its author out)."""
    actor = permissions.require_admin(session, actor_id, TwoFactorError)
    if required and _enabled_row(session, actor.id) is None:
        raise TwoFactorError("enable_first", "Turn on two-factor sign-in for your account first")
    business.set_settings(session, actor.id, admin_two_factor_required=bool(required))


def send_setup_link(*, session: Session, user_id: object, now: datetime | None = None) -> None:
    """Mail the account a link that opens Account, Security ready to set two-factor up, valid
    for SETUP_LINK_LIFETIME, in the language of the page it was asked on; at most
    SETUP_LINK_RULE's count an hour per account. The caller commits (the outbox sends)."""
    now = now or utcnow()
    user = permissions.require_admin(session, user_id, TwoFactorError, setting_up_two_factor=True)
    if _enabled_row(session, user.id) is not None:
        raise TwoFactorError("already_enabled", "Two-factor sign-in is already on")
    _count_attempt(session, [(f"2fa-link:{user.id}", SETUP_LINK_RULE)], now)
    claims = {"sub": str(user.id), "purpose": SETUP_LINK_PURPOSE, "exp": now + SETUP_LINK_LIFETIME}
    token = jwt.encode(claims, get_settings().secret_key, algorithm="HS256")
    query = urlencode({SETUP_LINK_PARAM: token})
    link = f"{get_settings().public_url.rstrip('/')}{i18n.href(routes.ACCOUNT_SECURITY)}?{query}"
    minutes = int(SETUP_LINK_LIFETIME.total_seconds() // 60)
    _mail_account(
        session,
        user,
        i18n.language(),
        now,
        subject=_o("Set up two-factor sign-in"),
        paragraphs=(
            _o("Two-factor sign-in is required for the admins of {site}.").format(site=SITE_NAME),
            _o("Open this link within {minutes} minutes, signed in, to set it up:").format(
                minutes=minutes
            ),
        ),
        link=link,
        button_label=_o("Set up two-factor sign-in"),
        closing=_o("If you did not ask for it, someone may know your password: change it now."),
    )


def _setup_link_names(link: str | None, user_id: uuid.UUID, now: datetime) -> bool:
    """Whether `link` is a setup link's token for `user_id`, not expired."""
    try:
        claims = jwt.decode(
            str(link or "")[:2048],
            get_settings().secret_key,
            algorithms=["HS256"],
            options={"require": ["exp", "sub"], "verify_exp": False},
        )
        return (
            claims.get("purpose") == SETUP_LINK_PURPOSE
            and str(claims["sub"]) == str(user_id)
            and float(claims["exp"]) > now.timestamp()
        )
    except (jwt.PyJWTError, ValueError, KeyError, TypeError):
        return False


def _mail_account(
    session: Session, user: User, language: str, now: datetime, *, subject: str, **words: object
) -> None:
    """A mail to the account's owner about their account (templates/mail/account_notice), in
    `language`; the words are given already translated (`_o()` inside `i18n.using`)."""
    business_row = business.settings_row(session)
    with i18n.using(language):
        name = user.full_name or ""
        greeting = _o("Hello {name},").format(name=name) if name else _o("Hello,")
        rendered = mail_templates.render(
            "account_notice",
            language,
            subject=subject,
            business=business_row,
            greeting=greeting,
            **{"link": "", "button_label": "", "closing": "", **words},
        )
    outbox.enqueue(
        session=session,
        channel="email",
        topic="mail",
        recipient=user.email,
        payload={"subject": subject, "text": rendered.text, "html": rendered.html},
        now=now,
    )


def _mail_locked(session: Session, user: User, now: datetime) -> None:
    """Tell the owner the second step is locked, in their language (their profile's, else the
    back office's default)."""
    language = i18n.known(user.language) if user.language else i18n.BACK_OFFICE_DEFAULT
    with i18n.using(language):
        _mail_account(
            session,
            user,
            language,
            now,
            subject=_o("Two-factor sign-in is locked"),
            paragraphs=(
                _o(
                    "Someone entered {count} wrong two-factor codes in a row for your account, "
                    "after your password. The second step is locked."
                ).format(count=LOCK_AFTER),
                _o(
                    "To sign in, use one of your recovery codes instead of a code from the app; "
                    "it lifts the lock. Without them, ask the operator to run reset-2fa."
                ),
            ),
            closing=_o("Someone may know your password: change it once you are signed in."),
        )


# --- signing in -------------------------------------------------------------------------------


def pending_ticket(user_id: object, *, remember: bool, now: datetime | None = None) -> str:
    """The signed 5-minute ticket that says the password step of this sign-in went well."""
    now = now or utcnow()
    claims = {
        "sub": str(user_id),
        "remember": bool(remember),
        "purpose": PENDING_PURPOSE,
        "jti": secrets.token_hex(8),
        "iat": now,
        "exp": now + PENDING_LIFETIME,
    }
    return jwt.encode(claims, get_settings().secret_key, algorithm="HS256")


def _expired() -> TwoFactorError:
    return TwoFactorError("expired", "Your sign-in took too long. Please sign in again.")


def _read_pending(ticket: str, now: datetime) -> tuple[uuid.UUID, bool]:
    try:
        claims = jwt.decode(
            str(ticket or "")[:2048],
            get_settings().secret_key,
            algorithms=["HS256"],
            options={"require": ["exp", "sub"], "verify_exp": False, "verify_iat": False},
        )
        user_id = uuid.UUID(str(claims["sub"]))
        expired = float(claims["exp"]) <= now.timestamp()
    except (jwt.PyJWTError, ValueError, KeyError, TypeError) as exc:
        raise _expired() from exc
    if expired or claims.get("purpose") != PENDING_PURPOSE:
        raise _expired()
    return user_id, bool(claims.get("remember"))


def pending_is_valid(ticket: str | None, *, now: datetime | None = None) -> bool:
    try:
        _read_pending(str(ticket or ""), now or utcnow())
    except TwoFactorError:
        return False
    return True


def complete_sign_in(
    *, session: Session, ticket: str, code: str, ip: str, now: datetime | None = None
) -> SignIn:
    """The second step: a code from the app (or a recovery code) for the account the pending
    ticket names. The attempt is counted first (committed); a success takes it back. A wrong
    code counts towards the account's lock (committed, `_count_wrong_code`); a locked account
    signs in with a recovery code only, which lifts the lock."""
    now = now or utcnow()
    user_id, remember = _read_pending(ticket, now)
    attempts = [(f"2fa:{user_id}", CODE_RULE), auth.address_attempt(ip)]
    _count_attempt(session, attempts, now)
    user = session.get(User, user_id)
    row = _enabled_row(session, user_id)
    cleaned = _clean(code)
    if user is None or row is None:
        raise _expired()
    locked = row.locked_at is not None
    if not (
        (not locked and _use_totp(session, row, cleaned, now))
        or _use_recovery_code(session, user_id, cleaned, now)
    ):
        if _count_wrong_code(session, user, now):
            raise TwoFactorError("locked", "Too many wrong codes: use a recovery code")
        raise _invalid_code()
    session.exec(  # type: ignore[call-overload]
        update(TwoFactor)
        .where(col(TwoFactor.user_id) == user_id)
        .values(failed_codes=0, locked_at=None)
    )
    if locked:
        _record(session, user, "two_factor_unlocked")
    throttle.forgive(session, [attempts[0][0]])
    throttle.release(session, attempts[1:])
    return SignIn(account=auth.account_of(session, user), remember=remember)


def _count_wrong_code(session: Session, user: User, now: datetime) -> bool:
    """One more wrong code in a row for `user`, committed at once (the sign-in's transaction
    ends in an error). The attempt that reaches LOCK_AFTER locks the second step, audits it and
    mails the account's owner, once however many arrive together. Whether it is locked."""
    throttle.begin_locked(session)  # a write transaction of its own (SQLite: BEGIN IMMEDIATE)
    session.exec(  # type: ignore[call-overload]
        update(TwoFactor)
        .where(col(TwoFactor.user_id) == user.id)
        .values(failed_codes=TwoFactor.failed_codes + 1)
    )
    locking = session.exec(  # type: ignore[call-overload]
        update(TwoFactor)
        .where(
            col(TwoFactor.user_id) == user.id,
            col(TwoFactor.failed_codes) >= LOCK_AFTER,
            col(TwoFactor.locked_at).is_(None),
        )
        .values(locked_at=now)
    )
    if locking.rowcount == 1:
        _record(session, user, "two_factor_locked")
        _mail_locked(session, user, now)
    session.commit()
    locked_at = session.exec(
        select(TwoFactor.locked_at).where(col(TwoFactor.user_id) == user.id)
    ).first()
    return locked_at is not None


def _record(session: Session, user: User, action: str) -> None:
    audit.record(session, actor_id=None, action=action, entity_type="user", entity_id=str(user.id))
