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

from storefront import routes as site_routes
from storefront.db import session_scope
from storefront.models import utcnow
from storefront.services import admin_booking_list, auth, dates
from storefront.services.admin_booking_list import BookingFilter
from storefront.services.admin_bookings import AdminBookingError


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


def _admin(token: str | None) -> str | None:
    with session_scope() as session:
        viewer = auth.session_user(session=session, token=token) if token else None
        return viewer.user_id if viewer and viewer.is_admin else None


def _stream(actor_id: str, filters: BookingFilter) -> Iterator[bytes]:
    # Starlette runs a plain generator in its thread pool: the database is read off the loop.
    with session_scope() as session:
        for chunk in csv_chunks(session=session, actor_id=actor_id, filters=filters):
            yield chunk.encode("utf-8")


async def bookings_csv(request: Request) -> Response:
    actor_id = await asyncio.to_thread(_admin, request.cookies.get(auth.COOKIE_NAME))
    if actor_id is None:
        return PlainTextResponse("You must be an admin to access this page.", status_code=403)
    query = request.query_params
    try:
        filters = admin_booking_list.check_filter(
            status=query.get("status", ""),
            search=query.get("q", ""),
            date_from=query.get("from", ""),
            date_to=query.get("to", ""),
        )
    except AdminBookingError:
        return PlainTextResponse("Bad filter", status_code=400)
    stamp = dates.local_date(utcnow())
    return StreamingResponse(
        _stream(actor_id, filters),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="bookings-{stamp}.csv"',
            "Cache-Control": "private, no-store",
        },
    )


routes = [Route(site_routes.ADMIN_BOOKINGS_CSV, bookings_csv, methods=["GET"])]
