"""Admin Edit Booking (docs/product.md §2, 5): the booking's fields and its services, saved
in one transaction through services/booking/admin.py. Each line is priced on every change with
checkout's pricing (booking.price_line: rate x hours x quantity per hour, rate x quantity per
event); the total is their sum unless the admin types one. An AdminState: the guard refuses
anyone but an admin. The list of bookings is state/admin_bookings.py."""

from __future__ import annotations

import asyncio
from decimal import Decimal

import reflex as rx

from storefront import i18n, routes
from storefront.i18n import _o
from storefront.services import dates
from storefront.services.booking import admin as admin_bookings
from storefront.services.booking.admin import AdminBookingError, BookingEdit, ItemEdit
from storefront.services.booking.contact import EVENT_TYPES, fields_for
from storefront.services.booking.pricing import price_line
from storefront.services.money import format_price, to_amount
from storefront.state.admin_bookings import (
    BOOKING_FAILED,
    DELETE_FAILED,
    NOT_FOUND,
    REQUIRED,
    SAVE_FAILED,
    SAVE_REDIRECT_SECONDS,
    SAVED,
    STATUSES,
    overbook_message,
)
from storefront.state.auth import AdminState
from storefront.state.base import call_service
from storefront.state.errors import log_failure

# What each field of the form may hold: the declared fields' limits are their columns' in the
# model (models/contact_fields.py); the guests' 4 digits and the total's 16 are this form's.
EDIT_LIMITS = {f.column: f.limit for f in fields_for("admin")} | {
    "guest_count": 4,
    "total_amount": 16,
}
ADDED = frozenset(f.column for f in fields_for("admin", added=True))


