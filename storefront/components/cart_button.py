"""The floating cart button at the bottom right: item count, link to the cart, a hop when
something is added."""

import reflex as rx

from storefront import routes
from storefront.state.cart import CartState


def floating_cart() -> rx.Component:
    return rx.link(
        rx.icon("shopping-cart", size=26),
        rx.cond(
            CartState.count > 0,
            rx.el.span(
                CartState.count,
                class_name="absolute -top-1 -right-1 min-w-6 h-6 px-1 rounded-full bg-white "
                "text-fuchsia-700 text-xs font-bold flex items-center justify-center shadow",
                data_testid="cart-count",
            ),
        ),
        href=routes.CART,
        underline="none",
        aria_label="Cart",
        class_name=rx.cond(
            CartState.last_added_id != "",
            "cart-fab cart-fab-hop",
            "cart-fab",
        ),
        data_testid="floating-cart",
    )
