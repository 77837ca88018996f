"""The booking confirmation page: the real booking, shown to its owner, to an admin, or to
whoever holds the signed link of the confirmation mail (`?key=`); anyone else gets 'not found'.
Public state: the access rule is checked here, on the server, at every load."""

from __future__ import annotations

import reflex as rx

from storefront.i18n import N_, _, ngettext
from storefront.services.booking import changes as booking_changes
from storefront.services.booking import views as booking_views
from storefront.services.messaging import links as booking_links
from storefront.services.payments import receipts
from storefront.state.access import access
from storefront.state.auth import AuthState
from storefront.state.base import call_service
from storefront.state.errors import TRY_LATER, log_failure
from storefront.state.slot_picker import SlotPickerState

# What the page says first, true to the booking's status at every visit. ('Booking Submitted!'
# is said once, by checkout's last step and the booking screen, right after placing it.)
HEADLINES = {
    "pending": N_("Waiting for confirmation"),
    "confirmed": N_("Booking Confirmed!"),
    "on_the_way": N_("We are on our way!"),
    "completed": N_("Booking Completed"),
    "cancelled": N_("Booking Cancelled"),
}
# And the sentence under it.
STATUS_NOTES = {
    "pending": N_("We have your booking and will confirm it soon."),
    "confirmed": N_("Your booking is confirmed. We look forward to your event!"),
    "on_the_way": N_("Our team is on the way to your event."),
    "completed": N_("This booking is completed. Thank you for celebrating with us!"),
    "cancelled": N_("This booking is cancelled. Nothing will be delivered or charged."),
}


# A customer's own change (services/booking/changes.py): what the page says of each refusal.
CHOOSE_TIME = N_("Please choose a day and a start time.")
CHANGE_MESSAGES = {
    "busy": N_("Please try again"),
    "invalid_time": CHOOSE_TIME,
    "not_found": N_("This booking does not exist, or this link does not open it."),
    "too_late": N_("This booking can no longer be changed online."),
}
TAKEN = N_("{service} is already booked at {time} on {date}. Please choose another time.")
TOO_SOON = N_("{service} cannot be booked that soon. Please choose a later date.")
NOT_OFFERED = N_(
    "{service} cannot be booked at {time} on {date}. Please choose another time, or call us."
)
CANCELLED = N_("Your booking is cancelled.")
MOVED = N_(
    "Your booking is moved and waits for our confirmation of the new time. The new times are below."
)
UNCHANGED = N_("This is the booking's current time. Please choose another day or time.")
# Before a move into the cutoff (booking_changes.move_own's inside_cutoff): asked first.
LATE_MOVE = N_(
    "The new time is less than {hours} hours away. After this move you can no longer change or "
    "cancel the booking online: only by calling us."
)


def change_message(error: booking_changes.BookingChangeError) -> str:
    """A refused change in the visitor's words; a refused time names the service."""
    if error.code in ("slot_taken", "slot_unavailable"):
        if error.code == "slot_taken":
            words = TAKEN
        else:
            words = TOO_SOON if error.details.get("reason") == "too_soon" else NOT_OFFERED
        return _(words).format(
            service=error.details.get("service", ""),
            time=error.details.get("time", ""),
            date=error.details.get("date", ""),
        )
    return _(CHANGE_MESSAGES.get(error.code, TRY_LATER))


