"""Who may change the back office: the one admin check of every admin write path, and the staff
check of the event-day screens (staff: drivers and decorators; admins pass it too). The role is
read from the database at the call, never taken from what the browser sent."""

from __future__ import annotations

import uuid

from sqlmodel import Session, col, select

from storefront.i18n import N_o
from storefront.models import BusinessSettings, TwoFactor, User, VanJob, VanJobCrew
from storefront.services.errors import ServiceError


def require_admin(
    session: Session,
    actor_id: object,
    error: type[ServiceError],
    *,
    setting_up_two_factor: bool = False,
) -> User:
    """The calling admin, or `error` with code `no_user` (no such account), `not_allowed`
    (an account that is not an admin) or `two_factor_required` (an admin who must set up
    two-factor sign-in first; not asked while `setting_up_two_factor`, the one way out of
    it). Each service passes its own error type; every admin check of the services is this
    one (tests/unit/test_architecture.py)."""
    try:
        actor = session.get(User, uuid.UUID(str(actor_id)))
    except (TypeError, ValueError):
        actor = None
    if actor is None:
        raise error("no_user", "No user logged in")
    if actor.role != "admin":
        raise error("not_allowed", "Only admins may do this")
    if not setting_up_two_factor and two_factor_setup_needed(session, actor):
        raise error("two_factor_required", TWO_FACTOR_REQUIRED)
    return actor


def require_staff(session: Session, actor_id: object, error: type[ServiceError]) -> User:
    """The calling member of staff or admin (the day sheet, the week calendar, a booking's
    on-the-way and completed), or `error` with the codes of `require_admin`."""
    try:
        actor = session.get(User, uuid.UUID(str(actor_id)))
    except (TypeError, ValueError):
        actor = None
    if actor is None:
        raise error("no_user", "No user logged in")
    if actor.role == "admin":
        return require_admin(session, actor_id, error)
    if actor.role != "staff":
        raise error("not_allowed", "Only staff may do this")
    return actor


def require_crew(
    session: Session, actor_id: object, booking_id: object, error: type[ServiceError]
) -> User:
    """The calling admin, or the member of staff who may act on a booking's job on the day
    (its status, notes, what was collected, its set-up): once a van run of the booking is
    assigned (issue 37, services/operations/vans.py), only the crews of its runs; before, any
    member of staff. `error` with the codes of `require_staff`, or `not_allowed` when the job is
    another van's."""
    actor = require_staff(session, actor_id, error)
    if actor.role == "admin":
        return actor
    try:
        target = uuid.UUID(str(booking_id))
    except (TypeError, ValueError):
        return actor  # the caller says the booking is not found
    crews = session.exec(
        select(VanJobCrew.user_id)
        .join(VanJob, col(VanJob.id) == VanJobCrew.job_id)
        .where(VanJob.booking_id == target)
    ).all()
    assigned = session.exec(select(VanJob.id).where(VanJob.booking_id == target)).first()
    if assigned is not None and actor.id not in set(crews):
        raise error("not_allowed", ANOTHER_VAN)
    return actor


ANOTHER_VAN = N_o("This job is another van's")  # shown by the day sheet through _o()
TWO_FACTOR_REQUIRED = "Set up two-factor sign-in (Account, Security) to use the admin screens"
# The codes require_admin raises, in every error type it is given (each declares them).
ADMIN_CHECK_CODES = {
    "no_user": "No user logged in",
    "not_allowed": "Only admins may do this",
    "two_factor_required": TWO_FACTOR_REQUIRED,
}


class _Refused(ServiceError):
    CODES = ADMIN_CHECK_CODES


def acts_as_admin(session: Session, actor_id: object) -> bool:
    """Whether `require_admin` lets `actor_id` through: for reads an admin may make (a booking
    of anyone's, its calendar file), the same decision as every admin write path."""
    try:
        require_admin(session, actor_id, _Refused)
    except _Refused:
        return False
    return True


def two_factor_setup_needed(session: Session, user: User) -> bool:
    """An admin without two-factor sign-in while the business setting requires it for every
    admin (services/accounts/two_factor.py): the admin screens refuse them until they set it up."""
    if user.role != "admin":
        return False
    settings = session.get(BusinessSettings, 1)
    if settings is None or not settings.admin_two_factor_required:
        return False
    row = session.get(TwoFactor, user.id)
    return row is None or row.enabled_at is None
