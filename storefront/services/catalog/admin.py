"""Changing the catalogue: the one service form that admins and signed-in users share, the
review of owners' changes and the form's images (docs/product.md §2, 4, 5; docs/architecture.md
§9.7). The admins' list, its toggles and delete are services/catalog/listing.py.

Who may do what is decided here, from the database: an admin may change any service; a
signed-in user may create services and edit only their own, which stay drafts until an admin
publishes them. A user's change to their published service is a pending revision: the approved
version stays public until an admin approves the change (issue 18, finding 5). Every change
writes the audit log in its own transaction."""

from __future__ import annotations

import json
import logging
import re
import uuid
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from pydantic import ValidationError
from sqlalchemy import func
from sqlmodel import Session, col, select

from storefront.i18n import N_s, _, _s
from storefront.models import (
    PRICE_UNITS,
    Service,
    ServiceCapacity,
    ServiceCategory,
    StoredUpload,
    User,
    kinds,
    utcnow,
)
from storefront.models.catalog import ServiceRevision, ServiceSlugRedirect
from storefront.models.kinds import DetailField, read_details, validate_details
from storefront.models.service_details import AddOn, PriceLine, dump_details
from storefront.services import audit, content, permissions
from storefront.services.catalog.public import default_price_unit
from storefront.services.errors import ServiceError
from storefront.services.media import storage
from storefront.services.money import format_price

log = logging.getLogger(__name__)

MAX_IMAGES = 5
SERVICE_IMAGE_MAX_BYTES = storage.MAX_BYTES["service"]
DEFAULT_UNITS = 1
DEFAULT_BUFFER_MINUTES = 120
MAX_UNITS = 1000
MAX_BUFFER_MINUTES = 24 * 60
# The longest setup lead a service may have (the crew leaves at most a day ahead).
MAX_SETUP_LEAD_MINUTES = 24 * 60
_SLUG = re.compile(r"^[\w]+(?:-[\w]+)*$")
_IMAGE_PATH = re.compile(r"^services/[A-Za-z0-9][A-Za-z0-9._-]{0,120}$")


class CatalogError(ServiceError):
    """Codes: no_user, not_allowed, not_found, invalid (`details['field']`, `details['reason']`),
    slug_taken, too_many_images, category_not_found, no_revision (no change waits for review)."""

    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "category_not_found": "No such category",
        "invalid": "Unknown status",
        "no_revision": "No change waits for review",
        "no_user": "User must be logged in",
        "not_found": "No such service",
        "slug_taken": "This slug is used by another service",
        "too_many_images": "Too many images",
    }


# --- who is calling ------------------------------------------------------------------------


def _user(session: Session, user_id: object) -> User | None:
    try:
        return session.get(User, uuid.UUID(str(user_id)))
    except (TypeError, ValueError):
        return None


def _caller(session: Session, actor_id: object) -> User:
    user = _user(session, actor_id)
    if user is None:
        raise CatalogError("no_user", "User must be logged in")
    return user


def _service(session: Session, service_id: object, *, lock: bool = False) -> Service:
    try:
        key = uuid.UUID(str(service_id))
    except (TypeError, ValueError):
        raise CatalogError("not_found", "No such service") from None
    service = session.get(Service, key, with_for_update=lock)
    if service is None:
        raise CatalogError("not_found", "No such service")
    return service


def _editable(session: Session, actor: User, service_id: object) -> Service:
    """A service the caller may edit: any for an admin, their own for anyone else."""
    service = _service(session, service_id, lock=True)
    if actor.role != "admin" and service.user_id != actor.id:
        raise CatalogError("not_found", "No such service")  # others' services do not exist
    return service


# --- shared by the list and the form ------------------------------------------------------


def _audited(
    session: Session, actor: User, service: Service, action: str, before: Any, after: Any
) -> None:
    """The audit entry of a change of `service`, in the caller's transaction."""
    audit.record(
        session,
        actor_id=actor.id,
        action=action,
        entity_type="service",
        entity_id=service.id,
        before=before,
        after=after,
    )


def _paths(images: list[dict[str, Any]]) -> set[str]:
    return {str(i.get("path")) for i in images if i.get("path")}


# --- the service form ----------------------------------------------------------------------


