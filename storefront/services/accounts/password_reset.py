"""Forgotten passwords: a single-use link, valid for 30 minutes, mailed to the account's address.

Only the SHA-256 of a link's secret is stored. Asking for a link answers the same whether or not
the address has an account, and whether or not the mail could be sent (docs/architecture.md §4)."""

from __future__ import annotations

import logging
import secrets
import uuid
from datetime import datetime, timedelta
from email.utils import parseaddr
from urllib.parse import urlencode

from sqlalchemy import delete, update
from sqlmodel import Session, col, select

from storefront import i18n
from storefront.i18n import N_, _o
from storefront.models import BusinessSettings, PasswordResetToken, User, utcnow
from storefront.services import fields, throttle
from storefront.services.accounts.auth import (
    AuthError,
    check_password_rules,
    end_all_sessions,
    hash_password,
    hash_token,
)
from storefront.services.business import settings_row
from storefront.services.errors import ServiceError
from storefront.services.fields import normalize_email
from storefront.services.messaging import mail_templates, outbox
from storefront.services.messaging.mail_templates import RenderedMail
from storefront.settings import get_settings

logger = logging.getLogger(__name__)

RESET_LINK_LIFETIME = timedelta(minutes=30)
# (requests allowed, window) per address asking (an IPv6 /64) and per mailbox asked for, an
# hour and a day: the day's limit is what keeps a stranger from mailing an account's owner a
# link every hour (the mail cap counts only new bookings' mails, services/notify.CAPPED_TOPICS).
RESET_LIMIT_PER_ADDRESS = (10, timedelta(hours=1))
RESET_LIMIT_PER_ACCOUNT = (3, timedelta(hours=1))
RESET_LIMIT_PER_ACCOUNT_PER_DAY = (5, timedelta(hours=24))
RESET_PATH = "/reset-password"
TOKEN_MAX_LENGTH = 128
# Shown on the reset screen (state/sign_in.py translates it).
INVALID_LINK_MESSAGE = N_(
    "This password reset link is invalid or has expired. Please request a new one."
)


class PasswordResetError(ServiceError):
    """Codes: missing_email, invalid_email (not one address), rate_limited (`details['retry_after']`), invalid_or_expired, and
    the password rules' weak_password, common_password, password_too_long, passwords_mismatch."""

    CODES = {
        "common_password": "Common password",
        "invalid_email": "Email is invalid",
        "invalid_or_expired": "Invalid or expired",
        "missing_email": "Please enter your email address",
        "missing_fields": "Missing fields",
        "password_too_long": "Password too long",
        "passwords_mismatch": "Passwords mismatch",
        "rate_limited": "Too many reset requests",
        "weak_password": "Weak password",
    }


def reset_link(token: str) -> str:
    """The spec puts type=recovery in the URL hash; a hash never reaches the server, so the query
    carries it (and the token) instead. The page is in the edition of the moment: the one the
    link was asked from."""
    query = urlencode({"type": "recovery", "token": token})
    # In the edition of the page the reset was asked on (storefront/i18n.py).
    return f"{get_settings().public_url.rstrip('/')}{i18n.href(RESET_PATH)}?{query}"


