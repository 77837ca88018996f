"""The admin's banner actions on SQLite and PostgreSQL: the spec's rules for a banner and its items,
only admins, an audit entry in the same transaction, and the home banner following at once."""

import io

import pytest
from PIL import Image
from sqlmodel import select

from storefront.models import AuditLog, Banner, BannerItem
from storefront.services.catalog import banner_admin as admin
from storefront.services.catalog import banners
from storefront.services.catalog.banner_admin import BannerAdminError, check_item
from tests.factories import make_user


def _setup(session):
    boss = make_user(session, role="admin")
    plain = make_user(session)
    session.commit()
    home = admin.create_banner(session=session, actor_id=boss.id, name=banners.HOME_BANNER)
    session.commit()
    return home, str(boss.id), str(plain.id)


def _item(**overrides):
    return check_item(**({"title": "Dasma", "image_url": "/media/banners/a.webp"} | overrides))


def _png(size=(40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 120)).save(out, format="PNG")
    return out.getvalue()


def test_check_item_follows_spec():
    item = _item(description="  ", link_url="", display_order="")
    assert (item.description, item.link_url, item.display_order, item.is_active) == (
        None,
        None,
        None,
        True,
    )
    assert _item(display_order="0").display_order == 0
    assert _item(link_url="https://example.com/x").link_url == "https://example.com/x"
    bad = [
        ({"title": " "}, "title_and_image_missing"),
        ({"image_url": ""}, "title_and_image_missing"),
        ({"title": "x" * 201}, "title_too_long"),
        ({"image_url": "javascript:alert(1)"}, "bad_image_url"),
        ({"link_url": "javascript:alert(1)"}, "bad_link_url"),
        ({"link_url": "//evil.example"}, "bad_link_url"),
        ({"link_url": "data:text/html,x"}, "bad_link_url"),
        ({"display_order": "-1"}, "bad_display_order"),
        ({"display_order": "1.5"}, "bad_display_order"),
        ({"display_order": True}, "bad_display_order"),
        ({"is_active": "yes"}, "bad_display_order"),
    ]
    for overrides, code in bad:
        with pytest.raises(BannerAdminError) as caught:
            _item(**overrides)
        assert caught.value.code == code, overrides


def test_create_banner_needs_a_unique_name_and_is_audited(session):
    home, boss, _ = _setup(session)
    with pytest.raises(BannerAdminError) as caught:
        admin.create_banner(session=session, actor_id=boss, name="   ")
    assert caught.value.code == "name_missing"
    assert caught.value.message == "Banner name is required"
    session.rollback()
    with pytest.raises(BannerAdminError) as caught:
        admin.create_banner(session=session, actor_id=boss, name=banners.HOME_BANNER)
    assert caught.value.code == "name_taken"
    session.rollback()
    made = admin.create_banner(
        session=session, actor_id=boss, name=" Summer ", description="Summer offers"
    )
    session.commit()
    assert made.name == "Summer"
    listed = admin.list_banners(session=session, actor_id=boss)
    assert [b.name for b in listed] == [banners.HOME_BANNER, "Summer"]  # by display order
    entries = session.exec(select(AuditLog).where(AuditLog.action == "create_banner")).all()
    assert {e.details["after"]["name"] for e in entries} == {banners.HOME_BANNER, "Summer"}
    assert all(str(e.actor_user_id) == boss for e in entries)


def test_items_default_order_count_plus_one_nulls_and_public_read(session):
    home, boss, _ = _setup(session)
    first = admin.create_item(
        session=session, actor_id=boss, banner_id=home.id, item=_item(title="First")
    )
    session.commit()
    second = admin.create_item(
        session=session,
        actor_id=boss,
        banner_id=home.id,
        item=_item(title="Second", description="", link_url="", display_order=""),
    )
    session.commit()
    assert (first.display_order, second.display_order) == (1, 2)
    stored = session.get(BannerItem, __import__("uuid").UUID(second.id))
    assert stored.description is None and stored.link_url is None
    zero = admin.create_item(
        session=session,
        actor_id=boss,
        banner_id=home.id,
        item=_item(title="Zero", display_order=0, link_url="/contact", description="Hi"),
    )
    session.commit()
    assert [
        i.title for i in admin.list_items(session=session, actor_id=boss, banner_id=home.id)
    ] == [
        "Zero",
        "First",
        "Second",
    ]
    # The public home banner reads the same rows, at once.
    assert [c.title for c in banners.active_banner_items(banners.HOME_BANNER, session=session)] == [
        "Zero",
        "First",
        "Second",
    ]
    admin.update_item(
        session=session,
        actor_id=boss,
        item_id=zero.id,
        item=_item(title="Zero, renamed", display_order=5, is_active=False),
    )
    session.commit()
    assert [c.title for c in banners.active_banner_items(banners.HOME_BANNER, session=session)] == [
        "First",
        "Second",
    ]
    [entry] = session.exec(select(AuditLog).where(AuditLog.action == "update_banner_item")).all()
    assert (
        entry.details["before"]["title"] == "Zero"
        and entry.details["before"]["link_url"] == "/contact"
    )
    assert entry.details["after"]["title"] == "Zero, renamed"
    assert entry.details["after"]["link_url"] is None

    admin.delete_item(session=session, actor_id=boss, item_id=first.id)
    session.commit()
    assert [c.title for c in banners.active_banner_items(banners.HOME_BANNER, session=session)] == [
        "Second"
    ]
    [deleted] = session.exec(select(AuditLog).where(AuditLog.action == "delete_banner_item")).all()
    assert deleted.details["before"]["title"] == "First" and deleted.details["after"] is None
    with pytest.raises(BannerAdminError) as caught:
        admin.delete_item(session=session, actor_id=boss, item_id=first.id)
    assert caught.value.code == "item_not_found"


