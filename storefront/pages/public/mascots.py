"""Mascots: hero, the banner-mascots strip, the 'Works' photos, the carousel of characters with
a detail modal, and the mascot packages under two tabs."""

from __future__ import annotations

import reflex as rx
from reflex.experimental.client_state import ClientStateVar

from storefront import routes
from storefront.components.add_to_cart import BUTTON as ADD_BUTTON
from storefront.components.add_to_cart import add_to_cart_button
from storefront.components.banner_strip import banner_strip
from storefront.components.carousel import carousel
from storefront.components.layout import page_layout
from storefront.components.lightbox import enlargeable_slide, lightbox
from storefront.components.modal import modal
from storefront.components.packages import package_tabs
from storefront.components.photo import img
from storefront.components.ui import skeleton
from storefront.i18n import _
from storefront.pages import registry
from storefront.services.catalog.showcase import NO_IMAGE
from storefront.state.cart import CartState
from storefront.state.mascots import MascotsState

MASCOT_INTERVAL_MS = 5000
WORKS_INTERVAL_MS = 6000

selected_mascot = ClientStateVar.create("selected_mascot", default={}, global_ref=True)
# The character whose Add to Cart was pressed: the spec's character add-to-cart modal asks first.
character_to_add = ClientStateVar.create("character_to_add", default={}, global_ref=True)


def section_title(text: str, subtitle: str = "") -> rx.Component:
    return rx.el.div(
        rx.el.h2(text, class_name="text-3xl md:text-4xl font-extrabold text-slate-900"),
        rx.cond(subtitle != "", rx.el.p(subtitle, class_name="mt-3 text-slate-600")),
        class_name="text-center mb-8",
    )


HERO_IMAGE = routes.declared(routes.MASCOTS).image  # its shared links' picture too
INTRO = routes.declared(routes.MASCOTS).description  # its meta description too


def hero() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.div(
                rx.el.p(
                    _("Mascots for every party"),
                    class_name="text-sm font-semibold uppercase tracking-widest text-fuchsia-700",
                ),
                rx.el.h1(
                    _("Mascots"),
                    class_name="mt-3 text-5xl md:text-6xl font-extrabold tracking-tight text-slate-900",
                ),
                rx.el.p(
                    _(INTRO),
                    class_name="mt-6 text-lg text-slate-600 max-w-xl",
                ),
                rx.el.a(
                    _("See the mascots"),
                    href="#characters",
                    class_name="inline-block mt-8 px-6 py-3 rounded-full bg-fuchsia-600 text-white "
                    "font-semibold hover:bg-fuchsia-700 shadow-lg",
                ),
            ),
            # The spec's desktop-only picture beside the hero. A static asset, so it arrives with the
            # page instead of after the first load event (it is the desktop's largest paint,
            # hence fetched first). Lazy, so phones, which never show it, never download it.
            img(
                src=HERO_IMAGE,
                alt=_("Mascots at a party"),
                width=480,
                height=360,
                loading="lazy",
                fetch_priority="high",
                class_name="hidden md:block w-full max-w-md aspect-[4/3] object-cover rounded-3xl "
                "shadow-2xl rotate-2",
            ),
            class_name="w-full max-w-6xl mx-auto px-4 grid md:grid-cols-2 gap-10 items-center",
        ),
        # On phones the hero fills the first screen (see home.hero).
        class_name="min-h-[calc(100svh-4rem)] md:min-h-0 flex items-center py-16 md:py-20 "
        "bg-gradient-to-b from-fuchsia-50 to-white",
    )


def works() -> rx.Component:
    return rx.el.section(
        section_title(_("Works"), _("Our mascots at real parties.")),
        rx.el.div(
            carousel(
                MascotsState.works,
                enlargeable_slide(caption=True, test_id="works-photo"),
                name="works",
                label=_("Works"),
                interval_ms=WORKS_INTERVAL_MS,
                test_id="works",
            ),
            class_name="max-w-3xl mx-auto",
        ),
        class_name="px-4 py-12",
    )


def mascot_image(mascot: rx.Var, *, loading: str = "lazy", class_name: str = "") -> rx.Component:
    return rx.cond(
        mascot.image != NO_IMAGE,
        img(
            src=mascot.image,
            alt=mascot.name,
            width=800,
            height=600,
            loading=loading,
            sizes="(min-width: 1024px) 512px, (min-width: 768px) 50vw, 100vw",
            class_name=f"w-full aspect-[4/3] object-cover {class_name}",
        ),
        rx.el.div(
            _("Image Not Available"),
            class_name=f"w-full aspect-[4/3] flex items-center justify-center bg-slate-100 "
            f"text-slate-500 font-semibold {class_name}",
        ),
    )


