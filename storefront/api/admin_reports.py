"""The owner's reports as CSV: `/api/admin/reports/{table}.csv?month=YYYY-MM`, one file per table
of /admin/reports (services/operations/reports.TABLES), the rows the screen shows (the unpaid
table with every row). Admins only, decided here on the server from the session cookie; headers
and words in the admin's back-office language, amounts as plain numbers ('1234.50'), every text
cell made spreadsheet-safe."""

from __future__ import annotations

import asyncio
import csv
import io
from decimal import Decimal, InvalidOperation

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from storefront import i18n
from storefront import routes as site_routes
from storefront.api.admin_export import _admin
from storefront.db import session_scope
from storefront.i18n import _o
from storefront.services.accounts import auth
from storefront.services.booking.admin_list import spreadsheet_safe
from storefront.services.operations import reports


def _cell(text: str) -> str:
    """A number as it is (a reversal's '-60.00' is no formula); any other text made safe."""
    try:
        Decimal(text)
    except (InvalidOperation, ValueError):
        return spreadsheet_safe(text)
    return text


def _csv(actor_id: str, language: str, table: str, month: str) -> tuple[str, str]:
    """The file's text and its month's key, or ReportError."""
    with session_scope() as session, i18n.using(language, office=True):
        header, body, chosen = reports.table_rows(
            session=session, actor_id=actor_id, table=table, month=month
        )
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow([_o(h) for h in header])
        writer.writerows([[_cell(c) for c in row] for row in body])
        return buffer.getvalue(), chosen.key


async def report_csv(request: Request) -> Response:
    caller = await asyncio.to_thread(_admin, request.cookies.get(auth.COOKIE_NAME))
    if caller is None:
        return PlainTextResponse("You must be an admin to access this page.", status_code=403)
    table = request.path_params["table"]
    if table not in reports.TABLES:
        return PlainTextResponse("No such report", status_code=404)
    actor_id, language = caller
    try:
        text, month = await asyncio.to_thread(
            _csv, actor_id, language, table, request.query_params.get("month", "")
        )
    except reports.ReportError as exc:
        if exc.code in ("invalid_month", "invalid_table"):
            return PlainTextResponse("Bad month", status_code=400)
        return PlainTextResponse("You must be an admin to access this page.", status_code=403)
    return Response(
        text.encode("utf-8"),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="reports-{table}-{month}.csv"',
            "Cache-Control": "private, no-store",
        },
    )


routes = [Route(site_routes.ADMIN_REPORTS_CSV, report_csv, methods=["GET"])]
