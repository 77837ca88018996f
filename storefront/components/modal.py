"""The one detail modal: a Radix dialog with a close button in the corner."""

import reflex as rx


def modal(*children: rx.Component, open: rx.Var, on_close, test_id: str) -> rx.Component:
    """`open` decides whether it shows; `on_close` runs when it is dismissed (the ✕, a click
    outside, Escape)."""
    return rx.dialog.root(
        rx.dialog.content(
            *children,
            rx.dialog.close(
                rx.el.button(
                    rx.icon("x", size=20),
                    aria_label="Close",
                    class_name="absolute top-3 right-3 rounded-full bg-white/90 p-1 shadow",
                    data_testid=f"{test_id}-close",
                ),
            ),
            max_width="560px",
            position="relative",
            data_testid=test_id,
        ),
        open=open,
        on_open_change=on_close,
    )
