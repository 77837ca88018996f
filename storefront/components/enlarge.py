"""Click a photo to see it large; click the backdrop (or press Escape) to close."""

import reflex as rx
from reflex.experimental.client_state import ClientStateVar

enlarged = ClientStateVar.create("enlarged_photo", default="", global_ref=True)


def enlargeable(
    src: rx.Var, alt: rx.Var, *, width: int, height: int, class_name: str = "", eager=False
):
    return rx.el.button(
        rx.image(
            src=src,
            alt=alt,
            width=str(width),
            height=str(height),
            loading="eager" if eager else "lazy",
            class_name="w-full h-full object-cover",
        ),
        on_click=enlarged.set_value(src),
        class_name="overflow-hidden rounded-xl shrink-0 " + class_name,
        aria_label="Enlarge photo",
        data_testid="enlargeable",
    )


def enlarge_overlay() -> rx.Component:
    return rx.cond(
        enlarged.value != "",
        rx.el.div(
            rx.image(
                src=enlarged.value,
                alt="",
                class_name="max-w-[92vw] max-h-[86vh] rounded-xl shadow-2xl",
                on_click=rx.stop_propagation,
            ),
            on_click=enlarged.set_value(""),
            class_name="fixed inset-0 z-[60] bg-black/80 flex items-center justify-center p-4",
            data_testid="enlarge-overlay",
        ),
    )
