"""A photo enlarged over the page: a click on a photo opens it, a click on the backdrop, the
close button or Escape closes it. Kept in the browser; no server round trip.

It is a modal dialog: the focus starts on its close button and stays there (Tab cannot leave),
and on closing it goes back to what had it before (the photo that opened it)."""

from __future__ import annotations

import reflex as rx
from reflex.experimental.client_state import ClientStateVar

from storefront.components.photo import img
from storefront.i18n import _

enlarged = ClientStateVar.create("enlarged_photo", default={}, global_ref=True)


# Remembers the last element focused outside the overlay: the one to give the focus back to.
_REMEMBER_OPENER = """
useEffect(() => {
  const remember = (event) => {
    if (!event.target.closest('[data-testid="lightbox"]')) window.__lightboxOpener = event.target;
  };
  document.addEventListener("focusin", remember);
  return () => document.removeEventListener("focusin", remember);
}, []);
"""


class _OpenerTracker(rx.Fragment):
    """Installs the focus memory once per page (it renders nothing)."""

    def add_imports(self):
        return {"react": [rx.ImportVar(tag="useEffect")]}

    def add_hooks(self):
        return [_REMEMBER_OPENER]


def _close() -> rx.Var:
    """Closes the overlay and gives the focus back to what opened it."""
    close = enlarged.set_value({})
    return rx.Var(
        f"(event) => {{ ({close})(); const opener = window.__lightboxOpener;"
        " if (opener && opener.isConnected) setTimeout(() => opener.focus(), 0); }",
        _var_data=close._get_all_var_data(),
    )


def _on_key() -> rx.Var:
    """Escape closes; Tab stays on the close button, the overlay's one control (a div has no
    Reflex key trigger)."""
    close = _close()
    return rx.Var(
        f'(event) => {{ if (event.key === "Escape") {{ event.stopPropagation(); ({close})(); }}'
        ' else if (event.key === "Tab") { event.preventDefault();'
        " event.currentTarget.querySelector('[data-testid=\"lightbox-close\"]')?.focus(); } }",
        _var_data=close._get_all_var_data(),
    )


def open_photo(photo: rx.Var):
    """The event that enlarges `photo` (a dict or dataclass with `title` and `image_url`)."""
    return enlarged.set_value({"title": photo["title"], "image_url": photo["image_url"]})


def lightbox() -> rx.Component:
    """Render once per page."""
    photo = enlarged.value
    return rx.fragment(_OpenerTracker.create(), _overlay(photo))


def _overlay(photo: rx.Var) -> rx.Component:
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
                custom_attrs={"onClick": _close()},
                aria_label=_("Close"),
                class_name="absolute top-4 right-4 rounded-full bg-white/90 p-2 text-slate-800",
                auto_focus=True,
                data_testid="lightbox-close",
            ),
            # Focus starts on the close button and stays inside (the overlay itself takes it
            # when the photo is clicked), so Escape always arrives here.
            custom_attrs={"onClick": _close(), "onKeyDown": _on_key()},
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
                # With a caption the caption names the photo; without, the alt does.
                alt="" if caption else photo.title,
                width=800,
                height=600,
                loading="lazy",
                sizes="(min-width: 768px) 768px, 100vw",
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
            class_name="relative block w-full",
            data_testid=test_id,
        )

    return slide
