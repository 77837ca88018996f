"""Every route of the site, in one place, and the registry of its pages: each page is declared
once here (docs/architecture.md §2 'The page registry'), as plain data that every layer may
read without Reflex:

    PARTY_THEMES = page(
        "/party-themes",
        N_("Party Themes"),
        description=N_("Every party theme we decorate, with its price."),
        sitemap=True,
    )

- `title`, `description`: msgids (`N_()` on the site, `N_o()` in the back office), translated
  where the page is built. The title shows in the tab ('Party Themes | Magic Events'; "" is the
  site's name alone); the description is the page's meta description (search results, link
  previews; "" says the site's tagline). A page whose copy repeats it reads it from here
  (`declared(route).description`).
- `access`: who may open it: "public" (a guest: its head carries the description, canonical
  address and alternates), "account" or "admin" (the page's first on-load sends others away;
  the event guard, state/access.py, is what protects its data).
- `sitemap`: listed in /sitemap.xml (services/catalog/seo.py); `category`: the catalogue
  category whose services the page shows (its structured data, the services index's cards).
- `languages`: its editions, from its address (storefront/i18n.py): the site's ('/x', '/en/x')
  or the back office's ('/admin/x', '/sq/admin/x').

The page module draws it and attaches its component and its own on-load events to the same
record with `@registry.page(route, loaders=[...])` (storefront/pages/registry.py), and
`registry.register_all` adds it to the app in every language of `languages`
(docs/extending.md, 'Add a public page')."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from storefront import i18n
from storefront.i18n import N_, N_o

Access = Literal["public", "account", "admin"]


@dataclass(eq=False)
class Page:
    """A page of the site, as its route's `page(...)` declares it (see the module's docstring)."""

    route: str
    title: str = ""
    description: str = ""
    access: Access = "public"
    sitemap: bool = False
    category: str = ""
    # A picture of its own for a shared link (a static asset); "" is the site's.
    image: str = ""
    languages: tuple[str, ...] = ()
    # Attached by the page module (storefront/pages/registry.py): its component, its own
    # on-load events, and what a page that titles itself from its state gives instead.
    component: Any = None
    loaders: tuple[Any, ...] = ()
    on_load: tuple[Any, ...] | None = None
    shown_title: Any = None
    head: Any = None

    @property
    def back_office(self) -> bool:
        return i18n.is_back_office(self.route)

    @property
    def own_address(self) -> bool:
        """Whether the page has one address (no `[param]` in it), served ahead in each edition."""
        return "[" not in self.route


# Every page, in the order they are declared (the sitemap lists its pages in this order).
PAGES: dict[str, Page] = {}


def page(
    route: str,
    title: str = "",
    *,
    description: str = "",
    access: Access = "public",
    sitemap: bool = False,
    category: str = "",
    image: str = "",
) -> str:
    """Declare the page at `route` (see the module's docstring); returns the route."""
    if route in PAGES:
        raise ValueError(f"the page {route} is declared twice")
    if sitemap and (access != "public" or "[" in route):
        raise ValueError(
            f"{route}: only a public page with an address of its own is in the sitemap"
        )
    back_office = i18n.is_back_office(route)
    languages = tuple(i18n.BACK_OFFICE_PREFIXES if back_office else i18n.LANGUAGES)
    PAGES[route] = Page(
        route,
        title,
        description=description,
        access=access,
        sitemap=sitemap,
        category=category,
        image=image,
        languages=languages,
    )
    return route


def declared(route: str) -> Page:
    """The record of the page at `route`."""
    try:
        return PAGES[route]
    except KeyError:
        raise KeyError(
            f"no page is declared at {route!r}: add page({route!r}, ...) to storefront/routes.py"
        ) from None


def pages(*, access: Access | None = None, own_address: bool | None = None) -> list[Page]:
    """The declared pages, those open to `access` only, or only those with (or without) an
    address of their own."""
    return [
        record
        for record in PAGES.values()
        if (access is None or record.access == access)
        and (own_address is None or record.own_address == own_address)
    ]


# --- the site ----------------------------------------------------------------------------

HOME = page(
    "/",
    description=N_("Wedding decorations, mascots, bouncers and tables for your events in Kosovo."),
    sitemap=True,
)
SERVICES = page(
    "/services",
    N_("Services"),
    description=N_("Everything for your party, in one place."),
    sitemap=True,
)
WEDDINGS = page(
    "/services/magic-weddings",
    N_("Magic Weddings"),
    description=N_("Magical decorations for the most beautiful day of your life."),
    sitemap=True,
    category="magic-weddings",
)
MASCOTS = page(
    "/services/mascots",
    N_("Mascots"),
    description=N_(
        "Over 40 mascot characters for birthdays, circumcision parties and school events, with activity packages for the kids."
    ),
    sitemap=True,
    category="mascots",
    image="/mascots-hero.webp",
)
BOUNCERS = page(
    "/services/bouncers",
    N_("Magic Bouncers"),
    description=N_(
        "Bubble houses and bouncy castles, delivered, set up and inflated at your party venue."
    ),
    sitemap=True,
    category="bouncers",
)
WEDDING_TABLES = page(
    "/services/wedding-tables",
    N_("Wedding Tables"),
    description=N_(
        "We offer white and black tables, 60cm or 80cm across, with tablecloths, delivery and setup at your venue. Pair them with balloon decorations for the complete look."
    ),
    sitemap=True,
    category="wedding-tables",
)
# A service's page and a theme's: titled and described by the service itself (state/theme.py).
SERVICE_DETAIL = page("/services/[service_id]")
SERVICE_BOOK = page("/services/[service_id]/book", N_("Book"))
THEMED_DECORATION = page("/themes/[slug]")
CONTACT = page(
    "/contact",
    N_("Contact"),
    description=N_("Tell us about your party and we'll send you a quote."),
    sitemap=True,
)
CART = page(
    "/cart",
    N_("Cart"),
    description=N_(
        "Time slots are available from 8 AM to 8 PM. Payment is collected at the time of service."
    ),
)
CHECKOUT = page("/checkout", N_("Checkout"))
BOOKING_CONFIRMATION = page("/booking-confirmation/[booking_id]", N_("Booking Confirmation"))
# Pages that later work fills in (pages/public/placeholders.py).
BLOG = page(
    "/blog",
    N_("Blog"),
    description=N_("Coming soon: ideas and inspiration for your parties."),
    sitemap=True,
)
BLOG_POST = page("/blog/[slug]", N_("Blog"), description=N_("This article will be published soon."))
TERMS = page(
    "/terms",
    N_("Terms of Service"),
    description=N_(
        "A booking is a request for the services in your cart at the dates and times you chose. "
        "We confirm every booking by phone or WhatsApp; until then it is pending."
    ),
    sitemap=True,
)
PRIVACY = page(
    "/privacy",
    N_("Privacy Policy"),
    description=N_(
        "The contact details and event details you give us in a booking or a quote request, and, "
        "when you have an account, your name, email address and profile picture."
    ),
    sitemap=True,
)
# A demo of the components for the team.
DESIGN_SYSTEM = page("/design-system", N_("Design System"))
# The site's not-found page, built ahead in each edition: the server sends it with a 404 for an
# address of the catalogue that leads nowhere (storefront/api/addresses.py). Never linked.
NOT_FOUND = page("/not-found", N_("Page Not Found"))

SIGN_IN = page(
    "/sign-in",
    N_("Sign In"),
    description=N_("Sign in to manage your bookings and services."),
)
SIGN_UP = page("/sign-up", N_("Sign Up"), description=N_("Create your account to get started."))
RESET_PASSWORD = page(
    "/reset-password",
    N_("Reset Password"),
    description=N_("Enter your email and we'll send you a reset link."),
)

ACCOUNT = page("/account", N_("Dashboard"), access="account")
ACCOUNT_PROFILE = page("/account/profile", N_("Profile"), access="account")
ACCOUNT_ORDERS = page("/account/orders", N_("Orders"), access="account")
ACCOUNT_SECURITY = page("/account/security", N_("Security"), access="account")
SERVICE_CREATE = page("/services/create", N_("Create New Service"), access="account")
SERVICE_EDIT = page("/services/edit/[service_id]", N_("Edit Service"), access="account")

# --- the back office (titles in the office catalog, `N_o`) ---------------------------------

ADMIN = page("/admin", N_o("Admin"), access="admin")
ADMIN_USERS = page("/admin/users", N_o("User Management"), access="admin")
ADMIN_SERVICES = page("/admin/services", N_o("Service Management"), access="admin")
ADMIN_SERVICE_CREATE = page("/admin/services/create", N_o("Create Service"), access="admin")
ADMIN_SERVICE_EDIT = page("/admin/services/edit/[service_id]", N_o("Edit Service"), access="admin")
ADMIN_SERVICE_AVAILABILITY = page(
    "/admin/services/availability/[service_id]", N_o("Service Availability"), access="admin"
)
ADMIN_BOOKINGS = page("/admin/bookings", N_o("Booking Management"), access="admin")
ADMIN_BOOKING_EDIT = page("/admin/bookings/edit/[booking_id]", N_o("Edit Booking"), access="admin")
ADMIN_BANNERS = page("/admin/banners", N_o("Banner Management"), access="admin")
ADMIN_SETTINGS = page("/admin/settings", N_o("Settings"), access="admin")
ADMIN_ROLE_DEBUG = page("/admin/role-debug", N_o("Role Debug"), access="admin")
ADMIN_AUDIT = page("/admin/audit", N_o("Audit Log"), access="admin")
# The owner's reports per month (issue 36): revenue, utilisation, cancellations, unpaid.
ADMIN_REPORTS = page("/admin/reports", N_o("Reports"), access="admin")
ADMIN_CALENDAR = page("/admin/bookings/calendar", N_o("Week Calendar"), access="admin")
# The day sheet (event-day operations): today's, and one day's (YYYY-MM-DD).
ADMIN_DAY = page("/admin/day", N_o("Day Sheet"), access="admin")
ADMIN_DAY_OF = page("/admin/day/[day]", N_o("Day Sheet"), access="admin")
# A van's load list (issue 37): today's, and one day's; staff see their van's (under /admin/day,
# so open to staff with the sheet).
ADMIN_DAY_LOAD = page("/admin/day/load", N_o("Load List"), access="admin")
ADMIN_DAY_LOAD_OF = page("/admin/day/load/[day]", N_o("Load List"), access="admin")
# The day's cash (issue 36): what each member of staff collected and handed over; today's, and
# one day's (YYYY-MM-DD).
ADMIN_CASH = page("/admin/cash", N_o("Day's Cash"), access="admin")
ADMIN_CASH_OF = page("/admin/cash/[day]", N_o("Day's Cash"), access="admin")
# A rainy day (issue 37): offer the customers of a day's inflatables a move or a cancellation.
ADMIN_RAINY_DAY = page("/admin/rainy-day", N_o("Rainy Day"), access="admin")
# Vans and crews (issue 37): the vans, and the day's plan of which van and crew take each run;
# today's, and one day's (YYYY-MM-DD).
ADMIN_VANS = page("/admin/vans", N_o("Vans"), access="admin")
ADMIN_VANS_PLAN = page("/admin/vans/plan", N_o("Day's Plan"), access="admin")
ADMIN_VANS_PLAN_OF = page("/admin/vans/plan/[day]", N_o("Day's Plan"), access="admin")
# The back-office screens open to staff as well as admins (services/permissions.py).
STAFF_PAGES = (ADMIN_DAY, ADMIN_CALENDAR)


def with_id(route: str, value: str) -> str:
    """`route` with its one `[param]` replaced by `value` (a plain string or a Var)."""
    head, _, tail = route.partition("[")
    return head + str(value) + tail.partition("]")[2]


def stem(route: str) -> str:
    """What comes before the `[param]` of `route`: '/services/edit/[service_id]' ->
    '/services/edit/' (a page adds the id's Var to it)."""
    return route.partition("[")[0]


# Plain HTTP routes (storefront/api/).
AUTH_COMPLETE = "/api/auth/complete"
AUTH_SIGN_OUT = "/api/auth/sign-out"
ADMIN_BOOKINGS_CSV = "/api/admin/bookings.csv"
# One table of /admin/reports (services/operations/reports.TABLES) as CSV: ?month=YYYY-MM.
ADMIN_REPORTS_CSV = "/api/admin/reports/{table}.csv"
OAUTH_START = "/api/auth/oauth/{provider}/start"
OAUTH_CALLBACK = "/api/auth/oauth/{provider}/callback"
# An admin's or staff member's private calendar subscription (services/accounts/calendar_feed.py).
CALENDAR_FEED = "/api/calendar/{token}.ics"

# Old links with other casing (the footer uses them): each lands on its canonical page.
ALIASES = {
    "/services/MagicWeddings": WEDDINGS,
    "/services/WeddingTables": WEDDING_TABLES,
    "/services/Mascots": MASCOTS,
    "/services/Bouncers": BOUNCERS,
}
