"""CartState.add_service against a real database (SQLite and PostgreSQL), as the add-to-cart
buttons send it (issue 23): one answer per add, whose script the browser times itself, and the
server's own guard against a second click on a button while it says 'Adding...'."""

from __future__ import annotations

import json

import pytest
from reflex.state import State

import storefront.storefront  # noqa: F401  (registers every page and state)
from storefront.state import cart as cart_state
from storefront.state.cart import CartState
from tests.clock import FakeClock
from tests.factories import make_service

BUSY = 0.2  # the tests' busy time, instead of ADD_BUSY_SECONDS' second


@pytest.fixture
def app_database(engine, monkeypatch):
    """The app's own calls (state/base.call_service) on the test database."""
    import storefront.db
    import storefront.state.base

    monkeypatch.setattr(storefront.db, "get_engine", lambda: engine)
    monkeypatch.setattr(storefront.state.base, "get_engine", lambda: engine)


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    clock = FakeClock()
    monkeypatch.setattr(cart_state, "clock", clock)
    return clock


@pytest.fixture
def castle(session, app_database, monkeypatch, clock):
    monkeypatch.setattr(cart_state, "ADD_BUSY_SECONDS", BUSY)
    castle = make_service(session, units=10)
    castle.images = [{"url": "/media/services/castle.webp"}]  # a cart line needs a picture
    session.add(castle)
    session.commit()
    return castle


def _tab() -> CartState:
    root = State(_reflex_internal_init=True)
    return root.get_substate(CartState.get_full_name().split(".")[1:])


def _quantity(tab: CartState) -> int:
    return sum(item["quantity"] for item in json.loads(tab.cart_json))


async def test_an_add_answers_once_with_the_script_that_marks_and_clears_it(castle):
    tab = _tab()
    answer = await CartState.add_service.fn(tab, str(castle.id))
    assert _quantity(tab) == 1
    # One script: the marks, their times (ms) and the fly-to-cart animation; no event back.
    script = answer.args[0][1]._var_value
    assert f'"{castle.id}"' in script and "setTimeout" in script and "flyToCart" in script
    assert f", {round(BUSY * 1000)}]" in script
    assert f", {round(cart_state.LAST_ADDED_SECONDS * 1000)}]" in script
    assert not hasattr(CartState, "finish_adding")


async def test_a_second_add_within_the_busy_time_adds_nothing_and_one_after_it_adds(castle, clock):
    tab = _tab()
    await CartState.add_service.fn(tab, castle.slug)
    # The same service again while its button says 'Adding...', by what the button sent (a
    # slug here) or by its id: nothing.
    assert await CartState.add_service.fn(tab, castle.slug) is None
    assert await CartState.add_service.fn(tab, str(castle.id)) is None
    assert _quantity(tab) == 1
    clock.advance(BUSY - 0.01)
    assert await CartState.add_service.fn(tab, castle.slug) is None
    assert _quantity(tab) == 1
    clock.advance(0.02)
    await CartState.add_service.fn(tab, str(castle.id))
    assert _quantity(tab) == 2


async def test_another_service_adds_at_once(castle, session):
    other = make_service(session, title="Pink castle", units=10)
    other.images = castle.images
    session.add(other)
    session.commit()
    tab = _tab()
    await CartState.add_service.fn(tab, castle.slug)
    await CartState.add_service.fn(tab, str(other.id))
    assert _quantity(tab) == 2
    # ... and then the first is free again: only the last add is busy, as its button shows.
    await CartState.add_service.fn(tab, str(castle.id))
    assert _quantity(tab) == 3
