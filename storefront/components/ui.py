"""Small building blocks shared by pages: headings, buttons, states of loading and error."""

import reflex as rx

from storefront.i18n import N_, _

PRIMARY_BUTTON = (
    "inline-flex items-center justify-center gap-2 px-6 py-3 rounded-full bg-fuchsia-600 "
    "text-white font-semibold hover:bg-fuchsia-700 disabled:opacity-50 disabled:cursor-not-allowed"
)
SECONDARY_BUTTON = (
    "inline-flex items-center justify-center gap-2 px-6 py-3 rounded-full border-2 "
    "border-fuchsia-600 text-fuchsia-700 font-semibold hover:bg-fuchsia-50"
)


def page_title(text: str, subtitle: str | None = None) -> rx.Component:
    return rx.el.div(
        rx.el.h1(text, class_name="text-3xl md:text-5xl font-extrabold tracking-tight"),
        rx.el.p(subtitle, class_name="mt-4 text-lg text-slate-600") if subtitle else rx.fragment(),
        class_name="max-w-5xl mx-auto px-4 pt-12 pb-6 text-center",
    )


def section_title(text: str) -> rx.Component:
    return rx.el.h2(text, class_name="text-2xl md:text-3xl font-bold text-center mb-8")


def skeleton(class_name: str, *, rounded: str = "rounded-lg") -> rx.Component:
    """A grey placeholder of the size `class_name` gives, where content is on its way: it keeps
    the content's room so nothing below it moves when the content arrives (no layout shift). A
    block-level span, so it may stand in a paragraph (a dialog's description) as well."""
    return rx.el.span(class_name=f"block animate-pulse bg-slate-200 {rounded} {class_name}")


def loading_spinner() -> rx.Component:
    return rx.el.div(
        rx.spinner(size="3"), class_name="flex justify-center py-24", data_testid="loading"
    )


def empty_state(title: str, text: rx.Var | str, on_retry) -> rx.Component:
    return rx.el.div(
        rx.el.h2(title, class_name="text-2xl font-bold"),
        rx.el.p(text, class_name="mt-3 text-slate-600"),
        rx.el.button(_("Try Again"), on_click=on_retry, class_name=PRIMARY_BUTTON + " mt-6"),
        class_name="max-w-xl mx-auto text-center px-4 py-16",
        data_testid="empty-state",
    )


def error_box(message, test_id: str = "auth-error") -> rx.Component:
    """A red box with `message`, shown only when there is one."""
    return rx.cond(
        message != "",
        rx.el.div(
            message,
            role="alert",
            class_name="rounded-lg bg-red-50 border border-red-200 text-red-700 px-4 py-3 text-sm",
            data_testid=test_id,
        ),
    )


def success_box(message, test_id: str = "auth-success") -> rx.Component:
    """A green box with `message`, shown only when there is one."""
    return rx.cond(
        message != "",
        rx.el.div(
            message,
            role="status",
            class_name="rounded-lg bg-green-50 border border-green-200 text-green-800 px-4 py-3 "
            "text-sm",
            data_testid=test_id,
        ),
    )


# A field whose value the server holds (value= with on_change) takes no keys until the page has
# come alive and its on_load has answered: text typed into the prerendered page before then would
# be wiped by the first answer (docs/architecture.md §3). Forms the browser keeps (uncontrolled,
# read on submit) need no such wait. `not_ready_note` says why a field is not taking keys yet.
NOT_READY = ~rx.State.is_hydrated
NOT_READY_TEXT = N_("Loading the form...")


def loaded_for_this_visit(loaded: rx.Var) -> rx.Var:
    """A page's `loaded` flag as this visit's: a tab keeps its state between visits, and a page
    opened again first shows the last visit's (the hydrate sends the whole state before the
    page's on_load runs), so a form shown on `loaded` alone appears and is then replaced when the
    on_load clears it, taking what was typed meanwhile. `rx.State.is_hydrated` stays False until
    the page's on_load handlers have all answered."""
    return loaded & rx.State.is_hydrated


# What is typed stays typed: a field bound to the server (value= with on_change) shows what the
# server last said, so under load an answer to an earlier key, or a page's on_load arriving late,
# put back older text over the keys typed since (five guests at once lost the name they had just
# typed: tests/e2e/test_many_guests_checkout.py). A visitor's form is kept by the browser
# instead: its fields start from the state (default_value) and are read when the form is sent
# (on_submit's form data); the state never writes into them while they are on screen. To start
# them again from the state (a signed-in guest's known details, arriving with the page's load),
# give their form a `key` the load changes: the fields are drawn anew while they still take no
# keys (NOT_READY). on_change may still tell the server (to clear the field's error).
def kept_input(**props) -> rx.Component:
    """A visitor's text field, kept by the browser (see above); no keys before the page is alive."""
    props.setdefault("disabled", NOT_READY)
    return rx.el.input(**props)


def kept_select(*options, **props) -> rx.Component:
    props.setdefault("disabled", NOT_READY)
    return rx.el.select(*options, **props)


def kept_textarea(**props) -> rx.Component:
    props.setdefault("disabled", NOT_READY)
    return rx.el.textarea(**props)


def calendar_link(href, test_id: str) -> rx.Component:
    """A booking's calendar file (booking_links.ics_path), downloaded."""
    return rx.el.a(
        _("Add to calendar (.ics)"),
        href=href,
        download=True,
        class_name=SECONDARY_BUTTON,
        data_testid=test_id,
    )


def field_error(errors: rx.Var, key, error_id, test_id) -> rx.Component:
    """A refused field's message beside it (`errors` maps a field to its message); the field
    names it with aria-describedby=`error_id`."""
    return rx.cond(
        errors.contains(key),
        rx.el.p(
            errors[key], id=error_id, class_name="mt-1 text-sm text-red-600", data_testid=test_id
        ),
    )


def not_ready_note() -> rx.Component:
    return rx.cond(
        NOT_READY,
        rx.el.p(
            _(NOT_READY_TEXT),
            role="status",
            class_name="text-sm text-slate-500",
            data_testid="form-not-ready",
        ),
    )


# A day typed as the site shows days (DD.MM.YYYY) and a time on the 24-hour clock (HH:MM),
# whatever the browser's language: a browser's own date and time fields show its locale's
# format (mm/dd/yyyy and 12:00 PM in an English Chrome). The services read them with
# dates.typed_day and availability.parse_clock.
DATE_FIELD = {
    "type": "text",
    "input_mode": "numeric",
    "placeholder": "DD.MM.YYYY",
    "max_length": 10,
    "auto_complete": "off",
}
TIME_FIELD = {"type": "text", "placeholder": "HH:MM", "max_length": 5, "auto_complete": "off"}


def date_input(**props) -> rx.Component:
    return rx.el.input(**DATE_FIELD, **props)


def time_input(**props) -> rx.Component:
    return rx.el.input(**TIME_FIELD, **props)


# Long enough to keep a quick typist's keys together, short enough that the total follows.
NUMBER_DEBOUNCE_MS = 150


def number_input(value: rx.Var, on_change, **props) -> rx.Component:
    """A field for a whole number. The browser keeps what is typed and tells the server after a
    short pause (or on blur), so an answer to an earlier key never overwrites later keys. It
    takes no keys before the page has come alive (NOT_READY)."""
    props.setdefault("disabled", NOT_READY)
    return rx.debounce_input(
        rx.el.input(type="text", input_mode="numeric", value=value, on_change=on_change, **props),
        debounce_timeout=NUMBER_DEBOUNCE_MS,
    )
