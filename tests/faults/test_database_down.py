"""A booking while the database cannot be reached at all: the booking service refuses it with
its own error (code 'unavailable'), which checkout turns into the spec's 'Failed to place booking.
Please try again.'; nothing else escapes. Needs no PostgreSQL server: a closed port will do."""

from __future__ import annotations

import logging
import sqlite3
import time
from datetime import UTC, datetime

import pytest
from sqlalchemy.exc import OperationalError

from storefront import i18n
from storefront.db import in_transaction, is_outage, make_engine
from storefront.services.booking import lines as booking_lines
from storefront.services.booking import placing
from storefront.state.checkout import PLACE_FAILED
from tests.factories import contact, line
from tests.mail_server import free_port

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)


def test_a_booking_with_the_database_unreachable_is_refused_cleanly(report):
    pytest.importorskip("psycopg")
    engine = make_engine(f"postgresql://postgres@127.0.0.1:{free_port()}/nowhere")
    began = time.perf_counter()
    with pytest.raises(booking_lines.BookingError) as refused:
        in_transaction(
            lambda session: placing.place_booking(
                session=session,
                lines=[line("0b8e8a4e-6a51-4c52-9d8c-1f0b7f0c9a11", "2026-06-10", "10:00")],
                contact=contact(),
                idempotency_key="no-database-key-1",
                now=NOW,
            ),
            engine,
        )
    took = (time.perf_counter() - began) * 1000
    engine.dispose()
    report(f"refused in {took:.0f} ms: {refused.value.code}: {refused.value.message}")
    assert refused.value.code == "unavailable"
    assert refused.value.__suppress_context__  # no driver traceback chained to the message
    assert PLACE_FAILED == "Failed to place booking. Please try again."


def _operational(message: str, sqlstate: str | None = None) -> OperationalError:
    orig = sqlite3.OperationalError(message)
    if sqlstate is not None:
        orig = type("PgError", (Exception,), {"sqlstate": sqlstate})(message)
    return OperationalError("SELECT 1", {}, orig)


@pytest.mark.parametrize(
    ("error", "outage"),
    [
        (_operational("database is locked"), False),
        (_operational("no such table: bookings"), False),
        (_operational("unable to open database file"), True),
        (_operational("terminating connection due to administrator command", "57P01"), True),
        (_operational("the database system is starting up", "57P03"), True),
        (_operational("connection failure", "08006"), True),
        (_operational("canceling statement due to lock timeout", "55P03"), False),
        (_operational("deadlock detected", "40P01"), False),
        (ValueError("not a database error"), False),
    ],
)
def test_what_counts_as_an_outage(error, outage):
    assert is_outage(error) is outage


async def test_checkout_shows_spec_text_and_gives_the_button_back(monkeypatch, caplog, report):
    """CheckoutState.complete, as the 'Complete Booking' button runs it, with the database
    unreachable: the spec's generic failure text, no spinner left, no traceback logged."""
    pytest.importorskip("psycopg")
    import json

    from reflex.state import State

    import storefront.db
    import storefront.storefront  # noqa: F401  (registers every page and state)
    from storefront.state.cart import CartState
    from storefront.state.checkout import CheckoutState

    engine = make_engine(f"postgresql://postgres@127.0.0.1:{free_port()}/nowhere")
    monkeypatch.setattr(storefront.db, "get_engine", lambda: engine)
    root = State(_reflex_internal_init=True)
    tab = root.get_substate(CheckoutState.get_full_name().split(".")[1:])
    cart_state = root.get_substate(CartState.get_full_name().split(".")[1:])
    service_id = "0b8e8a4e-6a51-4c52-9d8c-1f0b7f0c9a11"
    cart_state.cart_json = json.dumps(
        [
            {
                "id": service_id,
                "serviceId": service_id,
                "name": "Castle",
                "image": "/castle.webp",
                "price": "100",
                "quantity": 1,
                "date": "2026-12-10",
                "startTime": "10:00",
                "duration": 1,
            }
        ]
    )
    tab.step, tab._key = "review", "checkout-key-while-down"
    tab.form = tab.form | {
        "full_name": "Arta",
        "email": "arta@example.com",
        "phone": "+38344123456",
        "event_type": "birthday",  # asked for: the form starts without them (issue 34, item 4)
        "guest_count": "30",
        "city": "prishtine",  # the municipality, required (issue 36)
    }

    caplog.set_level(logging.INFO, logger="storefront")
    spinner = []
    async for _ in CheckoutState.complete.fn(tab):
        spinner.append(tab.placing)
    engine.dispose()

    report(f"while placing: placing={spinner}; after: placing={tab.placing}, {tab.place_error!r}")
    assert spinner == [True]
    assert (tab.placing, tab.step, tab.place_error) == (False, "review", i18n._(PLACE_FAILED))
    assert tab._key == "checkout-key-while-down"  # the retry uses the same key
    assert not [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info]
    refusals = [
        r.getMessage() for r in caplog.records if "database is unavailable" in r.getMessage()
    ]
    report(f"logged: {refusals}")
    assert len(refusals) == 1 and "Connection refused" in refusals[0]


def test_an_event_that_fails_while_the_database_is_down_says_spec_text(caplog):
    """Whatever escapes a handler or the event guard during an outage (the session check of a
    page load, an admin screen) reaches the app's exception handler: the visitor reads the spec's
    'Something went wrong. Please try again later.' and the log gets one line, no traceback.
    Any other exception keeps Reflex's notice and traceback."""
    pytest.importorskip("psycopg")
    import storefront.storefront as site
    from storefront.services.accounts import auth
    from storefront.state.errors import TRY_LATER, backend_exception_handler

    assert site.app.backend_exception_handler is backend_exception_handler
    engine = make_engine(f"postgresql://postgres@127.0.0.1:{free_port()}/nowhere")
    with pytest.raises(OperationalError) as down:
        in_transaction(lambda session: auth.session_user(session=session, token="t" * 43), engine)
    engine.dispose()

    caplog.set_level(logging.INFO, logger="storefront")
    told = str(backend_exception_handler(down.value))
    assert i18n._(TRY_LATER) in told and "Contact the website administrator" not in told
    assert TRY_LATER == "Something went wrong. Please try again later."
    lines = [r for r in caplog.records if r.name == "storefront.state.errors"]
    assert len(lines) == 1 and not lines[0].exc_info
    assert "database is unavailable" in lines[0].getMessage()

    caplog.clear()
    with caplog.at_level(logging.ERROR):
        other = str(backend_exception_handler(ValueError("a bug")))
    assert TRY_LATER not in other and "An error occurred." in other
    assert any("a bug" in r.getMessage() for r in caplog.records)  # Reflex logs the traceback
