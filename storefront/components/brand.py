"""The logo and the brand's name."""

import reflex as rx

from storefront import i18n, routes
from storefront.i18n import _

BRAND_NAME = "Magic Events"


def logo(size: str = "md", text_class: str = "") -> rx.Component:
    text_size = {"sm": "text-lg", "md": "text-xl", "lg": "text-3xl"}[size]
    return rx.link(
        rx.icon("sparkles", size=22, class_name="mr-1 text-fuchsia-500"),
        rx.el.span(
            BRAND_NAME,
            class_name=f"{text_size} {text_class} font-extrabold tracking-tight bg-gradient-to-r "
            "from-fuchsia-600 to-violet-600 bg-clip-text text-transparent whitespace-nowrap",
        ),
        href=i18n.href(routes.HOME),
        underline="none",
        class_name="flex items-center",
        aria_label=_("{brand} home").format(brand=BRAND_NAME),
    )
