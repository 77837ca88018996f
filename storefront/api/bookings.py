"""A booking's calendar file, `/api/bookings/{id}.ics`, and its receipt,
`/api/bookings/{id}/receipt.pdf` (once it has a number: services/payments/receipt_pdf.py), for its
owner, an admin, or the holder of the confirmation mail's signed link (`?key=`), as the
confirmation page; 404 for anyone else."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from storefront.db import session_scope
from storefront.services.accounts import auth
from storefront.services.booking import views as booking_views
from storefront.services.payments import receipt_pdf


def _ics(booking_id: str, token: str | None, key: str | None) -> bytes | None:
    with session_scope() as session:
        viewer = auth.session_user(session=session, token=token) if token else None
        return booking_views.booking_ics(
            session=session,
            booking_id=booking_id,
            viewer_id=viewer.user_id if viewer else "",
            key=key,
        )


async def booking_ics(request: Request) -> Response:
    body = await asyncio.to_thread(
        _ics,
        request.path_params["booking_id"][:64],
        request.cookies.get(auth.COOKIE_NAME),
        request.query_params.get("key"),
    )
    if body is None:
        return PlainTextResponse("Not found", status_code=404)
    return Response(
        body,
        media_type="text/calendar; charset=utf-8",
        headers={
            "Content-Disposition": 'attachment; filename="booking.ics"',
            "Cache-Control": "private, no-store",
        },
    )


def _receipt(booking_id: str, token: str | None, key: str | None):
    with session_scope() as session:
        viewer = auth.session_user(session=session, token=token) if token else None
        view = booking_views.viewable_booking(
            session=session,
            booking_id=booking_id,
            viewer_id=viewer.user_id if viewer else "",
            key=key,
        )
        return receipt_pdf.receipt_document(session, view.id) if view else None


async def booking_receipt(request: Request) -> Response:
    document = await asyncio.to_thread(
        _receipt,
        request.path_params["booking_id"][:64],
        request.cookies.get(auth.COOKIE_NAME),
        request.query_params.get("key"),
    )
    if document is None:
        return PlainTextResponse("Not found", status_code=404)
    return Response(
        document.content,
        media_type=receipt_pdf.PDF_TYPE,
        headers={
            "Content-Disposition": f'attachment; filename="{document.filename}"',
            "Cache-Control": "private, no-store",
        },
    )


routes = [
    Route("/api/bookings/{booking_id}.ics", booking_ics, methods=["GET"]),
    Route("/api/bookings/{booking_id}/receipt.pdf", booking_receipt, methods=["GET"]),
]