def slugify(title: str) -> str:
    """docs/product.md §5: lowercase, strip non-word characters, spaces to hyphens, one hyphen at a
    time."""
    text = re.sub(r"[^\w\s-]", "", str(title).lower()).strip()
    text = re.sub(r"[\s_]+", "-", text)
    return re.sub(r"-{2,}", "-", text).strip("-")[:200]


def detail_fields(kind: str) -> tuple[DetailField, ...]:
    """The fields the service form shows for `kind`'s details (models/kinds.py)."""
    return kinds.kind(kind).fields


def kind_names() -> tuple[str, ...]:
    return kinds.names()


def kind_choices() -> list[tuple[str, str]]:
    """(name, label) of every kind, for the form's and the admin list's kind menus."""
    return [(k.name, _s(k.label)) for k in kinds.KINDS.values()]


def kind_label(name: str) -> str:
    return _s(kinds.KINDS[name].label) if name in kinds.KINDS else name


def _lines(text: str) -> list[str]:
    return [line.strip() for line in str(text).splitlines() if line.strip()]


def _priced(text: str, name_key: str, amount_key: str, field_name: str) -> list[dict[str, str]]:
    out = []
    for line in _lines(text):
        name, sep, amount = line.rpartition("|")
        if not sep or not name.strip():
            raise CatalogError("invalid", "Bad line", field=field_name, reason="priced_line")
        out.append({name_key: name.strip(), amount_key: amount.strip()})
    return out


def details_from_form(kind: str, values: dict[str, str]) -> dict[str, Any]:
    """The form's texts as the kind's details (validated by `validate_details` after)."""
    data: dict[str, Any] = {}
    for spec in detail_fields(kind):
        raw = str(values.get(spec.name, "") or "").strip()
        if spec.widget == "lines":
            data[spec.name] = _lines(raw)
        elif spec.widget == "priced_lines":
            data[spec.name] = _priced(raw, *spec.priced_keys, spec.name)
        elif raw == "":
            continue  # the schema's default
        elif spec.widget == "number" or spec.name == "diameter":
            try:
                data[spec.name] = int(raw)
            except ValueError:
                raise CatalogError(
                    "invalid", "Not a number", field=spec.name, reason="number"
                ) from None
        else:
            data[spec.name] = raw
    return data


def details_to_form(kind: str, meta: dict[str, Any] | None) -> dict[str, str]:
    """A service's details as the form's texts."""
    details = read_details(kind, meta)
    values: dict[str, str] = {}
    for spec in detail_fields(kind):
        value = getattr(details, spec.name, None)
        if spec.widget == "lines":
            values[spec.name] = "\n".join(value or [])
        elif spec.widget == "priced_lines":
            name_key, amount_key = spec.priced_keys
            values[spec.name] = "\n".join(
                f"{getattr(line, name_key)} | {getattr(line, amount_key)}"
                for line in value or []
                if isinstance(line, PriceLine | AddOn)
            )
        else:
            values[spec.name] = "" if value is None else str(value)
    return values


@dataclass
class ServiceForm:
    """What the form sends: texts as typed, images as stored."""

    title: str = ""
    slug: str = ""
    description: str = ""
    # The English title and description (issue 21); empty: the English pages show the default.
    title_en: str = ""
    description_en: str = ""
    price: str = ""
    price_unit: str = ""
    category_id: str = ""
    kind: str = "service"
    status: str = "published"
    details: dict[str, str] = field(default_factory=dict)
    images: list[dict[str, str]] = field(default_factory=list)
    total_units: str = str(DEFAULT_UNITS)
    buffer_time_minutes: str = str(DEFAULT_BUFFER_MINUTES)
    # How long before the start the crew leaves (the day sheet); blank: the kind's usual.
    setup_lead_minutes: str = ""
    # Filled by `load_form` only: a change of this published service waits for an admin.
    pending_review: bool = False
    # Filled by `load_form` only: the slug of the service's public page now ('' when it has
    # none); saving another slug moves the page (the form warns, issue 20, item 18).
    public_slug: str = ""


def _invalid(field_name: str, reason: str) -> CatalogError:
    return CatalogError("invalid", f"{field_name}: {reason}", field=field_name, reason=reason)


def _whole(value: str, field_name: str, low: int, high: int) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        raise _invalid(field_name, "number") from None
    if not low <= number <= high:
        raise _invalid(field_name, "range")
    return number


