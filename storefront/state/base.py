"""How states reach services: off the event loop, inside one database session; a cached public
read (services/cache.py) that is fresh is answered at once, without either."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

from storefront.db import get_engine, in_transaction
from storefront.services import cache as catalog_cache

T = TypeVar("T")


def _call(fn: Callable[..., T], kwargs: dict[str, Any]) -> T:
    return in_transaction(lambda session: fn(session=session, **kwargs))


async def call_service(fn: Callable[..., T], **kwargs: Any) -> T:
    """Run `fn(session=..., **kwargs)` in a worker thread so no client waits on the database."""
    found = catalog_cache.fresh(fn, kwargs, database=str(get_engine().url))
    if found is not catalog_cache.MISSING:
        return found
    return await asyncio.to_thread(_call, fn, kwargs)


def set_changed(state: Any, **values: Any) -> None:
    """Assign each of `values` to `state` only when it differs from what the state holds.
    Reflex sends every var an event assigned, equal or not: a page opened again in the same tab
    (its on_load reads the catalogue afresh) then resends its whole list. Assigned through
    here, a page whose data has not changed gets no delta beyond what changed (issue 38)."""
    for name, value in values.items():
        if getattr(state, name) != value:
            setattr(state, name, value)


# A form's on_load may run a moment after the page is on screen, once its first keys (or the
# browser's autofill) have reached the state: what was typed this recently is kept, not blanked.
TYPED_JUST_NOW = 3.0


def typed_just_now(typed_at: float) -> bool:
    """Whether a field typed into at `typed_at` (time.time()) was typed while its page opened."""
    return time.time() - typed_at <= TYPED_JUST_NOW
