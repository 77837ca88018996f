"""The audit log: who changed what in the back office, when, and how it looked before and
after. Every admin write path calls `record` inside its own transaction, so a change and its
entry are committed together or not at all."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from enum import Enum
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, SQLModel, col, select

from storefront.models import AuditLog, User
from storefront.services.errors import ServiceError


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


def saved(
    session: Session,
    row: Any,
    *,
    actor_id: str | uuid.UUID | None,
    action: str,
    entity_type: str,
    before: Any = None,
) -> AuditLog:
    """Write `row` (new or changed) in the caller's transaction and record it: the entry's
    `after` is the row as written."""
    session.add(row)
    session.flush()
    return record(
        session,
        actor_id=actor_id,
        action=action,
        entity_type=entity_type,
        entity_id=row.id,
        before=before,
        after=snapshot(row),
    )


# --- the viewer ----------------------------------------------------------------------------------

PER_PAGE = 25


class AuditError(ServiceError):
    """Codes: not_allowed (the caller is not an admin), invalid_filter."""

    CODES = {
        "invalid_filter": "Invalid filter",
        "not_allowed": "Not allowed",
    }


@dataclass(frozen=True)
class AuditEntry:
    id: str
    created_at: str  # DD.MM.YYYY HH:MM local
    actor: str  # the actor's email, or 'system'
    action: str
    entity_type: str
    entity_id: str
    details: str  # the before/after as compact JSON


@dataclass(frozen=True)
class AuditPage:
    entries: tuple[AuditEntry, ...]
    total: int
    page: int
    pages: int
    entity_types: tuple[str, ...]


def entries(
    *,
    session: Session,
    actor_id: object,
    actor: str = "",
    entity_type: str = "",
    date_from: str = "",
    date_to: str = "",
    page: int = 1,
    per_page: int = PER_PAGE,
) -> AuditPage:
    """The log, newest first, filtered by the actor's email (part of it), the entity type and
    local days (inclusive); admins only."""
    from storefront.services import dates

    caller = _actor(session, actor_id)
    if caller is None or session.get(User, caller).role != "admin":
        raise AuditError("not_allowed")
    where: list[Any] = []
    term = str(actor or "").strip()[:100]
    if term:
        where.append(col(User.email).icontains(term, autoescape=True))
    if entity_type:
        where.append(AuditLog.entity_type == str(entity_type)[:64])
    zone = dates.business_zone()
    for value, after in ((date_from, True), (date_to, False)):
        if not value:
            continue
        try:
            day = date.fromisoformat(str(value))
        except ValueError:
            raise AuditError("invalid_filter") from None
        day = day if after else day + timedelta(days=1)
        moment = datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC)
        where.append(AuditLog.created_at >= moment if after else AuditLog.created_at < moment)
    base = select(AuditLog, User.email).join(User, isouter=True).where(*where)
    total = session.exec(
        select(func.count()).select_from(AuditLog).join(User, isouter=True).where(*where)
    ).one()
    per_page = max(1, min(int(per_page), 100))
    pages = max(1, -(-total // per_page))
    page = max(1, min(int(page), pages))
    rows = session.exec(
        base.order_by(col(AuditLog.created_at).desc(), col(AuditLog.id))
        .offset((page - 1) * per_page)
        .limit(per_page)
    ).all()
    kinds = session.exec(select(AuditLog.entity_type).distinct().order_by(AuditLog.entity_type))
    return AuditPage(
        entries=tuple(
            AuditEntry(
                id=str(entry.id),
                created_at=f"{dates.local_date(entry.created_at)} "
                f"{dates.local_time(entry.created_at)}",
                actor=email or "system",
                action=entry.action,
                entity_type=entry.entity_type,
                entity_id=entry.entity_id or "",
                details=json.dumps(entry.details, ensure_ascii=False, sort_keys=True)[:2000],
            )
            for entry, email in rows
        ),
        total=total,
        page=page,
        pages=pages,
        entity_types=tuple(kinds.all()),
    )
