"""Pages that later work fills in; each already has its route and frame."""

import reflex as rx

from storefront.components.layout import page_layout, placeholder_page

PLACEHOLDERS = {
    "/blog": ("Blog", "Së shpejti: ide dhe frymëzim për festat tuaja."),
    "/blog/[slug]": ("Blog", "Ky artikull do të publikohet së shpejti."),
}


def make_placeholder(title: str, text: str):
    def page() -> rx.Component:
        return placeholder_page(title, text)

    return page


def not_found() -> rx.Component:
    return page_layout(
        rx.el.section(
            rx.el.p("404", class_name="text-7xl font-extrabold text-fuchsia-200"),
            rx.el.h1("Page Not Found", class_name="mt-2 text-3xl font-bold"),
            rx.el.p(
                "Sorry, the page you are looking for does not exist or has been moved.",
                class_name="mt-4 text-slate-600",
            ),
            rx.link(
                "Back to Home",
                href="/",
                underline="none",
                class_name="inline-block mt-8 px-6 py-3 rounded-full bg-fuchsia-600 text-white font-semibold",
            ),
            class_name="max-w-xl mx-auto px-4 py-24 text-center",
            data_testid="not-found",
        )
    )


def redirecting() -> rx.Component:
    return page_layout(rx.el.div(rx.spinner(size="3"), class_name="flex justify-center py-24"))
