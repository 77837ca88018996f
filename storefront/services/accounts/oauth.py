"""Signing in with Google or GitHub (OAuth 2.0 authorization code flow).

The `state` sent to the provider is a signed 10-minute JWT naming the provider, where to go
afterwards and a nonce. The start route also puts that nonce in a short-lived cookie, and the
callback must present both: a state minted for one browser cannot finish a sign-in in another,
so nobody can slip their own account into a victim's browser (login CSRF)."""

from __future__ import annotations

import hmac
import logging
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlencode

import httpx
import jwt
from sqlmodel import Session, select

from storefront import routes
from storefront.i18n import N_
from storefront.models import OAuthAccount, User, utcnow
from storefront.services import fields
from storefront.services.accounts import auth
from storefront.services.errors import ServiceError
from storefront.settings import Settings, get_settings

log = logging.getLogger(__name__)

PROVIDERS = ("google", "github")
PROVIDER_LABELS = {"google": "Google", "github": "GitHub"}
SCOPES = {"google": "openid email profile", "github": "read:user user:email"}
STATE_LIFETIME = timedelta(minutes=10)
STATE_PURPOSE = "oauth-state"
HTTP_TIMEOUT = 10.0
DEFAULT_REDIRECT = routes.ADMIN  # docs/product.md §9: the default post-login destination
FALLBACK_MESSAGE = N_("Error signing in with {provider}")  # docs/product.md §8


class OAuthError(ServiceError):
    """Codes: unknown_provider, bad_state, provider_error, unverified_email. The message is
    The spec's fallback 'Error signing in with {provider}'; details stay in logs."""

    CODES = {
        "bad_state": "Bad state",
        "provider_error": "Provider error",
        "unknown_provider": "Unknown provider",
        "unverified_email": "Unverified email",
    }


@dataclass(frozen=True)
class OAuthState:
    provider: str
    redirect_to: str
    nonce: str


@dataclass(frozen=True)
class Profile:
    """Who the provider says signed in."""

    subject: str
    email: str
    email_verified: bool
    full_name: str | None
    avatar_url: str | None


def provider_label(provider: str) -> str:
    return PROVIDER_LABELS.get(provider, "OAuth")


def label_from_query(value: object) -> str:
    """The provider named in `?provider=` of the sign-in page, shown in its error: only a
    provider's own label may appear (the query is anyone's to write)."""
    return value if value in PROVIDER_LABELS.values() else "OAuth"  # type: ignore[return-value]


def _error(code: str, provider: str) -> OAuthError:
    return OAuthError(code, FALLBACK_MESSAGE.format(provider=provider_label(provider)))


def _credentials(provider: str, settings: Settings) -> tuple[str, str] | None:
    client_id = getattr(settings, f"{provider}_client_id", None)
    secret = getattr(settings, f"{provider}_client_secret", None)
    return (client_id, secret) if client_id and secret else None


def enabled_providers() -> list[str]:
    """The providers whose sign-in buttons show: both client id and secret are set."""
    settings = get_settings()
    return [p for p in PROVIDERS if _credentials(p, settings)]


def safe_redirect(path: str | None) -> str:
    """The sign-in rule for `redirectTo`: a path of this site, else the default."""
    return auth.safe_redirect(path, DEFAULT_REDIRECT)


def callback_url(provider: str) -> str:
    return get_settings().public_url.rstrip("/") + routes.OAUTH_CALLBACK.format(provider=provider)


def _client(provider: str) -> tuple[str, str]:
    if provider not in PROVIDERS:
        raise _error("unknown_provider", provider)
    credentials = _credentials(provider, get_settings())
    if credentials is None:
        raise _error("unknown_provider", provider)
    return credentials


def new_nonce() -> str:
    return secrets.token_urlsafe(24)


