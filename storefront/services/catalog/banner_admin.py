"""The back office's side of banners: create a banner, and add, edit and delete its items.
The public pages read the same rows at every load (services/catalog/banners.py), so a change shows
there at once.

Every function takes the caller's id, checks in the database that it is an admin, and writes
the audit log in the transaction of the change."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from storefront.models import Banner, BannerItem, utcnow
from storefront.services import audit, content, permissions
from storefront.services.errors import ServiceError
from storefront.services.media import storage

IMAGE_MAX_BYTES = storage.MAX_BYTES["banner"]  # docs/product.md §9: banner image 5 MB
NAME_MAX = 120
DESCRIPTION_MAX = 1000
TITLE_MAX = 200
ITEM_DESCRIPTION_MAX = 2000
URL_MAX = 1024
ORDER_MAX = 1_000_000


class BannerAdminError(ServiceError):
    """Codes: no_user, not_allowed (the caller), name_missing, name_too_long, name_taken,
    description_too_long, banner_not_found, item_not_found, title_and_image_missing,
    title_too_long, bad_image_url, bad_link_url, bad_display_order, not_image, too_large,
    upload_failed."""

    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "bad_display_order": "is_active is true or false",
        "bad_image_url": "Bad image url",
        "bad_link_url": "Bad link url",
        "banner_not_found": "No such banner",
        "description_too_long": "The description is too long",
        "item_not_found": "No such banner item",
        "name_missing": "Banner name is required",
        "name_taken": "A banner with this name exists already",
        "name_too_long": "The name is too long",
        "not_image": "File must be an image",
        "quota_exceeded": "Quota exceeded",
        "rate_limited": "Rate limited",
        "title_and_image_missing": "Title and Banner Image are required",
        "title_too_long": "The title is too long",
        "too_large": "Image size should be less than 5MB",
        "upload_failed": "The image could not be stored",
    }


@dataclass(frozen=True)
class BannerRow:
    id: str
    name: str
    description: str


@dataclass(frozen=True)
class ItemRow:
    id: str
    banner_id: str
    title: str
    description: str
    image_url: str
    link_url: str
    display_order: int
    is_active: bool
    # The English texts (empty: the English pages show the default ones).
    title_en: str = ""
    description_en: str = ""


@dataclass(frozen=True)
class ItemInput:
    """A banner item as the form gives it, checked: empty description and link are None."""

    title: str
    image_url: str
    description: str | None
    link_url: str | None
    display_order: int | None  # None: after the last item (docs/product.md §9: count + 1)
    is_active: bool = True
    # {"title": ..., "description": ...} in English; blank ones are left out.
    english: dict[str, str] = field(default_factory=dict)


# --- arguments -------------------------------------------------------------------------------


def _text(value: object) -> str:
    return "" if value is None else str(value).strip()


def _url(value: str, code: str) -> str:
    """A path on this site or an http(s) address: never `javascript:` or `data:`."""
    if len(value) > URL_MAX or any(c.isspace() for c in value):
        raise BannerAdminError(code, "Not a usable address")
    if value.startswith("/") and not value.startswith("//"):
        return value
    if value.lower().startswith(("https://", "http://")) and len(value.split("//", 1)[1]) > 0:
        return value
    raise BannerAdminError(code, "Not a usable address")


def check_item(
    *,
    title: object,
    image_url: object,
    description: object = "",
    link_url: object = "",
    display_order: object = None,
    is_active: object = True,
    title_en: object = "",
    description_en: object = "",
) -> ItemInput:
    """docs/product.md §5's rules for a banner item; whatever a client sends is checked here.
    The English title and description are optional, with the same limits."""
    title_text, image = _text(title), _text(image_url)
    english = {"title": _text(title_en), "description": _text(description_en)}
    if len(english["title"]) > TITLE_MAX:
        raise BannerAdminError("title_too_long", "The title is too long", max=TITLE_MAX)
    if len(english["description"]) > ITEM_DESCRIPTION_MAX:
        raise BannerAdminError(
            "description_too_long", "The description is too long", max=ITEM_DESCRIPTION_MAX
        )
    if not title_text or not image:
        raise BannerAdminError("title_and_image_missing", "Title and Banner Image are required")
    if len(title_text) > TITLE_MAX:
        raise BannerAdminError("title_too_long", "The title is too long", max=TITLE_MAX)
    description_text = _text(description)
    if len(description_text) > ITEM_DESCRIPTION_MAX:
        raise BannerAdminError(
            "description_too_long", "The description is too long", max=ITEM_DESCRIPTION_MAX
        )
    link = _text(link_url)
    order: int | None = None
    raw_order = display_order.strip() if isinstance(display_order, str) else display_order
    if raw_order not in (None, ""):
        if isinstance(raw_order, str) and raw_order.isdigit():
            raw_order = int(raw_order)
        if (
            not isinstance(raw_order, int)
            or isinstance(raw_order, bool)
            or not 0 <= raw_order <= ORDER_MAX
        ):
            raise BannerAdminError("bad_display_order", "Display order is a whole number >= 0")
        order = raw_order
    if not isinstance(is_active, bool):
        raise BannerAdminError("bad_display_order", "is_active is true or false")
    return ItemInput(
        title=title_text,
        image_url=_url(image, "bad_image_url"),
        description=description_text or None,
        link_url=_url(link, "bad_link_url") if link else None,
        display_order=order,
        is_active=is_active,
        english=english,
    )


def _id(value: object, code: str) -> uuid.UUID:
    try:
        return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value)[:64])
    except ValueError:
        raise BannerAdminError(code, "No such row") from None


def _banner(session: Session, banner_id: object) -> Banner:
    banner = session.get(Banner, _id(banner_id, "banner_not_found"))
    if banner is None:
        raise BannerAdminError("banner_not_found", "No such banner")
    return banner


def _item(session: Session, item_id: object) -> BannerItem:
    item = session.get(BannerItem, _id(item_id, "item_not_found"))
    if item is None:
        raise BannerAdminError("item_not_found", "No such banner item")
    return item


def _item_row(item: BannerItem) -> ItemRow:
    return ItemRow(
        id=str(item.id),
        banner_id=str(item.banner_id),
        title=item.title,
        description=item.description or "",
        image_url=item.image_url,
        link_url=item.link_url or "",
        display_order=item.display_order,
        is_active=item.is_active,
        title_en=content.written(item.translations, "en").get("title", ""),
        description_en=content.written(item.translations, "en").get("description", ""),
    )


# --- banners ---------------------------------------------------------------------------------


def list_banners(*, session: Session, actor_id: object) -> list[BannerRow]:
    """Every banner (active or not), in display order."""
    permissions.require_admin(session, actor_id, BannerAdminError)
    rows = session.exec(select(Banner).order_by(col(Banner.display_order), col(Banner.name))).all()
    return [BannerRow(str(b.id), b.name, b.description or "") for b in rows]


def create_banner(
    *, session: Session, actor_id: object, name: object, description: object = ""
) -> BannerRow:
    """A new active banner after the others. Names are unique."""
    name_text, description_text = _text(name), _text(description)
    if not name_text:
        raise BannerAdminError("name_missing", "Banner name is required")
    if len(name_text) > NAME_MAX:
        raise BannerAdminError("name_too_long", "The name is too long", max=NAME_MAX)
    if len(description_text) > DESCRIPTION_MAX:
        raise BannerAdminError(
            "description_too_long", "The description is too long", max=DESCRIPTION_MAX
        )
    permissions.require_admin(session, actor_id, BannerAdminError)
    if session.exec(select(Banner.id).where(Banner.name == name_text)).first() is not None:
        raise BannerAdminError("name_taken", "A banner with this name exists already")
    last = session.exec(select(func.max(Banner.display_order))).one()
    banner = Banner(
        name=name_text,
        description=description_text or None,
        is_active=True,
        display_order=(last or 0) + 1,
    )
    session.add(banner)
    try:
        session.flush()
    except IntegrityError:  # the same name created at the same moment
        raise BannerAdminError("name_taken", "A banner with this name exists already") from None
    audit.record(
        session,
        actor_id=actor_id,
        action="create_banner",
        entity_type="banner",
        entity_id=banner.id,
        before=None,
        after=audit.snapshot(banner),
    )
    return BannerRow(str(banner.id), banner.name, banner.description or "")


# --- items -----------------------------------------------------------------------------------


def list_items(*, session: Session, actor_id: object, banner_id: object) -> list[ItemRow]:
    """The items of a banner, active or not, in display order."""
    permissions.require_admin(session, actor_id, BannerAdminError)
    banner = _banner(session, banner_id)
    rows = session.exec(
        select(BannerItem)
        .where(BannerItem.banner_id == banner.id)
        .order_by(col(BannerItem.display_order), col(BannerItem.created_at))
    ).all()
    return [_item_row(r) for r in rows]


def next_display_order(*, session: Session, banner_id: uuid.UUID) -> int:
    """docs/product.md §9: a new item's default display order is the item count plus 1."""
    count = session.exec(
        select(func.count()).select_from(BannerItem).where(BannerItem.banner_id == banner_id)
    ).one()
    return count + 1


