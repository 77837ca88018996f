"""Magic Bouncers: the three steps, the banner-bouncers strip, the photo strip, the Bubbles and
Bouncers carousels, the bouncer options with their product modal, and the packages."""

from __future__ import annotations

import reflex as rx
from reflex.experimental.client_state import ClientStateVar

from storefront import routes
from storefront.components.add_to_cart import add_to_cart_button
from storefront.components.banner_strip import banner_strip
from storefront.components.carousel import carousel
from storefront.components.layout import page_layout
from storefront.components.lightbox import enlargeable_slide, lightbox, open_photo
from storefront.components.modal import modal
from storefront.components.packages import package_tabs
from storefront.components.photo import img
from storefront.i18n import N_, _
from storefront.pages import registry
from storefront.pages.public.mascots import section_title
from storefront.state.bouncers import BouncersState

# (title, text, icon, animation delay in ms), as docs/product.md §4 says: 100 ms, then 150 ms apart.
STEPS = [
    (N_("Delivery"), N_("We bring the bouncer to your address, on time."), "truck", 100),
    (N_("Setup"), N_("Our team sets it up safely."), "wrench", 250),
    (N_("Inflating"), N_("We inflate it and it's ready to play."), "wind", 400),
]

INTRO = routes.declared(routes.BOUNCERS).description  # its meta description too

selected_option = ClientStateVar.create("selected_bouncer_option", default={}, global_ref=True)


def step_card(title: str, text: str, icon: str, delay_ms: int) -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.icon(icon, size=28),
            class_name="mx-auto flex h-14 w-14 items-center justify-center rounded-2xl "
            "bg-fuchsia-600 text-white shadow-lg",
        ),
        rx.el.h2(_(title), class_name="mt-4 text-xl font-bold text-slate-900"),
        rx.el.p(_(text), class_name="mt-2 text-slate-600"),
        class_name="step-in rounded-3xl bg-white p-6 text-center shadow-md",
        style={"animation_delay": f"{delay_ms}ms"},
        data_testid="step-card",
    )


def intro() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h1(
                _("Magic Bouncers"),
                class_name="text-5xl md:text-6xl font-extrabold tracking-tight text-slate-900",
            ),
            rx.el.p(
                _(INTRO),
                class_name="mt-6 text-lg text-slate-600 max-w-2xl mx-auto",
            ),
            rx.el.div(
                *[step_card(*step) for step in STEPS],
                class_name="mt-12 grid gap-6 sm:grid-cols-3",
            ),
            class_name="max-w-5xl mx-auto px-4 text-center",
        ),
        class_name="py-16 md:py-20 bg-gradient-to-b from-sky-50 to-white",
    )


def photo_strip() -> rx.Component:
    def thumb(photo: rx.Var) -> rx.Component:
        return rx.el.button(
            img(
                src=photo.image_url,
                alt="",
                width=240,
                height=180,
                loading="lazy",
                class_name="h-[180px] w-[240px] object-cover",
            ),
            rx.el.span(
                photo.title,
                class_name="absolute inset-x-0 bottom-0 truncate px-3 py-2 text-left text-sm "
                "font-semibold text-white bg-gradient-to-t from-black/70 to-transparent",
            ),
            on_click=open_photo(photo),
            type="button",
            class_name="relative shrink-0 snap-start overflow-hidden rounded-2xl border-4 "
            "border-white shadow-md",
            data_testid="strip-photo",
        )

    return rx.el.section(
        rx.el.div(
            rx.foreach(BouncersState.strip, thumb),
            class_name="flex gap-4 overflow-x-auto snap-x snap-mandatory px-4 pb-6 pt-4",
        ),
        # The rail under the 'train' of photos.
        rx.el.div(class_name="mx-4 h-2 rounded-full bg-slate-200"),
        class_name="max-w-7xl mx-auto py-8",
        data_testid="bouncer-strip",
    )


def galleries() -> rx.Component:
    def block(title: str, items: rx.Var, name: str) -> rx.Component:
        return rx.el.div(
            rx.el.h2(title, class_name="mb-6 text-center text-3xl font-extrabold"),
            carousel(
                items, enlargeable_slide(), name=name, label=title, test_id=f"{name}-carousel"
            ),
        )

    return rx.el.section(
        block(_("Bubbles"), BouncersState.bubbles, "bubbles"),
        block(_("Bouncers"), BouncersState.bouncers, "bouncers"),
        class_name="max-w-6xl mx-auto px-4 py-12 grid gap-12 md:grid-cols-2",
    )


