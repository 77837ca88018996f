"""The app: pages, API routes and middleware are registered here; nothing else."""

import reflex as rx

from storefront import routes
from storefront.api import create_api
from storefront.api.addresses import catalogue_addresses
from storefront.api.body_limit import upload_body_limit
from storefront.api.language import remembered_language
from storefront.api.media import static_files
from storefront.api.prepaint import prepaint_pages
from storefront.api.security import security_headers
from storefront.components.head import document_language, site_head, toaster
from storefront.i18n import _
from storefront.pages import registry
from storefront.pages.editions import compile_in_page_language
from storefront.pages.head import head_for
from storefront.pages.public.placeholders import not_found, redirecting
from storefront.services import business, metrics
from storefront.services.accounts.first_admin import announce_setup_code
from storefront.services.messaging.outbox import outbox_worker
from storefront.services.operations.backup import daily_backup_worker
from storefront.services.operations.housekeeping import housekeeping_worker
from storefront.services.operations.reminders import reminders_worker
from storefront.settings import get_settings
from storefront.state.auth import AuthState
from storefront.state.business import BusinessState
from storefront.state.errors import backend_exception_handler
from storefront.state.guard import AuthGuard
from storefront.state.timing import install as time_events

app = rx.App(
    # Long cache lifetimes on the build's hashed assets, the catalogue's pages with their
    # content in the HTML, old and unknown addresses of the catalogue (301, 404), the remembered language, the API routes, the cap on upload bodies,
    # then the security headers on every response.
    api_transformer=[
        static_files,
        prepaint_pages,
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
# /metrics (docs/operations.md, 'Metrics'): each event's time by its area, and each worker's
# database connections in use.
time_events()
app.register_lifespan_task(metrics.worker_metrics)
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

# Every page declared in storefront/routes.py, drawn by its module under storefront/pages/
# (pages/registry.py), in each of its languages.
compile_in_page_language()
registry.register_all(app)

# The server redirects old addresses typed or bookmarked (api/redirects.py); links followed
# inside the app are matched here. The router ignores case, so a case-only alias already
# lands on its page and must not be registered twice.
for alias, canonical in routes.ALIASES.items():
    if alias.lower() != canonical.lower():
        app.add_page(redirecting, route=alias, on_load=rx.redirect(canonical, replace=True))
NOT_FOUND_TITLE = business.page_title(_("Page Not Found"))
app.add_page(
    not_found,
    route="404",
    title=NOT_FOUND_TITLE,
    on_load=[AuthState.check_session, BusinessState.load],
    **head_for("404", NOT_FOUND_TITLE),
)
