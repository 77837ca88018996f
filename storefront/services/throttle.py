"""Counting attempts per key, atomically: sign-in backoff, and limits on sign-ups, reset requests
and contact messages.

An attempt is counted *before* the slow work it guards (a password check, a mail) in a short
transaction of its own that holds the key's row lock: PostgreSQL `SELECT ... FOR UPDATE`, SQLite
`BEGIN IMMEDIATE`. So a burst of parallel attempts is counted one by one and cannot all slip
through before the first failure is written.

A key that names a visitor's address or a mailbox is made by `per_address` or `per_mailbox`, so
a new address of one IPv6 /64 or another spelling of one mailbox counts as the same
(services/limit_keys.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import case, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlmodel import Session, col, select

from storefront.models import SignInThrottle
from storefront.services import limit_keys, locks

KEY_MAX = 320


@dataclass(frozen=True)
class Rule:
    """At most `allowed` attempts per `window`. With `backoff`, each attempt beyond them is let
    through after a wait that doubles (from 2 s up to `max_delay`); without it, attempts beyond
    them wait until the window ends."""

    allowed: int
    window: timedelta
    backoff: bool = False
    max_delay: timedelta = timedelta(minutes=15)


def per_address(kind: str, ip: str) -> str:
    """The key of a per-address count: 'signup-ip:2001:db8:1:2::/64', 'ip:203.0.113.7'."""
    return f"{kind}:{limit_keys.network(ip) or 'unknown'}"


def per_mailbox(kind: str, email: str) -> str:
    """The key of a per-mailbox count: 'contact-email:victim@gmail.com'."""
    return f"{kind}:{limit_keys.mailbox(email)}"


def _lock_rows(session: Session, keys: list[str], now: datetime) -> dict[str, SignInThrottle]:
    """The rows of `keys`, created when missing, locked until the transaction ends."""
    if session.get_bind().dialect.name == "postgresql":
        for key in keys:  # sorted by the caller: no two transactions lock in opposite orders
            session.exec(
                pg_insert(SignInThrottle)
                .values(key=key, failures=0, window_started_at=now)
                .on_conflict_do_nothing(index_elements=["key"])
            )
        rows = session.exec(
            select(SignInThrottle)
            .where(col(SignInThrottle.key).in_(keys))
            .order_by(col(SignInThrottle.key))
            .with_for_update()
        ).all()
        return {row.key: row for row in rows}
    rows = {}
    for key in keys:
        row = session.get(SignInThrottle, key)
        if row is None:
            row = SignInThrottle(key=key, failures=0, window_started_at=now)
            session.add(row)
        rows[key] = row
    return rows


def begin_locked(session: Session) -> None:
    """End whatever the session had open and start a write transaction: on SQLite `BEGIN
    IMMEDIATE` takes the database's write lock at once (a plain BEGIN would let two readers
    decide before either writes)."""
    session.commit()
    locks.begin_write(session)


def take(session: Session, attempts: Iterable[tuple[str, Rule]], *, now: datetime) -> int:
    """Count one attempt under every (key, rule); returns 0 when it may go ahead, otherwise the
    seconds to wait (and nothing is counted). Commits its own short transaction."""
    rules = {key[:KEY_MAX]: rule for key, rule in attempts}
    begin_locked(session)
    rows = _lock_rows(session, sorted(rules), now)
    wait = 0
    for key, rule in rules.items():
        row = rows[key]
        if now - row.window_started_at > rule.window:
            row.failures, row.window_started_at, row.blocked_until = 0, now, None
        if row.blocked_until and row.blocked_until > now:
            wait = max(wait, _seconds(row.blocked_until - now))
        elif not rule.backoff and row.failures >= rule.allowed:
            wait = max(wait, _seconds(row.window_started_at + rule.window - now))
    if not wait:
        for key, rule in rules.items():
            row = rows[key]
            row.failures += 1
            if rule.backoff and row.failures > rule.allowed:
                delay = timedelta(seconds=2 ** min(row.failures - rule.allowed, 20))
                row.blocked_until = now + min(delay, rule.max_delay)
            session.add(row)
    session.commit()
    return wait


def release(session: Session, attempts: Iterable[tuple[str, Rule]]) -> None:
    """An attempt `take` counted went well: take it back, so only failures add up (an office
    behind one address signs in all day). One atomic decrement per key; a backoff that this
    attempt alone started is lifted (the caller commits)."""
    for key, rule in attempts:
        session.exec(  # type: ignore[call-overload]
            update(SignInThrottle)
            .where(col(SignInThrottle.key) == key[:KEY_MAX], col(SignInThrottle.failures) > 0)
            .values(
                failures=SignInThrottle.failures - 1,
                blocked_until=case(
                    (col(SignInThrottle.failures) - 1 <= rule.allowed, None),
                    else_=col(SignInThrottle.blocked_until),
                ),
            )
        )


def forgive(session: Session, keys: Iterable[str]) -> None:
    """An attempt went well: forget what these keys counted (the caller commits)."""
    for key in keys:
        row = session.get(SignInThrottle, key[:KEY_MAX])
        if row is not None:
            session.delete(row)


def _seconds(delta: timedelta) -> int:
    return max(1, int(delta.total_seconds() + 0.999))
