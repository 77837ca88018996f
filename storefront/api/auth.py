"""The cookie side of signing in and out: plain HTTP routes, because events cannot set an
HttpOnly cookie. The browser arrives here with a one-time ticket and the `sf_bind` cookie of the
page that signed in, and leaves with the session cookie. Signing out is a POST from this site."""

from __future__ import annotations

import asyncio
from urllib.parse import quote, urlsplit

from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from storefront import i18n
from storefront import routes as site_routes
from storefront.db import in_transaction
from storefront.services.accounts import auth, two_factor
from storefront.settings import get_settings

BIND_COOKIE_PATH = "/api/auth"


def client_ip(request: Request) -> str:
    """The visitor's address, behind the trusted proxies of settings. Every X-Forwarded-For
    line counts, joined in order as the websocket joins them (Reflex's `_decode_asgi_headers`):
    a client's own line comes first, the trusted proxy's last."""
    peer = request.client.host if request.client else ""
    forwarded = ", ".join(request.headers.getlist("x-forwarded-for"))
    return auth.client_address(peer, forwarded, get_settings().trusted_proxy_hops)


def _redeem(ticket: str, binding: str | None, user_agent: str, ip: str) -> tuple[str, bool, str]:
    def redeem(session) -> tuple[str, bool, str]:
        token, remember = auth.redeem_ticket(
            session=session, ticket=ticket, binding=binding, user_agent=user_agent, ip=ip
        )
        user = auth.session_user(session=session, token=token)
        return token, remember, user.user_id if user else ""

    return in_transaction(redeem)


def _end(token: str | None) -> None:
    in_transaction(lambda session: auth.sign_out(session=session, token=token))


def _secure() -> bool:
    return get_settings().public_url.startswith("https://")


def set_binding_cookie(response: Response, binding: str) -> None:
    """For sign-ins that start on a route (OAuth); the sign-in form's page sets it itself."""
    response.set_cookie(
        auth.BIND_COOKIE,
        binding,
        max_age=int(auth.TICKET_LIFETIME.total_seconds()),
        path=BIND_COOKIE_PATH,
        httponly=True,
        samesite="lax",
        secure=_secure(),
    )


async def complete(request: Request) -> Response:
    target = auth.safe_redirect(request.query_params.get("redirectTo"))
    try:
        token, remember, user_id = await asyncio.to_thread(
            _redeem,
            request.query_params.get("ticket", ""),
            request.cookies.get(auth.BIND_COOKIE),
            request.headers.get("user-agent", ""),
            client_ip(request),
        )
    except auth.AuthError:
        # The sign-in page of the edition the visitor was going to (storefront/i18n.py).
        sign_in = i18n.href(site_routes.SIGN_IN, i18n.site_language_of(target))
        response = RedirectResponse(f"{sign_in}?redirectTo={quote(target)}&error=expired", 303)
        response.delete_cookie(auth.BIND_COOKIE, path=BIND_COOKIE_PATH)
        return response
    response = RedirectResponse(target, status_code=303)
    common = {"httponly": True, "samesite": "lax", "secure": _secure(), "path": "/"}
    response.set_cookie(auth.COOKIE_NAME, token, max_age=auth.cookie_max_age(remember), **common)
    # This browser has signed in to this account: the per-account slowdown spares it.
    response.set_cookie(
        auth.DEVICE_COOKIE,
        auth.device_key(user_id),
        max_age=int(auth.DEVICE_LIFETIME.total_seconds()),
        **common,
    )
    response.delete_cookie(auth.BIND_COOKIE, path=BIND_COOKIE_PATH)
    response.delete_cookie(two_factor.PENDING_COOKIE, path="/")  # an OAuth second step's
    response.headers["Cache-Control"] = "no-store"
    return response


def same_site_origin(request: Request) -> bool:
    """A state-changing request must come from a page of this site: its Origin (or, failing
    that, its Referer) is the public address or one of the allowed origins."""
    settings = get_settings()
    allowed = {_origin(settings.public_url), *(_origin(o) for o in settings.cors_origin_list)}
    sent = request.headers.get("origin") or _origin(request.headers.get("referer", ""))
    return bool(sent) and sent != "null" and sent in allowed


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


async def sign_out(request: Request) -> Response:
    if not same_site_origin(request):
        return PlainTextResponse("Forbidden", status_code=403)
    await asyncio.to_thread(_end, request.cookies.get(auth.COOKIE_NAME))
    response = RedirectResponse(
        auth.safe_redirect(request.query_params.get("redirectTo"), "/"), 303
    )
    response.delete_cookie(
        auth.COOKIE_NAME, path="/", httponly=True, samesite="lax", secure=_secure()
    )
    response.headers["Cache-Control"] = "no-store"
    return response


async def sign_out_by_get(_request: Request) -> Response:
    """A link or an image must not sign anyone out: only this site's POST does."""
    return PlainTextResponse("Method Not Allowed", status_code=405, headers={"Allow": "POST"})


routes = [
    Route(site_routes.AUTH_COMPLETE, complete, methods=["GET"]),
    Route(site_routes.AUTH_SIGN_OUT, sign_out, methods=["POST"]),
    Route(site_routes.AUTH_SIGN_OUT, sign_out_by_get, methods=["GET"]),
]
