"""The public navigation: links on desktop, a menu behind a button under 768 px."""

from urllib.parse import quote

import reflex as rx
from reflex.experimental.client_state import ClientStateVar

from storefront import i18n, routes
from storefront.components.brand import logo
from storefront.i18n import N_s, _s
from storefront.state.auth import AuthState

# (label on desktop, label on mobile, href)
NAV_LINKS = [
    (N_s("Home"), N_s("Home"), routes.HOME),
    (N_s("Magic Weddings"), N_s("Magic Weddings"), routes.WEDDINGS),
    (N_s("Mascots"), N_s("Mascots"), routes.MASCOTS),
    (N_s("Bouncers"), N_s("Bouncers"), routes.BOUNCERS),
    (N_s("Event Tables"), N_s("Wedding Tables"), routes.WEDDING_TABLES),
    (N_s("Contact"), N_s("Contact"), routes.CONTACT),
]

menu_open = ClientStateVar.create("mobile_menu_open", default=False, global_ref=True)


DESKTOP_LINK = (
    "flex items-center gap-1.5 whitespace-nowrap text-sm font-medium text-slate-700 "
    "hover:text-fuchsia-600 transition-colors"
)
# Between 768 and 1024 px the account links show as icons only, so one row still fits.
ACCOUNT_ICONS = {"Admin": "shield-check", "Dashboard": "circle-user", "Sign In": "log-in"}


def _desktop_link(label: str, href: str) -> rx.Component:
    return rx.link(_s(label), href=i18n.href(href), underline="none", class_name=DESKTOP_LINK)


def _desktop_account_link(label: str, href: str) -> rx.Component:
    return rx.link(
        rx.icon(ACCOUNT_ICONS[label], size=18, class_name="lg:hidden"),
        rx.el.span(_s(label), class_name="hidden lg:inline"),
        href=i18n.href(href),
        underline="none",
        aria_label=_s(label),
        title=_s(label),
        class_name=DESKTOP_LINK,
    )


def _mobile_link(label: str, href: str) -> rx.Component:
    return rx.link(
        _s(label),
        href=i18n.href(href),
        underline="none",
        on_click=menu_open.set_value(False),
        class_name="block px-4 py-3 text-base font-medium text-slate-800 hover:bg-fuchsia-50 rounded-lg",
    )


def cart_link() -> rx.Component:
    return rx.link(
        rx.icon("shopping-cart", size=20),
        href=i18n.href(routes.CART),
        underline="none",
        aria_label=_s("Cart"),
        class_name="text-slate-700 hover:text-fuchsia-600",
    )


def _account_links(link, sign_out: rx.Component) -> rx.Component:
    """Dashboard and Sign Out for signed-in users (and Admin for admins); Sign In for guests."""
    return rx.cond(
        AuthState.signed_in,
        rx.fragment(
            rx.cond(AuthState.is_admin, link(N_s("Admin"), routes.ADMIN)),
            link(N_s("Dashboard"), routes.ACCOUNT),
            sign_out,
        ),
        link(N_s("Sign In"), routes.SIGN_IN),
    )


def _sign_out_button(*children: rx.Component, class_name: str) -> rx.Component:
    return rx.el.button(
        *children,
        on_click=AuthState.sign_out,
        aria_label=_s("Sign Out"),
        title=_s("Sign Out"),
        class_name=class_name,
        data_testid="sign-out",
    )


DESKTOP_SWITCH = (
    "whitespace-nowrap rounded-full border border-slate-200 px-2.5 py-1 text-xs font-semibold "
    "text-slate-700 hover:border-fuchsia-400 hover:text-fuchsia-700"
)
MOBILE_SWITCH = (
    "block px-4 py-3 text-base font-medium text-slate-800 hover:bg-fuchsia-50 rounded-lg"
)


def language_switch(class_name: str) -> rx.Component:
    """A link to this page in the other language, named in that language. A plain link through
    `/api/language/{lang}` (api/language.py), which remembers the choice and opens the same page
    (and the same service) there: the page knows its route when it is built; a page whose
    address holds an id is found from where the click came from."""
    route = i18n.page_route()
    if route is not None and i18n.is_back_office(route):
        # The back office speaks the admin's own choice (their profile), not the site's.
        return rx.fragment()
    known_address = route is not None and "[" not in route
    links = []
    for lang in i18n.LANGUAGES:
        if lang == i18n.language():
            continue
        target = f"/api/language/{lang}" + (f"?next={quote(route)}" if known_address else "")
        links.append(
            rx.el.a(
                i18n.NAMES[lang],
                href=target,
                lang=lang,
                custom_attrs={"hreflang": lang},
                # A whole page load, not the router's: the server sets the cookie and redirects.
                reload_document=True,
                class_name=class_name,
                data_testid=f"language-{lang}",
            )
        )
    return rx.fragment(*links)


def navbar() -> rx.Component:
    return rx.el.header(
        rx.el.nav(
            logo(text_class="md:hidden lg:inline"),
            rx.el.div(
                *[_desktop_link(desktop, href) for desktop, _mobile, href in NAV_LINKS],
                _account_links(
                    _desktop_account_link,
                    _sign_out_button(
                        rx.icon("log-out", size=18, class_name="lg:hidden"),
                        rx.el.span(_s("Sign Out"), class_name="hidden lg:inline"),
                        class_name=DESKTOP_LINK,
                    ),
                ),
                cart_link(),
                language_switch(DESKTOP_SWITCH),
                class_name="hidden md:flex items-center gap-4 lg:gap-6",
                data_testid="desktop-nav",
            ),
            rx.el.button(
                rx.cond(menu_open.value, rx.icon("x", size=24), rx.icon("menu", size=24)),
                on_click=menu_open.set_value(~menu_open.value),
                class_name="md:hidden p-2 rounded-lg text-slate-700 hover:bg-slate-100",
                aria_label=_s("Menu"),
                aria_expanded=rx.cond(menu_open.value, "true", "false"),
                aria_controls="mobile-nav",
                data_testid="mobile-menu-button",
            ),
            class_name="max-w-7xl mx-auto flex items-center justify-between px-4 h-16",
        ),
        rx.cond(
            menu_open.value,
            rx.el.div(
                *[_mobile_link(mobile, href) for _desktop, mobile, href in NAV_LINKS],
                _mobile_link(N_s("Cart"), routes.CART),
                language_switch(MOBILE_SWITCH),
                _account_links(
                    _mobile_link,
                    _sign_out_button(
                        _s("Sign Out"),
                        class_name="block w-full text-left px-4 py-3 text-base font-medium "
                        "text-slate-800 hover:bg-fuchsia-50 rounded-lg",
                    ),
                ),
                class_name="md:hidden border-t border-slate-100 bg-white px-2 py-2 shadow-lg",
                id="mobile-nav",
                data_testid="mobile-nav",
            ),
        ),
        class_name="sticky top-0 z-40 bg-white/90 backdrop-blur border-b border-slate-100",
    )
