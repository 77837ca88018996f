"""An add to the cart costs the server one update (issue 23): its answer carries the cart and the
script that marks the button 'Adding...' and the floating cart 'just added'; the browser clears
both itself, so nothing more comes for the cart afterwards. A second add of the same service
while its button is busy adds nothing, whatever the browser sends."""

import asyncio
import json

import pytest
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import Service, ServiceCapacity
from storefront.state.cart import ADD_BUSY_SECONDS, LAST_ADDED_SECONDS, CartState
from tests.e2e.socket_client import Tab as Browser
from tests.e2e.socket_client import run as _run

pytestmark = pytest.mark.e2e

CART = CartState.get_full_name()


def _cart_deltas(messages: list[str]) -> list[dict]:
    return [
        delta[CART]
        for delta in (json.loads(message).get("delta", {}) for message in messages)
        if CART in delta
    ]


def _quantity(delta: dict) -> int:
    raw = next(value for name, value in delta.items() if name.startswith("cart_json"))
    return sum(item["quantity"] for item in json.loads(raw))


def test_an_add_is_answered_once_and_the_browser_times_the_rest(server):
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        # A package of which one booking may hold several (a mascot's line holds one).
        service_id = str(
            session.exec(
                select(Service.id)
                .join(ServiceCapacity, ServiceCapacity.service_id == Service.id)
                .where(Service.kind == "package", ServiceCapacity.total_units >= 2)
            ).first()
        )
    engine.dispose()
    path = "/services/bouncers"

    async def scenario() -> tuple[list[str], list[str], list[str]]:
        async with Browser(server.url, None) as tab:
            tab.received.clear()
            await tab.send(CartState.add_service, path, service_id=service_id)
            # The second click on the busy button, as a forged event would send it.
            await tab.send(CartState.add_service, path, service_id=service_id)
            answered = list(tab.received)
            # finish_adding used to send 'Adding...' off after ADD_BUSY_SECONDS and the
            # last-added mark off after LAST_ADDED_SECONDS.
            await asyncio.sleep(max(ADD_BUSY_SECONDS, LAST_ADDED_SECONDS) + 1)
            later = tab.received[len(answered) :]
            tab.received.clear()
            await tab.send(CartState.add_service, path, service_id=service_id)  # busy time over
            return answered, later, list(tab.received)

    answered, later, again = _run(scenario())
    [delta] = _cart_deltas(answered)  # one update for two clicks: the second added nothing
    assert _quantity(delta) == 1
    scripts = [
        event["payload"]["javascript_code"]
        for message in answered
        for event in json.loads(message).get("events", [])
        if event["name"] == "_call_script"
    ]
    assert len(scripts) == 1 and service_id in scripts[0] and "flyToCart" in scripts[0]
    assert _cart_deltas(later) == []
    [delta] = _cart_deltas(again)
    assert _quantity(delta) == 2
