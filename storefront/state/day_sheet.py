"""The day sheet (/admin/day/{date}): one day's jobs for staff and admins. A StaffState: the guard
refuses its events to anyone else, and the day-sheet and bookings services check the role
again."""

from __future__ import annotations

import uuid
from datetime import date

import reflex as rx

from storefront import i18n, routes
from storefront.i18n import N_o, _o
from storefront.services import dates
from storefront.services.booking.admin import AdminBookingError, set_status
from storefront.services.fields import FieldError
from storefront.services.money import format_price
from storefront.services.operations import day_sheet
from storefront.services.payments import ledger
from storefront.state.admin_bookings import status_label
from storefront.state.auth import StaffState
from storefront.state.base import call_service
from storefront.state.errors import log_failure
from storefront.state.payments import payment_message

LOAD_FAILED = N_o("Failed to load the day sheet. Please try again.")
BAD_DAY = N_o("Please give the day as DD.MM.YYYY.")
STATUS_FAILED = N_o("Failed to update booking status. Please try again.")
STATUS_DONE = N_o("Booking {reference} is now {status}.")
NOTE_FAILED = N_o("Failed to save the note. Please try again.")
NOTE_SAVED = N_o("Note saved.")
COLLECT_FAILED = N_o("Failed to record the payment. Please try again.")
COLLECTED = N_o("{amount} collected for {reference}.")


def day_url(day: date) -> str:
    return i18n.href(routes.with_id(routes.ADMIN_DAY_OF, day.isoformat()))


def load_url(day: date) -> str:
    return i18n.href(routes.with_id(routes.ADMIN_DAY_LOAD_OF, day.isoformat()))


