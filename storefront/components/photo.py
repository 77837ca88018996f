"""Images that keep their place: real width and height attributes, and a fallback text.

`rx.image(width=..., height=...)` turns the sizes into CSS, so the browser cannot reserve the
photo's box before it loads and the page jumps; `img` sets the attributes themselves.
`photo` also never leaves a hole: the fallback text sits under the image; a loaded image covers
it, and a broken one (with an empty alt) draws nothing, so the text shows. No script needed."""

from __future__ import annotations

import reflex as rx


def img(src, alt, *, width: int, height: int, loading: str = "lazy", **props) -> rx.Component:
    return rx.el.img(
        src=src,
        alt=alt,
        loading=loading,
        decoding="async",
        custom_attrs={"width": width, "height": height},
        **props,
    )


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
        img(
            src,
            "",
            width=width,
            height=height,
            loading="eager" if eager else "lazy",
            class_name="absolute inset-0 w-full h-full object-cover",
        ),
        role="img",
        aria_label=label,
        class_name="relative overflow-hidden flex items-center justify-center bg-slate-100 "
        + class_name,
    )
