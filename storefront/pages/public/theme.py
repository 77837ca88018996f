"""A service's page (a theme or a plain service): tiles, the tabs it has content for
(Description, Features, Add-Ons) and calls to action; 'View More Themes' on themes only."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.layout import page_layout
from storefront.components.photo import img
from storefront.components.ui import PRIMARY_BUTTON, SECONDARY_BUTTON, loading_spinner
from storefront.i18n import N_, _
from storefront.pages import registry
from storefront.pages.head import theme_head
from storefront.state.cart import CartState, adding
from storefront.state.theme import ThemeState

TAB_LABELS = [
    ("description", N_("Description")),
    ("features", N_("Features")),
    ("addons", N_("Add-Ons")),
]


def _breadcrumb() -> rx.Component:
    sep = rx.el.span("/", class_name="text-slate-300")
    return rx.el.nav(
        rx.link(_("Home"), href=i18n.href(routes.HOME), underline="none"),
        sep,
        rx.link(_("Services"), href=i18n.href(routes.SERVICES), underline="none"),
        sep,
        rx.el.span(ThemeState.theme["title"], class_name="text-slate-900 font-medium"),
        aria_label=_("Breadcrumb"),
        class_name="flex gap-2 text-sm text-slate-500",
        data_testid="breadcrumb",
    )


def _tile(label: str, key: str) -> rx.Component:
    """One of the four tiles; left out when the service has nothing to say there."""
    return rx.cond(
        ThemeState.theme[key] != "",
        rx.el.div(
            rx.el.p(label, class_name="text-xs uppercase tracking-wide text-slate-600"),
            rx.el.p(ThemeState.theme[key], class_name="mt-1 font-bold"),
            class_name="rounded-2xl bg-fuchsia-50 p-4",
        ),
    )


def _features() -> rx.Component:
    return rx.el.ul(
        rx.foreach(ThemeState.features, lambda f: rx.el.li("✓ ", f)),
        class_name="space-y-2",
    )


def _add_ons() -> rx.Component:
    return rx.el.table(
        rx.el.thead(
            rx.el.tr(
                rx.el.th(_("Add-On"), class_name="text-left py-2"),
                rx.el.th(_("Price"), class_name="text-right py-2"),
            )
        ),
        rx.el.tbody(
            rx.foreach(
                ThemeState.add_ons,
                lambda a: rx.el.tr(
                    rx.el.td(a["name"], class_name="py-2"),
                    rx.el.td(a["price"], class_name="py-2 text-right font-semibold"),
                    class_name="border-t border-slate-100",
                ),
            )
        ),
        class_name="w-full",
    )


def _description() -> rx.Component:
    return rx.el.div(rx.foreach(ThemeState.paragraphs, lambda p: rx.el.p(p, class_name="mb-4")))


TAB_PANELS = {"description": _description, "features": _features, "addons": _add_ons}


def _tabs() -> rx.Component:
    """The WAI-ARIA tabs pattern (Radix): one tab stop, arrow keys move between the tabs. Only
    the tabs the service has something for are drawn (ThemeState.tabs)."""
    return rx.tabs.root(
        rx.tabs.list(
            *[
                rx.cond(ThemeState.tabs.contains(value), rx.tabs.trigger(_(label), value=value))
                for value, label in TAB_LABELS
            ],
        ),
        *[
            rx.cond(
                ThemeState.tabs.contains(value),
                rx.tabs.content(
                    TAB_PANELS[value](),
                    value=value,
                    class_name="py-6 text-slate-700",
                    data_testid="theme-tab-panel",
                ),
            )
            for value, _label in TAB_LABELS
        ],
        value=ThemeState.tab,
        on_change=ThemeState.show_tab,
        class_name="mt-10",
    )


def _more_photos() -> rx.Component:
    """The service's other images, when it has more than one."""
    return rx.cond(
        ThemeState.gallery.length() > 1,
        rx.el.ul(
            rx.foreach(
                ThemeState.gallery[1:],
                lambda url, i: rx.el.li(
                    img(
                        url,
                        _("{title} photo {number}").format(
                            title=ThemeState.theme["title"], number=(i + 2).to_string()
                        ),
                        width=400,
                        height=300,
                        class_name="w-full aspect-[4/3] object-cover rounded-2xl",
                    )
                ),
            ),
            class_name="grid grid-cols-2 sm:grid-cols-4 gap-3 md:col-span-2 md:order-last",
            data_testid="service-gallery",
        ),
    )


