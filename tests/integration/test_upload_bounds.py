"""Uploads have bounds (issue 18, finding 6), on SQLite and PostgreSQL with the local storage:
the server counts a form's images, removed and replaced images leave the storage only once the
change has committed, each account has a quota and an hourly upload limit, and the orphan sweep
removes what no row points at once it is older than the grace period."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from storefront.i18n import _
from storefront.models import BannerItem, StoredUpload, User, utcnow
from storefront.services.accounts import users
from storefront.services.catalog import admin as catalog_admin
from storefront.services.catalog import banner_admin
from storefront.services.catalog import listing as catalog_list
from storefront.services.catalog.admin import CatalogError, ServiceForm
from storefront.services.media import storage
from storefront.settings import get_settings
from tests.factories import image_bytes
from tests.integration import test_catalog_admin as catalog_tests

# The fixtures of tests/integration/test_catalog_admin.py: an admin and a plain user, the owner.
admin, owner = catalog_tests.admin, catalog_tests.user


def form(**overrides) -> ServiceForm:
    values = {
        "title": "Bubble House",
        "slug": "bubble-house",
        "description": "A bubble house.",
        "price": "150.00",
    }
    return ServiceForm(**(values | overrides))


def picture(n: int) -> bytes:
    return image_bytes(size=(40 + n, 30), color=(n % 256, 80, 120))


def on_disk(media_dir, path: str) -> bool:
    return (media_dir / path).is_file()


def rows(session) -> set[str]:
    session.expire_all()
    return set(session.exec(select(StoredUpload.path)).all())


def test_eight_upload_remove_cycles_leave_only_what_the_service_holds(session, owner, media_dir):
    kept = catalog_admin.store_image(session=session, actor_id=owner.id, data=picture(0), draft="a")
    service_id = catalog_admin.save_service(
        session=session, actor_id=owner.id, form=form(images=[kept])
    )
    session.commit()
    removed = []
    for n in range(8):
        image = catalog_admin.store_image(
            session=session,
            actor_id=owner.id,
            data=picture(n + 1),
            draft="b",
            service_id=service_id,
            kept=[kept["path"]],
        )
        session.commit()
        assert on_disk(media_dir, image["path"])
        catalog_admin.discard_image(
            session=session, actor_id=owner.id, draft="b", path=image["path"]
        )
        session.commit()
        removed.append(image["path"])
    assert not any(on_disk(media_dir, path) for path in removed)
    assert rows(session) == {kept["path"]}
    assert on_disk(media_dir, kept["path"])


def test_the_image_cap_counts_what_the_server_stored_not_what_the_tab_shows(session, owner):
    for n in range(catalog_admin.MAX_IMAGES):
        catalog_admin.store_image(session=session, actor_id=owner.id, data=picture(n), draft="a")
        session.commit()
    with pytest.raises(CatalogError) as refused:
        # The tab says it holds nothing; the server holds five for this form.
        catalog_admin.store_image(
            session=session, actor_id=owner.id, data=picture(9), draft="a", kept=[]
        )
    assert refused.value.code == "too_many_images"
    # No language named: the default edition's words, as the service writes them.
    assert refused.value.message == _("Maximum of {max_images} images allowed").format(max_images=5)
    session.rollback()
    assert len(rows(session)) == catalog_admin.MAX_IMAGES


def test_a_form_cannot_show_another_accounts_upload(session, owner, admin):
    theirs = catalog_admin.store_image(
        session=session, actor_id=admin.id, data=picture(1), draft="x"
    )
    session.commit()
    with pytest.raises(CatalogError) as refused:
        catalog_admin.save_service(session=session, actor_id=owner.id, form=form(images=[theirs]))
    assert (refused.value.code, refused.value.details["field"]) == ("invalid", "images")
    session.rollback()
    # Nor can it discard it.
    catalog_admin.discard_image(session=session, actor_id=owner.id, draft="x", path=theirs["path"])
    session.commit()
    assert rows(session) == {theirs["path"]}


def _saved_with_two_images(session, owner) -> tuple[list[dict], str]:
    """A service of `owner`'s saved and committed with two uploaded images."""
    images = [
        catalog_admin.store_image(session=session, actor_id=owner.id, data=picture(n), draft="a")
        for n in range(2)
    ]
    service_id = catalog_admin.save_service(
        session=session, actor_id=owner.id, form=form(images=images)
    )
    session.commit()
    return images, service_id