def authorization_url(
    provider: str, *, redirect_to: str | None, nonce: str | None = None, now: datetime | None = None
) -> str:
    """Where to send the browser to sign in at `provider`. Pass the `nonce` you also keep in
    the browser's cookie; `complete` will ask for it back."""
    client_id, _secret = _client(provider)
    now = now or utcnow()
    settings = get_settings()
    state = jwt.encode(
        {
            "purpose": STATE_PURPOSE,
            "provider": provider,
            "redirect_to": safe_redirect(redirect_to),
            "nonce": nonce or new_nonce(),
            "iat": now,
            "exp": now + STATE_LIFETIME,
        },
        settings.secret_key,
        algorithm="HS256",
    )
    query = {
        "client_id": client_id,
        "redirect_uri": callback_url(provider),
        "response_type": "code",
        "scope": SCOPES[provider],
        "state": state,
    }
    if provider == "google":
        query["prompt"] = "select_account"
    else:
        query["allow_signup"] = "true"
    return f"{getattr(settings, f'{provider}_authorize_url')}?{urlencode(query)}"


def verify_state(
    state: str, *, provider: str, nonce: str | None, now: datetime | None = None
) -> OAuthState:
    """The state's contents, when it is ours, unexpired, for this provider and this browser."""
    now = now or utcnow()
    try:
        claims = jwt.decode(
            str(state)[:4096],
            get_settings().secret_key,
            algorithms=["HS256"],
            # Expiry is checked against `now` below, so tests can set the clock.
            options={"require": ["exp", "nonce"], "verify_exp": False, "verify_iat": False},
        )
        expired = float(claims["exp"]) <= now.timestamp()
    except (jwt.PyJWTError, ValueError, KeyError, TypeError) as exc:
        raise _error("bad_state", provider) from exc
    if (
        expired
        or claims.get("purpose") != STATE_PURPOSE
        or claims.get("provider") != provider
        or not nonce
        or not hmac.compare_digest(str(claims["nonce"]), str(nonce))
    ):
        raise _error("bad_state", provider)
    return OAuthState(provider, safe_redirect(claims.get("redirect_to")), str(claims["nonce"]))


# --- talking to the provider ------------------------------------------------------------------


def _exchange_code(provider: str, code: str, http: httpx.Client) -> str:
    client_id, secret = _client(provider)
    response = http.post(
        getattr(get_settings(), f"{provider}_token_url"),
        data={
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": callback_url(provider),
            "client_id": client_id,
            "client_secret": secret,
        },
        headers={"Accept": "application/json"},
    )
    # GitHub answers a refused code with 200 and {"error": ...}.
    body = _json(response, provider)
    body = body if isinstance(body, dict) else {}
    token = body.get("access_token")
    if not isinstance(token, str) or not token:
        log.warning("%s refused the code: %s", provider, body.get("error", "no access token"))
        raise _error("provider_error", provider)
    return token


def _json(response: httpx.Response, provider: str) -> Any:
    if response.status_code != 200:
        log.warning("%s answered %s at %s", provider, response.status_code, response.url)
        raise _error("provider_error", provider)
    try:
        return response.json()
    except ValueError as exc:
        raise _error("provider_error", provider) from exc


def _get(http: httpx.Client, url: str, token: str, provider: str) -> Any:
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    if provider == "github":
        headers["Accept"] = "application/vnd.github+json"
    return _json(http.get(url, headers=headers), provider)


def _google_profile(token: str, http: httpx.Client) -> Profile:
    info = _get(http, get_settings().google_userinfo_url, token, "google")
    if not isinstance(info, dict) or not info.get("sub") or not info.get("email"):
        raise _error("provider_error", "google")
    verified = info.get("email_verified")
    return Profile(
        subject=str(info["sub"]),
        email=str(info["email"]),
        email_verified=verified is True or str(verified).lower() == "true",
        full_name=info.get("name"),
        avatar_url=info.get("picture"),
    )


