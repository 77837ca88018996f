"""A page opened again sends nothing new (issue 38, item 5): over the real websocket, one tab
opens each catalogue page's load twice; the first answer carries the page's lists, the second
none of them, since nothing in the catalogue changed (state/base.py `set_changed`). Needs the
production server only, not Chromium."""

from __future__ import annotations

import json

import pytest

from storefront import routes
from storefront.state.banners import HomeBannerState
from storefront.state.bouncers import BouncersState
from storefront.state.mascots import MascotsState
from storefront.state.services_index import ServicesIndexState
from storefront.state.tables import TablesState
from tests.e2e.socket_client import Tab, run

pytestmark = pytest.mark.e2e

# (the state, its page, the lists its load reads from the catalogue)
PAGES = [
    (MascotsState, routes.MASCOTS, ("mascots", "mascot_packages", "works")),
    (BouncersState, routes.BOUNCERS, ("options", "bouncers", "castle_packages")),
    (ServicesIndexState, routes.SERVICES, ("categories", "themes")),
    (TablesState, routes.WEDDING_TABLES, ("tables",)),
    (HomeBannerState, routes.HOME, ("cards", "weddings")),
]


def _sent_vars(messages: list[str], state) -> set[str]:
    """The names of `state`'s vars that the messages carried (its delta's keys)."""
    name = state.get_full_name()
    sent: set[str] = set()
    for raw in messages:
        for key, delta in (json.loads(raw).get("delta") or {}).items():
            if key == name:
                sent |= {var.rsplit("_rx_state_", 1)[0] for var in delta}
    return sent


@pytest.mark.parametrize(("state", "path", "lists"), PAGES, ids=[p[0].__name__ for p in PAGES])
def test_a_page_opened_again_resends_none_of_its_lists(server, state, path, lists):
    answers: list[list[str]] = []

    async def scenario():
        async with Tab(server.url, None) as tab:
            for _visit in range(2):
                before = len(tab.received)
                await tab.send(state.load, path)
                answers.append(tab.received[before:])

    run(scenario())
    first, again = (_sent_vars(messages, state) for messages in answers)
    assert set(lists) <= first, first
    assert not set(lists) & again, again
    assert sum(len(m) for m in answers[1]) < sum(len(m) for m in answers[0]) / 4
