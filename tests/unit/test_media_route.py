"""The media route's narrower copies, and the frontend wrapper that caches the build's assets
(api/media.py)."""

import io

import httpx
from PIL import Image
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from storefront.api import media
from storefront.services.media import storage
from storefront.services.media.placeholders import placeholder_image


def _client(app=None) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app or Starlette(routes=media.routes))
    return httpx.AsyncClient(transport=transport, base_url="http://localhost")


async def test_a_listed_width_gets_a_narrower_webp_that_is_cached_for_good(media_dir):
    storage.save_bytes("galleries", "wide.webp", placeholder_image("Wide", width=800, height=600))
    async with _client() as client:
        response = await client.get("/media/galleries/wide.webp?w=400")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/webp"
    assert response.headers["cache-control"] == media.CACHE_CONTROL
    with Image.open(io.BytesIO(response.content)) as image:
        assert image.size == (400, 300)


async def test_other_widths_and_narrow_files_come_as_stored(media_dir):
    stored = placeholder_image("Narrow", width=200, height=100)
    storage.save_bytes("galleries", "narrow.webp", stored)
    async with _client() as client:
        assert (await client.get("/media/galleries/narrow.webp?w=400")).content == stored
        assert (await client.get("/media/galleries/narrow.webp?w=123")).content == stored
        assert (await client.get("/media/galleries/missing.webp?w=400")).status_code == 404


async def test_build_assets_are_cached_for_good_and_pages_are_not(monkeypatch):
    monkeypatch.setattr(media, "_is_page_folder", lambda path: path == "/cart")

    async def echo(request):
        return PlainTextResponse(request.url.path)

    inner = Starlette(routes=[Route("/{path:path}", echo)])
    async with _client(media.static_files(inner)) as client:
        asset = await client.get("/assets/entry-abc.js")
        assert asset.headers["cache-control"] == media.CACHE_CONTROL
        page = await client.get("/cart")
        # A page built ahead is answered from its folder at its own address: no redirect.
        assert (page.status_code, page.text) == (200, "/cart/")
        assert "cache-control" not in page.headers
        # Anything else passes as it came.
        assert (await client.get("/nothing-built")).text == "/nothing-built"
        assert (await client.get("/robots.txt")).text == "/robots.txt"