def _setup_lead(value: str) -> int | None:
    """Minutes before the start the crew leaves; None (blank): the kind's (models/kinds.py)."""
    if not str(value).strip():
        return None
    return _whole(value, "setup_lead_minutes", 0, MAX_SETUP_LEAD_MINUTES)


def _price(value: str) -> Decimal | None:
    text = str(value).strip()
    if not text:
        return None
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise _invalid("price", "number") from None
    if not amount.is_finite() or amount < 0 or amount >= Decimal("100000000"):
        raise _invalid("price", "range")
    if amount != amount.quantize(Decimal("0.01")):
        raise _invalid("price", "step")
    return amount


def _images(images: list[dict[str, str]]) -> list[dict[str, str]]:
    if len(images) > MAX_IMAGES:
        raise _too_many_images()
    clean = []
    for image in images:
        path = str((image or {}).get("path", ""))
        if not _IMAGE_PATH.match(path):
            raise _invalid("images", "path")
        clean.append({"path": path, "url": storage.public_url(path)})
    return clean


@dataclass(frozen=True)
class CheckedForm:
    values: dict[str, Any]
    total_units: int
    buffer_time_minutes: int


def check_form(session: Session, form: ServiceForm, *, admin: bool) -> CheckedForm:
    """Every field of the form checked; CatalogError names the first one that is wrong."""
    title = form.title.strip()
    if not title:
        raise _invalid("title", "required")
    if len(title) > 200:
        raise _invalid("title", "too_long")
    slug = form.slug.strip().lower()
    if not slug:
        raise _invalid("slug", "required")
    if len(slug) > 200 or not _SLUG.match(slug):
        raise _invalid("slug", "format")
    description = form.description.strip()
    if not description:
        raise _invalid("description", "required")
    if len(description) > 10000:
        raise _invalid("description", "too_long")
    english = {"title": form.title_en.strip(), "description": form.description_en.strip()}
    if len(english["title"]) > 200:
        raise _invalid("title_en", "too_long")
    if len(english["description"]) > 10000:
        raise _invalid("description_en", "too_long")
    kind = form.kind if admin else "service"
    if kind not in kinds.names():
        raise _invalid("kind", "choice")
    price_unit = form.price_unit or default_price_unit(kind=kind, slug=slug)
    if price_unit not in PRICE_UNITS:
        raise _invalid("price_unit", "choice")
    category_id = None
    if form.category_id:
        try:
            category_id = uuid.UUID(form.category_id)
        except ValueError:
            raise CatalogError("category_not_found", "No such category") from None
        if session.get(ServiceCategory, category_id) is None:
            raise CatalogError("category_not_found", "No such category")
    try:
        details = validate_details(kind, details_from_form(kind, form.details))
    except ValidationError as exc:
        first = exc.errors()[0]
        name = str(first["loc"][0]) if first["loc"] else "details"
        raise _invalid(name, "detail") from None
    return CheckedForm(
        values={
            "title": title,
            "slug": slug,
            "description": description,
            "price": _price(form.price),
            "price_unit": price_unit,
            "kind": kind,
            "category_id": category_id,
            "images": _images(form.images),
            "meta": dump_details(details),
            # Put over the service's `translations` (services/content.py): the English of its
            # details, written elsewhere (the seed), stays.
            "english": english,
            "setup_lead_minutes": _setup_lead(form.setup_lead_minutes),
        },
        total_units=_whole(form.total_units, "total_units", 1, MAX_UNITS),
        buffer_time_minutes=_whole(
            form.buffer_time_minutes, "buffer_time_minutes", 0, MAX_BUFFER_MINUTES
        ),
    )


def _slug_free(session: Session, slug: str, service_id: uuid.UUID | None) -> None:
    taken = session.exec(select(Service.id).where(Service.slug == slug)).first()
    if taken is not None and taken != service_id:
        raise CatalogError("slug_taken", "This slug is used by another service", field="slug")


def _take_slug(session: Session, slug: str) -> None:
    """A service saved with `slug` answers there itself: an old address of any service with that
    slug stops redirecting (issue 20, item 18)."""
    redirect = session.get(ServiceSlugRedirect, slug)
    if redirect is not None:
        session.delete(redirect)
        session.flush()


