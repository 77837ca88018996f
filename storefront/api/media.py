"""Serve stored files from the local storage folder with long cache headers.

Stored names are generated and never reused, so a file at a path never changes."""

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Route

from storefront.services import storage
from storefront.settings import get_settings

CACHE_CONTROL = "public, max-age=31536000, immutable"


async def media(request: Request) -> Response:
    target = storage.resolve(request.path_params["path"])
    if target is None:
        return PlainTextResponse("Not found", status_code=404)
    return FileResponse(target, headers={"Cache-Control": CACHE_CONTROL})


routes = [Route(get_settings().media_url_prefix + "/{path:path}", media, methods=["GET", "HEAD"])]
