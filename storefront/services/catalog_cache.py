"""The public catalogue's shapes, built once per worker and shared by every visitor
(docs/architecture.md §9.4).

Every visitor of the mascots page gets the same characters, packages and photos, so they are
read and shaped once, not per page load. What may be cached is a public read whose result
depends only on the catalogue tables below and its own arguments: wrap it in `@cached`.

Invalidation reaches every worker through the database:
- any transaction that writes one of `CATALOGUE_MODELS` (through the ORM or a bulk
  UPDATE/DELETE) raises the row `cache_versions['catalogue']` in the same transaction, whatever
  the code path (admin screens, the seed, a script), so a change and its version commit together;
- the worker that commits it drops its own cache at once;
- every other worker reads the version (one primary-key lookup) at most once per
  `CATALOGUE_CACHE_SECONDS`, and drops its cache when it moved.

So a public page shows an admin's change at once in the worker that saved it, and at most
`CATALOGUE_CACHE_SECONDS` (a setting, 1 s by default) later in every other worker or host. A
transaction with uncommitted catalogue changes never fills the cache (it reads through), so a
rolled-back change is never served.

Cached values are shared between threads and visitors: treat them as read-only.
"""

from __future__ import annotations

import functools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import event, update
from sqlalchemy.orm import ORMExecuteState
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Session, select

from storefront import i18n
from storefront.models import (
    Banner,
    BannerItem,
    BlockedDate,
    BusinessSettings,
    Service,
    ServiceAvailability,
    ServiceCapacity,
    ServiceCategory,
    ServiceSlugRedirect,
)
from storefront.models.operations import CacheVersion
from storefront.settings import get_settings

T = TypeVar("T")

CATALOGUE = "catalogue"
# What the public pages show: services and categories, banners and their items, the business's
# details (footer, contact page, structured data, minimum notice), and the rules of the public
# calendars (weekly hours, capacity, blocked dates), and the old addresses of services whose
# slug changed.
CATALOGUE_MODELS: tuple[type, ...] = (
    Service,
    ServiceCategory,
    ServiceSlugRedirect,
    Banner,
    BannerItem,
    BusinessSettings,
    ServiceAvailability,
    ServiceCapacity,
    BlockedDate,
)
CATALOGUE_TABLES = frozenset(model.__tablename__ for model in CATALOGUE_MODELS)
# Entries per worker; keys with open-ended arguments (an id, a path) cannot grow past it.
MAX_ENTRIES = 2048
_CHANGED = "catalogue_changed"