def mascot_slide(mascot: rx.Var, i: rx.Var) -> rx.Component:
    return rx.el.div(
        rx.el.div(
            mascot_image(mascot, loading="lazy"),
            class_name="overflow-hidden",
        ),
        rx.el.div(
            rx.el.p(
                f"#{mascot.number}",
                class_name="text-sm font-bold text-fuchsia-700",
            ),
            rx.el.h3(
                mascot.name,
                class_name="mt-1 text-2xl md:text-3xl font-extrabold text-slate-900",
                data_testid="mascot-name",
            ),
            rx.el.p(mascot.short_description, class_name="mt-3 text-slate-600"),
            rx.el.p(
                mascot.price_label,
                class_name="mt-4 text-2xl font-extrabold text-fuchsia-700",
            ),
            rx.el.div(
                rx.el.button(
                    rx.icon("shopping-cart", size=18),
                    _("Add to Cart"),
                    on_click=character_to_add.set_value(mascot),
                    type="button",
                    class_name=ADD_BUTTON,
                    data_testid="mascot-add",
                ),
                rx.el.button(
                    _("View details"),
                    on_click=[
                        selected_mascot.set_value(mascot),
                        MascotsState.show_details(mascot.id),
                    ],
                    type="button",
                    class_name="rounded-full border-2 border-fuchsia-600 px-5 py-2 font-semibold "
                    "text-fuchsia-700 hover:bg-fuchsia-50",
                    data_testid="mascot-details",
                ),
                class_name="mt-6 flex flex-wrap gap-3",
            ),
            class_name="p-6 md:p-10 flex flex-col justify-center",
        ),
        class_name="grid md:grid-cols-2 bg-fuchsia-50 ring-1 ring-inset ring-fuchsia-100",
    )


# Grey placeholders as tall as the texts they stand for (a line of the description, a chip), so
# the dialog keeps its size when the texts arrive.
SKELETON_LINES = ("w-full", "w-full", "w-2/3")
SKELETON_CHIPS = ("w-32", "w-28")


def description_skeleton() -> rx.Component:
    return rx.fragment(
        *(skeleton(f"h-4 my-1 {width}", rounded="rounded") for width in SKELETON_LINES)
    )


def chip_skeleton() -> rx.Component:
    return rx.el.div(
        *(skeleton(f"h-7 {width}", rounded="rounded-full") for width in SKELETON_CHIPS),
        class_name="mt-2 flex flex-wrap gap-2",
        aria_hidden="true",
        data_testid="mascot-modal-chips-loading",
    )


def suitable_for_chips() -> rx.Component:
    return rx.el.ul(
        rx.foreach(
            MascotsState.details.suitable_for,
            lambda text: rx.el.li(
                text,
                class_name="rounded-full bg-fuchsia-50 px-3 py-1 text-sm text-fuchsia-700",
            ),
        ),
        class_name="mt-2 flex flex-wrap gap-2",
        data_testid="mascot-modal-suitable-for",
    )


def mascot_description(mascot_id: rx.Var) -> rx.Component:
    """The full description and 'Suitable for' of the dialog's character: placeholders of their
    size until MascotsState.show_details has read them, one line if it could not."""
    waiting = MascotsState.details.id != mascot_id
    failed = ~waiting & (MascotsState.details_error != "")
    return rx.fragment(
        rx.dialog.description(
            rx.cond(
                waiting,
                description_skeleton(),
                rx.cond(failed, MascotsState.details_error, MascotsState.details.full_description),
            ),
            class_name=rx.cond(failed, "text-red-700", "text-slate-700"),
            aria_busy=waiting,
            data_testid="mascot-modal-description",
        ),
        rx.cond(
            failed,
            rx.fragment(),
            rx.fragment(
                rx.el.h3(_("Suitable for"), class_name="mt-4 font-semibold text-slate-900"),
                rx.cond(waiting, chip_skeleton(), suitable_for_chips()),
            ),
        ),
    )


def mascot_modal() -> rx.Component:
    mascot = selected_mascot.value
    return modal(
        rx.el.div(
            mascot_image(mascot, loading="eager", class_name="rounded-xl"),
            class_name="overflow-hidden rounded-xl",
        ),
        rx.dialog.title(mascot["name"], class_name="mt-4"),
        mascot_description(mascot["id"].to(str)),
        rx.el.div(
            rx.el.p(mascot["price_label"], class_name="text-2xl font-extrabold text-fuchsia-700"),
            add_to_cart_button(mascot["id"].to(str), test_id="mascot-modal-add"),
            class_name="mt-6 flex items-center justify-between gap-4",
        ),
        open=mascot["name"].to(bool),
        on_close=selected_mascot.set_value({}),
        test_id="mascot-modal",
    )


