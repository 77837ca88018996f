"""Old addresses with other casing answer with a permanent redirect to the canonical page, at
its canonical address (services/catalog/seo.py), so a crawler takes one hop, not two."""

from starlette.requests import Request
from starlette.responses import RedirectResponse
from starlette.routing import Route

from storefront import routes as site_routes
from storefront.services.catalog import seo


def _redirect_to(target: str):
    async def endpoint(request: Request) -> RedirectResponse:
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(target + query, status_code=301)

    return endpoint


routes = [
    Route(alias, _redirect_to(seo.canonical_url(canonical, base="")), methods=["GET", "HEAD"])
    for alias, canonical in site_routes.ALIASES.items()
]
