"""Signing in with Google and GitHub through the real routes, against a local provider over
HTTP (tests/oauth_provider.py: PKCE checked, Google's ID tokens really signed), on SQLite and
PostgreSQL. The browser's redirects are followed by hand."""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from sqlalchemy import func
from sqlmodel import select

import storefront.db
from storefront.api import create_api
from storefront.api.oauth import FLOW_COOKIE
from storefront.models import OAuthAccount, User
from storefront.services.accounts import auth, oauth
from storefront.settings import get_settings
from tests.oauth_provider import LocalOAuthProvider, s256

SITE = "http://localhost:3000"
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def provider():
    with LocalOAuthProvider() as provider:
        yield provider


@pytest.fixture
def idp(provider, monkeypatch, engine, caplog):
    """The local provider, configured as Google and GitHub, with the app on the test database."""
    caplog.set_level(logging.INFO, logger="storefront.api.oauth")
    provider.reset()
    settings = get_settings()
    for name, value in provider.settings().items():
        monkeypatch.setattr(settings, name, value)
    monkeypatch.setattr(settings, "public_url", SITE)
    monkeypatch.setattr(storefront.db, "get_engine", lambda: engine)
    monkeypatch.setattr(oauth, "_google_keys", {})  # each test reads the provider's keys anew
    provider.state.google_profile = google_profile()
    provider.state.github_user = {
        "id": 583231,
        "login": "octo-arta",
        "name": "Arta Octo",
        "avatar_url": "https://avatars.example.com/u/583231",
    }
    provider.state.github_emails = [
        {"email": "arta@example.com", "primary": True, "verified": True, "visibility": None}
    ]
    return provider


def google_profile(sub="g-1001", email="arta@example.com", verified=True, name="Arta Krasniqi"):
    return {
        "sub": sub,
        "email": email,
        "email_verified": verified,
        "name": name,
        "picture": f"https://photos.example.com/{sub}.jpg",
    }


def browser() -> httpx.AsyncClient:
    """A browser on the site: keeps its cookies, follows no redirect by itself."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=create_api()), base_url=SITE)


async def visit_provider(url: str) -> str:
    """The provider's authorize page; the person agrees at once. Returns where it sends back."""
    async with httpx.AsyncClient() as client:
        response = await client.get(url)
    assert response.status_code == 302, response.text
    return response.headers["location"]


async def sign_in(provider_name: str, redirect_to: str = "/account") -> httpx.Response:
    """start -> provider -> callback, in one browser; returns the callback's answer."""
    async with browser() as site:
        start = await site.get(
            f"/api/auth/oauth/{provider_name}/start", params={"redirectTo": redirect_to}
        )
        assert start.status_code == 302
        back = await visit_provider(start.headers["location"])
        assert back.startswith(f"{SITE}/api/auth/oauth/{provider_name}/callback?")
        return await site.get(back)


def completed(response: httpx.Response) -> dict[str, str]:
    """The ticket and destination of a successful callback."""
    assert response.status_code == 302
    location = urlsplit(response.headers["location"])
    assert location.path == "/api/auth/complete"
    query = {k: v[0] for k, v in parse_qs(location.query).items()}
    assert set(query) == {"ticket", "redirectTo"}
    # The ticket works only with the binding cookie the callback gave this browser.
    query["binding"] = response.cookies.get(auth.BIND_COOKIE)
    assert query["binding"]
    return query


def refused(response: httpx.Response, label: str, caplog=None, code: str = "") -> None:
    """Sent to the sign-in page with nothing but the provider's name; the reason (`code`) is
    only in the log."""
    assert response.status_code == 302
    assert response.headers["location"] == f"/sign-in?error=oauth&provider={label}"
    if caplog is not None:
        assert caplog.records[-1].getMessage().endswith(f"refused: {code}")


def users(session) -> list[User]:
    session.rollback()  # see what the routes committed
    return list(session.exec(select(User).order_by(User.created_at, User.email)).all())


def redeem(session, done: dict[str, str]) -> auth.SignedInUser:
    session.rollback()  # a fresh transaction sees what the routes committed
    token, _remember = auth.redeem_ticket(
        session=session, ticket=done["ticket"], binding=done["binding"]
    )
    session.commit()
    signed_in = auth.session_user(session=session, token=token)
    assert signed_in is not None
    return signed_in


# --- new accounts -----------------------------------------------------------------------------