def _found() -> rx.Component:
    theme = ThemeState.theme
    return rx.el.div(
        _breadcrumb(),
        rx.el.div(
            img(
                theme["image"],
                theme["title"],
                width=800,
                height=600,
                loading="eager",
                class_name="w-full aspect-[4/3] object-cover rounded-3xl shadow-lg",
            ),
            _more_photos(),
            rx.el.div(
                rx.el.h1(theme["title"], class_name="text-3xl md:text-4xl font-extrabold"),
                rx.el.p(theme["description"], class_name="mt-4 text-slate-600"),
                rx.el.div(
                    _tile(_("Price"), "price"),
                    _tile(_("Age Range"), "age"),
                    _tile(_("Duration"), "duration"),
                    _tile(_("Capacity"), "capacity"),
                    class_name="mt-6 grid grid-cols-2 gap-3",
                ),
                rx.el.div(
                    rx.el.button(
                        rx.cond(adding.value == theme["id"], _("Adding..."), _("Add to Cart")),
                        on_click=CartState.add_service(theme["id"], 1),
                        disabled=adding.value == theme["id"],
                        class_name=PRIMARY_BUTTON,
                    ),
                    rx.link(
                        _("Book Now"),
                        href=f"{i18n.prefix()}/services/" + theme["id"] + "/book",
                        underline="none",
                        class_name=SECONDARY_BUTTON,
                    ),
                    class_name="fab-clear mt-6 flex flex-wrap gap-3",
                ),
            ),
            class_name="mt-6 grid gap-8 md:grid-cols-2 items-start",
        ),
        rx.cond(ThemeState.tabs.length() > 0, _tabs()),
        rx.el.div(
            rx.el.h2(_("Ready to celebrate?"), class_name="text-2xl font-bold"),
            rx.el.div(
                rx.link(
                    _("Book Now"),
                    href=i18n.href(routes.CONTACT),
                    underline="none",
                    class_name="px-6 py-3 rounded-full bg-white text-fuchsia-700 font-semibold",
                ),
                rx.cond(
                    ThemeState.more_themes,
                    rx.link(
                        _("View More Themes"),
                        href=i18n.href(routes.SERVICES),
                        underline="none",
                        class_name="px-6 py-3 rounded-full border-2 border-white text-white "
                        "font-semibold",
                    ),
                ),
                class_name="mt-6 flex flex-wrap justify-center gap-3",
            ),
            class_name="mt-8 rounded-3xl bg-gradient-to-r from-fuchsia-600 to-violet-600 text-white text-center px-6 py-10",
        ),
        class_name="max-w-6xl mx-auto px-4 py-8",
        data_testid="theme",
    )


def _missing() -> rx.Component:
    return rx.el.div(
        rx.el.h1(_("Theme Not Found"), class_name="text-3xl font-bold"),
        rx.el.p(
            _("The theme you're looking for doesn't exist or may have been moved."),
            class_name="mt-4 text-slate-600",
        ),
        rx.link(
            _("View All Themes"),
            href=i18n.href(routes.SERVICES),
            underline="none",
            class_name=PRIMARY_BUTTON + " mt-8",
        ),
        class_name="max-w-xl mx-auto px-4 py-24 text-center",
        data_testid="theme-not-found",
    )


@registry.page(
    routes.SERVICE_DETAIL,
    routes.THEMED_DECORATION,
    loaders=[ThemeState.load],
    # Titled and described by the service itself once it is loaded (or 'Theme Not Found').
    title=ThemeState.page_title,
    head=theme_head,
)
def theme_page() -> rx.Component:
    return page_layout(
        rx.match(ThemeState.status, ("found", _found()), ("missing", _missing()), loading_spinner())
    )
