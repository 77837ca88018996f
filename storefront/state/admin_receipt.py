"""The receipt section of the admin's booking detail (pages/admin/bookings.py): the booking's
receipt number, 'Issue receipt' while it has none, and its download once it has
(services/payments/receipts.py). Its own small state, so the detail's other sections stay as
they are; the section loads it when it is drawn for a booking (`load`)."""

from __future__ import annotations

import reflex as rx

from storefront.i18n import N_o, _o
from storefront.services.messaging import links as booking_links
from storefront.services.payments import receipts
from storefront.state.auth import AdminState
from storefront.state.base import call_service
from storefront.state.errors import log_failure

LOAD_FAILED = N_o("Failed to load the receipt. Please try again.")
ISSUE_FAILED = N_o("The receipt could not be issued. Please try again.")
ISSUED = N_o("Receipt {number} issued.")
RECEIPT_MESSAGES = {
    "cancelled": N_o("A cancelled booking with no payment gets no receipt."),
    "not_found": N_o("Booking not found"),
    "busy": N_o("Please try again"),
    "not_allowed": N_o("Only admins may do this"),
    "no_user": N_o("Only admins may do this"),
    "two_factor_required": N_o("Set up two-factor sign-in first (Account, Security)."),
}


class AdminReceiptState(AdminState):
    booking_id: str = ""
    number: str = ""
    href: str = ""
    loaded: bool = False
    issuing: bool = False
    error: str = ""
    notice: str = ""

    def _show(self, booking_id: str, number: str) -> None:
        self.booking_id, self.number = booking_id, number
        self.href = booking_links.receipt_path(booking_id) if number else ""
        self.loaded = True

    @rx.event
    async def load(self, booking_id: str):
        """The receipt of the booking the detail shows (the section calls it when drawn)."""
        self.loaded, self.error, self.notice = False, "", ""
        self.number = self.href = ""
        self.booking_id = str(booking_id or "")[:64]
        if not self.booking_id or not await self._admin_id():
            return
        try:
            number = await call_service(receipts.number_of, booking_id=self.booking_id)
        except Exception as exc:
            log_failure("AdminReceiptState.load", exc, booking=self.booking_id)
            self.error = _o(LOAD_FAILED)
            return
        self._show(self.booking_id, number)

    @rx.event
    async def issue(self):
        """'Issue receipt': the next number of the year (the service checks the admin again)."""
        caller = await self._admin_id()
        if not caller or not self.booking_id or self.issuing:
            return
        self.issuing, self.error, self.notice = True, "", ""
        yield
        try:
            number = await call_service(
                receipts.issue_receipt, actor_id=caller, booking_id=self.booking_id
            )
        except receipts.ReceiptError as exc:
            self.error = _o(RECEIPT_MESSAGES.get(exc.code, ISSUE_FAILED))
        except Exception as exc:
            log_failure("AdminReceiptState.issue", exc, booking=self.booking_id)
            self.error = _o(ISSUE_FAILED)
        else:
            self._show(self.booking_id, number)
            self.notice = _o(ISSUED).format(number=number)
        finally:
            self.issuing = False
