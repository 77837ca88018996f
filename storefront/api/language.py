"""The language switch and the remembered choice (storefront/i18n.py).

`GET /api/language/{lang}?next=/en/cart` (or, on a page whose address the build cannot know,
without `next`: the page it was clicked on, from the Referer) is where the header's switch points: it remembers the
choice in a cookie and answers with a redirect to the same page in that language. A visitor who
chose a language and later opens a page of the other edition (an old bookmark, a shared link)
is sent to the same page in the language they chose (`remembered_language`, wrapping the app);
they can switch again at any time, and the switch is the only thing that sets the cookie.

A first visit (no cookie) gets the page it asked for, in its edition: the default edition is
what people and search engines expect at the site's own address, so the browser's
Accept-Language does not move anyone (docs/architecture.md §9.16)."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from http.cookies import SimpleCookie
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from storefront import i18n
from storefront.settings import get_settings

COOKIE = "sf_lang"
COOKIE_SECONDS = 365 * 24 * 3600


def _came_from(request: Request) -> str | None:
    """The page the switch was clicked on, from the Referer (same site only): pages whose
    address carries an id or a key (a service, a booking) cannot name it when they are built."""
    referer = urlsplit(request.headers.get("referer", ""))
    if referer.netloc != request.url.netloc:
        return None
    return referer.path + (f"?{referer.query}" if referer.query else "")


async def switch(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in i18n.LANGUAGES:
        return RedirectResponse("/", status_code=303)
    came_from = request.query_params.get("next") or _came_from(request)
    target = i18n.local_path(came_from, lang=lang, default=i18n.href("/", lang))
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(
        COOKIE,
        lang,
        max_age=COOKIE_SECONDS,
        path="/",
        samesite="lax",
        secure=get_settings().public_url.startswith("https://"),
        httponly=True,
    )
    return response


routes = [Route("/api/language/{lang}", switch, methods=["GET"])]


def _cookie(scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            morsel = SimpleCookie(value.decode("latin-1")).get(COOKIE)
            if morsel is not None and morsel.value in i18n.LANGUAGES:
                return morsel.value
    return None


def _is_page_request(scope) -> bool:
    if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
        return False
    path: str = scope.get("path", "")
    last = path.rstrip("/").rsplit("/", 1)[-1]
    # The back office follows its user's setting (state/auth.py), not the site's cookie.
    return (
        i18n.is_page_path(path) and "." not in last and not i18n.is_back_office(i18n.split(path)[1])
    )


def remembered_language(app: Callable) -> Callable:
    """For `rx.App(api_transformer=[...])`: a page asked for in the other edition than the
    visitor's chosen language answers with a redirect to the chosen one (see the docstring); a
    page of another edition than the default that the build could not make ahead (a service's
    page, whose address holds its slug, is answered by the build's one fallback page) gets its
    own `<html lang>` before it leaves."""

    async def wrapped(scope, receive, send) -> None:
        if not _is_page_request(scope):
            await app(scope, receive, send)
            return
        path: str = scope.get("path", "/")
        lang = i18n.language_of(path)
        chosen = _cookie(scope)
        if chosen is not None and chosen != lang:
            query = scope.get("query_string", b"").decode("latin-1")
            target = i18n.local_path(
                path + (f"?{query}" if query else ""), lang=chosen, default=i18n.href("/", chosen)
            )
            response = RedirectResponse(target, status_code=307)
            response.headers["vary"] = "Cookie"
            await response(scope, receive, send)
            return
        if lang == i18n.DEFAULT:
            await app(scope, receive, send)
            return
        await app(scope, receive, _in_language(send, lang))

    return wrapped


_DEFAULT_LANG = f'<html lang="{i18n.DEFAULT}"'.encode()


def _in_language(send: Callable, lang: str) -> Callable:
    """`send`, with an HTML body's `<html lang>` set to `lang` (gzip or not)."""
    held: dict = {}
    chunks: list[bytes] = []

    async def sending(message) -> None:
        if message["type"] == "http.response.start":
            headers = dict(message.get("headers", []))
            if headers.get(b"content-type", b"").startswith(b"text/html"):
                held["start"] = message
                return
            await send(message)
            return
        if message["type"] == "http.response.body" and "start" in held:
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            start, body = held.pop("start"), b"".join(chunks)
            body = _with_language(body, start, lang)
            headers = [
                (k, str(len(body)).encode() if k.lower() == b"content-length" else v)
                for k, v in start.get("headers", [])
            ]
            await send({**start, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        await send(message)

    return sending


def _with_language(body: bytes, start: dict, lang: str) -> bytes:
    wanted = f'<html lang="{lang}"'.encode()
    gzipped = dict(start.get("headers", [])).get(b"content-encoding", b"").strip() == b"gzip"
    try:
        html = gzip.decompress(body) if gzipped else body
    except OSError:
        return body
    if _DEFAULT_LANG not in html[:4096]:
        return body
    html = html.replace(_DEFAULT_LANG, wanted, 1)
    return gzip.compress(html, compresslevel=6) if gzipped else html
