"""Admin Booking Management (docs/product.md §2, 5): the list, its filters, the detail modal and
its status changes; Admin Edit Booking is state/admin_booking_edit.py. AdminStates: the guard
refuses their events to anyone but an admin, every handler asks again who is calling, and the
service checks the role in the database. Every argument from the browser is checked here or
there."""

from __future__ import annotations

import time
from urllib.parse import urlencode

import reflex as rx

from storefront import i18n, routes
from storefront.i18n import N_o, _o, office_ngettext
from storefront.services import paging
from storefront.services.booking import admin as admin_bookings
from storefront.services.booking import admin_list as admin_booking_list
from storefront.services.booking.admin import AdminBookingError
from storefront.services.fields import FieldError
from storefront.services.payments import ledger
from storefront.state.auth import AdminState
from storefront.state.base import call_service, typed_just_now
from storefront.state.errors import log_failure
from storefront.state.payments import AdminPaymentsState
from storefront.state.set_up import SetUpProofState

# What the admin reads, written in English and shown through `_o()` (storefront/i18n.py).
LOAD_FAILED = N_o("Failed to load bookings. Please try again later.")
STATUS_FAILED = N_o("Failed to update booking status. Please try again.")
BOOKING_FAILED = N_o("Failed to load booking. Please try again.")
NOT_FOUND = N_o("Booking not found")
SAVE_FAILED = N_o("An error occurred while saving the booking")
DELETE_FAILED = N_o("An error occurred while deleting the booking")
REQUIRED = N_o("Please fill in all required fields")
SAVED = N_o("Booking updated successfully")
OVERBOOK = N_o("This would overbook: {conflicts}.")
OVERBOOK_CHANGED = N_o(
    "What is in the way changed since you were shown it: {conflicts}. Nothing was changed; "
    "override again only if this is still what you want."
)
CANCEL_FROM_FAILED = N_o("Failed to cancel the pending bookings. Please try again.")
# 'From this address' meant the visitor's internet address, and read as the venue's: each
# message names which it is, its number of bookings with the language's own plural
# (`cancel_from_words`).
CANCEL_FROM_NONE = {
    "email": N_o("No pending bookings from the email {value}."),
    "address": N_o("No pending bookings from the internet address (IP) {value}."),
}
BAD_FILTER = N_o("Please check the filter: a status from the list and dates as DD.MM.YYYY.")
UNDO_DONE = N_o("Booking {reference} is back to {status}.")
UNDO_CHANGED = N_o(
    "The status of this booking changed meanwhile: it is now {status}. Nothing was undone."
)
UNDO_NOTHING = N_o("There is no status change to undo on this booking.")
UNDO_OVERBOOK = N_o(
    "{message} Nothing was undone; to book it anyway, set the status with the buttons above."
)
SAVE_REDIRECT_SECONDS = 1.5
# The list's filter in the address: ?status=&q=&from=&to=&page=, each cut to its length.
LIMITS = {
    "status": 16,
    "paid": 16,
    "q": admin_booking_list.SEARCH_MAX,
    "from": 10,
    "to": 10,
    "page": 6,
}
PAYMENT_STATES = list(ledger.PAYMENT_STATES)
STATUSES = list(admin_booking_list.STATUSES)
# A status as the list, its filter and the status buttons name it.
STATUS_LABELS = {
    "pending": N_o("pending"),
    "confirmed": N_o("confirmed"),
    "on_the_way": N_o("on the way"),
    "completed": N_o("completed"),
    "cancelled": N_o("cancelled"),
}
# A status as the notice of a change, the override button and the week calendar name it: by its
# code, as the English copy has always shown it ('on_the_way').
STATUS_CODES = {
    "pending": N_o("pending"),
    "confirmed": N_o("confirmed"),
    "on_the_way": N_o("on_the_way"),
    "completed": N_o("completed"),
    "cancelled": N_o("cancelled"),
}