def create_item(
    *, session: Session, actor_id: object, banner_id: object, item: ItemInput
) -> ItemRow:
    permissions.require_admin(session, actor_id, BannerAdminError)
    banner = _banner(session, banner_id)
    order = item.display_order
    if order is None:
        order = next_display_order(session=session, banner_id=banner.id)
    row = BannerItem(
        banner_id=banner.id,
        title=item.title,
        description=item.description,
        image_url=item.image_url,
        link_url=item.link_url,
        display_order=order,
        is_active=item.is_active,
        translations=content.with_texts({}, "en", item.english),
    )
    audit.saved(
        session,
        row,
        actor_id=actor_id,
        action="create_banner_item",
        entity_type="banner_item",
    )
    storage.claim(session, _image_path(row.image_url))
    return _item_row(row)


def update_item(*, session: Session, actor_id: object, item_id: object, item: ItemInput) -> ItemRow:
    permissions.require_admin(session, actor_id, BannerAdminError)
    row = _item(session, item_id)
    replaced = _image_path(row.image_url) if row.image_url != item.image_url else []
    with audit.changing(
        session, row, actor_id=actor_id, action="update_banner_item", entity_type="banner_item"
    ):
        row.title, row.description = item.title, item.description
        row.image_url, row.link_url = item.image_url, item.link_url
        if item.display_order is not None:
            row.display_order = item.display_order
        row.is_active = item.is_active
        row.translations = content.with_texts(row.translations, "en", item.english)
    storage.claim(session, _image_path(row.image_url))
    storage.release(session, replaced)  # removed after the commit unless another item shows it
    return _item_row(row)


