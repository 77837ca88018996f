"""<img> with real width and height attributes.

`rx.image(width=..., height=...)` turns them into CSS instead, so the browser cannot reserve
the photo's box before it loads and the page jumps. This sets the attributes themselves."""

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
