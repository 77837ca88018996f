"""Admin Edit Booking (docs/product.md §2, 5): the booking's fields, each booked service's price,
quantity,
date, time and duration with its subtotal, Save Changes, Delete Booking, Back to Bookings."""

import reflex as rx

from storefront import routes
from storefront.components.admin_layout import (
    CARD,
    DANGER_BUTTON,
    INPUT,
    LABEL,
    SMALL_BUTTON,
    admin_frame,
    notices,
)
from storefront.components.modal import modal
from storefront.components.ui import PRIMARY_BUTTON, loading_spinner
from storefront.services.booking import EVENT_TYPES, MAX_GUESTS, MIN_GUESTS
from storefront.state.admin_booking_edit import AdminBookingEditState as S

ACCESS = "You must be an admin to access this page."
DELETE_QUESTION = "Are you sure you want to delete this booking? This action cannot be undone."
ADMIN_EVENT_TYPES = ("wedding", "birthday", "corporate", "other")


def _field(label: str, name: str, value, *, kind: str = "text", required=False, **props):
    field_id = f"edit-{name}"
    return rx.el.div(
        rx.el.label(label, " *" if required else "", html_for=field_id, class_name=LABEL),
        rx.el.input(
            id=field_id,
            type=kind,
            value=value,
            # The spec's own message, not the browser's bubble, says what is missing.
            aria_required="true" if required else "false",
            on_change=lambda v: S.set_field(name, v),
            aria_invalid=rx.cond(S.field_errors.contains(name), "true", "false"),
            class_name=INPUT,
            **props,
        ),
    )


def _line_input(index, line: dict, label: str, name: str, kind: str, **props):
    return rx.el.div(
        rx.el.label(label, html_for=f"line-{name}-" + index.to_string(), class_name=LABEL),
        rx.el.input(
            id=f"line-{name}-" + index.to_string(),
            type=kind,
            value=line[name],
            on_change=lambda v: S.set_line(index, name, v),
            class_name=INPUT,
            **props,
        ),
    )


def _line(line: dict, index) -> rx.Component:
    return rx.el.fieldset(
        rx.el.legend(line["name"], class_name="font-semibold px-1"),
        rx.el.div(
            _line_input(index, line, "Price", "price", "number", min=0, step="0.01"),
            _line_input(index, line, "Quantity", "quantity", "number", min=1, step=1),
            _line_input(index, line, "Date", "date", "date"),
            _line_input(index, line, "Time", "time", "time", step=60),
            rx.el.div(
                rx.el.label(
                    "Duration (hours)",
                    html_for="line-duration-" + index.to_string(),
                    class_name=LABEL,
                ),
                rx.el.select(
                    *[rx.el.option(str(h), value=str(h)) for h in range(1, 9)],
                    id="line-duration-" + index.to_string(),
                    value=line["duration"],
                    on_change=lambda v: S.set_line(index, "duration", v),
                    class_name=INPUT,
                ),
            ),
            rx.el.div(
                rx.el.p("Subtotal", class_name=LABEL),
                rx.el.p(
                    line["subtotal"], class_name="py-2 font-semibold", data_testid="line-subtotal"
                ),
            ),
            class_name="grid gap-3 grid-cols-2 md:grid-cols-6",
        ),
        class_name="mt-3 rounded-xl border border-slate-200 p-3",
        data_testid="edit-line",
    )


def _form() -> rx.Component:
    return rx.el.form(
        rx.el.h2("Booking ", S.reference, class_name="text-lg font-bold"),
        rx.el.div(
            _field("Email", "contact_email", S.contact_email, kind="email", required=True),
            _field("Phone", "contact_phone", S.contact_phone, kind="tel", required=True),
            _field("Venue address", "venue_address", S.venue_address, required=True),
            rx.el.div(
                rx.el.label("Event Type", html_for="edit-event_type", class_name=LABEL),
                rx.el.select(
                    *[
                        rx.el.option(t.capitalize(), value=t)
                        for t in EVENT_TYPES
                        if t in ADMIN_EVENT_TYPES
                    ],
                    id="edit-event_type",
                    value=S.event_type,
                    on_change=lambda v: S.set_field("event_type", v),
                    class_name=INPUT,
                ),
            ),
            _field(
                "Guests",
                "guest_count",
                S.guest_count,
                kind="number",
                min=MIN_GUESTS,
                max=MAX_GUESTS,
            ),
            class_name="mt-3 grid gap-3 sm:grid-cols-2",
        ),
        rx.el.div(
            rx.el.label("Special requests", html_for="edit-special_requests", class_name=LABEL),
            rx.el.textarea(
                id="edit-special_requests",
                value=S.special_requests,
                on_change=lambda v: S.set_field("special_requests", v),
                rows=3,
                class_name=INPUT,
            ),
            class_name="mt-3",
        ),
        rx.el.h2("Services", class_name="mt-6 text-lg font-bold"),
        rx.foreach(S.lines, _line),
        rx.el.p(
            "Total: ",
            rx.el.strong(S.total_label),
            class_name="mt-4 text-right",
            data_testid="edit-total",
        ),
        rx.el.div(
            rx.el.button(
                rx.cond(S.busy, "Saving...", "Save Changes"),
                type="submit",
                disabled=S.busy,
                class_name=PRIMARY_BUTTON,
                data_testid="edit-save",
            ),
            rx.cond(
                S.conflicts.length() > 0,
                rx.el.button(
                    "Save anyway (overbook)",
                    type="button",
                    on_click=S.save_with_override,
                    class_name=DANGER_BUTTON,
                ),
            ),
            rx.el.button(
                "Delete Booking",
                type="button",
                on_click=S.ask_delete,
                class_name=DANGER_BUTTON,
                data_testid="edit-delete",
            ),
            class_name="mt-6 flex flex-wrap gap-3 items-center",
        ),
        on_submit=S.save,
        class_name=CARD + " mt-6 p-4 md:p-6",
        data_testid="booking-edit-form",
    )


def _confirm_delete() -> rx.Component:
    return modal(
        rx.dialog.title("Delete Booking", class_name="text-xl font-bold"),
        rx.dialog.description(DELETE_QUESTION, class_name="mt-2"),
        rx.el.div(
            rx.el.button(
                "Cancel", on_click=S.cancel_delete(False), class_name=SMALL_BUTTON, type="button"
            ),
            rx.el.button(
                "Delete Booking",
                on_click=S.delete,
                class_name=DANGER_BUTTON,
                type="button",
                data_testid="confirm-delete",
            ),
            class_name="mt-4 flex justify-end gap-2",
        ),
        open=S.confirm_delete,
        on_close=S.cancel_delete,
        test_id="delete-dialog",
    )


def admin_booking_edit_page() -> rx.Component:
    return admin_frame(
        "Edit Booking",
        notices(S.notice, S.error),
        rx.cond(S.loaded, rx.cond(S.found, _form()), loading_spinner()),
        _confirm_delete(),
        current="bookings",
        actions=rx.link(
            rx.icon("arrow-left", size=16),
            "Back to Bookings",
            href=routes.ADMIN_BOOKINGS,
            class_name=SMALL_BUTTON,
            underline="none",
        ),
        denied=ACCESS,
    )