class AdminBookingEditState(AdminState):
    booking_id: str = ""
    reference: str = ""
    status: str = ""
    found: bool = False
    loaded: bool = False
    contact_name: str = ""
    contact_email: str = ""
    contact_phone: str = ""
    venue_address: str = ""
    address_required: bool = False
    city: str = ""
    zip_code: str = ""
    total_amount: str = ""  # typed by hand; '' is the sum of the lines and the transport
    transport: str = "0.00"  # the transport to its municipality, as saved (issue 36)
    event_type: str = "other"
    guest_count: str = "1"
    special_requests: str = ""
    # The declared fields this screen draws after the others (contact.fields_for("admin",
    # added=True)): column -> value.
    extra: dict[str, str] = {}
    lines: list[dict[str, str]] = []
    notice: str = ""
    error: str = ""
    field_errors: dict[str, str] = {}
    conflicts: list[str] = []
    past_lines: list[str] = []  # services a save would move into the past, to confirm
    _fingerprint: str = ""  # of the conflicts shown; the override confirms exactly those
    confirm_delete: bool = False
    busy: bool = False

    @rx.var
    def lines_total_label(self) -> str:
        return format_price(_lines_total(self.lines))

    @rx.var
    def total_label(self) -> str:
        """What the booking's total will be: the one typed by hand, else the lines' sum."""
        typed = self.total_amount.strip()
        if typed:
            amount = to_amount(typed, default=None)
            return format_price(amount) if amount is not None else typed
        return format_price(_lines_total(self.lines) + Decimal(self.transport or "0"))

    @rx.var
    def transport_label(self) -> str:
        return format_price(Decimal(self.transport or "0"))

    @rx.event
    async def load(self):
        self.notice = self.error = ""
        self.field_errors, self.conflicts, self.confirm_delete = {}, [], False
        self.past_lines = []
        self.found = self.loaded = False
        caller = await self._admin_id()
        if not caller:
            return
        booking_id = str(self.router.page.params.get("booking_id", ""))[:64]
        try:
            form = await call_service(
                admin_bookings.edit_form, actor_id=caller, booking_id=booking_id
            )
        except AdminBookingError as exc:
            self.error = _o(NOT_FOUND) if exc.code == "not_found" else _o(BOOKING_FAILED)
            self.loaded = True
            return
        except Exception as exc:
            log_failure("AdminBookingEditState.load", exc, booking=booking_id)
            self.error, self.loaded = _o(BOOKING_FAILED), True
            return
        self.booking_id, self.reference, self.status = form.id, form.reference, form.status
        self.contact_name, self.city, self.zip_code = form.contact_name, form.city, form.zip_code
        self.contact_email, self.contact_phone = form.contact_email, form.contact_phone
        self.venue_address, self.event_type = form.venue_address, form.event_type
        self.address_required = form.address_required
        self.guest_count, self.special_requests = str(form.guest_count), form.special_requests
        self.extra = dict(form.extra)
        # A total that is not the lines' sum was set by hand: it stays until changed.
        self.transport = form.transport_amount
        owed = Decimal(form.lines_total) + Decimal(form.transport_amount)
        self.total_amount = "" if Decimal(form.total_amount) == owed else form.total_amount
        self.lines = [
            _priced(
                {
                    "id": line.id,
                    "name": line.service_name,
                    "rate": line.unit_price,
                    "unit": line.price_unit,
                    "unit_label": (
                        _o("per hour") if line.price_unit == "per_hour" else _o("per event")
                    ),
                    "quantity": str(line.quantity),
                    "date": dates.display_day(line.date),
                    "time": line.start_time,
                    "duration": str(line.duration_hours),
                    "status": line.status,
                    "notes": line.notes,
                }
            )
            for line in form.lines
        ]
        self.found = self.loaded = True

    @rx.event
    def set_field(self, name: str, value: str):
        name = str(name)
        if name not in EDIT_LIMITS:
            return
        value = str(value)[: EDIT_LIMITS[name]]
        if name == "event_type" and value not in EVENT_TYPES:
            return
        if name in ADDED:
            self.extra = self.extra | {name: value}
        else:
            setattr(self, name, value)
        self.field_errors = {k: v for k, v in self.field_errors.items() if k != name}

    @rx.event
    def set_line(self, index: int, name: str, value: str):
        """A change of one line's field; its total follows at once."""
        if not isinstance(index, int) or not 0 <= index < len(self.lines):
            return
        limits = {"rate": 16, "quantity": 6, "date": 10, "time": 5, "duration": 2}
        limits |= {"status": 16, "notes": 2000}
        if name not in limits:
            return
        value = str(value)[: limits[name]]
        if name == "status" and value not in STATUSES:
            return
        line = dict(self.lines[index])
        line[name] = value
        self.lines[index] = _priced(line)
        self.field_errors = {
            k: v for k, v in self.field_errors.items() if not k.startswith(f"items.{index}.")
        }

    def _edit(self) -> BookingEdit:
        return BookingEdit(
            contact_name=self.contact_name,
            contact_email=self.contact_email,
            contact_phone=self.contact_phone,
            venue_address=self.venue_address,
            city=self.city,
            zip_code=self.zip_code,
            event_type=self.event_type,
            guest_count=self.guest_count,
            special_requests=self.special_requests,
            total_amount=self.total_amount,
            extra=dict(self.extra),
            items=tuple(
                ItemEdit(
                    id=line["id"],
                    unit_price=line["rate"],
                    quantity=line["quantity"],
                    date=line["date"],
                    start_time=line["time"],
                    duration_hours=line["duration"],
                    status=line["status"],
                    notes=line["notes"],
                )
                for line in self.lines
            ),
        )

    async def _save(self, override: str, confirm_past: bool = False):
        caller = await self._admin_id()
        if not caller or not self.found or self.busy:
            return
        self.notice = self.error = ""
        self.past_lines = []
        self.busy = True
        yield
        try:
            await call_service(
                admin_bookings.update_booking,
                actor_id=caller,
                booking_id=self.booking_id,
                edit=self._edit(),
                override=override,
                confirm_past=confirm_past,
            )
        except AdminBookingError as exc:
            self.busy = False
            if exc.code == "invalid":
                # Each refused field says its own words beside it; the summary says how many.
                codes = dict(exc.details.get("fields", {}))
                messages = {str(k): str(v) for k, v in exc.details.get("messages", {}).items()}
                # The messages are in the language of the moment already (the service's).
                self.field_errors = {k: messages.get(k, _o(REQUIRED)) for k in codes}
                missing = any(code == "required" for code in codes.values())
                self.error = (
                    _o(REQUIRED) if missing else next(iter(messages.values()), _o(SAVE_FAILED))
                )
            elif exc.code == "in_past":
                self.past_lines = [str(name) for name in exc.details.get("lines", [])]
            elif exc.code == "over_capacity":
                self.conflicts = [str(c) for c in exc.details.get("conflicts", [])]
                self._fingerprint = str(exc.details.get("fingerprint", ""))
                self.error = overbook_message(exc)
            else:
                self.error = _o(NOT_FOUND) if exc.code == "not_found" else _o(SAVE_FAILED)
            return
        except Exception as exc:
            log_failure("AdminBookingEditState._save", exc, booking=self.booking_id)
            self.busy, self.error = False, _o(SAVE_FAILED)
            return
        self.field_errors, self.conflicts, self.notice = {}, [], _o(SAVED)
        yield
        await asyncio.sleep(SAVE_REDIRECT_SECONDS)
        self.busy = False
        yield rx.redirect(i18n.href(routes.ADMIN_BOOKINGS))

    @rx.event
    async def save(self, _form: dict | None = None):
        async for update in self._save(override=""):
            yield update

    @rx.event
    async def save_with_override(self):
        async for update in self._save(override=self._fingerprint):
            yield update

    @rx.event
    async def save_in_past(self):
        """The admin confirmed moving the booking into the past."""
        async for update in self._save(override=self._fingerprint, confirm_past=True):
            yield update

    @rx.event
    def keep_editing(self, _open: bool = False):
        self.past_lines = []

    @rx.event
    def ask_delete(self):
        self.confirm_delete = True

    @rx.event
    def cancel_delete(self, _open: bool = False):
        self.confirm_delete = False

    @rx.event
    async def delete(self):
        caller = await self._admin_id()
        if not caller or not self.found:
            return
        self.confirm_delete = False
        try:
            await call_service(
                admin_bookings.delete_booking, actor_id=caller, booking_id=self.booking_id
            )
        except Exception as exc:
            log_failure("AdminBookingEditState.delete", exc, booking=self.booking_id)
            self.error = _o(DELETE_FAILED)
            return
        return rx.redirect(i18n.href(routes.ADMIN_BOOKINGS))


def _priced(line: dict[str, str]) -> dict[str, str]:
    """`line` with its total as checkout prices it ('' while a field holds no number)."""
    rate = to_amount(line.get("rate"), default=None)
    quantity, hours = line.get("quantity", ""), line.get("duration", "")
    if rate is None or not quantity.isdigit() or not hours.isdigit():
        return line | {"total": "", "total_label": ""}
    total = price_line(
        price=rate, price_unit=line["unit"], quantity=int(quantity), duration_hours=int(hours)
    )
    return line | {"total": f"{total:.2f}", "total_label": format_price(total)}


def _lines_total(lines: list[dict[str, str]]):
    return sum((to_amount(line["total"]) for line in lines if line.get("total")), start=0)
