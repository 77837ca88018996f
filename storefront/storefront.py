"""The app: pages, API routes and middleware are registered here; nothing else."""

import reflex as rx

from storefront import routes
from storefront.api import create_api
from storefront.pages.public.bouncers import bouncers
from storefront.pages.public.cart import cart_page
from storefront.pages.public.contact import contact
from storefront.pages.public.design_system import design_system
from storefront.pages.public.home import home
from storefront.pages.public.legal import privacy, terms
from storefront.pages.public.mascots import mascots
from storefront.pages.public.placeholders import (
    PLACEHOLDERS,
    make_placeholder,
    not_found,
    redirecting,
)
from storefront.pages.public.services_index import services_index
from storefront.pages.public.theme import theme_page
from storefront.pages.public.wedding_tables import wedding_tables
from storefront.pages.public.weddings import weddings
from storefront.state.banners import HomeBannerState
from storefront.state.bouncers import BouncersState
from storefront.state.mascots import MascotsState
from storefront.state.services_index import ServicesIndexState
from storefront.state.tables import TablesState
from storefront.state.theme import ThemeState
from storefront.state.weddings import WeddingsState

app = rx.App(
    api_transformer=create_api(),
    stylesheets=["/styles.css"],
    html_lang="sq",
    theme=rx.theme(appearance="light", accent_color="plum", radius="large"),
)

app.add_page(home, route=routes.HOME, title="Magic Events", on_load=HomeBannerState.load)
app.add_page(
    weddings,
    route=routes.WEDDINGS,
    title="Magic Weddings | Magic Events",
    on_load=WeddingsState.load,
)
app.add_page(
    wedding_tables,
    route=routes.WEDDING_TABLES,
    title="Wedding Tables | Magic Events",
    on_load=TablesState.load,
)
app.add_page(cart_page, route=routes.CART, title="Cart | Magic Events")
app.add_page(contact, route=routes.CONTACT, title="Contact | Magic Events")
app.add_page(
    services_index,
    route=routes.SERVICES,
    title="Services | Magic Events",
    on_load=ServicesIndexState.load,
)
app.add_page(terms, route=routes.TERMS, title="Terms of Service | Magic Events")
app.add_page(privacy, route=routes.PRIVACY, title="Privacy Policy | Magic Events")
app.add_page(design_system, route=routes.DESIGN_SYSTEM, title="Design System | Magic Events")
app.add_page(
    theme_page, route=routes.SERVICE_DETAIL, title="Theme | Magic Events", on_load=ThemeState.load
)
app.add_page(
    theme_page,
    route=routes.THEMED_DECORATION,
    title="Theme | Magic Events",
    on_load=ThemeState.load,
)
app.add_page(
    mascots, route=routes.MASCOTS, title="Mascots | Magic Events", on_load=MascotsState.load
)
app.add_page(
    bouncers,
    route=routes.BOUNCERS,
    title="Magic Bouncers | Magic Events",
    on_load=BouncersState.load,
)
for route, (title, text) in PLACEHOLDERS.items():
    app.add_page(make_placeholder(title, text), route=route, title=f"{title} | Magic Events")
# The server redirects old addresses typed or bookmarked (api/redirects.py); links followed
# inside the app are matched here. The router ignores case, so a case-only alias already
# lands on its page and must not be registered twice.
for alias, canonical in routes.ALIASES.items():
    if alias.lower() != canonical.lower():
        app.add_page(redirecting, route=alias, on_load=rx.redirect(canonical, replace=True))
app.add_page(not_found, route="404", title="Page Not Found | Magic Events")