def character_modal() -> rx.Component:
    """docs/product.md §2's character add-to-cart modal: the character, its price, and the add
    button."""
    mascot = character_to_add.value
    return modal(
        rx.el.div(
            mascot_image(mascot, loading="eager", class_name="rounded-xl"),
            class_name="overflow-hidden rounded-xl",
        ),
        rx.dialog.title(mascot["name"], class_name="mt-4"),
        rx.dialog.description(mascot["short_description"], class_name="text-slate-700"),
        rx.el.div(
            rx.el.p(
                mascot["price_label"],
                class_name="text-2xl font-extrabold text-fuchsia-700 whitespace-nowrap",
                data_testid="character-price",
            ),
            rx.el.button(
                rx.icon("shopping-cart", size=18),
                _("Add to Cart"),
                on_click=[
                    CartState.add_service(mascot["id"].to(str), 1),
                    character_to_add.set_value({}),
                ],
                type="button",
                class_name=ADD_BUTTON,
                data_testid="character-modal-add",
            ),
            class_name="mt-6 flex items-center justify-between gap-4",
        ),
        open=mascot["name"].to(bool),
        on_close=character_to_add.set_value({}),
        test_id="character-modal",
    )


def try_again() -> rx.Component:
    return rx.el.button(
        _("Try Again"),
        on_click=MascotsState.load,
        type="button",
        class_name="mt-6 rounded-full bg-fuchsia-600 px-6 py-2.5 font-semibold text-white "
        "hover:bg-fuchsia-700",
        data_testid="mascots-try-again",
    )


def characters_body() -> rx.Component:
    return rx.cond(
        ~MascotsState.loaded,
        rx.el.div(
            rx.spinner(size="3"),
            class_name="flex items-center justify-center h-[480px] rounded-3xl bg-slate-50",
        ),
        rx.cond(
            MascotsState.error != "",
            rx.el.div(
                rx.el.p(
                    _("Error loading mascots: {error}").format(error=MascotsState.error),
                    class_name="font-semibold",
                ),
                try_again(),
                class_name="rounded-2xl border border-red-200 bg-red-50 p-8 text-center text-red-700",
                role="alert",
                data_testid="mascots-error",
            ),
            rx.cond(
                MascotsState.mascots.length() == 0,
                rx.el.div(
                    rx.el.h3(_("No Mascot Characters Available"), class_name="text-xl font-bold"),
                    rx.el.p(
                        _("Please check back later for our mascot character options."),
                        class_name="mt-2 text-slate-600",
                    ),
                    try_again(),
                    class_name="rounded-2xl bg-slate-50 p-8 text-center",
                    data_testid="mascots-empty",
                ),
                carousel(
                    MascotsState.mascots,
                    mascot_slide,
                    name="mascots",
                    label=_("Mascot characters"),
                    interval_ms=MASCOT_INTERVAL_MS,
                    test_id="mascot-carousel",
                    # Over the photo: on phones it is the slide's upper part.
                    arrows_top="top-[calc(37.5vw-12px)] md:top-1/2",
                ),
            ),
        ),
    )


def characters() -> rx.Component:
    return rx.el.section(
        section_title(_("Our characters"), _("Pick your child's favourite mascot.")),
        rx.el.div(characters_body(), class_name="max-w-5xl mx-auto"),
        mascot_modal(),
        character_modal(),
        id="characters",
        class_name="px-4 py-12 scroll-mt-20",
    )


def packages() -> rx.Component:
    return rx.el.section(
        section_title(_("Packages"), _("Mascot and activity packages for your party.")),
        rx.el.div(
            package_tabs(
                [
                    ("mascot", _("Mascots"), MascotsState.mascot_packages),
                    (
                        "mascot-activities",
                        _("Circumcision parties"),
                        MascotsState.activity_packages,
                    ),
                ],
                test_id="mascot-packages",
            ),
            class_name="max-w-6xl mx-auto",
        ),
        class_name="px-4 py-12 bg-fuchsia-50/50",
    )


@registry.page(routes.MASCOTS, loaders=[MascotsState.load])
def mascots() -> rx.Component:
    return page_layout(
        hero(),
        rx.el.section(
            banner_strip(MascotsState.banner, test_id="mascots-banner"),
            class_name="py-4",
        ),
        works(),
        characters(),
        packages(),
        lightbox(),
    )
