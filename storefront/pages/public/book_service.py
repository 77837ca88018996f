"""/services/{serviceId}/book: the service, the date-and-time picker, 'Booking Summary' and
'Your Details'."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.layout import page_layout
from storefront.components.municipality import deposit_note, municipality_options, transport_rows
from storefront.components.photo import img
from storefront.components.slot_picker import slot_picker
from storefront.components.ui import (
    NOT_READY,
    PRIMARY_BUTTON,
    field_error,
    kept_input,
    kept_select,
    loading_spinner,
    number_input,
)
from storefront.i18n import _, _s
from storefront.pages import registry
from storefront.pages.public.checkout import mail_held_notice
from storefront.services.booking.contact import (
    EVENT_TYPE_LABELS,
    INPUT_KINDS,
    MAX_GUESTS,
    MIN_GUESTS,
    fields_for,
)
from storefront.state.auth import AuthState
from storefront.state.book_service import BookServiceState
from storefront.state.slot_picker import SlotPickerState

INPUT = "mt-1 w-full px-4 py-2 rounded-lg border-2 border-slate-200 focus:border-fuchsia-500"
FORM_ID = "book-details"
CARD = "rounded-2xl border border-slate-100 bg-white p-5 sm:p-6 min-w-0"


def _error(field: str) -> rx.Component:
    return field_error(BookServiceState.errors, field, f"book-{field}-error", f"book-error-{field}")


def _input(label: str, field: str, kind: str = "text", **props) -> rx.Component:
    return rx.el.div(
        rx.el.label(label, html_for=f"book-{field}", class_name="text-sm font-semibold"),
        kept_input(
            id=f"book-{field}",
            name=field,
            # The page's own messages say what is wrong, not the browser's bubble.
            type="text" if kind == "email" else kind,
            input_mode="email" if kind == "email" else None,
            auto_complete={"full_name": "name", "email": "email", "phone": "tel"}.get(field),
            default_value=BookServiceState.form[field],
            on_change=BookServiceState.clear_error(field),
            aria_invalid=rx.cond(BookServiceState.errors.contains(field), "true", "false"),
            aria_describedby=f"book-{field}-error",
            class_name=INPUT,
            **props,
        ),
        _error(field),
    )


def _quantity() -> rx.Component:
    """How many, for a service booked by the piece (tables): the total follows it."""
    return rx.el.div(
        rx.el.label(_("Quantity *"), html_for="book-quantity", class_name="text-sm font-semibold"),
        number_input(
            BookServiceState.quantity,
            BookServiceState.set_quantity,
            id="book-quantity",
            max_length=4,
            aria_invalid=rx.cond(BookServiceState.errors.contains("quantity"), "true", "false"),
            aria_describedby="book-quantity-error",
            class_name=INPUT,
        ),
        _error("quantity"),
    )


def _details() -> rx.Component:
    # The fields hold what is typed (components/ui.py, 'What is typed stays typed'); 'Book Now',
    # in the summary beside them, sends this form. Drawn again (key) when the visit's load has
    # answered with a signed-in guest's known details, before the fields take keys.
    return rx.el.form(
        rx.el.h2(_("Your Details"), class_name="text-lg font-bold"),
        rx.el.div(
            _input(_("Name *"), "full_name"),
            _input(_("Email *"), "email", "email"),
            _input(_("Phone *"), "phone", "tel"),
            rx.el.div(
                rx.el.label(
                    _("Event Type *"),
                    html_for="book-event_type",
                    class_name="text-sm font-semibold",
                ),
                kept_select(
                    rx.el.option(_("Choose the event type"), value="", disabled=True),
                    *[
                        rx.el.option(_(label), value=value)
                        for value, label in EVENT_TYPE_LABELS.items()
                    ],
                    id="book-event_type",
                    name="event_type",
                    default_value=BookServiceState.form["event_type"],
                    on_change=BookServiceState.clear_error("event_type"),
                    aria_invalid=rx.cond(
                        BookServiceState.errors.contains("event_type"), "true", "false"
                    ),
                    aria_describedby="book-event_type-error",
                    class_name=INPUT,
                ),
                _error("event_type"),
            ),
            _input(_("Address"), "address"),
            rx.el.div(
                rx.el.label(
                    _("Municipality *"), html_for="book-city", class_name="text-sm font-semibold"
                ),
                kept_select(
                    *municipality_options(),
                    id="book-city",
                    name="city",
                    default_value=BookServiceState.form["city"],
                    on_change=BookServiceState.choose_city,
                    aria_invalid=rx.cond(BookServiceState.errors.contains("city"), "true", "false"),
                    aria_describedby="book-city-error",
                    class_name=INPUT,
                    data_testid="book-city",
                ),
                _error("city"),
            ),
            _input(_("Guests *"), "guest_count", "number", min=MIN_GUESTS, max=MAX_GUESTS),
            rx.cond(BookServiceState.counted, _quantity()),
            # The declared fields laid out by no screen by hand (models/contact_fields.py).
            *[
                _input(
                    _s(f.label) + (" *" if "booking" in f.required else ""),
                    f.name,
                    INPUT_KINDS.get(f.kind, "text"),
                )
                for f in fields_for("booking", added=True)
            ],
            class_name="mt-3 grid gap-4 sm:grid-cols-2",
        ),
        rx.cond(
            ~AuthState.signed_in,
            rx.el.p(
                _("Booking as a guest. "),
                # Underlined: in a sentence, a link told apart by its colour alone is missed
                # (Lighthouse's link-in-text-block).
                rx.link(_("Sign in"), href=BookServiceState.sign_in_href, underline="always"),
                _(" to see your bookings and offers in your account."),
                class_name="mt-4 text-sm text-slate-600",
            ),
        ),
        id=FORM_ID,
        key=BookServiceState.form_key,
        on_submit=BookServiceState.submit,
        reset_on_submit=False,
        no_validate=True,
        class_name=CARD,
    )


def _summary() -> rx.Component:
    return rx.el.aside(
        rx.el.h2(_("Booking Summary"), class_name="text-lg font-bold"),
        rx.el.dl(
            rx.el.div(
                rx.el.dt(_("Service")),
                rx.el.dd(BookServiceState.service["title"]),
                class_name="flex justify-between gap-3",
            ),
            rx.el.div(
                rx.el.dt(_("Date")),
                rx.el.dd(
                    rx.cond(
                        SlotPickerState.selected_date != "", SlotPickerState.selected_label, "-"
                    )
                ),
                class_name="flex justify-between gap-3",
            ),
            rx.el.div(
                rx.el.dt(_("Time")),
                rx.el.dd(
                    rx.cond(SlotPickerState.selected_time != "", SlotPickerState.selected_time, "-")
                ),
                class_name="flex justify-between gap-3",
            ),
            rx.el.div(
                rx.el.dt(_("Duration")),
                rx.el.dd(_("{hours} h").format(hours=SlotPickerState.duration)),
                class_name="flex justify-between gap-3",
            ),
            rx.cond(
                BookServiceState.counted,
                rx.el.div(
                    rx.el.dt(_("Quantity")),
                    rx.el.dd(BookServiceState.quantity),
                    class_name="flex justify-between gap-3",
                ),
            ),
            transport_rows(BookServiceState.owed, "book"),
            rx.el.div(
                rx.el.dt(_("Total")),
                rx.el.dd(BookServiceState.total_label, data_testid="book-total"),
                class_name="flex justify-between gap-3 pt-3 border-t font-bold text-lg",
            ),
            class_name="mt-4 space-y-2 text-sm",
        ),
        deposit_note(BookServiceState.owed, "book"),
        rx.cond(
            BookServiceState.error != "",
            rx.el.p(
                BookServiceState.error,
                role="alert",
                class_name="mt-4 text-sm text-red-600",
                data_testid="book-error",
            ),
        ),
        rx.el.button(
            rx.cond(BookServiceState.placing, _("Booking..."), _("Book Now")),
            type="submit",
            form=FORM_ID,
            disabled=NOT_READY
            | BookServiceState.placing
            | (SlotPickerState.selected_date == "")
            | (SlotPickerState.selected_time == ""),
            class_name=PRIMARY_BUTTON + " w-full mt-6",
            data_testid="book-submit",
        ),
        rx.el.p(
            _("Payment is collected at the time of service."),
            class_name="mt-3 text-xs text-slate-500",
        ),
        class_name=CARD + " h-fit",
    )


def _ready() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.div(
                # The service's photo (one at most) is the screen's largest paint: fetched
                # first, never lazily, in the width it shows at beside the 340 px summary.
                rx.foreach(
                    BookServiceState.images,
                    lambda src: img(
                        src,
                        "",
                        width=640,
                        height=400,
                        priority=True,
                        sizes="(min-width: 1152px) 756px, (min-width: 768px) calc(100vw - 396px), "
                        "calc(100vw - 32px)",
                        class_name="w-full max-h-72 object-cover rounded-2xl",
                    ),
                ),
                rx.el.h1(BookServiceState.service["title"], class_name="mt-4 text-3xl font-bold"),
                rx.el.p(BookServiceState.service["description"], class_name="mt-2 text-slate-600"),
                rx.el.p(
                    BookServiceState.service["price"],
                    class_name="mt-2 font-semibold text-fuchsia-700",
                ),
                class_name=CARD,
            ),
            rx.el.section(
                rx.el.h2(_("Date & Time"), class_name="text-lg font-bold"),
                rx.el.div(
                    slot_picker(on_duration=BookServiceState.refresh_total), class_name="mt-3"
                ),
                class_name=CARD,
            ),
            _details(),
            class_name="space-y-6 min-w-0",
        ),
        _summary(),
        class_name="grid gap-6 md:grid-cols-[minmax(0,1fr)_340px]",
        data_testid="book-screen",
    )


def _message(title: str, text, button: str, href: str, test_id: str) -> rx.Component:
    return rx.el.div(
        rx.el.h1(title, class_name="text-3xl font-bold"),
        rx.el.p(text, class_name="mt-4 text-slate-600"),
        rx.link(
            button, href=i18n.href(href), underline="none", class_name=PRIMARY_BUTTON + " mt-6"
        ),
        class_name="text-center py-12",
        data_testid=test_id,
    )


def _held_mail() -> rx.Component:
    """The confirmation mail was held back: said, with the booking's link (the screen stays)."""
    return rx.el.div(
        mail_held_notice("book-mail-held"),
        rx.el.a(
            _("View your booking"),
            href=BookServiceState.booking_href,
            class_name=PRIMARY_BUTTON + " mt-6 inline-block",
            data_testid="book-booking-link",
        ),
    )


