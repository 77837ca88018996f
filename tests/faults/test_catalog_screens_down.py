"""The catalogue's admin screens (Service Management and the service form) while the database
cannot be reached: each shows its own failure text, and the log gets one line naming the
handler and the service, no traceback per event (state/errors.log_failure). Needs no
PostgreSQL server: a closed port will do."""

from __future__ import annotations

import logging

import pytest

from storefront import i18n
from storefront.db import make_engine
from tests.mail_server import free_port

SERVICE_ID = "0b8e8a4e-6a51-4c52-9d8c-1f0b7f0c9a11"


@pytest.fixture
def database_down(monkeypatch, caplog):
    pytest.importorskip("psycopg")
    import storefront.db

    engine = make_engine(f"postgresql://postgres@127.0.0.1:{free_port()}/nowhere")
    monkeypatch.setattr(storefront.db, "get_engine", lambda: engine)
    caplog.set_level(logging.INFO, logger="storefront")
    yield caplog
    engine.dispose()


def _tab(root, state_class):
    return root.get_substate(state_class.get_full_name().split(".")[1:])


def _one_outage_line(caplog, handler: str) -> str:
    assert not [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info]
    lines = [r.getMessage() for r in caplog.records if "database is unavailable" in r.getMessage()]
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{handler} failed")
    return lines[0]


async def _run(handler, tab):
    result = handler.fn(tab)
    if hasattr(result, "__aiter__"):
        async for _ in result:
            pass
    else:
        await result


async def test_the_catalogue_screens_say_their_own_words_and_log_one_line(
    database_down, monkeypatch, report
):
    from reflex.state import State

    import storefront.storefront  # noqa: F401  (registers every page and state)
    from storefront.state import admin_services
    from storefront.state.admin_services import AdminServicesState

    root = State(_reflex_internal_init=True)
    tab = _tab(root, AdminServicesState)

    async def an_admin(self):
        return "d1a8f5c2-1111-4c52-9d8c-1f0b7f0c9a11"

    monkeypatch.setattr(AdminServicesState, "_admin_id", an_admin)
    await _run(AdminServicesState.load, tab)
    assert (tab.error, tab.rows, tab.loading) == (admin_services.LOAD_FAILED, [], False)
    report(_one_outage_line(database_down, "AdminServicesState._reload"))

    database_down.clear()
    await AdminServicesState.toggle_active.fn(tab, SERVICE_ID)
    assert tab.error == admin_services.TOGGLE_FAILED["active"]
    line = _one_outage_line(database_down, "AdminServicesState.toggle_active")
    assert f"service={SERVICE_ID}" in line

    # The service form, on the same page load's root state.
    database_down.clear()
    from storefront.state import service_form
    from storefront.state.service_form import ServiceFormState

    tab = _tab(root, ServiceFormState)

    async def an_owner(self):
        return "d1a8f5c2-2222-4c52-9d8c-1f0b7f0c9a11"

    monkeypatch.setattr(ServiceFormState, "_caller_id", an_owner)
    tab.service_id, tab.title, tab.slug, tab.price = SERVICE_ID, "Castle", "castle", "100"
    await _run(ServiceFormState.save, tab)
    assert (tab.error, tab.saving) == (i18n._s(service_form.FAILED), False)
    line = _one_outage_line(database_down, "ServiceFormState.save")
    assert f"service={SERVICE_ID}" in line
    report(line)
