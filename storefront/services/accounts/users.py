"""Roles, kept in the database only. Results follow docs/product.md §7's {success, error} shape."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy import func
from sqlmodel import Session, col, select

from storefront.i18n import N_o, _
from storefront.models import AuditLog, User, UserPublic, utcnow
from storefront.services import audit, fields, paging, permissions
from storefront.services.accounts import calendar_feed
from storefront.services.errors import ServiceError
from storefront.services.fields import normalize_email


class RoleError(ServiceError):
    """Codes: no_user (no signed-in caller), not_allowed (the caller is not an admin),
    unknown_user (no such account), admin_stays (the staff role asked for an admin). Initial Admin Setup is services/accounts/first_admin.py. Its messages
    reach Role Debug's screen, which translates them (`_o(exc.message)`)."""

    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "no_user": N_o("No user logged in"),
        "not_allowed": N_o("Only admins may do this"),
        "unknown_user": N_o("No such account"),
        "admin_stays": N_o("An admin keeps the admin role"),
    }


def _user(session: Session, user_id: str | uuid.UUID | None) -> User | None:
    try:
        return session.get(User, uuid.UUID(str(user_id)))
    except (ValueError, TypeError):
        return None


def check_role(*, session: Session, user_id: str | None, required_role: str = "admin") -> bool:
    """The database's answer; never what the browser says. An admin who must set up two-factor
    sign-in first does not pass as an admin (services/permissions.py)."""
    user = _user(session, user_id)
    if user is None or user.role != required_role:
        return False
    return required_role != "admin" or not permissions.two_factor_setup_needed(session, user)


def get_role(*, session: Session, user_id: str | None) -> str | None:
    user = _user(session, user_id)
    return None if user is None else user.role


def admin_count(*, session: Session) -> int:
    return session.exec(select(func.count()).select_from(User).where(User.role == "admin")).one()


def _audit(
    session: Session, actor: str | None, action: str, target: User, before: str = "user"
) -> None:
    audit.record(
        session,
        actor_id=actor,
        action=action,
        entity_type="user",
        entity_id=target.id,
        before={"role": before},
        after={"role": target.role},
        email=target.email,
    )


def promote(session: Session, *, actor_id: str | None, target: User, action: str) -> None:
    """Give `target` the admin role, audited as `action` in the caller's transaction."""
    if target.role != "admin":
        before = target.role
        target.role, target.updated_at = "admin", utcnow()
        session.add(target)
        calendar_feed.end_for(session, target.id)  # its address was for the role it had
        _audit(session, actor_id, action, target, before)


def set_admin_role(*, session: Session, actor_id: str | None, target_user_id: str) -> None:
    """An admin promotes an account ('Make Admin')."""
    permissions.require_admin(session, actor_id, RoleError)
    target = _user(session, target_user_id)
    if target is None:
        raise RoleError("unknown_user", "No such account")
    promote(session, actor_id=actor_id, target=target, action="set_admin_role")


def set_staff_role(
    *, session: Session, actor_id: str | None, target_user_id: str, staff: bool
) -> None:
    """An admin gives an account the staff role ('Make Staff') or takes it back ('Remove
    Staff'). An admin stays an admin (no demotion, docs/product.md §7); taking the role also
    ends what it opened at once: the guard and every service read the role at each call."""
    permissions.require_admin(session, actor_id, RoleError)
    target = _user(session, target_user_id)
    if target is None:
        raise RoleError("unknown_user", "No such account")
    if target.role == "admin":
        raise RoleError("admin_stays", "An admin keeps the admin role")
    wanted = "staff" if staff else "user"
    if target.role != wanted:
        before = target.role
        target.role, target.updated_at = wanted, utcnow()
        session.add(target)
        calendar_feed.end_for(session, target.id)  # its address was for the role it had
        _audit(
            session, actor_id, "set_staff_role" if staff else "remove_staff_role", target, before
        )


def sync_user_role(*, session: Session, actor_id: str | None, target_user_id: str) -> None:
    """Nothing to copy: the role lives only in the database. Confirms the account exists and
    that callers may only ask about themselves unless they are admins."""
    if _user(session, actor_id) is None:
        raise RoleError("no_user", "No user logged in")
    if str(actor_id) != str(target_user_id):
        permissions.require_admin(session, actor_id, RoleError)
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
FULL_NAME_MAX = fields.max_length(User, "full_name")


class ProfileError(ServiceError):
    """Codes: no_user, name_missing, name_too_long (`details['max']`), invalid_name (on two
    lines, or with a control or invisible character: the message says which), too_large,
    not_image, upload_failed, rate_limited and quota_exceeded (the account's upload limits:
    the message says which, with its numbers); not_allowed and invalid_language (the back
    office's language, admins only); invalid_phone (a staff member's phone: the message says
    how to write it)."""

    CODES = {
        "invalid_language": "No such language",
        "invalid_name": "Invalid name",
        "invalid_phone": "Invalid phone number",
        "name_missing": "Name missing",
        "name_too_long": "Name too long",
        "no_user": "No such account",
        "not_allowed": "Only admins have a back office",
        "not_image": "Not an image",
        "quota_exceeded": "Quota exceeded",
        "rate_limited": "Rate limited",
        "too_large": "The image is over 2 MB",
        "upload_failed": "The image could not be stored",
    }


def update_full_name(*, session: Session, user_id: str, full_name: str) -> None:
    user = _user(session, user_id)
    if user is None:
        raise ProfileError("no_user", "No such account")
    try:
        name = fields.single_line(full_name, _("Full name"), FULL_NAME_MAX, required=True)
    except fields.FieldError as error:
        code = {"required": "name_missing", "too_long": "name_too_long"}.get(
            error.code, "invalid_name"
        )
        raise ProfileError(code, error.message, max=FULL_NAME_MAX) from None
    user.full_name, user.updated_at = name, utcnow()
    session.add(user)