@registry.page(routes.SERVICE_BOOK, loaders=[BookServiceState.load])
def book_service() -> rx.Component:
    return page_layout(
        rx.el.div(
            rx.match(
                BookServiceState.status,
                ("loading", loading_spinner()),
                ("ready", _ready()),
                (
                    "done",
                    rx.el.div(
                        rx.icon("circle-check", size=48, class_name="mx-auto text-green-600"),
                        rx.el.h1(_("Booking Submitted!"), class_name="mt-4 text-3xl font-bold"),
                        rx.cond(BookServiceState.mail_held, _held_mail()),
                        class_name="text-center py-12",
                        data_testid="book-submitted",
                    ),
                ),
                (
                    "missing",
                    _message(
                        _("Error"),
                        _("No service ID provided"),
                        _("Back to Services"),
                        routes.SERVICES,
                        "book-error-page",
                    ),
                ),
                (
                    "bad_id",
                    _message(
                        _("Error"),
                        _("Invalid service ID format. Expected a UUID but got: {given}").format(
                            given=BookServiceState.bad_id
                        ),
                        _("Back to Services"),
                        routes.SERVICES,
                        "book-error-page",
                    ),
                ),
                (
                    "not_found",
                    _message(
                        _("Service Not Found"),
                        _("The service you are looking for does not exist."),
                        _("View All Services"),
                        routes.SERVICES,
                        "book-not-found",
                    ),
                ),
                _message(
                    _("Error"),
                    _("Something went wrong loading this service."),
                    _("Back to Services"),
                    routes.SERVICES,
                    "book-error-page",
                ),
            ),
            class_name="max-w-6xl mx-auto px-4 py-10",
        )
    )
