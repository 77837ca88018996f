"""Reflex configuration. Reads the environment only; imports nothing of the app.

`db_url` is deliberately not set: the app opens its own engine (storefront/db.py) and the schema is
owned by Alembic (alembic/), so Reflex's own migration helpers must not touch the database.
`REFLEX_REDIS_URL` (read by Reflex itself) switches state to Redis for several workers.

PUBLIC_URL, PORT, CORS_ORIGINS and TRUSTED_PROXY_HOPS are read as storefront/settings.py reads
them: the environment first, then the project's `.env` (so the frontend is built for the same
address the preflight checked).
"""

import dataclasses
import os
import re
from pathlib import Path

import reflex as rx
from dotenv import dotenv_values
from reflex_base.plugins import tailwind_v4

# Radix Themes ships one stylesheet with every colour scale and every component (810 KB before
# compression, parsed on every page before it can paint). The site uses the plum accent on the
# mauve greys and a handful of components: the colour sheets of those, and
# assets/radix-themes.css, the rules of the components the bundle uses (bench/radix_css.py
# writes it: rerun `make radix-css` when a page starts using another Radix component).
# Same order as @radix-ui/themes/styles.css, in the same layer.
RADIX_STYLESHEETS = (
    "@radix-ui/themes/tokens/colors/gray.css",
    "@radix-ui/themes/tokens/colors/mauve.css",
    "@radix-ui/themes/tokens/colors/plum.css",
    "@radix-ui/themes/tokens/base.css",
    # assets/ is copied to .web/public/; this path is relative to .web/styles/tailwind.css.
    "../public/radix-themes.css",
)
_FULL_RADIX = '@import "@radix-ui/themes/styles.css" layer(components);\n'


def _slim_root_style(include_radix_themes: bool = True):
    path, content = tailwind_v4.compile_root_style(include_radix_themes)
    sheets = "".join(f'@import "{sheet}" layer(components);\n' for sheet in RADIX_STYLESHEETS)
    return path, content.replace(_FULL_RADIX, sheets)


@dataclasses.dataclass
class TailwindSlimRadixPlugin(rx.plugins.TailwindV4Plugin):
    """Tailwind v4, importing only the Radix Themes rules listed above."""

    def pre_compile(self, **context):
        save = context["add_save_task"]

        def add_save_task(task, *args, **kwargs):
            task = _slim_root_style if task is tailwind_v4.compile_root_style else task
            save(task, *args, **kwargs)

        super().pre_compile(**{**context, "add_save_task": add_save_task})


@dataclasses.dataclass
class RadixThemesPlugin(rx.plugins.RadixThemesPlugin):
    """Radix Themes without its whole library on every page.

    Reflex puts each plugin's frontend package on `window.__reflex` for components evaluated at
    run time (this app has none), which imports all of Radix Themes (about 80 KB compressed)
    into every page, next to the few components the pages use. The package is still installed:
    the components that use it name it."""

    def get_frontend_dependencies(self, **context):
        return ()


# The pages' scripts are requested after the first paint, not before it (issue 23). React
# Router's <Scripts> puts a modulepreload of every chunk of the page in <head> (17 to 30 of them)
# and one inline module script that imports the page; on a slow phone those downloads share the
# line with the stylesheet the first paint waits for, although the prerendered page shows its
# text without them. After the build, each page's preloads move into an inert <template> and its
# module script into a script the browser does not run (same text, so the Content-Security-Policy
# hash of storefront/api/security.py still allows it); FIRST_PAINT_LOADER puts both back once
# the browser reports the first contentful paint (its paint timing entry: the frame is on the
# screen, not only drawn; two frames later where paint timing is missing). A tab opened in the
# background has no paint until it is shown: it loads them after 500 ms if it is hidden then;
# and any page after 3 s at the latest. Fields that the server holds wait for
# the page to come alive as before (components/ui.NOT_READY).
_PRELOAD = re.compile(r'<link rel="modulepreload" href="[^"]+"/>')
_ENTRY = '<script type="module" async="">'
DEFERRED_ENTRY = '<script type="text/x-deferred-module" id="rx-entry">'
FIRST_PAINT_LOADER = (
    "<script>(function(){var done=false;function go(){if(done)return;done=true;"
    "var t=document.getElementById('rx-preload');if(t)document.head.appendChild(t.content);"
    "var d=document.getElementById('rx-entry'),s=document.createElement('script');"
    "s.type='module';s.textContent=d.textContent;document.body.appendChild(s)}"
    "var P=window.PerformanceObserver;"
    "if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf('paint')>=0){"
    "new P(function(l,o){if(l.getEntriesByName('first-contentful-paint').length){"
    "o.disconnect();setTimeout(go,0)}}).observe({type:'paint',buffered:true})}"
    "else{requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(go,0)})})}"
    "setTimeout(function(){if(document.hidden)go()},500);setTimeout(go,3000)})()</script>"
)


def scripts_after_first_paint(html: str) -> str:
    """A built page whose scripts load after its first paint; a page without React Router's
    module script (nothing to defer) or already rewritten comes back as it was."""
    if html.count(_ENTRY) != 1 or "</body>" not in html:
        return html
    preloads = "".join(_PRELOAD.findall(html))
    html = _PRELOAD.sub("", html).replace(_ENTRY, DEFERRED_ENTRY)
    template = f'<template id="rx-preload">{preloads}</template>' if preloads else ""
    head, _, rest = html.rpartition("</body>")
    return f"{head}{template}{FIRST_PAINT_LOADER}</body>{rest}"


