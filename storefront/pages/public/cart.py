"""The cart: its lines with catalogue prices and their chosen date and time, the 'Select Date &
Time' modal, and the order summary."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.layout import page_layout
from storefront.components.modal import return_focus
from storefront.components.municipality import deposit_note, municipality_options, transport_rows
from storefront.components.photo import img
from storefront.components.slot_picker import slot_picker
from storefront.components.ui import PRIMARY_BUTTON, SECONDARY_BUTTON, page_title
from storefront.i18n import _
from storefront.pages import registry
from storefront.state.cart import CartState

SLOTS_NOTICE = routes.declared(routes.CART).description  # its meta description too


def _when(item: dict) -> rx.Component:
    return rx.el.p(
        rx.cond(
            item["date"] != "",
            _("{date} · {start} · {hours} h").format(
                date=item["date_label"], start=item["start_time"], hours=item["duration"]
            ),
            _("No time selected"),
        ),
        class_name=rx.cond(
            item["date"] != "",
            "mt-1 text-sm text-emerald-700 font-medium",
            "mt-1 text-sm text-amber-700",
        ),
        data_testid="cart-item-when",
    )


STEP_BUTTON = (
    "w-8 h-8 inline-flex items-center justify-center rounded-full border border-slate-300 "
    "text-slate-700 hover:bg-slate-50 disabled:opacity-40 disabled:cursor-not-allowed"
)


def _quantity(item: dict) -> rx.Component:
    """One less / the quantity / one more, within 1 and what one time slot can hold."""
    return rx.el.div(
        rx.el.button(
            rx.icon("minus", size=14),
            type="button",
            on_click=CartState.change_quantity(item["id"], -1),
            disabled=item["at_least"] == "yes",
            aria_label=_("One less {name}").format(name=item["name"]),
            class_name=STEP_BUTTON,
            data_testid="cart-less",
        ),
        rx.el.span(
            item["quantity"],
            class_name="min-w-[2ch] text-center text-sm font-semibold",
            aria_live="polite",
            data_testid="cart-quantity",
        ),
        rx.el.button(
            rx.icon("plus", size=14),
            type="button",
            on_click=CartState.change_quantity(item["id"], 1),
            disabled=item["at_most"] == "yes",
            aria_label=_("One more {name}").format(name=item["name"]),
            title=rx.cond(
                item["at_most"] == "yes",
                _("Only {most} for one time").format(most=item["max_quantity"]),
                "",
            ),
            class_name=STEP_BUTTON,
            data_testid="cart-more",
        ),
        class_name="inline-flex items-center gap-2",
    )


def _item_row(item: dict) -> rx.Component:
    return rx.el.li(
        img(
            item["image"],
            "",
            width=96,
            height=96,
            sizes="96px",
            class_name="w-20 h-20 sm:w-24 sm:h-24 rounded-xl object-cover shrink-0",
        ),
        rx.el.div(
            rx.el.h2(item["name"], class_name="font-semibold break-words"),
            rx.el.p(item["description"], class_name="text-sm text-slate-600 line-clamp-2"),
            rx.el.div(
                # The price and its unit stay on one line ('100,00 € per / event ×' wrapped at
                # 390 px); the count steps down beside or below it.
                rx.el.span(
                    item["price_label"],
                    " ×",
                    class_name="text-sm font-medium whitespace-nowrap",
                    data_testid="cart-item-price",
                ),
                _quantity(item),
                class_name="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1",
            ),
            rx.cond(
                item["available"] == "yes",
                _when(item),
                rx.el.p(
                    _("This service can no longer be booked."),
                    class_name="mt-1 text-sm text-red-600",
                ),
            ),
            rx.el.button(
                rx.cond(item["date"] != "", _("Change Date/Time"), _("Select Date/Time")),
                type="button",
                on_click=CartState.edit_time(item["id"]),
                disabled=item["available"] != "yes",
                class_name="mt-2 text-sm font-semibold text-fuchsia-700 hover:underline",
                data_testid="cart-select-time",
            ),
            class_name="flex-1 min-w-0",
        ),
        rx.el.button(
            rx.icon("trash-2", size=18),
            on_click=CartState.remove(item["id"]),
            aria_label=_("Remove"),
            class_name="p-2 rounded-lg text-slate-500 hover:text-red-600 hover:bg-red-50",
            data_testid="cart-remove",
        ),
        class_name="flex gap-3 sm:gap-4 items-start p-3 sm:p-4 rounded-2xl border border-slate-100 bg-white",
        data_testid="cart-item",
    )


def _time_modal() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(_("Select Date & Time"), class_name="text-xl font-bold"),
            rx.dialog.description(_(SLOTS_NOTICE), class_name="text-sm text-slate-600"),
            rx.el.div(slot_picker(), class_name="mt-4"),
            rx.cond(
                CartState.time_error != "",
                rx.el.p(
                    CartState.time_error,
                    role="alert",
                    class_name="mt-3 text-sm text-red-600",
                    data_testid="cart-time-error",
                ),
            ),
            rx.el.div(
                rx.el.button(
                    _("Cancel"),
                    type="button",
                    on_click=CartState.close_time,
                    class_name=SECONDARY_BUTTON,
                ),
                rx.el.button(
                    _("Set"),
                    type="button",
                    on_click=CartState.apply_time,
                    class_name=PRIMARY_BUTTON,
                    data_testid="cart-time-set",
                ),
                class_name="mt-6 flex justify-end gap-3",
            ),
            max_width="520px",
            custom_attrs=return_focus(),
            data_testid="cart-time-modal",
        ),
        open=CartState.editing_id != "",
        on_open_change=CartState.time_modal_changed,
    )


def _summary() -> rx.Component:
    return rx.el.aside(
        rx.el.h2(_("Order Summary"), class_name="text-xl font-bold"),
        rx.el.ul(
            rx.foreach(
                CartState.lines,
                lambda item: rx.el.li(
                    rx.el.span(item["name"], class_name="min-w-0 break-words"),
                    rx.el.span(item["line_total_label"], class_name="shrink-0 whitespace-nowrap"),
                    class_name="flex justify-between gap-3 text-sm",
                ),
            ),
            class_name="mt-4 space-y-2",
        ),
        rx.el.div(
            rx.el.label(
                _("Municipality of the event"),
                html_for="cart-city",
                class_name="text-sm font-semibold",
            ),
            rx.el.select(
                *municipality_options(),
                id="cart-city",
                value=CartState.city,
                on_change=CartState.choose_city,
                class_name="mt-1 w-full px-3 py-2 rounded-lg border-2 border-slate-200",
                data_testid="cart-city",
            ),
            class_name="mt-4",
        ),
        rx.el.dl(
            rx.el.div(
                rx.el.dt(_("Subtotal")),
                rx.el.dd(CartState.owed["subtotal"], data_testid="cart-subtotal"),
                class_name="flex justify-between gap-3 text-sm",
            ),
            transport_rows(CartState.owed, "cart"),
            class_name="mt-4 space-y-2",
        ),
        rx.el.div(
            rx.el.span(_("Total")),
            rx.el.span(CartState.total_label, data_testid="cart-total"),
            class_name="mt-4 pt-4 border-t flex justify-between font-bold text-lg",
        ),
        deposit_note(CartState.owed, "cart"),
        rx.el.button(
            _("Proceed to Checkout"),
            type="button",
            on_click=CartState.proceed,
            disabled=~CartState.complete,
            class_name=PRIMARY_BUTTON + " w-full mt-6",
            data_testid="cart-checkout",
        ),
        rx.el.p(_(SLOTS_NOTICE), class_name="mt-3 text-xs text-slate-500"),
        class_name="rounded-2xl border border-slate-100 shadow-lg p-5 sm:p-6 bg-white h-fit min-w-0",
    )


@registry.page(routes.CART, loaders=[CartState.refresh])
def cart_page() -> rx.Component:
    return page_layout(
        page_title(_("Cart")),
        rx.cond(
            CartState.count > 0,
            rx.el.div(
                rx.el.ul(rx.foreach(CartState.lines, _item_row), class_name="space-y-4 min-w-0"),
                _summary(),
                _time_modal(),
                class_name="max-w-6xl mx-auto px-4 grid gap-8 md:grid-cols-[minmax(0,1fr)_360px]",
            ),
            rx.el.div(
                rx.el.p(_("Your cart is empty."), class_name="text-slate-600"),
                rx.link(
                    _("Browse Services"),
                    href=i18n.href(routes.HOME),
                    underline="none",
                    class_name=PRIMARY_BUTTON + " mt-6",
                ),
                class_name="text-center py-16",
                data_testid="cart-empty",
            ),
        ),
    )