class CatalogueCache:
    """Entries and the version last read, per database (one in production; tests use many)."""

    def __init__(self, *, check_seconds: float | None = None, max_entries: int = MAX_ENTRIES):
        self._check_seconds = check_seconds
        self.max_entries = max_entries
        self._entries: OrderedDict[tuple, tuple[int, Any]] = OrderedDict()
        self._versions: dict[str, tuple[int, float]] = {}  # database -> (version, read at)
        self._lock = threading.Lock()
        self.builds = 0  # how often a value was built (tests and benchmarks read it)

    def clear(self) -> None:
        """Forget everything and read the version again at the next call."""
        with self._lock:
            self._entries.clear()
            self._versions.clear()

    @property
    def check_seconds(self) -> float:
        if self._check_seconds is None:
            self._check_seconds = get_settings().catalogue_cache_seconds
        return self._check_seconds

    def _current_version(self, database: str, session: Session) -> int:
        now = time.monotonic()
        known = self._versions.get(database)
        if known is not None and now - known[1] < self.check_seconds:
            return known[0]
        found = session.exec(
            select(CacheVersion.version).where(CacheVersion.name == CATALOGUE)
        ).first()
        version = found or 0
        with self._lock:
            self._versions[database] = (version, now)
        return version

    def peek(self, database: str, key: tuple) -> Any:
        """The value of `key` when the cache may serve it without reading anything (its version
        was read within the bound); MISSING otherwise."""
        known = self._versions.get(database)
        if known is None or time.monotonic() - known[1] >= self.check_seconds:
            return MISSING
        entry = self._entries.get((database, *key))
        return entry[1] if entry is not None and entry[0] == known[0] else MISSING

    def get(self, key: tuple, build: Callable[[], T], *, session: Session) -> T:
        if session.info.get(_CHANGED) or _has_catalogue_changes(session):
            return build()  # this transaction's own, uncommitted catalogue: read through
        try:
            hash(key)
        except TypeError:
            return build()  # an argument no cache can key (the function judges it)
        database = str(session.get_bind().url)
        version = self._current_version(database, session)
        key = (database, *key)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] == version:
                self._entries.move_to_end(key)
                return entry[1]
        value = build()
        self.builds += 1
        with self._lock:
            self._entries[key] = (version, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
        return value


CACHE = CatalogueCache()
MISSING = object()


def cached(fn: Callable[..., T]) -> Callable[..., T]:
    """Serve `fn(..., session=...)` from the cache, keyed by its other arguments and by the
    language of the moment (storefront/i18n.py): what a cached read shapes (a service's title,
    a price written out) is in that language."""

    def key_of(args: tuple, kwargs: dict[str, Any]) -> tuple:
        return (fn.__module__, fn.__qualname__, i18n.language(), args, *sorted(kwargs.items()))

    @functools.wraps(fn)
    def wrapper(*args: Any, session: Session, **kwargs: Any) -> T:
        build = lambda: fn(*args, session=session, **kwargs)  # noqa: E731
        return CACHE.get(key_of(args, kwargs), build, session=session)

    wrapper.uncached = fn  # type: ignore[attr-defined]
    wrapper.cache_key = key_of  # type: ignore[attr-defined]
    return wrapper


def fresh(fn: Callable[..., Any], kwargs: dict[str, Any], *, database: str) -> Any:
    """What `fn(**kwargs)` returns, when `fn` is cached and its value can be served without
    reading anything, not even the version; MISSING otherwise (then call it in a session)."""
    key_of = getattr(fn, "cache_key", None)
    if key_of is None:
        return MISSING
    try:
        return CACHE.peek(database, key_of((), kwargs))
    except TypeError:  # an unhashable argument: let the call itself refuse it
        return MISSING


def _has_catalogue_changes(session: OrmSession) -> bool:
    return any(
        isinstance(obj, CATALOGUE_MODELS)
        for obj in (*session.new, *session.dirty, *session.deleted)
    )


def _raise_version(session: OrmSession) -> None:
    """Once per transaction: raise the catalogue's version in it."""
    if session.info.get(_CHANGED):
        return
    session.info[_CHANGED] = True
    connection = session.connection()
    raised = connection.execute(
        update(CacheVersion)
        .where(CacheVersion.name == CATALOGUE)
        .values(version=CacheVersion.version + 1)
    )
    if raised.rowcount == 0:
        connection.execute(CacheVersion.__table__.insert().values(name=CATALOGUE, version=1))


@event.listens_for(OrmSession, "before_flush")
def _before_flush(session: OrmSession, _context, _instances) -> None:
    if _has_catalogue_changes(session):
        _raise_version(session)


@event.listens_for(OrmSession, "do_orm_execute")
def _bulk_write(state: ORMExecuteState) -> None:
    if (state.is_update or state.is_delete) and state.is_orm_statement:
        table = getattr(state.statement, "table", None)
        if getattr(table, "name", None) in CATALOGUE_TABLES:
            _raise_version(state.session)


@event.listens_for(OrmSession, "after_commit")
def _after_commit(session: OrmSession) -> None:
    if session.info.pop(_CHANGED, False):
        CACHE.clear()


@event.listens_for(OrmSession, "after_rollback")
def _after_rollback(session: OrmSession) -> None:
    session.info.pop(_CHANGED, None)
