"""The cookie side of signing in and out: plain HTTP routes, because events cannot set an
HttpOnly cookie. The browser arrives here with a one-time ticket and leaves with the cookie."""

from __future__ import annotations

import asyncio
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import RedirectResponse
from starlette.routing import Route

from storefront import routes as site_routes
from storefront.db import session_scope
from storefront.services import auth
from storefront.settings import get_settings


def _redeem(ticket: str, user_agent: str, ip: str) -> tuple[str, bool]:
    with session_scope() as session:
        token = auth.redeem_ticket(session=session, ticket=ticket, user_agent=user_agent, ip=ip)
        remember = bool(auth.session_is_remembered(session=session, token=token))
    return token, remember


def _end(token: str | None) -> None:
    with session_scope() as session:
        auth.sign_out(session=session, token=token)


def _secure() -> bool:
    return get_settings().public_url.startswith("https://")


async def complete(request: Request) -> RedirectResponse:
    target = auth.safe_redirect(request.query_params.get("redirectTo"))
    ip = request.client.host if request.client else ""
    try:
        token, remember = await asyncio.to_thread(
            _redeem,
            request.query_params.get("ticket", ""),
            request.headers.get("user-agent", ""),
            ip,
        )
    except auth.AuthError:
        return RedirectResponse(f"/sign-in?redirectTo={quote(target)}&error=expired", 303)
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(
        auth.COOKIE_NAME,
        token,
        max_age=auth.cookie_max_age(remember),
        httponly=True,
        samesite="lax",
        secure=_secure(),
        path="/",
    )
    response.headers["Cache-Control"] = "no-store"
    return response


async def sign_out(request: Request) -> RedirectResponse:
    await asyncio.to_thread(_end, request.cookies.get(auth.COOKIE_NAME))
    response = RedirectResponse(
        auth.safe_redirect(request.query_params.get("redirectTo"), "/"), 303
    )
    response.delete_cookie(
        auth.COOKIE_NAME, path="/", httponly=True, samesite="lax", secure=_secure()
    )
    response.headers["Cache-Control"] = "no-store"
    return response


routes = [
    Route(site_routes.AUTH_COMPLETE, complete, methods=["GET"]),
    Route(site_routes.AUTH_SIGN_OUT, sign_out, methods=["GET", "POST"]),
]
