"""Events through the real app's Reflex event processor move `/metrics`' latency histogram for
their state's area (state/timing.py)."""

from __future__ import annotations

import asyncio
import uuid

import pytest
import pytest_asyncio
from prometheus_client.parser import text_string_to_metric_families

# One event processor for the module, on one event loop: Reflex sets it up once per server.
pytestmark = pytest.mark.asyncio(loop_scope="module")

PAGE = "/cart"


def scrape() -> dict[tuple[str, frozenset], float]:
    """What this process shows (the database's gauges are tests/integration/test_metrics.py's)."""
    from storefront.services import metrics

    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(metrics.exposition().decode())
        for sample in family.samples
    }


def timed(found: dict, group: str) -> float:
    return found[("storefront_event_duration_seconds_count", frozenset({("group", group)}))]


async def send(token: str, handler: str, **payload: object) -> None:
    from reflex.event import Event

    import storefront.storefront as site

    event = Event(name=handler, payload=payload, router_data={"pathname": PAGE, "query": {}})
    async with asyncio.timeout(30):
        async for _delta in site.app.event_processor.enqueue_stream_delta(token, event):
            pass


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def processor():
    """The real app's event processor, running."""
    import storefront.storefront as site

    app = site.app
    async with app._setup_event_processor():
        with app.set_contexts():
            yield app


def handler(state, name: str) -> str:
    return f"{state.get_full_name()}.{name}"


async def test_each_event_is_timed_in_its_states_area(processor):
    from reflex.state import State

    from storefront.state.admin_bookings import AdminBookingsState
    from storefront.state.cart import CartState
    from storefront.state.tables import TablesState

    token = str(uuid.uuid4())
    before = scrape()
    await send(token, handler(State, "hydrate"))
    await send(token, handler(CartState, "close_time"))
    await send(token, handler(CartState, "close_time"))
    await send(token, handler(TablesState, "pick_color"), color="white")
    # A guest's admin event: refused by the guard, its time still counted as the admin area's.
    await send(token, handler(AdminBookingsState, "load"))
    after = scrape()

    moved = {
        group: timed(after, group) - timed(before, group)
        for group in ("page", "cart", "catalog", "admin", "checkout", "other")
    }
    assert moved == {"page": 1, "cart": 2, "catalog": 1, "admin": 1, "checkout": 0, "other": 0}