def cancel_from_words(step: str, by: str, count: int, value: str, references: str = "") -> str:
    """The question before cancelling a flood ('ask') and the notice after it ('done'), for an
    email or an internet address, with the count in the plural form of the language of the
    moment: 'Cancel 3 pending bookings from the internet address (IP) 203.0.113.9: ...?'."""
    if step == "ask" and by == "email":
        text = office_ngettext(
            "Cancel {count} pending booking from the email {value}: {references}?",
            "Cancel {count} pending bookings from the email {value}: {references}?",
            count,
        )
    elif step == "ask":
        text = office_ngettext(
            "Cancel {count} pending booking placed from the internet address (IP) {value}: "
            "{references}?",
            "Cancel {count} pending bookings placed from the internet address (IP) {value}: "
            "{references}?",
            count,
        )
    elif by == "email":
        text = office_ngettext(
            "Cancelled {count} pending booking from the email {value}.",
            "Cancelled {count} pending bookings from the email {value}.",
            count,
        )
    else:
        text = office_ngettext(
            "Cancelled {count} pending booking placed from the internet address (IP) {value}.",
            "Cancelled {count} pending bookings placed from the internet address (IP) {value}.",
            count,
        )
    return text.format(count=count, value=value, references=references)


def status_label(status: str) -> str:
    """'on_the_way' -> 'on the way', in the language of the moment."""
    label = STATUS_LABELS.get(status)
    return _o(label) if label else status.replace("_", " ")


def status_code(status: str) -> str:
    """'on_the_way' -> 'on_the_way' in English, its word in the language of the moment."""
    code = STATUS_CODES.get(status)
    return _o(code) if code else status


def overbook_message(exc: AdminBookingError) -> str:
    """The refusal of an overbooking, or of an override whose conflicts changed meanwhile."""
    text = OVERBOOK_CHANGED if exc.details.get("changed") else OVERBOOK
    return _o(text).format(conflicts="; ".join(str(c) for c in exc.details.get("conflicts", [])))


def _row(row: admin_booking_list.AdminBookingRow) -> dict[str, str]:
    guests = (
        office_ngettext("{count} guest", "{count} guests", row.guest_count).format(
            count=row.guest_count
        )
        if row.guest_count is not None
        else ""
    )
    return {
        "id": row.id,
        "short_id": row.short_id,
        "reference": row.reference,
        "customer": row.customer,
        "email": row.email,
        "event": " · ".join(p for p in (row.event_type, guests) if p),
        "date": row.event_date,
        "total": row.total_label,
        "balance": row.balance_label,
        "money_state": row.money_state,
        "status": row.status,
        "status_label": status_label(row.status),
        "edit_url": i18n.href(routes.with_id(routes.ADMIN_BOOKING_EDIT, row.id)),
    }


