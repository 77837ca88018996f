"""How states reach services: off the event loop, inside one database session."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from storefront.db import in_transaction

T = TypeVar("T")


def _call(fn: Callable[..., T], kwargs: dict[str, Any]) -> T:
    return in_transaction(lambda session: fn(session=session, **kwargs))


async def call_service(fn: Callable[..., T], **kwargs: Any) -> T:
    """Run `fn(session=..., **kwargs)` in a worker thread so no client waits on the database."""
    return await asyncio.to_thread(_call, fn, kwargs)
