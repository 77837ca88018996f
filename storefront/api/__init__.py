"""Plain Starlette routes mounted beside the Reflex app."""

from starlette.applications import Starlette

from storefront.api.admin_export import routes as admin_export_routes
from storefront.api.admin_reports import routes as admin_report_routes
from storefront.api.auth import routes as auth_routes
from storefront.api.bookings import routes as booking_routes
from storefront.api.calendar_feed import routes as calendar_feed_routes
from storefront.api.health import routes as health_routes
from storefront.api.language import routes as language_routes
from storefront.api.media import routes as media_routes
from storefront.api.metrics import routes as metrics_routes
from storefront.api.oauth import routes as oauth_routes
from storefront.api.redirects import routes as redirect_routes
from storefront.api.seo import routes as seo_routes


def create_api() -> Starlette:
    return Starlette(
        routes=[
            *admin_export_routes,
            *admin_report_routes,
            *auth_routes,
            *booking_routes,
            *calendar_feed_routes,
            *health_routes,
            *language_routes,
            *oauth_routes,
            *media_routes,
            *metrics_routes,
            *redirect_routes,
            *seo_routes,
        ]
    )
