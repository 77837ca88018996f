"""`/_health`: `{"status": true}` with 200 when the database answers, `{"status": false}` with 503
when it does not (or when Redis, used for state by several workers, does not). Anyone can ask,
so the answer says nothing else: the reasons (the driver's error with its host, port and role,
the backend, the outbox's counts) go to the log, one line, and to the admin dashboard's System
Status. Registered in the API app, whose routes come before Reflex's own, so it replaces
Reflex's `/_health` (which only checks Reflex's db_url, unset here, and Redis); Reflex's Redis
check is kept below."""

from __future__ import annotations

import asyncio
import logging
import time

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from storefront.db import get_engine
from storefront.services import metrics
from storefront.services.operations import health as health_service

logger = logging.getLogger(__name__)

# A database that does not answer at all (a dropped network) must not hold the check longer.
CHECK_TIMEOUT_SECONDS = 5.0
PATH = "/_health"
# A balancer asking every second during an outage: the same reason is logged once a minute.
LOG_REPEAT_SECONDS = 60.0
_last_logged: dict[str, float] = {}


async def _redis() -> bool | None:
    """Reflex's own Redis check when REFLEX_REDIS_URL is set; None when Redis is not used."""
    from reflex.utils import prerequisites

    if not prerequisites.check_redis_used():
        return None
    status = (await prerequisites.get_redis_status()).get("redis")
    return bool(status)


def _log_unhealthy(reasons: str) -> None:
    now = time.monotonic()
    if now - _last_logged.get(reasons, float("-inf")) >= LOG_REPEAT_SECONDS:
        _last_logged.clear()
        _last_logged[reasons] = now
        logger.warning("/_health answers 503: %s", reasons)


async def health(_request: Request) -> JSONResponse:
    try:
        report = await asyncio.wait_for(
            asyncio.to_thread(health_service.check, engine=get_engine()), CHECK_TIMEOUT_SECONDS
        )
    except TimeoutError:
        report = health_service.unreachable(
            get_engine().dialect.name, f"no answer within {CHECK_TIMEOUT_SECONDS:g} s"
        )
    redis = await _redis()
    if redis is False:
        metrics.redis_error("health")
    ok = report.ok and redis is not False
    if not ok:
        _log_unhealthy(report.summary() + ("; redis unreachable" if redis is False else ""))
    return JSONResponse(
        {"status": ok},
        status_code=200 if ok else 503,
        headers={"Cache-Control": "no-store"},
    )


routes = [Route(PATH, health, methods=["GET"])]
