"""Images that keep their place: real width and height attributes, and a fallback text.

`rx.image(width=..., height=...)` turns the sizes into CSS, so the browser cannot reserve the
photo's box before it loads and the page jumps; `img` sets the attributes themselves.
`photo` also never leaves a hole: the fallback text sits under the image; a loaded image covers
it, and a broken one (with an empty alt) draws nothing, so the text shows. No script needed.

Given `sizes` (how wide the picture shows, as in the HTML attribute), a stored photo (under the
media route) also offers the narrower copies the media route makes (api/media.py), so a phone
downloads a 400 px copy for a 180 px tile instead of the 800 px original. `priority` marks the
picture that is the page's largest paint: fetched first, never lazily."""

from __future__ import annotations

import reflex as rx

from storefront.i18n import _
from storefront.services.media.storage import RESIZED_WIDTHS as WIDTHS
from storefront.settings import get_settings


def src_set(src) -> rx.Var | str:
    """The srcset of a stored photo at `src` (a var or a text); empty for any other address."""
    src = rx.Var.create(src).to(str)
    prefix = get_settings().media_url_prefix.rstrip("/") + "/"
    candidates = [src + f"?w={width} {width}w" for width in WIDTHS]
    joined = candidates[0]
    for candidate in candidates[1:]:
        joined = joined + ", " + candidate
    # A modal's photo has no address while it is closed: test that first.
    return rx.cond(src, rx.cond(src.startswith(prefix), joined, ""), "")


def img(
    src,
    alt,
    *,
    width: int,
    height: int,
    loading: str = "lazy",
    sizes: str | None = None,
    priority: bool = False,
    fetch_priority: str | None = None,
    **props,
) -> rx.Component:
    attrs: dict = {"width": width, "height": height}
    if priority:
        attrs["fetchPriority"] = "high"
    elif fetch_priority is not None:
        attrs["fetchPriority"] = fetch_priority
    if sizes is not None:
        props = {"src_set": src_set(src), "sizes": sizes, **props}
    return rx.el.img(
        src=src,
        alt=alt,
        loading="eager" if priority else loading,
        decoding="sync" if priority else "async",
        custom_attrs=attrs,
        **props,
    )


def photo(
    src,
    label,
    *,
    width: int,
    height: int,
    fallback: str | None = None,
    eager: bool = False,
    sizes: str | None = None,
    class_name: str = "",
) -> rx.Component:
    return rx.el.div(
        rx.el.span(
            _("Image Not Found") if fallback is None else fallback,
            class_name="photo-fallback text-sm font-medium text-slate-500",
            aria_hidden="true",
        ),
        img(
            src,
            "",
            width=width,
            height=height,
            loading="eager" if eager else "lazy",
            sizes=sizes,
            class_name="absolute inset-0 w-full h-full object-cover",
        ),
        role="img",
        aria_label=label,
        class_name="relative overflow-hidden flex items-center justify-center bg-slate-100 "
        + class_name,
    )