def test_an_image_taken_off_a_saved_service_goes_after_the_commit(session, owner, media_dir):
    images, service_id = _saved_with_two_images(session, owner)
    assert session.get(StoredUpload, images[0]["path"]).referenced
    catalog_admin.save_service(
        session=session, actor_id=owner.id, form=form(images=images[1:]), service_id=service_id
    )
    session.flush()
    assert on_disk(media_dir, images[0]["path"])  # not before the commit
    session.commit()
    assert not on_disk(media_dir, images[0]["path"])
    assert on_disk(media_dir, images[1]["path"])
    assert rows(session) == {images[1]["path"]}


def test_a_rolled_back_change_deletes_nothing(session, owner, media_dir):
    images, service_id = _saved_with_two_images(session, owner)
    catalog_admin.save_service(
        session=session, actor_id=owner.id, form=form(images=[]), service_id=service_id
    )
    session.rollback()
    assert all(on_disk(media_dir, image["path"]) for image in images)
    assert rows(session) == {image["path"] for image in images}
    # An upload whose transaction rolls back is removed again: no file without its row.
    fresh = catalog_admin.store_image(
        session=session, actor_id=owner.id, data=picture(7), draft="b", service_id=service_id
    )
    assert on_disk(media_dir, fresh["path"])
    session.rollback()
    assert not on_disk(media_dir, fresh["path"])
    assert fresh["path"] not in rows(session)


def test_a_replaced_avatar_is_deleted_from_storage(session, owner, media_dir):
    first = users.set_avatar(session=session, user_id=str(owner.id), data=picture(1))
    session.commit()
    second = users.set_avatar(session=session, user_id=str(owner.id), data=picture(2))
    first_path, second_path = storage.path_from_url(first), storage.path_from_url(second)
    assert on_disk(media_dir, first_path)  # still there until the commit
    session.commit()
    assert not on_disk(media_dir, first_path)
    assert on_disk(media_dir, second_path)
    assert session.get(User, owner.id).avatar_url == second


def test_the_storage_quota_refuses_with_a_clear_message(session, owner, media_dir, monkeypatch):
    first = users.set_avatar(session=session, user_id=str(owner.id), data=picture(1))
    session.commit()
    used = session.get(StoredUpload, storage.path_from_url(first)).bytes
    monkeypatch.setattr(get_settings(), "upload_quota_mb", (used + 10) / storage.MB)
    with pytest.raises(storage.StorageError) as refused:
        catalog_admin.store_image(session=session, actor_id=owner.id, data=picture(2), draft="a")
    assert refused.value.code == "quota_exceeded"
    assert refused.value.message.startswith("Storage limit reached. Your account can keep at")
    session.rollback()
    with pytest.raises(users.ProfileError) as refused:
        users.set_avatar(session=session, user_id=str(owner.id), data=picture(3))
    assert refused.value.code == "quota_exceeded"
    session.rollback()
    assert rows(session) == {storage.path_from_url(first)}


def test_uploads_per_hour_are_limited_per_account(session, owner, admin, monkeypatch):
    monkeypatch.setattr(get_settings(), "uploads_per_hour", 2)
    for n in range(2):
        catalog_admin.store_image(session=session, actor_id=owner.id, data=picture(n), draft="a")
        session.commit()
    with pytest.raises(users.ProfileError) as refused:
        users.set_avatar(session=session, user_id=str(owner.id), data=picture(5))
    assert refused.value.code == "rate_limited"
    assert refused.value.message == "Too many uploads. Please try again in 60 min."
    session.rollback()
    # Another account is not held back by this one.
    catalog_admin.store_image(session=session, actor_id=admin.id, data=picture(6), draft="b")
    session.commit()