async def test_google_creates_the_first_account_as_admin_and_the_next_as_user(session, idp):
    first = completed(await sign_in("google", "/account/profile"))
    assert first["redirectTo"] == "/account/profile"
    signed_in = redeem(session, first)
    assert (signed_in.email, signed_in.role) == ("arta@example.com", "admin")

    idp.state.google_profile = google_profile("g-2002", "Besa@Example.com", name="Besa Gashi")
    second = redeem(session, completed(await sign_in("google")))
    assert (second.email, second.role, second.full_name) == (
        "besa@example.com",
        "user",
        "Besa Gashi",
    )

    [arta, besa] = users(session)
    assert arta.password_hash is None and besa.password_hash is None
    assert arta.full_name == "Arta Krasniqi"
    assert arta.avatar_url == "https://photos.example.com/g-1001.jpg"
    links = session.exec(select(OAuthAccount.provider, OAuthAccount.subject)).all()
    assert sorted(links) == [("google", "g-1001"), ("google", "g-2002")]


@pytest.mark.parametrize("name", ["google", "github"])
async def test_the_callback_talks_to_the_provider_as_registered(session, idp, name):
    async with browser() as site:
        start = await site.get(f"/api/auth/oauth/{name}/start")
        back = await visit_provider(start.headers["location"])
        done = completed(await site.get(back))
    cookie = start.headers["set-cookie"].lower()
    assert cookie.startswith(f"{FLOW_COOKIE}=")
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/api/auth/oauth" in cookie
    nonce, _dot, verifier = start.cookies[FLOW_COOKIE].partition(".")
    [authorize] = idp.state.authorize_requests
    assert authorize["redirect_uri"] == f"{SITE}/api/auth/oauth/{name}/callback"
    assert authorize["scope"] == oauth.SCOPES[name]
    # PKCE: the challenge goes out, the verifier stays in the browser's cookie until the code
    # is traded.
    assert authorize["code_challenge_method"] == "S256"
    assert authorize["code_challenge"] == s256(verifier) and verifier not in authorize.values()
    assert 43 <= len(verifier) <= 128
    assert authorize.get("nonce") == (nonce if name == "google" else None)
    [request] = idp.state.token_requests
    assert request["redirect_uri"] == f"{SITE}/api/auth/oauth/{name}/callback"
    assert request["grant_type"] == "authorization_code"
    assert request["code_verifier"] == verifier
    assert idp.state.refusals == []
    assert redeem(session, done).email == "arta@example.com"


async def test_signing_in_again_reuses_the_linked_account(session, idp):
    first = redeem(session, completed(await sign_in("google")))
    # The person changed their Google address since: the identity, not the email, decides.
    idp.state.google_profile = google_profile(email="arta.new@example.com")
    again = redeem(session, completed(await sign_in("google")))
    assert again.user_id == first.user_id
    assert len(users(session)) == 1
    assert session.exec(select(func.count()).select_from(OAuthAccount)).one() == 1


async def test_a_ticket_is_single_use(session, idp):
    done = completed(await sign_in("google"))
    redeem(session, done)
    with pytest.raises(auth.AuthError):
        auth.redeem_ticket(session=session, ticket=done["ticket"], binding=done["binding"])


# --- linking ----------------------------------------------------------------------------------


async def test_a_password_account_with_the_same_verified_email_is_linked(session, idp):
    owner = auth.register(
        session=session,
        full_name="Arta K.",
        email="ARTA@example.com",
        password=PASSWORD,
        confirm=PASSWORD,
        accepted_terms=True,
    )
    owner_id = uuid.UUID(owner.user_id)
    old_session = auth.create_session(session=session, user_id=owner_id, remember=False)
    session.commit()
    signed_in = redeem(session, completed(await sign_in("github")))
    assert signed_in.user_id == owner.user_id
    [user] = users(session)
    # Whoever set the password never proved the address: it stops working, and so do the
    # sessions made with it.
    assert user.password_hash is None
    assert auth.session_user(session=session, token=old_session) is None
    assert user.full_name == "Arta K."  # not overwritten by the provider
    link = session.exec(select(OAuthAccount)).one()
    assert (link.user_id, link.provider, link.subject) == (owner_id, "github", "583231")

    # Google with the same address joins the same account.
    redeem(session, completed(await sign_in("google")))
    assert len(users(session)) == 1
    assert session.exec(select(func.count()).select_from(OAuthAccount)).one() == 2


# --- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize("verified", [False, "false", None])
async def test_an_unverified_google_email_is_refused(session, idp, verified, caplog):
    idp.state.google_profile = google_profile(verified=verified)
    refused(await sign_in("google"), "Google", caplog, "unverified_email")
    assert users(session) == []


async def test_an_unverified_email_never_takes_over_an_existing_account(session, idp):
    auth.register(
        session=session,
        full_name="Arta",
        email="arta@example.com",
        password=PASSWORD,
        confirm=PASSWORD,
        accepted_terms=True,
    )
    session.commit()
    idp.state.google_profile = google_profile(verified=False)
    refused(await sign_in("google"), "Google")
    assert session.exec(select(func.count()).select_from(OAuthAccount)).one() == 0


