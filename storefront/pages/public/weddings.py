"""Magic Weddings: envelope hero, gallery banner, film strip, the offers and Tiffany chairs."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.banner_strip import banner_strip
from storefront.components.layout import page_layout
from storefront.components.lightbox import lightbox, open_photo
from storefront.components.modal import modal
from storefront.components.photo import img
from storefront.components.ui import (
    PRIMARY_BUTTON,
    SECONDARY_BUTTON,
    number_input,
    section_title,
)
from storefront.i18n import _
from storefront.pages import registry
from storefront.state.cart import CartState, adding
from storefront.state.weddings import PEOPLE_FIELD_LENGTH, WeddingOffer, WeddingsState

INTRO = routes.declared(routes.WEDDINGS).description  # its meta description too


def hero() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.icon("mail-open", size=56, class_name="mx-auto text-rose-400"),
            rx.el.h1(_("Magic Weddings"), class_name="mt-4 text-4xl md:text-6xl font-extrabold"),
            rx.el.p(
                _(INTRO),
                class_name="mt-4 text-lg text-slate-600",
            ),
            rx.el.a(_("See the offers"), href="#services", class_name=PRIMARY_BUTTON + " mt-8"),
            class_name="w-full max-w-3xl mx-auto text-center rounded-3xl border-2 border-rose-100 "
            "bg-white/80 shadow-xl px-6 py-12",
        ),
        # On phones the hero fills the first screen (see home.hero): the film strip's photos,
        # which arrive with the catalogue, start below it.
        class_name="min-h-[calc(100svh-4rem)] md:min-h-0 flex items-center px-4 py-12 md:py-20 "
        "bg-gradient-to-b from-rose-50 to-white",
    )


FILM_STRIP_SPEED = 40  # docs/product.md §9: pixels per second


def filmstrip() -> rx.Component:
    """The spec's film strip: the wedding photos run past; a click enlarges one."""
    return rx.el.section(
        banner_strip(
            WeddingsState.filmstrip,
            speed=FILM_STRIP_SPEED,
            card_width=320,
            card_height=240,
            gap=16,
            test_id="filmstrip",
            open_card=open_photo,
            card_test_id="filmstrip-photo",
            class_name="bg-slate-900 px-0",
        ),
        class_name="mt-8",
    )


def _offer_photo(offer) -> rx.Component:
    return img(
        offer.image,
        offer.title,
        width=400,
        height=300,
        class_name="w-full aspect-[4/3] object-cover",
    )


def _offer_card(offer: WeddingOffer) -> rx.Component:
    return rx.el.article(
        _offer_photo(offer),
        rx.el.div(
            rx.el.h3(offer.title, class_name="text-xl font-bold"),
            rx.el.ul(
                rx.foreach(offer.lines, lambda line: rx.el.li(line)),
                class_name="mt-3 space-y-1 text-sm text-slate-600",
            ),
            rx.el.p(offer.price_label, class_name="mt-4 text-2xl font-extrabold text-fuchsia-700"),
            rx.el.div(
                rx.cond(
                    offer.id != "",
                    rx.el.button(
                        rx.cond(adding.value == offer.id, _("Adding..."), _("Add to Cart")),
                        on_click=CartState.add_service(offer.id, 1),
                        disabled=adding.value == offer.id,
                        class_name=PRIMARY_BUTTON,
                    ),
                    # A built-in package is not in the catalogue: ask for a quote instead.
                    rx.link(
                        _("Contact Us"),
                        href=i18n.href(routes.CONTACT),
                        underline="none",
                        class_name=PRIMARY_BUTTON,
                    ),
                ),
                rx.el.button(
                    _("Details"),
                    on_click=WeddingsState.show_detail(offer.title),
                    class_name=SECONDARY_BUTTON,
                ),
                class_name="mt-4 flex flex-wrap gap-3",
            ),
            class_name="p-5",
        ),
        class_name="rounded-3xl overflow-hidden bg-white shadow-lg border border-slate-100",
        data_testid="wedding-offer",
    )


def tiffany_card() -> rx.Component:
    offer = WeddingsState.tiffany
    # Busy only while this offer is being added (not while the page has no offer yet).
    busy = (adding.value != "") & (adding.value == offer.id)
    return rx.el.article(
        _offer_photo(offer),
        rx.el.div(
            rx.el.h3(offer.title, class_name="text-xl font-bold"),
            rx.el.p(offer.description, class_name="mt-2 text-sm text-slate-600"),
            rx.el.label(
                _("Number of guests"),
                html_for="tiffany-people",
                class_name="block mt-4 font-semibold text-sm",
            ),
            number_input(
                WeddingsState.people_text,
                WeddingsState.type_people,
                max_length=PEOPLE_FIELD_LENGTH,
                placeholder=_("e.g. 100"),
                id="tiffany-people",
                class_name="mt-1 w-full px-4 py-2 rounded-lg border-2 border-slate-200 "
                "focus:border-fuchsia-500 outline-none",
                data_testid="tiffany-people",
            ),
            rx.cond(
                WeddingsState.people_limit_message != "",
                rx.el.p(
                    WeddingsState.people_limit_message,
                    role="status",
                    class_name="mt-1 text-sm text-amber-700",
                    data_testid="tiffany-limit",
                ),
            ),
            rx.el.p(
                WeddingsState.tiffany_total,
                class_name="mt-4 text-2xl font-extrabold text-fuchsia-700",
                data_testid="tiffany-total",
            ),
            rx.el.button(
                rx.cond(busy, _("Adding..."), _("Add to Cart")),
                on_click=WeddingsState.add_tiffany,
                disabled=(WeddingsState.people < 1) | busy,
                class_name=PRIMARY_BUTTON + " mt-4",
                data_testid="tiffany-add",
            ),
            class_name="p-5",
        ),
        class_name="rounded-3xl overflow-hidden bg-white shadow-lg border border-slate-100",
        data_testid="tiffany-card",
    )


def detail_modal() -> rx.Component:
    offer = WeddingsState.detail
    return modal(
        img(offer.image, offer.title, width=800, height=600, class_name="w-full rounded-lg"),
        rx.dialog.title(offer.title, class_name="mt-4"),
        rx.dialog.description(offer.description),
        rx.el.ul(rx.foreach(offer.lines, lambda line: rx.el.li(line)), class_name="mt-3 text-sm"),
        rx.el.p(offer.price_label, class_name="mt-3 text-xl font-bold text-fuchsia-700"),
        rx.dialog.close(rx.el.button(_("Close"), class_name=SECONDARY_BUTTON + " mt-4")),
        open=WeddingsState.detail_open,
        on_close=WeddingsState.close_detail,
        test_id="wedding-modal",
    )


@registry.page(routes.WEDDINGS, loaders=[WeddingsState.load])
def weddings() -> rx.Component:
    return page_layout(
        hero(),
        banner_strip(WeddingsState.banner, test_id="weddings-banner"),
        filmstrip(),
        rx.el.section(
            section_title(_("Our Services")),
            rx.el.div(
                rx.foreach(WeddingsState.offers, _offer_card),
                tiffany_card(),
                class_name="grid gap-6 md:grid-cols-3",
            ),
            id="services",
            class_name="max-w-6xl mx-auto px-4 py-12 scroll-mt-20",
        ),
        detail_modal(),
        lightbox(),
    )
