"""An event whose tab's state lives in a Redis that has gone away is counted in `/metrics` as a
Redis error (state/timing.py): the real app's event processor on Reflex's Redis state manager,
against a real `redis-server` on loopback that the test stops."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
import uuid

import pytest
import pytest_asyncio
from redis.exceptions import ConnectionError as RedisConnectionError

from tests.integration.test_metrics_events import handler, scrape, send

pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def redis_server():
    port = _free_port()
    server = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", ""]
        + ["--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    yield server, port
    server.terminate()
    server.wait(timeout=10)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def on_redis(redis_server):
    """The real app's event processor, keeping tabs' states in `redis_server`."""
    import redis.asyncio as redis
    from reflex.istate.manager.redis import StateManagerRedis

    import storefront.storefront as site

    _server, port = redis_server
    app = site.app
    kept = app._state_manager
    app._state_manager = StateManagerRedis(redis=redis.Redis(host="127.0.0.1", port=port))
    try:
        async with app._setup_event_processor():
            with app.set_contexts():
                yield app
    finally:
        app._state_manager = kept


def redis_errors(found: dict) -> float:
    return found[("storefront_redis_errors_total", frozenset({("place", "events")}))]


async def test_an_event_that_cannot_reach_redis_is_counted(on_redis, redis_server):
    from reflex.state import State

    from storefront.state.cart import CartState

    server, _port = redis_server
    token = str(uuid.uuid4())
    before = scrape()
    await send(token, handler(State, "hydrate"))
    await send(token, handler(CartState, "close_time"))
    assert redis_errors(scrape()) == redis_errors(before)  # Redis answers: nothing counted

    server.terminate()
    server.wait(timeout=10)
    with pytest.raises(RedisConnectionError):
        await send(token, handler(CartState, "close_time"))
    assert redis_errors(scrape()) == redis_errors(before) + 1
