"""Signing in with Google or GitHub: OAuth 2.0's authorization code flow with PKCE, through
Authlib; for Google, OpenID Connect, whose ID token is verified against Google's keys.

A sign-in keeps three values bound to the browser that started it. The `state` sent to the
provider is a signed 10-minute JWT naming the provider, where to go afterwards, a nonce and its
own id; the start route puts that nonce and the PKCE code verifier in a short-lived HttpOnly
cookie (`Start.kept`). The callback must present the state and that cookie: a state minted for
one browser cannot finish a sign-in in another, so nobody can slip their own account into a
victim's browser (login CSRF), and a state is used once (its id is recorded). The code is
traded for tokens with the verifier, so a code stolen on its way back is worth nothing without
the cookie. Google's ID token must carry the same nonce."""

from __future__ import annotations

import hmac
import logging
import secrets
import time
import uuid
import warnings
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import httpx
import jwt
from authlib.deprecate import AuthlibDeprecationWarning
from authlib.integrations.base_client import OAuthError as ProviderRefusal
from authlib.oauth2.client import OAuth2Client as AuthorizationRequest
from authlib.oidc.core import CodeIDToken
from joserfc import jwt as jose_jwt
from joserfc.errors import InvalidKeyIdError, JoseError
from joserfc.jwk import KeySet
from sqlmodel import Session, select

from storefront import routes
from storefront.i18n import N_
from storefront.models import OAuthAccount, User, utcnow
from storefront.services import fields
from storefront.services.accounts import auth
from storefront.services.errors import ServiceError
from storefront.settings import Settings, get_settings

with warnings.catch_warnings():
    # Authlib 1.9 warns, on every start, that its httpx client will move to httpx2; it works
    # with the httpx the rest of the app uses (requirements.txt). Nothing else is silenced.
    warnings.filterwarnings("ignore", "The httpx module is deprecated", AuthlibDeprecationWarning)
    from authlib.integrations.httpx_client import OAuth2Client

log = logging.getLogger(__name__)

PROVIDERS = ("google", "github")
PROVIDER_LABELS = {"google": "Google", "github": "GitHub"}
SCOPES = {"google": "openid email profile", "github": "read:user user:email"}
STATE_LIFETIME = timedelta(minutes=10)
STATE_PURPOSE = "oauth-state"
HTTP_TIMEOUT = 10.0
DEFAULT_REDIRECT = routes.ADMIN  # docs/product.md §9: the default post-login destination
FALLBACK_MESSAGE = N_("Error signing in with {provider}")  # docs/product.md §8
# Google signs its ID tokens with RS256; its keys are read again after this long, or at once
# when a token names a key not among them (Google has rotated its keys).
ID_TOKEN_ALGORITHMS = ["RS256"]
ID_TOKEN_LEEWAY = 60  # seconds of clock skew allowed on exp and iat
KEYS_LIFETIME = 300.0  # seconds
GITHUB_API_HEADERS = {"Accept": "application/vnd.github+json"}


class OAuthError(ServiceError):
    """Codes: unknown_provider, bad_state, provider_error, bad_id_token, unverified_email. The
    message is the spec's fallback 'Error signing in with {provider}'; details stay in logs."""

    CODES = {
        "bad_id_token": "Bad ID token",
        "bad_state": "Bad state",
        "provider_error": "Provider error",
        "unknown_provider": "Unknown provider",
        "unverified_email": "Unverified email",
    }


@dataclass(frozen=True)
class Start:
    """Where to send the browser (`url`), and what it keeps until it comes back (`kept`: the
    nonce and the PKCE code verifier, for the start route's HttpOnly cookie)."""

    url: str
    kept: str


@dataclass(frozen=True)
class Flow:
    """A sign-in whose state this browser has presented, once: what the callback needs."""

    provider: str
    redirect_to: str
    nonce: str
    code_verifier: str


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


def _client_settings(provider: str) -> dict[str, Any]:
    client_id, secret = _client(provider)
    return {
        "client_id": client_id,
        "client_secret": secret,
        "token_endpoint_auth_method": "client_secret_post",
        "scope": SCOPES[provider],
        "redirect_uri": callback_url(provider),
        "code_challenge_method": "S256",
    }


# --- the way there: state, nonce, PKCE --------------------------------------------------------


def begin(provider: str, *, redirect_to: str | None, now: datetime | None = None) -> Start:
    """Where to send the browser to sign in at `provider`, and what it must keep meanwhile."""
    request = AuthorizationRequest(None, **_client_settings(provider))  # builds a URL, no HTTP
    now = now or utcnow()
    nonce = secrets.token_urlsafe(24)
    code_verifier = secrets.token_urlsafe(48)  # 64 characters, RFC 7636 asks for 43 to 128
    state = jwt.encode(
        {
            "purpose": STATE_PURPOSE,
            "provider": provider,
            "redirect_to": safe_redirect(redirect_to),
            "nonce": nonce,
            "jti": secrets.token_hex(16),
            "iat": now,
            "exp": now + STATE_LIFETIME,
        },
        get_settings().secret_key,
        algorithm="HS256",
    )
    if provider == "google":
        extra = {"nonce": nonce, "prompt": "select_account"}
    else:
        extra = {"allow_signup": "true"}
    url, _state = request.create_authorization_url(
        getattr(get_settings(), f"{provider}_authorize_url"),
        state=state,
        code_verifier=code_verifier,
        **extra,
    )
    return Start(url=url, kept=f"{nonce}.{code_verifier}")


