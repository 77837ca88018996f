"""Serve stored files from the local storage folder with long cache headers, in the sizes pages
ask for; and let browsers keep the built frontend's hashed assets.

Stored names are generated and never reused, so a file at a path never changes: a resized copy
(`?w=400`) can be cached as long as the file itself.

`static_files` wraps the whole app (`rx.App(api_transformer=...)`): the build's hashed assets
(`/assets/*`, a new name for every new content) get the same year-long cache lifetime, so a
returning visitor's phone loads the scripts and styles from its cache; and a page built ahead is
answered at its address without a trailing slash (`/cart`), not redirected to `/cart/`."""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from PIL import Image
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Route

from storefront.services.media import storage
from storefront.settings import get_settings

CACHE_CONTROL = "public, max-age=31536000, immutable"
# The widths a page may ask for (img srcset); anything else gets the stored file.
WIDTHS = storage.RESIZED_WIDTHS
RESIZABLE = {"JPEG", "PNG", "WEBP"}  # not GIF: a resized copy would lose its animation
_VARIANT_CACHE = 512
_variants: OrderedDict[tuple[str, float, int], bytes] = OrderedDict()


def _resized(target: Path, width: int) -> bytes | None:
    """`target` scaled down to `width` pixels wide as WebP, or None when it is already as
    narrow (or not a picture this can resize)."""
    with Image.open(target) as image:
        if image.format not in RESIZABLE or image.width <= width:
            return None
        height = max(1, round(image.height * width / image.width))
        copy = image.convert("RGBA" if "A" in image.getbands() else "RGB")
        copy = copy.resize((width, height), Image.Resampling.LANCZOS)
        out = io.BytesIO()
        copy.save(out, format="WEBP", quality=78, method=4)
        return out.getvalue()


async def _variant(target: Path, width: int) -> bytes | None:
    key = (str(target), target.stat().st_mtime, width)
    if key in _variants:
        _variants.move_to_end(key)
        return _variants[key]
    data = await asyncio.to_thread(_resized, target, width)
    if data is not None:
        _variants[key] = data
        if len(_variants) > _VARIANT_CACHE:
            _variants.popitem(last=False)
    return data


async def media(request: Request) -> Response:
    target = storage.resolve(request.path_params["path"])
    if target is None:
        return PlainTextResponse("Not found", status_code=404)
    width = request.query_params.get("w", "")
    if width.isdigit() and int(width) in WIDTHS:
        try:
            data = await _variant(target, int(width))
        except OSError:
            data = None
        if data is not None:
            return Response(
                data if request.method == "GET" else b"",
                media_type="image/webp",
                headers={"Cache-Control": CACHE_CONTROL, "Content-Length": str(len(data))},
            )
    return FileResponse(target, headers={"Cache-Control": CACHE_CONTROL})


routes = [Route(get_settings().media_url_prefix + "/{path:path}", media, methods=["GET", "HEAD"])]


@lru_cache(maxsize=1)
def _frontend_dir() -> Path:
    from reflex.constants import Dirs
    from reflex.utils.prerequisites import get_web_dir

    return get_web_dir() / Dirs.STATIC


@lru_cache(maxsize=1024)
def _is_page_folder(path: str) -> bool:
    """Whether the build has `path/index.html` (a page built ahead), for a path like `/cart`."""
    name = path.strip("/")
    if not name or ".." in name.split("/"):
        return False
    return (_frontend_dir() / name / "index.html").is_file()


def static_files(app: Callable) -> Callable:
    """For `rx.App(api_transformer=[...])`; see the module's docstring."""

    async def wrapped(scope, receive, send) -> None:
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            await app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        if path.startswith("/assets/"):

            async def send_cached(message) -> None:
                if message["type"] == "http.response.start" and message.get("status") == 200:
                    headers = [
                        (k, v)
                        for k, v in message.get("headers", [])
                        if k.lower() != b"cache-control"
                    ]
                    headers.append((b"cache-control", CACHE_CONTROL.encode()))
                    message = {**message, "headers": headers}
                await send(message)

            await app(scope, receive, send_cached)
            return
        last = path.rsplit("/", 1)[-1]
        if last and "." not in last and _is_page_folder(path):
            # A page's one address has no trailing slash (services/seo.canonical_url): answer
            # it from its folder at once, not with a redirect to `/cart/`, which cost a phone
            # a whole round trip before the page could start.
            scope = {**scope, "path": path + "/", "raw_path": (path + "/").encode()}
        await app(scope, receive, send)

    return wrapped
