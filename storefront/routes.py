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

SIGN_IN = "/sign-in"
SIGN_UP = "/sign-up"
RESET_PASSWORD = "/reset-password"

ACCOUNT = "/account"
ACCOUNT_PROFILE = "/account/profile"
ACCOUNT_ORDERS = "/account/orders"
ADMIN = "/admin"
ADMIN_USERS = "/admin/users"

# Plain HTTP routes (storefront/api/).
AUTH_COMPLETE = "/api/auth/complete"
AUTH_SIGN_OUT = "/api/auth/sign-out"
OAUTH_START = "/api/auth/oauth/{provider}/start"
OAUTH_CALLBACK = "/api/auth/oauth/{provider}/callback"

# Old links with other casing (the footer uses them): each lands on its canonical page.
ALIASES = {
    "/services/MagicWeddings": WEDDINGS,
    "/services/WeddingTables": WEDDING_TABLES,
    "/services/Mascots": MASCOTS,
    "/services/Bouncers": BOUNCERS,
}
