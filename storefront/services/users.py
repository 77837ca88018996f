"""Roles, kept in the database only. Results follow SPEC 7's {success, error} shape."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy import func
from sqlmodel import Session, col, select

from storefront.models import AuditLog, User, UserPublic, utcnow
from storefront.services import audit
from storefront.services.auth import lock_admin_decisions, normalize_email
from storefront.services.errors import ServiceError


class RoleError(ServiceError):
    """Codes: no_user (no signed-in caller), not_allowed (the caller is not an admin),
    unknown_user (no such account), admin_exists (Initial Admin Setup once an admin exists),
    missing_email."""


def _user(session: Session, user_id: str | uuid.UUID | None) -> User | None:
    try:
        return session.get(User, uuid.UUID(str(user_id)))
    except (ValueError, TypeError):
        return None


def check_role(*, session: Session, user_id: str | None, required_role: str = "admin") -> bool:
    """The database's answer; never what the browser says."""
    user = _user(session, user_id)
    return user is not None and user.role == required_role


def get_role(*, session: Session, user_id: str | None) -> str | None:
    user = _user(session, user_id)
    return None if user is None else user.role


def admin_count(*, session: Session) -> int:
    return session.exec(select(func.count()).select_from(User).where(User.role == "admin")).one()


def list_users(*, session: Session) -> list[UserPublic]:
    users = session.exec(select(User).order_by(col(User.created_at).desc())).all()
    return [UserPublic.model_validate(u, from_attributes=True) for u in users]


def _audit(session: Session, actor: str | None, action: str, target: User) -> None:
    audit.record(
        session,
        actor_id=actor,
        action=action,
        entity_type="user",
        entity_id=target.id,
        before={"role": "user"},
        after={"role": target.role},
        email=target.email,
    )


def _require_admin(session: Session, actor_id: str | None) -> None:
    if _user(session, actor_id) is None:
        raise RoleError("no_user", "No user logged in")
    if not check_role(session=session, user_id=actor_id):
        raise RoleError("not_allowed", "Only admins may do this")


def set_admin_role(*, session: Session, actor_id: str | None, target_user_id: str) -> None:
    """An admin promotes an account ('Make Admin')."""
    _require_admin(session, actor_id)
    target = _user(session, target_user_id)
    if target is None:
        raise RoleError("unknown_user", "No such account")
    if target.role != "admin":
        target.role, target.updated_at = "admin", utcnow()
        session.add(target)
        _audit(session, actor_id, "set_admin_role", target)


def set_first_admin(*, session: Session, actor_id: str | None, email: str) -> None:
    """'Initial Admin Setup': any signed-in account may name the first admin by the email of an
    existing account, but only while no admin exists. The count is taken under the lock that
    serialises admin decisions (PostgreSQL advisory lock, SQLite write lock), in the
    transaction that promotes, so two requests at once cannot both succeed."""
    email = normalize_email(email)
    if not email:
        raise RoleError("missing_email", "Please enter an email address")
    lock_admin_decisions(session)
    if _user(session, actor_id) is None:
        raise RoleError("no_user", "No user logged in")
    if admin_count(session=session) > 0:
        raise RoleError("admin_exists", "An admin exists already")
    target = session.exec(select(User).where(User.email == normalize_email(email))).first()
    if target is None:
        raise RoleError("unknown_user", "No such account")
    target.role, target.updated_at = "admin", utcnow()
    session.add(target)
    _audit(session, actor_id, "set_first_admin", target)


def sync_user_role(*, session: Session, actor_id: str | None, target_user_id: str) -> None:
    """Nothing to copy: the role lives only in the database. Confirms the account exists and
    that callers may only ask about themselves unless they are admins."""
    if _user(session, actor_id) is None:
        raise RoleError("no_user", "No user logged in")
    if str(actor_id) != str(target_user_id) and not check_role(session=session, user_id=actor_id):
        raise RoleError("not_allowed", "Only admins may do this")
    if _user(session, target_user_id) is None:
        raise RoleError("unknown_user", "No such account")


def make_admin_by_email(*, session: Session, email: str) -> None:
    """The operators' command line action (no signed-in caller)."""
    target = session.exec(select(User).where(User.email == normalize_email(email))).first()
    if target is None:
        raise RoleError("unknown_user", f"No account with the email {email!r}")
    target.role, target.updated_at = "admin", utcnow()
    session.add(target)
    session.add(
        AuditLog(action="make_admin_cli", entity_type="user", entity_id=str(target.id), details={})
    )


# --- the account area -------------------------------------------------------------------------

AVATAR_MAX_BYTES = 2 * 1024 * 1024
FULL_NAME_MAX = 255


class ProfileError(ServiceError):
    """Codes: no_user, name_missing, name_too_long (`details['max']`), too_large, not_image,
    upload_failed."""


def update_full_name(*, session: Session, user_id: str, full_name: str) -> None:
    user = _user(session, user_id)
    if user is None:
        raise ProfileError("no_user", "No such account")
    name = str(full_name).strip()
    if not name:
        raise ProfileError("name_missing", "A name is required")
    if len(name) > FULL_NAME_MAX:
        raise ProfileError("name_too_long", "The name is too long", max=FULL_NAME_MAX)
    user.full_name, user.updated_at = name, utcnow()
    session.add(user)


def set_avatar(*, session: Session, user_id: str, data: bytes, now=None) -> str:
    """Check and store a new profile picture; returns its URL. The checks are the server's:
    the browser's limits are only a convenience."""
    from storefront.services import storage

    user = _user(session, user_id)
    if user is None:
        raise ProfileError("no_user", "No such account")
    if len(data) > AVATAR_MAX_BYTES:
        raise ProfileError("too_large", "The image is over 2 MB")
    now = now or utcnow()
    try:
        stored = storage.save_image(
            "avatars",
            data,
            max_bytes=AVATAR_MAX_BYTES,
            name=f"avatar-{user.id}-{int(now.timestamp() * 1000)}",
        )
    except storage.StorageError as exc:
        if exc.code in ("not_image", "bad_type", "no_file"):
            raise ProfileError("not_image", "Not an image") from exc
        if exc.code == "too_large":
            raise ProfileError("too_large", "The image is over 2 MB") from exc
        raise ProfileError("upload_failed", "The image could not be stored") from exc
    user.avatar_url, user.updated_at = stored.url, now
    session.add(user)
    return stored.url


@dataclass(frozen=True)
class OwnService:
    id: str
    title: str
    slug: str
    status: str
    price_label: str
    image_url: str


def services_of(*, session: Session, user_id: str) -> list[OwnService]:
    """The services a user created, newest first."""
    from storefront.models import Service
    from storefront.services.money import format_price

    user = _user(session, user_id)
    if user is None:
        return []
    rows = session.exec(
        select(Service).where(Service.user_id == user.id).order_by(col(Service.created_at).desc())
    ).all()
    return [
        OwnService(
            id=str(s.id),
            title=s.title,
            slug=s.slug,
            status=s.status,
            price_label=format_price(s.price) if s.price is not None else "",
            image_url=s.images[0]["url"] if s.images else "",
        )
        for s in rows
    ]