def _keep_old_address(session: Session, service: Service, old_slug: str) -> None:
    """A published service's slug changed: its old address goes on answering, with a redirect
    to the new one (services/catalog.get_public_service, moved_to)."""
    redirect = session.get(ServiceSlugRedirect, old_slug) or ServiceSlugRedirect(
        old_slug=old_slug, service_id=service.id
    )
    redirect.service_id, redirect.created_at = service.id, utcnow()
    session.add(redirect)
    session.flush()


def save_service(
    *, session: Session, actor_id: object, form: ServiceForm, service_id: str | None = None
) -> str:
    """Create (no `service_id`) or update a service with its capacity; returns its id.

    An admin's new service is active, not featured, with the status chosen in the form (the spec:
    saved with featured false and active true); an edit keeps featured and active as they are.
    A user's service is theirs and a draft, whatever the form says (docs/architecture.md §9.7). A
    user's edit
    of their published service changes nothing public: it becomes the service's pending
    revision (replacing an earlier one) until an admin approves it (`approve_revision`)."""
    actor = _caller(session, actor_id)
    admin = actor.role == "admin"
    checked = check_form(session, form, admin=admin)
    storage.claim(session, _image_sources(session, actor, checked.values["images"], service_id))
    status = form.status if admin and form.status in ("published", "draft") else "draft"
    if service_id:
        service = _editable(session, actor, service_id)
        _slug_free(session, checked.values["slug"], service.id)
        if not admin and service.status == "published":
            _submit_revision(session, actor, service, checked)
            return str(service.id)
        revision = session.get(ServiceRevision, service.id)
        if admin:
            kept = _revision_paths(revision)  # the owner's proposal keeps its images
        else:  # only an admin publishes or unpublishes; a draft's edit supersedes a proposal
            status, kept = service.status, set()
            _drop_revision(session, service, revision, keep=_paths(checked.values["images"]))
        _write(session, actor, service, checked, status=status, action="update", keep=kept)
        return str(service.id)
    _slug_free(session, checked.values["slug"], None)
    _take_slug(session, checked.values["slug"])
    values = dict(checked.values)
    english = values.pop("english")
    service = Service(
        **values,
        translations=content.with_texts({}, "en", english),
        status=status,
        featured=False,
        active=True,
        user_id=actor.id,
    )
    session.add(service)
    session.flush()
    capacity = _set_capacity(session, service, checked)
    _audited(
        session,
        actor,
        service,
        "create",
        None,
        {"service": audit.snapshot(service), "capacity": audit.snapshot(capacity)},
    )
    return str(service.id)


def _set_capacity(session: Session, service: Service, checked: CheckedForm) -> ServiceCapacity:
    capacity = session.get(ServiceCapacity, service.id) or ServiceCapacity(service_id=service.id)
    capacity.total_units = checked.total_units
    capacity.buffer_time_minutes = checked.buffer_time_minutes
    capacity.updated_at = utcnow()
    session.add(capacity)
    session.flush()
    return capacity


def _write(
    session: Session,
    actor: User,
    service: Service,
    checked: CheckedForm,
    *,
    status: str,
    action: str,
    keep: set[str],
) -> None:
    """Put checked values on a service and its capacity, audited; images it no longer shows
    (and `keep` does not name) are removed from storage."""
    before = audit.snapshot(service)
    before_capacity = audit.snapshot(session.get(ServiceCapacity, service.id))
    removed = _paths(service.images) - _paths(checked.values["images"]) - keep
    old_slug, was_public = service.slug, service.status == "published"
    values = dict(checked.values)
    english = values.pop("english", None)  # None: a revision saved before issue 21
    for name, value in values.items():
        setattr(service, name, value)
    if english is not None:
        service.translations = content.with_texts(service.translations, "en", english)
    service.status, service.updated_at = status, utcnow()
    session.add(service)
    session.flush()
    if service.slug != old_slug:
        _take_slug(session, service.slug)
        if was_public:
            _keep_old_address(session, service, old_slug)
    capacity = _set_capacity(session, service, checked)
    storage.release(session, removed)
    _audited(
        session,
        actor,
        service,
        action,
        {"service": before, "capacity": before_capacity},
        {"service": audit.snapshot(service), "capacity": audit.snapshot(capacity)},
    )


# --- review of owners' changes to published services (issue 18, finding 5) ----------------


