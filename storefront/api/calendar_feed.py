"""An admin's or staff member's calendar subscription: `GET /api/calendar/{token}.ics`
(services/accounts/calendar_feed.py). Every answer but the calendar itself is the same 404, whatever the
reason, so the address tells nothing about tokens that existed or accounts that changed; and
none of it is kept by a proxy or a browser cache."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from storefront import routes
from storefront.db import in_transaction
from storefront.services.accounts import calendar_feed

# Private to its holder, and out of date within the hour: never stored on the way.
HEADERS = {"Cache-Control": "private, no-store, max-age=0", "Pragma": "no-cache"}


def _feed(token: str) -> bytes | None:
    return in_transaction(lambda session: calendar_feed.feed(session=session, token=token))


async def calendar(request: Request) -> Response:
    body = await asyncio.to_thread(_feed, request.path_params["token"][:64])
    if body is None:
        return PlainTextResponse("Not found", status_code=404, headers=HEADERS)
    return Response(
        body,
        media_type="text/calendar; charset=utf-8",
        headers={
            **HEADERS,
            "Content-Disposition": 'inline; filename="bookings.ics"',
            "X-Robots-Tag": "noindex",
        },
    )


routes = [Route(routes.CALENDAR_FEED, calendar, methods=["GET"])]
