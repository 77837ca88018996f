"""The app: pages, API routes and middleware are registered here; nothing else."""

import reflex as rx

from storefront import i18n, routes
from storefront.api import create_api
from storefront.api.addresses import catalogue_addresses
from storefront.api.body_limit import upload_body_limit
from storefront.api.language import remembered_language
from storefront.api.media import static_files
from storefront.api.security import security_headers
from storefront.components.head import document_language, site_head, toaster
from storefront.i18n import N_, N_o, _, _o
from storefront.pages.account.account import dashboard, orders, profile
from storefront.pages.account.security import security
from storefront.pages.admin.audit import admin_audit_page
from storefront.pages.admin.availability import admin_availability
from storefront.pages.admin.banners import admin_banners
from storefront.pages.admin.booking_edit import admin_booking_edit_page
from storefront.pages.admin.bookings import admin_bookings_page
from storefront.pages.admin.calendar import admin_calendar_page
from storefront.pages.admin.dashboard import admin_home
from storefront.pages.admin.day_sheet import day_sheet_page
from storefront.pages.admin.role_debug import role_debug_page
from storefront.pages.admin.service_form import (
    account_service_create,
    account_service_edit,
    admin_service_create,
    admin_service_edit,
)
from storefront.pages.admin.services import admin_services
from storefront.pages.admin.settings import admin_settings_page
from storefront.pages.admin.users import admin_users
from storefront.pages.auth.sign_in import reset_password_page, sign_in_page, sign_up_page
from storefront.pages.editions import compile_in_page_language, in_language
from storefront.pages.head import head_for
from storefront.pages.public.book_service import book_service
from storefront.pages.public.booking_confirmation import booking_confirmation
from storefront.pages.public.bouncers import bouncers
from storefront.pages.public.cart import cart_page
from storefront.pages.public.checkout import checkout_page
from storefront.pages.public.contact import contact
from storefront.pages.public.design_system import design_system
from storefront.pages.public.home import home
from storefront.pages.public.legal import privacy, terms
from storefront.pages.public.mascots import mascots
from storefront.pages.public.placeholders import (
    PLACEHOLDERS,
    make_placeholder,
    not_found,
    not_found_page,
    redirecting,
)
from storefront.pages.public.services_index import services_index
from storefront.pages.public.theme import theme_page
from storefront.pages.public.wedding_tables import wedding_tables
from storefront.pages.public.weddings import weddings
from storefront.services import business
from storefront.services.accounts.first_admin import announce_setup_code
from storefront.services.messaging.outbox import outbox_worker
from storefront.services.operations.backup import daily_backup_worker
from storefront.services.operations.housekeeping import housekeeping_worker
from storefront.services.operations.reminders import reminders_worker
from storefront.settings import get_settings
from storefront.state.account import AccountAreaState, CalendarFeedState, ProfileState
from storefront.state.admin_audit import AdminAuditState
from storefront.state.admin_availability import AdminAvailabilityState
from storefront.state.admin_banners import AdminBannersState
from storefront.state.admin_booking_edit import AdminBookingEditState
from storefront.state.admin_bookings import AdminBookingsState
from storefront.state.admin_calendar import AdminCalendarState
from storefront.state.admin_dashboard import AdminDashboardState
from storefront.state.admin_roles import RoleDebugState
from storefront.state.admin_services import AdminServicesState
from storefront.state.admin_settings import (
    AdminBackupState,
    AdminSettingsState,
    AdminTwoFactorState,
)
from storefront.state.admin_users import AdminUsersState
from storefront.state.auth import AuthState
from storefront.state.banners import HomeBannerState
from storefront.state.book_service import BookServiceState
from storefront.state.booking_view import BookingViewState
from storefront.state.bouncers import BouncersState
from storefront.state.business import BusinessState
from storefront.state.cart import CartState
from storefront.state.checkout import CheckoutState
from storefront.state.contact import ContactState
from storefront.state.day_sheet import DaySheetState
from storefront.state.errors import backend_exception_handler
from storefront.state.first_admin import InitialAdminState
from storefront.state.guard import AuthGuard
from storefront.state.mascots import MascotsState
from storefront.state.security import SecurityState
from storefront.state.seo import SeoState
from storefront.state.service_form import ServiceFormState
from storefront.state.services_index import ServicesIndexState
from storefront.state.sign_in import ResetPasswordState, SignInState, SignUpState
from storefront.state.tables import TablesState
from storefront.state.theme import ThemeState
from storefront.state.weddings import WeddingsState