def delete_item(*, session: Session, actor_id: object, item_id: object) -> None:
    permissions.require_admin(session, actor_id, BannerAdminError)
    row = _item(session, item_id)
    audit.removed(
        session, row, actor_id=actor_id, action="delete_banner_item", entity_type="banner_item"
    )
    storage.release(session, _image_path(row.image_url))


def store_banner_image(
    *, session: Session, actor_id: object, data: bytes, now: datetime | None = None
) -> str:
    """Check and store a banner image (docs/product.md §5: an image, at most 5 MB); returns its URL,
    which
    the item takes when it is saved. The checks are the server's, whatever the picker let
    through, and the account's upload limits apply (rate_limited, quota_exceeded). Not saved
    on an item, it is removed by the orphan sweep."""
    actor = permissions.require_admin(session, actor_id, BannerAdminError)
    if len(data) > IMAGE_MAX_BYTES:
        raise BannerAdminError("too_large", "Image size should be less than 5MB")
    moment = now or utcnow()
    try:
        stored = storage.save_upload(
            session,
            "banners",
            data,
            owner=actor,
            kind="banner",
            name=f"banner-{int(moment.timestamp() * 1000)}",
            now=moment,
        )
    except storage.StorageError as exc:
        if exc.code in ("not_image", "bad_type", "no_file"):
            raise BannerAdminError("not_image", "File must be an image") from exc
        if exc.code == "too_large":
            raise BannerAdminError("too_large", "Image size should be less than 5MB") from exc
        if exc.code in storage.LIMIT_CODES:  # the account's limits, in their own words
            raise BannerAdminError(exc.code, exc.message, **exc.details) from exc
        raise BannerAdminError("upload_failed", "The image could not be stored") from exc
    return stored.url


def _image_path(url: str | None) -> list[str]:
    """The stored file behind an item's image address, if it is one of ours."""
    path = storage.path_from_url(url or "")
    return [path] if path else []


def create_banner_folders(*, session: Session, actor_id: object) -> storage.FolderReport:
    """'Create Storage Folders' (docs/product.md §2, 7): the banner folders of the image storage,
    each
    reported as created or failed. Folders already there count as created."""
    actor = permissions.require_admin(session, actor_id, BannerAdminError)
    report = storage.create_folders(storage.BANNER_FOLDERS)
    audit.record(
        session,
        actor_id=actor.id,
        action="create_storage_folders",
        entity_type="storage",
        entity_id=None,
        after={"created": report.created, "failed": report.failed},
    )
    return report
