"""Home: hero, the sliding 'Home Page Main Banner', galleries and a call to action."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.banner_strip import banner_strip
from storefront.components.layout import page_layout
from storefront.components.photo import photo
from storefront.i18n import _
from storefront.pages import registry
from storefront.state.banners import HomeBannerState

HERO_BUTTON = (
    "inline-flex items-center justify-center px-6 py-3 rounded-full border-2 border-fuchsia-600 "
    "font-semibold leading-6 "
)
INTRO = routes.declared(routes.HOME).description  # its meta description too


def hero() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.div(
                rx.icon("sparkles", size=56, class_name="text-fuchsia-500"),
                class_name="logo-float inline-flex mb-6",
                aria_hidden="true",
            ),
            rx.el.h1(
                _("Every party, a magical memory"),
                class_name="text-4xl md:text-6xl font-extrabold tracking-tight text-slate-900",
            ),
            rx.el.p(
                _(INTRO),
                class_name="mt-6 text-lg text-slate-600 max-w-2xl mx-auto",
            ),
            rx.el.div(
                rx.link(
                    _("Get Started"),
                    href=i18n.href(routes.CONTACT),
                    underline="none",
                    # One box for both buttons (border, line height, centring): the filled
                    # one's words sat higher than the outlined one's.
                    class_name=HERO_BUTTON + "bg-fuchsia-600 text-white hover:bg-fuchsia-700 "
                    "hover:border-fuchsia-700 shadow-lg",
                    data_testid="hero-start",
                ),
                rx.link(
                    _("See Our Services"),
                    href=i18n.href(routes.WEDDINGS),
                    underline="none",
                    class_name=HERO_BUTTON + "text-fuchsia-700 hover:bg-fuchsia-50",
                    data_testid="hero-services",
                ),
                class_name="mt-10 flex flex-wrap justify-center gap-4",
            ),
            class_name="w-full max-w-5xl mx-auto px-4 text-center",
        ),
        # On phones the hero fills the first screen (under the 4rem navigation), so what a
        # visitor first sees is in the page itself and shows at the first paint, instead of
        # waiting for the banner's photos, which arrive with the catalogue.
        class_name="min-h-[calc(100svh-4rem)] md:min-h-0 flex items-center py-16 md:py-24 "
        "bg-gradient-to-b from-fuchsia-50 to-white",
    )


def home_banner() -> rx.Component:
    return rx.el.section(
        rx.el.h2(
            _("Our Services"),
            class_name="text-2xl md:text-3xl font-bold text-center mb-6",
        ),
        banner_strip(HomeBannerState.cards, test_id="home-banner"),
        class_name="py-8",
    )


GALLERY_SIZE = 4


def gallery(title: str, text: str, photos, href: str, test_id: str) -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.div(
                rx.el.h2(title, class_name="text-2xl md:text-3xl font-bold"),
                rx.el.p(text, class_name="mt-2 text-slate-600"),
            ),
            rx.link(
                _("See more →"),
                href=href,
                underline="none",
                class_name="font-semibold text-fuchsia-700 shrink-0",
            ),
            class_name="flex flex-wrap items-end justify-between gap-4 mb-6",
        ),
        rx.link(
            rx.el.div(
                rx.cond(
                    photos.length() > 0,
                    rx.foreach(
                        photos,
                        lambda p: photo(
                            p["image_url"],
                            p["title"],
                            width=400,
                            height=300,
                            # Two columns on phones, four (of a 72rem column) from 768 px.
                            sizes="(min-width: 1152px) 270px, (min-width: 768px) 23vw, 46vw",
                            class_name="aspect-[4/3] rounded-2xl",
                        ),
                    ),
                    # Same boxes while the photos load, so the page does not jump.
                    rx.fragment(
                        *[
                            rx.el.div(class_name="aspect-[4/3] rounded-2xl bg-slate-100")
                            for _slot in range(GALLERY_SIZE)
                        ]
                    ),
                ),
                class_name="grid grid-cols-2 md:grid-cols-4 gap-3 md:gap-4",
            ),
            href=href,
            underline="none",
        ),
        class_name="max-w-6xl mx-auto px-4 py-10",
        data_testid=test_id,
    )


def galleries() -> rx.Component:
    return rx.fragment(
        gallery(
            _("Magic Weddings"),
            _("Decorations that make your day unforgettable."),
            HomeBannerState.weddings,
            i18n.href(routes.WEDDINGS),
            "gallery-weddings",
        ),
        gallery(
            _("Magic Bouncers"),
            _("Bouncers and bubble houses for the kids."),
            HomeBannerState.bouncers,
            i18n.href(routes.BOUNCERS),
            "gallery-bouncers",
        ),
        gallery(
            _("Mascots"),
            _("The kids' favourite characters at your party."),
            HomeBannerState.mascots,
            i18n.href(routes.MASCOTS),
            "gallery-mascots",
        ),
    )


def closing_call() -> rx.Component:
    return rx.el.section(
        rx.el.h2(_("Ready for your party?"), class_name="text-2xl md:text-3xl font-bold"),
        rx.el.p(_("Get in touch for a free quote."), class_name="mt-3 text-fuchsia-100"),
        rx.link(
            _("Contact Us"),
            href=i18n.href(routes.CONTACT),
            underline="none",
            class_name="inline-block mt-6 px-6 py-3 rounded-full bg-white text-fuchsia-700 font-semibold",
        ),
        class_name="mx-4 md:mx-auto max-w-5xl mt-12 rounded-3xl bg-gradient-to-r from-fuchsia-600 "
        "to-violet-600 text-white text-center px-6 py-12",
    )


@registry.page(routes.HOME, loaders=[HomeBannerState.load])
def home() -> rx.Component:
    return page_layout(hero(), home_banner(), galleries(), closing_call())
