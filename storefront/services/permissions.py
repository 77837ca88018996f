"""Who may change the back office: the one admin check of every admin write path. The role is
read from the database at the call, never taken from what the browser sent."""

from __future__ import annotations

import uuid

from sqlmodel import Session

from storefront.models import User
from storefront.services.errors import ServiceError


def require_admin(session: Session, actor_id: object, error: type[ServiceError]) -> User:
    """The calling admin, or `error` with code `no_user` (no such account) or `not_allowed`
    (an account that is not an admin). Each service passes its own error type."""
    try:
        actor = session.get(User, uuid.UUID(str(actor_id)))
    except (TypeError, ValueError):
        actor = None
    if actor is None:
        raise error("no_user", "No user logged in")
    if actor.role != "admin":
        raise error("not_allowed", "Only admins may do this")
    return actor