def option_image(option: rx.Var, class_name: str, loading: str = "lazy") -> rx.Component:
    return rx.cond(
        option["image"].to(str) != "",
        img(
            src=option["image"],
            alt=option["title"],
            width=800,
            height=600,
            loading=loading,
            class_name=f"w-full aspect-[4/3] object-cover {class_name}",
        ),
        rx.el.div(
            rx.icon("castle", size=48),
            class_name=f"w-full aspect-[4/3] flex items-center justify-center bg-sky-100 "
            f"text-sky-500 {class_name}",
        ),
    )


def option_card(option: rx.Var) -> rx.Component:
    return rx.el.button(
        option_image(option, "transition-transform duration-300 group-hover:scale-105"),
        rx.el.div(
            rx.el.h3(option.title, class_name="text-lg font-bold text-slate-900"),
            rx.el.p(option.price_label, class_name="font-extrabold text-fuchsia-700"),
            class_name="flex items-center justify-between gap-2 p-4",
        ),
        on_click=selected_option.set_value(option),
        type="button",
        class_name="group overflow-hidden rounded-3xl bg-white text-left shadow-md "
        "hover:shadow-xl transition-shadow",
        data_testid="bouncer-option",
    )


def product_modal() -> rx.Component:
    option = selected_option.value
    return modal(
        rx.el.div(
            option_image(option, "", loading="eager"), class_name="overflow-hidden rounded-xl"
        ),
        rx.dialog.title(option["title"], class_name="mt-4"),
        rx.dialog.description(option["description"], class_name="text-slate-700"),
        rx.el.div(
            rx.el.span(_("Colour"), class_name="text-sm text-slate-600"),
            rx.el.span(
                class_name="inline-block h-6 w-6 rounded-full border border-slate-300",
                style={"background_color": option["color"].to(str)},
                data_testid="color-swatch",
            ),
            class_name="mt-4 flex items-center gap-2",
        ),
        rx.el.div(
            rx.el.p(
                option["price_label"],
                class_name="text-2xl font-extrabold text-fuchsia-700",
                data_testid="product-price",
            ),
            rx.cond(
                option["id"].to(str) != "",
                add_to_cart_button(option["id"].to(str), test_id="product-add"),
            ),
            class_name="mt-6 flex items-center justify-between gap-4",
        ),
        open=option["title"].to(bool),
        on_close=selected_option.set_value({}),
        test_id="product-modal",
    )


def options() -> rx.Component:
    return rx.el.section(
        section_title(_("Choose your bouncer")),
        rx.el.div(
            rx.foreach(BouncersState.options, option_card),
            class_name="grid gap-6 sm:grid-cols-2 lg:grid-cols-3",
        ),
        product_modal(),
        class_name="max-w-6xl mx-auto px-4 py-12",
    )


def packages() -> rx.Component:
    return rx.el.section(
        section_title(_("Packages")),
        rx.el.div(
            package_tabs(
                [
                    ("bouncer", _("Bubbles"), BouncersState.bubble_packages),
                    ("castle", _("Bouncers"), BouncersState.castle_packages),
                    ("combo", _("Bubble & Bouncer"), BouncersState.combo_packages),
                ],
                test_id="bouncer-packages",
            ),
            class_name="max-w-6xl mx-auto",
        ),
        class_name="px-4 py-12 bg-sky-50/60",
    )


def error_screen() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h2(_("Error Loading Bouncer Options"), class_name="text-2xl font-bold"),
            rx.el.p(BouncersState.error, class_name="mt-2"),
            rx.el.button(
                _("Try Again"),
                on_click=BouncersState.load,
                type="button",
                class_name="mt-6 rounded-full bg-fuchsia-600 px-6 py-2.5 font-semibold text-white "
                "hover:bg-fuchsia-700",
                data_testid="bouncers-try-again",
            ),
            class_name="rounded-2xl border border-red-200 bg-red-50 p-8 text-center text-red-700",
            role="alert",
            data_testid="bouncers-error",
        ),
        class_name="max-w-3xl mx-auto px-4 py-12",
    )


@registry.page(routes.BOUNCERS, loaders=[BouncersState.load])
def bouncers() -> rx.Component:
    return page_layout(
        intro(),
        rx.cond(
            BouncersState.error != "",
            error_screen(),
            rx.fragment(
                rx.el.section(
                    banner_strip(BouncersState.banner, test_id="bouncers-banner"),
                    class_name="py-4",
                ),
                photo_strip(),
                galleries(),
                options(),
                packages(),
            ),
        ),
        lightbox(),
    )
