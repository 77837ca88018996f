"""The public navigation: links on desktop, a menu behind a button under 768 px."""

import reflex as rx
from reflex.experimental.client_state import ClientStateVar

from storefront import routes
from storefront.components.brand import logo
from storefront.state.auth import AuthState

# (label on desktop, label on mobile, href)
NAV_LINKS = [
    ("Home", "Home", routes.HOME),
    ("Magic Weddings", "Magic Weddings", routes.WEDDINGS),
    ("Mascots", "Mascots", routes.MASCOTS),
    ("Bouncers", "Bouncers", routes.BOUNCERS),
    ("Event Tables", "Wedding Tables", routes.WEDDING_TABLES),
    ("Contact", "Contact", routes.CONTACT),
]

menu_open = ClientStateVar.create("mobile_menu_open", default=False, global_ref=True)


def _desktop_link(label: str, href: str) -> rx.Component:
    return rx.link(
        label,
        href=href,
        underline="none",
        class_name="text-sm font-medium text-slate-700 hover:text-fuchsia-600 transition-colors",
    )


def _mobile_link(label: str, href: str) -> rx.Component:
    return rx.link(
        label,
        href=href,
        underline="none",
        on_click=menu_open.set_value(False),
        class_name="block px-4 py-3 text-base font-medium text-slate-800 hover:bg-fuchsia-50 rounded-lg",
    )


def cart_link() -> rx.Component:
    return rx.link(
        rx.icon("shopping-cart", size=20),
        href=routes.CART,
        underline="none",
        aria_label="Cart",
        class_name="text-slate-700 hover:text-fuchsia-600",
    )


def _account_links(link, sign_out_class: str) -> rx.Component:
    """Dashboard and Sign Out for signed-in users (and Admin for admins); Sign In for guests."""
    return rx.cond(
        AuthState.signed_in,
        rx.fragment(
            rx.cond(AuthState.is_admin, link("Admin", routes.ADMIN)),
            link("Dashboard", routes.ACCOUNT),
            rx.el.button(
                "Sign Out",
                on_click=AuthState.sign_out,
                class_name=sign_out_class,
                data_testid="sign-out",
            ),
        ),
        link("Sign In", routes.SIGN_IN),
    )


def navbar() -> rx.Component:
    return rx.el.header(
        rx.el.nav(
            logo(),
            rx.el.div(
                *[_desktop_link(desktop, href) for desktop, _mobile, href in NAV_LINKS],
                _account_links(
                    _desktop_link,
                    "text-sm font-medium text-slate-700 hover:text-fuchsia-600",
                ),
                cart_link(),
                class_name="hidden md:flex items-center gap-6",
                data_testid="desktop-nav",
            ),
            rx.el.button(
                rx.cond(menu_open.value, rx.icon("x", size=24), rx.icon("menu", size=24)),
                on_click=menu_open.set_value(~menu_open.value),
                class_name="md:hidden p-2 rounded-lg text-slate-700 hover:bg-slate-100",
                aria_label="Menu",
                data_testid="mobile-menu-button",
            ),
            class_name="max-w-7xl mx-auto flex items-center justify-between px-4 h-16",
        ),
        rx.cond(
            menu_open.value,
            rx.el.div(
                *[_mobile_link(mobile, href) for _desktop, mobile, href in NAV_LINKS],
                _mobile_link("Cart", routes.CART),
                _account_links(
                    _mobile_link,
                    "block w-full text-left px-4 py-3 text-base font-medium text-slate-800 "
                    "hover:bg-fuchsia-50 rounded-lg",
                ),
                class_name="md:hidden border-t border-slate-100 bg-white px-2 py-2 shadow-lg",
                data_testid="mobile-nav",
            ),
        ),
        class_name="sticky top-0 z-40 bg-white/90 backdrop-blur border-b border-slate-100",
    )