class AdminBookingsState(AdminState):
    rows: list[dict[str, str]] = []
    total: int = 0
    page: int = 1
    pages: int = 1
    loading: bool = False
    status_filter: str = "all"
    payment_filter: str = "all"
    search: str = ""
    date_from: str = ""
    date_to: str = ""
    # The filter of the list shown (from the address: a reload or a shared link keeps it); the
    # fields above are what is typed, applied by Search.
    applied: dict[str, str] = {}
    notice: str = ""
    error: str = ""
    # The detail modal.
    detail_open: bool = False
    detail: dict[str, str] = {}
    detail_lines: list[dict[str, str]] = []
    detail_error: str = ""
    conflicts: list[str] = []
    asked_status: str = ""
    # The fingerprint of the conflicts shown: an override confirms exactly those (server-side).
    _fingerprint: str = ""
    # When the filter was last typed into: the page's on_load, which may run a moment after a
    # visitor's first keys (or the browser's autofill), keeps what was typed then instead of
    # blanking it, unless the address names a filter (a reload, a shared link: it wins).
    _typed_at: float = 0.0
    # 'Cancel pending from this email / address': 'email' or 'address' while it asks.
    cancel_by: str = ""
    cancel_question: str = ""
    # 'Undo' of the latest status change: its refusal (a missing reason, a race, capacity).
    undo_error: str = ""

    @rx.var
    def csv_url(self) -> str:
        """The export of exactly the list shown (the route checks the admin itself)."""
        query = {k: v for k, v in self.applied.items() if k != "page"}
        return routes.ADMIN_BOOKINGS_CSV + (f"?{urlencode(query)}" if query else "")

    def _typed_query(self, page: int = 1) -> dict[str, str]:
        query = {
            "status": "" if self.status_filter == "all" else self.status_filter,
            "paid": "" if self.payment_filter == "all" else self.payment_filter,
            "q": self.search.strip(),
            "from": self.date_from,
            "to": self.date_to,
            "page": str(page) if page > 1 else "",
        }
        return {k: v for k, v in query.items() if v}

    def _go(self, query: dict[str, str]):
        """Show the list of `query` and put it in the address."""
        return rx.redirect(
            i18n.href(routes.ADMIN_BOOKINGS + (f"?{urlencode(query)}" if query else ""))
        )

    def _filters(self) -> admin_booking_list.BookingFilter:
        return admin_booking_list.check_filter(
            status=self.applied.get("status") or "all",
            search=self.applied.get("q", ""),
            date_from=self.applied.get("from", ""),
            date_to=self.applied.get("to", ""),
            payment=self.applied.get("paid") or "all",
        )

    async def _reload(self, caller: str) -> None:
        try:
            filters = self._filters()
        except AdminBookingError:
            self.error = _o(BAD_FILTER)
            return
        self.loading = True
        try:
            found = await call_service(
                admin_booking_list.list_bookings, actor_id=caller, filters=filters, page=self.page
            )
        except Exception as exc:
            log_failure("AdminBookingsState._reload", exc)
            self.rows, self.total, self.error = [], 0, _o(LOAD_FAILED)
        else:
            self.rows = [_row(r) for r in found.rows]
            self.total, self.page, self.pages = found.total, found.page, found.pages
        finally:
            self.loading = False

    @rx.event
    async def load(self):
        """on_load: the list of the filter in the address."""
        self.notice = self.error = ""
        self.detail_open = False
        params = self.router.url.query_parameters
        given = {k: str(params.get(k) or "")[: LIMITS[k]] for k in LIMITS}
        self.applied = {k: v for k, v in given.items() if v}
        self.status_filter = given["status"] if given["status"] in STATUSES else "all"
        self.payment_filter = given["paid"] if given["paid"] in PAYMENT_STATES else "all"
        if self.applied or not typed_just_now(self._typed_at):  # the address's filter wins
            self.search, self.date_from, self.date_to = given["q"], given["from"], given["to"]
        self._typed_at = 0.0
        self.page = int(given["page"]) if given["page"].isdigit() else 1
        caller = await self._admin_id()
        if caller:
            await self._reload(caller)

    @rx.event
    async def refresh(self):
        caller = await self._admin_id()
        if caller:
            await self._reload(caller)

    @rx.event
    def type_search(self, value: str):
        self.search, self._typed_at = str(value)[: admin_booking_list.SEARCH_MAX], time.time()

    @rx.event
    def type_date_from(self, value: str):
        self.date_from, self._typed_at = str(value)[:10], time.time()

    @rx.event
    def type_date_to(self, value: str):
        self.date_to, self._typed_at = str(value)[:10], time.time()

    @rx.event
    def choose_status(self, value: str):
        value = str(value)
        self.status_filter = value if value in STATUSES else "all"
        return self._go(self._typed_query())

    @rx.event
    def choose_payment(self, value: str):
        value = str(value)
        self.payment_filter = value if value in PAYMENT_STATES else "all"
        return self._go(self._typed_query())

    @rx.event
    def apply_filters(self, _form: dict | None = None):
        return self._go(self._typed_query())

    @rx.event
    def clear_filters(self):
        self.status_filter, self.search, self.date_from, self.date_to = "all", "", "", ""
        self.payment_filter = "all"
        self._typed_at = 0.0
        return self._go({})

    @rx.event
    def next_page(self):
        return self._go(self.applied | {"page": str(paging.next_page(self.page, self.pages))})

    @rx.event
    def previous_page(self):
        page = paging.previous_page(self.page)
        return self._go(
            {k: v for k, v in self.applied.items() if k != "page"}
            | ({"page": str(page)} if page > 1 else {})
        )

    # --- the detail modal ---------------------------------------------------------------------

    @rx.event
    async def open_detail(self, booking_id: str):
        caller = await self._admin_id()
        if not caller:
            return
        self.detail_error, self.conflicts, self.asked_status = "", [], ""
        self.cancel_by, self.cancel_question, self.undo_error = "", "", ""
        if await self._load_detail(caller, str(booking_id)[:64]):
            return [
                AdminPaymentsState.show(self.detail["id"]),
                SetUpProofState.show(self.detail["id"]),
            ]

    async def _load_detail(self, caller: str, booking_id: str) -> bool:
        """Fill the detail modal with the booking as it is now; False when it cannot be read."""
        try:
            found = await call_service(
                admin_booking_list.booking_detail, actor_id=caller, booking_id=booking_id
            )
        except AdminBookingError as exc:
            self.error = _o(NOT_FOUND) if exc.code == "not_found" else _o(BOOKING_FAILED)
            return False
        except Exception as exc:
            log_failure("AdminBookingsState.open_detail", exc, booking=booking_id)
            self.error = _o(BOOKING_FAILED)
            return False
        view = found.view
        self.detail = {
            "id": view.id,
            "short_id": view.id[:8],
            "reference": view.reference,
            "customer": found.customer,
            "email": view.contact_email,
            "phone": view.contact_phone,
            "client_address": found.client_address,
            "venue": ", ".join(p for p in (view.venue_address, view.city) if p),
            "event_type": view.event_type,
            "guests": "" if view.guest_count is None else str(view.guest_count),
            "created_at": view.created_at,
            "total": view.total_label,
            # What it owes besides its lines (issue 36): '25,00 € (Gjakovë)', the deposit.
            "transport": f"{view.transport_label} ({view.municipality})"
            if view.transport_label
            else "—",
            "deposit": view.deposit_label or "—",
            "status": view.status,
            "status_label": status_label(view.status),
            "undo_to": found.undo_to,
            "undo_label": status_label(found.undo_to) if found.undo_to else "",
            "special_requests": view.special_requests or _o("None"),
            "edit_url": i18n.href(routes.with_id(routes.ADMIN_BOOKING_EDIT, view.id)),
            # the declared fields the modal shows after the others (pages/admin/bookings.py)
            **{f"field_{name}": value or "—" for name, value in view.extra.items()},
        }
        self.detail_lines = [
            {
                "name": line.service_name,
                "quantity": str(line.quantity),
                "when": f"{line.date} {line.start_time}–{line.end_time}",
                "total": line.line_total_label,
                "status": status_label(line.status),
            }
            for line in view.lines
        ]
        self.detail_open = True
        return True

    @rx.event
    def close_detail(self, _open: bool = False):
        self.detail_open = False
        self.conflicts, self.asked_status, self._fingerprint = [], "", ""
        self.cancel_by, self.cancel_question, self.undo_error = "", "", ""
        # A payment recorded in it shows in the list's balance.
        return AdminBookingsState.refresh

    async def _set_status(self, status: str, override: str):
        caller = await self._admin_id()
        if not caller or not self.detail.get("id"):
            return
        status = str(status)
        if status not in STATUSES:
            self.detail_error = _o(STATUS_FAILED)
            return
        try:
            await call_service(
                admin_bookings.set_status,
                actor_id=caller,
                booking_id=self.detail["id"],
                status=status,
                override=override,
            )
        except AdminBookingError as exc:
            if exc.code == "over_capacity":
                self.conflicts = [str(c) for c in exc.details.get("conflicts", [])]
                self._fingerprint = str(exc.details.get("fingerprint", ""))
                self.asked_status = status
                self.detail_error = overbook_message(exc)
            else:
                self.detail_error = _o(NOT_FOUND) if exc.code == "not_found" else _o(STATUS_FAILED)
            return
        except Exception as exc:
            log_failure("AdminBookingsState._set_status", exc, booking=self.detail.get("id"))
            self.detail_error = _o(STATUS_FAILED)
            return
        self.detail_error, self.conflicts, self.asked_status = "", [], ""
        self._fingerprint, self.undo_error = "", ""
        self.notice = _o("Booking status updated to {status}").format(status=status_code(status))
        await self._load_detail(caller, self.detail["id"])
        await self._reload(caller)

    @rx.event
    async def change_status(self, status: str):
        await self._set_status(status, override="")

    @rx.event
    async def override_status(self):
        """The admin read the overbooking warning and confirms anyway (logged): the conflicts
        shown, which the server compares with those of this moment."""
        if self.asked_status:
            await self._set_status(self.asked_status, override=self._fingerprint)

    @rx.event
    def keep_status(self):
        self.conflicts, self.asked_status, self.detail_error = [], "", ""
        self._fingerprint = ""

    # --- undoing a status ----------------------------------------------------------------------

    @rx.event
    async def undo_status(self, form: dict | None = None):
        """'Undo': the booking back to the status before its latest change, with the reason
        the admin typed (required; audited with from and to). The form keeps what was typed
        until it succeeds."""
        caller = await self._admin_id()
        if not caller or not self.detail.get("id") or not self.detail.get("undo_to"):
            return
        typed = form.get("reason") if isinstance(form, dict) else ""
        reason = str(typed or "")[: admin_bookings.REASON_MAX * 2]
        booking_id, self.undo_error, self.detail_error = self.detail["id"], "", ""
        try:
            done = await call_service(
                admin_bookings.undo_status,
                actor_id=caller,
                booking_id=booking_id,
                reason=reason,
                seen=self.detail.get("status", ""),
            )
        except FieldError as exc:
            self.undo_error = exc.message
            return
        except AdminBookingError as exc:
            if exc.code == "over_capacity":
                self.undo_error = _o(UNDO_OVERBOOK).format(message=overbook_message(exc))
            elif exc.code in ("changed", "nothing_to_undo"):
                await self._load_detail(caller, booking_id)
                self.undo_error = (
                    _o(UNDO_CHANGED).format(status=self.detail.get("status_label", ""))
                    if exc.code == "changed"
                    else _o(UNDO_NOTHING)
                )
            else:
                self.undo_error = _o(NOT_FOUND) if exc.code == "not_found" else _o(STATUS_FAILED)
            return
        except Exception as exc:
            log_failure("AdminBookingsState.undo_status", exc, booking=booking_id)
            self.undo_error = _o(STATUS_FAILED)
            return
        self.conflicts, self.asked_status, self._fingerprint = [], "", ""
        self.notice = _o(UNDO_DONE).format(
            reference=self.detail.get("reference", ""), status=status_label(done.status)
        )
        await self._load_detail(caller, booking_id)
        await self._reload(caller)

    # --- cancelling a flood -------------------------------------------------------------------

    @rx.event
    async def ask_cancel_from(self, by: str):
        """'Cancel pending from this email / address': say how many and which, and ask."""
        caller = await self._admin_id()
        if not caller or not self.detail.get("id") or by not in admin_bookings.CANCEL_BY:
            return
        self.cancel_by, self.cancel_question, self.detail_error = "", "", ""
        try:
            found = await call_service(
                admin_bookings.pending_from,
                actor_id=caller,
                booking_id=self.detail["id"],
                by=by,
            )
        except AdminBookingError as exc:
            # The service's words, marked there (services/booking/admin.py `_source`).
            self.detail_error = (
                _o(exc.message) if exc.code == "not_found" else _o(CANCEL_FROM_FAILED)
            )
            return
        except Exception as exc:
            log_failure("AdminBookingsState.ask_cancel_from", exc, booking=self.detail.get("id"))
            self.detail_error = _o(CANCEL_FROM_FAILED)
            return
        if not found.references:
            self.detail_error = _o(CANCEL_FROM_NONE[by]).format(value=found.value)
            return
        self.cancel_by = by
        self.cancel_question = cancel_from_words(
            "ask", by, len(found.references), found.value, ", ".join(found.references)
        )

    @rx.event
    async def confirm_cancel_from(self):
        caller = await self._admin_id()
        if not caller or not self.detail.get("id") or not self.cancel_by:
            return
        by, self.cancel_by, self.cancel_question = self.cancel_by, "", ""
        try:
            done = await call_service(
                admin_bookings.cancel_pending_from,
                actor_id=caller,
                booking_id=self.detail["id"],
                by=by,
            )
        except Exception as exc:
            log_failure(
                "AdminBookingsState.confirm_cancel_from", exc, booking=self.detail.get("id")
            )
            self.detail_error = _o(CANCEL_FROM_FAILED)
            return
        self.detail_open = False
        self.notice = cancel_from_words("done", by, len(done.references), done.value)
        await self._reload(caller)

    @rx.event
    def keep_pending(self):
        self.cancel_by, self.cancel_question = "", ""