def test_sweep_removes_old_orphans_only(session, owner, admin, media_dir):
    now = utcnow()
    saved = catalog_admin.store_image(
        session=session, actor_id=owner.id, data=picture(1), draft="a"
    )
    catalog_admin.save_service(session=session, actor_id=owner.id, form=form(images=[saved]))
    old_orphan = catalog_admin.store_image(
        session=session, actor_id=owner.id, data=picture(2), draft="b"
    )
    fresh = catalog_admin.store_image(
        session=session, actor_id=owner.id, data=picture(3), draft="c"
    )
    banner = banner_admin.store_banner_image(session=session, actor_id=admin.id, data=picture(4))
    banner_admin.create_item(
        session=session,
        actor_id=admin.id,
        banner_id=banner_admin.create_banner(session=session, actor_id=admin.id, name="B").id,
        item=banner_admin.check_item(title="Card", image_url=banner),
    )
    avatar = storage.path_from_url(
        users.set_avatar(session=session, user_id=str(owner.id), data=picture(5))
    )
    session.commit()
    grace = storage.orphan_grace()
    for row in session.exec(select(StoredUpload)).all():
        if row.path != fresh["path"]:
            row.created_at = now - grace - timedelta(minutes=1)
        session.add(row)
    session.commit()

    assert storage.sweep_orphans(session=session, now=now) == 1
    assert on_disk(media_dir, old_orphan["path"])  # not before the commit
    session.commit()
    assert not on_disk(media_dir, old_orphan["path"])
    kept = {saved["path"], fresh["path"], storage.path_from_url(banner), avatar}
    assert all(on_disk(media_dir, path) for path in kept)
    assert rows(session) == kept
    assert storage.sweep_orphans(session=session, now=now) == 0

    # The fresh one goes once it is older than the grace period too.
    assert storage.sweep_orphans(session=session, now=now + grace + timedelta(minutes=1)) == 1
    session.commit()
    assert not on_disk(media_dir, fresh["path"])


def test_a_rolled_back_sweep_deletes_nothing(session, owner, media_dir):
    orphan = catalog_admin.store_image(
        session=session, actor_id=owner.id, data=picture(1), draft="a"
    )
    session.commit()
    later = utcnow() + storage.orphan_grace() + timedelta(hours=1)
    assert storage.sweep_orphans(session=session, now=later) == 1
    session.rollback()
    assert on_disk(media_dir, orphan["path"])
    assert rows(session) == {orphan["path"]}


def test_a_banner_items_replaced_or_deleted_image_leaves_storage(session, admin, media_dir):
    banner_id = banner_admin.create_banner(session=session, actor_id=admin.id, name="Cards").id
    first = banner_admin.store_banner_image(session=session, actor_id=admin.id, data=picture(1))
    item = banner_admin.create_item(
        session=session,
        actor_id=admin.id,
        banner_id=banner_id,
        item=banner_admin.check_item(title="Card", image_url=first),
    )
    session.commit()
    second = banner_admin.store_banner_image(session=session, actor_id=admin.id, data=picture(2))
    banner_admin.update_item(
        session=session,
        actor_id=admin.id,
        item_id=item.id,
        item=banner_admin.check_item(title="Card", image_url=second),
    )
    session.commit()
    assert not on_disk(media_dir, storage.path_from_url(first))
    assert on_disk(media_dir, storage.path_from_url(second))
    banner_admin.delete_item(session=session, actor_id=admin.id, item_id=item.id)
    session.commit()
    assert not on_disk(media_dir, storage.path_from_url(second))
    assert session.exec(select(BannerItem)).all() == []
    assert rows(session) == set()


def test_a_deleted_services_and_banner_items_images_stay_until_the_commit(
    session, owner, admin, media_dir
):
    """Files are removed only after the commit that stops pointing at them: a rolled-back
    delete leaves every image in place, a committed one removes them."""
    images, service_id = _saved_with_two_images(session, owner)
    paths = [image["path"] for image in images]
    assert catalog_list.delete_service(session=session, actor_id=admin.id, service_id=service_id)
    session.flush()
    assert all(on_disk(media_dir, p) for p in paths)  # not inside the transaction
    session.rollback()
    assert all(on_disk(media_dir, p) for p in paths) and rows(session) == set(paths)
    catalog_list.delete_service(session=session, actor_id=admin.id, service_id=service_id)
    session.commit()
    assert not any(on_disk(media_dir, p) for p in paths) and rows(session) == set()

    banner_id = banner_admin.create_banner(session=session, actor_id=admin.id, name="Cards").id
    url = banner_admin.store_banner_image(session=session, actor_id=admin.id, data=picture(3))
    item = banner_admin.create_item(
        session=session,
        actor_id=admin.id,
        banner_id=banner_id,
        item=banner_admin.check_item(title="Card", image_url=url),
    )
    session.commit()
    path = storage.path_from_url(url)
    banner_admin.delete_item(session=session, actor_id=admin.id, item_id=item.id)
    session.flush()
    assert on_disk(media_dir, path)
    session.rollback()
    assert on_disk(media_dir, path)
    banner_admin.delete_item(session=session, actor_id=admin.id, item_id=item.id)
    session.commit()
    assert not on_disk(media_dir, path)
