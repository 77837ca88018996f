"""A rainy day (/admin/rainy-day, issue 37): the day and the kinds of service the weather stops,
the bookings affected, and one button that offers them all a move or a cancellation."""

import reflex as rx

from storefront import routes
from storefront.components.admin_layout import (
    CARD,
    CHECKBOX,
    INPUT,
    LABEL,
    SMALL_BUTTON,
    admin_frame,
    admin_table,
    cell,
    confirm_dialog,
    notices,
)
from storefront.components.ui import PRIMARY_BUTTON, date_input, loaded_for_this_visit
from storefront.i18n import _o
from storefront.pages import registry
from storefront.state.admin_weather import AdminWeatherState as S


def _category(row: dict) -> rx.Component:
    return rx.el.div(
        rx.el.input(
            type="checkbox",
            id="category-" + row["slug"],
            name="category-" + row["slug"],
            default_checked=row["checked"] != "",
            class_name=CHECKBOX,
        ),
        rx.el.label(row["name"], html_for="category-" + row["slug"], class_name="text-sm"),
        class_name="flex items-center gap-2",
    )


def _form() -> rx.Component:
    return rx.el.form(
        rx.el.div(
            rx.el.label(_o("Day"), html_for="rainy-day", class_name=LABEL),
            date_input(
                id="rainy-day",
                name="day",
                default_value=S.typed_day,
                class_name=INPUT + " max-w-[12rem]",
                data_testid="rainy-day",
            ),
        ),
        rx.el.fieldset(
            rx.el.legend(_o("What the weather stops"), class_name=LABEL),
            rx.el.div(rx.foreach(S.categories, _category), class_name="flex flex-wrap gap-4"),
            class_name="mt-4",
        ),
        rx.el.button(
            rx.icon("search", size=16),
            _o("Show the bookings"),
            type="submit",
            class_name=SMALL_BUTTON + " mt-4",
            data_testid="rainy-look-up",
        ),
        key=S.form_key,
        on_submit=S.look_up,
        class_name=CARD + " mt-4 p-4",
    )


def _row(row: dict) -> rx.Component:
    return rx.el.tr(
        cell(_o("Reference"), rx.el.span(row["reference"], class_name="font-semibold")),
        cell(_o("Customer"), row["customer"]),
        cell(_o("Starts"), row["start"]),
        cell(_o("Services"), row["services"]),
        cell(
            _o("Offer"),
            rx.cond(
                row["offered"] != "",
                rx.el.span(
                    _o("Offered"),
                    class_name="rounded-full bg-sky-100 px-2 py-0.5 text-xs font-semibold "
                    "text-sky-800",
                ),
                rx.el.span(_o("Not yet"), class_name="text-xs text-slate-600"),
            ),
        ),
        data_testid="rainy-row",
    )


def _affected() -> rx.Component:
    return rx.cond(
        S.looked,
        rx.el.section(
            rx.el.h2(_o("Bookings affected"), class_name="mt-6 text-lg font-semibold"),
            rx.cond(
                S.affected.length() > 0,
                rx.fragment(
                    admin_table(
                        [
                            _o("Reference"),
                            _o("Customer"),
                            _o("Starts"),
                            _o("Services"),
                            _o("Offer"),
                        ],
                        rx.foreach(S.affected, _row),
                        test_id="rainy-affected",
                    ),
                    rx.el.p(
                        _o(
                            "Each customer gets a mail in their language with their booking's "
                            "link, where they may move it to another day or cancel it. Nothing "
                            "is cancelled until they or you choose."
                        ),
                        class_name="mt-3 text-sm text-slate-600",
                    ),
                    rx.el.button(
                        rx.icon("cloud-rain", size=16),
                        _o("Offer a move or a cancellation"),
                        type="button",
                        on_click=S.ask,
                        disabled=S.busy | (S.to_offer == 0),
                        class_name=PRIMARY_BUTTON + " mt-3",
                        data_testid="rainy-offer",
                    ),
                ),
                rx.el.p(
                    _o("No booking of these kinds on this day."),
                    class_name="mt-2 text-slate-600",
                    data_testid="rainy-none",
                ),
            ),
        ),
    )


@registry.page(routes.ADMIN_RAINY_DAY, loaders=[S.load])
def admin_rainy_day() -> rx.Component:
    return admin_frame(
        _o("Rainy Day"),
        rx.el.p(
            _o(
                "Inflatables cannot be set up in rain or strong wind. Choose the day and what "
                "the weather stops, look at the bookings, then offer their customers a move or "
                "a cancellation."
            ),
            class_name="text-slate-600",
        ),
        notices(S.notice, S.error),
        rx.cond(
            loaded_for_this_visit(S.loaded),
            rx.fragment(_form(), _affected()),
            rx.el.p(_o("Loading..."), class_name="mt-6", role="status"),
        ),
        confirm_dialog(
            _o("Offer a move or a cancellation?"),
            rx.el.span(_o("Customers who get the mail now:"), " ", S.to_offer),
            confirm_label=_o("Send the offers"),
            on_confirm=S.offer,
            on_cancel=S.keep,
            open=S.confirming,
            test_id="rainy-confirm",
            confirm_test_id="rainy-confirm-send",
            confirm_class=PRIMARY_BUTTON,
        ),
        current="rainy",
    )
