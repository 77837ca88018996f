"""What the Mascots and Bouncers pages show, shaped from the catalogue (services/catalog/showcase.py)."""

from collections.abc import Iterator
from dataclasses import fields
from decimal import Decimal

import pytest
from sqlmodel import Session, SQLModel, create_engine

from storefront.models import Banner, BannerItem, Service, ServiceCategory
from storefront.models.kinds import kind as kind_entry
from storefront.models.kinds import read_details
from storefront.services.catalog import showcase
from storefront.services.catalog.public import ServiceView


def _view(kind="mascot", price="250", meta=None, image="/media/x.webp", title="Ice Princess"):
    return ServiceView(
        id="id-1",
        title=title,
        slug="s",
        description="Short text.",
        price=Decimal(price) if price is not None else None,
        kind=kind,
        category_slug="mascots",
        image_url=image,
        details=read_details(kind, meta or {}),
        price_unit=kind_entry(kind).price_unit,
    )


MASCOT_META = {
    "number": 3,
    "short_description": "Brief.",
    "full_description": "Long story.",
    "suitable_for": ["Weddings"],
    "color": "bg-sky-500",
}


def test_mascot_takes_its_texts_from_meta():
    mascot = showcase.to_mascot(_view(meta=MASCOT_META))
    assert (mascot.number, mascot.name, mascot.short_description) == (3, "Ice Princess", "Brief.")
    assert mascot.price_label == "250,00\u00a0€\u00a0/\u00a0orë"  # a mascot is priced per hour
    details = showcase.to_mascot_description(_view(meta=MASCOT_META))
    assert details == showcase.MascotDescription("id-1", "Long story.", ["Weddings"])


def test_a_slide_carries_only_what_it_shows():
    """The detail dialog's texts are read when it opens (showcase.mascot_details), so the page
    load does not carry them for every character; the colour is shown nowhere."""
    assert [f.name for f in fields(showcase.Mascot)] == [
        "id",
        "number",
        "name",
        "short_description",
        "image",
        "price_label",
    ]


def test_mascot_defaults_follow_spec():
    view = _view(image=None, meta={"suitable_for": "not a list"})
    mascot = showcase.to_mascot(view)
    details = showcase.to_mascot_description(view)
    assert mascot.image == showcase.NO_IMAGE
    assert details.suitable_for == ["Festa ditëlindjeje", "Festa shkollore"]  # the default edition
    assert details.full_description == mascot.short_description == "Short text."


def test_package_keeps_its_type_and_features():
    package = showcase.to_package(
        _view(kind="package", price="120", meta={"type": "mascot", "features": ["🧸 1", 5, " "]})
    )
    assert package.type == "mascot" and package.features == ["🧸 1"]
    assert package.price_label == "120,00\u00a0€\u00a0për event"


def test_bouncer_option_without_a_price_uses_the_castle_default():
    option = showcase.to_bouncer_option(
        _view(kind="bouncer_option", price=None, meta={"type": "castle-pink", "color": "#ec4899"})
    )
    assert option.price_label == "249,99\u00a0€\u00a0/\u00a0orë" and option.color == "#ec4899"


def test_fallback_bouncer_options_are_specs_six_and_not_addable():
    options = showcase.fallback_bouncer_options()
    assert [o.price_label for o in options] == [
        "199,99\u00a0€\u00a0/\u00a0orë",
        "219,99\u00a0€\u00a0/\u00a0orë",
    ] + ["249,99\u00a0€\u00a0/\u00a0orë"] * 4
    assert {o.id for o in options} == {""}


@pytest.fixture
def session() -> Iterator[Session]:
    engine = create_engine("sqlite://")
    SQLModel.metadata.create_all(engine)
    with Session(engine) as session:
        yield session
    engine.dispose()


def _category(session, slug):
    category = ServiceCategory(name=slug.title(), slug=slug)
    session.add(category)
    session.flush()
    return category


def _service(session, category, kind, slug, price="10", meta=None, order=0, active=True):
    session.add(
        Service(
            title=slug,
            slug=slug,
            kind=kind,
            price=Decimal(price),
            category_id=category.id,
            meta=meta or {},
            display_order=order,
            active=active,
        )
    )


def test_mascots_need_their_category(session):
    with pytest.raises(showcase.ShowcaseError) as error:
        showcase.mascot_characters(session=session)
    assert error.value.code == "category_missing"


def test_mascots_are_active_mascots_in_display_order(session):
    mascots = _category(session, "mascots")
    _service(session, mascots, "mascot", "b", order=2)
    _service(session, mascots, "mascot", "a", order=1)
    _service(session, mascots, "mascot", "hidden", order=0, active=False)
    _service(session, mascots, "package", "p", meta={"type": "mascot"})
    session.flush()
    assert [m.name for m in showcase.mascot_characters(session=session)] == ["a", "b"]


def test_packages_are_grouped_by_type_with_every_tab_present(session):
    bouncers = _category(session, "bouncers")
    _service(session, bouncers, "package", "b1", "150", {"type": "bouncer"}, order=1)
    _service(session, bouncers, "package", "c1", "250", {"type": "combo"}, order=2)
    _service(session, bouncers, "package", "x", "1", {"type": "mascot"}, order=3)
    session.flush()
    grouped = showcase.packages_by_type(
        session=session, category_slug="bouncers", types=showcase.BOUNCER_PACKAGE_TYPES
    )
    assert {t: [p.name for p in ps] for t, ps in grouped.items()} == {
        "bouncer": ["b1"],
        "castle": [],
        "combo": ["c1"],
    }


def test_bouncer_options_fall_back_only_when_the_catalogue_has_none(session):
    bouncers = _category(session, "bouncers")
    assert len(showcase.bouncer_options(session=session)) == 6
    _service(session, bouncers, "bouncer_option", "pink", "249.99", {"color": "#ec4899"})
    session.flush()
    assert [o.title for o in showcase.bouncer_options(session=session)] == ["pink"]


def test_galleries_are_read_from_their_banner(session):
    banner = Banner(name="gallery-bubbles", description="", display_order=1)
    session.add(banner)
    session.flush()
    for order, title in enumerate(["Two", "One"], start=1):
        session.add(
            BannerItem(
                banner_id=banner.id,
                title=title,
                image_url=f"/m/{title}.webp",
                display_order=3 - order,
            )
        )
    session.flush()
    page = showcase.bouncers_page(session=session)
    assert [p.title for p in page.bubbles] == ["One", "Two"]
    assert page.strip == [] and page.bouncers == []


def test_a_table_is_shaped_for_the_page_with_the_default_price_when_it_has_none():
    table = showcase.to_table(_view("table", price=None, meta={"color": "black", "diameter": 80}))
    assert (table.color, table.size, table.price) == ("black", "80", "7.00")
    assert showcase.to_table(_view("table", price="9.5")).price == "9.50"


def test_the_tables_total_is_the_carts_line_price_and_the_choices_are_the_details():
    assert showcase.table_total("7.00", 12) == Decimal("84.00")
    assert showcase.table_total(None, 3) == Decimal("21.00")
    assert showcase.table_price(None) == Decimal("7.00")
    assert showcase.is_table_choice(color="black") and not showcase.is_table_choice(color="red")
    assert showcase.is_table_choice(size="80") and not showcase.is_table_choice(size="70")
