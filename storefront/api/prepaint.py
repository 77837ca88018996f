"""The catalogue's pages sent with their content in the HTML (docs/architecture.md §3,
'Catalogue pages painted from their HTML'; issue 38, item 1).

For an address `services/catalog/prepaint.target_of` knows (the services page, a service's page
and its `/themes` alias, its booking screen, a blog post, in every edition), the page the build
made (the services page; for the others, whose address varies, the build's fallback page with
its scripts after the first paint, rxconfig.FirstPaintPlugin) is sent with an <article> before
its live page: a copy of the edition's page frame (navbar, footer) around the content
`prepaint.main_html` writes. The live page is hidden meanwhile; its scripts load after the first
paint, and a small script removes the article once the live page has its content (or its
address changed, or after 20 s at most), so the live page takes over in one frame: nothing that
was on the screen moves (React skips the article when it hydrates: an element it does not
render, before its own root in <body>).

Everything else, and any page whose content is not known here (no build: a development server;
a service that is gone: its address is answered 404 before this, api/addresses.py), passes
through untouched. `catalogue_addresses` answers moved and unknown addresses first."""

from __future__ import annotations

import asyncio
import gzip
import logging
import re
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from starlette.responses import Response

from storefront import i18n, routes
from storefront.db import get_engine, session_scope
from storefront.services import cache as catalog_cache
from storefront.services.catalog import prepaint

log = logging.getLogger(__name__)

# rxconfig.FirstPaintPlugin writes it: the fallback page with its scripts after the first paint.
FALLBACK = "__prepaint.html"
ROOT = '<div data-is-root-theme="true"'
ROUTER_CONTEXT = "<script>window.__reactRouterContext"
_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.DOTALL)
# Names that must stay one per page (a test's locator, an anchor): the copy goes without them.
_UNIQUE = re.compile(r'\s(?:id|data-testid)="[^"]*"')
_MAIN = re.compile(r"(<main\b[^>]*>).*(</main>)", re.DOTALL)
_HTML_LANG = re.compile(r'<html lang="[a-z]{2}"')
_GZIPPED: OrderedDict[bytes, bytes] = OrderedDict()
_GZIP_CACHE = 64  # about 3 MB: a page is some 40 KB, 10 KB compressed
SWAP_AFTER_MS = 20000


def _frontend_dir() -> Path:
    from reflex.constants import Dirs
    from reflex.utils.prerequisites import get_web_dir

    return get_web_dir() / Dirs.STATIC


@lru_cache(maxsize=16)
def _read(path: Path, mtime_ns: int) -> str:
    return path.read_text(encoding="utf-8")


def _built(name: str) -> str | None:
    path = _frontend_dir() / name
    try:
        return _read(path, path.stat().st_mtime_ns)
    except OSError:
        return None


def _page_file(route: str, lang: str) -> str:
    return i18n.href(route, lang).strip("/") + "/index.html"


def swap_script(live_when: str) -> str:
    """Removes the article once the live page has its content (`live_when`, a CSS selector
    inside it), once its address changed (it went elsewhere), or after SWAP_AFTER_MS."""
    selector = live_when.replace("\\", "\\\\").replace("'", "\\'")
    return (
        "<script>(function(){var a=document.getElementById('sf-paint');if(!a)return;"
        f"var p=location.pathname,s='{selector}',o;"
        "function ready(){var r=document.querySelector('body>div[data-is-root-theme]');"
        "return location.pathname!==p||!!(r&&r.querySelector(s))}"
        "function go(){if(o)o.disconnect();if(a.parentNode)a.parentNode.removeChild(a)}"
        "o=new MutationObserver(function(){if(ready())go()});"
        "o.observe(document.body,{childList:true,subtree:true,attributes:true,"
        "attributeFilter:['aria-busy','data-testid']});"
        f"setTimeout(go,{SWAP_AFTER_MS})}})()</script>"
    )


def compose(live: str, frame: str, main: str, live_when: str, lang: str) -> str | None:
    """`live` (a built page) with the article before its root: `frame`'s root (a built page of
    the same edition) without its scripts and unique names, `main` inside its <main>. None
    when either page is not as the build makes them."""
    start, end = frame.find(ROOT), frame.find(ROUTER_CONTEXT)
    at = live.find(ROOT)
    if start < 0 or end < start or at < 0:
        return None
    copy = _UNIQUE.sub("", _SCRIPT.sub("", frame[start:end]))
    copy, found = _MAIN.subn(lambda m: m.group(1) + main + m.group(2), copy, count=1)
    if not found:
        return None
    article = (
        '<article id="sf-paint">'
        "<style>body>div[data-is-root-theme]{display:none}</style>"
        f"{copy}{swap_script(live_when)}</article>"
    )
    page = live[:at] + article + live[at:]
    return _HTML_LANG.sub(f'<html lang="{lang}"', page, count=1)


def _main_in_thread(target: prepaint.Target) -> str | None:
    with session_scope() as session:
        return prepaint.render(target, session=session)


async def main_for(target: prepaint.Target) -> str | None:
    """`prepaint.render`, from the worker's cache in the event loop when it is there."""
    with i18n.using(target.lang):
        found = catalog_cache.fresh(
            prepaint.main_html,
            {"kind": target.kind, "key": target.key},
            database=str(get_engine().url),
        )
    if found is not catalog_cache.MISSING:
        return found
    return await asyncio.to_thread(_main_in_thread, target)


async def page_for(target: prepaint.Target) -> str | None:
    """The whole page for `target`, or None to let the build answer as before."""
    if target.kind == prepaint.SERVICES:
        live = _built(_page_file(routes.SERVICES, target.lang))
    else:
        live = _built(FALLBACK)
    frame_route = routes.BLOG if target.kind == prepaint.BLOG_POST else routes.SERVICES
    frame = _built(_page_file(frame_route, target.lang))
    if live is None or frame is None:
        return None
    main = await main_for(target)
    if main is None:
        return None
    return compose(live, frame, main, prepaint.LIVE_WHEN[target.kind], target.lang)


def _gzipped(body: bytes) -> bytes:
    if body not in _GZIPPED:
        _GZIPPED[body] = gzip.compress(body, compresslevel=6, mtime=0)
        if len(_GZIPPED) > _GZIP_CACHE:
            _GZIPPED.popitem(last=False)
    _GZIPPED.move_to_end(body)
    return _GZIPPED[body]


def _accepts_gzip(scope) -> bool:
    return any(
        name == b"accept-encoding" and b"gzip" in value.lower()
        for name, value in scope.get("headers", [])
    )


def prepaint_pages(app: Callable) -> Callable:
    """For `rx.App(api_transformer=[...])`; see the module's docstring."""

    async def wrapped(scope, receive, send) -> None:
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            await app(scope, receive, send)
            return
        target = prepaint.target_of(scope.get("path", ""))
        page = None
        if target is not None:
            try:
                page = await page_for(target)
            except Exception:
                # The build's page still serves it, drawn by its scripts as before.
                log.exception("writing %r ahead failed", scope.get("path"))
        if page is None:
            await app(scope, receive, send)
            return
        body = page.encode()
        headers = {"cache-control": "no-cache", "vary": "Accept-Encoding"}
        if _accepts_gzip(scope):
            body = _gzipped(body)
            headers["content-encoding"] = "gzip"
        headers["content-length"] = str(len(body))
        response = Response(
            body if scope.get("method") == "GET" else b"",
            media_type="text/html",
            headers=headers,
        )
        await response(scope, receive, send)

    return wrapped