app = rx.App(
    # Long cache lifetimes on the build's hashed assets, old and unknown addresses of the
    # catalogue (301, 404), the remembered language, the API routes, the cap on upload bodies,
    # then the security headers on every response.
    api_transformer=[
        static_files,
        catalogue_addresses,
        remembered_language,
        create_api(),
        upload_body_limit,
        security_headers,
    ],
    stylesheets=["/styles.css"],
    html_custom_attrs={"lang": document_language()},
    head_components=site_head(),
    toaster=toaster(),
    theme=rx.theme(appearance="light", accent_color="plum", radius="large"),
    backend_exception_handler=backend_exception_handler,
)
app.add_middleware(AuthGuard())
# Sends the notification outbox from every worker, and queues the reminders and the staff's
# digest when due, once for the cluster (docs/architecture.md §6); off with OUTBOX_WORKER=false.
if get_settings().outbox_worker:
    app.register_lifespan_task(outbox_worker)
    app.register_lifespan_task(reminders_worker)
# Purges expired sessions, used tickets, old throttle rows, sent outbox rows and orphaned
# uploads once per HOUSEKEEPING_INTERVAL_MINUTES for the whole cluster (a lease in the
# database); off with HOUSEKEEPING=false.
if get_settings().housekeeping:
    app.register_lifespan_task(housekeeping_worker)
    # The daily backup, when the business setting is on: once a day for the whole cluster,
    # from BACKUP_HOUR (services/operations/backup.py).
    app.register_lifespan_task(daily_backup_worker)
# On a public address with no admin yet, every worker logs the one-time setup code that Initial
# Admin Setup asks for (docs/architecture.md §9.10); the task ends at once otherwise.
app.register_lifespan_task(announce_setup_code)

SITE = business.SITE_NAME

# (component, route, title, load events). Every public page first reads the session, so the
# navigation knows who is signed in.
PUBLIC_PAGES = [
    (home, routes.HOME, SITE, [HomeBannerState.load]),
    (weddings, routes.WEDDINGS, N_("Magic Weddings"), [WeddingsState.load]),
    (mascots, routes.MASCOTS, N_("Mascots"), [MascotsState.load]),
    (bouncers, routes.BOUNCERS, N_("Magic Bouncers"), [BouncersState.load]),
    (wedding_tables, routes.WEDDING_TABLES, N_("Wedding Tables"), [TablesState.load]),
    (services_index, routes.SERVICES, N_("Services"), [ServicesIndexState.load]),
    # Titled with the theme's own name once it is loaded (or 'Theme Not Found').
    (theme_page, routes.SERVICE_DETAIL, ThemeState.page_title, [ThemeState.load]),
    (theme_page, routes.THEMED_DECORATION, ThemeState.page_title, [ThemeState.load]),
    (cart_page, routes.CART, N_("Cart"), [CartState.refresh]),
    (checkout_page, routes.CHECKOUT, N_("Checkout"), [CheckoutState.load]),
    (book_service, routes.SERVICE_BOOK, N_("Book"), [BookServiceState.load]),
    (
        booking_confirmation,
        routes.BOOKING_CONFIRMATION,
        N_("Booking Confirmation"),
        [BookingViewState.load],
    ),
    (contact, routes.CONTACT, N_("Contact"), [ContactState.open_form]),
    (terms, routes.TERMS, N_("Terms of Service"), []),
    (privacy, routes.PRIVACY, N_("Privacy Policy"), []),
    (design_system, routes.DESIGN_SYSTEM, N_("Design System"), []),
    # Sent with a 404 by the server (api/addresses.py), built ahead in each language.
    (not_found_page, routes.NOT_FOUND, N_("Page Not Found"), []),
    *[
        (make_placeholder(title, text), route, title, [])
        for route, (title, text) in PLACEHOLDERS.items()
    ],
]
AUTH_PAGES = [
    (
        sign_in_page,
        routes.SIGN_IN,
        N_("Sign In"),
        [SignInState.open_page, SignInState.open_second_step],
    ),
    (sign_up_page, routes.SIGN_UP, N_("Sign Up"), SignUpState.open_page),
    (
        reset_password_page,
        routes.RESET_PASSWORD,
        N_("Reset Password"),
        [ResetPasswordState.read_link, ResetPasswordState.open_page],
    ),
]
ACCOUNT_PAGES = [
    (dashboard, routes.ACCOUNT, N_("Dashboard"), [AccountAreaState.load]),
    (
        profile,
        routes.ACCOUNT_PROFILE,
        N_("Profile"),
        [ProfileState.load, CalendarFeedState.load],
    ),
    (orders, routes.ACCOUNT_ORDERS, N_("Orders"), [AccountAreaState.load]),
    (security, routes.ACCOUNT_SECURITY, N_("Security"), [SecurityState.load]),
    (
        account_service_create,
        routes.SERVICE_CREATE,
        N_("Create New Service"),
        [ServiceFormState.load],
    ),
    (account_service_edit, routes.SERVICE_EDIT, N_("Edit Service"), [ServiceFormState.load]),
]


