"""All services: the four service pages and the themed decorations."""

import reflex as rx

from storefront import routes
from storefront.components.layout import page_layout
from storefront.components.photo import photo
from storefront.components.ui import page_title, section_title, skeleton
from storefront.i18n import _
from storefront.pages import registry
from storefront.state.services_index import ServicesIndexState

SUBTITLE = routes.declared(routes.SERVICES).description  # its meta description too


def _category_card(category: dict) -> rx.Component:
    return rx.link(
        rx.el.h2(category["name"], class_name="text-xl font-bold"),
        rx.el.p(category["description"], class_name="mt-2 text-sm text-slate-600"),
        rx.el.span(_("View →"), class_name="mt-4 inline-block font-semibold text-fuchsia-700"),
        href=category["href"],
        underline="none",
        class_name="block rounded-3xl border border-slate-100 bg-white p-6 shadow-sm hover:shadow-lg text-slate-900",
        data_testid="category-card",
    )


def _theme_card(theme: dict) -> rx.Component:
    return rx.link(
        photo(
            theme["image"], theme["title"], width=400, height=300, class_name="aspect-[4/3] w-full"
        ),
        rx.el.div(
            rx.el.h3(theme["title"], class_name="text-lg font-bold"),
            rx.el.p(theme["description"], class_name="mt-1 text-sm text-slate-600 line-clamp-2"),
            rx.el.p(theme["price"], class_name="mt-3 font-bold text-fuchsia-700"),
            class_name="p-5",
        ),
        href=theme["href"],
        underline="none",
        class_name="block overflow-hidden rounded-3xl border border-slate-100 bg-white shadow-sm hover:shadow-lg text-slate-900",
        data_testid="theme-card",
    )


# While the first load is on its way, cards of the same size hold the grids' room, so the
# sections and the footer below do not jump when the cards arrive (Lighthouse CLS, issue 23).
CATEGORY_SKELETONS = 4
THEME_SKELETONS = 3


def _category_skeleton(_index) -> rx.Component:
    return rx.el.div(
        skeleton("h-7 w-2/3"),
        skeleton("mt-2 h-4 w-full"),
        skeleton("mt-1 h-4 w-5/6"),
        # Four to a row on wide screens: the descriptions wrap to about five lines there.
        skeleton("mt-1 h-4 w-full hidden lg:block"),
        skeleton("mt-1 h-4 w-full hidden lg:block"),
        skeleton("mt-1 h-4 w-3/4 hidden lg:block"),
        skeleton("mt-4 h-6 w-16"),
        class_name="rounded-3xl border border-slate-100 bg-white p-6 shadow-sm",
    )


def _theme_skeleton(_index) -> rx.Component:
    return rx.el.div(
        skeleton("aspect-[4/3] w-full", rounded=""),
        rx.el.div(
            skeleton("h-7 w-2/3"),
            skeleton("mt-1 h-4 w-full"),
            skeleton("mt-1 h-4 w-4/5"),
            skeleton("mt-3 h-6 w-24"),
            class_name="p-5",
        ),
        class_name="overflow-hidden rounded-3xl border border-slate-100 bg-white shadow-sm",
    )


def _grid(cards: rx.Var, card, skeleton_card, count: int, class_name: str) -> rx.Component:
    return rx.el.div(
        rx.cond(
            ServicesIndexState.loaded,
            rx.foreach(cards, card),
            rx.fragment(*[skeleton_card(n) for n in range(count)]),
        ),
        aria_busy=(~ServicesIndexState.loaded).to(str),
        class_name=class_name,
    )


@registry.page(routes.SERVICES, loaders=[ServicesIndexState.load])
def services_index() -> rx.Component:
    return page_layout(
        page_title(_("Services"), _(SUBTITLE)),
        rx.el.section(
            _grid(
                ServicesIndexState.categories,
                _category_card,
                _category_skeleton,
                CATEGORY_SKELETONS,
                "grid gap-6 sm:grid-cols-2 lg:grid-cols-4",
            ),
            class_name="max-w-6xl mx-auto px-4",
        ),
        rx.el.section(
            section_title(_("Themed Decorations")),
            _grid(
                ServicesIndexState.themes,
                _theme_card,
                _theme_skeleton,
                THEME_SKELETONS,
                "grid gap-6 md:grid-cols-3",
            ),
            class_name="max-w-6xl mx-auto px-4 mt-16",
        ),
        rx.cond(
            ServicesIndexState.others.length() > 0,
            rx.el.section(
                section_title(_("Other Services")),
                rx.el.div(
                    rx.foreach(ServicesIndexState.others, _theme_card),
                    class_name="grid gap-6 md:grid-cols-3",
                ),
                class_name="max-w-6xl mx-auto px-4 mt-16",
                data_testid="other-services",
            ),
        ),
    )
