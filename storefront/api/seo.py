"""`/sitemap.xml` (every public page and every theme of the catalogue, read when asked) and
`/robots.txt` (which keeps private, buying and API addresses out of search results)."""

import asyncio

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from storefront.db import session_scope
from storefront.services.catalog import seo

CACHE = "public, max-age=3600"


def _sitemap_pages() -> list[dict[str, str]]:
    with session_scope() as session:
        return seo.sitemap_pages(session=session)


async def sitemap(request: Request) -> Response:
    pages = await asyncio.to_thread(_sitemap_pages)
    return Response(
        seo.sitemap_xml(pages),
        media_type="application/xml",
        headers={"cache-control": CACHE},
    )


async def robots(request: Request) -> Response:
    return PlainTextResponse(seo.robots_txt(), headers={"cache-control": CACHE})


routes = [
    Route("/sitemap.xml", sitemap, methods=["GET", "HEAD"]),
    Route("/robots.txt", robots, methods=["GET", "HEAD"]),
]