def request_reset(
    *, session: Session, email: str, ip: str = "", now: datetime | None = None
) -> None:
    """Queue a reset link for `email` when it has an account (with a password or signing in
    through Google/GitHub only); do nothing visible otherwise. Earlier links of the account
    stop working. The mail goes out through the notification outbox, in this transaction.

    Limited per address (raises `rate_limited`) and per mailbox, an hour and a day (silently:
    the answer must not tell whether the address has an account, nor let anyone flood a
    mailbox). Both count whether or not the address has an account."""
    if not normalize_email(email):
        raise PasswordResetError("missing_email", "Please enter your email address")
    try:
        email = fields.email(email)
    except fields.FieldError:
        raise PasswordResetError("invalid_email", "Email is invalid") from None
    now = now or utcnow()
    wait = throttle.take(
        session,
        [(throttle.per_address("reset-ip", ip), throttle.Rule(*RESET_LIMIT_PER_ADDRESS))],
        now=now,
    )
    if wait:
        raise PasswordResetError("rate_limited", "Too many reset requests", retry_after=wait)
    user = session.exec(select(User).where(User.email == email)).first()
    per_account = [
        (throttle.per_mailbox("reset-account", email), throttle.Rule(*RESET_LIMIT_PER_ACCOUNT)),
        (
            throttle.per_mailbox("reset-account-day", email),
            throttle.Rule(*RESET_LIMIT_PER_ACCOUNT_PER_DAY),
        ),
    ]
    if throttle.take(session, per_account, now=now):
        logger.info("Password reset requests for one address are over the limit")
        return
    if user is None:
        logger.info("Password reset asked for an address without an account")
        return
    token = secrets.token_urlsafe(32)
    session.exec(delete(PasswordResetToken).where(col(PasswordResetToken.user_id) == user.id))
    session.add(
        PasswordResetToken(
            user_id=user.id,
            token_hash=hash_token(token),
            created_at=now,
            expires_at=now + RESET_LINK_LIFETIME,
        )
    )
    text, html = _reset_mail(reset_link(token), user.full_name or "", settings_row(session))
    outbox.enqueue(
        session=session,
        channel="email",
        topic="mail",
        recipient=user.email,
        payload={"subject": _o("Reset your password"), "text": text, "html": html},
        now=now,
    )
    session.flush()


def complete_reset(
    *,
    session: Session,
    token: str,
    password: str,
    confirm: str,
    now: datetime | None = None,
) -> uuid.UUID:
    """Set a new password with a reset link's token; returns the account's id. The token is
    spent, every login session of the account ends, and the caller commits."""
    try:
        check_password_rules(password, confirm)
    except AuthError as exc:
        raise PasswordResetError(exc.code, exc.message) from exc
    now = now or utcnow()
    token = str(token or "")
    if not token or len(token) > TOKEN_MAX_LENGTH:
        raise PasswordResetError("invalid_or_expired", INVALID_LINK_MESSAGE)
    token_hash = hash_token(token)
    usable = (
        col(PasswordResetToken.token_hash) == token_hash,
        col(PasswordResetToken.used_at).is_(None),
        col(PasswordResetToken.expires_at) > now,
    )
    user_id = session.exec(select(PasswordResetToken.user_id).where(*usable)).first()
    if user_id is None:
        raise PasswordResetError("invalid_or_expired", INVALID_LINK_MESSAGE)
    new_hash = hash_password(password)  # slow on purpose: done before any row is locked
    # Spend the token with one conditional UPDATE, so two uses at once cannot both succeed.
    claimed = session.exec(update(PasswordResetToken).where(*usable).values(used_at=now))
    user = session.get(User, user_id)
    if claimed.rowcount != 1 or user is None:
        raise PasswordResetError("invalid_or_expired", INVALID_LINK_MESSAGE)
    user.password_hash = new_hash
    user.updated_at = now
    session.add(user)
    end_all_sessions(session=session, user_id=user.id)
    session.flush()
    return user.id


def _reset_mail(link: str, full_name: str, business: BusinessSettings) -> RenderedMail:
    """The mail's text and HTML, in the language of the page the reset was asked on."""
    site = parseaddr(get_settings().mail_from)[0] or _o("our site")
    minutes = int(RESET_LINK_LIFETIME.total_seconds() // 60)
    return mail_templates.render(
        "password_reset",
        i18n.language(),
        subject=_o("Reset your password"),
        business=business,
        greeting=_o("Hello {name},").format(name=full_name) if full_name else _o("Hello,"),
        asked=_o("Someone asked to reset the password of your {site} account.").format(site=site),
        within=_o("Open this link within {minutes} minutes to choose a new password:").format(
            minutes=minutes
        ),
        link=link,
        button_label=_o("Set a new password"),
        once=_o(
            "The link works once. If you did not ask for it, ignore this mail: "
            "your password stays as it is."
        ),
    )
