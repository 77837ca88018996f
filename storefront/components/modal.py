"""The one detail modal: a Radix dialog with a close button in the corner.

Radix traps focus inside the dialog and closes it on Escape; it gives focus back only to its own
trigger, and these dialogs open from state instead. `return_focus()` (props of a dialog's
content) remembers what had focus when the dialog opened and focuses it again on close."""

import reflex as rx

from storefront.i18n import _

_REMEMBER = "(event) => { window.__dialogOpener = document.activeElement; }"
_GIVE_BACK = (
    "(event) => { const opener = window.__dialogOpener; window.__dialogOpener = null;"
    " if (opener && opener.isConnected && opener !== document.body) {"
    " event.preventDefault(); opener.focus(); } }"
)


def return_focus() -> dict:
    """A new dict each time: Reflex adds the component's other attributes (its test id) to
    the `custom_attrs` it is given."""
    return {"onOpenAutoFocus": rx.Var(_REMEMBER), "onCloseAutoFocus": rx.Var(_GIVE_BACK)}


def modal(*children: rx.Component, open: rx.Var, on_close, test_id: str) -> rx.Component:
    """`open` decides whether it shows; `on_close` runs when it is dismissed (the ✕, a click
    outside, Escape)."""
    return rx.dialog.root(
        rx.dialog.content(
            *children,
            rx.dialog.close(
                rx.el.button(
                    rx.icon("x", size=20),
                    aria_label=_("Close"),
                    class_name="absolute top-3 right-3 rounded-full bg-white/90 p-1 shadow "
                    "min-w-6 min-h-6",
                    data_testid=f"{test_id}-close",
                ),
            ),
            max_width="560px",
            position="relative",
            custom_attrs=return_focus(),
            data_testid=test_id,
        ),
        open=open,
        on_open_change=on_close,
    )
