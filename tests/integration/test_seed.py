"""The demo catalogue: everything the spec names, loaded idempotently."""

import uuid
from decimal import Decimal

from sqlalchemy import func
from sqlmodel import Session, SQLModel, select

from storefront import i18n
from storefront.models import (
    Banner,
    BannerItem,
    BusinessSettings,
    Service,
    ServiceAvailability,
    ServiceCapacity,
    ServiceCategory,
)
from storefront.seed import catalog_en, load_demo
from storefront.services import banners, catalog, content, storage


def _snapshot(session: Session) -> dict:
    """Row counts of every table plus the content of the catalogue rows."""
    counts = {
        table.name: session.exec(select(func.count()).select_from(table)).one()
        for table in SQLModel.metadata.sorted_tables
    }
    services = sorted(
        (s.slug, s.title, str(s.price), s.kind, repr(s.meta), repr(s.images), str(s.updated_at))
        for s in session.exec(select(Service)).all()
    )
    items = sorted(
        (i.title, i.image_url, i.display_order) for i in session.exec(select(BannerItem)).all()
    )
    return {"counts": counts, "services": services, "items": items}


def test_seeding_twice_changes_nothing(session):
    first = load_demo(session=session)
    session.commit()
    before = _snapshot(session)
    assert first.total > 0

    second = load_demo(session=session)
    session.commit()
    assert second.total == 0, second.inserted
    assert _snapshot(session) == before


def test_seeding_keeps_an_admins_edit(session):
    load_demo(session=session)
    session.commit()
    service = session.exec(select(Service).where(Service.slug == "white-tables-60cm")).one()
    service.price = Decimal("8.50")
    session.add(service)
    session.commit()
    load_demo(session=session)
    session.commit()
    session.refresh(service)
    assert service.price == Decimal("8.50")


def test_catalogue_has_every_offering_spec_names(session):
    load_demo(session=session)
    session.commit()
    slugs = {c.slug for c in session.exec(select(ServiceCategory)).all()}
    assert {
        "magic-weddings",
        "mascots",
        "wedding-tables",
        "bouncers",
        "themed-decorations",
    } <= slugs

    def of_kind(kind: str) -> list[Service]:
        return list(
            session.exec(
                select(Service).where(Service.kind == kind).order_by(Service.display_order)
            ).all()
        )

    tables = {s.slug: s for s in of_kind("table")}
    assert set(tables) == {
        "white-tables-60cm",
        "white-tables-80cm",
        "black-tables-60cm",
        "black-tables-80cm",
    }
    assert all(t.price == Decimal("7.00") for t in tables.values())
    assert len(of_kind("mascot")) == 41
    assert {s.slug for s in of_kind("theme")} == {
        "enchanted-princess",
        "cosmic-adventure",
        "jungle-safari",
    }
    themes = {s.slug: s.price for s in of_kind("theme")}
    assert themes == {
        "enchanted-princess": Decimal("599.00"),
        "cosmic-adventure": Decimal("649.00"),
        "jungle-safari": Decimal("579.00"),
    }
    offers = {s.slug: s.price for s in of_kind("wedding_offer")}
    assert sorted(offers.values()) == [Decimal("5.00"), Decimal("650.00"), Decimal("1300.00")]

    packages: dict[str, list[Decimal]] = {}
    for package in of_kind("package"):
        packages.setdefault(package.meta["type"], []).append(package.price)
    assert packages == {
        "mascot": [Decimal(p) for p in (100, 120, 140, 150, 180, 200)],
        "mascot-activities": [Decimal(p) for p in (150, 200, 230, 230, 250, 300)],
        "bouncer": [Decimal(p) for p in (150, 200, 230, 250, 300, 350)],
        "castle": [Decimal(p) for p in (150, 200, 230, 250, 300, 350)],
        "combo": [Decimal(p) for p in (250, 350, 400, 450, 500)],
    }
    options = {s.meta["type"]: s.price for s in of_kind("bouncer_option")}
    assert options == {
        "bouncer-jungle": Decimal("199.99"),
        "bouncer-pirate-ship": Decimal("219.99"),
        "bouncer-castle": Decimal("249.99"),
        "castle-redblue": Decimal("249.99"),
        "castle-pink": Decimal("249.99"),
        "castle-white": Decimal("249.99"),
    }