def _title(title: str | rx.Var) -> str | rx.Var:
    """A page's tab title in the language of the moment."""
    return title if isinstance(title, rx.Var) else business.page_title(_(title))


def add_page_in_every_language(component, route: str, title, on_load, *, head: bool) -> None:
    """The page at `route` in every edition: '/cart' and '/en/cart' (pages/editions.py)."""
    for lang in i18n.LANGUAGES:
        with i18n.using(lang):
            page_title = _title(title)
            app.add_page(
                in_language(lang, component, route),
                route=i18n.href(route),
                title=page_title,
                on_load=on_load,
                **(head_for(route, page_title) if head else {}),
            )


compile_in_page_language()
for component, route, title, loads in PUBLIC_PAGES:
    add_page_in_every_language(
        component,
        route,
        title,
        [AuthState.check_session, BusinessState.load, SeoState.load, *loads],
        head=True,
    )
for component, route, title, load in AUTH_PAGES:
    add_page_in_every_language(component, route, title, load, head=True)
for component, route, title, loads in ACCOUNT_PAGES:
    add_page_in_every_language(
        component,
        route,
        title,
        [AuthState.require_account, BusinessState.load, *loads],
        head=False,
    )
ADMIN_PAGES = [
    (admin_users, routes.ADMIN_USERS, N_o("User Management"), [AdminUsersState.load]),
    (admin_services, routes.ADMIN_SERVICES, N_o("Service Management"), [AdminServicesState.load]),
    (
        admin_service_create,
        routes.ADMIN_SERVICE_CREATE,
        N_o("Create Service"),
        [ServiceFormState.load],
    ),
    (admin_service_edit, routes.ADMIN_SERVICE_EDIT, N_o("Edit Service"), [ServiceFormState.load]),
    (
        admin_bookings_page,
        routes.ADMIN_BOOKINGS,
        N_o("Booking Management"),
        [AdminBookingsState.load],
    ),
    (
        admin_booking_edit_page,
        routes.ADMIN_BOOKING_EDIT,
        N_o("Edit Booking"),
        [AdminBookingEditState.load],
    ),
    (admin_calendar_page, routes.ADMIN_CALENDAR, N_o("Week Calendar"), [AdminCalendarState.load]),
    (day_sheet_page, routes.ADMIN_DAY, N_o("Day Sheet"), [DaySheetState.load]),
    (day_sheet_page, routes.ADMIN_DAY_OF, N_o("Day Sheet"), [DaySheetState.load]),
    (
        admin_settings_page,
        routes.ADMIN_SETTINGS,
        N_o("Settings"),
        [AdminSettingsState.load, AdminTwoFactorState.load, AdminBackupState.load],
    ),
    (role_debug_page, routes.ADMIN_ROLE_DEBUG, N_o("Role Debug"), [RoleDebugState.load]),
    (admin_audit_page, routes.ADMIN_AUDIT, N_o("Audit Log"), [AdminAuditState.load]),
    (
        admin_availability,
        routes.ADMIN_SERVICE_AVAILABILITY,
        N_o("Service Availability"),
        [AdminAvailabilityState.load],
    ),
    (admin_banners, routes.ADMIN_BANNERS, N_o("Banner Management"), [AdminBannersState.load]),
]


def add_back_office_page(component, route: str, title: str, on_load) -> None:
    """A back-office page in each of its editions: English at /admin/..., Albanian at
    /sq/admin/... (storefront/i18n.py); the admin's profile says which one they see."""
    for lang in i18n.BACK_OFFICE_PREFIXES:
        with i18n.using(lang):
            app.add_page(
                in_language(lang, component, route),
                route=i18n.href(route),
                title=business.page_title(_o(title)),
                on_load=on_load,
            )


for component, route, title, loads in ADMIN_PAGES:
    add_back_office_page(component, route, title, [AuthState.require_admin, *loads])
# The entry of the admin area also shows 'Initial Admin Setup' while no admin exists.
add_back_office_page(
    admin_home,
    routes.ADMIN,
    N_o("Admin"),
    [
        AuthState.require_account,
        AuthState.keep_back_office_language,
        InitialAdminState.open_admin,
        AdminDashboardState.load,
    ],
)

# The server redirects old addresses typed or bookmarked (api/redirects.py); links followed
# inside the app are matched here. The router ignores case, so a case-only alias already
# lands on its page and must not be registered twice.
for alias, canonical in routes.ALIASES.items():
    if alias.lower() != canonical.lower():
        app.add_page(redirecting, route=alias, on_load=rx.redirect(canonical, replace=True))
app.add_page(
    not_found,
    route="404",
    title=_title("Page Not Found"),
    on_load=[AuthState.check_session, BusinessState.load],
    **head_for("404", _title("Page Not Found")),
)
