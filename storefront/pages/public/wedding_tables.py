"""Wedding tables: colour, size and count, price per table and the total."""

import reflex as rx

from storefront import routes
from storefront.components.layout import page_layout
from storefront.components.ui import PRIMARY_BUTTON, empty_state, number_input, page_title
from storefront.i18n import N_, _
from storefront.pages import registry
from storefront.state.business import BusinessState
from storefront.state.cart import adding
from storefront.state.tables import TablesState

ABOUT = routes.declared(routes.WEDDING_TABLES).description  # its meta description too
COLOR_LABELS = [("white", N_("White")), ("black", N_("Black"))]
# The number for bookings under the page's copy (shown as it is in every language).


def _color_button(value: str, label: str) -> rx.Component:
    chosen = TablesState.color == value
    return rx.el.button(
        rx.el.span(
            class_name="w-5 h-5 rounded-full border border-slate-300 "
            + ("bg-white" if value == "white" else "bg-slate-900"),
        ),
        _(label),
        on_click=TablesState.pick_color(value),
        aria_pressed=chosen,
        class_name=rx.cond(
            chosen,
            "flex items-center gap-2 px-4 py-2 rounded-full border-2 border-fuchsia-600 bg-fuchsia-50 font-semibold",
            "flex items-center gap-2 px-4 py-2 rounded-full border-2 border-slate-200 hover:border-fuchsia-300",
        ),
        data_testid=f"color-{value}",
    )


def _size_radio() -> rx.Component:
    return rx.radio_group.root(
        # A plain flex row: the sizes need real space between one label and the next radio.
        rx.el.div(
            rx.el.label(
                rx.radio_group.item(value="60"), "60cm", class_name="flex items-center gap-2"
            ),
            rx.el.label(
                rx.radio_group.item(value="80"), "80cm", class_name="flex items-center gap-2"
            ),
            class_name="flex items-center gap-8",
        ),
        value=TablesState.size,
        on_change=TablesState.pick_size,
        aria_labelledby="table-size-label",
        data_testid="size",
    )


def _count_input() -> rx.Component:
    return number_input(
        TablesState.count_text,
        TablesState.type_count,
        on_blur=TablesState.leave_count,
        max_length=12,
        class_name="w-32 px-4 py-2 rounded-lg border-2 border-slate-200 focus:border-fuchsia-500 outline-none",
        id="table-count",
        data_testid="table-count",
    )


def _add_button() -> rx.Component:
    busy = (adding.value != "") & (adding.value == TablesState.selected["id"])
    return rx.el.button(
        rx.cond(busy, _("Adding..."), _("Add to Cart")),
        on_click=TablesState.add_to_cart,
        disabled=busy
        | TablesState.loading
        | (TablesState.count < 1)
        | ~TablesState.selected["id"].to(bool),
        class_name=PRIMARY_BUTTON + " w-full md:w-auto",
        data_testid="add-tables",
    )


def _picker() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.h2(_("Choose your tables"), class_name="text-2xl font-bold"),
            rx.el.div(
                rx.el.p(_("Colour"), id="table-color-label", class_name="font-semibold mb-2"),
                rx.el.div(
                    *[_color_button(v, label) for v, label in COLOR_LABELS],
                    role="group",
                    aria_labelledby="table-color-label",
                    class_name="flex gap-3",
                ),
                class_name="mt-6",
            ),
            rx.el.div(
                rx.el.p(_("Size"), id="table-size-label", class_name="font-semibold mb-2"),
                _size_radio(),
                class_name="mt-6",
            ),
            rx.el.div(
                rx.el.label(
                    _("Number of tables (1-1000)"),
                    html_for="table-count",
                    class_name="block font-semibold mb-2",
                ),
                _count_input(),
                class_name="mt-6",
            ),
            rx.el.div(
                rx.el.p(
                    _("Price per table:") + " ",
                    rx.cond(
                        TablesState.loading,
                        rx.spinner(size="1", class_name="inline-block", data_testid="loading"),
                        rx.el.span(TablesState.price_label, data_testid="table-price"),
                    ),
                    class_name="text-lg flex items-center gap-2",
                ),
                # One table has no total; its line stays reserved, so 'Add to Cart' below it
                # never moves under the pointer when a typed count's total arrives.
                rx.cond(
                    TablesState.count > 1,
                    rx.el.p(
                        _("Total:") + " ",
                        rx.el.span(TablesState.total_label, data_testid="table-total"),
                        class_name="text-xl font-bold text-fuchsia-700",
                    ),
                    rx.el.p("\u00a0", aria_hidden="true", class_name="text-xl font-bold"),
                ),
                class_name="mt-6 space-y-1",
            ),
            rx.el.div(_add_button(), class_name="mt-6"),
            class_name="rounded-3xl border border-slate-100 shadow-lg p-6 md:p-8 bg-white",
        ),
        class_name="max-w-2xl mx-auto px-4",
    )


def _marketing() -> rx.Component:
    return rx.el.section(
        rx.el.h2(_("Tables to rent for weddings and events"), class_name="text-2xl font-bold"),
        rx.el.p(
            _(ABOUT),
            class_name="mt-3 text-slate-600",
        ),
        rx.el.ul(
            rx.el.li("✔ " + _("Clean tablecloths for every table")),
            rx.el.li("✔ " + _("Delivery and setup")),
            rx.el.li("✔ " + _("Balloon decorations on request")),
            class_name="mt-4 space-y-1 text-slate-700",
        ),
        rx.el.p(
            # The business's phone as the settings hold it (the footer's and the contact page's).
            _("Bookings: {phone} · Prishtina").format(phone=BusinessState.details["phone"]),
            class_name="mt-4 font-semibold",
        ),
        class_name="max-w-2xl mx-auto px-4 mt-12",
    )


@registry.page(routes.WEDDING_TABLES, loaders=[TablesState.load])
def wedding_tables() -> rx.Component:
    return page_layout(
        page_title(_("Wedding Tables"), _("Elegant tables for every occasion.")),
        rx.cond(
            TablesState.loading | (TablesState.tables.length() > 0),
            # While loading, the picker is drawn already (price pending, button disabled) so
            # the page keeps its shape.
            _picker(),
            empty_state(
                _("No Wedding Table Services Available"),
                rx.cond(
                    TablesState.error != "",
                    _("Error loading table services: {error}").format(error=TablesState.error),
                    _("Please check back later."),
                ),
                TablesState.load,
            ),
        ),
        _marketing(),
    )