def _github_profile(token: str, http: httpx.Client) -> Profile:
    settings = get_settings()
    user = _get(http, settings.github_user_url, token, "github")
    emails = _get(http, settings.github_emails_url, token, "github")
    if not isinstance(user, dict) or user.get("id") is None or not isinstance(emails, list):
        raise _error("provider_error", "github")
    primary = next(
        (e for e in emails if isinstance(e, dict) and e.get("primary") and e.get("email")), None
    )
    return Profile(
        subject=str(user["id"]),
        email=str(primary["email"]) if primary else "",
        email_verified=bool(primary and primary.get("verified") is True),
        full_name=user.get("name") or user.get("login"),
        avatar_url=user.get("avatar_url"),
    )


def fetch_profile(provider: str, code: str) -> Profile:
    """Trade the code for an access token and read who signed in."""
    try:
        with httpx.Client(timeout=HTTP_TIMEOUT) as http:
            token = _exchange_code(provider, code, http)
            if provider == "google":
                return _google_profile(token, http)
            return _github_profile(token, http)
    except httpx.HTTPError as exc:
        log.warning("%s could not be reached: %s", provider, exc)
        raise _error("provider_error", provider) from exc


# --- the account ------------------------------------------------------------------------------


def _clean_text(value: Any, limit: int) -> str | None:
    text = str(value).strip() if isinstance(value, str) else ""
    return text[:limit] or None


def _clean_avatar(value: Any) -> str | None:
    url = _clean_text(value, 1024)
    return url if url and url.startswith(("https://", "http://")) else None


def _has_links(session: Session, user_id: uuid.UUID) -> bool:
    return (
        session.exec(select(OAuthAccount.id).where(OAuthAccount.user_id == user_id)).first()
        is not None
    )


def account_for(
    *, session: Session, provider: str, profile: Profile, now: datetime | None = None
) -> uuid.UUID:
    """The account this identity signs into: the linked one, else the one with the same
    verified email (now linked), else a new account without a password."""
    try:
        email = fields.email(profile.email)
    except fields.FieldError:
        email = ""
    if not profile.email_verified or not email:
        raise _error("unverified_email", provider)
    subject = profile.subject[:255]
    linked = session.exec(
        select(OAuthAccount).where(
            OAuthAccount.provider == provider, OAuthAccount.subject == subject
        )
    ).first()
    if linked is not None:
        return linked.user_id
    now = now or utcnow()
    role = auth.role_for_new_account(session, email)
    user = session.exec(select(User).where(User.email == email)).first()
    if user is None:
        user = User(
            email=email,
            full_name=_clean_text(profile.full_name, 255),
            avatar_url=_clean_avatar(profile.avatar_url),
            password_hash=None,
            role=role,
            created_at=now,
            updated_at=now,
        )
        session.add(user)
        session.flush()
    elif user.password_hash and not _has_links(session, user.id):
        # Sign-up does not confirm email addresses, so whoever set this password may not own
        # the address the provider has just verified. The owner takes the account over: the
        # password stops working and every browser signed in with it is signed out (a reset
        # link to the same address sets a new one).
        user.password_hash, user.updated_at = None, now
        session.add(user)
        auth.end_all_sessions(session=session, user_id=user.id)
    session.add(
        OAuthAccount(
            user_id=user.id, provider=provider, subject=subject, email=email, created_at=now
        )
    )
    session.flush()
    return user.id


def complete(
    *,
    session: Session,
    provider: str,
    code: str,
    state: str,
    nonce: str | None,
    now: datetime | None = None,
) -> uuid.UUID:
    """Finish a sign-in the provider sent back: check the state against the browser's nonce,
    fetch the profile, and return the id of the account to sign in."""
    _client(provider)
    verify_state(state, provider=provider, nonce=nonce, now=now)
    if not code:
        raise _error("provider_error", provider)
    profile = fetch_profile(provider, str(code)[:2048])
    return account_for(session=session, provider=provider, profile=profile, now=now)
