"""Admin Edit Booking (docs/product.md §2, 5): the booking's fields, each booked service's rate,
quantity, date, time, duration, status and notes with its total, Save Changes, Delete Booking,
Back to Bookings. Each refused field says why beside it."""

import reflex as rx

import storefront.models.municipalities as places
from storefront import i18n, routes
from storefront.components.admin_layout import (
    CARD,
    DANGER_BUTTON,
    INPUT,
    LABEL,
    SMALL_BUTTON,
    admin_frame,
    confirm_dialog,
    notices,
)
from storefront.components.ui import (
    DATE_FIELD,
    PRIMARY_BUTTON,
    TIME_FIELD,
    field_error,
    loaded_for_this_visit,
    loading_spinner,
)
from storefront.i18n import N_o, _o, _s
from storefront.pages import registry
from storefront.services.booking.contact import (
    EVENT_TYPE_LABELS,
    INPUT_KINDS,
    MAX_GUESTS,
    MIN_GUESTS,
    fields_for,
)
from storefront.state.admin_booking_edit import AdminBookingEditState as S
from storefront.state.admin_bookings import STATUSES, status_label

ACCESS = N_o("You must be an admin to access this page.")
DELETE_QUESTION = N_o("Are you sure you want to delete this booking? This action cannot be undone.")
PAST_QUESTION = N_o("This would move the booking into the past: {services}. Save anyway?")


def _field_error(key, field_id) -> rx.Component:
    return field_error(S.field_errors, key, field_id + "-error", "field-error")


def _field(label: str, name: str, value, *, kind: str = "text", required=False, **props):
    field_id = f"edit-{name}"
    mark = rx.cond(required, " *", "") if isinstance(required, rx.Var) else " *" * required
    return rx.el.div(
        rx.el.label(label, mark, html_for=field_id, class_name=LABEL),
        rx.el.input(
            id=field_id,
            # The form's own messages, not the browser's bubbles, say what is wrong.
            type="text" if kind == "email" else kind,
            input_mode="email" if kind == "email" else None,
            value=value,
            aria_required=rx.cond(required, "true", "false"),
            on_change=lambda v: S.set_field(name, v),
            aria_invalid=rx.cond(S.field_errors.contains(name), "true", "false"),
            aria_describedby=field_id + "-error",
            class_name=INPUT,
            **props,
        ),
        _field_error(name, field_id),
    )


def _line_input(index, line: dict, label, name: str, error: str = "", **props):
    """A field of one booked service; `props` give its type. Its error is the service's
    `items.{index}.{error or name}`."""
    field_id = f"line-{name}-" + index.to_string()
    key = "items." + index.to_string() + "." + (error or name)
    return rx.el.div(
        rx.el.label(label, html_for=field_id, class_name=LABEL),
        rx.el.input(
            id=field_id,
            value=line[name],
            on_change=lambda v: S.set_line(index, name, v),
            aria_invalid=rx.cond(S.field_errors.contains(key), "true", "false"),
            class_name=INPUT,
            **props,
        ),
        _field_error(key, field_id),
    )


def _line_select(index, line: dict, label: str, name: str, options: list[tuple[str, str]]):
    """A choice of one booked service: `options` are (value, label)."""
    field_id = f"line-{name}-" + index.to_string()
    return rx.el.div(
        rx.el.label(label, html_for=field_id, class_name=LABEL),
        rx.el.select(
            *[rx.el.option(text, value=value) for value, text in options],
            id=field_id,
            value=line[name],
            on_change=lambda v: S.set_line(index, name, v),
            class_name=INPUT,
        ),
    )


