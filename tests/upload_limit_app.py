"""A tiny ASGI app behind the same upload body cap as the storefront, for a real HTTP server
(granian, as `reflex run --env prod` uses) in tests/integration/test_upload_body_limit.py.

`POST /_upload` and `POST /other` read the whole body and count it, as Reflex's upload endpoint
does; `GET /stats` tells the test what the app was given."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route

from storefront.api.body_limit import upload_body_limit

STATS = {"calls": 0, "bytes": 0, "disconnects": 0, "completed": 0}


async def read_body(request: Request):
    STATS["calls"] += 1
    try:
        async for chunk in request.stream():
            STATS["bytes"] += len(chunk)
    except ClientDisconnect:
        STATS["disconnects"] += 1
        return PlainTextResponse("client gone")
    STATS["completed"] += 1
    return PlainTextResponse("read")


async def stats(request: Request):
    return JSONResponse(STATS)


async def reset(request: Request):
    for key in STATS:
        STATS[key] = 0
    return PlainTextResponse("reset")


app = upload_body_limit(
    Starlette(
        routes=[
            Route("/_upload", read_body, methods=["POST"]),
            Route("/other", read_body, methods=["POST"]),
            Route("/stats", stats),
            Route("/reset", reset, methods=["POST"]),
        ]
    )
)
