"""The booking confirmation page: the real booking, shown to its owner, to an admin, or to
whoever holds the signed link of the confirmation mail (`?key=`); anyone else gets 'not found'.
Public state: the access rule is checked here, on the server, at every load."""

from __future__ import annotations

import reflex as rx

from storefront.i18n import N_, _
from storefront.services import booking_links, booking_views, checkout
from storefront.state.access import access
from storefront.state.auth import AuthState
from storefront.state.base import call_service

SUBMITTED = N_("Booking Submitted!")
HEADLINES = {
    "pending": SUBMITTED,
    "confirmed": N_("Booking Confirmed!"),
    "on_the_way": N_("We are on our way!"),
    "completed": N_("Booking Completed"),
    "cancelled": N_("Booking Cancelled"),
}


@access("public", caller_bound=True)
class BookingViewState(rx.State):
    loading: bool = True
    found: bool = False
    booking: dict[str, str] = {}
    lines: list[dict[str, str]] = []
    ics_href: str = ""

    @rx.var
    def headline(self) -> str:
        """What the page says first, true to the booking's status (the spec's 'Booking
        Submitted!' while it waits for the business)."""
        return _(HEADLINES.get(self.booking.get("status_code", ""), SUBMITTED))

    @rx.event
    async def load(self):
        self.loading, self.found, self.booking, self.lines = True, False, {}, []
        booking_id = str(self.router.page.params.get("booking_id") or "")[:64]
        key = str(self.router.url.query_parameters.get("key") or "")[:1024] or None
        auth_state = await self.get_state(AuthState)
        user_id, role = await auth_state._caller()
        view = await call_service(
            checkout.viewable_booking,
            booking_id=booking_id,
            viewer_id=user_id,
            viewer_is_admin=role == "admin",
            key=key,
        )
        self.loading = False
        if view is None:
            return
        self.found = True
        self.booking = {
            "reference": view.reference,
            "status": booking_views.status_words(view.status),
            "status_code": view.status,
            "created_at": view.created_at,
            "total": view.total_label,
            "name": view.contact_name,
            "email": view.contact_email,
            "phone": view.contact_phone,
            "address": ", ".join(p for p in (view.venue_address, view.city) if p),
            "event": " · ".join(
                p
                for p in (
                    view.event_type,
                    _("{count} guests").format(count=view.guest_count) if view.guest_count else "",
                )
                if p
            ),
            "requests": view.special_requests or "",
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
