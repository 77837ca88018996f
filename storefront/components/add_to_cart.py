"""The add-to-cart button: 'Adding...' and disabled while the cart is adding this service."""

from __future__ import annotations

import reflex as rx

from storefront.i18n import _
from storefront.state.cart import CartState, adding

BUTTON = (
    "inline-flex items-center justify-center gap-2 rounded-full bg-fuchsia-600 px-5 py-2.5 "
    "font-semibold text-white shadow hover:bg-fuchsia-700 disabled:cursor-wait "
    "disabled:opacity-60 focus:outline-none focus-visible:ring-4 focus-visible:ring-fuchsia-300"
)


def add_to_cart_button(
    service_id: rx.Var, *, test_id: str = "add-to-cart", class_name: str = ""
) -> rx.Component:
    busy = adding.value == service_id
    return rx.el.button(
        rx.icon("shopping-cart", size=18),
        rx.cond(busy, _("Adding..."), _("Add to Cart")),
        on_click=CartState.add_service(service_id, 1),
        disabled=busy,
        type="button",
        class_name=f"{BUTTON} {class_name}",
        data_testid=test_id,
    )
