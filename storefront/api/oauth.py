"""Sign in with Google or GitHub: the start and callback routes (the rules are in
services/accounts/oauth.py).

The callback never sets the session cookie itself: like every other sign-in it hands the browser
a single-use ticket for the cookie route (docs/architecture.md §4). Whatever goes wrong, the browser
lands on the sign-in page with a generic error; the reason goes to the log only."""

from __future__ import annotations

import asyncio
import logging
import uuid
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse
from starlette.routing import Route

from storefront import i18n
from storefront import routes as site_routes
from storefront.api.auth import set_binding_cookie
from storefront.db import session_scope
from storefront.services.accounts import auth, oauth, two_factor
from storefront.settings import get_settings

log = logging.getLogger(__name__)

# Holds what binds a provider's answer to the browser that asked: the nonce and the PKCE code
# verifier (`oauth.Start.kept`).
FLOW_COOKIE = "sf_oauth_flow"
FLOW_COOKIE_PATH = "/api/auth/oauth"


def _failure(provider: str, lang: str = i18n.DEFAULT) -> RedirectResponse:
    query = {"error": "oauth"}
    if provider in oauth.PROVIDERS:
        query["provider"] = oauth.provider_label(provider)
    sign_in = i18n.href(site_routes.SIGN_IN, lang)
    response = RedirectResponse(f"{sign_in}?{urlencode(query)}", status_code=302)
    response.delete_cookie(FLOW_COOKIE, path=FLOW_COOKIE_PATH)
    return response


async def start(request: Request) -> RedirectResponse:
    provider = request.path_params["provider"]
    try:
        begun = oauth.begin(provider, redirect_to=request.query_params.get("redirectTo"))
    except oauth.OAuthError as error:
        log.info("OAuth start refused for %r: %s", provider[:32], error.code)
        return _failure(provider)
    response = RedirectResponse(begun.url, status_code=302)
    response.set_cookie(
        FLOW_COOKIE,
        begun.kept,
        max_age=int(oauth.STATE_LIFETIME.total_seconds()),
        path=FLOW_COOKIE_PATH,
        httponly=True,
        samesite="lax",  # sent on the provider's top-level redirect back to us
        secure=get_settings().public_url.startswith("https://"),
    )
    return response


def _finish(provider: str, code: str, state: str, kept: str | None) -> tuple[uuid.UUID, str, bool]:
    # The state is used up before the provider is asked anything, and no transaction stays
    # open while it answers.
    with session_scope() as session:
        flow = oauth.accept_state(session=session, provider=provider, state=state, kept=kept)
    profile = oauth.fetch_profile(flow, code)
    with session_scope() as session:
        user_id = oauth.account_for(session=session, provider=provider, profile=profile)
        needs_code = two_factor.is_enabled(session=session, user_id=user_id)
    return user_id, flow.redirect_to, needs_code


def _second_step(user_id: uuid.UUID, redirect_to: str) -> RedirectResponse:
    """An account with two-factor on: the provider's word is the first step only. The sign-in
    page asks for the code, with this browser's ticket in an HttpOnly cookie."""
    query = urlencode({"step": two_factor.SIGN_IN_STEP, "redirectTo": redirect_to})
    sign_in = i18n.href(site_routes.SIGN_IN, i18n.site_language_of(redirect_to))
    response = RedirectResponse(f"{sign_in}?{query}", status_code=302)
    response.delete_cookie(FLOW_COOKIE, path=FLOW_COOKIE_PATH)
    response.set_cookie(
        two_factor.PENDING_COOKIE,
        two_factor.pending_ticket(user_id, remember=True),
        max_age=int(two_factor.PENDING_LIFETIME.total_seconds()),
        path="/",
        httponly=True,
        samesite="lax",
        secure=get_settings().public_url.startswith("https://"),
    )
    return response


async def callback(request: Request) -> RedirectResponse:
    provider = request.path_params["provider"]
    params = request.query_params
    if params.get("error"):  # the person cancelled, or the provider refused
        log.info("OAuth %r answered error %r", provider[:32], params.get("error", "")[:64])
        return _failure(provider)
    try:
        user_id, redirect_to, needs_code = await asyncio.to_thread(
            _finish,
            provider,
            params.get("code", ""),
            params.get("state", ""),
            request.cookies.get(FLOW_COOKIE),
        )
        if needs_code:
            return _second_step(user_id, redirect_to)
        binding = auth.new_binding()
        ticket = auth.issue_ticket(user_id, remember=True, binding=binding)
    except oauth.OAuthError as error:
        log.info("OAuth sign-in with %r refused: %s", provider[:32], error.code)
        return _failure(provider)
    except Exception:
        log.exception("OAuth sign-in with %r failed", provider[:32])
        return _failure(provider)
    response = RedirectResponse(auth.completion_url(ticket, redirect_to), status_code=302)
    response.delete_cookie(FLOW_COOKIE, path=FLOW_COOKIE_PATH)
    set_binding_cookie(response, binding)
    return response


routes = [
    Route(site_routes.OAUTH_START, start, methods=["GET"]),
    Route(site_routes.OAUTH_CALLBACK, callback, methods=["GET"]),
]
