"""Old and unknown addresses of the catalogue, answered by the server (services/catalog/addresses.py):
an old slug gets a 301 to the service's address now, an address that leads nowhere a 404 with
the site's not-found page in the edition's language; every other request passes untouched.

`catalogue_addresses` wraps the app (`rx.App(api_transformer=[...])`) inside the remembered
language (api/language.py), so a visitor who chose the other edition is first sent there and
then answered in their language. The not-found page is the one the build made ahead for the
edition (routes.NOT_FOUND, built without scripts: rxconfig.without_scripts), read once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from starlette.responses import RedirectResponse, Response

from storefront import i18n, routes
from storefront.db import get_engine, session_scope
from storefront.services import cache as catalog_cache
from storefront.services.catalog import addresses

log = logging.getLogger(__name__)

# A moved address may take its old slug back one day (a service that takes the slug later
# wins, models/catalog.ServiceSlugRedirect): browsers keep a 301 without a lifetime forever.
MOVED_CACHE = "public, max-age=3600"
NOT_FOUND_CACHE = "no-cache"


def _read(entry: addresses.Entry) -> addresses.Answer:
    with session_scope() as session:
        return addresses.answer(entry, session=session)


async def answer_for(entry: addresses.Entry) -> addresses.Answer:
    """`addresses.answer`, from the worker's cache in the event loop when it is there (the
    usual case), else in a thread with a session."""
    kwargs = {"entry": entry}
    found = catalog_cache.fresh(addresses.answer, kwargs, database=str(get_engine().url))
    if found is not catalog_cache.MISSING:
        return found
    return await asyncio.to_thread(_read, entry)


def _frontend_dir() -> Path:
    from reflex.constants import Dirs
    from reflex.utils.prerequisites import get_web_dir

    return get_web_dir() / Dirs.STATIC


@lru_cache(maxsize=8)
def not_found_page(lang: str, encoding: str) -> bytes | None:
    """The built not-found page of `lang`'s edition ('' or 'gzip'), None when the build has
    none (a development server, whose pages come from the frontend's own server)."""
    name = i18n.href(routes.NOT_FOUND, lang).strip("/") + "/index.html"
    path = _frontend_dir() / (name + (".gz" if encoding == "gzip" else ""))
    try:
        return path.read_bytes()
    except OSError:
        return None


def _accepts_gzip(scope) -> bool:
    for name, value in scope.get("headers", []):
        if name == b"accept-encoding":
            return b"gzip" in value.lower()
    return False


def _not_found(scope, lang: str) -> Response | None:
    encoding = "gzip" if _accepts_gzip(scope) else ""
    body = not_found_page(lang, encoding)
    if body is None and encoding:
        encoding, body = "", not_found_page(lang, "")
    if body is None:
        return None
    headers = {
        "content-length": str(len(body)),
        "cache-control": NOT_FOUND_CACHE,
        "vary": "Accept-Encoding",
    }
    if encoding:
        headers["content-encoding"] = encoding
    return Response(
        body if scope.get("method") == "GET" else b"",
        status_code=404,
        media_type="text/html",
        headers=headers,
    )


def catalogue_addresses(app: Callable) -> Callable:
    """For `rx.App(api_transformer=[...])`; see the module's docstring."""

    async def wrapped(scope, receive, send) -> None:
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            await app(scope, receive, send)
            return
        entry = addresses.entry_of(scope.get("path", ""))
        if entry is None:
            await app(scope, receive, send)
            return
        if isinstance(entry, str):  # the not-found page's own address
            found, lang = addresses.NOT_FOUND, entry
        else:
            lang = entry.lang
            try:
                found = await answer_for(entry)
            except Exception:
                # The page still judges the address in the browser, as it did before.
                log.exception("answering %r failed", scope.get("path"))
                found = addresses.SERVE
        response: Response | None = None
        if found.status == 301:
            query = scope.get("query_string", b"").decode("latin-1")
            location = addresses.moved_location(found, query, lang)
            response = RedirectResponse(location, status_code=301)
            response.headers["cache-control"] = MOVED_CACHE
        elif found.status == 404:
            response = _not_found(scope, lang)
        if response is None:
            await app(scope, receive, send)
            return
        await response(scope, receive, send)

    return wrapped
