"""Pages that later work fills in; each already has its route and frame."""

import reflex as rx

from storefront.components.layout import page_layout, placeholder_page

PLACEHOLDERS = {
    "/services": ("Shërbimet", "Të gjitha shërbimet tona."),
    "/services/magic-weddings": ("Magic Weddings", "Dekorime dasmash."),
    "/services/wedding-tables": ("Wedding Tables", "Tavolina për dasma dhe ngjarje."),
    "/contact": ("Contact", "Na kontaktoni për një ofertë."),
    "/cart": ("Cart", "Shporta juaj."),
    "/checkout": ("Checkout", "Përfundoni rezervimin."),
    "/terms": ("Terms of Service", "Kushtet e përdorimit."),
    "/privacy": ("Privacy Policy", "Politika e privatësisë."),
    "/blog": ("Blog", "Së shpejti."),
    "/design-system": ("Design System", "Butona, karta, fusha dhe etiketa."),
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