def _line(line: dict, index) -> rx.Component:
    return rx.el.fieldset(
        rx.el.legend(line["name"], class_name="font-semibold px-1"),
        rx.el.div(
            _line_input(
                index,
                line,
                rx.el.span(
                    _o("Price"), " ", rx.el.span(line["unit_label"], data_testid="line-unit")
                ),
                "rate",
                error="unit_price",
                type="number",
                min=0,
                step="0.01",
            ),
            _line_input(index, line, _o("Quantity"), "quantity", type="number", min=1, step=1),
            _line_input(index, line, _o("Date"), "date", **DATE_FIELD),
            _line_input(index, line, _o("Time"), "time", error="date", **TIME_FIELD),
            _line_select(
                index,
                line,
                _o("Duration (hours)"),
                "duration",
                [(str(h), str(h)) for h in range(1, 9)],
            ),
            rx.el.div(
                rx.el.p(_o("Line total"), class_name=LABEL),
                rx.el.p(
                    line["total_label"],
                    class_name="py-2 font-semibold",
                    data_testid="line-subtotal",
                ),
            ),
            class_name="grid gap-3 grid-cols-2 md:grid-cols-6",
        ),
        rx.el.div(
            _line_select(
                index, line, _o("Status"), "status", [(st, status_label(st)) for st in STATUSES]
            ),
            rx.el.div(
                rx.el.label(
                    _o("Notes"), html_for="line-notes-" + index.to_string(), class_name=LABEL
                ),
                rx.el.textarea(
                    id="line-notes-" + index.to_string(),
                    value=line["notes"],
                    on_change=lambda v: S.set_line(index, "notes", v),
                    rows=2,
                    max_length=2000,
                    class_name=INPUT,
                ),
                class_name="md:col-span-2",
            ),
            class_name="mt-3 grid gap-3 md:grid-cols-3",
        ),
        class_name="mt-3 rounded-xl border border-slate-200 p-3",
        data_testid="edit-line",
    )


def _form() -> rx.Component:
    return rx.el.form(
        rx.el.h2(
            _o("Booking {reference}").format(reference=S.reference),
            class_name="text-lg font-bold",
        ),
        rx.el.div(
            _field(_o("Customer name"), "contact_name", S.contact_name),
            _field(_o("Email"), "contact_email", S.contact_email, kind="email", required=True),
            _field(_o("Phone"), "contact_phone", S.contact_phone, kind="tel", required=True),
            _field(
                _o("Venue address"),
                "venue_address",
                S.venue_address,
                required=S.address_required,
            ),
            # The municipality (models/municipalities.py), stored by its Albanian name; another
            # one reprices the transport (services/booking/admin.update_booking).
            rx.el.div(
                rx.el.label(_o("Municipality"), html_for="edit-city", class_name=LABEL),
                rx.el.select(
                    rx.el.option("-", value=""),
                    *[
                        rx.el.option(
                            places.BY_KEY[key].name(i18n.language()), value=places.BY_KEY[key].sq
                        )
                        for key, _name in places.choices(i18n.language())
                    ],
                    id="edit-city",
                    value=S.city,
                    on_change=lambda v: S.set_field("city", v),
                    aria_invalid=rx.cond(S.field_errors.contains("city"), "true", "false"),
                    aria_describedby="edit-city-error",
                    class_name=INPUT,
                ),
                _field_error("city", "edit-city"),
            ),
            _field(_o("ZIP Code"), "zip_code", S.zip_code),
            rx.el.div(
                rx.el.label(_o("Event Type"), html_for="edit-event_type", class_name=LABEL),
                rx.el.select(
                    *[
                        rx.el.option(_s(label), value=value)
                        for value, label in EVENT_TYPE_LABELS.items()
                    ],
                    id="edit-event_type",
                    value=S.event_type,
                    on_change=lambda v: S.set_field("event_type", v),
                    class_name=INPUT,
                ),
            ),
            _field(
                _o("Guests"),
                "guest_count",
                S.guest_count,
                kind="number",
                min=MIN_GUESTS,
                max=MAX_GUESTS,
            ),
            # The declared fields laid out by no screen by hand (models/contact_fields.py).
            *[
                _field(
                    _s(f.label),
                    f.column,
                    S.extra[f.column],
                    kind=INPUT_KINDS.get(f.kind, "text"),
                    required="admin" in f.required,
                )
                for f in fields_for("admin", added=True)
            ],
            class_name="mt-3 grid gap-3 sm:grid-cols-2",
        ),
        rx.el.div(
            rx.el.label(_o("Special requests"), html_for="edit-special_requests", class_name=LABEL),
            rx.el.textarea(
                id="edit-special_requests",
                value=S.special_requests,
                on_change=lambda v: S.set_field("special_requests", v),
                rows=3,
                class_name=INPUT,
            ),
            class_name="mt-3",
        ),
        rx.el.h2(_o("Services"), class_name="mt-6 text-lg font-bold"),
        rx.foreach(S.lines, _line),
        rx.el.div(
            rx.el.p(
                _o("Services:"),
                " ",
                rx.el.span(S.lines_total_label, data_testid="lines-total"),
            ),
            rx.el.p(
                _o("Transport:"),
                " ",
                rx.el.span(S.transport_label, data_testid="edit-transport"),
                rx.el.span(
                    " " + _o("(another municipality reprices it when saved)"),
                    class_name="text-xs text-slate-500",
                ),
            ),
            rx.el.div(
                rx.el.label(
                    _o("Total set by hand (optional)"),
                    html_for="edit-total_amount",
                    class_name=LABEL,
                ),
                rx.el.input(
                    id="edit-total_amount",
                    type="number",
                    min=0,
                    step="0.01",
                    value=S.total_amount,
                    placeholder=_o("The services' sum"),
                    on_change=lambda v: S.set_field("total_amount", v),
                    class_name=INPUT + " max-w-[12rem]",
                ),
                _field_error("total_amount", "edit-total_amount"),
            ),
            rx.el.p(
                _o("Total:"),
                " ",
                rx.el.strong(S.total_label),
                class_name="text-lg",
                data_testid="edit-total",
            ),
            class_name="mt-4 flex flex-col items-end gap-2 text-right",
        ),
        rx.el.div(
            rx.el.button(
                rx.cond(S.busy, _o("Saving..."), _o("Save Changes")),
                type="submit",
                disabled=S.busy,
                class_name=PRIMARY_BUTTON,
                data_testid="edit-save",
            ),
            rx.cond(
                S.conflicts.length() > 0,
                rx.el.button(
                    _o("Save anyway (overbook)"),
                    type="button",
                    on_click=S.save_with_override,
                    class_name=DANGER_BUTTON,
                ),
            ),
            rx.el.button(
                _o("Delete Booking"),
                type="button",
                on_click=S.ask_delete,
                class_name=DANGER_BUTTON,
                data_testid="edit-delete",
            ),
            class_name="mt-6 flex flex-wrap gap-3 items-center",
        ),
        on_submit=S.save,
        no_validate=True,
        class_name=CARD + " mt-6 p-4 md:p-6",
        data_testid="booking-edit-form",
    )


