"""A photo that never leaves a hole: a failed image shows a placeholder text instead.

The text sits under the image; a loaded image covers it, and a broken one (with an empty alt)
draws nothing, so the text shows. No script needed."""

import reflex as rx


def photo(
    src,
    label,
    *,
    width: int,
    height: int,
    fallback: str = "Image Not Found",
    eager: bool = False,
    class_name: str = "",
) -> rx.Component:
    return rx.el.div(
        rx.el.span(
            fallback,
            class_name="photo-fallback text-sm font-medium text-slate-500",
            aria_hidden="true",
        ),
        rx.el.img(
            src=src,
            alt="",
            width=str(width),
            height=str(height),
            loading="eager" if eager else "lazy",
            decoding="async",
            class_name="absolute inset-0 w-full h-full object-cover",
        ),
        role="img",
        aria_label=label,
        class_name="relative overflow-hidden flex items-center justify-center bg-slate-100 "
        + class_name,
    )