async def test_github_uses_the_primary_verified_email(session, idp):
    idp.state.github_emails = [
        {"email": "old@example.com", "primary": False, "verified": True},
        {"email": "Main@Example.com", "primary": True, "verified": True},
        {"email": "typo@example.com", "primary": False, "verified": False},
    ]
    signed_in = redeem(session, completed(await sign_in("github")))
    assert signed_in.email == "main@example.com"
    assert signed_in.full_name == "Arta Octo"
    assert signed_in.avatar_url == "https://avatars.example.com/u/583231"


async def test_github_without_a_verified_primary_email_is_refused(session, idp, caplog):
    # A verified secondary address is not enough: the primary is the one GitHub vouches for.
    idp.state.github_emails = [
        {"email": "main@example.com", "primary": True, "verified": False},
        {"email": "other@example.com", "primary": False, "verified": True},
    ]
    refused(await sign_in("github"), "GitHub", caplog, "unverified_email")
    assert users(session) == []


async def test_github_name_falls_back_to_the_login(session, idp):
    idp.state.github_user = {"id": 7, "login": "octo", "name": None, "avatar_url": None}
    signed_in = redeem(session, completed(await sign_in("github")))
    assert (signed_in.full_name, signed_in.avatar_url) == ("octo", "")


async def _callback_with(site: httpx.AsyncClient, authorize_url: str, edit=lambda q: q):
    back = urlsplit(await visit_provider(authorize_url))
    query = edit({k: v[0] for k, v in parse_qs(back.query).items()})
    return await site.get(back.path, params=query)


async def test_a_tampered_state_is_refused(session, idp, caplog):
    async with browser() as site:
        start = await site.get("/api/auth/oauth/google/start", params={"redirectTo": "/account"})

        def tamper(query):
            head, payload, signature = query["state"].split(".")
            return query | {"state": f"{head}.{payload}.{signature[:-4]}AAAA"}

        answer = await _callback_with(site, start.headers["location"], tamper)
    refused(answer, "Google", caplog, "bad_state")
    assert users(session) == []


def keep(site: httpx.AsyncClient, kept: str) -> None:
    """Give the browser the cookie the start route sets (httpx files "localhost" under
    ".local")."""
    site.cookies.set(FLOW_COOKIE, kept, domain="localhost.local", path="/api/auth/oauth")


@pytest.mark.parametrize("minutes_ago", [9, 11])
async def test_a_state_lasts_ten_minutes(session, idp, caplog, minutes_ago):
    issued = datetime.now(UTC) - timedelta(minutes=minutes_ago)
    begun = oauth.begin("google", redirect_to="/account", now=issued)
    async with browser() as site:
        keep(site, begun.kept)
        answer = await _callback_with(site, begun.url)
    if minutes_ago < 10:
        assert completed(answer)["redirectTo"] == "/account"
    else:
        refused(answer, "Google", caplog, "bad_state")
        assert users(session) == []


async def test_a_state_from_another_browser_is_refused(session, idp, caplog):
    """Login CSRF: an attacker's own, valid state and code replayed in the victim's browser."""
    async with browser() as attacker:
        start = await attacker.get("/api/auth/oauth/google/start")
        back = await visit_provider(start.headers["location"])
    async with browser() as victim:
        refused(await victim.get(back), "Google", caplog, "bad_state")
    assert users(session) == []


async def test_a_state_for_the_other_provider_is_refused(session, idp, caplog):
    async with browser() as site:
        start = await site.get("/api/auth/oauth/google/start")
        back = urlsplit(await visit_provider(start.headers["location"]))
        answer = await site.get("/api/auth/oauth/github/callback", params=parse_qs(back.query))
    refused(answer, "GitHub", caplog, "bad_state")


async def test_a_state_is_used_once_even_with_its_cookie_kept(session, idp, caplog):
    """The callback's address replayed, cookie and all (a second tab, a copied address, a
    cookie that outlived its deletion): the state was used, so the provider is not even asked."""
    async with browser() as site:
        start = await site.get("/api/auth/oauth/github/start")
        kept = start.cookies[FLOW_COOKIE]
        back = await visit_provider(start.headers["location"])
        completed(await site.get(back))
        assert FLOW_COOKIE not in site.cookies  # the callback deleted it
        refused(await site.get(back), "GitHub", caplog, "bad_state")
        keep(site, kept)
        refused(await site.get(back), "GitHub", caplog, "bad_state")
    assert len(idp.state.token_requests) == 1
    assert len(users(session)) == 1


async def test_a_stolen_code_is_worth_nothing_without_its_verifier(session, idp, caplog):
    """PKCE: a code intercepted on its way to the victim's browser, slipped into the
    attacker's own sign-in (their state, their cookie), is traded with the attacker's verifier,
    which does not match the victim's challenge: the provider refuses it."""
    async with browser() as victim:
        start = await victim.get("/api/auth/oauth/google/start")
        stolen = parse_qs(urlsplit(await visit_provider(start.headers["location"])).query)
    async with browser() as attacker:
        start = await attacker.get("/api/auth/oauth/google/start")
        answer = await _callback_with(
            attacker, start.headers["location"], lambda q: q | {"code": stolen["code"][0]}
        )
    refused(answer, "Google", caplog, "provider_error")
    assert idp.state.refusals == ["invalid_grant: code_verifier"]
    assert users(session) == []


