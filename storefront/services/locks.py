"""The one way to serialise writes that must not interleave (docs/architecture.md §5).

    locks.take(session, locks.service(service_id), locks.booking_limit("email:a@b.c"))

Each lock is a named key: a namespace (`Space`) and a 32-bit number within it. `take` takes the
given keys in one sorted order (namespace, then number), whoever calls it, so two transactions
never wait on each other crosswise; they are held until the transaction ends.

- PostgreSQL: transaction advisory locks, `pg_advisory_xact_lock(namespace, key)`, after
  `SET LOCAL lock_timeout` (LOCK_TIMEOUT): a lock not granted by then raises OperationalError
  (`is_lock_timeout`), which the callers turn into their 'busy' answer. A caller that can tell
  without the lock that it would be refused anyway passes `while_waiting`: the wait is then cut
  into tries every RECHECK_SECONDS, and between two tries `while_waiting()` looks again (and
  raises to give up), so a burst at a slot that has just filled is answered at once instead of each
  guest queueing for the lock in turn only to be refused under it (bench/booking_race.py).
- SQLite: the database's write lock, taken by opening the transaction with `BEGIN IMMEDIATE`
  (storefront/db.py issues it): one writer at a time, which covers every key. A transaction the
  caller already opened keeps its own mode.

`throttle` (sign-in attempts) locks its counter rows with `SELECT ... FOR UPDATE` instead: rows
that exist are their own keys. It uses `begin_write` and LOCK_TIMEOUT from here."""

from __future__ import annotations

import hashlib
import random
import time
import uuid
from collections.abc import Callable
from enum import IntEnum
from typing import NamedTuple

from sqlalchemy import text
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

# How long a transaction waits for a lock before it gives up (PostgreSQL): a guest is told to
# try again rather than kept waiting longer than this.
LOCK_TIMEOUT_SECONDS = 5
LOCK_TIMEOUT = f"{LOCK_TIMEOUT_SECONDS}s"
# How often a waiter that can look again without the lock tries the lock
# (`take(while_waiting=...)`), and its last wait when its time has run out.
RECHECK_SECONDS = 0.1
FINAL_WAIT = "100ms"


class Space(IntEnum):
    """The namespaces of the keys; a number never changes once used."""

    SERVICE = 1  # bookings and schedule changes of one service
    BOOKING_LIMIT = 3  # the count of bookings of one address, email or phone
    ADMIN_DECISIONS = 4  # making the first admin (a sign-up on an empty system, setup)
    # 5 was the outbox's claim, when the mail cap was counted by the sender; not to be reused.
    RECEIPTS = 6  # the receipt numbers of one year (services/payments/receipts.py)
    BOOKING_MONEY = 7  # the payments of one booking (services/payments/ledger.py)
    CASH = 8  # the cash one member of staff hands over (services/payments/cash.py)
    VAN_JOB = 9  # the van and crew of one booking's runs (services/operations/vans.py)


class Key(NamedTuple):
    space: Space
    number: int


def _number(raw: bytes) -> int:
    return int.from_bytes(raw[:4], "big", signed=True)


def service(service_id: uuid.UUID) -> Key:
    return Key(Space.SERVICE, _number(service_id.bytes))


def booking_limit(value: str) -> Key:
    """The key of one limited value, e.g. 'email:guest@example.com'."""
    return Key(Space.BOOKING_LIMIT, _number(hashlib.sha256(value.encode()).digest()))


ADMIN_DECISIONS = Key(Space.ADMIN_DECISIONS, 1)


def receipts(year: int) -> Key:
    """The key of one year's receipt numbers: taken by whoever gives the next one."""
    return Key(Space.RECEIPTS, year)


def cash(staff_id: uuid.UUID) -> Key:
    """The key of one member of staff's cash: a handover is counted under it."""
    return Key(Space.CASH, _number(staff_id.bytes))


def booking_money(booking_id: uuid.UUID) -> Key:
    """The key of one booking's payments: a payment is checked against the balance under it."""
    return Key(Space.BOOKING_MONEY, _number(booking_id.bytes))


def van_job(booking_id: uuid.UUID) -> Key:
    """The key of one booking's runs: a van and crew are given to its delivery or pickup
    under it, so two admins assigning at once end with one assignment."""
    return Key(Space.VAN_JOB, _number(booking_id.bytes))


def begin_write(session: Session) -> None:
    """On SQLite, open the transaction with the write lock (`BEGIN IMMEDIATE`); a transaction
    already open keeps its mode. Nothing on PostgreSQL."""
    if session.get_bind().dialect.name == "sqlite" and not session.in_transaction():
        session.connection(execution_options={"sqlite_begin": "BEGIN IMMEDIATE"})


def take(session: Session, *keys: Key, while_waiting: Callable[[], None] | None = None) -> None:
    """Hold `keys` until the transaction ends, taken in sorted order (see the module). While a
    key is held by another transaction, `while_waiting` (if given) is called every RECHECK_SECONDS
    and may raise to give up; it runs in this transaction, so what it reads is expired before
    the lock is had (read again under the lock)."""
    if session.get_bind().dialect.name != "postgresql":
        begin_write(session)
        return
    connection = session.connection()
    connection.execute(text(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'"))
    for key in sorted(set(keys)):
        if while_waiting is None:
            _lock(session, key)
        elif not _try_lock(session, key):
            _lock_checking(session, key, while_waiting)


def _lock(session: Session, key: Key) -> None:
    session.connection().execute(
        text("SELECT pg_advisory_xact_lock(:space, :number)"),
        {"space": int(key.space), "number": key.number},
    )


def _try_lock(session: Session, key: Key) -> bool:
    """`key` if it is free now (one round trip, no waiting)."""
    return bool(
        session.connection()
        .execute(
            text("SELECT pg_try_advisory_xact_lock(:space, :number)"),
            {"space": int(key.space), "number": key.number},
        )
        .scalar()
    )


def _lock_checking(session: Session, key: Key, while_waiting: Callable[[], None]) -> None:
    """`key` within LOCK_TIMEOUT_SECONDS: tried every RECHECK_SECONDS (with a little jitter, so
    waiters do not knock in step), with `while_waiting` called between tries. A wait that runs
    out ends as `take`'s would: a lock not granted, OperationalError (`is_lock_timeout`)."""
    deadline = time.monotonic() + LOCK_TIMEOUT_SECONDS
    while True:
        while_waiting()
        if time.monotonic() >= deadline:
            session.connection().execute(text(f"SET LOCAL lock_timeout = '{FINAL_WAIT}'"))
            _lock(session, key)
            # The rest of the transaction waits as long as any other (a unique index held by
            # another insert, the next key).
            session.connection().execute(text(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'"))
            break
        time.sleep(RECHECK_SECONDS * random.uniform(0.5, 1.0))
        if _try_lock(session, key):
            break
    # What `while_waiting` read is read again under the lock.
    session.expire_all()


def is_lock_timeout(error: OperationalError) -> bool:
    """Whether `error` is a lock not granted in time (PostgreSQL) or a busy SQLite file."""
    code = getattr(error.orig, "sqlstate", None)
    return code == "55P03" or "database is locked" in str(error.orig)
