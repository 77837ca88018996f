"""Every route of the site, in one place."""

HOME = "/"
SERVICES = "/services"
WEDDINGS = "/services/magic-weddings"
MASCOTS = "/services/mascots"
BOUNCERS = "/services/bouncers"
WEDDING_TABLES = "/services/wedding-tables"
SERVICE_DETAIL = "/services/[service_id]"
SERVICE_BOOK = "/services/[service_id]/book"
THEMED_DECORATION = "/themes/[slug]"
CONTACT = "/contact"
CART = "/cart"
CHECKOUT = "/checkout"
BOOKING_CONFIRMATION = "/booking-confirmation/[booking_id]"
BLOG = "/blog"
BLOG_POST = "/blog/[slug]"
DESIGN_SYSTEM = "/design-system"
TERMS = "/terms"
PRIVACY = "/privacy"
# The site's not-found page, built ahead in each edition: the server sends it with a 404 for an
# address of the catalogue that leads nowhere (storefront/api/addresses.py). Never linked.
NOT_FOUND = "/not-found"

SIGN_IN = "/sign-in"
SIGN_UP = "/sign-up"
RESET_PASSWORD = "/reset-password"

ACCOUNT = "/account"
ACCOUNT_PROFILE = "/account/profile"
ACCOUNT_ORDERS = "/account/orders"
ACCOUNT_SECURITY = "/account/security"
SERVICE_CREATE = "/services/create"
SERVICE_EDIT = "/services/edit/[service_id]"

ADMIN = "/admin"
ADMIN_USERS = "/admin/users"
ADMIN_SERVICES = "/admin/services"
ADMIN_SERVICE_CREATE = "/admin/services/create"
ADMIN_SERVICE_EDIT = "/admin/services/edit/[service_id]"
ADMIN_SERVICE_AVAILABILITY = "/admin/services/availability/[service_id]"
ADMIN_BOOKINGS = "/admin/bookings"
ADMIN_BOOKING_EDIT = "/admin/bookings/edit/[booking_id]"
ADMIN_BANNERS = "/admin/banners"
ADMIN_SETTINGS = "/admin/settings"
ADMIN_ROLE_DEBUG = "/admin/role-debug"
ADMIN_AUDIT = "/admin/audit"
ADMIN_CALENDAR = "/admin/bookings/calendar"
# The day sheet (event-day operations): today's, and one day's (YYYY-MM-DD).
ADMIN_DAY = "/admin/day"
ADMIN_DAY_OF = "/admin/day/[day]"
# The back-office screens open to staff as well as admins (services/accounts/permissions.py).
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
OAUTH_START = "/api/auth/oauth/{provider}/start"
OAUTH_CALLBACK = "/api/auth/oauth/{provider}/callback"
# An admin's or staff member's private calendar subscription (services/operations/calendar_feed.py).
CALENDAR_FEED = "/api/calendar/{token}.ics"

# Old links with other casing (the footer uses them): each lands on its canonical page.
ALIASES = {
    "/services/MagicWeddings": WEDDINGS,
    "/services/WeddingTables": WEDDING_TABLES,
    "/services/Mascots": MASCOTS,
    "/services/Bouncers": BOUNCERS,
}
