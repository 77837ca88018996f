"""The engine and `session_scope()`: the one place that opens database sessions."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlmodel import Session, create_engine

from storefront.settings import get_settings

T = TypeVar("T")

# PostgreSQL: a pooled connection is tested before each use (pool_pre_ping), so one the server
# dropped (a restart, a failover, an idle timeout on the way) is replaced instead of failing
# the request that drew it; connections are also renewed every half hour. A server that does
# not answer fails a new connection after CONNECT_TIMEOUT seconds instead of hanging a worker.
POOL_RECYCLE_SECONDS = 1800
CONNECT_TIMEOUT_SECONDS = 5
# Each worker's pool: POOL_SIZE connections kept, up to POOL_OVERFLOW more in a burst; a request
# that finds none free within POOL_TIMEOUT_SECONDS is answered 'unavailable, try again'
# (`is_outage`) instead of queueing for long (a burst of 200 bookings: bench/booking_race.py).
POOL_SIZE = 5
POOL_OVERFLOW = 10
POOL_TIMEOUT_SECONDS = 5


def make_engine(url: str, *, echo: bool = False) -> Engine:
    """Create an engine; SQLite files get their folder, foreign keys and WAL."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url, echo=echo, connect_args={"check_same_thread": False, "timeout": 30}
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        # Let `BEGIN IMMEDIATE` be issued explicitly where a write lock is needed.
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if parsed.get_backend_name() == "postgresql" and parsed.drivername == "postgresql":
        url = parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    return create_engine(
        url,
        echo=echo,
        pool_pre_ping=True,
        pool_recycle=POOL_RECYCLE_SECONDS,
        pool_size=POOL_SIZE,
        max_overflow=POOL_OVERFLOW,
        pool_timeout=POOL_TIMEOUT_SECONDS,
        connect_args={"connect_timeout": CONNECT_TIMEOUT_SECONDS},
    )


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _sqlite_begin(connection) -> None:
    mode = connection.get_execution_options().get("sqlite_begin", "BEGIN")
    connection.exec_driver_sql(mode)


@lru_cache
def get_engine() -> Engine:
    settings = get_settings()
    return make_engine(settings.database_url, echo=settings.database_echo)


@contextmanager
def session_scope(engine: Engine | None = None) -> Iterator[Session]:
    """A session that commits on success and rolls back on error."""
    with Session(engine or get_engine(), expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


def reads_one_by_one(session: Session) -> None:
    """Let `session`'s next reads run each on its own, outside a transaction (PostgreSQL's
    autocommit: no BEGIN and no ROLLBACK around them), until it commits or rolls back; a
    PostgreSQL transaction in READ COMMITTED gives each statement its own snapshot anyway, so
    what each read sees is the same. For reads that decide nothing by themselves (a first look
    before a lock). SQLite keeps its transaction (it begins it itself: `_sqlite_begin`)."""
    if session.get_bind().dialect.name == "postgresql":
        session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})


SQLITE_ATTEMPTS = 4


def is_outage(exc: BaseException) -> bool:
    """The database could not be reached or dropped the connection: the server is down,
    restarting, refusing connections, or the pool had none to give in time. Not a bug in the
    request, and worth trying again later; a lock timeout or SQLite's busy lock is not one
    (each service maps those itself)."""
    if isinstance(exc, (DisconnectionError, PoolTimeoutError, InterfaceError)):
        return True
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    if isinstance(exc, OperationalError):
        if type(exc.orig).__module__.startswith("sqlite3"):
            # SQLite's locked/busy and schema errors are not outages; a file it cannot open is.
            return any(m in str(exc.orig) for m in ("unable to open", "disk I/O error"))
        code = getattr(exc.orig, "sqlstate", None)
        if code is None:
            return True  # no answer from a server at all: refused, reset, timed out
        # 08: connection exception; 57P01-57P03: admin/crash shutdown, cannot connect now;
        # 53300: too many connections.
        return code.startswith("08") or code in {"57P01", "57P02", "57P03", "53300"}
    return False


def error_summary(exc: BaseException) -> str:
    """'Type: first line of the driver's message', for one log line or a health report
    instead of a traceback."""
    lines = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"[:300]


def _lost_write_race(exc: OperationalError) -> bool:
    """SQLite's 'database is locked' (SQLITE_BUSY): in WAL mode a transaction that read first
    cannot take the write lock once another connection has committed since, and busy_timeout
    does not help it; the whole transaction must start again."""
    return "database is locked" in str(exc.orig) or "database is busy" in str(exc.orig)


def in_transaction(fn: Callable[[Session], T], engine: Engine | None = None) -> T:
    """`fn(session)` in one transaction, committed on success. On SQLite a transaction that
    lost the race for the write lock is run again from the start (it was rolled back whole),
    a few times, so a sign-in never fails because the outbox sender wrote at that moment."""
    for attempt in range(SQLITE_ATTEMPTS):
        try:
            with session_scope(engine) as session:
                return fn(session)
        except OperationalError as exc:
            if attempt == SQLITE_ATTEMPTS - 1 or not _lost_write_race(exc):
                raise
            time.sleep(0.02 * 2**attempt)
    raise AssertionError("unreachable")
