"""The bookings list as CSV: `/api/admin/bookings.csv?status=&q=&from=&to=`, exactly the rows
the admin's filter keeps, streamed in batches. Admins only, decided here on the server from the
session cookie (the page's link protects nothing); every cell is made spreadsheet-safe."""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import Iterator

from sqlmodel import Session
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from storefront import i18n
from storefront import routes as site_routes
from storefront.db import session_scope
from storefront.models import utcnow
from storefront.services import dates
from storefront.services.accounts import auth
from storefront.services.booking import admin_list as admin_booking_list
from storefront.services.booking.admin import AdminBookingError
from storefront.services.booking.admin_list import BookingFilter


def csv_chunks(*, session: Session, actor_id: str, filters: BookingFilter) -> Iterator[str]:
    """The CSV text, a few hundred rows at a time, header first."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(admin_booking_list.CSV_HEADER)
    for n, row in enumerate(
        admin_booking_list.export_rows(session=session, actor_id=actor_id, filters=filters), 1
    ):
        writer.writerow(admin_booking_list.csv_cells(row))
        if n % admin_booking_list.EXPORT_BATCH == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def _admin(token: str | None) -> tuple[str, str] | None:
    """The calling admin's id and back-office language, or None."""
    with session_scope() as session:
        viewer = auth.session_user(session=session, token=token) if token else None
        if viewer is None or not viewer.is_admin:
            return None
        return viewer.user_id, viewer.language or i18n.BACK_OFFICE_DEFAULT


def _stream(actor_id: str, filters: BookingFilter, language: str) -> Iterator[bytes]:
    """The file in the admin's back-office language (the words the bookings list shows them).
    Starlette runs a plain generator in its thread pool, each step in a context of its own: the
    language is set around each step, never across a yield."""
    with session_scope() as session:
        chunks = csv_chunks(session=session, actor_id=actor_id, filters=filters)
        while True:
            with i18n.using(language, office=True):
                chunk = next(chunks, None)
            if chunk is None:
                return
            yield chunk.encode("utf-8")


async def bookings_csv(request: Request) -> Response:
    caller = await asyncio.to_thread(_admin, request.cookies.get(auth.COOKIE_NAME))
    if caller is None:
        return PlainTextResponse("You must be an admin to access this page.", status_code=403)
    actor_id, language = caller
    query = request.query_params
    try:
        filters = admin_booking_list.check_filter(
            status=query.get("status", ""),
            search=query.get("q", ""),
            date_from=query.get("from", ""),
            date_to=query.get("to", ""),
            payment=query.get("paid", ""),
        )
    except AdminBookingError:
        return PlainTextResponse("Bad filter", status_code=400)
    stamp = dates.local_date(utcnow())
    return StreamingResponse(
        _stream(actor_id, filters, language),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="bookings-{stamp}.csv"',
            "Cache-Control": "private, no-store",
        },
    )


routes = [Route(site_routes.ADMIN_BOOKINGS_CSV, bookings_csv, methods=["GET"])]
