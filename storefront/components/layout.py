"""The frame every public page shares."""

import reflex as rx

from storefront.components.cart_button import floating_cart
from storefront.components.footer import footer
from storefront.components.head import structured_data
from storefront.components.navbar import navbar


def page_layout(*children: rx.Component) -> rx.Component:
    return rx.el.div(
        navbar(),
        rx.el.main(*children, class_name="flex-1"),
        footer(),
        floating_cart(),
        structured_data(),
        class_name="min-h-screen flex flex-col bg-white text-slate-900",
    )


def placeholder_page(title: str, text: str) -> rx.Component:
    """A plain page for screens later work fills in."""
    return page_layout(
        rx.el.section(
            rx.el.h1(title, class_name="text-3xl md:text-4xl font-bold"),
            rx.el.p(text, class_name="mt-4 text-slate-600"),
            class_name="max-w-4xl mx-auto px-4 py-16",
        )
    )