# The page of the routes with a part that varies (/themes/<slug>, a booking screen): it has
# nothing to paint before its scripts render the page, so they load at once (404.html is a copy).
SPA_FALLBACK = "__spa-fallback.html"
# Its copy with the scripts after the first paint: the catalogue's pages whose address varies
# are sent with their content ahead (storefront/api/prepaint.py), so they paint before them.
PREPAINT_FALLBACK = "__prepaint.html"


# Checkout sends a cart it cannot take back to the cart (docs/product.md). CheckoutState.load
# decides once the page is alive and its websocket has answered: 3.4 s on a slow phone, with the
# checkout form on the screen meanwhile. The cart is the browser's, so the prerendered checkout
# page reads it first, before anything is drawn, and goes to the cart at once when the server is
# certain to send it there; the rule and its browser half live together in services/booking/cart.py
# (`checkout_leave_script`), and tests/e2e/test_first_paint.py holds the two together.
# The checkout page of each edition, as the build writes it (checkout.html, en/checkout.html
# and their folder copies).
_CHECKOUT_PAGE = re.compile(r"^(?:[a-z]{2}/)?checkout(?:\.html|/index\.html)$")


def leave_incomplete_checkout_script() -> str:
    """The checkout page's first script (read when the pages are built: the app is imported)."""
    from storefront.services.booking.cart import checkout_leave_script

    return f"<script>{checkout_leave_script()}</script>"


def leave_incomplete_checkout(html: str) -> str:
    """The checkout page that goes back to the cart before its first paint when the browser's
    cart certainly cannot be checked out; a page already rewritten comes back as it was."""
    script = leave_incomplete_checkout_script()
    if script in html or "<head>" not in html:
        return html
    return html.replace("<head>", "<head>" + script, 1)


# The not-found page of each edition (routes.NOT_FOUND: not-found.html, en/not-found.html and
# their folder copies) is what the server sends with a 404 under the address asked for
# (storefront/api/addresses.py). Its scripts would start React Router there, which would draw
# the route of that address (a service's page) over it: it is built without them, a page that
# needs no script (React's own inline scripts, which put the streamed parts in place, stay).
_NOT_FOUND_PAGE = re.compile(r"^(?:[a-z]{2}/)?not-found(?:\.html|/index\.html)$")
_ENTRY_SCRIPT = re.compile(re.escape(_ENTRY) + r".*?</script>", re.DOTALL)


def without_scripts(html: str) -> str:
    """A built page without React Router's module script and preloads: it stays as built."""
    return _ENTRY_SCRIPT.sub("", _PRELOAD.sub("", html))


@dataclasses.dataclass
class FirstPaintPlugin(rx.plugins.Plugin):
    """Rewrites every prerendered page with `scripts_after_first_paint`, the checkout pages
    with `leave_incomplete_checkout` and the not-found pages with `without_scripts` (before
    Reflex compresses them), for `reflex export` and `reflex run --env prod` alike."""

    def post_build(self, **context):
        root = Path(context["static_dir"])
        fallback = root / SPA_FALLBACK
        if fallback.is_file():
            # The fallback with its scripts after the first paint, for the catalogue's pages
            # the server sends with their content ahead (storefront/api/prepaint.py).
            deferred = scripts_after_first_paint(fallback.read_text(encoding="utf-8"))
            (root / PREPAINT_FALLBACK).write_text(deferred, encoding="utf-8")
        for page in root.rglob("*.html"):
            if page.name in (SPA_FALLBACK, PREPAINT_FALLBACK):
                continue
            html = page.read_text(encoding="utf-8")
            if _NOT_FOUND_PAGE.match(page.relative_to(root).as_posix()):
                page.write_text(without_scripts(html), encoding="utf-8")
                continue
            rewritten = scripts_after_first_paint(html)
            if _CHECKOUT_PAGE.match(page.relative_to(root).as_posix()):
                rewritten = leave_incomplete_checkout(rewritten)
            if rewritten != html:
                page.write_text(rewritten, encoding="utf-8")


# The environment wins over .env, as in pydantic-settings (storefront/settings.py).
_ENV = {**dotenv_values(Path(__file__).resolve().parent / ".env"), **os.environ}


def _setting(name: str, default: str) -> str:
    return _ENV.get(name) or default


config = rx.Config(
    app_name="storefront",
    telemetry_enabled=False,
    show_built_with_reflex=False,
    state_auto_setters=False,
    cors_allowed_origins=[
        origin.strip()
        for origin in _setting("CORS_ORIGINS", "http://localhost:3000").split(",")
        if origin.strip()
    ],
    frontend_port=int(_setting("PORT", "3000")),
    backend_port=int(_setting("PORT", "3000")),
    api_url=_setting("PUBLIC_URL", "http://localhost:3000"),
    deploy_url=_setting("PUBLIC_URL", "http://localhost:3000"),
    default_color_mode="light",
    # Reflex resolves the websocket's client address with it; storefront/settings.py reads the
    # same variable for the plain HTTP routes.
    trusted_proxy_hops=int(_setting("TRUSTED_PROXY_HOPS", "0")),
    # No SitemapPlugin: it writes the sitemap at build time, without the catalogue's pages and
    # with every private route; storefront/api/seo.py serves /sitemap.xml from the catalogue.
    plugins=[
        TailwindSlimRadixPlugin(),
        RadixThemesPlugin(),
        FirstPaintPlugin(),
    ],
)