def _revision_values(checked: CheckedForm) -> dict[str, Any]:
    """A checked form as JSON (the revision's `values`)."""
    values = dict(checked.values)
    price, category_id = values["price"], values["category_id"]
    values["price"] = None if price is None else str(price)
    values["category_id"] = None if category_id is None else str(category_id)
    values["total_units"] = checked.total_units
    values["buffer_time_minutes"] = checked.buffer_time_minutes
    return values


def _checked_revision(session: Session, revision: ServiceRevision) -> CheckedForm:
    """A revision's values as a checked form again, its category still existing."""
    values = dict(revision.values)
    total_units = int(values.pop("total_units", DEFAULT_UNITS))
    buffer = int(values.pop("buffer_time_minutes", 0))
    price, category_id = values.get("price"), values.get("category_id")
    values["price"] = None if price is None else Decimal(str(price))
    values["category_id"] = None if not category_id else uuid.UUID(str(category_id))
    if values["category_id"] and session.get(ServiceCategory, values["category_id"]) is None:
        raise CatalogError("category_not_found", "No such category")
    return CheckedForm(values=values, total_units=total_units, buffer_time_minutes=buffer)


def _revision_paths(revision: ServiceRevision | None) -> set[str]:
    return _paths(revision.values.get("images", [])) if revision is not None else set()


def _drop_revision(
    session: Session, service: Service, revision: ServiceRevision | None, *, keep: set[str]
) -> None:
    """Forget a proposal; images only it used (not the service's, not `keep`) are removed."""
    if revision is None:
        return
    session.delete(revision)
    session.flush()
    storage.release(session, _revision_paths(revision) - _paths(service.images) - keep)


def _submit_revision(
    session: Session, actor: User, service: Service, checked: CheckedForm
) -> ServiceRevision:
    """An owner's edit of their published service, kept for review: `services` (what the
    public pages and the catalogue cache read) is not written at all."""
    values = _revision_values(checked)
    revision = session.get(ServiceRevision, service.id)
    before = dict(revision.values) if revision is not None else None
    if revision is None:
        revision = ServiceRevision(service_id=service.id)
    else:  # a later edit replaces the earlier proposal; images only that one used go
        storage.release(
            session, _revision_paths(revision) - _paths(service.images) - _paths(values["images"])
        )
    revision.values, revision.submitted_by, revision.submitted_at = values, actor.id, utcnow()
    session.add(revision)
    session.flush()
    _audited(
        session,
        actor,
        service,
        "submit_for_review",
        {"service": audit.snapshot(service), "revision": before},
        {"revision": values},
    )
    return revision


def review_pending(*, session: Session, actor_id: object, service_id: object) -> bool:
    """Whether a change of this service waits for an admin (for its owner or an admin)."""
    actor = _caller(session, actor_id)
    service = _editable(session, actor, service_id)
    return session.get(ServiceRevision, service.id) is not None


@dataclass(frozen=True)
class FieldChange:
    """One field of a pending revision, as the live service has it and as proposed."""

    field: str
    label: str
    before: str
    after: str


# (field, label): the labels are shown translated (`pending_changes`).
REVIEW_FIELDS: tuple[tuple[str, str], ...] = (
    ("title", N_s("Title")),
    ("slug", N_s("Slug")),
    ("description", N_s("Description")),
    ("english", N_s("English title and description")),
    ("price", N_s("Price")),
    ("price_unit", N_s("Priced per")),
    ("kind", N_s("Kind")),
    ("category_id", N_s("Category")),
    ("images", N_s("Images")),
    ("meta", N_s("Details")),
    ("total_units", N_s("Units")),
    ("buffer_time_minutes", N_s("Buffer (minutes)")),
    ("setup_lead_minutes", N_s("Setup lead (minutes)")),
)


# A price's unit as the service form names it (components/service_form.py).
PRICE_UNIT_LABELS = {"per_hour": N_s("Per hour"), "per_event": N_s("Per event")}


def _shown(session: Session, name: str, value: Any) -> str:
    """A field's value as the review shows it: a price as every price is written, with its
    currency (issue 34: the live '80.00' read against the proposed '95'), so that a price
    typed differently but equal is no change; a unit and a kind in the form's words."""
    if value is None:
        return ""
    if name == "price":
        try:
            amount = Decimal(str(value).strip())
        except InvalidOperation:
            return str(value)
        return format_price(amount) if amount.is_finite() else str(value)
    if name == "price_unit" and value in PRICE_UNIT_LABELS:
        return _s(PRICE_UNIT_LABELS[value])
    if name == "kind":
        return kind_label(str(value))
    if name == "category_id":
        category = session.get(ServiceCategory, uuid.UUID(str(value)))
        return category.name if category is not None else _("(deleted category)")
    if name == "images":
        return "\n".join(str(i.get("url") or i.get("path") or "") for i in value)
    if name in ("meta", "english"):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return str(value)


