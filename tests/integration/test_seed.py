"""The demo catalogue: everything the spec names, loaded idempotently."""

import re
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
from storefront.models.kinds import validate_details
from storefront.seed import catalog as catalog_data
from storefront.seed import catalog_en, load_demo
from storefront.services import content
from storefront.services.catalog import banners
from storefront.services.catalog import public as catalog
from storefront.services.media import storage


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
    from storefront.services.catalog import showcase

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


# The default edition is Albanian (issue 34): every text of the demo catalogue is written in
# Albanian in catalog.py and its English in catalog_en.py; only names stay the same.


def _proper_names() -> set[str]:
    """The names of characters, themes and products: the same in both editions."""
    return {
        spec["title"]
        for spec in catalog_data.SERVICES
        if spec["kind"] in ("mascot", "theme", "bouncer_option")
    }


def _pairs() -> list[tuple[str, object, object]]:
    """(where, default text, its English) for every text of the demo catalogue."""
    pairs: list[tuple[str, object, object]] = []
    for spec in catalog_data.CATEGORIES:
        english = catalog_en.CATEGORIES.get(spec["slug"], {})
        for field in ("name", "description"):
            pairs.append((f"{spec['slug']}.{field}", spec[field], english.get(field)))
    for spec in catalog_data.SERVICES:
        english = catalog_en.SERVICES.get(spec["slug"], {})
        for field in ("title", "description"):
            pairs.append((f"{spec['slug']}.{field}", spec[field], english.get(field)))
        details = english.get("details", {})
        for key in (
            "short_description",
            "full_description",
            "long_description",
            "age",
            "duration",
            "capacity",
        ):
            if key in spec["meta"]:
                pairs.append((f"{spec['slug']}.{key}", spec["meta"][key], details.get(key)))
        for key in ("features", "suitable_for"):
            texts = spec["meta"].get(key, [])
            for n, text in enumerate(texts):
                written = details.get(key) or []
                pairs.append(
                    (f"{spec['slug']}.{key}[{n}]", text, written[n] if n < len(written) else None)
                )
        for key, name in (("add_ons", "name"), ("lines", "label")):
            texts = spec["meta"].get(key, [])
            written = details.get(key) or []
            for n, entry in enumerate(texts):
                pairs.append(
                    (
                        f"{spec['slug']}.{key}[{n}]",
                        entry[name],
                        written[n][name] if n < len(written) else None,
                    )
                )
    for banner in catalog_data.BANNERS:
        for item in banner["items"]:
            where = f"{banner['name']}: {item['title']}"
            pairs.append((where, item["title"], catalog_en.BANNER_ITEMS.get(item["title"])))
            if item["description"]:
                pairs.append(
                    (
                        where + " (description)",
                        item["description"],
                        catalog_en.BANNER_ITEM_DESCRIPTIONS.get(item["description"]),
                    )
                )
    for name, captions in catalog_data.GALLERIES.items():
        for caption in captions:
            pairs.append(
                (f"gallery {name}: {caption}", caption, catalog_en.BANNER_ITEMS.get(caption))
            )
    return pairs


def test_no_text_of_the_default_edition_is_left_in_english():
    names = _proper_names()
    pairs = _pairs()
    assert len(pairs) > 500
    without_english = [where for where, _text, english in pairs if not english]
    assert not without_english, f"texts with no English in catalog_en.py: {without_english}"
    in_english = [where for where, text, english in pairs if text == english and text not in names]
    assert not in_english, f"texts of the default edition still in English: {in_english}"
    # Nor written in English and missing from the comparison: no English words.
    english = re.compile(r"\b(the|and|with|for|of|party|children|guests|hours|years)\b", re.I)
    english_words = [
        where for where, text, _english in pairs if text not in names and english.search(text)
    ]
    assert not english_words, f"English words in the default edition: {english_words}"


def test_the_business_settings_read_in_both_languages(session):
    load_demo(session=session)
    session.commit()
    from storefront.services import business

    default = business.business_details(session=session)
    with i18n.using("en"):
        english = business.business_details(session=session)
    assert (default.address, default.opening_hours) == (
        "Prishtinë, Kosovë",
        "E hënë - e premte 9:00-18:00",
    )
    assert (english.address, english.opening_hours) == (
        "Prishtina, Kosovo",
        "Monday to Friday 9AM-6PM",
    )


def test_mascots_themes_and_categories_read_albanian_and_keep_their_english(session):
    load_demo(session=session)
    session.commit()

    def read(lang: str, slug: str) -> catalog.ServiceView:
        with i18n.using(lang):
            view = catalog.get_public_service(session=session, service_id=slug)
        assert view is not None
        return view

    for spec in catalog_data.SERVICES:
        if spec["kind"] not in ("mascot", "theme"):
            continue
        slug, english = spec["slug"], catalog_en.SERVICES[spec["slug"]]
        sq, en = read("sq", slug), read("en", slug)
        expected = validate_details(spec["kind"], spec["meta"])
        assert sq.title == en.title == spec["title"]
        assert (sq.description, en.description) == (spec["description"], english["description"])
        for key, value in english["details"].items():
            assert getattr(sq.details, key) == getattr(expected, key), (slug, key)
            shown = getattr(en.details, key)
            if key == "add_ons":
                shown = [{"name": a.name, "price": f"{a.price:.2f}"} for a in shown]
            assert shown == value, (slug, key)

    princess_sq, princess_en = read("sq", "mascot-ice-princess"), read("en", "mascot-ice-princess")
    assert princess_sq.details.suitable_for == ["Festa ditëlindjeje", "Festa shkollore", "Dasma"]
    assert princess_en.details.suitable_for == ["Birthday Parties", "School Events", "Weddings"]
    assert princess_en.description == "A graceful princess of snow and ice."
    safari_sq = read("sq", "jungle-safari")
    assert safari_sq.details.age == "2-8 vjeç"
    assert safari_sq.details.add_ons[0].name == "Vizitë e maskotës Jolly Lion (1 orë)"
    assert read("en", "jungle-safari").details.add_ons[0].name == (
        "Jolly Lion mascot visit (1 hour)"
    )

    with i18n.using("sq"):
        default = {c.slug: c.name for c in catalog.list_categories(session=session)}
    with i18n.using("en"):
        english = {c.slug: c.name for c in catalog.list_categories(session=session)}
    assert default == {
        "magic-weddings": "Dasma magjike",
        "mascots": "Maskotat",
        "bouncers": "Bouncerë",
        "wedding-tables": "Tavolina dasme",
        "themed-decorations": "Dekorime tematike",
    }
    assert english == {
        "magic-weddings": "Magic Weddings",
        "mascots": "Mascots",
        "bouncers": "Bouncers",
        "wedding-tables": "Wedding Tables",
        "themed-decorations": "Themed Decorations",
    }
