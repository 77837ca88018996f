"""Reflex configuration. Reads the environment only; imports nothing of the app.

`db_url` is deliberately not set: the app opens its own engine (storefront/db.py) and the schema is
owned by Alembic (alembic/), so Reflex's own migration helpers must not touch the database.
`REFLEX_REDIS_URL` (read by Reflex itself) switches state to Redis for several workers.
"""

import os

import reflex as rx

config = rx.Config(
    app_name="storefront",
    telemetry_enabled=False,
    show_built_with_reflex=False,
    state_auto_setters=False,
    cors_allowed_origins=[
        origin.strip()
        for origin in os.environ.get("CORS_ORIGINS", "http://localhost:3000").split(",")
        if origin.strip()
    ],
    frontend_port=int(os.environ.get("PORT", "3000")),
    backend_port=int(os.environ.get("PORT", "3000")),
    api_url=os.environ.get("PUBLIC_URL", "http://localhost:3000"),
    deploy_url=os.environ.get("PUBLIC_URL", "http://localhost:3000"),
    default_color_mode="light",
    # Reflex resolves the websocket's client address with it; storefront/settings.py reads the
    # same variable for the plain HTTP routes.
    trusted_proxy_hops=int(os.environ.get("TRUSTED_PROXY_HOPS", "0")),
    # No SitemapPlugin: it writes the sitemap at build time, without the catalogue's pages and
    # with every private route; storefront/api/seo.py serves /sitemap.xml from the catalogue.
    plugins=[
        rx.plugins.TailwindV4Plugin(),
        rx.plugins.RadixThemesPlugin(),
    ],
)
