"""A photo enlarged over the page: a click on a photo opens it, a click on the backdrop, the
close button or Escape closes it. Kept in the browser; no server round trip."""

from __future__ import annotations

import reflex as rx
from reflex.experimental.client_state import ClientStateVar

from storefront.components.photo import img

enlarged = ClientStateVar.create("enlarged_photo", default={}, global_ref=True)


def _close_on_escape() -> rx.Var:
    """A key handler that closes the overlay on Escape (a div has no Reflex key trigger)."""
    close = enlarged.set_value({})
    return rx.Var(
        f'(event) => {{ if (event.key === "Escape") {{ event.stopPropagation(); ({close})(); }} }}',
        _var_data=close._get_all_var_data(),
    )


def open_photo(photo: rx.Var):
    """The event that enlarges `photo` (a dict or dataclass with `title` and `image_url`)."""
    return enlarged.set_value({"title": photo["title"], "image_url": photo["image_url"]})


def lightbox() -> rx.Component:
    """Render once per page."""
    photo = enlarged.value
    return rx.cond(
        photo["image_url"].to(bool),
        rx.el.div(
            rx.el.figure(
                img(
                    src=photo["image_url"],
                    alt=photo["title"],
                    width=800,
                    height=600,
                    class_name="max-h-[80vh] w-auto max-w-full rounded-2xl object-contain shadow-2xl",
                    on_click=rx.stop_propagation,
                ),
                rx.el.figcaption(photo["title"], class_name="mt-3 text-center text-white"),
                class_name="flex flex-col items-center",
            ),
            rx.el.button(
                rx.icon("x", size=24),
                on_click=enlarged.set_value({}),
                aria_label="Close",
                class_name="absolute top-4 right-4 rounded-full bg-white/90 p-2 text-slate-800",
                auto_focus=True,
                data_testid="lightbox-close",
            ),
            on_click=enlarged.set_value({}),
            # Focus starts on the close button and stays inside (the overlay itself takes it
            # when the photo is clicked), so Escape always arrives here.
            custom_attrs={"onKeyDown": _close_on_escape()},
            tab_index=-1,
            role="dialog",
            aria_modal="true",
            aria_label=photo["title"],
            class_name="fixed inset-0 z-[60] flex items-center justify-center bg-black/80 p-4 "
            "outline-none",
            data_testid="lightbox",
        ),
    )


def enlargeable_slide(*, caption: bool = False, test_id: str | None = None):
    """A carousel slide (`render_slide(photo, index)`) showing a 4:3 photo that opens in the
    lightbox, optionally with its title over the bottom edge."""

    def slide(photo: rx.Var, _index: rx.Var) -> rx.Component:
        return rx.el.button(
            img(
                src=photo.image_url,
                alt=photo.title,
                width=800,
                height=600,
                loading="lazy",
                class_name="w-full aspect-[4/3] object-cover",
            ),
            rx.el.span(
                photo.title,
                class_name="absolute inset-x-0 bottom-0 p-4 text-left text-lg font-semibold "
                "text-white bg-gradient-to-t from-black/70 to-transparent",
            )
            if caption
            else rx.fragment(),
            on_click=open_photo(photo),
            type="button",
            aria_label=photo.title,
            class_name="relative block w-full",
            data_testid=test_id,
        )

    return slide
