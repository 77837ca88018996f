"""Each event's time, by the area of the app its state belongs to (`/metrics`:
services/metrics.EVENT_SECONDS; docs/operations.md, 'Metrics').

Reflex 0.10 runs one event in `BaseStateEventProcessor._execute_event`: it takes the tab's
state (its lock; with several workers, out of Redis), asks the middleware (state/guard.py),
runs the handler and sends its updates. Its processor calls only the middleware's
`_preprocess`, never a postprocess, so no middleware sees an event end: `install` wraps that
method once, when the app is made (storefront/storefront.py), and times it whole. A Redis error
that ends an event (the state could not be read or written) is counted too.

The label is the state's area, never the handler's name (which comes from the client): a
state's access (state/access.py) names the private areas; the public states are named by their
module, and Reflex's own (hydrate, on-load) are the page's."""

from __future__ import annotations

import functools
from time import perf_counter

from redis.exceptions import RedisError
from reflex.state import BaseState
from reflex_base.event.processor import BaseStateEventProcessor

from storefront.services import metrics
from storefront.state.access import REFLEX_STATES, access_of, is_catalogue_only

# The public states that are not the catalogue's, by module (storefront/state/<module>.py).
PUBLIC_AREAS = {
    "cart": "cart",
    "slot_picker": "cart",
    "checkout": "checkout",
    "book_service": "checkout",
    "booking_view": "checkout",
    "contact": "contact",
    "auth": "account",
    "sign_in": "account",
    "tables": "catalog",
    "theme": "catalog",
    "weddings": "catalog",
}
_WRAPPED = "_storefront_timed"


def group_of(state: type[BaseState]) -> str:
    """One of services/metrics.EVENT_GROUPS."""
    if state in REFLEX_STATES or state.__module__.startswith(("reflex.", "reflex_")):
        return "page"
    level = access_of(state)
    if level != "public":
        return level
    if is_catalogue_only(state):
        return "catalog"
    return PUBLIC_AREAS.get(state.__module__.rsplit(".", 1)[-1], "other")


def _from_redis(error: BaseException | None) -> bool:
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, RedisError):
            return True
        error = error.__cause__ or error.__context__
        seen += 1
    return False


def install() -> None:
    """Time every foreground event of every processor (once, however often it is called). A
    background task's time is its own work's, not a tab's wait: it is left out."""
    original = BaseStateEventProcessor._execute_event
    if getattr(original, _WRAPPED, False):
        return

    @functools.wraps(original)
    async def timed(self, *, entry, registered_handler) -> None:
        if registered_handler.handler.is_background:
            await original(self, entry=entry, registered_handler=registered_handler)
            return
        started = perf_counter()
        try:
            await original(self, entry=entry, registered_handler=registered_handler)
        except BaseException as error:
            if _from_redis(error):
                metrics.redis_error("events")
            raise
        finally:
            metrics.event_took(group_of(registered_handler.states[0]), perf_counter() - started)

    setattr(timed, _WRAPPED, True)
    BaseStateEventProcessor._execute_event = timed
