"""`/metrics`: Prometheus's text format for an operator's scraper (docs/operations.md,
'Metrics'; services/operations/metrics.py makes the answer). It tells how busy the business is,
so it is answered only to
- `Authorization: Bearer <METRICS_TOKEN>`, from anywhere (a wrong token, or any token while
  METRICS_TOKEN is empty, is refused wherever it comes from);
- no token, from a private or loopback address (PRIVATE_NETWORKS): the visitor's address as
  every plain route decides it behind TRUSTED_PROXY_HOPS (api/auth.client_ip), and every
  address a proxy put in X-Forwarded-For private too (a proxy in front that TRUSTED_PROXY_HOPS does not count still
  names the public visitor there; a client can add addresses, never remove the proxy's).
Anything else: 403."""

from __future__ import annotations

import asyncio
import hmac
import ipaddress

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from storefront.api.auth import client_ip
from storefront.db import get_engine
from storefront.services import metrics as metrics_service
from storefront.services.operations import metrics as scraping
from storefront.settings import get_settings

PATH = "/metrics"
NO_STORE = {"Cache-Control": "no-store"}


# Private (RFC 1918, RFC 4193) and loopback networks. Not Python's `is_private`, which also
# counts the documentation and other reserved ranges.
PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(network)
    for network in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8")
    + ("::1/128", "fc00::/7")
)


def _is_private(address: str) -> bool:
    try:
        parsed = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return False
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    return any(parsed in network for network in PRIVATE_NETWORKS)


def _bearer(request: Request) -> str | None:
    """The token of `Authorization: Bearer <token>`; None when no Authorization is sent ('' for
    another scheme, which is refused like a wrong token)."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def may_scrape(request: Request) -> bool:
    given = _bearer(request)
    if given is not None:
        expected = get_settings().metrics_token
        return bool(expected and given) and hmac.compare_digest(given.encode(), expected.encode())
    forwarded = [
        entry.strip()
        for line in request.headers.getlist("x-forwarded-for")
        for entry in line.split(",")
        if entry.strip()
    ]
    return _is_private(client_ip(request)) and all(map(_is_private, forwarded))


async def scrape(request: Request) -> Response:
    if not may_scrape(request):
        return PlainTextResponse("Forbidden", status_code=403, headers=NO_STORE)
    body = await asyncio.to_thread(scraping.scrape, engine=get_engine())
    return Response(body, media_type=metrics_service.CONTENT_TYPE, headers=NO_STORE)


routes = [Route(PATH, scrape, methods=["GET"])]
