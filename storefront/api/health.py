"""`/_health`: the database (reachable, latency) and the notification outbox (waiting, oldest
waiting, failed) as JSON; 200 when the database answers, 503 when it does not (or when Redis,
used for state by several workers, does not). Registered in the API app, whose routes come
before Reflex's own, so it replaces Reflex's `/_health` (which only checks Reflex's db_url,
unset here, and Redis); Reflex's Redis check is kept below."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from storefront.db import get_engine
from storefront.services import health as health_service

# A database that does not answer at all (a dropped network) must not hold the check longer.
CHECK_TIMEOUT_SECONDS = 5.0
PATH = "/_health"


async def _redis() -> bool | None:
    """Reflex's own Redis check when REFLEX_REDIS_URL is set; None when Redis is not used."""
    from reflex.utils import prerequisites

    if not prerequisites.check_redis_used():
        return None
    status = (await prerequisites.get_redis_status()).get("redis")
    return bool(status)


async def health(_request: Request) -> JSONResponse:
    try:
        report = await asyncio.wait_for(
            asyncio.to_thread(health_service.check, engine=get_engine()), CHECK_TIMEOUT_SECONDS
        )
        body = report.as_dict()
    except TimeoutError:
        body = health_service.unreachable(
            get_engine().dialect.name, f"no answer within {CHECK_TIMEOUT_SECONDS:g} s"
        ).as_dict()
    redis = await _redis()
    body["redis"] = "NA" if redis is None else redis
    if redis is False:
        body["status"] = False
        body["warnings"].append("redis unreachable")
    return JSONResponse(
        body,
        status_code=200 if body["status"] else 503,
        headers={"Cache-Control": "no-store"},
    )


routes = [Route(PATH, health, methods=["GET"])]
