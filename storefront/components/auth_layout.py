"""The frame of the sign-in, sign-up and reset screens: logo, title, subtitle, a card, and a
footer with Terms, Privacy and Contact."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.brand import logo
from storefront.components.ui import NOT_READY, error_box, success_box
from storefront.i18n import _

__all__ = ["auth_layout", "error_box", "field", "submit_button", "success_box"]

FIELD = (
    "mt-1 w-full px-4 py-2.5 rounded-lg border-2 border-slate-200 focus:border-fuchsia-500 "
    "outline-none bg-white"
)


def auth_layout(title: str, subtitle: str, *children: rx.Component) -> rx.Component:
    return rx.el.main(
        rx.el.div(
            rx.el.div(logo("lg"), class_name="flex justify-center"),
            rx.el.h1(title, class_name="mt-6 text-2xl md:text-3xl font-bold text-center"),
            rx.el.p(subtitle, class_name="mt-2 text-center text-slate-600"),
            rx.el.div(
                *children,
                class_name="mt-8 rounded-3xl bg-white shadow-xl border border-slate-100 p-6 md:p-8",
            ),
            rx.el.nav(
                rx.link(_("Terms"), href=i18n.href(routes.TERMS), underline="none"),
                rx.link(_("Privacy"), href=i18n.href(routes.PRIVACY), underline="none"),
                rx.link(_("Contact"), href=i18n.href(routes.CONTACT), underline="none"),
                class_name="mt-8 flex justify-center gap-6 text-sm text-slate-500",
            ),
            class_name="w-full max-w-md",
        ),
        class_name="min-h-screen flex items-center justify-center px-4 py-12 "
        "bg-gradient-to-b from-fuchsia-50 to-white",
    )


SUBMIT = (
    "w-full py-3 rounded-full bg-fuchsia-600 text-white font-semibold "
    "hover:bg-fuchsia-700 disabled:opacity-60"
)


def field(
    label: str,
    name: str,
    type_: str = "text",
    *,
    input_id: str | None = None,
    class_name: str = FIELD,
    **props,
) -> rx.Component:
    """A labelled input of a form; its id is its name unless another is given."""
    input_id = input_id or name
    return rx.el.div(
        rx.el.label(label, html_for=input_id, class_name="block text-sm font-semibold"),
        rx.el.input(id=input_id, name=name, type=type_, class_name=class_name, **props),
    )


def submit_button(
    label: str, busy: rx.Var, busy_label: str, *, class_name: str = SUBMIT
) -> rx.Component:
    """A form's submit button, disabled and saying what it does while the form is busy. Before
    the page has come alive it takes no click: the browser would send the form itself, as a
    page load that answers nothing (what was typed stays in the fields)."""
    return rx.el.button(
        rx.cond(busy, busy_label, label),
        type="submit",
        disabled=busy | NOT_READY,
        class_name=class_name,
    )
