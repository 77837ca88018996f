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

The public calendars' bookings (a service's holds in a month, `availability.month_calendar`)
are cached the same way in `OCCUPANCY`, whose entries depend on the catalogue's version and on
the row `cache_versions['bookings']`, which any write of a booking or its items raises. So a
booking placed, moved or cancelled shows in every calendar within the same bound; placing a
booking never trusts a cache (services/booking/placing.py checks under the lock).

A read that can be answered from the caches alone is answered in the event loop, without a
thread or a session (`fresh`: a `@cached` function whose entry is there, or a function marked
`@from_caches` that reads only cached functions, tried with a `CacheOnly` session that refuses
anything else).
"""

from __future__ import annotations

import functools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import event, func, update
from sqlalchemy.orm import ORMExecuteState
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Session, col, select

from storefront import i18n
from storefront.models import (
    Banner,
    BannerItem,
    BlockedDate,
    Booking,
    BookingItem,
    BusinessSettings,
    Service,
    ServiceAvailability,
    ServiceCapacity,
    ServiceCategory,
    ServiceSlugRedirect,
)
from storefront.models.operations import CacheVersion
from storefront.services.errors import ServiceError
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
BOOKINGS = "bookings"
# What the public calendars count: the bookings and their items (a booking deleted takes its
# items with it in the database).
BOOKING_MODELS: tuple[type, ...] = (Booking, BookingItem)
# Which models raise which version.
WATCHED: dict[str, tuple[type, ...]] = {CATALOGUE: CATALOGUE_MODELS, BOOKINGS: BOOKING_MODELS}
TABLES = {
    name: frozenset(model.__tablename__ for model in models) for name, models in WATCHED.items()
}
# Entries per worker; keys with open-ended arguments (an id, a path) cannot grow past it.
MAX_ENTRIES = 2048
_CHANGED = "cache_versions_raised"  # session.info: the names this transaction raised


class NeedsDatabase(ServiceError):
    """A call made with `CacheOnly` met something the caches do not hold (`fresh` then answers
    MISSING, and the call is made with a session)."""

    CODES = {"needs_database": "Not in the caches"}


class CacheOnly:
    """Stands for a session in a call that may only read the caches (`fresh`): a cached
    function finds its entry or raises NeedsDatabase, and so does any other use."""

    def __init__(self, database: str) -> None:
        self.database = database

    def __getattr__(self, name: str) -> Any:
        raise NeedsDatabase("needs_database", attribute=name)


class CatalogueCache:
    """Entries and the version last read, per database (one in production; tests use many)."""

    def __init__(
        self,
        *,
        check_seconds: float | None = None,
        max_entries: int = MAX_ENTRIES,
        names: tuple[str, ...] = (CATALOGUE,),
        clock: Callable[[], float] = time.monotonic,
    ):
        self._check_seconds = check_seconds
        self._clock = clock  # tests pass one they move by hand (tests/clock.py)
        self.max_entries = max_entries
        self.names = names  # the versions its entries depend on
        self._entries: OrderedDict[tuple, tuple[tuple, Any]] = OrderedDict()
        # database -> (the versions of `names`, read at)
        self._versions: dict[str, tuple[tuple, float]] = {}
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

    def _current_version(self, database: str, session: Session) -> tuple:
        now = self._clock()
        known = self._versions.get(database)
        if known is not None and now - known[1] < self.check_seconds:
            return known[0]
        found = dict(
            session.exec(
                select(CacheVersion.name, CacheVersion.version).where(
                    col(CacheVersion.name).in_(self.names)
                )
            ).all()
        )
        version = tuple(found.get(name, 0) for name in self.names)
        with self._lock:
            self._versions[database] = (version, now)
        return version

    def peek(self, database: str, key: tuple) -> Any:
        """The value of `key` when the cache may serve it without reading anything (its version
        was read within the bound); MISSING otherwise."""
        known = self._versions.get(database)
        if known is None or self._clock() - known[1] >= self.check_seconds:
            return MISSING
        entry = self._entries.get((database, *key))
        return entry[1] if entry is not None and entry[0] == known[0] else MISSING

    def get(self, key: tuple, build: Callable[[], T], *, session: Session) -> T:
        return self.get_versioned(key, build, session=session)[0]

    def get_versioned(
        self, key: tuple, build: Callable[[], T], *, session: Session
    ) -> tuple[T, tuple | None]:
        """The value of `key` and the versions of `names` its entry is filed under (what was
        read is at least that new: `version_query` tells whether it is still current); None
        for a value read through, not filed."""
        if isinstance(session, CacheOnly):
            known = self._versions.get(session.database)
            found = self.peek(session.database, key)
            if found is MISSING or known is None:
                raise NeedsDatabase("needs_database", key=key[:2])
            return found, known[0]
        if set(session.info.get(_CHANGED, ())) & set(self.names) or any(
            _has_changes(session, name) for name in self.names
        ):
            return build(), None  # this transaction's own, uncommitted changes: read through
        try:
            hash(key)
        except TypeError:
            return build(), None  # an argument no cache can key (the function judges it)
        database = str(session.get_bind().url)
        version = self._current_version(database, session)
        key = (database, *key)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] == version:
                self._entries.move_to_end(key)
                return entry[1], version
        value = build()
        self.builds += 1
        with self._lock:
            self._entries[key] = (version, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
        return value, version

    def version_columns(self) -> list:
        """The versions of `names` as they are committed now, as scalar subqueries (0 for a
        name never raised, as `_current_version` reads it): a statement that selects them
        beside what it reads tells, in the same round trip, whether entries filed under a
        version are still current."""
        return [
            func.coalesce(
                select(CacheVersion.version).where(CacheVersion.name == name).scalar_subquery(),
                0,
            )
            for name in self.names
        ]


CACHE = CatalogueCache()
# The public calendars' holds (`availability.month_calendar`): the catalogue's rules with the
# month's bookings, so both versions.
OCCUPANCY = CatalogueCache(names=(CATALOGUE, BOOKINGS))
CACHES = (CACHE, OCCUPANCY)
MISSING = object()


def cached(fn: Callable[..., T] | None = None, *, cache: CatalogueCache = CACHE):
    """Serve `fn(..., session=...)` from `cache` (the catalogue's by default), keyed by its other
    arguments and by the language of the moment (storefront/i18n.py): what a cached read shapes
    (a service's title, a price written out) is in that language."""
    if fn is None:
        return functools.partial(cached, cache=cache)

    def key_of(args: tuple, kwargs: dict[str, Any]) -> tuple:
        return (fn.__module__, fn.__qualname__, i18n.language(), args, *sorted(kwargs.items()))

    @functools.wraps(fn)
    def wrapper(*args: Any, session: Session, **kwargs: Any) -> T:
        build = lambda: fn(*args, session=session, **kwargs)  # noqa: E731
        return cache.get(key_of(args, kwargs), build, session=session)

    def with_version(*args: Any, session: Session, **kwargs: Any) -> tuple[T, tuple | None]:
        build = lambda: fn(*args, session=session, **kwargs)  # noqa: E731
        return cache.get_versioned(key_of(args, kwargs), build, session=session)

    wrapper.with_version = with_version  # type: ignore[attr-defined]
    wrapper.uncached = fn  # type: ignore[attr-defined]
    wrapper.cache_key = key_of  # type: ignore[attr-defined]
    wrapper.cache = cache  # type: ignore[attr-defined]
    return wrapper


def from_caches(fn: Callable[..., T]) -> Callable[..., T]:
    """Mark `fn(session=..., ...)` as a read that touches the database only through cached
    functions: `fresh` may then answer it in the event loop when their entries are there."""
    fn.from_caches = True  # type: ignore[attr-defined]
    return fn


def fresh(fn: Callable[..., Any], kwargs: dict[str, Any], *, database: str) -> Any:
    """What `fn(**kwargs)` returns, when it can be served without reading anything, not even a
    version: `fn` is cached and its entry is there, or `fn` is `@from_caches` and every cached
    read it makes is there; MISSING otherwise (then call it in a session)."""
    key_of = getattr(fn, "cache_key", None)
    if key_of is not None:
        try:
            return fn.cache.peek(database, key_of((), kwargs))  # type: ignore[attr-defined]
        except TypeError:  # an unhashable argument: let the call itself refuse it
            return MISSING
    if getattr(fn, "from_caches", False):
        try:
            return fn(session=CacheOnly(database), **kwargs)
        except (NeedsDatabase, TypeError):
            return MISSING
    return MISSING


def _has_changes(session: OrmSession, name: str) -> bool:
    models = WATCHED[name]
    return any(isinstance(obj, models) for obj in (*session.new, *session.dirty, *session.deleted))


def _raise_version(session: OrmSession, name: str) -> None:
    """Once per transaction and name: raise that version in it."""
    raised_names = session.info.setdefault(_CHANGED, set())
    if name in raised_names:
        return
    raised_names.add(name)
    connection = session.connection()
    raised = connection.execute(
        update(CacheVersion)
        .where(CacheVersion.name == name)
        .values(version=CacheVersion.version + 1)
    )
    if raised.rowcount == 0:
        connection.execute(CacheVersion.__table__.insert().values(name=name, version=1))


@event.listens_for(OrmSession, "before_flush")
def _before_flush(session: OrmSession, _context, _instances) -> None:
    for name in WATCHED:
        if _has_changes(session, name):
            _raise_version(session, name)


@event.listens_for(OrmSession, "do_orm_execute")
def _bulk_write(state: ORMExecuteState) -> None:
    if (state.is_update or state.is_delete) and state.is_orm_statement:
        table = getattr(state.statement, "table", None)
        for name, tables in TABLES.items():
            if getattr(table, "name", None) in tables:
                _raise_version(state.session, name)


@event.listens_for(OrmSession, "after_commit")
def _after_commit(session: OrmSession) -> None:
    raised_names = session.info.pop(_CHANGED, set())
    for cache in CACHES:
        if raised_names & set(cache.names):
            cache.clear()


@event.listens_for(OrmSession, "after_rollback")
def _after_rollback(session: OrmSession) -> None:
    session.info.pop(_CHANGED, None)
