"""Admin Edit Booking (docs/product.md §2, 5): the booking's fields and its services, saved
in one transaction through services/admin_bookings.py. An AdminState: the guard refuses anyone
but an admin. The list of bookings is state/admin_bookings.py."""

from __future__ import annotations

import asyncio

import reflex as rx

from storefront import routes
from storefront.services import admin_bookings
from storefront.services.admin_bookings import AdminBookingError, BookingEdit, ItemEdit
from storefront.services.booking import EVENT_TYPES
from storefront.state.admin_bookings import (
    BOOKING_FAILED,
    DELETE_FAILED,
    NOT_FOUND,
    REQUIRED,
    SAVE_FAILED,
    SAVE_REDIRECT_SECONDS,
    SAVED,
    overbook_message,
)
from storefront.state.auth import AdminState
from storefront.state.base import call_service
from storefront.state.errors import log_failure


class AdminBookingEditState(AdminState):
    booking_id: str = ""
    reference: str = ""
    status: str = ""
    found: bool = False
    loaded: bool = False
    contact_email: str = ""
    contact_phone: str = ""
    venue_address: str = ""
    event_type: str = "other"
    guest_count: str = "1"
    special_requests: str = ""
    lines: list[dict[str, str]] = []
    notice: str = ""
    error: str = ""
    field_errors: dict[str, str] = {}
    conflicts: list[str] = []
    _fingerprint: str = ""  # of the conflicts shown; the override confirms exactly those
    confirm_delete: bool = False
    busy: bool = False

    @rx.var
    def total_label(self) -> str:
        from storefront.services.money import format_price, to_amount

        total = sum(
            to_amount(line.get("subtotal", "0")) for line in self.lines if line.get("subtotal")
        )
        return format_price(total)

    @rx.event
    async def load(self):
        self.notice = self.error = ""
        self.field_errors, self.conflicts, self.confirm_delete = {}, [], False
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
            self.error = NOT_FOUND if exc.code == "not_found" else BOOKING_FAILED
            self.loaded = True
            return
        except Exception as exc:
            log_failure("AdminBookingEditState.load", exc, booking=booking_id)
            self.error, self.loaded = BOOKING_FAILED, True
            return
        self.booking_id, self.reference, self.status = form.id, form.reference, form.status
        self.contact_email, self.contact_phone = form.contact_email, form.contact_phone
        self.venue_address, self.event_type = form.venue_address, form.event_type
        self.guest_count, self.special_requests = str(form.guest_count), form.special_requests
        self.lines = [
            {
                "id": line.id,
                "name": line.service_name,
                "price": line.service_price,
                "quantity": str(line.quantity),
                "date": line.date,
                "time": line.start_time,
                "duration": str(line.duration_hours),
                "subtotal": _subtotal(line.service_price, str(line.quantity)),
            }
            for line in form.lines
        ]
        self.found = self.loaded = True

    @rx.event
    def set_field(self, name: str, value: str):
        limits = {
            "contact_email": 255,
            "contact_phone": 64,
            "venue_address": 500,
            "special_requests": 5000,
            "guest_count": 4,
            "event_type": 16,
        }
        name = str(name)
        if name not in limits:
            return
        value = str(value)[: limits[name]]
        if name == "event_type" and value not in EVENT_TYPES:
            return
        setattr(self, name, value)
        self.field_errors = {k: v for k, v in self.field_errors.items() if k != name}

    @rx.event
    def set_line(self, index: int, name: str, value: str):
        if not isinstance(index, int) or not 0 <= index < len(self.lines):
            return
        if name not in ("price", "quantity", "date", "time", "duration"):
            return
        line = dict(self.lines[index])
        line[name] = str(value)[:16]
        line["subtotal"] = _subtotal(line["price"], line["quantity"])
        self.lines[index] = line

    def _edit(self) -> BookingEdit:
        return BookingEdit(
            contact_email=self.contact_email,
            contact_phone=self.contact_phone,
            venue_address=self.venue_address,
            event_type=self.event_type,
            guest_count=self.guest_count,
            special_requests=self.special_requests,
            items=tuple(
                ItemEdit(
                    id=line["id"],
                    service_price=line["price"],
                    quantity=line["quantity"],
                    date=line["date"],
                    start_time=line["time"],
                    duration_hours=line["duration"],
                )
                for line in self.lines
            ),
        )

    async def _save(self, override: str):
        caller = await self._admin_id()
        if not caller or not self.found or self.busy:
            return
        self.notice = self.error = ""
        self.busy = True
        yield
        try:
            await call_service(
                admin_bookings.update_booking,
                actor_id=caller,
                booking_id=self.booking_id,
                edit=self._edit(),
                override=override,
            )
        except AdminBookingError as exc:
            self.busy = False
            if exc.code == "invalid":
                self.field_errors = dict(exc.details.get("fields", {}))
                required = {"contact_email", "contact_phone", "venue_address"}
                missing = any(self.field_errors.get(f) == "required" for f in required)
                messages = exc.details.get("messages", {})
                self.error = REQUIRED if missing else next(iter(messages.values()), SAVE_FAILED)
            elif exc.code == "over_capacity":
                self.conflicts = [str(c) for c in exc.details.get("conflicts", [])]
                self._fingerprint = str(exc.details.get("fingerprint", ""))
                self.error = overbook_message(exc)
            else:
                self.error = NOT_FOUND if exc.code == "not_found" else SAVE_FAILED
            return
        except Exception as exc:
            log_failure("AdminBookingEditState._save", exc, booking=self.booking_id)
            self.busy, self.error = False, SAVE_FAILED
            return
        self.field_errors, self.conflicts, self.notice = {}, [], SAVED
        yield
        await asyncio.sleep(SAVE_REDIRECT_SECONDS)
        self.busy = False
        yield rx.redirect(routes.ADMIN_BOOKINGS)

    @rx.event
    async def save(self, _form: dict | None = None):
        async for update in self._save(override=""):
            yield update

    @rx.event
    async def save_with_override(self):
        async for update in self._save(override=self._fingerprint):
            yield update

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
            self.error = DELETE_FAILED
            return
        return rx.redirect(routes.ADMIN_BOOKINGS)


def _subtotal(price: str, quantity: str) -> str:
    from storefront.services.money import to_amount

    qty = int(quantity) if str(quantity).isdigit() else 0
    return f"{to_amount(price) * qty:.2f}"
