"""The cart: its items, remove, and the order summary."""

import reflex as rx

from storefront import routes
from storefront.components.layout import page_layout
from storefront.components.photo import img
from storefront.components.ui import PRIMARY_BUTTON, page_title
from storefront.state.cart import CartState


def _item_row(item: dict) -> rx.Component:
    return rx.el.li(
        img(
            item["image"],
            item["name"],
            width=96,
            height=96,
            class_name="w-24 h-24 rounded-xl object-cover shrink-0",
        ),
        rx.el.div(
            rx.el.h3(item["name"], class_name="font-semibold"),
            rx.el.p(item["description"], class_name="text-sm text-slate-600 line-clamp-2"),
            rx.el.p(
                item["price_label"], " × ", item["quantity"], class_name="mt-1 text-sm font-medium"
            ),
            rx.el.p(
                rx.cond(
                    item["date"] != "",
                    item["date"] + " " + item["start_time"] + " · " + item["duration"] + "h",
                    "No time selected",
                ),
                class_name="mt-1 text-sm text-amber-700",
            ),
            class_name="flex-1 min-w-0",
        ),
        rx.el.button(
            rx.icon("trash-2", size=18),
            on_click=CartState.remove(item["id"]),
            aria_label="Remove",
            class_name="p-2 rounded-lg text-slate-500 hover:text-red-600 hover:bg-red-50",
            data_testid="cart-remove",
        ),
        class_name="flex gap-4 items-start p-4 rounded-2xl border border-slate-100 bg-white",
        data_testid="cart-item",
    )


def _summary() -> rx.Component:
    return rx.el.aside(
        rx.el.h2("Order Summary", class_name="text-xl font-bold"),
        rx.el.ul(
            rx.foreach(
                CartState.items,
                lambda item: rx.el.li(
                    rx.el.span(item["name"], " × ", item["quantity"], class_name="truncate"),
                    rx.el.span(item["line_total_label"], class_name="shrink-0"),
                    class_name="flex justify-between gap-3 text-sm",
                ),
            ),
            class_name="mt-4 space-y-2",
        ),
        rx.el.div(
            rx.el.span("Total"),
            rx.el.span(CartState.total_label, data_testid="cart-total"),
            class_name="mt-4 pt-4 border-t flex justify-between font-bold text-lg",
        ),
        rx.el.button(
            "Proceed to Checkout",
            disabled=True,
            class_name=PRIMARY_BUTTON + " w-full mt-6",
            title="Please select a date and time for all services in your cart before proceeding to checkout.",
        ),
        rx.el.p(
            "Time slots are available from 8 AM to 8 PM. Payment is collected at the time of service.",
            class_name="mt-3 text-xs text-slate-500",
        ),
        class_name="rounded-2xl border border-slate-100 shadow-lg p-6 bg-white h-fit",
    )


def cart_page() -> rx.Component:
    return page_layout(
        page_title("Cart"),
        rx.cond(
            CartState.count > 0,
            rx.el.div(
                rx.el.ul(rx.foreach(CartState.items, _item_row), class_name="space-y-4"),
                _summary(),
                class_name="max-w-6xl mx-auto px-4 grid gap-8 md:grid-cols-[1fr_360px]",
            ),
            rx.el.div(
                rx.el.p("Your cart is empty.", class_name="text-slate-600"),
                rx.link(
                    "Browse Services",
                    href=routes.HOME,
                    underline="none",
                    class_name=PRIMARY_BUTTON + " mt-6",
                ),
                class_name="text-center py-16",
                data_testid="cart-empty",
            ),
        ),
    )