def _confirm_delete() -> rx.Component:
    return confirm_dialog(
        _o("Delete Booking"),
        _o(DELETE_QUESTION),
        confirm_label=_o("Delete Booking"),
        on_confirm=S.delete,
        on_cancel=S.cancel_delete,
        open=S.confirm_delete,
        test_id="delete-dialog",
        confirm_test_id="confirm-delete",
    )


def _confirm_past() -> rx.Component:
    return confirm_dialog(
        _o("Move into the past?"),
        _o(PAST_QUESTION).format(services=S.past_lines.join(", ")),
        confirm_label=_o("Save anyway"),
        on_confirm=S.save_in_past,
        on_cancel=S.keep_editing,
        cancel_label=_o("Keep editing"),
        open=S.past_lines.length() > 0,
        test_id="past-dialog",
        confirm_test_id="confirm-past",
    )


@registry.page(routes.ADMIN_BOOKING_EDIT, loaders=[S.load])
def admin_booking_edit_page() -> rx.Component:
    return admin_frame(
        _o("Edit Booking"),
        notices(S.notice, S.error),
        rx.cond(loaded_for_this_visit(S.loaded), rx.cond(S.found, _form()), loading_spinner()),
        _confirm_delete(),
        _confirm_past(),
        current="bookings",
        actions=rx.link(
            rx.icon("arrow-left", size=16),
            _o("Back to Bookings"),
            href=i18n.href(routes.ADMIN_BOOKINGS),
            class_name=SMALL_BUTTON,
            underline="none",
        ),
        denied=_o(ACCESS),
    )
