"""The one way to serialise writes that must not interleave (docs/architecture.md §5).

    locks.take(session, locks.service(service_id), locks.booking_limit("email:a@b.c"))

Each lock is a named key: a namespace (`Space`) and a 32-bit number within it. `take` takes the
given keys in one sorted order (namespace, then number), whoever calls it, so two transactions
never wait on each other crosswise; they are held until the transaction ends.

- PostgreSQL: transaction advisory locks, `pg_advisory_xact_lock(namespace, key)`, after
  `SET LOCAL lock_timeout` (LOCK_TIMEOUT): a lock not granted by then raises OperationalError
  (`is_lock_timeout`), which the callers turn into their 'busy' answer.
- SQLite: the database's write lock, taken by opening the transaction with `BEGIN IMMEDIATE`
  (storefront/db.py issues it): one writer at a time, which covers every key. A transaction the
  caller already opened keeps its own mode.

`throttle` (sign-in attempts) locks its counter rows with `SELECT ... FOR UPDATE` instead: rows
that exist are their own keys. It uses `begin_write` and LOCK_TIMEOUT from here."""

from __future__ import annotations

import hashlib
import uuid
from enum import IntEnum
from typing import NamedTuple

from sqlalchemy import text
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

# How long a transaction waits for a lock before it gives up (PostgreSQL).
LOCK_TIMEOUT = "10s"


class Space(IntEnum):
    """The namespaces of the keys; a number never changes once used."""

    SERVICE = 1  # bookings and schedule changes of one service
    BOOKING_LIMIT = 3  # the count of bookings of one address, email or phone
    ADMIN_DECISIONS = 4  # making the first admin (a sign-up on an empty system, setup)
    OUTBOX_CLAIM = 5  # claiming due mails, so the per-recipient cap is counted one claim at a time


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
OUTBOX_CLAIM = Key(Space.OUTBOX_CLAIM, 1)


def begin_write(session: Session) -> None:
    """On SQLite, open the transaction with the write lock (`BEGIN IMMEDIATE`); a transaction
    already open keeps its mode. Nothing on PostgreSQL."""
    if session.get_bind().dialect.name == "sqlite" and not session.in_transaction():
        session.connection(execution_options={"sqlite_begin": "BEGIN IMMEDIATE"})


def take(session: Session, *keys: Key) -> None:
    """Hold `keys` until the transaction ends, taken in sorted order (see the module)."""
    if session.get_bind().dialect.name != "postgresql":
        begin_write(session)
        return
    connection = session.connection()
    connection.execute(text(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'"))
    for key in sorted(set(keys)):
        connection.execute(
            text("SELECT pg_advisory_xact_lock(:space, :number)"),
            {"space": int(key.space), "number": key.number},
        )


def is_lock_timeout(error: OperationalError) -> bool:
    """Whether `error` is a lock not granted in time (PostgreSQL) or a busy SQLite file."""
    code = getattr(error.orig, "sqlstate", None)
    return code == "55P03" or "database is locked" in str(error.orig)