def test_packages_offers_tables_and_chairs_are_priced_per_event(session):
    load_demo(session=session)
    session.commit()
    units = {s.slug: (s.kind, s.price_unit) for s in session.exec(select(Service)).all()}
    per_event = {slug for slug, (_, unit) in units.items() if unit == "per_event"}
    assert per_event == {
        slug for slug, (kind, _) in units.items() if kind in ("package", "wedding_offer", "table")
    }
    assert "tiffany-chairs" in per_event
    assert {unit for kind, unit in units.values() if kind in ("mascot", "theme")} == {"per_hour"}


def test_every_service_has_capacity_hours_and_an_image_on_disk(session):
    load_demo(session=session)
    session.commit()
    services = session.exec(select(Service)).all()
    for service in services:
        assert session.get(ServiceCapacity, service.id) is not None, service.slug
        hours = session.exec(
            select(ServiceAvailability).where(ServiceAvailability.service_id == service.id)
        ).all()
        assert hours and all(h.start_time < h.end_time for h in hours), service.slug
        assert service.images, service.slug
        assert storage.resolve(service.images[0]["path"]) is not None, service.slug
    assert session.get(BusinessSettings, 1) is not None


def test_banners_spec_names_exist_and_read_in_order(session):
    load_demo(session=session)
    session.commit()
    names = set(session.exec(select(Banner.name)).all())
    assert {
        "Home Page Main Banner",
        "banner-weddings",
        "banner-bouncers",
        "banner-mascots",
        "banner-tables",
    } <= names
    cards = banners.active_banner_items(banners.HOME_BANNER, session=session)
    assert len(cards) >= 5
    orders = [session.get(BannerItem, uuid.UUID(c.id)).display_order for c in cards]
    assert orders == sorted(orders)
    # One card leaves its description empty so the page shows its fallback text.
    assert any(c.description is None for c in cards)


def test_inactive_banner_items_are_not_shown(session):
    load_demo(session=session)
    session.commit()
    first = banners.active_banner_items(banners.HOME_BANNER, session=session)[0]
    item = session.get(BannerItem, uuid.UUID(first.id))
    item.is_active = False
    session.add(item)
    session.commit()
    ids = [c.id for c in banners.active_banner_items(banners.HOME_BANNER, session=session)]
    assert first.id not in ids


def test_weddings_page_falls_back_to_built_in_packages(session):
    from storefront.services import showcase

    # No language named: the default edition's prices and words.
    per_event = i18n._("per event")
    empty = showcase.weddings_page(session=session)
    assert [o.price_label for o in empty.offers] == [f"1\u00a0999,00\u00a0€\u00a0{per_event}"] * 4
    assert all(o.id == "" for o in empty.offers) and empty.tiffany is None

    load_demo(session=session)
    session.commit()
    page = showcase.weddings_page(session=session)
    assert [o.price_label for o in page.offers] == [
        f"650,00\u00a0€\u00a0{per_event}",
        f"1\u00a0300,00\u00a0€\u00a0{per_event}",
    ]
    assert page.tiffany is not None and page.tiffany.price == "5.00"
    assert page.offers[0].lines[0] == "Dekorimi bazë: 225,00\u00a0€"


# The catalogue in both languages (seed/catalog_en.py; services/content.py reads it).


def _public_services(session: Session, lang: str) -> dict[str, catalog.ServiceView]:
    with i18n.using(lang):
        return {v.slug: v for v in catalog.list_public_services(session=session)}


def test_every_published_service_reads_in_both_languages(session):
    load_demo(session=session)
    session.commit()
    rows = {
        s.slug: s
        for s in session.exec(
            select(Service).where(Service.active, Service.status == "published")
        ).all()
    }
    missing = sorted(
        slug
        for slug, row in rows.items()
        if not all(content.written(row.translations, "en").get(f) for f in ("title", "description"))
    )
    assert not missing, f"published services without their English title or description: {missing}"

    default, english = _public_services(session, i18n.DEFAULT), _public_services(session, "en")
    assert set(default) == set(english) == set(rows)
    for slug, row in rows.items():
        assert (default[slug].title, default[slug].description) == (row.title, row.description)
        written = content.written(row.translations, "en")
        for name in ("title", "description"):
            shown = getattr(english[slug], name)
            assert shown.strip(), (slug, name)
            assert shown == (written.get(name) or getattr(row, name)), (slug, name)


def test_a_service_without_english_shows_its_default_text_on_english_pages(session):
    load_demo(session=session)
    session.commit()
    row = session.exec(select(Service).where(Service.slug == "oferta-100-persona")).one()
    row.translations = {"en": {"title": "  "}}
    session.add(row)
    session.commit()
    with i18n.using("en"):
        view = catalog.get_public_service(session=session, service_id=row.slug)
    assert view is not None
    assert (view.title, view.description) == (row.title, row.description)
    assert view.details.lines[0].label == "Dekorimi bazë"


