"""The audit log: who changed what in the back office, when, and how it looked before and
after. Every admin write path calls `record` inside its own transaction, so a change and its
entry are committed together or not at all."""

from __future__ import annotations

import uuid
from datetime import date, datetime, time
from decimal import Decimal
from enum import Enum
from typing import Any

from sqlmodel import Session, SQLModel

from storefront.models import AuditLog, User


def json_safe(value: Any) -> Any:
    """`value` as plain JSON: ids, money, dates and times become strings."""
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [json_safe(v) for v in value]
    if isinstance(value, uuid.UUID | Decimal | datetime | date | time):
        return value.isoformat() if isinstance(value, datetime | date | time) else str(value)
    if isinstance(value, Enum):
        return value.value
    return value


def snapshot(row: SQLModel | None, *, exclude: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """The columns of `row` as JSON, for the before/after of an entry (None for no row)."""
    if row is None:
        return None
    data = row.model_dump(exclude=set(exclude))
    return json_safe(data)


def _actor(session: Session, actor_id: str | uuid.UUID | None) -> uuid.UUID | None:
    try:
        actor = uuid.UUID(str(actor_id))
    except (TypeError, ValueError):
        return None
    return actor if session.get(User, actor) is not None else None


def record(
    session: Session,
    *,
    actor_id: str | uuid.UUID | None,
    action: str,
    entity_type: str,
    entity_id: str | uuid.UUID | None,
    before: Any = None,
    after: Any = None,
    **extra: Any,
) -> AuditLog:
    """Add one entry to the caller's transaction (it is committed with the change)."""
    details: dict[str, Any] = {"before": json_safe(before), "after": json_safe(after)}
    details.update(json_safe(extra))
    entry = AuditLog(
        actor_user_id=_actor(session, actor_id),
        action=action[:64],
        entity_type=entity_type[:64],
        entity_id=None if entity_id is None else str(entity_id)[:64],
        details=details,
    )
    session.add(entry)
    return entry