async def test_a_verifier_changed_in_the_cookie_is_refused_by_the_provider(session, idp, caplog):
    async with browser() as site:
        start = await site.get("/api/auth/oauth/github/start")
        nonce, _dot, verifier = start.cookies[FLOW_COOKIE].partition(".")
        keep(site, f"{nonce}.{verifier[::-1]}")
        answer = await _callback_with(site, start.headers["location"])
    refused(answer, "GitHub", caplog, "provider_error")
    assert idp.state.refusals == ["invalid_grant: code_verifier"]
    assert users(session) == []


@pytest.mark.parametrize(
    ("fault", "why"),
    [
        ("foreign_key", "BadSignatureError"),
        ("unknown_key", "InvalidKeyIdError"),
        ("wrong_audience", "'aud'"),
        ("wrong_nonce", "'nonce'"),
        ("expired", "ExpiredTokenError"),
        ("wrong_issuer", "'iss'"),
    ],
)
async def test_a_bad_google_id_token_is_refused(session, idp, caplog, fault, why):
    """Signed by a key Google does not publish, for another client, for another sign-in (its
    nonce), expired, or from another issuer: no account, and the usual message."""
    idp.state.id_token_fault = fault
    refused(await sign_in("google"), "Google", caplog, "bad_id_token")
    [reason] = [r.getMessage() for r in caplog.records if "ID token refused" in r.getMessage()]
    assert why in reason
    # An unknown key is looked for once more among freshly read keys, and no more.
    assert idp.state.jwks_requests == (2 if fault == "unknown_key" else 1)
    assert users(session) == []
    assert session.exec(select(func.count()).select_from(OAuthAccount)).one() == 0


async def test_googles_keys_are_kept_a_while_and_read_again_when_it_rotates_them(
    session, idp, monkeypatch
):
    completed(await sign_in("google"))
    completed(await sign_in("google"))
    assert idp.state.jwks_requests == 1  # kept between sign-ins
    idp.rotate_key()
    redeem(session, completed(await sign_in("google")))  # a kid it has not seen: read again
    assert idp.state.jwks_requests == 2
    monkeypatch.setattr(oauth, "KEYS_LIFETIME", 0.0)  # as if they had been kept too long
    completed(await sign_in("google"))
    assert idp.state.jwks_requests == 3


async def test_a_refused_code_or_a_cancelled_sign_in_lands_on_the_sign_in_page(
    session, idp, monkeypatch, caplog
):
    monkeypatch.setattr(get_settings(), "github_client_secret", "wrong-secret")
    refused(await sign_in("github"), "GitHub", caplog, "provider_error")
    async with browser() as site:
        cancelled = await site.get(
            "/api/auth/oauth/google/callback", params={"error": "access_denied", "state": "x"}
        )
    refused(cancelled, "Google")
    assert users(session) == []


async def test_an_unreachable_provider_is_a_provider_error(session, idp, monkeypatch, caplog):
    monkeypatch.setattr(get_settings(), "google_token_url", "http://127.0.0.1:9/token")
    refused(await sign_in("google"), "Google", caplog, "provider_error")


@pytest.mark.parametrize(
    "redirect_to", ["//evil.example.com/x", "https://evil.example.com", "/\\evil.example.com"]
)
async def test_only_same_site_destinations_are_kept(session, idp, redirect_to):
    assert completed(await sign_in("google", redirect_to))["redirectTo"] == "/admin"


# --- configuration ----------------------------------------------------------------------------


async def test_providers_without_credentials_are_not_enabled(session, idp, monkeypatch):
    settings = get_settings()
    assert oauth.enabled_providers() == ["google", "github"]
    monkeypatch.setattr(settings, "github_client_secret", None)
    assert oauth.enabled_providers() == ["google"]
    monkeypatch.setattr(settings, "google_client_id", "")
    assert oauth.enabled_providers() == []
    async with browser() as site:
        refused(await site.get("/api/auth/oauth/github/start"), "GitHub")
        unknown = await site.get("/api/auth/oauth/myspace/start")
    assert unknown.headers["location"] == "/sign-in?error=oauth"


def test_errors_carry_the_spec_fallback_message(session, idp):
    with pytest.raises(oauth.OAuthError) as error:
        oauth.accept_state(session=session, provider="github", state="not-a-jwt", kept="n.v")
    assert (error.value.code, error.value.message) == ("bad_state", "Error signing in with GitHub")