class DaySheetState(StaffState):
    day: str = ""  # YYYY-MM-DD of the sheet shown
    title: str = ""  # 'Wednesday, 25.11.2026'
    business_name: str = ""  # the printout's header
    previous_url: str = ""
    next_url: str = ""
    today_url: str = ""
    bookings: list[day_sheet.SheetBooking] = []
    loaded: bool = False
    notice: str = ""
    error: str = ""
    # The booking whose status is being changed (its buttons wait), and whose note is typed.
    busy: str = ""
    note_for: str = ""
    note_text: str = ""
    note_error: str = ""
    # 'Collected' (issue 36): the booking whose payment is typed, the amount (the balance to
    # start with), how it was paid, and the press's key (a resend is the same payment).
    collect_for: str = ""
    collect_amount: str = ""
    collect_method: str = "cash"
    collect_error: str = ""
    collect_busy: bool = False
    _collect_key: str = ""
    mine: list[str] = []
    mine_total: str = ""
    # The van's day (issue 37): 'mine' (the caller's van), 'van' (an admin's pick) or 'all';
    # the vans of the day (an admin's filter), the one shown, its Route link, the load list.
    view: str = "all"
    vans: list[day_sheet.SheetVan] = []
    van_id: str = ""
    van_name: str = ""
    route_link: str = ""
    has_own_van: bool = False
    load_url: str = ""
    show_all: bool = False  # a driver's 'All jobs' tap
    van_pick: str = ""  # an admin's van filter ('' every van)

    async def _show(self, caller: str, day: object) -> None:
        try:
            sheet = await call_service(
                day_sheet.day_sheet,
                actor_id=caller,
                day=day,
                van=self.van_pick,
                show_all=self.show_all,
            )
        except AdminBookingError as exc:
            if exc.code == "invalid_filter":
                self.error = _o(BAD_DAY)
                sheet = await call_service(day_sheet.day_sheet, actor_id=caller, day="")
            else:
                self.error = _o(LOAD_FAILED)
                return
        except Exception as exc:
            log_failure("DaySheetState._show", exc)
            self.error = _o(LOAD_FAILED)
            return
        self.day = sheet.day.isoformat()
        self.title = f"{_o(dates.OFFICE_DAY_NAMES[(sheet.day.weekday() + 1) % 7])}, " + (
            dates.display_day(sheet.day)
        )
        self.previous_url = day_url(sheet.previous)
        self.next_url = day_url(sheet.next)
        self.today_url = i18n.href(routes.ADMIN_DAY)
        self.bookings = sheet.bookings
        self.business_name = sheet.business_name
        self.mine, self.mine_total = sheet.mine, sheet.mine_total
        self.view, self.vans, self.van_id = sheet.view, sheet.vans, sheet.van_id
        self.van_name, self.route_link = sheet.van_name, sheet.route_link
        self.has_own_van = sheet.has_own_van
        self.load_url = load_url(sheet.day)
        self.loaded = True

    @rx.event
    async def load(self):
        """on_load: the sheet of the day in the address (today's at /admin/day)."""
        self.notice = self.error = self.note_error = ""
        self.busy = self.note_for = self.note_text = ""
        self.collect_for = self.collect_error = ""
        self.loaded, self.show_all, self.van_pick = False, False, ""
        caller = await self._staff_id()
        if caller:
            await self._show(caller, str(self.router.page.params.get("day") or "")[:10])

    @rx.event
    async def show_every(self, every: bool):
        """A driver's 'All jobs' (True) and 'Your van' (False) taps."""
        caller = await self._staff_id()
        if caller:
            self.show_all = bool(every)
            await self._show(caller, self.day)

    @rx.event
    async def pick_van(self, van_id: str):
        """An admin's van filter ('' every van); the service ignores a van not on the day."""
        caller = await self._staff_id()
        if caller:
            self.van_pick = str(van_id)[:64]
            await self._show(caller, self.day)

    @rx.event
    async def mark(self, booking_id: str, status: str):
        """On the way or completed (the customer is told through the outbox), when the sheet
        offers it; the service decides again (a confirmed booking on its day, then completed)."""
        if self.busy:
            return  # a second press while the first is on its way
        caller = await self._staff_id()
        if not caller:
            return
        booking_id, status = str(booking_id)[:64], str(status)[:16]
        shown = next((b for b in self.bookings if b.booking_id == booking_id), None)
        if shown is None or status not in shown.next_statuses:
            return
        self.busy, self.notice, self.error = booking_id, "", ""
        yield
        try:
            await call_service(set_status, actor_id=caller, booking_id=booking_id, status=status)
        except AdminBookingError as exc:
            # Why not now, or that the job is another van's (permissions.require_crew).
            refused = exc.code in ("invalid_status", "not_allowed")
            self.error = _o(exc.message) if refused else _o(STATUS_FAILED)
        except Exception as exc:
            log_failure("DaySheetState.mark", exc, booking=booking_id)
            self.error = _o(STATUS_FAILED)
        else:
            self.notice = _o(STATUS_DONE).format(
                reference=shown.reference, status=status_label(status)
            )
        self.busy = ""
        await self._show(caller, self.day)

    @rx.event
    def open_note(self, booking_id: str):
        self.note_for, self.note_text, self.note_error = str(booking_id)[:64], "", ""

    @rx.event
    def close_note(self):
        self.note_for, self.note_text, self.note_error = "", "", ""

    @rx.event
    def type_note(self, value: str):
        self.note_text = str(value)[: day_sheet.NOTE_MAX * 2]

    @rx.event
    async def save_note(self, _form: dict | None = None):
        caller = await self._staff_id()
        if not caller or not self.note_for:
            return
        try:
            await call_service(
                day_sheet.add_note, actor_id=caller, booking_id=self.note_for, text=self.note_text
            )
        except FieldError as exc:
            self.note_error = exc.message
            return
        except AdminBookingError as exc:
            self.note_error = _o(exc.message) if exc.code == "not_allowed" else _o(NOTE_FAILED)
            return
        except Exception as exc:
            log_failure("DaySheetState.save_note", exc, booking=self.note_for)
            self.note_error = _o(NOTE_FAILED)
            return
        self.note_for, self.note_text, self.note_error = "", "", ""
        self.notice, self.error = _o(NOTE_SAVED), ""
        await self._show(caller, self.day)

    # --- 'Collected' ----------------------------------------------------------------------------

    @rx.event
    def open_collect(self, booking_id: str):
        shown = next((b for b in self.bookings if b.booking_id == str(booking_id)[:64]), None)
        if shown is None:
            return
        self.collect_for, self.collect_error = shown.booking_id, ""
        self.collect_amount, self.collect_method = shown.balance, "cash"
        self._collect_key = uuid.uuid4().hex

    @rx.event
    def close_collect(self):
        self.collect_for = self.collect_error = ""

    @rx.event
    async def save_collect(self, form: dict | None = None):
        """Record what was collected (the ledger checks the caller, the amount against the
        balance under the booking's lock, and returns the same payment for the same press)."""
        if self.collect_busy or not self.collect_for:
            return
        caller = await self._staff_id()
        if not caller:
            return
        shown = next((b for b in self.bookings if b.booking_id == self.collect_for), None)
        form = form if isinstance(form, dict) else {}
        self.collect_amount = str(form.get("amount", self.collect_amount))[:16]
        method = str(form.get("method", "cash"))
        self.collect_method = method if method in ledger.STAFF_METHODS else "cash"
        self.collect_busy, self.collect_error = True, ""
        yield
        try:
            payment = await call_service(
                ledger.record_payment,
                actor_id=caller,
                booking_id=self.collect_for,
                amount=self.collect_amount,
                method=self.collect_method,
                key=self._collect_key,
            )
        except ledger.PaymentError as exc:
            self.collect_error = payment_message(exc)
        except Exception as exc:
            log_failure("DaySheetState.save_collect", exc, booking=self.collect_for)
            self.collect_error = _o(COLLECT_FAILED)
        else:
            self.notice, self.error = (
                _o(COLLECTED).format(
                    amount=format_price(payment.amount, payment.currency),
                    reference=shown.reference if shown else "",
                ),
                "",
            )
            self.collect_for, self.collect_amount, self._collect_key = "", "", ""
            await self._show(caller, self.day)
        finally:
            self.collect_busy = False