@access("public", caller_bound=True)
class BookingViewState(rx.State):
    loading: bool = True
    found: bool = False
    # Upcoming (pending, confirmed, on its way): the calendar file and the payment line show.
    upcoming: bool = False
    booking: dict[str, str] = {}
    lines: list[dict[str, str]] = []
    ics_href: str = ""
    # The receipt's download, once the booking has a number (services/payments/receipts.py).
    receipt_href: str = ""
    # Cancelling or moving it (services/booking/changes.py): offered to whoever holds the
    # signed link and to the account that placed it, until the cutoff; after it (or once it
    # is on its way, completed or cancelled) the page says to call.
    can_change: bool = False
    change_closed: bool = False
    change_deadline: str = ""
    call_phone: str = ""
    call_href: str = ""
    confirming_cancel: bool = False
    moving: bool = False
    # The booking's first service now: the move's picker opens there (YYYY-MM-DD, HH:MM).
    move_day: str = ""
    move_time: str = ""
    # A move into the cutoff waits for the customer's yes: the warning, and the choice
    # ('YYYY-MM-DD HH:MM') it was given for (another choice is asked about again).
    late_warning: str = ""
    late_for: str = ""
    changing: bool = False
    change_error: str = ""
    change_notice: str = ""
    # What the page was opened with: the booking and the link's key, kept on the server. A
    # change hands both to the service, which checks them (and the caller) again.
    _booking_id: str = ""
    _key: str = ""
    _first_hours: int = 1
    # The cutoff's hours when the last change was refused as a move into it (else None).
    _late_hours: int | None = None

    @rx.var
    def headline(self) -> str:
        """What the page says first, true to the booking's status."""
        return _(HEADLINES.get(self.booking.get("status_code", ""), HEADLINES["pending"]))

    @rx.var
    def status_note(self) -> str:
        words = STATUS_NOTES.get(self.booking.get("status_code", ""))
        return _(words) if words else ""

    @rx.event
    async def load(self):
        self.loading, self.found, self.booking, self.lines = True, False, {}, []
        self._booking_id, self._key, self.upcoming = "", "", False
        self.confirming_cancel = self.moving = self.changing = False
        self.change_error = self.change_notice = self.late_warning = self.late_for = ""
        booking_id = str(self.router.page.params.get("booking_id") or "")[:64]
        key = str(self.router.url.query_parameters.get("key") or "")[:1024] or None
        await self._show(booking_id, key)

    async def _show(self, booking_id: str, key: str | None) -> None:
        """Read the booking afresh for whoever calls now, and what they may change of it."""
        auth_state = await self.get_state(AuthState)
        user_id, _role = await auth_state._caller()
        view = await call_service(
            booking_views.viewable_booking,
            booking_id=booking_id,
            viewer_id=user_id,
            key=key,
        )
        self.loading = False
        self.found = view is not None
        self.receipt_href = ""
        await self._show_options(view.id if view else "", key, user_id)
        if view is None:
            return
        self._booking_id, self._key = view.id, key or ""
        self.upcoming = booking_views.is_upcoming(view.status)
        self.booking = {
            "reference": view.reference,
            "status": booking_views.status_words(view.status),
            "status_code": view.status,
            "created_at": view.created_at,
            "total": view.total_label,
            # What was paid and what is left, once something was paid (issue 36).
            "paid": view.paid_label if view.paid > 0 else "",
            "balance": view.balance_label,
            "subtotal": view.subtotal_label,
            "transport": view.transport_label,
            "municipality": view.municipality,
            "due": view.due,
            "weather": view.weather,
            "name": view.contact_name,
            "email": view.contact_email,
            "phone": view.contact_phone,
            "address": ", ".join(p for p in (view.venue_address, view.municipality) if p),
            "event": " · ".join(
                p
                for p in (
                    view.event_type,
                    ngettext("{count} guest", "{count} guests", view.guest_count).format(
                        count=view.guest_count
                    )
                    if view.guest_count
                    else "",
                )
                if p
            ),
            "requests": view.special_requests or "",
            "set_up": _("Set up at {time}").format(time=view.set_up_at) if view.set_up_at else "",
        }
        self.lines = [
            {
                "name": line.service_name,
                "quantity": str(line.quantity),
                "when": f"{line.date} · {line.start_time}–{line.end_time}",
                "total": line.line_total_label,
            }
            for line in view.lines
        ]
        self.ics_href = booking_links.ics_path(view.id, key)
        if await call_service(receipts.number_of, booking_id=view.id):
            self.receipt_href = booking_links.receipt_path(view.id, key)

    async def _show_options(self, booking_id: str, key: str | None, user_id: str) -> None:
        options = (
            await call_service(
                booking_changes.change_options, booking_id=booking_id, key=key, viewer_id=user_id
            )
            if booking_id
            else None
        )
        self.can_change = bool(options and options.allowed)
        self.change_closed = bool(options and not options.allowed)
        self.change_deadline = options.deadline if options else ""
        self.call_phone = options.phone if options else ""
        self.call_href = options.phone_href if options else ""
        self.move_day = options.first_day if options else ""
        self.move_time = options.first_time if options else ""
        self._first_hours = options.first_hours if options else 1
        if not self.can_change:
            self.confirming_cancel = self.moving = False
            self.late_warning = self.late_for = ""

    @rx.event
    def ask_cancel(self):
        self.confirming_cancel, self.moving = True, False
        self.change_error = self.change_notice = self.late_warning = self.late_for = ""

    @rx.event
    def keep_booking(self):
        self.confirming_cancel, self.change_error = False, ""

    @rx.event
    async def open_move(self):
        """'Change date or time': the cart's picker, on the booking's days and times."""
        if not self.can_change or not self._booking_id:
            return
        self.moving, self.confirming_cancel = True, False
        self.change_error = self.change_notice = self.late_warning = self.late_for = ""
        picker = await self.get_state(SlotPickerState)
        await picker._open_for_move(
            self._booking_id, self._key, self.move_day, self.move_time, self._first_hours
        )

    @rx.event
    def close_move(self):
        self.moving, self.change_error = False, ""
        self.late_warning = self.late_for = ""

    @rx.event
    def choose_another_time(self):
        """'Choose another time' under the cutoff's warning: back to the picker."""
        self.late_warning = self.late_for = ""

    @rx.event
    async def cancel_booking(self):
        """'Yes, cancel it': the service checks the link or the caller, and the cutoff."""
        if self.changing or not self._booking_id:
            return
        self.changing, self.change_error = True, ""
        yield
        if await self._change(booking_changes.cancel_own, CANCELLED):
            self.confirming_cancel = False
        self.changing = False

    @rx.event
    async def move_booking(self):
        """'Move booking': the whole booking to the day and time chosen on the picker (read
        from the picker's state on the server). Into the cutoff it asks first."""
        async for update in self._move(accept_cutoff=False):
            yield update

    @rx.event
    async def move_booking_anyway(self):
        """'Move it anyway', under the cutoff's warning: for the choice it was given for."""
        async for update in self._move(accept_cutoff=True):
            yield update

    async def _move(self, *, accept_cutoff: bool):
        if self.changing or not self.moving or not self._booking_id:
            return
        picker = await self.get_state(SlotPickerState)
        day, start_time = picker.selected_date, picker.selected_time
        chosen = f"{day} {start_time}"
        if accept_cutoff and chosen != self.late_for:
            accept_cutoff = False  # the warning was for another choice: ask again
        self.change_error, self.late_warning, self.late_for = "", "", ""
        if not day or not start_time:
            self.change_error = _(CHOOSE_TIME)
            return
        if (day, start_time) == (self.move_day, self.move_time):
            self.change_error = _(UNCHANGED)
            return
        self.changing = True
        yield
        try:
            if await self._change(
                booking_changes.move_own,
                MOVED,
                day=day,
                start_time=start_time,
                accept_cutoff=accept_cutoff,
            ):
                self.moving = False
            elif self._late_hours is not None:
                self.change_error = ""
                self.late_warning = _(LATE_MOVE).format(hours=self._late_hours)
                self.late_for = chosen
            elif self.moving:
                # A refused time: the picker shows the day again as it is now, the choice kept
                # where it is still free.
                await picker._load_month()
                await picker._load_slots(keep_time=True)
        finally:
            self.changing = False

    async def _change(self, service, done: str, **arguments) -> bool:
        """Run one change as the caller of this event, then show the booking as it is now."""
        self._late_hours = None
        auth_state = await self.get_state(AuthState)
        user_id, _role = await auth_state._caller()
        booking_id, key = self._booking_id, self._key or None
        try:
            await call_service(
                service, booking_id=booking_id, key=key, viewer_id=user_id, **arguments
            )
        except booking_changes.BookingChangeError as error:
            if error.code == "inside_cutoff":
                self._late_hours = int(error.details.get("hours") or 0)
                return False
            self.change_error = change_message(error)
            changed = False
        except Exception as error:
            log_failure("a customer's change of their booking", error, booking_id=booking_id)
            self.change_error = _(TRY_LATER)
            return False
        else:
            self.change_notice, changed = _(done), True
        await self._show(booking_id, key)
        return changed