def test_a_service_reads_in_the_language_of_the_moment(session):
    load_demo(session=session)
    session.commit()

    def read(lang: str, slug: str) -> catalog.ServiceView:
        with i18n.using(lang):
            view = catalog.get_public_service(session=session, service_id=slug)
        assert view is not None
        return view

    offer_sq, offer_en = read("sq", "oferta-100-persona"), read("en", "oferta-100-persona")
    assert offer_sq.title == "Oferta për 100 persona"
    assert offer_en.title == "Offer for 100 guests"
    assert [(line.label, line.amount) for line in offer_sq.details.lines][0] == (
        "Dekorimi bazë",
        Decimal("225.00"),
    )
    assert [line.amount for line in offer_en.details.lines] == [
        line.amount for line in offer_sq.details.lines
    ]
    assert offer_en.details.lines[0].label == "Base decoration"
    assert offer_en.details.people == 100

    package_sq, package_en = read("sq", "paketa-maskota-1"), read("en", "paketa-maskota-1")
    assert package_sq.details.features[0] == "🧸 1 maskotë sipas zgjedhjes"
    assert package_en.details.features[0] == "🧸 1 mascot of your choice"
    assert package_en.title == "Package 1" and package_en.price == package_sq.price

    theme_en = read("en", "enchanted-princess")
    assert theme_en.details.add_ons[0].name == "Princess mascot visit (1 hour)"
    assert theme_en.details.add_ons[0].price == Decimal("149.00")

    with i18n.using("en"):
        categories = {c.slug: c for c in catalog.list_categories(session=session)}
        cards = banners.active_banner_items(banners.HOME_BANNER, session=session)
    assert categories["mascots"].description.startswith("Mascots for birthdays")
    assert cards[0].title == "Magic Weddings"
    with i18n.using("sq"):
        cards = banners.active_banner_items(banners.HOME_BANNER, session=session)
    assert cards[0].title == "Dasma Magjike"


def test_reseeding_an_older_database_fills_english_and_keeps_an_admins(session):
    load_demo(session=session)
    session.commit()
    # A database seeded before the catalogue had English: every `translations` is empty.
    for model in (Service, ServiceCategory, BannerItem):
        for row in session.exec(select(model)).all():
            row.translations = {}
            session.add(row)
    # An admin's own English title, and English features of a theme.
    table = session.exec(select(Service).where(Service.slug == "white-tables-60cm")).one()
    table.translations = {"en": {"title": "Round white table (60 cm)"}}
    theme = session.exec(select(Service).where(Service.slug == "jungle-safari")).one()
    theme.translations = {"en": {"details": {"features": ["Our own jungle"]}}}
    # An admin's own default texts: the seed's English would be of something else.
    offer = session.exec(select(Service).where(Service.slug == "oferta-100-persona")).one()
    offer.meta = {**offer.meta, "lines": [{"label": "Dekorimi bazë", "amount": "250.00"}]}
    category = session.exec(select(ServiceCategory).where(ServiceCategory.slug == "mascots")).one()
    category.description = "Maskotat tona."
    session.add_all([table, theme, offer, category])
    session.commit()

    report = load_demo(session=session)
    session.commit()
    assert set(report.inserted) == {"english_texts"}, report.inserted

    english = content.written(table.translations, "en")
    assert english["title"] == "Round white table (60 cm)"
    assert english["description"] == catalog_en.SERVICES["white-tables-60cm"]["description"]
    theme_english = content.written(theme.translations, "en")
    assert theme_english["title"] == "Jungle Safari"
    assert theme_english["details"]["features"] == ["Our own jungle"]
    assert theme_english["details"]["add_ons"][0]["name"] == "Jolly Lion mascot visit (1 hour)"
    offer_english = content.written(offer.translations, "en")
    assert offer_english["title"] == "Offer for 100 guests"
    assert "lines" not in offer_english.get("details", {})
    assert content.written(category.translations, "en") == {"name": "Mascots"}

    with i18n.using("en"):
        view = catalog.get_public_service(session=session, service_id="oferta-100-persona")
        cards = banners.active_banner_items(banners.HOME_BANNER, session=session)
    assert view is not None
    assert [(line.label, line.amount) for line in view.details.lines] == [
        ("Dekorimi bazë", Decimal("250.00"))
    ]
    assert [c.title for c in cards][:2] == ["Magic Weddings", "Tiffany Chairs"]

    # A third run has nothing left to fill.
    assert load_demo(session=session).total == 0