def accept_state(
    *, session: Session, provider: str, state: str, kept: str | None, now: datetime | None = None
) -> Flow:
    """The sign-in `state` stands for, when it is ours, unexpired, for this provider, presented
    by the browser that started it (`kept`, its cookie) and never before; it is used up here, in
    the caller's transaction."""
    _client(provider)
    now = now or utcnow()
    nonce, _dot, code_verifier = str(kept or "")[:256].partition(".")
    try:
        claims = jwt.decode(
            str(state)[:4096],
            get_settings().secret_key,
            algorithms=["HS256"],
            # Expiry is checked against `now` below, so tests can set the clock.
            options={"require": ["exp", "nonce", "jti"], "verify_exp": False, "verify_iat": False},
        )
        expires_at = datetime.fromtimestamp(float(claims["exp"]), tz=now.tzinfo)
    except (jwt.PyJWTError, ValueError, KeyError, TypeError, OverflowError) as exc:
        raise _error("bad_state", provider) from exc
    if (
        expires_at <= now
        or claims.get("purpose") != STATE_PURPOSE
        or claims.get("provider") != provider
        or not nonce
        or not code_verifier
        or not hmac.compare_digest(str(claims["nonce"]), nonce)
        or not auth.use_once(
            session=session, token_id=f"oauth:{claims['jti']}"[:64], expires_at=expires_at, now=now
        )
    ):
        raise _error("bad_state", provider)
    return Flow(provider, safe_redirect(claims.get("redirect_to")), nonce, code_verifier)


# --- the way back: tokens and who signed in ---------------------------------------------------


def _json(response: httpx.Response, provider: str) -> Any:
    if response.status_code != 200:
        log.warning("%s answered %s at %s", provider, response.status_code, response.url)
        raise _error("provider_error", provider)
    try:
        return response.json()
    except ValueError as exc:
        raise _error("provider_error", provider) from exc


# Google's keys, per address they are read from: (when read, on the monotonic clock; the keys).
_google_keys: dict[str, tuple[float, KeySet]] = {}


def _signing_keys(client: OAuth2Client, *, fresh: bool = False) -> KeySet:
    url = get_settings().google_jwks_url
    kept = _google_keys.get(url)
    if kept is not None and not fresh and time.monotonic() - kept[0] < KEYS_LIFETIME:
        return kept[1]
    keys = KeySet.import_key_set(_json(client.request("GET", url, withhold_token=True), "google"))
    _google_keys[url] = (time.monotonic(), keys)
    return keys


def _id_token(client: OAuth2Client, token: dict, *, nonce: str, now: datetime) -> CodeIDToken:
    """Google's ID token, once its signature, issuer, audience, times and nonce hold."""
    settings = get_settings()
    # Google writes its issuer with or without the scheme.
    issuers = list(
        dict.fromkeys([settings.google_issuer, settings.google_issuer.removeprefix("https://")])
    )
    try:
        raw = str(token.get("id_token") or "")
        try:
            decoded = jose_jwt.decode(raw, _signing_keys(client), algorithms=ID_TOKEN_ALGORITHMS)
        except InvalidKeyIdError:  # a key Google started using after they were read
            keys = _signing_keys(client, fresh=True)
            decoded = jose_jwt.decode(raw, keys, algorithms=ID_TOKEN_ALGORITHMS)
        claims = CodeIDToken(
            decoded.claims,
            decoded.header,
            {
                "iss": {"essential": True, "values": issuers},
                "aud": {"essential": True, "value": settings.google_client_id},
            },
            {
                "nonce": nonce,
                "client_id": settings.google_client_id,
                "access_token": token.get("access_token"),
            },
        )
        claims.validate(now=int(now.timestamp()), leeway=ID_TOKEN_LEEWAY)
    except (JoseError, ValueError) as exc:
        log.warning("Google's ID token refused: %r", exc)
        raise _error("bad_id_token", "google") from exc
    return claims


def _google_profile(client: OAuth2Client, token: dict, *, nonce: str, now: datetime) -> Profile:
    claims = _id_token(client, token, nonce=nonce, now=now)
    if not claims.get("email"):
        raise _error("provider_error", "google")
    verified = claims.get("email_verified")
    return Profile(
        subject=str(claims["sub"]),
        email=str(claims["email"]),
        email_verified=verified is True or str(verified).lower() == "true",
        full_name=claims.get("name"),
        avatar_url=claims.get("picture"),
    )


def _github_profile(client: OAuth2Client) -> Profile:
    settings = get_settings()
    user = _json(client.get(settings.github_user_url, headers=GITHUB_API_HEADERS), "github")
    emails = _json(client.get(settings.github_emails_url, headers=GITHUB_API_HEADERS), "github")
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


def fetch_profile(flow: Flow, code: str, *, now: datetime | None = None) -> Profile:
    """Trade the code and the flow's code verifier for tokens, and read who signed in: Google's
    verified ID token, or GitHub's user and its primary email."""
    provider = flow.provider
    if not code:
        raise _error("provider_error", provider)
    try:
        with OAuth2Client(timeout=HTTP_TIMEOUT, **_client_settings(provider)) as client:
            # GitHub answers a refused code with 200 and {"error": ...}, Google with a 400:
            # Authlib raises for both.
            token = client.fetch_token(
                getattr(get_settings(), f"{provider}_token_url"),
                grant_type="authorization_code",
                code=str(code)[:2048],
                code_verifier=flow.code_verifier,
            )
            if not isinstance(token.get("access_token"), str) or not token["access_token"]:
                raise _error("provider_error", provider)
            if provider == "google":
                return _google_profile(client, token, nonce=flow.nonce, now=now or utcnow())
            return _github_profile(client)
    except ProviderRefusal as exc:
        log.warning("%s refused the code: %s", provider, exc.error)
        raise _error("provider_error", provider) from exc
    except (httpx.HTTPError, ValueError) as exc:
        log.warning("%s could not be reached or answered nonsense: %r", provider, exc)
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