# The roles whose profile has a phone: the customer's 'on the way' mail gives it
# (services/messaging/notify.py).
PHONE_ROLES = ("staff", "admin")


def staff_phone(*, session: Session, user_id: str) -> str:
    """The phone on a member of staff's profile, as a person reads it ('' if none)."""
    user = _user(session, user_id)
    if user is None or user.role not in PHONE_ROLES or not user.phone:
        return ""
    return fields.readable_phone(user.phone)


def update_profile(
    *, session: Session, user_id: str, full_name: str, phone: str | None = None
) -> None:
    """The profile's 'Save Changes': the name, and for staff and admins the phone customers get
    when the crew is on the way (`phone` None: not asked; blank: none). Both are checked
    before either is written."""
    user = _user(session, user_id)
    if user is None:
        raise ProfileError("no_user", "No such account")
    number = None
    if phone is not None and user.role in PHONE_ROLES:
        try:
            number = fields.phone(phone, required=False) or None
        except fields.FieldError as error:
            raise ProfileError("invalid_phone", error.message) from None
    update_full_name(session=session, user_id=user_id, full_name=full_name)
    if phone is not None and user.role in PHONE_ROLES:
        user.phone, user.updated_at = number, utcnow()
        session.add(user)


def set_avatar(*, session: Session, user_id: str, data: bytes, now=None) -> str:
    """Check and store a new profile picture; returns its URL. The checks are the server's:
    the browser's limits are only a convenience. The account's upload limits apply
    (rate_limited, quota_exceeded); the picture it replaces is deleted after the commit."""
    from storefront.services.media import storage

    user = _user(session, user_id)
    if user is None:
        raise ProfileError("no_user", "No such account")
    if len(data) > AVATAR_MAX_BYTES:
        raise ProfileError("too_large", "The image is over 2 MB")
    now = now or utcnow()
    try:
        stored = storage.save_upload(
            session,
            "avatars",
            data,
            owner=user,
            kind="avatar",
            max_bytes=AVATAR_MAX_BYTES,
            name=f"avatar-{user.id}-{int(now.timestamp() * 1000)}",
            referenced=True,
            now=now,
        )
    except storage.StorageError as exc:
        if exc.code in ("not_image", "bad_type", "no_file"):
            raise ProfileError("not_image", "Not an image") from exc
        if exc.code == "too_large":
            raise ProfileError("too_large", "The image is over 2 MB") from exc
        if exc.code in storage.LIMIT_CODES:  # the account's limits, in their own words
            raise ProfileError(exc.code, exc.message, **exc.details) from exc
        raise ProfileError("upload_failed", "The image could not be stored") from exc
    previous = storage.path_from_url(user.avatar_url or "")
    user.avatar_url, user.updated_at = stored.url, now
    session.add(user)
    if previous:  # the old picture leaves the storage once this change has committed
        storage.release(session, [previous])
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


# --- User Management's list -------------------------------------------------------------------

USERS_PER_PAGE = 20
SEARCH_MAX = 100


@dataclass(frozen=True)
class UserPage:
    users: tuple[UserPublic, ...]
    total: int
    page: int
    pages: int
    admin_count: int


def users_page(
    *,
    session: Session,
    actor_id: str | None,
    search: str = "",
    page: int = 1,
    per_page: int = USERS_PER_PAGE,
) -> UserPage:
    """One page of accounts, newest first, whose email or name contains `search`."""
    permissions.require_admin(session, actor_id, RoleError)
    term = str(search or "").strip()[:SEARCH_MAX]
    where = (
        [
            col(User.email).icontains(term, autoescape=True)
            | col(User.full_name).icontains(term, autoescape=True)
        ]
        if term
        else []
    )
    total = session.exec(select(func.count()).select_from(User).where(*where)).one()
    shown = paging.window(total=total, page=page, per_page=per_page, most=100)
    rows = session.exec(
        shown.of(select(User).where(*where).order_by(col(User.created_at).desc(), col(User.id)))
    ).all()
    return UserPage(
        users=tuple(UserPublic.model_validate(u, from_attributes=True) for u in rows),
        total=total,
        page=shown.page,
        pages=shown.pages,
        admin_count=admin_count(session=session),
    )


@dataclass(frozen=True)
class RoleInfo:
    """Role debug (docs/product.md §2): what the database says about the caller."""

    user_id: str
    email: str
    full_name: str
    role_in_database: str
    admin_check: bool


def role_info(*, session: Session, actor_id: str | None) -> RoleInfo:
    user = _user(session, actor_id)
    if user is None:
        raise RoleError("no_user", "No user logged in")
    return RoleInfo(
        user_id=str(user.id),
        email=user.email,
        full_name=user.full_name or "",
        role_in_database=user.role,
        admin_check=check_role(session=session, user_id=str(user.id)),
    )


def admin_function(*, session: Session, actor_id: str | None) -> None:
    """'Test Admin Function': succeeds only for a caller the database calls an admin."""
    permissions.require_admin(session, actor_id, RoleError)


def set_back_office_language(*, session: Session, user_id: str, language: str) -> None:
    """The language the back office speaks to this admin or member of staff
    (storefront/i18n.py); theirs only."""
    from storefront import i18n

    user = _user(session, user_id)
    if user is None or user.role not in ("admin", "staff"):
        raise ProfileError("not_allowed", "Only admins have a back office")
    if language not in i18n.BACK_OFFICE_PREFIXES:
        raise ProfileError("invalid_language", "No such language")
    user.language = None if language == i18n.BACK_OFFICE_DEFAULT else language
    user.updated_at = utcnow()
    session.add(user)