def test_only_admins_change_anything(session):
    home, boss, plain = _setup(session)
    item = admin.create_item(session=session, actor_id=boss, banner_id=home.id, item=_item())
    session.commit()
    before = (
        len(session.exec(select(Banner)).all()),
        len(session.exec(select(AuditLog)).all()),
    )
    actions = [
        lambda actor: admin.create_banner(session=session, actor_id=actor, name="Forged"),
        lambda actor: admin.list_banners(session=session, actor_id=actor),
        lambda actor: admin.list_items(session=session, actor_id=actor, banner_id=home.id),
        lambda actor: admin.create_item(
            session=session, actor_id=actor, banner_id=home.id, item=_item(title="Forged")
        ),
        lambda actor: admin.update_item(
            session=session, actor_id=actor, item_id=item.id, item=_item(title="Forged")
        ),
        lambda actor: admin.delete_item(session=session, actor_id=actor, item_id=item.id),
        lambda actor: admin.store_banner_image(session=session, actor_id=actor, data=_png()),
    ]
    for action in actions:
        for actor, code in ((plain, "not_allowed"), (None, "no_user")):
            with pytest.raises(BannerAdminError) as caught:
                action(actor)
            session.rollback()
            assert caught.value.code == code
    [kept] = session.exec(select(BannerItem)).all()
    assert kept.title == "Dasma"
    after = (len(session.exec(select(Banner)).all()), len(session.exec(select(AuditLog)).all()))
    assert after == before


def test_store_banner_image_checks_the_content(session, media_dir):
    _home, boss, _ = _setup(session)
    url = admin.store_banner_image(session=session, actor_id=boss, data=_png())
    assert url.startswith("/media/banners/banner-") and url.endswith(".webp")
    assert (media_dir / url.removeprefix("/media/")).is_file()
    for data, code in (
        (b"not an image at all", "not_image"),
        (b"", "not_image"),
        (b"\x89PNG" + b"0" * (5 * 1024 * 1024), "too_large"),
    ):
        with pytest.raises(BannerAdminError) as caught:
            admin.store_banner_image(session=session, actor_id=boss, data=data)
        assert caught.value.code == code


def test_unknown_banner_and_item(session):
    _home, boss, _ = _setup(session)
    for bad in ("00000000-0000-0000-0000-000000000000", "nonsense"):
        with pytest.raises(BannerAdminError) as caught:
            admin.list_items(session=session, actor_id=boss, banner_id=bad)
        assert caught.value.code == "banner_not_found"
        session.rollback()
        with pytest.raises(BannerAdminError) as caught:
            admin.update_item(session=session, actor_id=boss, item_id=bad, item=_item())
        assert caught.value.code == "item_not_found"
        session.rollback()


def test_create_storage_folders_makes_the_banner_folders_for_admins_only(session, media_dir):
    from storefront.services.media import storage
    from storefront.state.admin_banners import folders_message

    boss, plain = make_user(session, role="admin"), make_user(session)
    session.commit()
    with pytest.raises(BannerAdminError) as refused:
        admin.create_banner_folders(session=session, actor_id=plain.id)
    assert refused.value.code == "not_allowed"
    session.rollback()
    report = admin.create_banner_folders(session=session, actor_id=boss.id)
    session.commit()
    assert report.created == list(storage.BANNER_FOLDERS) and report.failed == []
    assert all((media_dir / folder).is_dir() for folder in storage.BANNER_FOLDERS)
    assert session.exec(select(AuditLog).where(AuditLog.action == "create_storage_folders")).one()
    from storefront import i18n

    with i18n.using("en"):  # the back office's default language
        assert folders_message(5, 0) == (
            "Successfully created all 5 banner folders in storage",
            "",
        )
        assert folders_message(3, 2) == ("", "Created 3 folders, but 2 failed...")
        assert folders_message(0, 5) == ("", "Failed to create banner folders...")


def test_an_item_has_an_english_text_beside_the_default_one(session):
    """Issue 21: the admin writes both; an English text left empty shows the default one."""
    from storefront import i18n

    home, boss, _ = _setup(session)
    item = admin.create_item(
        session=session,
        actor_id=boss,
        banner_id=home.id,
        item=_item(title="Dasma", description="Për dasmën tuaj", title_en="Weddings"),
    )
    session.commit()
    assert (item.title_en, item.description_en) == ("Weddings", "")
    with i18n.using("en"):
        [card] = banners.active_banner_items(banners.HOME_BANNER, session=session)
        assert (card.title, card.description) == ("Weddings", "Për dasmën tuaj")
    [card] = banners.active_banner_items(banners.HOME_BANNER, session=session)
    assert card.title == "Dasma"

    admin.update_item(
        session=session,
        actor_id=boss,
        item_id=item.id,
        item=_item(title="Dasma", description_en="For your wedding", title_en="  "),
    )
    session.commit()
    with i18n.using("en"):
        [card] = banners.active_banner_items(banners.HOME_BANNER, session=session)
        assert (card.title, card.description) == ("Dasma", "For your wedding")
    with pytest.raises(BannerAdminError) as refused:
        _item(title_en="x" * (admin.TITLE_MAX + 1))
    assert refused.value.code == "title_too_long"