def _awaiting(
    session: Session, service_id: object, *, lock: bool
) -> tuple[Service, ServiceRevision]:
    """A service and the revision that waits for review (CatalogError no_revision if none)."""
    service = _service(session, service_id, lock=lock)
    revision = session.get(ServiceRevision, service.id)
    if revision is None:
        raise CatalogError("no_revision", "No change waits for review")
    return service, revision


def pending_changes(*, session: Session, actor_id: object, service_id: object) -> list[FieldChange]:
    """What a pending revision changes, field by field, before and after (admins only); the
    labels in the language of the moment."""
    permissions.require_admin(session, actor_id, CatalogError)
    service, revision = _awaiting(session, service_id, lock=False)
    capacity = session.get(ServiceCapacity, service.id)
    live: dict[str, Any] = {
        n: getattr(service, n) for n, _label in REVIEW_FIELDS if hasattr(service, n)
    }
    live["english"] = _english(service)
    live["total_units"] = capacity.total_units if capacity else DEFAULT_UNITS
    live["buffer_time_minutes"] = capacity.buffer_time_minutes if capacity else 0
    changes = []
    for name, label in REVIEW_FIELDS:
        before = _shown(session, name, live[name])
        after = _shown(session, name, revision.values.get(name))
        if before != after:
            changes.append(FieldChange(name, _s(label), before, after))
    return changes


def approve_revision(*, session: Session, actor_id: object, service_id: object) -> str:
    """Make an owner's pending change the public version (admins only); keeps the status."""
    actor = permissions.require_admin(session, actor_id, CatalogError)
    service, revision = _awaiting(session, service_id, lock=True)
    checked = _checked_revision(session, revision)
    _slug_free(session, checked.values["slug"], service.id)
    session.delete(revision)
    session.flush()
    _write(
        session,
        actor,
        service,
        checked,
        status=service.status,
        action="approve_revision",
        keep=set(),
    )
    return str(service.id)


def reject_revision(*, session: Session, actor_id: object, service_id: object) -> None:
    """Drop an owner's pending change (admins only); the public version stays as it is."""
    actor = permissions.require_admin(session, actor_id, CatalogError)
    service, revision = _awaiting(session, service_id, lock=True)
    values = dict(revision.values)
    _drop_revision(session, service, revision, keep=set())
    _audited(session, actor, service, "reject_revision", {"revision": values}, None)


def _english(service: Service) -> dict[str, str]:
    """The English title and description an admin wrote ('' where none was)."""
    written = content.written(service.translations, "en")
    return {name: str(written.get(name, "")) for name in ("title", "description")}


def load_form(*, session: Session, actor_id: object, service_id: str) -> ServiceForm:
    """A service as the form shows it, for someone who may edit it."""
    actor = _caller(session, actor_id)
    service = _editable(session, actor, service_id)
    revision = session.get(ServiceRevision, service.id)
    public_slug = service.slug if service.status == "published" and service.active else ""
    if revision is not None and actor.role != "admin":
        # the owner goes on with their proposal
        return replace(_revision_form(service, revision), public_slug=public_slug)
    capacity = session.get(ServiceCapacity, service.id)
    english = _english(service)
    return ServiceForm(
        title=service.title,
        slug=service.slug,
        description=service.description,
        title_en=english["title"],
        description_en=english["description"],
        price="" if service.price is None else str(service.price),
        price_unit=service.price_unit,
        category_id=str(service.category_id or ""),
        kind=service.kind,
        status=service.status,
        details=details_to_form(service.kind, service.meta),
        images=[{"path": i.get("path", ""), "url": i.get("url", "")} for i in service.images],
        total_units=str(capacity.total_units if capacity else DEFAULT_UNITS),
        buffer_time_minutes=str(capacity.buffer_time_minutes if capacity else 0),
        setup_lead_minutes=_lead_text(service.setup_lead_minutes),
        pending_review=revision is not None,
        public_slug=public_slug,
    )


