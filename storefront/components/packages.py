"""Package cards under tabs (the Mascots and Bouncers pages). Tabs switch in the browser."""

from __future__ import annotations

import reflex as rx

from storefront.components.add_to_cart import add_to_cart_button


def package_card(package: rx.Var) -> rx.Component:
    return rx.el.article(
        rx.el.h3(package.name, class_name="text-xl font-bold text-slate-900"),
        rx.el.ul(
            rx.foreach(
                package.features,
                lambda feature: rx.el.li(feature, class_name="text-slate-700"),
            ),
            class_name="mt-4 space-y-2 flex-1",
        ),
        rx.el.p(
            package.price_label,
            class_name="mt-6 text-2xl font-extrabold text-fuchsia-700",
            data_testid="package-price",
        ),
        add_to_cart_button(package.id, test_id="package-add", class_name="mt-4 w-full"),
        class_name="flex flex-col rounded-3xl border border-fuchsia-100 bg-white p-6 shadow-sm "
        "hover:shadow-lg transition-shadow",
        data_testid="package-card",
    )


def package_tabs(tabs: list[tuple[str, str, rx.Var]], *, test_id: str) -> rx.Component:
    """`tabs`: (value, label, packages var); the first tab is the default."""
    return rx.tabs.root(
        rx.tabs.list(
            *[
                rx.tabs.trigger(label, value=value, data_testid=f"{test_id}-tab-{value}")
                for value, label, _packages in tabs
            ],
            justify="center",
            size="2",
        ),
        *[
            rx.tabs.content(
                rx.el.div(
                    rx.foreach(packages, package_card),
                    class_name="grid gap-6 sm:grid-cols-2 lg:grid-cols-3",
                ),
                value=value,
                class_name="pt-8",
                data_testid=f"{test_id}-panel-{value}",
            )
            for value, _label, packages in tabs
        ],
        default_value=tabs[0][0],
        data_testid=test_id,
    )