def _lead_text(minutes: object) -> str:
    return "" if minutes is None else str(minutes)


def _revision_form(service: Service, revision: ServiceRevision) -> ServiceForm:
    values = revision.values
    kind = str(values.get("kind") or service.kind)
    price = values.get("price")
    english = values.get("english") or _english(service)
    return ServiceForm(
        title=str(values.get("title", "")),
        slug=str(values.get("slug", "")),
        description=str(values.get("description", "")),
        title_en=str(english.get("title", "")),
        description_en=str(english.get("description", "")),
        price="" if price is None else str(price),
        price_unit=str(values.get("price_unit", "")),
        category_id=str(values.get("category_id") or ""),
        kind=kind,
        status=service.status,
        details=details_to_form(kind, values.get("meta") or {}),
        images=[
            {"path": str(i.get("path", "")), "url": str(i.get("url", ""))}
            for i in values.get("images", [])
        ],
        total_units=str(values.get("total_units", DEFAULT_UNITS)),
        buffer_time_minutes=str(values.get("buffer_time_minutes", 0)),
        setup_lead_minutes=_lead_text(values.get("setup_lead_minutes", service.setup_lead_minutes)),
        pending_review=True,
    )


def _draft_key(draft: object) -> str:
    key = str(draft or "")
    if not key or len(key) > 64:
        raise _invalid("images", "draft")
    return key


def _too_many_images() -> CatalogError:
    return CatalogError(
        "too_many_images",
        _("Maximum of {max_images} images allowed").format(max_images=MAX_IMAGES),
    )


def store_image(
    *,
    session: Session,
    actor_id: object,
    data: bytes,
    draft: str,
    service_id: str | None = None,
    kept: list[str] | tuple[str, ...] = (),
) -> dict[str, str]:
    """Check and store one image for the service form `draft` (a key the form's state made
    when it opened). The cap of MAX_IMAGES counts what the server holds: the saved service's
    images (and its pending revision's) that the form still shows (`kept`), plus the uploads
    of this form not saved yet. The account's upload limits apply (storage.save_upload)."""
    actor = _caller(session, actor_id)
    key = _draft_key(draft)
    held: set[str] = set()
    if service_id:
        service = _editable(session, actor, service_id)
        saved = _paths(service.images) | _revision_paths(session.get(ServiceRevision, service.id))
        held = saved & {str(p) for p in kept}
    unsaved = session.exec(
        select(func.count())
        .select_from(StoredUpload)
        .where(
            StoredUpload.owner_id == actor.id,
            StoredUpload.draft == key,
            col(StoredUpload.referenced).is_(False),
        )
    ).one()
    if len(held) + unsaved >= MAX_IMAGES:
        raise _too_many_images()
    stored = storage.save_upload(session, "services", data, owner=actor, kind="service", draft=key)
    return {"path": stored.path, "url": stored.url}


def discard_image(*, session: Session, actor_id: object, draft: str, path: str) -> None:
    """The form `draft` let go of an image it uploaded and never saved: removed from storage
    (after the commit). Images of a saved service go only when the service is saved without
    them."""
    actor = _caller(session, actor_id)
    row = session.get(StoredUpload, str(path)[:255])
    if (
        row is not None
        and row.owner_id == actor.id
        and row.draft == _draft_key(draft)
        and not row.referenced
    ):
        storage.release(session, [row.path])


def _image_sources(
    session: Session, actor: User, images: list[dict[str, str]], service_id: str | None
) -> set[str]:
    """The images a form may show: its service's (and its pending revision's) and the caller's
    own uploads, never another account's file. Returns every path it shows."""
    paths = _paths(images)
    known: set[str] = set()
    if service_id:
        service = _editable(session, actor, service_id)
        known = _paths(service.images) | _revision_paths(session.get(ServiceRevision, service.id))
    new = paths - known
    if new:
        owned = session.exec(
            select(StoredUpload.path).where(
                col(StoredUpload.path).in_(new),
                StoredUpload.owner_id == actor.id,
                StoredUpload.kind == "service",
            )
        ).all()
        if new - set(owned):
            raise _invalid("images", "path")
    return paths


def category_choices(*, session: Session) -> list[tuple[str, str]]:
    """(id, name) of every category, by name."""
    rows = session.exec(select(ServiceCategory).order_by(col(ServiceCategory.name))).all()
    return [(str(c.id), c.name) for c in rows]
